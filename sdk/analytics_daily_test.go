package sdk

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/cachebucket"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// dailyData is a site around the test clock (epoch, 2026-11-21 12:00
// UTC): 400 days of data ending 2026-12-01, whose events arrive for two
// days after each day ends.
func dailyData() mintlifytest.Dataset {
	return mintlifytest.Dataset{Paths: 20, Seed: 11, SearchTerms: 30, Feedback: 3000, Conversations: 6000,
		End: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), Days: 400, LateEvents: 48 * time.Hour}
}

var totalsMetrics = []DailyMetric{DailyViews, DailyVisitors, DailySearches}

// daily reads q through a new client on dir (a new terraform command),
// and returns the series and the analytics requests the fake received.
func daily(t *testing.T, fs *mintlifytest.Fake, url string, clk *fakeClock, o CacheOptions, q DailyQuery) (*DailySeries, int) {
	t.Helper()
	before := fs.TotalRequests()
	c := newTestClient(t, url, clk, WithAnalyticsCache(o))
	s, err := c.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, q)
	if err != nil {
		t.Fatalf("Daily(%s..%s): %v", q.DateFrom, q.DateTo, err)
	}
	sent := fs.TotalRequests() - before
	if s.Requests != sent {
		t.Errorf("the series says %d requests, the fake received %d", s.Requests, sent)
	}
	return s, sent
}

// wantLikeFake checks every known value of s against what the fake serves
// for that day now.
func wantLikeFake(t *testing.T, fs *mintlifytest.Fake, s *DailySeries) {
	t.Helper()
	p := mintlifytest.DemoProjectID
	for _, pt := range s.Points {
		day, _ := time.Parse(time.DateOnly, pt.Date)
		q := mintlifytest.Query{DateFrom: pt.Date, DateTo: day.AddDate(0, 0, 1).Format(time.DateOnly)}
		views, _, _ := fs.ViewsData(p, q.DateFrom, q.DateTo)
		visitors, _, _ := fs.VisitorsData(p, q.DateFrom, q.DateTo)
		_, searches, _ := fs.SearchesData(p, q)
		feedback, _ := fs.FeedbackData(p, q)
		convs, _ := fs.ConversationsData(p, q)
		if v := pt.Views; v != nil && (v.Human != views.Human || v.AI != views.AI || v.Total != views.Total) {
			t.Errorf("%s: views %+v, the fake serves %+v", pt.Date, *v, views)
		}
		if v := pt.Visitors; v != nil && (v.Human != visitors.Human || v.AI != visitors.AI || v.Total != visitors.Total) {
			t.Errorf("%s: visitors %+v, the fake serves %+v", pt.Date, *v, visitors)
		}
		for _, c := range []struct {
			what string
			got  *int64
			want int64
		}{{"searches", pt.Searches, searches}, {"feedback", pt.Feedback, int64(len(feedback))}, {"conversations", pt.Conversations, int64(len(convs))}} {
			if c.got != nil && *c.got != c.want {
				t.Errorf("%s: %s %d, the fake serves %d", pt.Date, c.what, *c.got, c.want)
			}
		}
	}
}

// known lists the days of s whose every metric is known.
func known(s *DailySeries) []string {
	var out []string
	for _, p := range s.Points {
		if !slices.Contains(s.Missing, p.Date) {
			out = append(out, p.Date)
		}
	}
	return out
}

// A 30-day series of views, visitors and searches from an empty cache:
// each run sends at most the cap (20), the newest days first, the rest
// listed as missing, and the series is whole after five runs. Then: the
// same day, within the cache's lifetime, nothing; after it, the days still
// settling (two) are read again; on a new day, the new day, the days still
// settling and the day that settled since its last read, once each; a
// window that ends where days are settled costs one request per metric
// per new day.
func TestDaily_firstFillIsCappedNewestFirstThenOneRequestPerMetricPerNewDay(t *testing.T) {
	dir := t.TempDir()
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dailyData()})
	o := cacheOpts(dir)
	q := DailyQuery{DateFrom: "2026-10-22", DateTo: "2026-11-21", Metrics: totalsMetrics}
	var runs []int
	for {
		s, sent := daily(t, fs, c.BaseURL(), clk, o, q)
		wantLikeFake(t, fs, s)
		if sent > DefaultDailyMaxRequests || len(s.Points) != 30 {
			t.Fatalf("run %d: %d requests, %d points", len(runs)+1, sent, len(s.Points))
		}
		runs = append(runs, sent)
		if len(runs) == 1 {
			// The newest six days whole, and two metrics of the seventh.
			if got := known(s); !slices.Equal(got, []string{"2026-11-15", "2026-11-16", "2026-11-17", "2026-11-18", "2026-11-19", "2026-11-20"}) || len(s.Missing) != 24 || s.Left != 70 {
				t.Errorf("first run: known %v, %d missing, %d requests left", got, len(s.Missing), s.Left)
			}
			if p := s.Points[23]; p.Date != "2026-11-14" || p.Views == nil || p.Visitors == nil || p.Searches != nil || p.Source != DailyRead {
				t.Errorf("first run, 2026-11-14: %+v", p)
			}
			if p := s.Points[0]; p.Source != DailyMissing || p.Views != nil {
				t.Errorf("first run, the oldest day: %+v", p)
			}
		}
		if len(s.Missing) == 0 {
			if s.Left != 0 {
				t.Errorf("whole, yet %d requests left", s.Left)
			}
			for _, p := range s.Points {
				if settling := p.Date >= "2026-11-19"; p.Partial != settling || (p.Source == DailyKept && settling) {
					t.Errorf("%s: partial %v, source %s", p.Date, p.Partial, p.Source)
				}
			}
			break
		}
		if len(runs) > 6 {
			t.Fatalf("still missing %v after runs of %v", s.Missing, runs)
		}
	}
	if !slices.Equal(runs, []int{20, 20, 20, 20, 10}) {
		t.Errorf("the first fill's runs sent %v requests, want 20, 20, 20, 20, 10", runs)
	}
	s, sent := daily(t, fs, c.BaseURL(), clk, o, q)
	if sent != 0 || len(s.Missing) != 0 {
		t.Errorf("the same day, within the cache's lifetime: %d requests, %d missing", sent, len(s.Missing))
	}
	clk.Advance(11 * time.Minute)
	s, sent = daily(t, fs, c.BaseURL(), clk, o, q)
	wantLikeFake(t, fs, s)
	if sent != 2*3 {
		t.Errorf("past the cache's lifetime: %d requests, want 6 (two days still settling)", sent)
	}
	clk.Advance(24 * time.Hour)
	q.DateFrom, q.DateTo = "2026-10-23", "2026-11-22"
	s, sent = daily(t, fs, c.BaseURL(), clk, o, q)
	wantLikeFake(t, fs, s)
	if sent != 3*3 || len(s.Missing) != 0 {
		t.Errorf("a new day: %d requests, want 9 (the new day, one still settling, one settled since), %d missing", sent, len(s.Missing))
	}
	// Ending where days are settled (2026-11-19 settled at 2026-11-22
	// 00:00), one request per metric per new day.
	settledEdge := DailyQuery{DateFrom: "2026-10-23", DateTo: "2026-11-19", Metrics: totalsMetrics}
	if _, sent = daily(t, fs, c.BaseURL(), clk, o, settledEdge); sent != 0 {
		t.Errorf("settled days: %d requests", sent)
	}
	// Its own history (another cache), filled in one run on 2026-11-23;
	// the day after, one new day is settled.
	clk.Advance(24 * time.Hour)
	edge := cacheOpts(t.TempDir())
	settledEdge.DateFrom, settledEdge.DateTo, settledEdge.MaxRequests = "2026-10-24", "2026-11-21", 100
	if s, sent = daily(t, fs, c.BaseURL(), clk, edge, settledEdge); sent != 3*28 || len(s.Missing) != 0 {
		t.Fatalf("the settled edge's fill: %d requests, missing %v", sent, s.Missing)
	}
	clk.Advance(24 * time.Hour)
	settledEdge.DateFrom, settledEdge.DateTo = "2026-10-25", "2026-11-22"
	if s, sent = daily(t, fs, c.BaseURL(), clk, edge, settledEdge); sent != 3 {
		t.Errorf("a new settled day: %d requests, want 3", sent)
	}
	wantLikeFake(t, fs, s)
	for _, p := range s.Points {
		if p.Partial || p.Source != map[bool]DailySource{true: DailyRead, false: DailyKept}[p.Date == "2026-11-21"] {
			t.Errorf("%s: partial %v, source %s", p.Date, p.Partial, p.Source)
		}
	}
	clk.Advance(11 * time.Minute)
	if _, sent = daily(t, fs, c.BaseURL(), clk, edge, settledEdge); sent != 0 {
		t.Errorf("read again: %d requests", sent)
	}
}

// A day inside the settling window whose totals grow is read again once
// the cache's copy is old, and shows the new value; it is never kept:
// with the budget spent, a new process has only the settled days. Once
// settled, it is read once more, kept, and never requested again.
func TestDaily_aSettlingDayIsReadAgainAndNeverKeptUntilSettled(t *testing.T) {
	dir := t.TempDir()
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dailyData()})
	o := cacheOpts(dir)
	q := DailyQuery{DateFrom: "2026-11-17", DateTo: "2026-11-22", Metrics: []DailyMetric{DailyViews, DailyConversations}}
	first, _ := daily(t, fs, c.BaseURL(), clk, o, q)
	wantLikeFake(t, fs, first)
	clk.Advance(3 * time.Hour)
	second, sent := daily(t, fs, c.BaseURL(), clk, o, q)
	wantLikeFake(t, fs, second)
	// 2026-11-19, 20 and today: views a request a day, conversations one
	// listing for the three.
	if sent != 3+1 {
		t.Errorf("%d requests, want 4", sent)
	}
	for i := 2; i < 5; i++ {
		a, b := first.Points[i], second.Points[i]
		if !b.Partial || b.Source != DailyRead || b.Views.Total <= a.Views.Total || *b.Conversations < *a.Conversations {
			t.Errorf("%s: %+v then %+v", a.Date, a, b)
		}
	}
	// The budget spent: the cache's copies of the settling days stand in
	// (marked cached and partial); without them (MaxStale 0) only the kept
	// days are known: the settling days were never kept.
	fs.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
	clk.Advance(11 * time.Minute)
	spent, sent := daily(t, fs, c.BaseURL(), clk, o, q)
	if spent.RateLimit == nil || sent != 1 || len(spent.Missing) != 0 || spent.Points[4].Source != DailyCached || !spent.Points[4].Partial {
		t.Fatalf("budget spent: %v, %d requests, missing %v, today %+v", spent.RateLimit, sent, spent.Missing, spent.Points[4])
	}
	noCopies := o
	noCopies.MaxStale = 0
	if again, sent := daily(t, fs, c.BaseURL(), clk, noCopies, q); again.RateLimit == nil || !again.RateLimit.NotSent || sent != 0 ||
		!slices.Equal(known(again), []string{"2026-11-17", "2026-11-18"}) || again.Points[0].Source != DailyKept {
		t.Errorf("budget known spent: %+v, %d requests, known %v", again.RateLimit, sent, known(again))
	}
	fs.ClearFaults()
	clk.Advance(3 * 24 * time.Hour) // every day of q has settled
	settled, sent := daily(t, fs, c.BaseURL(), clk, o, q)
	wantLikeFake(t, fs, settled)
	if sent != 3+1 || len(settled.Missing) != 0 {
		t.Errorf("settled: %d requests, missing %v", sent, settled.Missing)
	}
	for _, p := range settled.Points {
		if p.Partial {
			t.Errorf("%s is still partial", p.Date)
		}
	}
	clk.Advance(30 * 24 * time.Hour)
	if kept, sent := daily(t, fs, c.BaseURL(), clk, o, q); sent != 0 || len(kept.Missing) != 0 {
		t.Errorf("a month later: %d requests, missing %v", sent, kept.Missing)
	}
}

// Feedback and conversations per day are the events of each UTC day, from
// the listing's pages: 30 days of conversations at 1,000 a page, and of
// feedback at 100, cost what their pages cost, not a request a day.
func TestDaily_eventsAreCountedByTheirUTCDayFromTheListingsPages(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dailyData()})
	q := DailyQuery{DateFrom: "2026-10-01", DateTo: "2026-10-31", Metrics: []DailyMetric{DailyFeedback, DailyConversations}}
	s, sent := daily(t, fs, c.BaseURL(), clk, cacheOpts(t.TempDir()), q)
	wantLikeFake(t, fs, s)
	feedback, _ := fs.FeedbackData(mintlifytest.DemoProjectID, mintlifytest.Query{DateFrom: q.DateFrom, DateTo: q.DateTo})
	convs, _ := fs.ConversationsData(mintlifytest.DemoProjectID, mintlifytest.Query{DateFrom: q.DateFrom, DateTo: q.DateTo})
	pages := (len(feedback)+99)/100 + (len(convs)+999)/1000
	if sent != pages || len(s.Missing) != 0 || pages >= 30 {
		t.Errorf("%d requests for %d feedback entries and %d conversations (%d pages), missing %v", sent, len(feedback), len(convs), pages, s.Missing)
	}
	var sum int64
	for _, p := range s.Points {
		sum += *p.Conversations
	}
	if sum != int64(len(convs)) {
		t.Errorf("the days add up to %d conversations, the range has %d", sum, len(convs))
	}
}

// A listing too long for the cap is read in runs of days half as long by
// the next call, the newest first, until it fits.
func TestDaily_aListingTooLongForTheCapIsSplit(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dailyData()})
	o := cacheOpts(t.TempDir())
	q := DailyQuery{DateFrom: "2026-01-01", DateTo: "2026-11-01", Metrics: []DailyMetric{DailyFeedback}, MaxRequests: 4}
	var runs []int
	var spans []string // the days each run's first read asked for
	for run := range 12 {
		before := len(fs.RequestsTo(mintlifytest.RouteAnalyticsFeedback))
		s, sent := daily(t, fs, c.BaseURL(), clk, o, q)
		if run == 0 && s.Left != 1 {
			t.Errorf("the first run: %d requests left, want at least 1 (one run of days)", s.Left)
		}
		wantLikeFake(t, fs, s)
		first, _ := url.ParseQuery(fs.RequestsTo(mintlifytest.RouteAnalyticsFeedback)[before].Query)
		spans = append(spans, first.Get("dateFrom")+".."+first.Get("dateTo"))
		runs = append(runs, sent)
		if sent > q.MaxRequests {
			t.Fatalf("runs sent %v requests, cap %d", runs, q.MaxRequests)
		}
		if len(s.Missing) == 0 {
			break
		}
	}
	// 304 days, then the newest 152, 76, 38: fits (about 7.5 entries a
	// day, 100 a page); then runs of 38 days, older and older. A run that
	// begins with less than half the cap left and is cut is not halved.
	want := []string{"2026-01-01..2026-11-01", "2026-06-02..2026-11-01", "2026-08-17..2026-11-01", "2026-09-24..2026-11-01", "2026-08-17..2026-09-24", "2026-07-10..2026-08-17"}
	if len(spans) < len(want) || !slices.Equal(spans[:len(want)], want) {
		t.Errorf("the runs' first reads asked for %v, want %v first", spans, want)
	}
	if len(spans) > 11 {
		t.Errorf("not whole after runs of %v requests", runs)
	}
}

// A day whose events take more pages than the cap can never be read:
// it is a problem that says so, and the runs are not split below a day.
func TestDaily_aDayTooLongForTheCapIsAProblem(t *testing.T) {
	data := dailyData()
	data.Feedback = 100_000 // 250 a day: three pages
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: data})
	o := cacheOpts(t.TempDir())
	q := DailyQuery{DateFrom: "2026-10-01", DateTo: "2026-10-05", Metrics: []DailyMetric{DailyFeedback}, MaxRequests: 2}
	var spans []string
	var last *DailySeries
	for range 4 {
		before := len(fs.RequestsTo(mintlifytest.RouteAnalyticsFeedback))
		last, _ = daily(t, fs, c.BaseURL(), clk, o, q)
		first, _ := url.ParseQuery(fs.RequestsTo(mintlifytest.RouteAnalyticsFeedback)[before].Query)
		spans = append(spans, first.Get("dateFrom")+".."+first.Get("dateTo"))
	}
	if want := []string{"2026-10-01..2026-10-05", "2026-10-03..2026-10-05", "2026-10-04..2026-10-05", "2026-10-04..2026-10-05"}; !slices.Equal(spans, want) {
		t.Errorf("runs read %v, want %v", spans, want)
	}
	if len(last.Problems) != 1 || last.Problems[0].Date != "2026-10-04" || !strings.Contains(last.Problems[0].Problem, "more than 2 requests (MaxRequests)") {
		t.Errorf("problems %+v", last.Problems)
	}
}

// A day is settled Settle after it ends, on the reader's clock, give or
// take the skew between machines (a minute): read 2 minutes before, it is
// partial and not kept; 30 seconds before, settled.
func TestDaily_aDaySettlesSettleAfterItEnds(t *testing.T) {
	for _, tt := range []struct {
		before  time.Duration
		partial bool
	}{{2 * time.Minute, true}, {30 * time.Second, false}} {
		fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dailyData()})
		// 2026-11-19 ends 2026-11-20 00:00, settles 2026-11-22 00:00.
		clk.Advance(time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC).Add(-tt.before).Sub(clk.Now()))
		o := cacheOpts(t.TempDir())
		q := DailyQuery{DateFrom: "2026-11-19", DateTo: "2026-11-20", Metrics: []DailyMetric{DailyViews}}
		if s, _ := daily(t, fs, c.BaseURL(), clk, o, q); s.Points[0].Partial != tt.partial {
			t.Errorf("read %s before: %+v", tt.before, s.Points[0])
		}
		clk.Advance(11 * time.Minute)
		if _, sent := daily(t, fs, c.BaseURL(), clk, o, q); sent != map[bool]int{true: 1, false: 0}[tt.partial] {
			t.Errorf("read %s before, then again: %d requests", tt.before, sent)
		}
	}
}

// Bad input is refused before any request.
func TestDaily_badInputIsRefusedBeforeAnyRequest(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dailyData()})
	ok := DailyQuery{DateFrom: "2026-11-01", DateTo: "2026-11-22", Metrics: []DailyMetric{DailyViews}}
	for field, q := range map[string]DailyQuery{
		"dateFrom":    {DateFrom: "2026-11-01T00:00:00Z", DateTo: ok.DateTo, Metrics: ok.Metrics},
		"dateTo":      {DateFrom: ok.DateFrom, DateTo: "2026-11-01", Metrics: ok.Metrics},
		"metrics":     {DateFrom: ok.DateFrom, DateTo: ok.DateTo},
		"settle":      {DateFrom: ok.DateFrom, DateTo: ok.DateTo, Metrics: ok.Metrics, Settle: time.Minute},
		"maxRequests": {DateFrom: ok.DateFrom, DateTo: ok.DateTo, Metrics: ok.Metrics, MaxRequests: -1},
	} {
		_, err := c.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, q)
		if ve := (*ValidationError)(nil); !errors.As(err, &ve) || ve.Field != field {
			t.Errorf("%s: %v", field, err)
		}
	}
	for what, q := range map[string]DailyQuery{
		"367 days":             {DateFrom: "2025-11-20", DateTo: "2026-11-22", Metrics: ok.Metrics},
		"the day after":        {DateFrom: ok.DateFrom, DateTo: "2026-11-23", Metrics: ok.Metrics},
		"an unknown metric":    {DateFrom: ok.DateFrom, DateTo: ok.DateTo, Metrics: []DailyMetric{"pageviews"}},
		"a metric twice":       {DateFrom: ok.DateFrom, DateTo: ok.DateTo, Metrics: []DailyMetric{DailyViews, DailyViews}},
		"a month of 31 days":   {DateFrom: "2026-02-31", DateTo: ok.DateTo, Metrics: ok.Metrics},
		"a settling of a year": {DateFrom: ok.DateFrom, DateTo: ok.DateTo, Metrics: ok.Metrics, Settle: 365 * 24 * time.Hour},
	} {
		if _, err := c.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, q); !errors.As(err, new(*ValidationError)) {
			t.Errorf("%s: %v", what, err)
		}
	}
	if _, err := (&AnalyticsService{}).Daily(context.Background(), mintlifytest.DemoProjectID, ok); !errors.Is(err, ErrNotConfigured) {
		t.Errorf("a zero client: %v", err)
	}
	wantNoRequests := func(why string) {
		t.Helper()
		if n := fs.TotalRequests(); n != 0 {
			t.Errorf("%d requests %s", n, why)
		}
	}
	wantNoRequests("for refused queries")
	// Tomorrow is the latest end (today partial); a clock a little behind
	// at midnight accepts the end another machine, already past it, sets.
	clk.Advance(11*time.Hour + 59*time.Minute + 30*time.Second) // 2026-11-21 23:59:30
	for _, to := range []string{"2026-11-22", "2026-11-23"} {
		if _, err := c.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, DailyQuery{DateFrom: "2026-11-21", DateTo: to, Metrics: ok.Metrics}); err != nil {
			t.Errorf("dateTo %s at 23:59:30: %v", to, err)
		}
	}
	if _, err := c.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, DailyQuery{DateFrom: "2026-11-21", DateTo: "2026-11-24", Metrics: ok.Metrics}); err == nil {
		t.Error("dateTo 2026-11-24 at 23:59:30 accepted")
	}
}

// A hostile server's answers are problems of their days: neither shown
// nor kept, read again later. A negative count; events outside the days
// asked for, or without a readable time.
func TestDaily_hostileAnswersAreProblemsNeverPoints(t *testing.T) {
	for name, f := range map[string]mintlifytest.Fault{
		"a negative total": {Route: mintlifytest.RouteAnalyticsViews, Kind: mintlifytest.FaultMalformed, Requests: []int{2},
			Body: `{"totals":{"human":-5,"ai":0,"total":-5},"views":[],"hasMore":false}`},
		"a negative human count": {Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultMalformed, Requests: []int{2},
			Body: `{"totals":{"human":-1,"ai":3,"total":3},"visitors":[],"hasMore":false}`},
		"an event of another day": {Route: mintlifytest.RouteAnalyticsConversations, Kind: mintlifytest.FaultMalformed, Requests: []int{1},
			Body: `{"conversations":[{"id":"01JF00000000000000000000AA","timestamp":"2020-01-01T10:00:00.000Z","query":"q","response":"r","sources":[],"resolutionStatus":"answered","queryCategory":null,"pageUrl":null}],"nextCursor":null,"hasMore":false}`},
		"an event of the day after": {Route: mintlifytest.RouteAnalyticsConversations, Kind: mintlifytest.FaultMalformed, Requests: []int{1},
			Body: `{"conversations":[{"id":"01JF00000000000000000000AA","timestamp":"2026-11-15T00:00:00.000Z","query":"q","response":"r","sources":[],"resolutionStatus":"answered","queryCategory":null,"pageUrl":null}],"nextCursor":null,"hasMore":false}`},
		"an event at no time": {Route: mintlifytest.RouteAnalyticsFeedback, Kind: mintlifytest.FaultMalformed, Requests: []int{1},
			Body: `{"feedback":[{"id":"fb1","path":"/","comment":null,"createdAt":"yesterday","source":"agent","status":"pending"}],"nextCursor":null,"hasMore":false}`},
		"a mistyped total": {Route: mintlifytest.RouteAnalyticsSearches, Kind: mintlifytest.FaultMalformed, Requests: []int{1},
			Body: `{"searches":[],"totalSearches":"many","nextCursor":null}`},
	} {
		t.Run(name, func(t *testing.T) {
			fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dailyData()})
			o := cacheOpts(t.TempDir())
			q := DailyQuery{DateFrom: "2026-11-10", DateTo: "2026-11-15", Metrics: DailyMetrics}
			fs.InjectFault(f)
			s, _ := daily(t, fs, c.BaseURL(), clk, o, q)
			wantLikeFake(t, fs, s)
			if len(s.Problems) == 0 || len(s.Missing) == 0 || s.RateLimit != nil {
				t.Fatalf("problems %v, missing %v", s.Problems, s.Missing)
			}
			for _, p := range s.Problems {
				if !slices.Contains(s.Missing, p.Date) || strings.ContainsAny(p.Problem, "\x1b\n") {
					t.Errorf("problem %+v, missing %v", p, s.Missing)
				}
			}
			// Once the cache's copy of the answer is old, read again,
			// right, and kept; then never again.
			clk.Advance(11 * time.Minute)
			again, sent := daily(t, fs, c.BaseURL(), clk, o, q)
			wantLikeFake(t, fs, again)
			if len(again.Missing) != 0 || len(again.Problems) != 0 || sent == 0 {
				t.Errorf("read again: %d requests, missing %v, problems %v", sent, again.Missing, again.Problems)
			}
			if _, sent := daily(t, fs, c.BaseURL(), clk, o, q); sent != 0 {
				t.Errorf("kept: %d requests", sent)
			}
		})
	}
}

// A listing that breaks off after its first page (more, and no cursor)
// is a paging error: a problem of its days, its two requests counted, and
// read whole once the cache's copy is old. A connection broken on every
// try of a day's totals ends the call with its error, the tries counted;
// tries that reach no server, none.
func TestDaily_aBrokenReadIsCountedInFull(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dailyData()})
	o := cacheOpts(t.TempDir())
	q := DailyQuery{DateFrom: "2026-10-01", DateTo: "2026-10-31", Metrics: []DailyMetric{DailyFeedback}}
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsFeedback, Kind: mintlifytest.FaultMalformed, Requests: []int{2},
		Body: `{"feedback":[],"nextCursor":null,"hasMore":true}`})
	s, sent := daily(t, fs, c.BaseURL(), clk, o, q)
	if sent != 2 || len(s.Missing) != 30 || len(s.Problems) != 30 || !strings.Contains(s.Problems[0].Problem, "could not be used") {
		t.Errorf("a listing broken off: %d requests, %d missing, problems %v", sent, len(s.Missing), s.Problems)
	}
	clk.Advance(11 * time.Minute)
	if s, _ = daily(t, fs, c.BaseURL(), clk, o, q); len(s.Missing) != 0 || len(s.Problems) != 0 {
		t.Errorf("read again: missing %v, problems %v", s.Missing, s.Problems)
	}
	wantLikeFake(t, fs, s)

	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsViews, Kind: mintlifytest.FaultReset})
	before := fs.TotalRequests()
	s, err := c.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, DailyQuery{DateFrom: "2026-11-01", DateTo: "2026-11-08", Metrics: []DailyMetric{DailyViews}})
	if !errors.As(err, new(*RequestError)) || s == nil || s.Requests != fs.TotalRequests()-before || s.Requests < 2 {
		t.Errorf("broken connections: %v, %+v; the fake received %d", err, s, fs.TotalRequests()-before)
	}
	// Nothing listens: tries that never reached a server cost nothing.
	down := newTestClient(t, "http://127.0.0.1:1", clk)
	if s, err = down.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, q); !errors.As(err, new(*RequestError)) || s.Requests != 0 {
		t.Errorf("no server: %v, %d requests", err, s.Requests)
	}
}

// ledgerFile is where a directory cache keeps a project's metric's history.
func ledgerFile(dir, key, base, project string, m DailyMetric) string {
	c := analyticscache.New(nil, key)
	return filepath.Join(dir, "daily-"+c.EntryName("daily\x00"+base+"\x00"+project+"\x00"+string(m)))
}

// A history is trusted only when sealed with the API key and about this
// project and metric: one tampered with, copied from another project or
// written with another key is none, and its days are read again.
func TestDaily_aLedgerTamperedWithOrOfAnotherKeyIsNone(t *testing.T) {
	dir := t.TempDir()
	cfg := mintlifytest.Config{Analytics: dailyData()}
	fs, c, clk := newFake(t, cfg)
	fs.AddProject("other-project", mintlifytest.DemoOrg, dailyData())
	o := cacheOpts(dir)
	q := DailyQuery{DateFrom: "2026-11-01", DateTo: "2026-11-08", Metrics: []DailyMetric{DailyViews}}
	if s, sent := daily(t, fs, c.BaseURL(), clk, o, q); sent != 7 || len(s.Missing) != 0 {
		t.Fatalf("fill: %d requests, missing %v", sent, s.Missing)
	}
	file := ledgerFile(dir, mintlifytest.DemoAPIKey, c.BaseURL(), mintlifytest.DemoProjectID, DailyViews)
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	other := newTestClient(t, c.BaseURL(), clk, WithAnalyticsCache(o))
	if _, err := other.Analytics.Daily(context.Background(), "other-project", q); err != nil {
		t.Fatal(err)
	}
	otherLedger, _ := os.ReadFile(ledgerFile(dir, mintlifytest.DemoAPIKey, c.BaseURL(), "other-project", DailyViews))
	fs.AddKey("mint_another_key", mintlifytest.DemoOrg, false)
	thief := newKeyedClient(t, "mint_another_key", c.BaseURL(), clk, WithAnalyticsCache(o))
	if _, err := thief.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, q); err != nil {
		t.Fatal(err)
	}
	anotherKey, _ := os.ReadFile(ledgerFile(dir, "mint_another_key", c.BaseURL(), mintlifytest.DemoProjectID, DailyViews))
	for name, data := range map[string][]byte{
		"a count changed":    []byte(strings.Replace(string(good), `"total":`, `"total":1`, 1)),
		"another project's":  otherLedger,
		"another key's":      anotherKey,
		"cut short":          good[:len(good)/2],
		"a link to the good": nil,
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.Remove(file); err != nil {
				t.Fatal(err)
			}
			if data == nil {
				keep := filepath.Join(t.TempDir(), "good")
				if err := os.WriteFile(keep, good, 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(keep, file); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(file, data, 0o600); err != nil {
				t.Fatal(err)
			}
			clk.Advance(11 * time.Minute) // the cache's copies of the days' answers are old
			s, sent := daily(t, fs, c.BaseURL(), clk, o, q)
			wantLikeFake(t, fs, s)
			if sent != 7 {
				t.Errorf("%d requests, want 7 (nothing trusted)", sent)
			}
			if _, sent := daily(t, fs, c.BaseURL(), clk, o, q); sent != 0 {
				t.Errorf("written again: %d requests", sent)
			}
		})
	}
}

// Two runners filling different days of one bucket's history at once,
// each having read it before the other wrote it: each merges what the
// other kept when it writes, so nothing is lost. When both read it again
// before either writes (the write is not conditional), one's days are
// lost and read again: a re-read, never a wrong value.
func TestDaily_twoRunnersFillingAtOnce(t *testing.T) {
	for _, tt := range []struct {
		name   string
		lost   bool
		reread int
	}{{"each writes after the other's write", false, 0}, {"both merge before either writes", true, 5}} {
		t.Run(tt.name, func(t *testing.T) {
			url, _ := fileBucket(t)
			fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dailyData()})
			// Each runner reads the history when it starts, and again
			// to merge before it writes; step[i] closes when runner i is
			// past a step: 0 started, 1 merged, 2 written.
			var steps [2][3]chan struct{}
			for i := range steps {
				for j := range steps[i] {
					steps[i][j] = make(chan struct{})
				}
			}
			runner := func(i int) CacheOptions {
				o := bucketOpts(url)
				gets, other := 0, 1-i
				o.OpenBucket = func(ctx context.Context, u string) (CacheBucket, error) {
					b, err := cachebucket.Open(ctx, u)
					return &hookBucket{CacheBucket: b,
						beforeGet: func(string) {
							if gets++; gets == 2 { // merging: the other has started
								<-steps[other][0]
								if !tt.lost && i == 1 {
									<-steps[0][2] // runner 1 merges what runner 0 wrote
								}
							}
						},
						afterGet: func(string) {
							if gets <= 2 {
								close(steps[i][gets-1])
							}
						},
						beforePut: func(string) {
							if tt.lost {
								<-steps[other][1] // both merged before either writes
							}
							if i == 1 {
								<-steps[0][2]
							}
						},
						afterPut: func(string) { close(steps[i][2]) },
					}, err
				}
				return o
			}
			halves := []DailyQuery{
				{DateFrom: "2026-10-01", DateTo: "2026-10-06", Metrics: []DailyMetric{DailyViews}},
				{DateFrom: "2026-10-06", DateTo: "2026-10-11", Metrics: []DailyMetric{DailyViews}},
			}
			var wg sync.WaitGroup
			for i, q := range halves {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := newTestClient(t, c.BaseURL(), clk, WithAnalyticsCache(runner(i)))
					if s, err := r.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, q); err != nil || len(s.Missing) != 0 {
						t.Errorf("%s: %v, missing %v", q.DateFrom, err, s.Missing)
					}
				}()
			}
			wg.Wait()
			clk.Advance(11 * time.Minute) // the cache's copies of the days' answers are old
			whole := DailyQuery{DateFrom: "2026-10-01", DateTo: "2026-10-11", Metrics: []DailyMetric{DailyViews}}
			s, sent := daily(t, fs, c.BaseURL(), clk, bucketOpts(url), whole)
			wantLikeFake(t, fs, s)
			if sent != tt.reread || len(s.Missing) != 0 {
				t.Errorf("the whole window after both: %d requests, want %d; missing %v", sent, tt.reread, s.Missing)
			}
		})
	}
}

// hookBucket calls its hooks around the reads and writes of histories.
type hookBucket struct {
	CacheBucket
	beforeGet, afterGet, beforePut, afterPut func(name string)
}

func (b *hookBucket) Get(ctx context.Context, name string, limit int64) ([]byte, error) {
	if !strings.HasPrefix(name, "daily-") {
		return b.CacheBucket.Get(ctx, name, limit)
	}
	b.beforeGet(name)
	defer b.afterGet(name)
	return b.CacheBucket.Get(ctx, name, limit)
}

func (b *hookBucket) Put(ctx context.Context, name string, data []byte) error {
	if !strings.HasPrefix(name, "daily-") {
		return b.CacheBucket.Put(ctx, name, data)
	}
	b.beforePut(name)
	defer b.afterPut(name)
	return b.CacheBucket.Put(ctx, name, data)
}

// The budget spent in the middle of a fill: the series says so and keeps
// what it read; while it is known spent, the next runs serve the kept days
// and send nothing; once it frees up, the fill goes on.
func TestDaily_aBudgetSpentMidFillServesKeptDaysAndSendsNothing(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dailyData(), AnalyticsBudget: 8})
	o := cacheOpts(t.TempDir())
	q := DailyQuery{DateFrom: "2026-10-01", DateTo: "2026-10-31", Metrics: []DailyMetric{DailyViews, DailyVisitors}}
	s, sent := daily(t, fs, c.BaseURL(), clk, o, q)
	if s.RateLimit == nil || s.RateLimit.NotSent || sent != 9 || len(known(s)) != 4 {
		t.Fatalf("budget spent mid-fill: %v, %d requests, known %v", s.RateLimit, sent, known(s))
	}
	wantLikeFake(t, fs, s)
	for range 3 {
		again, sent := daily(t, fs, c.BaseURL(), clk, o, q)
		if again.RateLimit == nil || !again.RateLimit.NotSent || sent != 0 || !slices.Equal(known(again), known(s)) {
			t.Errorf("while spent: %v, %d requests, known %v", again.RateLimit, sent, known(again))
		}
	}
	clk.Advance(time.Hour)
	if after, sent := daily(t, fs, c.BaseURL(), clk, o, q); sent != 9 || len(known(after)) != 8 || after.RateLimit == nil {
		t.Errorf("after the hour: %d requests, known %v", sent, known(after))
	}
}

// A year with a cap of one: a request a run, the newest day first, and a
// count of what is left.
func TestDaily_aYearWithACapOfOne(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dailyData()})
	o := cacheOpts(t.TempDir())
	q := DailyQuery{DateFrom: "2025-11-20", DateTo: "2026-11-20", Metrics: totalsMetrics, MaxRequests: 1}
	for run := 1; run <= 4; run++ {
		s, sent := daily(t, fs, c.BaseURL(), clk, o, q)
		wantLikeFake(t, fs, s)
		if sent != 1 || s.Left != 3*365-run || len(s.Missing) != 365-run/3 {
			t.Errorf("run %d: %d requests, %d left, %d missing", run, sent, s.Left, len(s.Missing))
		}
	}
	s, _ := daily(t, fs, c.BaseURL(), clk, o, q)
	if p := s.Points[364]; p.Date != "2026-11-19" || p.Views == nil || p.Visitors == nil || p.Searches == nil || s.Points[363].Visitors == nil {
		t.Errorf("the newest days: %+v, %+v", p, s.Points[363])
	}
}

// Clocks that disagree: a runner whose clock runs days ahead keeps days
// that have not settled; a runner on time does not trust its history
// (written in its future), reads those days as partial and writes its own.
func TestDaily_aClockAheadIsNotTrusted(t *testing.T) {
	dir := t.TempDir()
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dailyData()})
	o := cacheOpts(dir)
	q := DailyQuery{DateFrom: "2026-11-15", DateTo: "2026-11-21", Metrics: []DailyMetric{DailyViews}}
	ahead := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch.Add(72 * time.Hour))}
	r := newTestClient(t, c.BaseURL(), ahead, WithAnalyticsCache(o))
	if _, err := r.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, q); err != nil {
		t.Fatal(err)
	}
	s, sent := daily(t, fs, c.BaseURL(), clk, o, q)
	wantLikeFake(t, fs, s)
	if sent != 6 {
		t.Errorf("%d requests, want 6: nothing of the clock ahead trusted", sent)
	}
	for _, p := range s.Points {
		if p.Partial != (p.Date >= "2026-11-19") {
			t.Errorf("%s: partial %v", p.Date, p.Partial)
		}
	}
}

// Without a cache nothing is kept: each call reads again, within its cap;
// a listing too long for the cap is cut there, and nothing is written.
func TestDaily_withoutACacheEveryCallReadsAgain(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: dailyData()})
	q := DailyQuery{DateFrom: "2026-11-01", DateTo: "2026-11-08", Metrics: []DailyMetric{DailyViews}}
	long := DailyQuery{DateFrom: "2026-01-01", DateTo: "2026-11-01", Metrics: []DailyMetric{DailyFeedback}, MaxRequests: 4}
	for _, tt := range []struct {
		q       DailyQuery
		sent    int
		missing bool
	}{{q, 7, false}, {q, 7, false}, {long, 4, true}, {long, 4, true}} {
		before := fs.TotalRequests()
		s, err := c.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, tt.q)
		if err != nil || s.Kept || (len(s.Missing) > 0) != tt.missing || fs.TotalRequests()-before != tt.sent {
			t.Errorf("%s..%s: %v, missing %v, %d requests", tt.q.DateFrom, tt.q.DateTo, err, s.Missing, fs.TotalRequests()-before)
		}
	}
}

// A failure other than the budget or a day's answer ends the call with
// its error and the series read so far.
func TestDaily_aFailedRequestEndsTheCallWithWhatItRead(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: dailyData()})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsViews, Kind: mintlifytest.FaultClientError, Status: 403, Requests: []int{3}})
	s, err := c.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, DailyQuery{DateFrom: "2026-11-01", DateTo: "2026-11-08", Metrics: []DailyMetric{DailyViews}})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 403 || s == nil || len(known(s)) != 2 || s.Left != 5 {
		t.Errorf("%v; %s", err, fmt.Sprint(s))
	}
}

// dailyRunnerEnv makes TestDailyRunner a runner: a process of its own.
const dailyRunnerEnv = "MINTLIFY_TEST_DAILY_RUNNER"

// TestDailyRunner reads a daily series in a process of its own (for
// TestDaily_keptAcrossProcessesThroughAFileBucket), on the clock and from
// the API and bucket its environment names, and prints what it sent. It
// does nothing in a test run of its own.
func TestDailyRunner(t *testing.T) {
	if os.Getenv(dailyRunnerEnv) == "" {
		return
	}
	var api, bucket, at, from, to string
	if _, err := fmt.Sscan(os.Getenv(dailyRunnerEnv), &api, &bucket, &at, &from, &to); err != nil {
		t.Fatal(err)
	}
	now, err := time.Parse(time.RFC3339, at)
	if err != nil {
		t.Fatal(err)
	}
	c := newTestClient(t, api, &fakeClock{ManualClock: mintlifytest.NewManualClock(now)}, WithAnalyticsCache(bucketOpts(bucket)))
	s, err := c.Analytics.Daily(context.Background(), mintlifytest.DemoProjectID, DailyQuery{DateFrom: from, DateTo: to, Metrics: DailyMetrics, MaxRequests: 100})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("\nrunner: %d requests, %d missing, %d kept\n", s.Requests, len(s.Missing), strings.Count(fmt.Sprint(s.Points), " kept}"))
}

// A settled day is never requested again across processes: one runner
// process fills a week of every metric through a file:// bucket, another
// (its own memory, its own empty directory) sends nothing, once the
// cache's entries of the days' answers are old.
func TestDaily_keptAcrossProcessesThroughAFileBucket(t *testing.T) {
	url, _ := fileBucket(t)
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: dailyData()})
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"runner: 23 requests, 0 missing, 0 kept", "runner: 0 requests, 0 missing, 7 kept"} {
		cmd := exec.Command(self, "-test.run=^TestDailyRunner$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %s %s 2026-11-01 2026-11-08", dailyRunnerEnv, c.BaseURL(), url, clk.Now().Format(time.RFC3339)))
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), want) {
			t.Errorf("runner %d: %v, want %q:\n%s", i+1, err, want, out)
		}
		clk.Advance(11 * time.Minute)
	}
	if n := fs.TotalRequests(); n != 23 {
		t.Errorf("%d requests in all, want 23 (a week: 7 days of three totals, one listing each of feedback and conversations)", n)
	}
}
