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
// release, waits, asks for a changelog entry, and reports the pull request.
func publishRelease(ctx context.Context, client *sdk.Client, projectID, version string) (string, error) {
	job, err := client.AgentJobs.Create(ctx, projectID, "Document release "+version)
	if err != nil {
		return "", err
	}
	if job, err = client.AgentJobs.Wait(ctx, projectID, job.ID); err != nil {
		return "", err
	}
	if job, err = client.AgentJobs.SendMessage(ctx, projectID, job.ID, "Also add a changelog entry for "+version); err != nil {
		return "", err
	}
	if job, err = client.AgentJobs.Wait(ctx, projectID, job.ID); err != nil {
		return "", err
	}
	if job.Status != sdk.JobStatusCompleted || job.PRLink == nil {
		return "", fmt.Errorf("agent job %s ended %s with no pull request", job.ID, job.Status)
	}
	return *job.PRLink, nil
}

// A test of code that uses the SDK, as a user's test suite would write it:
// a 30-minute job, rate limits on its polls and a follow-up message run in
// no wall time, because the fake and the client share one clock that moves
// when the client waits. The fake's records then say exactly what was sent.
func Example() {
	clock := mintlifytest.NewManualClock(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	fake := mintlifytest.New(mintlifytest.Config{
		Clock:      clock,
		DefaultJob: mintlifytest.JobScript{ActiveFor: 30 * time.Minute, Outcome: mintlifytest.OutcomeCompleted},
		// The API's bad day: the second and third polls are refused for 2 s.
		Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultRateLimit, RetryAfter: 2 * time.Second, Requests: []int{2, 3}}},
	})
	client, err := sdk.NewClient(mintlifytest.DemoAPIKey,
		sdk.WithBaseURL("https://mintlify.test"), // any https address: the in-process client never dials
		sdk.WithHTTPClient(fake.Client()),
		sdk.WithClock(clock))
	if err != nil {
		log.Fatal(err)
	}

	start := clock.Now()
	link, err := publishRelease(context.Background(), client, mintlifytest.DemoProjectID, "v2.0")
	fmt.Println(link, err)
	fmt.Println("fake time passed:", clock.Now().Sub(start).Round(time.Hour))

	// What reached the "API": one job, its prompt, one follow-up.
	ids := fake.JobIDs(mintlifytest.DemoProjectID)
	record, _ := fake.JobRecord(mintlifytest.DemoProjectID, ids[0])
	fmt.Println("jobs created:", len(ids))
	fmt.Println("prompt:", record.Prompt)
	fmt.Println("follow-up:", record.Messages[0].Prompt)
	fmt.Println("polls refused:", fake.FaultHits()[0])
	// Output:
	// https://github.com/acme/demo-project/pull/101 <nil>
	// fake time passed: 1h0m0s
	// jobs created: 1
	// prompt: Document release v2.0
	// follow-up: Also add a changelog entry for v2.0
	// polls refused: 2
}

// Faults and rate limits: the API's bad days, on demand.
func Example_faults() {
	srv := mintlifytest.NewServer(mintlifytest.Config{AnalyticsBudget: 2, Analytics: mintlifytest.Dataset{Paths: 1000}})
	defer srv.Close()
	newClient := func() *sdk.Client {
		client, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(srv.URL), sdk.WithHTTPClient(srv.Client()))
		if err != nil {
			log.Fatal(err)
		}
		return client
	}
	client := newClient()

	// A 1,000-path read takes 4 requests; the hour's budget is 2.
	_, err := client.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, sdk.VisitorsQuery{})
	fmt.Println(sdk.IsRateLimited(err), srv.Requests(mintlifytest.RouteAnalyticsVisitors))
	// The client remembers until when the budget is spent: asking again
	// sends nothing.
	_, err = client.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, sdk.VisitorsQuery{})
	fmt.Println(sdk.IsNotSent(err), srv.Requests(mintlifytest.RouteAnalyticsVisitors))

	srv.ResetRateLimits() // a new hour (for a client that knows it)
	srv.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultServerError, Requests: []int{1}})
	all, err := newClient().Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, sdk.VisitorsQuery{MaxResults: 250})
	fmt.Println(len(all.Paths), err, srv.FaultHits(), "attempts:", all.Attempts)
	// Output:
	// true 3
	// true 3
	// 250 <nil> [1] attempts: 2
}

// The SDK over the in-process client: no socket, and the fake's request
// log says what the code under test sent.
func Example_inProcessClient() {
	clock := mintlifytest.NewManualClock(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	fake := mintlifytest.New(mintlifytest.Config{Clock: clock})
	client, err := sdk.NewClient(mintlifytest.DemoAPIKey,
		sdk.WithBaseURL("https://mintlify.test"), sdk.WithHTTPClient(fake.Client()), sdk.WithClock(clock))
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	job, err := client.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "Document release v2.0")
	fmt.Println(job.Status, err, job.RequestID)
	clock.Advance(time.Minute)
	_, err = client.AgentJobs.SendMessage(ctx, mintlifytest.DemoProjectID, job.ID, "Mention the new limits")
	fmt.Println(err)

	record, _ := fake.JobRecord(mintlifytest.DemoProjectID, job.ID)
	fmt.Println(record.Prompt, "/", record.Messages[0].Prompt)
	fmt.Println(fake.RequestsTo(mintlifytest.RouteAgentJobsSendMessage)[0].Body)
	// Output:
	// active <nil> req_0000001
	// <nil>
	// Document release v2.0 / Mention the new limits
	// {"prompt":"Mention the new limits"}
}
