package provider

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// DefaultCreateTimeout bounds how long a job (or a follow-up message's
// round of work) is waited for when the configuration sets no timeout.
const DefaultCreateTimeout = 30 * time.Minute

// jobRun is one POST that starts agent work (a job's creation or a
// follow-up message) and, when asked, the wait for that work to end. The
// resources and the actions share it, so they agree on every outcome;
// only their words differ.
type jobRun struct {
	data      *providerData
	projectID string
	send      func(ctx context.Context) (*sdk.AgentJob, error)
	wait      bool
	timeout   time.Duration
	words     jobRunWords
	// onJob receives the job the moment the POST answers, and again when
	// the wait ends: the resources save it in state each time.
	onJob func(*sdk.AgentJob)
	// onStatus receives each change of status while waiting.
	onStatus func(job *sdk.AgentJob, from sdk.JobStatus)
}

// jobRunWords are what a caller says of its outcomes.
type jobRunWords struct {
	// sendFailed is the summary when the POST fails ("Could not create the
	// agent job"); mayHaveTakenEffect the advice added when the POST may
	// still have been carried out.
	sendFailed, mayHaveTakenEffect string
	// kept says what became of a job whose run ends in an error after the
	// POST: "... is saved in state (tainted ...)" for a resource, "... goes
	// on at Mintlify" for an action. It is formatted with the job's id and
	// project.
	kept string
	// failed says what follows a failed job, after the sentence naming it.
	failed string
	// timeoutSetting names the setting that bounds the wait, and
	// raiseTimeout shows how to raise it.
	timeoutSetting, raiseTimeout string
}

// run carries the run out and returns the last job it saw (nil when the
// POST failed). Outcomes become diagnostics: a failed job, a timeout, an
// interrupt or a malformed answer is an error; an archived job a warning.
func (r jobRun) run(ctx context.Context, diags *diag.Diagnostics) *sdk.AgentJob {
	ctx = r.data.logContext(ctx)
	waitCtx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()

	job, err := r.send(waitCtx)
	if job == nil {
		if sdk.MayHaveTakenEffect(err) {
			err = fmt.Errorf("%w\n\n%s", err, r.words.mayHaveTakenEffect)
		}
		addAPIError(diags, r.words.sendFailed, err)
		return nil
	}
	job = sanitize(job, diags)
	kept := fmt.Sprintf(r.words.kept, job.ID, r.projectID)
	// Record the job at once: whatever happens next, its id is kept.
	r.onJob(job)
	tflog.Info(ctx, "agent job accepted the prompt", map[string]any{"job_id": job.ID, "project_id": r.projectID, "status": string(job.Status), "wait": r.wait})
	if err != nil {
		diags.AddError("Malformed answer from Mintlify",
			fmt.Sprintf("%s\n\n%s The answer was not entirely readable, so the job's other attributes may be missing.", err, kept))
		return job
	}
	if !r.wait {
		return job
	}

	last := job.Status
	unknownLogged := false
	onPoll := sdk.WithStatusCallback(func(j *sdk.AgentJob) {
		if !j.Status.Known() && !unknownLogged {
			tflog.Warn(ctx, "agent job has a status the provider does not know; still waiting", map[string]any{"job_id": j.ID, "status": string(j.Status)})
			unknownLogged = true
		}
		if j.Status != last {
			tflog.Info(ctx, "agent job status changed", map[string]any{"job_id": j.ID, "from": string(last), "to": string(j.Status)})
			if r.onStatus != nil {
				r.onStatus(j, last)
			}
			last = j.Status
		}
	})
	final, err := r.data.client.WaitForAgentJob(waitCtx, r.projectID, job.ID, append([]sdk.WaitOption{onPoll}, r.data.waitOptions...)...)
	if final != nil {
		job = sanitize(final, diags)
		r.onJob(job)
	}
	switch {
	case err == nil:
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
		diags.AddError("Timed out waiting for the agent job",
			fmt.Sprintf("%s It was still %s after %s. Jobs can take a while: raise the limit with\n\n%s", kept, last, r.timeout, r.words.raiseTimeout))
		return job
	case ctx.Err() != nil:
		diags.AddError("Interrupted while waiting for the agent job",
			fmt.Sprintf("%s It was still %s when Terraform stopped waiting. To wait longer next time, raise %s.", kept, last, r.words.timeoutSetting))
		return job
	default:
		addAPIError(diags, "Error while waiting for the agent job", fmt.Errorf("%s %w", kept, err))
		return job
	}
	switch job.Status {
	case sdk.JobStatusFailed:
		diags.AddError("Agent job failed",
			fmt.Sprintf("Agent job %s in project %q ended with status %q. %s See the job in the Mintlify dashboard for the agent's error.", job.ID, r.projectID, job.Status, r.words.failed))
	case sdk.JobStatusArchived:
		diags.AddWarning("Agent job archived",
			fmt.Sprintf("Agent job %s in project %q was archived before it completed; pr_link is %s.", job.ID, r.projectID, describeLink(job.PRLink)))
	}
	tflog.Info(ctx, "agent job finished", map[string]any{"job_id": job.ID, "status": string(job.Status), "pr_link": describeLink(job.PRLink)})
	return job
}

// sanitize drops a pull-request link that is not an absolute http(s) URL
// (a javascript: link, say): dashboards render these links. The job is
// copied, not changed.
func sanitize(job *sdk.AgentJob, diags *diag.Diagnostics) *sdk.AgentJob {
	if job.PRLink == nil || isWebURL(*job.PRLink) {
		return job
	}
	diags.AddWarning("Pull request link ignored",
		fmt.Sprintf("Mintlify gave agent job %s the pull request link %q, which is not an absolute http(s) URL: pr_link is recorded as null.", job.ID, *job.PRLink))
	clean := *job
	clean.PRLink = nil
	return &clean
}

func isWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}

func describeLink(link *string) string {
	if link == nil {
		return "null (no files changed)"
	}
	return *link
}

// createWords are what the job resource says; messageWords what the
// message resource says.
var (
	createWords = jobRunWords{
		sendFailed: "Could not create the agent job",
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the job may exist. The v2 API " +
			"cannot list jobs: look for it among the project's agent jobs in the Mintlify dashboard (the deprecated v1 " +
			"listing, GET /v1/agent/{projectId}/jobs, shows them as sessions) before applying again, and if it is there, " +
			"import it (terraform import ADDRESS PROJECT_ID/JOB_ID) instead of starting it twice.",
		kept:           "Agent job %s in project %q was created and is saved in state (tainted, so the next apply starts a new job; run `terraform untaint` to keep this one instead).",
		failed:         "It stays in state, tainted: the next apply starts a new job.",
		timeoutSetting: "timeouts.create",
		raiseTimeout:   resourceTimeoutExample,
	}
	messageWords = jobRunWords{
		sendFailed: "Could not send the message to the agent job",
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the message may have been " +
			"sent. Check the job in the Mintlify dashboard before applying again, so as not to send it twice.",
		kept:           "The message to agent job %s in project %q was sent and is saved in state (tainted, so the next apply sends it again; run `terraform untaint` to keep it instead).",
		failed:         "The message stays in state, tainted: the next apply sends it again.",
		timeoutSetting: "timeouts.create",
		raiseTimeout:   resourceTimeoutExample,
	}
)

const resourceTimeoutExample = "  timeouts {\n    create = \"60m\"\n  }"
