package sdk

import (
	"context"
	"errors"
	"net/http"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/budget"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/transport"
)

// Known-spent budgets: each client remembers until when the API said a
// budget is spent, and sends nothing on it until then (package budget
// holds the mechanism: the gate, its probe, the record beside the cache).

// The budgets' names, as NotSent errors say them. The limits that set
// them are AnalyticsLimit, DiscoveryLimit, AssistantMessageLimit, and
// IndexSecondLimit with IndexDayLimit (limits.go).
const (
	analyticsBudgetName         = "the organization's analytics budget"
	discoveryBudgetName         = "the organization's discovery budget"
	assistantMessagesBudgetName = "the assistant's message budget"
	indexBudgetName             = "the Index's budget"
)

// budgetedExchange is exchange on budgets[0], through its gate
// (budget.Admit): unless it, or one of the other budgets, is known to be
// spent (then it fails at once with a NotSent 429 naming it), one at a
// time while it is not known whether it is spent. A short rate limit is
// waited out inside the exchange: only the final refusal is remembered.
func (k *core) budgetedExchange(ctx context.Context, c call, stream bool, budgets []*budget.Budget) (transport.Attempt, ResponseInfo, error) {
	admitted, spent, err := budgets[0].Admit(ctx, k.clock.Now, budgets[1:]...)
	switch {
	case spent != nil:
		return transport.Attempt{}, ResponseInfo{}, &APIError{StatusCode: http.StatusTooManyRequests, Method: c.method, Path: c.path,
			Budget: spent.Name, RetryAfter: spent.Left, RetryAt: spent.Until, NotSent: true}
	case err != nil:
		return transport.Attempt{}, ResponseInfo{}, &RequestError{Method: c.method, Path: c.path, Err: err}
	}
	a, info, err := k.exchange(ctx, c, stream)
	answer := budget.Answer{Answered: err == nil}
	if apiErr := (*APIError)(nil); errors.As(err, &apiErr) {
		answer = budget.Answer{Answered: apiErr.StatusCode != http.StatusTooManyRequests, RateLimited: apiErr.StatusCode == http.StatusTooManyRequests, RetryAt: apiErr.RetryAt}
	}
	admitted.Done(ctx, k.clock.Now(), answer)
	return a, info, err
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
