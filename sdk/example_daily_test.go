package sdk_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// A daily chart of two weeks: the first call reads at most its cap
// (MaxRequests, default 20), the newest days first; the second reads the
// rest; settled days are kept in the cache, so a third call sends nothing.
func ExampleAnalyticsService_Daily() {
	// The fake and the client on one clock (against the real API, drop
	// both clocks, the server and WithBaseURL).
	clock := mintlifytest.NewManualClock(time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC))
	srv := mintlifytest.NewServer(mintlifytest.Config{Clock: clock, Analytics: mintlifytest.Dataset{Paths: 50, SearchTerms: 40, Seed: 1}})
	defer srv.Close()
	dir, err := os.MkdirTemp("", "mintlify-cache")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	client, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(srv.URL), sdk.WithClock(clock),
		sdk.WithAnalyticsCache(sdk.CacheOptions{Dir: dir, FreshFor: 10 * time.Minute}))
	if err != nil {
		log.Fatal(err)
	}

	q := sdk.DailyQuery{DateFrom: "2026-10-01", DateTo: "2026-10-15", Metrics: []sdk.DailyMetric{sdk.DailyViews, sdk.DailySearches}}
	var series *sdk.DailySeries
	for run := 1; run <= 3; run++ {
		series, err = client.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, q)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("run %d: %d requests, %d days missing\n", run, series.Requests, len(series.Missing))
	}
	last := series.Points[len(series.Points)-1]
	fmt.Printf("%s: %d views, %d searches (%s)\n", last.Date, last.Views.Total, *last.Searches, last.Source)
	// Output:
	// run 1: 20 requests, 4 days missing
	// run 2: 8 requests, 0 days missing
	// run 3: 0 requests, 0 days missing
	// 2026-10-14: 22074 views, 489 searches (kept)
}
