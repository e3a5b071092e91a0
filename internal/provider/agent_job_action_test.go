package provider

import (
	"context"
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
	fs      *mintlifytest.Server
	schemas map[string]*tfprotov6.Schema
}

// newActionHarness serves the provider in-process against a fake API, and
// configures it as Terraform would; withProject says whether the provider
// has a default project.
func newActionHarness(t *testing.T, cfg mintlifytest.Config, withProject bool) *actionHarness {
	t.Helper()
	if cfg.DefaultJob == (mintlifytest.JobScript{}) {
		cfg.DefaultJob = mintlifytest.JobScript{ActiveFor: 100 * time.Millisecond, Outcome: mintlifytest.OutcomeCompleted}
	}
	fs := mintlifytest.NewServer(cfg)
	t.Cleanup(fs.Close)
	p := &mintlifyProvider{
		version:     "test",
		sdkOptions:  []sdk.Option{sdk.WithRetryBackoff(5*time.Millisecond, 20*time.Millisecond)},
		waitOptions: []sdk.WaitOption{sdk.WithPollInterval(10*time.Millisecond, 30*time.Millisecond)},
	}
	server, err := providerserver.NewProtocol6WithError(p)()
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
	h := &actionHarness{t: t, srv: srv, fs: fs, schemas: map[string]*tfprotov6.Schema{}}
	for name, s := range schema.ActionSchemas {
		h.schemas[name] = s.Schema
	}
	vals := map[string]tftypes.Value{"api_key": str(mintlifytest.DemoAPIKey), "base_url": str(fs.URL)}
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

// dynamic encodes vals as a value of schema s, the others null.
func (h *actionHarness) dynamic(s *tfprotov6.Schema, vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	h.t.Helper()
	typ := s.ValueType().(tftypes.Object) //nolint:forcetypeassert // a schema's type is an object
	all := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		if v, ok := vals[name]; ok {
			all[name] = v
		} else {
			all[name] = tftypes.NewValue(at, nil)
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, all))
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

func hasSeverity(diags []*tfprotov6.Diagnostic, sev tfprotov6.DiagnosticSeverity) bool {
	for _, d := range diags {
		if d.Severity == sev {
			return true
		}
	}
	return false
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

func TestAction_agentJobOutcomes(t *testing.T) {
	for name, tt := range map[string]struct {
		prompt       string
		wantProgress []string
		wantDiag     string
		severity     tfprotov6.DiagnosticSeverity
	}{
		"completed with a pull request": {prompt: "Document it",
			wantProgress: []string{"created in project \"demo-project\"; it is active.", "is now completed (was active).", "is completed: pull request https://github.com/acme/demo-project/pull/101"}},
		"completed, no change": {prompt: "[fake:nochange] Check it",
			wantProgress: []string{"is now completed (was active).", "is completed: no files changed, so no pull request."}},
		"failed": {prompt: "[fake:failed] Break it", wantProgress: []string{"is now failed (was active)."},
			wantDiag: "Agent job failed", severity: tfprotov6.DiagnosticSeverityError},
		"archived": {prompt: "[fake:archived] Shelve it", wantProgress: []string{"is now archived (was active)."},
			wantDiag: "Agent job archived", severity: tfprotov6.DiagnosticSeverityWarning},
	} {
		t.Run(name, func(t *testing.T) {
			h := newActionHarness(t, mintlifytest.Config{}, true)
			progress, diags := h.invoke(context.Background(), "mintlify_agent_job", prompt(tt.prompt))
			ids := h.fs.JobIDs(mintlifytest.DemoProjectID)
			if len(ids) != 1 || h.fs.Requests(mintlifytest.RouteCreateJob) != 1 {
				t.Fatalf("jobs %v after %d POSTs", ids, h.fs.Requests(mintlifytest.RouteCreateJob))
			}
			all := strings.Join(progress, "\n")
			contains(t, "progress", all, append([]string{"Agent job " + ids[0] + " created"}, tt.wantProgress...)...)
			if !strings.HasPrefix(progress[0], "Agent job "+ids[0]+" created") {
				t.Errorf("the first progress message does not name the job: %q", progress[0])
			}
			switch {
			case tt.wantDiag == "" && len(diags) > 0:
				t.Errorf("diagnostics: %s", diagsText(diags))
			case tt.wantDiag != "":
				contains(t, "diagnostics", diagsText(diags), tt.wantDiag, ids[0])
				if !hasSeverity(diags, tt.severity) {
					t.Errorf("severity: %s", diagsText(diags))
				}
			}
		})
	}
}

func TestAction_agentJobWithoutWaiting(t *testing.T) {
	h := newActionHarness(t, mintlifytest.Config{}, true)
	vals := prompt("[fake:never] Fire and forget")
	vals["wait_for_completion"] = tftypes.NewValue(tftypes.Bool, false)
	progress, diags := h.invoke(context.Background(), "mintlify_agent_job", vals)
	ids := h.fs.JobIDs(mintlifytest.DemoProjectID)
	if len(diags) > 0 || len(progress) != 1 || len(ids) != 1 || !strings.Contains(progress[0], ids[0]) {
		t.Fatalf("progress %q, diagnostics %s", progress, diagsText(diags))
	}
	if n := h.fs.Requests(mintlifytest.RouteGetJob); n != 0 {
		t.Errorf("%d polls without waiting", n)
	}
}

func TestAction_agentJobTimeoutAndInterrupt(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		h := newActionHarness(t, mintlifytest.Config{}, true)
		vals := prompt("[fake:never] Forever")
		vals["timeout"] = str("300ms")
		_, diags := h.invoke(context.Background(), "mintlify_agent_job", vals)
		id := h.fs.JobIDs(mintlifytest.DemoProjectID)[0]
		contains(t, "diagnostics", diagsText(diags), "Timed out waiting for the agent job", "Agent job "+id, "goes on at Mintlify",
			"still active after 300ms", `timeout = "60m"`)
	})
	t.Run("interrupted", func(t *testing.T) {
		h := newActionHarness(t, mintlifytest.Config{}, true)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			for h.fs.Requests(mintlifytest.RouteGetJob) < 2 {
				time.Sleep(time.Millisecond)
			}
			cancel() // Ctrl-C
		}()
		_, diags := h.invoke(ctx, "mintlify_agent_job", prompt("[fake:never] Forever"))
		id := h.fs.JobIDs(mintlifytest.DemoProjectID)[0]
		contains(t, "diagnostics", diagsText(diags), "Interrupted while waiting for the agent job", "Agent job "+id, "goes on at Mintlify", "the action's timeout")
	})
}

func TestAction_rateLimitedPOST(t *testing.T) {
	t.Run("a short Retry-After is waited, and the POST sent again", func(t *testing.T) {
		h := newActionHarness(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteCreateJob, Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Second, Requests: []int{1}}}}, true)
		_, diags := h.invoke(context.Background(), "mintlify_agent_job", prompt("Document it"))
		if len(diags) > 0 || h.fs.Requests(mintlifytest.RouteCreateJob) != 2 || len(h.fs.JobIDs(mintlifytest.DemoProjectID)) != 1 {
			t.Errorf("%d POSTs, %d jobs: %s", h.fs.Requests(mintlifytest.RouteCreateJob), len(h.fs.JobIDs(mintlifytest.DemoProjectID)), diagsText(diags))
		}
	})
	t.Run("a long one fails at once, saying when", func(t *testing.T) {
		h := newActionHarness(t, mintlifytest.Config{JobBudget: 1}, true)
		// The hour's budget of 1 is spent by a job created through the API.
		c, _ := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(h.fs.URL))
		if _, err := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "first"); err != nil {
			t.Fatal(err)
		}
		_, diags := h.invoke(context.Background(), "mintlify_agent_job", prompt("Document it"))
		contains(t, "diagnostics", diagsText(diags), "Could not create the agent job", "429 Too Many Requests", "try again after", "Try again after")
		if strings.Contains(diagsText(diags), "may exist") || h.fs.Requests(mintlifytest.RouteCreateJob) != 2 {
			t.Errorf("%d POSTs: %s", h.fs.Requests(mintlifytest.RouteCreateJob), diagsText(diags))
		}
	})
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
		{"mintlify_agent_job", map[string]tftypes.Value{"prompt": str("x"), "timeout": str("soon")}, `timeout "soon" must be a non-negative duration`},
		{"mintlify_agent_job", map[string]tftypes.Value{"prompt": str("x"), "timeout": str("0s")}, `timeout "0s" must be a positive duration`},
		{"mintlify_agent_job_message", map[string]tftypes.Value{"prompt": str("x"), "job_id": str(".")}, `job_id "." is not allowed`},
		{"mintlify_agent_job_message", map[string]tftypes.Value{"prompt": str(""), "job_id": str("j")}, `prompt "" must not be empty`},
	} {
		contains(t, tt.action, diagsText(h.check(tt.action, tt.vals)), tt.want)
	}
	noProject := newActionHarness(t, mintlifytest.Config{}, false)
	contains(t, "plan", diagsText(noProject.check("mintlify_agent_job", prompt("x"))), "Missing project_id")
	if n := h.fs.TotalRequests() + noProject.fs.TotalRequests(); n != 0 {
		t.Errorf("%d requests for invalid configuration", n)
	}
}

func TestAction_agentJobMessage(t *testing.T) {
	h := newActionHarness(t, mintlifytest.Config{}, true)
	id := h.fs.CreateJob(mintlifytest.DemoProjectID, "[fake:active=1ms] Done already")
	time.Sleep(5 * time.Millisecond)
	vals := map[string]tftypes.Value{"job_id": str(id), "prompt": str("[fake:active=200ms] Also the changelog")}
	progress, diags := h.invoke(context.Background(), "mintlify_agent_job_message", vals)
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	contains(t, "progress", strings.Join(progress, "\n"), "Message sent to agent job "+id+" in project \"demo-project\"; the job is active.",
		"Agent job "+id+" is now completed (was active).", "pull request https://github.com/acme/demo-project/pull/101")
	if n := h.fs.Requests(mintlifytest.RouteSendMessage); n != 1 {
		t.Errorf("%d messages", n)
	}
	_, diags = h.invoke(context.Background(), "mintlify_agent_job_message", map[string]tftypes.Value{"job_id": str("nope"), "prompt": str("x")})
	contains(t, "diagnostics", diagsText(diags), "Could not send the message to the agent job", "404 Not Found")
}
