package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

var (
	_ action.ActionWithConfigure      = (*deploymentAction)(nil)
	_ action.ActionWithModifyPlan     = (*deploymentAction)(nil)
	_ action.ActionWithValidateConfig = (*deploymentAction)(nil)
)

// NewDeploymentAction is the mintlify_deployment action: it publishes the
// docs.
func NewDeploymentAction() action.Action { return &deploymentAction{} }

type deploymentAction struct {
	actionBase
}

// deployActionModel is what both deployment actions take.
type deployActionModel struct {
	ProjectID         types.String `tfsdk:"project_id"`
	WaitForCompletion types.Bool   `tfsdk:"wait_for_completion"`
	Timeout           types.String `tfsdk:"timeout"`
}

func (a *deploymentAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_deployment"
}

// deployActionAttributes are the attributes both deployment actions have;
// what names the deployment ("the deployment").
func deployActionAttributes(what string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"project_id": schema.StringAttribute{
			MarkdownDescription: "The project. Defaults to the provider's `project_id`.",
			Optional:            true,
			Validators:          []validator.String{projectIDValidator},
		},
		"wait_for_completion": schema.BoolAttribute{
			MarkdownDescription: "Whether the action waits until " + what + " is " + deploymentEnds + " (default " +
				"`true`), reporting each change of status. With `false` it ends as soon as the API has queued it, " +
				"reporting its status id.",
			Optional: true,
		},
		"timeout": actionTimeoutAttribute(what),
	}
}

func (a *deploymentAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Publishes the project's documentation: queues a deployment of its configured deployment " +
			"branch. The action reports the status id at once, each change of status while it waits, and the " +
			"outcome; a `failure` fails the action, quoting the last log lines. The trigger is never sent twice: a " +
			"rate-limited one (10 per 10 seconds per organization, shared with automation triggers) is sent again " +
			"once the limit frees up.\n\n" + actionNote("deployment"),
		Attributes: deployActionAttributes("the deployment"),
	}
}

func (a *deploymentAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	if !requireConfigured(a.data, &resp.Diagnostics) {
		return
	}
	var m deployActionModel
	if !req.Config.Raw.IsNull() { // `action "mintlify_deployment" "x" {}` has no config block at all
		resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	projectID, ok := a.data.projectOrDefault(m.ProjectID, path.Root("project_id"), &resp.Diagnostics)
	if !ok {
		return
	}
	w := deployWork(a.data, "deployment", func(ctx context.Context) (*sdk.Deployment, error) {
		started, err := a.data.client.Deployments.Trigger(ctx, projectID)
		if err != nil {
			return nil, err
		}
		return queued(projectID, started.StatusID, nil), nil
	})
	d := invokeDeployWork(ctx, resp, m, w, actionDeployWords("deployment", "Could not deploy", "Invoke the action again to deploy again."),
		func(d *sdk.Deployment) string {
			return fmt.Sprintf("Deployment %s of project %q queued.", d.ID, projectID)
		})
	if d != nil && d.Status == sdk.DeploymentSuccess {
		progress(resp, "Deployment %s succeeded%s.", d.ID, summaryOf(d))
	}
}

// invokeDeployWork runs a deployment or preview for an action, reporting
// its progress: first is the first message, once the trigger is answered.
// It returns the deployment as the run ended, when the run had no error.
func invokeDeployWork(ctx context.Context, resp *action.InvokeResponse, m deployActionModel, w work[sdk.Deployment], words workWords, first func(*sdk.Deployment) string) *sdk.Deployment {
	w.doWait = m.WaitForCompletion.IsNull() || m.WaitForCompletion.ValueBool()
	w.timeout = actionTimeout(m.Timeout)
	w.words = words
	announced := false
	w.record = func(d *sdk.Deployment) {
		if !announced { // the trigger's answer; the wait's end is the caller's to report
			announced = true
			progress(resp, "%s", first(d))
		}
	}
	w.onChange = func(d *sdk.Deployment, from string) {
		progress(resp, "%s %s is now %s (was %s).", capitalize(w.kind.noun), d.ID, describeStatus(string(d.Status)), describeStatus(from))
	}
	d := w.run(ctx, &resp.Diagnostics)
	if d == nil || !w.doWait || resp.Diagnostics.HasError() {
		return nil
	}
	return d
}

func progress(resp *action.InvokeResponse, format string, args ...any) {
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(format, args...)})
}

// summaryOf is a deployment's summary as the end of a sentence.
func summaryOf(d *sdk.Deployment) string {
	if d.Summary == "" {
		return ""
	}
	return ": " + d.Summary
}

// actionDeployWords are what the deployment actions say: they keep no
// state, so a deployment whose run ends in an error goes on at Mintlify.
func actionDeployWords(noun, startFailed, failed string) workWords {
	return workWords{
		startFailed: startFailed,
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the " + noun + " may have been " +
			"queued: check the project's deployments in the Mintlify dashboard before invoking the action again.",
		kept:           capitalize(noun) + " %s goes on at Mintlify: an action keeps no state, so follow it with the data source mintlify_deployment_status or in the Mintlify dashboard.",
		failed:         failed,
		timeoutSetting: "the action's timeout",
		raiseTimeout:   `  timeout = "60m"`,
	}
}
