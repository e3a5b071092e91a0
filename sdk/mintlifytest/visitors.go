package mintlifytest

import (
	"fmt"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Dataset describes a project's deterministic visitor data: Paths pages, each
// with human and AI visitors on each of Days days ending (exclusive) at End.
// Every path has at least one human visitor a day, so any range that covers
// a day of data lists every path.
type Dataset struct {
	Paths int
	Days  int       // 0: 90
	End   time.Time // 0: 2026-11-01 UTC
	Seed  uint64
}

// VisitorCounts is the wire shape of totals; VisitorRow of one path's row.
type VisitorCounts struct {
	Human int64 `json:"human"`
	AI    int64 `json:"ai"`
	Total int64 `json:"total"`
}

// VisitorRow is one path's counts, as the API sends it.
type VisitorRow struct {
	Path  string `json:"path"`
	Human int64  `json:"human"`
	AI    int64  `json:"ai"`
	Total int64  `json:"total"`
}

type visitorResult struct {
	totals VisitorCounts
	rows   []VisitorRow
}

type dataset struct {
	cfg   Dataset
	start time.Time // first day
	paths []string

	mu    sync.Mutex
	cache map[[2]int]*visitorResult // by [first day, end day)
}

func newDataset(cfg Dataset) *dataset {
	if cfg.Days <= 0 {
		cfg.Days = 90
	}
	if cfg.End.IsZero() {
		cfg.End = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	}
	cfg.End = cfg.End.UTC().Truncate(24 * time.Hour)
	d := &dataset{cfg: cfg, start: cfg.End.AddDate(0, 0, -cfg.Days), cache: map[[2]int]*visitorResult{}}
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

// splitmix64 makes the data deterministic without storing it.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// day returns path i's counts on day d: human, ai, and visitors who were
// both. Popular paths come first in the data set (a long tail after them).
func (d *dataset) day(i, day uint64) (h, a, both int64) {
	pop := uint64(1 + 3000/math.Pow(float64(i+1), 0.75))
	x := splitmix64(d.cfg.Seed ^ i<<20 ^ day)
	h = int64(1 + x%pop)               //nolint:gosec // at most 3001
	a = int64((x >> 21) % (pop/3 + 1)) //nolint:gosec // at most 1001
	both = min(h, a) * int64((x>>42)%40) / 100
	return h, a, both
}

// result computes (once per range) the rows of days [from, to), ordered by
// total visitors, most first, then by path: a stable order.
func (d *dataset) result(from, to int) *visitorResult {
	from, to = max(from, 0), min(to, d.cfg.Days)
	if to < from {
		to = from
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if r := d.cache[[2]int{from, to}]; r != nil {
		return r
	}
	r := &visitorResult{}
	var sumH, sumA, sumBoth int64
	if to > from {
		r.rows = make([]VisitorRow, len(d.paths))
		for i, path := range d.paths {
			row := VisitorRow{Path: path}
			for day := from; day < to; day++ {
				h, a, both := d.day(uint64(i), uint64(day)) //nolint:gosec // both are non-negative indexes
				row.Human += h
				row.AI += a
				row.Total += h + a - both
				sumBoth += both
			}
			sumH += row.Human
			sumA += row.AI
			r.rows[i] = row
		}
	}
	sort.SliceStable(r.rows, func(x, y int) bool {
		if r.rows[x].Total != r.rows[y].Total {
			return r.rows[x].Total > r.rows[y].Total
		}
		return r.rows[x].Path < r.rows[y].Path
	})
	// Site-wide uniques are fewer than the sum over pages: one visitor reads
	// several pages. And total is deduplicated across human and AI.
	r.totals.Human = sumH * 6 / 10
	r.totals.AI = sumA * 7 / 10
	r.totals.Total = r.totals.Human + r.totals.AI - sumBoth*6/10
	if len(d.cache) > 64 {
		clear(d.cache)
	}
	d.cache[[2]int{from, to}] = r
	return r
}

// dayIndex maps a date bound to the index of the first day that starts at or
// after it.
func (d *dataset) dayIndex(t time.Time) int {
	days := t.Sub(d.start).Hours() / 24
	return int(math.Ceil(days))
}

// dayRange turns the dateFrom and dateTo parameters ("" for unset) into
// the days [from, to) of the data set, or says what is wrong with them in
// the API's words.
func (d *dataset) dayRange(dateFrom, dateTo string) (from, to int, problems []string) {
	from, to = 0, d.cfg.Days
	var fromT, toT time.Time
	if dateFrom != "" {
		t, ok := parseDateParam(dateFrom)
		if !ok {
			problems = append(problems, "dateFrom: Invalid date, expected YYYY-MM-DD or ISO 8601")
		}
		fromT, from = t, d.dayIndex(t)
	}
	if dateTo != "" {
		t, ok := parseDateParam(dateTo)
		if !ok {
			problems = append(problems, "dateTo: Invalid date, expected YYYY-MM-DD or ISO 8601")
		}
		toT, to = t, d.dayIndex(t)
	}
	if !fromT.IsZero() && !toT.IsZero() && !fromT.Before(toT) {
		problems = append(problems, "dateFrom: must be before dateTo")
	}
	return from, to, problems
}

// parseDateParam accepts the forms the API documents: YYYY-MM-DD or an
// ISO 8601 date-time.
func parseDateParam(s string) (time.Time, bool) {
	for _, layout := range []string{"2006-01-02", time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04:05.000"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// VisitorsData returns what the server holds for a project and range (dates
// as the API takes them, "" for unset), in the order it serves rows.
func (s *Fake) VisitorsData(projectID, dateFrom, dateTo string) (VisitorCounts, []VisitorRow, error) {
	s.mu.Lock()
	p := s.projects[projectID]
	s.mu.Unlock()
	if p == nil {
		return VisitorCounts{}, nil, fmt.Errorf("no project %q", projectID)
	}
	from, to, problems := p.visitors.dayRange(dateFrom, dateTo)
	if len(problems) > 0 {
		return VisitorCounts{}, nil, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	r := p.visitors.result(from, to)
	return r.totals, append([]VisitorRow(nil), r.rows...), nil
}

func (s *Fake) visitors(w http.ResponseWriter, r *http.Request, org string, p *project) {
	calls := s.orgCalls[org]
	wait, ok := s.takeBudget(&calls, s.analyticsBudget)
	s.orgCalls[org] = calls
	if !ok {
		writeRateLimited(w, wait, s.analyticsBudget)
		return
	}
	q := r.URL.Query()
	var problems []string
	limit, offset := 50, 0
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			problems = append(problems, "limit: Expected number, received string")
		case n < 1:
			problems = append(problems, "limit: Number must be greater than or equal to 1")
		case n > 250:
			problems = append(problems, "limit: Number must be less than or equal to 250")
		default:
			limit = n
		}
	}
	if v := q.Get("offset"); v != "" {
		n, err := strconv.Atoi(v)
		switch {
		case err != nil:
			problems = append(problems, "offset: Expected number, received string")
		case n < 0:
			problems = append(problems, "offset: Number must be greater than or equal to 0")
		default:
			offset = n
		}
	}
	ds := p.visitors
	from, to, dateProblems := ds.dayRange(q.Get("dateFrom"), q.Get("dateTo"))
	problems = append(problems, dateProblems...)
	if len(problems) > 0 {
		writeError(w, http.StatusBadRequest, "Invalid query parameters", problems...)
		return
	}
	res := ds.result(from, to)
	page := struct {
		Totals   VisitorCounts `json:"totals"`
		Visitors []VisitorRow  `json:"visitors"`
		HasMore  bool          `json:"hasMore"`
	}{Totals: res.totals, Visitors: []VisitorRow{}}
	if offset < len(res.rows) {
		end := min(offset+limit, len(res.rows))
		page.Visitors = res.rows[offset:end]
		page.HasMore = end < len(res.rows)
	}
	writeJSON(w, http.StatusOK, page)
}
