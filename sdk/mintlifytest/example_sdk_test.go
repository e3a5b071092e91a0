package mintlifytest_test

// The examples in this file show the fake behind the Mintlify SDK, as an
// SDK user's tests would use it; it is the only test file of the package
// that imports the SDK. The others (example_test.go) use raw net/http, as
// any client can.

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// publishRelease is code under test: it asks the agent to document a
// release and reports the pull request.
func publishRelease(ctx context.Context, client *sdk.Client, projectID, version string) (string, error) {
	job, err := client.CreateAgentJob(ctx, projectID, "Document release "+version)
	if err != nil {
		return "", err
	}
	job, err = client.WaitForAgentJob(ctx, projectID, job.ID, sdk.WithPollInterval(10*time.Millisecond, 50*time.Millisecond))
	if err != nil {
		return "", err
	}
	if job.Status != sdk.JobStatusCompleted || job.PRLink == nil {
		return "", fmt.Errorf("agent job %s ended %s with no pull request", job.ID, job.Status)
	}
	return *job.PRLink, nil
}

// A test of code that uses the SDK: start the fake, point the client at
// it, script the outcome, and check what reached the "API".
func Example() {
	srv := mintlifytest.NewServer(mintlifytest.Config{
		DefaultJob: mintlifytest.JobScript{ActiveFor: 20 * time.Millisecond, Outcome: mintlifytest.OutcomeCompleted},
	})
	defer srv.Close()
	client, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(srv.URL))
	if err != nil {
		log.Fatal(err)
	}

	link, err := publishRelease(context.Background(), client, mintlifytest.DemoProjectID, "v2.0")
	fmt.Println(link, err)
	fmt.Println("jobs created:", srv.Requests(mintlifytest.RouteCreateJob))

	// The next job fails: the code under test must say so.
	srv.SetDefaultJob(mintlifytest.JobScript{ActiveFor: 20 * time.Millisecond, Outcome: mintlifytest.OutcomeFailed})
	_, err = publishRelease(context.Background(), client, mintlifytest.DemoProjectID, "v2.1")
	fmt.Println(err != nil)
	// Output:
	// https://github.com/acme/demo-project/pull/101 <nil>
	// jobs created: 1
	// true
}

// Faults and rate limits: the API's bad days, on demand.
func Example_faults() {
	srv := mintlifytest.NewServer(mintlifytest.Config{AnalyticsBudget: 2, Analytics: mintlifytest.Dataset{Paths: 1000}})
	defer srv.Close()
	client, _ := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(srv.URL))

	// A 1,000-path read takes 4 requests; the hour's budget is 2.
	_, err := client.ListAllUniqueVisitors(context.Background(), mintlifytest.DemoProjectID, sdk.VisitorsQuery{})
	fmt.Println(sdk.IsRateLimited(err))

	srv.ResetRateLimits() // a new hour
	srv.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteVisitors, Kind: mintlifytest.FaultServerError, Requests: []int{1}})
	all, err := client.ListAllUniqueVisitors(context.Background(), mintlifytest.DemoProjectID, sdk.VisitorsQuery{MaxResults: 250})
	fmt.Println(len(all.Visitors), err, srv.FaultHits())
	// Output:
	// true
	// 250 <nil> [1]
}

// The SDK over the in-process client: no socket, and the fake's request
// log says what the code under test sent.
func Example_inProcessClient() {
	clock := mintlifytest.NewManualClock(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	fake := mintlifytest.New(mintlifytest.Config{Clock: clock})
	client, err := sdk.NewClient(mintlifytest.DemoAPIKey,
		sdk.WithBaseURL("https://mintlify.test"), sdk.WithHTTPClient(fake.Client()))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	job, err := client.CreateAgentJob(ctx, mintlifytest.DemoProjectID, "Document release v2.0")
	fmt.Println(job.Status, err)
	clock.Advance(time.Minute)
	_, err = client.SendAgentJobMessage(ctx, mintlifytest.DemoProjectID, job.ID, "Mention the new limits")
	fmt.Println(err)

	record, _ := fake.JobRecord(mintlifytest.DemoProjectID, job.ID)
	fmt.Println(record.Prompt, "/", record.Messages[0].Prompt)
	fmt.Println(fake.RequestsTo(mintlifytest.RouteSendMessage)[0].Body)
	// Output:
	// active <nil>
	// <nil>
	// Document release v2.0 / Mention the new limits
	// {"prompt":"Mention the new limits"}
}
