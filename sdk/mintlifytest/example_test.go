package mintlifytest_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// call sends a request with the demo key through client, and returns the
// status, the X-Request-Id and the body.
func call(client *http.Client, method, path, body string) (int, string, string) {
	req, _ := http.NewRequestWithContext(context.Background(), method, "http://mintlify.test"+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAPIKey)
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err.Error()
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, resp.Header.Get("X-Request-Id"), fmt.Sprintf("%.30s... (%v)", data, err)
	}
	return resp.StatusCode, resp.Header.Get("X-Request-Id"), strings.TrimSpace(string(data))
}

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// The in-process client: no socket, no port; any base URL reaches the fake.
func ExampleFake_Client() {
	f := mintlifytest.New(mintlifytest.Config{Clock: mintlifytest.NewManualClock(t0)})
	client := f.Client()

	status, id, body := call(client, "POST", "/v2/agent/demo-project/job", `{"prompt":"Document the API"}`)
	fmt.Println(status, id)
	fmt.Println(body)
	status, id, body = call(client, "GET", "/v2/agent/demo-project/job/nope", "")
	fmt.Println(status, id, body)
	// Output:
	// 201 req_0000001
	// {"id":"910a2dec-8902-4cc1-8a2d-000000000001","status":"active","source":{"repository":"https://github.com/acme/demo-project","ref":"main"},"model":"claude-sonnet-4-5","prLink":null,"createdAt":"2026-11-21T12:00:00.000Z","archivedAt":null}
	// 404 req_0000002 {"error":"Job not found"}
}

// Asserting what was sent: the request log has every request as it
// arrived, and JobRecord a job's prompt and the follow-ups it accepted.
func ExampleFake_JobRecord() {
	clock := mintlifytest.NewManualClock(t0)
	f := mintlifytest.New(mintlifytest.Config{Clock: clock})
	client := f.Client()

	// The code under test creates a job, then follows up.
	call(client, "POST", "/v2/agent/demo-project/job", `{"prompt":"Document release v2.0"}`)
	job := f.JobIDs(mintlifytest.DemoProjectID)[0]
	clock.Advance(time.Minute)
	call(client, "POST", "/v2/agent/demo-project/job/"+job+"/message", `{"prompt":"Mention the new rate limits"}`)

	sent := f.RequestsTo(mintlifytest.RouteAgentJobsSendMessage)[0]
	fmt.Println(sent.Method, sent.JobID == job, sent.Body, sent.Status, sent.Org)
	record, _ := f.JobRecord(mintlifytest.DemoProjectID, job)
	fmt.Println(record.Prompt)
	for _, m := range record.Messages {
		fmt.Println(m.At.Format(time.TimeOnly), m.Prompt)
	}
	// Output:
	// POST true {"prompt":"Mention the new rate limits"} 200 demo-org
	// Document release v2.0
	// 12:01:00 Mention the new rate limits
}

// Seeding a job: code that reads or adopts jobs it did not create.
func ExampleFake_SeedJob() {
	f := mintlifytest.New(mintlifytest.Config{})
	_, err := f.SeedJob(mintlifytest.DemoProjectID, mintlifytest.JobSeed{
		ID:         "job-from-last-week",
		Status:     "archived",
		Prompt:     "Rewrite the quickstart",
		PRLink:     "https://github.com/acme/docs/pull/7",
		CreatedAt:  time.Date(2026, 11, 14, 9, 0, 0, 0, time.UTC),
		ArchivedAt: time.Date(2026, 11, 15, 9, 0, 0, 0, time.UTC),
	})
	fmt.Println(err)
	_, _, body := call(f.Client(), "GET", "/v2/agent/demo-project/job/job-from-last-week", "")
	fmt.Println(body)
	// Output:
	// <nil>
	// {"id":"job-from-last-week","status":"archived","source":{"repository":"https://github.com/acme/demo-project","ref":"main"},"model":"claude-sonnet-4-5","prLink":"https://github.com/acme/docs/pull/7","createdAt":"2026-11-14T09:00:00.000Z","archivedAt":"2026-11-15T09:00:00.000Z"}
}

// Seeding rows: exact analytics in, exact rows out, through the endpoint's
// own dates and paging.
func ExampleFake_SeedRows() {
	f := mintlifytest.New(mintlifytest.Config{})
	day := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	err := f.SeedRows(mintlifytest.DemoProjectID, mintlifytest.Rows{
		Visitors: []mintlifytest.PathDay{
			{Day: day, Path: "/quickstart", Human: 120, AI: 30, Total: 140},
			{Day: day.AddDate(0, 0, 1), Path: "/quickstart", Human: 80, AI: 10, Total: 85},
			{Day: day, Path: "/api/auth", Human: 300, AI: 0, Total: 300},
			{Day: day.AddDate(0, 0, 7), Path: "/changelog", Human: 9, AI: 9, Total: 9},
		},
	})
	fmt.Println(err)
	_, _, body := call(f.Client(), "GET", "/v1/analytics/demo-project/visitors?dateFrom=2027-03-01&dateTo=2027-03-03&limit=1&offset=1", "")
	fmt.Println(body)
	// Output:
	// <nil>
	// {"totals":{"human":500,"ai":40,"total":525},"visitors":[{"path":"/quickstart","human":200,"ai":40,"total":225}],"hasMore":false}
}

// Faults: a reset serves the request, then breaks the connection
// mid-answer. The client's read fails, yet the job exists.
func ExampleFault() {
	f := mintlifytest.New(mintlifytest.Config{Faults: []mintlifytest.Fault{
		{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultReset, Requests: []int{1}},
		{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultClientError, Status: 409, Message: "Job is busy"},
	}})
	client := f.Client()

	req, _ := http.NewRequestWithContext(context.Background(), "POST", "http://mintlify.test/v2/agent/demo-project/job", strings.NewReader(`{"prompt":"x"}`))
	req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAPIKey)
	resp, err := client.Do(req)
	fmt.Println(resp.StatusCode, err)
	_, err = io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(errors.Is(err, io.ErrUnexpectedEOF), len(f.JobIDs(mintlifytest.DemoProjectID)))

	fmt.Println(call(client, "GET", "/v2/agent/demo-project/job/"+f.JobIDs(mintlifytest.DemoProjectID)[0], ""))
	fmt.Println(f.RequestLog()[0].Fault, f.RequestLog()[1].Fault)
	// Output:
	// 201 <nil>
	// true 1
	// 409 req_0000002 {"error":"Job is busy"}
	// reset client-error
}

// A fault of your own: Respond gets each request its rule hits and the
// route's own answer, to call (here with a header added) or not (a
// teapot). The log names it by Kind.
func ExampleFault_respond() {
	f := mintlifytest.New(mintlifytest.Config{Faults: []mintlifytest.Fault{
		{Route: mintlifytest.RouteAgentJobsCreate, Kind: "teapot", Requests: []int{1},
			Respond: func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
				http.Error(w, "short and stout", http.StatusTeapot)
			}},
		{Route: mintlifytest.RouteAgentJobsCreate, Kind: "deprecated", Requests: []int{2},
			Respond: func(w http.ResponseWriter, r *http.Request, serve http.Handler) {
				w.Header().Set("Deprecation", "true")
				serve.ServeHTTP(w, r)
			}},
	}})
	client := f.Client()

	status, _, body := call(client, "POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`)
	fmt.Println(status, body, len(f.JobIDs(mintlifytest.DemoProjectID)))
	status, _, _ = call(client, "POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`)
	fmt.Println(status, len(f.JobIDs(mintlifytest.DemoProjectID)))
	fmt.Println(f.RequestLog()[0].Fault, f.RequestLog()[1].Fault)
	// Output:
	// 418 short and stout 0
	// 201 1
	// teapot deprecated
}

// Budgets: each published rate limit, on the fake's clock; Config.Limits
// sets any of them.
func ExampleBudget() {
	clock := mintlifytest.NewManualClock(t0)
	f := mintlifytest.New(mintlifytest.Config{Clock: clock, Limits: map[string]int{"analytics": 2}})
	client := f.Client()
	for range 2 {
		call(client, "GET", "/v1/analytics/demo-project/views", "")
		clock.Advance(20 * time.Minute)
	}
	req, _ := http.NewRequestWithContext(context.Background(), "GET", "http://mintlify.test/v1/analytics/demo-project/searches", nil)
	req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAPIKey)
	resp, _ := client.Do(req)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(resp.StatusCode, resp.Header.Get("Retry-After"), resp.Header.Get("X-RateLimit-Limit"), resp.Header.Get("X-RateLimit-Remaining"))
	fmt.Print(string(body))
	// Output:
	// 429 1200 2 0
	// {"error":"Too many requests","details":[{"message":"rate limit of 2 requests per hour exceeded"}]}
}
