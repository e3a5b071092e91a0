package provider

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// dailyDataset is a site around the test clock (epoch, 2026-11-21 12:00
// UTC): 400 days of data ending 2026-12-01, whose events arrive for two
// days after each day ends.
func dailyDataset() mintlifytest.Dataset {
	return mintlifytest.Dataset{Paths: 20, Seed: 11, SearchTerms: 30, Feedback: 3000, Conversations: 6000,
		End: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), Days: 400, LateEvents: 48 * time.Hour}
}

const dailyAddr = "data.mintlify_analytics_daily.test"

func dailyConfig(url, args string) string {
	return providerBlock(url) + fmt.Sprintf("\ndata \"mintlify_analytics_daily\" \"test\" {\n%s\n}\n", args)
}

// dailyState checks the series in state: every day of the window, its
// known values as the fake serves them now, and check's own.
func dailyState(fs *mintlifytest.Fake, check func(points []any, missing []any, requests int) error) statecheck.StateCheck {
	return valuesInState(dailyAddr, func(vals map[string]any) error {
		points, _ := vals["points"].([]any)
		for _, raw := range points {
			p := raw.(map[string]any)
			date := p["date"].(string)
			day, _ := time.Parse(time.DateOnly, date)
			next := day.AddDate(0, 0, 1).Format(time.DateOnly)
			// State's numbers are json.Number: compared as printed.
			if v, ok := p["views"].(map[string]any); ok {
				want, _, _ := fs.ViewsData(mintlifytest.DemoProjectID, date, next)
				if fmt.Sprintf("%v %v %v", v["total"], v["human"], v["ai"]) != fmt.Sprintf("%d %d %d", want.Total, want.Human, want.AI) {
					return fmt.Errorf("%s: views %v, the fake serves %+v", date, v, want)
				}
			}
			if v := p["searches"]; v != nil {
				_, want, _ := fs.SearchesData(mintlifytest.DemoProjectID, mintlifytest.Query{DateFrom: date, DateTo: next})
				if fmt.Sprint(v) != fmt.Sprint(want) {
					return fmt.Errorf("%s: searches %v, the fake serves %d", date, v, want)
				}
			}
		}
		missing, _ := vals["missing"].([]any)
		requests, _ := vals["requests"].(json.Number).Int64()
		return check(points, missing, int(requests))
	})
}

// A 30-day chart of views, visitors and searches: the first plans fill it
// at most 20 requests a read, newest first, with a warning that says how
// many runs are left; then, within cache_ttl, a plan sends nothing; on a
// new day, the new day, the day still settling and the one settled since
// (three days, three metrics).
func TestAccAnalyticsDaily_fillsAcrossPlansThenKeptDaysCostNothing(t *testing.T) {
	clearEnv(t)
	t.Setenv(EnvCacheTTL, "10m")
	fs, url, clk := startFake(t, mintlifytest.Config{Analytics: dailyDataset()})
	rec := &diagRecorder{}
	cfg := dailyConfig(url, `  days    = 30
  metrics = ["views", "visitors", "searches"]`)
	filling := dailyState(fs, func(points, _ []any, requests int) error {
		if len(points) != 30 || points[0].(map[string]any)["date"] != "2026-10-22" || requests > sdk.DefaultDailyMaxRequests {
			return fmt.Errorf("%d points from %v, %d requests", len(points), points[0], requests)
		}
		return nil
	})
	whole := dailyState(fs, func(_, missing []any, _ int) error {
		if len(missing) != 0 {
			return fmt.Errorf("missing %v", missing)
		}
		return nil
	})
	countRequests := func(want int, what string) statecheck.StateCheck {
		return checkState(func(*tfjson.State) error {
			if n := fs.TotalRequests(); n != want {
				return fmt.Errorf("%s: %d requests, want %d", what, n, want)
			}
			return nil
		})
	}
	steps := []resource.TestStep{{Config: cfg, ConfigStateChecks: []statecheck.StateCheck{filling}}}
	for range 4 {
		steps = append(steps, resource.TestStep{Config: cfg, ConfigStateChecks: []statecheck.StateCheck{filling}})
	}
	steps = append(steps,
		resource.TestStep{Config: cfg, ConfigStateChecks: []statecheck.StateCheck{whole}},
		resource.TestStep{PreConfig: fs.ResetCounters, Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{whole, countRequests(0, "the same day")}},
		resource.TestStep{PreConfig: func() { clk.Advance(24 * time.Hour); fs.ResetCounters() }, Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{whole, countRequests(9, "a new day")}},
	)
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: recordingProviders(clk, rec), Steps: steps})
	if n := rec.count("ReadDataSource", "Mintlify daily analytics not filled yet"); n == 0 {
		t.Errorf("no warning while filling: %s", rec.text())
	}
	for _, want := range []string{"24 of the window's days are not read yet (2026-10-22 to 2026-11-14", "this read sent 20 requests (max_requests = 20)",
		"at least 70 more requests: about 4 more runs at max_requests = 20, and at least 1 hour(s)"} {
		if !strings.Contains(rec.text(), want) {
			t.Errorf("the warnings do not say %q:\n%s", want, rec.text())
		}
	}
}

// Bad input is refused at plan, before any request.
func TestAccAnalyticsDaily_badInputIsRefusedAtPlan(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startFake(t, mintlifytest.Config{Analytics: dailyDataset()})
	metrics := "\n  metrics = [\"views\"]"
	for _, tt := range []struct{ args, want string }{
		{"  days = 367" + metrics, `days is 367; it must be a whole number from 1 to 366`},
		{"  days = 0" + metrics, `days is 0; it must be a whole number from 1 to 366`},
		{`  date_from = "2025-01-01"` + "\n" + `  date_to = "2026-02-01"` + metrics, `date_to "2026-02-01" must be 1 to 366 days after date_from`},
		{`  date_from = "2026-11-01"` + "\n" + `  date_to = "2026-11-24"` + metrics, `date_to "2026-11-24" is in the future: it may be at most tomorrow, 2026-11-22`},
		{`  date_from = "2026-11-01T00:00:00Z"` + "\n" + `  date_to = "2026-11-10"` + metrics, `must be a day, YYYY-MM-DD`},
		{`  date_from = "2026-11-01"` + metrics, `"date_to" must be specified when "date_from" is specified`},
		{"  days = 7\n" + `  date_from = "2026-11-01"` + "\n" + `  date_to = "2026-11-10"` + metrics, `cannot be specified when`},
		{`  metrics = ["pageviews"]`, `value must be one of`},
		{`  metrics = ["views", "views"]`, `duplicate`},
		{`  metrics = []`, `list must contain at least 1 elements`},
		{"  max_requests = 0" + metrics, `max_requests is 0; it must be a whole number, at least 1`},
		{"  max_requests = -3" + metrics, `max_requests is -3; it must be a whole number, at least 1`},
		{`  settling_window = "5m"` + metrics, `must be a duration from 1h to 31d`},
	} {
		runSteps(t, clk, []resource.TestStep{{Config: dailyConfig(url, tt.args), PlanOnly: true, ExpectError: wrapped(tt.want)}})
	}
	wantNoRequests(t, fs, "for refused configurations")
}

// dailyAcrossRunners reads a settled window through the fleet's bucket
// from two runners, each with an empty cache_dir of its own: the first
// fills the history, the second, once the cache's entries are old, reads
// it and asks the API nothing.
func dailyAcrossRunners(t *testing.T, bucket string) {
	fs, url, clk := startFake(t, mintlifytest.Config{Analytics: dailyDataset()})
	window := `  date_from    = "2026-10-01"
  date_to      = "2026-10-15"
  metrics      = ["views", "feedback"]
  max_requests = 100`
	var first []any
	for runner := range 2 {
		cfg := strings.Replace(dailyConfig(url, window), "provider \"mintlify\" {",
			fmt.Sprintf("provider \"mintlify\" {\n  cache_dir = %q\n  cache_url = %q", t.TempDir(), bucket), 1)
		rec := &diagRecorder{}
		fs.ResetCounters()
		resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: recordingProviders(clk, rec), Steps: []resource.TestStep{{
			Config: cfg, ConfigStateChecks: []statecheck.StateCheck{dailyState(fs, func(points, missing []any, _ int) error {
				if len(missing) != 0 || len(points) != 14 {
					return fmt.Errorf("%d points, missing %v", len(points), missing)
				}
				for _, p := range points {
					if source := p.(map[string]any)["source"]; source != map[bool]string{true: "read", false: "kept"}[first == nil] {
						return fmt.Errorf("runner %d: %v", runner+1, p)
					}
					delete(p.(map[string]any), "source")
				}
				if first == nil {
					first = points
				} else if fmt.Sprint(first) != fmt.Sprint(points) {
					return fmt.Errorf("runner 2 read %v, runner 1 %v", points, first)
				}
				return nil
			})},
		}}})
		if runner == 1 && fs.TotalRequests() != 0 {
			t.Errorf("the second runner sent %d requests", fs.TotalRequests())
		}
		if got := rec.text(); got != "" {
			t.Errorf("runner %d: diagnostics %s", runner, got)
		}
		clk.Advance(11 * time.Minute) // the cache's entries of the days' answers are old
	}
}

// Through a file:// bucket (the same code path as s3://, gs:// and
// azblob://; TestAccStores runs it against their servers).
func TestAccAnalyticsDaily_keptAcrossRunnersThroughTheFleetBucket(t *testing.T) {
	clearEnv(t)
	t.Setenv(EnvCacheTTL, "10m")
	dailyAcrossRunners(t, "file://"+filepath.ToSlash(t.TempDir()))
}

var updateChart = flag.Bool("update-chart", false, "rewrite examples/guides/daily-chart/chart.svg from the example's output")

// The guide's example, as committed, applied against the fake once its
// 30 days are kept: its chart output is the picture committed beside it
// (go test -run Chart -update-chart draws it again), and its Grafana
// panel holds the same points.
func TestAccGuide_chartingDailyAnalyticsDrawsTheCommittedChart(t *testing.T) {
	clearEnv(t)
	t.Setenv(EnvCacheTTL, "10m")
	fs, url, clk := startFake(t, mintlifytest.Config{Analytics: dailyDataset()})
	t.Setenv(EnvAPIKey, mintlifytest.DemoAPIKey)
	t.Setenv(EnvBaseURL, url)
	t.Setenv(EnvProjectID, mintlifytest.DemoProjectID)
	dir := filepath.Join("..", "..", "examples", "guides", "daily-chart")
	picture := filepath.Join(dir, "chart.svg")
	// The example's files, but for its terraform block and its empty
	// provider block: the test serves the provider (configured by the
	// environment, as the example's is), and terraform-plugin-testing
	// takes a provider block in a directory for providers of the step's.
	work := t.TempDir()
	for _, name := range []string{"main.tf", "chart.svg.tftpl"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "main.tf" {
			data = regexp.MustCompile(`(?s)^terraform \{.*?\n\}\n|\nprovider "mintlify" \{\}\n`).ReplaceAll(data, nil)
		}
		if err := os.WriteFile(filepath.Join(work, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The history filled first (as the example's first plans would, 20
	// requests a plan; TestAccAnalyticsDaily_fillsAcrossPlans shows them),
	// through the provider's cache directory on the same clock: the apply
	// reads only the two days still settling.
	filler, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(url), sdk.WithClock(clk),
		sdk.WithAnalyticsCache(sdk.CacheOptions{Dir: os.Getenv(EnvCacheDir), FreshFor: time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	if s, err := filler.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, sdk.DailyQuery{DateFrom: "2026-10-22", DateTo: "2026-11-21",
		Metrics: []sdk.DailyMetric{sdk.DailyViews, sdk.DailyVisitors, sdk.DailySearches}, MaxRequests: 100}); err != nil || len(s.Missing) != 0 {
		t.Fatalf("filling: %v", err)
	}
	clk.Advance(11 * time.Minute) // the copies of the settling days are older than cache_ttl
	last := resource.TestStep{ConfigDirectory: config.StaticDirectory(work)}
	last.ConfigStateChecks = []statecheck.StateCheck{checkState(func(s *tfjson.State) error {
		chart, _ := s.Values.Outputs["chart"].Value.(string)
		if *updateChart {
			return os.WriteFile(picture, []byte(chart), 0o600)
		}
		want, err := os.ReadFile(picture)
		if err != nil {
			return err
		}
		if chart != string(want) {
			return fmt.Errorf("the chart output differs from %s (go test -run Chart -update-chart ./internal/provider/ draws it again):\n%s", picture, chart)
		}
		if strings.Contains(chart, "not read yet") || strings.Count(chart, "<polyline") != 6 || !strings.Contains(chart, "stroke-dasharray") {
			return fmt.Errorf("the chart is not of 30 whole days with their partial tail:\n%s", chart)
		}
		var panel struct {
			Targets []struct{ Data string } `json:"targets"`
		}
		var rows []map[string]any
		raw, _ := s.Values.Outputs["grafana_panel"].Value.(string)
		if err := json.Unmarshal([]byte(raw), &panel); err != nil {
			return fmt.Errorf("the Grafana panel: %w\n%s", err, raw)
		}
		if len(panel.Targets) != 1 || json.Unmarshal([]byte(panel.Targets[0].Data), &rows) != nil || len(rows) != 30 {
			return fmt.Errorf("the Grafana panel holds no 30 rows of JSON:\n%s", raw)
		}
		views, _, _ := fs.ViewsData(mintlifytest.DemoProjectID, "2026-11-20", "2026-11-21")
		if rows[29]["time"] != "2026-11-20T00:00:00Z" || rows[29]["views"] != float64(views.Total) || rows[29]["partial"] != true || rows[0]["partial"] != false {
			return fmt.Errorf("the Grafana panel's rows: first %v, last %v (views %d)", rows[0], rows[29], views.Total)
		}
		return nil
	})}
	fs.ResetCounters()
	runSteps(t, clk, []resource.TestStep{last})
	if n := fs.TotalRequests(); n != 2*3 {
		t.Errorf("%d requests, want 6: the two days still settling, three metrics", n)
	}
	if out, err := os.ReadFile(picture); err == nil && !regexp.MustCompile(`^<svg `).Match(out) {
		t.Errorf("%s is not an SVG", picture)
	}
}
