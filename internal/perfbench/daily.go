package main

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The daily series (mintlify_analytics_daily): what each plan costs in
// analytics requests while a 7-, 30- or 365-day chart of three metrics
// (views, visitors, searches) fills from an empty cache, and once it is
// filled. Terraform runs against the fake on the wall clock; a new day,
// which the wall clock cannot be asked for, is measured with the SDK on
// the fake's clock.

// dailyHeading starts the report's section.
const dailyHeading = "## 14. Daily analytics series"

// dailyWindows are the windows measured, in days.
var dailyWindows = []int{7, 30, 365}

// dailyMetrics is the chart measured: three metrics of a request a day.
var dailyMetrics = []sdk.DailyMetric{sdk.DailyViews, sdk.DailyVisitors, sdk.DailySearches}

type dailyRow struct {
	days int
	// fill is the requests of each apply of the first fill, until no day
	// was missing.
	fill []int
	// sameDay is the next apply's (within cache_ttl), afterTTL one's with
	// every cached answer old, newDay and settledNewDay the SDK's a day
	// later, for a window ending yesterday and one ending where days are
	// settled.
	sameDay, afterTTL, newDay, settledNewDay int
}

type dailyResult struct {
	date    time.Time
	machine string
	rows    []dailyRow
}

// dailyData is the fake's site around now: a year and more of data, late
// events for two days.
func dailyData(now time.Time) mintlifytest.Dataset {
	return mintlifytest.Dataset{Paths: 20, SearchTerms: 30, Seed: 5, End: now.UTC().Truncate(24*time.Hour).AddDate(0, 0, 2), Days: 400, LateEvents: 48 * time.Hour}
}

// measureDaily measures every window.
func (b *bench) measureDaily() (*dailyResult, error) {
	r := &dailyResult{date: time.Now().UTC(), machine: machine(b.ctx, b.tf)}
	for _, days := range dailyWindows {
		log.Printf("a %d-day chart of three metrics, filled from an empty cache", days)
		row, err := b.dailyRow(days)
		if err != nil {
			return nil, err
		}
		r.rows = append(r.rows, row)
	}
	return r, nil
}

// dailyRow applies a chart of days (ending yesterday) until it is whole,
// then once more, then once with every cached answer old; and measures a
// new day with the SDK.
func (b *bench) dailyRow(days int) (dailyRow, error) {
	row := dailyRow{days: days}
	f, err := startFake(mintlifytest.Config{Analytics: dailyData(time.Now()), AnalyticsBudget: -1})
	if err != nil {
		return row, err
	}
	defer f.close()
	b.seq++
	dir := filepath.Join(b.work, fmt.Sprintf("daily-%03d", b.seq))
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return row, err
	}
	config := f.providerBlock("") + fmt.Sprintf(`
data "mintlify_analytics_daily" "chart" {
  days    = %d
  metrics = ["views", "visitors", "searches"]
}

output "missing" {
  value = length(data.mintlify_analytics_daily.chart.missing)
}
`, days)
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		return row, err
	}
	cache := []string{"MINTLIFY_BENCH_WRAP_TARGET=" + b.provider, "MINTLIFY_CACHE_DIR=" + filepath.Join(dir, "cache"), "MINTLIFY_CACHE_TTL=10m"}
	apply := func(env ...string) (requests, missing int, err error) {
		before := f.TotalRequests()
		if out, err := b.terraform(dir, append(cache, env...), "apply", "-auto-approve", "-input=false", "-no-color"); err != nil {
			return 0, 0, fmt.Errorf("terraform apply in %s: %w\n%s", dir, err, indent(out))
		}
		requests = f.TotalRequests() - before
		err = b.output(dir, "missing", &missing)
		return requests, missing, err
	}
	for missing := 1; missing > 0; {
		var n int
		if n, missing, err = apply(); err != nil {
			return row, err
		}
		row.fill = append(row.fill, n)
		if len(row.fill) > days*len(dailyMetrics) {
			return row, fmt.Errorf("a %d-day chart is not whole after %d applies", days, len(row.fill))
		}
	}
	if row.sameDay, _, err = apply(); err != nil {
		return row, err
	}
	if row.afterTTL, _, err = apply("MINTLIFY_CACHE_TTL=1ns"); err != nil {
		return row, err
	}
	if row.newDay, err = dailyNewDay(days, 0); err != nil {
		return row, err
	}
	// The settled edge: a day settles two days after it ends, so at noon
	// the days before the day before yesterday are settled.
	row.settledNewDay, err = dailyNewDay(days, int(sdk.DefaultDailySettle/(24*time.Hour)))
	return row, err
}

// dailyNewDay fills a chart of days ending endAgo days before today
// through the SDK on the fake's clock, on a cache of its own, then moves
// the clock a day on and counts what the next read sends.
func dailyNewDay(days, endAgo int) (int, error) {
	clock := mintlifytest.NewManualClock(time.Now().UTC().Truncate(24 * time.Hour).Add(12 * time.Hour))
	f, err := startFake(mintlifytest.Config{Clock: clock, Analytics: dailyData(clock.Now()), AnalyticsBudget: -1})
	if err != nil {
		return 0, err
	}
	defer f.close()
	dir, err := os.MkdirTemp("", "perfbench-daily")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	c, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(f.url), sdk.WithClock(clock),
		sdk.WithAnalyticsCache(sdk.CacheOptions{Dir: dir, FreshFor: 10 * time.Minute}))
	if err != nil {
		return 0, err
	}
	read := func() (int, error) {
		today := clock.Now().UTC().Truncate(24 * time.Hour)
		q := sdk.DailyQuery{DateFrom: today.AddDate(0, 0, -endAgo-days).Format(time.DateOnly), DateTo: today.AddDate(0, 0, -endAgo).Format(time.DateOnly),
			Metrics: dailyMetrics, MaxRequests: sdk.MaxDailyDays * len(sdk.DailyMetrics)}
		s, err := c.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, q)
		if err == nil && len(s.Missing) > 0 {
			err = fmt.Errorf("days missing: %v", s.Missing)
		}
		if err != nil {
			return 0, err
		}
		return s.Requests, nil
	}
	if _, err := read(); err != nil {
		return 0, err
	}
	clock.Advance(24 * time.Hour)
	return read()
}

func (r dailyRow) fillRequests() int {
	n := 0
	for _, x := range r.fill {
		n += x
	}
	return n
}

// section renders the report's section.
func (r *dailyResult) section() string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format, args...) }
	m := len(dailyMetrics)
	p("%s\n\n", dailyHeading)
	p("`mintlify_analytics_daily` with `days = N` (ending yesterday) and `metrics = [\"views\", \"visitors\", \"searches\"]`, the defaults otherwise (`max_requests = %d`, `settling_window = \"%s\"`, `cache_ttl = \"10m\"`), against the fake with late events arriving for two days: each `terraform apply` is a plan's read, a new provider process, on one `cache_dir`. **First fill**: applies from an empty cache until no day is missing, their requests (the floor: N × %d requests, at most %d a plan). **Steady state**: the next apply (within `cache_ttl`); one with every cached answer old (`cache_ttl = \"1ns\"`: the days still settling are read again); and a new day, measured with the SDK on the fake's clock (the wall clock cannot move a day): for the window ending yesterday, and for one ending where days are settled. Measured on %s (`make bench BENCH_FLAGS=\"-only daily\"` measures this section alone); machine: %s.\n\n",
		sdk.DefaultDailyMaxRequests, strings.TrimSuffix(sdk.DefaultDailySettle.String(), "0m0s"), m, sdk.DefaultDailyMaxRequests, r.date.Format("2006-01-02"), r.machine)
	p("| window | first fill: applies | requests per apply | in all (floor) | next apply | `cache_ttl` past | a new day | a new day, window of settled days |\n|---:|---:|---|---:|---:|---:|---:|---:|\n")
	for _, row := range r.rows {
		p("| %d days | %d | %s | %d (%d) | **%d** | %d | **%d** | **%d** |\n", row.days, len(row.fill), perApply(row.fill), row.fillRequests(), row.days*m, row.sameDay, row.afterTTL, row.newDay, row.settledNewDay)
	}
	p("\nA new day costs the new day, the day still settling and the day settled since its last read: 3 requests per metric whatever the window; a window that ends where days are settled, 1 per metric.\n\n")
	return w.String()
}

// perApply writes a fill's requests per apply, runs of the same number
// shortened: "20 × 54, 15".
func perApply(fill []int) string {
	var parts []string
	for i := 0; i < len(fill); {
		j := i
		for j < len(fill) && fill[j] == fill[i] {
			j++
		}
		if j-i > 1 {
			parts = append(parts, fmt.Sprintf("%d × %d", fill[i], j-i))
		} else {
			parts = append(parts, fmt.Sprint(fill[i]))
		}
		i = j
	}
	return strings.Join(parts, ", ")
}

// dailySummaryPrefix starts the summary rows of the section.
const dailySummaryPrefix = "| `mintlify_analytics_daily`"

// summaryRows are the summary table's rows of the section.
func (r *dailyResult) summaryRows(row func(what, result string, args ...any)) {
	days, fills, steady := make([]string, len(r.rows)), make([]string, len(r.rows)), make([]string, len(r.rows))
	for i, x := range r.rows {
		days[i], fills[i], steady[i] = fmt.Sprint(x.days), fmt.Sprintf("%d in %d applies", x.fillRequests(), len(x.fill)), fmt.Sprintf("%d / %d / %d", x.sameDay, x.newDay, x.settledNewDay)
	}
	row(fmt.Sprintf("`mintlify_analytics_daily`, %s days of 3 metrics: first fill (at most %d a plan)", strings.Join(days, " / "), sdk.DefaultDailyMaxRequests), "%s", strings.Join(fills, " / "))
	row(fmt.Sprintf("`mintlify_analytics_daily`, %s days of 3 metrics: requests per plan once filled (same day / a new day / a new day of a window of settled days)", strings.Join(days, " / ")), "**%s**", strings.Join(steady, "**, **"))
}

// measureDailyOnly measures the section alone (-only daily) and splices it
// into the report at out and its rows into the summary table.
func (b *bench) measureDailyOnly(out, summaryFile string) error {
	r, err := b.measureDaily()
	if err != nil {
		return err
	}
	return spliceOnly(out, summaryFile, "the daily series'", dailyHeading, r.section(), dailySummaryPrefix, r.summaryRows)
}
