package sdk

import (
	"context"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/paging"
)

// ConversationsQuery selects AI assistant conversations.
type ConversationsQuery struct {
	DateFrom   string // see DateRange
	DateTo     string
	Limit      int    // page size, 1 to 1000 (0: MaxConversationsPageSize)
	Cursor     string // a previous read's NextCursor: a ULID
	MaxResults int    // stop after this many (0: all)
}

// Validate checks the query before any request is sent.
func (q ConversationsQuery) Validate() error {
	if q.Cursor != "" {
		if err := validateULID("cursor", q.Cursor); err != nil {
			return err
		}
	}
	return validatePaging(q.paging(), MaxConversationsPageSize)
}

func (q ConversationsQuery) paging() pageParams {
	return pageParams{dateFrom: q.DateFrom, dateTo: q.DateTo, limit: q.Limit, cursor: q.Cursor, maxResults: q.MaxResults}
}

// ConversationSource is a documentation page an answer referenced.
type ConversationSource struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// Conversation is one turn of a conversation with the AI assistant.
type Conversation struct {
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"` // as the API wrote it
	Query     string `json:"query"`
	Response  string `json:"response"`
	// ResponseType is "answer" (also when left out) or
	// "clarifying_question".
	ResponseType string               `json:"responseType"`
	Sources      []ConversationSource `json:"sources"`
	// ResolutionStatus is "answered" or "unanswered" (not in the docs).
	ResolutionStatus string  `json:"resolutionStatus"`
	QueryCategory    *string `json:"queryCategory"`
	PageURL          *string `json:"pageUrl"` // where it started
}

func (r *Conversation) check(c *checker) {
	c.need("id", "timestamp", "query", "response", "sources", "resolutionStatus")
	if r.ResponseType == "" {
		r.ResponseType = "answer"
	}
}

// ConversationsPage is one page of conversations (or, from All, of one
// read).
type ConversationsPage struct {
	Conversations []Conversation `json:"conversations"`
	NextCursor    *string        `json:"nextCursor"`
	HasMore       bool           `json:"hasMore"`
	ResponseInfo
}

func (pg *ConversationsPage) check(c *checker) { c.need("conversations", "hasMore") }

var conversationsSpec = pageSpec[ConversationsPage, Conversation]{
	what: "assistant conversations", keyName: "id", path: analyticsEndpoint("assistant"),
	largest: MaxConversationsPageSize, cursor: true, cached: true,
	rows: func(p *ConversationsPage) *[]Conversation { return &p.Conversations },
	key:  func(r *Conversation) string { return r.ID },
	more: func(p *ConversationsPage) (bool, *string) { return p.HasMore, p.NextCursor },
}

// ThreadMessage is one message of an assistant thread.
type ThreadMessage struct {
	ID        string `json:"id"`
	Role      string `json:"role"` // "user" or "assistant"
	Content   string `json:"content"`
	CreatedAt string `json:"createdAt"`
}

func (m *ThreadMessage) check(c *checker) { c.need("id", "role", "content", "createdAt") }

// AssistantThread is the whole transcript of one assistant conversation.
type AssistantThread struct {
	ThreadID  string          `json:"threadId"`
	CreatedAt string          `json:"createdAt"`
	Messages  []ThreadMessage `json:"messages"`
	ResponseInfo
}

func (t *AssistantThread) check(c *checker) { c.need("threadId", "createdAt", "messages") }

// Thread reads the transcript of one assistant thread (a conversation's
// ID). An unknown thread is a 404 (IsNotFound); an answer for another is
// a *MalformedResponseError.
func (s *AnalyticsService) Thread(ctx context.Context, projectID, threadID string) (*AssistantThread, error) {
	k, err := checked(s.core, ValidateProjectID(projectID), validateULID("threadId", threadID))
	if err != nil {
		return nil, err
	}
	c := get(analyticsPath(projectID, "assistant", "threads", threadID), nil)
	t, err := getOne[AssistantThread](ctx, k, "assistant thread "+threadID, c)
	if err == nil {
		err = assistantThreadID.check(k, c, t.ThreadID, threadID, nil)
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// assistantThreadID is how a thread's answer names it.
var assistantThreadID = answerID{field: "threadId", kind: "thread"}

// CallerStats counts assistant queries by where they came from.
type CallerStats struct {
	Web   int64 `json:"web"`   // the documentation site
	API   int64 `json:"api"`   // API calls
	Other int64 `json:"other"` // integrations, SDKs and the rest
	Total int64 `json:"total"`
	ResponseInfo
}

func (s *CallerStats) check(c *checker) { c.need("web", "api", "other", "total") }

// CallerStats counts assistant queries in the range by caller.
func (s *AnalyticsService) CallerStats(ctx context.Context, projectID string, r DateRange) (*CallerStats, error) {
	k, err := checked(s.core, ValidateProjectID(projectID), r.Validate())
	if err != nil {
		return nil, err
	}
	return getOne[CallerStats](ctx, k, "assistant caller stats", get(analyticsPath(projectID, "assistant", "caller-stats"), paging.Values(r.DateFrom, r.DateTo, nil)))
}
