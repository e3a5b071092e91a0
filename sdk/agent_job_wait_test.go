package sdk

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Waiting for an agent job against answers that are odd or refused: the
// wait polls on, keeps its schedule and honors Retry-After (the schedule's
// own tests are in wait_test.go).

// A job read without a status is not terminal: the wait goes on, and the
// callback sees the problem.
func TestWaitForAgentJob_answerWithoutStatusKeepsPollingAndReportsTheProblem(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, `{"id":"j"}`), jsonResponse(200, `{"id":"j","status":7}`), jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"completed"`, 1)))
	c := newTestClient(t, ts.URL, newClock())
	var problems [][]string
	job, err := c.AgentJobs.Wait(context.Background(), "p", "j", WithStatusCallback(func(j *AgentJob) { problems = append(problems, j.Problems) }))
	if err != nil || job.Status != JobStatusCompleted || job.Problems != nil || rec.count() != 3 {
		t.Fatalf("job %+v, err = %v after %d polls; want to poll on to the end", job, err, rec.count())
	}
	want := [][]string{{"status: missing or empty"}, {"status: want a string, got a number"}, nil}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems seen (-want +got):\n%s", diff)
	}
}

func TestWaitForAgentJob_unknownStatusKeepsPolling(t *testing.T) {
	rec, ts := newRecorder(t,
		jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"queued"`, 1)),
		jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"completed"`, 1)))
	c := newTestClient(t, ts.URL, &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)})
	var seen []JobStatus
	job, err := c.AgentJobs.Wait(context.Background(), "p", "j", WithStatusCallback(func(j *AgentJob) { seen = append(seen, j.Status) }))
	if err != nil || job.Status != JobStatusCompleted || rec.count() != 2 {
		t.Fatalf("job %+v, err %v, %d polls", job, err, rec.count())
	}
	if diff := cmp.Diff([]JobStatus{"queued", "completed"}, seen); diff != "" || JobStatus("queued").Known() || !JobStatusActive.Known() || !JobStatusFailed.Known() {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
}

func TestWaitForAgentJob_honorsRetryAfterOnAPoll(t *testing.T) {
	// The 429's Retry-After (120 s) is longer than the client waits inside
	// one request (60 s), so the waiter itself comes back when told.
	rec, ts := newRecorder(t,
		jsonResponse(429, `{"error":"slow down"}`, "Retry-After", "120"),
		jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"completed"`, 1)))
	clk := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}
	c := newTestClient(t, ts.URL, clk)
	job, err := c.AgentJobs.Wait(context.Background(), "p", "j", WithPollInterval(time.Second, time.Second))
	if err != nil || job.Status != JobStatusCompleted || rec.count() != 2 {
		t.Fatalf("job %+v, err %v after %d requests", job, err, rec.count())
	}
	if s := clk.Sleeps(); len(s) != 2 || s[1] != 120*time.Second {
		t.Errorf("slept %v; want the poll delay, then the 120 s asked for", s)
	}
}

// A poll refused with 429 and no Retry-After keeps the poll schedule: it
// is not sent again at once.
func TestWaitForAgentJob_rateLimitWithoutRetryAfterKeepsTheSchedule(t *testing.T) {
	rec, ts := newRecorder(t,
		jsonResponse(429, `{"error":"slow down"}`),
		jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"completed"`, 1)))
	clk := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}
	c := newTestClient(t, ts.URL, clk, WithMaxRetries(0))
	job, err := c.AgentJobs.Wait(context.Background(), "p", "j", WithPollInterval(time.Second, time.Second))
	if err != nil || job.Status != JobStatusCompleted || rec.count() != 2 {
		t.Fatalf("job %+v, err %v after %d requests", job, err, rec.count())
	}
	if s := clk.Sleeps(); len(s) != 2 || s[1] < 900*time.Millisecond {
		t.Errorf("slept %v; want the poll delay twice", s)
	}
}

func TestWaitForAgentJob_retryAfterPastTheDeadlineFailsAtOnce(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(429, `{"error":"slow down"}`, "Retry-After", "600"), jsonResponse(200, jobJSON))
	clk := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}
	c := newTestClient(t, ts.URL, clk)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.AgentJobs.Wait(ctx, "p", "j")
	if !IsRateLimited(err) || !strings.Contains(err.Error(), "try again after 2026-11-21T12:10:") || rec.count() != 1 {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
}

func TestBoundary_pollIntervalOptionIgnoresNonPositive(t *testing.T) {
	w := waitSettings{initial: DefaultPollInitial, max: DefaultPollMax}
	WithPollInterval(0, 0).applyWait(&w)
	if w.initial != DefaultPollInitial || w.max != DefaultPollMax {
		t.Errorf("zero option changed the schedule: %+v", w)
	}
	WithPollInterval(-time.Second, -time.Second).applyWait(&w)
	if w.initial != DefaultPollInitial || w.max != DefaultPollMax {
		t.Errorf("negative option changed the schedule: %+v", w)
	}
	WithPollInterval(time.Nanosecond, 0).applyWait(&w)
	if w.initial != time.Nanosecond || w.max != DefaultPollMax {
		t.Errorf("the smallest start refused, or a zero cap taken: %+v", w)
	}
	WithPollInterval(2*time.Second, time.Second).applyWait(&w)
	if w.initial != 2*time.Second || w.max != DefaultPollMax {
		t.Errorf("a cap below the start was taken: %+v", w)
	}
	WithPollInterval(time.Second, time.Second).applyWait(&w)
	if w.initial != time.Second || w.max != time.Second {
		t.Errorf("equal start and cap refused: %+v", w)
	}
}
