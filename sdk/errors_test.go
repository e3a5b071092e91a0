package sdk

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// refusedURL is an address nothing listens on.
func refusedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr
}

// A read that fails after its retries says how many requests it cost.
func TestErrors_sayTheAttempts(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(503, `{"error":"down"}`))
	clk := newClock()
	_, err := newTestClient(t, ts.URL, clk).AgentJobs.Get(context.Background(), "p", "j")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Attempts != DefaultMaxRetries+1 || rec.count() != 5 ||
		err.Error() != "getting agent job j: GET /v2/agent/p/job/j: 503 Service Unavailable: down (after 5 attempts)" {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
	if n := len(clk.Sleeps()); n != 4 {
		t.Errorf("%d backoffs for 4 retries", n)
	}
	// One attempt is not worth saying.
	_, ts = newRecorder(t, jsonResponse(404, `{"error":"Job not found"}`))
	_, err = newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
	if !errors.As(err, &apiErr) || apiErr.Attempts != 1 || err.Error() != "getting agent job j: GET /v2/agent/p/job/j: 404 Not Found: Job not found" {
		t.Errorf("err = %v", err)
	}
	for n, want := range map[int]string{0: "GET /x: 500 Internal Server Error", 1: "GET /x: 500 Internal Server Error", 2: "GET /x: 500 Internal Server Error (after 2 attempts)"} {
		if got := (&APIError{StatusCode: 500, Method: "GET", Path: "/x", Attempts: n}).Error(); got != want {
			t.Errorf("%d attempts: %q", n, got)
		}
	}
	// The attempts come before the request id, after the rate limit.
	e := &APIError{StatusCode: 429, Method: "POST", Path: "/x", Message: "slow", RequestID: "r", Attempts: 3, RetryAfter: 90 * time.Second, RetryAt: epoch.Add(90 * time.Second)}
	if got := e.Error(); got != "POST /x: 429 Too Many Requests: slow (rate limited; try again after 2026-11-21T12:01:30Z, in 1m30s) (after 3 attempts) [request id r]" {
		t.Errorf("Error() = %q", got)
	}
	if got := (&APIError{StatusCode: 429, Method: "GET", Path: "/x"}).Error(); got != "GET /x: 429 Too Many Requests (rate limited)" {
		t.Errorf("429 without a wait: %q", got)
	}
	if got := (&RequestError{Method: "GET", Path: "/x", Attempts: 3, Err: errors.New("boom")}).Error(); got != "GET /x: boom (after 3 attempts)" {
		t.Errorf("RequestError = %q", got)
	}
	if got := (&RequestError{Method: "POST", Path: "/x", Attempts: 1, Err: errors.New("boom")}).Error(); got != "POST /x: boom" {
		t.Errorf("RequestError = %q", got)
	}
}

// A request that never got an answer is a *RequestError that says whether
// it left the machine.
func TestRequestError_sentOrNot(t *testing.T) {
	base := refusedURL(t)
	ctx := context.Background()
	c := newTestClient(t, base, newClock(), WithMaxRetries(2))
	// A refused connection never sent anything: reads and POSTs alike
	// are tried again, and nothing may have happened.
	for name, call := range map[string]func() error{
		"get":    func() error { return second(c.AgentJobs.Get(ctx, "p", "j")) },
		"create": func() error { return second(c.AgentJobs.Create(ctx, "p", "x")) },
	} {
		err := call()
		var reqErr *RequestError
		if !errors.As(err, &reqErr) || reqErr.Sent || reqErr.Attempts != 3 || MayHaveTakenEffect(err) || !strings.HasSuffix(err.Error(), "(after 3 attempts)") {
			t.Errorf("%s: %#v (%v)", name, reqErr, err)
		}
		var opErr *net.OpError
		if !errors.As(err, &opErr) || opErr.Op != "dial" {
			t.Errorf("%s: the cause is lost: %v", name, err)
		}
	}
	// A POST dropped after sending was sent: it may have created a job,
	// and is not sent again.
	rec, ts := newRecorder(t, dropConnection)
	_, err := newTestClient(t, ts.URL, newClock()).AgentJobs.Create(ctx, "p", "x")
	var reqErr *RequestError
	if !errors.As(err, &reqErr) || !reqErr.Sent || reqErr.Attempts != 1 || reqErr.Method != "POST" || reqErr.Path != "/v2/agent/p/job" || !MayHaveTakenEffect(err) || rec.count() != 1 {
		t.Errorf("dropped POST: %#v (%v) after %d requests", reqErr, err, rec.count())
	}
	// A context that ended first sent nothing.
	ended, cancel := context.WithCancel(ctx)
	cancel()
	_, err = newTestClient(t, ts.URL, nil).AgentJobs.Create(ended, "p", "x")
	if !errors.As(err, &reqErr) || reqErr.Sent || reqErr.Attempts != 0 || !errors.Is(err, context.Canceled) || MayHaveTakenEffect(err) {
		t.Errorf("ended context: %#v (%v)", reqErr, err)
	}
}

// feedbackPage is a feedback page with the given ids and next cursor.
func feedbackPage(next string, more bool, ids ...string) string {
	rows := make([]string, len(ids))
	for i, id := range ids {
		rows[i] = fmt.Sprintf(`{"id":%q,"path":"/","comment":null,"createdAt":null,"source":"agent","status":"pending"}`, id)
	}
	cursor := "null"
	if next != "" {
		cursor = `"` + next + `"`
	}
	return fmt.Sprintf(`{"feedback":[%s],"nextCursor":%s,"hasMore":%v}`, strings.Join(rows, ","), cursor, more)
}

// A cursor that holds the client's key (a server echoing the request's
// headers) is redacted by decoding, and the read stops rather than send
// what is left of it in a URL.
func TestPagingError_untrustedCursor(t *testing.T) {
	key := mintlifytest.DemoAPIKey
	escaped := `\u00` + fmt.Sprintf("%x", key[0]) + key[1:]
	for name, cursor := range map[string]string{"the key": key, "holding the key": "page2." + key + ".x", "the key escaped": escaped} {
		t.Run(name, func(t *testing.T) {
			rec, ts := newRecorder(t, jsonResponse(200, feedbackPage(cursor, true, "a")), jsonResponse(200, feedbackPage("", false, "b")))
			got, err := newTestClient(t, ts.URL, nil).Analytics.Feedback.All(context.Background(), "p", FeedbackQuery{})
			var pe *PagingError
			if got != nil || !errors.As(err, &pe) || pe.Problem != PagingUntrustedCursor || pe.Requests != 1 || pe.At != "the first page" ||
				err.Error() != "getting feedback: the first page gives a cursor that held this client's key; it is not followed; stopped after 1 request" {
				t.Fatalf("got %+v, err %v", got, err)
			}
			if rec.count() != 1 {
				t.Errorf("%d requests: the cursor was followed", rec.count())
			}
		})
	}
	// The same on the searches endpoint, whose "more" is its cursor.
	rec, ts := newRecorder(t, jsonResponse(200, `{"searches":[{"searchQuery":"a","hits":1,"ctr":0,"topClickedPage":null,"lastSearchedAt":"t"}],"totalSearches":1,"nextCursor":"`+key+`"}`))
	_, err := newTestClient(t, ts.URL, nil).Analytics.Searches.All(context.Background(), "p", SearchesQuery{})
	var pe *PagingError
	if !errors.As(err, &pe) || pe.Problem != PagingUntrustedCursor || pe.Endpoint != "search queries" || rec.count() != 1 || strings.Contains(err.Error(), key) {
		t.Errorf("searches: %v after %d requests", err, rec.count())
	}
	// On the last page there is nothing to follow: the read ends well,
	// and the cursor it keeps does not hold the key.
	_, ts = newRecorder(t, jsonResponse(200, feedbackPage(key, false, "a")))
	got, err := newTestClient(t, ts.URL, nil).Analytics.Feedback.All(context.Background(), "p", FeedbackQuery{})
	if err != nil || got.NextCursor == nil || *got.NextCursor != Redacted || len(got.Feedback) != 1 {
		t.Errorf("last page: %+v, %v", got, err)
	}
}

// visitorsPageOfSize is a visitors page of one row, padded with white
// space to exactly size bytes.
func visitorsPageOfSize(t *testing.T, size int, more bool, path string) string {
	t.Helper()
	body := visitorsPageJSON(more, path)
	if len(body) > size {
		t.Fatalf("page is %d bytes already", len(body))
	}
	return body + strings.Repeat(" ", size-len(body))
}

// A read whose answers pass the client's cap on bytes per read stops; one
// that reaches the cap exactly does not.
func TestPagingError_byteCap(t *testing.T) {
	const quarter = 1 << 18
	serve := func(last int) http.HandlerFunc {
		n := 0
		return func(w http.ResponseWriter, r *http.Request) {
			n++
			jsonResponse(200, visitorsPageOfSize(t, quarter, n < last, fmt.Sprintf("/p%d", n)))(w, r)
		}
	}
	// Four quarters of a MiB: the cap exactly.
	rec, ts := newRecorder(t, serve(4))
	got, err := newTestClient(t, ts.URL, nil, WithMaxBytesPerRead(1<<20)).Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{})
	if err != nil || len(got.Paths) != 4 || rec.count() != 4 {
		t.Fatalf("a read of exactly the cap: %v after %d requests", err, rec.count())
	}
	// A fifth page passes it.
	rec, ts = newRecorder(t, serve(100))
	got, err = newTestClient(t, ts.URL, nil, WithMaxBytesPerRead(1<<20)).Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{})
	var pe *PagingError
	want := "getting unique visitors: the page at offset 4 took the read past the client's cap of 1 MiB per read: read fewer rows (a max_results) or raise the cap; stopped after 5 requests"
	if got != nil || !errors.As(err, &pe) || pe.Problem != PagingByteCap || pe.Requests != 5 || err.Error() != want || rec.count() != 5 {
		t.Fatalf("got %v, err %v after %d requests", got, err, rec.count())
	}
	// A bigger cap lets the same read go further.
	rec, ts = newRecorder(t, serve(6))
	if _, err := newTestClient(t, ts.URL, nil, WithMaxBytesPerRead(3<<19)).Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{}); err != nil || rec.count() != 6 {
		t.Errorf("a cap of 1.5 MiB: %v after %d requests", err, rec.count())
	}
	// The cap holds for the iterators too.
	rec, ts = newRecorder(t, serve(100))
	rows := 0
	for _, err = range newTestClient(t, ts.URL, nil, WithMaxBytesPerRead(1<<20)).Analytics.Visitors.Rows(context.Background(), "p", VisitorsQuery{}) {
		if err != nil {
			break
		}
		rows++
	}
	if !errors.As(err, &pe) || pe.Problem != PagingByteCap || rows != 4 || rec.count() != 5 {
		t.Errorf("rows: %d, then %v after %d requests", rows, err, rec.count())
	}
	if _, err := NewClient("mint_x", WithMaxBytesPerRead(1<<20-1)); err == nil || err.Error() != "sdk: WithMaxBytesPerRead: 1048575 is below 1 MiB" {
		t.Errorf("a cap below 1 MiB: %v", err)
	}
	if c, err := NewClient("mint_x", WithMaxBytesPerRead(1<<20)); err != nil || c.core.maxBytesPerRead != 1<<20 {
		t.Errorf("a cap of 1 MiB: %v", err)
	}
	if DefaultMaxBytesPerRead != 64<<20 {
		t.Errorf("default cap %d", DefaultMaxBytesPerRead)
	}
}

func TestPagingError_problemsAreDistinct(t *testing.T) {
	seen := map[PagingProblem]bool{}
	for _, p := range []PagingProblem{PagingEmptyWithMore, PagingRepeatedRow, PagingRepeatedCursor, PagingNoCursor, PagingUntrustedCursor, PagingRequestCap, PagingByteCap} {
		if p == "" || seen[p] {
			t.Errorf("problem %q", p)
		}
		seen[p] = true
	}
	e := &PagingError{Endpoint: "feedback", Problem: PagingNoCursor, At: "the first page", Requests: 3, Detail: "is odd"}
	if got := e.Error(); got != "getting feedback: the first page is odd; stopped after 3 requests" {
		t.Errorf("Error() = %q", got)
	}
}

// A refused value is repeated in an error, but never more than 100 runes
// of it.
func TestValidationError_clipsTheValue(t *testing.T) {
	for n, want := range map[int]string{99: strings.Repeat("é", 99), 100: strings.Repeat("é", 100), 101: strings.Repeat("é", 100) + "…"} {
		err := ValidateFeedbackSource(FeedbackSource(strings.Repeat("é", n)))
		if err == nil || err.Error() != `source "`+want+`" must be one of code_snippet, contextual, agent, thumbs_only` {
			t.Errorf("%d runes: %v", n, err)
		}
	}
	if got := (&ValidationError{Field: "f", Rule: "is bad"}).Error(); got != "f is bad" {
		t.Errorf("without a value: %q", got)
	}
}

func TestMalformedResponseError_oneWording(t *testing.T) {
	e := &MalformedResponseError{Method: "GET", Path: "/x", Problems: []string{"a: missing", "b: want a string, got a number"}}
	if got := e.Error(); got != "malformed response to GET /x: a: missing; b: want a string, got a number" {
		t.Errorf("Error() = %q", got)
	}
	e = &MalformedResponseError{Method: "POST", Path: "/y", Problems: []string{"the body is not the API's JSON: EOF"}, BodyStart: `say "hi"`}
	if got := e.Error(); got != `malformed response to POST /y: the body is not the API's JSON: EOF (body starts "say \"hi\"")` {
		t.Errorf("Error() = %q", got)
	}
	// A body that echoed the key says so only redacted, in the problems
	// and in its start.
	key := mintlifytest.DemoAPIKey
	_, ts := newRecorder(t, jsonResponse(200, "oops "+key))
	_, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
	var m *MalformedResponseError
	if !errors.As(err, &m) || m.BodyStart != "oops "+Redacted || strings.Contains(err.Error(), key) {
		t.Errorf("err %v", err)
	}
	_, ts = newRecorder(t, jsonResponse(200, `{"totals":{"human":0,"ai":0,"total":0},"visitors":[{"path":"/`+key+`","human":-1,"ai":0,"total":0}],"hasMore":false}`))
	_, err = newTestClient(t, ts.URL, nil).Analytics.Visitors.Page(context.Background(), "p", VisitorsQuery{})
	if !errors.As(err, &m) || m.BodyStart != "" || len(m.Problems) != 1 || m.Problems[0] != "visitors[0].human: -1 is negative" {
		t.Errorf("err %v", err)
	}
}

// A Client not made by NewClient refuses every call with ErrNotConfigured,
// and panics on none.
func TestZeroClient_everyCallIsNotConfigured(t *testing.T) {
	var c Client
	ctx := context.Background()
	p := mintlifytest.DemoProjectID
	firstErr := func(seq func(func(*PathCountsPage, error) bool)) error {
		for _, err := range seq {
			return err
		}
		return errors.New("nothing yielded")
	}
	calls := map[string]error{
		"AgentJobs.Create":      second(c.AgentJobs.Create(ctx, p, "x")),
		"AgentJobs.Get":         second(c.AgentJobs.Get(ctx, p, "j")),
		"AgentJobs.SendMessage": second(c.AgentJobs.SendMessage(ctx, p, "j", "x")),
		"AgentJobs.Wait":        second(c.AgentJobs.Wait(ctx, p, "j")),
		"Visitors.All":          second(c.Analytics.Visitors.All(ctx, p, VisitorsQuery{})),
		"Visitors.Page":         second(c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{})),
		"Visitors.Pages":        firstErr(c.Analytics.Visitors.Pages(ctx, p, VisitorsQuery{})),
		"Views.All":             second(c.Analytics.Views.All(ctx, p, VisitorsQuery{})),
		"Searches.All":          second(c.Analytics.Searches.All(ctx, p, SearchesQuery{})),
		"Feedback.Page":         second(c.Analytics.Feedback.Page(ctx, p, FeedbackQuery{})),
		"Conversations.All":     second(c.Analytics.Conversations.All(ctx, p, ConversationsQuery{})),
		"FeedbackByPage":        second(c.Analytics.FeedbackByPage(ctx, p, FeedbackByPageQuery{})),
		"Thread":                second(c.Analytics.Thread(ctx, p, "01JD8X3Q6V3XK8M4Y2Z9T0B1CD")),
		"CallerStats":           second(c.Analytics.CallerStats(ctx, p, DateRange{})),
	}
	var rowErrs []error
	for _, err := range c.Analytics.Visitors.Rows(ctx, p, VisitorsQuery{}) {
		rowErrs = append(rowErrs, err)
	}
	calls["Visitors.Rows"] = errors.Join(rowErrs...)
	if len(rowErrs) != 1 {
		t.Errorf("Rows yielded %d errors", len(rowErrs))
	}
	called := false
	info, err := c.Analytics.Visitors.Each(ctx, p, VisitorsQuery{}, func(*PathCountsPage) error { called = true; return nil })
	calls["Visitors.Each"] = err
	if called || info != (ResponseInfo{}) {
		t.Errorf("Each called fn (%v) or read something: %+v", called, info)
	}
	// A zero endpoint of a real service is not configured either.
	calls["zero endpoint"] = second((&PagedEndpoint[VisitorsQuery, PathCountsPage, PathCounts]{}).Page(ctx, p, VisitorsQuery{}))
	calls["zero service"] = second((&AgentJobsService{}).Get(ctx, p, "j"))
	for name, err := range calls {
		if !errors.Is(err, ErrNotConfigured) || MayHaveTakenEffect(err) || isTransient(err) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if c.BaseURL() != "" || (*Client)(nil).BaseURL() != "" {
		t.Errorf("base URL %q", c.BaseURL())
	}
	if ErrNotConfigured.Error() != "sdk: client not configured: create it with NewClient or NewClientFromEnv" {
		t.Errorf("ErrNotConfigured = %q", ErrNotConfigured)
	}
}

// Keys of Mintlify's other kinds are refused by name, and never repeated.
func TestNewClient_refusesOtherKindsOfKey(t *testing.T) {
	const where = "the API keys page of the Mintlify dashboard"
	for key, want := range map[string]string{
		"mint_dsc_Secret123": "apiKey is an assistant key (mint_dsc_...), for the discovery API, not an admin API key (mint_...): get one from " + where,
		"mint_us_Secret123":  "apiKey is a Mintlify Index key (mint_us_...), not an admin API key (mint_...): get one from " + where,
		"sk_live_Secret123":  "apiKey is not an admin API key: those start mint_ (get one from " + where + ")",
		"Secret123":          "apiKey is not an admin API key: those start mint_ (get one from " + where + ")",
	} {
		c, err := NewClient(key)
		var v *ValidationError
		if c != nil || !errors.As(err, &v) || v.Field != "apiKey" || v.Value != "" || err.Error() != want {
			t.Errorf("%s: %v, want %q", key[:4], err, want)
		}
		if err != nil && strings.Contains(err.Error(), "Secret123") {
			t.Errorf("the error echoes the key: %v", err)
		}
	}
}

func TestNewClientFromEnv(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, jobJSON))
	t.Setenv(EnvAPIKey, "mint_from_env")
	t.Setenv(EnvBaseURL, ts.URL+"/")
	c, err := NewClientFromEnv()
	if err != nil || c.BaseURL() != ts.URL {
		t.Fatalf("client %v, %v", c, err)
	}
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); err != nil {
		t.Fatal(err)
	}
	if got := rec.requests[0].Header.Get("Authorization"); got != "Bearer mint_from_env" {
		t.Errorf("Authorization %q", got)
	}
	// Options come after the environment, so they win.
	c, err = NewClientFromEnv(WithBaseURL("https://proxy.example"))
	if err != nil || c.BaseURL() != "https://proxy.example" {
		t.Errorf("an option's address: %v, %v", c, err)
	}
	// Without an address in the environment, the API's.
	t.Setenv(EnvBaseURL, "")
	if c, err = NewClientFromEnv(); err != nil || c.BaseURL() != DefaultBaseURL {
		t.Errorf("default address: %v, %v", c, err)
	}
	// An address from the environment is checked like any other.
	t.Setenv(EnvBaseURL, "http://api.example.com")
	if _, err := NewClientFromEnv(); !IsValidation(err) || !strings.HasPrefix(err.Error(), "MINTLIFY_BASE_URL: baseURL") || !strings.Contains(err.Error(), "must use https") {
		t.Errorf("plain http from the environment: %v", err)
	}
	// ... unless an option replaces it: the bad value is then never used.
	if c, err := NewClientFromEnv(WithBaseURL("https://proxy.example")); err != nil || c.BaseURL() != "https://proxy.example" {
		t.Errorf("a bad address in the environment, replaced: %v, %v", c, err)
	}
	// So is the key.
	t.Setenv(EnvBaseURL, "")
	t.Setenv(EnvAPIKey, "mint_dsc_x")
	if _, err := NewClientFromEnv(); !IsValidation(err) || !strings.Contains(err.Error(), "assistant key") {
		t.Errorf("an assistant key from the environment: %v", err)
	}
	t.Setenv(EnvAPIKey, "")
	_, err = NewClientFromEnv()
	var v *ValidationError
	if !errors.As(err, &v) || v.Field != "apiKey" || err.Error() != "apiKey is required: set MINTLIFY_API_KEY to an admin API key from the dashboard's API keys page" {
		t.Errorf("no key: %v", err)
	}
	if EnvAPIKey != "MINTLIFY_API_KEY" || EnvBaseURL != "MINTLIFY_BASE_URL" {
		t.Errorf("variables %s, %s", EnvAPIKey, EnvBaseURL)
	}
}

// A status callback of another type than the object waited for is an
// input error, found before any request.
func TestWait_statusCallbackOfTheWrongType(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"completed"`, 1)))
	c := newTestClient(t, ts.URL, newClock())
	job, err := c.AgentJobs.Wait(context.Background(), "p", "j", WithStatusCallback(func(AgentJob) {}))
	if job != nil || !IsValidation(err) || err.Error() != "WithStatusCallback takes a func(*sdk.AgentJob) here, not a func(sdk.AgentJob)" || rec.count() != 0 {
		t.Fatalf("job %+v, err %v after %d requests", job, err, rec.count())
	}
	// A nil callback of the right type, and a nil option, are no callback.
	job, err = c.AgentJobs.Wait(context.Background(), "p", "j", WithStatusCallback[*AgentJob](nil), nil)
	if err != nil || job.Status != JobStatusCompleted {
		t.Errorf("nil callback: %+v, %v", job, err)
	}
}

// A paging read that stopped took no effect: it is a read.
func TestMayHaveTakenEffect_pagingErrorIsARead(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", &PagingError{Endpoint: "feedback", Problem: PagingRequestCap, Requests: 1000})
	if MayHaveTakenEffect(err) {
		t.Errorf("MayHaveTakenEffect(%v) = true", err)
	}
}

// A GET's redirect that could not be followed is said as it came, not as
// a POST's.
func TestAPIError_getRedirectIsNotAPostRedirect(t *testing.T) {
	_, ts := newRecorder(t, respond(304, "", ""))
	_, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 304 || strings.Contains(err.Error(), "POST") {
		t.Errorf("err = %v", err)
	}
	rec, ts := newRecorder(t, respond(307, "", "", "Location", "https://elsewhere.example/x"))
	_, err = newTestClient(t, ts.URL, nil).AgentJobs.Create(context.Background(), "p", "x")
	if !errors.As(err, &apiErr) || apiErr.Message != `redirected to "https://elsewhere.example/x"; a POST is never followed to another address` || rec.count() != 1 {
		t.Errorf("POST redirect: %v", err)
	}
}

func TestMayHaveTakenEffect_requestsThatNeverLeft(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String()
	ln.Close()
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { t.Error("TLS server reached") }))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	for name, tt := range map[string]struct {
		base string
		hc   *http.Client
	}{
		"connection refused":        {refused, nil},
		"name does not resolve":     {"https://no-such-host.invalid", nil},
		"TLS certificate not valid": {tlsSrv.URL, &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12}}}},
	} {
		t.Run(name, func(t *testing.T) {
			opts := []Option{WithBaseURL(tt.base), WithMaxRetries(1), WithRetryBackoff(time.Millisecond, time.Millisecond)}
			if tt.hc != nil {
				opts = append(opts, WithHTTPClient(tt.hc))
			}
			c, err := NewClient(mintlifytest.DemoAPIKey, opts...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.AgentJobs.Create(context.Background(), "p", "x")
			if err == nil || MayHaveTakenEffect(err) {
				t.Fatalf("err = %v; MayHaveTakenEffect = %v, want false", err, MayHaveTakenEffect(err))
			}
		})
	}
	// A dropped connection after sending, and a 502, may hide a created job.
	for _, h := range []http.HandlerFunc{dropConnection, respond(502, "text/html", "bad gateway")} {
		_, ts := newRecorder(t, h)
		if _, err := newTestClient(t, ts.URL, nil).AgentJobs.Create(context.Background(), "p", "x"); !MayHaveTakenEffect(err) {
			t.Errorf("err = %v: want MayHaveTakenEffect", err)
		}
	}
	// Refusals and invalid input did nothing.
	for _, err := range []error{&APIError{StatusCode: 429}, &APIError{StatusCode: 400}, &ValidationError{}, nil,
		&RequestError{Err: errors.New("x")}, &APIError{StatusCode: 499}, ErrNotConfigured, fmt.Errorf("wrapped: %w", ErrNotConfigured),
		fmt.Errorf("wrapped: %w", &RequestError{Sent: false, Err: errors.New("refused")})} {
		if MayHaveTakenEffect(err) {
			t.Errorf("%v: MayHaveTakenEffect", err)
		}
	}
	for _, err := range []error{&APIError{StatusCode: 500}, errors.New("EOF"), &MalformedResponseError{}, &RequestError{Sent: true, Err: errors.New("EOF")},
		fmt.Errorf("wrapped: %w", &RequestError{Sent: true, Err: errors.New("EOF")}), &APIError{StatusCode: 502}} {
		if !MayHaveTakenEffect(err) {
			t.Errorf("%v: !MayHaveTakenEffect", err)
		}
	}
}

func TestBoundary_status300IsNotSuccess(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(300, jobJSON))
	c := newTestClient(t, ts.URL, nil)
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); statusOf(err) != 300 {
		t.Fatalf("err = %v", err)
	}
	_, ts = newRecorder(t, jsonResponse(299, jobJSON))
	c = newTestClient(t, ts.URL, nil)
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); err != nil {
		t.Fatalf("299: %v", err)
	}
}

func TestBoundary_bodyExactlyAtTheCapIsRead(t *testing.T) {
	model := strings.Repeat("x", 2048-len(`{"id":"j","status":"active","model":""}`))
	body := `{"id":"j","status":"active","model":"` + model + `"}`
	if len(body) != 2048 {
		t.Fatalf("body is %d bytes", len(body))
	}
	_, ts := newRecorder(t, jsonResponse(200, body))
	c := newTestClient(t, ts.URL, nil, WithMaxResponseBytes(2048))
	if job, err := c.AgentJobs.Get(context.Background(), "p", "j"); err != nil || job.Model != model {
		t.Fatalf("err = %v", err)
	}
	// One byte more is too large.
	_, ts = newRecorder(t, jsonResponse(200, body+" "))
	c = newTestClient(t, ts.URL, nil, WithMaxResponseBytes(2048))
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); !errors.Is(err, ErrResponseTooLarge) {
		t.Fatalf("2049 bytes: %v", err)
	}
}

func TestBoundary_jsonWithoutErrorFieldsKeepsTheBody(t *testing.T) {
	for _, body := range []string{`{"status":"down"}`, `{}`, `{"details":[]}`} {
		_, ts := newRecorder(t, jsonResponse(404, body))
		c := newTestClient(t, ts.URL, nil)
		_, err := c.AgentJobs.Get(context.Background(), "p", "j")
		if err == nil || !strings.HasSuffix(err.Error(), "404 Not Found: "+body) {
			t.Errorf("%s: err = %v", body, err)
		}
	}
	_, ts := newRecorder(t, jsonResponse(404, `{"details":[{"message":"only details"}]}`))
	c := newTestClient(t, ts.URL, nil)
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); err == nil || !strings.HasSuffix(err.Error(), "404 Not Found; only details") {
		t.Errorf("details only: %v", err)
	}
}

func TestBoundary_snippetOfExactlyTheLimitIsNotCut(t *testing.T) {
	k := &core{}
	s := strings.Repeat("é", MaxDisplayLine)
	if got := k.secrets.Snippet([]byte(s)); got != s {
		t.Errorf("a %d-rune body was cut to %q", MaxDisplayLine, got)
	}
	if got := k.secrets.Snippet([]byte(s + "z")); got != s+"…" {
		t.Errorf("a %d-rune body was not cut: %q", MaxDisplayLine+1, got)
	}
}

// shown marks each text that went through show, so the tests see which did.
func shown(s string) string { return "<" + s + ">" }

func TestRefusal(t *testing.T) {
	details := func(n int) string {
		d := make([]string, n)
		for i := range d {
			d[i] = fmt.Sprintf(`{"message":"d%d"}`, i)
		}
		return `{"error":"bad","details":[` + strings.Join(d, ",") + `]}`
	}
	var ten []ErrorDetail
	for i := range maxErrorDetails {
		ten = append(ten, ErrorDetail{Message: fmt.Sprintf("<d%d>", i)})
	}
	type said struct {
		Message string
		Details []ErrorDetail
		OK      bool
	}
	for name, tt := range map[string]struct {
		body string
		want said
	}{
		"error":                       {`{"error":"Invalid request body","extra":1}`, said{"<Invalid request body>", nil, true}},
		"error and details":           {`{"error":"bad","details":[{"message":"prompt: Required"},{"message":""}]}`, said{"<bad>", []ErrorDetail{{"<prompt: Required>"}, {"<>"}}, true}},
		"message when error is null":  {`{"error":null,"message":"fallback"}`, said{"<fallback>", nil, true}},
		"message when error is empty": {`{"error":"","message":"fallback"}`, said{"<fallback>", nil, true}},
		"message alone":               {`{"message":"only"}`, said{"<only>", nil, true}},
		"error over message":          {`{"error":"first","message":"second"}`, said{"<first>", nil, true}},
		"details alone":               {`{"details":[{"message":"only details"}]}`, said{"<>", []ErrorDetail{{"<only details>"}}, true}},
		"error as an object":          {`{"error":{"code":7,"m":"a\u005fb \u003c"}}`, said{`<{"code":7,"m":"a_b <"}>`, nil, true}},
		"error as a number":           {`{"error":42}`, said{"<42>", nil, true}},
		"ten details":                 {details(maxErrorDetails), said{"<bad>", ten, true}},
		"eleven details":              {details(maxErrorDetails + 1), said{"<bad>", append(ten[:10:10], ErrorDetail{"and 1 more"}), true}},
		"a thousand details":          {details(1000), said{"<bad>", append(ten[:10:10], ErrorDetail{"and 990 more"}), true}},
		"no error fields":             {`{"status":"down"}`, said{}},
		"empty object":                {`{}`, said{}},
		"empty details":               {`{"details":[]}`, said{}},
		"not JSON":                    {`<html>Bad gateway</html>`, said{}},
		"a list":                      {`[{"error":"x"}]`, said{}},
		"empty body":                  {``, said{}},
		"a list past the cap":         {`{"error":"bad","details":[` + strings.Repeat(`{},`, 100_000) + `{}]}`, said{}},
		"object storage": {`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message><Expires>2026</Expires></Error>`,
			said{"<AccessDenied: Request has expired>", nil, true}},
	} {
		t.Run(name, func(t *testing.T) {
			var got said
			got.Message, got.Details, got.OK = refusal([]byte(tt.body), shown)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestObjectStorageError(t *testing.T) {
	for body, want := range map[string]string{
		`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message><Expires>2026</Expires></Error>`: "AccessDenied: Request has expired",
		`<Error><Code>NoSuchKey</Code></Error>`:                           "NoSuchKey",
		"  \n<Error><Code>NoSuchKey</Code></Error>":                       "NoSuchKey",
		`<Error><Message>x</Message></Error>`:                             "",
		`<Error><Code>NoSuchKey</Code>`:                                   "",
		`<Other><Code>NoSuchKey</Code></Other>`:                           "",
		strings.Repeat(" ", 64) + `<Error><Code>NoSuchKey</Code></Error>`: "",
		`<html>nope</html>`:                                               "",
		`{"error":"x"}`:                                                   "",
		``:                                                                "",
	} {
		got, ok := objectStorageError([]byte(body))
		if got != want || ok != (want != "") {
			t.Errorf("%q: %q, %v", body, got, ok)
		}
	}
}
