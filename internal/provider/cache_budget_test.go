package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// totalsMatchServer checks a path-counts data source read totals only: the
// server's totals and no rows.
func totalsMatchServer(fs *mintlifytest.Fake, addr, list string, views bool) statecheck.StateCheck {
	return checkState(func(s *tfjson.State) error {
		for _, r := range s.Values.RootModule.Resources {
			if r.Address != addr {
				continue
			}
			export := fs.VisitorsData
			if views {
				export = fs.ViewsData
			}
			totals, _, err := export(mintlifytest.DemoProjectID, "", "")
			if err != nil {
				return err
			}
			got := r.AttributeValues["totals"].(map[string]any)
			if triple(got["human"], got["ai"], got["total"]) != triple(totals.Human, totals.AI, totals.Total) {
				return fmt.Errorf("totals %v, server %+v", got, totals)
			}
			if rows := r.AttributeValues[list].([]any); len(rows) != 0 {
				return fmt.Errorf("%d rows in state, want none", len(rows))
			}
			if id := r.AttributeValues["id"]; id != mintlifytest.DemoProjectID+"?max_results=totals" {
				return fmt.Errorf("id %v", id)
			}
			return nil
		}
		return fmt.Errorf("%s not in state", addr)
	})
}

// max_results = 0 reads the totals only: one request of one row, whatever
// the site's size, and no rows in state.
func TestAccPathCounts_totalsOnlyIsOneRequest(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 5000}})
	cfg := providerBlock(url) + `
data "mintlify_unique_visitors" "totals" {
  max_results = 0
  page_size   = 100
}

data "mintlify_page_views" "totals" {
  max_results = 0
}
`
	runSteps(t, clk, []resource.TestStep{{Config: cfg, ConfigStateChecks: []statecheck.StateCheck{
		totalsMatchServer(fs, "data.mintlify_unique_visitors.totals", "visitors", false),
		totalsMatchServer(fs, "data.mintlify_page_views.totals", "views", true),
	}}})
	for _, route := range []string{mintlifytest.RouteAnalyticsVisitors, mintlifytest.RouteAnalyticsViews} {
		reads, requests := readsAndRequests(fs, route)
		if reads == 0 || requests != reads {
			t.Errorf("%s: %d requests over %d reads, want 1 a read", route, requests, reads)
		}
		for _, r := range fs.RequestLog() {
			if r.Route == route && !strings.Contains(r.Query, "limit=1&") {
				t.Errorf("%s asked %s, want a page of 1", route, r.Query)
			}
		}
	}
}

// Every plan, apply and refresh of a step during a spent budget serves the
// stale copy: one refused request in all, whatever the number of commands.
func TestAccCache_aSpentBudgetCostsOneRequest(t *testing.T) {
	clearEnv(t)
	t.Setenv(EnvCacheTTL, "1ns") // every copy is stale at once
	fs, url, clk := startFake(t, mintlifytest.Config{Clock: newTickingClock(time.Millisecond), Analytics: mintlifytest.Dataset{Paths: cachePaths, SearchTerms: 150}})
	cfg := visitorsConfig(url, "") + "\ndata \"mintlify_search_queries\" \"test\" {}\n"
	runSteps(t, clk, []resource.TestStep{
		{Config: cfg},
		{
			PreConfig: func() {
				fs.ResetCounters()
				fs.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
			},
			Config:            cfg,
			ConfigStateChecks: []statecheck.StateCheck{visitorsMatchServer(fs, "", "", 0)},
		},
		{Config: cfg, PlanOnly: true},
	})
	if hits := fs.FaultHits()[0]; hits != 1 {
		t.Errorf("%d refused requests over three steps of plans, applies and refreshes, want 1", hits)
	}
}

// The budget running out in the middle of a read (pages came, then a
// refusal) does not fail the plan when a copy exists: the read is done
// again, from the copy as a whole, without a request.
func TestAccCache_aBudgetSpentMidReadServesTheWholeCopy(t *testing.T) {
	clearEnv(t)
	t.Setenv(EnvCacheTTL, "1ns")
	// 7 an hour: the first read takes 5, the next gets 2 pages, then no more.
	fs, url, clk := startFake(t, mintlifytest.Config{Clock: newTickingClock(time.Millisecond), AnalyticsBudget: 7, Analytics: mintlifytest.Dataset{Paths: cachePaths}})
	cfg := visitorsConfig(url, "")
	runSteps(t, clk, []resource.TestStep{{
		Config:            cfg,
		ConfigStateChecks: []statecheck.StateCheck{visitorsMatchServer(fs, "", "", 0)},
	}})
	wantRequests(t, fs, mintlifytest.RouteAnalyticsVisitors, 8, "5 + 2 + the refusal")
}

// cache_url: runners with empty directories share one bucket; the bucket
// wins over cache_dir.
func TestAccCache_runnersShareABucket(t *testing.T) {
	clearEnv(t)
	t.Setenv(EnvCacheTTL, "10m")
	bucket := t.TempDir()
	fs, url, clk := startFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: cachePaths}})
	dirs := []string{t.TempDir(), t.TempDir()}
	config := func(dir string) string {
		return strings.Replace(visitorsConfig(url, ""), "provider \"mintlify\" {", fmt.Sprintf("provider \"mintlify\" {\n  cache_dir = %q\n  cache_url = %q", dir, "file://"+filepath.ToSlash(bucket)), 1)
	}
	for i, dir := range dirs {
		runSteps(t, clk, []resource.TestStep{{Config: config(dir), ConfigStateChecks: []statecheck.StateCheck{visitorsMatchServer(fs, "", "", 0)}}})
		if n := fs.Requests(mintlifytest.RouteAnalyticsVisitors); n != 5 {
			t.Errorf("runner %d: %d requests in all, want one read's 5", i, n)
		}
		if files, _ := os.ReadDir(dir); len(files) != 0 {
			t.Errorf("runner %d wrote %d files to cache_dir: the bucket should win", i, len(files))
		}
	}
}

func TestAccCache_cacheURLIsValidatedAtPlan(t *testing.T) {
	wantRefusedAtPlan(t, EnvCacheURL, []badSetting{
		{`cache_url = "ftp://bucket"`, "", `cache_url "ftp://bucket" must use one of the schemes s3://, gs://, azblob://, file://`},
		{`cache_url = "s3://AKIA:secret@bucket"`, "", `must not carry credentials`},
		{"", "https://example.com/bucket", `Invalid MINTLIFY_CACHE_URL`},
	})
}

// A cache directory others can write is refused, with one warning per
// provider process however many data sources read.
func TestCache_refusedDirectoryIsOneWarning(t *testing.T) {
	clearEnv(t)
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvCacheTTL, "10m")
	resp := configureProvider(t, map[string]tftypes.Value{"api_key": str(mintlifytest.DemoAPIKey), "cache_dir": str(dir)})
	got := diagText(resp.Diagnostics, diag.SeverityWarning)
	if resp.Diagnostics.HasError() || strings.Count(got, "Mintlify analytics cache not used as configured") != 1 ||
		!strings.Contains(got, "others can write to it") || !strings.Contains(got, dir) ||
		!strings.Contains(got, "each read the cache does not answer spends the analytics budget ("+sdk.AnalyticsLimit.Of("requests")+")") {
		t.Fatalf("diagnostics: %v", resp.Diagnostics)
	}
	data := resp.DataSourceData.(*providerData)
	for range 3 {
		var d diag.Diagnostics
		data.noteCacheProblem(&d)
		if len(d) != 0 {
			t.Errorf("warned again: %v", d)
		}
	}
	// A problem that arises later is shown once, at the first read after it.
	fresh := clientFor(t, "http://127.0.0.1:1", sdk.WithAnalyticsCache(sdk.CacheOptions{Dir: dir, FreshFor: time.Minute}))
	var d diag.Diagnostics
	fresh.noteCacheProblem(&d)
	fresh.noteCacheProblem(&d)
	if len(d) != 1 {
		t.Errorf("%d warnings, want 1", len(d))
	}
}
