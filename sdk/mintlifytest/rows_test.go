package mintlifytest

import (
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func day(d int) time.Time { return time.Date(2027, 3, d, 0, 0, 0, 0, time.UTC) }

func ptr[T any](v T) *T { return &v }

// jsonOf is v as the API would write it, decoded generically: what a
// client reading the endpoint gets.
func jsonOf(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func TestSeedRows_visitorsAndViewsSumTheDaysInRange(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{Paths: 50}, AnalyticsBudget: -1})
	err := h.srv.SeedRows(DemoProjectID, Rows{
		Visitors: []PathDay{
			{Day: day(1), Path: "/a", Human: 10, AI: 1, Total: 11},
			{Day: day(2).Add(23 * time.Hour), Path: "/a", Human: 5, AI: 5, Total: 8}, // any time in the day
			{Day: day(2), Path: "/b", Human: 30, AI: 0, Total: 30},
			{Day: day(3), Path: "/c", Human: 99, AI: 99, Total: 99},
			{Day: day(1), Path: "/d", Human: 14, AI: 0, Total: 19},
		},
		Views: []PathDay{},
	})
	if err != nil {
		t.Fatal(err)
	}
	status, page := h.get("visitors?dateFrom=2027-03-01&dateTo=2027-03-03")
	want := map[string]any{
		"totals": map[string]any{"human": 59.0, "ai": 6.0, "total": 68.0},
		"visitors": []any{
			map[string]any{"path": "/b", "human": 30.0, "ai": 0.0, "total": 30.0},
			map[string]any{"path": "/a", "human": 15.0, "ai": 6.0, "total": 19.0},
			map[string]any{"path": "/d", "human": 14.0, "ai": 0.0, "total": 19.0},
		},
		"hasMore": false,
	}
	if diff := cmp.Diff(want, page); status != 200 || diff != "" {
		t.Errorf("%d (-want +got):\n%s", status, diff)
	}
	// Paging applies; a day counts when it starts within the range.
	if _, page := h.get("visitors?dateFrom=2027-03-01&dateTo=2027-03-03&limit=1&offset=1"); !cmp.Equal(page["visitors"], want["visitors"].([]any)[1:2]) || page["hasMore"] != true {
		t.Errorf("second page %v", page)
	}
	for query, paths := range map[string]int{
		"":                    4,
		"dateFrom=2027-03-03": 1, "dateTo=2027-03-03": 3,
		"dateFrom=2027-03-02T00:00:00.001Z": 1, "dateFrom=2027-03-01&dateTo=2027-03-01T00:00:00.001Z": 2,
		"dateTo=2027-03-01": 0,
	} {
		q, _ := url.ParseQuery(query)
		_, rows, err := h.srv.VisitorsData(DemoProjectID, q.Get("dateFrom"), q.Get("dateTo"))
		if _, page := h.get("visitors?" + query); err != nil || len(rows) != paths || len(list(page, "visitors")) != paths {
			t.Errorf("%q: %d rows served, VisitorsData %d (%v), want %d", query, len(list(page, "visitors")), len(rows), err, paths)
		}
	}
	// An empty seed leaves none; an unseeded kind keeps its generated rows.
	if _, page := h.get("views"); len(list(page, "views")) != 0 || !cmp.Equal(page["totals"], map[string]any{"human": 0.0, "ai": 0.0, "total": 0.0}) {
		t.Errorf("views seeded empty: %v", page)
	}
	if err := h.srv.SeedRows(DemoProjectID, Rows{Views: []PathDay{{Day: day(9), Path: "/v", Human: 1, Total: 1}}}); err != nil {
		t.Fatal(err)
	}
	if _, page := h.get("visitors"); len(list(page, "visitors")) != 4 {
		t.Error("seeding views changed the seeded visitors")
	}
	totals, rows, _ := h.srv.ViewsData(DemoProjectID, "", "")
	if totals != (Counts{Human: 1, Total: 1}) || len(rows) != 1 || rows[0] != (PathRow{Path: "/v", Human: 1, Total: 1}) {
		t.Errorf("ViewsData %v %v", totals, rows)
	}
	other := New(Config{Analytics: Dataset{Paths: 7}})
	_ = other.SeedRows(DemoProjectID, Rows{Searches: []SearchRow{}})
	if _, rows, _ := other.VisitorsData(DemoProjectID, "", ""); len(rows) != 7 {
		t.Errorf("seeding searches replaced the generated visitors: %d rows", len(rows))
	}
}

func TestSeedRows_searchesByLastSearchedAt(t *testing.T) {
	h := newHarness(t, Config{AnalyticsBudget: -1})
	rows := []SearchRow{
		{Query: "webhooks", Hits: 5, CTR: 0.2, TopClickedPage: ptr("/webhooks"), LastSearchedAt: "2027-03-02T10:00:00.000Z"},
		{Query: "api keys", Hits: 40, CTR: 0.75, LastSearchedAt: "2027-03-01T00:00:00.000Z"},
		{Query: "auth", Hits: 5, CTR: 0, LastSearchedAt: "2027-03-04T09:30:00Z"},
		{Query: "later", Hits: 1, LastSearchedAt: "2027-04-01T00:00:00.000Z"},
	}
	if err := h.srv.SeedRows(DemoProjectID, Rows{Searches: rows}); err != nil {
		t.Fatal(err)
	}
	got, pages := h.follow("searches?limit=1&dateFrom=2027-03-01&dateTo=2027-04-01", "searches")
	want := jsonOf(t, []SearchRow{rows[1], rows[2], rows[0]})
	if diff := cmp.Diff(want, jsonOf(t, got)); pages != 3 || diff != "" {
		t.Errorf("%d pages (-want +got):\n%s", pages, diff)
	}
	_, first := h.get("searches?dateFrom=2027-03-01&dateTo=2027-04-01")
	if first["totalSearches"] != 50.0 {
		t.Errorf("totalSearches %v", first["totalSearches"])
	}
	data, total, err := h.srv.SearchesData(DemoProjectID, Query{DateTo: "2027-04-01"})
	if err != nil || total != 50 || !cmp.Equal(jsonOf(t, data), want) {
		t.Errorf("SearchesData %v %d %v", data, total, err)
	}
	*data[2].TopClickedPage = "changed"
	if again, _, _ := h.srv.SearchesData(DemoProjectID, Query{}); *again[2].TopClickedPage != "/webhooks" {
		t.Error("SearchesData shares its rows")
	}
	rows[0].Query = "changed after seeding"
	if again, _, _ := h.srv.SearchesData(DemoProjectID, Query{}); again[2].Query != "webhooks" {
		t.Error("the seed shares the caller's rows")
	}
}

func TestSeedRows_feedbackFiltersAndShapes(t *testing.T) {
	h := newHarness(t, Config{AnalyticsBudget: -1})
	at := func(d, hour int) time.Time { return day(d).Add(time.Duration(hour)*time.Hour + 123456789) }
	entries := []FeedbackEntry{
		{ID: "f1", Path: "/a", CreatedAt: at(1, 1), Source: "contextual", Status: "pending", Helpful: true, Comment: ptr("Great"), Contact: ptr("r@x.dev")},
		{ID: "f2", Path: "/a", CreatedAt: at(2, 1), Source: "code_snippet", Status: "resolved", Code: "curl x", Filename: ptr("x.sh"), Lang: ptr("bash")},
		{ID: "f3", Path: "/b", CreatedAt: at(2, 1), Source: "thumbs_only", Status: "pending"},
		{ID: "f4", Path: "/b", CreatedAt: at(3, 5), Source: "contextual", Status: "dismissed", Helpful: false},
		{ID: "f5", Path: "/a", CreatedAt: at(4, 0), Source: "agent", Status: "in_progress", Comment: ptr("agent said")},
	}
	if err := h.srv.SeedRows(DemoProjectID, Rows{Feedback: entries}); err != nil {
		t.Fatal(err)
	}
	got, pages := h.follow("feedback?limit=2", "feedback")
	want := []any{
		map[string]any{"id": "f5", "path": "/a", "comment": "agent said", "createdAt": "2027-03-04T00:00:00.123Z", "source": "agent", "status": "in_progress"},
		map[string]any{"id": "f4", "path": "/b", "comment": nil, "createdAt": "2027-03-03T05:00:00.123Z", "source": "contextual", "status": "dismissed", "helpful": false, "contact": nil},
		map[string]any{"id": "f2", "path": "/a", "comment": nil, "createdAt": "2027-03-02T01:00:00.123Z", "source": "code_snippet", "status": "resolved", "code": "curl x", "filename": "x.sh", "lang": "bash"},
		map[string]any{"id": "f3", "path": "/b", "comment": nil, "createdAt": "2027-03-02T01:00:00.123Z", "source": "thumbs_only", "status": "pending"},
		map[string]any{"id": "f1", "path": "/a", "comment": "Great", "createdAt": "2027-03-01T01:00:00.123Z", "source": "contextual", "status": "pending", "helpful": true, "contact": "r@x.dev"},
	}
	if diff := cmp.Diff(want, jsonOf(t, got)); pages != 3 || diff != "" {
		t.Errorf("%d pages (-want +got):\n%s", pages, diff)
	}
	filtered, _ := h.follow("feedback?status=pending,resolved&dateFrom=2027-03-02", "feedback")
	if ids := idsOf(filtered); !cmp.Equal(ids, []string{"f2", "f3"}) {
		t.Errorf("filtered %v", ids)
	}
	data, err := h.srv.FeedbackData(DemoProjectID, Query{Source: "contextual"})
	if err != nil || len(data) != 2 || data[0].ID != "f4" || data[1].ID != "f1" || !data[1].CreatedAt.Equal(at(1, 1).Truncate(time.Millisecond)) {
		t.Errorf("FeedbackData %+v %v", data, err)
	}
	_, byPage := h.get("feedback/by-page")
	wantByPage := []any{
		map[string]any{"path": "/a", "thumbsUp": 1.0, "thumbsDown": 0.0, "code": 1.0, "total": 3.0},
		map[string]any{"path": "/b", "thumbsUp": 0.0, "thumbsDown": 1.0, "code": 0.0, "total": 2.0},
	}
	if diff := cmp.Diff(wantByPage, byPage["feedback"]); diff != "" {
		t.Errorf("by page (-want +got):\n%s", diff)
	}
	rows, err := h.srv.FeedbackByPageData(DemoProjectID, Query{Status: []string{"pending"}})
	if err != nil || len(rows) != 2 || rows[0] != (PageFeedbackRow{Path: "/a", ThumbsUp: 1, Total: 1}) || rows[1] != (PageFeedbackRow{Path: "/b", Total: 1}) {
		t.Errorf("FeedbackByPageData %+v %v", rows, err)
	}
}

func idsOf(rows []map[string]any) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r["id"].(string))
	}
	return out
}

func TestSeedRows_conversationsThreadsAndCallers(t *testing.T) {
	h := newHarness(t, Config{AnalyticsBudget: -1})
	at := time.Date(2027, 3, 2, 9, 0, 0, 0, time.UTC)
	convs := []Conversation{
		{ID: ulid(uint64(at.UnixMilli()), 12345, 7), Timestamp: at, Query: "How?", Response: "Like so.", ResponseType: "answer", ResolutionStatus: "answered", Caller: "api",
			Sources: []ConversationSource{{Title: "Guide", URL: "https://docs.acme.dev/guide"}}, QueryCategory: ptr("setup"),
			Thread: []ThreadMessage{{ID: "m1", Role: "user", Content: "How?", CreatedAt: at}, {ID: "m2", Role: "assistant", Content: "Like so.", CreatedAt: at.Add(time.Second)},
				{ID: "m3", Role: "user", Content: "Thanks", CreatedAt: at.Add(time.Minute)}}},
		{Timestamp: at.Add(time.Hour), Query: "Why?", Response: "Because.", ResolutionStatus: "unanswered", PageURL: ptr("https://docs.acme.dev/")},
		{Timestamp: at.Add(-24 * time.Hour), Query: "When?", Response: "Now.", ResolutionStatus: "answered", Caller: "other"},
	}
	if err := h.srv.SeedRows(DemoProjectID, Rows{Conversations: convs}); err != nil {
		t.Fatal(err)
	}
	got, pages := h.follow("assistant?limit=1", "conversations")
	if pages != 3 || len(got) != 3 || got[0]["query"] != "Why?" || got[1]["id"] != convs[0].ID || got[2]["query"] != "When?" {
		t.Fatalf("%d pages: %v", pages, got)
	}
	if !isULID(got[0]["id"].(string)) || got[0]["id"].(string)[:10] != ulid(uint64(at.Add(time.Hour).UnixMilli()), 0, 0)[:10] {
		t.Errorf("a generated id %v is not a ULID of its time", got[0]["id"])
	}
	wantFirst := map[string]any{"id": convs[0].ID, "timestamp": "2027-03-02T09:00:00.000Z", "query": "How?", "response": "Like so.", "responseType": "answer",
		"sources": []any{map[string]any{"title": "Guide", "url": "https://docs.acme.dev/guide"}}, "resolutionStatus": "answered", "queryCategory": "setup", "pageUrl": nil}
	if diff := cmp.Diff(wantFirst, got[1]); diff != "" {
		t.Errorf("served (-want +got):\n%s", diff)
	}
	if got[0]["sources"] == nil || len(got[0]["sources"].([]any)) != 0 {
		t.Errorf("nil sources served as %v, want []", got[0]["sources"])
	}
	_, thread := h.get("assistant/threads/" + convs[0].ID)
	wantThread := map[string]any{"threadId": convs[0].ID, "createdAt": "2027-03-02T09:00:00.000Z", "messages": []any{
		map[string]any{"id": "m1", "role": "user", "content": "How?", "createdAt": "2027-03-02T09:00:00.000Z"},
		map[string]any{"id": "m2", "role": "assistant", "content": "Like so.", "createdAt": "2027-03-02T09:00:01.000Z"},
		map[string]any{"id": "m3", "role": "user", "content": "Thanks", "createdAt": "2027-03-02T09:01:00.000Z"},
	}}
	if diff := cmp.Diff(wantThread, thread); diff != "" {
		t.Errorf("seeded thread (-want +got):\n%s", diff)
	}
	generated := got[0]["id"].(string)
	th, err := h.srv.ThreadData(DemoProjectID, generated)
	want := Thread{ThreadID: generated, CreatedAt: at.Add(time.Hour), Messages: []ThreadMessage{
		{ID: generated + "-1", Role: "user", Content: "Why?", CreatedAt: at.Add(time.Hour)},
		{ID: generated + "-2", Role: "assistant", Content: "Because.", CreatedAt: at.Add(time.Hour + 1500*time.Millisecond)},
	}}
	if diff := cmp.Diff(want, th); err != nil || diff != "" {
		t.Errorf("ThreadData %v (-want +got):\n%s", err, diff)
	}
	_, stats := h.get("assistant/caller-stats")
	if diff := cmp.Diff(map[string]any{"web": 1.0, "api": 1.0, "other": 1.0, "total": 3.0}, stats); diff != "" {
		t.Errorf("caller stats (-want +got):\n%s", diff)
	}
	cs, err := h.srv.CallerStatsData(DemoProjectID, Query{DateFrom: "2027-03-02"})
	if err != nil || cs != (CallerStats{Web: 1, API: 1, Total: 2}) {
		t.Errorf("CallerStatsData %+v %v", cs, err)
	}
	data, err := h.srv.ConversationsData(DemoProjectID, Query{DateTo: "2027-03-02"})
	if err != nil || len(data) != 1 || data[0].Query != "When?" || data[0].Caller != "other" || data[0].Thread != nil {
		t.Errorf("ConversationsData %+v %v", data, err)
	}
	all, _ := h.srv.ConversationsData(DemoProjectID, Query{})
	all[1].Sources[0].Title = "changed"
	all[1].Thread[0].Content = "changed"
	if again, _ := h.srv.ConversationsData(DemoProjectID, Query{}); again[1].Sources[0].Title != "Guide" || again[1].Thread[0].Content != "How?" {
		t.Error("ConversationsData shares its rows")
	}
	if _, err := h.srv.ThreadData(DemoProjectID, "01ARZ3NDEKTSV4RRFFQ69G5FAV"); err == nil || err.Error() != "Thread not found" {
		t.Errorf("unknown thread: %v", err)
	}
	if _, err := h.srv.ThreadData(DemoProjectID, "nope"); err == nil || err.Error() != "Invalid thread ID" {
		t.Errorf("bad thread id: %v", err)
	}
}

func TestSeedRows_refusesRowsTheAPICouldNotServe(t *testing.T) {
	s := New(Config{Analytics: Dataset{Paths: 3}})
	good := FeedbackEntry{ID: "f", Path: "/", CreatedAt: t0, Source: "agent", Status: "pending"}
	for want, rows := range map[string]Rows{
		`Visitors[1]: a PathDay needs a Day and a Path`:         {Visitors: []PathDay{{Path: "/"}}},
		`Views[1]: a PathDay needs a Day and a Path`:            {Views: []PathDay{{Day: t0, Path: "/"}, {Day: t0}}},
		`Searches[0]: no query`:                                 {Searches: []SearchRow{{LastSearchedAt: "2027-03-01"}}},
		`Searches[0]: lastSearchedAt "yesterday" is not a time`: {Searches: []SearchRow{{Query: "q", LastSearchedAt: "yesterday"}}},
		`Feedback[1]: id "f" is empty or used twice`:            {Feedback: []FeedbackEntry{good, good}},
		`Feedback[0]: id "" is empty or used twice`:             {Feedback: []FeedbackEntry{{}}},
		`Feedback[0]: source "email" is not one of`:             {Feedback: []FeedbackEntry{{ID: "x", Source: "email", Status: "pending", CreatedAt: t0}}},
		`Feedback[0]: status "open" is not one of`:              {Feedback: []FeedbackEntry{{ID: "x", Source: "agent", Status: "open", CreatedAt: t0}}},
		`Feedback[0]: no createdAt`:                             {Feedback: []FeedbackEntry{{ID: "x", Source: "agent", Status: "pending"}}},
		`Conversations[0]: no timestamp (or one before 1970)`:   {Conversations: []Conversation{{}}},
		`Conversations[0]: id "12" is not a ULID`:               {Conversations: []Conversation{{ID: "12", Timestamp: t0}}},
		`Conversations[1]: id "01ARZ3NDEKTSV4RRFFQ69G5FAV" is not a ULID, or is used twice`: {Conversations: []Conversation{
			{ID: "01ARZ3NDEKTSV4RRFFQ69G5FAV", Timestamp: t0}, {ID: "01ARZ3NDEKTSV4RRFFQ69G5FAV", Timestamp: t0}}},
		`Conversations[0]: caller "mobile" is not web, api or other`: {Conversations: []Conversation{{Timestamp: t0, Caller: "mobile"}}},
	} {
		// A good kind before the bad one is not applied either.
		rows.Visitors = append([]PathDay{{Day: t0, Path: "/only"}}, rows.Visitors...)
		if err := s.SeedRows(DemoProjectID, rows); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v, want %q", err, want)
		}
		if _, got, _ := s.VisitorsData(DemoProjectID, "", ""); len(got) != 3 {
			t.Errorf("a refused seed changed the visitors: %v", got)
		}
	}
	if err := s.SeedRows("nope", Rows{}); err == nil || !strings.Contains(err.Error(), `no project "nope"`) {
		t.Errorf("unknown project: %v", err)
	}
	for name, read := range map[string]func() error{
		"SearchesData": func() error { _, _, err := s.SearchesData("nope", Query{}); return err },
		"FeedbackData": func() error { _, err := s.FeedbackData(DemoProjectID, Query{Source: "email"}); return err },
		"FeedbackByPageData": func() error {
			_, err := s.FeedbackByPageData(DemoProjectID, Query{Status: []string{"open"}})
			return err
		},
		"ConversationsData": func() error { _, err := s.ConversationsData(DemoProjectID, Query{DateFrom: "x"}); return err },
		"CallerStatsData":   func() error { _, err := s.CallerStatsData(DemoProjectID, Query{DateTo: "x"}); return err },
		"ThreadData":        func() error { _, err := s.ThreadData("nope", "x"); return err },
	} {
		if read() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// The typed readers read what Data reads, for generated data too.
func TestReaders_agreeWithData(t *testing.T) {
	s := New(Config{Analytics: Dataset{Paths: 20, SearchTerms: 30, Feedback: 60, Conversations: 40, Seed: 3}})
	q := Query{DateFrom: "2026-10-01", DateTo: "2026-10-25", Source: "contextual"}
	check := func(route string, typed any) {
		t.Helper()
		raw, err := s.Data(DemoProjectID, route, q.values())
		if err != nil {
			t.Fatal(err)
		}
		var want any
		_ = json.Unmarshal(raw, &want)
		if diff := cmp.Diff(want, jsonOf(t, typed)); diff != "" {
			t.Errorf("%s (-Data +typed):\n%s", route, diff)
		}
	}
	rows, total, _ := s.SearchesData(DemoProjectID, q)
	check(RouteAnalyticsSearches, map[string]any{"searches": rows, "totalSearches": total, "nextCursor": nil})
	fb, _ := s.FeedbackData(DemoProjectID, q)
	check(RouteAnalyticsFeedback, map[string]any{"feedback": fb, "nextCursor": nil, "hasMore": false})
	bp, _ := s.FeedbackByPageData(DemoProjectID, q)
	check(RouteAnalyticsFeedbackByPage, map[string]any{"feedback": bp, "hasMore": false})
	cv, _ := s.ConversationsData(DemoProjectID, q)
	check(RouteAnalyticsConversations, map[string]any{"conversations": cv, "nextCursor": nil, "hasMore": false})
	cs, _ := s.CallerStatsData(DemoProjectID, q)
	check(RouteAnalyticsCallerStats, cs)
	if len(rows) == 0 || len(fb) == 0 || len(bp) == 0 || len(cv) == 0 || cs.Total == 0 {
		t.Fatalf("empty answers: %d %d %d %d %d", len(rows), len(fb), len(bp), len(cv), cs.Total)
	}
	th, _ := s.ThreadData(DemoProjectID, cv[0].ID)
	raw, _ := s.Data(DemoProjectID, RouteAnalyticsThread, url.Values{"threadId": {cv[0].ID}})
	var want any
	_ = json.Unmarshal(raw, &want)
	if diff := cmp.Diff(want, jsonOf(t, th)); diff != "" {
		t.Errorf("thread (-Data +typed):\n%s", diff)
	}
}
