package sdk

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
)

// fieldProblems lists what is wrong with a decoded answer, one entry per
// field: "visitors[3].total: -5 is negative". Decoders return it; the
// request layer turns it into a *MalformedResponseError.
type fieldProblems []string

func (p fieldProblems) Error() string { return strings.Join(p, "; ") }

func (p *fieldProblems) add(field, format string, args ...any) {
	*p = append(*p, field+": "+fmt.Sprintf(format, args...))
}

// err returns the problems as an error, or nil when there are none.
func (p fieldProblems) err() error {
	if len(p) == 0 {
		return nil
	}
	return p
}

// field names a field of an answer for problems, built only when one is
// reported: a 250-row page that decodes cleanly formats no names.
type field struct {
	list  string // the list the row is in; "" for a top-level field
	index int
	name  string // "" for the row itself
}

func (f field) String() string {
	switch {
	case f.list == "":
		return f.name
	case f.name == "":
		return fmt.Sprintf("%s[%d]", f.list, f.index)
	}
	return fmt.Sprintf("%s[%d].%s", f.list, f.index, f.name)
}

// top names a top-level field; row names field name of row i of list.
func top(name string) field                     { return field{name: name} }
func row(list string, i int, name string) field { return field{list: list, index: i, name: name} }

// typeProblem turns encoding/json's complaint about a field of the wrong
// kind into a problem that names the field; list, when given, is the list
// that was decoded alone, so the field is in its rows.
func typeProblem(err error, list string) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	name := te.Field
	switch {
	case list != "" && name != "":
		name = list + "[]." + name
	case list != "":
		name = list
	}
	return kindProblem(name, te)
}

// pageTypeProblem is typeProblem for a whole page decoded at once: a
// field under list is in its rows.
func pageTypeProblem(err error, list string) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	name := te.Field
	if rest, ok := strings.CutPrefix(name, list+"."); ok {
		name = list + "[]." + rest
	}
	return kindProblem(name, te)
}

func kindProblem(name string, te *json.UnmarshalTypeError) error {
	if name == "" {
		name = "answer"
	}
	got := te.Value
	switch got {
	case "string", "number":
		got = "a " + got
	case "object":
		got = "an object"
	case "array":
		got = "a list"
	case "bool":
		got = "true or false"
	}
	return fieldProblems{fmt.Sprintf("%s: want %s, got %s", name, jsonKind(te.Type.String()), got)}
}

// decodeTop reads a JSON object's top-level fields, keeping each raw.
func decodeTop(data []byte) (map[string]json.RawMessage, error) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return nil, err
	}
	if fields == nil {
		return nil, fieldProblems{"answer: want an object, got null"}
	}
	return fields, nil
}

// decodeList reads the required list fields[name] into dst.
func decodeList[T any](p *fieldProblems, fields map[string]json.RawMessage, name string, dst *[]T) error {
	raw, ok := fields[name]
	if !ok || string(raw) == "null" {
		p.add(name, "missing")
		return nil
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return typeProblem(err, name)
	}
	return nil
}

// decodeField reads an optional field into dst; a wrong kind is a problem.
func decodeField[T any](p *fieldProblems, fields map[string]json.RawMessage, name string, dst *T) {
	raw, ok := fields[name]
	if !ok {
		return
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		p.add(name, "want %s, got %s", jsonKind(fmt.Sprintf("%T", *dst)), rawKind(raw))
	}
}

func jsonKind(goType string) string {
	switch {
	case strings.Contains(goType, "count"), strings.Contains(goType, "Number"), strings.Contains(goType, "int"), strings.Contains(goType, "float"):
		return "a number"
	case strings.Contains(goType, "string"):
		return "a string"
	case strings.Contains(goType, "bool"):
		return "true or false"
	case strings.HasPrefix(goType, "[]") || strings.HasPrefix(goType, "*[]"):
		return "a list"
	}
	return "an object"
}

// count is a JSON number read without allocating in the common case: a
// plain non-negative integer is parsed in place; any other literal (12.0,
// 1e3, -4, 1.5) is kept for wholeCount to judge. set says the field was
// there and not null. Like number, it refuses a string.
type count struct {
	v   int64
	set bool
	odd string
}

// UnmarshalJSON reads the literal of a JSON number.
func (c *count) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		return &json.UnmarshalTypeError{Value: strings.TrimPrefix(strings.TrimPrefix(rawKind(b), "a "), "an "), Type: reflect.TypeFor[count]()}
	}
	c.set = true
	if len(b) > 18 { // may not fit: the careful path
		c.odd = string(b)
		return nil
	}
	var v int64
	for _, d := range b {
		if d < '0' || d > '9' {
			c.odd = string(b)
			return nil
		}
		v = v*10 + int64(d-'0')
	}
	c.v = v
	return nil
}

// wholeCount reads a count the API types as a JSON number: 12, 12.0 and
// 1.2e1 are all twelve. A fraction, a negative value or one past int64 is a
// problem, never a silent truncation. A missing count is a problem too.
func wholeCount(p *fieldProblems, f field, c count) int64 {
	switch {
	case !c.set:
		p.add(f.String(), "missing")
		return 0
	case c.odd == "":
		return c.v
	}
	n := c.odd
	if v, err := strconv.ParseInt(n, 10, 64); err == nil {
		if v < 0 {
			p.add(f.String(), "%d is negative", v)
			return 0
		}
		return v
	}
	v, err := strconv.ParseFloat(n, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		p.add(f.String(), "%q is not a number", n)
	case err != nil || v >= math.MaxInt64 || v <= math.MinInt64:
		p.add(f.String(), "%s is out of range", n)
	case v != math.Trunc(v):
		p.add(f.String(), "%s is not a whole number", n)
	case v < 0:
		p.add(f.String(), "%s is negative", n)
	default:
		return int64(v)
	}
	return 0
}

// ratio reads a required non-negative real number, such as a click-through
// rate.
func ratio(p *fieldProblems, f field, c count) float64 {
	if !c.set {
		p.add(f.String(), "missing")
		return 0
	}
	if c.odd == "" {
		return float64(c.v)
	}
	n := c.odd
	v, err := strconv.ParseFloat(n, 64)
	switch {
	case err != nil:
		p.add(f.String(), "%q is not a finite number", n)
	case v < 0:
		p.add(f.String(), "%s is negative", n)
	default:
		return v
	}
	return 0
}

// required reads a required string.
func required(p *fieldProblems, f field, s *string) string {
	if s == nil {
		p.add(f.String(), "missing")
		return ""
	}
	return *s
}

// requiredBool reads a required true or false.
func requiredBool(p *fieldProblems, f field, b *bool) bool {
	if b == nil {
		p.add(f.String(), "missing")
		return false
	}
	return *b
}
