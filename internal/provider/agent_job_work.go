package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// agentJobKind is what the runner (work) knows of agent jobs; every
// resource and action that starts agent work uses it.
var agentJobKind = workKind[sdk.AgentJob]{
	noun:     "agent job",
	id:       func(j *sdk.AgentJob) string { return j.ID },
	validID:  sdk.ValidateJobID,
	status:   func(j *sdk.AgentJob) string { return string(j.Status) },
	known:    func(s string) bool { return sdk.JobStatus(s).Known() },
	problems: func(j *sdk.AgentJob) []string { return j.Problems },
	outcome: func(j *sdk.AgentJob, words workWords, diags *diag.Diagnostics) {
		switch j.Status {
		case sdk.JobStatusFailed:
			diags.AddError("Agent job failed",
				fmt.Sprintf("Agent job %s ended with status %s. %s See the job in the Mintlify dashboard for the agent's error.", sdk.DisplayLine(j.ID), quoted(string(j.Status)), words.failed))
		case sdk.JobStatusArchived:
			diags.AddWarning("Agent job archived",
				fmt.Sprintf("Agent job %s was archived before it completed; pr_link is %s.", sdk.DisplayLine(j.ID), describeLink(j.PRLink)))
		}
	},
}

// jobWork is a run of agent work in a project: the job's wait is the SDK's.
func jobWork(data *providerData, projectID string, start func(context.Context) (*sdk.AgentJob, error)) work[sdk.AgentJob] {
	return work[sdk.AgentJob]{
		data:  data,
		kind:  agentJobKind,
		start: start,
		wait: func(ctx context.Context, j *sdk.AgentJob, opts ...sdk.WaitOption) (*sdk.AgentJob, error) {
			return data.client.AgentJobs.Wait(ctx, projectID, j.ID, opts...)
		},
	}
}

// describeLink says what a job's pull request link is, for messages.
func describeLink(link *string) string {
	if link == nil {
		return "null (the job opened no pull request)"
	}
	return sdk.DisplayLine(*link)
}

// What the job and message resources say.
var (
	createWords = workWords{
		startFailed: "Could not create the agent job",
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the job may exist. The v2 API " +
			"cannot list jobs: look for it among the project's agent jobs in the Mintlify dashboard (the deprecated v1 " +
			"listing, GET /v1/agent/{projectId}/jobs, shows them as sessions) before applying again, and if it is there, " +
			"import it (terraform import ADDRESS PROJECT_ID/JOB_ID) instead of starting it twice.",
		kept: func(id string) string {
			return "Agent job " + id + " was created and is saved in state (tainted, so the next apply starts a new job; run " +
				"`terraform untaint` to keep this one instead)."
		},
		unknownOutcome: func(id string) string {
			return "Agent job " + id + " was created and is saved in state, not tainted: " + outcomeUnknown + " nothing starts again by itself."
		},
		failed:         "It stays in state, tainted: the next apply starts a new job.",
		timeoutSetting: "timeouts.create",
		raiseTimeout:   resourceTimeoutExample,
	}
	messageWords = workWords{
		startFailed: "Could not send the message to the agent job",
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the message may have been " +
			"sent. Check the job in the Mintlify dashboard before applying again, so as not to send it twice.",
		kept: func(id string) string {
			return "The message to agent job " + id + " was sent and is saved in state (tainted, so the next apply sends it " +
				"again; run `terraform untaint` to keep it instead)."
		},
		unknownOutcome: func(id string) string {
			return "The message to agent job " + id + " was sent and is saved in state, not tainted: reading the job failed " +
				"while waiting, so how its round of work ended is not known yet. The next refresh (terraform plan or " +
				"terraform apply) reads it and records it; the message is not sent again by itself."
		},
		failed:         "The message stays in state, tainted: the next apply sends it again.",
		notFound:       jobNotFound,
		timeoutSetting: "timeouts.create",
		raiseTimeout:   resourceTimeoutExample,
	}
)

// outcomeUnknown says, after "... is saved in state, not tainted:", why a
// resource's run ended without an outcome and how it is learned.
const outcomeUnknown = "reading its status failed while waiting, so how it ended is not known yet. The next refresh " +
	"(terraform plan or terraform apply) reads it and records it;"

// jobNotFound is the advice for a 404 of a message to a job.
const jobNotFound = "Check job_id: the job must exist in the project (project_id, or the provider's), which must belong to the key's organization."

const resourceTimeoutExample = "  timeouts {\n    create = \"60m\"\n  }"
