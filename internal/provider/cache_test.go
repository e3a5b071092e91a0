package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// 1,200 paths: 5 requests a read.
const cachePaths = 1200

func TestAccCache_twoAppliesReadThePagesOnce(t *testing.T) {
	for _, tt := range []struct {
		ttl       string
		wantReads int
	}{{"10m", 1}, {"0", 2}} {
		t.Run("cache_ttl "+tt.ttl, func(t *testing.T) {
			clearEnv(t)
			t.Setenv(EnvCacheTTL, tt.ttl)
			fs, url, clk := startFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: cachePaths}})
			cfg := visitorsConfig(url, "")
			runSteps(t, clk, []resource.TestStep{
				{Config: cfg, ConfigStateChecks: []statecheck.StateCheck{visitorsMatchServer(fs, "", "", 0)}},
				{PreConfig: fs.ResetCounters, Config: cfg, ConfigStateChecks: []statecheck.StateCheck{visitorsMatchServer(fs, "", "", 0)}},
			})
			// The second step's plan, apply and refresh all read the data
			// source: with the cache, none of them asks the API again.
			reads, requests := readsAndRequests(fs, mintlifytest.RouteAnalyticsVisitors)
			if tt.wantReads == 1 && requests != 0 {
				t.Errorf("cache on: %d requests in the second apply, want 0", requests)
			}
			if tt.wantReads == 2 && (reads < 2 || requests != reads*5) {
				t.Errorf("cache off: %d requests over %d reads", requests, reads)
			}
		})
	}
}

func TestAccCache_staleCopyStandsInForARateLimitedPlanAndDestroy(t *testing.T) {
	clearEnv(t)
	t.Setenv(EnvCacheTTL, "1s")
	fs, url, clk := startFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: cachePaths}})
	cfg := visitorsConfig(url, "")
	runSteps(t, clk, []resource.TestStep{
		{Config: cfg},
		{
			// The hour's budget is spent: every analytics read is refused
			// for an hour, far longer than the provider waits.
			PreConfig: func() {
				clk.Advance(1100 * time.Millisecond) // the copy is no longer fresh
				fs.ResetCounters()
				fs.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
			},
			Config:            cfg,
			ConfigStateChecks: []statecheck.StateCheck{visitorsMatchServer(fs, "", "", 0)},
		},
		// The test's destroy also reads the data source, under the same
		// rate limit: it succeeds with the copy too.
	})
	if n := fs.FaultHits()[0]; n == 0 {
		t.Error("the API was never asked: the copy was used while still fresh, which tests nothing")
	}
}

func TestAccCache_withoutACopyTheRateLimitIsAClearError(t *testing.T) {
	clearEnv(t)
	t.Setenv(EnvCacheTTL, "10m")
	fs, url, clk := startFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}})
	fs.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
	runSteps(t, clk, []resource.TestStep{{
		Config:      visitorsConfig(url, ""),
		ExpectError: wrapped(`Could not read unique visitors`, `429 Too Many Requests`, `try again after`, `Until then, every plan that reads this data source fails`, `terraform destroy -refresh=false`),
	}})
}

// badSetting is a provider setting (block, an HCL line) or an environment
// variable's value (env) that is refused at plan, saying want.
type badSetting struct{ block, env, want string }

// wantRefusedAtPlan plans a read of unique visitors with each bad setting
// (env in the variable envVar): each is refused at plan, before any
// request.
func wantRefusedAtPlan(t *testing.T, envVar string, bad []badSetting) {
	t.Helper()
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	for _, tt := range bad {
		t.Setenv(envVar, tt.env)
		cfg := strings.Replace(providerBlock(url), "provider \"mintlify\" {", "provider \"mintlify\" {\n  "+tt.block, 1) +
			"data \"mintlify_unique_visitors\" \"test\" {}\n"
		runSteps(t, clk, []resource.TestStep{{Config: cfg, PlanOnly: true, ExpectError: wrapped(tt.want)}})
	}
	wantNoRequests(t, fs, "for invalid settings")
}

func TestAccCache_settingsAreValidated(t *testing.T) {
	wantRefusedAtPlan(t, EnvCacheTTL, []badSetting{
		{`cache_ttl = "soon"`, "", `cache_ttl "soon" must be a non-negative duration`},
		{`cache_max_stale = "-1h"`, "", `cache_max_stale "-1h" must be a non-negative duration`},
		{`request_timeout = "1.5d"`, "", `request_timeout "1.5d" must be a non-negative duration`},
		{`cache_timeout = "-5s"`, "", `cache_timeout "-5s" must be a non-negative duration`},
		{"", "ten minutes", `MINTLIFY_CACHE_TTL "ten minutes" must be a non-negative duration`},
	})
}

func TestNoteCache_warnsOfAStaleCopyWithItsAgeAndWhenTheBudgetFreesUp(t *testing.T) {
	// The age is read on the provider's clock, the one the SDK's client
	// and its cache run on, not the wall clock.
	clk := newTestClock()
	data := &providerData{clock: clk}
	stored := clk.Now().Add(-2*time.Hour - 13*time.Minute)
	retryAt := time.Date(2026, 11, 22, 13, 0, 0, 0, time.UTC)
	var diags diag.Diagnostics
	noteCache(context.Background(), data, &diags, "unique visitors", sdk.CacheStatus{Hit: true, Stale: true, StoredAt: stored,
		RateLimit: &sdk.APIError{StatusCode: 429, RetryAt: retryAt}})
	got := diagText(diags, diag.SeverityWarning)
	for _, want := range []string{"Mintlify unique visitors served from cache", "The Mintlify API refused to read unique visitors",
		"analytics requests are spent (" + sdk.AnalyticsLimit.String() + ", shared by every analytics endpoint)",
		"the budget frees up at 2026-11-22 13:00:00 UTC", "fetched 2h13m", stored.UTC().Format(time.RFC3339), "may be out of date"} {
		if !strings.Contains(got, want) {
			t.Errorf("warning %q lacks %q", got, want)
		}
	}
	for _, quiet := range []sdk.CacheStatus{{}, {Hit: true, StoredAt: stored}} {
		var d diag.Diagnostics
		noteCache(context.Background(), data, &d, "x", quiet)
		if len(d) != 0 {
			t.Errorf("%+v: %v", quiet, d)
		}
	}
}

func TestCacheDir_defaultsAndDegrades(t *testing.T) {
	clearEnv(t)
	t.Setenv(EnvCacheDir, "")
	t.Setenv("XDG_CACHE_HOME", "/somewhere/cache")
	if got := cacheDir(nullString()); got != "/somewhere/cache/terraform-provider-mintlify" {
		t.Errorf("default: %q", got)
	}
	t.Setenv(EnvCacheDir, "/from/env")
	if got := cacheDir(nullString()); got != "/from/env" {
		t.Errorf("env: %q", got)
	}
	// No home, no XDG: no cache, quietly.
	t.Setenv(EnvCacheDir, "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	if got := cacheDir(nullString()); got != "" {
		t.Errorf("without a home: %q", got)
	}
}
