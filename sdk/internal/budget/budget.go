// Package budget is what a client knows of one of the API's rate-limited
// budgets: until when it is spent, and whether requests on it go out
// together or one at a time (a probe) while nobody knows whether it is
// spent.
//
// It is separate from package sdk because it is pure state under a lock:
// no requests, no errors, no cache. Package sdk decides what a refusal
// means (how long to believe it, whether to write it beside the cache)
// and sends the requests the gate lets through.
package budget

import (
	"sync"
	"time"
)

// Gate is one budget's state. Its zero value is a budget not known to be
// spent, whose first request goes alone (the probe). Safe for concurrent
// use.
type Gate struct {
	mu         sync.Mutex
	spentUntil time.Time
	// open is set once a request got an answer other than a rate limit:
	// requests then go out together. Until then (and after a refusal) one
	// goes at a time.
	open      bool
	probing   bool
	probeDone chan struct{}
}

// Until returns when the budget frees up if it is known to be spent at
// now, else the zero time.
func (g *Gate) Until(now time.Time) time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.spentUntil.After(now) {
		return g.spentUntil
	}
	return time.Time{}
}

// Open says whether requests go out together (an answer came since the
// last refusal).
func (g *Gate) Open() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.open
}

// Hold remembers that the budget is spent until then (or later, if that
// was known), and closes the gate (one request at a time once it frees
// up). It returns until when the budget is now held spent.
func (g *Gate) Hold(until time.Time) time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	if until.After(g.spentUntil) {
		g.spentUntil = until
	}
	g.open = false
	return g.spentUntil
}

// Learn takes in that another program found the budget spent until then:
// it is held, and the gate closed, only when that is later than known.
func (g *Gate) Learn(until time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if until.After(g.spentUntil) {
		g.spentUntil, g.open = until, false
	}
}

// Enter lets a request through: at once when requests are going through;
// as the probe when none is in flight; otherwise it returns a channel
// closed when the probe in flight is answered (then enter again).
func (g *Gate) Enter() (wait <-chan struct{}, probe bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.open:
		return nil, false
	case !g.probing:
		g.probing, g.probeDone = true, make(chan struct{})
		return nil, true
	}
	return g.probeDone, false
}

// Settle ends a request Enter let through: answered says the API answered
// it with anything but a rate limit, which opens the gate.
func (g *Gate) Settle(probe, answered bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if answered {
		g.open = true
	}
	if probe {
		g.probing = false
		close(g.probeDone)
	}
}
