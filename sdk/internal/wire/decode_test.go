package wire

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// wireInner and wireAnswer hold one field of each decoding rule.
type wireInner struct {
	Name string `json:"name" api:"optional"`
	N    int64  `json:"n"`
}

type wireAnswer struct {
	Required string             `json:"required"`
	NonEmpty string             `json:"nonEmpty" api:"nonempty"`
	Optional *string            `json:"optional"`
	OrEmpty  string             `json:"orEmpty" api:"optional"`
	Default  string             `json:"default" api:"default=answer"`
	Named    namedSource        `json:"named"`
	NamedPtr *namedStatus       `json:"namedPtr"`
	Whole    int64              `json:"whole"`
	Ratio    float64            `json:"ratio"`
	Flag     bool               `json:"flag"`
	MaybeOn  *bool              `json:"maybeOn"`
	Object   wireInner          `json:"object"`
	MaybeObj *wireInner         `json:"maybeObj"`
	Rows     []wireInner        `json:"rows"`
	Words    []string           `json:"words"`
	MaybeSet []wireInner        `json:"maybeSet" api:"optional"`
	Renamed  string             `json:"renamed" wire:"spelledOtherwise"`
	Skipped  string             `json:"skipped" api:"-"`
	Nested   []wireNestedHolder `json:"nested"`
	Info
}

// namedSource and namedStatus are string types of their own, as the
// API's enumerations are in package sdk.
type (
	namedSource string
	namedStatus string
)

// Info stands for package sdk's embedded ResponseInfo: never read.
type Info struct{ Pages int }

// countsPage is the shape the visitors and views exports share.
type countsPage struct {
	Totals struct {
		Human int64 `json:"human"`
		AI    int64 `json:"ai"`
		Total int64 `json:"total"`
	} `json:"totals"`
	Paths []struct {
		Path  string `json:"path" api:"nonempty"`
		Human int64  `json:"human"`
		AI    int64  `json:"ai"`
		Total int64  `json:"total"`
	} `json:"paths"`
	HasMore bool `json:"hasMore"`
}

type wireNestedHolder struct {
	Inner []wireInner `json:"inner"`
}

const wireWhole = `{"required":"r","nonEmpty":"n","optional":"o","orEmpty":"e","default":"d","named":"agent",
	"namedPtr":"pending","whole":12.0,"ratio":0.5,"flag":true,"maybeOn":false,"object":{"name":"x","n":1},
	"maybeObj":{"n":2},"rows":[{"name":"a","n":3}],"words":["w"],"maybeSet":[],"spelledOtherwise":"s",
	"skipped":"never read","nested":[{"inner":[{"n":4}]}]}`

func TestDecodeAnswer_readsEveryRule(t *testing.T) {
	var got wireAnswer
	if err := Decode([]byte(wireWhole), &got); err != nil {
		t.Fatal(err)
	}
	o, st, f := "o", namedStatus("pending"), false
	want := wireAnswer{Required: "r", NonEmpty: "n", Optional: &o, OrEmpty: "e", Default: "d", Named: namedSource("agent"),
		NamedPtr: &st, Whole: 12, Ratio: 0.5, Flag: true, MaybeOn: &f, Object: wireInner{Name: "x", N: 1},
		MaybeObj: &wireInner{N: 2}, Rows: []wireInner{{Name: "a", N: 3}}, Words: []string{"w"}, MaybeSet: []wireInner{},
		Renamed: "s", Nested: []wireNestedHolder{{Inner: []wireInner{{N: 4}}}}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("decoded (-want +got):\n%s", diff)
	}
}

func TestDecodeAnswer_absentOptionalsAreEmptyAndDefaultsApply(t *testing.T) {
	var got wireAnswer
	err := Decode([]byte(`{"required":"r","nonEmpty":"n","named":"agent","whole":0,"ratio":0,"flag":false,"object":{"n":0},
		"rows":[],"words":[],"renamed":"not this one","nested":[],"default":""}`), &got)
	if err == nil || err.Error() != "spelledOtherwise: missing" {
		t.Fatalf("err = %v, want only the renamed field missing", err)
	}
	if got.Optional != nil || got.OrEmpty != "" || got.Default != "answer" || got.NamedPtr != nil || got.MaybeOn != nil ||
		got.MaybeObj != nil || got.MaybeSet != nil || got.Rows == nil || got.Renamed != "" {
		t.Errorf("absent optional fields: %+v", got)
	}
	got = wireAnswer{}
	_ = Decode([]byte(`{"default":null}`), &got)
	if got.Default != "answer" {
		t.Errorf("a null default = %q, want answer", got.Default)
	}
}

func TestDecodeAnswer_namesEveryProblemAsTheAnswerSpellsIt(t *testing.T) {
	for body, want := range map[string]string{
		`{}`: "required: missing; nonEmpty: missing; named: missing; whole: missing; ratio: missing; flag: missing; " +
			"object: missing; rows: missing; words: missing; spelledOtherwise: missing; nested: missing",
		`{"required":1,"nonEmpty":"","named":"agent","whole":-1,"ratio":-0.5,"flag":"yes","object":{"n":1.5},"rows":[{"n":null}],
			"words":[null],"spelledOtherwise":"s","nested":[{"inner":[{"n":"x"}]}],"maybeObj":{"name":7,"n":1},"optional":[]}`: "required: want a string, got a number; nonEmpty: missing or empty; optional: want a string or null, got a list; " +
			"whole: -1 is negative; ratio: -0.5 is negative; flag: want true or false, got a string; object.n: 1.5 is not a whole number; " +
			"maybeObj.name: want a string or null, got a number; rows[0].n: missing; words[0]: missing; nested[0].inner[0].n: want a number, got a string",
		`{"required":"r","nonEmpty":"n","named":"agent","whole":1,"ratio":1,"flag":true,"object":"o","rows":{},"words":[],
			"spelledOtherwise":"s","nested":[]}`: "object: want an object, got a string",
	} {
		var got wireAnswer
		if err := Decode([]byte(body), &got); err == nil || err.Error() != want {
			t.Errorf("%s:\n got %v\nwant %s", body, err, want)
		}
	}
}

func TestDecodeAnswer_wireRespellsTopLevelNames(t *testing.T) {
	var pg countsPage
	body := `{"totals":{"human":1,"ai":1,"total":2},"views":[{"path":"/a","human":1,"ai":0,"total":1}],"hasMore":false}`
	if err := DecodeWith([]byte(body), &pg, Options{Names: map[string]string{"paths": "views"}}); err != nil || len(pg.Paths) != 1 || pg.Paths[0].Path != "/a" {
		t.Errorf("views read as paths: %+v, %v", pg, err)
	}
	// The same type without the respelling is planned apart.
	if err := Decode([]byte(body), &pg); err == nil || err.Error() != "paths: missing" {
		t.Errorf("without respelling: %v", err)
	}
}

func TestDecodeAnswer_notAnObjectIsAnError(t *testing.T) {
	for body, want := range map[string]string{
		`null`: "answer: want an object, got null",
		`[1]`:  "answer: want an object, got a list",
		`{`:    "unexpected end of JSON input",
	} {
		var got wireAnswer
		if err := Decode([]byte(body), &got); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
	}
}

func TestDecodeAnswer_overwritesWhatWasThere(t *testing.T) {
	got := wireAnswer{Skipped: "old", Optional: new(string), Info: Info{Pages: 3}}
	_ = Decode([]byte(wireWhole), &got)
	if got.Skipped != "" || got.Pages != 0 {
		t.Errorf("a decoded answer keeps old values: %+v", got)
	}
}

func TestDecodeAnswer_aTypeWithNoRuleIsAProgrammingError(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "no decoding rule for field M") {
			t.Errorf("recovered %v", r)
		}
	}()
	var v struct {
		M map[string]string `json:"m"`
	}
	_ = Decode([]byte(`{}`), &v)
}
