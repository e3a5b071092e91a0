package mintlifytest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"
)

// FaultKind is a way the fake misbehaves on purpose.
type FaultKind string

// The injectable faults: each is a way a client must tell an answer apart.

// FaultRateLimit means: 429 with Retry-After, without serving the request.
const FaultRateLimit FaultKind = "rate-limit"

// FaultServerError means: a 5xx (Status, default 502) with an HTML body, as
// from a proxy, without serving the request.
const FaultServerError FaultKind = "server-error"

// FaultClientError means: a 4xx (Status, default 400) with the API's JSON
// error body, {"error": Message or the status text, "details": [...]},
// without serving the request.
const FaultClientError FaultKind = "client-error"

// FaultMalformed means: a 2xx (Status, default 200) whose JSON body is
// Body, or DefaultMalformedBody: mistyped and cut short. The request is not
// served.
const FaultMalformed FaultKind = "malformed"

// FaultDropConnection means: the connection closes before any answer; the
// request is not served. A client sees an error from its round trip
// (EOF).
const FaultDropConnection FaultKind = "drop-connection"

// FaultReset means: the request is served (it takes effect), the answer's
// status and headers are sent with half its body, and the connection
// breaks. A client gets the response, then an error reading its body
// (unexpected EOF).
const FaultReset FaultKind = "reset"

// FaultStall means: the request is read and never answered, until the
// client gives up (its context ends) or the server stops; then the
// connection closes. The request is not served.
const FaultStall FaultKind = "stall"

// FaultLatency means: wait Latency, then serve normally.
const FaultLatency FaultKind = "latency"

// FaultSlowStream means: a streamed answer (an assistant message) is
// served, its parts Latency apart; on other routes, no fault.
const FaultSlowStream FaultKind = "slow-stream"

// FaultOddField means: the request is served (it takes effect) and its 2xx
// JSON answer arrives with the top-level field Field ("createdAt" when
// empty) holding a number: a schema change, or a proxy that rewrites
// answers. A client must keep what it can use (the id) and never do
// the request again. Answers that are not a JSON object, or lack the
// field, pass unchanged.
const FaultOddField FaultKind = "odd-field"

// The hostile server's faults: answers a client must bound, escape, check
// or scrub (hostile.go). Those that never end stop when the client hangs
// up or the server stops (Stop, Server.Close).

// FaultEndlessEvent means: a 200 event stream whose one event never ends:
// `data:` lines (each Body, or 1 KiB of x) without the blank line that
// would end the event. On the v1 assistant route (a line-per-part
// stream), one line that never ends. The request is not served.
const FaultEndlessEvent FaultKind = "endless-event"

// FaultEmptyDeltas means: a 200 assistant stream of parts that carry
// nothing, without end: a start and a text-start, then empty text
// deltas (v1: a start-step, then `0:""` lines). Body, when set, is the
// part repeated instead (v2: an event's JSON, such as
// {"type":"start-step"}; v1: a CODE:JSON line). The request is not
// served.
const FaultEmptyDeltas FaultKind = "empty-deltas"

// FaultEndlessBody means: a 200 whose body announces no size (no
// Content-Length: chunked on the wire) and never ends: Body, then
// filler forever. Without Body, the bundle download route sends a gzip
// header then zeros (an archive that never ends), other routes
// `{"data":"` then x's. The request is not served.
const FaultEndlessBody FaultKind = "endless-body"

// FaultTrickle means: the request is served, and its answer (headers at
// once, with the Content-Length they would have) arrives one byte
// every Latency (0: one second), streamed answers too. A client's
// idle timer never fires; only a bound on the whole answer ends it.
const FaultTrickle FaultKind = "trickle"

// FaultControlText means: the request is served, and the server text of its
// JSON answer carries terminal control sequences: Text, or
// DefaultControlText, appended to every string (or string in a list)
// under a key named summary, logs, error, title, messageToUser,
// message or errorText, at any depth: a deployment's summary and log
// lines, an export's error, a listed job's title, an error body's
// message and details. Answers that are not JSON pass unchanged.
const FaultControlText FaultKind = "control-text"

// FaultUnreadableID means: the request is served (the job, deployment,
// preview or export exists) and its answer names it by an id a client
// cannot read it back by: Text, or DefaultUnreadableID. The id is the
// top-level Field when set; else, by route: id (create job), statusId
// (trigger a deployment or a preview), jobId (start an export), and on
// the job listing the first row's sessionId. Other answers pass
// unchanged.
const FaultUnreadableID FaultKind = "unreadable-id"

// FaultEchoSecret means: the request is served and its JSON answer repeats
// a secret of the exchange in its top-level Field (default expiresAt
// on a bundle answer, createdAt elsewhere), after the field's own
// text: a bundle answer, its link's signature (X-Amz-Signature); any
// other, the request's API key.
const FaultEchoSecret FaultKind = "echo-secret"

// DefaultControlText is what FaultControlText appends to server text: a
// screen clear, a cursor home, a green "Apply complete!", a window title,
// a carriage return, a bell and a right-to-left override.
const DefaultControlText = "\x1b[2J\x1b[H\x1b[32mApply complete! Resources: 0 added.\x1b[0m\x1b]0;pwned\x07\r\u202eevil"

// DefaultUnreadableID is the id FaultUnreadableID answers with: a slash
// would change the path a client reads the object back by.
const DefaultUnreadableID = "a/b"

// DefaultMalformedBody is the body of a FaultMalformed without one: an
// object whose id is a number and status a list, cut off mid-way.
const DefaultMalformedBody = `{"id":42,"status":["active"],"createdAt":`

// Fault is an injection rule. It applies to requests of Route (a Route
// constant; "" for all) and Method ("" for all). Which of those it hits:
// the 1-based positions in Requests, or else each with Probability (drawn
// from Seed), or else every one.
type Fault struct {
	Route       string
	Method      string
	Kind        FaultKind
	Requests    []int
	Probability float64
	Seed        uint64
	// Status of a FaultServerError (0: 502), FaultClientError (0: 400) or
	// FaultMalformed (0: 200).
	Status int
	// RetryAfter of a FaultRateLimit, sent in whole seconds rounded up;
	// negative sends no Retry-After header.
	RetryAfter time.Duration
	// Latency of a FaultLatency, between the parts of a FaultSlowStream,
	// or between the bytes of a FaultTrickle.
	Latency time.Duration
	// Message and Details of a FaultClientError's body (Message "": the
	// status text).
	Message string
	Details []string
	// Body of a FaultMalformed ("": DefaultMalformedBody); the line of a
	// FaultEndlessEvent, the part of FaultEmptyDeltas, the start of a
	// FaultEndlessBody.
	Body string
	// Field a FaultOddField mistypes ("": "createdAt"), a FaultEchoSecret
	// fills, or a FaultUnreadableID replaces.
	Field string
	// Text is what a FaultControlText appends ("": DefaultControlText),
	// or the id a FaultUnreadableID answers ("": DefaultUnreadableID).
	Text string
}

type faultState struct {
	Fault
	seen int
	rng  *rand.Rand
	hits int
}

// InjectFault adds a rule; rules are tried in the order added and the
// first that hits a request applies.
func (s *Fake) InjectFault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &faultState{Fault: f, rng: rand.New(rand.NewPCG(f.Seed, f.Seed^0x5bd1e995))})
}

// ClearFaults removes every rule.
func (s *Fake) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// FaultHits returns how many requests each rule has hit, in the order added.
func (s *Fake) FaultHits() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	hits := make([]int, len(s.faults))
	for i, f := range s.faults {
		hits[i] = f.hits
	}
	return hits
}

// matchFault is called with s.mu held. Every matching rule counts the
// request, so positions in Requests are stable whatever other rules do.
func (s *Fake) matchFault(route, method string) *faultState {
	var hit *faultState
	for _, f := range s.faults {
		if (f.Route != "" && f.Route != route) || (f.Method != "" && f.Method != method) {
			continue
		}
		f.seen++
		fires := false
		switch {
		case len(f.Requests) > 0:
			fires = slices.Contains(f.Requests, f.seen)
		case f.Probability > 0:
			fires = f.rng.Float64() < f.Probability
		default:
			fires = true
		}
		if fires && hit == nil {
			f.hits++
			hit = f
		}
	}
	return hit
}

const serverErrorPage = `<html>
<head><title>%[1]d %[2]s</title></head>
<body>
<center><h1>%[1]d %[2]s</h1></center>
<hr><center>nginx</center>
</body>
</html>
`

// statusText is the reason phrase of an error status, or of its class
// when the status has none of its own (499, 599).
func statusText(code int) string {
	if t := http.StatusText(code); t != "" {
		return t
	}
	if code/100 == 4 {
		return "Client Error"
	}
	return "Server Error"
}

// apply carries out the fault on a request of the route pattern. It
// returns false when the request should still be served (latency, reset,
// and the faults that change a served answer).
func (f *faultState) apply(w http.ResponseWriter, r *http.Request, pattern string, stopping <-chan struct{}) bool {
	switch f.Kind {
	case FaultEndlessEvent:
		f.endlessEvent(w, r, pattern, stopping)
	case FaultEmptyDeltas:
		f.emptyDeltas(w, r, pattern, stopping)
	case FaultEndlessBody:
		f.endlessBody(w, r, pattern, stopping)
	case FaultRateLimit:
		if f.RetryAfter >= 0 {
			w.Header().Set("Retry-After", fmt.Sprint(int64((f.RetryAfter+time.Second-1)/time.Second)))
		}
		writeError(w, http.StatusTooManyRequests, "Too many requests", "rate limit exceeded")
	case FaultServerError:
		status := cmp.Or(f.Status, http.StatusBadGateway)
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(status)
		fmt.Fprintf(w, serverErrorPage, status, statusText(status))
	case FaultClientError:
		status := cmp.Or(f.Status, http.StatusBadRequest)
		writeError(w, status, cmp.Or(f.Message, statusText(status)), f.Details...)
	case FaultMalformed:
		body := cmp.Or(f.Body, DefaultMalformedBody)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(cmp.Or(f.Status, http.StatusOK))
		_, _ = io.WriteString(w, body)
	case FaultDropConnection:
		breakConn(w)
	case FaultStall:
		// Read the body first: only then does net/http watch the
		// connection, so a client that hangs up ends the wait.
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done():
		case <-stopping:
		}
		breakConn(w)
	case FaultLatency:
		data, err := io.ReadAll(r.Body)
		if err != nil {
			breakConn(w)
			return true
		}
		r.Body = io.NopCloser(bytes.NewReader(data))
		t := time.NewTimer(f.Latency)
		defer t.Stop()
		select {
		case <-t.C:
			return false
		case <-r.Context().Done():
		case <-stopping:
		}
		breakConn(w)
	default: // FaultReset, FaultSlowStream (the route's own), the faults that change a served answer, and kinds this version does not know
		return false
	}
	return true
}

// oddField is body with its top-level field turned into a number, or body
// unchanged when it is not a JSON object holding the field.
func oddField(body []byte, field string) []byte {
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil {
		return body
	}
	field = cmp.Or(field, "createdAt")
	if _, ok := obj[field]; !ok {
		return body
	}
	obj[field] = json.RawMessage(`12345`)
	odd, err := json.Marshal(obj)
	if err != nil {
		return body
	}
	return odd
}

// connBreaker is a response writer that fails its connection as a client
// would see it: the in-process transport's.
type connBreaker interface {
	breakConn()
}

// breakConn closes the request's connection at once: before the answer,
// the client's round trip fails; after its headers, the read of its body.
func breakConn(w http.ResponseWriter) {
	for x := w; ; {
		if b, ok := x.(connBreaker); ok {
			b.breakConn()
			return
		}
		u, ok := x.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			break
		}
		x = u.Unwrap()
	}
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler) // net/http aborts the connection
	}
	_ = conn.Close()
}
