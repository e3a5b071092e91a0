package sdk

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// fakeRows converts the fake's own view of its data into SDK rows, to compare
// what the client read with what the server holds.
func fakeRows(t *testing.T, fs *mintlifytest.Fake, from, to string) (Counts, []PathCounts) {
	t.Helper()
	totals, rows, err := fs.VisitorsData(mintlifytest.DemoProjectID, from, to)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]PathCounts, len(rows))
	for i, r := range rows {
		out[i] = PathCounts{Path: r.Path, Human: r.Human, AI: r.AI, Total: r.Total}
	}
	return Counts{Human: totals.Human, AI: totals.AI, Total: totals.Total}, out
}

func TestListAllUniqueVisitors_readsEveryRowWithTheFewestRequests(t *testing.T) {
	for _, tt := range []struct{ paths, pageSize, wantRequests int }{
		{0, 0, 1}, {1, 0, 1}, {250, 0, 1}, {251, 0, 2}, {3000, 0, 12}, {100, 7, 15}, {100, 100, 1},
	} {
		fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: tt.paths, Seed: 7}})
		got, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{Limit: tt.pageSize})
		if err != nil {
			t.Fatal(err)
		}
		totals, rows := fakeRows(t, fs, "", "")
		if diff := cmp.Diff(&PathCountsPage{Totals: totals, Paths: rows}, got, ignoreInfo); diff != "" {
			t.Errorf("%d paths, page %d (-want +got):\n%s", tt.paths, tt.pageSize, diff)
		}
		if got.Pages != tt.wantRequests || got.Attempts != tt.wantRequests {
			t.Errorf("%d paths, page %d: %d pages, %d attempts, want %d", tt.paths, tt.pageSize, got.Pages, got.Attempts, tt.wantRequests)
		}
		if n := fs.Requests(mintlifytest.RouteAnalyticsVisitors); n != tt.wantRequests {
			t.Errorf("%d paths, page %d: %d requests, want %d", tt.paths, tt.pageSize, n, tt.wantRequests)
		}
		if tt.paths > 0 && got.Totals.Total == got.Totals.Human+got.Totals.AI {
			t.Errorf("totals %+v are a plain sum: the fake should deduplicate", got.Totals)
		}
	}
}

func TestListAllUniqueVisitors_maxResultsShrinksTheLastPage(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 1000}})
	for _, tt := range []struct{ max, wantRequests int }{{1, 1}, {250, 1}, {251, 2}, {600, 3}, {5000, 4}} {
		fs.ResetCounters()
		got, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{MaxResults: tt.max})
		if err != nil {
			t.Fatal(err)
		}
		_, rows := fakeRows(t, fs, "", "")
		if diff := cmp.Diff(rows[:min(tt.max, len(rows))], got.Paths); diff != "" {
			t.Errorf("max %d (-want +got):\n%s", tt.max, diff)
		}
		// A read stopped at MaxResults keeps its last page's HasMore.
		if got.HasMore != (tt.max < len(rows)) || got.Pages != tt.wantRequests {
			t.Errorf("max %d: hasMore %v, %d pages", tt.max, got.HasMore, got.Pages)
		}
		if n := fs.Requests(mintlifytest.RouteAnalyticsVisitors); n != tt.wantRequests {
			t.Errorf("max %d: %d requests, want %d", tt.max, n, tt.wantRequests)
		}
	}
}

func TestUniqueVisitorPages_sendsLimitOffsetAndDates(t *testing.T) {
	rec, ts := newRecorder(t,
		jsonResponse(200, `{"totals":{"human":5,"ai":2,"total":6},"visitors":[{"path":"/a","human":3,"ai":1,"total":3},{"path":"/b","human":2,"ai":1,"total":3}],"hasMore":true}`),
		jsonResponse(200, `{"totals":{"human":5,"ai":2,"total":6},"visitors":[{"path":"/c","human":1,"ai":0,"total":1}],"hasMore":false}`))
	c := newTestClient(t, ts.URL, nil)
	got, err := c.Analytics.Visitors.All(context.Background(), "acme_docs:v~2", VisitorsQuery{DateFrom: "2026-10-01", DateTo: "2026-11-01T00:00:00Z", Limit: 2, Offset: 4})
	if err != nil {
		t.Fatal(err)
	}
	want := &PathCountsPage{Totals: Counts{5, 2, 6}, Paths: []PathCounts{{"/a", 3, 1, 3}, {"/b", 2, 1, 3}, {"/c", 1, 0, 1}}}
	if diff := cmp.Diff(want, got, ignoreInfo); diff != "" || got.Pages != 2 {
		t.Errorf("%d pages (-want +got):\n%s", got.Pages, diff)
	}
	wantURLs := []string{
		"/v1/analytics/acme_docs:v~2/visitors?dateFrom=2026-10-01&dateTo=2026-11-01T00%3A00%3A00Z&limit=2&offset=4",
		"/v1/analytics/acme_docs:v~2/visitors?dateFrom=2026-10-01&dateTo=2026-11-01T00%3A00%3A00Z&limit=2&offset=6",
	}
	for i, r := range rec.requests {
		if got := r.URL.EscapedPath() + "?" + r.URL.RawQuery; got != wantURLs[i] {
			t.Errorf("request %d = %s, want %s", i, got, wantURLs[i])
		}
		if r.Method != http.MethodGet {
			t.Errorf("method %s", r.Method)
		}
	}
}

func TestUniqueVisitorPages_shortPageAdvancesByRowsReceived(t *testing.T) {
	// A server that serves fewer rows than asked while hasMore is true must
	// not make the client skip rows.
	rec, ts := newRecorder(t,
		jsonResponse(200, visitorsPageJSON(true, "/a")),
		jsonResponse(200, visitorsPageJSON(false, "/b")))
	c := newTestClient(t, ts.URL, nil)
	if _, err := c.Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{}); err != nil {
		t.Fatal(err)
	}
	if q := rec.requests[1].URL.Query().Get("offset"); q != "1" {
		t.Errorf("second offset = %s, want 1", q)
	}
}

func TestUniqueVisitorPages_oversizedPageIsTrimmed(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(200, visitorsPageJSON(false, "/a", "/b", "/c")))
	c := newTestClient(t, ts.URL, nil)
	got, err := c.Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{Limit: 2})
	if err != nil || len(got.Paths) != 2 || got.Paths[1].Path != "/b" {
		t.Fatalf("got %+v, %v", got, err)
	}
}

func TestUniqueVisitorPages_emptyPageWithHasMoreIsAnError(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, `{"totals":{"human":1,"ai":0,"total":1},"visitors":[],"hasMore":true}`))
	c := newTestClient(t, ts.URL, nil)
	_, err := c.Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{})
	var pe *PagingError
	if err == nil || err.Error() != "getting unique visitors: the first page is empty but says there is more; stopping rather than loop; stopped after 1 request" || rec.count() != 1 ||
		!errors.As(err, &pe) || pe.Problem != PagingEmptyWithMore || pe.At != "the first page" {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
}

func TestUniqueVisitorPages_serverIgnoringOffsetIsAnError(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, visitorsPageJSON(true, "/a", "/b")))
	c := newTestClient(t, ts.URL, nil)
	_, err := c.Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{Limit: 2})
	var pe *PagingError
	if err == nil || err.Error() != `getting unique visitors: the page at offset 2 repeats path "/a" from an earlier page: the server is not advancing; stopping rather than loop; stopped after 2 requests` || rec.count() != 2 ||
		!errors.As(err, &pe) || pe.Problem != PagingRepeatedRow || pe.Requests != 2 {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
}

func TestUniqueVisitorRows_stopsRequestingWhenTheCallerStops(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 2000}})
	n := 0
	for row, err := range c.Analytics.Visitors.Rows(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{}) {
		if err != nil {
			t.Fatal(err)
		}
		if row.Path == "" {
			t.Fatal("empty row")
		}
		if n++; n == 300 {
			break
		}
	}
	if got := fs.Requests(mintlifytest.RouteAnalyticsVisitors); got != 2 {
		t.Errorf("requests = %d, want 2 for 300 rows", got)
	}
}

func TestUniqueVisitorRows_yieldsErrors(t *testing.T) {
	_, c, _ := newFake(t, mintlifytest.Config{})
	var errs []error
	for _, err := range c.Analytics.Visitors.Rows(context.Background(), "missing", VisitorsQuery{}) {
		errs = append(errs, err)
	}
	if len(errs) != 1 || !IsNotFound(errs[0]) {
		t.Fatalf("errs = %v", errs)
	}
}

func TestVisitors_dateFilterMatchesServer(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 300}})
	for _, r := range [][2]string{{"2026-10-01", "2026-10-08"}, {"2026-10-31", ""}, {"", "2026-08-05"}, {"2026-10-01T12:00:00Z", "2026-10-03T00:00:00+02:00"}, {"2027-01-01", "2027-02-01"}} {
		got, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{DateFrom: r[0], DateTo: r[1]})
		if err != nil {
			t.Fatal(err)
		}
		totals, rows := fakeRows(t, fs, r[0], r[1])
		if diff := cmp.Diff(&PathCountsPage{Totals: totals, Paths: rows}, got, ignoreInfo); diff != "" {
			t.Errorf("%v (-want +got):\n%s", r, diff)
		}
	}
	week, _ := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{DateFrom: "2026-10-01", DateTo: "2026-10-08"})
	day, _ := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{DateFrom: "2026-10-01", DateTo: "2026-10-02"})
	if day.Totals.Human >= week.Totals.Human {
		t.Errorf("one day %+v is not fewer than a week %+v: the date filter does nothing", day.Totals, week.Totals)
	}
}

func TestVisitorsQuery_validation(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}})
	tests := []struct {
		q    VisitorsQuery
		want string
	}{
		{VisitorsQuery{Limit: 251}, `limit "251" must be between 1 and 250`},
		{VisitorsQuery{Limit: -1}, `limit "-1" must be between 1 and 250`},
		{VisitorsQuery{Offset: -1}, `offset "-1" must be 0 or more`},
		{VisitorsQuery{MaxResults: -5}, `maxResults "-5" must be 0 (no limit) or more`},
		{VisitorsQuery{DateFrom: "2026-13-45"}, `dateFrom "2026-13-45" is not a date (use YYYY-MM-DD or an ISO 8601 date-time`},
		{VisitorsQuery{DateTo: "yesterday"}, `dateTo "yesterday" is not a date (use YYYY-MM-DD or an ISO 8601 date-time`},
		{VisitorsQuery{DateFrom: "2026-10-02", DateTo: "2026-10-01"}, `dateFrom "2026-10-02" must be before dateTo "2026-10-01" (dateTo is exclusive)`},
		{VisitorsQuery{DateFrom: "2026-10-01", DateTo: "2026-10-01"}, `dateFrom "2026-10-01" must be before dateTo "2026-10-01" (dateTo is exclusive)`},
		{VisitorsQuery{DateFrom: "2026-10-01T00:00:00Z", DateTo: "2026-10-01"}, `must be before dateTo`},
	}
	for _, tt := range tests {
		_, err := c.Analytics.Visitors.Page(context.Background(), mintlifytest.DemoProjectID, tt.q)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !IsValidation(err) {
			t.Errorf("%+v: err = %v, want %q", tt.q, err, tt.want)
		}
		_, err = c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, tt.q)
		var v *ValidationError
		if !errors.As(err, &v) {
			t.Errorf("%+v: list err = %v", tt.q, err)
		}
	}
	if _, err := c.Analytics.Visitors.Page(context.Background(), "", VisitorsQuery{}); err == nil || err.Error() != "projectId must not be empty or only white space" {
		t.Errorf("empty project: %v", err)
	}
	if _, err := c.Analytics.Visitors.All(context.Background(), "", VisitorsQuery{}); err == nil || err.Error() != "projectId must not be empty or only white space" {
		t.Errorf("empty project: %v", err)
	}
	if n := fs.TotalRequests(); n != 0 {
		t.Errorf("%d requests for invalid queries", n)
	}
	for _, ok := range []VisitorsQuery{{Limit: 1}, {Limit: 250}, {Offset: 0}, {DateFrom: "2026-10-01", DateTo: "2026-10-01T00:00:01Z"}} {
		if err := ok.Validate(); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
}

func TestGetUniqueVisitors_onePage(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 30}})
	page, err := c.Analytics.Visitors.Page(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{Limit: 10, Offset: 25})
	if err != nil {
		t.Fatal(err)
	}
	_, rows := fakeRows(t, fs, "", "")
	if diff := cmp.Diff(rows[25:], page.Paths); diff != "" || page.HasMore {
		t.Errorf("hasMore %v, rows (-want +got):\n%s", page.HasMore, diff)
	}
	page, _ = c.Analytics.Visitors.Page(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{Limit: 10})
	if len(page.Paths) != 10 || !page.HasMore || page.Pages != 1 || page.Attempts != 1 {
		t.Errorf("first page: %d rows, hasMore %v, %+v", len(page.Paths), page.HasMore, page.ResponseInfo)
	}
}

func TestVisitors_rateLimitFailsAtOnceWithWhenToRetry(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{AnalyticsBudget: 2, Analytics: mintlifytest.Dataset{Paths: 1000}})
	_, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{})
	if !IsRateLimited(err) || !strings.Contains(err.Error(), "rate limited; try again after 2026-11-21T13:00:00Z") {
		t.Fatalf("err = %v", err)
	}
	if n := fs.Requests(mintlifytest.RouteAnalyticsVisitors); n != 3 {
		t.Errorf("requests = %d, want 3 (2 pages, then the refusal, no retry)", n)
	}
}

func TestVisitors_survivesInjectedFaultsWithoutRereading(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 1000}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultServerError, Requests: []int{2}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultDropConnection, Requests: []int{4}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultRateLimit, RetryAfter: 1, Requests: []int{5}})
	got, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	totals, rows := fakeRows(t, fs, "", "")
	if diff := cmp.Diff(&PathCountsPage{Totals: totals, Paths: rows}, got, ignoreInfo); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if n := fs.Requests(mintlifytest.RouteAnalyticsVisitors); n != 7 {
		t.Errorf("requests = %d, want 4 pages + 3 faulted", n)
	}
	// All adds up its pages' attempts: the 502 and the 429 were retried
	// by the SDK. The dropped connection may not count: net/http's
	// transport itself re-sends a GET whose reused connection closed
	// before any answer, unseen by the SDK.
	if got.Pages != 4 || got.Attempts < 6 || got.Attempts > 7 {
		t.Errorf("%d pages, %d attempts; want 4 and 6 or 7", got.Pages, got.Attempts)
	}
}
