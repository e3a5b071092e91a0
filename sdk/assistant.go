package sdk

import (
	"context"
	"encoding/json"
	"iter"
	"strconv"
	"strings"
)

// AssistantQuery selects AI assistant conversations.
type AssistantQuery struct {
	// DateFrom and DateTo bound the range (DateTo exclusive); see DateRange.
	DateFrom string
	DateTo   string
	// Limit is the page size, 1 to 1000; 0 means MaxAssistantPageSize.
	Limit int
	// Cursor starts the read at a page a previous read stopped before: a
	// ULID, as the API's nextCursor gives.
	Cursor string
	// MaxResults stops the paging helpers after this many conversations.
	MaxResults int
}

func (q AssistantQuery) r() cursorRange {
	return cursorRange{q.DateFrom, q.DateTo, q.Limit, MaxAssistantPageSize, q.Cursor, q.MaxResults}
}

// Validate checks the query before any request is sent.
func (q AssistantQuery) Validate() error {
	if q.Cursor != "" {
		if err := validateULID("cursor", q.Cursor); err != nil {
			return err
		}
	}
	return q.r().validate()
}

// validateULID checks a ULID: 26 characters of Crockford's base32, the
// first at most 7 (a 128-bit value).
func validateULID(fieldName, s string) error {
	bad := len(s) != 26 || s[0] > '7'
	for _, r := range strings.ToUpper(s) {
		if !strings.ContainsRune("0123456789ABCDEFGHJKMNPQRSTVWXYZ", r) {
			bad = true
		}
	}
	if bad {
		return &ValidationError{Field: fieldName, Value: s, Rule: "must be a ULID (26 characters of Crockford base32, such as 01JD8X3Q6V3XK8M4Y2Z9T0B1CD)"}
	}
	return nil
}

// ConversationSource is a documentation page an answer referenced.
type ConversationSource struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// Conversation is one turn of a conversation with the AI assistant.
type Conversation struct {
	ID string `json:"id"`
	// Timestamp is when the user's message was sent, as the API wrote it.
	Timestamp string `json:"timestamp"`
	Query     string `json:"query"`
	Response  string `json:"response"`
	// ResponseType is "answer" or "clarifying_question" (the assistant
	// asked back); "answer" when the API leaves it out, as it documents.
	ResponseType string               `json:"responseType"`
	Sources      []ConversationSource `json:"sources"`
	// ResolutionStatus is "answered" or "unanswered" (not covered by the
	// documentation).
	ResolutionStatus string  `json:"resolutionStatus"`
	QueryCategory    *string `json:"queryCategory"`
	// PageURL is the page the conversation started on; nil if unknown.
	PageURL *string `json:"pageUrl"`
}

// AssistantPage is one page of conversations.
type AssistantPage struct {
	Conversations []Conversation `json:"conversations"`
	NextCursor    *string        `json:"nextCursor"`
	HasMore       bool           `json:"hasMore"`
	// Cache says whether the page came from the client's cache.
	Cache CacheStatus `json:"-"`
}

// AssistantConversations is every conversation read.
type AssistantConversations struct {
	Conversations []Conversation
	Pages         int
	// Cache combines the pages' cache statuses.
	Cache CacheStatus
}

type rawConversation struct {
	ID               *string               `json:"id"`
	Timestamp        *string               `json:"timestamp"`
	Query            *string               `json:"query"`
	Response         *string               `json:"response"`
	ResponseType     *string               `json:"responseType"`
	Sources          *[]ConversationSource `json:"sources"`
	ResolutionStatus *string               `json:"resolutionStatus"`
	QueryCategory    *string               `json:"queryCategory"`
	PageURL          *string               `json:"pageUrl"`
}

// UnmarshalJSON decodes and checks a page of conversations.
func (pg *AssistantPage) UnmarshalJSON(data []byte) error {
	fields, err := decodeTop(data)
	if err != nil {
		return err
	}
	var p fieldProblems
	var raw []rawConversation
	if err := decodeList(&p, fields, "conversations", &raw); err != nil {
		return err
	}
	*pg = AssistantPage{Conversations: make([]Conversation, len(raw))}
	for i, r := range raw {
		at := func(name string) field { return row("conversations", i, name) }
		conv := Conversation{
			ID:               required(&p, at("id"), r.ID),
			Timestamp:        required(&p, at("timestamp"), r.Timestamp),
			Query:            required(&p, at("query"), r.Query),
			Response:         required(&p, at("response"), r.Response),
			ResponseType:     "answer",
			ResolutionStatus: required(&p, at("resolutionStatus"), r.ResolutionStatus),
			QueryCategory:    r.QueryCategory,
			PageURL:          r.PageURL,
		}
		if r.ResponseType != nil {
			conv.ResponseType = *r.ResponseType
		}
		if r.Sources == nil {
			p.add(at("sources").String(), "missing")
		} else {
			conv.Sources = *r.Sources
		}
		pg.Conversations[i] = conv
	}
	decodeField(&p, fields, "nextCursor", &pg.NextCursor)
	var more *bool
	decodeField(&p, fields, "hasMore", &more)
	pg.HasMore = requiredBool(&p, top("hasMore"), more)
	return p.err()
}

func assistantPager(c *Client, projectID string, q AssistantQuery) pager[AssistantPage] {
	return pager[AssistantPage]{
		what: "assistant conversations", keyName: "id", cursor: true,
		fetch: func(ctx context.Context, r pageRequest) (*AssistantPage, error) {
			return fetchInto[AssistantPage](ctx, c, "assistant conversations", analyticsPath(projectID, "assistant"), q.r().query(r, nil))
		},
		view: func(p *AssistantPage) pageView {
			return pageView{rows: len(p.Conversations), key: func(i int) string { return p.Conversations[i].ID },
				hasMore: p.HasMore, next: p.NextCursor}
		},
		trim: func(p *AssistantPage, n int) { p.Conversations = p.Conversations[:n] },
	}
}

// GetAssistantConversations reads one page of conversations (q.Limit, 1000
// when 0, from q.Cursor).
func (c *Client) GetAssistantConversations(ctx context.Context, projectID string, q AssistantQuery) (*AssistantPage, error) {
	return cursorPage(ctx, projectID, q.Validate, q.r(), assistantPager(c, projectID, q))
}

// AssistantConversationPages iterates over pages of conversations,
// following nextCursor while hasMore, until q.MaxResults conversations.
func (c *Client) AssistantConversationPages(ctx context.Context, projectID string, q AssistantQuery) iter.Seq2[*AssistantPage, error] {
	return cursorPages(ctx, c, projectID, q.Validate, q.r(), assistantPager(c, projectID, q))
}

// AssistantConversationRows iterates over conversations across pages.
func (c *Client) AssistantConversationRows(ctx context.Context, projectID string, q AssistantQuery) iter.Seq2[Conversation, error] {
	return rowsOf(c.AssistantConversationPages(ctx, projectID, q), func(p *AssistantPage) []Conversation { return p.Conversations })
}

// ListAllAssistantConversations reads every page (or up to q.MaxResults).
func (c *Client) ListAllAssistantConversations(ctx context.Context, projectID string, q AssistantQuery) (*AssistantConversations, error) {
	all, err := collect(c.AssistantConversationPages(ctx, projectID, q), func(p *AssistantPage) []Conversation { return p.Conversations },
		func(p *AssistantPage) CacheStatus { return p.Cache }, nil)
	if err != nil {
		return nil, err
	}
	return &AssistantConversations{Conversations: all.rows, Pages: all.pages, Cache: all.cache}, nil
}

// ThreadMessage is one message of an assistant thread.
type ThreadMessage struct {
	ID string `json:"id"`
	// Role is "user" or "assistant".
	Role      string `json:"role"`
	Content   string `json:"content"`
	CreatedAt string `json:"createdAt"`
}

// AssistantThread is the whole transcript of one assistant conversation.
type AssistantThread struct {
	ThreadID  string          `json:"threadId"`
	CreatedAt string          `json:"createdAt"`
	Messages  []ThreadMessage `json:"messages"`
	// Cache says whether the answer came from the client's cache.
	Cache CacheStatus `json:"-"`
}

type rawThread struct {
	ThreadID  *string `json:"threadId"`
	CreatedAt *string `json:"createdAt"`
	Messages  *[]struct {
		ID        *string `json:"id"`
		Role      *string `json:"role"`
		Content   *string `json:"content"`
		CreatedAt *string `json:"createdAt"`
	} `json:"messages"`
}

// UnmarshalJSON decodes and checks a thread: its id and every message.
func (t *AssistantThread) UnmarshalJSON(data []byte) error {
	var raw rawThread
	if err := json.Unmarshal(data, &raw); err != nil {
		return typeProblem(err, "")
	}
	var p fieldProblems
	*t = AssistantThread{ThreadID: required(&p, top("threadId"), raw.ThreadID), CreatedAt: required(&p, top("createdAt"), raw.CreatedAt)}
	if raw.Messages == nil {
		p.add("messages", "missing")
		return p.err()
	}
	t.Messages = make([]ThreadMessage, len(*raw.Messages))
	for i, m := range *raw.Messages {
		t.Messages[i] = ThreadMessage{
			ID:        required(&p, row("messages", i, "id"), m.ID),
			Role:      required(&p, row("messages", i, "role"), m.Role),
			Content:   required(&p, row("messages", i, "content"), m.Content),
			CreatedAt: required(&p, row("messages", i, "createdAt"), m.CreatedAt),
		}
	}
	return p.err()
}

// GetAssistantThread reads the transcript of one conversation thread (a
// ULID, from a conversation's ID). An unknown thread is a 404: check with
// IsNotFound. An answer for another thread is a *MalformedResponseError.
func (c *Client) GetAssistantThread(ctx context.Context, projectID, threadID string) (*AssistantThread, error) {
	if err := ValidateProjectID(projectID); err != nil {
		return nil, err
	}
	if err := validateULID("threadId", threadID); err != nil {
		return nil, err
	}
	path := analyticsPath(projectID, "assistant", "threads", threadID)
	t, err := fetchInto[AssistantThread](ctx, c, "assistant thread "+threadID, path, nil)
	if err == nil && t.ThreadID != threadID {
		err = &MalformedResponseError{Method: "GET", Path: path, Problems: []string{"threadId: the answer is for thread " + strconv.Quote(t.ThreadID) + ", not " + strconv.Quote(threadID)}}
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// CallerStats counts assistant queries by where they came from.
type CallerStats struct {
	Web   int64 `json:"web"`   // the documentation site
	API   int64 `json:"api"`   // API calls
	Other int64 `json:"other"` // integrations, SDKs and the rest
	Total int64 `json:"total"`
	// Cache says whether the answer came from the client's cache.
	Cache CacheStatus `json:"-"`
}

// UnmarshalJSON decodes and checks the counts: present, whole, not negative.
func (s *CallerStats) UnmarshalJSON(data []byte) error {
	var raw struct {
		Web   count `json:"web"`
		API   count `json:"api"`
		Other count `json:"other"`
		Total count `json:"total"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return typeProblem(err, "")
	}
	var p fieldProblems
	*s = CallerStats{
		Web:   wholeCount(&p, top("web"), raw.Web),
		API:   wholeCount(&p, top("api"), raw.API),
		Other: wholeCount(&p, top("other"), raw.Other),
		Total: wholeCount(&p, top("total"), raw.Total),
	}
	return p.err()
}

// GetAssistantCallerStats counts assistant queries in the range by caller:
// web, API and other.
func (c *Client) GetAssistantCallerStats(ctx context.Context, projectID string, r DateRange) (*CallerStats, error) {
	if err := validateQuery(projectID, r); err != nil {
		return nil, err
	}
	return fetchInto[CallerStats](ctx, c, "assistant caller stats", analyticsPath(projectID, "assistant", "caller-stats"), analyticsQuery(r.DateFrom, r.DateTo))
}
