package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The deployment actions, driven through the provider's protocol-6
// server as Terraform 1.14 drives them (see actionHarness).

func newDeployActionHarness(t *testing.T, cfg mintlifytest.Config) *actionHarness {
	t.Helper()
	if cfg.DefaultDeployment == (mintlifytest.DeploymentScript{}) {
		cfg.DefaultDeployment = testDeployment
	}
	return newActionHarness(t, cfg, true)
}

func TestAction_deploymentReportsEachStatusAndTheOutcome(t *testing.T) {
	h := newDeployActionHarness(t, mintlifytest.Config{})
	progress, diags := h.invoke(context.Background(), "mintlify_deployment", nil)
	ids := h.fs.DeploymentIDs(mintlifytest.DemoProjectID)
	if len(diags) > 0 || len(ids) != 1 || h.fs.Requests(mintlifytest.RouteDeploymentsTrigger) != 1 {
		t.Fatalf("deployments %v: %s", ids, diagsText(diags))
	}
	if want := "Deployment " + ids[0] + ` of project "demo-project" queued.`; progress[0] != want {
		t.Errorf("first message %q, want %q", progress[0], want)
	}
	contains(t, "progress", strings.Join(progress, "\n"), "Deployment "+ids[0]+" is now in_progress (was queued).",
		"Deployment "+ids[0]+" is now success (was in_progress).", "Deployment "+ids[0]+" succeeded: Deployed 42 pages.")
}

func TestAction_deploymentFailureQuotesTheLog(t *testing.T) {
	h := newDeployActionHarness(t, mintlifytest.Config{DefaultDeployment: failingDeployment})
	progress, diags := h.invoke(context.Background(), "mintlify_deployment", map[string]tftypes.Value{"project_id": str(mintlifytest.DemoProjectID)})
	id := h.fs.DeploymentIDs(mintlifytest.DemoProjectID)[0]
	contains(t, "diagnostics", diagsText(diags), "error: Deployment failed", "Deployment "+id, "broken link to /missing-page", "Invoke the action again to deploy again.")
	if strings.Contains(strings.Join(progress, "\n"), "succeeded") {
		t.Errorf("progress %q", progress)
	}
}

func TestAction_deploymentWithoutWaitingPollsNothing(t *testing.T) {
	h := newDeployActionHarness(t, mintlifytest.Config{DefaultDeployment: mintlifytest.DeploymentScript{Outcome: mintlifytest.OutcomeNever}})
	progress, diags := h.invoke(context.Background(), "mintlify_deployment", map[string]tftypes.Value{"wait_for_completion": tftypes.NewValue(tftypes.Bool, false)})
	if len(diags) > 0 || len(progress) != 1 || h.fs.Requests(mintlifytest.RouteDeploymentsStatus) != 0 {
		t.Errorf("progress %q, %d polls: %s", progress, h.fs.Requests(mintlifytest.RouteDeploymentsStatus), diagsText(diags))
	}
}

func TestAction_deploymentTimeoutNamesWhatGoesOn(t *testing.T) {
	h := newDeployActionHarness(t, mintlifytest.Config{DefaultDeployment: mintlifytest.DeploymentScript{Outcome: mintlifytest.OutcomeNever}})
	_, diags := h.invoke(context.Background(), "mintlify_deployment", map[string]tftypes.Value{"timeout": str("2m")})
	id := h.fs.DeploymentIDs(mintlifytest.DemoProjectID)[0]
	contains(t, "diagnostics", diagsText(diags), "Timed out waiting for the deployment", "Deployment "+id+" goes on at Mintlify",
		"mintlify_deployment_status", "still in_progress after 2m", `timeout = "60m"`)
	wantRequests(t, h.fs, mintlifytest.RouteDeploymentsTrigger, 1, "triggers")
}

func TestAction_deploymentInterruptedNamesWhatGoesOn(t *testing.T) {
	h := newDeployActionHarness(t, mintlifytest.Config{DefaultDeployment: mintlifytest.DeploymentScript{Outcome: mintlifytest.OutcomeNever}})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Ctrl-C at the third poll's sleep.
	sleeps := 0
	h.clk.onSleep(func(context.Context) {
		if sleeps++; sleeps == 3 {
			cancel()
		}
	})
	_, diags := h.invoke(ctx, "mintlify_deployment", nil)
	id := h.fs.DeploymentIDs(mintlifytest.DemoProjectID)[0]
	contains(t, "diagnostics", diagsText(diags), "Interrupted while waiting for the deployment", "Deployment "+id+" goes on at Mintlify",
		"still in_progress", "the action's timeout")
}

func TestAction_previewReportsItsURLAndRedeploysUnderIt(t *testing.T) {
	h := newDeployActionHarness(t, mintlifytest.Config{})
	vals := map[string]tftypes.Value{"branch": str("feature/x")}
	for round := range 2 {
		progress, diags := h.invoke(context.Background(), "mintlify_preview_deployment", vals)
		rec, _ := h.fs.Preview(mintlifytest.DemoProjectID, "feature/x")
		if len(diags) > 0 || len(rec.StatusIDs) != round+1 {
			t.Fatalf("round %d: %+v: %s", round, rec, diagsText(diags))
		}
		id := rec.StatusIDs[round]
		if want := "Preview deployment " + id + ` of branch "feature/x" of project "demo-project" queued at https://demo-project-feature-x.mintlify.app.`; progress[0] != want {
			t.Errorf("first message %q, want %q", progress[0], want)
		}
		contains(t, "progress", strings.Join(progress, "\n"), "Preview deployment "+id+" is now success",
			`The preview of branch "feature/x" is live at https://demo-project-feature-x.mintlify.app: Deployed 42 pages.`)
	}
	_, diags := h.invoke(context.Background(), "mintlify_preview_deployment", map[string]tftypes.Value{"branch": str("docs/fake-failure")})
	contains(t, "diagnostics", diagsText(diags), "Preview deployment failed", "Invoke the action again to redeploy the preview.")
}

func TestAction_automationRunReportsItsIDsWithoutWaiting(t *testing.T) {
	h := newDeployActionHarness(t, mintlifytest.Config{})
	progress, diags := h.invoke(context.Background(), "mintlify_automation_run", map[string]tftypes.Value{"automation_id": str(mintlifytest.DemoAutomationID)})
	runs := h.fs.AutomationRuns(mintlifytest.DemoProjectID)
	if len(diags) > 0 || len(runs) != 1 || len(progress) != 1 {
		t.Fatalf("runs %+v, progress %q: %s", runs, progress, diagsText(diags))
	}
	contains(t, "progress", progress[0], `Automation demo-automation of project "demo-project" queued: run `+runs[0].InstanceID+", job "+runs[0].JobID,
		"the API has no status for runs")
	if n := h.fs.TotalRequests(); n != 1 {
		t.Errorf("%d requests: the action does not poll", n)
	}
	for id, want := range map[string][]string{
		mintlifytest.DemoPausedAutomationID: {"Could not run the automation", "400 Bad Request: Automation is not active", "Only an active automation on a custom schedule"},
		mintlifytest.DemoDailyAutomationID:  {"not configured with a custom schedule"},
		"no-such-automation":                {"404 Not Found", `Check automation_id: automation "no-such-automation" must belong to project "demo-project"`},
	} {
		_, diags := h.invoke(context.Background(), "mintlify_automation_run", map[string]tftypes.Value{"automation_id": str(id)})
		contains(t, id, diagsText(diags), want...)
		if strings.Contains(diagsText(diags), "may have been queued") {
			t.Errorf("%s: a refusal is not a maybe: %s", id, diagsText(diags))
		}
	}
}

func TestAction_automationRunWhoseAnswerIsLostMayHaveRun(t *testing.T) {
	h := newDeployActionHarness(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteAutomationsTrigger, Kind: mintlifytest.FaultDropConnection}}})
	_, diags := h.invoke(context.Background(), "mintlify_automation_run", map[string]tftypes.Value{"automation_id": str(mintlifytest.DemoAutomationID)})
	contains(t, "diagnostics", diagsText(diags), "Could not run the automation", "the run may have been queued", "run history")
	wantRequests(t, h.fs, mintlifytest.RouteAutomationsTrigger, 1, "triggers: one that may have reached Mintlify is never sent again")
}

func TestAction_deploymentsInvalidConfigFailsAtPlanWithNoRequest(t *testing.T) {
	h := newDeployActionHarness(t, mintlifytest.Config{})
	for _, tt := range []struct {
		action string
		vals   map[string]tftypes.Value
		want   string
	}{
		{"mintlify_deployment", map[string]tftypes.Value{"project_id": str("a b")}, `project_id "a b" may hold only`},
		{"mintlify_deployment", map[string]tftypes.Value{"timeout": str("30s")}, `timeout "30s" must be a duration from 1m to 24h`},
		{"mintlify_preview_deployment", map[string]tftypes.Value{"branch": str("feature/x.lock")}, `branch "feature/x.lock" ends with "." or ".lock"`},
		{"mintlify_preview_deployment", map[string]tftypes.Value{"branch": str("x"), "timeout": str("forever")}, `timeout "forever" must be a duration from 1m to 24h`},
		{"mintlify_automation_run", map[string]tftypes.Value{"automation_id": str("a/b")}, `automation_id "a/b" may hold only`},
		{"mintlify_automation_run", map[string]tftypes.Value{"automation_id": str(" ")}, `automation_id " " must not be empty`},
	} {
		contains(t, tt.action, diagsText(h.check(tt.action, tt.vals)), tt.want)
	}
	noProject := newActionHarness(t, mintlifytest.Config{}, false)
	for _, a := range []string{"mintlify_deployment", "mintlify_preview_deployment", "mintlify_automation_run"} {
		diags := noProject.check(a, map[string]tftypes.Value{"branch": str("main"), "automation_id": str("x")})
		if !strings.Contains(diagsText(diags), "error: Missing project_id") {
			t.Errorf("%s without a project: %s", a, diagsText(diags))
		}
	}
	if n := h.fs.TotalRequests() + noProject.fs.TotalRequests(); n != 0 {
		t.Errorf("%d requests for invalid configuration", n)
	}
}

// `action "mintlify_deployment" "publish" {}`: every attribute is
// optional, and Terraform sends no config object at all.
func TestAction_deploymentWithoutAConfigBlock(t *testing.T) {
	h := newDeployActionHarness(t, mintlifytest.Config{})
	null := h.nullValue(h.schemas["mintlify_deployment"])
	ctx := context.Background()
	v, err := h.srv.ValidateActionConfig(ctx, &tfprotov6.ValidateActionConfigRequest{ActionType: "mintlify_deployment", Config: null})
	if err != nil || len(v.Diagnostics) > 0 {
		t.Fatalf("validate: %v %s", err, diagsText(v.Diagnostics))
	}
	p, err := h.srv.PlanAction(ctx, &tfprotov6.PlanActionRequest{ActionType: "mintlify_deployment", Config: null})
	if err != nil || len(p.Diagnostics) > 0 {
		t.Fatalf("plan: %v %s", err, diagsText(p.Diagnostics))
	}
	stream, err := h.srv.InvokeAction(ctx, &tfprotov6.InvokeActionRequest{ActionType: "mintlify_deployment", Config: null})
	if err != nil {
		t.Fatal(err)
	}
	var progress []string
	var diags []*tfprotov6.Diagnostic
	for ev := range stream.Events {
		switch e := ev.Type.(type) {
		case tfprotov6.ProgressInvokeActionEventType:
			progress = append(progress, e.Message)
		case tfprotov6.CompletedInvokeActionEventType:
			diags = e.Diagnostics
		}
	}
	if len(diags) > 0 || len(h.fs.DeploymentIDs(mintlifytest.DemoProjectID)) != 1 {
		t.Fatalf("progress %q: %s", progress, diagsText(diags))
	}
	contains(t, "progress", strings.Join(progress, "\n"), "succeeded: Deployed 42 pages.")
}
