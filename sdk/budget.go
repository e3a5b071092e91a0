package sdk

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"sync"
	"time"
)

// The known-spent analytics budget.
//
// The organization's analytics requests (100 an hour) are shared by every
// program that reads them. When the API refuses one with a rate limit, it
// says until when (Retry-After); until then every analytics request would
// be refused too, and each refusal may count against the budget. So the
// client remembers that time, in memory and beside the cache (a file in
// the directory, an object in the bucket), per base URL and API key (the
// key's fingerprint, never the key): until then, no analytics request is
// sent, by this program or any other sharing the cache. A read then serves
// a copy younger than MaxStale, or fails at once with a 429 *APIError
// whose NotSent is set.
//
// A program that does not yet know whether the budget is spent sends one
// analytics request at a time (the probe) until one gets an answer: the
// concurrent reads of a plan then cost one refused request in all, not one
// each.

// maxSpentAhead bounds how far ahead a spent budget is believed: a
// Retry-After of days (or a record saying so) is not trusted past it.
const maxSpentAhead = 24 * time.Hour

// unknownSpentHold is how long a 429 that said nothing of when to come
// back keeps this program from asking again: it is not written beside the
// cache, since nobody said how long the budget is spent.
const unknownSpentHold = time.Minute

// analyticsBudget is what a client knows of the analytics budget.
type analyticsBudget struct {
	mu         sync.Mutex
	spentUntil time.Time
	// open is set once an analytics request got an answer other than a
	// rate limit: requests then go out together. Until then (and after a
	// refusal) one goes at a time.
	open      bool
	probing   bool
	probeDone chan struct{}
}

// until returns when the budget frees up if it is known to be spent at
// now, else the zero time.
func (b *analyticsBudget) until(now time.Time) time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.spentUntil.After(now) {
		return b.spentUntil
	}
	return time.Time{}
}

// budgetName names the spent-budget record of a base URL and key.
func (c *analyticsCache) budgetName(base string) string {
	sum := sha256.Sum256([]byte("budget\x00" + base + "\x00" + c.who))
	return "budget-" + hex.EncodeToString(sum[:16]) + ".json"
}

// refresh reads the spent budget another program recorded beside the
// cache. A record from the future, or spent further ahead than
// maxSpentAhead, is not believed.
func (b *analyticsBudget) refresh(ctx context.Context, k *core) {
	c := k.cache
	if c == nil {
		return
	}
	base := k.baseURL.String()
	now := k.clock.Now()
	r, ok := c.load(ctx, c.budgetName(base), kindBudget, base, now, maxRecordBytes)
	if !ok || !r.Until.After(now) || r.Until.After(now.Add(maxSpentAhead+clockSkew)) {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if r.Until.After(b.spentUntil) {
		b.spentUntil, b.open = r.Until, false
	}
}

// record remembers that the budget is spent until then (at most
// maxSpentAhead from now; a time already past is ignored), and writes it
// beside the cache when persist is set.
func (b *analyticsBudget) record(ctx context.Context, k *core, until time.Time, persist bool) {
	now := k.clock.Now()
	if !until.After(now) {
		return
	}
	until = minTime(until, now.Add(maxSpentAhead))
	b.mu.Lock()
	if until.After(b.spentUntil) {
		b.spentUntil = until
	}
	b.open = false
	until = b.spentUntil
	b.mu.Unlock()
	if c := k.cache; persist && c != nil {
		base := k.baseURL.String()
		c.save(ctx, c.budgetName(base), record{Kind: kindBudget, Key: base, At: now, Until: until})
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// enter lets an analytics request through: at once when requests are
// going through; as the probe when none is in flight; otherwise it
// returns a channel closed when the probe in flight is answered.
func (b *analyticsBudget) enter() (wait <-chan struct{}, probe bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case b.open:
		return nil, false
	case !b.probing:
		b.probing, b.probeDone = true, make(chan struct{})
		return nil, true
	}
	return b.probeDone, false
}

// settle ends a request: answered says the API answered it with anything
// but a rate limit, which opens the gate.
func (b *analyticsBudget) settle(probe, answered bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if answered {
		b.open = true
	}
	if probe {
		b.probing = false
		close(b.probeDone)
	}
}

// analyticsGet sends an analytics GET unless the budget is known to be
// spent (then it fails at once with a NotSent 429), one at a time while it
// is not known whether the budget is spent, and remembers a rate limit the
// API answered.
func (k *core) analyticsGet(ctx context.Context, c call) ([]byte, ResponseInfo, error) {
	for {
		if until := k.budget.until(k.clock.Now()); !until.IsZero() {
			return nil, ResponseInfo{}, k.notSent(c, until)
		}
		wait, probe := k.budget.enter()
		if wait != nil {
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ResponseInfo{}, &RequestError{Method: c.method, Path: c.path, Err: ctx.Err()}
			}
		}
		data, info, err := k.roundTrip(ctx, c)
		var apiErr *APIError
		limited := errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusTooManyRequests
		if limited {
			if apiErr.RetryAt.IsZero() {
				k.budget.record(ctx, k, k.clock.Now().Add(unknownSpentHold), false)
			} else {
				k.budget.record(ctx, k, apiErr.RetryAt, true)
			}
		}
		k.budget.settle(probe, err == nil || (apiErr != nil && !limited))
		return data, info, err
	}
}

// notSent is the error of an analytics request not sent because the
// budget is known to be spent until then.
func (k *core) notSent(c call, until time.Time) *APIError {
	return &APIError{StatusCode: http.StatusTooManyRequests, Method: c.method, Path: c.path,
		Message:    "the organization's analytics budget is spent",
		RetryAfter: until.Sub(k.clock.Now()), RetryAt: until, NotSent: true}
}

// RateLimitedByAPI reports whether err is a rate limit the API answered
// (a 429 that was sent, unlike one with NotSent). The client then knows
// the budget is spent: when such an error ends an analytics read after
// some of its pages were handed out, reading again sends no request. It
// is served whole by the cache's copy (younger than MaxStale), or fails
// at once with NotSent. PagedEndpoint.All reads again by itself; a caller
// of Each or Pages may do the same.
func RateLimitedByAPI(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusTooManyRequests && !apiErr.NotSent
}

// IsNotSent reports whether err is a rate limit the client answered
// itself, sending nothing, because the analytics budget is known to be
// spent (APIError.NotSent).
func IsNotSent(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.NotSent
}
