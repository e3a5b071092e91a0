package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

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

// AgentJob is a background agent job. Nullable fields are pointers: nil means
// the API sent null or nothing, which is not the same as an empty string.
type AgentJob struct {
	ID     string
	Status JobStatus
	Source JobSource
	Model  string
	// PRLink is the pull request the agent opened; nil while the job is
	// active, and nil after completion when no files were changed.
	PRLink     *string
	CreatedAt  time.Time
	ArchivedAt *time.Time
}

// JobSource is the repository a job works on.
type JobSource struct {
	Repository string
	Ref        *string
}

type agentJobJSON struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Source *struct {
		Repository string  `json:"repository"`
		Ref        *string `json:"ref"`
	} `json:"source"`
	Model      string  `json:"model"`
	PRLink     *string `json:"prLink"`
	CreatedAt  *string `json:"createdAt"`
	ArchivedAt *string `json:"archivedAt"`
}

// UnmarshalJSON decodes the API's job object, ignoring unknown fields and
// accepting ISO 8601 timestamps with or without fractional seconds. A
// timestamp in a form it cannot read is left unset rather than failing the
// decode: losing a just-created job's id over a cosmetic field would be
// far worse than a missing createdAt.
func (j *AgentJob) UnmarshalJSON(data []byte) error {
	var raw agentJobJSON
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*j = AgentJob{ID: raw.ID, Status: JobStatus(raw.Status), Model: raw.Model, PRLink: raw.PRLink}
	if raw.Source != nil {
		j.Source = JobSource{Repository: raw.Source.Repository, Ref: raw.Source.Ref}
	}
	if raw.CreatedAt != nil {
		if t, ok := parseTimestamp(*raw.CreatedAt); ok {
			j.CreatedAt = t
		}
	}
	if raw.ArchivedAt != nil {
		if t, ok := parseTimestamp(*raw.ArchivedAt); ok {
			j.ArchivedAt = &t
		}
	}
	return nil
}

// MarshalJSON encodes the job in the API's shape.
func (j AgentJob) MarshalJSON() ([]byte, error) {
	raw := agentJobJSON{ID: j.ID, Status: string(j.Status), Model: j.Model, PRLink: j.PRLink}
	raw.Source = &struct {
		Repository string  `json:"repository"`
		Ref        *string `json:"ref"`
	}{j.Source.Repository, j.Source.Ref}
	if !j.CreatedAt.IsZero() {
		s := j.CreatedAt.Format(time.RFC3339Nano)
		raw.CreatedAt = &s
	}
	if j.ArchivedAt != nil {
		s := j.ArchivedAt.Format(time.RFC3339Nano)
		raw.ArchivedAt = &s
	}
	return json.Marshal(raw)
}

// timestampLayouts are the ISO 8601 forms seen from JSON APIs: RFC 3339 (with
// or without fractions), and the same without a zone, read as UTC.
var timestampLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00"}

func parseTimestamp(s string) (time.Time, bool) {
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

type promptBody struct {
	Prompt string `json:"prompt"`
}

// ValidateProjectID checks a project id: it must hold more than white space.
// Any other character is allowed; it is escaped as one path segment.
func ValidateProjectID(projectID string) error { return requireNonEmpty("projectId", projectID) }

// ValidatePrompt checks a job prompt: it must hold more than white space.
func ValidatePrompt(prompt string) error { return requireNonEmpty("prompt", prompt) }

func requireNonEmpty(field, value string) error {
	if strings.TrimSpace(value) == "" {
		return &ValidationError{Field: field, Rule: "must not be empty"}
	}
	return nil
}

// CreateAgentJob starts a background agent job that carries out prompt in
// the project. The job starts active; follow it with GetAgentJob or
// WaitForAgentJob.
//
// The request is never retried once it may have reached the server (only a
// 429 refusal or a connection that never opened is retried), so one call
// creates at most one job. Once sent, its answer is awaited even if ctx ends
// meanwhile: a job the server created is returned, not lost. No request is
// started after ctx has ended.
func (c *Client) CreateAgentJob(ctx context.Context, projectID, prompt string) (*AgentJob, error) {
	if err := ValidateProjectID(projectID); err != nil {
		return nil, err
	}
	if err := ValidatePrompt(prompt); err != nil {
		return nil, err
	}
	var job AgentJob
	if err := c.do(ctx, http.MethodPost, escapePath("v2", "agent", projectID, "job"), nil, promptBody{prompt}, &job); err != nil {
		return nil, fmt.Errorf("creating agent job: %w", err)
	}
	if job.ID == "" {
		return nil, fmt.Errorf("creating agent job: the response has no job id")
	}
	return &job, nil
}

// GetAgentJob reads a job. A job the project does not have is a 404:
// check with IsNotFound.
func (c *Client) GetAgentJob(ctx context.Context, projectID, jobID string) (*AgentJob, error) {
	if err := ValidateProjectID(projectID); err != nil {
		return nil, err
	}
	if err := requireNonEmpty("jobId", jobID); err != nil {
		return nil, err
	}
	var job AgentJob
	if err := c.do(ctx, http.MethodGet, escapePath("v2", "agent", projectID, "job", jobID), nil, nil, &job); err != nil {
		return nil, fmt.Errorf("getting agent job %s: %w", jobID, err)
	}
	return &job, nil
}

// SendAgentJobMessage sends a follow-up instruction to an existing job and
// returns the job as the server reports it after accepting the message.
// Like CreateAgentJob, it is never sent twice.
func (c *Client) SendAgentJobMessage(ctx context.Context, projectID, jobID, prompt string) (*AgentJob, error) {
	if err := ValidateProjectID(projectID); err != nil {
		return nil, err
	}
	if err := requireNonEmpty("jobId", jobID); err != nil {
		return nil, err
	}
	if err := ValidatePrompt(prompt); err != nil {
		return nil, err
	}
	var job AgentJob
	path := escapePath("v2", "agent", projectID, "job", jobID, "message")
	if err := c.do(ctx, http.MethodPost, path, nil, promptBody{prompt}, &job); err != nil {
		return nil, fmt.Errorf("sending message to agent job %s: %w", jobID, err)
	}
	return &job, nil
}
