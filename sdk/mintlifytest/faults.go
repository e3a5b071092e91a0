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
// Body, or one mistyped and cut short. The request is not served.
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

// malformedBody is the body of a FaultMalformed without one.
const malformedBody = `{"id":42,"status":["active"],"createdAt":`

// Fault is an injection rule. It applies to requests of Route (a Route
// constant; "" for all) and Method ("" for all). Which of those it hits:
// the 1-based positions in Requests, or else each with Probability (drawn
// from Seed), or else every one. Kind says what it does to them, or
// Respond does.
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
	// Latency of a FaultLatency, or between the parts of a
	// FaultSlowStream.
	Latency time.Duration
	// Message and Details of a FaultClientError's body (Message "": the
	// status text).
	Message string
	Details []string
	// Body of a FaultMalformed ("": an object whose id is a number and
	// status a list, cut off mid-way).
	Body string
	// Field a FaultOddField mistypes ("": "createdAt").
	Field string
	// Text, like Body, Field and Latency, is a parameter a Respond of
	// your own may read.
	Text string
	// Respond, when set, answers the requests the rule hits, whatever
	// Kind (which then only names the fault in the request log): a fault
	// of your own. serve is what would have answered them: the route,
	// behind its key, project and budget checks. Respond may call it (with
	// a writer of its own, to pace or change the answer), or answer
	// alone. The request's context ends when the client hangs up or the
	// fake stops (Stop); a stop also breaks the connection, so that an
	// answer it cut short never looks whole.
	Respond func(w http.ResponseWriter, r *http.Request, serve http.Handler)
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

// apply carries out the fault on a request. It returns false when the
// request should still be served (latency, reset, slow stream, odd field).
func (f *faultState) apply(w http.ResponseWriter, r *http.Request, stopping <-chan struct{}) bool {
	switch f.Kind {
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
		body := cmp.Or(f.Body, malformedBody)
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
	default: // FaultReset, FaultSlowStream, FaultOddField (the answer's own), and kinds this version does not know
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
