package sdk_test

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The examples run against the fake server; against the real API, drop
// WithBaseURL and pass your admin API key.
func exampleServer() (*httptest.Server, *sdk.Client) {
	ts := httptest.NewServer(mintlifytest.New(mintlifytest.Config{
		DefaultJob: mintlifytest.JobScript{ActiveFor: 50 * time.Millisecond, Outcome: mintlifytest.OutcomeCompleted},
		Analytics:  mintlifytest.Dataset{Paths: 600, Seed: 1},
	}))
	c, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(ts.URL))
	if err != nil {
		panic(err)
	}
	return ts, c
}

func ExampleClient_CreateAgentJob() {
	ts, client := exampleServer()
	defer ts.Close()
	ctx := context.Background()

	job, err := client.CreateAgentJob(ctx, mintlifytest.DemoProjectID, "Document the new /v2/agent endpoints")
	if err != nil {
		panic(err)
	}
	fmt.Println("created:", job.Status)

	job, err = client.WaitForAgentJob(ctx, mintlifytest.DemoProjectID, job.ID,
		sdk.WithPollInterval(10*time.Millisecond, 100*time.Millisecond))
	if err != nil {
		panic(err)
	}
	fmt.Println("finished:", job.Status, *job.PRLink)
	// Output:
	// created: active
	// finished: completed https://github.com/acme/demo-project/pull/101
}

func ExampleClient_ListAllUniqueVisitors() {
	ts, client := exampleServer()
	defer ts.Close()

	all, err := client.ListAllUniqueVisitors(context.Background(), mintlifytest.DemoProjectID,
		sdk.VisitorsQuery{DateFrom: "2026-10-01", DateTo: "2026-11-01"})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d paths in %d requests; top: %s\n", len(all.Visitors), all.Pages, all.Visitors[0].Path)
	// Output: 600 paths in 3 requests; top: /
}

func ExampleClient_UniqueVisitorRows() {
	ts, client := exampleServer()
	defer ts.Close()

	n := 0
	for row, err := range client.UniqueVisitorRows(context.Background(), mintlifytest.DemoProjectID, sdk.VisitorsQuery{}) {
		if err != nil {
			panic(err)
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

func ExampleIsNotFound() {
	ts, client := exampleServer()
	defer ts.Close()

	_, err := client.GetAgentJob(context.Background(), mintlifytest.DemoProjectID, "no-such-job")
	var apiErr *sdk.APIError
	fmt.Println(sdk.IsNotFound(err), errors.As(err, &apiErr) && apiErr.StatusCode == 404)
	// Output: true true
}
