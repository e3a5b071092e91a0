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

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The actions below Terraform, through the provider's protocol-6 server,
// for what the real CLI (action_cli_test.go, Terraform 1.14+) cannot show:
// the exact diagnostics of a hostile or odd answer, per RPC (the CLI shows
// a warning only after -invoke, and merges it into its output), and the
// provider's error on an interrupt, which Terraform 1.16 may drop.
// actionHarness serves the other files' protocol tests too.

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

// messageFinishedJob sends prompt, with the message action, to a job that
// finished a minute ago; it returns that job's id and what the action said.
func (h *actionHarness) messageFinishedJob(prompt string) (id string, progress []string, diags []*tfprotov6.Diagnostic) {
	id = h.fs.CreateJob(mintlifytest.DemoProjectID, "[fake:active=1m] First round")
	h.clk.Advance(time.Minute)
	progress, diags = h.invoke(context.Background(), "mintlify_agent_job_message", map[string]tftypes.Value{"job_id": str(id), "prompt": str(prompt)})
	return id, progress, diags
}

// Ctrl-C while the action waits: the provider's error names the job,
// which goes on at Mintlify, and no poll follows. In process: Terraform
// 1.16 drops this error, or not, by timing (TestAccAgentJobAction_interrupted),
// so only the protocol shows what the provider says.
func TestAction_agentJobInterrupt(t *testing.T) {
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
