package sdk

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
)

// DailyMetric names a series Analytics.Daily reads, one point a day.
type DailyMetric string

// The daily series. Days are UTC days.
const (
	// DailyViews is page views: events, human, AI and total (human + ai).
	// A week's views are its days' added up.
	DailyViews DailyMetric = "views"
	// DailyVisitors is the day's unique visitors, human, AI and total
	// (deduplicated across the two). Never add days up: a visitor who
	// comes back on two days is one visitor of the week. A range's
	// uniques are Analytics.Visitors' totals for the range.
	DailyVisitors DailyMetric = "visitors"
	// DailySearches is search events: every term's hits, added up.
	DailySearches DailyMetric = "searches"
	// DailyFeedback and DailyConversations count feedback entries and
	// assistant conversations by the UTC day of their createdAt and
	// timestamp, from the listing's pages (not a request a day).
	DailyFeedback      DailyMetric = "feedback"
	DailyConversations DailyMetric = "conversations"
)

// DailyMetrics lists the series, for validation and documentation.
var DailyMetrics = []DailyMetric{DailyViews, DailyVisitors, DailySearches, DailyFeedback, DailyConversations}

const (
	// DefaultDailySettle is how long after a day ends its numbers may
	// still grow, as late events arrive: until then a day is partial,
	// re-read at most once per cache lifetime and never kept.
	DefaultDailySettle = 48 * time.Hour
	// DefaultDailyMaxRequests caps the requests of one Daily call: a
	// fifth of the organization's hourly analytics budget.
	DefaultDailyMaxRequests = 20
	// MaxDailyDays is the longest window: a leap year.
	MaxDailyDays = 366
	// MinDailySettle is the shortest DailyQuery.Settle.
	MinDailySettle = time.Hour
	// MaxDailySettle is the longest DailyQuery.Settle: a month.
	MaxDailySettle = 31 * 24 * time.Hour
)

// DailyQuery selects a daily series.
type DailyQuery struct {
	// DateFrom and DateTo are UTC days, YYYY-MM-DD; DateTo is exclusive
	// and at most tomorrow (the window ends today at the latest: today is
	// partial). At most MaxDailyDays days.
	DateFrom, DateTo string
	// Metrics are the series to read, at least one.
	Metrics []DailyMetric
	// Settle is how long after a day ends it may still change (late
	// events); 0 means DefaultDailySettle.
	Settle time.Duration
	// MaxRequests caps the requests this call sends; 0 means
	// DefaultDailyMaxRequests. Days it leaves unread are Missing.
	MaxRequests int
}

// Validate checks the query, but for DateTo's bound, which needs the
// client's clock: Daily checks that too, before any request.
func (q DailyQuery) Validate() error {
	from, errFrom := dailyDate("dateFrom", q.DateFrom)
	to, errTo := dailyDate("dateTo", q.DateTo)
	switch days := int(to.Sub(from) / (24 * time.Hour)); {
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
		return &ValidationError{Field: "maxRequests", Value: strconv.Itoa(q.MaxRequests), Rule: "must be 0 (the default) or more"}
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

// DailySource says where a day's value came from.
type DailySource string

// Where a day's values came from, most trusted first.
const (
	// DailyKept: a settled day from the history in the analytics cache,
	// with no request.
	DailyKept DailySource = "kept"
	// DailyCached: an answer the cache held (read within its lifetime,
	// or a stale copy while the budget is spent), with no request.
	DailyCached DailySource = "cached"
	// DailyRead: read from the API by this call.
	DailyRead DailySource = "read"
	// DailyMissing: not read yet (see DailySeries.Missing).
	DailyMissing DailySource = "missing"
)

// DailyPoint is one day of a series. A metric not asked for, or not known
// yet, is nil.
type DailyPoint struct {
	Date          string  `json:"date"`
	Views         *Counts `json:"views,omitempty"`
	Visitors      *Counts `json:"visitors,omitempty"`
	Searches      *int64  `json:"searches,omitempty"`
	Feedback      *int64  `json:"feedback,omitempty"`
	Conversations *int64  `json:"conversations,omitempty"`
	// Partial is set while a value may still grow: today, and the days
	// within Settle of their end (or read then).
	Partial bool `json:"partial"`
	// Source is where the day's values came from: the least settled of
	// its metrics (read, then cached, then kept).
	Source DailySource `json:"source"`
}

// DailyProblem is a day's answer the SDK would not use: it is neither
// shown nor kept, and the day is read again by a later call.
type DailyProblem struct {
	Date    string      `json:"date"`
	Metric  DailyMetric `json:"metric"`
	Problem string      `json:"problem"`
}

// DailySeries is a daily series, one point a day of the window.
type DailySeries struct {
	// Points are the window's days, oldest first.
	Points []DailyPoint `json:"points"`
	// Missing are the days (oldest first) of which a metric is not known:
	// the call's requests ran out (MaxRequests), the budget is spent
	// (RateLimit), or an answer had a problem (Problems).
	Missing  []string       `json:"missing"`
	Problems []DailyProblem `json:"problems"`
	// Requests is how many requests the call sent, retries included;
	// MaxRequests the cap it ran under.
	Requests, MaxRequests int
	// Left is how many requests the missing days still need, at least.
	Left int
	// Kept is false when the client has no analytics cache: nothing was
	// kept, and every call reads the window again.
	Kept bool
	// RateLimit is set when the organization's analytics budget was
	// spent: the API refused a request, or none was sent because the
	// budget was known to be spent (NotSent). RetryAt says when it frees
	// up; kept days were served all the same.
	RateLimit *APIError `json:"-"`
}

// Daily reads a daily series of a project: one request per metric per
// day for views, visitors and searches (totals only: the smallest page),
// and the listing's pages for feedback and conversations, at most
// q.MaxRequests in all, the newest days first.
//
// A day read at least Settle after it ended is kept for good in the
// analytics cache (WithAnalyticsCache: one sealed record per project and
// metric, in its directory or bucket) and never requested again; later
// days go through the cache's entries (re-read once per FreshFor) and are
// Partial. Without a cache nothing is kept. An answer the SDK will not use
// (malformed, a negative count, an event outside the days asked for) is a
// Problem, neither shown nor kept. While the budget is spent, kept days
// are served and nothing is sent.
//
// The error is an invalid query, before any request (DateTo after
// tomorrow on the client's clock too), or a request that failed for
// another reason than the budget or a day's answer: the series read so
// far comes with it.
func (s *AnalyticsService) Daily(ctx context.Context, projectID string, q DailyQuery) (*DailySeries, error) {
	var tooLate error
	if s.core != nil {
		tomorrow := s.core.clock.Now().Add(analyticscache.ClockSkew).UTC().AddDate(0, 0, 1)
		if to, err := time.Parse(time.DateOnly, q.DateTo); err == nil && to.After(tomorrow) {
			tooLate = &ValidationError{Field: "dateTo", Value: q.DateTo, Rule: "is in the future: it may be at most tomorrow, " + tomorrow.Format(time.DateOnly) + " (UTC; dateTo is exclusive)"}
		}
	}
	k, err := checked(s.core, ValidateProjectID(projectID), q.Validate(), tooLate)
	if err != nil {
		return nil, err
	}
	q.Settle, q.MaxRequests = cmp.Or(q.Settle, DefaultDailySettle), cmp.Or(q.MaxRequests, DefaultDailyMaxRequests)
	r := &dailyRun{s: s, k: k, ctx: ctx, project: projectID, q: q, known: map[DailyMetric][]*dailyValue{}, ledgers: map[DailyMetric]*dailyLedger{},
		out: &DailySeries{MaxRequests: q.MaxRequests, Missing: []string{}, Problems: []DailyProblem{}}}
	if k.cache != nil {
		r.cache, r.out.Kept = k.cache.Cache, true
	}
	from, _ := time.Parse(time.DateOnly, q.DateFrom)
	to, _ := time.Parse(time.DateOnly, q.DateTo)
	for d := from; d.Before(to); d = d.AddDate(0, 0, 1) {
		r.days = append(r.days, d)
	}
	err = r.fill()
	return r.series(), err
}

// dailyRun is one Daily call.
type dailyRun struct {
	s       *AnalyticsService
	k       *core
	ctx     context.Context
	project string
	q       DailyQuery
	cache   *analyticscache.Cache // nil: nothing is kept
	days    []time.Time
	known   map[DailyMetric][]*dailyValue // by day; nil: not known
	ledgers map[DailyMetric]*dailyLedger
	out     *DailySeries
	stopped bool // the budget is spent: nothing more is asked
}

type dailyValue struct {
	counts  Counts
	source  DailySource
	partial bool
}

// dailyJob reads metric m on the days [from, to) (indexes of r.days).
type dailyJob struct {
	m        DailyMetric
	from, to int
}

// events says whether m is counted from a listing's events.
func events(m DailyMetric) bool { return m == DailyFeedback || m == DailyConversations }

// fill reads what is not kept, newest days first, within the cap, and
// keeps what settled.
func (r *dailyRun) fill() error {
	var jobs []dailyJob
	for _, m := range r.q.Metrics {
		l := r.loadLedger(m)
		r.ledgers[m], r.known[m] = l, make([]*dailyValue, len(r.days))
		for i := len(r.days) - 1; i >= 0; i-- {
			if day, ok := l.Days[r.date(i)]; ok && r.settledRead(i, day.At) {
				r.known[m][i] = &dailyValue{counts: day.Counts, source: DailyKept}
				continue
			}
			// A day a request; for a listing, runs of at most Split days.
			if last := len(jobs) - 1; events(m) && last >= 0 && jobs[last].m == m && (l.Split == 0 || jobs[last].to-i <= l.Split) {
				jobs[last].from = i
			} else {
				jobs = append(jobs, dailyJob{m: m, from: i, to: i + 1})
			}
		}
	}
	// The newest days first, the metrics in the order asked.
	slices.SortStableFunc(jobs, func(a, b dailyJob) int { return b.to - a.to })
	var err error
	for _, j := range jobs {
		if err != nil || r.stopped || r.out.Requests >= r.q.MaxRequests {
			break
		}
		err = r.read(j)
	}
	for m, l := range r.ledgers {
		if l.changed && r.cache != nil {
			r.saveLedger(m, l)
		}
	}
	return err
}

// read runs one job: a rate limit ends the fill (RateLimit), an answer the
// SDK will not use is a problem of its days, any other failure the call's
// error.
func (r *dailyRun) read(j dailyJob) error {
	var err error
	var info ResponseInfo // of a day's totals
	q := VisitorsQuery{DateFrom: r.date(j.from), DateTo: r.date(j.to), Limit: 1}
	switch j.m {
	case DailyFeedback:
		err = readEvents(r, j, r.s.Feedback, FeedbackQuery{DateFrom: q.DateFrom, DateTo: q.DateTo}, func(p *FeedbackPage) ([]*string, bool, ResponseInfo) {
			stamps := make([]*string, len(p.Feedback))
			for i := range p.Feedback {
				stamps[i] = p.Feedback[i].CreatedAt
			}
			return stamps, p.HasMore, p.ResponseInfo
		})
	case DailyConversations:
		err = readEvents(r, j, r.s.Conversations, ConversationsQuery{DateFrom: q.DateFrom, DateTo: q.DateTo}, func(p *ConversationsPage) ([]*string, bool, ResponseInfo) {
			stamps := make([]*string, len(p.Conversations))
			for i := range p.Conversations {
				stamps[i] = &p.Conversations[i].Timestamp
			}
			return stamps, p.HasMore, p.ResponseInfo
		})
	case DailySearches:
		var p *SearchesPage
		if p, err = r.s.Searches.Page(r.ctx, r.project, SearchesQuery{DateFrom: q.DateFrom, DateTo: q.DateTo, Limit: 1}); err == nil {
			info = p.ResponseInfo
			r.learn(j.m, j.from, Counts{Total: p.TotalSearches}, info)
		}
	default:
		ep := map[DailyMetric]*PagedEndpoint[VisitorsQuery, PathCountsPage, PathCounts]{DailyViews: r.s.Views, DailyVisitors: r.s.Visitors}[j.m]
		var p *PathCountsPage
		if p, err = ep.Page(r.ctx, r.project, q); err == nil {
			info = p.ResponseInfo
			r.learn(j.m, j.from, p.Totals, info)
		}
	}
	if !events(j.m) {
		r.spent(info, err)
	}
	var apiErr *APIError
	switch {
	case errors.As(err, &apiErr) && apiErr.StatusCode == 429:
		r.out.RateLimit, r.stopped = apiErr, true
	case errors.As(err, new(*MalformedResponseError)) || errors.As(err, new(*PagingError)):
		r.problem(j, "the API's answer could not be used: "+err.Error())
	case err != nil:
		return err
	}
	return nil
}

// readEvents counts a listing's events by UTC day over the days of j;
// stamps gives a page's events' times, whether more pages follow, and how
// the page arrived. A read the cap cuts short is wasted, and the next
// call reads runs half as long (the ledger's Split).
func readEvents[Q PageQuery, P, R any](r *dailyRun, j dailyJob, e *PagedEndpoint[Q, P, R], q Q, stamps func(*P) ([]*string, bool, ResponseInfo)) error {
	from, perDay := r.days[j.from], make([]int64, j.to-j.from)
	var info ResponseInfo
	strays, whole := 0, 2*(r.q.MaxRequests-r.out.Requests) >= r.q.MaxRequests
	for page, err := range e.Pages(r.ctx, r.project, q) {
		if pe := (*PagingError)(nil); errors.As(err, &pe) {
			info.Attempts = pe.Requests - info.Attempts // the read's requests not counted yet
		}
		if err != nil {
			r.spent(info, err)
			return err
		}
		times, more, pi := stamps(page)
		r.spent(pi, nil)
		info = info.combine(pi)
		for _, s := range times {
			day := -1
			if t, err := time.Parse(time.RFC3339Nano, deref(s)); err == nil && !t.Before(from) {
				day = int(t.Sub(from) / (24 * time.Hour))
			}
			if day < 0 || day >= len(perDay) {
				strays++
				continue
			}
			perDay[day]++
		}
		if more && r.out.Requests >= r.q.MaxRequests {
			switch l := r.ledgers[j.m]; { // cut short though it began with most of the cap: too long
			case whole && j.to-j.from > 1:
				l.Split, l.changed = (j.to-j.from)/2, true
			case whole:
				r.problem(j, fmt.Sprintf("the day's events take more than %d requests (MaxRequests) to list", r.q.MaxRequests))
			}
			return nil
		}
	}
	if strays > 0 {
		r.problem(j, fmt.Sprintf("%d of the listed events are outside the days asked for, or have no readable time", strays))
		return nil
	}
	for i, n := range perDay {
		if r.known[j.m][j.from+i] == nil {
			r.learn(j.m, j.from+i, Counts{Total: n}, info)
		}
	}
	return nil
}

// spent counts the requests of an answer, or of a failed one (a malformed
// answer is one; info holds a paging error's).
func (r *dailyRun) spent(info ResponseInfo, err error) {
	var apiErr *APIError
	var reqErr *RequestError
	switch {
	case errors.As(err, &apiErr):
		r.out.Requests += apiErr.Attempts
	case errors.As(err, &reqErr) && reqErr.Sent:
		r.out.Requests += reqErr.Attempts
	case errors.As(err, new(*MalformedResponseError)):
		r.out.Requests++
	default:
		r.out.Requests += info.Attempts
	}
	if info.Cache.Stale {
		r.out.RateLimit = info.Cache.RateLimit // a stale copy stood in
	}
}

// learn records day i's value of m, as info says it arrived, and keeps it
// in the ledger when it was read settled.
func (r *dailyRun) learn(m DailyMetric, i int, c Counts, info ResponseInfo) {
	at, source := r.k.clock.Now(), DailyRead
	if info.Cache.Hit {
		at, source = info.Cache.StoredAt, DailyCached
	}
	settled := r.settledRead(i, at)
	r.known[m][i] = &dailyValue{counts: c, source: source, partial: !settled}
	if l := r.ledgers[m]; settled && r.cache != nil {
		l.Days[r.date(i)], l.changed = ledgerDay{Counts: c, At: at}, true
	}
}

// settledRead says whether a value of day i read at at is settled: read at
// least Settle after the day ended, and not in the future (a little skew
// between machines allowed).
func (r *dailyRun) settledRead(i int, at time.Time) bool {
	return !at.Before(r.days[i].Add(24*time.Hour+r.q.Settle-analyticscache.ClockSkew)) && !at.After(r.k.clock.Now().Add(analyticscache.ClockSkew))
}

// problem notes what of j's answer was not used, on each day not known.
func (r *dailyRun) problem(j dailyJob, what string) {
	for i := j.from; i < j.to; i++ {
		if r.known[j.m][i] == nil {
			r.out.Problems = append(r.out.Problems, DailyProblem{Date: r.date(i), Metric: j.m, Problem: what})
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// date is day i (or the day after the window, i = len(r.days)).
func (r *dailyRun) date(i int) string { return r.days[0].AddDate(0, 0, i).Format(time.DateOnly) }

// series is the window's points, the days missing, and the requests they
// still need: a day and metric each for totals, a run each for a listing.
func (r *dailyRun) series() *DailySeries {
	out := r.out
	slices.SortFunc(out.Problems, func(a, b DailyProblem) int { return cmp.Compare(a.Date, b.Date) })
	rank := map[DailySource]int{DailyKept: 1, DailyCached: 2, DailyRead: 3}
	for i := range r.days {
		p := DailyPoint{Date: r.date(i), Source: DailyMissing}
		missing := false
		for _, m := range r.q.Metrics {
			v := r.known[m][i]
			if v == nil {
				if missing = true; !events(m) || i == 0 || r.known[m][i-1] != nil {
					out.Left++
				}
				continue
			}
			c, total := v.counts, v.counts.Total
			switch m {
			case DailyViews:
				p.Views = &c
			case DailyVisitors:
				p.Visitors = &c
			case DailySearches:
				p.Searches = &total
			case DailyFeedback:
				p.Feedback = &total
			default:
				p.Conversations = &total
			}
			p.Partial = p.Partial || v.partial
			if rank[v.source] > rank[p.Source] {
				p.Source = v.source
			}
		}
		if missing {
			out.Missing = append(out.Missing, p.Date)
		}
		out.Points = append(out.Points, p)
	}
	return out
}

// The history: one ledger per project and metric in the analytics cache,
// a sealed record like the cache's others, named apart from its entries so
// that eviction never removes it.

const (
	dailyKind = "daily"
	// maxLedgerBytes bounds a ledger as read: at about 100 bytes a day,
	// decades of days (one past it is none, and written again).
	maxLedgerBytes = 1 << 20
)

// dailyLedger is the settled days of one project's metric.
type dailyLedger struct {
	Days map[string]ledgerDay `json:"days"`
	// Split is the longest run of days a listing is read in at once, after
	// a read the cap cut short (0: any).
	Split   int `json:"split,omitempty"`
	changed bool
}

// ledgerDay is a settled day: its counts, and when they were read.
type ledgerDay struct {
	Counts
	At time.Time `json:"at"`
}

// ledger is what m's ledger is about (the API, project and metric), and
// its name: apart from the entries', which eviction removes.
func (r *dailyRun) ledger(m DailyMetric) (key, name string) {
	key = "daily\x00" + r.k.baseURL.String() + "\x00" + r.project + "\x00" + string(m)
	return key, "daily-" + r.cache.EntryName(key)
}

// loadLedger reads m's ledger: a record that is not sealed with this API
// key, or is about another project or metric, is none; a day that could
// not have been settled (today or later, a negative count) is dropped.
func (r *dailyRun) loadLedger(m DailyMetric) *dailyLedger {
	l := &dailyLedger{Days: map[string]ledgerDay{}}
	if r.cache == nil {
		return l
	}
	key, name := r.ledger(m)
	rec, ok := r.cache.Load(r.ctx, name, dailyKind, key, r.k.clock.Now(), maxLedgerBytes)
	if !ok || len(rec.Pages) != 1 || json.Unmarshal(rec.Pages[0].Value, l) != nil || l.Split < 0 {
		return &dailyLedger{Days: map[string]ledgerDay{}}
	}
	today := r.k.clock.Now().UTC().Format(time.DateOnly)
	for date, d := range l.Days {
		if _, err := dailyDate("", date); err != nil || date >= today || d.Human < 0 || d.AI < 0 || d.Total < 0 {
			delete(l.Days, date)
		}
	}
	return l
}

// saveLedger merges l into m's ledger as stored now (another program may
// have kept other days meanwhile) and writes it back. Two programs that
// save at the same moment may lose one's new days: they are read again.
func (r *dailyRun) saveLedger(m DailyMetric, l *dailyLedger) {
	merged := r.loadLedger(m)
	for date, d := range l.Days {
		if old, ok := merged.Days[date]; !ok || d.At.After(old.At) {
			merged.Days[date] = d
		}
	}
	merged.Split = l.Split
	value, _ := json.Marshal(merged) // strings, numbers and times
	key, name := r.ledger(m)
	r.cache.Save(r.ctx, name, analyticscache.Record{Kind: dailyKind, Key: key, At: r.k.clock.Now(), Pages: []analyticscache.Page{{Query: "ledger", Value: value}}})
}
