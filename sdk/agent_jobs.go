package sdk

import (
	"context"
	"encoding/json"
	"errors"
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

// Known reports whether the status is one the API documents. A newer API
// may add statuses; callers can say so once instead of guessing.
func (s JobStatus) Known() bool { return s == JobStatusActive || s.Terminal() }

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

// UnmarshalJSON decodes the API's job object field by field, ignoring
// unknown fields and accepting ISO 8601 timestamps with or without
// fractional seconds or a zone. A field of the wrong kind (createdAt as a
// number, prLink as an object) is reported, but never at the cost of the
// others: the job comes back with every field that could be read, its id
// above all, together with the problems. A timestamp string in a form it
// cannot read is left unset.
func (j *AgentJob) UnmarshalJSON(data []byte) error {
	var fields map[string]json.RawMessage
	err := json.Unmarshal(data, &fields)
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return err // not JSON at all: the error shows the body's start
	}
	if err != nil || fields == nil {
		return fieldProblems{"job: want an object"}
	}
	var p fieldProblems
	*j = AgentJob{}
	str := func(name string, dst *string) {
		if raw, ok := fields[name]; ok && string(raw) != "null" && json.Unmarshal(raw, dst) != nil {
			p.add(name, "want a string, got %s", rawKind(raw))
		}
	}
	nullable := func(name string) *string {
		var v *string
		if raw, ok := fields[name]; ok && json.Unmarshal(raw, &v) != nil {
			p.add(name, "want a string or null, got %s", rawKind(raw))
			return nil
		}
		return v
	}
	str("id", &j.ID)
	var status string
	str("status", &status)
	j.Status = JobStatus(status)
	str("model", &j.Model)
	j.PRLink = nullable("prLink")
	if raw, ok := fields["source"]; ok && string(raw) != "null" {
		var src map[string]json.RawMessage
		if json.Unmarshal(raw, &src) != nil {
			p.add("source", "want an object, got %s", rawKind(raw))
		} else {
			if r, ok := src["repository"]; ok && string(r) != "null" && json.Unmarshal(r, &j.Source.Repository) != nil {
				p.add("source.repository", "want a string, got %s", rawKind(r))
			}
			if r, ok := src["ref"]; ok && json.Unmarshal(r, &j.Source.Ref) != nil {
				p.add("source.ref", "want a string or null, got %s", rawKind(r))
			}
		}
	}
	if s := nullable("createdAt"); s != nil {
		if t, ok := parseTimestamp(*s); ok {
			j.CreatedAt = t
		}
	}
	if s := nullable("archivedAt"); s != nil {
		if t, ok := parseTimestamp(*s); ok {
			j.ArchivedAt = &t
		}
	}
	return p.err()
}

// rawKind names the kind of a JSON value, for problems.
func rawKind(raw json.RawMessage) string {
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
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

// ValidateProjectID checks a project id: it must hold more than white space,
// and not be "." or "..", which would change the request's path. Any other
// character is allowed; it is escaped as one path segment.
func ValidateProjectID(projectID string) error { return validateSegment("projectId", projectID) }

// ValidateJobID checks a job id, by the same rule as a project id.
func ValidateJobID(jobID string) error { return validateSegment("jobId", jobID) }

// ValidatePrompt checks a job prompt: it must hold more than white space.
func ValidatePrompt(prompt string) error { return requireNonEmpty("prompt", prompt) }

func requireNonEmpty(field, value string) error {
	if strings.TrimSpace(value) == "" {
		return &ValidationError{Field: field, Rule: "must not be empty or only white space"}
	}
	return nil
}

// validateSegment checks a value sent as one path segment.
func validateSegment(field, value string) error {
	if value == "." || value == ".." {
		return &ValidationError{Field: field, Value: value, Rule: "is not allowed: it would change the request's path"}
	}
	return requireNonEmpty(field, value)
}

// checkJob refuses an answer that cannot be the job asked for: without an
// id, with another job's id (wantID; "" when creating), or without a
// status. Writing such an answer into Terraform state would lose the job,
// or point state at someone else's.
func checkJob(method, escPath string, job *AgentJob, wantID string) error {
	var p fieldProblems
	switch {
	case job.ID == "":
		p.add("id", "missing or empty")
	case wantID != "" && job.ID != wantID:
		p.add("id", "the answer is for job %q, not job %q", job.ID, wantID)
	}
	if job.Status == "" {
		p.add("status", "missing or empty")
	}
	if len(p) == 0 {
		return nil
	}
	return &MalformedResponseError{Method: method, Path: escPath, Problems: p}
}

// CreateAgentJob starts a background agent job that carries out prompt in
// the project. The job starts active; follow it with GetAgentJob or
// WaitForAgentJob.
//
// The request is never retried once it may have reached the server (only a
// 429 refusal or a connection that never opened is retried), so one call
// creates at most one job. Once sent, its answer is awaited for a short
// grace (DefaultSentRequestGrace) even if ctx ends meanwhile: a job the
// server created is returned, not lost. No request is started after ctx
// has ended.
//
// When the answer carries the new job's id but is otherwise malformed, the
// job (with every field that could be read) is returned together with a
// *MalformedResponseError: record the id, since the job exists. When the
// call fails with no job, MayHaveTakenEffect(err) says whether one may
// still have been created.
func (c *Client) CreateAgentJob(ctx context.Context, projectID, prompt string) (*AgentJob, error) {
	if err := ValidateProjectID(projectID); err != nil {
		return nil, err
	}
	if err := ValidatePrompt(prompt); err != nil {
		return nil, err
	}
	path := escapePath("v2", "agent", projectID, "job")
	return c.postJob(ctx, "creating agent job", path, "", prompt)
}

// GetAgentJob reads a job. A job the project does not have is a 404:
// check with IsNotFound. An answer for another job, or without a status,
// is a *MalformedResponseError.
func (c *Client) GetAgentJob(ctx context.Context, projectID, jobID string) (*AgentJob, error) {
	if err := ValidateProjectID(projectID); err != nil {
		return nil, err
	}
	if err := ValidateJobID(jobID); err != nil {
		return nil, err
	}
	path := escapePath("v2", "agent", projectID, "job", jobID)
	var job AgentJob
	err := c.do(ctx, http.MethodGet, path, nil, nil, &job)
	if err == nil {
		err = checkJob(http.MethodGet, path, &job, jobID)
	}
	if err != nil {
		return nil, fmt.Errorf("getting agent job %s: %w", jobID, err)
	}
	return &job, nil
}

// SendAgentJobMessage sends a follow-up instruction to an existing job and
// returns the job as the server reports it after accepting the message;
// WaitForAgentJob then follows the new round of work. Like CreateAgentJob,
// it is never sent twice, and a malformed answer for the right job is
// returned beside its error.
func (c *Client) SendAgentJobMessage(ctx context.Context, projectID, jobID, prompt string) (*AgentJob, error) {
	if err := ValidateProjectID(projectID); err != nil {
		return nil, err
	}
	if err := ValidateJobID(jobID); err != nil {
		return nil, err
	}
	if err := ValidatePrompt(prompt); err != nil {
		return nil, err
	}
	path := escapePath("v2", "agent", projectID, "job", jobID, "message")
	return c.postJob(ctx, "sending message to agent job "+jobID, path, jobID, prompt)
}

// postJob sends a prompt to a job endpoint and checks the answer. A job
// whose id came back (the right one, for a message) is returned even when
// another field is malformed, beside the error: it exists.
func (c *Client) postJob(ctx context.Context, what, path, wantID, prompt string) (*AgentJob, error) {
	var job AgentJob
	err := c.do(ctx, http.MethodPost, path, nil, promptBody{prompt}, &job)
	if err != nil && !IsMalformedResponse(err) {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if idErr := checkJob(http.MethodPost, path, &job, wantID); idErr != nil {
		var m *MalformedResponseError
		if errors.As(err, &m) {
			m.Problems = append(m.Problems, idErr.(*MalformedResponseError).Problems...) //nolint:errorlint,forcetypeassert // checkJob returns this type
		} else {
			err = idErr
		}
	}
	if err == nil {
		return &job, nil
	}
	if job.ID != "" && (wantID == "" || job.ID == wantID) {
		return &job, fmt.Errorf("%s: job %s: %w", what, job.ID, err)
	}
	return nil, fmt.Errorf("%s: %w", what, err)
}
