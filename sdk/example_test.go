package sdk_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The examples run against mintlifytest, the SDK's fake of the API. Against
// the real API, drop the server and WithBaseURL, and pass your admin API
// key and project id.
func newExampleClient() (*mintlifytest.Server, *sdk.Client) {
	srv := mintlifytest.NewServer(mintlifytest.Config{
		DefaultJob: mintlifytest.JobScript{ActiveFor: 50 * time.Millisecond, Outcome: mintlifytest.OutcomeCompleted},
		Analytics:  mintlifytest.Dataset{Paths: 600, SearchTerms: 150, Seed: 1},
	})
	client, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}
	return srv, client
}

// waitQuickly polls the fake often; against the real API, leave it out.
var waitQuickly = sdk.WithPollInterval(10*time.Millisecond, 50*time.Millisecond)

func ExampleAgentJobsService_Create() {
	srv, client := newExampleClient()
	defer srv.Close()
	ctx := context.Background()
	projectID := mintlifytest.DemoProjectID

	job, err := client.AgentJobs.Create(ctx, projectID, "Document the new /v2/agent endpoints")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("created:", job.Status)

	job, err = client.AgentJobs.Wait(ctx, projectID, job.ID, waitQuickly)
	if err != nil {
		log.Fatal(err) // the job is in job (if any poll answered), still running
	}
	// A failed job is an answer, not an error: check the status.
	switch {
	case job.Status == sdk.JobStatusFailed:
		log.Fatalf("agent job %s failed", job.ID)
	case job.PRLink != nil:
		fmt.Println("pull request:", *job.PRLink)
	default:
		fmt.Println("finished:", job.Status, "(no files changed)")
	}
	// Output:
	// created: active
	// pull request: https://github.com/acme/demo-project/pull/101
}

func ExampleAgentJobsService_SendMessage() {
	srv, client := newExampleClient()
	defer srv.Close()
	ctx := context.Background()
	projectID := mintlifytest.DemoProjectID
	job, _ := client.AgentJobs.Create(ctx, projectID, "Document the new endpoints")
	job, _ = client.AgentJobs.Wait(ctx, projectID, job.ID, waitQuickly)
	fmt.Println("first round:", job.Status)

	// The agent takes the job up again; wait for this round to end too.
	job, err := client.AgentJobs.SendMessage(ctx, projectID, job.ID, "Also add a changelog entry")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("after the message:", job.Status)
	job, err = client.AgentJobs.Wait(ctx, projectID, job.ID, waitQuickly)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("second round:", job.Status, *job.PRLink)
	// Output:
	// first round: completed
	// after the message: active
	// second round: completed https://github.com/acme/demo-project/pull/101
}

func ExamplePagedEndpoint_All() {
	srv, client := newExampleClient()
	defer srv.Close()

	all, err := client.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID,
		sdk.VisitorsQuery{DateFrom: "2026-10-01", DateTo: "2026-11-01"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d paths in %d requests; first: %s\n", len(all.Paths), all.Pages, all.Paths[0].Path)
	// Output: 600 paths in 3 requests; first: /
}

func ExamplePagedEndpoint_Rows() {
	srv, client := newExampleClient()
	defer srv.Close()

	n := 0
	for row, err := range client.Analytics.Visitors.Rows(context.Background(), mintlifytest.DemoProjectID, sdk.VisitorsQuery{}) {
		if err != nil {
			log.Fatal(err)
		}
		if n++; n <= 3 {
			fmt.Println(row.Path)
		}
	}
	fmt.Println(n, "rows")
	// Output:
	// /
	// /api-reference/page-1
	// /guides/page-2
	// 600 rows
}

func ExamplePagedEndpoint_Rows_cursors() {
	srv, client := newExampleClient()
	defer srv.Close()

	// Cursor paging is followed for you; stop when you have enough.
	q := sdk.SearchesQuery{DateFrom: "2026-10-01", MaxResults: 3}
	for term, err := range client.Analytics.Searches.Rows(context.Background(), mintlifytest.DemoProjectID, q) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d searches\n", term.Query, term.Hits)
	}
	fmt.Println(srv.Requests(mintlifytest.RouteAnalyticsSearches), "request")
	// Output:
	// authentication: 2796 searches
	// how to api keys: 1800 searches
	// webhooks: 1037 searches
	// 1 request
}

func ExampleWithAnalyticsCache() {
	srv := mintlifytest.NewServer(mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 600}})
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "mintlify-cache")
	defer os.RemoveAll(dir)
	cache := sdk.WithAnalyticsCache(sdk.CacheOptions{Dir: dir, FreshFor: 10 * time.Minute, MaxStale: 24 * time.Hour})

	// Two programs (two cron runs, two terraform commands) on one machine.
	for run := 1; run <= 2; run++ {
		client, _ := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(srv.URL), cache)
		all, err := client.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, sdk.VisitorsQuery{})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("run %d: %d rows, from the cache: %v\n", run, len(all.Paths), all.Cache.Hit)
	}
	fmt.Println(srv.Requests(mintlifytest.RouteAnalyticsVisitors), "requests in all")
	// Output:
	// run 1: 600 rows, from the cache: false
	// run 2: 600 rows, from the cache: true
	// 3 requests in all
}

// While the organization's analytics budget is spent, a client that has
// been told so (here, or by another program sharing the cache) sends no
// analytics request until the time the API gave: a read serves a cached
// copy, or fails at once with APIError.NotSent.
func ExampleIsNotSent() {
	srv := mintlifytest.NewServer(mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10, SearchTerms: 10}})
	defer srv.Close()
	srv.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
	dir, _ := os.MkdirTemp("", "mintlify-cache")
	defer os.RemoveAll(dir)
	cache := sdk.WithAnalyticsCache(sdk.CacheOptions{Dir: dir, FreshFor: 10 * time.Minute, MaxStale: 24 * time.Hour})
	ctx := context.Background()

	first, _ := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(srv.URL), cache)
	_, err := first.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, sdk.VisitorsQuery{})
	fmt.Println("refused by the API:", sdk.RateLimitedByAPI(err))

	// Another program on the same cache, later.
	next, _ := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(srv.URL), cache)
	_, err = next.Analytics.Searches.All(ctx, mintlifytest.DemoProjectID, sdk.SearchesQuery{})
	fmt.Println("rate limited:", sdk.IsRateLimited(err), "not sent:", sdk.IsNotSent(err))
	fmt.Println(srv.TotalRequests(), "request in all")
	// Output:
	// refused by the API: true
	// rate limited: true not sent: true
	// 1 request in all
}

func ExampleIsNotFound() {
	srv, client := newExampleClient()
	defer srv.Close()

	_, err := client.AgentJobs.Get(context.Background(), mintlifytest.DemoProjectID, "no-such-job")
	var apiErr *sdk.APIError
	fmt.Println(sdk.IsNotFound(err), errors.As(err, &apiErr) && apiErr.StatusCode == 404)
	// Output: true true
}

func ExampleMayHaveTakenEffect() {
	srv, client := newExampleClient()
	defer srv.Close()
	// The first job POST gets no answer: the connection drops after it.
	srv.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultDropConnection, Requests: []int{1}})

	_, err := client.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "Document it")
	if sdk.MayHaveTakenEffect(err) {
		// Do not simply try again: the job may exist. Look for it first.
		fmt.Println("the job may exist; it was not created twice")
	}
	// Output: the job may exist; it was not created twice
}
