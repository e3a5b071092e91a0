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
	_ action.ActionWithConfigure      = (*agentJobMessageAction)(nil)
	_ action.ActionWithModifyPlan     = (*agentJobMessageAction)(nil)
	_ action.ActionWithValidateConfig = (*agentJobMessageAction)(nil)
)

// NewAgentJobMessageAction is the mintlify_agent_job_message action: it
// sends a follow-up message to a job.
func NewAgentJobMessageAction() action.Action { return &agentJobMessageAction{} }

type agentJobMessageAction struct {
	actionBase
}

type jobMessageActionModel struct {
	JobID types.String `tfsdk:"job_id"`
	jobActionModel
}

func (a *agentJobMessageAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_job_message"
}

func (a *agentJobMessageAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Sends a follow-up message to a Mintlify agent job (\"Also add a changelog entry\"): the agent " +
			"takes the job up again and its pull request gets the new changes. The action reports each change of " +
			"status while it waits, and the pull request at the end. A `failed` job fails the action; an `archived` " +
			"one warns. The message is never sent twice.\n\n" + actionNote("job"),
		Attributes: attributes(jobActionAttributes("The follow-up instruction."), map[string]schema.Attribute{
			"job_id": schema.StringAttribute{
				MarkdownDescription: "The job to send the message to.",
				Required:            true,
				Validators:          []validator.String{jobIDValidator},
			},
		}),
	}
}

func (a *agentJobMessageAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	if !requireConfigured(a.data, &resp.Diagnostics) {
		return
	}
	var m jobMessageActionModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	projectID, ok := a.data.projectOrDefault(m.ProjectID, path.Root("project_id"), &resp.Diagnostics)
	if !ok {
		return
	}
	jobID := m.JobID.ValueString()
	invokeJobWork(ctx, resp, m.jobActionModel, jobWork(a.data, projectID, func(ctx context.Context) (*sdk.AgentJob, error) {
		return a.data.client.AgentJobs.SendMessage(ctx, projectID, jobID, m.Prompt.ValueString())
	}), actionMessageWords, fmt.Sprintf("Message sent to agent job %%s in project %q; the job is %%s.", projectID))
}
