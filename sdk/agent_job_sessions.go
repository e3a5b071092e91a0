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

// The agent job listing: v1's GET /v1/agent/{projectId}/jobs, marked
// deprecated but the only listing the API has (v2 reads one job by id).
// Its rows are v1 "sessions" (sessionId, haulted, haultReason, sic), a
// session's id assumed to be the job's v2 id (the reference is silent).
// It pages by skip and take, no total nor hasMore: N jobs cost
// floor(N/100) + 1 requests.

// MaxSessionsPageSize is the largest page of the agent job listing.
const MaxSessionsPageSize = 100

// SessionsQuery selects agent jobs from the listing, in the API's
// (undocumented) order.
type SessionsQuery struct {
	Limit      int // page size, 1 to 100 (0: MaxSessionsPageSize)
	Offset     int // jobs to skip
	MaxResults int // stop after this many (0: all); not sent
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

// AgentSession is an agent job as the v1 listing shows it.
type AgentSession struct {
	// ID is the sessionId, assumed to be the job's v2 id.
	ID        string  `json:"sessionId"`
	Subdomain string  `json:"subdomain"` // the job's documentation site
	Branch    *string `json:"branch"`
	// Halted and HaltReason are v1's "haulted" and "haultReason".
	Halted     bool       `json:"haulted"`
	HaltReason HaltReason `json:"haultReason"`
	// PRLink is the pull request the job opened, as for AgentJob.PRLink.
	PRLink        *string       `json:"pullRequestLink"`
	MessageToUser string        `json:"messageToUser"`
	Title         string        `json:"title"`
	UserID        string        `json:"userId"`
	Todos         []SessionTodo `json:"todos"`
	CreatedAt     time.Time     `json:"createdAt"`
	// Problems name the fields of the row the SDK could not read or
	// trust.
	Problems []string `json:"-"`
}

// check is what a listed job needs beyond its fields' kinds.
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

// Status is the v2 status matching the halt reason (the SDK's reading;
// the API documents none): processing is active, completed completed,
// error and github_missconfigured failed, interrupted archived; no reason
// and not halted is active; an unknown reason "".
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

// SessionsPage is one page of the listing (or, from All, of one read).
type SessionsPage struct {
	// Sessions are the page's jobs whose ids can be used.
	Sessions []AgentSession `json:"allSessions"`
	// Skipped are the rows whose id cannot be used (ValidateJobID), so
	// one bad row never costs the rest. Rows does not yield them.
	Skipped []SkippedSession `json:"-"`
	ResponseInfo
}

// SkippedSession is a listed row whose id cannot be read back as a job's.
type SkippedSession struct {
	// ID is the sessionId as sent: server text, to show escaped.
	ID      string
	Problem string // why, the id escaped and clipped
}

// sessionRows is the listing as it comes, its rows read one by one.
type sessionRows struct {
	Rows []json.RawMessage `json:"allSessions"`
}

func (r *sessionRows) check(c *checker) { c.need("allSessions") }

// decodeSessions reads a page: only a missing allSessions fails it. Each
// row is read on its own: one that is not an object, or whose id cannot be
// used, goes to Skipped; its other odd fields to its Problems.
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

// sessionsSpec describes the listing: skip and take, a full page means
// more, never cached.
var sessionsSpec = pageSpec[SessionsPage, AgentSession]{
	what: "agent jobs", keyName: "session id",
	path:    func(projectID string) string { return escapePath("v1", "agent", projectID, "jobs") },
	largest: MaxSessionsPageSize,
	params:  paging.Names{Limit: "take", Offset: "skip"},
	// Newest first: a job started during the read pushes the rest down.
	prepends: true,
	decode:   decodeSessions,
	rows:     func(p *SessionsPage) *[]AgentSession { return &p.Sessions },
	key:      func(r *AgentSession) string { return r.ID },
	// A skipped row was served: it counts toward the next offset.
	skipped: func(p *SessionsPage) int { return len(p.Skipped) },
	merge:   func(into, from *SessionsPage) { into.Skipped = append(from.Skipped, into.Skipped...) },
}
