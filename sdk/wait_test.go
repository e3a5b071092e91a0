package sdk

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func TestWaitForAgentJob_latenessAndPolls(t *testing.T) {
	// Even a 5-minute job takes at most 40 polls.
	checkLatenessAndPolls(t, map[time.Duration]int{3 * time.Second: 40, 30 * time.Second: 40, 300 * time.Second: 40}, waitForAgentJob)
}

func TestWaitForAgentJob_scheduleGrowsToCap(t *testing.T) {
	if DefaultPollInitial != time.Second || DefaultPollMax != 20*time.Second {
		t.Errorf("defaults %s, %s", DefaultPollInitial, DefaultPollMax)
	}
	// The schedule itself is package poll's (TestDelay_growsToTheCap...):
	// the sleeps of a 5-minute job grow from about 1 s to 20 s.
	_, c, clk := newFake(t, mintlifytest.Config{DefaultJob: mintlifytest.JobScript{ActiveFor: 5 * time.Minute, Outcome: mintlifytest.OutcomeCompleted}})
	job, _ := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "x")
	if _, err := c.AgentJobs.Wait(context.Background(), mintlifytest.DemoProjectID, job.ID); err != nil {
		t.Fatal(err)
	}
	var waits []time.Duration
	for _, d := range clk.Sleeps() {
		if d >= 950*time.Millisecond { // the request layer's own sleeps aside
			waits = append(waits, d)
		}
	}
	if len(waits) < 2 || waits[0] > time.Second || slices.Max(waits) > 20*time.Second || slices.Max(waits) < 19*time.Second {
		t.Errorf("slept %v", waits)
	}
}

func TestWaitForAgentJob_reportsEveryStatus(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	job, err := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "[fake:failed] [fake:active=4s]")
	if err != nil {
		t.Fatal(err)
	}
	var seen []JobStatus
	done, err := c.AgentJobs.Wait(context.Background(), mintlifytest.DemoProjectID, job.ID,
		WithStatusCallback(func(j *AgentJob) { seen = append(seen, j.Status) }))
	if err != nil || done.Status != JobStatusFailed {
		t.Fatalf("wait = %+v, %v", done, err)
	}
	if len(seen) != fs.Requests(mintlifytest.RouteAgentJobsGet) || seen[len(seen)-1] != JobStatusFailed || seen[0] != JobStatusActive {
		t.Errorf("callback saw %v over %d polls", seen, fs.Requests(mintlifytest.RouteAgentJobsGet))
	}
}

func TestWaitForAgentJob_pollIntervalOption(t *testing.T) {
	_, c, clk := newFake(t, mintlifytest.Config{DefaultJob: mintlifytest.JobScript{ActiveFor: time.Minute, Outcome: mintlifytest.OutcomeCompleted}})
	job, _ := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "x")
	if _, err := c.AgentJobs.Wait(context.Background(), mintlifytest.DemoProjectID, job.ID, WithPollInterval(5*time.Second, 5*time.Second)); err != nil {
		t.Fatal(err)
	}
	for _, d := range clk.Sleeps() {
		if d > 5*time.Second || d < 4500*time.Millisecond {
			t.Fatalf("slept %s with a fixed 5 s interval", d)
		}
	}
}

func TestWaitForAgentJob_stopsOnContextCancel(t *testing.T) {
	_, c, _ := newFake(t, mintlifytest.Config{})
	job, _ := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "[fake:never]")
	ctx, cancel := context.WithCancel(context.Background())
	polls := 0
	got, err := c.AgentJobs.Wait(ctx, mintlifytest.DemoProjectID, job.ID, WithStatusCallback(func(*AgentJob) {
		if polls++; polls == 3 {
			cancel()
		}
	}))
	if !errors.Is(err, context.Canceled) || got == nil || got.ID != job.ID || got.Status != JobStatusActive {
		t.Fatalf("got %+v, %v; want the last job seen and context.Canceled", got, err)
	}
	if polls != 3 || !strings.Contains(err.Error(), job.ID) {
		t.Errorf("polls = %d, err = %v", polls, err)
	}
}

func TestWaitForAgentJob_stopsOnRealDeadline(t *testing.T) {
	ts := httptest.NewServer(mintlifytest.New(mintlifytest.Config{}))
	defer ts.Close()
	c := newTestClient(t, ts.URL, nil)
	job, _ := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "[fake:never]")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	got, err := c.AgentJobs.Wait(ctx, mintlifytest.DemoProjectID, job.ID)
	if !errors.Is(err, context.DeadlineExceeded) || got != nil {
		t.Fatalf("got %+v, %v", got, err)
	}
	if time.Since(start) > 2*time.Second {
		t.Errorf("returned %s after the deadline", time.Since(start))
	}
}

func TestWaitForAgentJob_toleratesTransientErrors(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{}, WithMaxRetries(0))
	job, _ := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "[fake:active=5s]")
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultServerError, Requests: []int{1, 2, 4}})
	done, err := c.AgentJobs.Wait(context.Background(), mintlifytest.DemoProjectID, job.ID)
	if err != nil || done.Status != JobStatusCompleted {
		t.Fatalf("wait = %+v, %v", done, err)
	}
}

func TestWaitForAgentJob_givesUpAfterRepeatedTransientErrors(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{}, WithMaxRetries(0))
	job, _ := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "[fake:never]")
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultServerError, Requests: []int{2, 3, 4}})
	got, err := c.AgentJobs.Wait(context.Background(), mintlifytest.DemoProjectID, job.ID)
	if statusOf(err) != http.StatusBadGateway || got == nil || got.ID != job.ID {
		t.Fatalf("got %+v, %v", got, err)
	}
	if n := fs.Requests(mintlifytest.RouteAgentJobsGet); n != 4 {
		t.Errorf("polls = %d, want 4", n)
	}
}

func TestWaitForAgentJob_notFoundEndsAtOnce(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	_, err := c.AgentJobs.Wait(context.Background(), mintlifytest.DemoProjectID, "missing")
	if !IsNotFound(err) || fs.Requests(mintlifytest.RouteAgentJobsGet) != 1 {
		t.Fatalf("err = %v after %d polls", err, fs.Requests(mintlifytest.RouteAgentJobsGet))
	}
}

func TestIsTransient(t *testing.T) {
	for err, want := range map[error]bool{
		&APIError{StatusCode: 429}: true, &APIError{StatusCode: 500}: true, &APIError{StatusCode: 503}: true,
		&APIError{StatusCode: 501}: false, &APIError{StatusCode: 404}: false, &APIError{StatusCode: 401}: false,
		errors.New("connection reset"): true, &ValidationError{Field: "x"}: false,
		&RequestError{Sent: true, Err: errors.New("EOF")}: true, &MalformedResponseError{}: false, ErrNotConfigured: false,
		&APIError{StatusCode: 499}: false, &APIError{StatusCode: 599}: true, fmt.Errorf("x: %w", &APIError{StatusCode: 502}): true,
	} {
		if got := isTransient(err); got != want {
			t.Errorf("isTransient(%v) = %v", err, got)
		}
	}
}

// A wait bounded by WithWaitTimeout ends on the client's clock, after a
// last poll at the bound, with the last job seen.
func TestWithWaitTimeout_endsOnTheClientsClock(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{})
	job, err := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "[fake:never]")
	if err != nil {
		t.Fatal(err)
	}
	got, err := c.AgentJobs.Wait(context.Background(), mintlifytest.DemoProjectID, job.ID, WithWaitTimeout(5*time.Minute))
	if !errors.Is(err, ErrWaitTimeout) || !errors.Is(err, context.DeadlineExceeded) || got == nil || got.ID != job.ID || got.Status != JobStatusActive {
		t.Fatalf("got %+v, %v", got, err)
	}
	if want := fmt.Sprintf("waiting for agent job %s: wait timed out: context deadline exceeded after 5m0s", job.ID); err.Error() != want {
		t.Errorf("err = %q, want %q", err, want)
	}
	if elapsed := clk.Now().Sub(epoch); elapsed != 5*time.Minute {
		t.Errorf("the wait took %s on the clock", elapsed)
	}
	polls := fs.Requests(mintlifytest.RouteAgentJobsGet)
	// A job that ends within the bound is waited for.
	job, _ = c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "[fake:active=30s]")
	done, err := c.AgentJobs.Wait(context.Background(), mintlifytest.DemoProjectID, job.ID, WithWaitTimeout(time.Minute))
	if err != nil || done.Status != JobStatusCompleted || fs.Requests(mintlifytest.RouteAgentJobsGet) == polls {
		t.Errorf("done %+v, %v", done, err)
	}
}

// A Retry-After that would take the wait to its bound or past it ends the
// wait at once, with the error that says when to come back.
func TestWithWaitTimeout_retryAfterThatOutlastsIt(t *testing.T) {
	completed := jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"completed"`, 1))
	every := WithPollInterval(time.Nanosecond, time.Nanosecond) // the first poll comes after 1ns
	for name, tt := range map[string]struct {
		timeout  time.Duration
		wantErr  bool
		requests int
	}{
		"reaches the bound":        {2*time.Minute + time.Nanosecond, true, 1},
		"ends just before it":      {2*time.Minute + 2*time.Nanosecond, false, 2},
		"well within the bound":    {time.Hour, false, 2},
		"no bound but ctx's (0)":   {0, false, 2},
		"a negative bound is none": {-time.Second, false, 2},
	} {
		t.Run(name, func(t *testing.T) {
			rec, ts := newRecorder(t, jsonResponse(429, `{"error":"slow down"}`, "Retry-After", "120"), completed)
			clk := newClock()
			job, err := newTestClient(t, ts.URL, clk).AgentJobs.Wait(context.Background(), "p", "j", every, WithWaitTimeout(tt.timeout))
			if tt.wantErr != (err != nil) || rec.count() != tt.requests {
				t.Fatalf("job %+v, err %v after %d requests", job, err, rec.count())
			}
			if tt.wantErr && (!IsRateLimited(err) || errors.Is(err, ErrWaitTimeout) || clk.Now() != epoch.Add(time.Nanosecond)) {
				t.Errorf("err %v at %s", err, clk.Now())
			}
		})
	}
}
