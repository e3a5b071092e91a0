package mintlifytest

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"time"
)

// FaultKind is a way the fake misbehaves on purpose.
type FaultKind string

// The injectable faults.
const (
	FaultRateLimit      FaultKind = "rate-limit"      // 429 with Retry-After
	FaultServerError    FaultKind = "server-error"    // 5xx with an HTML body, as from a proxy
	FaultDropConnection FaultKind = "drop-connection" // close the connection, no response
	FaultLatency        FaultKind = "latency"         // wait, then serve normally
)

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
	// Status of a FaultServerError (0: 502).
	Status int
	// RetryAfter of a FaultRateLimit, sent in whole seconds rounded up;
	// negative sends no Retry-After header.
	RetryAfter time.Duration
	// Latency of a FaultLatency.
	Latency time.Duration
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

const badGatewayPage = `<html>
<head><title>%d Bad Gateway</title></head>
<body>
<center><h1>%d Bad Gateway</h1></center>
<hr><center>nginx</center>
</body>
</html>
`

// apply carries out the fault. It returns false when the request should
// still be served (latency).
func (f *faultState) apply(w http.ResponseWriter, r *http.Request, stopping <-chan struct{}) bool {
	switch f.Kind {
	case FaultRateLimit:
		if f.RetryAfter >= 0 {
			w.Header().Set("Retry-After", fmt.Sprint(int64((f.RetryAfter+time.Second-1)/time.Second)))
		}
		writeError(w, http.StatusTooManyRequests, "Too many requests", "rate limit exceeded")
	case FaultServerError:
		status := f.Status
		if status == 0 {
			status = http.StatusBadGateway
		}
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(status)
		fmt.Fprintf(w, badGatewayPage, status, status)
	case FaultDropConnection:
		hj, ok := w.(http.Hijacker)
		if !ok {
			panic(http.ErrAbortHandler)
		}
		conn, _, err := hj.Hijack()
		if err == nil {
			_ = conn.Close()
		}
	case FaultLatency:
		// Read the body first: only then does net/http watch the
		// connection, so a client that hangs up ends the wait.
		data, err := io.ReadAll(r.Body)
		if err != nil {
			return true
		}
		r.Body = io.NopCloser(bytes.NewReader(data))
		t := time.NewTimer(f.Latency)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return true
		case <-stopping:
			return true
		}
		return false
	}
	return true
}
