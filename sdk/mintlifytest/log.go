package mintlifytest

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// LoggedRequest is one request as the server received it, and how it
// answered. The API key is never kept: Org says whose it was.
type LoggedRequest struct {
	// Route is a Route constant, or RouteUnmatched.
	Route string
	// Method, Path (escaped, as sent) and Query (raw) are the request line.
	Method string
	Path   string
	Query  string
	// Body is the request body, cut at 64 KiB.
	Body string
	// PathValues are the route's path values ({projectId}, {id}, ...),
	// decoded, as the handler sees them; ProjectID and JobID are two of
	// them (JobID: {jobId}, or {id} on the agent job routes).
	PathValues map[string]string
	ProjectID  string
	JobID      string
	// Org is the organization of the request's API key ("" for a missing
	// or unknown key).
	Org       string
	UserAgent string
	// RequestID is the X-Request-Id the fake answered with ("req_0000001",
	// counting up from 1 for each Fake).
	RequestID string
	// Status is the status code the fake answered, faulted answers
	// included; 0 until it answers, and for a dropped connection or a
	// stall.
	Status int
	// Fault is the kind of the injected fault that hit the request, if any.
	Fault FaultKind
	// Time is when the request arrived, on the fake's clock.
	Time time.Time
}

// maxLoggedBody is how much of a request body the log keeps.
const maxLoggedBody = 64 << 10

// logEntry is a logged request and what the fake knows of it.
type logEntry struct {
	LoggedRequest
	claimed bool // a route (or the catch-all) served it
	done    bool // its handler returned: the answer is whole, or abandoned
}

type entryKey struct{}

// RequestLog returns every request received, in order, faulted ones included.
func (s *Fake) RequestLog() []LoggedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]LoggedRequest, len(s.log))
	for i, e := range s.log {
		out[i] = e.LoggedRequest
		out[i].PathValues = maps.Clone(e.PathValues)
	}
	return out
}

// RequestsTo returns the requests logged for a route (a Route constant,
// or RouteUnmatched), in order.
func (s *Fake) RequestsTo(route string) []LoggedRequest {
	var out []LoggedRequest
	for _, r := range s.RequestLog() {
		if r.Route == route {
			out = append(out, r)
		}
	}
	return out
}

// arrive logs a request as it arrives, and gives it its request id. The
// body it keeps is read now; the handler reads it all the same.
func (s *Fake) arrive(r *http.Request) *logEntry {
	var body []byte
	if r.Body != nil && r.Body != http.NoBody {
		body, _ = io.ReadAll(io.LimitReader(r.Body, maxLoggedBody))
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requestSeq++
	e := &logEntry{LoggedRequest: LoggedRequest{
		Route: RouteUnmatched, Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.RawQuery, Body: string(body),
		UserAgent: r.UserAgent(), RequestID: fmt.Sprintf("req_%07d", s.requestSeq), Time: s.clock.Now(),
	}}
	if token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		e.Org = s.keys[token].org
	}
	s.log = append(s.log, e)
	return e
}

// tracker is the response writer of a request: it records the status the
// fake answered in the log.
type tracker struct {
	http.ResponseWriter
	s     *Fake
	e     *logEntry
	wrote bool
}

func (t *tracker) WriteHeader(code int) {
	t.record(code)
	t.ResponseWriter.WriteHeader(code)
}

func (t *tracker) Write(p []byte) (int, error) {
	t.record(http.StatusOK)
	return t.ResponseWriter.Write(p)
}

// Flush sends what was written, the headers at least.
func (t *tracker) Flush() {
	t.record(http.StatusOK)
	_ = http.NewResponseController(t.ResponseWriter).Flush()
}

// Unwrap lets http.ResponseController reach the connection.
func (t *tracker) Unwrap() http.ResponseWriter { return t.ResponseWriter }

func (t *tracker) record(code int) {
	if t.wrote || code < 200 {
		return
	}
	t.wrote = true
	t.s.mu.Lock()
	t.e.Status = code
	t.s.mu.Unlock()
}

// recorder collects a handler's answer while the fake is locked, to send
// it once unlocked: a client that reads slowly never holds the fake up.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *recorder) Write(p []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(p)
}

// start sends the recorded headers, with the body's length.
func (r *recorder) start(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range r.header {
		h[k] = v
	}
	h.Set("Content-Length", strconv.Itoa(r.body.Len()))
	w.WriteHeader(max(r.status, http.StatusOK))
}

// send sends the recorded answer.
func (r *recorder) send(w http.ResponseWriter) {
	r.start(w)
	_, _ = w.Write(r.body.Bytes())
}

// cut sends the recorded status and headers and half the body, then
// breaks the connection: the answer a FaultReset gives.
func (r *recorder) cut(w http.ResponseWriter) {
	r.start(w)
	_, _ = w.Write(r.body.Bytes()[:r.body.Len()/2])
	_ = http.NewResponseController(w).Flush()
	breakConn(w)
}
