// Package budget is what a client knows of the API's rate-limited
// budgets, and the one gate every request on a budget passes.
//
// When the API refuses a request with a rate limit longer than the client
// waits, every request on that budget would be refused until Retry-After
// (and may count against it). The client remembers that time
// (Budget.Refused) and sends nothing on the budget until then: Admit
// returns the Spent budget, which package sdk makes a NotSent 429. A
// budget may be Shared beside the analytics cache, per base URL and key
// fingerprint, so other programs know it too. Until a budget is known not
// to be spent, requests on it go one at a time (the probe): a plan's
// concurrent reads cost one refusal in all.
package budget

import (
	"context"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
)

// MaxAhead bounds how far ahead a spent budget is believed: a Retry-After
// of days (or a record saying so) is not trusted past it.
const MaxAhead = 24 * time.Hour

// UnknownHold is how long a rate limit that said nothing of when to come
// back keeps this program from asking again: it is not shared, since
// nobody said how long the budget is spent.
const UnknownHold = time.Minute

// Budget is one rate-limited budget as a client knows it: until when it
// is spent, and its probe. Its zero value is a budget not known to be
// spent, whose first request goes alone. Safe for concurrent use.
type Budget struct {
	// Name is the budget in the words of errors: "the organization's
	// discovery budget".
	Name string
	// Shared, when set, is the analytics cache the budget is also
	// recorded beside, and read from, under Base (the API's address).
	Shared *analyticscache.Cache
	Base   string

	mu         sync.Mutex
	spentUntil time.Time
	// open is set once a request got an answer other than a rate limit:
	// requests then go out together. Until then (and after a refusal) one
	// goes at a time.
	open      bool
	probing   bool
	probeDone chan struct{}
}

// Refresh takes in the spent budget another program recorded beside the
// cache. A record from the future, or spent further ahead than MaxAhead,
// is not believed.
func (b *Budget) Refresh(ctx context.Context, now time.Time) {
	if b.Shared == nil {
		return
	}
	until, ok := b.Shared.SpentUntil(ctx, b.Base, now)
	if !ok || !until.After(now) || until.After(now.Add(MaxAhead+analyticscache.ClockSkew)) {
		return
	}
	b.learn(until)
}

// Spent reports whether the budget is known to be spent at now, another
// program's record beside the cache taken in first (Refresh).
func (b *Budget) Spent(ctx context.Context, now time.Time) bool {
	b.Refresh(ctx, now)
	return !b.Until(now).IsZero()
}

// Refused remembers a rate limit the API answered at now: spent until
// retryAt (at most MaxAhead from now; a time already past is ignored), or
// for UnknownHold when it said nothing (a zero retryAt). A time it said is
// recorded beside the cache when the budget is Shared.
func (b *Budget) Refused(ctx context.Context, now, retryAt time.Time) {
	until := retryAt
	if retryAt.IsZero() {
		until = now.Add(UnknownHold)
	}
	if !until.After(now) {
		return
	}
	if ceiling := now.Add(MaxAhead); until.After(ceiling) {
		until = ceiling
	}
	until = b.Hold(until)
	if b.Shared != nil && !retryAt.IsZero() {
		b.Shared.SaveSpent(ctx, b.Base, now, until)
	}
}

// Spent is a budget known to be spent when a request was to draw on it:
// its name, when it frees up, and how long that was from then.
type Spent struct {
	Name  string
	Until time.Time
	Left  time.Duration
}

// Answer is how the API answered a request Admit let through.
type Answer struct {
	// RateLimited: it refused the request with a rate limit, to be tried
	// again at RetryAt (zero: it did not say).
	RateLimited bool
	RetryAt     time.Time
	// Answered: it answered with anything but a rate limit (an error
	// included); false, too, when no answer came.
	Answered bool
}

// Admitted is a request Admit let through: Done says how it ended.
type Admitted struct {
	b     *Budget
	probe bool
}

// Admit lets one request on b through, unless b or one of also is known
// to be spent at now(): then it returns the one that frees up last, and
// nothing may be sent. While it is not known whether b is spent, requests
// go one at a time (the probe): the others wait for its answer, and
// return ctx.Err() if ctx ends first. The caller sends the request once
// (a short rate limit is waited out inside it: only its final refusal
// counts), then calls Done.
func (b *Budget) Admit(ctx context.Context, now func() time.Time, also ...*Budget) (Admitted, *Spent, error) {
	for {
		if spent := spentLast(now(), append([]*Budget{b}, also...)); spent != nil {
			return Admitted{}, spent, nil
		}
		wait, probe := b.enter()
		if wait == nil {
			return Admitted{b: b, probe: probe}, nil, nil
		}
		select {
		case <-wait:
		case <-ctx.Done():
			return Admitted{}, nil, ctx.Err()
		}
	}
}

// Done ends a request Admit let through, answered at now: a rate limit is
// remembered in its budget (Refused), and any other answer opens the gate.
func (a Admitted) Done(ctx context.Context, now time.Time, answer Answer) {
	if answer.RateLimited {
		a.b.Refused(ctx, now, answer.RetryAt)
	}
	a.b.settle(a.probe, answer.Answered)
}

// spentLast is the budget of budgets known to be spent at now that frees
// up last, or nil.
func spentLast(now time.Time, budgets []*Budget) *Spent {
	var spent *Spent
	for _, b := range budgets {
		if u := b.Until(now); !u.IsZero() && (spent == nil || u.After(spent.Until)) {
			spent = &Spent{Name: b.Name, Until: u, Left: u.Sub(now)}
		}
	}
	return spent
}

// Until returns when the budget frees up if it is known to be spent at
// now, else the zero time.
func (b *Budget) Until(now time.Time) time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.spentUntil.After(now) {
		return b.spentUntil
	}
	return time.Time{}
}

// Open says whether requests go out together (an answer came since the
// last refusal).
func (b *Budget) Open() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.open
}

// Hold remembers that the budget is spent until then (or later, if that
// was known), and closes the gate (one request at a time once it frees
// up). It returns until when the budget is now held spent.
func (b *Budget) Hold(until time.Time) time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	if until.After(b.spentUntil) {
		b.spentUntil = until
	}
	b.open = false
	return b.spentUntil
}

// learn takes in that another program found the budget spent until then:
// it is held, and the gate closed, only when that is later than known.
func (b *Budget) learn(until time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if until.After(b.spentUntil) {
		b.spentUntil, b.open = until, false
	}
}

// enter lets a request through: at once when requests are going through;
// as the probe when none is in flight; otherwise it returns a channel
// closed when the probe in flight is answered (then enter again).
func (b *Budget) enter() (wait <-chan struct{}, probe bool) {
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

// settle ends a request enter let through: answered says the API answered
// it with anything but a rate limit, which opens the gate.
func (b *Budget) settle(probe, answered bool) {
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
