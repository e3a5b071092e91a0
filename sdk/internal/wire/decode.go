package wire

import (
	"encoding/json"
	"errors"
	"reflect"
)

// Answers are decoded from their public types' fields: each field of an
// answer is written once, in its type, and Decode derives the rest.
//
// For a public struct it builds (once per type, with reflect.StructOf) a
// raw struct of the same JSON names whose leaves are the lenient Text,
// count and flag: encoding/json fills it, so one mistyped field never
// hides the others. Each raw field is then checked and copied into the
// public one by a rule that the field's Go type implies, or its `api` tag
// states:
//
//	string                required: missing, null or another kind is a problem
//	*string               optional: absent or null is nil
//	int64                 required whole number: 12, 12.0 and 1.2e1 are 12;
//	                      a fraction, a negative or one past int64 is a problem
//	*int64                optional whole number: nil when absent, null or wrong
//	float64               required non-negative number
//	bool, *bool           required, optional
//	time.Time             required ISO 8601 timestamp (RFC 3339, with or
//	                      without fractions or a zone: UTC then)
//	*time.Time            optional timestamp
//	map[string]any        optional JSON object of any values (numbers as
//	                      json.Number: 0.10 stays 0.10, 2^60 stays whole)
//	struct                a required object, its fields by the same rules
//	[]struct, []string    a required list, each element by the same rules
//
// The `api` tag holds words, comma-separated:
//
//	nonempty              a required string that must not be ""
//	optional              a string, number, flag, time, list or object that
//	                      may be absent or null ("", 0, false, nil)
//	expected              optional, but "" is a problem ("missing or empty")
//	default=answer        optional, and "answer" when absent, null or ""
//	url                   a string that must be an absolute http(s) URL
//	                      without credentials; another is a problem, not kept
//	signed                a float64 that may be negative
//	max=100               a float64 above 100 is a problem (0 then)
//	skipodd               a []string whose entries that are not strings are
//	                      left out (each a problem)
//	must                  a problem with this field fails the answer, even
//	                      where the struct keeps its problems
//	problems              on a []string field: the struct's problems (and
//	                      those of what it holds) are kept there, named from
//	                      the struct, instead of failing the answer; a list
//	                      of such structs is read row by row, so a mistyped
//	                      field spoils its row only
//	-                     not read from the answer (set by the caller)
//
// The JSON name is the field's `wire` tag, or else its json tag; a name
// "error.tag" reads leaf tag of an object error that the type flattens
// (absent or null: its leaves are absent). An
// embedded struct (package sdk's ResponseInfo) is the caller's, never read
// from the body. Problems name fields as the answer spells them:
// "visitors[3].total: -5 is negative"; a value they quote goes through
// Options.Echo.

// Options are how one answer is read.
type Options struct {
	// Names respells top-level JSON names for an endpoint that spells
	// them otherwise (the visitors and views exports share one type).
	Names map[string]string
	// Most keeps at most n rows of a top-level list (by its JSON name):
	// what was asked for. More is a problem, not more data.
	Most map[string]int
	// Echo is how a problem quotes a value from the answer (package sdk
	// removes its secrets, then clips). Nil: clipped only.
	Echo func(string) string
}

// Decode decodes an answer into out by out's fields. The error is
// Problems, or the reason the body could not be read at all.
func Decode[T any](data []byte, out *T) error {
	return DecodeWith(data, out, Options{})
}

// DecodeWith is Decode with options.
func DecodeWith[T any](data []byte, out *T, o Options) error {
	plan := planFor(reflect.TypeFor[T](), o.Names)
	raw := reflect.New(plan.raw)
	var p Problems
	if err := ReadRaw(data, raw.Interface(), &p); err != nil {
		return err
	}
	v := reflect.ValueOf(out).Elem()
	v.SetZero()
	return newReader(o).root(&p, plan, raw.Elem(), v)
}

// DecodeList decodes an answer that is a JSON list of objects into out,
// its rows named name[i] in problems (and name in errors and Options.Most).
// Only an answer that is not such a list is an error; the problems with
// the rows' fields are returned apart, for the caller to keep beside them.
func DecodeList[T any](data []byte, out *[]T, name string, o Options) (Problems, error) {
	if err := CheckLists(data); err != nil {
		return nil, err
	}
	if !json.Valid(data) {
		var v any
		return nil, json.Unmarshal(data, &v) // encoding/json's own words
	}
	o.Names = map[string]string{"rows": name}
	plan := planFor(reflect.TypeFor[listAnswer[T]](), o.Names)
	raw := reflect.New(plan.raw)
	wrapped := make([]byte, 0, len(data)+len(name)+5)
	wrapped = append(append(append(append(append(wrapped, `{"`...), name...), `":`...), data...), '}')
	err := json.Unmarshal(wrapped, raw.Interface())
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te):
		return nil, Problems{"answer: want a list of " + name + ", got " + kindName(te.Value)}
	case err != nil:
		return nil, err
	case raw.Elem().Field(0).IsNil():
		return nil, Problems{"answer: want a list of " + name + ", got null"}
	}
	var v listAnswer[T]
	var p Problems
	plan.convert(newReader(o), &p, raw.Elem(), reflect.ValueOf(&v).Elem(), where{})
	*out = v.Rows
	return p, nil
}

// listAnswer holds the rows of an answer that is a list.
type listAnswer[T any] struct {
	Rows []T `json:"rows"`
}

// reader converts raw structs into public ones for one answer.
type reader struct {
	Options
}

func newReader(o Options) reader {
	if o.Echo == nil {
		o.Echo = clip
	}
	return reader{Options: o}
}

// root converts the answer's top-level struct: its problems are in p.
func (r reader) root(p *Problems, plan *typePlan, raw, v reflect.Value) error {
	if plan.problems < 0 {
		plan.convertOwn(r, p, raw, v, where{})
		return p.Err()
	}
	return r.own(p, plan, raw, v)
}

// own converts a struct that keeps its problems: p holds those found so
// far (kinds encoding/json refused); they go into the struct's problems
// field, and fail the answer too when a must field has one.
func (r reader) own(p *Problems, plan *typePlan, raw, v reflect.Value) error {
	failed := plan.convertOwn(r, p, raw, v, where{})
	v.Field(plan.problems).Set(reflect.ValueOf([]string(*p)))
	if failed {
		return *p
	}
	return nil
}
