package sdk

import (
	"context"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Retry-After at its edges: zero falls back to the backoff, and the
// client's limit on waiting is exact.

func TestBoundary_retryAfterZeroFallsBackToBackoff(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(429, `{}`, "Retry-After", "0"), jsonResponse(200, jobJSON))
	clk := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}
	c := newTestClient(t, ts.URL, clk, WithRetryBackoff(time.Second, time.Second))
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); err != nil {
		t.Fatal(err)
	}
	if s := clk.Sleeps(); len(s) != 1 || s[0] < 500*time.Millisecond {
		t.Errorf("slept %v, want one backoff of at least 500ms", s)
	}
}

func TestBoundary_zeroRetryAfterLimitMeansNeverWait(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(429, `{}`, "Retry-After", "1"), jsonResponse(200, jobJSON))
	c := newTestClient(t, ts.URL, &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}, WithMaxRetryAfter(0))
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); !IsRateLimited(err) || rec.count() != 1 {
		t.Fatalf("err = %v after %d requests; a zero limit waits for nothing", err, rec.count())
	}
	// A Retry-After exactly at the limit is waited; one second more is not.
	rec, ts = newRecorder(t, jsonResponse(429, `{}`, "Retry-After", "5"), jsonResponse(200, jobJSON))
	clk := newClock()
	if _, err := newTestClient(t, ts.URL, clk, WithMaxRetryAfter(5*time.Second)).AgentJobs.Get(context.Background(), "p", "j"); err != nil || rec.count() != 2 || clk.Now() != epoch.Add(5*time.Second) {
		t.Errorf("at the limit: %v after %d requests, clock %s", err, rec.count(), clk.Now())
	}
	rec, ts = newRecorder(t, jsonResponse(429, `{}`, "Retry-After", "6"), jsonResponse(200, jobJSON))
	if _, err := newTestClient(t, ts.URL, newClock(), WithMaxRetryAfter(5*time.Second)).AgentJobs.Get(context.Background(), "p", "j"); !IsRateLimited(err) || rec.count() != 1 {
		t.Errorf("past the limit: %v after %d requests", err, rec.count())
	}
}
