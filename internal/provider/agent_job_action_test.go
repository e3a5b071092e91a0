package provider

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Terraform 1.14, the first to run actions, cannot be installed here: the
// actions are driven below Terraform, through the provider's protocol-6
// server, as Terraform would drive them.

type actionHarness struct {
	t *testing.T
	// The actions' RPCs are on ProviderServerWithActions until
	// terraform-plugin-go folds them into ProviderServer.
	srv     tfprotov6.ProviderServerWithActions //nolint:staticcheck // the action RPCs are only there in terraform-plugin-go v0.31
	fs      *mintlifytest.Fake
	baseURL string
	clk     *testClock
	schemas map[string]*tfprotov6.Schema
}

// newActionHarness serves the provider in-process against a fake API on a
// manual clock (as startFake does), and configures it as Terraform would;
// withProject says whether the provider has a default project.
func newActionHarness(t *testing.T, cfg mintlifytest.Config, withProject bool) *actionHarness {
	t.Helper()
	fs, url, clk := startFake(t, cfg)
	return harnessFor(t, fs, url, clk, withProject)
}

// newHostileActionHarness is newActionHarness with the fake behind
// rewrite (see startHostile).
func newHostileActionHarness(t *testing.T, rewrite func(r *http.Request, status int, body string) (int, string)) *actionHarness {
	t.Helper()
	fs, url, clk := startHostile(t, rewrite)
	return harnessFor(t, fs, url, clk, true)
}

func harnessFor(t *testing.T, fs *mintlifytest.Fake, url string, clk *testClock, withProject bool) *actionHarness {
	t.Helper()
	server, err := providerserver.NewProtocol6WithError(testProvider(clk))()
	if err != nil {
		t.Fatal(err)
	}
	srv, ok := server.(tfprotov6.ProviderServerWithActions) //nolint:staticcheck // as above
	if !ok {
		t.Fatalf("%T serves no actions", server)
	}
	ctx := context.Background()
	schema, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schema.Diagnostics) > 0 {
		t.Fatalf("schema: %v %v", err, schema.Diagnostics)
	}
	h := &actionHarness{t: t, srv: srv, fs: fs, baseURL: url, clk: clk, schemas: map[string]*tfprotov6.Schema{}}
	for name, s := range schema.ActionSchemas {
		h.schemas[name] = s.Schema
	}
	vals := map[string]tftypes.Value{"api_key": str(mintlifytest.DemoAPIKey), "base_url": str(url)}
	if withProject {
		vals["project_id"] = str(mintlifytest.DemoProjectID)
	}
	t.Setenv(EnvCacheTTL, "0")
	conf, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.14.0", Config: h.dynamic(schema.Provider, vals)})
	if err != nil || len(conf.Diagnostics) > 0 {
		t.Fatalf("configure: %v %v", err, conf.Diagnostics)
	}
	return h
}

func (h *actionHarness) url() string { return h.baseURL }

// dynamic encodes vals as a value of schema s, the others null.
func (h *actionHarness) dynamic(s *tfprotov6.Schema, vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	h.t.Helper()
	typ := s.ValueType().(tftypes.Object) //nolint:forcetypeassert // a schema's type is an object
	dv, err := tfprotov6.NewDynamicValue(typ, objectValue(typ, vals, false))
	if err != nil {
		h.t.Fatal(err)
	}
	return &dv
}

// nullValue encodes the null value of schema s: no object at all, as
// Terraform sends for a resource not yet created or an empty config.
func (h *actionHarness) nullValue(s *tfprotov6.Schema) *tfprotov6.DynamicValue {
	h.t.Helper()
	typ := s.ValueType()
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
	if err != nil {
		h.t.Fatal(err)
	}
	return &dv
}

func (h *actionHarness) config(action string, vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	h.t.Helper()
	s := h.schemas[action]
	if s == nil {
		h.t.Fatalf("no action %s", action)
	}
	return h.dynamic(s, vals)
}

// check validates and plans the action, as Terraform does before invoking.
func (h *actionHarness) check(action string, vals map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	h.t.Helper()
	ctx := context.Background()
	v, err := h.srv.ValidateActionConfig(ctx, &tfprotov6.ValidateActionConfigRequest{ActionType: action, Config: h.config(action, vals)})
	if err != nil {
		h.t.Fatal(err)
	}
	if len(v.Diagnostics) > 0 {
		return v.Diagnostics
	}
	p, err := h.srv.PlanAction(ctx, &tfprotov6.PlanActionRequest{ActionType: action, Config: h.config(action, vals)})
	if err != nil {
		h.t.Fatal(err)
	}
	return p.Diagnostics
}

// invoke runs the action and reads its whole event stream.
func (h *actionHarness) invoke(ctx context.Context, action string, vals map[string]tftypes.Value) (progress []string, diags []*tfprotov6.Diagnostic) {
	h.t.Helper()
	if d := h.check(action, vals); len(d) > 0 {
		h.t.Fatalf("plan: %s", diagsText(d))
	}
	stream, err := h.srv.InvokeAction(ctx, &tfprotov6.InvokeActionRequest{ActionType: action, Config: h.config(action, vals)})
	if err != nil {
		h.t.Fatal(err)
	}
	completed := 0
	for ev := range stream.Events {
		switch e := ev.Type.(type) {
		case tfprotov6.ProgressInvokeActionEventType:
			progress = append(progress, e.Message)
		case tfprotov6.CompletedInvokeActionEventType:
			completed++
			diags = e.Diagnostics
		}
	}
	if completed != 1 {
		h.t.Fatalf("%d completed events", completed)
	}
	return progress, diags
}

func diagsText(diags []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		sev := "warning"
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			sev = "error"
		}
		b.WriteString(sev + ": " + d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}

func contains(t *testing.T, what, text string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}

func prompt(p string) map[string]tftypes.Value { return map[string]tftypes.Value{"prompt": str(p)} }

// onlyJob is the id of the one job of the demo project, after one POST.
func (h *actionHarness) onlyJob() string {
	h.t.Helper()
	ids := h.fs.JobIDs(mintlifytest.DemoProjectID)
	if len(ids) != 1 || h.fs.Requests(mintlifytest.RouteAgentJobsCreate) != 1 {
		h.t.Fatalf("jobs %v after %d POSTs", ids, h.fs.Requests(mintlifytest.RouteAgentJobsCreate))
	}
	return ids[0]
}

// sameLines fails the test unless got is want, line by line; ID in want
// stands for id.
func sameLines(t *testing.T, what string, got []string, id string, want ...string) {
	t.Helper()
	for i := range want {
		want[i] = strings.ReplaceAll(want[i], "ID", id)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n%s\nwant:\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

const (
	created  = `Agent job ID created in project "demo-project"; it is active.`
	nowDone  = "Agent job ID is now completed (was active)."
	prOpened = "Agent job ID is completed: pull request https://github.com/acme/demo-project/pull/101"
)

func TestAction_agentJobOutcomes(t *testing.T) {
	for name, tt := range map[string]struct {
		prompt       string
		wantProgress []string
		wantDiags    string
	}{
		"completed with a pull request": {prompt: "Document it", wantProgress: []string{created, nowDone, prOpened}},
		"completed, no change": {prompt: "[fake:nochange] Check it", wantProgress: []string{created, nowDone,
			"Agent job ID is completed and opened no pull request (the agent changed no files)."}},
		"failed": {prompt: "[fake:failed] Break it", wantProgress: []string{created, "Agent job ID is now failed (was active)."},
			wantDiags: `error: Agent job failed: Agent job ID ended with status "failed". Invoke the action again to start a new job. ` +
				"See the job in the Mintlify dashboard for the agent's error.\n"},
		"archived": {prompt: "[fake:archived] Shelve it", wantProgress: []string{created, "Agent job ID is now archived (was active)."},
			wantDiags: "warning: Agent job archived: Agent job ID was archived before it completed; pr_link is null (the job opened no pull request).\n"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newActionHarness(t, mintlifytest.Config{}, true)
			progress, diags := h.invoke(context.Background(), "mintlify_agent_job", prompt(tt.prompt))
			id := h.onlyJob()
			sameLines(t, "progress", progress, id, tt.wantProgress...)
			if got := diagsText(diags); got != strings.ReplaceAll(tt.wantDiags, "ID", id) {
				t.Errorf("diagnostics %q, want %q", got, tt.wantDiags)
			}
			// Three minutes of the fake's clock, and a little more to notice.
			if waited := h.clk.Now().Sub(epoch); waited < 3*time.Minute || waited > 4*time.Minute {
				t.Errorf("the wait lasted %s of the clock", waited)
			}
		})
	}
}

// messageFinishedJob sends prompt, with the message action, to a job that
// finished a minute ago; it returns that job's id and what the action said.
func (h *actionHarness) messageFinishedJob(prompt string) (id string, progress []string, diags []*tfprotov6.Diagnostic) {
	id = h.fs.CreateJob(mintlifytest.DemoProjectID, "[fake:active=1m] First round")
	h.clk.Advance(time.Minute)
	progress, diags = h.invoke(context.Background(), "mintlify_agent_job_message", map[string]tftypes.Value{"job_id": str(id), "prompt": str(prompt)})
	return id, progress, diags
}

// An archived job that had opened a pull request names it.
func TestAction_archivedJobNamesItsPullRequest(t *testing.T) {
	h := newActionHarness(t, mintlifytest.Config{}, true)
	id, progress, diags := h.messageFinishedJob("[fake:archived] Shelve it")
	sameLines(t, "progress", progress, id, `Message sent to agent job ID in project "demo-project"; the job is active.`,
		"Agent job ID is now archived (was active).", "Agent job ID is archived: pull request https://github.com/acme/demo-project/pull/101")
	if got, want := diagsText(diags), "warning: Agent job archived: Agent job "+id+" was archived before it completed; pr_link is "+
		"https://github.com/acme/demo-project/pull/101.\n"; got != want {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
}

func TestAction_agentJobWithoutWaiting(t *testing.T) {
	h := newActionHarness(t, mintlifytest.Config{}, true)
	vals := prompt("[fake:never] Fire and forget")
	vals["wait_for_completion"] = tftypes.NewValue(tftypes.Bool, false)
	progress, diags := h.invoke(context.Background(), "mintlify_agent_job", vals)
	sameLines(t, "progress", progress, h.onlyJob(), created)
	if len(diags) > 0 {
		t.Errorf("diagnostics: %s", diagsText(diags))
	}
	if n := h.fs.Requests(mintlifytest.RouteAgentJobsGet); n != 0 || !h.clk.Now().Equal(epoch) {
		t.Errorf("%d polls, until %s, without waiting", n, h.clk.Now())
	}
	// wait_for_completion = true waits, as null does.
	vals["wait_for_completion"] = tftypes.NewValue(tftypes.Bool, true)
	vals["prompt"] = str("[fake:nochange] Wait for it")
	progress, _ = h.invoke(context.Background(), "mintlify_agent_job", vals)
	if len(progress) != 3 || h.fs.Requests(mintlifytest.RouteAgentJobsGet) == 0 {
		t.Errorf("progress %q after %d polls", progress, h.fs.Requests(mintlifytest.RouteAgentJobsGet))
	}
}

func TestAction_agentJobTimeoutAndInterrupt(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		h := newActionHarness(t, mintlifytest.Config{}, true)
		vals := prompt("[fake:never] Forever")
		vals["timeout"] = str("2m")
		progress, diags := h.invoke(context.Background(), "mintlify_agent_job", vals)
		id := h.onlyJob()
		sameLines(t, "progress", progress, id, created)
		want := "error: Timed out waiting for the agent job: Agent job " + id + " goes on at Mintlify: an action keeps no state, so " +
			"follow it in the Mintlify dashboard. It was still active after 2m. This can take a while: raise the limit with\n\n" +
			"  timeout = \"60m\"\n"
		if got := diagsText(diags); got != want {
			t.Errorf("diagnostics %q, want %q", got, want)
		}
		if waited := h.clk.Now().Sub(epoch); waited != 2*time.Minute {
			t.Errorf("the wait lasted %s of the clock, want 2m", waited)
		}
	})
	t.Run("default timeout", func(t *testing.T) {
		h := newActionHarness(t, mintlifytest.Config{}, true)
		_, diags := h.invoke(context.Background(), "mintlify_agent_job", prompt("[fake:never] Forever"))
		contains(t, "diagnostics", diagsText(diags), "It was still active after 30m.")
		if waited := h.clk.Now().Sub(epoch); waited != DefaultCreateTimeout {
			t.Errorf("the wait lasted %s of the clock, want %s", waited, DefaultCreateTimeout)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		h := newActionHarness(t, mintlifytest.Config{}, true)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		h.clk.onSleep(func(context.Context) {
			if h.fs.Requests(mintlifytest.RouteAgentJobsGet) == 2 {
				cancel() // Ctrl-C
			}
		})
		_, diags := h.invoke(ctx, "mintlify_agent_job", prompt("[fake:never] Forever"))
		id := h.onlyJob()
		want := "error: Interrupted while waiting for the agent job: Agent job " + id + " goes on at Mintlify: an action keeps no " +
			"state, so follow it in the Mintlify dashboard. It was still active when Terraform stopped waiting. To wait longer " +
			"next time, raise the action's timeout.\n"
		if got := diagsText(diags); got != want {
			t.Errorf("diagnostics %q, want %q", got, want)
		}
		wantRequests(t, h.fs, mintlifytest.RouteAgentJobsGet, 2, "polls")
	})
}

func TestAction_rateLimitedPOST(t *testing.T) {
	t.Run("a short Retry-After is waited, and the POST sent again", func(t *testing.T) {
		h := newActionHarness(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultRateLimit, RetryAfter: 40 * time.Second, Requests: []int{1}}}}, true)
		_, diags := h.invoke(context.Background(), "mintlify_agent_job", prompt("Document it"))
		if len(diags) > 0 || h.fs.Requests(mintlifytest.RouteAgentJobsCreate) != 2 || len(h.fs.JobIDs(mintlifytest.DemoProjectID)) != 1 {
			t.Errorf("%d POSTs, %d jobs: %s", h.fs.Requests(mintlifytest.RouteAgentJobsCreate), len(h.fs.JobIDs(mintlifytest.DemoProjectID)), diagsText(diags))
		}
		if slept := h.clk.slept(); len(slept) == 0 || slept[0] != 40*time.Second {
			t.Errorf("sleeps %v: the first is not the Retry-After", slept)
		}
	})
	t.Run("a long one fails at once, saying when", func(t *testing.T) {
		h := newActionHarness(t, mintlifytest.Config{JobBudget: 1}, true)
		// The hour's budget of 1 is spent by a job created through the API.
		c, _ := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(h.url()))
		if _, err := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "first"); err != nil {
			t.Fatal(err)
		}
		_, diags := h.invoke(context.Background(), "mintlify_agent_job", prompt("Document it"))
		contains(t, "diagnostics", diagsText(diags), "Could not create the agent job", "429 Too Many Requests",
			"try again after 2026-11-21T13:00:00Z, in 1h0m0s", "Try again after 2026-11-21 13:00:00 UTC.")
		if strings.Contains(diagsText(diags), "may exist") || h.fs.Requests(mintlifytest.RouteAgentJobsCreate) != 2 || len(h.clk.slept()) != 0 {
			t.Errorf("%d POSTs, sleeps %v: %s", h.fs.Requests(mintlifytest.RouteAgentJobsCreate), h.clk.slept(), diagsText(diags))
		}
	})
}

// A 404 names what was not found: the project of a new job, the job of a
// message.
func TestAction_notFoundAdvice(t *testing.T) {
	h := newActionHarness(t, mintlifytest.Config{}, true)
	vals := prompt("x")
	vals["project_id"] = str("no-such-project")
	_, diags := h.invoke(context.Background(), "mintlify_agent_job", vals)
	if got := diagsText(diags); !strings.HasPrefix(got, "error: Could not create the agent job: ") ||
		!strings.HasSuffix(got, " 404 Not Found: Project not found [request id req_0000001]\n\n"+projectNotFound+"\n\n"+seeTroubleshooting+"\n") {
		t.Errorf("diagnostics %q", got)
	}
	_, diags = h.invoke(context.Background(), "mintlify_agent_job_message", map[string]tftypes.Value{"job_id": str("nope"), "prompt": str("x")})
	if got := diagsText(diags); !strings.HasPrefix(got, "error: Could not send the message to the agent job: ") ||
		!strings.HasSuffix(got, " 404 Not Found: Job not found [request id req_0000002]\n\n"+jobNotFound+"\n\n"+seeTroubleshooting+"\n") {
		t.Errorf("diagnostics %q", got)
	}
}

func TestAction_invalidConfigFailsAtPlanWithNoRequest(t *testing.T) {
	h := newActionHarness(t, mintlifytest.Config{}, true)
	for _, tt := range []struct {
		action string
		vals   map[string]tftypes.Value
		want   string
	}{
		{"mintlify_agent_job", prompt("  "), `prompt "  " must not be empty or only white space`},
		{"mintlify_agent_job", map[string]tftypes.Value{"prompt": str("x"), "project_id": str("..")}, `project_id ".." is not allowed`},
		{"mintlify_agent_job", map[string]tftypes.Value{"prompt": str("x"), "project_id": str("acme/docs")},
			`project_id "acme/docs" may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character).`},
		{"mintlify_agent_job", map[string]tftypes.Value{"prompt": str("x"), "timeout": str("soon")}, `timeout "soon" must be a duration from 1m to 24h, such as "30m".`},
		{"mintlify_agent_job", map[string]tftypes.Value{"prompt": str("x"), "timeout": str("0s")}, `error: Invalid timeout: timeout "0s" must be a duration from 1m to 24h, such as "30m".`},
		{"mintlify_agent_job", map[string]tftypes.Value{"prompt": str("x"), "timeout": str("1ms")}, `timeout "1ms" must be a duration from 1m to 24h, such as "30m".`},
		{"mintlify_agent_job", map[string]tftypes.Value{"prompt": str("x"), "timeout": str("59s")}, `timeout "59s" must be a duration from 1m to 24h, such as "30m".`},
		{"mintlify_agent_job", map[string]tftypes.Value{"prompt": str("x"), "timeout": str("100000h")}, `timeout "100000h" must be a duration from 1m to 24h, such as "30m".`},
		{"mintlify_agent_job", map[string]tftypes.Value{"prompt": str("x"), "timeout": str("2d")}, `timeout "2d" must be a duration from 1m to 24h, such as "30m".`},
		// One rule, one wording, whatever is wrong (as for timeouts.create).
		{"mintlify_agent_job", map[string]tftypes.Value{"prompt": str("x"), "timeout": str("-5m")}, `timeout "-5m" must be a duration from 1m to 24h, such as "30m".`},
		{"mintlify_agent_job", map[string]tftypes.Value{"prompt": str("x"), "timeout": str("1d")}, `timeout "1d" must be a duration from 1m to 24h, such as "30m".`},
		{"mintlify_agent_job_message", map[string]tftypes.Value{"prompt": str("x"), "job_id": str(".")}, `job_id "." is not allowed`},
		{"mintlify_agent_job_message", map[string]tftypes.Value{"prompt": str("x"), "job_id": str("job 1")}, `job_id "job 1" may hold only ASCII letters`},
		{"mintlify_agent_job_message", map[string]tftypes.Value{"prompt": str(""), "job_id": str("j")}, `prompt "" must not be empty`},
		{"mintlify_agent_job_message", map[string]tftypes.Value{"prompt": str("x"), "job_id": str("j"), "timeout": str("24h1m")}, `timeout "24h1m" must be a duration from 1m to 24h`},
	} {
		got := diagsText(h.check(tt.action, tt.vals))
		contains(t, tt.action, got, tt.want)
		if n := strings.Count(got, "\n"); n != 1 {
			t.Errorf("%s: %d diagnostics, want 1:\n%s", tt.action, n, got)
		}
	}
	// The bounds themselves are allowed.
	for _, timeout := range []string{"1m", "24h", "1h30m"} {
		for _, action := range []string{"mintlify_agent_job", "mintlify_agent_job_message"} {
			if d := h.check(action, map[string]tftypes.Value{"prompt": str("x"), "job_id": str("j"), "timeout": str(timeout)}); len(d) > 0 {
				t.Errorf("%s, timeout %s: %s", action, timeout, diagsText(d))
			}
		}
	}
	noProject := newActionHarness(t, mintlifytest.Config{}, false)
	contains(t, "plan", diagsText(noProject.check("mintlify_agent_job", prompt("x"))), "Missing project_id")
	if n := h.fs.TotalRequests() + noProject.fs.TotalRequests(); n != 0 {
		t.Errorf("%d requests for invalid configuration", n)
	}
}

func TestAction_agentJobMessage(t *testing.T) {
	h := newActionHarness(t, mintlifytest.Config{}, true)
	id, progress, diags := h.messageFinishedJob("[fake:active=10m] Also the changelog")
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	sameLines(t, "progress", progress, id, `Message sent to agent job ID in project "demo-project"; the job is active.`, nowDone, prOpened)
	wantRequests(t, h.fs, mintlifytest.RouteAgentJobsSendMessage, 1, "messages")
}

// The job action keeps a job whose 201 answer has one odd field: the job
// is waited for by reading it, the odd field named in a warning, and
// nothing is sent again. An answer without the job's id fails, saying the
// job may exist.
func TestAction_oddCreateAnswers(t *testing.T) {
	for _, key := range []string{"createdAt", "statusnum", "nostatus"} {
		t.Run(key, func(t *testing.T) {
			h := newHostileActionHarness(t, rewriteOdd)
			progress, diags := h.invoke(context.Background(), "mintlify_agent_job", prompt("[odd:"+key+"] Document it"))
			id := h.onlyJob()
			want := []string{created, nowDone, prOpened}
			if key != "createdAt" { // the POST's answer gave no status
				want = []string{`Agent job ID created in project "demo-project"; it is of a status the API's answers did not give.`,
					"Agent job ID is now active (was of a status the API's answers did not give).", nowDone, prOpened}
			}
			sameLines(t, "progress", progress, id, want...)
			if got := diagsText(diags); got != unexpectedAnswer(id, oddProblems[key]) {
				t.Errorf("diagnostics %q", got)
			}
		})
	}
	t.Run("no id", func(t *testing.T) {
		h := newHostileActionHarness(t, rewriteOdd)
		progress, diags := h.invoke(context.Background(), "mintlify_agent_job", prompt("[odd:empty] Document it"))
		contains(t, "diagnostics", diagsText(diags), "error: Could not create the agent job: creating agent job: malformed response to POST "+
			"/v2/agent/demo-project/job: id: missing or empty", actionCreateWords.mayHaveTakenEffect)
		if len(progress) != 0 || h.fs.Requests(mintlifytest.RouteAgentJobsCreate) != 1 || h.fs.Requests(mintlifytest.RouteAgentJobsGet) != 0 {
			t.Errorf("progress %q, %d POSTs, %d polls", progress, h.fs.Requests(mintlifytest.RouteAgentJobsCreate), h.fs.Requests(mintlifytest.RouteAgentJobsGet))
		}
	})
}

// A 2xx answer to a message means it was accepted, whatever its body:
// the action reads the job and waits for it, and sends the message once.
func TestAction_oddMessageAnswers(t *testing.T) {
	for _, key := range []string{"empty", "text", "html", "otherjob", "createdAt", "statusnum", "nostatus"} {
		t.Run(key, func(t *testing.T) {
			h := newHostileActionHarness(t, rewriteOdd)
			id, progress, diags := h.messageFinishedJob("[odd:" + key + "] [fake:active=5m] Also the changelog")
			want := []string{`Message sent to agent job ID in project "demo-project"; the job is active.`, nowDone, prOpened}
			if key != "createdAt" {
				want = []string{`Message sent to agent job ID in project "demo-project"; the job is of a status the API's answers did not give.`,
					"Agent job ID is now active (was of a status the API's answers did not give).", nowDone, prOpened}
			}
			sameLines(t, "progress", progress, id, want...)
			got := diagsText(diags)
			wantDiag := unexpectedAnswer(id, strings.ReplaceAll(oddProblems[key], "JOB", id))
			if key == "text" || key == "html" { // the JSON decoder's words follow
				wantDiag = wantDiag[:strings.Index(wantDiag, "JSON")+len("JSON")]
			}
			if !strings.HasPrefix(got, wantDiag) || strings.Count(got, "\n") != 1 {
				t.Errorf("diagnostics %q, want %q", got, wantDiag)
			}
			wantRequests(t, h.fs, mintlifytest.RouteAgentJobsSendMessage, 1, "messages")
		})
	}
}
