package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewAutomationRunAction is the mintlify_automation_run action: it runs a
// scheduled automation now.
func NewAutomationRunAction() action.Action {
	return &automationRunAction{actionBase{typeName: "_automation_run"}}
}

// automationRunAction has no timeout to check (it does not wait), so it
// takes only actionBase's configuration and project check.
type automationRunAction struct {
	actionBase
}

type automationRunModel struct {
	AutomationID types.String `tfsdk:"automation_id"`
	ProjectID    types.String `tfsdk:"project_id"`
}

func (a *automationRunAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs a scheduled Mintlify automation now, instead of at its next scheduled time: the run " +
			"picks up the changes since the last completed run, as a scheduled run does. Only an active automation " +
			"on a custom schedule can be run this way (the API answers 400 otherwise).\n\n" +
			"The action reports the run's instance id (as the dashboard's run history shows it) and its job id. It " +
			"does not wait for the run to end: the API publishes no way to read a run's status, so there is " +
			"nothing to poll; follow the run in the dashboard's Automations page. The trigger is never sent twice: " +
			"a rate-limited one (" + sdk.DeploymentLimit.String() + ", shared with deployments) is sent again once " +
			"the limit frees up.\n\n" +
			"Actions need Terraform 1.14 or later. They keep no state: an automation run leaves nothing for a " +
			"resource to record.",
		Attributes: map[string]schema.Attribute{
			"automation_id": requiredActionString("The automation to run: its id, from the automation's settings panel on the "+
				"dashboard's Automations page.", automationIDValidator),
			"project_id": actionProjectAttribute("The project the automation belongs to"),
		},
	}
}

func (a *automationRunAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m automationRunModel
	projectID, ok := a.invokeConfig(ctx, req, resp, &m, &m.ProjectID)
	if !ok {
		return
	}
	ctx = a.data.logContext(ctx)
	automationID := m.AutomationID.ValueString()
	run, err := a.data.client.Automations.Trigger(ctx, projectID, automationID)
	if err != nil {
		detail := apiErrorDetailFor(err, fmt.Sprintf("Check automation_id: automation %q must belong to project %q (or "+
			"the provider's project_id), in the key's organization.", automationID, projectID))
		if sdk.IsBadRequest(err) {
			detail += "\n\nOnly an active automation on a custom schedule can be run now: check the automation's " +
				"settings on the dashboard's Automations page."
		}
		if sdk.MayHaveTakenEffect(err) {
			detail += "\n\nThe request may have reached Mintlify before it failed, so the run may have been queued: " +
				"check the automation's run history on the dashboard before invoking the action again."
		}
		resp.Diagnostics.AddError("Could not run the automation", detail)
		return
	}
	notes := newProblemNotes("automation run", run.InstanceID)
	notes.add(run.Problems)
	notes.warn(&resp.Diagnostics)
	job := ""
	if run.JobID != "" {
		job = ", job " + sdk.DisplayLine(run.JobID)
	}
	progress(resp, "Automation %s of project %q queued: run %s%s. Follow it in the run history of the dashboard's "+
		"Automations page (the API has no status for runs).", automationID, projectID, sdk.DisplayLine(run.InstanceID), job)
	tflog.Info(ctx, "automation run queued", map[string]any{"automation_id": automationID, "instance_id": run.InstanceID, "job_id": run.JobID})
}
