package mintlifytest

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Rows are a project's analytics given row by row, for a test that needs
// exact data: SeedRows puts them in, the endpoints serve them (dates,
// filters, limits, paging and cursors applied as to generated data), and
// the readers (VisitorsData, SearchesData, ...) and Data read them back.
//
// Each kind that is not nil replaces the project's generated rows of that
// kind; an empty, non-nil slice leaves none. How a query's range
// [dateFrom, dateTo) selects them:
//
//   - visitors and views: a PathDay counts when its day starts (midnight
//     UTC) within the range, as a generated day does. The rows are the sums
//     per path of the days selected, and the totals the sums of the rows
//     (the fake does not deduplicate seeded visitors across pages).
//   - searches: a row counts when its LastSearchedAt is within the range,
//     with its counts as given; totalSearches is the sum of their hits.
//   - feedback (and feedback/by-page): an entry counts when its CreatedAt
//     is within the range and it passes the source and status filters.
//   - conversations (and threads, caller stats): when its Timestamp is
//     within the range.
//
// Without dateFrom and dateTo, every row counts. Rows are served in each
// endpoint's order, whatever their order here: visitors and views by total,
// most first, then path; searches by hits, most first, then query;
// feedback newest first, then by id; conversations by id, highest (newest)
// first.
type Rows struct {
	Visitors      []PathDay
	Views         []PathDay
	Searches      []SearchRow
	Feedback      []FeedbackEntry
	Conversations []Conversation
}

// PathDay is one path's counts on one day, a seeded row of the visitors or
// views export.
type PathDay struct {
	// Day is the day the counts are for: any time in it (UTC).
	Day   time.Time
	Path  string
	Human int64
	AI    int64
	Total int64
}

// SeedRows replaces a project's analytics rows of each kind rows gives
// (see Rows). Times are kept to the millisecond, as the API writes them. A
// conversation without an ID gets a ULID of its time; one without a Caller
// is "web"; nil Sources are none. It fails, changing nothing, for an
// unknown project or a row the API could not serve: a PathDay without a day
// or path, a search term without a query or with a LastSearchedAt that is
// not a time, feedback without an id, with an id used twice, an unknown
// source or status, or no time; a conversation with an id that is not a
// ULID or used twice, no time (or one before 1970), or an unknown caller.
func (s *Fake) SeedRows(projectID string, rows Rows) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.projects[projectID]
	if p == nil {
		return fmt.Errorf("SeedRows: no project %q", projectID)
	}
	var err error
	next := p.data.rows
	if rows.Visitors != nil {
		if next.Visitors, err = seedPathDays("Visitors", rows.Visitors); err != nil {
			return err
		}
	}
	if rows.Views != nil {
		if next.Views, err = seedPathDays("Views", rows.Views); err != nil {
			return err
		}
	}
	if rows.Searches != nil {
		if next.Searches, err = seedSearches(rows.Searches); err != nil {
			return err
		}
	}
	if rows.Feedback != nil {
		if next.Feedback, err = seedFeedback(rows.Feedback); err != nil {
			return err
		}
	}
	if rows.Conversations != nil {
		if next.Conversations, err = seedConversations(rows.Conversations); err != nil {
			return err
		}
	}
	p.data.rows = next
	p.data.mu.Lock()
	clear(p.data.cache)
	p.data.mu.Unlock()
	return nil
}

func seedPathDays(kind string, in []PathDay) ([]PathDay, error) {
	out := make([]PathDay, 0, len(in))
	for i, r := range in {
		if r.Day.IsZero() || r.Path == "" {
			return nil, fmt.Errorf("SeedRows: %s[%d]: a PathDay needs a Day and a Path", kind, i)
		}
		r.Day = r.Day.UTC().Truncate(24 * time.Hour)
		out = append(out, r)
	}
	return out, nil
}

func seedSearches(in []SearchRow) ([]SearchRow, error) {
	out := make([]SearchRow, 0, len(in))
	for i, r := range in {
		if r.Query == "" {
			return nil, fmt.Errorf("SeedRows: Searches[%d]: no query", i)
		}
		if _, ok := parseDateParam(r.LastSearchedAt); !ok {
			return nil, fmt.Errorf("SeedRows: Searches[%d]: lastSearchedAt %q is not a time (use %s)", i, r.LastSearchedAt, wireTime)
		}
		r.TopClickedPage = clonePtr(r.TopClickedPage)
		out = append(out, r)
	}
	return out, nil
}

func seedFeedback(in []FeedbackEntry) ([]FeedbackEntry, error) {
	out := make([]FeedbackEntry, 0, len(in))
	ids := map[string]bool{}
	for i, e := range in {
		switch {
		case e.ID == "" || ids[e.ID]:
			return nil, fmt.Errorf("SeedRows: Feedback[%d]: id %q is empty or used twice", i, e.ID)
		case !contains(feedbackSources, e.Source):
			return nil, fmt.Errorf("SeedRows: Feedback[%d]: source %q is not one of %s", i, e.Source, strings.Join(feedbackSources, ", "))
		case !contains(feedbackStatuses, e.Status):
			return nil, fmt.Errorf("SeedRows: Feedback[%d]: status %q is not one of %s", i, e.Status, strings.Join(feedbackStatuses, ", "))
		case e.CreatedAt.IsZero():
			return nil, fmt.Errorf("SeedRows: Feedback[%d]: no createdAt", i)
		}
		ids[e.ID] = true
		out = append(out, cloneFeedback(e))
		out[len(out)-1].CreatedAt = e.CreatedAt.UTC().Truncate(time.Millisecond)
	}
	slices.SortStableFunc(out, func(a, b FeedbackEntry) int {
		return cmp.Or(b.CreatedAt.Compare(a.CreatedAt), strings.Compare(a.ID, b.ID))
	})
	return out, nil
}

func seedConversations(in []Conversation) ([]Conversation, error) {
	out := make([]Conversation, 0, len(in))
	ids := map[string]bool{}
	for i, c := range in {
		if c.Timestamp.Before(time.Unix(0, 0)) {
			return nil, fmt.Errorf("SeedRows: Conversations[%d]: no timestamp (or one before 1970)", i)
		}
		c = cloneConversation(c)
		c.Timestamp = c.Timestamp.UTC().Truncate(time.Millisecond)
		if c.ID == "" {
			x := splitmix64(uint64(i) ^ 0x5eed)                            //nolint:gosec // a non-negative index
			c.ID = ulid(uint64(c.Timestamp.UnixMilli()), x, uint16(x>>48)) //nolint:gosec // after 1970
		}
		if !isULID(c.ID) || ids[c.ID] {
			return nil, fmt.Errorf("SeedRows: Conversations[%d]: id %q is not a ULID, or is used twice", i, c.ID)
		}
		ids[c.ID] = true
		c.Caller = cmp.Or(c.Caller, "web")
		if !contains([]string{"web", "api", "other"}, c.Caller) {
			return nil, fmt.Errorf("SeedRows: Conversations[%d]: caller %q is not web, api or other", i, c.Caller)
		}
		if c.Sources == nil {
			c.Sources = []ConversationSource{}
		}
		for j := range c.Thread {
			c.Thread[j].CreatedAt = c.Thread[j].CreatedAt.UTC().Truncate(time.Millisecond)
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b Conversation) int { return strings.Compare(b.ID, a.ID) })
	return out, nil
}

// seededPathRows sums the days s selects per path.
func seededPathRows(days []PathDay, s span) pathResult {
	byPath := map[string]*PathRow{}
	var r pathResult
	for _, d := range days {
		if !s.contains(d.Day) {
			continue
		}
		row := byPath[d.Path]
		if row == nil {
			row = &PathRow{Path: d.Path}
			byPath[d.Path] = row
		}
		row.Human += d.Human
		row.AI += d.AI
		row.Total += d.Total
		r.totals.Human += d.Human
		r.totals.AI += d.AI
		r.totals.Total += d.Total
	}
	for _, row := range byPath {
		r.rows = append(r.rows, *row)
	}
	sortPathRows(r.rows)
	return r
}

// seededSearches lists the terms last searched within s.
func seededSearches(rows []SearchRow, s span) searchResult {
	r := searchResult{terms: []SearchRow{}}
	for _, row := range rows {
		if at, _ := parseDateParam(row.LastSearchedAt); s.contains(at) {
			r.terms = append(r.terms, row)
			r.total += row.Hits
		}
	}
	slices.SortStableFunc(r.terms, func(a, b SearchRow) int {
		return cmp.Or(cmp.Compare(b.Hits, a.Hits), strings.Compare(a.Query, b.Query))
	})
	return r
}

// Query selects what a reader returns, as the endpoint's query would (no
// paging): dates as the API takes them ("" for unset), and for feedback a
// source and statuses ("" and nil for all).
type Query struct {
	DateFrom string
	DateTo   string
	Source   string
	Status   []string
}

func (q Query) values() url.Values {
	v := url.Values{}
	for k, s := range map[string]string{"dateFrom": q.DateFrom, "dateTo": q.DateTo, "source": q.Source, "status": strings.Join(q.Status, ",")} {
		if s != "" {
			v.Set(k, s)
		}
	}
	return v
}

// SearchesData returns every search term the searches export serves for a
// query, in its order, and totalSearches. Like every reader, it does not
// count as a request or spend a budget; it fails for an unknown project or
// a query the endpoint would answer 400.
func (s *Fake) SearchesData(projectID string, q Query) ([]SearchRow, int64, error) {
	var r searchResult
	err := s.export(projectID, q.values(), func(p *params, d *dataset) {
		if sp := p.span(); len(p.problems) == 0 {
			r = d.searches(sp)
		}
	})
	out := make([]SearchRow, len(r.terms))
	for i, row := range r.terms {
		out[i] = row
		out[i].TopClickedPage = clonePtr(row.TopClickedPage)
	}
	return out, r.total, err
}

// FeedbackData returns every feedback entry the feedback export serves for
// a query (dates, source, statuses), newest first.
func (s *Fake) FeedbackData(projectID string, q Query) ([]FeedbackEntry, error) {
	var out []FeedbackEntry
	err := s.export(projectID, q.values(), func(p *params, d *dataset) {
		if f := p.feedbackFilter(); len(p.problems) == 0 {
			for _, e := range d.filterFeedback(f) {
				out = append(out, cloneFeedback(e))
			}
		}
	})
	return out, err
}

// FeedbackByPageData returns every row feedback/by-page counts for a
// query, in its order (the endpoint itself serves the first limit).
func (s *Fake) FeedbackByPageData(projectID string, q Query) ([]PageFeedbackRow, error) {
	var out []PageFeedbackRow
	err := s.export(projectID, q.values(), func(p *params, d *dataset) {
		if f := p.feedbackFilter(); len(p.problems) == 0 {
			out = d.feedbackByPage(f)
		}
	})
	return out, err
}

// ConversationsData returns every conversation the assistant export serves
// for a query's dates, newest first, with their Caller and Thread (nil when
// the thread is the question and the answer).
func (s *Fake) ConversationsData(projectID string, q Query) ([]Conversation, error) {
	var out []Conversation
	err := s.export(projectID, q.values(), func(p *params, d *dataset) {
		if sp := p.span(); len(p.problems) == 0 {
			for _, c := range d.filterConversations(sp) {
				out = append(out, cloneConversation(c))
			}
		}
	})
	return out, err
}

// ThreadData returns the transcript assistant/threads/{threadId} serves;
// it fails as the endpoint does (an id that is not a ULID, or no such
// conversation).
func (s *Fake) ThreadData(projectID, threadID string) (Thread, error) {
	var out Thread
	err := s.export(projectID, url.Values{"threadId": {threadID}}, func(p *params, d *dataset) {
		_, body := d.thread(p)
		switch b := body.(type) {
		case apiError:
			p.answered(b)
		case Thread:
			out = b
			out.Messages = slices.Clone(b.Messages)
		}
	})
	return out, err
}

// CallerStatsData returns what assistant/caller-stats answers for a
// query's dates.
func (s *Fake) CallerStatsData(projectID string, q Query) (CallerStats, error) {
	var out CallerStats
	err := s.export(projectID, q.values(), func(p *params, d *dataset) {
		if sp := p.span(); len(p.problems) == 0 {
			out = d.callerStats(sp)
		}
	})
	return out, err
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneFeedback(e FeedbackEntry) FeedbackEntry {
	e.Comment, e.Contact, e.Filename, e.Lang = clonePtr(e.Comment), clonePtr(e.Contact), clonePtr(e.Filename), clonePtr(e.Lang)
	return e
}

func cloneConversation(c Conversation) Conversation {
	c.Sources = slices.Clone(c.Sources)
	c.Thread = slices.Clone(c.Thread)
	c.QueryCategory, c.PageURL = clonePtr(c.QueryCategory), clonePtr(c.PageURL)
	return c
}
