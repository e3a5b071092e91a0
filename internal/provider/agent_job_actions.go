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
	_ action.ActionWithConfigure      = (*agentJobAction)(nil)
	_ action.ActionWithModifyPlan     = (*agentJobAction)(nil)
	_ action.ActionWithValidateConfig = (*agentJobAction)(nil)
)

// NewAgentJobAction is the mintlify_agent_job action: it runs a job.
func NewAgentJobAction() action.Action { return &agentJobAction{message: false} }

// NewAgentJobMessageAction is the mintlify_agent_job_message action: it
// sends a follow-up message to a job.
func NewAgentJobMessageAction() action.Action { return &agentJobAction{message: true} }

// agentJobAction is both actions: they differ only in the POST they send
// (a job, or a message to one) and their words. Actions keep no state:
// what they do is told in progress messages and diagnostics.
type agentJobAction struct {
	message bool
	data    *providerData
}

type agentJobActionModel struct {
	Prompt            types.String `tfsdk:"prompt"`
	ProjectID         types.String `tfsdk:"project_id"`
	WaitForCompletion types.Bool   `tfsdk:"wait_for_completion"`
	Timeout           types.String `tfsdk:"timeout"`
}

// agentJobMessageActionModel is the message action's configuration.
type agentJobMessageActionModel struct {
	JobID types.String `tfsdk:"job_id"`
	agentJobActionModel
}

func (a *agentJobAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_job"
	if a.message {
		resp.TypeName += "_message"
	}
}

func (a *agentJobAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	attrs := map[string]schema.Attribute{
		"prompt": schema.StringAttribute{
			MarkdownDescription: "The instruction the agent carries out.",
			Required:            true,
			Validators:          []validator.String{promptValidator},
		},
		"project_id": schema.StringAttribute{
			MarkdownDescription: "The project. Defaults to the provider's `project_id`.",
			Optional:            true,
			Validators:          []validator.String{projectIDValidator},
		},
		"wait_for_completion": schema.BoolAttribute{
			MarkdownDescription: "Whether the action waits until the job is `completed`, `archived` or `failed` " +
				"(default `true`), reporting each change of status. With `false` it ends as soon as the API has " +
				"accepted the prompt, reporting the job's id.",
			Optional: true,
		},
		"timeout": schema.StringAttribute{
			MarkdownDescription: fmt.Sprintf("How long to wait, as a duration such as `45m` (default `%s`); only "+
				"when waiting. When it runs out the action fails, naming the job, which goes on at Mintlify.", shortDuration(DefaultCreateTimeout)),
			Optional:   true,
			Validators: []validator.String{durationValidator{}},
		},
	}
	description := "Runs a Mintlify agent job: the agent carries out `prompt` on the project's documentation and, " +
		"when it changes files, opens a pull request. The action reports the job's id at once, each change of " +
		"status while it waits, and the pull request at the end. A `failed` job fails the action; an `archived` " +
		"one warns. The job creation is never sent twice.\n\n"
	if a.message {
		attrs["job_id"] = schema.StringAttribute{
			MarkdownDescription: "The job to send the message to.",
			Required:            true,
			Validators:          []validator.String{jobIDValidator},
		}
		attrs["prompt"] = schema.StringAttribute{
			MarkdownDescription: "The follow-up instruction.",
			Required:            true,
			Validators:          []validator.String{promptValidator},
		}
		description = "Sends a follow-up message to a Mintlify agent job (\"Also add a changelog entry\"): the agent " +
			"takes the job up again and its pull request gets the new changes. The action reports each change of " +
			"status while it waits, and the pull request at the end. A `failed` job fails the action; an `archived` " +
			"one warns. The message is never sent twice.\n\n"
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: description + "Actions need Terraform 1.14 or later. They keep no state: use the resource " +
			"of the same name when something downstream needs the job's `pr_link`, or a record of it in state; use the " +
			"action to run the agent on events, such as every release.",
		Attributes: attrs,
	}
}

func (a *agentJobAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig refuses a timeout that is not positive, before any request.
func (a *agentJobAction) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	var timeout types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("timeout"), &timeout)...)
	if timeout.IsNull() || timeout.IsUnknown() {
		return
	}
	if d, err := parseDuration(timeout.ValueString()); err == nil && d <= 0 {
		resp.Diagnostics.AddAttributeError(path.Root("timeout"), "Invalid timeout",
			fmt.Sprintf("timeout %q must be a positive duration such as \"30m\".", timeout.ValueString()))
	}
}

// ModifyPlan checks at plan that the job's project is known: set on the
// action, or on the provider.
func (a *agentJobAction) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var projectID types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("project_id"), &projectID)...)
	if a.data == nil || projectID.IsUnknown() {
		return // the provider's settings are not known yet
	}
	a.data.projectOrDefault(projectID, path.Root("project_id"), &resp.Diagnostics)
}

func (a *agentJobAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	if !requireConfigured(a.data, &resp.Diagnostics) {
		return
	}
	var mm agentJobMessageActionModel
	if a.message {
		resp.Diagnostics.Append(req.Config.Get(ctx, &mm)...)
	} else {
		resp.Diagnostics.Append(req.Config.Get(ctx, &mm.agentJobActionModel)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	m := mm.agentJobActionModel
	projectID, ok := a.data.projectOrDefault(m.ProjectID, path.Root("project_id"), &resp.Diagnostics)
	if !ok {
		return
	}
	timeout := DefaultCreateTimeout
	if !m.Timeout.IsNull() {
		timeout, _ = parseDuration(m.Timeout.ValueString()) // validated at plan
	}
	wait := m.WaitForCompletion.IsNull() || m.WaitForCompletion.ValueBool()
	progress := func(format string, args ...any) {
		resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(format, args...)})
	}
	run := jobRun{data: a.data, projectID: projectID, wait: wait, timeout: timeout, words: actionCreateWords}
	run.send = func(ctx context.Context) (*sdk.AgentJob, error) {
		return a.data.client.CreateAgentJob(ctx, projectID, m.Prompt.ValueString())
	}
	first := "Agent job %s created in project %q; it is %s."
	if a.message {
		jobID := mm.JobID.ValueString()
		run.words = actionMessageWords
		run.send = func(ctx context.Context) (*sdk.AgentJob, error) {
			return a.data.client.SendAgentJobMessage(ctx, projectID, jobID, m.Prompt.ValueString())
		}
		first = "Message sent to agent job %s in project %q; the job is %s."
	}
	announced := false
	run.onJob = func(job *sdk.AgentJob) {
		if !announced { // the job as the POST answered; the wait's end is reported below
			announced = true
			progress(first, job.ID, projectID, job.Status)
		}
	}
	run.onStatus = func(job *sdk.AgentJob, from sdk.JobStatus) {
		progress("Agent job %s is now %s (was %s).", job.ID, job.Status, from)
	}
	job := run.run(ctx, &resp.Diagnostics)
	if job == nil || !wait || resp.Diagnostics.HasError() {
		return
	}
	switch {
	case job.PRLink != nil:
		progress("Agent job %s is %s: pull request %s", job.ID, job.Status, *job.PRLink)
	case job.Status == sdk.JobStatusCompleted:
		progress("Agent job %s is completed: no files changed, so no pull request.", job.ID)
	}
}

// What the actions say: they keep no state, so a job whose run ends in an
// error goes on at Mintlify, on its own.
var (
	actionCreateWords = jobRunWords{
		sendFailed: "Could not create the agent job",
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the job may exist: look for " +
			"it among the project's agent jobs in the Mintlify dashboard before invoking the action again.",
		kept:           "Agent job %s in project %q goes on at Mintlify: an action keeps no state, so follow it in the Mintlify dashboard.",
		failed:         "Invoke the action again to start a new job.",
		timeoutSetting: "the action's timeout",
		raiseTimeout:   `  timeout = "60m"`,
	}
	actionMessageWords = jobRunWords{
		sendFailed: "Could not send the message to the agent job",
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the message may have been " +
			"sent: check the job in the Mintlify dashboard before invoking the action again.",
		kept:           "The message to agent job %s in project %q was sent; the job goes on at Mintlify: an action keeps no state, so follow it in the Mintlify dashboard.",
		failed:         "Invoke the action again to send another message.",
		timeoutSetting: "the action's timeout",
		raiseTimeout:   `  timeout = "60m"`,
	}
)
