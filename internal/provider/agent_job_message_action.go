package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewAgentJobMessageAction is the mintlify_agent_job_message action: it
// sends a follow-up message to a job.
func NewAgentJobMessageAction() action.Action {
	return &agentJobMessageAction{waitingActionBase{actionBase{typeName: "_agent_job_message"}}}
}

type agentJobMessageAction struct {
	waitingActionBase
}

type jobMessageActionModel struct {
	JobID types.String `tfsdk:"job_id"`
	jobActionModel
}

func (a *agentJobMessageAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Sends a follow-up message to a Mintlify agent job (\"Also add a changelog entry\"): the agent " +
			"takes the job up again and its pull request gets the new changes. The action reports each change of " +
			"status while it waits, and the pull request at the end. A `failed` job fails the action; an `archived` " +
			"one warns. The message is never sent twice.\n\n" + actionNote("job"),
		Attributes: attributes(jobActionAttributes("The follow-up instruction."), map[string]schema.Attribute{
			"job_id": requiredActionString("The job to send the message to.", jobIDValidator),
		}),
	}
}

func (a *agentJobMessageAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m jobMessageActionModel
	projectID, ok := a.invokeConfig(ctx, req, resp, &m, &m.ProjectID)
	if !ok {
		return
	}
	jobID := m.JobID.ValueString()
	invokeJobWork(ctx, resp, m.actionWaitModel, jobWork(a.data, projectID, func(ctx context.Context) (*sdk.AgentJob, error) {
		return a.data.client.AgentJobs.SendMessage(ctx, projectID, jobID, m.Prompt.ValueString())
	}), actionMessageWords, func(id, status string) string {
		return fmt.Sprintf("Message sent to agent job %s in project %q; the job is %s.", id, projectID, status)
	})
}
