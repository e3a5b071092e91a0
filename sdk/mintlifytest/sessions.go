package mintlifytest

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"time"
)

// The v1 listing of agent jobs, GET /v1/agent/{projectId}/jobs
// (admin-openapi.json; deprecated, and the only listing the API has).
//
// The reference does not say whether a listed sessionId is the v2 id of
// the same job. The fake models that it is: the listing shows the
// project's jobs (created, seeded, or made with CreateJob) in v1's shape,
// each with its v2 id as sessionId, so that a client can read a listed job
// with GET /v2/agent/{projectId}/job/{sessionId}. The v2 status is told in
// v1's words: active is haulted false with haultReason processing;
// completed is completed; failed is error; archived is interrupted, each
// haulted. Jobs are listed newest first (by createdAt, then the later
// made first). No budget is published for reads: the route draws from none.

// sessionObject is the wire shape of one listed job. The spec types every
// field as a plain (non-nullable) string but branch: a value the fake does
// not have is left out.
type sessionObject struct {
	SessionID     string       `json:"sessionId"`
	Subdomain     string       `json:"subdomain"`
	Branch        *string      `json:"branch"`
	Haulted       bool         `json:"haulted"`
	HaultReason   string       `json:"haultReason"`
	PRLink        string       `json:"pullRequestLink,omitempty"`
	MessageToUser string       `json:"messageToUser,omitempty"`
	UserID        string       `json:"userId,omitempty"`
	Todos         []todoObject `json:"todos"`
	Title         string       `json:"title"`
	CreatedAt     string       `json:"createdAt"`
}

type todoObject struct {
	ID       string `json:"id"`
	Content  string `json:"content"`
	Status   string `json:"status"`
	Priority string `json:"priority"`
}

// maxListTake is the listing's largest page (take).
const maxListTake = 100

// listJobs serves a page of the project's jobs, newest first: skip is 0 or
// more (default 0), take 1 to 100 (default 12); anything else is a 400
// naming every problem, in the analytics endpoints' words. The answer has
// no total and no hasMore, as the spec says.
func (s *Fake) listJobs(w http.ResponseWriter, r *http.Request, _ string, p *project) {
	q := &params{q: r.URL.Query(), path: r.PathValue}
	skip := q.number("skip", 0, maxInt, 0, true)
	take := q.number("take", 1, maxListTake, 12, true)
	if len(q.problems) > 0 {
		writeError(w, http.StatusBadRequest, "Invalid query parameters", q.problems...)
		return
	}
	now := s.clock.Now()
	jobs := p.newestFirst()
	page := []sessionObject{}
	if skip < len(jobs) {
		for _, j := range jobs[skip:min(skip+take, len(jobs))] {
			page = append(page, p.renderSession(j, now))
		}
	}
	writeJSON(w, http.StatusOK, struct {
		AllSessions []sessionObject `json:"allSessions"`
	}{page})
}

const maxInt = int(^uint(0) >> 1)

// newestFirst is the project's jobs by creation time, newest first; jobs
// made at the same instant list the later made first. Called with s.mu
// held.
func (p *project) newestFirst() []*job {
	jobs := make([]*job, len(p.jobOrder))
	for i, id := range p.jobOrder {
		jobs[len(jobs)-1-i] = p.jobs[id]
	}
	slices.SortStableFunc(jobs, func(a, b *job) int { return b.createdAt.Compare(a.createdAt) })
	return jobs
}

// renderSession is a job as the v1 listing shows it now: the v2 object's
// facts in v1's words.
func (p *project) renderSession(j *job, now time.Time) sessionObject {
	o := p.render(j, now)
	sess := sessionObject{
		SessionID: j.id, Subdomain: slug(p.id), Branch: o.Source.Ref,
		Title: title(j.prompt), CreatedAt: o.CreatedAt, UserID: j.userID, Todos: []todoObject{},
	}
	switch o.Status {
	case jobActive:
		sess.HaultReason = "processing"
	case jobCompleted:
		sess.Haulted, sess.HaultReason = true, "completed"
		sess.MessageToUser = "No files needed changes."
		if o.PRLink != nil {
			sess.MessageToUser = "Opened a pull request with the changes."
		}
	case jobFailed:
		sess.Haulted, sess.HaultReason = true, "error"
		sess.MessageToUser = "The agent ran into an error and stopped."
	case jobArchived:
		sess.Haulted, sess.HaultReason = true, "interrupted"
	}
	if o.PRLink != nil {
		sess.PRLink = *o.PRLink
	}
	if j.prompt != "" {
		status := "in_progress"
		if sess.Haulted {
			status = "completed"
		}
		sess.Todos = append(sess.Todos, todoObject{ID: j.id + "-1", Content: sess.Title, Status: status, Priority: "high"})
	}
	return sess
}

// title is the listing's "generated title" of a job: its prompt's first
// line without script markers, cut at 60 characters; "Agent job" for a job
// with no prompt (seeded without one).
func title(prompt string) string {
	line, _, _ := strings.Cut(markerRE.ReplaceAllString(prompt, ""), "\n")
	line = strings.Join(strings.Fields(line), " ")
	if line == "" {
		return "Agent job"
	}
	if r := []rune(line); len(r) > 60 {
		return string(r[:59]) + "…"
	}
	return line
}

// Sessions returns the project's jobs as the v1 listing would serve them
// now, every page joined, as raw JSON objects in the listing's order. Tests
// compare what a client listed with it. It does not count as a request.
func (s *Fake) Sessions(projectID string) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil {
		return nil
	}
	now := s.clock.Now()
	out := []map[string]any{}
	for _, j := range p.newestFirst() {
		out = append(out, toMap(p.renderSession(j, now)))
	}
	return out
}

// toMap is v as a JSON object.
func toMap(v any) map[string]any {
	b, _ := json.Marshal(v)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}
