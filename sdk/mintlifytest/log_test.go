package mintlifytest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestRequestLog_keepsEverythingButTheKey(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{Paths: 3, Conversations: 3}})
	h.srv.AddProject("acme docs/β", DemoOrg, Dataset{})
	h.srv.AddKey("mint_other", "other-org", false)
	_, _, j := h.call("POST", "/v2/agent/acme%20docs%2F%CE%B2/job", `{"prompt":"Document it"}`)
	id := j["id"].(string)
	h.clk.Advance(time.Minute)
	h.call("POST", "/v2/agent/acme%20docs%2F%CE%B2/job/"+id+"/message", `{"prompt":"and more"}`)
	h.call("GET", "/v1/analytics/demo-project/assistant/threads/01ARZ3NDEKTSV4RRFFQ69G5FAV?x=1", "")
	h.call("GET", "/v1/analytics/demo-project/visitors?limit=2&dateFrom=2026-10-01", "", "mint_other")
	h.clk.Advance(time.Second)
	h.call("GET", "/v3/nowhere?q=1", "", "mint_nope")

	want := []LoggedRequest{
		{Route: RouteAgentJobsCreate, Method: "POST", Path: "/v2/agent/acme%20docs%2F%CE%B2/job", Body: `{"prompt":"Document it"}`,
			PathValues: map[string]string{"projectId": "acme docs/β"}, ProjectID: "acme docs/β", Org: DemoOrg,
			UserAgent: "Go-http-client/1.1", RequestID: "req_0000001", Status: 201, Time: t0},
		{Route: RouteAgentJobsSendMessage, Method: "POST", Path: "/v2/agent/acme%20docs%2F%CE%B2/job/" + id + "/message", Body: `{"prompt":"and more"}`,
			PathValues: map[string]string{"projectId": "acme docs/β", "id": id}, ProjectID: "acme docs/β", JobID: id, Org: DemoOrg,
			UserAgent: "Go-http-client/1.1", RequestID: "req_0000002", Status: 200, Time: t0.Add(time.Minute)},
		{Route: RouteAnalyticsThread, Method: "GET", Path: "/v1/analytics/demo-project/assistant/threads/01ARZ3NDEKTSV4RRFFQ69G5FAV", Query: "x=1",
			PathValues: map[string]string{"projectId": DemoProjectID, "threadId": "01ARZ3NDEKTSV4RRFFQ69G5FAV"}, ProjectID: DemoProjectID, Org: DemoOrg,
			UserAgent: "Go-http-client/1.1", RequestID: "req_0000003", Status: 404, Time: t0.Add(time.Minute)},
		{Route: RouteAnalyticsVisitors, Method: "GET", Path: "/v1/analytics/demo-project/visitors", Query: "limit=2&dateFrom=2026-10-01",
			PathValues: map[string]string{"projectId": DemoProjectID}, ProjectID: DemoProjectID, Org: "other-org",
			UserAgent: "Go-http-client/1.1", RequestID: "req_0000004", Status: 404, Time: t0.Add(time.Minute)},
		{Route: RouteUnmatched, Method: "GET", Path: "/v3/nowhere", Query: "q=1",
			UserAgent: "Go-http-client/1.1", RequestID: "req_0000005", Status: 404, Time: t0.Add(time.Minute + time.Second)},
	}
	if diff := cmp.Diff(want, h.srv.RequestLog()); diff != "" {
		t.Errorf("log (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want[1:2], h.srv.RequestsTo(RouteAgentJobsSendMessage)); diff != "" {
		t.Errorf("RequestsTo (-want +got):\n%s", diff)
	}
	if got := h.srv.RequestsTo(RouteAgentJobsGet); got != nil {
		t.Errorf("RequestsTo a route with none: %v", got)
	}
	// No field holds a key, whole or in part.
	for _, e := range h.srv.RequestLog() {
		v := reflect.ValueOf(e)
		for i := range v.NumField() {
			if s := v.Field(i).String(); strings.Contains(s, "mint_") {
				t.Errorf("%s holds a key: %q", v.Type().Field(i).Name, s)
			}
		}
	}
	// The log is a copy.
	h.srv.RequestLog()[0].PathValues["projectId"] = "changed"
	if h.srv.RequestLog()[0].PathValues["projectId"] != "acme docs/β" {
		t.Error("the log shares its path values")
	}
}

func TestRequestLog_bodyIsCappedAndTheHandlerReadsItAll(t *testing.T) {
	h := newHarness(t, Config{})
	prompt := strings.Repeat("é", maxLoggedBody) // 2 bytes each
	status, _, j := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"`+prompt+`"}`)
	if status != 201 {
		t.Fatalf("%d %v", status, j)
	}
	logged := h.srv.RequestLog()[0].Body
	if len(logged) != maxLoggedBody || !strings.HasPrefix(logged, `{"prompt":"éé`) {
		t.Errorf("logged %d bytes starting %.20q", len(logged), logged)
	}
	if rec, _ := h.srv.JobRecord(DemoProjectID, j["id"].(string)); rec.Prompt != prompt {
		t.Errorf("the handler read %d bytes of the prompt, want %d", len(rec.Prompt), len(prompt))
	}
}

// Every answer carries its request id, errors and faults included; ids
// count up per Fake and survive ResetCounters.
func TestRequestIDs_onEveryAnswer(t *testing.T) {
	h := newHarness(t, Config{JobBudget: 1})
	h.srv.InjectFault(Fault{Route: RouteAgentJobsGet, Kind: FaultServerError, Requests: []int{1}})
	h.srv.InjectFault(Fault{Route: RouteAgentJobsGet, Kind: FaultClientError, Requests: []int{2}})
	h.srv.InjectFault(Fault{Route: RouteAgentJobsGet, Kind: FaultMalformed, Requests: []int{3}})
	h.srv.InjectFault(Fault{Route: RouteAgentJobsGet, Kind: FaultRateLimit, Requests: []int{4}})
	requests := []struct{ method, path, body, key string }{
		{"POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`, DemoAPIKey}, // 201
		{"POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`, DemoAPIKey}, // 429, the budget
		{"GET", "/v1/analytics/demo-project/visitors", "", ""},               // 401
		{"GET", "/v1/analytics/demo-project/visitors?limit=0", "", DemoAPIKey},
		{"GET", "/v3/nowhere", "", DemoAPIKey},
		{"GET", "/v2/agent/demo-project/job/x", "", DemoAPIKey},
		{"GET", "/v2/agent/demo-project/job/x", "", DemoAPIKey},
		{"GET", "/v2/agent/demo-project/job/x", "", DemoAPIKey},
		{"GET", "/v2/agent/demo-project/job/x", "", DemoAPIKey},
		{"GET", "/v2/agent/demo-project/job/x", "", DemoAPIKey}, // 404
	}
	wantStatus := []int{201, 429, 401, 400, 404, 502, 400, 200, 429, 404}
	for i, r := range requests {
		if i == 5 {
			h.srv.ResetCounters()
		}
		status, header, _ := h.send(r.method, r.path, r.body, r.key)
		want := fmt.Sprintf("req_%07d", i+1)
		if status != wantStatus[i] || header.Get("X-Request-Id") != want || len(header["X-Request-Id"]) != 1 {
			t.Errorf("request %d: %d X-Request-Id %q, want %d %q", i+1, status, header["X-Request-Id"], wantStatus[i], want)
		}
	}
	log := h.srv.RequestLog()
	if len(log) != 5 || log[0].RequestID != "req_0000006" || log[4].RequestID != "req_0000010" || log[0].Status != 502 || log[3].Fault != FaultRateLimit {
		t.Errorf("log after ResetCounters: %+v", log)
	}
}

// A request the mux answers itself (an unclean path, redirected) is still
// counted, logged and given an id.
func TestRequestLog_unmatchedAndRedirected(t *testing.T) {
	h := newHarness(t, Config{})
	req, _ := http.NewRequestWithContext(context.Background(), "GET", h.ts.URL+"/v2/agent/demo-project/../x", nil)
	req.URL.Path = "/v2/agent/demo-project/../x"
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	log := h.srv.RequestLog()
	if resp.StatusCode != http.StatusTemporaryRedirect || resp.Header.Get("X-Request-Id") != "req_0000001" ||
		len(log) != 1 || log[0].Route != RouteUnmatched || log[0].Status != http.StatusTemporaryRedirect || h.srv.Requests(RouteUnmatched) != 1 {
		t.Errorf("%d %v; log %+v, unmatched %d", resp.StatusCode, resp.Header, log, h.srv.Requests(RouteUnmatched))
	}
	h.call("DELETE", "/v2/agent/demo-project/job", "")
	if n := h.srv.Requests(RouteUnmatched); n != 2 {
		t.Errorf("a method no route has: unmatched %d", n)
	}
}

// The route table: each route once, reachable at its pattern, its
// budgets real.
func TestRoutes_theTable(t *testing.T) {
	names, patterns := map[string]bool{}, map[string]bool{}
	h := newHarness(t, Config{JobBudget: -1, AnalyticsBudget: -1})
	var analytics []string
	for _, rt := range Routes() {
		if names[rt.Name] || patterns[rt.Pattern] || rt.Name == "" || strings.ToLower(rt.Name) != rt.Name || strings.Contains(rt.Name, " ") {
			t.Errorf("route %+v: a name or pattern twice, or not a short name", rt)
		}
		names[rt.Name], patterns[rt.Pattern] = true, true
		for _, b := range rt.Budgets {
			if _, ok := budgetNamed(b); !ok {
				t.Errorf("%s draws from no budget %q", rt.Name, b)
			}
		}
		if rt.Area == areaAnalytics {
			analytics = append(analytics, rt.Pattern)
			if !cmp.Equal(rt.Budgets, []string{budgetAnalytics}) {
				t.Errorf("%s: budgets %v", rt.Name, rt.Budgets)
			}
		}
		// Its pattern, filled in, reaches it.
		method, path, _ := strings.Cut(rt.Pattern, " ")
		for _, w := range wildcards(rt.Pattern) {
			path = strings.Replace(path, "{"+w+"}", map[string]string{"projectId": DemoProjectID}[w]+"x", 1)
		}
		path = strings.ReplaceAll(path, "demo-projectx", DemoProjectID)
		h.srv.ResetCounters()
		h.send(method, path, `{"prompt":"x"}`, DemoAPIKey)
		if log := h.srv.RequestLog(); len(log) != 1 || log[0].Route != rt.Pattern {
			t.Errorf("%s %s reached %+v", method, path, log)
		}
	}
	if len(analytics) != 8 {
		t.Errorf("analytics routes %v", analytics)
	}
	jobs := map[string][]string{}
	for _, rt := range Routes() {
		if rt.Area == areaJobs {
			jobs[rt.Name] = rt.Budgets
		}
	}
	if diff := cmp.Diff(map[string][]string{"create-job": {budgetAgentJobs}, "get-job": nil, "message": {budgetAgentJobs}, "list-jobs": nil}, jobs); diff != "" {
		t.Errorf("job routes (-want +got):\n%s", diff)
	}
	// Routes returns a copy.
	Routes()[0].Budgets[0] = "changed"
	if Routes()[0].Budgets[0] != budgetAgentJobs {
		t.Error("Routes shares the table")
	}
	if diff := cmp.Diff([]string{"projectId", "workflowSchemaId", "rest"}, wildcards("POST /v1/workflow/{projectId}/{workflowSchemaId}/x/{rest...}")); diff != "" {
		t.Errorf("wildcards (-want +got):\n%s", diff)
	}
}

// Fakes share the route table: making them at once must not race on it
// (run with -race).
func TestNew_sharesTheTableSafely(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			f := newFake(Config{}, budgetRoutes)
			f.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/index/v1/search", nil))
		})
	}
	wg.Wait()
	for _, rt := range budgetRoutes {
		if rt.wildcards != nil {
			t.Errorf("New wrote to the shared table: %+v", rt)
		}
	}
}

// OnRequest sees each request once it is answered, as RequestLog has it.
func TestOnRequest_eachRequestOnceAnswered(t *testing.T) {
	var seen []LoggedRequest
	var mu sync.Mutex
	f := New(Config{Clock: NewManualClock(t0), OnRequest: func(r LoggedRequest) { mu.Lock(); seen = append(seen, r); mu.Unlock() },
		Faults: []Fault{{Route: RouteAgentJobsGet, Kind: FaultServerError}}})
	for _, tr := range transports {
		base, c := tr.open(t, f)
		roundTrip(context.Background(), c, "POST", base+"/v2/agent/demo-project/job", `{"prompt":"x"}`)
		roundTrip(context.Background(), c, "GET", base+"/v2/agent/demo-project/job/x", "")
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(f.RequestLog(), seen); diff != "" || len(seen) != 4 || seen[0].Status != 201 || seen[1].Status != 502 || seen[1].Fault != FaultServerError {
		t.Errorf("(-log +seen):\n%s", diff)
	}
}
