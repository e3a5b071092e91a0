package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The analytics budget across commands and machines: plans during a spent
// budget, a fleet of runners sharing a bucket, totals without rows, and
// the state each data source leaves.

type budgetResult struct {
	// plans during a spent budget, of the seven-data-source dashboard
	plans, dashboardRead, spentRequests int
	spentWall                           time.Duration
	// runners sharing one file:// bucket, in waves one cache_ttl apart
	runners, fleetPaths, fleetRead int
	fleetTTL                       time.Duration
	waves                          []int
	waveWalls                      []time.Duration
	// a totals-only read (max_results = 0) of totalsPaths paths
	totalsPaths    int
	totalsRequests map[string]int
	totalsState    map[string]int64
	// state of the data sources without paging
	singleState map[string]int64
}

// dashboardConfig reads the whole analytics export: the seven data
// sources a dashboard shows.
const dashboardConfig = `
data "mintlify_unique_visitors" "d" {}
data "mintlify_page_views" "d" {}
data "mintlify_search_queries" "d" {}
data "mintlify_feedback" "d" {}
data "mintlify_feedback_by_page" "d" {}
data "mintlify_assistant_conversations" "d" {}
data "mintlify_assistant_caller_stats" "d" {}

output "visitors" {
  value = length(data.mintlify_unique_visitors.d.visitors)
}
`

var dashboardData = mintlifytest.Dataset{Paths: 1200, SearchTerms: 150, Feedback: 150, Conversations: 1500, Seed: 42}

func (b *bench) measureBudget(plans, runners, totalsPaths int) (*budgetResult, error) {
	r := &budgetResult{plans: plans, runners: runners, totalsPaths: totalsPaths}
	if err := b.measureSpentPlans(r); err != nil {
		return nil, err
	}
	if err := b.measureFleet(r); err != nil {
		return nil, err
	}
	if err := b.measureTotals(r); err != nil {
		return nil, err
	}
	return r, nil
}

// newDir makes a run directory holding config.
func (b *bench) newDir(kind, config string) (string, error) {
	b.seq++
	dir := filepath.Join(b.work, fmt.Sprintf("%s-%03d", kind, b.seq))
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600)
}

// measureSpentPlans fills the cache with one apply of the dashboard, then
// spends the budget (every analytics request refused for an hour) and
// runs plans, each a new provider process, with copies that are no longer
// fresh: every plan serves them with a warning.
func (b *bench) measureSpentPlans(r *budgetResult) error {
	f, err := startFake(mintlifytest.Config{Analytics: dashboardData, AnalyticsBudget: -1})
	if err != nil {
		return err
	}
	defer f.close()
	dir, err := b.newDir("spent", f.providerBlock("")+dashboardConfig)
	if err != nil {
		return err
	}
	// A TTL of 1ns: every copy is stale at once, so each plan would ask.
	env := []string{"MINTLIFY_BENCH_WRAP_TARGET=" + b.provider, "MINTLIFY_CACHE_TTL=1ns", "MINTLIFY_CACHE_DIR=" + filepath.Join(dir, "cache")}
	if out, err := b.terraform(dir, env, "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
		return fmt.Errorf("terraform apply in %s: %w\n%s", dir, err, indent(out))
	}
	// One read of the dashboard: the apply's requests over its reads.
	reads, _ := readsAndPages(f, mintlifytest.RouteAnalyticsVisitors)
	r.dashboardRead = f.TotalRequests() / max(reads, 1)
	f.ResetCounters()
	f.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
	start := time.Now()
	for range r.plans {
		if out, err := b.terraform(dir, env, "plan", "-input=false", "-no-color"); err != nil {
			return fmt.Errorf("terraform plan during a spent budget in %s: %w\n%s", dir, err, indent(out))
		}
	}
	r.spentWall = time.Since(start)
	r.spentRequests = f.TotalRequests()
	return nil
}

// measureFleet runs runners terraform plans at once, each its own
// provider process with its own empty cache directory, all sharing one
// file:// bucket; then, one cache_ttl later, again.
func (b *bench) measureFleet(r *budgetResult) error {
	r.fleetPaths, r.fleetTTL = 1200, time.Minute
	r.fleetRead = (r.fleetPaths + 249) / 250
	f, err := startFake(mintlifytest.Config{Analytics: visitorsSource.data(r.fleetPaths), AnalyticsBudget: -1})
	if err != nil {
		return err
	}
	defer f.close()
	bucket := filepath.Join(b.work, "fleet-bucket")
	if err := os.MkdirAll(bucket, 0o750); err != nil {
		return err
	}
	for range 2 {
		waveStart := time.Now()
		before := f.Requests(mintlifytest.RouteAnalyticsVisitors)
		var wg sync.WaitGroup
		errs := make(chan error, r.runners)
		for range r.runners {
			dir, err := b.newDir("runner", f.providerBlock("")+visitorsSource.config())
			if err != nil {
				return err
			}
			wg.Go(func() {
				env := []string{"MINTLIFY_BENCH_WRAP_TARGET=" + b.provider, "MINTLIFY_CACHE_TTL=" + r.fleetTTL.String(),
					"MINTLIFY_CACHE_DIR=" + filepath.Join(dir, "cache"), "MINTLIFY_CACHE_URL=file://" + filepath.ToSlash(bucket)}
				if out, err := b.terraform(dir, env, "plan", "-input=false", "-no-color"); err != nil {
					errs <- fmt.Errorf("runner in %s: %w\n%s", dir, err, indent(out))
				}
			})
		}
		wg.Wait()
		close(errs)
		if err := <-errs; err != nil {
			return err
		}
		r.waves = append(r.waves, f.Requests(mintlifytest.RouteAnalyticsVisitors)-before)
		r.waveWalls = append(r.waveWalls, time.Since(waveStart))
		if len(r.waves) == 1 {
			// The next wave starts once the copy (stored during the wave)
			// has expired.
			select {
			case <-time.After(r.fleetTTL + time.Second):
			case <-b.ctx.Done():
				return b.ctx.Err()
			}
		}
	}
	return nil
}

// measureTotals applies max_results = 0 on both path-counts data sources
// of a large site, and the two data sources without paging, and reads the
// state each leaves.
func (b *bench) measureTotals(r *budgetResult) error {
	r.totalsRequests, r.totalsState, r.singleState = map[string]int{}, map[string]int64{}, map[string]int64{}
	for _, s := range []source{visitorsSource, viewsSource} {
		f, err := startFake(mintlifytest.Config{Analytics: s.data(r.totalsPaths), AnalyticsBudget: -1})
		if err != nil {
			return err
		}
		config := f.providerBlock("") + fmt.Sprintf("\ndata \"mintlify_%s\" \"totals\" {\n  max_results = 0\n}\n", s.name)
		res, err := b.apply(config, b.provider)
		reads, pages := readsAndPages(f, s.route)
		f.close()
		if err != nil {
			return err
		}
		r.totalsRequests[s.name] = pages / max(reads, 1)
		r.totalsState[s.name] = stateBytes(res.dir)
	}
	for _, name := range []string{"feedback_by_page", "assistant_caller_stats"} {
		f, err := startFake(mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 1000, Feedback: 1000, Conversations: 1000, Seed: 42}, AnalyticsBudget: -1})
		if err != nil {
			return err
		}
		res, err := b.apply(f.providerBlock("")+fmt.Sprintf("\ndata \"mintlify_%s\" \"d\" {}\n", name), b.provider)
		f.close()
		if err != nil {
			return err
		}
		r.singleState[name] = stateBytes(res.dir)
	}
	return nil
}

// stateBytes is the size of the state an apply left: what every remote
// backend stores and every command reads.
func stateBytes(dir string) int64 {
	info, err := os.Stat(filepath.Join(dir, "terraform.tfstate"))
	if err != nil {
		return 0
	}
	return info.Size()
}
