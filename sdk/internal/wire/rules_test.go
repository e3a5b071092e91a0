package wire

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// kept is a struct that keeps its problems, with one field of each rule
// the SDK's job-like answers use.
type kept struct {
	ID       string         `wire:"id" api:"nonempty"`
	Status   string         `wire:"status" api:"expected"`
	Link     *string        `wire:"link" api:"url"`
	Page     string         `wire:"page" api:"expected,url"`
	Logs     []string       `wire:"logs" api:"optional,skipodd"`
	Count    *int64         `wire:"count"`
	Total    int64          `wire:"total" api:"optional"`
	Score    float64        `wire:"score" api:"optional,signed"`
	Progress float64        `wire:"progress" api:"max=100"`
	Halted   bool           `wire:"halted" api:"optional"`
	At       time.Time      `wire:"at"`
	Ended    *time.Time     `wire:"ended"`
	Tag      string         `wire:"error.tag" api:"optional"`
	Code     *int64         `wire:"error.code"`
	Meta     map[string]any `wire:"meta"`
	Problems []string       `api:"problems"`
}

func TestDecode_aStructKeepsItsProblems(t *testing.T) {
	var got kept
	body := `{"id":"a","status":"s","link":"https://x.test/1","page":"http://p.test","logs":["one",2,null,"two"],"count":3,"total":4,
		"score":-0.5,"progress":50,"halted":true,"at":"2026-11-21T12:00:00Z","ended":"2026-11-21T12:00:00","error":{"tag":"t","code":404},
		"meta":{"n":0.10,"s":"x"}}`
	if err := Decode([]byte(body), &got); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	link, three, code := "https://x.test/1", int64(3), int64(404)
	want := kept{ID: "a", Status: "s", Link: &link, Page: "http://p.test", Logs: []string{"one", "two"}, Count: &three, Total: 4,
		Score: -0.5, Progress: 50, Halted: true, At: at, Ended: &at, Tag: "t", Code: &code,
		Meta:     map[string]any{"n": json.Number("0.10"), "s": "x"},
		Problems: []string{"logs[1]: want a string, got a number", "logs[2]: want a string, got null"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// Absent: the optional ones are zero, the expected and required ones
	// are named, and nothing fails.
	got = kept{}
	if err := Decode([]byte(`{}`), &got); err != nil {
		t.Fatal(err)
	}
	want = kept{Problems: []string{"id: missing", "status: missing or empty", "page: missing or empty", "progress: missing", "at: missing"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("absent (-want +got):\n%s", diff)
	}
}

func TestDecode_eachRuleNamesWhatIsWrong(t *testing.T) {
	echo := func(s string) string { return "<" + s + ">" }
	for body, want := range map[string][]string{
		`{"id":"","status":"","link":"ftp://x","page":"","at":null,"progress":101}`: {"id: missing or empty", "status: missing or empty",
			`link: "<ftp://x>" is not an absolute http(s) URL: ignored`, "page: missing or empty", "progress: 101 is above 100", "at: missing"},
		`{"id":1,"status":2,"link":"","page":"https://u:p@x.test","progress":0,"at":"soon","ended":3}`: {"id: want a string, got a number",
			"status: want a string or null, got a number", `link: "<>" is not an absolute http(s) URL: ignored`,
			`page: "<https://u:p@x.test>" is not an absolute http(s) URL: ignored`, `at: "<soon>" is not an ISO 8601 timestamp`,
			"ended: want a string or null, got a number"},
		`{"id":"a","status":"s","page":"https://x.test","progress":0,"at":"2026-11-21T12:00:00Z","count":-1,"total":1.5,"score":"x","halted":"y",
			"error":{"code":"z"},"meta":[1]}`: {"count: -1 is negative", "total: 1.5 is not a whole number", "score: want a number, got a string",
			"halted: want true or false or null, got a string", "error.code: want a number, got a string", "meta: want an object, got a list"},
		`{"id":"a","status":"s","page":"https://x.test","progress":0,"at":"2026-11-21T12:00:00Z","score":1e999,"logs":"l"}`: {
			"logs: want a list, got a string", `score: "1e999" is not a finite number`},
		`{"id":"a","status":"s","page":"https://x.test","progress":0,"at":"2026-11-21T12:00:00Z","error":"e"}`: {
			"error: want an object, got a string"},
	} {
		var got kept
		if err := DecodeWith([]byte(body), &got, Options{Echo: echo}); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
		if diff := cmp.Diff(want, got.Problems); diff != "" {
			t.Errorf("%s (-want +got):\n%s", body, diff)
		}
		if got.Link != nil || got.Count != nil || got.Total != 0 || got.Progress != 0 {
			t.Errorf("%s: a value with a problem is kept: %+v", body, got)
		}
	}
}

// A must field's problem fails the answer, every problem listed; the
// rows of a must list do not.
func TestDecode_aMustFieldFailsTheAnswer(t *testing.T) {
	type answer struct {
		Content string `wire:"content" api:"must"`
		Rows    []struct {
			ID string `wire:"id"`
		} `wire:"rows" api:"must"`
		Note     string   `wire:"note" api:"optional"`
		Problems []string `api:"problems"`
	}
	for body, want := range map[string]string{
		`{"rows":[],"note":1}`:          "content: missing; note: want a string or null, got a number",
		`{"content":"c","note":1}`:      "rows: missing; note: want a string or null, got a number",
		`{"content":["c"],"rows":[{}]}`: "content: want a string, got a list; rows[0].id: missing",
	} {
		var got answer
		if err := Decode([]byte(body), &got); err == nil || err.Error() != want || strings.Join(got.Problems, "; ") != want {
			t.Errorf("%s: %v, problems %q; want %q", body, err, got.Problems, want)
		}
	}
	// A list of the wrong kind is a problem, as it always was; only an
	// absent or null one fails.
	var got answer
	if err := Decode([]byte(`{"content":"c","rows":"x"}`), &got); err != nil || len(got.Rows) != 0 || strings.Join(got.Problems, "; ") != "rows: want a list, got a string" {
		t.Errorf("a list of the wrong kind: %v %+v", err, got)
	}
	if err := DecodeWith([]byte(`{"content":"c","rows":[{"id":"a"},{},{"id":"c"}]}`), &got, Options{Most: map[string]int{"rows": 2}}); err != nil ||
		len(got.Rows) != 2 || strings.Join(got.Problems, "; ") != "rows: 3 rows where at most 2 were asked for: the first 2 kept; rows[1].id: missing" {
		t.Errorf("rows' problems are kept: %v %+v", err, got)
	}
}

// Rows that keep their problems are read one by one: a field of the
// wrong kind spoils its row only, named from the row.
func TestDecode_rowsKeepTheirProblems(t *testing.T) {
	type row struct {
		ID       string   `wire:"id" api:"nonempty"`
		Tags     []string `wire:"tags" api:"optional"`
		Problems []string `api:"problems"`
	}
	type page struct {
		Rows []row `wire:"rows"`
	}
	var got page
	if err := Decode([]byte(`{"rows":[{"id":"a","tags":"x"},null,{"id":"c","tags":["t",1]}]}`), &got); err != nil {
		t.Fatal(err)
	}
	want := page{Rows: []row{{ID: "a", Problems: []string{"tags: want a list, got a string"}}, {Problems: []string{"id: missing"}},
		{ID: "c", Tags: []string{"t", ""}, Problems: []string{"tags[1]: want a string, got a number"}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if err := Decode([]byte(`{"rows":[{"id":"a"},7]}`), &got); err == nil || err.Error() != "rows: want a list of objects, got a number in it" {
		t.Errorf("a row that is no object: %v", err)
	}
}

func TestDecodeList(t *testing.T) {
	type result struct {
		Path string         `wire:"path"`
		Meta map[string]any `wire:"meta"`
	}
	var got []result
	p, err := DecodeList([]byte(`[{"path":"/a","meta":{"k":1}},{"meta":"m"},{"path":"/c"}]`), &got, "results", Options{Most: map[string]int{"results": 2}})
	if err != nil || len(got) != 2 || got[0].Path != "/a" || got[0].Meta["k"] != json.Number("1") ||
		strings.Join(p, "; ") != "results: 3 results where at most 2 were asked for: the first 2 kept; results[1].path: missing; results[1].meta: want an object, got a string" {
		t.Errorf("%+v %q %v", got, p, err)
	}
	for body, want := range map[string]string{
		`{"results":[]}`: "answer: want a list of results, got an object",
		`null`:           "answer: want a list of results, got null",
		`"x"`:            "answer: want a list of results, got a string",
		`[1]`:            "answer: want a list of results, got a number",
		`[{"path":`:      "unexpected end of JSON input",
	} {
		if _, err := DecodeList([]byte(body), &got, "results", Options{}); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

func TestDecode_aFieldWithoutANameIsAProgrammingError(t *testing.T) {
	for name, decode := range map[string]func(){
		"no name": func() {
			var v struct{ M string }
			_ = Decode([]byte(`{}`), &v)
		},
		"problems not strings": func() {
			var v struct {
				P []int `api:"problems"`
			}
			_ = Decode([]byte(`{}`), &v)
		},
		"max not a number": func() {
			var v struct {
				F float64 `wire:"f" api:"max=x"`
			}
			_ = Decode([]byte(`{}`), &v)
		},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			decode()
		}()
	}
}

func TestParseTimestamp(t *testing.T) {
	want := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	for _, s := range []string{"2026-11-21T12:00:00Z", "2026-11-21T14:00:00+02:00", "2026-11-21T12:00:00", "2026-11-21 12:00:00Z", "2026-11-21T12:00:00.000Z"} {
		if got, ok := parseTimestamp(s); !ok || !got.Equal(want) {
			t.Errorf("%s: %v %v", s, got, ok)
		}
	}
	for _, s := range []string{"", "soon", "2026-11-21"} {
		if _, ok := parseTimestamp(s); ok {
			t.Errorf("%s read", s)
		}
	}
	if !IsWebURL("http://x.test/a") || IsWebURL("https://u@x.test") || IsWebURL("/rel") || IsWebURL("mailto:a@b") {
		t.Error("IsWebURL")
	}
}
