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

// Decoding: one style for every answer.
//
// An answer is decoded into a raw struct whose leaves (text, count, flag)
// accept any JSON value and remember what came, so one mistyped field
// never hides the others. The raw value is then converted into the
// public type by functions that name each field that is missing or wrong
// (fieldProblems). Lists and objects inside a raw struct are plain Go
// slices and pointers: encoding/json reports one of the wrong kind, and
// decodeRaw turns that into a problem naming it.

// fieldProblems lists what is wrong with a decoded answer, one entry per
// field: "visitors[3].total: -5 is negative". Decoders return it; the
// request layer turns it into a *MalformedResponseError.
type fieldProblems []string

func (p fieldProblems) Error() string { return strings.Join(p, "; ") }

// maxProblems bounds the problems one answer reports: a list of a million
// rows with a field missing from each must not make a million strings
// and an error of hundreds of megabytes.
const maxProblems = 100

// moreProblems is the last problem of an answer that has more than
// maxProblems.
const moreProblems = "…: more problems, not listed"

func (p *fieldProblems) add(field, format string, args ...any) {
	switch n := len(*p); {
	case n < maxProblems:
		*p = append(*p, field+": "+fmt.Sprintf(format, args...))
	case n == maxProblems:
		*p = append(*p, moreProblems)
	}
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

// maxListLength bounds every list of an answer: far past any page (the
// largest is 1,000 rows) and any real deployment log, while a server
// that sends millions of tiny rows ({} takes 3 bytes, its decoded row a
// hundred times more) cannot turn a 16 MiB answer into gigabytes.
const maxListLength = 100_000

// decodeRaw reads data into raw (a pointer to a raw struct). Only a body
// that is not JSON, or not an object, is an error, or one holding a list
// longer than maxListLength; a value of the wrong kind for a list or
// object field becomes a problem in p, and the rest is read regardless.
func decodeRaw(data []byte, raw any, p *fieldProblems) error {
	if err := checkLists(data); err != nil {
		return err
	}
	err := json.Unmarshal(data, raw)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		if string(data) == "null" {
			return fieldProblems{"answer: want an object, got null"}
		}
		return nil
	case errors.As(err, &te):
		if te.Field == "" {
			return fieldProblems{"answer: want an object, got " + kindName(te.Value)}
		}
		p.add(te.Field, "want %s, got %s", goKind(te.Type), kindName(te.Value))
		return nil
	}
	return err
}

// checkLists refuses a JSON text holding a list of more than
// maxListLength items, in one pass and without decoding it (a list of n
// items has n-1 commas of its own). A text that is not JSON passes: the
// decoder says what is wrong with it.
func checkLists(data []byte) error {
	var commas []int // per open list: its commas so far; -1 for an object
	inString, escaped := false, false
	for _, c := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[':
			commas = append(commas, 0)
		case '{':
			commas = append(commas, -1)
		case ']', '}':
			if len(commas) > 0 {
				commas = commas[:len(commas)-1]
			}
		case ',':
			if n := len(commas); n > 0 && commas[n-1] >= 0 {
				if commas[n-1]++; commas[n-1] >= maxListLength {
					return fieldProblems{fmt.Sprintf("answer: a list holds more than %d items (the most the SDK reads): not read", maxListLength)}
				}
			}
		}
	}
	return nil
}

// kindName is encoding/json's name of a JSON value's kind, in words.
func kindName(v string) string {
	switch v {
	case "string", "number":
		return "a " + v
	case "object":
		return "an object"
	case "array":
		return "a list"
	case "bool":
		return "true or false"
	}
	return v
}

// goKind names what a Go type expects, in JSON's words.
func goKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a number"
}

// rawKind names the kind of a JSON literal, for problems.
func rawKind(raw []byte) string {
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "a list"
	case 't', 'f':
		return "true or false"
	case 'n':
		return "null"
	}
	return "a number"
}

// text is a JSON string read leniently: it records whether the field was
// there, null, or of another kind (odd names it), instead of failing.
type text struct {
	v    string
	set  bool // present and a string
	null bool
	odd  string
}

// UnmarshalJSON reads any JSON value; only a string is kept.
func (t *text) UnmarshalJSON(b []byte) error {
	switch {
	case string(b) == "null":
		t.null = true
	case len(b) >= 2 && b[0] == '"':
		t.set = true
		if inner := b[1 : len(b)-1]; !hasEscape(inner) {
			t.v = string(inner)
			return nil
		}
		if err := json.Unmarshal(b, &t.v); err != nil {
			t.set, t.odd = false, "a malformed string"
		}
	default:
		t.odd = rawKind(b)
	}
	return nil
}

func hasEscape(b []byte) bool {
	for _, c := range b {
		if c == '\\' {
			return true
		}
	}
	return false
}

// leafPresent reports whether a required leaf is set; when it is not, it adds
// the problem: what came instead (odd, when it was not of the kind want),
// or that it is missing.
func leafPresent(p *fieldProblems, f field, set bool, odd, want string) bool {
	switch {
	case set:
		return true
	case odd != "":
		p.add(f.String(), "want %s, got %s", want, odd)
	default:
		p.add(f.String(), "missing")
	}
	return false
}

// optionalLeaf reads a leaf that may be absent or null (nil then); one of
// another kind than want is a problem.
func optionalLeaf[T any](p *fieldProblems, f field, v T, set bool, odd, want string) *T {
	if odd != "" {
		p.add(f.String(), "want %s or null, got %s", want, odd)
	}
	if !set {
		return nil
	}
	return &v
}

// required reads a required string.
func required(p *fieldProblems, f field, t text) string {
	if !leafPresent(p, f, t.set, t.odd, "a string") {
		return ""
	}
	return t.v
}

// nonEmpty reads a required string that must not be empty.
func nonEmpty(p *fieldProblems, f field, t text) string {
	if t.set && t.v == "" {
		p.add(f.String(), "missing or empty")
	}
	return required(p, f, t)
}

// optional reads a string that may be absent or null (nil then).
func optional(p *fieldProblems, f field, t text) *string {
	return optionalLeaf(p, f, t.v, t.set, t.odd, "a string")
}

// orEmpty reads a string that may be absent or null ("" then).
func orEmpty(p *fieldProblems, f field, t text) string {
	if s := optional(p, f, t); s != nil {
		return *s
	}
	return ""
}

// flag is a JSON boolean read leniently.
type flag struct {
	v   bool
	set bool
	odd string
}

// UnmarshalJSON reads any JSON value; only true or false is kept.
func (b *flag) UnmarshalJSON(data []byte) error {
	switch string(data) {
	case "true", "false":
		b.v, b.set = string(data) == "true", true
	case "null":
	default:
		b.odd = rawKind(data)
	}
	return nil
}

// requiredBool reads a required true or false.
func requiredBool(p *fieldProblems, f field, b flag) bool {
	return leafPresent(p, f, b.set, b.odd, "true or false") && b.v
}

// optionalBool reads a true or false that may be absent or null.
func optionalBool(p *fieldProblems, f field, b flag) *bool {
	return optionalLeaf(p, f, b.v, b.set, b.odd, "true or false")
}

// count is a JSON number read without allocating in the common case: a
// plain non-negative integer is parsed in place; any other number literal
// (12.0, 1e3, -4, 1.5) is kept for wholeCount to judge. set says the field
// was there and not null; a value of another kind is recorded in kind.
type count struct {
	v    int64
	set  bool
	odd  string // a number literal other than a plain integer
	kind string // the kind of a value that is not a number
}

// UnmarshalJSON reads any JSON value; only a number is kept.
func (c *count) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		c.kind = rawKind(b)
		return nil
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

// present reports a count that is missing or of another kind.
func (c count) present(p *fieldProblems, f field) bool {
	return leafPresent(p, f, c.set, c.kind, "a number")
}

// wholeCount reads a count the API types as a JSON number: 12, 12.0 and
// 1.2e1 are all twelve. A fraction, a negative value or one past int64 is a
// problem, never a silent truncation. A missing count is a problem too.
func wholeCount(p *fieldProblems, f field, c count) int64 {
	if !c.present(p, f) {
		return 0
	}
	if c.odd == "" {
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
		p.add(f.String(), "%q is not a number", clip(n, maxEchoedValue))
	case err != nil || v >= math.MaxInt64 || v <= math.MinInt64:
		p.add(f.String(), "%s is out of range", clip(n, maxEchoedValue))
	case v != math.Trunc(v):
		p.add(f.String(), "%s is not a whole number", clip(n, maxEchoedValue))
	case v < 0:
		p.add(f.String(), "%s is negative", clip(n, maxEchoedValue))
	default:
		return int64(v)
	}
	return 0
}

// ratio reads a required non-negative real number, such as a click-through
// rate.
func ratio(p *fieldProblems, f field, c count) float64 {
	if !c.present(p, f) {
		return 0
	}
	if c.odd == "" {
		return float64(c.v)
	}
	n := c.odd
	v, err := strconv.ParseFloat(n, 64)
	switch {
	case err != nil:
		p.add(f.String(), "%q is not a finite number", clip(n, maxEchoedValue))
	case v < 0:
		p.add(f.String(), "%s is negative", clip(n, maxEchoedValue))
	default:
		return v
	}
	return 0
}

// list reads a required list field of a raw struct: nil means it was
// missing or null.
func list[T any](p *fieldProblems, name string, l *[]T) []T {
	if l == nil {
		if !p.names(name) { // of the wrong kind: already said
			p.add(name, "missing")
		}
		return nil
	}
	return *l
}

// atMost keeps the first most items of a list an answer holds (what was
// asked for); a server that sends more is a problem, not more data.
// what names the items in the problem.
func atMost[T any](p *fieldProblems, name string, items []T, most int, what string) []T {
	if most > 0 && len(items) > most {
		p.add(name, "%d %s where at most %d were asked for: the first %d kept", len(items), what, most, most)
		return items[:most]
	}
	return items
}

// names reports whether a problem with field f was already reported.
func (p fieldProblems) names(f string) bool {
	for _, s := range p {
		if strings.HasPrefix(s, f+": ") {
			return true
		}
	}
	return false
}
