package wire

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The tests here hold what the package does at its edges: a count at a
// cap, a value at max=N, a struct's problems field as its first field.

// ownFirst keeps its problems in its first field (index 0).
type ownFirst struct {
	Problems []string `api:"problems"`
	ID       string   `json:"id" api:"nonempty"`
	Tags     []string `json:"tags" api:"optional"`
}

// holdsOwnFirst holds ownFirst as an object and as rows.
type holdsOwnFirst struct {
	Inner ownFirst   `json:"inner"`
	Rows  []ownFirst `json:"rows"`
}

// A top-level struct whose problems field is its first keeps its
// problems, and the answer does not fail for them.
func TestDecode_problemsAsFirstFieldAtTheTopAreKept(t *testing.T) {
	var got ownFirst
	if err := Decode([]byte(`{}`), &got); err != nil {
		t.Fatalf("err %v, want nil (the struct keeps its problems)", err)
	}
	if diff := cmp.Diff([]string{"id: missing"}, got.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

// A nested object and a list's rows whose problems field is their first
// keep their own problems, named from themselves; the answer holds none.
func TestDecode_problemsAsFirstFieldInsideAreKeptThere(t *testing.T) {
	var got holdsOwnFirst
	err := Decode([]byte(`{"inner":{},"rows":[{"id":"a"},{"id":"b","tags":5},{}]}`), &got)
	if err != nil {
		t.Fatalf("err %v, want nil", err)
	}
	if diff := cmp.Diff([]string{"id: missing"}, got.Inner.Problems); diff != "" {
		t.Errorf("inner's problems (-want +got):\n%s", diff)
	}
	if len(got.Rows) != 3 {
		t.Fatalf("%d rows, want 3: %+v", len(got.Rows), got.Rows)
	}
	if got.Rows[0].ID != "a" || got.Rows[0].Problems != nil {
		t.Errorf("row 0: %+v", got.Rows[0])
	}
	if !cmp.Equal(got.Rows[1].Problems, []string{"tags: want a list, got a number"}) || !cmp.Equal(got.Rows[2].Problems, []string{"id: missing"}) {
		t.Errorf("rows 1 and 2 keep their own problems: %+v", got.Rows[1:])
	}
}

// A list inside a top-level object names its rows from the object.
func TestDecode_rowsOfAListInsideAnObjectAreNamedFromIt(t *testing.T) {
	var got struct {
		Obj struct {
			Rows []wireInner `json:"rows"`
		} `json:"obj"`
	}
	err := Decode([]byte(`{"obj":{"rows":[{"n":1},{"n":"x"}]}}`), &got)
	if err == nil || !strings.HasPrefix(err.Error(), "obj.rows[1].n: ") {
		t.Errorf("err %v, want a problem named obj.rows[1].n", err)
	}
}

// Options.Most keeps a list exactly at the cap whole and without a
// problem, cuts one past it, and a cap of 0 keeps everything.
func TestDecodeWith_mostAtTheCap(t *testing.T) {
	type page struct {
		Rows []wireInner `json:"rows"`
	}
	for _, c := range []struct {
		body     string
		most     int
		rows     int
		problems string
	}{
		{`{"rows":[{"n":1},{"n":2}]}`, 2, 2, ""},
		{`{"rows":[{"n":1},{"n":2},{"n":3}]}`, 2, 2, "rows: 3 rows where at most 2 were asked for: the first 2 kept"},
		{`{"rows":[{"n":1}]}`, 0, 1, ""},
		{`{"rows":[]}`, 0, 0, ""},
	} {
		var got page
		err := DecodeWith([]byte(c.body), &got, Options{Most: map[string]int{"rows": c.most}})
		gotProblems := ""
		if err != nil {
			gotProblems = err.Error()
		}
		if len(got.Rows) != c.rows || gotProblems != c.problems {
			t.Errorf("%s, most %d: %d rows, problems %q; want %d, %q", c.body, c.most, len(got.Rows), gotProblems, c.rows, c.problems)
		}
	}
}

// A ratio exactly at max=N is kept; just above it is a problem.
func TestDecode_ratioExactlyAtMax(t *testing.T) {
	for body, want := range map[string]float64{`{"progress":100}`: 100, `{"progress":100.0}`: 100, `{"progress":100.5}`: 0} {
		var got kept
		if err := Decode([]byte(body), &got); err != nil {
			t.Fatal(err)
		}
		above := false
		for _, p := range got.Problems {
			above = above || strings.HasPrefix(p, "progress: ")
		}
		if got.Progress != want || above != (want == 0) {
			t.Errorf("%s: progress %v, problems %q; want %v", body, got.Progress, got.Problems, want)
		}
	}
}

// DecodeList wraps any list under any name: a name much longer than the
// body, or a body and name shorter than the wrapping, are read alike.
func TestDecodeList_shortAndLongNames(t *testing.T) {
	type row struct {
		N int64 `json:"n"`
	}
	for _, name := range []string{"r", strings.Repeat("n", 40)} {
		var rows []row
		p, err := DecodeList([]byte(`[]`), &rows, name, Options{})
		if err != nil || p != nil || rows == nil || len(rows) != 0 {
			t.Errorf("name %q: rows %v, problems %q, err %v; want an empty list", name, rows, p, err)
		}
	}
}

// One row type read under two names is planned for each name: the
// second name's rows are read and named as the second's.
func TestDecodeList_oneTypeUnderTwoNames(t *testing.T) {
	type twiceNamedRow struct {
		N int64 `json:"n"`
	}
	for _, name := range []string{"first", "second"} {
		var rows []twiceNamedRow
		p, err := DecodeList([]byte(`[{"n":5},{}]`), &rows, name, Options{})
		want := Problems{name + "[1].n: missing"}
		if err != nil || len(rows) != 2 || rows[0].N != 5 || !cmp.Equal(p, want) {
			t.Errorf("name %q: rows %+v, problems %q, err %v; want %q", name, rows, p, err, want)
		}
	}
}

// A count's fast path and its careful path agree at their edges.
func TestCount_edges(t *testing.T) {
	for body, want := range map[string]struct {
		v        int64
		problems string
	}{
		`0`:                    {0, ""},
		`-0`:                   {0, ""},
		`9`:                    {9, ""},
		`-5`:                   {0, "n: -5 is negative"},
		`-1.5`:                 {0, "n: -1.5 is not a whole number"},
		`1.2e1`:                {12, ""},
		`999999999999999999`:   {999999999999999999, ""},
		`9223372036854775807`:  {9223372036854775807, ""},
		`99999999999999999999`: {0, "n: 99999999999999999999 is out of range"},
		`"7"`:                  {0, "n: want a number, got a string"},
	} {
		var c count
		if err := c.UnmarshalJSON([]byte(body)); err != nil {
			t.Fatal(err)
		}
		var p Problems
		if v := wholeCount(&p, Top("n"), c); v != want.v || p.Error() != want.problems {
			t.Errorf("%s: %d, problems %q; want %d, %q", body, v, p, want.v, want.problems)
		}
	}
}

// A string of only escaped backslashes is unescaped.
func TestText_onlyBackslashes(t *testing.T) {
	for body, want := range map[string]string{`"\\"`: `\`, `"\\\\"`: `\\`, `""`: "", `"a\\b"`: `a\b`, `"ab"`: "ab"} {
		var x Text
		if err := x.UnmarshalJSON([]byte(body)); err != nil || x.Value() != want || !x.set || x.odd != "" {
			t.Errorf("%s: %+v, %v; want %q", body, x, err, want)
		}
	}
	// A malformed escape (encoding/json refuses it before a Text sees it
	// in an answer) is not a string.
	var x Text
	if err := x.UnmarshalJSON([]byte(`"\x"`)); err != nil || x.set || x.odd != "a malformed string" {
		t.Errorf("a malformed escape: %+v, %v", x, err)
	}
}

// CheckLists leaves a stray closing bracket or comma to the JSON parser, and
// stops counting a list where it closes: an object's members after it
// are no list items.
func TestCheckLists_closedListsStopCounting(t *testing.T) {
	for _, body := range []string{`]`, `}`, `]]`, `,`, `1,2`, `{"a":1},`,
		`{"l":[1,2],` + strings.Repeat(`"k":1,`, MaxListLength+1) + `"z":1}`} {
		if err := CheckLists([]byte(body)); err != nil {
			t.Errorf("%.60s: %v", body, err)
		}
	}
	if err := CheckLists([]byte(manyOf("1", MaxListLength+1))); err == nil {
		t.Error("a list one past the cap is read")
	}
}

// The 100th problem is listed; the 101st is MoreProblems; past it,
// nothing more.
func TestProblems_theHundredthAndHundredFirst(t *testing.T) {
	var p Problems
	for i := range MaxProblems - 1 {
		p.Add("f", "%d", i)
	}
	p.Add("f", "last")
	if len(p) != MaxProblems || p[MaxProblems-1] != "f: last" {
		t.Fatalf("100th: %d problems, last %q", len(p), p[len(p)-1])
	}
	p.Add("f", "one more")
	if len(p) != MaxProblems+1 || p[MaxProblems] != MoreProblems {
		t.Fatalf("101st: %d problems, last %q", len(p), p[len(p)-1])
	}
	p.Add("f", "yet more")
	if len(p) != MaxProblems+1 {
		t.Errorf("past 101: %d problems", len(p))
	}
	if p.Err() == nil {
		t.Error("problems are no error")
	}
}

// clip keeps a value of exactly maxEchoed runes, and cuts one longer to
// maxEchoed runes and a mark, counting runes, not bytes.
func TestClip_atMaxEchoed(t *testing.T) {
	at, past := strings.Repeat("a", maxEchoed), strings.Repeat("a", maxEchoed+1)
	wide := strings.Repeat("é", maxEchoed)
	for in, want := range map[string]string{
		at: at, past: at + "…", wide: wide, wide + "é": wide + "…", "": "",
		"x" + strings.Repeat(" ", maxEchoed): "x…",
	} {
		if got := clip(in); got != want {
			t.Errorf("clip(%.20q…, %d runes) = %.20q… (%d runes); want %d runes", in, len([]rune(in)), got, len([]rune(got)), len([]rune(want)))
		}
	}
}

// A plain integer count is read on the fast path, without allocating;
// only a count that is not one (or may not fit) is kept as text.
func TestCount_plainIntegersAllocateNothing(t *testing.T) {
	for _, body := range []string{"0", "9", "10", "90", "123456789012345678"} {
		b := []byte(body)
		var c count
		if n := testing.AllocsPerRun(100, func() { c = count{}; _ = c.UnmarshalJSON(b) }); n != 0 || c.odd != "" || !c.set {
			t.Errorf("%s: %v allocations, odd %q; want 0, \"\"", body, n, c.odd)
		}
	}
}

// A value of at most maxEchoed bytes is quoted as it is, without
// counting its runes (which allocates).
func TestClip_shortValuesAllocateNothing(t *testing.T) {
	s := strings.Repeat("é", maxEchoed/2)
	if n := testing.AllocsPerRun(100, func() { s = clip(s) }); n != 0 || len(s) != maxEchoed {
		t.Errorf("%v allocations for %d bytes; want 0", n, len(s))
	}
}
