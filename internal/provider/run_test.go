package provider

import (
	"bytes"
	"cmp"
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
	if waited := clk.Now().Sub(epoch); waited < 3*time.Minute || fs.Requests(mintlifytest.RouteAgentJobsGet) == 0 {
		t.Errorf("waited %s", waited)
	}

	// Without waiting: the answer alone, once, and no poll.
	fs, url, clk = startFake(t, mintlifytest.Config{})
	records, changes, diags, last = runJob(t.Context(), t, url, clk, "Document it", func(w *work[sdk.AgentJob]) { w.doWait = false })
	if len(diags) != 0 || len(records) != 1 || records[0].Status != sdk.JobStatusActive || len(changes) != 0 || last.Status != sdk.JobStatusActive {
		t.Errorf("records %+v, changes %q, diagnostics %v", records, changes, diags)
	}
	if n := fs.Requests(mintlifytest.RouteAgentJobsGet); n != 0 || !clk.Now().Equal(epoch) {
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
// wait has left) ends the wait with the API's error, and keeps the job:
// for a resource, with a warning (how the job ended is not known, and
// the next refresh reads it); for an action, which keeps no state, as an
// error.
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
		want := "Could not learn how the agent job ended: Agent job " + id + " was created and is saved in state, not tainted: " +
			"reading its status failed while waiting, so how it ended is not known yet. The next refresh (terraform plan " +
			"or terraform apply) reads it and records it; nothing starts again by itself.\n\nwaiting for agent job " + id +
			": getting agent job " + id + ": GET /v2/agent/demo-project/job/" + id + ": 404 Not Found: Job not found [request id " +
			"req_0000002]\n\nThe agent job is gone from the Mintlify API: check it in the Mintlify dashboard.\n\n" + seeTroubleshooting + "\n"
		if got := diagText(diags, diag.SeverityWarning); got != want || len(diags) != 1 {
			t.Errorf("diagnostics %q, want %q", got, want)
		}
	})
	t.Run("a rate limit that outlasts the wait", func(t *testing.T) {
		fs, url, clk := startFake(t, mintlifytest.Config{})
		fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultRateLimit, RetryAfter: 2 * time.Hour})
		_, _, diags, last := runJob(t.Context(), t, url, clk, "x", nil)
		got := diagText(diags, diag.SeverityWarning)
		if !strings.HasPrefix(got, "Could not learn how the agent job ended: Agent job "+last.ID+" was created and is saved in state, not tainted") ||
			!strings.Contains(got, "429 Too Many Requests") || !strings.Contains(got, "Try again after 2026-11-21 14:00:00 UTC.") ||
			strings.Contains(got, "Timed out") || len(diags) != 1 {
			t.Errorf("diagnostics %q", got)
		}
		wantRequests(t, fs, mintlifytest.RouteAgentJobsGet, 1, "polls: the wait went on past a Retry-After longer than it had left")
	})
	t.Run("reads that stall past the request timeout", func(t *testing.T) {
		fs, url, clk := startFake(t, mintlifytest.Config{})
		fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultStall})
		data := clientFor(t, url, sdk.WithClock(clk), sdk.WithRequestTimeout(20*time.Millisecond))
		data.waitOptions = nil
		w := jobWork(data, mintlifytest.DemoProjectID, func(ctx context.Context) (*sdk.AgentJob, error) {
			return data.client.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "x")
		})
		w.words = createWords
		diags, id := runToEnd(t, w)
		got := diagText(diags, diag.SeverityWarning)
		if !strings.HasPrefix(got, "Could not learn how the agent job ended: Agent job "+id+" was created and is saved in state, not tainted") ||
			!strings.Contains(got, "no response within 20ms") || len(diags) != 1 {
			t.Errorf("diagnostics %v", diags)
		}
	})
	t.Run("an action", func(t *testing.T) {
		fs, url, clk := startFake(t, mintlifytest.Config{})
		fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultClientError, Status: 404})
		_, _, diags, last := runJob(t.Context(), t, url, clk, "x", func(w *work[sdk.AgentJob]) { w.words = actionCreateWords })
		got := diagText(diags, diag.SeverityError)
		if !strings.HasPrefix(got, "Error while waiting for the agent job: Agent job "+last.ID+" goes on at Mintlify") ||
			!strings.Contains(got, "404 Not Found") || len(diags) != 1 {
			t.Errorf("diagnostics %q", got)
		}
	})
}

// A read that fails while waiting (a 404, 502s past the retries, an
// answer for another object) says nothing of how the work went: every
// resource that waits keeps what it started untainted, with a warning,
// so that nothing runs again by itself; the next refresh learns the
// outcome. An action, which keeps no state, fails.
func TestWork_aFailedReadWhileWaitingIsNotAFailedRun(t *testing.T) {
	type kind struct {
		noun               string // the runner's ("" for the test's name)
		route, otherAnswer string
		run                func(t *testing.T, url string, clk *testClock, action bool) (diag.Diagnostics, string)
	}
	setUp := func(t *testing.T, url string, clk *testClock) *providerData {
		data := clientFor(t, url, sdk.WithClock(clk), sdk.WithRetryBackoff(time.Second, time.Second))
		data.waitOptions = nil
		return data
	}
	kinds := map[string]kind{
		"agent job": {route: mintlifytest.RouteAgentJobsGet, otherAnswer: `{"id":"someone-elses-job","status":"completed"}`,
			run: func(t *testing.T, url string, clk *testClock, action bool) (diag.Diagnostics, string) {
				data := setUp(t, url, clk)
				w := jobWork(data, mintlifytest.DemoProjectID, func(ctx context.Context) (*sdk.AgentJob, error) {
					return data.client.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "x")
				})
				w.words = map[bool]workWords{false: createWords, true: actionCreateWords}[action]
				return runToEnd(t, w)
			}},
		"agent job message": {noun: "agent job", route: mintlifytest.RouteAgentJobsGet, otherAnswer: `{"id":"someone-elses-job","status":"completed"}`,
			run: func(t *testing.T, url string, clk *testClock, action bool) (diag.Diagnostics, string) {
				data := setUp(t, url, clk)
				job, err := data.client.AgentJobs.Create(t.Context(), mintlifytest.DemoProjectID, "[fake:active=1s] x")
				if err != nil {
					t.Fatal(err)
				}
				clk.Advance(time.Minute)
				w := jobWork(data, mintlifytest.DemoProjectID, func(ctx context.Context) (*sdk.AgentJob, error) {
					return data.client.AgentJobs.SendMessage(ctx, mintlifytest.DemoProjectID, job.ID, "more")
				})
				w.words = map[bool]workWords{false: messageWords, true: actionMessageWords}[action]
				return runToEnd(t, w)
			}},
		"deployment": {route: mintlifytest.RouteDeploymentsStatus, otherAnswer: `{"_id":"0123456789abcdef01234567","status":"success"}`,
			run: func(t *testing.T, url string, clk *testClock, action bool) (diag.Diagnostics, string) {
				data := setUp(t, url, clk)
				w := deployWork(data, "deployment", func(ctx context.Context) (*sdk.Deployment, error) {
					started, err := data.client.Deployments.Trigger(ctx, mintlifytest.DemoProjectID)
					if err != nil {
						return nil, err
					}
					return queued(mintlifytest.DemoProjectID, started.StatusID, nil), nil
				})
				w.words = map[bool]workWords{false: deploymentWords("deployment", "Could not deploy", func(id string) string { return "kept " + id }, "failed"),
					true: actionDeployWords("deployment", "Could not deploy", "failed")}[action]
				return runToEnd(t, w)
			}},
		"preview deployment": {route: mintlifytest.RouteDeploymentsStatus, otherAnswer: `{"_id":"0123456789abcdef01234567","status":"success"}`,
			run: func(t *testing.T, url string, clk *testClock, action bool) (diag.Diagnostics, string) {
				data := setUp(t, url, clk)
				w := deployWork(data, "preview deployment", func(ctx context.Context) (*sdk.Deployment, error) {
					started, err := data.client.Deployments.Preview(ctx, mintlifytest.DemoProjectID, "feature")
					if err != nil {
						return nil, err
					}
					return queued(mintlifytest.DemoProjectID, started.StatusID, nil), nil
				})
				w.words = map[bool]workWords{false: previewCreateWords, true: actionDeployWords("preview deployment", "x", "y")}[action]
				return runToEnd(t, w)
			}},
		"static export": {route: mintlifytest.RouteStaticExportsGet, otherAnswer: `{"jobId":"se_other","status":"completed"}`,
			run: func(t *testing.T, url string, clk *testClock, action bool) (diag.Diagnostics, string) {
				w := exportWork(setUp(t, url, clk), sdk.StaticExportRequest{Domain: "docs.example.com"})
				w.words = map[bool]workWords{false: exportCreateWords, true: exportActionWords}[action]
				return runToEnd(t, w)
			}},
	}
	for name, k := range kinds {
		noun := cmp.Or(k.noun, name)
		for fault, f := range map[string]mintlifytest.Fault{
			"404":              {Kind: mintlifytest.FaultClientError, Status: 404},
			"502s in a row":    {Kind: mintlifytest.FaultServerError},
			"another's answer": {Kind: mintlifytest.FaultMalformed, Body: k.otherAnswer},
		} {
			t.Run(name+", "+fault, func(t *testing.T) {
				for _, action := range []bool{false, true} {
					f.Route = k.route
					fs, url, clk := startFake(t, mintlifytest.Config{DefaultDeployment: testDeployment, Faults: []mintlifytest.Fault{f}})
					diags, id := k.run(t, url, clk, action)
					errs, warnings := diagText(diags, diag.SeverityError), diagText(diags, diag.SeverityWarning)
					if action {
						if !strings.HasPrefix(errs, "Error while waiting for the "+noun+": ") || !strings.Contains(errs, id) {
							t.Errorf("an action's failed read: errors %q, warnings %q", errs, warnings)
						}
						continue
					}
					summary := "Could not learn how the " + noun + " ended: "
					if errs != "" || !strings.HasPrefix(warnings, summary) || !strings.Contains(warnings, id) ||
						!strings.Contains(warnings, "not known") || !strings.Contains(warnings, "The next refresh (terraform plan or terraform apply) reads it") {
						t.Errorf("a resource's failed read: errors %q, warnings %q", errs, warnings)
					}
					if fs.TotalRequests() == 0 {
						t.Error("no request")
					}
				}
			})
		}
	}
}

// runToEnd runs w, waiting for at most an hour, and returns its
// diagnostics and the id it recorded.
func runToEnd[O any](t *testing.T, w work[O]) (diag.Diagnostics, string) {
	t.Helper()
	var diags diag.Diagnostics
	id := ""
	w.doWait, w.timeout = true, time.Hour
	w.record = func(o *O) { id = w.kind.id(o) }
	w.run(t.Context(), &diags)
	if id == "" {
		t.Fatalf("nothing was recorded: %v", diags)
	}
	return diags, id
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
	fs, url, clk := startFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteAgentJobsCreate,
		Kind: mintlifytest.FaultRateLimit, RetryAfter: 50 * time.Second, Requests: []int{1}}}})
	records, _, diags, last := runJob(t.Context(), t, url, clk, "[fake:active=55s] Quick", func(w *work[sdk.AgentJob]) { w.timeout = time.Minute })
	if len(diags) != 0 || last == nil || last.Status != sdk.JobStatusCompleted || len(records) != 2 {
		t.Fatalf("last %+v, diagnostics %v", last, diags)
	}
	if slept := clk.slept(); slept[0] != 50*time.Second || fs.Requests(mintlifytest.RouteAgentJobsCreate) != 2 {
		t.Errorf("sleeps %v, %d POSTs", slept, fs.Requests(mintlifytest.RouteAgentJobsCreate))
	}
	if waited := clk.Now().Sub(epoch); waited < 105*time.Second || waited > 110*time.Second {
		t.Errorf("the run took %s of the clock, want the Retry-After and the job's 55s", waited)
	}
}
