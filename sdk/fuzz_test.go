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

// apiJob renders a job in the API's shape, as the fake would.
func apiJob(j *AgentJob) []byte {
	type source struct {
		Repository string  `json:"repository"`
		Ref        *string `json:"ref"`
	}
	raw := struct {
		ID         string  `json:"id"`
		Status     string  `json:"status"`
		Source     source  `json:"source"`
		Model      string  `json:"model"`
		PRLink     *string `json:"prLink"`
		CreatedAt  *string `json:"createdAt,omitempty"`
		ArchivedAt *string `json:"archivedAt"`
	}{ID: j.ID, Status: string(j.Status), Source: source{j.Source.Repository, j.Source.Ref}, Model: j.Model, PRLink: j.PRLink}
	if !j.CreatedAt.IsZero() {
		s := j.CreatedAt.Format(time.RFC3339Nano)
		raw.CreatedAt = &s
	}
	if j.ArchivedAt != nil {
		s := j.ArchivedAt.Format(time.RFC3339Nano)
		raw.ArchivedAt = &s
	}
	out, err := json.Marshal(raw)
	if err != nil {
		panic(err)
	}
	return out
}

func FuzzDecodeAgentJob(f *testing.F) {
	f.Add([]byte(jobJSON))
	f.Add([]byte(`{"id":"a","status":"archived","archivedAt":"2026-11-21T12:00:00.5+01:00","prLink":"https://x/pull/1"}`))
	f.Add([]byte(`{"source":null,"createdAt":null}`))
	f.Add([]byte(`{"id":"a","status":3,"prLink":"javascript:x","createdAt":"soon","source":"r"}`))
	f.Add([]byte(`{"id":"a","status":"active","source":[1],"prLink":{},"archivedAt":[],"model":null,"id":"b"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		job, err := decodeJob(data)
		if err != nil {
			if job != nil {
				t.Fatalf("an error with a job: %+v, %v", job, err)
			}
			return
		}
		// Each problem names a field, and a field of the wrong kind keeps
		// no value.
		for _, p := range job.Problems {
			name, _, ok := strings.Cut(p, ": ")
			if !ok || name == "" || len(job.Problems) > 101 {
				t.Fatalf("problem %q of %q", p, job.Problems)
			}
			if strings.HasPrefix(p, "prLink: want") && job.PRLink != nil || strings.HasPrefix(p, "archivedAt: ") && job.ArchivedAt != nil {
				t.Fatalf("%q, but kept %+v", p, job)
			}
		}
		// What could be read is rendered back and read the same, with no
		// new problem.
		out := apiJob(job)
		again, err := decodeJob(out)
		if err != nil {
			t.Fatalf("decoding our own %s: %v", out, err)
		}
		if again.ID != job.ID || again.Status != job.Status || !again.CreatedAt.Equal(job.CreatedAt) || (again.PRLink == nil) != (job.PRLink == nil) ||
			(again.ArchivedAt == nil) != (job.ArchivedAt == nil) || again.Model != job.Model {
			t.Fatalf("round trip changed %+v into %+v", job, again)
		}
		if job.Status != "" && again.Problems != nil {
			t.Fatalf("our own rendering of %+v has problems %q", job, again.Problems)
		}
		// A link handed on is a web address, and a job without a status
		// says so.
		if job.PRLink != nil && !isWebURL(*job.PRLink) {
			t.Fatalf("link %q handed on", *job.PRLink)
		}
		if job.Status == "" && len(job.Problems) == 0 {
			t.Fatalf("no status, no problem: %+v", job)
		}
	})
}

func FuzzDecodeVisitorsPage(f *testing.F) {
	f.Add([]byte(`{"totals":{"human":5,"ai":2,"total":6},"visitors":[{"path":"/a","human":3,"ai":1,"total":3}],"hasMore":true}`))
	f.Add([]byte(`{"visitors":null}`))
	f.Add([]byte(`{"totals":{"human":1e3,"ai":2.0,"total":-0},"visitors":[],"hasMore":false}`))
	f.Add([]byte(`{"totals":{"human":1,"ai":0,"total":1},"visitors":[{"path":"/a","human":12.0,"ai":1.2e1,"total":9223372036854775807},null,7],"hasMore":true,"hasMore":false}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var page PathCountsPage
		if err := decodePathCounts(decoding{}, data, "visitors", &page); err != nil {
			return
		}
		for _, r := range page.Paths {
			if r.Path == "" || r.Human < 0 || r.AI < 0 || r.Total < 0 {
				t.Fatalf("accepted row %+v", r)
			}
		}
		out, err := json.Marshal(struct {
			Totals   Counts       `json:"totals"`
			Visitors []PathCounts `json:"visitors"`
			HasMore  bool         `json:"hasMore"`
		}{page.Totals, page.Paths, page.HasMore})
		if err != nil {
			t.Fatal(err)
		}
		var again PathCountsPage
		if err := decodePathCounts(decoding{}, out, "visitors", &again); err != nil || len(again.Paths) != len(page.Paths) || again.Totals != page.Totals || again.HasMore != page.HasMore {
			t.Fatalf("round trip: %+v -> %s -> %+v, %v", page, out, again, err)
		}
	})
}
