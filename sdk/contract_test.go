package sdk_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The contract tests drive every operation through contractProxy
// (contract_spec_test.go), which checks each exchange against the OpenAPI
// files.

func TestContract_fakeAndSDKFollowTheSpec(t *testing.T) {
	specs := loadSpecs(t)
	fake := mintlifytest.New(mintlifytest.Config{
		JobBudget: 5, AnalyticsBudget: 60, // 3 jobs and 2 messages fit; the next POST is refused
		Limits:     map[string]int{"discovery": 40, "index-day": 30},
		DefaultJob: mintlifytest.JobScript{ActiveFor: 30 * time.Millisecond, Outcome: mintlifytest.OutcomeCompleted},
		Analytics:  mintlifytest.Dataset{Paths: 260, SearchTerms: 120, Feedback: 300, Conversations: 1200, Seed: 5},
		StaticExports: mintlifytest.StaticExportConfig{
			Default: mintlifytest.ExportScript{QueuedFor: 10 * time.Millisecond, RunFor: 40 * time.Millisecond, Pages: 5}},
	})
	fake.AddKey("mint_readonly", mintlifytest.DemoOrg, true)
	proxy := &contractProxy{specs: specs, next: fake, seen: map[string]int{}, calls: newCallRecord(t)}
	ts := httptest.NewServer(proxy)
	defer ts.Close()
	c, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(ts.URL), sdk.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	project := mintlifytest.DemoProjectID
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	// Agent jobs: every outcome, follow-ups, and the refusals.
	for _, prompt := range []string{"Document it", "[fake:nochange] x", "[fake:archived] x"} {
		job, err := c.AgentJobs.Create(ctx, project, prompt)
		must(err)
		_, err = c.AgentJobs.Wait(ctx, project, job.ID, sdk.WithPollInterval(10*time.Millisecond, 20*time.Millisecond))
		must(err)
		if prompt == "Document it" {
			_, err = c.AgentJobs.SendMessage(ctx, project, job.ID, "Also the changelog")
			must(err)
		}
	}
	_, err = c.AgentJobs.Get(ctx, project, "no-such-job")
	wantStatus(t, err, 404)
	_, err = c.AgentJobs.SendMessage(ctx, project, "no-such-job", "x")
	wantStatus(t, err, 404)
	_, err = c.AgentJobs.Create(ctx, project, "over the hourly budget")
	wantStatus(t, err, 429)
	_, err = c.AgentJobs.Create(ctx, "no-such-project", "x")
	wantStatus(t, err, 404)
	readOnly, _ := sdk.NewClient("mint_readonly", sdk.WithBaseURL(ts.URL))
	_, err = readOnly.AgentJobs.Create(ctx, project, "x")
	wantStatus(t, err, 403)
	wrongKey, _ := sdk.NewClient("mint_wrong", sdk.WithBaseURL(ts.URL))
	_, err = wrongKey.AgentJobs.Get(ctx, project, "x")
	wantStatus(t, err, 401)

	// The job listing (deprecated v1), through several pages; its 400s.
	for range 5 {
		fake.CreateJob(project, "Started from the dashboard")
	}
	listed, err := c.AgentJobs.Sessions.All(ctx, project, sdk.SessionsQuery{Limit: 3})
	must(err)
	if len(listed.Sessions) != 8 || listed.Pages != 3 {
		t.Errorf("listed %d jobs in %d pages, want 8 in 3", len(listed.Sessions), listed.Pages)
	}
	for _, q := range []string{"take=0", "take=101", "skip=-1", "take=1.5"} {
		if got := getRaw(t, ts.URL+"/v1/agent/"+project+"/jobs?"+q, mintlifytest.DemoAPIKey, true); got != 400 {
			t.Errorf("jobs?%s: %d, want 400", q, got)
		}
	}

	staticExportExchanges(t, c, fake, ts.URL)
	exerciseDeployments(t, c, ts.URL, fake)

	// Every analytics export, through several pages, in each date form.
	for _, r := range []sdk.DateRange{{}, {DateFrom: "2026-10-01", DateTo: "2026-10-15"}, {DateFrom: "2026-10-01T00:00:00Z", DateTo: "2026-10-08T12:00:00+02:00"}} {
		_, err = c.Analytics.Visitors.All(ctx, project, sdk.VisitorsQuery{DateFrom: r.DateFrom, DateTo: r.DateTo})
		must(err)
		_, err = c.Analytics.Views.All(ctx, project, sdk.VisitorsQuery{DateFrom: r.DateFrom, DateTo: r.DateTo, Limit: 100})
		must(err)
		_, err = c.Analytics.Searches.All(ctx, project, sdk.SearchesQuery{DateFrom: r.DateFrom, DateTo: r.DateTo, Limit: 40})
		must(err)
		_, err = c.Analytics.CallerStats(ctx, project, r)
		must(err)
	}
	_, err = c.Analytics.Feedback.All(ctx, project, sdk.FeedbackQuery{Limit: 100})
	must(err)
	_, err = c.Analytics.Feedback.All(ctx, project, sdk.FeedbackQuery{Source: sdk.FeedbackSourceCodeSnippet, Statuses: []sdk.FeedbackStatus{"pending", "resolved"}, Limit: 20, MaxResults: 45})
	must(err)
	_, err = c.Analytics.FeedbackByPage(ctx, project, sdk.FeedbackByPageQuery{})
	must(err)
	_, err = c.Analytics.FeedbackByPage(ctx, project, sdk.FeedbackByPageQuery{Source: sdk.FeedbackSourceContextual, Limit: 5})
	must(err)
	conv, err := c.Analytics.Conversations.All(ctx, project, sdk.ConversationsQuery{Limit: 500})
	must(err)
	_, err = c.Analytics.Thread(ctx, project, conv.Conversations[0].ID)
	must(err)
	_, err = c.Analytics.Thread(ctx, project, "01JD8X3Q6V3XK8M4Y2Z9T0B1CD")
	wantStatus(t, err, 404)

	// 400s, sent raw: the SDK refuses such input before sending anything.
	for _, q := range []string{"visitors?limit=0", "views?limit=251", "searches?limit=101", "feedback?source=email",
		"feedback?status=open", "feedback/by-page?limit=0", "assistant?cursor=not-a-ulid", "assistant/caller-stats?dateFrom=soon",
		"searches?cursor=bogus", "assistant/threads/not-a-ulid"} {
		if got := getRaw(t, ts.URL+"/v1/analytics/"+project+"/"+q, mintlifytest.DemoAPIKey, true); got != 400 {
			t.Errorf("%s: %d, want 400", q, got)
		}
	}
	// The analytics budget is one per organization, for every endpoint.
	var rateLimited error
	for i := 0; rateLimited == nil && i < 100; i++ {
		_, rateLimited = c.Analytics.CallerStats(ctx, project, sdk.DateRange{})
	}
	wantStatus(t, rateLimited, 429)

	contractDiscovery(t, ts.URL)
	contractIndex(t, ts.URL)

	for _, v := range proxy.violations {
		t.Error(v)
	}
	// Every property the spec declares for an answer was in one.
	unanswered, stale := proxy.unanswered()
	for _, m := range unanswered {
		t.Errorf("%s: declared, and in no answer of the fake: make the fake send it, or say in neverAnswered why it never does", m)
	}
	for _, k := range stale {
		t.Errorf("neverAnswered has %q, which an answer held or the spec no longer declares: remove it", k)
	}
	// Every operation of every file was exercised, but the deprecated ones
	// the SDK does not call.
	var missing []string
	for _, s := range specs {
		for path, item := range s.doc.Paths.Map() {
			for method, op := range item.Operations() {
				_, used := deprecatedUsed[method+" "+path]
				if (op.Deprecated && !used) || proxy.exercised(method+" "+path) {
					continue
				}
				missing = append(missing, method+" "+path)
			}
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("operations never exercised: %v", missing)
	}
	proxy.calls.check(t, specs)
	proxy.calls.write(t)
	t.Logf("%d exchanges checked against the spec, %d violations; %d declared answer properties compared with the answers:\n%s",
		proxy.total(), len(proxy.violations), proxy.declared, proxy.report())
}

// staticExportExchanges drives every static export operation through the
// proxy, in each of its answers: a start with and without its options,
// polls of each status, a bundle refused (409) and made, a download of it,
// and the refusals (400, 403, 404, 401).
func staticExportExchanges(t *testing.T, c *sdk.Client, fake *mintlifytest.Fake, base string) {
	t.Helper()
	ctx := context.Background()
	poll := sdk.WithPollInterval(5*time.Millisecond, 10*time.Millisecond)
	e, err := c.StaticExports.Start(ctx, sdk.StaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.StaticExports.CreateBundle(ctx, e.ID)
	wantStatus(t, err, 409)
	b, err := c.StaticExports.CreateBundleWhenReady(ctx, e.ID, poll)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if n, err := c.StaticExports.DownloadBundle(ctx, b.URL, &buf, sdk.WithExpectedSize(b.SizeBytes)); err != nil || n != b.SizeBytes {
		t.Fatalf("download: %d bytes: %v", n, err)
	}
	failed, err := c.StaticExports.Start(ctx, sdk.StaticExportRequest{Domain: "acme.mintlify.app", Version: "2026-06-01 [fake:failed]",
		Paths: []string{"index", "guides/getting-started", "api-reference/introduction"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.StaticExports.Wait(ctx, failed.ID, poll)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.StaticExports.CreateBundle(ctx, failed.ID)
	wantStatus(t, err, 409)
	_, err = c.StaticExports.Get(ctx, "se_0000000000000000")
	wantStatus(t, err, 404)
	_, err = c.StaticExports.CreateBundle(ctx, "se_0000000000000000")
	wantStatus(t, err, 404)
	fake.SetStaticExportsEnabled(false)
	_, err = c.StaticExports.Start(ctx, sdk.StaticExportRequest{Domain: "docs.example.com"})
	wantStatus(t, err, 403)
	fake.SetStaticExportsEnabled(true)
	wrongKey, _ := sdk.NewClient("mint_wrong", sdk.WithBaseURL(base))
	_, err = wrongKey.StaticExports.Start(ctx, sdk.StaticExportRequest{Domain: "docs.example.com"})
	wantStatus(t, err, 401)
	// A domain with a scheme, and a path with a leading slash, sent raw:
	// the SDK refuses both before sending anything.
	for _, body := range []string{`{"domain":"https://docs.example.com"}`, `{"domain":"docs.example.com","paths":["/index"]}`} {
		if got := postRaw(t, base+"/v1/static-export/jobs", mintlifytest.DemoAPIKey, body, false); got != 400 {
			t.Errorf("%s: %d, want 400", body, got)
		}
	}
}

func wantStatus(t *testing.T, err error, status int) {
	t.Helper()
	var apiErr *sdk.APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != status {
		t.Errorf("err = %v, want a %d", err, status)
	}
}

// The check itself can fail: an answer or a request off the spec is caught.
func TestContract_catchesExchangesOffTheSpec(t *testing.T) {
	specs := loadSpecs(t)
	const stream = "data: {\"type\":\"start\"}\n\ndata: {\"type\":\"finish\"}\n\ndata: [DONE]\n\n"
	for name, tt := range map[string]struct {
		path, answer string
		status       int
		want         string
		method, body string // GET without a body unless set
		contentType  string // application/json unless set
	}{
		"views without a total":   {"/v1/analytics/p/views", `{"totals":{"human":1,"ai":0},"views":[],"hasMore":false}`, 200, `property "total" is missing`, "", "", ""},
		"visitors under views":    {"/v1/analytics/p/visitors", `{"totals":{"human":1,"ai":0,"total":1},"views":[],"hasMore":false}`, 200, `property "visitors" is missing`, "", "", ""},
		"a count as a string":     {"/v1/analytics/p/assistant/caller-stats", `{"web":"1","api":0,"other":0,"total":1}`, 200, `"/web": at '/web': got string, want number`, "", "", ""},
		"an undeclared 418":       {"/v1/analytics/p/views", `{"error":"teapot"}`, 418, "418", "", "", ""},
		"a 429 without its error": {"/v1/analytics/p/views", `{"message":"slow down"}`, 429, "error object", "", "", ""},
		"a limit below 1":         {"/v1/analytics/p/views?limit=0", `{"totals":{"human":1,"ai":0,"total":1},"views":[],"hasMore":false}`, 200, "request", "", "", ""},
		"a path outside the spec": {"/v1/analytics/p/pageviews", `{}`, 200, "no operation", "", "", ""},
		"an Index result without its site": {"/api/universal-search/v1/search", `{"requestId":"r","results":[{"id":"a","url":"https://a.test/","title":"A","text":"","score":1,"source":"web","breadcrumbs":[],"publishedDate":null}]}`,
			200, `property "siteName" is missing`, "POST", `{"query":"q","numResults":1}`, ""},
		"an Index error with details":  {"/api/universal-search/v1/search", `{"error":"bad","details":[]}`, 400, `property "details" is unsupported`, "POST", `{"query":"q","numResults":1}`, ""},
		"an Index request asking 21":   {"/api/universal-search/v1/search", `{"requestId":"r","results":[]}`, 200, "request", "POST", `{"query":"q","numResults":21}`, ""},
		"a discovery 401 as a string":  {"/discovery/v1/search/d", `"unauthorized"`, 401, "error object", "POST", `{"query":"q"}`, ""},
		"a stream that never finishes": {"/discovery/v2/assistant/d/message", "data: {\"type\":\"start\"}\n\ndata: [DONE]\n\n", 200, `the last part is "start"`, "POST", `{"fp":"a","messages":[]}`, "text/event-stream"},
		"a stream part without a type": {"/discovery/v2/assistant/d/message", "data: {\"delta\":\"x\"}\n\n" + stream, 200, "holding a part with a type", "POST", `{"fp":"a","messages":[]}`, "text/event-stream"},
		"a stream as JSON":             {"/discovery/v2/assistant/d/message", stream, 200, "want text/event-stream", "POST", `{"fp":"a","messages":[]}`, ""},
		"a v1 line without a code":     {"/discovery/v1/assistant/d/message", "hello\nd:{}\n", 200, `"hello" is not CODE:JSON`, "POST", `{"fp":"a","messages":[]}`, "text/plain"},
		"a deprecated call":            {"/v1/agent/p/job/j", `{"sessionId":"j"}`, 200, "a deprecated operation was used", "", "", ""},
		"a listed null link":           {"/v1/agent/p/jobs", `{"allSessions":[{"sessionId":"j","pullRequestLink":null}]}`, 200, "pullRequestLink", "", "", ""},
		"a take past 100":              {"/v1/agent/p/jobs?take=101", `{"allSessions":[]}`, 200, "request", "", "", ""},
	} {
		t.Run(name, func(t *testing.T) {
			proxy := &contractProxy{specs: specs, seen: map[string]int{}, next: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", cmp.Or(tt.contentType, "application/json"))
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.answer))
			})}
			req := httptest.NewRequest(cmp.Or(tt.method, http.MethodGet), tt.path, strings.NewReader(tt.body))
			if tt.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			proxy.ServeHTTP(httptest.NewRecorder(), req)
			if len(proxy.violations) == 0 || !strings.Contains(strings.Join(proxy.violations, "\n"), tt.want) {
				t.Errorf("violations %q, want one mentioning %q", proxy.violations, tt.want)
			}
		})
	}
}

// The property check can fail: a listing whose rows hold only their ids
// leaves every other declared property unanswered, and an entry of
// neverAnswered covers what is inside its property.
func TestContract_catchesPropertiesNoAnswerHeld(t *testing.T) {
	proxy := &contractProxy{specs: loadSpecs(t), seen: map[string]int{}, next: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"allSessions":[{"sessionId":"j","todos":[{"id":"t"}]}]}`))
	})}
	proxy.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/v1/agent/p/jobs", nil))
	if len(proxy.violations) > 0 {
		t.Fatal(proxy.violations)
	}
	unanswered, stale := proxy.unanswered()
	const op = "GET /v1/agent/{projectId}/jobs 200 "
	for _, want := range []string{op + "allSessions[].title", op + "allSessions[].userId", op + "allSessions[].todos[].content"} {
		if !slices.Contains(unanswered, want) {
			t.Errorf("unanswered %q, want %s in it", unanswered, want)
		}
	}
	for _, held := range []string{op + "allSessions", op + "allSessions[].sessionId", op + "allSessions[].todos[].id"} {
		if slices.Contains(unanswered, held) {
			t.Errorf("%s was answered, yet is unanswered", held)
		}
	}
	if len(stale) != len(neverAnswered) {
		t.Errorf("stale %q: every entry of neverAnswered is, in a run of one exchange", stale)
	}
	const threads = "GET /v1/analytics/{projectId}/assistant/threads/{threadId} 404"
	if entry, ok := neverAnsweredEntry(threads, "details[].message"); !ok || entry != threads+" details" {
		t.Errorf("details[].message is explained by %q (%v), want the entry of details", entry, ok)
	}
}

// postRaw sends a body the SDK would refuse, with a key, and returns the
// status; invalid marks the request as off the spec on purpose.
func postRaw(t *testing.T, url, key, body string, invalid bool) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return sendRaw(t, req, key, invalid)
}

// getRaw is postRaw for a GET: a query the SDK would refuse.
func getRaw(t *testing.T, url, key string, invalid bool) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	return sendRaw(t, req, key, invalid)
}

// sendRaw sends req with a key and returns the answer's status.
func sendRaw(t *testing.T, req *http.Request, key string, invalid bool) int {
	t.Helper()
	req.Header.Set("Authorization", "Bearer "+key)
	if invalid {
		req.Header.Set(invalidRequestHeader, "1")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// contractDiscovery drives every discovery operation through the proxy at
// base: search with every filter, pages found and not, the assistant in
// both protocols and its thread, the refusals, and the hourly budget.
func contractDiscovery(t *testing.T, base string) {
	ctx := context.Background()
	d, err := sdk.NewDiscoveryClient(mintlifytest.DemoAssistantKey, sdk.WithBaseURL(base+"/discovery"), sdk.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	domain := mintlifytest.DemoDomain
	th := 0.2
	for _, q := range []sdk.SearchRequest{{Query: "install the CLI"}, {Query: "changelog", PageSize: 50, ScoreThreshold: &th,
		Filter: sdk.SearchFilter{Version: "v2", Language: "en", Tag: "changelog", Groups: []string{"staff"}}}, {Query: "zzz"}} {
		if _, err := d.Search(ctx, domain, q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Page(ctx, domain, "/quickstart", []string{"staff"}); err != nil {
		t.Fatal(err)
	}
	_, err = d.Page(ctx, domain, "/no-such-page", nil)
	wantStatus(t, err, 404)
	_, err = d.Search(ctx, "no-such-site", sdk.SearchRequest{Query: "x"})
	wantStatus(t, err, 404)
	for _, proto := range []sdk.AssistantProtocol{sdk.AssistantV2, sdk.AssistantV1} {
		first, err := d.Assistant.Ask(ctx, domain, sdk.AssistantRequest{Question: "How do I deploy?", Protocol: proto,
			Filter: sdk.AssistantFilter{Version: "v2", Language: "en"}, RetrievalPageSize: 3, CurrentPath: "/quickstart",
			Context: []sdk.AssistantContext{{Type: "code", Value: "mint dev", Path: "/quickstart", ElementID: "c1"}}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Assistant.Ask(ctx, domain, sdk.AssistantRequest{Question: "And previews?", ThreadID: first.ThreadID, Protocol: proto,
			Messages: []sdk.AssistantMessage{{Role: sdk.RoleSystem, Text: "Be brief."}, {Role: sdk.RoleUser, Text: "How do I deploy?"}, {Role: sdk.RoleAssistant, Text: first.Text}}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.Assistant.Ask(ctx, domain, sdk.AssistantRequest{Question: "Who?", Filter: sdk.AssistantFilter{Groups: []string{"staff"}}}); err != nil {
		t.Fatal(err)
	}
	for path, body := range map[string]string{
		"/discovery/v1/search/" + domain:                 `{"pageSize":5}`,
		"/discovery/v1/page/" + domain:                   `{"groups":[]}`,
		"/discovery/v2/assistant/" + domain + "/message": `{"messages":[]}`,
	} {
		if got := postRaw(t, base+path, mintlifytest.DemoAssistantKey, body, true); got != 400 {
			t.Errorf("%s %s: %d, want 400", path, body, got)
		}
		if got := postRaw(t, base+path, mintlifytest.DemoAPIKey, `{"query":"x","path":"/x","fp":"a","messages":[]}`, false); got != 401 {
			t.Errorf("%s with an admin key: %d, want 401", path, got)
		}
	}
	var rateLimited error
	for i := 0; rateLimited == nil && i < 50; i++ {
		_, rateLimited = d.Search(ctx, domain, sdk.SearchRequest{Query: "x"})
	}
	wantStatus(t, rateLimited, 429)
}

// contractIndex drives every Index operation through the proxy at base.
func contractIndex(t *testing.T, base string) {
	ctx := context.Background()
	ix, err := sdk.NewIndexClient(mintlifytest.DemoIndexKey, sdk.WithBaseURL(base+"/api/universal-search"), sdk.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	res, err := ix.Search(ctx, sdk.IndexSearchRequest{Query: "deploy preview", NumResults: 20, MaxCharacters: 100, Domains: sdk.Domains{Exclude: []string{"forum.example.org"}}})
	if err != nil || len(res.Results) == 0 {
		t.Fatal(err)
	}
	for _, q := range []sdk.IndexSearchRequest{{Query: "search API tips", IncludeText: true}, {Query: "docs", Domains: sdk.Domains{Include: []string{"example.com"}}}} {
		if _, err := ix.Search(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range []sdk.IndexContextRequest{{Query: "install the CLI", Product: "Mintlify"}, {Query: "deploy", Format: sdk.ContextJSON, TokenBudget: 6000}, {Query: "deploy", TokenBudget: 1}} {
		if _, err := ix.Context(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ix.Contents(ctx, sdk.IndexContentsRequest{IDs: []string{res.Results[0].ID, "nobody:/x"}, URLs: []string{"https://blog.example.com/docs-as-code", "https://gone.example/x"},
		MaxCharacters: 50, Query: "preview"}); err != nil {
		t.Fatal(err)
	}
	many := `{"ids":[` + strings.TrimSuffix(strings.Repeat(`"a",`, 21), ",") + `]}`
	for path, body := range map[string]string{
		"/api/universal-search/v1/search":   `{"query":"x","numResults":21}`,
		"/api/universal-search/v1/context":  `{"query":"x","format":"md"}`,
		"/api/universal-search/v1/contents": many,
	} {
		if got := postRaw(t, base+path, mintlifytest.DemoIndexKey, body, true); got != 400 {
			t.Errorf("%s %s: %d, want 400", path, body, got)
		}
		if got := postRaw(t, base+path, mintlifytest.DemoAssistantKey, `{"query":"x","numResults":1}`, true); got != 401 {
			t.Errorf("%s with an assistant key: %d, want 401", path, got)
		}
	}
	var rateLimited error
	for i := 0; rateLimited == nil && i < 40; i++ {
		_, rateLimited = ix.Search(ctx, sdk.IndexSearchRequest{Query: "x"})
	}
	wantStatus(t, rateLimited, 429)
}
