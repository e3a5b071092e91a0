package mintlifytest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"
)

// Outcome is how scripted work ends: a job (JobScript), a deployment or
// preview (DeploymentScript), a static export (ExportScript).
type Outcome string

// The outcomes a script can end in.

// OutcomeCompleted means: the work is done. A job completes with a pull
// request, a deployment succeeds (its docs published), an export
// completes (its bundle can be made).
const OutcomeCompleted Outcome = "completed"

// OutcomeFailed means: a job fails; a deployment fails with a build error
// in its summary and logs; an export fails 60% of the way through its
// run, with an error naming the page that failed to render.
const OutcomeFailed Outcome = "failed"

// OutcomeNever means: it never ends. A job stays active, a deployment
// in_progress, an export running (its progress nears 99% and stays).
const OutcomeNever Outcome = "never"

// OutcomeNoChange means: a job completes with no files changed: prLink
// stays null. (A deployment or an export completes.)
const OutcomeNoChange Outcome = "nochange"

// OutcomeArchived means: a job is archived, with archivedAt. (A deployment
// or an export completes.)
const OutcomeArchived Outcome = "archived"

// JobScript is the lifecycle of a job: active for ActiveFor (measured on the
// server's clock from creation, or from the last follow-up message), then
// Outcome.
//
// A prompt picks its own script with markers: "[fake:failed]",
// "[fake:nochange]", "[fake:archived]", "[fake:never]", "[fake:completed]",
// and "[fake:active=30s]" (any Go duration).
type JobScript struct {
	ActiveFor time.Duration
	Outcome   Outcome
}

var markerRE = regexp.MustCompile(`\[fake:([a-z]+)(?:=([0-9a-z.]+))?\]`)

func (s JobScript) withMarkers(prompt string) JobScript {
	for _, m := range markerRE.FindAllStringSubmatch(prompt, -1) {
		switch m[1] {
		case "active":
			if d, err := time.ParseDuration(m[2]); err == nil {
				s.ActiveFor = d
			}
		case string(OutcomeCompleted), string(OutcomeNoChange), string(OutcomeFailed), string(OutcomeArchived), string(OutcomeNever):
			s.Outcome = Outcome(m[1])
		}
	}
	return s
}

type job struct {
	id        string
	script    JobScript
	createdAt time.Time
	startedAt time.Time // creation, or the last follow-up message
	prLink    string    // the pull request the job opens, or opened
	hadPR     bool      // a PR from an earlier round survives a follow-up
	prompt    string
	userID    string // who started it: only a job from the dashboard (CreateJob) has one
	messages  []JobMessage
	// A seeded job keeps its seeded status until a follow-up message.
	fixed      string
	archivedAt time.Time
}

// jobObject is the wire shape of an agent job.
type jobObject struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Source struct {
		Repository string  `json:"repository"`
		Ref        *string `json:"ref"`
	} `json:"source"`
	Model      string  `json:"model"`
	PRLink     *string `json:"prLink"`
	CreatedAt  string  `json:"createdAt"`
	ArchivedAt *string `json:"archivedAt"`
}

const timeLayout = "2006-01-02T15:04:05.000Z"

func (p *project) render(j *job, now time.Time) jobObject {
	o := jobObject{ID: j.id, Model: "claude-sonnet-4-5", CreatedAt: j.createdAt.UTC().Format(timeLayout)}
	o.Source.Repository = "https://github.com/" + p.repo // the spec: the repository's full URL
	ref := "main"
	o.Source.Ref = &ref
	prLink := j.prLink
	if j.fixed != "" {
		o.Status = j.fixed
		if j.hadPR {
			o.PRLink = &prLink
		}
		if j.fixed == jobArchived {
			at := j.archivedAt.Format(timeLayout)
			o.ArchivedAt = &at
		}
		return o
	}
	ends := j.startedAt.Add(j.script.ActiveFor)
	if j.script.Outcome == OutcomeNever || now.Before(ends) {
		o.Status = "active"
		if j.hadPR {
			o.PRLink = &prLink
		}
		return o
	}
	switch j.script.Outcome {
	case OutcomeNoChange:
		o.Status = "completed"
	case OutcomeFailed:
		o.Status = "failed"
	case OutcomeArchived:
		o.Status = "archived"
		at := ends.UTC().Format(timeLayout)
		o.ArchivedAt = &at
		if j.hadPR {
			o.PRLink = &prLink
		}
	default:
		o.Status = "completed"
		o.PRLink = &prLink
	}
	return o
}

// Job returns the job as the API would render it now, and whether it exists.
// Tests use it to compare what the provider stored with the server's truth.
func (s *Fake) Job(projectID, jobID string) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil || p.jobs[jobID] == nil {
		return nil, false
	}
	b, _ := json.Marshal(p.render(p.jobs[jobID], s.clock.Now()))
	return b, true
}

// JobIDs returns the project's job ids in creation order.
func (s *Fake) JobIDs(projectID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.projects[projectID]; p != nil {
		return append([]string(nil), p.jobOrder...)
	}
	return nil
}

// readPrompt decodes {"prompt": string}, answering 400 itself when the body
// is not that.
func readPrompt(w http.ResponseWriter, r *http.Request) (string, bool) {
	data, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		writeError(w, http.StatusBadRequest, "Invalid request body", "could not read body")
		return "", false
	}
	var body struct {
		Prompt *string `json:"prompt"`
	}
	if err := json.Unmarshal(data, &body); err != nil {
		writeError(w, http.StatusBadRequest, "Invalid request body", "body must be a JSON object")
		return "", false
	}
	if body.Prompt == nil {
		writeError(w, http.StatusBadRequest, "Invalid request body", "prompt: Required")
		return "", false
	}
	if len(*body.Prompt) < 1 {
		writeError(w, http.StatusBadRequest, "Invalid request body", "prompt: String must contain at least 1 character(s)")
		return "", false
	}
	return *body.Prompt, true
}

func (s *Fake) createJob(w http.ResponseWriter, r *http.Request, _ string, p *project) {
	prompt, ok := readPrompt(w, r)
	if !ok {
		return
	}
	j := s.newJob(p, prompt)
	writeJSON(w, http.StatusCreated, p.render(j, j.createdAt))
}

// newJob is called with s.mu held.
func (s *Fake) newJob(p *project, prompt string) *job {
	now := s.clock.Now()
	j := &job{
		id:        s.newJobID(),
		script:    s.defaultJob.withMarkers(prompt),
		createdAt: now,
		startedAt: now,
		prompt:    prompt,
	}
	p.add(j)
	return j
}

// newJobID is a UUID-shaped id: scrambled bits for looks, the sequence
// for uniqueness. Called with s.mu held.
func (s *Fake) newJobID() string {
	s.jobSeq++
	x := splitmix64(s.jobSeq)
	return fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", x>>32, (x>>16)&0xffff, x&0xfff, (x>>40)&0xfff, s.jobSeq)
}

// add files a new job; its pull request, when it opens one, is the
// project's next: 101 for the first job (seeded ones included).
func (p *project) add(j *job) {
	if j.prLink == "" {
		j.prLink = fmt.Sprintf("https://github.com/%s/pull/%d", p.repo, 100+len(p.jobOrder)+1)
	}
	p.jobs[j.id] = j
	p.jobOrder = append(p.jobOrder, j.id)
}

func (s *Fake) getJob(w http.ResponseWriter, r *http.Request, _ string, p *project) {
	j := p.jobs[r.PathValue("id")]
	if j == nil {
		writeError(w, http.StatusNotFound, "Job not found")
		return
	}
	writeJSON(w, http.StatusOK, p.render(j, s.clock.Now()))
}

// sendMessage models a follow-up: the agent picks the job up again (active
// for another round of its script), keeping any PR it already opened.
// Archived jobs take no more messages.
func (s *Fake) sendMessage(w http.ResponseWriter, r *http.Request, _ string, p *project) {
	j := p.jobs[r.PathValue("id")]
	if j == nil {
		writeError(w, http.StatusNotFound, "Job not found")
		return
	}
	prompt, ok := readPrompt(w, r)
	if !ok {
		return
	}
	now := s.clock.Now()
	current := p.render(j, now)
	if current.Status == "archived" {
		writeError(w, http.StatusBadRequest, "Job is archived", "archived jobs do not accept messages")
		return
	}
	j.hadPR = current.PRLink != nil
	j.startedAt = now
	j.fixed = ""
	if strings.Contains(prompt, "[fake:") {
		j.script = j.script.withMarkers(prompt)
	}
	j.messages = append(j.messages, JobMessage{Prompt: prompt, At: now})
	writeJSON(w, http.StatusOK, p.render(j, now))
}

// CreateJob creates a job directly, as if from the dashboard, and returns
// its id: tests use it to import jobs Terraform did not create. It does
// not count as a request. The listing names its user (dashboardUserID);
// a job created with a key has none.
func (s *Fake) CreateJob(projectID, prompt string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil {
		panic("mintlifytest: CreateJob: no project " + projectID)
	}
	j := s.newJob(p, prompt)
	j.userID = dashboardUserID
	return j.id
}

// dashboardUserID is the user who starts the jobs of CreateJob.
const dashboardUserID = "user_2f8c1d0dashboard"

// JobMessage is a follow-up message a job accepted.
type JobMessage struct {
	Prompt string
	// At is when it arrived, on the fake's clock.
	At time.Time
}

// JobRecord is what the fake received for a job: the prompt it was
// created with and the follow-up messages it accepted, in order. (A
// message the fake refused, with a 400, 404 or 429, is only in the
// request log.)
type JobRecord struct {
	ProjectID string
	ID        string
	Prompt    string
	CreatedAt time.Time
	Messages  []JobMessage
}

// JobRecord returns what the fake received for a job, and whether the job
// exists. Tests assert on what was sent with it: "the follow-up said X".
func (s *Fake) JobRecord(projectID, jobID string) (JobRecord, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil || p.jobs[jobID] == nil {
		return JobRecord{}, false
	}
	j := p.jobs[jobID]
	return JobRecord{ProjectID: projectID, ID: j.id, Prompt: j.prompt, CreatedAt: j.createdAt,
		Messages: append([]JobMessage(nil), j.messages...)}, true
}

// A job's statuses, as the API reports them.
const (
	jobActive    = "active"
	jobCompleted = "completed"
	jobArchived  = "archived"
	jobFailed    = "failed"
)

// JobSeed is a job put straight into the fake, as if it had been created
// earlier (by the dashboard, another tool, a previous run).
type JobSeed struct {
	// ID is the job's id ("": a new one, as for a created job).
	ID string
	// Status is what the job reports, as the API words it: active ("" too),
	// completed, failed or archived; until a follow-up message takes it up
	// again for a round of the fake's default script (see SetDefaultJob;
	// markers in the message count). An archived job refuses messages.
	Status string
	// Prompt is the prompt it was created with (JobRecord reports it).
	Prompt string
	// PRLink is its pull request ("": none, prLink is null).
	PRLink string
	// CreatedAt is its creation time (zero: now, on the fake's clock).
	CreatedAt time.Time
	// ArchivedAt is when an archived job was archived (zero: CreatedAt).
	// Only an archived job has one.
	ArchivedAt time.Time
}

// SeedJob puts a job into a project, and returns its id. Times are kept to
// the millisecond, as the API writes them. It fails for an unknown project,
// an id already taken, an unknown status, or an ArchivedAt on a job that
// is not archived. A seed does not count as a request or spend a budget.
func (s *Fake) SeedJob(projectID string, seed JobSeed) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil {
		return "", fmt.Errorf("SeedJob: no project %q", projectID)
	}
	if seed.Status == "" {
		seed.Status = jobActive
	}
	switch seed.Status {
	case jobActive, jobCompleted, jobArchived, jobFailed:
	default:
		return "", fmt.Errorf("SeedJob: status %q is not active, completed, archived or failed", seed.Status)
	}
	if !seed.ArchivedAt.IsZero() && seed.Status != jobArchived {
		return "", fmt.Errorf("SeedJob: only an archived job has an archivedAt (this one is %s)", seed.Status)
	}
	if seed.ID != "" && p.jobs[seed.ID] != nil {
		return "", fmt.Errorf("SeedJob: project %q already has a job %q", projectID, seed.ID)
	}
	if seed.ID == "" {
		seed.ID = s.newJobID()
	}
	created := seed.CreatedAt
	if created.IsZero() {
		created = s.clock.Now()
	}
	created = created.UTC().Truncate(time.Millisecond)
	j := &job{
		id: seed.ID, script: s.defaultJob, createdAt: created, startedAt: created,
		prompt: seed.Prompt, fixed: seed.Status, prLink: seed.PRLink, hadPR: seed.PRLink != "",
	}
	if seed.Status == jobArchived {
		j.archivedAt = created
		if !seed.ArchivedAt.IsZero() {
			j.archivedAt = seed.ArchivedAt.UTC().Truncate(time.Millisecond)
		}
	}
	p.add(j)
	return j.id, nil
}
