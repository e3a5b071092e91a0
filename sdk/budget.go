package sdk

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/budget"
)

// Known-spent budgets.
//
// Each API a client speaks has a rate-limited budget, shared by every
// program that uses it: the organization's analytics (100 requests an
// hour), its discovery API (10,000 an hour; assistant messages also
// 10,000 per IP a day), the Index (10 a second, 1,000 a day). When the API
// refuses a request with a rate limit longer than the client waits, it
// says until when (Retry-After); until then every request on that budget
// would be refused too, and each refusal may count against it. So the
// client remembers that time (a spentBudget) and sends no request on the
// budget until then: a call fails at once with a 429 *APIError whose
// NotSent is set, naming the budget. The analytics budget is also written
// beside the analytics cache (a file in the directory, an object in the
// bucket), per base URL and API key (the key's fingerprint, never the
// key), so that other programs sharing the cache know it too; a read then
// serves a copy younger than MaxStale when there is one.
//
// A client that does not yet know whether a budget is spent sends one
// request on it at a time (the probe) until one gets an answer: the
// concurrent reads of a plan then cost one refused request in all, not one
// each.

// maxSpentAhead bounds how far ahead a spent budget is believed: a
// Retry-After of days (or a record saying so) is not trusted past it.
const maxSpentAhead = 24 * time.Hour

// unknownSpentHold is how long a 429 that said nothing of when to come
// back keeps this program from asking again: it is not written beside the
// cache, since nobody said how long the budget is spent.
const unknownSpentHold = time.Minute

// The budgets' names, as NotSent errors say them.
const (
	analyticsBudgetName         = "the organization's analytics budget"
	discoveryBudgetName         = "the organization's discovery budget"
	assistantMessagesBudgetName = "the assistant's message budget"
	indexBudgetName             = "the Index's budget"
)

// spentBudget is what a client knows of one rate-limited budget: until
// when it is spent, and whether requests on it go out together or one at
// a time.
type spentBudget struct {
	// name is the budget in the words of errors: "the organization's
	// discovery budget".
	name string
	// besideCache: a refusal is also recorded beside the analytics cache,
	// and read from there (the analytics budget alone).
	besideCache bool

	// Gate is what is known of the budget, and lets requests through.
	budget.Gate
}

// refresh reads the spent budget another program recorded beside the
// cache. A record from the future, or spent further ahead than
// maxSpentAhead, is not believed.
func (b *spentBudget) refresh(ctx context.Context, k *core) {
	c := k.cache
	if c == nil || !b.besideCache {
		return
	}
	now := k.clock.Now()
	until, ok := c.SpentUntil(ctx, k.baseURL.String(), now)
	if !ok || !until.After(now) || until.After(now.Add(maxSpentAhead+analyticscache.ClockSkew)) {
		return
	}
	b.Learn(until)
}

// record remembers a rate limit the API answered: spent until its RetryAt
// (at most maxSpentAhead from now; a time already past is ignored), or
// for unknownSpentHold when it did not say. A known time is written beside
// the cache when the budget is kept there.
func (b *spentBudget) record(ctx context.Context, k *core, refused *APIError) {
	now := k.clock.Now()
	until, said := refused.RetryAt, !refused.RetryAt.IsZero()
	if !said {
		until = now.Add(unknownSpentHold)
	}
	if !until.After(now) {
		return
	}
	until = b.Hold(minTime(until, now.Add(maxSpentAhead)))
	if c := k.cache; said && b.besideCache && c != nil {
		c.SaveSpent(ctx, k.baseURL.String(), now, until)
	}
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// budgetedRoundTrip is roundTrip on budget b: see budgetedExchange.
func (k *core) budgetedRoundTrip(ctx context.Context, c call, b *spentBudget) ([]byte, ResponseInfo, error) {
	a, info, err := k.budgetedExchange(ctx, c, false, b, nil)
	return a.data, info, err
}

// budgetedStream is stream on budget b: see budgetedExchange.
func (k *core) budgetedStream(ctx context.Context, c call, b *spentBudget, also ...*spentBudget) (*http.Response, ResponseInfo, error) {
	a, info, err := k.budgetedExchange(ctx, c, true, b, also)
	return a.resp, info, err
}

// budgetedExchange sends a call on budget b unless b, or one of the
// budgets also, is known to be spent (then it fails at once with a NotSent
// 429 naming it); one at a time while it is not known whether b is spent;
// and remembers in b a rate limit the API answered. A short rate limit is
// waited out inside exchange: only the final refusal is remembered. The
// call is sent once (exchange's own retries aside): a caller waiting for
// the probe has sent nothing yet.
func (k *core) budgetedExchange(ctx context.Context, c call, stream bool, b *spentBudget, also []*spentBudget) (attemptResult, ResponseInfo, error) {
	for {
		if err := k.knownSpent(c, b, also); err != nil {
			return attemptResult{}, ResponseInfo{}, err
		}
		wait, probe := b.Enter()
		if wait != nil {
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return attemptResult{}, ResponseInfo{}, &RequestError{Method: c.method, Path: c.path, Err: ctx.Err()}
			}
		}
		a, info, err := k.exchange(ctx, c, stream)
		var apiErr *APIError
		limited := errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusTooManyRequests
		if limited {
			b.record(ctx, k, apiErr)
		}
		b.Settle(probe, err == nil || (apiErr != nil && !limited))
		return a, info, err
	}
}

// knownSpent is the NotSent error of a call on b when b or one of also is
// known to be spent (the one that frees up last), else nil.
func (k *core) knownSpent(c call, b *spentBudget, also []*spentBudget) *APIError {
	now := k.clock.Now()
	var spent *spentBudget
	var until time.Time
	for _, s := range append([]*spentBudget{b}, also...) {
		if u := s.Until(now); u.After(until) {
			spent, until = s, u
		}
	}
	if spent == nil {
		return nil
	}
	return &APIError{StatusCode: http.StatusTooManyRequests, Method: c.method, Path: c.path,
		Budget: spent.name, RetryAfter: until.Sub(now), RetryAt: until, NotSent: true}
}

// RateLimitedByAPI reports whether err is a rate limit the API answered
// (a 429 that was sent, unlike one with NotSent). The client then knows
// the budget is spent, until APIError.RetryAt: a later call on that budget
// (analytics, discovery, Index) sends no request and fails at once with
// NotSent. PagedEndpoint.Each and All never end with such an error when
// the cache holds a copy of the read younger than MaxStale: they serve the
// copy whole instead. When it ends a read of Pages or Rows after some of
// its pages were handed out, reading again is served whole by that copy,
// or fails at once with NotSent.
func RateLimitedByAPI(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusTooManyRequests && !apiErr.NotSent
}

// IsNotSent reports whether err is a rate limit the client answered
// itself, sending nothing, because the budget it would draw from was
// known to be spent (APIError.NotSent; APIError.Budget names it): the
// organization's analytics or discovery budget, the assistant's message
// budget, or the Index's.
func IsNotSent(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.NotSent
}
