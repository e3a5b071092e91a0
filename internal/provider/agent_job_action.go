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
func NewAgentJobAction() action.Action { return &agentJobAction{} }

// agentJobAction runs an agent job. Actions keep no state: what they do is
// told in progress messages and diagnostics.
type agentJobAction struct {
	actionBase
}

// jobActionModel is what both agent-work actions take.
type jobActionModel struct {
	Prompt            types.String `tfsdk:"prompt"`
	ProjectID         types.String `tfsdk:"project_id"`
	WaitForCompletion types.Bool   `tfsdk:"wait_for_completion"`
	Timeout           types.String `tfsdk:"timeout"`
}

func (a *agentJobAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_job"
}

// jobActionAttributes are the attributes both agent-work actions have;
// prompt says what the prompt is.
func jobActionAttributes(prompt string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"prompt": schema.StringAttribute{
			MarkdownDescription: prompt,
			Required:            true,
			Validators:          []validator.String{promptValidator},
		},
		"project_id": schema.StringAttribute{
			MarkdownDescription: "The project. Defaults to the provider's `project_id`.",
			Optional:            true,
			Validators:          []validator.String{projectIDValidator},
		},
		"wait_for_completion": schema.BoolAttribute{
			MarkdownDescription: "Whether the action waits until the job is " + jobEnds + " (default `true`), " +
				"reporting each change of status. With `false` it ends as soon as the API has accepted the prompt, " +
				"reporting the job's id.",
			Optional: true,
		},
		"timeout": actionTimeoutAttribute("the job"),
	}
}

func (a *agentJobAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Runs a Mintlify agent job: the agent carries out `prompt` on the project's documentation and, " +
			"when it changes files, opens a pull request. The action reports the job's id at once, each change of " +
			"status while it waits, and the pull request at the end. A `failed` job fails the action; an `archived` " +
			"one warns. The job creation is never sent twice.\n\n" + actionNote("job"),
		Attributes: jobActionAttributes("The instruction the agent carries out."),
	}
}

func (a *agentJobAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	if !requireConfigured(a.data, &resp.Diagnostics) {
		return
	}
	var m jobActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	projectID, ok := a.data.projectOrDefault(m.ProjectID, path.Root("project_id"), &resp.Diagnostics)
	if !ok {
		return
	}
	invokeJobWork(ctx, resp, m, jobWork(a.data, projectID, func(ctx context.Context) (*sdk.AgentJob, error) {
		return a.data.client.AgentJobs.Create(ctx, projectID, m.Prompt.ValueString())
	}), actionCreateWords, fmt.Sprintf("Agent job %%s created in project %q; it is %%s.", projectID))
}

// invokeJobWork runs agent work for an action, reporting its progress:
// first is the first message, formatted with the job's id and status.
func invokeJobWork(ctx context.Context, resp *action.InvokeResponse, m jobActionModel, w work[sdk.AgentJob], words workWords, first string) {
	progress := func(format string, args ...any) {
		resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(format, args...)})
	}
	w.doWait = m.WaitForCompletion.IsNull() || m.WaitForCompletion.ValueBool()
	w.timeout = actionTimeout(m.Timeout)
	w.words = words
	announced := false
	w.record = func(job *sdk.AgentJob) {
		if !announced { // the job as the POST answered; the wait's end is reported below
			announced = true
			progress(first, job.ID, describeStatus(string(job.Status)))
		}
	}
	w.onChange = func(job *sdk.AgentJob, from string) {
		progress("Agent job %s is now %s (was %s).", job.ID, describeStatus(string(job.Status)), describeStatus(from))
	}
	job := w.run(ctx, &resp.Diagnostics)
	if job == nil || !w.doWait || resp.Diagnostics.HasError() {
		return
	}
	switch {
	case job.PRLink != nil:
		progress("Agent job %s is %s: pull request %s", job.ID, job.Status, *job.PRLink)
	case job.Status == sdk.JobStatusCompleted:
		progress("Agent job %s is completed and opened no pull request (the agent changed no files).", job.ID)
	}
}

// What the job actions say: they keep no state, so a job whose run ends
// in an error goes on at Mintlify, on its own.
var (
	actionCreateWords = workWords{
		startFailed: "Could not create the agent job",
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the job may exist: look for " +
			"it among the project's agent jobs in the Mintlify dashboard before invoking the action again.",
		kept:           "Agent job %s goes on at Mintlify: an action keeps no state, so follow it in the Mintlify dashboard.",
		failed:         "Invoke the action again to start a new job.",
		timeoutSetting: "the action's timeout",
		raiseTimeout:   `  timeout = "60m"`,
	}
	actionMessageWords = workWords{
		startFailed: "Could not send the message to the agent job",
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the message may have been " +
			"sent: check the job in the Mintlify dashboard before invoking the action again.",
		kept:           "The message to agent job %s was sent; the job goes on at Mintlify: an action keeps no state, so follow it in the Mintlify dashboard.",
		failed:         "Invoke the action again to send another message.",
		notFound:       jobNotFound,
		timeoutSetting: "the action's timeout",
		raiseTimeout:   `  timeout = "60m"`,
	}
)
