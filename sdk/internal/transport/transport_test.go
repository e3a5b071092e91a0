package transport

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
)

var epoch = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// fakeClock records the waits asked of it and takes no time; it fails a
// wait once ctx has ended, as a real clock would.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	sleeps []time.Duration
	cancel context.CancelFunc // when set, ends the caller's context at a wait
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	if c.cancel != nil {
		c.cancel()
	}
	return ctx.Err()
}

// server answers its requests with the handlers in turn (the last one
// again once they run out), counting them.
type server struct {
	*httptest.Server
	n        atomic.Int32
	requests chan *http.Request
	bodies   chan string
}

func serve(t *testing.T, handlers ...http.HandlerFunc) *server {
	t.Helper()
	s := &server{requests: make(chan *http.Request, 100), bodies: make(chan string, 100)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i := int(s.n.Add(1)) - 1
		s.requests <- r.Clone(context.Background())
		body, _ := io.ReadAll(r.Body)
		s.bodies <- string(body)
		handlers[min(i, len(handlers)-1)](w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func answer(status int, body string, header ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// drop closes the connection without an answer.
func drop(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		_ = conn.Close()
	}
}

func policy(clk *fakeClock) Policy {
	return Policy{Client: &http.Client{}, Clock: clk, MaxRetries: 2, MaxRetryAfter: time.Minute,
		MinBackoff: time.Second, MaxBackoff: 8 * time.Second, MaxResponseBytes: 1 << 20, RequestTimeout: 10 * time.Second, SentGrace: time.Second}
}

func TestDo_retryPolicy(t *testing.T) {
	ok := answer(200, `{"ok":true}`)
	tests := []struct {
		name       string
		method     string
		handlers   []http.HandlerFunc
		requests   int
		status     int // the final answer's; 0 for none
		failed     bool
		sleeps     []time.Duration // exact, or nil for backoffs (checked by count)
		nSleeps    int
		retryAfter time.Duration
	}{
		{name: "GET 502 then 200", method: "GET", handlers: []http.HandlerFunc{answer(502, "<html>"), ok}, requests: 2, status: 200, nSleeps: 1},
		{name: "GET 503 honors Retry-After", method: "GET", handlers: []http.HandlerFunc{answer(503, "", "Retry-After", "7"), ok}, requests: 2, status: 200, sleeps: []time.Duration{7 * time.Second}},
		{name: "GET 500 until retries run out", method: "GET", handlers: []http.HandlerFunc{answer(500, "boom")}, requests: 3, status: 500, nSleeps: 2},
		{name: "GET 501 is final", method: "GET", handlers: []http.HandlerFunc{answer(501, "")}, requests: 1, status: 501},
		{name: "GET 404 is final", method: "GET", handlers: []http.HandlerFunc{answer(404, "")}, requests: 1, status: 404},
		{name: "GET 499 is final", method: "GET", handlers: []http.HandlerFunc{answer(499, "")}, requests: 1, status: 499},
		{name: "GET dropped connection is retried", method: "GET", handlers: []http.HandlerFunc{drop, ok}, requests: 2, status: 200, nSleeps: 1},
		{name: "GET dropped until retries run out", method: "GET", handlers: []http.HandlerFunc{drop}, requests: 3, failed: true, nSleeps: 2},
		{name: "POST 429 is retried", method: "POST", handlers: []http.HandlerFunc{answer(429, "", "Retry-After", "3"), ok}, requests: 2, status: 200, sleeps: []time.Duration{3 * time.Second}},
		{name: "POST 500 is final", method: "POST", handlers: []http.HandlerFunc{answer(500, ""), ok}, requests: 1, status: 500},
		{name: "POST 502 is final", method: "POST", handlers: []http.HandlerFunc{answer(502, ""), ok}, requests: 1, status: 502},
		{name: "POST dropped connection is final", method: "POST", handlers: []http.HandlerFunc{drop, ok}, requests: 1, failed: true},
		{name: "429 longer than the limit is final", method: "GET", handlers: []http.HandlerFunc{answer(429, "", "Retry-After", "61"), ok}, requests: 1, status: 429, retryAfter: 61 * time.Second},
		{name: "429 as long as the limit is waited", method: "GET", handlers: []http.HandlerFunc{answer(429, "", "Retry-After", "60"), ok}, requests: 2, status: 200, sleeps: []time.Duration{time.Minute}},
		{name: "429 with an HTTP-date", method: "GET", handlers: []http.HandlerFunc{answer(429, "", "Retry-After", "Sat, 21 Nov 2026 12:00:30 GMT"), ok}, requests: 2, status: 200, sleeps: []time.Duration{30 * time.Second}},
		{name: "429 without Retry-After backs off", method: "GET", handlers: []http.HandlerFunc{answer(429, ""), ok}, requests: 2, status: 200, nSleeps: 1},
		{name: "429 until retries run out", method: "POST", handlers: []http.HandlerFunc{answer(429, "", "Retry-After", "1")}, requests: 3, status: 429, sleeps: []time.Duration{time.Second, time.Second}, retryAfter: time.Second},
		{name: "400 is final", method: "POST", handlers: []http.HandlerFunc{answer(400, "")}, requests: 1, status: 400},
		{name: "a 3xx with nowhere to go is final", method: "GET", handlers: []http.HandlerFunc{answer(302, "")}, requests: 1, status: 302},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := serve(t, tt.handlers...)
			clk := &fakeClock{now: epoch}
			r := Do(context.Background(), policy(clk), Request{Method: tt.method, URL: s.URL + "/x"})
			if got := int(s.n.Load()); got != tt.requests || len(r.Tries) != tt.requests {
				t.Errorf("requests %d, attempts %d; want %d", got, len(r.Tries), tt.requests)
			}
			if (r.Err != nil) != tt.failed || r.Status != tt.status {
				t.Errorf("status %d, err %v", r.Status, r.Err)
			}
			if r.OK() != (tt.status/100 == 2 && !tt.failed) {
				t.Errorf("OK %v", r.OK())
			}
			if r.RetryAfter != tt.retryAfter || (tt.retryAfter > 0 && !r.RetryAt.Equal(clk.Now().Add(tt.retryAfter))) {
				t.Errorf("retry after %s at %s", r.RetryAfter, r.RetryAt)
			}
			if tt.sleeps != nil && fmt.Sprint(tt.sleeps) != fmt.Sprint(clk.sleeps) {
				t.Errorf("sleeps %v, want %v", clk.sleeps, tt.sleeps)
			}
			if tt.sleeps == nil && len(clk.sleeps) != tt.nSleeps {
				t.Errorf("sleeps %v, want %d", clk.sleeps, tt.nSleeps)
			}
			if tt.failed && !r.Sent {
				t.Error("a dropped connection counted as never sent")
			}
		})
	}
}

// The request is the same on every attempt: method, headers, body.
func TestDo_sendsTheRequestOnEveryAttempt(t *testing.T) {
	s := serve(t, answer(503, ""), answer(201, "done"))
	h := http.Header{"Authorization": {"Bearer k"}, "X-A": {"1", "2"}}
	r := Do(context.Background(), policy(&fakeClock{now: epoch}), Request{Method: "POST", URL: s.URL + "/p?q=1", Header: h, Body: []byte(`{"a":1}`)})
	if r.Status != 503 || len(r.Tries) != 1 || r.Tries[0].Status != 503 || r.Tries[0].Body != nil || !r.Tries[0].Sent || r.Tries[0].Duration <= 0 {
		t.Fatalf("a POST's 503 is final: %+v", r)
	}
	r = Do(context.Background(), Policy{Client: http.DefaultClient, Clock: &fakeClock{}, MaxRetries: 3}, Request{Method: "PUT", URL: s.URL + "/p?q=1", Header: h, Body: []byte(`{"a":1}`)})
	if !r.OK() || string(r.Body) != "done" || r.Status != 201 || !r.Sent {
		t.Fatalf("%+v", r)
	}
	for range 2 {
		req := <-s.requests
		if body := <-s.bodies; req.URL.RawQuery != "q=1" || req.Header.Get("Authorization") != "Bearer k" || len(req.Header["X-A"]) != 2 || body != `{"a":1}` {
			t.Errorf("%s %v %q", req.URL, req.Header, body)
		}
	}
	// Each attempt is recorded for the caller's log, without its body.
	if tries := r.Tries; len(tries) != 1 || tries[0].Status != 201 || tries[0].Body != nil || tries[0].Header == nil || tries[0].Err != nil {
		t.Errorf("%+v", tries)
	}
	if len(h) != 2 {
		t.Errorf("the caller's header changed: %v", h)
	}
}

// A POST whose connection never opened did not reach the server: it is
// retried, and said to be unsent.
func TestDo_dialErrorIsRetriedAndNotSent(t *testing.T) {
	s := serve(t, answer(201, ""))
	var dials atomic.Int32
	refuse := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	p := policy(&fakeClock{now: epoch})
	p.Client = &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if dials.Add(1) == 1 {
			return nil, refuse
		}
		return (&net.Dialer{}).DialContext(ctx, network, addr)
	}}}
	if r := Do(context.Background(), p, Request{Method: "POST", URL: s.URL}); !r.OK() || len(r.Tries) != 2 || s.n.Load() != 1 {
		t.Errorf("%+v, %d requests", r, s.n.Load())
	}
	p.Client = &http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) { return nil, refuse }}}
	p.MaxRetries = 1
	r := Do(context.Background(), p, Request{Method: "POST", URL: s.URL})
	if r.Sent || len(r.Tries) != 2 || !errors.Is(r.Err, refuse) {
		t.Errorf("%+v", r)
	}
}

// Nothing is sent once the context has ended.
func TestDo_sendsNothingOnceTheContextEnded(t *testing.T) {
	s := serve(t, answer(200, ""))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := Do(ctx, policy(&fakeClock{}), Request{Method: "POST", URL: s.URL})
	if len(r.Tries) != 0 || r.Sent || !errors.Is(r.Err, context.Canceled) || s.n.Load() != 0 {
		t.Errorf("%+v", r)
	}
}

// A wait that ends with the context ends the call: with the refusal, or
// with both errors when no answer came.
func TestDo_aWaitEndedByTheContext(t *testing.T) {
	s := serve(t, answer(429, "", "Retry-After", "5"))
	ctx, cancel := context.WithCancel(context.Background())
	clk := &fakeClock{now: epoch, cancel: cancel}
	r := Do(ctx, policy(clk), Request{Method: "GET", URL: s.URL})
	if r.Status != 429 || !errors.Is(r.WaitErr, context.Canceled) || len(r.Tries) != 1 || r.Err != nil {
		t.Errorf("%+v", r)
	}
	d := serve(t, drop)
	ctx, cancel = context.WithCancel(context.Background())
	clk = &fakeClock{now: epoch, cancel: cancel}
	r = Do(ctx, policy(clk), Request{Method: "GET", URL: d.URL})
	if !errors.Is(r.Err, context.Canceled) || !strings.Contains(r.Err.Error(), "(after: ") || len(r.Tries) != 1 || !r.Sent {
		t.Errorf("GET: %+v", r)
	}
}

// A GET whose context ended says so, whatever the transport said.
func TestDo_aGETStoppedByItsContextSaysSo(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	s := serve(t, func(http.ResponseWriter, *http.Request) { <-block })
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	r := Do(ctx, policy(&fakeClock{}), Request{Method: "GET", URL: s.URL})
	if !errors.Is(r.Err, context.DeadlineExceeded) || len(r.Tries) != 1 {
		t.Errorf("%+v", r)
	}
}

// A Retry-After past the caller's deadline fails at once.
func TestDo_retryAfterPastTheDeadlineIsFinal(t *testing.T) {
	s := serve(t, answer(429, "", "Retry-After", "30"), answer(200, ""))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	clk := &fakeClock{now: epoch}
	r := Do(ctx, policy(clk), Request{Method: "GET", URL: s.URL})
	if r.Status != 429 || len(clk.sleeps) != 0 || r.RetryAfter != 30*time.Second {
		t.Errorf("%+v, slept %v", r, clk.sleeps)
	}
}

// A body over the cap is not read past it, and not asked for again.
func TestDo_aBodyOverTheCapIsFinal(t *testing.T) {
	s := serve(t, answer(200, strings.Repeat("x", 2000)))
	p := policy(&fakeClock{})
	p.MaxResponseBytes = 1000
	r := Do(context.Background(), p, Request{Method: "GET", URL: s.URL})
	var b *bounded.Error
	if !errors.As(r.Err, &b) || b.Bound != bounded.Bytes || b.Max != 1000 || len(r.Tries) != 1 || !r.Sent {
		t.Errorf("%+v", r)
	}
}

// A body that breaks off is a failure like a dropped connection.
func TestDo_aBrokenBodyIsRetriedOnGET(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "100")
		_, _ = io.WriteString(w, "short")
	}, answer(200, "whole"))
	r := Do(context.Background(), policy(&fakeClock{}), Request{Method: "GET", URL: s.URL})
	if !r.OK() || string(r.Body) != "whole" || len(r.Tries) != 2 {
		t.Errorf("%+v", r)
	}
	s = serve(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", "100")
		_, _ = io.WriteString(w, "short")
	})
	r = Do(context.Background(), policy(&fakeClock{}), Request{Method: "POST", URL: s.URL})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "reading response (status 200)") || len(r.Tries) != 1 || !r.Sent {
		t.Errorf("POST: %+v", r)
	}
}

// The request timeout bounds an attempt, and says so.
func TestDo_requestTimeout(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	s := serve(t, func(http.ResponseWriter, *http.Request) { <-block })
	p := policy(&fakeClock{})
	p.RequestTimeout, p.MaxRetries = 30*time.Millisecond, 0
	r := Do(context.Background(), p, Request{Method: "POST", URL: s.URL})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "no response within 30ms (the request timeout)") || !r.Sent {
		t.Errorf("%+v", r)
	}
}

// A POST on the wire is awaited for the grace after its context ends; a
// GET is not; without a grace the POST ends at once.
func TestDo_sentGrace(t *testing.T) {
	release := make(chan struct{})
	arrived := make(chan struct{}, 10)
	s := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		arrived <- struct{}{}
		<-release
		w.WriteHeader(201)
	})
	p := policy(&fakeClock{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-arrived; cancel(); time.Sleep(30 * time.Millisecond); close(release) }()
	if r := Do(ctx, p, Request{Method: "POST", URL: s.URL}); !r.OK() || r.Status != 201 {
		t.Errorf("within the grace: %+v", r)
	}

	block := make(chan struct{})
	defer close(block)
	s = serve(t, func(http.ResponseWriter, *http.Request) { arrived <- struct{}{}; <-block })
	p.SentGrace = 0
	ctx, cancel = context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	r := Do(ctx, p, Request{Method: "POST", URL: s.URL})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "the caller stopped waiting (context canceled) and no answer came within 0s more") || !r.Sent {
		t.Errorf("no grace: %+v", r)
	}
	p.SentGrace = 20 * time.Millisecond
	ctx, cancel = context.WithCancel(context.Background())
	go func() { <-arrived; cancel() }()
	start := time.Now()
	r = Do(ctx, p, Request{Method: "POST", URL: s.URL})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "no answer came within 20ms more") || time.Since(start) > 5*time.Second {
		t.Errorf("past the grace: %+v", r)
	}
}

// A stream's body is handed over unread; its headers are bounded by the
// request timeout, its body is not.
func TestDo_stream(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(200)
		w.(http.Flusher).Flush()
		time.Sleep(60 * time.Millisecond)
		_, _ = io.WriteString(w, "late")
	})
	p := policy(&fakeClock{})
	p.RequestTimeout = 30 * time.Millisecond
	r := Do(context.Background(), p, Request{Method: "POST", URL: s.URL, Stream: true})
	if !r.OK() || r.Response == nil || r.Body != nil {
		t.Fatalf("%+v", r)
	}
	data, err := io.ReadAll(r.Response.Body)
	if err != nil || string(data) != "late" || r.Response.Body.Close() != nil {
		t.Errorf("%q, %v", data, err)
	}
	// A refusal of a stream is read whole.
	s = serve(t, answer(404, "gone"))
	r = Do(context.Background(), p, Request{Method: "GET", URL: s.URL, Stream: true})
	if r.Response != nil || string(r.Body) != "gone" || r.Status != 404 {
		t.Errorf("refused: %+v", r)
	}
	// So is a 3xx that had nowhere to go.
	s = serve(t, answer(300, "choices"))
	r = Do(context.Background(), p, Request{Method: "GET", URL: s.URL, Stream: true})
	if r.Response != nil || string(r.Body) != "choices" || r.Status != 300 {
		t.Errorf("a 300: %+v", r)
	}
}

// A secret URL's query never reaches an error.
func TestDo_secretURLIsNotInErrors(t *testing.T) {
	p := policy(&fakeClock{})
	p.MaxRetries = 0
	p.Client = &http.Client{Transport: &http.Transport{DialContext: func(context.Context, string, string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("refused")}
	}}}
	r := Do(context.Background(), p, Request{Method: "GET", URL: "https://files.example/b?sig=s3cr3t", SecretURL: true})
	seen := r.Tries[0].Err
	if r.Err == nil || strings.Contains(r.Err.Error(), "s3cr3t") || !strings.Contains(r.Err.Error(), "files.example/b") || seen != r.Err { //nolint:errorlint // the same error
		t.Errorf("%v / %v", r.Err, seen)
	}
	r = Do(context.Background(), p, Request{Method: "GET", URL: "https://files.example/b\x7f?sig=s3cr3t", SecretURL: true})
	if r.Err == nil || strings.Contains(r.Err.Error(), "s3cr3t") {
		t.Errorf("a URL that is no URL: %v", r.Err)
	}
	r = Do(context.Background(), p, Request{Method: "GET", URL: "https://files.example/b?sig=s3cr3t"})
	if r.Err == nil || !strings.Contains(r.Err.Error(), "s3cr3t") {
		t.Errorf("an ordinary URL is named whole: %v", r.Err)
	}
}

func TestBackoff_growsAndIsCapped(t *testing.T) {
	for attempt, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 3: 4 * time.Second, 4: 5 * time.Second, 30: 5 * time.Second} {
		for range 50 {
			if got := Backoff(attempt, time.Second, 5*time.Second); got < want/2 || got > want {
				t.Fatalf("Backoff(%d) = %s, want within [%s, %s]", attempt, got, want/2, want)
			}
		}
	}
}

func TestBackoff_jitterReachesBothEnds(t *testing.T) {
	if got := Backoff(1, 1, 1); got != 0 {
		t.Fatalf("a 1ns backoff is %s: [d/2, d] of 1ns is 0 in whole nanoseconds", got)
	}
	seen := map[time.Duration]bool{}
	for range 200 {
		seen[Backoff(1, 4, 4)] = true
	}
	if !seen[2] || !seen[4] || len(seen) != 3 {
		t.Errorf("jitter of 4ns took %v", seen)
	}
}

func TestParseRetryAfter(t *testing.T) {
	tests := []struct {
		in     string
		want   time.Duration
		wantOK bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{"  12 ", 12 * time.Second, true},
		{"-3", 0, false},
		{"soon", 0, false},
		{"Sat, 21 Nov 2026 12:01:00 GMT", time.Minute, true},
		{"Sat, 21 Nov 2026 11:00:00 GMT", 0, true},
		{"99999999999999999999", 0, false},
		{"9999999999999", time.Duration(9223372036) * time.Second, true},
	}
	for _, tt := range tests {
		if got, ok := ParseRetryAfter(tt.in, epoch); got != tt.want || ok != tt.wantOK {
			t.Errorf("ParseRetryAfter(%q) = %s, %v; want %s, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}

func TestFitsBeforeDeadline(t *testing.T) {
	if !FitsBeforeDeadline(context.Background(), time.Hour) {
		t.Error("no deadline")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if !FitsBeforeDeadline(ctx, time.Second) || FitsBeforeDeadline(ctx, time.Minute) || FitsBeforeDeadline(ctx, time.Hour) {
		t.Error("a minute's deadline")
	}
}

func TestServerFailedTransiently(t *testing.T) {
	for status, want := range map[int]bool{499: false, 500: true, 501: false, 502: true, 503: true, 599: true, 429: false} {
		if ServerFailedTransiently(status) != want {
			t.Errorf("%d", status)
		}
	}
}

// Only what cannot happen once a request is written proves it unsent.
func TestIsPreSendError(t *testing.T) {
	for err, want := range map[error]bool{
		&net.OpError{Op: "dial", Err: errors.New("refused")}:             true,
		&net.OpError{Op: "read", Err: errors.New("reset")}:               false,
		&net.DNSError{Name: "x"}:                                         true,
		&tls.CertificateVerificationError{Err: errors.New("x")}:          true,
		tls.RecordHeaderError{Msg: "x"}:                                  true,
		x509.UnknownAuthorityError{}:                                     true,
		x509.HostnameError{Certificate: &x509.Certificate{}, Host: "x"}:  true,
		fmt.Errorf("wrapped: %w", &net.OpError{Op: "dial", Err: io.EOF}): true,
		io.EOF: false,
		fmt.Errorf("wrapped: %w", &net.OpError{Op: "write", Err: io.EOF}): false,
	} {
		if isPreSendError(err) != want {
			t.Errorf("%#v: want %v", err, want)
		}
	}
}

// Without a trace (a transport of the caller's own), a failure is
// unsent only when it cannot happen after sending.
func TestDo_sentWithoutTrace(t *testing.T) {
	for err, sent := range map[error]bool{&net.DNSError{Name: "x"}: false, io.ErrUnexpectedEOF: true} {
		p := policy(&fakeClock{})
		p.MaxRetries = 0
		p.Client = &http.Client{Transport: roundTripper(func(*http.Request) (*http.Response, error) { return nil, err })}
		if r := Do(context.Background(), p, Request{Method: "POST", URL: "http://127.0.0.1:1/"}); r.Sent != sent {
			t.Errorf("%v: sent %v", err, r.Sent)
		}
	}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A Retry-After of 0 is no wait the server asked for: the backoff still
// spaces the retry.
func TestDo_aZeroRetryAfterBacksOff(t *testing.T) {
	s := serve(t, answer(429, "", "Retry-After", "0"), answer(200, ""))
	clk := &fakeClock{now: epoch}
	r := Do(context.Background(), policy(clk), Request{Method: "POST", URL: s.URL})
	if !r.OK() || len(clk.sleeps) != 1 || clk.sleeps[0] < 500*time.Millisecond || clk.sleeps[0] > time.Second {
		t.Errorf("%+v, slept %v", r, clk.sleeps)
	}
}

// The wall clock's Sleep waits, and stops when its context does.
func TestWallClock(t *testing.T) {
	var clk Clock = WallClock{}
	if d := time.Since(clk.Now()); d < 0 || d > time.Second {
		t.Errorf("Now is %s off", d)
	}
	start := time.Now()
	if err := clk.Sleep(context.Background(), 20*time.Millisecond); err != nil || time.Since(start) < 20*time.Millisecond {
		t.Errorf("slept %s, %v", time.Since(start), err)
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	start = time.Now()
	if err := clk.Sleep(ended, time.Hour); !errors.Is(err, context.Canceled) || time.Since(start) > 5*time.Second {
		t.Errorf("an ended context: %v after %s", err, time.Since(start))
	}
	for _, d := range []time.Duration{0, -time.Second} {
		if err := clk.Sleep(context.Background(), d); err != nil {
			t.Errorf("Sleep(%s) = %v", d, err)
		}
		if err := clk.Sleep(ended, d); !errors.Is(err, context.Canceled) {
			t.Errorf("Sleep(%s) on an ended context = %v", d, err)
		}
	}
}
