package mintlifytest

import (
	"encoding/json"
	"net/http"
	"slices"
	"sort"
	"strings"
	"time"
)

// conversation is one assistant conversation turn; caller is how it
// arrived (web, api, other), which only the caller stats reveal.
type conversation struct {
	ID               string
	At               time.Time
	Query            string
	Response         string
	ResponseType     string // "" when the API leaves it out (it means "answer")
	Sources          []conversationSource
	ResolutionStatus string
	QueryCategory    *string
	PageURL          *string
	caller           string
}

type conversationSource struct {
	Title string `json:"title"`
	URL   string `json:"url"`
}

// MarshalJSON writes the API's conversation shape; responseType is left
// out when unset, as the API may.
func (c conversation) MarshalJSON() ([]byte, error) {
	m := map[string]any{
		"id": c.ID, "timestamp": c.At.Format(wireTime), "query": c.Query, "response": c.Response,
		"sources": c.Sources, "resolutionStatus": c.ResolutionStatus, "queryCategory": c.QueryCategory, "pageUrl": c.PageURL,
	}
	if c.ResponseType != "" {
		m["responseType"] = c.ResponseType
	}
	return json.Marshal(m)
}

type conversationsPage struct {
	Conversations []conversation `json:"conversations"`
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
		c := conversation{
			ID:               ulid(uint64(at.UnixMilli()), y, uint16(x>>48)), //nolint:gosec // a 2026 time is positive
			At:               at,
			Query:            assistantQuestions[(x>>8)%uint64(len(assistantQuestions))],
			ResolutionStatus: "answered",
			ResponseType:     "answer",
			caller:           "web",
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
		c.Sources = []conversationSource{}
		for s := range (x >> 26) % 4 {
			path := "/"
			if len(d.paths) > 0 {
				path = d.paths[(x>>(30+s*4))%uint64(len(d.paths))]
			}
			c.Sources = append(c.Sources, conversationSource{Title: "Docs " + path, URL: "https://docs.acme.dev" + path})
		}
		if len(d.paths) > 0 && (x>>40)%4 != 0 {
			u := "https://docs.acme.dev" + d.paths[(x>>42)%uint64(len(d.paths))]
			c.PageURL = &u
		}
		switch n := (x >> 50) % 10; {
		case n >= 9:
			c.caller = "other"
		case n >= 7:
			c.caller = "api"
		}
		d.conversations = append(d.conversations, c)
	}
	slices.SortFunc(d.conversations, func(a, b conversation) int { return strings.Compare(b.ID, a.ID) })
}

// filterConversations lists the conversations in s, newest first.
func (d *dataset) filterConversations(s span) []conversation {
	d.build()
	out := []conversation{}
	for _, c := range d.conversations {
		if s.contains(c.At) {
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
	sp := p.span(d)
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

type threadMessage struct {
	ID        string `json:"id"`
	Role      string `json:"role"`
	Content   string `json:"content"`
	CreatedAt string `json:"createdAt"`
}

type threadAnswer struct {
	ThreadID  string          `json:"threadId"`
	CreatedAt string          `json:"createdAt"`
	Messages  []threadMessage `json:"messages"`
}

// thread answers one conversation's transcript: 400 for an id that is not
// a ULID, 404 for one no conversation has.
func (d *dataset) thread(p *params) (int, any) {
	id := p.path("threadId")
	if !isULID(id) {
		return http.StatusBadRequest, apiError{msg: "Invalid thread ID", details: []string{"threadId: Invalid ULID"}}
	}
	d.build()
	i := sort.Search(len(d.conversations), func(i int) bool { return d.conversations[i].ID <= id })
	if i == len(d.conversations) || d.conversations[i].ID != id {
		return http.StatusNotFound, apiError{msg: "Thread not found"}
	}
	c := d.conversations[i]
	return http.StatusOK, threadAnswer{ThreadID: c.ID, CreatedAt: c.At.Format(wireTime), Messages: []threadMessage{
		{ID: c.ID + "-1", Role: "user", Content: c.Query, CreatedAt: c.At.Format(wireTime)},
		{ID: c.ID + "-2", Role: "assistant", Content: c.Response, CreatedAt: c.At.Add(1500 * time.Millisecond).Format(wireTime)},
	}}
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
		switch c.caller {
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
	return http.StatusOK, d.callerStats(p.span(d))
}
