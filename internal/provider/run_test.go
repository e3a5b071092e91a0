package provider

import (
	"bytes"
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The runner (work) on its own: what it records, says and logs.

// runJob runs a job creation of prompt through jobWork against url, on
// clk, and returns what it recorded, the status changes it reported and
// its diagnostics.
func runJob(ctx context.Context, t *testing.T, url string, clk *testClock, prompt string, setup func(*work[sdk.AgentJob])) (records []sdk.AgentJob, changes []string, diags diag.Diagnostics, last *sdk.AgentJob) {
	t.Helper()
	data := clientFor(t, url, sdk.WithClock(clk))
	data.waitOptions = nil // the SDK's own schedule: the clock makes it instant
	w := jobWork(data, mintlifytest.DemoProjectID, func(ctx context.Context) (*sdk.AgentJob, error) {
		return data.client.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, prompt)
	})
	w.doWait, w.timeout, w.words = true, time.Hour, createWords
	w.record = func(j *sdk.AgentJob) { records = append(records, *j) }
	w.onChange = func(j *sdk.AgentJob, from string) { changes = append(changes, from+" -> "+string(j.Status)) }
	if setup != nil {
		setup(&w)
	}
	last = w.run(ctx, &diags)
	return records, changes, diags, last
}

func TestWork_recordsTheAnswerAtOnceAndTheEndOfTheWait(t *testing.T) {
	fs, url, clk := startFake(t, mintlifytest.Config{})
	records, changes, diags, last := runJob(t.Context(), t, url, clk, "Document it", nil)
	if len(diags) != 0 || len(records) != 2 || records[0].Status != sdk.JobStatusActive || records[1].Status != sdk.JobStatusCompleted ||
		records[0].ID != records[1].ID || last == nil || last.Status != sdk.JobStatusCompleted {
		t.Fatalf("records %+v, last %+v, diagnostics %v", records, last, diags)
	}
	if len(changes) != 1 || changes[0] != "active -> completed" {
		t.Errorf("changes %q", changes)
	}
	if waited := clk.Now().Sub(epoch); waited < 3*time.Minute || fs.Requests(mintlifytest.RouteGetJob) == 0 {
		t.Errorf("waited %s", waited)
	}

	// Without waiting: the answer alone, once, and no poll.
	fs, url, clk = startFake(t, mintlifytest.Config{})
	records, changes, diags, last = runJob(t.Context(), t, url, clk, "Document it", func(w *work[sdk.AgentJob]) { w.doWait = false })
	if len(diags) != 0 || len(records) != 1 || records[0].Status != sdk.JobStatusActive || len(changes) != 0 || last.Status != sdk.JobStatusActive {
		t.Errorf("records %+v, changes %q, diagnostics %v", records, changes, diags)
	}
	if n := fs.Requests(mintlifytest.RouteGetJob); n != 0 || !clk.Now().Equal(epoch) {
		t.Errorf("%d polls, clock at %s", n, clk.Now())
	}

	// The resources follow no change of status: onChange is optional.
	_, url, clk = startFake(t, mintlifytest.Config{})
	records, _, diags, _ = runJob(t.Context(), t, url, clk, "Document it", func(w *work[sdk.AgentJob]) { w.onChange = nil })
	if len(diags) != 0 || len(records) != 2 || records[1].Status != sdk.JobStatusCompleted {
		t.Errorf("records %+v, diagnostics %v", records, diags)
	}
}

// No wait is given a timeout of 0 (none): the runner passes its own.
func TestWork_timeoutIsTheRunnersOnTheClock(t *testing.T) {
	fs, url, clk := startFake(t, mintlifytest.Config{})
	records, _, diags, last := runJob(t.Context(), t, url, clk, "[fake:never] Forever", func(w *work[sdk.AgentJob]) { w.timeout = 7 * time.Minute })
	id := fs.JobIDs(mintlifytest.DemoProjectID)[0]
	want := "Timed out waiting for the agent job: Agent job " + id + " was created and is saved in state (tainted, so the next " +
		"apply starts a new job; run `terraform untaint` to keep this one instead). It was still active after 7m. This can " +
		"take a while: raise the limit with\n\n  timeouts {\n    create = \"60m\"\n  }\n"
	if got := diagText(diags, diag.SeverityError); got != want || len(diags) != 1 {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
	if waited := clk.Now().Sub(epoch); waited != 7*time.Minute {
		t.Errorf("waited %s of the clock, want 7m", waited)
	}
	if len(records) != 2 || last == nil || last.Status != sdk.JobStatusActive {
		t.Errorf("records %+v, last %+v", records, last)
	}
}

// Odd fields are said once each, however many answers carried them; a
// status the provider does not know is logged once, and waited through.
func TestWork_saysEachOddFieldOnceAndWaitsThroughUnknownStatuses(t *testing.T) {
	fs, url, clk := startHostile(t, func(r *http.Request, status int, body string) (int, string) {
		body = oddAnswers["createdAt"](body)
		if r.Method == http.MethodGet {
			body = strings.Replace(body, `"status":"active"`, `"status":"queued"`, 1)
		}
		return status, body
	})
	var logs bytes.Buffer
	ctx := tflogtest.RootLogger(t.Context(), &logs)
	_, changes, diags, last := runJob(ctx, t, url, clk, "[fake:failed] Try", nil)
	id := fs.JobIDs(mintlifytest.DemoProjectID)[0]
	if got, want := strings.Join(changes, ", "), "active -> queued, queued -> failed"; got != want {
		t.Errorf("changes %q, want %q", got, want)
	}
	wantWarning := strings.TrimPrefix(unexpectedAnswer(id, oddProblems["createdAt"]), "warning: ")
	if got := diagText(diags, diag.SeverityWarning); got != wantWarning {
		t.Errorf("warnings %q, want %q", got, wantWarning)
	}
	// The job failed: the error and the warning both.
	wantError := `Agent job failed: Agent job ` + id + ` ended with status "failed". It stays in state, tainted: the next apply ` +
		"starts a new job. See the job in the Mintlify dashboard for the agent's error.\n"
	if got := diagText(diags, diag.SeverityError); got != wantError || last.Status != sdk.JobStatusFailed {
		t.Errorf("errors %q, want %q", got, wantError)
	}
	entries, err := tflogtest.MultilineJSONDecode(&logs)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, e := range entries {
		count[e["@message"].(string)]++ //nolint:forcetypeassert // every entry has a message
		if e["@message"] == "agent job has a status the provider does not know; still waiting" && (e["status"] != "queued" || e["id"] != id) {
			t.Errorf("log entry %v", e)
		}
	}
	for msg, want := range map[string]int{"agent job started": 1, "agent job has a status the provider does not know; still waiting": 1,
		"agent job status changed": 2, "agent job finished": 1} {
		if count[msg] != want {
			t.Errorf("%d log lines %q, want %d (%v)", count[msg], msg, want, count)
		}
	}
}

// A poll the API refuses (the job is gone, or a rate limit longer than the
// wait has left) ends the wait with the API's error, and keeps the job.
func TestWork_errorsWhileWaiting(t *testing.T) {
	t.Run("the job is gone", func(t *testing.T) {
		fs, url, clk := startFake(t, mintlifytest.Config{})
		_, _, diags, last := runJob(t.Context(), t, url, clk, "x", func(w *work[sdk.AgentJob]) {
			start := w.start
			w.start = func(ctx context.Context) (*sdk.AgentJob, error) {
				j, err := start(ctx)
				fs.AddProject(mintlifytest.DemoProjectID, mintlifytest.DemoOrg, mintlifytest.Dataset{}) // the job 404s from now on
				return j, err
			}
		})
		id := last.ID
		want := "Error while waiting for the agent job: Agent job " + id + " was created and is saved in state (tainted, so the next " +
			"apply starts a new job; run `terraform untaint` to keep this one instead). waiting for agent job " + id + ": getting agent job " +
			id + ": GET /v2/agent/demo-project/job/" + id + ": 404 Not Found: Job not found [request id req_0000002]\n\n" +
			"The agent job is gone from the Mintlify API: check it in the Mintlify dashboard.\n\n" + seeTroubleshooting + "\n"
		if got := diagText(diags, diag.SeverityError); got != want || len(diags) != 1 {
			t.Errorf("diagnostics %q, want %q", got, want)
		}
	})
	t.Run("a rate limit that outlasts the wait", func(t *testing.T) {
		fs, url, clk := startFake(t, mintlifytest.Config{})
		fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteGetJob, Kind: mintlifytest.FaultRateLimit, RetryAfter: 2 * time.Hour})
		_, _, diags, last := runJob(t.Context(), t, url, clk, "x", nil)
		got := diagText(diags, diag.SeverityError)
		if !strings.HasPrefix(got, "Error while waiting for the agent job: Agent job "+last.ID+" was created and is saved in state") ||
			!strings.Contains(got, "429 Too Many Requests") || !strings.Contains(got, "Try again after 2026-11-21 14:00:00 UTC.") ||
			strings.Contains(got, "Timed out") || len(diags) != 1 {
			t.Errorf("diagnostics %q", got)
		}
		wantRequests(t, fs, mintlifytest.RouteGetJob, 1, "polls: the wait went on past a Retry-After longer than it had left")
	})
}

func TestDescribeStatus(t *testing.T) {
	for status, want := range map[string]string{"": "of a status the API's answers did not give", "active": "active"} {
		if got := describeStatus(status); got != want {
			t.Errorf("describeStatus(%q) = %q, want %q", status, got, want)
		}
	}
}

func TestProblemNotes_saysNothingWithoutProblemsAndEachOnce(t *testing.T) {
	var diags diag.Diagnostics
	n := newProblemNotes("agent job", "j-1")
	n.add(nil)
	n.warn(&diags)
	if len(diags) != 0 {
		t.Fatalf("no problems, yet %v", diags)
	}
	n.add([]string{"a: odd", "b: odd"})
	n.add([]string{"b: odd", "a: odd", "c: odd"})
	n.warn(&diags)
	want := "Unexpected answer from Mintlify: Mintlify's answers about agent job j-1 had fields the provider could not use: " +
		"a: odd; b: odd; c: odd. The agent job is kept as it is and nothing is run again because of it; the attributes that " +
		"could not be read are empty.\n"
	if got := diagText(diags, diag.SeverityWarning); got != want || len(diags) != 1 {
		t.Errorf("%q, want %q", got, want)
	}
}

// The wait's timeout starts when the POST has answered, not before: a
// POST that first waits out a 50-second Retry-After still leaves the wait
// its whole minute, enough for a job active 55 seconds.
func TestWork_timeoutStartsAfterThePOST(t *testing.T) {
	fs, url, clk := startFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteCreateJob,
		Kind: mintlifytest.FaultRateLimit, RetryAfter: 50 * time.Second, Requests: []int{1}}}})
	records, _, diags, last := runJob(t.Context(), t, url, clk, "[fake:active=55s] Quick", func(w *work[sdk.AgentJob]) { w.timeout = time.Minute })
	if len(diags) != 0 || last == nil || last.Status != sdk.JobStatusCompleted || len(records) != 2 {
		t.Fatalf("last %+v, diagnostics %v", last, diags)
	}
	if slept := clk.slept(); slept[0] != 50*time.Second || fs.Requests(mintlifytest.RouteCreateJob) != 2 {
		t.Errorf("sleeps %v, %d POSTs", slept, fs.Requests(mintlifytest.RouteCreateJob))
	}
	if waited := clk.Now().Sub(epoch); waited < 105*time.Second || waited > 110*time.Second {
		t.Errorf("the run took %s of the clock, want the Retry-After and the job's 55s", waited)
	}
}
