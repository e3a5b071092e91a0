package mintlifytest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// The feedback sources and review statuses the API documents.
var (
	feedbackSources  = []string{"code_snippet", "contextual", "agent", "thumbs_only"}
	feedbackStatuses = []string{"pending", "in_progress", "resolved", "dismissed"}
)

// FeedbackEntry is one piece of feedback. Its JSON is one of the three
// shapes the API documents, chosen by Source: contextual entries add
// helpful and contact, code_snippet entries code, filename and lang.
type FeedbackEntry struct {
	ID        string
	Path      string
	Comment   *string
	CreatedAt time.Time
	// Source is code_snippet, contextual, agent or thumbs_only.
	Source string
	// Status is pending, in_progress, resolved or dismissed.
	Status   string
	Helpful  bool    // contextual
	Contact  *string // contextual
	Code     string  // code_snippet
	Filename *string // code_snippet
	Lang     *string // code_snippet
}

// MarshalJSON writes the shape of the entry's source: contextual entries
// add helpful and contact, code_snippet entries code, filename and lang.
func (f FeedbackEntry) MarshalJSON() ([]byte, error) {
	m := map[string]any{
		"id": f.ID, "path": f.Path, "comment": f.Comment, "createdAt": f.CreatedAt.Format(wireTime),
		"source": f.Source, "status": f.Status,
	}
	switch f.Source {
	case "contextual":
		m["helpful"], m["contact"] = f.Helpful, f.Contact
	case "code_snippet":
		m["code"], m["filename"], m["lang"] = f.Code, f.Filename, f.Lang
	}
	return json.Marshal(m)
}

type feedbackPage struct {
	Feedback   []FeedbackEntry `json:"feedback"`
	NextCursor *string         `json:"nextCursor"`
	HasMore    bool            `json:"hasMore"`
}

// PageFeedbackRow is one page's feedback counts, as feedback/by-page sends it.
type PageFeedbackRow struct {
	Path       string `json:"path"`
	ThumbsUp   int64  `json:"thumbsUp"`
	ThumbsDown int64  `json:"thumbsDown"`
	Code       int64  `json:"code"`
	Total      int64  `json:"total"`
}

type byPagePage struct {
	Feedback []PageFeedbackRow `json:"feedback"`
	HasMore  bool              `json:"hasMore"`
}

var feedbackComments = []string{"This page answered my question.", "The example does not compile.",
	"Please add a Python version.", "Link to the API reference is broken.", "Great walkthrough!"}

// build generates the feedback entries and conversations once.
func (d *dataset) build() {
	d.once.Do(func() {
		window := uint64(d.cfg.Days) * 86400 * 1000 //nolint:gosec // Days is positive
		for k := range d.cfg.Feedback {
			i := uint64(k) //nolint:gosec // non-negative
			x := d.rnd(7, i)
			f := FeedbackEntry{
				ID:        fmt.Sprintf("fb_%016x", d.rnd(8, i)),
				Path:      "/",
				CreatedAt: d.start.Add(time.Duration(x%window) * time.Millisecond), //nolint:gosec // below the window: millions of ms
				Status:    []string{"pending", "pending", "pending", "pending", "pending", "in_progress", "in_progress", "resolved", "resolved", "dismissed"}[(x>>40)%10],
			}
			if len(d.paths) > 0 {
				f.Path = d.paths[(x>>8)%uint64(len(d.paths))]
			}
			if (x>>20)%3 != 0 {
				f.Comment = &feedbackComments[(x>>22)%uint64(len(feedbackComments))]
			}
			switch src := (x >> 48) % 20; {
			case src < 8:
				f.Source, f.Helpful = "contextual", (x>>30)%3 != 0
				if (x>>32)%4 == 0 {
					contact := fmt.Sprintf("reader%d@example.com", k)
					f.Contact = &contact
				}
			case src < 13:
				f.Source, f.Code = "code_snippet", fmt.Sprintf("curl https://api.example.com/v%d/items", k%3+1)
				if (x>>34)%2 == 0 {
					name, lang := "example.sh", "bash"
					f.Filename, f.Lang = &name, &lang
				}
			case src < 18:
				f.Source, f.Comment = "thumbs_only", nil
			default:
				f.Source = "agent"
			}
			d.feedback = append(d.feedback, f)
		}
		slices.SortFunc(d.feedback, func(a, b FeedbackEntry) int {
			return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), strings.Compare(a.ID, b.ID))
		})
		d.buildConversations(window)
	})
}

// feedbackFilter is what both feedback endpoints select by.
type feedbackFilter struct {
	span     span
	source   string
	statuses []string
}

func (p *params) feedbackFilter() feedbackFilter {
	f := feedbackFilter{span: p.span(), source: p.oneOf("source", feedbackSources...)}
	if v := p.q.Get("status"); v != "" {
		for _, st := range strings.Split(v, ",") {
			if !contains(feedbackStatuses, st) {
				p.fail("status: Invalid enum value. Expected '%s', received '%s'", strings.Join(feedbackStatuses, "' | '"), st)
				continue
			}
			f.statuses = append(f.statuses, st)
		}
	}
	return f
}

func (f feedbackFilter) keeps(e FeedbackEntry) bool {
	return f.span.contains(e.CreatedAt) && (f.source == "" || e.Source == f.source) &&
		(len(f.statuses) == 0 || contains(f.statuses, e.Status))
}

// feedbackRows are the project's feedback entries, newest first: seeded,
// or generated.
func (d *dataset) feedbackRows() []FeedbackEntry {
	if d.rows.Feedback != nil {
		return d.rows.Feedback
	}
	d.build()
	return d.feedback
}

// filterFeedback lists the entries f selects, newest first.
func (d *dataset) filterFeedback(f feedbackFilter) []FeedbackEntry {
	out := []FeedbackEntry{}
	for _, e := range d.feedbackRows() {
		if f.keeps(e) && (d.rows.Feedback != nil || d.listed(e.CreatedAt, e.ID)) {
			out = append(out, e)
		}
	}
	return out
}

// feedbackByPage counts the entries f selects per path: thumbs up and down
// for contextual feedback, code snippets, and all; most feedback first.
func (d *dataset) feedbackByPage(f feedbackFilter) []PageFeedbackRow {
	byPath := map[string]*PageFeedbackRow{}
	for _, e := range d.filterFeedback(f) {
		r := byPath[e.Path]
		if r == nil {
			r = &PageFeedbackRow{Path: e.Path}
			byPath[e.Path] = r
		}
		r.Total++
		switch {
		case e.Source == "contextual" && e.Helpful:
			r.ThumbsUp++
		case e.Source == "contextual":
			r.ThumbsDown++
		case e.Source == "code_snippet":
			r.Code++
		}
	}
	rows := make([]PageFeedbackRow, 0, len(byPath))
	for _, r := range byPath {
		rows = append(rows, *r)
	}
	slices.SortFunc(rows, func(a, b PageFeedbackRow) int {
		return cmp.Or(cmp.Compare(b.Total, a.Total), strings.Compare(a.Path, b.Path))
	})
	return rows
}

func serveFeedback(p *params, d *dataset) (int, any) {
	limit := p.number("limit", 1, 100, 50, false)
	f := p.feedbackFilter()
	if len(p.problems) > 0 {
		return http.StatusBadRequest, nil
	}
	page, next, more := cursorPageOf(p, d.filterFeedback(f), limit)
	return http.StatusOK, feedbackPage{Feedback: page, NextCursor: next, HasMore: more}
}

// serveFeedbackByPage answers the first limit pages: the endpoint has no
// offset or cursor, so hasMore only says that more pages had feedback.
func serveFeedbackByPage(p *params, d *dataset) (int, any) {
	limit := p.number("limit", 1, 100, 10, false)
	f := p.feedbackFilter()
	if len(p.problems) > 0 {
		return http.StatusBadRequest, nil
	}
	page, more := pageOf(d.feedbackByPage(f), 0, limit)
	return http.StatusOK, byPagePage{Feedback: page, HasMore: more}
}
