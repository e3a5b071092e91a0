package sdk

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// decodeAs reads an answer as a T, for a client with no secrets.
func decodeAs[T any](data []byte, out *T) error { return decoding{}.decode(data, out) }

// Each lenient leaf names what came instead of what it wants.
func TestDecode_leavesNameWhatCame(t *testing.T) {
	for body, want := range map[string]string{
		`{"web":true,"api":0,"other":0,"total":0}`:    "web: want a number, got true or false",
		`{"web":[],"api":0,"other":0,"total":0}`:      "web: want a number, got a list",
		`{"web":{},"api":0,"other":0,"total":0}`:      "web: want a number, got an object",
		`{"web":"1","api":0,"other":0,"total":0}`:     "web: want a number, got a string",
		`{"web":1,"api":0,"other":0,"total":-3}`:      "total: -3 is negative",
		`{"web":1,"api":0,"other":0,"total":1e999}`:   "total: 1e999 is out of range",
		`{"web":1,"api":0,"other":0,"total":-1e999}`:  "total: -1e999 is out of range",
		`{"web":1,"api":0,"other":0,"total":9.3e18}`:  "total: 9.3e18 is out of range",
		`{"web":1,"api":0,"other":0,"total":-9.3e18}`: "total: -9.3e18 is out of range",
		`{"web":1,"api":0,"other":0,"total":-5e0}`:    "total: -5e0 is negative",
		`{"web":1,"api":0,"other":0,"total":0.5}`:     "total: 0.5 is not a whole number",
	} {
		var s CallerStats
		if err := decodeAs([]byte(body), &s); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	var s CallerStats
	if err := decodeAs([]byte(`{"web":1.0e1,"api":123456789012345678,"other":1234567890123456789,"total":0}`), &s); err != nil || s.Web != 10 || s.API != 123456789012345678 || s.Other != 1234567890123456789 {
		t.Errorf("%+v, %v", s, err)
	}
	// Strings, flags and rates.
	const row = `"searchQuery":"q","hits":1,"topClickedPage":null,"lastSearchedAt":"t"`
	for body, want := range map[string]string{
		`{"searches":[{` + row + `,"ctr":"high"}],"totalSearches":1,"nextCursor":null}`:                                                       "searches[0].ctr: want a number, got a string",
		`{"searches":[{` + row + `,"ctr":1e999}],"totalSearches":1,"nextCursor":null}`:                                                        `searches[0].ctr: "1e999" is not a finite number`,
		`{"searches":[{` + row + `,"ctr":-2}],"totalSearches":1,"nextCursor":null}`:                                                           "searches[0].ctr: -2 is negative",
		`{"searches":[{` + row + `}],"totalSearches":1,"nextCursor":null}`:                                                                    "searches[0].ctr: missing",
		`{"searches":[{"searchQuery":true,"hits":1,"ctr":0,"topClickedPage":null,"lastSearchedAt":"t"}],"totalSearches":1,"nextCursor":null}`: "searches[0].searchQuery: want a string, got true or false",
		`{"searches":[{"searchQuery":"q","hits":1,"ctr":0,"topClickedPage":3,"lastSearchedAt":"t"}],"totalSearches":1,"nextCursor":null}`:     "searches[0].topClickedPage: want a string, got a number",
		`{"searches":[],"totalSearches":0,"nextCursor":{}}`:                                                                                   "nextCursor: want a string, got an object",
	} {
		var pg SearchesPage
		if err := decodeAs([]byte(body), &pg); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	var pg SearchesPage
	if err := decodeAs([]byte(`{"searches":[{`+row+`,"ctr":0.25},{"searchQuery":"r","hits":2,"ctr":3,"topClickedPage":"/a","lastSearchedAt":"t"},{"searchQuery":"s","hits":2,"ctr":-0.0,"topClickedPage":null,"lastSearchedAt":"t"}],"totalSearches":3,"nextCursor":"n"}`), &pg); err != nil ||
		pg.Searches[0].CTR != 0.25 || pg.Searches[1].CTR != 3 || pg.Searches[2].CTR != 0 || *pg.Searches[1].TopClickedPage != "/a" || *pg.NextCursor != "n" {
		t.Errorf("%+v, %v", pg, err)
	}
	for body, want := range map[string]string{
		`{"feedback":[],"nextCursor":null,"hasMore":1}`:    "hasMore: want true or false, got a number",
		`{"feedback":[],"nextCursor":null,"hasMore":[]}`:   "hasMore: want true or false, got a list",
		`{"feedback":[],"nextCursor":null,"hasMore":{}}`:   "hasMore: want true or false, got an object",
		`{"feedback":[],"nextCursor":null,"hasMore":null}`: "hasMore: missing",
		`{"feedback":[{"id":"a","path":"/","source":"agent","status":"pending","helpful":"yes"}],"nextCursor":null,"hasMore":false}`: "feedback[0].helpful: want true or false, got a string",
	} {
		var pg FeedbackPage
		if err := decodeAs([]byte(body), &pg); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	var fb FeedbackPage
	if err := decodeAs([]byte(`{"feedback":[{"id":"a\u0062","path":"/\"q\"","source":"contextual","status":"pending","helpful":false,"comment":null}],"nextCursor":null,"hasMore":true}`), &fb); err != nil ||
		fb.Feedback[0].ID != "ab" || fb.Feedback[0].Path != `/"q"` || fb.Feedback[0].Helpful == nil || *fb.Feedback[0].Helpful || fb.Feedback[0].Comment != nil || !fb.HasMore {
		t.Errorf("%+v, %v", fb, err)
	}
}

func TestDecode_conversationsAndThreads(t *testing.T) {
	var pg ConversationsPage
	body := `{"conversations":[{"id":"a","timestamp":"t","query":"q","response":"r","responseType":"clarifying_question","sources":[{"title":"T","url":"/u"},{"title":null}],"resolutionStatus":"answered","queryCategory":"c","pageUrl":"/p"},` +
		`{"id":"b","timestamp":"t","query":"q","response":"r","responseType":null,"sources":[],"resolutionStatus":"unanswered","queryCategory":null,"pageUrl":null}],"nextCursor":"01JD8X3Q6V3XK8M4Y2Z9T0B1CD","hasMore":true}`
	if err := decodeAs([]byte(body), &pg); err != nil {
		t.Fatal(err)
	}
	a, b := pg.Conversations[0], pg.Conversations[1]
	if a.ResponseType != "clarifying_question" || len(a.Sources) != 2 || a.Sources[0] != (ConversationSource{"T", "/u"}) || a.Sources[1] != (ConversationSource{}) ||
		*a.QueryCategory != "c" || *a.PageURL != "/p" || b.ResponseType != "answer" || b.QueryCategory != nil || len(b.Sources) != 0 || !pg.HasMore {
		t.Errorf("%+v", pg)
	}
	for body, want := range map[string]string{
		`{"conversations":[{"id":"a","timestamp":"t","query":"q","response":"r","sources":[{"title":1}],"resolutionStatus":"answered"}],"nextCursor":null,"hasMore":false}`:       "conversations[0].sources[0].title: want a string, got a number",
		`{"conversations":[{"id":"a","timestamp":"t","query":"q","response":"r","responseType":2,"sources":[],"resolutionStatus":"answered"}],"nextCursor":null,"hasMore":false}`: "conversations[0].responseType: want a string, got a number",
		`{"conversations":[{"timestamp":"t","query":"q","response":"r","sources":[],"resolutionStatus":"answered"}],"nextCursor":null,"hasMore":false}`:                           "conversations[0].id: missing",
	} {
		if err := decodeAs([]byte(body), &pg); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	var th AssistantThread
	if err := decodeAs([]byte(`{"threadId":"x","createdAt":"t","messages":[{"id":"m","role":"user","content":"hi","createdAt":"t"},{"id":"n","role":"assistant","createdAt":"t"}]}`), &th); err == nil ||
		err.Error() != "messages[1].content: missing" {
		t.Errorf("thread: %v", err)
	}
	if err := decodeAs([]byte(`{"threadId":"x","createdAt":"t"}`), &th); err == nil || err.Error() != "messages: missing" {
		t.Errorf("thread without messages: %v", err)
	}
	var by FeedbackByPage
	if err := decodeAs([]byte(`{"feedback":[{"path":"/a","thumbsUp":1,"thumbsDown":2,"code":3,"total":6}],"hasMore":true}`), &by); err != nil ||
		len(by.Pages) != 1 || by.Pages[0] != (PageFeedback{"/a", 1, 2, 3, 6}) || !by.HasMore {
		t.Errorf("by page: %+v, %v", by, err)
	}
	if err := decodeAs([]byte(`{"feedback":[{"path":"/a","thumbsUp":1,"thumbsDown":2,"code":3}]}`), &by); err == nil || err.Error() != "feedback[0].total: missing; hasMore: missing" {
		t.Errorf("by page: %v", err)
	}
}

// Every field of the wrong kind is named and left nil or zero, not only
// the first: after "commit":"x", an "author":[1] was an empty author, not
// nil, and no problem named it (hole 3 of #43).
func TestDecode_everyMistypedFieldIsNamedAndLeftNil(t *testing.T) {
	body := `{"_id":"s1","status":"queued","commit":"x","author":[1],"logs":{},"endedAt":[],"createdAt":{}}`
	_, ts := newRecorder(t, jsonResponse(200, body))
	d, err := newTestClient(t, ts.URL, nil).Deployments.Status(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	if d.Commit != nil || d.Author != nil || d.Logs != nil || d.EndedAt != nil || !d.CreatedAt.IsZero() {
		t.Errorf("a field of the wrong kind kept a value: %+v", d)
	}
	want := []string{"logs: want a list, got an object", "author: want an object, got a list", "commit: want an object, got a string",
		"createdAt: want a string, got an object", "endedAt: want a string, got a list"}
	if diff := cmp.Diff(want, d.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	// An analytics page: each mistyped member is named, all in one error.
	_, ts = newRecorder(t, jsonResponse(200, `{"totals":"x","visitors":{},"hasMore":1}`))
	_, err = newTestClient(t, ts.URL, nil).Analytics.Visitors.Page(context.Background(), "p", VisitorsQuery{})
	if !IsMalformedResponse(err) || !strings.HasSuffix(err.Error(), "totals: want an object, got a string; visitors: want a list, got an object; hasMore: want true or false, got a number") {
		t.Errorf("%v", err)
	}
}

// A count's fast path and its careful path agree at their edges.
func TestDecode_countEdges(t *testing.T) {
	for body, want := range map[string]struct {
		v       int64
		problem string
	}{
		`0`:                    {0, ""},
		`-0`:                   {0, ""},
		`9`:                    {9, ""},
		`12.0`:                 {12, ""},
		`1.2e1`:                {12, ""},
		`-5`:                   {0, "-5 is negative"},
		`-1.5`:                 {0, "-1.5 is not a whole number"},
		`12.0000001`:           {0, "12.0000001 is not a whole number"},
		`999999999999999999`:   {999999999999999999, ""},
		`9223372036854775807`:  {9223372036854775807, ""},
		`9223372036854775808`:  {0, "9223372036854775808 is out of range"},
		`99999999999999999999`: {0, "99999999999999999999 is out of range"},
		`1e400`:                {0, "1e400 is out of range"},
		`"7"`:                  {0, "want a number, got a string"},
		`[7]`:                  {0, "want a number, got a list"},
	} {
		if v, problem := count([]byte(body)); v != want.v || problem != want.problem {
			t.Errorf("%s: %d, %q; want %d, %q", body, v, problem, want.v, want.problem)
		}
	}
}

// Strings are read as encoding/json reads them: escapes, and invalid
// UTF-8 replaced (a server's bytes never reach state unreadable).
func TestDecode_strings(t *testing.T) {
	for body, want := range map[string]string{`"\\"`: `\`, `"a\\b"`: `a\b`, `""`: "", `"ab"`: "ab", `"\u00e9\n"`: "é\n",
		"\"\xff\xfe\"": "\ufffd\ufffd", "\"é\"": "é"} {
		if got, ok := text([]byte(body)); !ok || got != want {
			t.Errorf("%s: %q, %v; want %q", body, got, ok, want)
		}
	}
	if _, ok := text([]byte(`7`)); ok {
		t.Error("a number read as a string")
	}
}

// decodeRow and oddPage are shapes no answer has: a list inside an
// object, and a list kept to what was asked for.
type (
	decodeRow struct {
		N int64 `json:"n"`
	}
	oddPage struct {
		Obj struct {
			Rows []decodeRow `json:"rows"`
		} `json:"obj"`
		Rows []decodeRow `json:"rows"`
	}
)

// Rows of a list inside an object are named from it; at most the asked
// for rows of a top-level list are kept, the rest said.
func TestDecode_namesAndCaps(t *testing.T) {
	var got oddPage
	err := decodeAs([]byte(`{"obj":{"rows":[{"n":1},{"n":"x"}]}}`), &got)
	if err == nil || err.Error() != "obj.rows[1].n: want a number, got a string" || len(got.Obj.Rows) != 2 {
		t.Errorf("%+v: %v", got, err)
	}
	for _, c := range []struct {
		body     string
		most     int
		rows     int
		problems string
	}{
		{`{"rows":[{"n":1},{"n":2}]}`, 2, 2, ""},
		{`{"rows":[{"n":1},{"n":2},{"n":3}]}`, 2, 2, "rows: 3 rows where at most 2 were asked for: the first 2 kept"},
		{`{"rows":[{"n":1},7,{"n":3}]}`, 0, 2, "rows[1]: want an object, got a number"},
		{`{"rows":[{"n":1}]}`, 0, 1, ""},
		{`{"rows":[]}`, 0, 0, ""},
	} {
		var got oddPage
		err := decoding{most: map[string]int{"rows": c.most}}.decode([]byte(c.body), &got)
		problems := ""
		if err != nil {
			problems = err.Error()
		}
		if len(got.Rows) != c.rows || problems != c.problems || got.Rows == nil {
			t.Errorf("%s, most %d: %d rows, problems %q; want %d, %q", c.body, c.most, len(got.Rows), problems, c.rows, c.problems)
		}
	}
}

// Only a body that is not an object (or not JSON) fails as a whole.
func TestDecode_notAnObject(t *testing.T) {
	for body, want := range map[string]string{`null`: "answer: want an object, got null", ` [1]`: "answer: want an object, got a list",
		`"x"`: "answer: want an object, got a string", `true`: "answer: want an object, got true or false", `7`: "answer: want an object, got a number",
		`{`: "unexpected end of JSON input", ``: "unexpected end of JSON input"} {
		var got CallerStats
		if err := decodeAs([]byte(body), &got); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", body, err, want)
		}
	}
}

// A vital member missing or of the wrong kind fails even an answer that
// keeps its problems, every problem listed; others are kept.
func TestDecode_vitalMembersFailTheAnswer(t *testing.T) {
	for body, want := range map[string]string{
		`{"path":"/p","note":1}`:     "content: missing",
		`{"path":"/p","content":[]}`: "content: want a string, got a list",
		`{"content":null}`:           "content: missing",
	} {
		var got PageContent
		if err := decodeAs([]byte(body), &got); err == nil || err.Error() != want || strings.Join(got.Problems, "; ") != want {
			t.Errorf("%s: %v, %q; want %q", body, err, got.Problems, want)
		}
	}
	// A vital list's rows and its cap are problems kept, not failures.
	var res IndexSearchResults
	err := decoding{most: map[string]int{"results": 1}}.decode([]byte(`{"results":[{"id":"a"},{}]}`), &res)
	if err != nil || len(res.Results) != 1 || strings.Join(res.Problems, "; ") != "results: 2 results where at most 1 were asked for: the first 1 kept" {
		t.Errorf("%+v: %v", res, err)
	}
	if err := decodeAs([]byte(`{"results":[{}]}`), &res); err != nil || strings.Join(res.Problems, "; ") != "results[0].id: missing" {
		t.Errorf("%+v: %v", res, err)
	}
}

// A raw map keeps numbers as the API wrote them; anything but an object
// is a problem.
func TestDecode_rawMapsKeepNumbersExact(t *testing.T) {
	p, err := (decoding{}).decodeList([]byte(`[{"path":"/a","content":"c","metadata":{"score":0.10,"id":1152921504606846977,"n":{"x":[1.0]}}},{"path":"/b","content":"c","metadata":[1]}]`), new([]SearchResult))
	if err != nil || strings.Join(p, "; ") != "results[1].metadata: want an object, got a list" {
		t.Fatalf("%q, %v", p, err)
	}
	var got []SearchResult
	_, _ = (decoding{}).decodeList([]byte(`[{"path":"/a","content":"c","metadata":{"score":0.10,"id":1152921504606846977,"n":{"x":[1.0]}}}]`), &got)
	want := map[string]any{"score": json.Number("0.10"), "id": json.Number("1152921504606846977"), "n": map[string]any{"x": []any{json.Number("1.0")}}}
	if diff := cmp.Diff(want, got[0].Metadata); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for body, want := range map[string]string{`{"results":[]}`: "answer: want a list of results, got an object", `null`: "answer: want a list of results, got null",
		`"x"`: "answer: want a list of results, got a string", `[{"path":`: "unexpected end of JSON input"} {
		if _, err := (decoding{}).decodeList([]byte(body), &got); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

// A field the decoder cannot name is a programming error, said at once.
func TestDecode_aFieldWithoutANameIsAProgrammingError(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "field M of struct { M string } has no JSON name") {
			t.Errorf("recovered %v", r)
		}
	}()
	var v struct{ M string }
	_ = decodeAs([]byte(`{}`), &v)
}

func TestParseTimestamp(t *testing.T) {
	want := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for _, s := range []string{"2026-11-21T12:00:00Z", "2026-11-21T14:00:00+02:00", "2026-11-21T12:00:00", "2026-11-21 12:00:00Z", "2026-11-21T12:00:00.000Z"} {
		if got, ok := parseTimestamp(s); !ok || !got.Equal(want) {
			t.Errorf("%s: %v %v", s, got, ok)
		}
	}
	for _, s := range []string{"", "soon", "2026-11-21", "2026-13-01T00:00:00Z"} {
		if _, ok := parseTimestamp(s); ok {
			t.Errorf("%s read", s)
		}
	}
}

// A member given twice counts once, the last one as encoding/json reads
// it; a name spelled otherwise ("ID") is no member. null is absent,
// everywhere.
func TestDecode_duplicatesCaseAndNulls(t *testing.T) {
	for body, want := range map[string]string{
		`{"id":"b","id":"a","status":"active"}`: "",
		`{"id":"a","id":"b","status":"active"}`: `malformed response to GET /v2/agent/p/job/a: id: the answer is for job "b", not job "a"`,
		`{"ID":"a","status":"active"}`:          "id: missing or empty",
		`{"id":"a","status":null,"source":null,"model":null,"prLink":null,"createdAt":null,"archivedAt":null}`: "",
	} {
		_, ts := newRecorder(t, jsonResponse(200, body))
		j, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "a")
		switch {
		case want == "" && (err != nil || j.ID != "a" || j.Source.Ref != nil || j.PRLink != nil || j.ArchivedAt != nil):
			t.Errorf("%s: %+v, %v", body, j, err)
		case want != "" && (err == nil || !strings.HasSuffix(err.Error(), want)):
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
	var pg PathCountsPage
	if err := decodePathCounts(decoding{}, []byte(`{"totals":null,"visitors":[null],"hasMore":true,"hasMore":null}`), "visitors", &pg); err == nil ||
		err.Error() != "visitors[0]: want an object, got null; totals: missing; hasMore: missing" {
		t.Errorf("%v", err)
	}
}

// A progress of 100 is whole; just past it, or under 0, is a problem and
// 0.
func TestDecode_progressAtItsBounds(t *testing.T) {
	const rest = `"jobId":"se_1","status":"running","pageCount":1,"createdAt":"2026-11-21T12:00:00Z","updatedAt":"2026-11-21T12:00:00Z"`
	for progress, want := range map[string]struct {
		v       float64
		problem string
	}{`100`: {100, ""}, `100.0`: {100, ""}, `0`: {0, ""}, `-0`: {0, ""}, `99.5`: {99.5, ""},
		`100.5`: {0, "progress: 100.5 is above 100"}, `-0.5`: {0, "progress: -0.5 is negative"}} {
		var e StaticExport
		if err := decodeAs([]byte(`{`+rest+`,"progress":`+progress+`}`), &e); err != nil || e.Progress != want.v || strings.Join(e.Problems, "; ") != want.problem {
			t.Errorf("%s: %v, %q, %v; want %v, %q", progress, e.Progress, e.Problems, err, want.v, want.problem)
		}
	}
}
