package sdk

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
)

// DailyMetric names a series Analytics.Daily reads, one point a UTC day.
type DailyMetric string

// The daily series. Views and visitors are human, AI and total; the
// others a total. A day's unique visitors are that day's: never add days
// up (a visitor of two days is one of the week); a range's are
// Analytics.Visitors' totals. Feedback and assistant conversations count
// by the UTC day of createdAt and timestamp, from the listing's pages.
const (
	DailyViews         DailyMetric = "views"
	DailyVisitors      DailyMetric = "visitors"
	DailySearches      DailyMetric = "searches"
	DailyFeedback      DailyMetric = "feedback"
	DailyConversations DailyMetric = "conversations"
)

// DailyMetrics lists the series.
var DailyMetrics = []DailyMetric{DailyViews, DailyVisitors, DailySearches, DailyFeedback, DailyConversations}

// The bounds of a DailyQuery. DefaultDailySettle is how long after a day
// ends late events may still arrive: until then the day is partial and
// never kept. DefaultDailyMaxRequests is a fifth of the organization's
// hourly analytics budget. MaxDailyDays is a leap year.
const (
	DefaultDailySettle      = 48 * time.Hour
	MinDailySettle          = time.Hour
	MaxDailySettle          = 31 * 24 * time.Hour
	DefaultDailyMaxRequests = 20
	MaxDailyDays            = 366
)

const oneDay = 24 * time.Hour

// DailyQuery selects a daily series.
type DailyQuery struct {
	// DateFrom and DateTo are UTC days, YYYY-MM-DD, at most MaxDailyDays
	// apart; DateTo is exclusive and at most tomorrow (today is partial).
	DateFrom, DateTo string
	// Metrics are the series to read, at least one.
	Metrics []DailyMetric
	// Settle is how long after a day ends it may still change (0:
	// DefaultDailySettle).
	Settle time.Duration
	// MaxRequests caps the call's requests (0: DefaultDailyMaxRequests);
	// the days it leaves unread are Missing.
	MaxRequests int
}

// Validate checks the query but for DateTo's bound, which needs the
// client's clock: Daily checks that too, before any request.
func (q DailyQuery) Validate() error {
	from, errFrom := dailyDate("dateFrom", q.DateFrom)
	to, errTo := dailyDate("dateTo", q.DateTo)
	switch days := int(to.Sub(from) / oneDay); {
	case errFrom != nil:
		return errFrom
	case errTo != nil:
		return errTo
	case days <= 0 || days > MaxDailyDays:
		return &ValidationError{Field: "dateTo", Value: q.DateTo, Rule: fmt.Sprintf("must be 1 to %d days after dateFrom %q (dateTo is exclusive)", MaxDailyDays, q.DateFrom)}
	case len(q.Metrics) == 0:
		return &ValidationError{Field: "metrics", Rule: "must name at least one series"}
	case q.Settle != 0 && (q.Settle < MinDailySettle || q.Settle > MaxDailySettle):
		return &ValidationError{Field: "settle", Value: q.Settle.String(), Rule: fmt.Sprintf("must be 0 (%s) or from %s to %s", DefaultDailySettle, MinDailySettle, MaxDailySettle)}
	case q.MaxRequests < 0:
		return &ValidationError{Field: "maxRequests", Value: fmt.Sprint(q.MaxRequests), Rule: "must be 0 (the default) or more"}
	}
	for i, m := range q.Metrics {
		if !slices.Contains(DailyMetrics, m) || slices.Contains(q.Metrics[:i], m) {
			return &ValidationError{Field: "metrics", Value: string(m), Rule: fmt.Sprintf("must be one of %v, each once", DailyMetrics)}
		}
	}
	return nil
}

// ParseDay reads a day of a daily series: YYYY-MM-DD exactly, a UTC day.
func ParseDay(s string) (time.Time, error) { return dailyDate("day", s) }

func dailyDate(field, s string) (time.Time, error) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil || t.Format(time.DateOnly) != s {
		return t, &ValidationError{Field: field, Value: s, Rule: "must be a day, YYYY-MM-DD (days are UTC)"}
	}
	return t, nil
}

// DailySource says where a day's values came from.
type DailySource string

// The sources, most settled first: a settled day kept in the analytics
// cache's history; an answer the cache held (within FreshFor, or a stale
// copy while the budget is spent); read from the API by this call; not
// read yet (DailySeries.Missing).
const (
	DailyKept    DailySource = "kept"
	DailyCached  DailySource = "cached"
	DailyRead    DailySource = "read"
	DailyMissing DailySource = "missing"
)

// DailyPoint is one day of a series; a metric not asked for, or not known
// yet, is nil.
type DailyPoint struct {
	Date          string  `json:"date"`
	Views         *Counts `json:"views,omitempty"`
	Visitors      *Counts `json:"visitors,omitempty"`
	Searches      *int64  `json:"searches,omitempty"`
	Feedback      *int64  `json:"feedback,omitempty"`
	Conversations *int64  `json:"conversations,omitempty"`
	// Partial is set while a value may still grow: it was read less than
	// Settle after its day ended.
	Partial bool `json:"partial"`
	// Source is the least settled of its metrics' sources.
	Source DailySource `json:"source"`
}

// DailyProblem is a day's answer the SDK would not use: neither shown
// nor kept, and read again by a later call.
type DailyProblem struct {
	Date    string      `json:"date"`
	Metric  DailyMetric `json:"metric"`
	Problem string      `json:"problem"`
}

// DailySeries is a daily series, one point a day of the window.
type DailySeries struct {
	// Points are the window's days, oldest first.
	Points []DailyPoint `json:"points"`
	// Missing are the days (oldest first) with a metric not known: the cap
	// or the budget (RateLimit) ran out, or an answer had a problem.
	Missing  []string       `json:"missing"`
	Problems []DailyProblem `json:"problems"`
	// Requests is how many requests the call sent, retries included,
	// under the cap MaxRequests; Left how many the missing days still
	// need, at least.
	Requests, MaxRequests, Left int
	// Kept is false when the client has no analytics cache: nothing is
	// kept, and every call reads the window again.
	Kept bool
	// RateLimit is set when the organization's analytics budget was
	// spent: the API refused a request, or none was sent (NotSent). Kept
	// days are served all the same.
	RateLimit *APIError `json:"-"`
}

// Daily reads a daily series of a project, the newest days first, in at
// most q.MaxRequests requests (a day's smallest page a metric for totals).
// A day read Settle after it ended is kept for good in the analytics cache
// (WithAnalyticsCache) and never requested again; later days are read
// through the cache's entries and are Partial. The error is an invalid
// query, before any request, or a failure other than the budget or a
// day's answer, with the series read so far.
func (s *AnalyticsService) Daily(ctx context.Context, projectID string, q DailyQuery) (*DailySeries, error) {
	k, err := checked(s.core, ValidateProjectID(projectID), q.Validate())
	if err != nil {
		return nil, err
	}
	tomorrow := k.clock.Now().Add(analyticscache.ClockSkew).UTC().AddDate(0, 0, 1)
	from, _ := time.Parse(time.DateOnly, q.DateFrom)
	to, _ := time.Parse(time.DateOnly, q.DateTo)
	if to.After(tomorrow) {
		return nil, &ValidationError{Field: "dateTo", Value: q.DateTo, Rule: "is in the future: it may be at most tomorrow, " + tomorrow.Format(time.DateOnly) + " (UTC; dateTo is exclusive)"}
	}
	q.Settle = cmp.Or(q.Settle, DefaultDailySettle)
	q.MaxRequests = cmp.Or(q.MaxRequests, DefaultDailyMaxRequests)
	r := &dailyRun{s: s, k: k, ctx: ctx, project: projectID, q: q, from: from, ledgers: map[DailyMetric]*dailyLedger{},
		out: &DailySeries{MaxRequests: q.MaxRequests, Missing: []string{}, Problems: []DailyProblem{}, Kept: k.cache != nil}}
	for i := range int(to.Sub(from) / oneDay) {
		r.out.Points = append(r.out.Points, DailyPoint{Date: r.date(i), Source: DailyMissing})
	}
	err = r.fill()
	// What is missing, and the requests it needs: a day a total, a run a listing.
	slices.SortFunc(r.out.Problems, func(a, b DailyProblem) int { return cmp.Compare(a.Date, b.Date) })
	for i, p := range r.out.Points {
		for _, m := range q.Metrics {
			if known := r.ledgers[m].known; !known[i] {
				if n := len(r.out.Missing); n == 0 || r.out.Missing[n-1] != p.Date {
					r.out.Missing = append(r.out.Missing, p.Date)
				}
				if !events(m) || i == 0 || known[i-1] {
					r.out.Left++
				}
			}
		}
	}
	return r.out, err
}

// dailyRun is one Daily call.
type dailyRun struct {
	s       *AnalyticsService
	k       *core
	ctx     context.Context
	project string
	q       DailyQuery
	from    time.Time // the window's first day
	ledgers map[DailyMetric]*dailyLedger
	out     *DailySeries
	stopped bool // the budget is spent: nothing more is asked
}

// dailySet shows each series' value in a point.
var dailySet = map[DailyMetric]func(*DailyPoint, Counts){
	DailyViews:         func(p *DailyPoint, c Counts) { p.Views = &c },
	DailyVisitors:      func(p *DailyPoint, c Counts) { p.Visitors = &c },
	DailySearches:      func(p *DailyPoint, c Counts) { p.Searches = &c.Total },
	DailyFeedback:      func(p *DailyPoint, c Counts) { p.Feedback = &c.Total },
	DailyConversations: func(p *DailyPoint, c Counts) { p.Conversations = &c.Total },
}

// dailyJob reads metric m on the days [from, to) of the window.
type dailyJob struct {
	m        DailyMetric
	from, to int
}

// events says whether m is counted from a listing's events.
func events(m DailyMetric) bool { return m == DailyFeedback || m == DailyConversations }

// fill serves the kept days and reads the others, newest first, a day a
// job (a listing: a run of days, at most its ledger's Split), within the
// cap; then it writes the ledgers that learnt settled days.
func (r *dailyRun) fill() error {
	var jobs []dailyJob
	for _, m := range r.q.Metrics {
		l := r.loadLedger(m)
		r.ledgers[m] = l
		for i := len(r.out.Points) - 1; i >= 0; i-- {
			last := len(jobs) - 1
			if d, ok := l.Days[r.date(i)]; ok && r.settledRead(i, d.At) {
				r.learn(m, i, d.Counts, DailyKept, d.At)
			} else if events(m) && last >= 0 && jobs[last].m == m && (l.Split == 0 || jobs[last].to-i <= l.Split) {
				jobs[last].from = i
			} else {
				jobs = append(jobs, dailyJob{m: m, from: i, to: i + 1})
			}
		}
	}
	slices.SortStableFunc(jobs, func(a, b dailyJob) int { return b.to - a.to })
	var err error
	for i := 0; i < len(jobs) && err == nil && !r.stopped && r.out.Requests < r.q.MaxRequests; i++ {
		err = r.read(jobs[i])
	}
	for m, l := range r.ledgers {
		if !l.changed || r.k.cache == nil {
			continue
		}
		// Merged into the ledger as stored now: another program may have
		// kept other days since. Two programs saving at once may lose
		// one's new days: they are read again.
		merged := r.loadLedger(m)
		for date, d := range l.Days {
			if old, ok := merged.Days[date]; !ok || d.At.After(old.At) {
				merged.Days[date] = d
			}
		}
		merged.Split = l.Split
		value, _ := json.Marshal(merged) // strings, numbers and times
		r.k.cache.Save(r.ctx, l.name, analyticscache.Record{Kind: dailyKind, Key: l.key, At: r.k.clock.Now(), Pages: []analyticscache.Page{{Query: "ledger", Value: value}}})
	}
	return err
}

// read runs one job and counts its requests: a rate limit stops the fill,
// an answer the SDK will not use is a problem of its days, another
// failure the call's error.
func (r *dailyRun) read(j dailyJob) error {
	from, to, s := r.date(j.from), r.date(j.to), r.s
	var days []Counts
	var info ResponseInfo
	var err error
	switch j.m {
	case DailyViews, DailyVisitors: // a day's totals, on its smallest page
		e := map[DailyMetric]*PagedEndpoint[VisitorsQuery, PathCountsPage, PathCounts]{DailyViews: s.Views, DailyVisitors: s.Visitors}[j.m]
		var p *PathCountsPage
		if p, err = e.Page(r.ctx, r.project, VisitorsQuery{DateFrom: from, DateTo: to, Limit: 1}); err == nil {
			days, info = []Counts{p.Totals}, p.ResponseInfo
		}
	case DailySearches:
		var p *SearchesPage
		if p, err = s.Searches.Page(r.ctx, r.project, SearchesQuery{DateFrom: from, DateTo: to, Limit: 1}); err == nil {
			days, info = []Counts{{Total: p.TotalSearches}}, p.ResponseInfo
		}
	case DailyFeedback:
		days, info, err = readEvents(r, j, s.Feedback, FeedbackQuery{DateFrom: from, DateTo: to}, func(f *Feedback) *string { return f.CreatedAt })
	default:
		days, info, err = readEvents(r, j, s.Conversations, ConversationsQuery{DateFrom: from, DateTo: to}, func(c *Conversation) *string { return &c.Timestamp })
	}
	apiErr, _ := errors.AsType[*APIError](err)
	pagingErr, _ := errors.AsType[*PagingError](err)
	_, malformed := errors.AsType[*MalformedResponseError](err)
	switch reqErr, _ := errors.AsType[*RequestError](err); {
	case apiErr != nil:
		info.Attempts += apiErr.Attempts
	case reqErr != nil && reqErr.Sent:
		info.Attempts += reqErr.Attempts
	case pagingErr != nil: // the whole read's
		info.Attempts = pagingErr.Requests
	case malformed:
		info.Attempts++
	}
	r.out.Requests += info.Attempts
	switch {
	case apiErr != nil && apiErr.StatusCode == http.StatusTooManyRequests:
		r.out.RateLimit, r.stopped = apiErr, true
	case pagingErr != nil || malformed:
		r.problem(j, "the API's answer could not be used: "+err.Error())
	case err != nil:
		return err
	case info.Cache.Stale: // a stale copy stood in: the budget is spent
		r.out.RateLimit = info.Cache.RateLimit
	}
	at, source := r.k.clock.Now(), DailyRead
	if info.Cache.Hit {
		at, source = info.Cache.StoredAt, DailyCached
	}
	for i, c := range days {
		r.learn(j.m, j.from+i, c, source, at)
	}
	return nil
}

// readEvents counts e's events by the UTC day of stamp over j's days. A
// read the cap cuts short is wasted (no days); when it began with most of
// the cap, later calls read runs half as long.
func readEvents[Q PageQuery, P, R any](r *dailyRun, j dailyJob, e *PagedEndpoint[Q, P, R], q Q, stamp func(*R) *string) ([]Counts, ResponseInfo, error) {
	from, days := r.day(j.from), make([]Counts, j.to-j.from)
	var info ResponseInfo // the read's pages so far
	strays, whole := 0, 2*(r.q.MaxRequests-r.out.Requests) >= r.q.MaxRequests
	for page, err := range e.Pages(r.ctx, r.project, q) {
		if err != nil {
			return nil, info, err
		}
		info = info.combine(*infoOf(page))
		for _, row := range *e.spec.rows(page) {
			t, err := time.Parse(time.RFC3339Nano, *cmp.Or(stamp(&row), new(string))) // nil: no time
			if i := int(t.Sub(from) / oneDay); err != nil || t.Before(from) || i >= len(days) {
				strays++
			} else {
				days[i].Total++
			}
		}
		if more, _ := e.spec.more(page); more && r.out.Requests+info.Attempts >= r.q.MaxRequests {
			switch l := r.ledgers[j.m]; {
			case whole && j.to-j.from > 1:
				l.Split, l.changed = (j.to-j.from)/2, true
			case whole:
				r.problem(j, fmt.Sprintf("the day's events take more than %d requests (MaxRequests) to list", r.q.MaxRequests))
			}
			return nil, info, nil
		}
	}
	if strays > 0 {
		r.problem(j, fmt.Sprintf("%d of the listed events are outside the days asked for, or have no readable time", strays))
		return nil, info, nil
	}
	return days, info, nil
}

// learn shows day i's value c of m, unless known, from source as read at
// at; a value read settled is kept.
func (r *dailyRun) learn(m DailyMetric, i int, c Counts, source DailySource, at time.Time) {
	l, p := r.ledgers[m], &r.out.Points[i]
	if l.known[i] {
		return
	}
	settled := r.settledRead(i, at)
	dailySet[m](p, c)
	l.known[i], p.Partial = true, p.Partial || !settled
	if order := []DailySource{DailyMissing, DailyKept, DailyCached, DailyRead}; slices.Index(order, source) > slices.Index(order, p.Source) {
		p.Source = source
	}
	if settled && source != DailyKept {
		l.Days[p.Date], l.changed = ledgerDay{Counts: c, At: at}, true
	}
}

// settledRead says whether day i's value read at at is settled: read Settle
// after the day ended, and not in the future, give or take a ClockSkew.
func (r *dailyRun) settledRead(i int, at time.Time) bool {
	settled := r.day(i).Add(oneDay + r.q.Settle - analyticscache.ClockSkew)
	return !at.Before(settled) && !at.After(r.k.clock.Now().Add(analyticscache.ClockSkew))
}

// problem says what of j's answer was not used, on each day not known.
func (r *dailyRun) problem(j dailyJob, what string) {
	for i := j.from; i < j.to; i++ {
		if !r.ledgers[j.m].known[i] {
			r.out.Problems = append(r.out.Problems, DailyProblem{Date: r.date(i), Metric: j.m, Problem: what})
		}
	}
}

// day is the window's day i (len(Points): the day after), date its name.
func (r *dailyRun) day(i int) time.Time { return r.from.AddDate(0, 0, i) }
func (r *dailyRun) date(i int) string   { return r.day(i).Format(time.DateOnly) }

// dailyLedger is the history of a project's metric: a sealed record of
// kind dailyKind in the analytics cache, named apart from its entries
// (which eviction removes), read as none past maxLedgerBytes (decades of
// days). It holds the settled days, and the longest run of days a listing
// is read in since one the cap cut short (0: any); in a call, its key and
// name, and the days known.
type dailyLedger struct {
	Days      map[string]ledgerDay `json:"days"`
	Split     int                  `json:"split,omitempty"`
	key, name string
	known     []bool
	changed   bool
}

const dailyKind, maxLedgerBytes = "daily", 1 << 20

// ledgerDay is a settled day: its counts, and when they were read.
type ledgerDay struct {
	Counts
	At time.Time `json:"at"`
}

// loadLedger reads m's ledger: one not sealed with this API key, or about
// another project or metric, is none.
func (r *dailyRun) loadLedger(m DailyMetric) *dailyLedger {
	l := &dailyLedger{key: "daily\x00" + r.k.baseURL.String() + "\x00" + r.project + "\x00" + string(m), known: make([]bool, len(r.out.Points))}
	if r.k.cache != nil {
		l.name = "daily-" + r.k.cache.EntryName(l.key)
		rec, ok := r.k.cache.Load(r.ctx, l.name, dailyKind, l.key, r.k.clock.Now(), maxLedgerBytes)
		if ok && len(rec.Pages) == 1 && json.Unmarshal(rec.Pages[0].Value, l) == nil && l.Days != nil && l.Split >= 0 {
			return l
		}
	}
	l.Days, l.Split = map[string]ledgerDay{}, 0
	return l
}
