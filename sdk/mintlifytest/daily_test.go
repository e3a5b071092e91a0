package mintlifytest

import (
	"fmt"
	"testing"
	"time"
)

// dayQuery is the query of the days [from, from+n) after 2026-10-01.
func dayQuery(from, n int) string {
	day := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	return fmt.Sprintf("dateFrom=%s&dateTo=%s", day.AddDate(0, 0, from).Format(time.DateOnly), day.AddDate(0, 0, from+n).Format(time.DateOnly))
}

// dayCounts are what a daily chart reads of one range: the totals of
// views and visitors, per path too, search events, feedback entries and
// conversations.
type dayCounts struct {
	views, visitors       map[string]int64 // "human", "ai", "total"
	pathViews, pathVisits map[string]map[string]int64
	searches              int64
	feedback, convs       int
}

func (h *harness) counts(query string) dayCounts {
	h.t.Helper()
	totals := func(endpoint string) (map[string]int64, map[string]map[string]int64) {
		_, body := h.get(endpoint + "?limit=250&" + query)
		tot, rows := map[string]int64{}, map[string]map[string]int64{}
		for k, v := range body["totals"].(map[string]any) {
			tot[k] = num(v)
		}
		for _, r := range list(body, endpoint) {
			rows[r["path"].(string)] = map[string]int64{"human": num(r["human"]), "ai": num(r["ai"]), "total": num(r["total"])}
		}
		return tot, rows
	}
	var c dayCounts
	c.views, c.pathViews = totals("views")
	c.visitors, c.pathVisits = totals("visitors")
	_, s := h.get("searches?limit=1&" + query)
	c.searches = num(s["totalSearches"])
	fb, _ := h.follow("feedback?limit=100&"+query, "feedback")
	conv, _ := h.follow("assistant?limit=1000&"+query, "conversations")
	c.feedback, c.convs = len(fb), len(conv)
	return c
}

// A day read alone is part of a longer range read at once: views, search
// events, feedback and conversations add up, day by day, to the range's;
// unique visitors do not (a visitor may come back another day), but a
// range has at least its busiest day's and at most its days' added up,
// site-wide and per path. A day's views are one to three per human
// visitor, one or two per AI visitor.
func TestDataset_aDayIsPartOfItsRange(t *testing.T) {
	h := newHarness(t, Config{AnalyticsBudget: -1, Analytics: Dataset{Paths: 12, Seed: 7, SearchTerms: 30, Feedback: 400, Conversations: 1500}})
	const days = 10
	whole := h.counts(dayQuery(0, days))
	var sum dayCounts
	sumViews, sumVisits, most := map[string]int64{}, map[string]int64{}, map[string]int64{}
	pathSum, pathMost := map[string]map[string]int64{}, map[string]map[string]int64{}
	for d := range days {
		day := h.counts(dayQuery(d, 1))
		for _, k := range []string{"human", "ai", "total"} {
			sumViews[k] += day.views[k]
			sumVisits[k] += day.visitors[k]
			most[k] = max(most[k], day.visitors[k])
			for path, v := range day.pathVisits {
				if pathSum[path] == nil {
					pathSum[path], pathMost[path] = map[string]int64{}, map[string]int64{}
				}
				pathSum[path][k] += v[k]
				pathMost[path][k] = max(pathMost[path][k], v[k])
			}
		}
		for path, v := range day.pathViews {
			u := day.pathVisits[path]
			if v["human"] < u["human"] || v["human"] > 3*u["human"] || v["ai"] < u["ai"] || v["ai"] > 2*u["ai"] {
				t.Errorf("day %d, path %s: views %v for visitors %v (each visitor views 1 to 3 times, AI 1 to 2)", d, path, v, u)
			}
		}
		sum.searches += day.searches
		sum.feedback += day.feedback
		sum.convs += day.convs
	}
	for _, k := range []string{"human", "ai", "total"} {
		if sumViews[k] != whole.views[k] {
			t.Errorf("views %s: the days add up to %d, the range says %d", k, sumViews[k], whole.views[k])
		}
		if v := whole.visitors[k]; v < most[k] || v > sumVisits[k] || v == sumVisits[k] {
			t.Errorf("visitors %s: the range says %d, its busiest day %d, its days added up %d", k, v, most[k], sumVisits[k])
		}
		for path, v := range whole.pathVisits {
			if v[k] < pathMost[path][k] || v[k] > pathSum[path][k] {
				t.Errorf("visitors %s of %s: the range says %d, its busiest day %d, its days added up %d", k, path, v[k], pathMost[path][k], pathSum[path][k])
			}
		}
	}
	if sum.searches != whole.searches || sum.feedback != whole.feedback || sum.convs != whole.convs || whole.feedback == 0 || whole.convs == 0 {
		t.Errorf("days add up to %d searches, %d feedback, %d conversations; the range: %d, %d, %d", sum.searches, sum.feedback, sum.convs, whole.searches, whole.feedback, whole.convs)
	}
}

// With LateEvents, a day's numbers grow on the fake's clock from its start
// until LateEvents after its end, and not after: then they are what a fake
// without late events serves. A day that has not begun has none.
func TestDataset_lateEventsArriveUntilTheDaySettles(t *testing.T) {
	data := Dataset{Paths: 6, Seed: 3, SearchTerms: 25, Feedback: 600, Conversations: 1500, End: time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC), Days: 30}
	settled := newHarness(t, Config{AnalyticsBudget: -1, Analytics: data}).counts(dayQuery(10, 1))
	data.LateEvents = 48 * time.Hour
	h := newHarness(t, Config{AnalyticsBudget: -1, Analytics: data})
	day := time.Date(2026, 10, 11, 0, 0, 0, 0, time.UTC)
	var last dayCounts
	for i, at := range []time.Duration{-time.Hour, 6 * time.Hour, 24 * time.Hour, 36 * time.Hour, 71 * time.Hour, 72 * time.Hour, 200 * time.Hour} {
		h.clk.Advance(day.Add(at).Sub(h.clk.Now()))
		c := h.counts(dayQuery(10, 1))
		whole := at >= 72*time.Hour
		// Counts grow; events arrive one by one, so their counts may also
		// stay put for a while.
		grew := i == 0 || c.views["total"] > last.views["total"] && c.visitors["total"] > last.visitors["total"] &&
			c.searches > last.searches && c.feedback >= last.feedback && c.convs >= last.convs &&
			c.feedback <= settled.feedback && c.convs <= settled.convs
		switch {
		case at < 0 && (c.views["total"] != 0 || c.visitors["total"] != 0 || c.searches != 0 || c.feedback != 0 || c.convs != 0):
			t.Errorf("before the day began: %+v", c)
		case whole && (c.views["total"] != settled.views["total"] || c.visitors["total"] != settled.visitors["total"] ||
			c.searches != settled.searches || c.feedback != settled.feedback || c.convs != settled.convs):
			t.Errorf("%s after the day began: %+v, want what a fake without late events serves, %+v", at, c, settled)
		case !whole && at > 0 && (!grew || c.views["total"] >= settled.views["total"]),
			at == 24*time.Hour && (c.feedback >= settled.feedback || c.convs >= settled.convs):
			t.Errorf("%s after the day began: %+v after %+v; settled %+v", at, c, last, settled)
		}
		last = c
	}
}
