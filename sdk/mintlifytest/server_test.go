package mintlifytest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

type harness struct {
	t   *testing.T
	srv *Fake
	ts  *httptest.Server
	clk *ManualClock
}

func newHarness(t *testing.T, cfg Config) *harness {
	t.Helper()
	clk := NewManualClock(t0)
	cfg.Clock = clk
	srv := New(cfg)
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &harness{t: t, srv: srv, ts: ts, clk: clk}
}

// call sends a request with the demo key (or key, when given) and returns
// the status, headers and decoded JSON body.
func (h *harness) call(method, path, body string, key ...string) (int, http.Header, map[string]any) {
	h.t.Helper()
	k := DemoAPIKey
	if len(key) > 0 {
		k = key[0]
	}
	status, header, data := h.send(method, path, body, k)
	var out map[string]any
	if err := json.Unmarshal(data, &out); err != nil {
		h.t.Fatalf("%s %s: body %q is not JSON", method, path, data)
	}
	return status, header, out
}

// send sends a request, with key as its bearer token unless key is empty,
// and returns the status, headers and body as sent.
func (h *harness) send(method, path, body, key string) (int, http.Header, []byte) {
	h.t.Helper()
	req, _ := http.NewRequest(method, h.ts.URL+path, strings.NewReader(body))
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		h.t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, data
}

func TestAuth(t *testing.T) {
	h := newHarness(t, Config{})
	h.srv.AddKey("mint_ro", DemoOrg, true)
	h.srv.AddKey("mint_other", "other-org", false)
	tests := []struct {
		name, method, path, key string
		want                    int
		wantError               string
	}{
		{"no key", "GET", "/v2/agent/demo-project/job/x", "", 401, "Unauthorized"},
		{"wrong key", "GET", "/v2/agent/demo-project/job/x", "mint_nope", 401, "Unauthorized"},
		{"read-only key POST", "POST", "/v2/agent/demo-project/job", "mint_ro", 403, "Forbidden"},
		{"read-only key GET", "GET", "/v1/analytics/demo-project/visitors", "mint_ro", 200, ""},
		{"other org's project", "GET", "/v1/analytics/demo-project/visitors", "mint_other", 404, "Project not found"},
		{"unknown project", "POST", "/v2/agent/nope/job", DemoAPIKey, 404, "Project not found"},
		{"unknown route", "GET", "/v3/whatever", DemoAPIKey, 404, "Not found"},
	}
	for _, tt := range tests {
		status, header, body := h.call(tt.method, tt.path, `{"prompt":"x"}`, tt.key)
		if status != tt.want {
			t.Errorf("%s: status %d, want %d (%v)", tt.name, status, tt.want, body)
		}
		if tt.wantError != "" && body["error"] != tt.wantError {
			t.Errorf("%s: error %v, want %q", tt.name, body["error"], tt.wantError)
		}
		if tt.want == 401 && header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: no WWW-Authenticate", tt.name)
		}
	}
}

func TestCreateJob_validation(t *testing.T) {
	h := newHarness(t, Config{})
	for body, detail := range map[string]string{
		`not json`:        "body must be a JSON object",
		`{}`:              "prompt: Required",
		`{"prompt":""}`:   "prompt: String must contain at least 1 character(s)",
		`{"prompt":5}`:    "body must be a JSON object",
		`{"prompt":null}`: "prompt: Required",
	} {
		status, _, got := h.call("POST", "/v2/agent/demo-project/job", body)
		want := map[string]any{"error": "Invalid request body", "details": []any{map[string]any{"message": detail}}}
		if status != 400 || !cmp.Equal(want, got) {
			t.Errorf("%s: %d %v", body, status, got)
		}
	}
	if ids := h.srv.JobIDs(DemoProjectID); len(ids) != 0 {
		t.Errorf("invalid bodies created jobs %v", ids)
	}
}

func TestJobLifecycle(t *testing.T) {
	h := newHarness(t, Config{})
	status, _, created := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"[fake:active=10s] Document it"}`)
	if status != 201 || created["status"] != "active" || created["prLink"] != nil || created["archivedAt"] != nil {
		t.Fatalf("create: %d %v", status, created)
	}
	wantKeys := []string{"archivedAt", "createdAt", "id", "model", "prLink", "source", "status"}
	if diff := cmp.Diff(wantKeys, keys(created)); diff != "" {
		t.Errorf("job fields (-want +got):\n%s", diff)
	}
	id := created["id"].(string)
	h.clk.Advance(9 * time.Second)
	if _, _, got := h.call("GET", "/v2/agent/demo-project/job/"+id, ""); got["status"] != "active" {
		t.Errorf("at 9s: %v", got["status"])
	}
	h.clk.Advance(time.Second)
	_, _, got := h.call("GET", "/v2/agent/demo-project/job/"+id, "")
	if got["status"] != "completed" || got["prLink"] != "https://github.com/acme/demo-project/pull/101" {
		t.Errorf("at 10s: %v", got)
	}
	if got["createdAt"] != "2026-11-21T12:00:00.000Z" {
		t.Errorf("createdAt %v", got["createdAt"])
	}
	if status, _, _ := h.call("GET", "/v2/agent/demo-project/job/nope", ""); status != 404 {
		t.Errorf("unknown job: %d", status)
	}
}

func TestJobScripts(t *testing.T) {
	h := newHarness(t, Config{DefaultJob: JobScript{ActiveFor: time.Second, Outcome: OutcomeCompleted}})
	tests := map[string]struct {
		status     string
		prLink     bool
		archivedAt any
	}{
		"plain":            {"completed", true, nil},
		"[fake:nochange]":  {"completed", false, nil},
		"[fake:failed]":    {"failed", false, nil},
		"[fake:archived]":  {"archived", false, "2026-11-21T12:00:01.000Z"},
		"[fake:never]":     {"active", false, nil},
		"[fake:completed]": {"completed", true, nil},
		"[fake:active=1h]": {"active", false, nil},
	}
	ids := map[string]string{}
	for prompt := range tests {
		_, _, j := h.call("POST", "/v2/agent/demo-project/job", fmt.Sprintf(`{"prompt":%q}`, prompt))
		ids[prompt] = j["id"].(string)
	}
	h.clk.Advance(time.Minute)
	for prompt, want := range tests {
		raw, ok := h.srv.Job(DemoProjectID, ids[prompt])
		var j map[string]any
		_ = json.Unmarshal(raw, &j)
		if !ok || j["status"] != want.status || (j["prLink"] != nil) != want.prLink || j["archivedAt"] != want.archivedAt {
			t.Errorf("%s: %v", prompt, j)
		}
	}
	if len(h.srv.JobIDs(DemoProjectID)) != len(tests) || h.srv.Requests(RouteAgentJobsCreate) != len(tests) {
		t.Errorf("jobs %d, POSTs %d", len(h.srv.JobIDs(DemoProjectID)), h.srv.Requests(RouteAgentJobsCreate))
	}
}

func TestSendMessage(t *testing.T) {
	h := newHarness(t, Config{})
	_, _, j := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"[fake:active=5s]"}`)
	id := j["id"].(string)
	h.clk.Advance(time.Minute)
	status, _, got := h.call("POST", "/v2/agent/demo-project/job/"+id+"/message", `{"prompt":"and the changelog"}`)
	if status != 200 || got["status"] != "active" || got["prLink"] == nil {
		t.Errorf("message: %d %v", status, got)
	}
	h.clk.Advance(5 * time.Second)
	if _, _, got := h.call("GET", "/v2/agent/demo-project/job/"+id, ""); got["status"] != "completed" {
		t.Errorf("after the follow-up round: %v", got)
	}
	if status, _, _ := h.call("POST", "/v2/agent/demo-project/job/"+id+"/message", `{}`); status != 400 {
		t.Errorf("empty message: %d", status)
	}
	_, _, a := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"[fake:archived] [fake:active=1s]"}`)
	h.clk.Advance(time.Minute)
	if status, _, got := h.call("POST", "/v2/agent/demo-project/job/"+a["id"].(string)+"/message", `{"prompt":"x"}`); status != 400 || got["error"] != "Job is archived" {
		t.Errorf("message to archived: %d %v", status, got)
	}
	if status, _, _ := h.call("POST", "/v2/agent/demo-project/job/nope/message", `{"prompt":"x"}`); status != 404 {
		t.Errorf("unknown job: %d", status)
	}
}

func TestJobRateLimit_slidingHour(t *testing.T) {
	h := newHarness(t, Config{JobBudget: 3})
	for i := range 3 {
		if status, _, _ := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`); status != 201 {
			t.Fatalf("job %d: %d", i, status)
		}
		h.clk.Advance(10 * time.Minute)
	}
	status, header, body := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`)
	if status != 429 || header.Get("Retry-After") != "1800" || body["error"] != "Too many requests" {
		t.Fatalf("over budget: %d Retry-After %q %v", status, header.Get("Retry-After"), body)
	}
	h.clk.Advance(30 * time.Minute)
	if status, _, _ := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`); status != 201 {
		t.Errorf("after the window moved: %d", status)
	}
}

func TestAnalyticsRateLimit_perOrganization(t *testing.T) {
	h := newHarness(t, Config{AnalyticsBudget: 2})
	h.srv.AddProject("second", DemoOrg, Dataset{Paths: 1})
	h.call("GET", "/v1/analytics/demo-project/visitors", "")
	h.call("GET", "/v1/analytics/second/views", "")
	status, header, _ := h.call("GET", "/v1/analytics/second/visitors", "")
	if status != 429 || header.Get("Retry-After") != "3600" {
		t.Errorf("third call in the org: %d, Retry-After %q", status, header.Get("Retry-After"))
	}
	unlimited := newHarness(t, Config{AnalyticsBudget: -1})
	for range 150 {
		if status, _, _ := unlimited.call("GET", "/v1/analytics/demo-project/visitors?limit=1", ""); status != 200 {
			t.Fatalf("unlimited server answered %d", status)
		}
	}
}

func TestVisitors_pagingOrderAndTotals(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{Paths: 520, Seed: 3}})
	var rows []any
	var totals any
	for offset := 0; ; offset += 250 {
		status, _, page := h.call("GET", fmt.Sprintf("/v1/analytics/demo-project/visitors?limit=250&offset=%d", offset), "")
		if status != 200 {
			t.Fatalf("%d %v", status, page)
		}
		if totals == nil {
			totals = page["totals"]
		} else if !cmp.Equal(totals, page["totals"]) {
			t.Errorf("totals changed between pages")
		}
		rows = append(rows, page["visitors"].([]any)...)
		if page["hasMore"] != true {
			break
		}
	}
	if len(rows) != 520 {
		t.Fatalf("%d rows", len(rows))
	}
	seen := map[string]bool{}
	var sumH float64
	for i, r := range rows {
		row := r.(map[string]any)
		path := row["path"].(string)
		if seen[path] {
			t.Fatalf("path %s twice", path)
		}
		seen[path] = true
		sumH += row["human"].(float64)
		if row["total"].(float64) > row["human"].(float64)+row["ai"].(float64) || row["total"].(float64) < row["human"].(float64) {
			t.Errorf("row %v: total is not a deduplicated count", row)
		}
		if i > 0 {
			prev := rows[i-1].(map[string]any)
			if prev["total"].(float64) < row["total"].(float64) || (prev["total"] == row["total"] && prev["path"].(string) > path) {
				t.Fatalf("rows %d and %d out of order", i-1, i)
			}
		}
	}
	tot := totals.(map[string]any)
	if tot["total"].(float64) == tot["human"].(float64)+tot["ai"].(float64) || tot["human"].(float64) >= sumH {
		t.Errorf("totals %v are not site-wide uniques", tot)
	}
	// Defaults: 50 rows.
	if _, _, page := h.call("GET", "/v1/analytics/demo-project/visitors", ""); len(page["visitors"].([]any)) != 50 || page["hasMore"] != true {
		t.Errorf("default page: %d rows", len(page["visitors"].([]any)))
	}
	// Past the end: empty, no more.
	if _, _, page := h.call("GET", "/v1/analytics/demo-project/visitors?offset=9999", ""); len(page["visitors"].([]any)) != 0 || page["hasMore"] != false {
		t.Errorf("past the end: %v", page)
	}
}

func TestVisitors_dateFilterIsExclusiveAtTheEnd(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{Paths: 5, Days: 10, End: time.Date(2026, 10, 11, 0, 0, 0, 0, time.UTC)}})
	day := func(from, to string) map[string]any {
		_, _, p := h.call("GET", "/v1/analytics/demo-project/visitors?dateFrom="+from+"&dateTo="+to, "")
		return p["totals"].(map[string]any)
	}
	oneDay, twoDays := day("2026-10-03", "2026-10-04"), day("2026-10-03", "2026-10-05")
	if oneDay["human"].(float64) >= twoDays["human"].(float64) {
		t.Errorf("one day %v, two days %v", oneDay, twoDays)
	}
	if !cmp.Equal(oneDay, day("2026-10-03T00:00:00Z", "2026-10-03T00:00:01Z")) {
		t.Errorf("a date-time range covering one day start differs from the day")
	}
	if empty := day("2026-12-01", "2026-12-02"); empty["human"].(float64) != 0 {
		t.Errorf("range without data: %v", empty)
	}
	_, rows, _ := h.srv.VisitorsData(DemoProjectID, "2026-12-01", "")
	if len(rows) != 0 {
		t.Errorf("rows outside the data: %d", len(rows))
	}
}

func TestVisitors_validation(t *testing.T) {
	h := newHarness(t, Config{})
	for query, detail := range map[string]string{
		"limit=0":                               "limit: Number must be greater than or equal to 1",
		"limit=251":                             "limit: Number must be less than or equal to 250",
		"limit=ten":                             "limit: Expected number, received string",
		"offset=-1":                             "offset: Number must be greater than or equal to 0",
		"offset=x":                              "offset: Expected number, received string",
		"dateFrom=2026-13-45":                   "dateFrom: Invalid date, expected YYYY-MM-DD or ISO 8601",
		"dateTo=soon":                           "dateTo: Invalid date, expected YYYY-MM-DD or ISO 8601",
		"dateFrom=2026-10-02&dateTo=2026-10-01": "dateFrom: must be before dateTo",
	} {
		status, _, got := h.call("GET", "/v1/analytics/demo-project/visitors?"+query, "")
		want := map[string]any{"error": "Invalid query parameters", "details": []any{map[string]any{"message": detail}}}
		if status != 400 || !cmp.Equal(want, got) {
			t.Errorf("%s: %d %v", query, status, got)
		}
	}
}

func TestFaults(t *testing.T) {
	h := newHarness(t, Config{})
	h.srv.InjectFault(Fault{Route: RouteAgentJobsGet, Kind: FaultServerError, Requests: []int{1}})
	h.srv.InjectFault(Fault{Route: RouteAgentJobsGet, Kind: FaultRateLimit, RetryAfter: 1500 * time.Millisecond, Requests: []int{2}})
	h.srv.InjectFault(Fault{Route: RouteAgentJobsGet, Method: "GET", Kind: FaultDropConnection, Requests: []int{3}})
	h.srv.InjectFault(Fault{Route: RouteAgentJobsGet, Kind: FaultLatency, Latency: 20 * time.Millisecond, Requests: []int{4}})
	get := func() (*http.Response, error) {
		req, _ := http.NewRequest("GET", h.ts.URL+"/v2/agent/demo-project/job/nope", nil)
		req.Header.Set("Authorization", "Bearer "+DemoAPIKey)
		return http.DefaultTransport.RoundTrip(req)
	}
	resp, err := get()
	body, _ := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 502 || !strings.Contains(string(body), "<h1>502 Bad Gateway</h1>") {
		t.Errorf("server error: %v %v %s", resp.StatusCode, err, body)
	}
	if resp, _ = get(); resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" {
		t.Errorf("rate limit: %d %q", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	if _, err := get(); err == nil {
		t.Error("dropped connection answered")
	}
	start := time.Now()
	if resp, err = get(); err != nil || resp.StatusCode != 404 || time.Since(start) < 20*time.Millisecond {
		t.Errorf("latency: %v %v after %s", resp, err, time.Since(start))
	}
	if resp, _ = get(); resp.StatusCode != 404 {
		t.Errorf("fifth request: %d", resp.StatusCode)
	}
	if diff := cmp.Diff([]int{1, 1, 1, 1}, h.srv.FaultHits()); diff != "" {
		t.Errorf("hits (-want +got):\n%s", diff)
	}
	if n := h.srv.Requests(RouteAgentJobsGet); n != 5 {
		t.Errorf("counted %d requests", n)
	}
	h.srv.ClearFaults()
	if len(h.srv.FaultHits()) != 0 {
		t.Error("faults not cleared")
	}
}

func TestFaults_probabilityIsSeededAndMethodFiltered(t *testing.T) {
	count := func() int {
		h := newHarness(t, Config{AnalyticsBudget: -1})
		h.srv.InjectFault(Fault{Method: "GET", Kind: FaultServerError, Probability: 0.3, Seed: 9})
		failed := 0
		for range 200 {
			req, _ := http.NewRequest("GET", h.ts.URL+"/v1/analytics/demo-project/visitors?limit=1", nil)
			req.Header.Set("Authorization", "Bearer "+DemoAPIKey)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode == 502 {
				failed++
			}
		}
		if status, _, _ := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`); status != 201 {
			t.Errorf("a GET-only fault hit a POST: %d", status)
		}
		return failed
	}
	a, b := count(), count()
	if a != b || a < 40 || a > 80 {
		t.Errorf("30%% of 200 failed %d then %d times", a, b)
	}
}

func TestConcurrentClients(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{Paths: 600}, JobBudget: -1, AnalyticsBudget: -1})
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Go(func() {
			if i%2 == 0 {
				h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`)
			} else {
				h.call("GET", "/v1/analytics/demo-project/visitors?limit=250&offset=250", "")
			}
		})
	}
	wg.Wait()
	if h.srv.Requests(RouteAgentJobsCreate) != 10 || h.srv.Requests(RouteAnalyticsVisitors) != 10 || len(h.srv.JobIDs(DemoProjectID)) != 10 || h.srv.TotalRequests() != 20 {
		t.Errorf("counts: %d POST, %d GET, %d jobs", h.srv.Requests(RouteAgentJobsCreate), h.srv.Requests(RouteAnalyticsVisitors), len(h.srv.JobIDs(DemoProjectID)))
	}
	if log := h.srv.RequestLog(); len(log) != 20 || (log[0].Route != RouteAgentJobsCreate && log[0].Route != RouteAnalyticsVisitors) {
		t.Errorf("log: %d entries, first %+v", len(log), log[0])
	}
	h.srv.ResetCounters()
	if h.srv.TotalRequests() != 0 || len(h.srv.RequestLog()) != 0 {
		t.Error("counters not reset")
	}
}

func TestProjectIDWithSpaceAndSlash(t *testing.T) {
	h := newHarness(t, Config{})
	h.srv.AddProject("acme docs/β", DemoOrg, Dataset{Paths: 3})
	status, _, j := h.call("POST", "/v2/agent/acme%20docs%2F%CE%B2/job", `{"prompt":"x"}`)
	if status != 201 || j["source"].(map[string]any)["repository"] != "https://github.com/acme/acme-docs" {
		t.Fatalf("%d %v", status, j)
	}
	if ids := h.srv.JobIDs("acme docs/β"); len(ids) != 1 {
		t.Errorf("jobs %v", ids)
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func TestResetRateLimits_startsANewHour(t *testing.T) {
	h := newHarness(t, Config{JobBudget: 1, AnalyticsBudget: 1})
	h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`)
	h.call("GET", "/v1/analytics/demo-project/visitors", "")
	if s, _, _ := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`); s != 429 {
		t.Fatalf("job budget not spent: %d", s)
	}
	if s, _, _ := h.call("GET", "/v1/analytics/demo-project/views", ""); s != 429 {
		t.Fatalf("analytics budget not spent: %d", s)
	}
	h.srv.ResetRateLimits()
	if s, _, _ := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`); s != 201 {
		t.Errorf("job after reset: %d", s)
	}
	if s, _, _ := h.call("GET", "/v1/analytics/demo-project/views", ""); s != 200 {
		t.Errorf("analytics after reset: %d", s)
	}
	if len(h.srv.JobIDs(DemoProjectID)) != 2 {
		t.Error("a reset lost jobs")
	}
}
