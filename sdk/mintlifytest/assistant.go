package mintlifytest

import (
	"encoding/json"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"
)

// Conversation is one assistant conversation turn, as the assistant
// export lists it.
type Conversation struct {
	// ID is a ULID: its first 10 characters are its time, so the export,
	// newest first, orders by it.
	ID               string
	Timestamp        time.Time
	Query            string
	Response         string
	ResponseType     string // "" when the API leaves it out (it means "answer")
	Sources          []ConversationSource
	ResolutionStatus string
	QueryCategory    *string
	PageURL          *string
	// Caller is how the question arrived: web, api or other. Only the
	// caller stats tell; the export does not.
	Caller string
	// Thread is the conversation's transcript, as assistant/threads/{id}
	// answers it; nil: the question (user) and the answer (assistant, 1.5 s
	// later).
	Thread []ThreadMessage
}

// ConversationSource is a page an assistant answer cited.
type ConversationSource struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// MarshalJSON writes the API's conversation shape; responseType is left
// out when unset, as the API may.
func (c Conversation) MarshalJSON() ([]byte, error) {
	m := map[string]any{
		"id": c.ID, "timestamp": c.Timestamp.Format(wireTime), "query": c.Query, "response": c.Response,
		"sources": c.Sources, "resolutionStatus": c.ResolutionStatus, "queryCategory": c.QueryCategory, "pageUrl": c.PageURL,
	}
	if c.ResponseType != "" {
		m["responseType"] = c.ResponseType
	}
	return json.Marshal(m)
}

type conversationsPage struct {
	Conversations []Conversation `json:"conversations"`
	NextCursor    *string        `json:"nextCursor"`
	HasMore       bool           `json:"hasMore"`
}

var (
	assistantQuestions = []string{"How do I rotate an API key?", "What is the rate limit for analytics?",
		"Can I use a custom domain?", "How do I add a page to the navigation?", "Does the API support webhooks?"}
	assistantCategories = []string{"authentication", "limits", "setup", "navigation", "integrations"}
)

const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// ulid encodes a 48-bit millisecond time and 80 random bits as a ULID:
// ordering by id is ordering by time.
func ulid(ms uint64, random uint64, random2 uint16) string {
	hi := ms<<16 | uint64(random2)
	lo := random
	var b [26]byte
	for i := 25; i >= 0; i-- {
		b[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(b[:])
}

func isULID(s string) bool {
	if len(s) != 26 || s[0] > '7' {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune(crockford, r) {
			return false
		}
	}
	return true
}

// buildConversations generates the conversations, newest first.
func (d *dataset) buildConversations(window uint64) {
	for k := range d.cfg.Conversations {
		i := uint64(k) //nolint:gosec // non-negative
		x, y := d.rnd(9, i), d.rnd(10, i)
		at := d.start.Add(time.Duration(x%window) * time.Millisecond) //nolint:gosec // below the window: millions of ms
		c := Conversation{
			ID:               ulid(uint64(at.UnixMilli()), y, uint16(x>>48)), //nolint:gosec // a 2026 time is positive
			Timestamp:        at,
			Query:            assistantQuestions[(x>>8)%uint64(len(assistantQuestions))],
			ResolutionStatus: "answered",
			ResponseType:     "answer",
			Caller:           "web",
		}
		c.Response = "See the documentation for " + strings.ToLower(strings.TrimSuffix(c.Query, "?")) + "."
		switch (x >> 12) % 10 {
		case 0:
			c.ResponseType, c.Response = "clarifying_question", "Which project do you mean?"
		case 1:
			c.ResponseType = ""
		}
		if (x>>16)%7 == 0 {
			c.ResolutionStatus = "unanswered"
		}
		if (x>>20)%3 != 0 {
			c.QueryCategory = &assistantCategories[(x>>22)%uint64(len(assistantCategories))]
		}
		c.Sources = []ConversationSource{}
		for s := range (x >> 26) % 4 {
			path := "/"
			if len(d.paths) > 0 {
				path = d.paths[(x>>(30+s*4))%uint64(len(d.paths))]
			}
			c.Sources = append(c.Sources, ConversationSource{Title: "Docs " + path, URL: "https://docs.acme.dev" + path})
		}
		if len(d.paths) > 0 && (x>>40)%4 != 0 {
			u := "https://docs.acme.dev" + d.paths[(x>>42)%uint64(len(d.paths))]
			c.PageURL = &u
		}
		switch n := (x >> 50) % 10; {
		case n >= 9:
			c.Caller = "other"
		case n >= 7:
			c.Caller = "api"
		}
		d.conversations = append(d.conversations, c)
	}
	slices.SortFunc(d.conversations, func(a, b Conversation) int { return strings.Compare(b.ID, a.ID) })
}

// conversationRows are the project's conversations, newest (highest id)
// first: seeded, or generated.
func (d *dataset) conversationRows() []Conversation {
	if d.rows.Conversations != nil {
		return d.rows.Conversations
	}
	d.build()
	return d.conversations
}

// filterConversations lists the conversations in s, newest first.
func (d *dataset) filterConversations(s span) []Conversation {
	out := []Conversation{}
	for _, c := range d.conversationRows() {
		if s.contains(c.Timestamp) && (d.rows.Conversations != nil || d.listed(c.Timestamp, c.ID)) {
			out = append(out, c)
		}
	}
	return out
}

// serveAssistant pages conversations by a ULID cursor: the next page
// starts after the conversation whose id the cursor is.
func serveAssistant(p *params, d *dataset) (int, any) {
	limit := p.number("limit", 1, 1000, 100, false)
	cursor := p.q.Get("cursor")
	if cursor != "" && !isULID(cursor) {
		p.fail("cursor: Invalid ULID")
	}
	sp := p.span()
	if len(p.problems) > 0 {
		return http.StatusBadRequest, nil
	}
	rows := d.filterConversations(sp)
	start := 0
	if cursor != "" {
		start = sort.Search(len(rows), func(i int) bool { return rows[i].ID < cursor })
	}
	page, more := pageOf(rows, start, limit)
	out := conversationsPage{Conversations: page, HasMore: more}
	if more {
		out.NextCursor = &page[len(page)-1].ID
	}
	return http.StatusOK, out
}

// ThreadMessage is one message of a conversation's transcript.
type ThreadMessage struct {
	ID string
	// Role is user or assistant.
	Role      string
	Content   string
	CreatedAt time.Time
}

// MarshalJSON writes the API's message shape.
func (m ThreadMessage) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		ID        string `json:"id"`
		Role      string `json:"role"`
		Content   string `json:"content"`
		CreatedAt string `json:"createdAt"`
	}{m.ID, m.Role, m.Content, m.CreatedAt.Format(wireTime)})
}

// Thread is assistant/threads/{threadId}'s answer: a conversation's
// transcript.
type Thread struct {
	ThreadID  string
	CreatedAt time.Time
	Messages  []ThreadMessage
}

// MarshalJSON writes the API's thread shape.
func (t Thread) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		ThreadID  string          `json:"threadId"`
		CreatedAt string          `json:"createdAt"`
		Messages  []ThreadMessage `json:"messages"`
	}{t.ThreadID, t.CreatedAt.Format(wireTime), t.Messages})
}

// thread answers one conversation's transcript: 400 for an id that is not
// a ULID, 404 for one no conversation has.
func (d *dataset) thread(p *params) (int, any) {
	id := p.path("threadId")
	if !isULID(id) {
		return http.StatusBadRequest, apiError{msg: "Invalid thread ID", details: []string{"threadId: Invalid ULID"}}
	}
	all := d.conversationRows()
	i := sort.Search(len(all), func(i int) bool { return all[i].ID <= id })
	if i == len(all) || all[i].ID != id {
		return http.StatusNotFound, apiError{msg: "Thread not found"}
	}
	return http.StatusOK, threadOf(all[i])
}

// threadOf is a conversation's transcript: its own, or the question and
// the answer.
func threadOf(c Conversation) Thread {
	msgs := c.Thread
	if msgs == nil {
		msgs = []ThreadMessage{
			{ID: c.ID + "-1", Role: "user", Content: c.Query, CreatedAt: c.Timestamp},
			{ID: c.ID + "-2", Role: "assistant", Content: c.Response, CreatedAt: c.Timestamp.Add(1500 * time.Millisecond)},
		}
	}
	return Thread{ThreadID: c.ID, CreatedAt: c.Timestamp, Messages: msgs}
}

func serveThread(p *params, d *dataset) (int, any) { return d.thread(p) }

// CallerStats is the wire shape of assistant/caller-stats.
type CallerStats struct {
	Web   int64 `json:"web"`
	API   int64 `json:"api"`
	Other int64 `json:"other"`
	Total int64 `json:"total"`
}

func (d *dataset) callerStats(s span) CallerStats {
	var out CallerStats
	for _, c := range d.filterConversations(s) {
		switch c.Caller {
		case "web":
			out.Web++
		case "api":
			out.API++
		default:
			out.Other++
		}
		out.Total++
	}
	return out
}

func serveCallerStats(p *params, d *dataset) (int, any) {
	return http.StatusOK, d.callerStats(p.span())
}
