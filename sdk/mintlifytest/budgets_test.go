package mintlifytest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// budgetRoutes stand for the areas still to come: each draws from the
// budget the API publishes for it.
var budgetRoutes = []route{
	{name: "deploy", pattern: "POST /v1/project/update/{projectId}", budgets: []string{budgetDeployments}, serve: accepted},
	{name: "automation", pattern: "POST /v1/workflow/{projectId}/{workflowSchemaId}/trigger", budgets: []string{budgetDeployments}, serve: accepted},
	{name: "preview", pattern: "POST /v1/project/preview/{projectId}", budgets: []string{budgetPreviews}, serve: accepted},
	{name: "search", pattern: "POST /discovery/v1/search/{domain}", budgets: []string{budgetDiscovery}, serve: accepted},
	{name: "index", pattern: "POST /index/v1/search", budgets: []string{budgetIndexSecond, budgetIndexDay}, serve: accepted},
	{name: "status", pattern: "GET /v1/project/update-status/{statusId}", serve: accepted},
	{name: "job", pattern: RouteAgentJobsCreate, budgets: []string{budgetAgentJobs}, serve: accepted},
	{name: "analytics", pattern: RouteAnalyticsVisitors, budgets: []string{budgetAnalytics}, serve: accepted},
}

func accepted(_ *Fake, w http.ResponseWriter, _ *http.Request, org string, _ *project) {
	writeJSON(w, http.StatusAccepted, map[string]string{"org": org})
}

type budgetHarness struct {
	t   *testing.T
	f   *Fake
	url string
	clk *ManualClock
}

func newBudgetHarness(t *testing.T, cfg Config) *budgetHarness {
	t.Helper()
	clk := NewManualClock(t0)
	cfg.Clock = clk
	f := newFake(cfg, append([]route(nil), budgetRoutes...))
	f.AddKey("mint_other", "other-org", false)
	f.AddProject("second", DemoOrg, Dataset{})
	f.AddProject("elsewhere", "other-org", Dataset{})
	ts := httptest.NewServer(f)
	t.Cleanup(ts.Close)
	return &budgetHarness{t: t, f: f, url: ts.URL, clk: clk}
}

// hit sends a request with the demo key (or key) and returns the status,
// Retry-After, X-RateLimit-Limit and the body.
func (b *budgetHarness) hit(method, path string, key ...string) (int, string, string, string) {
	b.t.Helper()
	k := DemoAPIKey
	if len(key) > 0 {
		k = key[0]
	}
	req, _ := http.NewRequest(method, b.url+path, nil)
	req.Header.Set("Authorization", "Bearer "+k)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == 429 && resp.Header.Get("X-RateLimit-Remaining") != "0" {
		b.t.Errorf("429 with X-RateLimit-Remaining %q", resp.Header.Get("X-RateLimit-Remaining"))
	}
	return resp.StatusCode, resp.Header.Get("Retry-After"), resp.Header.Get("X-RateLimit-Limit"), string(body)
}

// spendAll sends n requests that must all pass.
func (b *budgetHarness) spendAll(n int, method, path string, key ...string) {
	b.t.Helper()
	for i := range n {
		if status, _, _, body := b.hit(method, path, key...); status != http.StatusAccepted {
			b.t.Fatalf("%s %s, request %d of %d: %d %s", method, path, i+1, n, status, body)
		}
	}
}

// Each published budget, at its edge: the limit passes, one more is
// refused until the window slides past the first request, to the
// nanosecond.
func TestBudgets_everyPublishedLimitAtItsEdge(t *testing.T) {
	tests := []struct {
		budget         string
		method, path   string
		limit          int
		window         time.Duration
		wantRetryAfter string
		wantDetail     string
	}{
		{budgetAgentJobs, "POST", "/v2/agent/demo-project/job", 100, time.Hour, "3600", "rate limit of 100 requests per hour exceeded"},
		{budgetAnalytics, "GET", "/v1/analytics/demo-project/visitors", 100, time.Hour, "3600", "rate limit of 100 requests per hour exceeded"},
		{budgetDeployments, "POST", "/v1/project/update/demo-project", 10, 10 * time.Second, "10", "rate limit of 10 requests per 10s exceeded"},
		{budgetPreviews, "POST", "/v1/project/preview/demo-project", 5, time.Minute, "60", "rate limit of 5 requests per minute exceeded"},
		// 10,000 (TestBudgets_arePublishedLimits) take too long to spend.
		{budgetDiscovery, "POST", "/discovery/v1/search/docs.acme.dev", 50, time.Hour, "3600", "rate limit of 50 requests per hour exceeded"},
		{budgetIndexSecond, "POST", "/index/v1/search", 10, time.Second, "1", "rate limit of 10 requests per second exceeded"},
	}
	for _, tt := range tests {
		t.Run(tt.budget, func(t *testing.T) {
			b := newBudgetHarness(t, Config{Limits: map[string]int{budgetDiscovery: 50}})
			b.spendAll(tt.limit, tt.method, tt.path)
			status, retry, limit, body := b.hit(tt.method, tt.path)
			want := `{"error":"Too many requests","details":[{"message":"` + tt.wantDetail + `"}]}` + "\n"
			if status != 429 || retry != tt.wantRetryAfter || limit != strconv.Itoa(tt.limit) || body != want {
				t.Fatalf("over the limit: %d Retry-After %q Limit %q %s", status, retry, limit, body)
			}
			b.clk.Advance(tt.window - time.Nanosecond)
			if status, retry, _, _ := b.hit(tt.method, tt.path); status != 429 || retry != "1" {
				t.Errorf("a nanosecond before the window slides: %d Retry-After %q", status, retry)
			}
			b.clk.Advance(time.Nanosecond)
			b.spendAll(tt.limit, tt.method, tt.path) // the whole window's worth left together
			if status, _, _, _ := b.hit(tt.method, tt.path); status != 429 {
				t.Errorf("the second window took more than %d: %d", tt.limit, status)
			}
		})
	}
}

func TestBudgets_retryAfterIsWhenTheOldestRequestLeaves(t *testing.T) {
	b := newBudgetHarness(t, Config{})
	for range 5 {
		b.spendAll(1, "POST", "/v1/project/preview/demo-project")
		b.clk.Advance(2500 * time.Millisecond)
	}
	// The first left-over request leaves 60 s after it came: 47.5 s from now.
	if status, retry, _, _ := b.hit("POST", "/v1/project/preview/demo-project"); status != 429 || retry != "48" {
		t.Errorf("%d Retry-After %q, want 48 (47.5 rounded up)", status, retry)
	}
	b.clk.Advance(47500 * time.Millisecond)
	b.spendAll(1, "POST", "/v1/project/preview/demo-project")
	if status, retry, _, _ := b.hit("POST", "/v1/project/preview/demo-project"); status != 429 || retry != "3" {
		t.Errorf("%d Retry-After %q, want 3 (the second request leaves in 2.5 s)", status, retry)
	}
}

func TestBudgets_sharedAndScoped(t *testing.T) {
	b := newBudgetHarness(t, Config{})
	// Deployments and automation triggers share one budget per organization.
	b.spendAll(6, "POST", "/v1/project/update/demo-project")
	b.spendAll(4, "POST", "/v1/workflow/second/wf1/trigger")
	if status, _, _, _ := b.hit("POST", "/v1/project/update/second"); status != 429 {
		t.Errorf("the eleventh deployment or automation of the org: %d", status)
	}
	if status, _, _, _ := b.hit("POST", "/v1/workflow/demo-project/wf2/trigger"); status != 429 {
		t.Errorf("an automation after ten deployments and automations: %d", status)
	}
	// Another organization has its own.
	b.spendAll(10, "POST", "/v1/project/update/elsewhere", "mint_other")
	// Previews have their own budget, and a route without one is never limited.
	b.spendAll(5, "POST", "/v1/project/preview/demo-project")
	b.spendAll(50, "GET", "/v1/project/update-status/s1")
	// Agent jobs count per project.
	b.spendAll(100, "POST", "/v2/agent/demo-project/job")
	b.spendAll(100, "POST", "/v2/agent/second/job")
	if status, _, _, _ := b.hit("POST", "/v2/agent/second/job"); status != 429 {
		t.Errorf("the second project's 101st job: %d", status)
	}
	// A request refused for its key or its project spends nothing.
	for range 3 {
		b.hit("POST", "/v1/project/preview/elsewhere")
		b.hit("POST", "/v1/project/preview/elsewhere", "mint_nope")
	}
	b.spendAll(5, "POST", "/v1/project/preview/elsewhere", "mint_other")
}

// The Index's two budgets: a request takes from both, or, refused by
// either, from neither.
func TestBudgets_indexPerSecondAndPerDay(t *testing.T) {
	b := newBudgetHarness(t, Config{})
	for second := range 99 {
		b.spendAll(10, "POST", "/index/v1/search")
		if status, retry, limit, _ := b.hit("POST", "/index/v1/search"); status != 429 || retry != "1" || limit != "10" {
			t.Fatalf("second %d, the eleventh request: %d Retry-After %q Limit %q", second, status, retry, limit)
		}
		b.clk.Advance(time.Second)
	}
	// The refused ones took nothing from the day: 10 more make 1,000.
	b.spendAll(10, "POST", "/index/v1/search")
	status, retry, limit, _ := b.hit("POST", "/index/v1/search")
	if status != 429 || limit != "1000" || retry != strconv.Itoa(86400-99) {
		t.Errorf("the 1,001st request of the day: %d Retry-After %q Limit %q", status, retry, limit)
	}
	b.clk.Advance(time.Second)
	if status, retry, limit, _ := b.hit("POST", "/index/v1/search"); status != 429 || limit != "1000" || retry != strconv.Itoa(86400-100) {
		t.Errorf("a second later: %d Retry-After %q Limit %q", status, retry, limit)
	}
	// Both spent at once: the answer is the one that frees up last.
	b.f.mu.Lock()
	second := window{budget: budgetIndexSecond, scope: "org " + DemoOrg}
	for range 10 {
		b.f.windows[second] = append(b.f.windows[second], b.clk.Now())
	}
	b.f.mu.Unlock()
	if status, retry, limit, _ := b.hit("POST", "/index/v1/search"); status != 429 || retry != strconv.Itoa(86400-100) || limit != "1000" {
		t.Errorf("both budgets spent: %d Retry-After %q Limit %q, want the day's", status, retry, limit)
	}
	// The day's first requests leave: the second's budget is full again.
	b.clk.Advance(86300 * time.Second)
	b.spendAll(10, "POST", "/index/v1/search")
}

func TestBudgets_limitsConfigured(t *testing.T) {
	b := newBudgetHarness(t, Config{JobBudget: 3, AnalyticsBudget: -1, Limits: map[string]int{budgetPreviews: 2, budgetDeployments: -1, budgetIndexDay: 0}})
	b.spendAll(3, "POST", "/v2/agent/demo-project/job")
	if status, _, limit, _ := b.hit("POST", "/v2/agent/demo-project/job"); status != 429 || limit != "3" {
		t.Errorf("JobBudget 3: %d, limit %q", status, limit)
	}
	b.spendAll(150, "GET", "/v1/analytics/demo-project/visitors")
	b.spendAll(2, "POST", "/v1/project/preview/demo-project")
	if status, _, limit, _ := b.hit("POST", "/v1/project/preview/demo-project"); status != 429 || limit != "2" {
		t.Errorf("previews limited to 2: %d, limit %q", status, limit)
	}
	b.spendAll(40, "POST", "/v1/project/update/demo-project")
	// Limits wins over JobBudget; 0 keeps the published limit.
	c := newBudgetHarness(t, Config{JobBudget: 3, Limits: map[string]int{budgetAgentJobs: 5}})
	c.spendAll(5, "POST", "/v2/agent/demo-project/job")
	if status, _, _, _ := c.hit("POST", "/v2/agent/demo-project/job"); status != 429 {
		t.Errorf("Limits[agent-jobs] 5 over JobBudget 3: the sixth got %d", status)
	}
	d := newBudgetHarness(t, Config{Limits: map[string]int{budgetPreviews: 0}})
	d.spendAll(5, "POST", "/v1/project/preview/demo-project")
	if status, _, _, _ := d.hit("POST", "/v1/project/preview/demo-project"); status != 429 {
		t.Errorf("Limits 0 is the published 5: the sixth got %d", status)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `no budget "nope"`) {
			t.Errorf("an unknown budget: %v", r)
		}
	}()
	New(Config{Limits: map[string]int{"nope": 1}})
}

func TestResetRateLimits_resetsEveryBudget(t *testing.T) {
	b := newBudgetHarness(t, Config{})
	b.spendAll(5, "POST", "/v1/project/preview/demo-project")
	b.spendAll(10, "POST", "/index/v1/search")
	b.spendAll(10, "POST", "/v1/project/update/demo-project")
	b.f.ResetRateLimits()
	b.spendAll(5, "POST", "/v1/project/preview/demo-project")
	b.spendAll(10, "POST", "/index/v1/search")
	b.spendAll(10, "POST", "/v1/project/update/demo-project")
}

// The budgets are the published limits (../shared/API.md).
func TestBudgets_arePublishedLimits(t *testing.T) {
	type lim struct {
		Limit      int
		Window     time.Duration
		PerProject bool
	}
	want := map[string]lim{
		budgetAgentJobs:   {100, time.Hour, true},
		budgetAnalytics:   {100, time.Hour, false},
		budgetDeployments: {10, 10 * time.Second, false},
		budgetPreviews:    {5, time.Minute, false},
		budgetDiscovery:   {10_000, time.Hour, false},
		budgetIndexSecond: {10, time.Second, false},
		budgetIndexDay:    {1_000, 24 * time.Hour, false},
	}
	got := map[string]lim{}
	for _, s := range Budgets() {
		got[s.Name] = lim{s.Limit, s.Window, s.PerProject}
		if s.Covers == "" {
			t.Errorf("%s: says nothing of what it covers", s.Name)
		}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("budgets (-published +fake):\n%s", diff)
	}
	for d, want := range map[time.Duration]string{time.Second: "second", time.Minute: "minute", time.Hour: "hour", 24 * time.Hour: "day", 10 * time.Second: "10s"} {
		if got := per(d); got != want {
			t.Errorf("per(%s) = %q", d, got)
		}
	}
	for d, want := range map[time.Duration]int64{0: 1, time.Nanosecond: 1, time.Second: 1, time.Second + 1: 2, 59 * time.Second: 59} {
		if got := retryAfterSeconds(d); got != want {
			t.Errorf("retryAfterSeconds(%s) = %d", d, got)
		}
	}
}
