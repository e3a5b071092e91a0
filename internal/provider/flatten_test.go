package provider

import (
	"strings"
	"testing"

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
		types.ListType{ElemType: types.StringType}, flatAuthorType} {
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
