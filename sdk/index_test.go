package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const testIndexKey = "mint_us_0123456789abcdef"

func newIndexTestClient(t *testing.T, url string, clk *fakeClock, opts ...Option) *IndexClient {
	t.Helper()
	all := []Option{WithBaseURL(url)}
	if clk != nil {
		all = append(all, WithClock(clk))
	}
	c, err := NewIndexClient(testIndexKey, append(all, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const indexResultJSON = `{"id":"nextjs:/docs/caching","url":"https://nextjs.org/docs/caching","title":"Caching","text":"Caching stores results.",
	"truncated":true,"totalCharacters":92,"score":0.91,"source":"mintlify","siteName":"nextjs","breadcrumbs":["App Router","Guides"],"publishedDate":null}`

func TestIndexSearch_sendsTheRequestAndReadsResults(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, `{"requestId":"r-1","results":[`+indexResultJSON+`,
		{"id":"web:1","url":"https://blog.test/x","title":"X","text":"","score":-0.2,"source":"web","siteName":"blog.test","breadcrumbs":[],"publishedDate":"2026-01-02T00:00:00Z"}]}`))
	c := newIndexTestClient(t, ts.URL+"/api/universal-search", nil)
	res, err := c.Search(context.Background(), IndexSearchRequest{Query: "caching", MaxCharacters: 4000, Domains: Domains{Include: []string{"nextjs.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	r := rec.requests[0]
	if r.URL.Path != "/api/universal-search/v1/search" || r.Header.Get("Authorization") != "Bearer "+testIndexKey {
		t.Errorf("%s %q", r.URL.Path, r.Header.Get("Authorization"))
	}
	if want := `{"query":"caching","numResults":10,"text":{"maxCharacters":4000},"includeDomains":["nextjs.org"]}`; rec.bodies[0] != want {
		t.Errorf("body %s, want %s", rec.bodies[0], want)
	}
	total, date := int64(92), "2026-01-02T00:00:00Z"
	want := []IndexResult{
		{ID: "nextjs:/docs/caching", URL: "https://nextjs.org/docs/caching", Title: "Caching", Text: "Caching stores results.", Truncated: true,
			TotalCharacters: &total, Score: 0.91, Source: "mintlify", SiteName: "nextjs", Breadcrumbs: []string{"App Router", "Guides"}},
		{ID: "web:1", URL: "https://blog.test/x", Title: "X", Score: -0.2, Source: "web", SiteName: "blog.test", Breadcrumbs: []string{}, PublishedDate: &date},
	}
	if diff := cmp.Diff(want, res.Results); diff != "" {
		t.Error(diff)
	}
	if res.IndexRequestID != "r-1" || len(res.Problems) != 0 {
		t.Errorf("%q %v", res.IndexRequestID, res.Problems)
	}
	for _, tt := range []struct {
		req  IndexSearchRequest
		body string
	}{
		{IndexSearchRequest{Query: "q", NumResults: 20, IncludeText: true, Domains: Domains{Exclude: []string{"x.test"}}}, `{"query":"q","numResults":20,"text":true,"excludeDomains":["x.test"]}`},
		{IndexSearchRequest{Query: "q", NumResults: 1}, `{"query":"q","numResults":1}`},
	} {
		n := rec.count()
		if _, err := c.Search(context.Background(), tt.req); err != nil || rec.bodies[n] != tt.body {
			t.Errorf("%v: sent %s, want %s", err, rec.bodies[n], tt.body)
		}
	}
}

func TestIndexSearch_oddFieldsAreProblemsAndNoResultsListIsRefused(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(200, `{"requestId":"r","results":[{"id":5,"score":"high","breadcrumbs":[1],"totalCharacters":1.5}]}`))
	res, err := newIndexTestClient(t, ts.URL, nil).Search(context.Background(), IndexSearchRequest{Query: "q"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"results[0].id: want a string, got a number", "results[0].totalCharacters: 1.5 is not a whole number",
		"results[0].score: want a number, got a string", "results[0].breadcrumbs[0]: want a string, got a number"}
	if diff := cmp.Diff(want, res.Problems); diff != "" {
		t.Error(diff)
	}
	_, ts = newRecorder(t, jsonResponse(200, `{"requestId":"r"}`))
	if _, err := newIndexTestClient(t, ts.URL, nil).Search(context.Background(), IndexSearchRequest{Query: "q"}); !IsMalformedResponse(err) || !strings.Contains(err.Error(), "results: missing") {
		t.Errorf("%v", err)
	}
}

func TestIndexContext_sendsTheBudgetAndReadsTheContext(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, `{"requestId":"r","query":"q","response":"### Caching\n\nSource: https://nextjs.org","resultsCount":3,"outputTokens":1842}`))
	c := newIndexTestClient(t, ts.URL, nil)
	got, err := c.Context(context.Background(), IndexContextRequest{Query: "q", Product: "Next.js", TokenBudget: 3000})
	if err != nil {
		t.Fatal(err)
	}
	if rec.bodies[0] != `{"query":"q","product":"Next.js","format":"txt","tokenBudget":3000}` || rec.requests[0].URL.Path != "/v1/context" {
		t.Errorf("sent %s to %s", rec.bodies[0], rec.requests[0].URL.Path)
	}
	if got.Response != "### Caching\n\nSource: https://nextjs.org" || got.ResultsCount != 3 || got.OutputTokens != 1842 || got.Query != "q" {
		t.Errorf("%+v", got)
	}
	_, ts = newRecorder(t, jsonResponse(200, `{"requestId":"r","query":"q","resultsCount":0,"outputTokens":0}`))
	if _, err := newIndexTestClient(t, ts.URL, nil).Context(context.Background(), IndexContextRequest{Query: "q", Format: ContextJSON}); !IsMalformedResponse(err) || !strings.Contains(err.Error(), "response: missing") {
		t.Errorf("%v", err)
	}
	// The counts are optional; one of the wrong kind is a problem, not a
	// failure.
	for body, want := range map[string][]string{
		`{"requestId":"r","query":"q","response":"x"}`: nil,
		`{"requestId":"r","query":"q","response":"x","resultsCount":"3","outputTokens":"9"}`: {
			`resultsCount: want a number, got a string`, `outputTokens: want a number, got a string`},
	} {
		_, ts = newRecorder(t, jsonResponse(200, body))
		got, err := newIndexTestClient(t, ts.URL, nil).Context(context.Background(), IndexContextRequest{Query: "q"})
		if err != nil || got.Response != "x" || got.ResultsCount != 0 || got.OutputTokens != 0 || !cmp.Equal(got.Problems, want, cmpopts.EquateEmpty()) {
			t.Errorf("%s: %+v, %v", body, got, err)
		}
	}
}

func TestIndexContents_readsItemsAndTheirStatuses(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, `{"requestId":"r","results":[`+indexResultJSON+`],
		"statuses":[{"id":"nextjs:/docs/caching","status":"success"},{"id":"https://gone.test/","status":"error","error":{"tag":"NOT_FOUND","httpStatusCode":404}},{"id":"x","status":"error","error":{"tag":"TIMEOUT","httpStatusCode":null}}]}`))
	c := newIndexTestClient(t, ts.URL, nil)
	got, err := c.Contents(context.Background(), IndexContentsRequest{IDs: []string{"nextjs:/docs/caching", "x"}, URLs: []string{"https://gone.test/"}, MaxCharacters: 12000, Query: "revalidate"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"urls":["https://gone.test/"],"ids":["nextjs:/docs/caching","x"],"maxCharacters":12000,"query":"revalidate"}`; rec.bodies[0] != want {
		t.Errorf("body %s", rec.bodies[0])
	}
	code := int64(404)
	want := []ContentStatus{{ID: "nextjs:/docs/caching", Status: "success"}, {ID: "https://gone.test/", Status: "error", Error: ContentError{Tag: "NOT_FOUND", HTTPStatusCode: &code}}, {ID: "x", Status: "error", Error: ContentError{Tag: "TIMEOUT"}}}
	if diff := cmp.Diff(want, got.Statuses); diff != "" {
		t.Error(diff)
	}
	if len(got.Results) != 1 || got.Statuses[0].Failed() || !got.Statuses[1].Failed() {
		t.Errorf("%+v", got)
	}
}

func TestIndex_inputsRefusedBeforeAnyRequest(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, `{}`))
	c := newIndexTestClient(t, ts.URL, nil)
	ctx := context.Background()
	many := make([]string, 21)
	for i := range many {
		many[i] = "id"
	}
	for want, call := range map[string]func() error{
		"query must not be empty":                  func() error { _, err := c.Search(ctx, IndexSearchRequest{}); return err },
		`numResults "21" must be between 1 and 20`: func() error { _, err := c.Search(ctx, IndexSearchRequest{Query: "q", NumResults: 21}); return err },
		`text.maxCharacters "-1"`:                  func() error { _, err := c.Search(ctx, IndexSearchRequest{Query: "q", MaxCharacters: -1}); return err },
		"includeDomains[0] must not be empty": func() error {
			_, err := c.Search(ctx, IndexSearchRequest{Query: "q", Domains: Domains{Include: []string{""}}})
			return err
		},
		"excludeDomains[1] must not be empty": func() error {
			_, err := c.Context(ctx, IndexContextRequest{Query: "q", Domains: Domains{Exclude: []string{"a", " "}}})
			return err
		},
		`tokenBudget "6001" must be between 1 and 6000`: func() error { _, err := c.Context(ctx, IndexContextRequest{Query: "q", TokenBudget: 6001}); return err },
		`format "md" must be`:                           func() error { _, err := c.Context(ctx, IndexContextRequest{Query: "q", Format: "md"}); return err },
		"product must not be empty":                     func() error { _, err := c.Context(ctx, IndexContextRequest{Query: "q", Product: " "}); return err },
		"ids or urls is required":                       func() error { _, err := c.Contents(ctx, IndexContentsRequest{}); return err },
		"name 21 items together; the API takes at most 20": func() error {
			_, err := c.Contents(ctx, IndexContentsRequest{IDs: many[:20], URLs: []string{"https://x.test"}})
			return err
		},
		"ids[1] must not be empty": func() error { _, err := c.Contents(ctx, IndexContentsRequest{IDs: []string{"a", ""}}); return err },
		`urls[0] "nextjs.org/docs" is not an abs`: func() error {
			_, err := c.Contents(ctx, IndexContentsRequest{URLs: []string{"nextjs.org/docs"}})
			return err
		},
		`maxCharacters "-5"`: func() error {
			_, err := c.Contents(ctx, IndexContentsRequest{IDs: []string{"a"}, MaxCharacters: -5})
			return err
		},
	} {
		if err := call(); !IsValidation(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want %q", err, want)
		}
	}
	if err := (IndexContextRequest{Query: "q", TokenBudget: MaxIndexTokenBudget}).Validate(); err != nil {
		t.Errorf("the largest token budget: %v", err)
	}
	if _, err := c.Contents(ctx, IndexContentsRequest{IDs: many[:20]}); IsValidation(err) {
		t.Errorf("20 items: %v", err)
	}
	if n := rec.count(); n != 1 {
		t.Errorf("%d requests sent, want 1", n)
	}
}

// The Index allows 10 requests a second and 1,000 a day: a second's wait
// is waited out, a spent day fails at once with when to come back.
func TestIndex_rateLimits(t *testing.T) {
	ok := jsonResponse(200, `{"requestId":"r","results":[]}`)
	rec, ts := newRecorder(t, jsonResponse(429, `{"error":"Rate limit exceeded. Please try again later"}`, "Retry-After", "1"), ok)
	clk := newClock()
	if _, err := newIndexTestClient(t, ts.URL, clk).Search(context.Background(), IndexSearchRequest{Query: "q"}); err != nil || rec.count() != 2 {
		t.Errorf("%v after %d requests", err, rec.count())
	}
	if diff := cmp.Diff([]time.Duration{time.Second}, clk.Sleeps()); diff != "" {
		t.Error(diff)
	}
	rec, ts = newRecorder(t, jsonResponse(429, `{"error":"Rate limit exceeded. Please try again later"}`, "Retry-After", "43200"), ok)
	_, err := newIndexTestClient(t, ts.URL, newClock()).Search(context.Background(), IndexSearchRequest{Query: "q"})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || !apiErr.RetryAt.Equal(epoch.Add(12*time.Hour)) || rec.count() != 1 || !strings.Contains(err.Error(), "try again after 2026-11-22T00:00:00Z") {
		t.Errorf("%v after %d requests", err, rec.count())
	}
}

// An Index key the server echoes is in no answer, no error and no request
// hook's record: in a result's text, the context, an error body, and a
// path the hook sees.
func TestIndex_keyEchoedByTheServerIsRedacted(t *testing.T) {
	k := testIndexKey
	var hooked []string
	hook := WithRequestHook(func(_ context.Context, ri RequestInfo) { hooked = append(hooked, fmt.Sprintf("%+v", ri)) })
	result := strings.Replace(indexResultJSON, `"Caching stores results."`, `"key `+k+`"`, 1)
	_, ts := newRecorder(t, jsonResponse(200, `{"requestId":"`+k+`","results":[`+result+`]}`))
	res, err := newIndexTestClient(t, ts.URL, nil, hook).Search(context.Background(), IndexSearchRequest{Query: "x"})
	if err != nil {
		t.Fatal(err)
	}
	_, ts = newRecorder(t, jsonResponse(200, `{"requestId":"r","query":"q","response":"Authorization: Bearer `+k+`","resultsCount":1,"outputTokens":9}`))
	c, err := newIndexTestClient(t, ts.URL, nil, hook).Context(context.Background(), IndexContextRequest{Query: "x"})
	if err != nil {
		t.Fatal(err)
	}
	_, ts = newRecorder(t, jsonResponse(400, `{"error":"bad key `+k+`"}`))
	_, badErr := newIndexTestClient(t, ts.URL, nil, hook).Contents(context.Background(), IndexContentsRequest{IDs: []string{"a"}})
	if badErr == nil {
		t.Fatal("a 400 accepted")
	}
	out, _ := json.Marshal([]any{res, c})
	all := string(out) + badErr.Error() + strings.Join(hooked, "\n")
	if strings.Contains(all, k) || !strings.Contains(string(out), Redacted) {
		t.Errorf("the key is in:\n%s", all)
	}
	if res.Results[0].Text != "key "+Redacted || c.Response != "Authorization: Bearer "+Redacted {
		t.Errorf("%q %q", res.Results[0].Text, c.Response)
	}
}
