package sdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The contract tests hold the fake and the SDK to Mintlify's published
// OpenAPI files: every request the SDK sends and every answer the fake
// gives must be what the files allow. The files are not part of this
// repository: they are read from MINTLIFY_SPEC_DIR, or ../shared/spec
// beside it. Without them the tests skip, unless MINTLIFY_REQUIRE_SPEC=1
// (as .ci/run sets when the folder is there).

// undeclaredStatuses are answers the fake gives that a spec file does not
// list for the operation. Each is documented on Mintlify's API reference
// pages (../shared/API.md) for every endpoint: 401 (missing or invalid
// key), 403 (read-only key, IP not allowed), 404 (unknown project), 429
// (rate limit). Their bodies must still be the spec's error object.
var undeclaredStatuses = []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusTooManyRequests}

// deprecatedUsed are the deprecated operations the SDK calls on purpose,
// each for a reason: any other deprecated call is a violation.
var deprecatedUsed = map[string]string{
	// The v2 agent API has no listing: v1's is the only way to find jobs
	// started outside this client (AgentJobs.Sessions).
	"GET /v1/agent/{projectId}/jobs": "the API's only listing of agent jobs",
}

type spec struct {
	doc    *openapi3.T
	router routers.Router
	// errorSchema is the spec's error object, for undeclared statuses.
	errorSchema *openapi3.Schema
}

func loadSpecs(t *testing.T) []spec {
	t.Helper()
	dir := os.Getenv("MINTLIFY_SPEC_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "spec")
	}
	if _, err := os.Stat(filepath.Join(dir, "analytics.openapi.json")); err != nil {
		if os.Getenv("MINTLIFY_REQUIRE_SPEC") == "1" {
			t.Fatalf("MINTLIFY_REQUIRE_SPEC=1 but the OpenAPI files are not in %s: %v", dir, err)
		}
		t.Skipf("contract tests skipped: Mintlify's OpenAPI files are not in %s (set MINTLIFY_SPEC_DIR to the folder holding admin-openapi.json and analytics.openapi.json)", dir)
	}
	var out []spec
	for file, errName := range map[string]string{"admin-openapi.json": "Error", "analytics.openapi.json": "AnalyticsErrorResponse",
		"static-export-openapi.json": "Error", "openapi.json": ""} {
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if err := doc.Validate(loader.Context); err != nil {
			t.Fatalf("%s is not a valid OpenAPI document: %v", file, err)
		}
		router, err := gorillamux.NewRouter(doc)
		if err != nil {
			t.Fatal(err)
		}
		errorSchema := plainErrorSchema // openapi.json declares its error body inline
		if errName != "" {
			errorSchema = doc.Components.Schemas[errName].Value
		}
		out = append(out, spec{doc: doc, router: router, errorSchema: errorSchema})
	}
	return out
}

// contractProxy serves the fake and validates each exchange on the way.
type contractProxy struct {
	specs []spec
	next  http.Handler

	mu         sync.Mutex
	violations []string
	seen       map[string]int // "METHOD /path/template status" -> exchanges
}

// invalidRequestHeader marks a request deliberately outside the spec (to
// make the fake answer 400): only its answer is validated.
const invalidRequestHeader = "X-Contract-Invalid-Request"

func (p *contractProxy) fail(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.violations = append(p.violations, fmt.Sprintf(format, args...))
}

func (p *contractProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	// Route as the spec's server would see the request.
	specReq := r.Clone(context.Background())
	specReq.URL, _ = url.Parse("https://api.mintlify.com" + r.URL.RequestURI())
	specReq.Host = "api.mintlify.com"
	specReq.Body = io.NopCloser(bytes.NewReader(body))
	var (
		sp     spec
		route  *routers.Route
		params map[string]string
	)
	for _, s := range p.specs {
		if rt, pp, err := s.router.FindRoute(specReq); err == nil {
			sp, route, params = s, rt, pp
			break
		}
	}
	rec := httptest.NewRecorder()
	p.next.ServeHTTP(rec, r)
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())

	what := r.Method + " " + r.URL.Path
	if route == nil && strings.HasPrefix(r.URL.Path, "/_bundles/") {
		return // a bundle's download: object storage's, in no spec of the API
	}
	if route == nil {
		p.fail("%s: no operation in the spec files", what)
		return
	}
	if _, ok := deprecatedUsed[r.Method+" "+route.Path]; route.Operation.Deprecated && !ok {
		p.fail("%s: a deprecated operation was used", what)
	}
	opts := &openapi3filter.Options{
		AuthenticationFunc:      openapi3filter.NoopAuthenticationFunc,
		IncludeResponseStatus:   true,
		MultiError:              true,
		SchemaValidationOptions: []openapi3.SchemaValidationOption{openapi3.EnableFormatValidation()},
	}
	in := &openapi3filter.RequestValidationInput{Request: specReq, PathParams: params, Route: route, Options: opts}
	ctx := context.Background()
	if r.Header.Get(invalidRequestHeader) == "" {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			p.fail("%s: request: %v", what, err)
		}
	}
	p.mu.Lock()
	p.seen[fmt.Sprintf("%s %s %d", r.Method, route.Path, rec.Code)]++
	p.mu.Unlock()
	// A request deliberately outside the spec gets a 400 even where the
	// operation lists none (the v1 job listing): in the error object.
	invalid := r.Header.Get(invalidRequestHeader) != "" && rec.Code == http.StatusBadRequest
	if (invalid || slices.Contains(undeclaredStatuses, rec.Code)) && route.Operation.Responses.Status(rec.Code) == nil {
		var v any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			p.fail("%s: %d body is not JSON: %v", what, rec.Code, err)
		} else if err := sp.errorSchema.VisitJSON(v); err != nil {
			p.fail("%s: %d body is not the spec's error object: %v", what, rec.Code, err)
		}
		return
	}
	err := openapi3filter.ValidateResponse(ctx, &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
		Body: io.NopCloser(bytes.NewReader(rec.Body.Bytes())), Options: opts,
	})
	if err != nil {
		p.fail("%s: %d answer: %v", what, rec.Code, err)
	}
}

func TestContract_fakeAndSDKFollowTheSpec(t *testing.T) {
	specs := loadSpecs(t)
	fake := mintlifytest.New(mintlifytest.Config{
		JobBudget: 5, AnalyticsBudget: 60, // 3 jobs and 2 messages fit; the next POST is refused
		DefaultJob: mintlifytest.JobScript{ActiveFor: 30 * time.Millisecond, Outcome: mintlifytest.OutcomeCompleted},
		Analytics:  mintlifytest.Dataset{Paths: 260, SearchTerms: 120, Feedback: 300, Conversations: 1200, Seed: 5},
		StaticExports: mintlifytest.StaticExportConfig{
			Default: mintlifytest.ExportScript{QueuedFor: 10 * time.Millisecond, RunFor: 40 * time.Millisecond, Pages: 5}},
	})
	fake.AddKey("mint_readonly", mintlifytest.DemoOrg, true)
	proxy := &contractProxy{specs: specs, next: fake, seen: map[string]int{}}
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
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/v1/agent/"+project+"/jobs?"+q, nil)
		req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAPIKey)
		req.Header.Set(invalidRequestHeader, "1")
		resp, err := http.DefaultClient.Do(req)
		must(err)
		resp.Body.Close()
		if resp.StatusCode != 400 {
			t.Errorf("jobs?%s: %d, want 400", q, resp.StatusCode)
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
		req, _ := http.NewRequest(http.MethodGet, ts.URL+"/v1/analytics/"+project+"/"+q, nil)
		req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAPIKey)
		req.Header.Set(invalidRequestHeader, "1")
		resp, err := http.DefaultClient.Do(req)
		must(err)
		resp.Body.Close()
		if resp.StatusCode != 400 {
			t.Errorf("%s: %d, want 400", q, resp.StatusCode)
		}
	}
	// The analytics budget is one per organization, for every endpoint.
	var rateLimited error
	for i := 0; rateLimited == nil && i < 100; i++ {
		_, rateLimited = c.Analytics.CallerStats(ctx, project, sdk.DateRange{})
	}
	wantStatus(t, rateLimited, 429)

	for _, v := range proxy.violations {
		t.Error(v)
	}
	// Every operation of both files was exercised, but the deprecated ones
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
	t.Logf("%d exchanges checked against the spec, %d violations:\n%s", proxy.total(), len(proxy.violations), proxy.report())
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
		req, _ := http.NewRequest(http.MethodPost, base+"/v1/static-export/jobs", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAPIKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 400 {
			t.Errorf("%s: %d, want 400", body, resp.StatusCode)
		}
	}
}

func (p *contractProxy) exercised(op string) bool {
	for k := range p.seen {
		if strings.HasPrefix(k, op+" ") {
			return true
		}
	}
	return false
}

func (p *contractProxy) total() int {
	n := 0
	for _, c := range p.seen {
		n += c
	}
	return n
}

func (p *contractProxy) report() string {
	keys := make([]string, 0, len(p.seen))
	for k := range p.seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  %4d  %s\n", p.seen[k], k)
	}
	return b.String()
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
	for name, tt := range map[string]struct {
		path, answer string
		status       int
		want         string
	}{
		"views without a total":   {"/v1/analytics/p/views", `{"totals":{"human":1,"ai":0},"views":[],"hasMore":false}`, 200, `property "total" is missing`},
		"visitors under views":    {"/v1/analytics/p/visitors", `{"totals":{"human":1,"ai":0,"total":1},"views":[],"hasMore":false}`, 200, `property "visitors" is missing`},
		"a count as a string":     {"/v1/analytics/p/assistant/caller-stats", `{"web":"1","api":0,"other":0,"total":1}`, 200, `"/web": at '/web': got string, want number`},
		"an undeclared 418":       {"/v1/analytics/p/views", `{"error":"teapot"}`, 418, "418"},
		"a 429 without its error": {"/v1/analytics/p/views", `{"message":"slow down"}`, 429, "error object"},
		"a limit below 1":         {"/v1/analytics/p/views?limit=0", `{"totals":{"human":1,"ai":0,"total":1},"views":[],"hasMore":false}`, 200, "request"},
		"a path outside the spec": {"/v1/analytics/p/pageviews", `{}`, 200, "no operation"},
		"a deprecated call":       {"/v1/agent/p/job/j", `{"sessionId":"j"}`, 200, "a deprecated operation was used"},
		"a listed null link":      {"/v1/agent/p/jobs", `{"allSessions":[{"sessionId":"j","pullRequestLink":null}]}`, 200, "pullRequestLink"},
		"a take past 100":         {"/v1/agent/p/jobs?take=101", `{"allSessions":[]}`, 200, "request"},
	} {
		t.Run(name, func(t *testing.T) {
			proxy := &contractProxy{specs: specs, seen: map[string]int{}, next: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.answer))
			})}
			req := httptest.NewRequest(http.MethodGet, tt.path, nil)
			proxy.ServeHTTP(httptest.NewRecorder(), req)
			if len(proxy.violations) == 0 || !strings.Contains(strings.Join(proxy.violations, "\n"), tt.want) {
				t.Errorf("violations %q, want one mentioning %q", proxy.violations, tt.want)
			}
		})
	}
}
