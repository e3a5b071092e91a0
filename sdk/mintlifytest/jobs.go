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

// Outcome is how a scripted job ends.
type Outcome string

// The outcomes a job script can end in.
const (
	OutcomeCompleted Outcome = "completed" // completed with a pull request
	OutcomeNoChange  Outcome = "nochange"  // completed, no files changed: prLink stays null
	OutcomeFailed    Outcome = "failed"
	OutcomeArchived  Outcome = "archived" // archived, with archivedAt
	OutcomeNever     Outcome = "never"    // stays active forever
)

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
	prNumber  int
	hadPR     bool // a PR from an earlier round survives a follow-up
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
	prLink := fmt.Sprintf("https://github.com/%s/pull/%d", p.repo, j.prNumber)
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
	s.jobSeq++
	now := s.clock.Now()
	// A UUID-shaped id: scrambled bits for looks, the sequence for uniqueness.
	x := splitmix64(s.jobSeq)
	j := &job{
		id:        fmt.Sprintf("%08x-%04x-4%03x-8%03x-%012x", x>>32, (x>>16)&0xffff, x&0xfff, (x>>40)&0xfff, s.jobSeq),
		script:    s.defaultJob.withMarkers(prompt),
		createdAt: now,
		startedAt: now,
		prNumber:  100 + len(p.jobOrder) + 1,
	}
	p.jobs[j.id] = j
	p.jobOrder = append(p.jobOrder, j.id)
	return j
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
	if strings.Contains(prompt, "[fake:") {
		j.script = j.script.withMarkers(prompt)
	}
	writeJSON(w, http.StatusOK, p.render(j, now))
}

// CreateJob creates a job directly, as if from the dashboard, and returns
// its id: tests use it to import jobs Terraform did not create. It does
// not count as a request.
func (s *Fake) CreateJob(projectID, prompt string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil {
		panic("mintlifytest: CreateJob: no project " + projectID)
	}
	return s.newJob(p, prompt).id
}
