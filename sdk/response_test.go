package sdk

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Every answer says which request id the API gave it, under the header
// the API or its gateway used.
func TestResponseInfo_requestID(t *testing.T) {
	long := strings.Repeat("r", 250)
	for name, tt := range map[string]struct {
		headers []string
		want    string
	}{
		"X-Request-Id":              {[]string{"X-Request-Id", "req-1"}, "req-1"},
		"Request-Id":                {[]string{"Request-Id", "req-2"}, "req-2"},
		"X-Amzn-Requestid":          {[]string{"X-Amzn-Requestid", "req-3"}, "req-3"},
		"Cf-Ray":                    {[]string{"Cf-Ray", "8a1b-AMS"}, "8a1b-AMS"},
		"none":                      {nil, ""},
		"X-Request-Id first":        {[]string{"Cf-Ray", "ray", "X-Amzn-Requestid", "amzn", "Request-Id", "plain", "X-Request-Id", "x"}, "x"},
		"then Request-Id":           {[]string{"Cf-Ray", "ray", "X-Amzn-Requestid", "amzn", "Request-Id", "plain"}, "plain"},
		"then X-Amzn-Requestid":     {[]string{"Cf-Ray", "ray", "X-Amzn-Requestid", "amzn"}, "amzn"},
		"an empty header is none":   {[]string{"X-Request-Id", "", "Cf-Ray", "ray"}, "ray"},
		"a long id is cut":          {[]string{"X-Request-Id", long}, long[:200] + "…"},
		"200 characters are kept":   {[]string{"X-Request-Id", long[:200]}, long[:200]},
		"an echoed key is redacted": {[]string{"X-Request-Id", "id-" + "mint_demo_0123456789abcdef"}, "id-" + Redacted},
	} {
		t.Run(name, func(t *testing.T) {
			_, ts := newRecorder(t, jsonResponse(200, jobJSON, tt.headers...))
			job, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
			if err != nil || job.RequestID != tt.want {
				t.Fatalf("request id %q, %v; want %q", job.RequestID, err, tt.want)
			}
			// An error says the same id.
			_, ts = newRecorder(t, jsonResponse(404, `{"error":"Job not found"}`, tt.headers...))
			_, err = newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
			var apiErr *APIError
			if !errors.As(err, &apiErr) || apiErr.RequestID != tt.want {
				t.Errorf("error %v; want request id %q", err, tt.want)
			}
		})
	}
}

// Attempts counts every request an answer took, the refused ones included:
// each spent the rate-limited budget.
func TestResponseInfo_attemptsAcrossRateLimits(t *testing.T) {
	rec, ts := newRecorder(t,
		jsonResponse(429, `{"error":"slow down"}`, "Retry-After", "1"),
		jsonResponse(429, `{"error":"slow down"}`, "Retry-After", "2"),
		jsonResponse(200, jobJSON, "X-Request-Id", "third"))
	clk := newClock()
	job, err := newTestClient(t, ts.URL, clk).AgentJobs.Get(context.Background(), "p", "j")
	if err != nil {
		t.Fatal(err)
	}
	if job.Attempts != 3 || job.Pages != 1 || job.RequestID != "third" || rec.count() != 3 {
		t.Errorf("info %+v after %d requests", job.ResponseInfo, rec.count())
	}
	if diff := cmp.Diff([]time.Duration{time.Second, 2 * time.Second}, clk.Sleeps()); diff != "" {
		t.Errorf("sleeps (-want +got):\n%s", diff)
	}
	// A POST refused with 429 was not carried out: it is sent again, and
	// counted.
	rec, ts = newRecorder(t, jsonResponse(429, `{}`, "Retry-After", "1"), jsonResponse(201, jobJSON))
	job, err = newTestClient(t, ts.URL, newClock()).AgentJobs.Create(context.Background(), "p", "x")
	if err != nil || job.Attempts != 2 || rec.count() != 2 {
		t.Errorf("create: %+v, %v after %d requests", job, err, rec.count())
	}
	// One request, one attempt.
	_, ts = newRecorder(t, jsonResponse(200, `{"web":1,"api":2,"other":3,"total":6}`))
	stats, err := newTestClient(t, ts.URL, nil).Analytics.CallerStats(context.Background(), "p", DateRange{})
	if err != nil || stats.Attempts != 1 || stats.Pages != 1 || stats.Total != 6 {
		t.Errorf("caller stats %+v, %v", stats, err)
	}
}

func TestResponseInfo_rateLimitFromHeaders(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(200, jobJSON, "X-RateLimit-Limit", "100", "X-RateLimit-Remaining", "42", "X-RateLimit-Reset", "60"))
	clk := newClock()
	clk.Advance(time.Hour)
	job, err := newTestClient(t, ts.URL, clk).AgentJobs.Get(context.Background(), "p", "j")
	if err != nil {
		t.Fatal(err)
	}
	// Seconds from now, now being the client's clock.
	if want := (RateLimit{Known: true, Limit: 100, Remaining: 42, Reset: epoch.Add(time.Hour + time.Minute)}); !cmp.Equal(want, job.RateLimit) {
		t.Errorf("rate limit %+v, want %+v", job.RateLimit, want)
	}
	_, ts = newRecorder(t, jsonResponse(200, jobJSON, "RateLimit-Limit", "100", "RateLimit-Remaining", "0", "RateLimit-Reset", "1795000000"))
	job, err = newTestClient(t, ts.URL, newClock()).AgentJobs.Get(context.Background(), "p", "j")
	if want := (RateLimit{Known: true, Limit: 100, Remaining: 0, Reset: time.Unix(1795000000, 0)}); err != nil || !cmp.Equal(want, job.RateLimit) {
		t.Errorf("RateLimit-* headers: %+v, %v", job.RateLimit, err)
	}
	_, ts = newRecorder(t, jsonResponse(200, jobJSON))
	if job, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j"); err != nil || job.RateLimit != (RateLimit{}) {
		t.Errorf("no headers: %+v, %v", job.RateLimit, err)
	}
}

func TestParseRateLimit(t *testing.T) {
	now := epoch
	const year = 365 * 24 * 3600
	for name, tt := range map[string]struct {
		headers map[string]string
		want    RateLimit
	}{
		"none":                    {nil, RateLimit{}},
		"limit only":              {map[string]string{"X-RateLimit-Limit": "100"}, RateLimit{Known: true, Limit: 100}},
		"remaining zero is known": {map[string]string{"X-RateLimit-Remaining": "0"}, RateLimit{Known: true}},
		"limit zero is known":     {map[string]string{"RateLimit-Limit": "0"}, RateLimit{Known: true}},
		"spaces trimmed":          {map[string]string{"X-RateLimit-Limit": " 7 ", "X-RateLimit-Remaining": " 3", "X-RateLimit-Reset": "5 "}, RateLimit{Known: true, Limit: 7, Remaining: 3, Reset: now.Add(5 * time.Second)}},
		"negatives ignored":       {map[string]string{"X-RateLimit-Limit": "-1", "X-RateLimit-Remaining": "-1", "X-RateLimit-Reset": "-1"}, RateLimit{}},
		"words ignored":           {map[string]string{"X-RateLimit-Limit": "many", "X-RateLimit-Remaining": "some", "X-RateLimit-Reset": "soon"}, RateLimit{}},
		"fractions ignored":       {map[string]string{"X-RateLimit-Reset": "1.5", "X-RateLimit-Limit": "1.0"}, RateLimit{}},
		"reset now":               {map[string]string{"X-RateLimit-Reset": "0"}, RateLimit{Known: true, Reset: now}},
		"reset in a year":         {map[string]string{"X-RateLimit-Reset": fmt.Sprint(year)}, RateLimit{Known: true, Reset: now.Add(year * time.Second)}},
		"past a year is a time":   {map[string]string{"X-RateLimit-Reset": fmt.Sprint(year + 1)}, RateLimit{Known: true, Reset: time.Unix(year+1, 0).UTC()}},
		"a unix time":             {map[string]string{"RateLimit-Reset": "1795000000"}, RateLimit{Known: true, Reset: time.Unix(1795000000, 0).UTC()}},
		"RateLimit-* forms": {map[string]string{"RateLimit-Limit": "60", "RateLimit-Remaining": "59", "RateLimit-Reset": "30"},
			RateLimit{Known: true, Limit: 60, Remaining: 59, Reset: now.Add(30 * time.Second)}},
		"X- forms win": {map[string]string{"X-RateLimit-Limit": "100", "RateLimit-Limit": "60", "X-RateLimit-Remaining": "1", "RateLimit-Remaining": "2"},
			RateLimit{Known: true, Limit: 100, Remaining: 1}},
		"each header falls back on its own": {map[string]string{"X-RateLimit-Limit": "100", "RateLimit-Remaining": "2", "RateLimit-Reset": "10"},
			RateLimit{Known: true, Limit: 100, Remaining: 2, Reset: now.Add(10 * time.Second)}},
	} {
		h := http.Header{}
		for k, v := range tt.headers {
			h.Set(k, v)
		}
		got := rateLimit(h, now)
		if !cmp.Equal(tt.want, got) || got.Reset.Location() != tt.want.Reset.Location() {
			t.Errorf("%s: %+v, want %+v", name, got, tt.want)
		}
	}
}

// All adds up the attempts and pages of its read; the request id and the
// budget are the last page's.
func TestResponseInfo_allSumsItsPages(t *testing.T) {
	rec, ts := newRecorder(t,
		jsonResponse(200, visitorsPageJSON(true, "/a"), "X-Request-Id", "p1", "X-RateLimit-Remaining", "9"),
		jsonResponse(429, `{}`, "Retry-After", "1"),
		jsonResponse(200, visitorsPageJSON(true, "/b"), "X-Request-Id", "p2", "X-RateLimit-Remaining", "7"),
		jsonResponse(503, `{}`),
		jsonResponse(200, visitorsPageJSON(false, "/c")))
	c := newTestClient(t, ts.URL, newClock())
	got, err := c.Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	want := ResponseInfo{Attempts: 5, Pages: 3, RequestID: "p2", RateLimit: RateLimit{Known: true, Remaining: 7}}
	if diff := cmp.Diff(want, got.ResponseInfo); diff != "" || rec.count() != 5 || len(got.Paths) != 3 {
		t.Errorf("%d requests, info (-want +got):\n%s", rec.count(), diff)
	}
	// Each says the same of the pages it read.
	rec, ts = newRecorder(t,
		jsonResponse(200, visitorsPageJSON(true, "/a")),
		jsonResponse(429, `{}`, "Retry-After", "1"),
		jsonResponse(200, visitorsPageJSON(false, "/b")))
	var seen []string
	info, err := newTestClient(t, ts.URL, newClock()).Analytics.Visitors.Each(context.Background(), "p", VisitorsQuery{}, func(p *PathCountsPage) error {
		seen = append(seen, p.Paths[0].Path)
		return nil
	})
	if err != nil || info.Attempts != 3 || info.Pages != 2 || !cmp.Equal(seen, []string{"/a", "/b"}) || rec.count() != 3 {
		t.Errorf("each: %+v, %v, pages %v, %d requests", info, err, seen, rec.count())
	}
}

// Each stops at the first error fn returns, and returns it.
func TestEach_stopsAtTheCallersError(t *testing.T) {
	rec, ts := newRecorder(t,
		jsonResponse(200, visitorsPageJSON(true, "/a")),
		jsonResponse(200, visitorsPageJSON(true, "/b")),
		jsonResponse(200, visitorsPageJSON(true, "/c")),
		jsonResponse(200, visitorsPageJSON(false, "/d")))
	stop := errors.New("enough")
	calls := 0
	info, err := newTestClient(t, ts.URL, nil).Analytics.Visitors.Each(context.Background(), "p", VisitorsQuery{}, func(*PathCountsPage) error {
		// Time enough for a read-ahead to run as far as it would.
		time.Sleep(100 * time.Millisecond)
		if calls++; calls == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || calls != 2 || info.Pages != 2 {
		t.Errorf("err %v after %d calls, info %+v", err, calls, info)
	}
	// It read one page ahead of the one being worked on, no more: each
	// request spends the hourly budget.
	time.Sleep(50 * time.Millisecond)
	if n := rec.count(); n > 3 {
		t.Errorf("%d requests for 2 pages", n)
	}
	// A read error ends it too, with what was read before.
	_, ts = newRecorder(t, jsonResponse(200, visitorsPageJSON(true, "/a")), jsonResponse(404, `{"error":"gone"}`))
	info, err = newTestClient(t, ts.URL, nil).Analytics.Visitors.Each(context.Background(), "p", VisitorsQuery{}, func(*PathCountsPage) error { return nil })
	if !IsNotFound(err) || info.Pages != 1 || info.Attempts != 1 {
		t.Errorf("err %v, info %+v", err, info)
	}
}

func TestResponseInfo_combine(t *testing.T) {
	t1, t2 := epoch, epoch.Add(time.Hour)
	first := ResponseInfo{RequestID: "a", Attempts: 2, Pages: 1, RateLimit: RateLimit{Known: true, Remaining: 9}, Cache: CacheStatus{Hit: true, StoredAt: t2}}
	// The first page stands for a read of one page, a cache hit included.
	if got := (ResponseInfo{}).combine(first); !cmp.Equal(first, got) {
		t.Errorf("first page: %+v", got)
	}
	second := ResponseInfo{Attempts: 3, Pages: 1, Cache: CacheStatus{Hit: true, StoredAt: t1}}
	want := ResponseInfo{RequestID: "a", Attempts: 5, Pages: 2, RateLimit: first.RateLimit, Cache: CacheStatus{Hit: true, StoredAt: t1}}
	if got := first.combine(second); !cmp.Equal(want, got) {
		t.Errorf("without id or budget: %+v, want %+v", got, want)
	}
	third := ResponseInfo{RequestID: "c", Attempts: 1, Pages: 1, RateLimit: RateLimit{Known: true, Remaining: 1}}
	want = ResponseInfo{RequestID: "c", Attempts: 6, Pages: 3, RateLimit: third.RateLimit, Cache: CacheStatus{StoredAt: t1}}
	if got := first.combine(second).combine(third); !cmp.Equal(want, got) {
		t.Errorf("with id and budget: %+v, want %+v", got, want)
	}
}
