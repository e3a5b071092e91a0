package mintlifytest

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Dataset describes a project's deterministic analytics: the same
// configuration always serves the same numbers, so tests can compare what a
// client read with Data row by row.
type Dataset struct {
	// Paths is how many documentation pages the site has. Every page has
	// human visitors every day, so a range covering a day of data lists
	// every path in the visitors and views exports.
	Paths int
	// The data covers Days days (0: 90) ending, exclusive, at End (zero:
	// 2026-11-01 UTC). Outside them, every count is zero.
	Days int
	End  time.Time
	// Seed varies the numbers.
	Seed uint64
	// SearchTerms is how many distinct search terms were used; Feedback
	// how many feedback entries and Conversations how many assistant
	// conversations arrived, spread over the days.
	SearchTerms   int
	Feedback      int
	Conversations int
	// LateEvents is how long after a day ends its events keep arriving,
	// as a real analytics pipeline's do. Zero: every day's numbers are
	// whole from the start, whatever the fake's clock. Set, the generated
	// numbers are read at the fake's clock: a day's counts grow from its
	// start (0) until LateEvents after its end (whole), so today's are
	// partial and a future day's zero, and a feedback entry or
	// conversation is listed only once it arrived, at most LateEvents
	// after its time. Seeded rows (SeedRows) are served as given.
	LateEvents time.Duration
}

// defaultDataEnd is the end (exclusive) of a Dataset whose End is zero.
var defaultDataEnd = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// dataset is a project's analytics, generated from its Dataset on demand
// and cached per query.
type dataset struct {
	cfg   Dataset
	start time.Time // first day
	paths []string
	now   func() time.Time // the fake's clock, for LateEvents

	once          sync.Once // builds the entries below on first use
	feedback      []FeedbackEntry
	conversations []Conversation

	// rows are the seeded rows (SeedRows): each kind that is not nil
	// replaces the generated one.
	rows Rows

	mu    sync.Mutex
	cache map[string]any // results by endpoint and query
}

func newDataset(cfg Dataset, now func() time.Time) *dataset {
	if cfg.Days <= 0 {
		cfg.Days = 90
	}
	if cfg.End.IsZero() {
		cfg.End = defaultDataEnd
	}
	cfg.End = cfg.End.UTC().Truncate(24 * time.Hour)
	d := &dataset{cfg: cfg, start: cfg.End.AddDate(0, 0, -cfg.Days), now: now, cache: map[string]any{}}
	sections := []string{"docs", "api-reference", "guides", "changelog", "integrations", "quickstart"}
	d.paths = make([]string, cfg.Paths)
	for i := range d.paths {
		if i == 0 {
			d.paths[i] = "/"
			continue
		}
		d.paths[i] = fmt.Sprintf("/%s/page-%d", sections[i%len(sections)], i)
	}
	return d
}

// cached returns the result of build for key, computing it once.
func cached[T any](d *dataset, key string, build func() T) T {
	d.mu.Lock()
	defer d.mu.Unlock()
	if r, ok := d.cache[key].(T); ok {
		return r
	}
	r := build()
	if len(d.cache) > 64 {
		clear(d.cache)
	}
	d.cache[key] = r
	return r
}

// splitmix64 makes the data deterministic without storing it.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// rnd is a deterministic draw for the named stream and index.
func (d *dataset) rnd(stream, i uint64) uint64 {
	return splitmix64(d.cfg.Seed ^ stream<<56 ^ i)
}

// span is a range of instants [from, to) a query selects.
type span struct{ from, to time.Time }

func (s span) contains(t time.Time) bool { return !t.Before(s.from) && t.Before(s.to) }

// days is the span as data-set day indexes [first, end): the days that
// start within it.
func (d *dataset) days(s span) (first, end int) {
	idx := func(t time.Time) int { return int(math.Ceil(t.Sub(d.start).Hours() / 24)) }
	first, end = max(idx(s.from), 0), min(idx(s.to), d.cfg.Days)
	return first, max(end, first)
}

// dayStart is when day i begins.
func (d *dataset) dayStart(i int) time.Time { return d.start.AddDate(0, 0, i) }

// The date forms the API documents: YYYY-MM-DD or an ISO 8601 date-time,
// with a zone (Z, ±hh:mm, ±hhmm, ±hh) or without one (read as UTC).
var dateLayouts = []string{
	"2006-01-02",
	"2006-01-02T15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999Z0700", "2006-01-02T15:04:05.999999999Z07", "2006-01-02T15:04:05.999999999",
	"2006-01-02T15:04Z07:00", "2006-01-02T15:04Z0700", "2006-01-02T15:04Z07", "2006-01-02T15:04",
}

func parseDateParam(s string) (time.Time, bool) {
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// params reads an analytics query string, collecting what is wrong with it
// in the API's words (a 400 lists them all).
type params struct {
	q url.Values
	// path reads a path value: the request's, or for Data the query's.
	path     func(name string) string
	problems []string
	// answered receives the error a Data export answers (a thread's 404).
	answered func(apiError)
}

func (p *params) fail(format string, args ...any) {
	p.problems = append(p.problems, fmt.Sprintf(format, args...))
}

// Unset bounds of a query's range: every row counts.
var (
	dawn = time.Time{}
	dusk = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
)

// span reads dateFrom and dateTo; an unset bound leaves the range open on
// that side.
func (p *params) span() span {
	s := span{from: dawn, to: dusk}
	var set [2]bool
	for i, name := range []string{"dateFrom", "dateTo"} {
		v := p.q.Get(name)
		if v == "" {
			continue
		}
		t, ok := parseDateParam(v)
		if !ok {
			p.fail("%s: Invalid date, expected YYYY-MM-DD or ISO 8601", name)
			continue
		}
		set[i] = true
		if i == 0 {
			s.from = t
		} else {
			s.to = t
		}
	}
	if set[0] && set[1] && !s.from.Before(s.to) {
		p.fail("dateFrom: must be before dateTo")
	}
	return s
}

// number reads an optional numeric parameter within [lo, hi]; integer
// parameters refuse fractions. The API types most limits as "number": a
// whole value written 10.0 is accepted.
func (p *params) number(name string, lo, hi, def int, integer bool) int {
	v := p.q.Get(name)
	if v == "" {
		return def
	}
	f, err := strconv.ParseFloat(v, 64)
	switch {
	case err != nil || math.IsNaN(f) || math.IsInf(f, 0):
		p.fail("%s: Expected number, received string", name)
	case f != math.Trunc(f) && integer:
		p.fail("%s: Expected integer, received float", name)
	case f != math.Trunc(f):
		p.fail("%s: Number must be a whole number", name)
	case f < float64(lo):
		p.fail("%s: Number must be greater than or equal to %d", name, lo)
	case f > float64(hi):
		p.fail("%s: Number must be less than or equal to %d", name, hi)
	default:
		return int(f)
	}
	return def
}

// oneOf reads an optional parameter that must be one of allowed.
func (p *params) oneOf(name string, allowed ...string) string {
	v := p.q.Get(name)
	if v != "" && !contains(allowed, v) {
		p.fail("%s: Invalid enum value. Expected '%s', received '%s'", name, strings.Join(allowed, "' | '"), v)
		return ""
	}
	return v
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// analyticsHandler serves one analytics endpoint: it reads the query and
// answers 400 with every problem, or its answer. (The route's budget was
// taken before.)
type analyticsHandler func(p *params, d *dataset) (status int, body any)

func analytics(serve analyticsHandler) handler {
	return func(_ *Fake, w http.ResponseWriter, r *http.Request, _ string, pr *project) {
		p := &params{q: r.URL.Query(), path: r.PathValue}
		status, body := serve(p, pr.data)
		if len(p.problems) > 0 {
			writeError(w, http.StatusBadRequest, "Invalid query parameters", p.problems...)
			return
		}
		if e, ok := body.(apiError); ok {
			writeError(w, status, e.msg, e.details...)
			return
		}
		writeJSON(w, status, body)
	}
}

// apiError is an error answer a handler chose.
type apiError struct {
	msg     string
	details []string
}

// Data returns everything an analytics endpoint holds for a project and a
// query (dates and filters; paging parameters are ignored), as one answer
// in the endpoint's own JSON shape with every row in the order the
// endpoint serves them, and no "more" to follow. route is a Route
// constant; for RouteAnalyticsThread, query holds "threadId". Tests
// compare what a client read, page after page, with it. It does not count
// as a request or spend the rate limit.
func (s *Fake) Data(projectID, route string, query url.Values) (json.RawMessage, error) {
	rt := routeByPattern(route)
	if rt == nil || rt.export == nil {
		return nil, fmt.Errorf("route %q is not an analytics export", route)
	}
	q := url.Values{}
	for k, v := range query {
		if k != "limit" && k != "offset" && k != "cursor" {
			q[k] = v
		}
	}
	var body any
	err := s.export(projectID, q, func(p *params, d *dataset) { body = rt.export(p, d) })
	if err != nil {
		return nil, err
	}
	return json.Marshal(body)
}

// export runs read on a project's data set, with the fake locked, and
// turns the problems it finds (or the error it answers) into an error.
func (s *Fake) export(projectID string, q url.Values, read func(p *params, d *dataset)) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	pr := s.projects[projectID]
	if pr == nil {
		return fmt.Errorf("no project %q", projectID)
	}
	p := &params{q: q, path: q.Get}
	var failed *apiError
	p.answered = func(e apiError) { failed = &e }
	read(p, pr.data)
	if len(p.problems) > 0 {
		return fmt.Errorf("%s", strings.Join(p.problems, "; "))
	}
	if failed != nil {
		return fmt.Errorf("%s", failed.msg)
	}
	return nil
}

// The whole answers Data gives, by route (routeTable's export).
func exportVisitors(p *params, d *dataset) any {
	r := d.visitors(p.span())
	return pathCountsPage{Totals: r.totals, list: "visitors", Rows: r.rows}
}

func exportViews(p *params, d *dataset) any {
	r := d.views(p.span())
	return pathCountsPage{Totals: r.totals, list: "views", Rows: r.rows}
}

func exportSearches(p *params, d *dataset) any {
	r := d.searches(p.span())
	return searchesPage{Searches: r.terms, TotalSearches: r.total}
}

func exportFeedback(p *params, d *dataset) any {
	return feedbackPage{Feedback: d.filterFeedback(p.feedbackFilter())}
}

func exportFeedbackByPage(p *params, d *dataset) any {
	return byPagePage{Feedback: d.feedbackByPage(p.feedbackFilter())}
}

func exportAssistant(p *params, d *dataset) any {
	return conversationsPage{Conversations: d.filterConversations(p.span())}
}

func exportThread(p *params, d *dataset) any {
	_, body := d.thread(p)
	if e, ok := body.(apiError); ok {
		p.answered(e)
	}
	return body
}

func exportCallerStats(p *params, d *dataset) any { return d.callerStats(p.span()) }

// Counts is the wire shape of site-wide totals: unique visitors (deduplicated
// across human and AI, so Total is not Human + AI) or view events (Total is
// their sum).
type Counts struct {
	Human int64 `json:"human"`
	AI    int64 `json:"ai"`
	Total int64 `json:"total"`
}

// PathRow is one path's counts, as the visitors and views exports send it.
type PathRow struct {
	Path  string `json:"path"`
	Human int64  `json:"human"`
	AI    int64  `json:"ai"`
	Total int64  `json:"total"`
}

type pathResult struct {
	totals Counts
	rows   []PathRow
}

// pathCountsPage is the wire shape of both exports: totals, the rows
// under the export's own list name, and hasMore.
type pathCountsPage struct {
	Totals  Counts
	list    string // "visitors" or "views"
	Rows    []PathRow
	HasMore bool
}

// MarshalJSON writes the rows under the page's list name.
func (pg pathCountsPage) MarshalJSON() ([]byte, error) { return json.Marshal(pg.wire()) }

// wire is the page as the API writes it: the rows under the page's list
// name, [] when empty. Handlers encode it directly: through MarshalJSON,
// encoding/json would compact the bytes again, on every page.
func (pg pathCountsPage) wire() any {
	rows := pg.Rows
	if rows == nil {
		rows = []PathRow{}
	}
	if pg.list == "views" {
		return struct {
			Totals  Counts    `json:"totals"`
			Views   []PathRow `json:"views"`
			HasMore bool      `json:"hasMore"`
		}{pg.Totals, rows, pg.HasMore}
	}
	return struct {
		Totals   Counts    `json:"totals"`
		Visitors []PathRow `json:"visitors"`
		HasMore  bool      `json:"hasMore"`
	}{pg.Totals, rows, pg.HasMore}
}

// day returns path i's unique visitors on day d: human, ai, and visitors
// who were both, as many as have arrived (arrived). Popular paths come
// first in the data set (a long tail after them).
func (d *dataset) day(i, day uint64) (h, a, both int64) {
	pop := uint64(1 + 3000/math.Pow(float64(i+1), 0.75))
	x := splitmix64(d.cfg.Seed ^ i<<20 ^ day)
	h = d.arrived(int(day), int64(1+x%pop))           //nolint:gosec // at most 3001
	a = d.arrived(int(day), int64((x>>21)%(pop/3+1))) //nolint:gosec // at most 1001
	both = min(h, a) * int64((x>>42)%40) / 100
	return h, a, both
}

// arrived is how many of day's n events have arrived at the fake's clock:
// all of them without LateEvents; else a share that grows from the day's
// start (none) to LateEvents after its end (all).
func (d *dataset) arrived(day int, n int64) int64 {
	late := d.cfg.LateEvents
	if late <= 0 {
		return n
	}
	share := float64(d.now().Sub(d.dayStart(day))) / float64(24*time.Hour+late)
	return int64(float64(n) * min(max(share, 0), 1))
}

// listed says whether an event at t (a feedback entry, a conversation,
// named id) has arrived at the fake's clock: always without LateEvents;
// else once its delay, up to LateEvents and fixed by id, has passed.
func (d *dataset) listed(t time.Time, id string) bool {
	late := d.cfg.LateEvents
	if late <= 0 {
		return true
	}
	var h uint64
	for _, c := range []byte(id) {
		h = splitmix64(h ^ uint64(c))
	}
	delay := time.Duration(h % uint64(late+1)) //nolint:gosec // late is positive
	return !t.Add(delay).After(d.now())
}

// pathCounts is a per-path count (visitors, views) over the days in s: a
// test's seeded rows when it gave some, else build's from the data set,
// computed once per range, ordered by total, most first, then by path (a
// stable order).
func (d *dataset) pathCounts(name string, seeded []PathDay, s span, build func(from, to int) pathResult) pathResult {
	if seeded != nil {
		return seededPathRows(seeded, s)
	}
	from, to := d.days(s)
	return cached(d, fmt.Sprintf("%s %d %d %s", name, from, to, d.clockKey()), func() pathResult {
		r := build(from, to)
		sortPathRows(r.rows)
		return r
	})
}

// rowsPerPath makes a row per path of the data set, adding up addDay over
// the days [from, to); none when the range holds no day.
func (d *dataset) rowsPerPath(from, to int, addDay func(row *PathRow, path, day uint64)) []PathRow {
	if to <= from {
		return nil
	}
	rows := make([]PathRow, len(d.paths))
	for i, path := range d.paths {
		rows[i] = PathRow{Path: path}
		for day := from; day < to; day++ {
			addDay(&rows[i], uint64(i), uint64(day)) //nolint:gosec // both are non-negative indexes
		}
	}
	return rows
}

// clockKey is what the fake's clock adds to a result's cache key: nothing
// without LateEvents (results do not change with time), else the time.
func (d *dataset) clockKey() string {
	if d.cfg.LateEvents <= 0 {
		return ""
	}
	return d.now().UTC().Format(time.RFC3339Nano)
}

// uniques adds up one path's (or the site's) unique visitors day by day:
// human, AI and total. Over several days a visitor may come back, so a
// range's uniques are at least its busiest day's and at most the sum of
// its days' (here, halfway between): a day's uniques are never summed.
type uniques struct{ sum, most Counts }

func (u *uniques) add(h, a, total int64) {
	u.sum.Human, u.sum.AI, u.sum.Total = u.sum.Human+h, u.sum.AI+a, u.sum.Total+total
	u.most.Human, u.most.AI, u.most.Total = max(u.most.Human, h), max(u.most.AI, a), max(u.most.Total, total)
}

func (u uniques) counts() Counts {
	dedup := func(most, sum int64) int64 { return most + (sum-most)/2 }
	return Counts{Human: dedup(u.most.Human, u.sum.Human), AI: dedup(u.most.AI, u.sum.AI), Total: dedup(u.most.Total, u.sum.Total)}
}

// visitors computes unique visitors per path and site-wide, day by day
// (uniques).
func (d *dataset) visitors(s span) pathResult {
	return d.pathCounts("visitors", d.rows.Visitors, s, func(from, to int) pathResult {
		if to <= from {
			return pathResult{}
		}
		paths := make([]uniques, len(d.paths))
		var site uniques
		for day := from; day < to; day++ {
			var dayH, dayA, dayBoth int64
			for i := range paths {
				h, a, both := d.day(uint64(i), uint64(day)) //nolint:gosec // non-negative indexes
				paths[i].add(h, a, h+a-both)
				dayH, dayA, dayBoth = dayH+h, dayA+a, dayBoth+both
			}
			// Site-wide uniques are fewer than the sum over pages: one
			// visitor reads several pages. And total is deduplicated
			// across human and AI.
			h, a := dayH*6/10, dayA*7/10
			site.add(h, a, h+a-dayBoth*6/10)
		}
		r := pathResult{totals: site.counts(), rows: make([]PathRow, len(d.paths))}
		for i, path := range d.paths {
			c := paths[i].counts()
			r.rows[i] = PathRow{Path: path, Human: c.Human, AI: c.AI, Total: c.Total}
		}
		return r
	})
}

// views computes content view events: each visitor of a day views the
// page one to three times. Events add up: totals are sums.
func (d *dataset) views(s span) pathResult {
	return d.pathCounts("views", d.rows.Views, s, func(from, to int) pathResult {
		r := pathResult{rows: d.rowsPerPath(from, to, func(row *PathRow, path, day uint64) {
			h, a, _ := d.day(path, day)
			x := d.rnd(2, path<<20^day)
			row.Human += h * int64(1+x%3)   //nolint:gosec // below 3
			row.AI += a * int64(1+(x>>8)%2) //nolint:gosec // below 2
		})}
		for i := range r.rows {
			row := &r.rows[i]
			row.Total = row.Human + row.AI
			r.totals.Human += row.Human
			r.totals.AI += row.AI
		}
		r.totals.Total = r.totals.Human + r.totals.AI
		return r
	})
}

func sortPathRows(rows []PathRow) {
	slices.SortFunc(rows, func(x, y PathRow) int {
		return cmp.Or(cmp.Compare(y.Total, x.Total), strings.Compare(x.Path, y.Path))
	})
}

// offsetPage serves rows[offset:offset+limit] of an offset-paged export.
func offsetPage(p *params, maxLimit int) (limit, offset int) {
	limit = p.number("limit", 1, maxLimit, 50, true)
	offset = p.number("offset", 0, math.MaxInt32, 0, true)
	return limit, offset
}

func pageOf[T any](rows []T, offset, limit int) (page []T, hasMore bool) {
	start := min(offset, len(rows))
	end := min(start+limit, len(rows))
	return append([]T{}, rows[start:end]...), end < len(rows)
}

func serveVisitors(p *params, d *dataset) (int, any) {
	limit, offset := offsetPage(p, 250)
	r := d.visitors(p.span())
	page, more := pageOf(r.rows, offset, limit)
	return http.StatusOK, pathCountsPage{Totals: r.totals, list: "visitors", Rows: page, HasMore: more}.wire()
}

func serveViews(p *params, d *dataset) (int, any) {
	limit, offset := offsetPage(p, 250)
	r := d.views(p.span())
	page, more := pageOf(r.rows, offset, limit)
	return http.StatusOK, pathCountsPage{Totals: r.totals, list: "views", Rows: page, HasMore: more}.wire()
}

// VisitorsData returns what the server holds for a project and range (dates
// as the API takes them, "" for unset), in the order it serves rows.
func (s *Fake) VisitorsData(projectID, dateFrom, dateTo string) (Counts, []PathRow, error) {
	return s.pathData(projectID, RouteAnalyticsVisitors, dateFrom, dateTo)
}

// ViewsData returns the page-view export for a project and range, as
// VisitorsData does for visitors.
func (s *Fake) ViewsData(projectID, dateFrom, dateTo string) (Counts, []PathRow, error) {
	return s.pathData(projectID, RouteAnalyticsViews, dateFrom, dateTo)
}

func (s *Fake) pathData(projectID, route, dateFrom, dateTo string) (Counts, []PathRow, error) {
	var r pathResult
	err := s.export(projectID, url.Values{"dateFrom": {dateFrom}, "dateTo": {dateTo}}, func(p *params, d *dataset) {
		sp := p.span()
		if len(p.problems) > 0 {
			return
		}
		r = d.visitors(sp)
		if route == RouteAnalyticsViews {
			r = d.views(sp)
		}
	})
	if err != nil {
		return Counts{}, nil, err
	}
	return r.totals, append([]PathRow(nil), r.rows...), nil
}
