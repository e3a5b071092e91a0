package sdk

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

const htmlBadGateway = "<html>\n<head><title>502 Bad Gateway</title><style>body{color:red}</style></head>\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>"

func TestRetryPolicy(t *testing.T) {
	ok := jsonResponse(200, jobJSON)
	created := jsonResponse(201, jobJSON)
	tests := []struct {
		name         string
		post         bool
		responses    []http.HandlerFunc
		wantRequests int
		wantErr      string // "" for success
		wantSleeps   []time.Duration
	}{
		{name: "GET 502 then success", responses: []http.HandlerFunc{respond(502, "text/html", htmlBadGateway), ok}, wantRequests: 2},
		{name: "GET 503 honors Retry-After", responses: []http.HandlerFunc{jsonResponse(503, `{"error":"down"}`, "Retry-After", "7"), ok}, wantRequests: 2, wantSleeps: []time.Duration{7 * time.Second}},
		{name: "GET 500 until retries run out", responses: []http.HandlerFunc{jsonResponse(500, `{"error":"boom"}`)}, wantRequests: 3, wantErr: "500 Internal Server Error: boom (after 3 attempts)"},
		{name: "GET 501 is not retried", responses: []http.HandlerFunc{jsonResponse(501, `{"error":"nope"}`)}, wantRequests: 1, wantErr: "501 Not Implemented: nope"},
		{name: "GET 404 is not retried", responses: []http.HandlerFunc{jsonResponse(404, `{"error":"Job not found"}`)}, wantRequests: 1, wantErr: "404 Not Found: Job not found"},
		{name: "GET dropped connection is retried", responses: []http.HandlerFunc{dropConnection, ok}, wantRequests: 2},
		{name: "GET 429 with Retry-After seconds", responses: []http.HandlerFunc{jsonResponse(429, `{"error":"slow down"}`, "Retry-After", "2"), ok}, wantRequests: 2, wantSleeps: []time.Duration{2 * time.Second}},
		{name: "POST 429 is retried: the server refused it", post: true, responses: []http.HandlerFunc{jsonResponse(429, `{"error":"slow down"}`, "Retry-After", "3"), created}, wantRequests: 2, wantSleeps: []time.Duration{3 * time.Second}},
		{name: "POST 500 is never retried", post: true, responses: []http.HandlerFunc{jsonResponse(500, `{"error":"boom"}`), created}, wantRequests: 1, wantErr: "500 Internal Server Error: boom"},
		{name: "POST 502 is never retried", post: true, responses: []http.HandlerFunc{respond(502, "text/html", htmlBadGateway), created}, wantRequests: 1, wantErr: "502 Bad Gateway: 502 Bad Gateway 502 Bad Gateway nginx"},
		{name: "POST dropped connection is never retried", post: true, responses: []http.HandlerFunc{dropConnection, created}, wantRequests: 1, wantErr: "EOF"},
		{name: "GET dropped twice, then the retries run out", responses: []http.HandlerFunc{dropConnection}, wantRequests: 3, wantErr: "EOF (after 3 attempts)"},
		{name: "POST 429 until retries run out", post: true, responses: []http.HandlerFunc{jsonResponse(429, `{"error":"slow down"}`, "Retry-After", "1")}, wantRequests: 3,
			wantErr: "429 Too Many Requests: slow down (rate limited; try again after 2026-11-21T12:00:03Z, in 1s) (after 3 attempts)", wantSleeps: []time.Duration{time.Second, time.Second}},
		{name: "429 longer than the limit fails at once", responses: []http.HandlerFunc{jsonResponse(429, `{"error":"Too many requests"}`, "Retry-After", "3600"), ok}, wantRequests: 1,
			wantErr: "429 Too Many Requests: Too many requests (rate limited; try again after 2026-11-21T13:00:00Z, in 1h0m0s)"},
		{name: "429 as long as the limit is waited", responses: []http.HandlerFunc{jsonResponse(429, `{}`, "Retry-After", "60"), ok}, wantRequests: 2, wantSleeps: []time.Duration{time.Minute}},
		{name: "429 with HTTP-date", responses: []http.HandlerFunc{jsonResponse(429, `{}`, "Retry-After", "Sat, 21 Nov 2026 12:00:30 GMT"), ok}, wantRequests: 2, wantSleeps: []time.Duration{30 * time.Second}},
		{name: "400 is not retried", post: true, responses: []http.HandlerFunc{jsonResponse(400, `{"error":"Invalid request body","details":[{"message":"prompt: Required"}]}`)}, wantRequests: 1,
			wantErr: "400 Bad Request: Invalid request body; prompt: Required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, ts := newRecorder(t, tt.responses...)
			clk := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}
			c := newTestClient(t, ts.URL, clk, WithMaxRetries(2))
			var err error
			if tt.post {
				_, err = c.AgentJobs.Create(context.Background(), "p", "x")
			} else {
				_, err = c.AgentJobs.Get(context.Background(), "p", "j")
			}
			if rec.count() != tt.wantRequests {
				t.Errorf("requests = %d, want %d", rec.count(), tt.wantRequests)
			}
			if tt.wantErr == "" && err != nil {
				t.Fatalf("err = %v", err)
			}
			if tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
			}
			if tt.wantSleeps != nil {
				if diff := cmp.Diff(tt.wantSleeps, clk.Sleeps()); diff != "" {
					t.Errorf("sleeps (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestRetry_postWhoseConnectionNeverOpenedIsRetried(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(201, jobJSON))
	var dials atomic.Int32
	transport := &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if dials.Add(1) == 1 {
			return nil, &net.OpError{Op: "dial", Net: network, Err: errors.New("connection refused")}
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}
	c := newTestClient(t, ts.URL, &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}, WithHTTPClient(&http.Client{Transport: transport}))
	if _, err := c.AgentJobs.Create(context.Background(), "p", "x"); err != nil {
		t.Fatal(err)
	}
	if rec.count() != 1 || dials.Load() != 2 {
		t.Errorf("requests = %d, dials = %d; want 1 and 2", rec.count(), dials.Load())
	}
}

func TestRetry_zeroRetriesMeansOneAttempt(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(503, `{"error":"down"}`))
	c := newTestClient(t, ts.URL, &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}, WithMaxRetries(0))
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); !errors.As(err, new(*APIError)) {
		t.Fatalf("err = %v", err)
	}
	if rec.count() != 1 {
		t.Errorf("requests = %d", rec.count())
	}
}

func TestRetry_stopsWhenContextEndsDuringBackoff(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(503, `{"error":"down"}`))
	c := newTestClient(t, ts.URL, nil, WithRetryBackoff(30*time.Second, 30*time.Second))
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.AgentJobs.Get(ctx, "p", "j")
	if !errors.Is(err, context.DeadlineExceeded) || statusOf(err) != 503 {
		t.Fatalf("err = %v", err)
	}
	if time.Since(start) > 5*time.Second || rec.count() != 1 {
		t.Errorf("took %s with %d requests", time.Since(start), rec.count())
	}
}

func TestRetry_retryAfterPastTheDeadlineFailsAtOnce(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(503, `{"error":"down"}`, "Retry-After", "30"), jsonResponse(200, jobJSON))
	clk := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}
	c := newTestClient(t, ts.URL, clk)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := c.AgentJobs.Get(ctx, "p", "j")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 503 || apiErr.RetryAfter != 30*time.Second || errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the 503 that says when to come back", err)
	}
	if rec.count() != 1 || len(clk.Sleeps()) != 0 {
		t.Errorf("%d requests, slept %v: a wait past the deadline is not started", rec.count(), clk.Sleeps())
	}
	// The same wait fits a longer deadline, and is waited.
	ctx2, cancel2 := context.WithTimeout(context.Background(), time.Minute)
	defer cancel2()
	if _, err := c.AgentJobs.Get(ctx2, "p", "j"); err != nil {
		t.Fatal(err)
	}
}

func TestDo_sendsNothingOnceContextHasEnded(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "x"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if n := fs.TotalRequests(); n != 0 {
		t.Errorf("%d requests sent after the context ended", n)
	}
}

func TestAPIError_fields(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(400, `{"error":"Invalid query parameters","details":[{"message":"limit: too big"},{"message":"offset: negative"}],"extra":1}`, "X-Request-Id", "req-123"))
	c := newTestClient(t, ts.URL, nil)
	_, err := c.AgentJobs.Get(context.Background(), "p", "j")
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v", err)
	}
	want := &APIError{StatusCode: 400, Method: "GET", Path: "/v2/agent/p/job/j", Message: "Invalid query parameters",
		Details: []ErrorDetail{{"limit: too big"}, {"offset: negative"}}, RequestID: "req-123", Attempts: 1}
	if diff := cmp.Diff(want, apiErr); diff != "" {
		t.Errorf("APIError (-want +got):\n%s", diff)
	}
	if !IsBadRequest(err) || IsNotFound(err) || IsUnauthorized(err) || IsForbidden(err) || IsRateLimited(err) || IsValidation(err) {
		t.Error("predicates disagree with a 400")
	}
	if got := err.Error(); got != "getting agent job j: GET /v2/agent/p/job/j: 400 Bad Request: Invalid query parameters; limit: too big; offset: negative [request id req-123]" {
		t.Errorf("Error() = %q", got)
	}
}

func TestAPIError_predicates(t *testing.T) {
	for status, pred := range map[int]func(error) bool{404: IsNotFound, 401: IsUnauthorized, 403: IsForbidden, 429: IsRateLimited, 400: IsBadRequest, 409: IsConflict} {
		err := error(&APIError{StatusCode: status})
		wrapped := errors.Join(errors.New("context"), err)
		if !pred(err) || !pred(wrapped) {
			t.Errorf("predicate for %d is false", status)
		}
		if pred(&APIError{StatusCode: 500}) || pred(errors.New("plain")) || pred(nil) {
			t.Errorf("predicate for %d is true for something else", status)
		}
	}
}

func TestAPIError_messageFallbacks(t *testing.T) {
	tests := map[string]struct{ body, want string }{
		"message field":     {`{"message":"Project not found"}`, "404 Not Found: Project not found"},
		"error object":      {`{"error":{"code":"x"}}`, `404 Not Found: {"code":"x"}`},
		"plain text":        {"not found\n", "404 Not Found: not found"},
		"empty body":        {"", "GET /v2/agent/p/job/j: 404 Not Found"},
		"long html is cut":  {"<p>" + strings.Repeat("word ", 100) + "</p>", "404 Not Found: " + strings.Repeat("word ", 39) + "word…"},
		"control chars out": {"bad\x00\x1b[31mred", "404 Not Found: bad[31mred"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, ts := newRecorder(t, respond(404, "", tt.body))
			c := newTestClient(t, ts.URL, nil)
			_, err := c.AgentJobs.Get(context.Background(), "p", "j")
			if err == nil || !strings.HasSuffix(err.Error(), tt.want) {
				t.Fatalf("err = %q, want suffix %q", err, tt.want)
			}
		})
	}
}

func TestClient_neverPutsKeyInErrors(t *testing.T) {
	echo := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", r.Header.Get("Authorization"))
		w.WriteHeader(400)
		_, _ = w.Write([]byte(`{"error":"bad header ` + r.Header.Get("Authorization") + `","details":[{"message":"` + r.Header.Get("Authorization") + `"}]}`))
	}
	echoHTML := func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(400)
		_, _ = w.Write([]byte(`<pre>` + r.Header.Get("Authorization") + `</pre>`))
	}
	echoOK := func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`not json ` + r.Header.Get("Authorization")))
	}
	for name, h := range map[string]http.HandlerFunc{"json": echo, "html": echoHTML, "2xx": echoOK} {
		t.Run(name, func(t *testing.T) {
			_, ts := newRecorder(t, h)
			c := newTestClient(t, ts.URL, nil)
			_, err := c.AgentJobs.Get(context.Background(), "p", "j")
			if err == nil {
				t.Fatal("no error")
			}
			if strings.Contains(err.Error(), mintlifytest.DemoAPIKey) {
				t.Fatalf("error leaks the key: %s", err)
			}
			if !strings.Contains(err.Error(), "[REDACTED]") {
				t.Errorf("error %q lost the redaction marker", err)
			}
		})
	}
}

// A refusal whose error is a JSON object is shown as JSON with its
// strings read, so a key that the server spelled with an escaped
// character (mint\u005f...) is found and removed like any other (hole 5
// of #43: the object was shown as it came, escape and key included).
func TestAPIError_anEscapedKeyInAnErrorObjectIsRedacted(t *testing.T) {
	escaped := strings.Replace(mintlifytest.DemoAPIKey, "_", `\u005f`, 1)
	for name, body := range map[string]string{
		"a value": `{"error":{"message":"bad header ` + escaped + `","code":7}}`,
		"a key":   `{"error":{"` + escaped + `":true}}`,
		"a list":  `{"error":["` + escaped + `"]}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, ts := newRecorder(t, jsonResponse(400, body))
			_, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
			key := strings.TrimPrefix(mintlifytest.DemoAPIKey, "mint_")
			if err == nil || strings.Contains(err.Error(), key) || strings.Contains(err.Error(), `u005f`) || !strings.Contains(err.Error(), Redacted) {
				t.Errorf("%v", err)
			}
		})
	}
	_, ts := newRecorder(t, jsonResponse(400, `{"error":{"code":7,"why":"<a & b>","n":0.10}}`))
	_, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
	if err == nil || !strings.HasSuffix(err.Error(), `: 400 Bad Request: {"code":7,"n":0.10,"why":"<a & b>"}`) {
		t.Errorf("%v", err)
	}
}

func TestClient_capsResponseBodies(t *testing.T) {
	big := `{"id":"` + strings.Repeat("x", 4096) + `"}`
	rec, ts := newRecorder(t, jsonResponse(200, big))
	c := newTestClient(t, ts.URL, nil, WithMaxResponseBytes(2048))
	_, err := c.AgentJobs.Get(context.Background(), "p", "j")
	if !errors.Is(err, ErrResponseTooLarge) || !strings.Contains(err.Error(), "response body too large: over 2048 bytes") {
		t.Fatalf("err = %v", err)
	}
	if rec.count() != 1 {
		t.Errorf("requests = %d, want 1: an oversized body is not retried", rec.count())
	}
}

func TestClient_reportsUndecodableSuccess(t *testing.T) {
	_, ts := newRecorder(t, respond(200, "text/html", "<html>login page</html>"))
	c := newTestClient(t, ts.URL, nil)
	_, err := c.AgentJobs.Get(context.Background(), "p", "j")
	if err == nil || err.Error() != `getting agent job j: malformed response to GET /v2/agent/p/job/j: the body is not the API's JSON: invalid character '<' looking for beginning of value (body starts "login page")` {
		t.Fatalf("err = %v", err)
	}
}

// An error body's details are kept up to ten, each cut to its first 200
// runes and stripped of the key; the rest are counted.
func TestAPIError_detailsAreBounded(t *testing.T) {
	details := func(n int) string {
		d := make([]string, n)
		for i := range d {
			d[i] = fmt.Sprintf(`{"message":"d%d"}`, i)
		}
		return `{"error":"bad","details":[` + strings.Join(d, ",") + `]}`
	}
	for n, want := range map[int]int{10: 10, 11: 11, 40: 11} {
		_, ts := newRecorder(t, jsonResponse(400, details(n)))
		_, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
		var apiErr *APIError
		if !errors.As(err, &apiErr) || len(apiErr.Details) != want {
			t.Fatalf("%d details: %v", n, err)
		}
		last := apiErr.Details[len(apiErr.Details)-1].Message
		if n > 10 && last != fmt.Sprintf("and %d more", n-10) || n == 10 && last != "d9" {
			t.Errorf("%d details: last %q", n, last)
		}
	}
	key := mintlifytest.DemoAPIKey
	long := strings.Repeat("é", 250)
	_, ts := newRecorder(t, jsonResponse(400, `{"error":null,"message":"fallback `+key+`","details":[{"message":"`+long+`"},{"message":"`+key+`"},{"message":""}]}`))
	_, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Message != "fallback "+Redacted || len(apiErr.Details) != 3 || apiErr.Details[0].Message != strings.Repeat("é", 200)+"…" || apiErr.Details[1].Message != Redacted {
		t.Fatalf("err %#v", apiErr)
	}
	// An empty detail adds nothing to the message.
	if !strings.HasSuffix(err.Error(), "…; "+Redacted) {
		t.Errorf("Error() = %q", err)
	}
	_, ts = newRecorder(t, jsonResponse(400, `{"error":7}`))
	if _, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j"); !errors.As(err, &apiErr) || apiErr.Message != "7" {
		t.Errorf("a number as the error: %v", err)
	}
	// An object is shown from its start, its secrets removed before it is
	// cut: a key across the cut would otherwise show its first half.
	pad := strings.Repeat("x", 200-len(`{"k":"`)-len(key)/2)
	_, ts = newRecorder(t, jsonResponse(400, `{"error":{"k":"`+pad+key+`"}}`))
	if _, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j"); !errors.As(err, &apiErr) ||
		apiErr.Message != `{"k":"`+pad+Redacted+`"}` || strings.Contains(err.Error(), key[:len(key)/2]) {
		t.Errorf("an object as the error: %v", err)
	}
}

// A POST that is redirected is refused with where it was sent, cut and
// without the key.
func TestAPIError_redirectOfAPOSTSaysWhere(t *testing.T) {
	key := mintlifytest.DemoAPIKey
	long := "https://elsewhere.example/" + strings.Repeat("x", 300) + "?k=" + key
	_, ts := newRecorder(t, respond(307, "", "", "Location", "https://elsewhere.example/?k="+key))
	_, err := newTestClient(t, ts.URL, nil).AgentJobs.Create(context.Background(), "p", "x")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Message != `redirected to "https://elsewhere.example/?k=[REDACTED]"; a POST is never followed to another address` || apiErr.Attempts != 1 {
		t.Errorf("err %v", err)
	}
	_, ts = newRecorder(t, respond(308, "", "", "Location", long))
	_, err = newTestClient(t, ts.URL, nil).AgentJobs.Create(context.Background(), "p", "x")
	if !errors.As(err, &apiErr) || !strings.HasPrefix(apiErr.Message, `redirected to "https://elsewhere.example/xxx`) || strings.Contains(apiErr.Message, key) || len([]rune(apiErr.Message)) > 300 {
		t.Errorf("err %v", err)
	}
}

func TestClip(t *testing.T) {
	for in, want := range map[string]string{"": "", "abc": "abc", "abcd": "abc…", "ab d": "ab…", "ééé": "ééé", "éééé": "ééé…"} {
		if got := redact.Clip(in, 3); got != want {
			t.Errorf("redact.Clip(%q, 3) = %q, want %q", in, got, want)
		}
	}
}

// A key echoed where an error is cut must not leave part of itself
// behind: it is redacted first, then the text is cut.
func TestErrors_keyAtTheCutIsNotHalfRedacted(t *testing.T) {
	key := mintlifytest.DemoAPIKey
	prefix := key[:len(key)/2]
	for name, cut := range map[string]int{"message": MaxDisplayLine, "request id": 200} {
		for pad := cut - len(key) + 1; pad < cut; pad += 3 {
			text := strings.Repeat("a", pad) + key
			var h http.HandlerFunc
			if name == "message" {
				h = jsonResponse(400, `{"error":"`+text+`","details":[{"message":"`+text+`"}]}`)
			} else {
				h = jsonResponse(400, `{"error":"x"}`, "X-Request-Id", text)
			}
			_, ts := newRecorder(t, h, jsonResponse(200, jobJSON, "X-Request-Id", text))
			c := newTestClient(t, ts.URL, nil)
			_, err := c.AgentJobs.Get(context.Background(), "p", "j")
			if err == nil || strings.Contains(err.Error(), prefix) {
				t.Errorf("%s, key at %d: %v", name, pad, err)
			}
			if name == "request id" {
				if job, err := c.AgentJobs.Get(context.Background(), "p", "j"); err != nil || strings.Contains(job.RequestID, prefix) {
					t.Errorf("request id of an answer, key at %d: %q, %v", pad, job.RequestID, err)
				}
			}
		}
	}
	// And where a redirect's location is cut.
	for pad := 200 - len(key) - len(`https://x/`) + 1; pad < 200; pad += 3 {
		_, ts := newRecorder(t, respond(307, "", "", "Location", "https://x/"+strings.Repeat("a", pad)+key))
		if _, err := newTestClient(t, ts.URL, nil).AgentJobs.Create(context.Background(), "p", "x"); err == nil || strings.Contains(err.Error(), prefix) {
			t.Errorf("location, key at %d: %v", pad, err)
		}
	}
}
