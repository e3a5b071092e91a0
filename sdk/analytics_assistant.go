package sdk

import (
	"context"
	"strconv"
	"strings"
)

// ConversationsQuery selects AI assistant conversations.
type ConversationsQuery struct {
	// DateFrom and DateTo bound the range (DateTo exclusive); see DateRange.
	DateFrom string
	DateTo   string
	// Limit is the page size, 1 to 1000; 0 means MaxConversationsPageSize.
	Limit int
	// Cursor starts the read at a page a previous read stopped before: a
	// ULID, as the API's nextCursor gives.
	Cursor string
	// MaxResults stops the paging helpers after this many conversations.
	MaxResults int
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

// ConversationsPage is one page of conversations (or, from All, every page
// of one read).
type ConversationsPage struct {
	Conversations []Conversation `json:"conversations"`
	NextCursor    *string        `json:"nextCursor"`
	HasMore       bool           `json:"hasMore"`
	ResponseInfo
}

type rawConversation struct {
	ID           text `json:"id"`
	Timestamp    text `json:"timestamp"`
	Query        text `json:"query"`
	Response     text `json:"response"`
	ResponseType text `json:"responseType"`
	Sources      *[]struct {
		Title text `json:"title"`
		URL   text `json:"url"`
	} `json:"sources"`
	ResolutionStatus text `json:"resolutionStatus"`
	QueryCategory    text `json:"queryCategory"`
	PageURL          text `json:"pageUrl"`
}

type rawConversationsPage struct {
	Conversations *[]rawConversation `json:"conversations"`
	NextCursor    text               `json:"nextCursor"`
	HasMore       flag               `json:"hasMore"`
}

// decodeConversations reads and checks a page of conversations.
func decodeConversations(data []byte, pg *ConversationsPage) error {
	var p fieldProblems
	var raw rawConversationsPage
	if err := decodeRaw(data, &raw, &p); err != nil {
		return err
	}
	in := list(&p, "conversations", raw.Conversations)
	*pg = ConversationsPage{Conversations: make([]Conversation, len(in))}
	for i, r := range in {
		at := func(name string) field { return row("conversations", i, name) }
		conv := Conversation{
			ID:               required(&p, at("id"), r.ID),
			Timestamp:        required(&p, at("timestamp"), r.Timestamp),
			Query:            required(&p, at("query"), r.Query),
			Response:         required(&p, at("response"), r.Response),
			ResponseType:     orEmpty(&p, at("responseType"), r.ResponseType),
			ResolutionStatus: required(&p, at("resolutionStatus"), r.ResolutionStatus),
			QueryCategory:    optional(&p, at("queryCategory"), r.QueryCategory),
			PageURL:          optional(&p, at("pageUrl"), r.PageURL),
		}
		if conv.ResponseType == "" {
			conv.ResponseType = "answer"
		}
		sources := list(&p, at("sources").String(), r.Sources)
		conv.Sources = make([]ConversationSource, len(sources))
		for j, s := range sources {
			src := at("sources").String()
			conv.Sources[j] = ConversationSource{
				Title: orEmpty(&p, row(src, j, "title"), s.Title),
				URL:   orEmpty(&p, row(src, j, "url"), s.URL),
			}
		}
		pg.Conversations[i] = conv
	}
	pg.NextCursor = optional(&p, top("nextCursor"), raw.NextCursor)
	pg.HasMore = requiredBool(&p, top("hasMore"), raw.HasMore)
	return p.err()
}

var conversationsSpec = pageSpec[ConversationsPage, Conversation]{
	what: "assistant conversations", keyName: "id", path: analyticsEndpoint("assistant"),
	largest: MaxConversationsPageSize, cursor: true, cached: true,
	decode: decodeConversations,
	rows:   func(p *ConversationsPage) *[]Conversation { return &p.Conversations },
	key:    func(r *Conversation) string { return r.ID },
	more:   func(p *ConversationsPage) (bool, *string) { return p.HasMore, p.NextCursor },
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
	ResponseInfo
}

// UnmarshalJSON decodes and checks a thread: its id and every message.
func (t *AssistantThread) UnmarshalJSON(data []byte) error {
	var p fieldProblems
	var raw struct {
		ThreadID  text `json:"threadId"`
		CreatedAt text `json:"createdAt"`
		Messages  *[]struct {
			ID        text `json:"id"`
			Role      text `json:"role"`
			Content   text `json:"content"`
			CreatedAt text `json:"createdAt"`
		} `json:"messages"`
	}
	if err := decodeRaw(data, &raw, &p); err != nil {
		return err
	}
	*t = AssistantThread{ThreadID: required(&p, top("threadId"), raw.ThreadID), CreatedAt: required(&p, top("createdAt"), raw.CreatedAt)}
	in := list(&p, "messages", raw.Messages)
	t.Messages = make([]ThreadMessage, len(in))
	for i, m := range in {
		t.Messages[i] = ThreadMessage{
			ID:        required(&p, row("messages", i, "id"), m.ID),
			Role:      required(&p, row("messages", i, "role"), m.Role),
			Content:   required(&p, row("messages", i, "content"), m.Content),
			CreatedAt: required(&p, row("messages", i, "createdAt"), m.CreatedAt),
		}
	}
	return p.err()
}

// Thread reads the transcript of one assistant conversation thread (a
// ULID, from a conversation's ID). An unknown thread is a 404: check with
// IsNotFound. An answer for another thread is a *MalformedResponseError.
func (s *AnalyticsService) Thread(ctx context.Context, projectID, threadID string) (*AssistantThread, error) {
	k, err := s.check(projectID, threadIDCheck(threadID))
	if err != nil {
		return nil, err
	}
	path := analyticsPath(projectID, "assistant", "threads", threadID)
	t, err := getOne[AssistantThread](ctx, k, "assistant thread "+threadID, getCall(path, nil))
	if err == nil && t.ThreadID != threadID {
		err = &MalformedResponseError{Method: "GET", Path: path, Problems: []string{"threadId: the answer is for thread " + strconv.Quote(clip(t.ThreadID, 100)) + ", not " + strconv.Quote(threadID)}}
	}
	if err != nil {
		return nil, err
	}
	return t, nil
}

// threadIDCheck validates a thread id as a query would be.
type threadIDCheck string

func (id threadIDCheck) Validate() error { return validateULID("threadId", string(id)) }

// CallerStats counts assistant queries by where they came from.
type CallerStats struct {
	Web   int64 `json:"web"`   // the documentation site
	API   int64 `json:"api"`   // API calls
	Other int64 `json:"other"` // integrations, SDKs and the rest
	Total int64 `json:"total"`
	ResponseInfo
}

// UnmarshalJSON decodes and checks the counts: present, whole, not negative.
func (s *CallerStats) UnmarshalJSON(data []byte) error {
	var p fieldProblems
	var raw struct {
		Web   count `json:"web"`
		API   count `json:"api"`
		Other count `json:"other"`
		Total count `json:"total"`
	}
	if err := decodeRaw(data, &raw, &p); err != nil {
		return err
	}
	*s = CallerStats{
		Web:   wholeCount(&p, top("web"), raw.Web),
		API:   wholeCount(&p, top("api"), raw.API),
		Other: wholeCount(&p, top("other"), raw.Other),
		Total: wholeCount(&p, top("total"), raw.Total),
	}
	return p.err()
}

// CallerStats counts assistant queries in the range by caller: web, API
// and other.
func (s *AnalyticsService) CallerStats(ctx context.Context, projectID string, r DateRange) (*CallerStats, error) {
	k, err := s.check(projectID, r)
	if err != nil {
		return nil, err
	}
	return getOne[CallerStats](ctx, k, "assistant caller stats", getCall(analyticsPath(projectID, "assistant", "caller-stats"), analyticsQuery(r.DateFrom, r.DateTo)))
}
