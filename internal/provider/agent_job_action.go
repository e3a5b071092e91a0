package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewAgentJobAction is the mintlify_agent_job action: it runs a job.
func NewAgentJobAction() action.Action {
	return &agentJobAction{waitingActionBase{actionBase{typeName: "_agent_job"}}}
}

// agentJobAction runs an agent job. Actions keep no state: what they do is
// told in progress messages and diagnostics.
type agentJobAction struct {
	waitingActionBase
}

// jobActionModel is what both agent-work actions take.
type jobActionModel struct {
	Prompt    types.String `tfsdk:"prompt"`
	ProjectID types.String `tfsdk:"project_id"`
	actionWaitModel
}

// jobActionAttributes are the attributes both agent-work actions have;
// prompt says what the prompt is.
func jobActionAttributes(prompt string) map[string]schema.Attribute {
	return attributes(actionWaitAttributes("Whether the action waits until the job is "+jobEnds+" (default `true`), "+
		"reporting each change of status. With `false` it ends as soon as the API has accepted the prompt, "+
		"reporting the job's id.", "the job"), map[string]schema.Attribute{
		"prompt":     requiredActionString(prompt, promptValidator),
		"project_id": actionProjectAttribute("The project"),
	})
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
	var m jobActionModel
	projectID, ok := a.invokeConfig(ctx, req, resp, &m, &m.ProjectID)
	if !ok {
		return
	}
	invokeJobWork(ctx, resp, m.actionWaitModel, jobWork(a.data, projectID, func(ctx context.Context) (*sdk.AgentJob, error) {
		return a.data.client.AgentJobs.Create(ctx, projectID, m.Prompt.ValueString())
	}), actionCreateWords, func(id, status string) string {
		return fmt.Sprintf("Agent job %s created in project %q; it is %s.", id, projectID, status)
	})
}

// invokeJobWork runs agent work for an action, reporting its progress and
// the pull request at the end: first says the first message, of the job's
// id and its status in words.
func invokeJobWork(ctx context.Context, resp *action.InvokeResponse, m actionWaitModel, w work[sdk.AgentJob], words workWords, first func(id, status string) string) {
	job := invokeWork(ctx, resp, m, w, words, func(job *sdk.AgentJob) string {
		return first(job.ID, describeStatus(string(job.Status)))
	})
	switch {
	case job == nil:
	case job.PRLink != nil:
		progress(resp, "Agent job %s is %s: pull request %s", job.ID, describeStatus(string(job.Status)), describeLink(job.PRLink))
	case job.Status == sdk.JobStatusCompleted:
		progress(resp, "Agent job %s is completed and opened no pull request (the agent changed no files).", job.ID)
	}
}

// What the job actions say: they keep no state, so a job whose run ends
// in an error goes on at Mintlify, on its own.
var (
	actionCreateWords = actionWords(workWords{
		startFailed: "Could not create the agent job",
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the job may exist: look for " +
			"it among the project's agent jobs in the Mintlify dashboard before invoking the action again.",
		kept: func(id string) string {
			return "Agent job " + id + " goes on at Mintlify: an action keeps no state, so follow it in the Mintlify dashboard."
		},
		failed: "Invoke the action again to start a new job.",
	})
	actionMessageWords = actionWords(workWords{
		startFailed: "Could not send the message to the agent job",
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the message may have been " +
			"sent: check the job in the Mintlify dashboard before invoking the action again.",
		kept: func(id string) string {
			return "The message to agent job " + id + " was sent; the job goes on at Mintlify: an action keeps no state, so " +
				"follow it in the Mintlify dashboard."
		},
		failed:   "Invoke the action again to send another message.",
		notFound: jobNotFound,
	})
)
