package mintlifytest

import (
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// get reads an analytics export of the demo project.
func (h *harness) get(endpoint string) (int, map[string]any) {
	h.t.Helper()
	status, _, body := h.call("GET", "/v1/analytics/demo-project/"+endpoint, "")
	return status, body
}

func list(body map[string]any, key string) []map[string]any {
	var out []map[string]any
	for _, r := range body[key].([]any) {
		out = append(out, r.(map[string]any))
	}
	return out
}

func num(v any) int64 { return int64(v.(float64)) }

// follow reads every page of a cursor-paged export, from the first page.
func (h *harness) follow(endpoint, key string) (rows []map[string]any, pages int) {
	h.t.Helper()
	sep := "?"
	if strings.Contains(endpoint, "?") {
		sep = "&"
	}
	cursor := ""
	for {
		q := endpoint
		if cursor != "" {
			q += sep + "cursor=" + url.QueryEscape(cursor)
		}
		status, body := h.get(q)
		if status != 200 {
			h.t.Fatalf("%s: %d %v", q, status, body)
		}
		pages++
		rows = append(rows, list(body, key)...)
		next, _ := body["nextCursor"].(string)
		if more, ok := body["hasMore"].(bool); (ok && !more) || next == "" {
			if ok && more {
				h.t.Fatalf("%s: hasMore without a cursor", q)
			}
			return rows, pages
		}
		cursor = next
	}
}

func TestViews_areEventsThatAddUp(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{Paths: 40, Seed: 2}})
	_, views := h.get("views?limit=250&dateFrom=2026-10-01&dateTo=2026-10-08")
	_, visitors := h.get("visitors?limit=250&dateFrom=2026-10-01&dateTo=2026-10-08")
	if _, ok := views["visitors"]; ok {
		t.Fatal("views answered under the visitors key")
	}
	vrows, urows := list(views, "views"), list(visitors, "visitors")
	if len(vrows) != 40 || len(urows) != 40 {
		t.Fatalf("%d view rows, %d visitor rows", len(vrows), len(urows))
	}
	byPath := map[string]map[string]any{}
	for _, r := range urows {
		byPath[r["path"].(string)] = r
	}
	var h0, a0 int64
	for i, r := range vrows {
		if num(r["total"]) != num(r["human"])+num(r["ai"]) {
			t.Errorf("row %v: view events add up", r)
		}
		// Over a week a visitor may come back (a week's uniques are fewer
		// than its days' added up): a week's views are at least its
		// visitors'; TestDataset_aDayIsPartOfItsRange bounds a day's.
		u := byPath[r["path"].(string)]
		if num(r["human"]) < num(u["human"]) || num(r["ai"]) < num(u["ai"]) {
			t.Errorf("path %s: views %v for visitors %v (each visitor views at least once)", r["path"], r, u)
		}
		if i > 0 && num(vrows[i-1]["total"]) < num(r["total"]) {
			t.Errorf("views out of order at %d", i)
		}
		h0 += num(r["human"])
		a0 += num(r["ai"])
	}
	tot := views["totals"].(map[string]any)
	if num(tot["human"]) != h0 || num(tot["ai"]) != a0 || num(tot["total"]) != h0+a0 {
		t.Errorf("totals %v, sums %d %d", tot, h0, a0)
	}
	var sumViews int64
	for _, r := range vrows {
		sumViews += num(r["human"])
	}
	if sumViews == 0 {
		t.Error("no views")
	}
	// A longer range has more views, and outside the data none.
	_, week2 := h.get("views?dateFrom=2026-10-01&dateTo=2026-10-15")
	if num(week2["totals"].(map[string]any)["human"]) <= num(tot["human"]) {
		t.Error("two weeks have no more views than one")
	}
	if _, none := h.get("views?dateFrom=2027-01-01"); len(list(none, "views")) != 0 || none["hasMore"] != false {
		t.Errorf("views outside the data: %v", none)
	}
	if status, _ := h.get("views?limit=1.5"); status != 400 {
		t.Errorf("fractional integer limit: %d", status)
	}
}

func TestSearches_orderTotalsAndCursors(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{SearchTerms: 130, Paths: 8, Seed: 4}})
	rows, pages := h.follow("searches?limit=40", "searches")
	if len(rows) == 0 || len(rows) > 130 || pages != (len(rows)+39)/40 {
		t.Fatalf("%d rows in %d pages", len(rows), pages)
	}
	seen := map[string]bool{}
	var sum int64
	for i, r := range rows {
		q := r["searchQuery"].(string)
		if seen[q] {
			t.Fatalf("%q twice", q)
		}
		seen[q] = true
		sum += num(r["hits"])
		if num(r["hits"]) <= 0 || r["ctr"].(float64) < 0 || r["ctr"].(float64) > 1 {
			t.Errorf("row %v", r)
		}
		if i > 0 {
			prev := rows[i-1]
			if num(prev["hits"]) < num(r["hits"]) || (num(prev["hits"]) == num(r["hits"]) && prev["searchQuery"].(string) > q) {
				t.Errorf("out of order at %d", i)
			}
		}
		last, err := time.Parse("2006-01-02T15:04:05.000Z", r["lastSearchedAt"].(string))
		if err != nil || last.Before(time.Date(2026, 8, 3, 0, 0, 0, 0, time.UTC)) || !last.Before(defaultDataEnd) {
			t.Errorf("lastSearchedAt %v", r["lastSearchedAt"])
		}
		if p, ok := r["topClickedPage"].(string); ok && !strings.HasPrefix(p, "/") {
			t.Errorf("topClickedPage %q", p)
		}
	}
	_, first := h.get("searches")
	if num(first["totalSearches"]) != sum || len(list(first, "searches")) != 50 {
		t.Errorf("totalSearches %v, sum of hits %d; first page %d rows (default 50)", first["totalSearches"], sum, len(list(first, "searches")))
	}
	// A day in range: fewer hits, and every lastSearchedAt that day.
	_, day := h.get("searches?dateFrom=2026-10-05&dateTo=2026-10-06&limit=100")
	for _, r := range list(day, "searches") {
		if !strings.HasPrefix(r["lastSearchedAt"].(string), "2026-10-05T") {
			t.Errorf("a term searched on the 5th was last searched %v", r["lastSearchedAt"])
		}
	}
	if num(day["totalSearches"]) >= sum {
		t.Error("one day has as many searches as 90")
	}
	// Cursors belong to their query and are checked.
	_, p1 := h.get("searches?limit=10")
	next := p1["nextCursor"].(string)
	for _, q := range []string{"searches?cursor=garbage", "searches?cursor=" + url.QueryEscape(next) + "&dateFrom=2026-10-01", "searches?limit=101", "searches?limit=0"} {
		if status, body := h.get(q); status != 400 {
			t.Errorf("%s: %d %v", q, status, body)
		}
	}
	if _, p2 := h.get("searches?limit=5&cursor=" + url.QueryEscape(next)); !cmp.Equal(list(p2, "searches"), rows[10:15]) {
		t.Errorf("the page after the cursor is not rows 10 to 15")
	}
	if status, body := h.get("searches?limit=20.0"); status != 200 || len(list(body, "searches")) != 20 {
		t.Errorf("limit 20.0: %d", status)
	}
}

func TestFeedback_filtersShapesAndCursors(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{Feedback: 500, Paths: 25, Seed: 8}})
	all, pages := h.follow("feedback?limit=100", "feedback")
	if len(all) != 500 || pages != 5 {
		t.Fatalf("%d entries in %d pages", len(all), pages)
	}
	sources := map[string]int{}
	for i, f := range all {
		sources[f["source"].(string)]++
		keys := []string{"comment", "createdAt", "id", "path", "source", "status"}
		switch f["source"] {
		case "contextual":
			keys = append(keys, "contact", "helpful")
		case "code_snippet":
			keys = append(keys, "code", "filename", "lang")
		}
		sort.Strings(keys)
		var got []string
		for k := range f {
			got = append(got, k)
		}
		sort.Strings(got)
		if diff := cmp.Diff(keys, got); diff != "" {
			t.Fatalf("%s entry fields (-want +got):\n%s", f["source"], diff)
		}
		if i > 0 && all[i-1]["createdAt"].(string) < f["createdAt"].(string) {
			t.Fatalf("not newest first at %d", i)
		}
		if f["source"] == "thumbs_only" && f["comment"] != nil {
			t.Errorf("a vote with a comment: %v", f)
		}
	}
	for _, s := range feedbackSources {
		if sources[s] == 0 {
			t.Errorf("no %s feedback among %v", s, sources)
		}
	}
	if sources["contextual"] < sources["agent"] {
		t.Errorf("sources %v: contextual should be the most common", sources)
	}
	filtered, _ := h.follow("feedback?source=contextual&status=pending,resolved&dateFrom=2026-10-01&dateTo=2026-10-15", "feedback")
	want := 0
	for _, f := range all {
		c := f["createdAt"].(string)
		if f["source"] == "contextual" && (f["status"] == "pending" || f["status"] == "resolved") && c >= "2026-10-01" && c < "2026-10-15" {
			want++
		}
	}
	if len(filtered) != want || want == 0 {
		t.Errorf("filtered %d entries, want %d", len(filtered), want)
	}
	_, def := h.get("feedback")
	if len(list(def, "feedback")) != 50 || def["hasMore"] != true {
		t.Errorf("default page: %d rows", len(list(def, "feedback")))
	}
	for _, q := range []string{"feedback?source=email", "feedback?status=pending,open", "feedback?limit=101", "feedback?cursor=x"} {
		if status, body := h.get(q); status != 400 {
			t.Errorf("%s: %d %v", q, status, body)
		}
	}
}

func TestFeedbackByPage_countsTheFilteredEntries(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{Feedback: 400, Paths: 30, Seed: 3}})
	entries, _ := h.follow("feedback?limit=100&dateFrom=2026-09-01", "feedback")
	want := map[string][4]int64{}
	for _, f := range entries {
		c := want[f["path"].(string)]
		c[3]++
		switch {
		case f["source"] == "contextual" && f["helpful"] == true:
			c[0]++
		case f["source"] == "contextual":
			c[1]++
		case f["source"] == "code_snippet":
			c[2]++
		}
		want[f["path"].(string)] = c
	}
	_, body := h.get("feedback/by-page?limit=100&dateFrom=2026-09-01")
	rows := list(body, "feedback")
	if len(rows) != len(want) || body["hasMore"] != false {
		t.Fatalf("%d pages, want %d (hasMore %v)", len(rows), len(want), body["hasMore"])
	}
	for i, r := range rows {
		w := want[r["path"].(string)]
		if got := [4]int64{num(r["thumbsUp"]), num(r["thumbsDown"]), num(r["code"]), num(r["total"])}; got != w {
			t.Errorf("%s: %v, want %v", r["path"], got, w)
		}
		if i > 0 && (num(rows[i-1]["total"]) < num(r["total"]) || (num(rows[i-1]["total"]) == num(r["total"]) && rows[i-1]["path"].(string) > r["path"].(string))) {
			t.Errorf("out of order at %d", i)
		}
	}
	_, def := h.get("feedback/by-page")
	if len(list(def, "feedback")) != 10 || def["hasMore"] != true {
		t.Errorf("default: %d pages, hasMore %v", len(list(def, "feedback")), def["hasMore"])
	}
	_, code := h.get("feedback/by-page?source=code_snippet&limit=100")
	for _, r := range list(code, "feedback") {
		if num(r["code"]) != num(r["total"]) || num(r["thumbsUp"])+num(r["thumbsDown"]) != 0 {
			t.Errorf("code-only counts %v", r)
		}
	}
	if status, _ := h.get("feedback/by-page?limit=0"); status != 400 {
		t.Errorf("limit 0: %d", status)
	}
}

func TestAssistant_conversationsNewestFirstByULID(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{Conversations: 1300, Paths: 12, Seed: 6}})
	rows, pages := h.follow("assistant?limit=500", "conversations")
	if len(rows) != 1300 || pages != 3 {
		t.Fatalf("%d conversations in %d pages", len(rows), pages)
	}
	kinds := map[string]int{}
	for i, c := range rows {
		id := c["id"].(string)
		if !isULID(id) {
			t.Fatalf("id %q is not a ULID", id)
		}
		if i > 0 && (rows[i-1]["id"].(string) <= id || rows[i-1]["timestamp"].(string) < c["timestamp"].(string)) {
			t.Fatalf("not newest first at %d", i)
		}
		rt, _ := c["responseType"].(string)
		kinds["responseType "+rt]++
		kinds[c["resolutionStatus"].(string)]++
		if len(c["sources"].([]any)) > 0 {
			kinds["with sources"]++
		}
		if c["pageUrl"] != nil {
			kinds["with page"]++
		}
		if c["queryCategory"] != nil {
			kinds["categorized"]++
		}
	}
	for _, k := range []string{"responseType answer", "responseType clarifying_question", "responseType ", "answered", "unanswered", "with sources", "with page", "categorized"} {
		if kinds[k] == 0 {
			t.Errorf("no conversation %q among %v", k, kinds)
		}
	}
	_, def := h.get("assistant")
	if len(list(def, "conversations")) != 100 || def["nextCursor"] != list(def, "conversations")[99]["id"] {
		t.Errorf("default page: %d rows, cursor %v", len(list(def, "conversations")), def["nextCursor"])
	}
	for _, q := range []string{"assistant?cursor=12", "assistant?limit=1001", "assistant?dateTo=2026-13-01"} {
		if status, _ := h.get(q); status != 400 {
			t.Errorf("%s: %d", q, status)
		}
	}
	// The ULID's time is the conversation's.
	id, ts := rows[0]["id"].(string), rows[0]["timestamp"].(string)
	at, _ := time.Parse(wireTime, ts)
	if want := ulid(uint64(at.UnixMilli()), 0, 0)[:10]; id[:10] != want {
		t.Errorf("id %s, time prefix of %s is %s", id, ts, want)
	}
}

func TestThreadsAndCallerStats(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{Conversations: 300, Seed: 1}})
	convs, _ := h.follow("assistant?limit=1000", "conversations")
	c := convs[42]
	status, thread := h.get("assistant/threads/" + c["id"].(string))
	msgs := list(thread, "messages")
	if status != 200 || thread["threadId"] != c["id"] || thread["createdAt"] != c["timestamp"] || len(msgs) != 2 ||
		msgs[0]["role"] != "user" || msgs[0]["content"] != c["query"] || msgs[1]["role"] != "assistant" || msgs[1]["content"] != c["response"] {
		t.Fatalf("thread %d %v for %v", status, thread, c)
	}
	if status, body := h.get("assistant/threads/01ARZ3NDEKTSV4RRFFQ69G5FAV"); status != 404 || body["error"] != "Thread not found" {
		t.Errorf("unknown thread: %d %v", status, body)
	}
	if status, body := h.get("assistant/threads/nope"); status != 400 || body["error"] != "Invalid thread ID" {
		t.Errorf("bad thread id: %d %v", status, body)
	}
	_, stats := h.get("assistant/caller-stats")
	if num(stats["total"]) != 300 || num(stats["web"])+num(stats["api"])+num(stats["other"]) != 300 || num(stats["web"]) < num(stats["api"]) || num(stats["other"]) == 0 {
		t.Errorf("stats %v", stats)
	}
	inOct := 0
	for _, c := range convs {
		if ts := c["timestamp"].(string); ts >= "2026-10-01" && ts < "2026-10-11" {
			inOct++
		}
	}
	if _, oct := h.get("assistant/caller-stats?dateFrom=2026-10-01&dateTo=2026-10-11"); num(oct["total"]) != int64(inOct) {
		t.Errorf("ten days: %v, want %d", oct, inOct)
	}
}

func TestAnalyticsBudget_isSharedByEveryEndpoint(t *testing.T) {
	var analyticsRoutes []string
	for _, rt := range Routes() {
		if rt.Area == areaAnalytics {
			analyticsRoutes = append(analyticsRoutes, rt.Pattern)
		}
	}
	h := newHarness(t, Config{AnalyticsBudget: len(analyticsRoutes) - 1, Analytics: Dataset{Conversations: 2}})
	endpoints := []string{"visitors", "views", "searches", "feedback", "feedback/by-page", "assistant", "assistant/caller-stats"}
	for _, e := range endpoints {
		if status, _ := h.get(e); status != 200 {
			t.Fatalf("%s: %d", e, status)
		}
	}
	status, header, body := h.call("GET", "/v1/analytics/demo-project/assistant/threads/01ARZ3NDEKTSV4RRFFQ69G5FAV", "")
	if status != 429 || header.Get("Retry-After") != "3600" || body["error"] != "Too many requests" {
		t.Errorf("the eighth analytics call of the hour: %d %v %v", status, header, body)
	}
	for _, r := range analyticsRoutes {
		if n := h.srv.Requests(r); n != 1 {
			t.Errorf("%s: %d requests", r, n)
		}
	}
	// Job calls have their own budget.
	if status, _, _ := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`); status != 201 {
		t.Errorf("job creation: %d", status)
	}
}

func TestData_isTheWholeAnswerWithoutPaging(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{Paths: 300, SearchTerms: 60, Feedback: 150, Conversations: 150}})
	for route, endpoint := range map[string]string{RouteAnalyticsVisitors: "visitors", RouteAnalyticsViews: "views", RouteAnalyticsSearches: "searches",
		RouteAnalyticsFeedback: "feedback", RouteAnalyticsFeedbackByPage: "feedback/by-page", RouteAnalyticsConversations: "assistant", RouteAnalyticsCallerStats: "assistant/caller-stats"} {
		raw, err := h.srv.Data(DemoProjectID, route, url.Values{"limit": {"3"}, "dateFrom": {"2026-10-01"}})
		if err != nil {
			t.Fatal(err)
		}
		var data map[string]any
		_ = json.Unmarshal(raw, &data)
		key := map[string]string{RouteAnalyticsVisitors: "visitors", RouteAnalyticsViews: "views", RouteAnalyticsSearches: "searches", RouteAnalyticsFeedback: "feedback",
			RouteAnalyticsFeedbackByPage: "feedback", RouteAnalyticsConversations: "conversations"}[route]
		if key == "" {
			_, served := h.get(endpoint + "?dateFrom=2026-10-01")
			if !cmp.Equal(data, served) {
				t.Errorf("%s: Data %v, served %v", route, data, served)
			}
			continue
		}
		rows := list(data, key)
		if len(rows) <= 3 || data["hasMore"] == true || data["nextCursor"] != nil {
			t.Errorf("%s: %d rows, hasMore %v, cursor %v: paging parameters were not ignored", route, len(rows), data["hasMore"], data["nextCursor"])
		}
		_, first := h.get(endpoint + "?limit=3&dateFrom=2026-10-01")
		if !cmp.Equal(list(first, key), rows[:3]) {
			t.Errorf("%s: Data's first rows differ from the first page", route)
		}
	}
	if h.srv.TotalRequests() != 7 {
		t.Errorf("Data counted as requests: %d", h.srv.TotalRequests())
	}
	thread, err := h.srv.Data(DemoProjectID, RouteAnalyticsThread, url.Values{"threadId": {"01ARZ3NDEKTSV4RRFFQ69G5FAV"}})
	if err == nil || !strings.Contains(err.Error(), "Thread not found") {
		t.Errorf("unknown thread: %s %v", thread, err)
	}
	for _, tt := range []struct {
		project, route string
		q              url.Values
		want           string
	}{
		{"nope", RouteAnalyticsVisitors, nil, `no project "nope"`},
		{DemoProjectID, RouteAgentJobsCreate, nil, "is not an analytics export"},
		{DemoProjectID, RouteAnalyticsVisitors, url.Values{"dateFrom": {"x"}}, "dateFrom: Invalid date"},
	} {
		if _, err := h.srv.Data(tt.project, tt.route, tt.q); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: %v, want %q", tt, err, tt.want)
		}
	}
}

func TestDates_everyFormTheSpecAccepts(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{Paths: 3, Days: 10, End: time.Date(2026, 10, 11, 0, 0, 0, 0, time.UTC)}})
	day := func(from, to string) int64 {
		t.Helper()
		status, body := h.get("visitors?dateFrom=" + url.QueryEscape(from) + "&dateTo=" + url.QueryEscape(to))
		if status != 200 {
			t.Fatalf("%s..%s: %d %v", from, to, status, body)
		}
		return num(body["totals"].(map[string]any)["human"])
	}
	want := day("2026-10-03", "2026-10-04")
	for _, r := range [][2]string{{"2026-10-03T00:00:00Z", "2026-10-04T00:00:00Z"}, {"2026-10-03T00:00:00", "2026-10-03T00:00:01"},
		{"2026-10-03T02:00:00+02:00", "2026-10-04T02:00:00+0200"}, {"2026-10-02T22:00-02", "2026-10-03T01:00"}, {"2026-10-03T00:00:00.000Z", "2026-10-03T12:00Z"}} {
		if got := day(r[0], r[1]); got != want {
			t.Errorf("%v: %d, want the day's %d", r, got, want)
		}
	}
	if empty := day("2026-12-01", "2026-12-02"); empty != 0 {
		t.Errorf("no data there: %d", empty)
	}
	if day("2026-10-01", "2026-10-11") <= want {
		t.Error("ten days are not more than one")
	}
}

func TestULID_encodesTimeFirst(t *testing.T) {
	// The ULID specification's example: 01ARYZ6S41 is 1469918176385 ms.
	if got := ulid(1469918176385, 0, 0); got[:10] != "01ARYZ6S41" || len(got) != 26 || got[10:] != "0000000000000000" {
		t.Errorf("ulid = %s", got)
	}
	if got := ulid(0, 1, 0); got != "00000000000000000000000001" {
		t.Errorf("ulid(0, 1) = %s", got)
	}
	if got := ulid(0, 0, 1); got != "0000000000000G000000000000" { // 2^64: digit 12 from the right is 16
		t.Errorf("ulid(0, 0, 1) = %s", got)
	}
	for s, want := range map[string]bool{"01ARYZ6S41TSV4RRFFQ69G5FAV": true, "81ARYZ6S41TSV4RRFFQ69G5FAV": false, "01ARYZ6S41TSV4RRFFQ69G5FA": false, "01ARYZ6S41TSV4RRFFQ69G5FAU": false} {
		if isULID(s) != want {
			t.Errorf("isULID(%s) = %v", s, !want)
		}
	}
}
