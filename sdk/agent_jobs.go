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
// [AgentJobLimit].
type AgentJobsService struct {
	// Sessions lists the project's agent jobs (the v1 listing).
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

// The statuses the API documents: active, then one of the other three.
const (
	JobStatusActive    JobStatus = "active"
	JobStatusCompleted JobStatus = "completed"
	JobStatusArchived  JobStatus = "archived"
	JobStatusFailed    JobStatus = "failed"
)

// JobStatuses lists the documented statuses.
var JobStatuses = []JobStatus{JobStatusActive, JobStatusCompleted, JobStatusArchived, JobStatusFailed}

// ValidateJobStatus checks a status filter: one of JobStatuses.
func ValidateJobStatus(s JobStatus) error {
	return oneOf("status", string(s), JobStatuses)
}

// Terminal reports whether the job has stopped changing: completed,
// archived or failed (an unknown status is not).
func (s JobStatus) Terminal() bool {
	switch s {
	case JobStatusCompleted, JobStatusArchived, JobStatusFailed:
		return true
	}
	return false
}

// Known reports whether the status is one the API documents.
func (s JobStatus) Known() bool { return s == JobStatusActive || s.Terminal() }

// AgentJob is a background agent job. A nil pointer field is one the API
// sent as null or not at all.
type AgentJob struct {
	ID string `json:"id"`
	// Status is "" when the answer had none the SDK could read: not
	// terminal, so a wait goes on.
	Status JobStatus `json:"status"`
	Source JobSource `json:"source"`
	Model  string    `json:"model"`
	// PRLink is the pull request the agent opened: nil while the job is
	// active, when no file changed, or when the API sent a link that is
	// not a web address.
	PRLink     *string    `json:"prLink"`
	CreatedAt  time.Time  `json:"createdAt"`
	ArchivedAt *time.Time `json:"archivedAt"`
	// Problems name the fields the SDK could not read or trust (`createdAt:
	// want a string, got a number`). Show them; do not run the job again
	// for them.
	Problems []string `json:"-"`
	ResponseInfo
}

// check is what a job needs beyond its id (agentJobID).
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

// ValidateProjectID checks a project id: 1 to 256 ASCII letters, digits
// and - _ . ~ :, not "." or "..".
func ValidateProjectID(projectID string) error { return validateID("projectId", projectID) }

// ValidateJobID checks a job id (ValidateProjectID).
func ValidateJobID(jobID string) error { return validateID("jobId", jobID) }

// ValidatePrompt checks a job prompt: more than white space.
func ValidatePrompt(prompt string) error { return nonEmpty("prompt", prompt) }

// Create starts a background agent job that carries out prompt in the
// project, and returns it active; follow it with Get or Wait.
//
// It is never sent twice once it may have reached the server (only a 429
// or a connection that never opened is retried), and once sent its answer
// is awaited for WithSentRequestGrace even if ctx ends. An answer with the
// job's id returns the job, its odd fields in Problems; an id Get could
// not read back is an *UnusableIDError. When it fails,
// MayHaveTakenEffect(err) says whether a job may exist.
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

// Get reads a job. An unknown job is a 404 (IsNotFound); an answer
// without an id, or another's, is a *MalformedResponseError.
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

// SendMessage sends a follow-up instruction to a job and returns the job
// as the server reports it; Wait then follows the new work. Like Create,
// it is never sent twice. A 2xx answer means the message was accepted:
// when its body is not this job, the job comes back with only its id and
// the problem in Problems, so the caller does not send it again.
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
// returns it (WaitOption's rules). When ctx ends, it returns the last job
// seen (nil if none) with an error wrapping ctx.Err().
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
