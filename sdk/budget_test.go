package sdk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/budget"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// dashboard reads the seven analytics answers a dashboard shows, at once
// (Terraform reads data sources concurrently), and returns each one's
// cache status and error.
func dashboard(c *Client) map[string]error {
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	stale := func(s CacheStatus, err error) error {
		if err == nil && !s.Stale {
			return fmt.Errorf("not stale: %+v", s)
		}
		return err
	}
	reads := map[string]func() error{
		"visitors": func() error {
			r, err := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{})
			return statusErr(r, err, stale)
		},
		"views": func() error {
			r, err := c.Analytics.Views.All(ctx, p, VisitorsQuery{})
			return statusErr(r, err, stale)
		},
		"searches": func() error {
			r, err := c.Analytics.Searches.All(ctx, p, SearchesQuery{})
			return statusErr(r, err, stale)
		},
		"feedback": func() error {
			r, err := c.Analytics.Feedback.All(ctx, p, FeedbackQuery{})
			return statusErr(r, err, stale)
		},
		"by page": func() error {
			r, err := c.Analytics.FeedbackByPage(ctx, p, FeedbackByPageQuery{})
			return statusErr(r, err, stale)
		},
		"assistant": func() error {
			r, err := c.Analytics.Conversations.All(ctx, p, ConversationsQuery{})
			return statusErr(r, err, stale)
		},
		"callers": func() error { r, err := c.Analytics.CallerStats(ctx, p, DateRange{}); return statusErr(r, err, stale) },
	}
	var mu sync.Mutex
	out := map[string]error{}
	var wg sync.WaitGroup
	for name, read := range reads {
		wg.Go(func() {
			err := read()
			mu.Lock()
			out[name] = err
			mu.Unlock()
		})
	}
	wg.Wait()
	return out
}

// statusErr applies check to an answer's cache status.
func statusErr[T any](r *T, err error, check func(CacheStatus, error) error) error {
	if err != nil {
		return check(CacheStatus{}, err)
	}
	return check(infoOf(r).Cache, nil)
}

var dashboardData = mintlifytest.Dataset{Paths: 1200, SearchTerms: 150, Feedback: 150, Conversations: 1500}

// Twenty commands (each a new client on the same cache) reading a
// seven-answer dashboard while the budget is spent: one refused request in
// all. The first command's reads ask one at a time until the refusal; it
// is recorded beside the cache; every read after it sends nothing and
// serves the stale copy.
func TestBudget_twentyCommandsDuringASpentBudgetSendOneRequest(t *testing.T) {
	dir := t.TempDir()
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dashboardData}, WithAnalyticsCache(cacheOpts(dir)))
	for name, err := range dashboard(c) {
		if err == nil || !strings.Contains(err.Error(), "not stale") {
			t.Fatalf("filling the cache, %s: %v", name, err)
		}
	}
	before := fs.TotalRequests()
	clk.Advance(time.Hour) // past fresh, within MaxStale
	fs.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: 2 * time.Hour})
	for i := range 20 {
		cmd := newTestClient(t, c.BaseURL(), clk, WithAnalyticsCache(cacheOpts(dir)))
		for name, err := range dashboard(cmd) {
			if err != nil {
				t.Errorf("command %d, %s: %v", i, name, err)
			}
		}
		clk.Advance(time.Minute)
	}
	if hits, n := fs.FaultHits()[0], fs.TotalRequests()-before; hits != 1 || n != 1 {
		t.Errorf("%d refused requests (%d in all) for 20 commands of 7 reads, want 1", hits, n)
	}
}

// Without a copy, a read while the budget is spent fails at once, sending
// nothing, and says until when and why.
func TestBudget_withoutACopyAReadFailsAtOnceSayingWhen(t *testing.T) {
	dir := t.TempDir()
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10, SearchTerms: 10}}, WithAnalyticsCache(cacheOpts(dir)))
	fs.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	if _, err := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{}); !RateLimitedByAPI(err) || IsNotSent(err) {
		t.Fatalf("the refusal: %v", err)
	}
	retryAt := epoch.Add(time.Hour)
	for name, client := range map[string]*Client{"same client": c, "next command": newTestClient(t, c.BaseURL(), clk, WithAnalyticsCache(cacheOpts(dir)))} {
		_, err := client.Analytics.Searches.All(ctx, p, SearchesQuery{})
		var apiErr *APIError
		if !errors.As(err, &apiErr) || !apiErr.NotSent || apiErr.Attempts != 0 || !apiErr.RetryAt.Equal(retryAt) || !IsRateLimited(err) || RateLimitedByAPI(err) || !IsNotSent(err) {
			t.Fatalf("%s: %#v", name, err)
		}
		for _, want := range []string{"429 Too Many Requests", "not sent", "analytics budget is known to be spent", "try again after 2026-11-21T13:00:00Z, in 1h0m0s"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%s: %q lacks %q", name, err, want)
			}
		}
		if MayHaveTakenEffect(err) {
			t.Errorf("%s: a request never sent may have taken effect", name)
		}
	}
	if n := fs.TotalRequests(); n != 1 {
		t.Errorf("%d requests, want the one refused", n)
	}
	// At T, the API is asked again.
	clk.Advance(time.Hour)
	fs.ClearFaults()
	if _, err := c.Analytics.Searches.All(ctx, p, SearchesQuery{}); err != nil || fs.TotalRequests() != 2 {
		t.Errorf("at T: %v, %d requests", err, fs.TotalRequests())
	}
}

// Within one read, the first long refusal ends the asking; a read after
// it, even without a cache, sends nothing.
func TestBudget_theFirstLongRefusalEndsTheAsking(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{AnalyticsBudget: 2, Analytics: mintlifytest.Dataset{Paths: 2000}})
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	if _, err := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{}); !RateLimitedByAPI(err) {
		t.Fatal(err)
	}
	for range 3 {
		if _, err := c.Analytics.Views.All(ctx, p, VisitorsQuery{}); !IsNotSent(err) {
			t.Errorf("after the refusal: %v", err)
		}
	}
	if n := fs.TotalRequests(); n != 3 {
		t.Errorf("%d requests, want 2 pages and the refusal", n)
	}
}

// A client that does not know the budget is spent asks one request at a
// time until one is answered: seven concurrent reads cost one refusal.
func TestBudget_concurrentReadsProbeOneAtATime(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: dashboardData})
	fs.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
	errs := dashboard(c)
	for name, err := range errs {
		if !IsRateLimited(err) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if n := fs.TotalRequests(); n != 1 {
		t.Errorf("%d requests for 7 concurrent reads of a spent budget, want 1", n)
	}
	// Once a request is answered, reads go out together again.
	fs.ClearFaults()
	c2 := newTestClient(t, c.BaseURL(), nil)
	if _, err := c2.Analytics.CallerStats(context.Background(), mintlifytest.DemoProjectID, DateRange{}); err != nil {
		t.Fatal(err)
	}
	if !c2.core.budget.Open() {
		t.Error("the gate stayed closed after an answer")
	}
}

// Any answer but a rate limit (an error the API wrote, a 404) tells the
// budget is not spent and opens the gate; a connection that broke before
// an answer tells nothing and leaves it closed.
func TestBudget_anAnswerOpensTheGateABrokenConnectionDoesNot(t *testing.T) {
	for _, tc := range []struct {
		fault    mintlifytest.FaultKind
		wantOpen bool
	}{
		{mintlifytest.FaultClientError, true},
		{mintlifytest.FaultServerError, true},
		{mintlifytest.FaultDropConnection, false},
	} {
		t.Run(string(tc.fault), func(t *testing.T) {
			fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithMaxRetries(0))
			fs.InjectFault(mintlifytest.Fault{Kind: tc.fault, Status: 404})
			if _, err := c.Analytics.CallerStats(context.Background(), mintlifytest.DemoProjectID, DateRange{}); err == nil {
				t.Fatal("no error")
			}
			if c.core.budget.Open() != tc.wantOpen {
				t.Errorf("gate open %v after a %s, want %v", c.core.budget.Open(), tc.fault, tc.wantOpen)
			}
		})
	}
}

// T is the server's, bounded: at most a day ahead, and a record from
// beside the cache that says more, or a time already past, is not
// believed.
func TestBudget_spentUntilIsBounded(t *testing.T) {
	dir := t.TempDir()
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(cacheOpts(dir)))
	fs.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: 72 * time.Hour})
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	_, _ = c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{})
	if until := c.core.budget.Until(clk.Now()); !until.Equal(epoch.Add(24 * time.Hour)) {
		t.Errorf("spent until %v, want a day ahead", until)
	}
	clk.Advance(24 * time.Hour)
	fs.ClearFaults()
	if _, err := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); err != nil || fs.TotalRequests() != 2 {
		t.Errorf("a day later: %v, %d requests", err, fs.TotalRequests())
	}
	// Records written by hand (another program): too far ahead, in the
	// past, or from the future are ignored.
	now := clk.Now()
	cache := c.core.cache
	name := cache.BudgetName(c.BaseURL())
	for i, r := range []analyticscache.Record{
		{Kind: analyticscache.KindBudget, Key: c.BaseURL(), At: now, Until: now.Add(30 * 24 * time.Hour)},
		{Kind: analyticscache.KindBudget, Key: c.BaseURL(), At: now.Add(-2 * time.Hour), Until: now.Add(-time.Hour)},
		{Kind: analyticscache.KindBudget, Key: c.BaseURL(), At: now.Add(time.Hour), Until: now.Add(2 * time.Hour)},
		{Kind: analyticscache.KindBudget, Key: "https://elsewhere.example", At: now, Until: now.Add(time.Hour)},
	} {
		cache.Save(ctx, name, r)
		fresh := newTestClient(t, c.BaseURL(), clk, WithAnalyticsCache(cacheOpts(dir)))
		clk.Advance(11 * time.Minute)
		if _, err := fresh.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); err != nil || fs.TotalRequests() != 3+i {
			t.Errorf("record %d: %v, %d requests", i, err, fs.TotalRequests())
		}
	}
	// Believable ones hold: the read sends nothing (it serves the stale
	// copy). The second is a day ahead as written by a program whose clock
	// runs half a minute ahead of this one's: within the skew allowed.
	for i, ahead := range []time.Duration{time.Hour, budget.MaxAhead + analyticscache.ClockSkew/2} {
		clk.Advance(11 * time.Minute)
		cache.Save(ctx, name, analyticscache.Record{Kind: analyticscache.KindBudget, Key: c.BaseURL(), At: clk.Now(), Until: clk.Now().Add(ahead)})
		fresh := newTestClient(t, c.BaseURL(), clk, WithAnalyticsCache(cacheOpts(dir)))
		if page, err := fresh.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); err != nil || !page.Cache.Stale || !page.Cache.RateLimit.NotSent {
			t.Errorf("believable record %d: %v", i, err)
		}
	}
	if n := fs.TotalRequests(); n != 6 {
		t.Errorf("%d requests, want 6", n)
	}
}

// The spent budget is per base URL and key: another key (maybe another
// organization) is not stopped by this one's; the record never holds the
// key.
func TestBudget_isPerKeyAndNeverHoldsIt(t *testing.T) {
	dir := t.TempDir()
	fake, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(cacheOpts(dir)))
	fake.AddKey("mint_other_org_key", mintlifytest.DemoOrg, true)
	fake.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour, Requests: []int{1}})
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	if _, err := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); !RateLimitedByAPI(err) {
		t.Fatal(err)
	}
	other := newKeyedClient(t, "mint_other_org_key", c.BaseURL(), clk, WithAnalyticsCache(cacheOpts(dir)))
	if _, err := other.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); err != nil {
		t.Errorf("another key: %v", err)
	}
	budgets, _ := filepath.Glob(filepath.Join(dir, "budget-*.json"))
	if len(budgets) != 1 {
		t.Fatalf("budget records %v", budgets)
	}
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, _ error) error {
		data, _ := os.ReadFile(path)
		if !d.IsDir() && strings.Contains(string(data)+path, mintlifytest.DemoAPIKey) {
			t.Errorf("%s holds the key", path)
		}
		return nil
	})
}

// A stale copy served while the budget is spent says until when.
func TestBudget_staleCopySaysWhenTheBudgetFreesUp(t *testing.T) {
	dir := t.TempDir()
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 600}}, WithAnalyticsCache(cacheOpts(dir)))
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	want, _ := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{})
	clk.Advance(time.Hour)
	fs.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: 30 * time.Minute})
	for i := range 3 {
		refused := 0
		if i == 0 {
			refused = 1 // the refusal is counted on the read it led to the copy
		}
		got, err := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{})
		if err != nil || !got.Cache.Stale || got.Cache.RateLimit == nil || !got.Cache.RateLimit.RetryAt.Equal(epoch.Add(90*time.Minute)) ||
			got.Cache.RateLimit.NotSent != (i > 0) || got.Attempts != refused || !cmp.Equal(want.Paths, got.Paths) {
			t.Errorf("read %d: %+v, %d attempts, %v", i, got.Cache, got.Attempts, err)
		}
	}
	if n := fs.TotalRequests(); n != 4 {
		t.Errorf("%d requests, want the first read's 3 and one refusal", n)
	}
}
