package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// expected decodes what the fake holds for a route and query with plain
// encoding/json into T: independent of the SDK's own
// page decoders, which the tests check.
func expected[T any](t *testing.T, fs *mintlifytest.Fake, route string, q url.Values) T {
	t.Helper()
	raw, err := fs.Data(mintlifytest.DemoProjectID, route, q)
	if err != nil {
		t.Fatal(err)
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

type wantViews struct {
	Totals Counts       `json:"totals"`
	Views  []PathCounts `json:"views"`
}

type wantSearches struct {
	Searches      []SearchTerm `json:"searches"`
	TotalSearches int64        `json:"totalSearches"`
}

type wantFeedback struct {
	Feedback []Feedback `json:"feedback"`
}

type wantByPage struct {
	Feedback []PageFeedback `json:"feedback"`
}

type wantConversations struct {
	Conversations []Conversation `json:"conversations"`
}

func pages(n, size int) int { return max(1, (n+size-1)/size) }

// orLargest is the page size a query's limit asks for: the endpoint's
// largest when 0.
func orLargest(limit, largest int) int {
	if limit == 0 {
		return largest
	}
	return limit
}

func TestListAllPageViews_everyRowWithTheFewestRequests(t *testing.T) {
	for _, tt := range []struct{ paths, limit int }{{0, 0}, {250, 0}, {251, 0}, {1000, 0}, {30, 7}} {
		fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: tt.paths, Seed: 9}})
		got, err := c.Analytics.Views.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{Limit: tt.limit})
		if err != nil {
			t.Fatal(err)
		}
		want := expected[wantViews](t, fs, mintlifytest.RouteAnalyticsViews, nil)
		wantPages := pages(tt.paths, orLargest(tt.limit, MaxPageSize))
		if diff := cmp.Diff(&PathCountsPage{Totals: want.Totals, Paths: want.Views}, got, ignoreInfo); diff != "" {
			t.Errorf("%d paths (-want +got):\n%s", tt.paths, diff)
		}
		if n := fs.Requests(mintlifytest.RouteAnalyticsViews); n != wantPages || got.Pages != wantPages || got.Attempts != wantPages {
			t.Errorf("%d paths: %d requests, %d pages, %d attempts, want %d", tt.paths, n, got.Pages, got.Attempts, wantPages)
		}
		if tt.paths > 0 && (got.Totals.Total != got.Totals.Human+got.Totals.AI || got.Paths[0].Total < got.Paths[len(got.Paths)-1].Total) {
			t.Errorf("views are events, summed, most first: %+v", got.Totals)
		}
	}
}

func TestPageViews_oneRowPageAndRows(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 12}})
	page, err := c.Analytics.Views.Page(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{Limit: 5, Offset: 10})
	if err != nil || len(page.Paths) != 2 || page.HasMore || page.Pages != 1 || page.Attempts != 1 {
		t.Fatalf("page %+v, %v", page, err)
	}
	n := 0
	for row, err := range c.Analytics.Views.Rows(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{Limit: 5}) {
		if err != nil || row.Path == "" {
			t.Fatal(row, err)
		}
		n++
	}
	if n != 12 || fs.Requests(mintlifytest.RouteAnalyticsViews) != 4 {
		t.Errorf("%d rows, %d requests", n, fs.Requests(mintlifytest.RouteAnalyticsViews))
	}
}

func TestListAllSearches_followsCursorsToTheEnd(t *testing.T) {
	for _, tt := range []struct{ terms, limit, max int }{{0, 0, 0}, {100, 0, 0}, {101, 0, 0}, {250, 30, 0}, {250, 0, 150}, {250, 0, 100}} {
		fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{SearchTerms: tt.terms, Paths: 5}})
		got, err := c.Analytics.Searches.All(context.Background(), mintlifytest.DemoProjectID, SearchesQuery{Limit: tt.limit, MaxResults: tt.max})
		if err != nil {
			t.Fatal(err)
		}
		want := expected[wantSearches](t, fs, mintlifytest.RouteAnalyticsSearches, nil)
		rows := want.Searches
		if tt.max > 0 {
			rows = rows[:tt.max]
		}
		wantPages := pages(len(rows), orLargest(tt.limit, MaxSearchesPageSize))
		if diff := cmp.Diff(&SearchesPage{TotalSearches: want.TotalSearches, Searches: rows}, got, ignoreInfo, cmpopts.IgnoreFields(SearchesPage{}, "NextCursor")); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tt, diff)
		}
		if n := fs.Requests(mintlifytest.RouteAnalyticsSearches); n != wantPages || got.Pages != wantPages {
			t.Errorf("%+v: %d requests, %d pages, want %d", tt, n, got.Pages, wantPages)
		}
		// The last page's cursor is kept: a read stopped at MaxResults
		// can go on from it.
		if stopped := tt.max > 0 && tt.max < tt.terms; (got.NextCursor != nil) != stopped {
			t.Errorf("%+v: next cursor %v", tt, got.NextCursor)
		}
	}
}

func TestListAllFeedback_keepsEveryVariantsFields(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Feedback: 420, Paths: 30}})
	for _, q := range []FeedbackQuery{{}, {Source: FeedbackSourceContextual}, {Source: FeedbackSourceCodeSnippet, Statuses: []FeedbackStatus{"pending", "dismissed"}},
		{DateFrom: "2026-10-01", DateTo: "2026-10-20", Limit: 25}, {MaxResults: 130}} {
		fs.ResetCounters()
		got, err := c.Analytics.Feedback.All(context.Background(), mintlifytest.DemoProjectID, q)
		if err != nil {
			t.Fatal(err)
		}
		v := url.Values{"dateFrom": {q.DateFrom}, "dateTo": {q.DateTo}, "source": {string(q.Source)}}
		if len(q.Statuses) > 0 {
			v.Set("status", string(q.Statuses[0])+","+string(q.Statuses[1]))
		}
		want := expected[wantFeedback](t, fs, mintlifytest.RouteAnalyticsFeedback, v).Feedback
		if q.MaxResults > 0 {
			want = want[:q.MaxResults]
		}
		if diff := cmp.Diff(want, got.Feedback); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", q, diff)
		}
		if wantPages := pages(len(want), orLargest(q.Limit, MaxFeedbackPageSize)); got.Pages != wantPages || fs.Requests(mintlifytest.RouteAnalyticsFeedback) != wantPages {
			t.Errorf("%+v: %d pages, %d requests, want %d", q, got.Pages, fs.Requests(mintlifytest.RouteAnalyticsFeedback), wantPages)
		}
	}
	all, _ := c.Analytics.Feedback.All(context.Background(), mintlifytest.DemoProjectID, FeedbackQuery{})
	seen := map[FeedbackSource]bool{}
	for _, f := range all.Feedback {
		seen[f.Source] = true
		switch f.Source {
		case FeedbackSourceContextual:
			if f.Helpful == nil || f.Code != nil {
				t.Fatalf("contextual entry %+v", f)
			}
		case FeedbackSourceCodeSnippet:
			if f.Code == nil || f.Helpful != nil {
				t.Fatalf("code entry %+v", f)
			}
		default:
			if f.Helpful != nil || f.Code != nil || f.Contact != nil {
				t.Fatalf("%s entry %+v", f.Source, f)
			}
		}
	}
	if len(seen) != 4 {
		t.Errorf("sources seen: %v", seen)
	}
}

func TestGetFeedbackByPage_oneRequestAndHasMore(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Feedback: 2000, Paths: 150}})
	got, err := c.Analytics.FeedbackByPage(context.Background(), mintlifytest.DemoProjectID, FeedbackByPageQuery{})
	if err != nil {
		t.Fatal(err)
	}
	want := expected[wantByPage](t, fs, mintlifytest.RouteAnalyticsFeedbackByPage, nil).Feedback
	if diff := cmp.Diff(want[:MaxFeedbackByPageSize], got.Pages); diff != "" || !got.HasMore {
		t.Errorf("hasMore %v (-want +got):\n%s", got.HasMore, diff)
	}
	q, _ := url.ParseQuery(fs.RequestLog()[0].Query)
	if fs.Requests(mintlifytest.RouteAnalyticsFeedbackByPage) != 1 || q.Get("limit") != "100" {
		t.Errorf("%d requests, query %v", fs.Requests(mintlifytest.RouteAnalyticsFeedbackByPage), q)
	}
	small, err := c.Analytics.FeedbackByPage(context.Background(), mintlifytest.DemoProjectID, FeedbackByPageQuery{Source: FeedbackSourceContextual, Limit: 3})
	if err != nil || len(small.Pages) != 3 || !small.HasMore || small.Pages[0].Code != 0 || small.Pages[0].ThumbsUp+small.Pages[0].ThumbsDown != small.Pages[0].Total {
		t.Errorf("contextual top 3: %+v, %v", small, err)
	}
	// A server that ignores limit is cut to it, and says there is more.
	_, ts := newRecorder(t, jsonResponse(200, `{"feedback":[{"path":"/a","thumbsUp":1,"thumbsDown":0,"code":0,"total":1},{"path":"/b","thumbsUp":1,"thumbsDown":0,"code":0,"total":1}],"hasMore":false}`))
	cut, err := newTestClient(t, ts.URL, nil).Analytics.FeedbackByPage(context.Background(), "p", FeedbackByPageQuery{Limit: 1})
	if err != nil || len(cut.Pages) != 1 || !cut.HasMore {
		t.Errorf("cut: %+v, %v", cut, err)
	}
	// Exactly as many pages as asked for is not more than asked for.
	exact, err := newTestClient(t, ts.URL, nil).Analytics.FeedbackByPage(context.Background(), "p", FeedbackByPageQuery{Limit: 2})
	if err != nil || len(exact.Pages) != 2 || exact.HasMore {
		t.Errorf("exactly the limit: %+v, %v", exact, err)
	}
}

func TestAssistant_conversationsThreadsAndCallers(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Conversations: 2500, Paths: 20}})
	ctx := context.Background()
	got, err := c.Analytics.Conversations.All(ctx, mintlifytest.DemoProjectID, ConversationsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	want := expected[wantConversations](t, fs, mintlifytest.RouteAnalyticsConversations, nil).Conversations
	absent := 0
	for i := range want {
		if want[i].ResponseType == "" {
			want[i].ResponseType = "answer" // as the API documents
			absent++
		}
	}
	if diff := cmp.Diff(want, got.Conversations); diff != "" || got.Pages != 3 || fs.Requests(mintlifytest.RouteAnalyticsConversations) != 3 {
		t.Errorf("%d pages (-want +got):\n%s", got.Pages, diff)
	}
	if absent == 0 {
		t.Error("the fake never leaves responseType out: the default is untested")
	}
	thread, err := c.Analytics.Thread(ctx, mintlifytest.DemoProjectID, got.Conversations[7].ID)
	if err != nil || thread.ThreadID != got.Conversations[7].ID || len(thread.Messages) != 2 || thread.Messages[0].Content != got.Conversations[7].Query || thread.Messages[1].Role != "assistant" {
		t.Fatalf("thread %+v, %v", thread, err)
	}
	if _, err := c.Analytics.Thread(ctx, mintlifytest.DemoProjectID, "01JD8X3Q6V3XK8M4Y2Z9T0B1CD"); !IsNotFound(err) {
		t.Errorf("unknown thread: %v", err)
	}
	stats, err := c.Analytics.CallerStats(ctx, mintlifytest.DemoProjectID, DateRange{DateFrom: "2026-10-01"})
	if err != nil || stats.Total != stats.Web+stats.API+stats.Other || stats.Web <= stats.API || stats.Other == 0 {
		t.Errorf("stats %+v, %v", stats, err)
	}
	if stats.Total >= int64(len(got.Conversations)) {
		t.Errorf("a month's stats %d are not fewer than all %d conversations: the date filter does nothing", stats.Total, len(got.Conversations))
	}
	// Starting from a cursor reads what is after it.
	first, _ := c.Analytics.Conversations.Page(ctx, mintlifytest.DemoProjectID, ConversationsQuery{Limit: 10})
	rest, err := c.Analytics.Conversations.Page(ctx, mintlifytest.DemoProjectID, ConversationsQuery{Limit: 10, Cursor: *first.NextCursor})
	if err != nil || rest.Conversations[0].ID != got.Conversations[10].ID {
		t.Errorf("page after the cursor starts with %v, %v", rest, err)
	}
}

func TestAssistantThread_answerForAnotherThreadIsRefused(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(200, `{"threadId":"01JD8X3Q6V3XK8M4Y2Z9T0B1CE","createdAt":"x","messages":[]}`))
	_, err := newTestClient(t, ts.URL, nil).Analytics.Thread(context.Background(), "p", "01JD8X3Q6V3XK8M4Y2Z9T0B1CD")
	if !IsMalformedResponse(err) || !strings.Contains(err.Error(), `the answer is for thread "01JD8X3Q6V3XK8M4Y2Z9T0B1CE", not "01JD8X3Q6V3XK8M4Y2Z9T0B1CD"`) {
		t.Fatalf("err = %v", err)
	}
}

// Every analytics input is checked before any request is sent.
func TestAnalytics_validateBeforeSending(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	ctx := context.Background()
	p := mintlifytest.DemoProjectID
	drain := func(seq func(func(*SearchesPage, error) bool)) error {
		for _, err := range seq {
			return err
		}
		return nil
	}
	for name, tt := range map[string]struct {
		call func() error
		want string
	}{
		"views limit":          {func() error { _, e := c.Analytics.Views.Page(ctx, p, VisitorsQuery{Limit: 251}); return e }, `limit "251" must be between 1 and 250`},
		"searches limit":       {func() error { _, e := c.Analytics.Searches.All(ctx, p, SearchesQuery{Limit: 101}); return e }, `limit "101" must be between 1 and 100`},
		"searches max results": {func() error { return drain(c.Analytics.Searches.Pages(ctx, p, SearchesQuery{MaxResults: -1})) }, `maxResults "-1" must be 0 (no limit) or more`},
		"searches dates": {func() error {
			_, e := c.Analytics.Searches.Page(ctx, p, SearchesQuery{DateFrom: "2026-10-02", DateTo: "2026-10-01"})
			return e
		}, "must be before dateTo"},
		"feedback source": {func() error { _, e := c.Analytics.Feedback.All(ctx, p, FeedbackQuery{Source: "email"}); return e }, `source "email" must be one of code_snippet, contextual, agent, thumbs_only`},
		"feedback status": {func() error {
			_, e := c.Analytics.Feedback.Page(ctx, p, FeedbackQuery{Statuses: []FeedbackStatus{"pending", "open"}})
			return e
		}, `status "open" must be one of pending, in_progress, resolved, dismissed`},
		"feedback limit": {func() error { _, e := c.Analytics.Feedback.Page(ctx, p, FeedbackQuery{Limit: -1}); return e }, `limit "-1" must be between 1 and 100`},
		"by-page limit":  {func() error { _, e := c.Analytics.FeedbackByPage(ctx, p, FeedbackByPageQuery{Limit: 101}); return e }, `limit "101" must be between 1 and 100`},
		"by-page source": {func() error { _, e := c.Analytics.FeedbackByPage(ctx, p, FeedbackByPageQuery{Source: "x"}); return e }, `source "x" must be one of`},
		"by-page dates": {func() error {
			_, e := c.Analytics.FeedbackByPage(ctx, p, FeedbackByPageQuery{DateTo: "soon"})
			return e
		}, `dateTo "soon" is not a date`},
		"assistant limit": {func() error { _, e := c.Analytics.Conversations.All(ctx, p, ConversationsQuery{Limit: 1001}); return e }, `limit "1001" must be between 1 and 1000`},
		"assistant cursor": {func() error {
			_, e := c.Analytics.Conversations.Page(ctx, p, ConversationsQuery{Cursor: "page-2"})
			return e
		}, `cursor "page-2" must be a ULID`},
		"assistant cursor 8": {func() error {
			_, e := c.Analytics.Conversations.Page(ctx, p, ConversationsQuery{Cursor: "81JD8X3Q6V3XK8M4Y2Z9T0B1CD"})
			return e
		}, "must be a ULID"},
		"assistant cursor U": {func() error {
			_, e := c.Analytics.Conversations.Page(ctx, p, ConversationsQuery{Cursor: "01JD8X3Q6V3XK8M4Y2Z9T0B1CU"})
			return e
		}, "must be a ULID"},
		"thread id":            {func() error { _, e := c.Analytics.Thread(ctx, p, "42"); return e }, `threadId "42" must be a ULID`},
		"thread project":       {func() error { _, e := c.Analytics.Thread(ctx, "..", "01JD8X3Q6V3XK8M4Y2Z9T0B1CD"); return e }, `projectId ".." is not allowed`},
		"caller stats dates":   {func() error { _, e := c.Analytics.CallerStats(ctx, p, DateRange{DateFrom: "yesterday"}); return e }, `dateFrom "yesterday" is not a date`},
		"caller stats project": {func() error { _, e := c.Analytics.CallerStats(ctx, " ", DateRange{}); return e }, "projectId must not be empty"},
		"views project":        {func() error { _, e := c.Analytics.Views.All(ctx, "", VisitorsQuery{}); return e }, "projectId must not be empty"},
	} {
		if err := tt.call(); !IsValidation(err) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", name, err, tt.want)
		}
	}
	if n := fs.TotalRequests(); n != 0 {
		t.Errorf("%d requests sent for invalid input", n)
	}
}

func TestAnalytics_sendsFiltersAsTheSpecNamesThem(t *testing.T) {
	rec, ts := newRecorder(t,
		jsonResponse(200, `{"feedback":[],"nextCursor":null,"hasMore":false}`),
		jsonResponse(200, `{"feedback":[],"hasMore":false}`))
	c := newTestClient(t, ts.URL, nil)
	if _, err := c.Analytics.Feedback.Page(context.Background(), "acme-docs", FeedbackQuery{DateFrom: "2026-10-01", Source: FeedbackSourceAgent,
		Statuses: []FeedbackStatus{FeedbackStatusResolved, FeedbackStatusInProgress}, Limit: 7, Cursor: "abc"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Analytics.FeedbackByPage(context.Background(), "p", FeedbackByPageQuery{Source: FeedbackSourceThumbsOnly}); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{
		"/v1/analytics/acme-docs/feedback?cursor=abc&dateFrom=2026-10-01&limit=7&source=agent&status=resolved%2Cin_progress",
		"/v1/analytics/p/feedback/by-page?limit=100&source=thumbs_only",
	} {
		if got := rec.requests[i].URL.EscapedPath() + "?" + rec.requests[i].URL.RawQuery; got != want {
			t.Errorf("request %d = %s, want %s", i, got, want)
		}
	}
	// A cursor endpoint's first page sends no cursor, and no offset; the
	// next sends the cursor it was given.
	rec, ts = newRecorder(t,
		jsonResponse(200, `{"searches":[{"searchQuery":"a","hits":1,"ctr":0,"topClickedPage":null,"lastSearchedAt":"t"}],"totalSearches":2,"nextCursor":"n2"}`),
		jsonResponse(200, `{"searches":[{"searchQuery":"b","hits":1,"ctr":0,"topClickedPage":null,"lastSearchedAt":"t"}],"totalSearches":2,"nextCursor":null}`))
	if _, err := newTestClient(t, ts.URL, nil).Analytics.Searches.All(context.Background(), "p", SearchesQuery{DateTo: "2026-11-01"}); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"dateTo=2026-11-01&limit=100", "cursor=n2&dateTo=2026-11-01&limit=100"} {
		if got := rec.requests[i].URL.RawQuery; got != want {
			t.Errorf("searches request %d: %s, want %s", i, got, want)
		}
	}
}

// A page's counts are JSON numbers: whole values in any notation decode,
// anything else is an error naming the field, never a silent truncation.
func TestDecode_countsAndRequiredFields(t *testing.T) {
	ok := map[string]PathCountsPage{
		`{"totals":{"human":10.0,"ai":1e3,"total":1.0E1},"visitors":[{"path":"/a","human":2,"ai":0,"total":2.00}],"hasMore":false}`: {
			Totals: Counts{10, 1000, 10}, Paths: []PathCounts{{"/a", 2, 0, 2}}},
		`{"totals":{"human":0,"ai":0,"total":0},"visitors":[],"hasMore":true,"extra":{"x":1}}`:                     {Paths: []PathCounts{}, HasMore: true},
		`{"totals":{"human":9007199254740993,"ai":0,"total":1},"visitors":[],"hasMore":false}`:                     {Totals: Counts{9007199254740993, 0, 1}, Paths: []PathCounts{}},
		`{"totals":{"human":999999999999999999,"ai":0,"total":1000000000000000000},"visitors":[],"hasMore":false}`: {Totals: Counts{999999999999999999, 0, 1000000000000000000}, Paths: []PathCounts{}},
		`{"totals":{"human":9223372036854775807,"ai":0,"total":0},"visitors":[],"hasMore":false}`:                  {Totals: Counts{Human: 9223372036854775807}, Paths: []PathCounts{}},
		// -0 is zero, not a negative count.
		`{"totals":{"human":-0,"ai":0,"total":0},"visitors":[],"hasMore":false}`:   {Paths: []PathCounts{}},
		`{"totals":{"human":0,"ai":-0.0,"total":0},"visitors":[],"hasMore":false}`: {Paths: []PathCounts{}},
	}
	for body, want := range ok {
		var got PathCountsPage
		if err := decodePathCounts(decoding{}, []byte(body), "visitors", &got); err != nil {
			t.Errorf("%s: %v", body, err)
		} else if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", body, diff)
		}
	}
	const good = `{"path":"/a","human":1,"ai":1,"total":1}`
	bad := map[string]string{
		`{"totals":{"human":10.5,"ai":0,"total":0},"visitors":[],"hasMore":false}`:                                        "totals.human: 10.5 is not a whole number",
		`{"totals":{"human":0,"ai":-1,"total":0},"visitors":[],"hasMore":false}`:                                          "totals.ai: -1 is negative",
		`{"totals":{"human":0,"ai":-1e2,"total":0},"visitors":[],"hasMore":false}`:                                        "totals.ai: -1e2 is negative",
		`{"totals":{"human":0,"ai":0,"total":1e40},"visitors":[],"hasMore":false}`:                                        "totals.total: 1e40 is out of range",
		`{"totals":{"human":0,"ai":0},"visitors":[],"hasMore":false}`:                                                     "totals.total: missing",
		`{"totals":{"human":0,"ai":0,"total":null},"visitors":[],"hasMore":false}`:                                        "totals.total: missing",
		`{"visitors":[],"hasMore":false}`:                                                                                 "totals: missing",
		`{"totals":{"human":0,"ai":0,"total":0},"hasMore":false}`:                                                         "visitors: missing",
		`{"totals":{"human":0,"ai":0,"total":0},"visitors":[]}`:                                                           "hasMore: missing",
		`{"totals":{"human":0,"ai":0,"total":0},"visitors":[` + good + `,{"human":1,"ai":1,"total":1}],"hasMore":false}`:  "visitors[1].path: missing",
		`{"totals":{"human":0,"ai":0,"total":0},"visitors":[{"path":"/a","human":1,"ai":1}],"hasMore":false}`:             "visitors[0].total: missing",
		`{"totals":{"human":0,"ai":0,"total":0},"visitors":[{"path":"/a","human":1,"ai":-4,"total":1}],"hasMore":false}`:  "visitors[0].ai: -4 is negative",
		`{"totals":{"human":0,"ai":0,"total":0},"visitors":[{"path":"/a","human":"1","ai":1,"total":1}],"hasMore":false}`: `visitors[0].human: want a number, got a string`,
		`{"totals":{"human":0,"ai":0,"total":0},"visitors":[{"path":"","human":1,"ai":1,"total":1}],"hasMore":false}`:     `visitors[0].path: missing or empty`,
		`{"totals":{"human":0,"ai":0,"total":0},"visitors":[{"path":7,"human":1,"ai":1,"total":1}],"hasMore":false}`:      `visitors[0].path: want a string, got a number`,
		`{"totals":{"human":0,"ai":0,"total":9223372036854775808},"visitors":[],"hasMore":false}`:                         "totals.total: 9223372036854775808 is out of range",
		`{"totals":{"human":0,"ai":0,"total":12345678901234567890123},"visitors":[],"hasMore":false}`:                     "totals.total: 12345678901234567890123 is out of range",
		`{"totals":{"human":0,"ai":0,"total":-12345678901234567890123},"visitors":[],"hasMore":false}`:                    "totals.total: -12345678901234567890123 is out of range",
		`{"totals":{"human":0,"ai":0,"total":1.5e1},"visitors":[],"hasMore":false}`:                                       "",
		`{"totals":{"human":0,"ai":0,"total":true},"visitors":[],"hasMore":false}`:                                        "totals.total: want a number, got true or false",
		`{"totals":"none","visitors":[],"hasMore":false}`:                                                                 "totals: want an object, got a string",
		`{"totals":{"human":0,"ai":0,"total":0},"visitors":{},"hasMore":false}`:                                           "visitors: want a list, got an object",
		`{"totals":{"human":0,"ai":0,"total":0},"visitors":[],"hasMore":"no"}`:                                            "hasMore: want true or false, got a string",
		`null`: "answer: want an object, got null",
	}
	for body, want := range bad {
		var got PathCountsPage
		err := decodePathCounts(decoding{}, []byte(body), "visitors", &got)
		if want == "" {
			if err != nil {
				t.Errorf("%s: %v", body, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", body, err, want)
		}
	}
	// The views export has the same shape under "views".
	var views PathCountsPage
	if err := decodePathCounts(decoding{}, []byte(`{"totals":{"human":1,"ai":1,"total":2},"views":[{"path":"/v","human":1,"ai":1,"total":2}],"hasMore":true}`), "views", &views); err != nil ||
		!cmp.Equal(views, PathCountsPage{Totals: Counts{1, 1, 2}, Paths: []PathCounts{{"/v", 1, 1, 2}}, HasMore: true}) {
		t.Errorf("views: %+v, %v", views, err)
	}
	if err := decodePathCounts(decoding{}, []byte(`{"totals":{"human":1,"ai":1,"total":2},"visitors":[],"hasMore":true}`), "views", &views); err == nil || err.Error() != "views: missing" {
		t.Errorf("views under visitors: %v", err)
	}
	for body, want := range map[string]string{
		`{"searches":[{"searchQuery":"x","hits":1.5,"ctr":0.1,"topClickedPage":null,"lastSearchedAt":"t"}],"totalSearches":1,"nextCursor":null}`: "searches[0].hits: 1.5 is not a whole number",
		`{"searches":[{"searchQuery":"x","hits":1,"ctr":-0.1,"topClickedPage":null,"lastSearchedAt":"t"}],"totalSearches":1,"nextCursor":null}`:  "searches[0].ctr: -0.1 is negative",
		`{"searches":[{"hits":1,"ctr":0,"topClickedPage":null,"lastSearchedAt":"t"}],"totalSearches":1,"nextCursor":null}`:                       "searches[0].searchQuery: missing",
		`{"searches":[],"nextCursor":null}`: "totalSearches: missing",
	} {
		var got SearchesPage
		if err := decodeAs([]byte(body), &got); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", body, err, want)
		}
	}
	for body, want := range map[string]string{
		`{"feedback":[{"id":"a","path":"/","comment":null,"createdAt":null,"status":"pending"}],"nextCursor":null,"hasMore":false}`: "feedback[0].source: missing",
		`{"feedback":[{"id":"a","path":"/","source":"agent"}],"nextCursor":null,"hasMore":false}`:                                   "feedback[0].status: missing",
		`{"feedback":[{"path":"/","source":"agent","status":"pending"}],"nextCursor":null,"hasMore":false}`:                         "feedback[0].id: missing",
		`{"feedback":"none","nextCursor":null,"hasMore":false}`:                                                                     "feedback: want a list, got a string",
		`{"feedback":[7],"nextCursor":null,"hasMore":false}`:                                                                        "feedback[0]: want an object, got a number",
	} {
		var got FeedbackPage
		if err := decodeAs([]byte(body), &got); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", body, err, want)
		}
	}
	for body, want := range map[string]string{
		`{"web":1,"api":2,"other":3}`:              "total: missing",
		`{"web":1.25,"api":2,"other":3,"total":6}`: "web: 1.25 is not a whole number",
	} {
		var got CallerStats
		if err := decodeAs([]byte(body), &got); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", body, err, want)
		}
	}
	var conv ConversationsPage
	if err := decodeAs([]byte(`{"conversations":[{"id":"a","timestamp":"t","query":"q","response":"r","resolutionStatus":"answered","queryCategory":null,"pageUrl":null}],"nextCursor":null,"hasMore":false}`), &conv); err == nil || !strings.Contains(err.Error(), "conversations[0].sources: missing") {
		t.Errorf("conversation without sources: %v", err)
	}
}

func TestDecode_malformedPageIsAnErrorOfTheRead(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, `{"totals":{"human":1,"ai":0,"total":1},"visitors":[{"path":"/a","human":-1,"ai":0,"total":1}],"hasMore":true}`))
	_, err := newTestClient(t, ts.URL, nil).Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{})
	if !IsMalformedResponse(err) || !strings.Contains(err.Error(), "getting unique visitors: malformed response to GET /v1/analytics/p/visitors: visitors[0].human: -1 is negative") || rec.count() != 1 {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
}

func TestPaging_cursorGuards(t *testing.T) {
	page := func(ids []string, next string, more bool) http.HandlerFunc {
		return jsonResponse(200, feedbackPage(next, more, ids...))
	}
	for name, tt := range map[string]struct {
		responses    []http.HandlerFunc
		want         string
		problem      PagingProblem
		wantRequests int
	}{
		"cursor repeated": {[]http.HandlerFunc{page([]string{"a"}, "c1", true), page([]string{"b"}, "c1", true)},
			`getting feedback: the page at cursor "c1" gives cursor "c1" again: the server is not advancing; stopping rather than loop; stopped after 2 requests`, PagingRepeatedCursor, 2},
		"more without a cursor": {[]http.HandlerFunc{page([]string{"a"}, "", true)},
			"getting feedback: the first page says there is more but gives no cursor to it; stopped after 1 request", PagingNoCursor, 1},
		"more with an empty cursor": {[]http.HandlerFunc{jsonResponse(200, `{"feedback":[{"id":"a","path":"/","comment":null,"createdAt":null,"source":"agent","status":"pending"}],"nextCursor":"","hasMore":true}`)},
			"getting feedback: the first page says there is more but gives no cursor to it; stopped after 1 request", PagingNoCursor, 1},
		"row repeated": {[]http.HandlerFunc{page([]string{"a", "b"}, "c1", true), page([]string{"c", "a"}, "c2", true)},
			`getting feedback: the page at cursor "c1" repeats id "a" from an earlier page: the server is not advancing; stopping rather than loop; stopped after 2 requests`, PagingRepeatedRow, 2},
		"empty with more": {[]http.HandlerFunc{page(nil, "c1", true)},
			"getting feedback: the first page is empty but says there is more; stopping rather than loop; stopped after 1 request", PagingEmptyWithMore, 1},
		"the start cursor comes back": {[]http.HandlerFunc{page([]string{"a"}, "start", true)},
			`getting feedback: the first page gives cursor "start" again: the server is not advancing; stopping rather than loop; stopped after 1 request`, PagingRepeatedCursor, 1},
	} {
		t.Run(name, func(t *testing.T) {
			rec, ts := newRecorder(t, tt.responses...)
			got, err := newTestClient(t, ts.URL, nil).Analytics.Feedback.All(context.Background(), "p", FeedbackQuery{Cursor: "start"})
			var pe *PagingError
			if got != nil || err == nil || err.Error() != tt.want || rec.count() != tt.wantRequests {
				t.Fatalf("got %+v, err = %v after %d requests", got, err, rec.count())
			}
			if !errors.As(err, &pe) || pe.Problem != tt.problem || pe.Endpoint != "feedback" || pe.Requests != tt.wantRequests {
				t.Errorf("paging error %+v", pe)
			}
		})
	}
	// hasMore false ends the read even when a cursor is given.
	rec, ts := newRecorder(t, page([]string{"a"}, "c1", false), page([]string{"b"}, "", false))
	got, err := newTestClient(t, ts.URL, nil).Analytics.Feedback.All(context.Background(), "p", FeedbackQuery{})
	if err != nil || len(got.Feedback) != 1 || rec.count() != 1 {
		t.Fatalf("%+v, %v, %d requests", got, err, rec.count())
	}
}

// A server that keeps saying there is more, with new rows each time, is
// stopped at the cap on requests per read.
func TestPaging_capOnRequestsPerRead(t *testing.T) {
	n := 0
	rec, ts := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		n++
		jsonResponse(200, visitorsPageJSON(true, fmt.Sprintf("/p%d", n)))(w, r)
	})
	c := newTestClient(t, ts.URL, nil, WithMaxPagesPerRead(5))
	_, err := c.Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{})
	want := "getting unique visitors: the page at offset 5 would pass the client's cap of 5 requests per read: the server keeps saying there is more; read fewer rows (a max_results) or raise the cap; stopped after 5 requests"
	var pe *PagingError
	if err == nil || err.Error() != want || rec.count() != 5 {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
	if !errors.As(err, &pe) || *pe != (PagingError{Endpoint: "unique visitors", Problem: PagingRequestCap, At: "the page at offset 5", Requests: 5, Detail: pe.Detail}) {
		t.Errorf("paging error %+v", pe)
	}
	// A cap of 1 reads one page, and a read that needs no second page is
	// not stopped by it.
	rec, ts = newRecorder(t, jsonResponse(200, visitorsPageJSON(true, "/a")), jsonResponse(200, visitorsPageJSON(false, "/b")))
	_, err = newTestClient(t, ts.URL, nil, WithMaxPagesPerRead(1)).Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{})
	if !errors.As(err, &pe) || pe.Problem != PagingRequestCap || pe.Requests != 1 || pe.At != "the page at offset 1" || rec.count() != 1 {
		t.Errorf("cap of 1: %v after %d requests", err, rec.count())
	}
	rec, ts = newRecorder(t, jsonResponse(200, visitorsPageJSON(true, "/a")), jsonResponse(200, visitorsPageJSON(false, "/b")))
	got, err := newTestClient(t, ts.URL, nil, WithMaxPagesPerRead(2)).Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{})
	if err != nil || len(got.Paths) != 2 || rec.count() != 2 {
		t.Errorf("two pages under a cap of 2: %+v, %v", got, err)
	}
	if _, err := NewClient("mint_x", WithMaxPagesPerRead(0)); err == nil {
		t.Error("a cap of 0 accepted")
	}
	if _, err := NewClient("mint_x", WithMaxPagesPerRead(1)); err != nil {
		t.Errorf("a cap of 1: %v", err)
	}
	// 100,000 paths at the largest page fit well inside the default cap.
	if 100000/MaxPageSize > DefaultMaxPagesPerRead/2 {
		t.Errorf("the default cap %d is too close to a 100,000-path read", DefaultMaxPagesPerRead)
	}
}

func TestDecode_analyticsStringsNeverHoldTheKey(t *testing.T) {
	key := mintlifytest.DemoAPIKey
	_, ts := newRecorder(t, jsonResponse(200, visitorsPageJSON(false, "/"+key, "/docs")))
	got, err := newTestClient(t, ts.URL, nil).Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if got.Paths[0].Path != "/[REDACTED]" || got.Paths[1].Path != "/docs" {
		t.Errorf("paths %+v", got.Paths)
	}
	_, ts = newRecorder(t, jsonResponse(200, `{"feedback":[{"id":"a","path":"/","comment":"my key is `+key+`","createdAt":null,"source":"contextual","status":"pending","helpful":true,"contact":"`+key+`"}],"nextCursor":null,"hasMore":false}`))
	fb, err := newTestClient(t, ts.URL, nil).Analytics.Feedback.All(context.Background(), "p", FeedbackQuery{})
	if err != nil || *fb.Feedback[0].Comment != "my key is [REDACTED]" || *fb.Feedback[0].Contact != "[REDACTED]" {
		t.Errorf("feedback %+v, %v", fb, err)
	}
}

// Cursors and keys a server sends are cut to 100 runes in errors.
func TestPaging_longCursorsAndKeysAreCutInErrors(t *testing.T) {
	cursor := strings.Repeat("c", 150)
	cut := strings.Repeat("c", 100) + "…"
	rec, ts := newRecorder(t, jsonResponse(200, feedbackPage(cursor, true, "a")), jsonResponse(200, feedbackPage(cursor, true, "b")))
	_, err := newTestClient(t, ts.URL, nil).Analytics.Feedback.All(context.Background(), "p", FeedbackQuery{})
	var pe *PagingError
	if !errors.As(err, &pe) || pe.At != "the page at cursor "+strconv.Quote(cut) || pe.Detail != "gives cursor "+strconv.Quote(cut)+" again: the server is not advancing; stopping rather than loop" || rec.count() != 2 {
		t.Errorf("err %v", err)
	}
	id := strings.Repeat("i", 101)
	_, ts = newRecorder(t, jsonResponse(200, feedbackPage("c1", true, id)), jsonResponse(200, feedbackPage("c2", true, id)))
	_, err = newTestClient(t, ts.URL, nil).Analytics.Feedback.All(context.Background(), "p", FeedbackQuery{})
	if !errors.As(err, &pe) || pe.Detail != "repeats id "+strconv.Quote(strings.Repeat("i", 100)+"…")+" from an earlier page: the server is not advancing; stopping rather than loop" {
		t.Errorf("err %v", err)
	}
}
