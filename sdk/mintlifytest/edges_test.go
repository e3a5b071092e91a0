package mintlifytest

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The edges of the fake's behavior that the scenario tests pass by: each
// test here is one rule, at the value where it flips.

func TestFault_retryAfterIsWholeSecondsRoundedUp(t *testing.T) {
	for after, want := range map[time.Duration]string{
		2 * time.Second:         "2",
		2*time.Second + 1:       "3",
		time.Millisecond:        "1",
		0:                       "0",
		-time.Second:            "", // no header at all
		time.Hour + time.Second: "3601",
	} {
		h := newHarness(t, Config{Faults: []Fault{{Kind: FaultRateLimit, RetryAfter: after}}})
		status, header, _ := h.call("GET", "/v1/analytics/demo-project/visitors", "")
		got, sent := header["Retry-After"]
		if status != http.StatusTooManyRequests || (want == "") == sent || (sent && got[0] != want) {
			t.Errorf("RetryAfter %s: %d, Retry-After %q (sent %v), want %q", after, status, got, sent, want)
		}
	}
}

func TestJobMarkers_everyMarkerInThePromptCounts(t *testing.T) {
	h := newHarness(t, Config{})
	_, _, j := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"[fake:active=5s] then [fake:failed]"}`)
	h.clk.Advance(4 * time.Second)
	if _, _, got := h.call("GET", "/v2/agent/demo-project/job/"+j["id"].(string), ""); got["status"] != "active" {
		t.Errorf("at 4s: %v", got["status"])
	}
	h.clk.Advance(time.Second)
	if _, _, got := h.call("GET", "/v2/agent/demo-project/job/"+j["id"].(string), ""); got["status"] != "failed" {
		t.Errorf("at 5s: %v, want failed (the second marker)", got["status"])
	}
}

func TestDefaultJob_runsTwoSecondsThenOpensTheNextPR(t *testing.T) {
	h := newHarness(t, Config{})
	var ids []string
	for range 2 {
		_, _, j := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"Document the API"}`)
		ids = append(ids, j["id"].(string))
	}
	h.clk.Advance(2*time.Second - time.Millisecond)
	if _, _, got := h.call("GET", "/v2/agent/demo-project/job/"+ids[0], ""); got["status"] != "active" {
		t.Errorf("just before 2s: %v", got["status"])
	}
	h.clk.Advance(time.Millisecond)
	for i, want := range []string{"/pull/101", "/pull/102"} {
		_, _, got := h.call("GET", "/v2/agent/demo-project/job/"+ids[i], "")
		if link, _ := got["prLink"].(string); got["status"] != "completed" || !strings.HasSuffix(link, want) {
			t.Errorf("job %d at 2s: %v %v, want a PR ending %s", i+1, got["status"], got["prLink"], want)
		}
	}
}

func TestDataset_endIsTruncatedToItsDay(t *testing.T) {
	data := Dataset{Paths: 3, Days: 2, SearchTerms: 5, Feedback: 5, Conversations: 5}
	whole := New(Config{Analytics: data})
	data.End = defaultDataEnd.Add(15 * time.Hour)
	late := New(Config{Analytics: data})
	for _, s := range []*Fake{whole, late} {
		_, rows, err := s.VisitorsData(DemoProjectID, "2026-10-31", "2026-11-01")
		if err != nil || len(rows) != 3 {
			t.Fatalf("the last day of data: %v rows, %v", len(rows), err)
		}
	}
	// Searches and feedback carry times of day: an End left at 15:00
	// would move them, although the counts stay the same.
	for _, route := range []string{RouteAnalyticsVisitors, RouteAnalyticsViews, RouteAnalyticsSearches, RouteAnalyticsFeedback, RouteAnalyticsConversations, RouteAnalyticsCallerStats} {
		a, errA := whole.Data(DemoProjectID, route, nil)
		b, errB := late.Data(DemoProjectID, route, nil)
		if errA != nil || errB != nil || string(a) != string(b) {
			t.Errorf("%s: an End at 15:00 serves other answers than midnight (%v, %v):\n%s\n%s", route, errA, errB, a, b)
		}
	}
}

func TestJobIDs_areUUIDShapedAndEndInTheirSequence(t *testing.T) {
	h := newHarness(t, Config{})
	uuid := regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$`)
	for i, want := range []string{"-000000000001", "-000000000002", "-000000000003"} {
		_, _, j := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"Document the API"}`)
		id, _ := j["id"].(string)
		if !uuid.MatchString(id) || !strings.HasSuffix(id, want) {
			t.Errorf("job %d: id %q, want a UUID ending in %s", i+1, id, want)
		}
	}
}

func TestPathData_errorsAndWhichExport(t *testing.T) {
	s := New(Config{Analytics: Dataset{Paths: 4, Days: 3}})
	if _, _, err := s.VisitorsData("nope", "", ""); err == nil || !strings.Contains(err.Error(), `no project "nope"`) {
		t.Errorf("unknown project: %v", err)
	}
	if _, _, err := s.ViewsData(DemoProjectID, "yesterday", ""); err == nil || !strings.Contains(err.Error(), "dateFrom: Invalid date") {
		t.Errorf("bad date: %v", err)
	}
	for route, get := range map[string]func(string, string, string) (Counts, []PathRow, error){
		RouteAnalyticsVisitors: s.VisitorsData, RouteAnalyticsViews: s.ViewsData,
	} {
		totals, rows, err := get(DemoProjectID, "", "")
		if err != nil {
			t.Fatal(err)
		}
		var want struct {
			Totals   Counts
			Visitors []PathRow
			Views    []PathRow
		}
		raw, _ := s.Data(DemoProjectID, route, nil)
		_ = json.Unmarshal(raw, &want)
		wantRows := want.Visitors
		if route == RouteAnalyticsViews {
			wantRows = want.Views
		}
		if totals != want.Totals || len(rows) != 4 || rows[0] != wantRows[0] {
			t.Errorf("%s: %+v %+v, the export has %+v %+v", route, totals, rows, want.Totals, wantRows)
		}
	}
}

func TestDataset_withoutPaths(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{SearchTerms: 40, Feedback: 40, Conversations: 40, Days: 3}})
	searches, _ := h.follow("searches?limit=100", "searches")
	for _, r := range searches {
		if r["topClickedPage"] != nil {
			t.Errorf("a site without pages has a top clicked page: %v", r)
		}
	}
	feedback, _ := h.follow("feedback?limit=100", "feedback")
	conversations, _ := h.follow("assistant?limit=100", "conversations")
	if len(searches) == 0 || len(feedback) != 40 || len(conversations) != 40 {
		t.Fatalf("%d searches, %d feedback, %d conversations", len(searches), len(feedback), len(conversations))
	}
	for _, f := range feedback {
		if f["path"] != "/" {
			t.Errorf("feedback on %v", f["path"])
		}
	}
	for _, c := range conversations {
		if c["pageUrl"] != nil {
			t.Errorf("conversation on page %v", c["pageUrl"])
		}
		for _, src := range c["sources"].([]any) {
			if u := src.(map[string]any)["url"]; u != "https://docs.acme.dev/" {
				t.Errorf("source %v", u)
			}
		}
	}
}

func TestSearches_rowsAgreeWithTheDaysTheyCover(t *testing.T) {
	// Rare terms have days without a hit: their last search is the last
	// day with one, and a term without clicks has no top clicked page.
	h := newHarness(t, Config{Analytics: Dataset{Paths: 5, Days: 10, SearchTerms: 200}, AnalyticsBudget: -1})
	rows, _ := h.follow("searches?limit=100&dateTo=2026-10-30", "searches")
	var earlier, unclicked int
	for _, r := range rows {
		day := r["lastSearchedAt"].(string)[:10]
		if day >= "2026-10-30" || day < "2026-10-22" {
			t.Errorf("%v: last searched outside the range", r)
		}
		if day < "2026-10-29" {
			earlier++
			next, _ := time.Parse(time.DateOnly, day)
			after, _ := h.follow("searches?limit=100&dateTo=2026-10-30&dateFrom="+next.AddDate(0, 0, 1).Format(time.DateOnly), "searches")
			for _, a := range after {
				if a["searchQuery"] == r["searchQuery"] {
					t.Errorf("%v: searched again after its last search: %v", r["searchQuery"], a)
				}
			}
		}
		if r["ctr"].(float64) == 0 {
			unclicked++
			if r["topClickedPage"] != nil {
				t.Errorf("%v: never clicked, yet a top clicked page", r)
			}
		} else if r["topClickedPage"] == nil {
			t.Errorf("%v: clicked, without a top clicked page", r)
		}
	}
	if earlier == 0 || unclicked == 0 {
		t.Fatalf("the data set has no term whose last search is before the last day (%d) or without clicks (%d)", earlier, unclicked)
	}
}

func TestCursors_onlyThoseTheServerGave(t *testing.T) {
	h := newHarness(t, Config{Analytics: Dataset{Paths: 3, Days: 3, SearchTerms: 4, Feedback: 4}, AnalyticsBudget: -1})
	for endpoint, key := range map[string]string{"searches?limit=1": "searches", "feedback?limit=1": "feedback"} {
		rows, pages := h.follow(endpoint, key)
		if len(rows) != 4 || pages != 4 {
			t.Errorf("%s: %d rows in %d pages", endpoint, len(rows), pages)
		}
		_, first := h.get(endpoint)
		given, _ := base64.RawURLEncoding.DecodeString(first["nextCursor"].(string))
		fp, _, _ := strings.Cut(string(given), ":")
		for _, forged := range []string{fp + ":0", fp + ":-1", fp + ":x", fp, "0123456789ab:1"} {
			c := base64.RawURLEncoding.EncodeToString([]byte(forged))
			if status, body := h.get(endpoint + "&cursor=" + url.QueryEscape(c)); status != 400 {
				t.Errorf("%s with cursor %q: %d %v", endpoint, forged, status, body)
			}
		}
	}
}

func TestULID_shape(t *testing.T) {
	for s, want := range map[string]bool{
		"7ZZZZZZZZZZZZZZZZZZZZZZZZZ":  true, // the largest timestamp
		"8000000000000000000000000":   false,
		"80000000000000000000000000":  false,
		"01ARZ3NDEKTSV4RRFFQ69G5FAV":  true,
		"01ARZ3NDEKTSV4RRFFQ69G5FAU":  false, // U is not Crockford
		"01ARZ3NDEKTSV4RRFFQ69G5FA":   false,
		"01ARZ3NDEKTSV4RRFFQ69G5FAVV": false,
	} {
		if isULID(s) != want {
			t.Errorf("isULID(%q) = %v", s, !want)
		}
	}
}
