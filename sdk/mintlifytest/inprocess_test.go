package mintlifytest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The in-process client gets what a socket client gets, byte for byte,
// headers included.
func TestTransport_answersAsTheSocketDoes(t *testing.T) {
	requests := []struct{ method, path, body, key string }{
		{"POST", "/v2/agent/demo-project/job", `{"prompt":"Document it"}`, DemoAPIKey},
		{"GET", "/v2/agent/demo-project/job/nope", "", DemoAPIKey},
		{"GET", "/v1/analytics/demo-project/visitors?limit=250", "", DemoAPIKey},
		{"GET", "/v1/analytics/demo-project/visitors", "", "mint_wrong"},
		{"GET", "/v3/nowhere", "", DemoAPIKey},
	}
	answers := map[string][]exchange{}
	for _, tr := range transports {
		f := New(Config{Clock: NewManualClock(t0), Analytics: Dataset{Paths: 300}})
		base, c := tr.open(t, f)
		for _, r := range requests {
			req, _ := http.NewRequest(r.method, base+r.path, strings.NewReader(r.body))
			req.Header.Set("Authorization", "Bearer "+r.key)
			resp, err := c.Do(req)
			if err != nil {
				t.Fatalf("%s %s: %v", tr.name, r.path, err)
			}
			data, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			h := resp.Header.Clone()
			h.Del("Date")
			answers[tr.name] = append(answers[tr.name], exchange{status: resp.StatusCode, header: h, body: string(data)})
		}
	}
	if diff := cmp.Diff(answers["socket"], answers["in-process"], cmp.AllowUnexported(exchange{})); diff != "" {
		t.Errorf("socket vs in-process (-socket +in-process):\n%s", diff)
	}
	if got := answers["socket"][2].header.Get("Content-Length"); got == "" || got == "0" {
		t.Errorf("a large answer has Content-Length %q", got)
	}
}

// The handler runs in its own goroutine: RoundTrip returns once the
// headers are flushed, and each read waits for the handler's next write.
func TestTransport_streams(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		step := make(chan struct{})
		var ended atomic.Bool
		var lateWrite atomic.Value
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "first ")
			w.(http.Flusher).Flush()
			<-step
			_, _ = io.WriteString(w, "second ")
			w.(http.Flusher).Flush()
			<-step
			<-r.Context().Done() // the client hangs up
			_, err := io.WriteString(w, "too late")
			lateWrite.Store(err)
			ended.Store(true)
		})
		resp, err := (&inProcessTransport{h: h}).RoundTrip(httptest.NewRequest("GET", "http://mintlify.test/stream", nil).WithContext(context.Background()))
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != 200 || resp.ContentLength != -1 || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("%d, length %d, %v", resp.StatusCode, resp.ContentLength, resp.Header)
		}
		buf := make([]byte, 64)
		n, err := resp.Body.Read(buf)
		if string(buf[:n]) != "first " || err != nil {
			t.Fatalf("first read %q %v", buf[:n], err)
		}
		got := make(chan string)
		go func() {
			n, _ := resp.Body.Read(buf)
			got <- string(buf[:n])
		}()
		synctest.Wait()
		select {
		case s := <-got:
			t.Fatalf("a read returned %q before the handler wrote", s)
		default:
		}
		step <- struct{}{}
		if s := <-got; s != "second " {
			t.Errorf("second read %q", s)
		}
		step <- struct{}{}
		synctest.Wait()
		if ended.Load() {
			t.Fatal("the handler ended before the client hung up")
		}
		resp.Body.Close()
		synctest.Wait()
		if !ended.Load() || !errors.Is(lateWrite.Load().(error), io.ErrClosedPipe) {
			t.Errorf("after the hang-up: ended %v, write %v", ended.Load(), lateWrite.Load())
		}
		if _, err := resp.Body.Read(buf); err == nil {
			t.Error("a read after Close succeeded")
		}
	})
}

// The request's context bounds the whole exchange: the wait for headers,
// then every read, and it ends the handler's context.
func TestTransport_honorsTheContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		handlerSaw := make(chan error, 1)
		headers := make(chan bool)
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if <-headers {
				w.WriteHeader(http.StatusAccepted)
				w.(http.Flusher).Flush()
			}
			<-r.Context().Done()
			handlerSaw <- r.Context().Err()
		})
		tr := &inProcessTransport{h: h}

		// Before the headers: RoundTrip returns the context's error.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		go func() { headers <- false }()
		start := time.Now()
		_, err := tr.RoundTrip(httptest.NewRequest("GET", "http://mintlify.test/", nil).WithContext(ctx))
		if saw := <-handlerSaw; !errors.Is(err, context.DeadlineExceeded) || time.Since(start) != time.Minute || !errors.Is(saw, context.Canceled) {
			t.Errorf("before headers: %v after %s; handler saw %v", err, time.Since(start), saw)
		}

		// After them: the body's read does.
		ctx, cancel = context.WithCancel(context.Background())
		go func() { headers <- true }()
		resp, err := tr.RoundTrip(httptest.NewRequest("GET", "http://mintlify.test/", nil).WithContext(ctx))
		if err != nil || resp.StatusCode != http.StatusAccepted {
			t.Fatalf("%v %v", resp, err)
		}
		readErr := make(chan error)
		go func() { _, err := resp.Body.Read(make([]byte, 1)); readErr <- err }()
		synctest.Wait()
		cancel()
		if err := <-readErr; !errors.Is(err, context.Canceled) {
			t.Errorf("read after cancel: %v", err)
		}
		if saw := <-handlerSaw; !errors.Is(saw, context.Canceled) {
			t.Errorf("the handler's context: %v", saw)
		}
		resp.Body.Close()

		// Already done: nothing is served.
		served := false
		_, err = (&inProcessTransport{h: http.HandlerFunc(func(http.ResponseWriter, *http.Request) { served = true })}).
			RoundTrip(httptest.NewRequest("GET", "http://mintlify.test/", nil).WithContext(ctx))
		synctest.Wait()
		if !errors.Is(err, context.Canceled) || served {
			t.Errorf("a done context: %v, served %v", err, served)
		}
	})
}

// The answer as net/http would frame it: Content-Length for a finished
// answer, none once streaming, sniffed Content-Type, bodyless statuses,
// HEAD, short and long bodies, and the request's own body closed.
func TestTransport_framing(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789"), 300_000) // 3 MB: past the pipe's buffer
	var bodyClosed atomic.Bool
	tests := []struct {
		name        string
		method      string
		handler     http.HandlerFunc
		wantStatus  string
		wantLength  int64
		wantType    string
		wantBody    string
		wantReadErr error
	}{
		{name: "small answer", handler: func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "<html>hi</html>") },
			wantStatus: "200 OK", wantLength: 15, wantType: "text/html; charset=utf-8", wantBody: "<html>hi</html>"},
		{name: "nothing written", handler: func(http.ResponseWriter, *http.Request) {}, wantStatus: "200 OK", wantLength: 0},
		{name: "no content", handler: func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) }, wantStatus: "204 No Content", wantLength: 0},
		{name: "unknown status", handler: func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(599) },
			wantStatus: "599 status code 599", wantLength: 0},
		{name: "informational then final", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(103)
			w.WriteHeader(201)
			w.WriteHeader(500) // superfluous
		}, wantStatus: "201 Created", wantLength: 0},
		{name: "head", method: "HEAD", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"a":1}`)
		}, wantStatus: "200 OK", wantLength: 7, wantType: "application/json"},
		{name: "large answer streams", handler: func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(big) },
			wantStatus: "200 OK", wantLength: -1, wantType: "text/plain; charset=utf-8", wantBody: string(big)},
		{name: "large answer in pieces waits for the reader", handler: func(w http.ResponseWriter, _ *http.Request) {
			for i := 0; i < len(big); i += 64 << 10 {
				_, _ = w.Write(big[i:min(i+64<<10, len(big))])
			}
		}, wantStatus: "200 OK", wantLength: -1, wantType: "text/plain; charset=utf-8", wantBody: string(big)},
		{name: "shorter than its Content-Length", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", "10")
			_, _ = io.WriteString(w, "abc")
		}, wantStatus: "200 OK", wantLength: 10, wantType: "text/plain; charset=utf-8", wantBody: "abc", wantReadErr: io.ErrUnexpectedEOF},
		{name: "longer than its Content-Length", handler: func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Length", "2")
			if _, err := io.WriteString(w, "abc"); !errors.Is(err, http.ErrContentLength) {
				panic("no ErrContentLength")
			}
			_, _ = io.WriteString(w, "ab")
		}, wantStatus: "200 OK", wantLength: 2, wantType: "text/plain; charset=utf-8", wantBody: "ab"},
		{name: "reads the request body, closed after", method: "POST", handler: func(w http.ResponseWriter, r *http.Request) {
			data, _ := io.ReadAll(r.Body)
			if bodyClosed.Load() {
				panic("closed before the handler returned")
			}
			_, _ = w.Write(data)
		}, wantStatus: "200 OK", wantLength: 5, wantType: "text/plain; charset=utf-8", wantBody: "hello"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bodyClosed.Store(false)
			req, _ := http.NewRequest(cmpOr(tt.method, "GET"), "http://mintlify.test/x", nil)
			if tt.method == "POST" {
				req.Body = closeTracker{strings.NewReader("hello"), &bodyClosed}
			}
			resp, err := (&inProcessTransport{h: tt.handler}).RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			data, readErr := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.Status != tt.wantStatus || resp.ContentLength != tt.wantLength || resp.Header.Get("Content-Type") != tt.wantType ||
				string(data) != tt.wantBody || !errors.Is(readErr, tt.wantReadErr) {
				t.Errorf("%q length %d type %q body %d bytes (%v), want %q %d %q %d bytes (%v)", resp.Status, resp.ContentLength,
					resp.Header.Get("Content-Type"), len(data), readErr, tt.wantStatus, tt.wantLength, tt.wantType, len(tt.wantBody), tt.wantReadErr)
			}
			if tt.method == "POST" && !bodyClosed.Load() {
				t.Error("the request body was not closed")
			}
		})
	}
}

type closeTracker struct {
	io.Reader
	closed *atomic.Bool
}

func (c closeTracker) Close() error { c.closed.Store(true); return nil }

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// What the handler sees is what a server sees; what a client trace sees
// is what a connection would report.
func TestTransport_requestAsAServerSeesIt(t *testing.T) {
	var seen *http.Request
	tr := &inProcessTransport{h: http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { seen = r })}
	var events []string
	ctx := httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
		GetConn:              func(hostPort string) { events = append(events, "GetConn "+hostPort) },
		WroteHeaders:         func() { events = append(events, "WroteHeaders") },
		WroteRequest:         func(httptrace.WroteRequestInfo) { events = append(events, "WroteRequest") },
		GotFirstResponseByte: func() { events = append(events, "GotFirstResponseByte") },
	})
	req, _ := http.NewRequestWithContext(ctx, "GET", "https://api.mintlify.test/v1/a%2Fb?x=1", nil)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if seen.RequestURI != "/v1/a%2Fb?x=1" || seen.URL.Path != "/v1/a/b" || seen.URL.EscapedPath() != "/v1/a%2Fb" || seen.URL.Host != "" ||
		seen.Host != "api.mintlify.test" || seen.RemoteAddr != remoteAddr || seen.UserAgent() != "Go-http-client/1.1" || seen.Proto != "HTTP/1.1" ||
		seen.Body != http.NoBody || seen.Context() == ctx {
		t.Errorf("server request %+v", seen)
	}
	want := []string{"GetConn api.mintlify.test:443", "WroteHeaders", "WroteRequest", "GotFirstResponseByte"}
	if diff := cmp.Diff(want, events); diff != "" {
		t.Errorf("trace (-want +got):\n%s", diff)
	}
	for u, want := range map[string]string{"http://h/": "h:80", "http://h:8080/": "h:8080"} {
		req, _ := http.NewRequest("GET", u, nil)
		if got := hostPort(req.URL); got != want {
			t.Errorf("hostPort(%s) = %s", u, got)
		}
	}
	req, _ = http.NewRequest("GET", "http://h/", nil)
	req.Header["User-Agent"] = []string{"mine/1"}
	resp, _ = tr.RoundTrip(req)
	resp.Body.Close()
	if seen.UserAgent() != "mine/1" {
		t.Errorf("User-Agent %q", seen.UserAgent())
	}
	if _, err := tr.RoundTrip(&http.Request{Method: "GET"}); err == nil {
		t.Error("a request without a URL was sent")
	}
	if _, err := tr.RoundTrip(&http.Request{Method: "GET", URL: &url.URL{Scheme: "http", Host: "h", Opaque: "x"}}); err == nil ||
		!strings.Contains(err.Error(), "mintlifytest: in-process request: ") {
		t.Errorf("a request the server could not parse: %v", err)
	}
	// A handler that panics breaks the connection, and the panic is logged.
	var logged bytes.Buffer
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	boom := &inProcessTransport{h: http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic("boom") })}
	if _, err := boom.RoundTrip(req); !errors.Is(err, io.EOF) || !strings.Contains(logged.String(), "mintlifytest: panic serving GET / in process: boom") {
		t.Errorf("panicking handler: %v, logged %q", err, logged.String())
	}
	// A handler that aborts (as net/http's ErrAbortHandler) breaks the
	// connection before its answer.
	abort := &inProcessTransport{h: http.HandlerFunc(func(http.ResponseWriter, *http.Request) { panic(http.ErrAbortHandler) })}
	if _, err := abort.RoundTrip(req); !errors.Is(err, io.EOF) {
		t.Errorf("aborted handler: %v", err)
	}
}

// A job scripted to run for hours, polled once a minute through raw HTTP,
// completes in no wall time inside a synctest bubble: the fake reads the
// bubble's clock, the in-process client needs no socket.
func TestTransport_longJobInASynctestBubble(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := New(Config{})
		c := f.Client()
		start := time.Now()
		call := func(method, path, body string) map[string]any {
			t.Helper()
			got := roundTrip(context.Background(), c, method, "http://mintlify.test"+path, body)
			var m map[string]any
			if got.err != nil || json.Unmarshal([]byte(got.body), &m) != nil {
				t.Fatalf("%s %s: %+v", method, path, got)
			}
			return m
		}
		job := call("POST", "/v2/agent/demo-project/job", `{"prompt":"[fake:active=3h] Rewrite the guides"}`)
		id := job["id"].(string)
		polls := 0
		for job["status"] == "active" {
			time.Sleep(time.Minute)
			job = call("GET", "/v2/agent/demo-project/job/"+id, "")
			polls++
		}
		if job["status"] != "completed" || time.Since(start) != 3*time.Hour || polls != 180 {
			t.Errorf("%v after %s and %d polls, want completed after 3h and 180", job["status"], time.Since(start), polls)
		}
		// A follow-up starts another round of the script, on the same clock.
		call("POST", "/v2/agent/demo-project/job/"+id+"/message", `{"prompt":"[fake:active=90m] and the changelog"}`)
		time.Sleep(90*time.Minute - time.Nanosecond)
		if s := call("GET", "/v2/agent/demo-project/job/"+id, "")["status"]; s != "active" {
			t.Errorf("just before the follow-up's round ends: %v", s)
		}
		time.Sleep(time.Nanosecond)
		if s := call("GET", "/v2/agent/demo-project/job/"+id, "")["status"]; s != "completed" {
			t.Errorf("when the follow-up's round ends: %v", s)
		}
		rec, _ := f.JobRecord(DemoProjectID, id)
		if len(rec.Messages) != 1 || !rec.Messages[0].At.Equal(start.Add(3*time.Hour)) {
			t.Errorf("record %+v", rec)
		}
		// Latency and stalls run on the bubble's clock too.
		f.InjectFault(Fault{Route: RouteAgentJobsGet, Kind: FaultLatency, Latency: 10 * time.Second, Requests: []int{1}})
		f.InjectFault(Fault{Route: RouteAgentJobsGet, Kind: FaultStall, Requests: []int{2}})
		before := time.Now()
		call("GET", "/v2/agent/demo-project/job/"+id, "")
		if d := time.Since(before); d != 10*time.Second {
			t.Errorf("latency took %s", d)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		before = time.Now()
		if got := roundTrip(ctx, c, "GET", "http://mintlify.test/v2/agent/demo-project/job/"+id, ""); !errors.Is(got.err, context.DeadlineExceeded) || time.Since(before) != 30*time.Second {
			t.Errorf("stall: %v after %s", got.err, time.Since(before))
		}
	})
}

func TestManualClock_Sleep(t *testing.T) {
	clk := NewManualClock(t0)
	if err := clk.Sleep(context.Background(), 90*time.Second); err != nil || !clk.Now().Equal(t0.Add(90*time.Second)) {
		t.Errorf("Sleep: %v, now %s", err, clk.Now())
	}
	if err := clk.Sleep(context.Background(), -time.Second); err != nil || !clk.Now().Equal(t0.Add(90*time.Second)) {
		t.Errorf("negative Sleep: %v, now %s", err, clk.Now())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := clk.Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) || !clk.Now().Equal(t0.Add(90*time.Second)) {
		t.Errorf("Sleep with a done context: %v, now %s", err, clk.Now())
	}
	// One clock drives the fake and the client's waits.
	f := New(Config{Clock: clk})
	c := f.Client()
	got := roundTrip(context.Background(), c, "POST", "http://mintlify.test/v2/agent/demo-project/job", `{"prompt":"[fake:active=30s]"}`)
	var job map[string]any
	_ = json.Unmarshal([]byte(got.body), &job)
	for job["status"] == "active" {
		_ = clk.Sleep(context.Background(), 10*time.Second)
		got = roundTrip(context.Background(), c, "GET", "http://mintlify.test/v2/agent/demo-project/job/"+job["id"].(string), "")
		_ = json.Unmarshal([]byte(got.body), &job)
	}
	if !clk.Now().Equal(t0.Add(120 * time.Second)) {
		t.Errorf("the job ended at %s, want 30s after its start", clk.Now())
	}
}

// Off the in-process transport and without a connection to hijack (a
// recorder), breaking the connection aborts the handler as net/http does.
func TestBreakConn_withoutAConnectionAborts(t *testing.T) {
	defer func() {
		if r := recover(); r != http.ErrAbortHandler { //nolint:errorlint // the sentinel itself
			t.Errorf("recovered %v, want http.ErrAbortHandler", r)
		}
	}()
	breakConn(httptest.NewRecorder())
}

// A streaming route writes as it goes, unlocked: the client reads each
// part as it is flushed, budgets and keys still apply, and a reset cuts
// the stream's end off.
func TestStreamingRoute(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		step := make(chan struct{})
		stream := route{name: "message", pattern: "POST /discovery/v2/assistant/{domain}/message", budgets: []string{budgetDiscovery}, stream: true,
			serve: func(s *Fake, w http.ResponseWriter, r *http.Request, _ string, _ *project) {
				w.Header().Set("Content-Type", "text/event-stream")
				for i := range 2 {
					n := s.TotalRequests() // the fake is not locked
					fmt.Fprintf(w, "data: part %d of request %d for %s\n\n", i+1, n, r.PathValue("domain"))
					w.(http.Flusher).Flush()
					<-step
				}
			}}
		f := newFake(Config{Limits: map[string]int{budgetDiscovery: 2}, Faults: []Fault{{Kind: FaultReset, Requests: []int{2}}}}, []route{stream})
		c := f.Client()
		post := func() *http.Response {
			t.Helper()
			req, _ := http.NewRequest("POST", "https://mintlify.test/discovery/v2/assistant/docs.acme.dev/message", strings.NewReader(`{}`))
			req.Header.Set("Authorization", "Bearer "+DemoAPIKey)
			resp, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			return resp
		}
		resp := post()
		buf := make([]byte, 100)
		n, _ := resp.Body.Read(buf)
		if got := string(buf[:n]); got != "data: part 1 of request 1 for docs.acme.dev\n\n" || resp.Header.Get("X-Request-Id") != "req_0000001" || f.RequestLog()[0].Status != 200 {
			t.Errorf("first part %q, headers %v, log %+v", got, resp.Header, f.RequestLog())
		}
		step <- struct{}{}
		n, _ = resp.Body.Read(buf)
		if got := string(buf[:n]); got != "data: part 2 of request 1 for docs.acme.dev\n\n" {
			t.Errorf("second part %q", got)
		}
		step <- struct{}{}
		if rest, err := io.ReadAll(resp.Body); len(rest) != 0 || err != nil {
			t.Errorf("the end: %q %v", rest, err)
		}
		resp.Body.Close()

		// The second request is reset: its parts arrive, its end does not.
		resp = post()
		go func() { step <- struct{}{}; step <- struct{}{} }()
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(data) != "data: part 1 of request 2 for docs.acme.dev\n\ndata: part 2 of request 2 for docs.acme.dev\n\n" || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("reset stream: %q %v", data, err)
		}

		// The budget (2) is spent: a 429, not a stream.
		resp = post()
		data, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 429 || resp.Header.Get("X-RateLimit-Limit") != "2" || !strings.Contains(string(data), "Too many requests") {
			t.Errorf("over the budget: %d %s", resp.StatusCode, data)
		}
	})
}

func TestStreamingRoute_resetOnTheWire(t *testing.T) {
	stream := route{name: "message", pattern: "POST /stream", stream: true,
		serve: func(_ *Fake, w http.ResponseWriter, _ *http.Request, _ string, _ *project) {
			_, _ = io.WriteString(w, "part 1\n")
			w.(http.Flusher).Flush()
			_, _ = io.WriteString(w, "part 2\n")
		}}
	f := newFake(Config{Faults: []Fault{{Kind: FaultReset}}}, []route{stream})
	ts := httptest.NewServer(f)
	defer ts.Close()
	req, _ := http.NewRequest("POST", ts.URL+"/stream", nil)
	req.Header.Set("Authorization", "Bearer "+DemoAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(data) != "part 1\npart 2\n" || !errors.Is(err, io.ErrUnexpectedEOF) || f.RequestLog()[0].Status != 200 {
		t.Errorf("%q %v, log %+v", data, err, f.RequestLog())
	}
}
