package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// MaxListLength bounds every list of an answer: far past any page (the
// largest is 1,000 rows) and any real deployment log, while a server
// that sends millions of tiny rows ({} takes 3 bytes, its decoded row a
// hundred times more) cannot turn a 16 MiB answer into gigabytes.
const MaxListLength = 100_000

// ReadRaw reads data into raw (a pointer to a raw struct). Only a body
// that is not JSON, or not an object, is an error, or one holding a list
// longer than MaxListLength; a value of the wrong kind for a list or
// object field becomes a problem in p, and the rest is read regardless.
func ReadRaw(data []byte, raw any, p *Problems) error {
	if err := CheckLists(data); err != nil {
		return err
	}
	err := json.Unmarshal(data, raw)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		if string(data) == "null" {
			return Problems{"answer: want an object, got null"}
		}
		return nil
	case errors.As(err, &te):
		if te.Field == "" {
			return Problems{"answer: want an object, got " + kindName(te.Value)}
		}
		p.Add(te.Field, "want %s, got %s", goKind(te.Type), kindName(te.Value))
		return nil
	}
	return err
}

// CheckLists refuses a JSON text holding a list of more than
// MaxListLength items, in one pass and without decoding it (a list of n
// items has n-1 commas of its own). A text that is not JSON passes: the
// decoder says what is wrong with it.
func CheckLists(data []byte) error {
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
				if commas[n-1]++; commas[n-1] >= MaxListLength {
					return Problems{fmt.Sprintf("answer: a list holds more than %d items (the most the SDK reads): not read", MaxListLength)}
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

// RawKind names the kind of a JSON literal, for problems.
func RawKind(raw []byte) string {
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

// Text is a JSON string read leniently: it records whether the field was
// there, null, or of another kind (odd names it), instead of failing.
type Text struct {
	v    string
	set  bool // present and a string
	null bool
	odd  string
}

// UnmarshalJSON reads any JSON value; only a string is kept.
func (t *Text) UnmarshalJSON(b []byte) error {
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
		t.odd = RawKind(b)
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
func leafPresent(p *Problems, f Field, set bool, odd, want string) bool {
	switch {
	case set:
		return true
	case odd != "":
		p.Add(f.String(), "want %s, got %s", want, odd)
	default:
		p.Add(f.String(), "missing")
	}
	return false
}

// optionalLeaf reads a leaf that may be absent or null (nil then); one of
// another kind than want is a problem.
func optionalLeaf[T any](p *Problems, f Field, v T, set bool, odd, want string) *T {
	if odd != "" {
		p.Add(f.String(), "want %s or null, got %s", want, odd)
	}
	if !set {
		return nil
	}
	return &v
}

// Required reads a required string.
func Required(p *Problems, f Field, t Text) string {
	if !leafPresent(p, f, t.set, t.odd, "a string") {
		return ""
	}
	return t.v
}

// NonEmpty reads a required string that must not be empty.
func NonEmpty(p *Problems, f Field, t Text) string {
	if t.set && t.v == "" {
		p.Add(f.String(), "missing or empty")
	}
	return Required(p, f, t)
}

// optional reads a string that may be absent or null (nil then).
func optional(p *Problems, f Field, t Text) *string {
	return optionalLeaf(p, f, t.v, t.set, t.odd, "a string")
}

// OrEmpty reads a string that may be absent or null ("" then).
func OrEmpty(p *Problems, f Field, t Text) string {
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
		b.odd = RawKind(data)
	}
	return nil
}

// requiredBool reads a required true or false.
func requiredBool(p *Problems, f Field, b flag) bool {
	return leafPresent(p, f, b.set, b.odd, "true or false") && b.v
}

// optionalBool reads a true or false that may be absent or null.
func optionalBool(p *Problems, f Field, b flag) *bool {
	return optionalLeaf(p, f, b.v, b.set, b.odd, "true or false")
}

// count is a JSON number read without allocating in the common case: a
// plain non-negative integer is parsed in place; any other number literal
// (12.0, 1e3, -4, 1.5) is kept for WholeCount to judge. set says the field
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
		c.kind = RawKind(b)
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
func (c count) present(p *Problems, f Field) bool {
	return leafPresent(p, f, c.set, c.kind, "a number")
}

// wholeCount reads a count the API types as a JSON number: 12, 12.0 and
// 1.2e1 are all twelve. A fraction, a negative value or one past int64 is a
// problem, never a silent truncation. A missing count is a problem too.
func wholeCount(p *Problems, f Field, c count) int64 {
	if !c.present(p, f) {
		return 0
	}
	if c.odd == "" {
		return c.v
	}
	n := c.odd
	if v, err := strconv.ParseInt(n, 10, 64); err == nil {
		if v < 0 {
			p.Add(f.String(), "%d is negative", v)
			return 0
		}
		return v
	}
	v, err := strconv.ParseFloat(n, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		p.Add(f.String(), "%q is not a number", clip(n))
	case err != nil || v >= math.MaxInt64 || v <= math.MinInt64:
		p.Add(f.String(), "%s is out of range", clip(n))
	case v != math.Trunc(v):
		p.Add(f.String(), "%s is not a whole number", clip(n))
	case v < 0:
		p.Add(f.String(), "%s is negative", clip(n))
	default:
		return int64(v)
	}
	return 0
}

// ratio reads a required non-negative real number, such as a click-through
// rate.
func ratio(p *Problems, f Field, c count) float64 {
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
		p.Add(f.String(), "%q is not a finite number", clip(n))
	case v < 0:
		p.Add(f.String(), "%s is negative", clip(n))
	default:
		return v
	}
	return 0
}

// Value is the string read ("" when none was).
func (t Text) Value() string { return t.v }

// optionalFloat reads a number that may be absent or null (false then);
// signed allows a negative one.
func optionalFloat(p *Problems, f Field, c count, signed bool) (float64, bool) {
	if !c.set {
		if c.kind != "" {
			p.Add(f.String(), "want a number, got %s", c.kind)
		}
		return 0, false
	}
	if c.odd == "" {
		return float64(c.v), true
	}
	v, err := strconv.ParseFloat(c.odd, 64)
	switch {
	case err != nil:
		p.Add(f.String(), "%q is not a finite number", clip(c.odd))
	case v < 0 && !signed:
		p.Add(f.String(), "%s is negative", clip(c.odd))
	default:
		return v, true
	}
	return 0, false
}
