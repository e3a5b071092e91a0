package sdk

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func FuzzParseDate(f *testing.F) {
	for _, s := range []string{"2026-10-01", "2026-10-01T12:30:00Z", "2026-10-01T12:30:00.123456789+05:30", "2026-13-45", "", "9999-12-31"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDate(s)
		if err != nil {
			if !strings.Contains(err.Error(), "is not a date") {
				t.Fatalf("unexpected error text %q", err)
			}
			return
		}
		// Whatever parses must print back in one of the accepted forms
		// and parse again to the same instant.
		form := time.RFC3339Nano
		if len(s) == len(time.DateOnly) {
			form = time.DateOnly
		}
		again, err := ParseDate(d.Format(form))
		if err != nil || !again.Equal(d) {
			t.Fatalf("%q -> %v -> %v, %v", s, d, again, err)
		}
		if err := ValidateDateRange(s, s); err == nil {
			t.Fatalf("equal bounds %q accepted", s)
		}
	})
}

func FuzzDecodeAgentJob(f *testing.F) {
	f.Add([]byte(jobJSON))
	f.Add([]byte(`{"id":"a","status":"archived","archivedAt":"2026-11-21T12:00:00.5+01:00","prLink":"https://x/pull/1"}`))
	f.Add([]byte(`{"source":null,"createdAt":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var job AgentJob
		if err := json.Unmarshal(data, &job); err != nil {
			return
		}
		out, err := json.Marshal(job)
		if err != nil {
			t.Fatalf("re-encoding %+v: %v", job, err)
		}
		var again AgentJob
		if err := json.Unmarshal(out, &again); err != nil {
			t.Fatalf("decoding our own %s: %v", out, err)
		}
		if again.ID != job.ID || again.Status != job.Status || !again.CreatedAt.Equal(job.CreatedAt) || (again.PRLink == nil) != (job.PRLink == nil) {
			t.Fatalf("round trip changed %+v into %+v", job, again)
		}
	})
}

func FuzzDecodeVisitorsPage(f *testing.F) {
	f.Add([]byte(`{"totals":{"human":5,"ai":2,"total":6},"visitors":[{"path":"/a","human":3,"ai":1,"total":3}],"hasMore":true}`))
	f.Add([]byte(`{"visitors":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var page VisitorsPage
		if err := json.Unmarshal(data, &page); err != nil {
			return
		}
		out, err := json.Marshal(page)
		if err != nil {
			t.Fatal(err)
		}
		var again VisitorsPage
		if err := json.Unmarshal(out, &again); err != nil || len(again.Visitors) != len(page.Visitors) || again.Totals != page.Totals {
			t.Fatalf("round trip: %+v -> %s -> %+v, %v", page, out, again, err)
		}
	})
}

// The fast path of page decoding accepts only what the careful decoder
// accepts, and reads it the same.
func FuzzFastPathPage(f *testing.F) {
	f.Add([]byte(visitorsPageJSON(true, "/a", "/b", "/docs/page-3")), "visitors")
	f.Add([]byte(` { "hasMore" : false , "visitors" : [ { "total":3, "path":"/a", "ai":1, "human":2, "x":[1,{"y":null}] } ], "totals":{"human":1,"ai":0,"total":1} } `), "visitors")
	f.Add([]byte(`{"totals":{"human":1,"ai":0,"total":1},"views":[{"path":"/é","human":1,"ai":0,"total":1}],"hasMore":true,"HASMORE":false}`), "views")
	f.Add([]byte(`{"totals":{"human":1,"ai":0,"total":1},"visitors":[],"hasMore":true,"views":"x"}`), "visitors")
	f.Add([]byte(`{"totals":{"human":01,"ai":0,"total":1},"visitors":[],"hasMore":true}`), "visitors")
	f.Fuzz(func(t *testing.T, data []byte, list string) {
		if list != "views" {
			list = "visitors"
		}
		totals, rows, more, ok := fastPathPage(data, list)
		if !ok {
			return
		}
		wantTotals, wantRows, wantMore, err := carefulPathPage(data, list)
		if err != nil {
			t.Fatalf("the fast path accepted %q, which the careful decoder refuses: %v", data, err)
		}
		if totals != wantTotals || more != wantMore || len(rows) != len(wantRows) {
			t.Fatalf("%q: fast %v %v %d rows, careful %v %v %d rows", data, totals, more, len(rows), wantTotals, wantMore, len(wantRows))
		}
		for i := range rows {
			if rows[i] != wantRows[i] {
				t.Fatalf("%q row %d: fast %+v, careful %+v", data, i, rows[i], wantRows[i])
			}
		}
	})
}
