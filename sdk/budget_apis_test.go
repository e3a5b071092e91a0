package sdk

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/budget"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The discovery and Index clients remember a spent budget as the
// analytics client does (budget_test.go), in memory only.

// newIndexFake starts the fake with an Index client for it (the fake
// serves the Index under /api/universal-search).
func newIndexFake(t *testing.T, cfg mintlifytest.Config, opts ...Option) (*mintlifytest.Server, *IndexClient, *fakeClock) {
	return startFakeFor(t, cfg, NewIndexClient, mintlifytest.DemoIndexKey, "/api/universal-search", opts)
}

// wantNotSent checks err is a NotSent 429 that names budget and the time
// to try again.
func wantNotSent(t *testing.T, what string, err error, budget string, retryAt time.Time) {
	t.Helper()
	var apiErr *APIError
	if !errors.As(err, &apiErr) || !apiErr.NotSent || apiErr.Attempts != 0 || apiErr.Budget != budget || !apiErr.RetryAt.Equal(retryAt) ||
		!IsNotSent(err) || !IsRateLimited(err) || RateLimitedByAPI(err) || MayHaveTakenEffect(err) {
		t.Errorf("%s: %#v", what, err)
		return
	}
	for _, want := range []string{"429 Too Many Requests", "(not sent: " + budget + " is known to be spent", "try again after " + retryAt.UTC().Format(time.RFC3339)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %q lacks %q", what, err, want)
		}
	}
}

// The Index's day spent: every Index call after the refusal sends nothing
// and says when to try again; at that time the Index is asked again.
func TestBudget_indexDaySpentSendsNothingUntilRetryAt(t *testing.T) {
	srv, c, clk := newIndexFake(t, mintlifytest.Config{Limits: map[string]int{"index-day": 2}})
	ctx := context.Background()
	for range 2 {
		if _, err := c.Search(ctx, IndexSearchRequest{Query: "deploy"}); err != nil {
			t.Fatal(err)
		}
	}
	clk.Advance(time.Hour)
	if _, err := c.Search(ctx, IndexSearchRequest{Query: "deploy"}); !RateLimitedByAPI(err) {
		t.Fatalf("the refusal: %v", err)
	}
	retryAt := epoch.Add(24 * time.Hour) // when the day's first request leaves the window
	sent := srv.TotalRequests()
	_, err := c.Search(ctx, IndexSearchRequest{Query: "deploy"})
	wantNotSent(t, "search", err, "the Index's budget", retryAt)
	_, err = c.Context(ctx, IndexContextRequest{Query: "install the CLI"})
	wantNotSent(t, "context", err, "the Index's budget", retryAt)
	_, err = c.Contents(ctx, IndexContentsRequest{URLs: []string{"https://blog.example.com/docs-as-code"}})
	wantNotSent(t, "contents", err, "the Index's budget", retryAt)
	if n := srv.TotalRequests() - sent; n != 0 {
		t.Errorf("%d requests sent on a spent budget", n)
	}
	clk.Advance(retryAt.Sub(clk.Now()))
	if _, err := c.Search(ctx, IndexSearchRequest{Query: "deploy"}); err != nil || srv.TotalRequests() != sent+1 {
		t.Errorf("at RetryAt: %v, %d requests after the refusal", err, srv.TotalRequests()-sent)
	}
}

// A 429 that the client waits out (the Index's per second) is not
// remembered: the gate stays open and nothing is held spent. A short 429
// that is not waited out (no retries left) is remembered until its time.
func TestBudget_shortRateLimitWaitedOutIsNotRemembered(t *testing.T) {
	srv, c, _ := newIndexFake(t, mintlifytest.Config{})
	ctx := context.Background()
	for i := range 11 {
		if _, err := c.Search(ctx, IndexSearchRequest{Query: "deploy"}); err != nil {
			t.Fatalf("search %d: %v", i+1, err)
		}
	}
	if n := srv.Requests(mintlifytest.RouteIndexSearch); n != 12 {
		t.Fatalf("%d requests, want 12 (one refused with 429 and waited out)", n)
	}
	if b := c.core.budget; !b.Until(time.Time{}).IsZero() || !b.Open() {
		t.Errorf("a 429 waited out was remembered: spent until %v, open %v", b.Until(time.Time{}), b.Open())
	}

	srv, c, clk := newIndexFake(t, mintlifytest.Config{}, WithMaxRetries(0))
	for range 10 {
		_, _ = c.Search(ctx, IndexSearchRequest{Query: "deploy"})
	}
	if _, err := c.Search(ctx, IndexSearchRequest{Query: "deploy"}); !RateLimitedByAPI(err) {
		t.Fatalf("the 11th in a second, without retries: %v", err)
	}
	_, err := c.Search(ctx, IndexSearchRequest{Query: "deploy"})
	wantNotSent(t, "within the second", err, "the Index's budget", epoch.Add(time.Second))
	clk.Advance(time.Second)
	if _, err := c.Search(ctx, IndexSearchRequest{Query: "deploy"}); err != nil || srv.TotalRequests() != 12 {
		t.Errorf("a second later: %v, %d requests", err, srv.TotalRequests())
	}
}

// Concurrent Index calls while it is not known whether the budget is
// spent cost one refused request, not one each.
func TestBudget_concurrentIndexCallsProbeOneAtATime(t *testing.T) {
	srv, c, _ := newIndexFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Kind: mintlifytest.FaultRateLimit, RetryAfter: 12 * time.Hour}}})
	const n = 8
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			if i%2 == 0 {
				_, errs[i] = c.Search(context.Background(), IndexSearchRequest{Query: "deploy"})
			} else {
				_, errs[i] = c.Context(context.Background(), IndexContextRequest{Query: "deploy"})
			}
		})
	}
	wg.Wait()
	refused := 0
	for i, err := range errs {
		switch {
		case RateLimitedByAPI(err):
			refused++
		case !IsNotSent(err):
			t.Errorf("call %d: %v", i, err)
		}
	}
	if total := srv.TotalRequests(); refused != 1 || total != 1 {
		t.Errorf("%d refused, %d requests for %d concurrent calls, want 1", refused, total, n)
	}
}

// A refused search spends the organization's discovery budget: search,
// page content and assistant messages all fail at once, sending nothing,
// until the time the API gave.
func TestBudget_discoverySpentStopsSearchPageAndMessages(t *testing.T) {
	srv, c, clk := newDiscoveryFake(t, mintlifytest.Config{Limits: map[string]int{"discovery": 1}})
	ctx := context.Background()
	if _, err := c.Search(ctx, mintlifytest.DemoDomain, SearchRequest{Query: "install"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Search(ctx, mintlifytest.DemoDomain, SearchRequest{Query: "install"}); !RateLimitedByAPI(err) {
		t.Fatalf("the refusal: %v", err)
	}
	retryAt, sent := epoch.Add(time.Hour), srv.TotalRequests()
	_, err := c.Search(ctx, mintlifytest.DemoDomain, SearchRequest{Query: "install"})
	wantNotSent(t, "search", err, "the organization's discovery budget", retryAt)
	_, err = c.Page(ctx, mintlifytest.DemoDomain, "/quickstart", nil)
	wantNotSent(t, "page", err, "the organization's discovery budget", retryAt)
	for _, proto := range []AssistantProtocol{AssistantV2, AssistantV1} {
		_, err = c.Assistant.Ask(ctx, mintlifytest.DemoDomain, AssistantRequest{Question: "How?", Protocol: proto})
		wantNotSent(t, "message "+string(proto), err, "the organization's discovery budget", retryAt)
	}
	if n := srv.TotalRequests() - sent; n != 0 || len(srv.AssistantAnswers()) != 0 {
		t.Errorf("%d requests sent on a spent budget", n)
	}
	clk.Advance(time.Hour)
	if _, err := c.Assistant.Ask(ctx, mintlifytest.DemoDomain, AssistantRequest{Question: "How?"}); err != nil || len(srv.AssistantAnswers()) != 1 {
		t.Errorf("an hour later: %v", err)
	}
}

// A refused assistant message may be the per-IP daily limit: it stops
// messages only, and search and page content are still sent.
func TestBudget_refusedMessageStopsMessagesOnly(t *testing.T) {
	srv, c, _ := newDiscoveryFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{
		{Route: mintlifytest.RouteAssistantStream, Kind: mintlifytest.FaultRateLimit, RetryAfter: 20 * time.Hour},
	}})
	ctx := context.Background()
	if _, err := c.Assistant.Ask(ctx, mintlifytest.DemoDomain, AssistantRequest{Question: "How?"}); !RateLimitedByAPI(err) {
		t.Fatalf("the refusal: %v", err)
	}
	_, err := c.Assistant.Ask(ctx, mintlifytest.DemoDomain, AssistantRequest{Question: "How?", Protocol: AssistantV1})
	wantNotSent(t, "the next message", err, "the assistant's message budget", epoch.Add(20*time.Hour))
	if _, err := c.Search(ctx, mintlifytest.DemoDomain, SearchRequest{Query: "install"}); err != nil {
		t.Errorf("search: %v", err)
	}
	if _, err := c.Page(ctx, mintlifytest.DemoDomain, "/quickstart", nil); err != nil {
		t.Errorf("page: %v", err)
	}
	if n := srv.TotalRequests(); n != 3 {
		t.Errorf("%d requests, want the refused message, the search and the page", n)
	}
}

// Messages waiting for the probe are sent once each after it is answered,
// never twice; a 429 without Retry-After holds for budget.UnknownHold.
func TestBudget_messagesWaitingForTheProbeAreSentOnce(t *testing.T) {
	srv, c, clk := newDiscoveryFake(t, mintlifytest.Config{})
	const n = 5
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			if _, err := c.Assistant.Ask(context.Background(), mintlifytest.DemoDomain, AssistantRequest{Question: "How?"}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got, answers := srv.Requests(mintlifytest.RouteAssistantStream), len(srv.AssistantAnswers()); got != n || answers != n {
		t.Errorf("%d requests, %d answers for %d messages", got, answers, n)
	}

	srv.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStream, Kind: mintlifytest.FaultRateLimit, RetryAfter: -1})
	c2, _ := NewDiscoveryClient(mintlifytest.DemoAssistantKey, WithBaseURL(c.BaseURL()), WithClock(clk), WithMaxRetries(0))
	if _, err := c2.Assistant.Ask(context.Background(), mintlifytest.DemoDomain, AssistantRequest{Question: "How?"}); !RateLimitedByAPI(err) {
		t.Fatalf("the refusal: %v", err)
	}
	_, err := c2.Assistant.Ask(context.Background(), mintlifytest.DemoDomain, AssistantRequest{Question: "How?"})
	wantNotSent(t, "without Retry-After", err, "the assistant's message budget", clk.Now().Add(budget.UnknownHold))
	srv.ClearFaults()
	clk.Advance(budget.UnknownHold)
	if _, err := c2.Assistant.Ask(context.Background(), mintlifytest.DemoDomain, AssistantRequest{Question: "How?"}); err != nil {
		t.Errorf("after the hold: %v", err)
	}
}
