package sdk

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// AgentJobsService starts background agent jobs, sends them follow-up
// messages and follows them until they end. Creations and messages share
// a budget per project (see [AgentJobLimit]).
type AgentJobsService struct {
	// Sessions lists the project's agent jobs, through the deprecated v1
	// listing (the only one the API has; see SessionsQuery).
	Sessions *PagedEndpoint[SessionsQuery, SessionsPage, AgentSession]

	core *core
}

func newAgentJobsService(k *core) AgentJobsService {
	return AgentJobsService{
		Sessions: newPaged[SessionsQuery, SessionsPage, AgentSession](k, sessionsSpec),
		core:     k,
	}
}

// JobStatus is an agent job's status.
type JobStatus string

// The statuses the API documents. A job starts active and ends in one of the
// other three.
const (
	JobStatusActive    JobStatus = "active"
	JobStatusCompleted JobStatus = "completed"
	JobStatusArchived  JobStatus = "archived"
	JobStatusFailed    JobStatus = "failed"
)

// JobStatuses lists the documented statuses, for validation and
// documentation.
var JobStatuses = []JobStatus{JobStatusActive, JobStatusCompleted, JobStatusArchived, JobStatusFailed}

// ValidateJobStatus checks a status filter: one of JobStatuses.
func ValidateJobStatus(s JobStatus) error {
	return oneOf("status", string(s), JobStatuses)
}

// Terminal reports whether the job has stopped changing: completed, archived
// or failed. An unknown status is not terminal, so a waiter keeps polling
// rather than report a result the API did not give.
func (s JobStatus) Terminal() bool {
	switch s {
	case JobStatusCompleted, JobStatusArchived, JobStatusFailed:
		return true
	}
	return false
}

// Known reports whether the status is one the API documents. A newer API
// may add statuses; callers can say so once instead of guessing.
func (s JobStatus) Known() bool { return s == JobStatusActive || s.Terminal() }

// AgentJob is a background agent job. Nullable fields are pointers: nil means
// the API sent null or nothing, which is not the same as an empty string.
type AgentJob struct {
	ID string `json:"id"`
	// Status is "" when the answer carried none the SDK could read (see
	// Problems): not terminal, so a wait goes on reading the job.
	Status JobStatus `json:"status"`
	Source JobSource `json:"source"`
	Model  string    `json:"model"`
	// PRLink is the pull request the agent opened: an absolute http(s)
	// URL. It is nil while the job is active, after completion when no
	// files changed, and when the API sent a link that is not a web
	// address (kept out: dashboards render it).
	PRLink     *string    `json:"prLink"`
	CreatedAt  time.Time  `json:"createdAt"`
	ArchivedAt *time.Time `json:"archivedAt"`
	// Problems name the fields of the answer the SDK could not read or
	// did not trust, such as `createdAt: want a string, got a number`.
	// The job is still the job: its id was in the answer. Show them; do
	// not run the job again because of them.
	Problems []string `json:"-"`
	ResponseInfo
}

// check is what a job's answer needs beyond its fields' kinds: a status,
// and a pull request link that is a web address. Its id is the call's to
// check (agentJobID).
func (j *AgentJob) check(c *checker) {
	c.nonEmpty("status", string(j.Status))
	if j.PRLink != nil && !c.link("prLink", *j.PRLink) {
		j.PRLink = nil
	}
}

// JobSource is the repository a job works on.
type JobSource struct {
	Repository string  `json:"repository"`
	Ref        *string `json:"ref"`
}

type promptBody struct {
	Prompt string `json:"prompt"`
}

// ValidateProjectID checks a project id: 1 to 256 characters of ASCII
// letters, digits and - _ . ~ :, and not "." or "..". Anything else (a
// slash, white space, a control character) would change the request's
// path or cannot be an id.
func ValidateProjectID(projectID string) error { return validateID("projectId", projectID) }

// ValidateJobID checks a job id, by the same rule as a project id.
func ValidateJobID(jobID string) error { return validateID("jobId", jobID) }

// ValidatePrompt checks a job prompt: it must hold more than white space.
func ValidatePrompt(prompt string) error { return nonEmpty("prompt", prompt) }

// Create starts a background agent job that carries out prompt in the
// project. The job starts active; follow it with Get or Wait.
//
// The request is never retried once it may have reached the server (only a
// 429 refusal or a connection that never opened is retried), so one call
// creates at most one job. Once sent, its answer is awaited for a short
// grace (WithSentRequestGrace) even if ctx ends meanwhile: a job the server
// created is returned, not lost. No request is started after ctx has
// ended.
//
// An answer that carries the new job's id returns the job, even when other
// fields are malformed (listed in its Problems): the job exists. An id
// Get could not read back by (ValidateJobID) is refused with an
// *UnusableIDError: the job may exist, find it in the dashboard. When the
// call fails with no job, MayHaveTakenEffect(err) says whether one may
// still have been created.
func (s *AgentJobsService) Create(ctx context.Context, projectID, prompt string) (*AgentJob, error) {
	k, err := checked(s.core, ValidateProjectID(projectID), ValidatePrompt(prompt))
	if err != nil {
		return nil, err
	}
	c := call{method: http.MethodPost, path: escapePath("v2", "agent", projectID, "job"), body: promptBody{prompt}}
	job, err := answerTo(ctx, k, c, func(j *AgentJob) error { return agentJobID.checkNew(k, c, j.ResponseInfo, j.ID, j.Problems) })
	if err != nil {
		return nil, fmt.Errorf("creating agent job: %w", err)
	}
	return job, nil
}

// Get reads a job. A job the project does not have is a 404: check with
// IsNotFound. An answer without an id, or for another job, is a
// *MalformedResponseError; other odd fields are in the job's Problems.
func (s *AgentJobsService) Get(ctx context.Context, projectID, jobID string) (*AgentJob, error) {
	k, err := checked(s.core, ValidateProjectID(projectID), ValidateJobID(jobID))
	if err != nil {
		return nil, err
	}
	c := get(escapePath("v2", "agent", projectID, "job", jobID), nil)
	job, err := answerTo(ctx, k, c, func(j *AgentJob) error { return agentJobID.check(k, c, j.ID, jobID, j.Problems) })
	if err != nil {
		return nil, fmt.Errorf("getting agent job %s: %w", jobID, err)
	}
	return job, nil
}

// SendMessage sends a follow-up instruction to an existing job and
// returns the job as the server reports it after accepting the message;
// Wait then follows the new round of work. Like Create, it is never sent
// twice.
//
// A 2xx answer means the message was accepted, whatever its body: when
// the body is not this job (not JSON, no id, another job's id), the job is
// returned with only its id and the problem in Problems, so that the
// caller records the message and reads the job, rather than send it
// again.
func (s *AgentJobsService) SendMessage(ctx context.Context, projectID, jobID, prompt string) (*AgentJob, error) {
	k, err := checked(s.core, ValidateProjectID(projectID), ValidateJobID(jobID), ValidatePrompt(prompt))
	if err != nil {
		return nil, err
	}
	c := call{method: http.MethodPost, path: escapePath("v2", "agent", projectID, "job", jobID, "message"), body: promptBody{prompt}}
	job := &AgentJob{}
	_, _, err = k.fetch(ctx, c, job, nil)
	if err == nil {
		err = agentJobID.check(k, c, job.ID, jobID, job.Problems)
	}
	var m *MalformedResponseError
	switch {
	case errors.As(err, &m):
		job = &AgentJob{ID: jobID, Problems: []string{"the API accepted the message, but its answer is not this job: " + err.Error()}, ResponseInfo: job.ResponseInfo}
	case err != nil:
		return nil, fmt.Errorf("sending message to agent job %s: %w", jobID, err)
	}
	return job, nil
}

// Wait polls the job until it is completed, archived or failed, and
// returns it; see the waiting rules of WaitOption. The wait ends the
// moment ctx is done: then it returns the last job it saw (nil if none)
// together with an error wrapping ctx.Err(), so callers can still record
// what they know.
func (s *AgentJobsService) Wait(ctx context.Context, projectID, jobID string, opts ...WaitOption) (*AgentJob, error) {
	if _, err := checked(s.core, ValidateProjectID(projectID), ValidateJobID(jobID)); err != nil {
		return nil, err
	}
	return poll(ctx, s.core, poller[*AgentJob]{
		what:     "agent job " + jobID,
		read:     func(ctx context.Context) (*AgentJob, error) { return s.Get(ctx, projectID, jobID) },
		terminal: func(j *AgentJob) bool { return j.Status.Terminal() },
	}, opts)
}
