package provider

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

type flatAuthor struct {
	Name         string
	GitHubUserID *int64
}

type flatRow struct {
	PageURL  string
	Comment  *string
	Hits     int64
	Count    int
	CTR      float64
	Helpful  *bool
	Done     bool
	Author   *flatAuthor
	Tags     []string
	Authors  []flatAuthor
	Unshown  string // no attribute: not read
	internal string //nolint:unused // unexported: never read
}

var (
	flatAuthorType = types.ObjectType{AttrTypes: map[string]attr.Type{"name": types.StringType, "github_user_id": types.Int64Type}}
	flatRowType    = types.ObjectType{AttrTypes: map[string]attr.Type{
		"page_url": types.StringType, "comment": types.StringType, "hits": types.Int64Type, "count": types.Int64Type,
		"ctr": types.Float64Type, "helpful": types.BoolType, "done": types.BoolType, "author": flatAuthorType,
		"tags": types.ListType{ElemType: types.StringType}, "authors": types.ListType{ElemType: flatAuthorType},
	}}
)

func TestFlatten_fillsEachAttributeFromTheFieldOfItsName(t *testing.T) {
	comment, yes, id := "ok", true, int64(7)
	rows := []flatRow{
		{PageURL: "/a", Comment: &comment, Hits: 3, Count: 4, CTR: 0.5, Helpful: &yes, Done: true,
			Author: &flatAuthor{Name: "ada", GitHubUserID: &id}, Tags: []string{"x"}, Authors: []flatAuthor{{Name: "bo"}}},
		{PageURL: "/b"},
	}
	got := flattenList(flatRowType, rows)
	want := `[{"author":{"github_user_id":7,"name":"ada"},"authors":[{"github_user_id":<null>,"name":"bo"}],"comment":"ok",` +
		`"count":4,"ctr":0.500000,"done":true,"helpful":true,"hits":3,"page_url":"/a","tags":["x"]},` +
		`{"author":<null>,"authors":[],"comment":<null>,"count":0,"ctr":0.000000,"done":false,"helpful":<null>,"hits":0,` +
		`"page_url":"/b","tags":[]}]`
	if got.String() != want {
		t.Errorf("flattened:\n got %s\nwant %s", got, want)
	}
	if !got.ElementType(t.Context()).Equal(flatRowType) {
		t.Errorf("element type %s", got.ElementType(t.Context()))
	}
}

func TestFlatten_objectAndNil(t *testing.T) {
	if got := flattenObject(flatAuthorType, flatAuthor{Name: "ada"}); got.String() != `{"github_user_id":<null>,"name":"ada"}` {
		t.Errorf("object: %s", got)
	}
	if got := flattenObject(flatAuthorType, (*flatAuthor)(nil)); !got.IsNull() {
		t.Errorf("nil pointer: %s, want null", got)
	}
	var vals []attr.Value
	vals = appendFlat(vals, flatAuthorType, []flatAuthor{{Name: "a"}})
	vals = appendFlat(vals, flatAuthorType, []flatAuthor{{Name: "b"}, {Name: "c"}})
	if len(vals) != 3 || !strings.Contains(vals[2].String(), `"c"`) {
		t.Errorf("appendFlat: %v", vals)
	}
	if got := flattenList(flatAuthorType, []flatAuthor(nil)); got.IsNull() || len(got.Elements()) != 0 {
		t.Errorf("no rows: %s, want an empty list", got)
	}
}

func TestFlatten_aGoTypeThatCannotBeTheAttributesIsAProgrammingError(t *testing.T) {
	for name, tc := range map[string]struct {
		tf   attr.Type
		rows any
		want string
	}{
		"string into int64":  {types.Int64Type, []string{"x"}, "cannot flatten Go string into Terraform basetypes.Int64Type"},
		"int into string":    {types.StringType, []int64{1}, "cannot flatten Go int64 into Terraform basetypes.StringType"},
		"int into float":     {types.Float64Type, []int64{1}, "cannot flatten Go int64"},
		"string into bool":   {types.BoolType, []string{"x"}, "cannot flatten Go string"},
		"string into list":   {types.ListType{ElemType: types.StringType}, []string{"x"}, "cannot flatten Go string"},
		"string into object": {flatAuthorType, []string{"x"}, "cannot flatten Go string"},
		"number type":        {types.NumberType, []int64{1}, "cannot flatten Go int64 into Terraform basetypes.NumberType"},
		"slice into map":     {types.MapType{ElemType: types.StringType}, [][]string{{"x"}}, "cannot flatten Go []string"},
		"map of int keys":    {types.MapType{ElemType: types.StringType}, []map[int]string{{1: "x"}}, "cannot flatten Go map[int]string"},
		"time into int64":    {types.Int64Type, []time.Time{{}}, "cannot flatten Go time.Time"},
		"attribute without a field": {types.ObjectType{AttrTypes: map[string]attr.Type{"nickname": types.StringType}},
			[]flatAuthor{{}}, `provider.flatAuthor has no field for attribute "nickname"`},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r, _ := recover().(string); !strings.Contains(r, tc.want) {
					t.Errorf("recovered %q, want %q", r, tc.want)
				}
			}()
			flattenList(tc.tf, tc.rows)
		})
	}
}

func TestFlatten_nullOfEveryKind(t *testing.T) {
	for _, tf := range []attr.Type{types.StringType, types.Int64Type, types.Float64Type, types.BoolType,
		types.ListType{ElemType: types.StringType}, types.MapType{ElemType: types.Int64Type}, flatAuthorType} {
		if v := nullOf(tf); !v.IsNull() || !v.Type(t.Context()).Equal(tf) {
			t.Errorf("nullOf(%s) = %s of %s", tf, v, v.Type(t.Context()))
		}
	}
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "no null value") {
			t.Errorf("recovered %q", r)
		}
	}()
	nullOf(types.NumberType)
}

// A time is written as timeValue writes it: RFC 3339 in UTC, the zero
// time (the answer did not say) and a nil pointer null.
func TestFlatten_timesAsTimeValueWritesThem(t *testing.T) {
	type stamped struct {
		CreatedAt time.Time
		EndedAt   *time.Time
	}
	stampedType := types.ObjectType{AttrTypes: map[string]attr.Type{"created_at": types.StringType, "ended_at": types.StringType}}
	at := time.Date(2026, 10, 1, 9, 30, 0, 5, time.FixedZone("CEST", 2*3600))
	for _, tc := range []struct {
		row  stamped
		want string
	}{
		{stamped{CreatedAt: at, EndedAt: &at}, `{"created_at":"2026-10-01T07:30:00.000000005Z","ended_at":"2026-10-01T07:30:00.000000005Z"}`},
		{stamped{}, `{"created_at":<null>,"ended_at":<null>}`},
		{stamped{EndedAt: &time.Time{}}, `{"created_at":<null>,"ended_at":<null>}`},
	} {
		got := flattenObject(stampedType, tc.row)
		if got.String() != tc.want {
			t.Errorf("flattened %v:\n got %s\nwant %s", tc.row, got, tc.want)
		}
		if want := timeValue(&tc.row.CreatedAt); !got.Attributes()["created_at"].Equal(want) {
			t.Errorf("created_at %s, timeValue %s", got.Attributes()["created_at"], want)
		}
	}
}

// A map with string keys is a Map; no map is an empty one (as no slice is
// an empty list), a nil pointer to one null.
func TestFlatten_maps(t *testing.T) {
	type tagged struct {
		Labels map[string]string
		Counts *map[string]int64
	}
	taggedType := types.ObjectType{AttrTypes: map[string]attr.Type{
		"labels": types.MapType{ElemType: types.StringType}, "counts": types.MapType{ElemType: types.Int64Type}}}
	counts := map[string]int64{"a": 1}
	for _, tc := range []struct {
		row  tagged
		want string
	}{
		{tagged{Labels: map[string]string{"title": "Quickstart", "empty": ""}, Counts: &counts}, `{"counts":{"a":1},"labels":{"empty":"","title":"Quickstart"}}`},
		{tagged{}, `{"counts":<null>,"labels":{}}`},
	} {
		got := flattenObject(taggedType, tc.row, emptyIsNull) // a map's elements keep ""
		if got.String() != tc.want {
			t.Errorf("flattened %v:\n got %s\nwant %s", tc.row, got, tc.want)
		}
		if labels := got.Attributes()["labels"]; labels.IsNull() || !labels.Type(t.Context()).Equal(taggedType.AttrTypes["labels"]) {
			t.Errorf("labels %s of %s", labels, labels.Type(t.Context()))
		}
	}
}

// emptyIsNull makes an object's string attributes null when "", at every
// depth, and leaves alone what is not an attribute's own string: a
// pointer's value, a list's elements. Without it "" is "". The same types
// with and without the rule are planned apart.
func TestFlatten_emptyIsNull(t *testing.T) {
	type commit struct {
		SHA, Ref string
		Files    []string
	}
	type status struct {
		Summary string
		Branch  *string
		Commit  *commit
		Commits []commit
	}
	commitType := types.ObjectType{AttrTypes: map[string]attr.Type{"sha": types.StringType, "ref": types.StringType,
		"files": types.ListType{ElemType: types.StringType}}}
	statusType := types.ObjectType{AttrTypes: map[string]attr.Type{"summary": types.StringType, "branch": types.StringType,
		"commit": commitType, "commits": types.ListType{ElemType: commitType}}}
	empty := ""
	row := status{Branch: &empty, Commit: &commit{SHA: "abc", Files: []string{""}}, Commits: []commit{{Ref: "main"}}}
	for rule, want := range map[flatRule]string{
		emptyIsNull: `{"branch":"","commit":{"files":[""],"ref":<null>,"sha":"abc"},"commits":[{"files":[],"ref":"main","sha":<null>}],"summary":<null>}`,
		0:           `{"branch":"","commit":{"files":[""],"ref":"","sha":"abc"},"commits":[{"files":[],"ref":"main","sha":""}],"summary":""}`,
	} {
		if got := flattenObject(statusType, row, rule); got.String() != want {
			t.Errorf("rule %d:\n got %s\nwant %s", rule, got, want)
		}
	}
	if got := flattenList(types.StringType, []string{"", "x"}, emptyIsNull); got.String() != `["","x"]` {
		t.Errorf("a list of strings: %s", got)
	}
}

// A row struct that embeds the SDK's type and shadows one field: the
// shadowing field fills its attribute, the others come from the embedded
// struct, by value or through a pointer.
func TestFlatten_embeddedStructShadowedField(t *testing.T) {
	type sdkRow struct {
		Path     string
		Metadata map[string]any
	}
	type byValue struct {
		sdkRow
		Metadata map[string]string
	}
	type byPointer struct {
		*sdkRow
		Metadata map[string]string
	}
	rowType := types.ObjectType{AttrTypes: map[string]attr.Type{"path": types.StringType, "metadata": types.MapType{ElemType: types.StringType}}}
	in := sdkRow{Path: "/a", Metadata: map[string]any{"n": 1}}
	want := `{"metadata":{"n":"1"},"path":"/a"}`
	if got := flattenObject(rowType, byValue{in, map[string]string{"n": "1"}}); got.String() != want {
		t.Errorf("by value: %s", got)
	}
	if got := flattenObject(rowType, byPointer{&in, map[string]string{"n": "1"}}); got.String() != want {
		t.Errorf("by pointer: %s", got)
	}
}

func BenchmarkFlatten_pathRows(b *testing.B) {
	type pathCounts struct {
		Path             string
		Human, AI, Total int64
	}
	elem := types.ObjectType{AttrTypes: map[string]attr.Type{"path": types.StringType, "human": types.Int64Type,
		"ai": types.Int64Type, "total": types.Int64Type}}
	rows := make([]pathCounts, 250)
	for b.Loop() {
		flattenList(elem, rows)
	}
}

func TestFlatten_aTypeOfAnotherShapeIsAProgrammingError(t *testing.T) {
	for name, f := range map[string]func(){
		"object of a string type":  func() { flattenObject(types.StringType, "x") },
		"element of a string type": func() { elemType(types.StringType) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if r, _ := recover().(string); !strings.Contains(r, "is not") {
					t.Errorf("recovered %q", r)
				}
			}()
			f()
		})
	}
}

// One Go type into two Terraform types, from many goroutines at once:
// each conversion is planned for its own type, and used as planned.
func TestFlatten_oneGoTypeIntoTwoTypesAtOnce(t *testing.T) {
	nameOnly := types.ObjectType{AttrTypes: map[string]attr.Type{"name": types.StringType}}
	id := int64(3)
	row := flatAuthor{Name: "ada", GitHubUserID: &id}
	done := make(chan string)
	for i := range 8 {
		go func() {
			tf := []attr.Type{flatAuthorType, nameOnly}[i%2]
			done <- flattenList(tf, []flatAuthor{row}).String()
		}()
	}
	for range 8 {
		if got := <-done; got != `[{"github_user_id":3,"name":"ada"}]` && got != `[{"name":"ada"}]` {
			t.Errorf("flattened %s", got)
		}
	}
	if a, b := flattenObject(flatAuthorType, row).String(), flattenObject(nameOnly, row).String(); a == b {
		t.Errorf("both types gave %s", a)
	}
}
