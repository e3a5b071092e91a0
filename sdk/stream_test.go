package sdk

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"
)

// chunkServer streams n lines, each only once the test says so on step
// (or its request ends), flushing each.
func chunkServer(t *testing.T, n int, step <-chan struct{}) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "stream-1")
		w.WriteHeader(http.StatusOK)
		for i := range n {
			fmt.Fprintf(w, "chunk %d\n", i)
			w.(http.Flusher).Flush()
			if i == n-1 {
				return
			}
			select {
			case <-step:
			case <-r.Context().Done():
				return
			}
		}
	}))
	t.Cleanup(ts.Close)
	return ts
}

// readLine reads one line, failing the test if it takes longer than a few
// seconds.
func readLine(t *testing.T, r *bufio.Reader) (string, error) {
	t.Helper()
	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		line, err := r.ReadString('\n')
		ch <- result{line, err}
	}()
	select {
	case res := <-ch:
		return res.line, res.err
	case <-time.After(5 * time.Second):
		t.Fatal("a read of the stream hung")
		return "", nil
	}
}

// A streamed answer is read as it arrives; the request timeout bounds the
// wait for its headers, not its body.
func TestStream_readIncrementallyPastTheRequestTimeout(t *testing.T) {
	step := make(chan struct{})
	ts := chunkServer(t, 3, step)
	c := newTestClient(t, ts.URL, nil, WithRequestTimeout(50*time.Millisecond))
	resp, info, err := c.core.stream(context.Background(), get("/v1/stream", nil))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || info.Attempts != 1 || info.Pages != 1 || info.RequestID != "stream-1" {
		t.Errorf("status %d, info %+v", resp.StatusCode, info)
	}
	r := bufio.NewReader(resp.Body)
	for i := range 3 {
		// Each line is read before the server writes the next: the body
		// is not read whole first.
		line, err := readLine(t, r)
		if err != nil || line != fmt.Sprintf("chunk %d\n", i) {
			t.Fatalf("line %d: %q, %v", i, line, err)
		}
		if i < 2 {
			time.Sleep(150 * time.Millisecond) // three request timeouts
			step <- struct{}{}
		}
	}
	if _, err := readLine(t, r); !errors.Is(err, io.EOF) {
		t.Errorf("after the last chunk: %v", err)
	}
}

// Ending the caller's context closes the stream, for a GET and for a POST
// (whose answer has arrived: the grace for a sent POST is over).
func TestStream_contextEndClosesTheBody(t *testing.T) {
	for _, method := range []string{http.MethodGet, http.MethodPost} {
		t.Run(method, func(t *testing.T) {
			step := make(chan struct{})
			defer close(step)
			ts := chunkServer(t, 3, step)
			c := newTestClient(t, ts.URL, nil)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cl := call{method: method, path: "/v1/stream"}
			if method == http.MethodPost {
				cl.body = promptBody{"stream it"}
			}
			resp, _, err := c.core.stream(ctx, cl)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			r := bufio.NewReader(resp.Body)
			if line, err := readLine(t, r); err != nil || line != "chunk 0\n" {
				t.Fatalf("first line %q, %v", line, err)
			}
			cancel()
			if line, err := readLine(t, r); err == nil {
				t.Errorf("read %q after the context ended", line)
			}
		})
	}
}

// A stream's request goes through the same retry loop as any other: a 429
// before it is waited out and sent again; a refusal is an *APIError.
func TestStream_retriedAndRefusedLikeAnyCall(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(429, `{"error":"slow down"}`, "Retry-After", "2"), respond(200, "text/plain", "the answer"))
	clk := newClock()
	c := newTestClient(t, ts.URL, clk)
	resp, info, err := c.core.stream(context.Background(), get("/v1/stream", url.Values{"q": {"1"}}))
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || string(body) != "the answer" || info.Attempts != 2 || rec.count() != 2 || len(clk.Sleeps()) != 1 || clk.Sleeps()[0] != 2*time.Second {
		t.Errorf("body %q, %v, info %+v, %d requests, slept %v", body, err, info, rec.count(), clk.Sleeps())
	}
	if q := rec.requests[1].URL.RawQuery; q != "q=1" {
		t.Errorf("query %q", q)
	}
	// A 300 is no stream: it is refused.
	_, ts = newRecorder(t, jsonResponse(300, `{"error":"choose"}`))
	var apiErr *APIError
	if resp, _, err := newTestClient(t, ts.URL, nil).core.stream(context.Background(), get("/v1/stream", nil)); resp != nil || !errors.As(err, &apiErr) || apiErr.StatusCode != 300 {
		t.Errorf("300: %v, %v", resp, err)
	}
	// Any 2xx is a stream, 299 too.
	_, ts = newRecorder(t, respond(299, "text/plain", "odd but fine"))
	resp, _, err = newTestClient(t, ts.URL, nil).core.stream(context.Background(), get("/v1/stream", nil))
	if err != nil || resp.StatusCode != 299 {
		t.Fatalf("299: %v", err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "odd but fine" {
		t.Errorf("299 body %q", body)
	}
	for name, tt := range map[string]struct {
		h        http.HandlerFunc
		status   int
		requests int
		want     string
	}{
		"404":                {jsonResponse(404, `{"error":"No such conversation"}`), 404, 1, "GET /v1/stream: 404 Not Found: No such conversation"},
		"503 retried":        {jsonResponse(503, `{"error":"down"}`), 503, 3, "GET /v1/stream: 503 Service Unavailable: down (after 3 attempts)"},
		"html from a proxy":  {respond(502, "text/html", "<h1>Bad gateway</h1>"), 502, 3, "GET /v1/stream: 502 Bad Gateway: Bad gateway (after 3 attempts)"},
		"POST 500 once only": {jsonResponse(500, `{"error":"boom"}`), 500, 1, "POST /v1/stream: 500 Internal Server Error: boom"},
	} {
		t.Run(name, func(t *testing.T) {
			rec, ts := newRecorder(t, tt.h)
			c := newTestClient(t, ts.URL, newClock(), WithMaxRetries(2))
			cl := get("/v1/stream", nil)
			if strings.HasPrefix(name, "POST") {
				cl.method = http.MethodPost
			}
			resp, _, err := c.core.stream(context.Background(), cl)
			var apiErr *APIError
			if resp != nil || !errors.As(err, &apiErr) || apiErr.StatusCode != tt.status || err.Error() != tt.want || rec.count() != tt.requests {
				t.Errorf("resp %v, err %v after %d requests", resp, err, rec.count())
			}
		})
	}
}

// Until its headers arrive, a stream is bounded by the request timeout: a
// server that never answers fails the attempt, and a read is tried again.
func TestStream_requestTimeoutBoundsTheHeaders(t *testing.T) {
	var mu sync.Mutex
	n := 0
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		first := n == 1
		mu.Unlock()
		if first {
			select {
			case <-r.Context().Done():
			case <-time.After(10 * time.Second):
			}
			return
		}
		_, _ = io.WriteString(w, "late but whole")
	}))
	defer ts.Close()
	c := newTestClient(t, ts.URL, newClock(), WithRequestTimeout(50*time.Millisecond), WithMaxRetries(1))
	resp, info, err := c.core.stream(context.Background(), get("/v1/stream", nil))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "late but whole" || info.Attempts != 2 {
		t.Errorf("body %q, info %+v", body, info)
	}
	// Without a retry the timeout is the error.
	mu.Lock()
	n = 0
	mu.Unlock()
	c = newTestClient(t, ts.URL, newClock(), WithRequestTimeout(50*time.Millisecond), WithMaxRetries(0))
	if _, _, err := c.core.stream(context.Background(), get("/v1/stream", nil)); err == nil || !strings.Contains(err.Error(), "no response within 50ms (the request timeout)") {
		t.Errorf("err = %v", err)
	}
}

// A download-style call to an absolute URL (a presigned link) carries no
// API key, and its query, a secret, is never in an error or a log.
func TestCallTarget_noKeyAndNoQueryInErrorsOrLogs(t *testing.T) {
	const query = "X-Amz-Credential=AKIAEXAMPLE&X-Amz-Signature=s3cr3tsig"
	type seen struct{ auth, accept, ua, query, path string }
	var got []seen
	var mu sync.Mutex
	status := http.StatusOK
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, seen{r.Header.Get("Authorization"), r.Header.Get("Accept"), r.Header.Get("User-Agent"), r.URL.RawQuery, r.URL.Path})
		s := status
		mu.Unlock()
		if s == -1 {
			dropConnection(w, r)
			return
		}
		w.WriteHeader(s)
		if s == http.StatusOK {
			_, _ = io.WriteString(w, "path,visitors\n/,1\n")
			return
		}
		_, _ = io.WriteString(w, `{"error":"Request has expired"}`)
	}))
	defer ts.Close()
	target, err := url.Parse(ts.URL + "/exports/e1.csv?" + query)
	if err != nil {
		t.Fatal(err)
	}
	download := call{method: http.MethodGet, path: "/exports/e1.csv", target: target}
	var infos []RequestInfo
	hook := WithRequestHook(func(_ context.Context, i RequestInfo) { infos = append(infos, i) })
	// The client's base URL is elsewhere: the target is what is used.
	c := newTestClient(t, refusedURL(t), newClock(), hook, WithMaxRetries(1))

	data, info, err := c.core.roundTrip(context.Background(), download)
	if err != nil || string(data) != "path,visitors\n/,1\n" || info.Attempts != 1 {
		t.Fatalf("data %q, info %+v, %v", data, info, err)
	}
	if want := (seen{"", "", "mintlify-go-sdk/" + Version, query, "/exports/e1.csv"}); len(got) != 1 || got[0] != want {
		t.Errorf("the server saw %+v, want %+v", got, want)
	}
	// Streamed the same way.
	resp, _, err := c.core.stream(context.Background(), download)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "path,visitors\n/,1\n" || got[1].auth != "" || got[1].query != query {
		t.Errorf("stream: %q, %+v", body, got[1])
	}

	noQuery := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: no error", what)
			return
		}
		if s := err.Error(); strings.Contains(s, "s3cr3tsig") || strings.Contains(s, "AKIAEXAMPLE") || strings.Contains(s, "X-Amz") {
			t.Errorf("%s: the query is in the error: %s", what, s)
		}
		if !strings.Contains(err.Error(), "/exports/e1.csv") {
			t.Errorf("%s: the error does not say what failed: %s", what, err)
		}
	}
	// A refusal.
	mu.Lock()
	status = http.StatusForbidden
	mu.Unlock()
	_, _, err = c.core.roundTrip(context.Background(), download)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 403 || apiErr.Path != "/exports/e1.csv" || err.Error() != "GET /exports/e1.csv: 403 Forbidden: Request has expired" {
		t.Errorf("403: %v", err)
	}
	noQuery("403", err)
	// A dropped connection.
	mu.Lock()
	status = -1
	mu.Unlock()
	_, _, err = c.core.roundTrip(context.Background(), download)
	var reqErr *RequestError
	var ue *url.Error
	if !errors.As(err, &reqErr) || !reqErr.Sent || !errors.As(err, &ue) || ue.URL != ts.URL+"/exports/e1.csv" {
		t.Errorf("dropped: %v", err)
	}
	noQuery("dropped", err)
	// A refused connection.
	refusedTarget, _ := url.Parse(refusedURL(t) + "/exports/e1.csv?" + query)
	_, _, err = c.core.roundTrip(context.Background(), call{method: http.MethodGet, path: "/exports/e1.csv", target: refusedTarget})
	if !errors.As(err, &reqErr) || reqErr.Sent || reqErr.Attempts != 2 {
		t.Errorf("refused: %v", err)
	}
	noQuery("refused", err)
	// No log line holds the query either.
	if len(infos) == 0 {
		t.Fatal("the hook saw nothing")
	}
	for _, i := range infos {
		if i.Query != "" || i.Path != "/exports/e1.csv" || (i.Err != nil && strings.Contains(i.Err.Error(), "s3cr3tsig")) {
			t.Errorf("hook saw %+v", i)
		}
	}
	// An API call still sends the key, and logs its query.
	infos = nil
	rec, api := newRecorder(t, jsonResponse(200, jobJSON))
	c = newTestClient(t, api.URL, nil, hook)
	if _, _, err := c.core.roundTrip(context.Background(), get("/v2/agent/p/job/j", url.Values{"a": {"b"}})); err != nil {
		t.Fatal(err)
	}
	if rec.requests[0].Header.Get("Authorization") != "Bearer mint_demo_0123456789abcdef" || rec.requests[0].Header.Get("Accept") != "application/json" || infos[0].Query != "a=b" {
		t.Errorf("API call: headers %v, hook %+v", rec.requests[0].Header, infos[0])
	}
}
