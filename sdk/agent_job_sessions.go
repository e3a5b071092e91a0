package sdk

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/paging"
)

// The agent job listing.
//
// The v2 agent API has no listing: a job can be read only by its id. The
// one listing the API has is v1's GET /v1/agent/{projectId}/jobs, which
// the API reference marks deprecated (its replacement, v2's get job, reads
// one job). It is still the right call to find jobs Terraform did not
// start, because nothing else lists them; it is read-only, and no rate
// limit is published for it.
//
// Its rows are "sessions" in v1's shape: sessionId, haulted and
// haultReason (sic) instead of v2's id and status. The reference does not
// say that a session's id is the v2 id of the same job. This SDK assumes
// it is (AgentSession.ID is passed to AgentJobs.Get as is) and says so
// wherever it matters: a 404 from Get for a listed id means the assumption
// does not hold for that job.
//
// The listing has no total and no hasMore: it pages by skip and take
// (1 to 100, default 12). A page holding fewer rows than asked for is the
// last; a full page may be followed by more, so a listing of exactly 100,
// 200, ... jobs costs one more request, answered with no rows. A read of
// N jobs costs floor(N/100) + 1 requests: ceil(N/100) unless N is a
// multiple of 100 (0 included), then N/100 + 1.

// MaxSessionsPageSize is the largest page of the agent job listing.
const MaxSessionsPageSize = 100

// SessionsQuery selects agent jobs from the listing (AgentJobs.Sessions),
// in the API's order: the reference does not document it; the fake lists
// newest first.
type SessionsQuery struct {
	// Limit is the page size, 1 to 100; 0 means MaxSessionsPageSize.
	Limit int
	// Offset is how many jobs to skip, 0 or more.
	Offset int
	// MaxResults stops the paging helpers after this many jobs (0: all).
	// It is not sent; the last page is shrunk so no job is fetched in
	// vain.
	MaxResults int
}

// Validate checks the query before any request is sent.
func (q SessionsQuery) Validate() error { return validatePaging(q.paging(), MaxSessionsPageSize) }

func (q SessionsQuery) paging() pageParams {
	return pageParams{limit: q.Limit, offset: q.Offset, maxResults: q.MaxResults}
}

// HaltReason is why a listed job stopped, in v1's words.
type HaltReason string

// The halt reasons the API documents.
const (
	HaltReasonProcessing          HaltReason = "processing" // still running
	HaltReasonCompleted           HaltReason = "completed"
	HaltReasonGitHubMisconfigured HaltReason = "github_missconfigured" // the API's spelling
	HaltReasonError               HaltReason = "error"
	HaltReasonInterrupted         HaltReason = "interrupted" // stopped by hand
)

// AgentSession is an agent job as the v1 listing shows it. Nullable
// fields are pointers; a field the answer left out is empty.
type AgentSession struct {
	// ID is the session's id (sessionId), assumed to be the job's v2 id.
	ID string `json:"sessionId"`
	// Subdomain is the documentation site the job belongs to.
	Subdomain string `json:"subdomain"`
	// Branch is the git branch the agent works on; nil when none.
	Branch *string `json:"branch"`
	// Halted reports whether the job stopped (v1's "haulted").
	Halted bool `json:"haulted"`
	// HaltReason is why (v1's "haultReason"): processing while it runs.
	HaltReason HaltReason `json:"haultReason"`
	// PRLink is the pull request the job opened (pullRequestLink): an
	// absolute http(s) URL, or nil (none, or a link that is not a web
	// address, kept out as for AgentJob.PRLink).
	PRLink *string `json:"pullRequestLink"`
	// MessageToUser is the agent's message about the outcome.
	MessageToUser string `json:"messageToUser"`
	// Title is a generated title summarizing the job.
	Title string `json:"title"`
	// UserID is who started the job, when the API knows.
	UserID string `json:"userId"`
	// Todos are the agent's task list.
	Todos []SessionTodo `json:"todos"`
	// CreatedAt is when the job was created; zero when the answer did
	// not say (see Problems).
	CreatedAt time.Time `json:"createdAt"`
	// Problems name the fields of the row the SDK could not read or did
	// not trust; the row is still the job its ID names.
	Problems []string `json:"-"`
}

// check is what a listed job needs beyond its fields' kinds: an id and a
// creation time, and a pull request link that is a web address.
func (s *AgentSession) check(c *checker) {
	c.need("sessionId", "createdAt")
	c.nonEmpty("sessionId", s.ID)
	if s.PRLink != nil && !c.link("pullRequestLink", *s.PRLink) {
		s.PRLink = nil
	}
}

// SessionTodo is one item of a job's task list.
type SessionTodo struct {
	ID       string `json:"id"`
	Content  string `json:"content"`
	Status   string `json:"status"`   // pending, in_progress, completed, or canceled (with two l's, as the API writes it)
	Priority string `json:"priority"` // high, medium or low
}

// Status is the v2 status that matches the session's halt reason:
// processing is active; completed is completed; error and
// github_missconfigured are failed; interrupted is archived. The API
// documents no such mapping: it is this SDK's reading of the two shapes.
// A reason the SDK does not know gives "" (a job that has not halted and
// gives no reason is active).
func (s AgentSession) Status() JobStatus {
	switch s.HaltReason {
	case HaltReasonProcessing:
		return JobStatusActive
	case HaltReasonCompleted:
		return JobStatusCompleted
	case HaltReasonError, HaltReasonGitHubMisconfigured:
		return JobStatusFailed
	case HaltReasonInterrupted:
		return JobStatusArchived
	case "":
		if !s.Halted {
			return JobStatusActive
		}
	}
	return ""
}

// SessionsPage is one page of the listing (or, from All, every page of
// one read).
type SessionsPage struct {
	// Sessions are the page's jobs whose ids can be used.
	Sessions []AgentSession `json:"allSessions"`
	// Skipped are the page's rows whose id cannot be used: none, or one
	// the v2 API could not be asked about (ValidateJobID). They are left
	// out of Sessions, so that one bad row never costs the rest; show
	// them (the id escaped, with %q or DisplayLine). Rows, which yields
	// Sessions alone, does not see them: read Pages, Each or All.
	Skipped []SkippedSession `json:"-"`
	ResponseInfo
}

// SkippedSession is a row of the job listing left out of
// SessionsPage.Sessions: its id cannot be read back as a job's.
type SkippedSession struct {
	// ID is the row's sessionId as the API sent it ("" when it had none):
	// server text, to show escaped.
	ID string
	// Problem says why it was skipped, with the id escaped and clipped.
	Problem string
}

// sessionRows is the listing as it comes: its rows are read one by one
// (decodeSessions).
type sessionRows struct {
	Rows []json.RawMessage `json:"allSessions"`
}

func (r *sessionRows) check(c *checker) { c.need("allSessions") }

// decodeSessions reads a page. Only what makes the page untrustworthy
// fails it: no allSessions list. Each row is read on its own, as an
// answer of its own: a row that is not an object, or whose id cannot be
// used (none, or one that is not a job id: it could be imported as
// nothing, or read as nothing), is skipped, into the page's Skipped; any
// other odd field goes into its row's Problems, as for a job.
func decodeSessions(d decoding, data []byte, pg *SessionsPage) error {
	var rows sessionRows
	if err := d.decode(data, &rows); err != nil {
		return err
	}
	pg.Sessions = make([]AgentSession, 0, len(rows.Rows))
	for i, raw := range rows.Rows {
		var s AgentSession
		idProblem := ""
		if raw[0] != '{' {
			idProblem = "want an object, got " + bounded.Kind(raw)
		} else {
			_ = d.decode(raw, &s) // an object: its problems are its own
		}
		for _, p := range s.Problems {
			if idProblem == "" && strings.HasPrefix(p, "sessionId: ") {
				idProblem = p
			}
		}
		var ve *ValidationError
		if err := ValidateJobID(s.ID); idProblem == "" && errors.As(err, &ve) {
			idProblem = fmt.Sprintf("sessionId: %q cannot be read back as a job's id: it %s", d.quote(s.ID), ve.Rule)
		}
		if idProblem != "" {
			pg.Skipped = append(pg.Skipped, SkippedSession{ID: s.ID, Problem: fmt.Sprintf("allSessions[%d] is skipped: %s", i, idProblem)})
			continue
		}
		pg.Sessions = append(pg.Sessions, s)
	}
	return nil
}

// sessionsSpec describes the listing: offset paging by skip and take, no
// "more" but a full page, never cached (a job's status changes by the
// minute), and rows that a job started during the read pushes down.
var sessionsSpec = pageSpec[SessionsPage, AgentSession]{
	what: "agent jobs", keyName: "session id",
	path:    func(projectID string) string { return escapePath("v1", "agent", projectID, "jobs") },
	largest: MaxSessionsPageSize,
	params:  paging.Names{Limit: "take", Offset: "skip"},
	// Newest first (in the fake, and as the dashboard shows them): a job
	// started while the listing is read moves every job down one place.
	prepends: true,
	decode:   decodeSessions,
	rows:     func(p *SessionsPage) *[]AgentSession { return &p.Sessions },
	key:      func(r *AgentSession) string { return r.ID },
	// A skipped row was served all the same: it counts toward the
	// next offset and a full page, and All gathers every page's.
	skipped: func(p *SessionsPage) int { return len(p.Skipped) },
	merge:   func(into, from *SessionsPage) { into.Skipped = append(from.Skipped, into.Skipped...) },
}
