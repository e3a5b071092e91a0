package sdk

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// A 30-minute job, polled through rate limits, runs on the client's clock:
// every wait (poll delays, backoff, Retry-After) is a Sleep on it, and the
// wall clock is not involved.
func TestWithClock_drivesWaitsBackoffAndRetryAfter(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{DefaultJob: mintlifytest.JobScript{ActiveFor: 30 * time.Minute, Outcome: mintlifytest.OutcomeCompleted}})
	job, err := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "x")
	if err != nil {
		t.Fatal(err)
	}
	// Polls 2 and 3 are refused for 30 s (waited inside the request), poll
	// 10 for 2 minutes (longer than the client waits inside one request:
	// the waiter comes back when told), poll 12 with a 502 (backoff).
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultRateLimit, RetryAfter: 30 * time.Second, Requests: []int{2, 3}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultRateLimit, RetryAfter: 2 * time.Minute, Requests: []int{10}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultServerError, Requests: []int{12}})
	done, err := c.AgentJobs.Wait(context.Background(), mintlifytest.DemoProjectID, job.ID)
	if err != nil || done.Status != JobStatusCompleted {
		t.Fatalf("wait = %+v, %v", done, err)
	}
	sleeps := clk.Sleeps()
	var slept time.Duration
	for _, d := range sleeps {
		slept += d
	}
	elapsed := clk.Now().Sub(epoch)
	if slept != elapsed {
		t.Errorf("the clock moved %s, the client slept %s: some wait was not on the client's clock", elapsed, slept)
	}
	if elapsed < 30*time.Minute || elapsed > 34*time.Minute {
		t.Errorf("the wait took %s on the clock for a 30-minute job", elapsed)
	}
	if n := countOf(sleeps, 30*time.Second); n < 2 {
		t.Errorf("slept 30 s %d times; want the two Retry-Afters: %v", n, sleeps)
	}
	if !slices.Contains(sleeps, 2*time.Minute) {
		t.Errorf("the 2-minute Retry-After was not waited: %v", sleeps)
	}
	// Past the first minutes the delay is its 20 s cap: about 100 polls.
	if n := fs.Requests(mintlifytest.RouteAgentJobsGet); n > 120 {
		t.Errorf("%d polls", n)
	}
}

func countOf(ds []time.Duration, d time.Duration) int {
	n := 0
	for _, x := range ds {
		if x == d {
			n++
		}
	}
	return n
}

func TestWithClock_refusesNil(t *testing.T) {
	if _, err := NewClient("mint_x", WithClock(nil)); err == nil || err.Error() != "sdk: WithClock: clock is nil" {
		t.Errorf("err = %v", err)
	}
	// A nil option is skipped.
	if _, err := NewClient("mint_x", nil); err != nil {
		t.Errorf("nil option: %v", err)
	}
}

// A rate limit's "try again after" is told on the client's clock.
func TestWithClock_retryAtIsOnTheClientsClock(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(429, `{}`, "Retry-After", "3600"))
	clk := newClock()
	clk.Advance(24 * time.Hour)
	_, err := newTestClient(t, ts.URL, clk).AgentJobs.Get(context.Background(), "p", "j")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || !apiErr.RetryAt.Equal(epoch.Add(25*time.Hour)) || apiErr.RetryAfter != time.Hour {
		t.Errorf("err %v", err)
	}
}

// createWithStalledPOST creates a job with the given grace for a sent
// POST, the fake stalling the POST for 30 s and the caller giving up after
// 50 ms; it returns the fake, what Create returned and how long it took.
func createWithStalledPOST(t *testing.T, grace time.Duration) (*mintlifytest.Fake, *AgentJob, time.Duration, error) {
	t.Helper()
	fs, c, _ := newFake(t, mintlifytest.Config{}, WithSentRequestGrace(grace))
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultLatency, Latency: 30 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	job, err := c.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "x")
	return fs, job, time.Since(start), err
}

// With no grace, a POST on the wire is given up the moment the caller's
// context ends: the call fails at once, saying the job may exist.
func TestWithSentRequestGrace_zeroEndsAStalledPOSTAtOnce(t *testing.T) {
	fs, job, took, err := createWithStalledPOST(t, 0)
	var reqErr *RequestError
	if job != nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "the caller stopped waiting (context deadline exceeded) and no answer came within 0s more") {
		t.Fatalf("job %+v, err %v", job, err)
	}
	if !MayHaveTakenEffect(err) || !errors.As(err, &reqErr) || !reqErr.Sent || reqErr.Attempts != 1 {
		t.Errorf("a POST that was sent may have created a job: %v", err)
	}
	// The fake stalls for 30 s: returning well before shows the call did
	// not wait for it.
	if took > 10*time.Second {
		t.Errorf("returned after %s", took)
	}
	if n := fs.Requests(mintlifytest.RouteAgentJobsCreate); n != 1 {
		t.Errorf("%d POSTs", n)
	}
}

// With the default grace, an answer that arrives within it after the
// caller's context ended is still returned: the job is not lost.
func TestWithSentRequestGrace_defaultAwaitsAnAnswerWithinIt(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	if c.core.sentGrace != DefaultSentRequestGrace {
		t.Fatalf("grace %s", c.core.sentGrace)
	}
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultLatency, Latency: 300 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	job, err := c.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "x")
	if err != nil || job == nil {
		t.Fatalf("the job was created but the call failed: %v", err)
	}
	if ids := fs.JobIDs(mintlifytest.DemoProjectID); len(ids) != 1 || ids[0] != job.ID || job.Attempts != 1 {
		t.Errorf("returned %+v, the server has %v", job, ids)
	}
	// A read is not awaited past its context: it creates nothing.
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultLatency, Latency: 30 * time.Second})
	ctx2, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	_, err = c.AgentJobs.Get(ctx2, mintlifytest.DemoProjectID, job.ID)
	var reqErr *RequestError
	if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &reqErr) || reqErr.Attempts != 1 {
		t.Errorf("GET: %v", err)
	}
}
