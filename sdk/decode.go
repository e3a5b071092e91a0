package sdk

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// Answers are plain structs with json tags, decoded on encoding/json
// member by member, each by its field's Go type: a member of the wrong
// kind is a problem naming it ("visitors[3].total: -5 is negative") and
// leaves its field zero or nil, hiding no other. Absent and null leave a
// field zero. Where the API is loose:
//
//   - an int64 is a count: 12, 12.0 and 1.2e1 are twelve; a fraction, a
//     negative number or one past int64 is a problem, never truncated;
//   - a time.Time is RFC 3339, with or without fractions or a zone (UTC);
//   - a map[string]any keeps its numbers exact (json.Number);
//   - a list is read item by item: a bad row is left out and named;
//   - no list or object past bounded.MaxItems items is read at all.
//
// What a type needs beyond its fields' kinds (a member that must be
// there, a link that must be a web address) is its check method.

// problems lists what is wrong with an answer (at most
// bounded.MaxProblems); as an error, an answer not to trust.
type problems = bounded.Problems

// decoding is how one answer is read.
type decoding struct {
	// echo quotes a value in a problem (core.echo; nil: clipped only).
	echo func(string) string
	// names respells top-level members (visitors and views share a type).
	names map[string]string
	// most keeps at most n items of a top-level list: more is a problem.
	most map[string]int
}

// decode reads the JSON object data into out, a pointer to an answer
// type. A type with a Problems field keeps its problems there and fails
// only on a vital member; any other fails on any problem, all listed. The
// error is problems, or why data is not JSON.
func (o decoding) decode(data []byte, out any) error {
	members, err := topLevel[map[string]json.RawMessage](data, "an object")
	if err != nil {
		return err
	}
	var p problems
	r := reader{decoding: o, p: &p}
	v := reflect.ValueOf(out).Elem()
	r.object(members, v, "")
	if own := v.FieldByName("Problems"); own.IsValid() {
		own.Set(reflect.ValueOf([]string(p)))
		if !r.fatal {
			return nil
		}
	}
	if len(p) == 0 {
		return nil
	}
	return p
}

// decodeList reads data, a JSON list of results (a search's), into out, a
// pointer to a slice, items named results[i]. Their problems are returned
// apart; only a body that is not a list is an error.
func (o decoding) decodeList(data []byte, out any) (problems, error) {
	if _, err := topLevel[[]json.RawMessage](data, "a list of results"); err != nil {
		return nil, err
	}
	var p problems
	r := reader{decoding: o, p: &p}
	r.list(bytes.TrimSpace(data), reflect.ValueOf(out).Elem(), "", "results")
	return p, nil
}

// topLevel splits an answer into its members or items, T (want names it).
func topLevel[T any](data []byte, want string) (T, error) {
	var out T
	if !bounded.ItemsFit(data) {
		return out, problems{fmt.Sprintf("answer: a list or an object holds more than %d items (the most the SDK reads): not read", bounded.MaxItems)}
	}
	err := json.Unmarshal(data, &out)
	if te := (*json.UnmarshalTypeError)(nil); errors.As(err, &te) || err == nil && reflect.ValueOf(out).IsNil() {
		return out, problems{"answer: want " + want + ", got " + bounded.Kind(bytes.TrimSpace(data))}
	}
	return out, err
}

// reader reads one answer's values into their Go types.
type reader struct {
	decoding
	p     *problems
	fatal bool // a vital member failed (checker.vital)
}

// quote is a string from the answer as a problem quotes it (%q).
func (o decoding) quote(s string) string {
	if o.echo != nil {
		return o.echo(s)
	}
	return redact.Clip(s, maxEchoedValue)
}

// object reads a JSON object's members into the struct v by their JSON
// names (not an embedded ResponseInfo, nor a json:"-" field), then runs
// its check. at names the object in problems ("visitors[3].").
func (r *reader) object(members map[string]json.RawMessage, v reflect.Value, at string) {
	var bad []string // the members of the wrong kind
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Anonymous || !f.IsExported() || name == "-":
			continue
		case name == "":
			panic(fmt.Sprintf("sdk: field %s of %s has no JSON name", f.Name, v.Type()))
		case at == "" && r.names[name] != "":
			name = r.names[name]
		}
		if raw, ok := members[name]; ok && !isNull(raw) && !r.value(raw, v.Field(i), at, name) {
			bad = append(bad, name)
		}
	}
	if c, ok := v.Addr().Interface().(checkable); ok {
		c.check(&checker{r: r, at: at, members: members, bad: bad})
	}
}

// value reads raw (not null) into v, and reports whether it was of a kind
// v holds; a problem names it at+name.
func (r *reader) value(raw []byte, v reflect.Value, at, name string) bool {
	wrong := func(format string, args ...any) bool {
		r.p.Add(at+name, format, args...)
		return false
	}
	switch v.Type() {
	case timeType:
		s, ok := text(raw)
		if !ok {
			return wrong("want a string, got %s", bounded.Kind(raw))
		}
		t, ok := parseTimestamp(s)
		if !ok {
			return wrong("%q is not an ISO 8601 timestamp", r.quote(s))
		}
		v.Set(reflect.ValueOf(t))
		return true
	case rawType: // any value, kept as it came
		v.SetBytes(raw)
		return true
	case anyMapType:
		if raw[0] != '{' {
			return wrong("want an object, got %s", bounded.Kind(raw))
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		return dec.Decode(v.Addr().Interface()) == nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		e := reflect.New(v.Type().Elem())
		if !r.value(raw, e.Elem(), at, name) {
			return false
		}
		v.Set(e)
	case reflect.String:
		s, ok := text(raw)
		if !ok {
			return wrong("want a string, got %s", bounded.Kind(raw))
		}
		v.SetString(s)
	case reflect.Bool:
		if string(raw) != "true" && string(raw) != "false" {
			return wrong("want true or false, got %s", bounded.Kind(raw))
		}
		v.SetBool(raw[0] == 't')
	case reflect.Int64:
		n, problem := count(raw)
		if problem != "" {
			return wrong("%s", problem)
		}
		v.SetInt(n)
	case reflect.Float64:
		if !isNumber(raw) {
			return wrong("want a number, got %s", bounded.Kind(raw))
		}
		f, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return wrong("%q is not a finite number", redact.Clip(string(raw), maxEchoedValue))
		}
		v.SetFloat(f)
	case reflect.Struct:
		if raw[0] != '{' {
			return wrong("want an object, got %s", bounded.Kind(raw))
		}
		var members map[string]json.RawMessage
		_ = json.Unmarshal(raw, &members) // an object, as data is JSON
		r.object(members, v, at+name+".")
	case reflect.Slice:
		if raw[0] != '[' {
			return wrong("want a list, got %s", bounded.Kind(raw))
		}
		r.list(raw, v, at, name)
	default:
		panic(fmt.Sprintf("sdk: no decoding of %s (%s)", v.Type(), at+name))
	}
	return true
}

// list reads a JSON list into the slice v: an item of the wrong kind is
// named (name[i]) and left out.
func (r *reader) list(raw []byte, v reflect.Value, at, name string) {
	var items []json.RawMessage
	_ = json.Unmarshal(raw, &items) // a list, as data is JSON
	if most := r.most[name]; at == "" && most > 0 && len(items) > most {
		r.p.Add(name, "%d %s where at most %d were asked for: the first %d kept", len(items), name, most, most)
		items = items[:most]
	}
	out := reflect.MakeSlice(v.Type(), len(items), len(items))
	n := 0
	for i, item := range items {
		if r.value(item, out.Index(n), at, name+"["+strconv.Itoa(i)+"]") {
			n++
		} else {
			out.Index(n).SetZero()
		}
	}
	v.Set(out.Slice(0, n))
}

// checkable is a type with a check: what it needs beyond its fields' kinds.
type checkable interface{ check(*checker) }

// checker is what a check sees of its object, and where problems go.
type checker struct {
	r       *reader
	at      string
	members map[string]json.RawMessage
	bad     []string
}

// member is the name of a member as the answer spells it.
func (c *checker) member(name string) string {
	if c.at == "" && c.r.names[name] != "" {
		return c.r.names[name]
	}
	return name
}

// add records a problem with member name.
func (c *checker) add(name, format string, args ...any) {
	c.r.p.Add(c.at+c.member(name), format, args...)
}

// named reports whether member name has a problem already.
func (c *checker) named(name string) bool { return c.r.p.Names(c.at + c.member(name)) }

// absent reports whether member name is absent or null.
func (c *checker) absent(name string) bool {
	raw, ok := c.members[c.member(name)]
	return !ok || isNull(raw)
}

// need says "missing" of each member that is absent or null.
func (c *checker) need(names ...string) {
	for _, name := range names {
		if c.absent(name) {
			c.add(name, "missing")
		}
	}
}

// vital is need for members the answer cannot do without: one missing or
// of the wrong kind fails it, even a type that keeps its problems.
func (c *checker) vital(names ...string) {
	c.need(names...)
	for _, name := range names {
		if c.absent(name) || slices.Contains(c.bad, c.member(name)) {
			c.r.fatal = true
		}
	}
}

// nonEmpty says "missing or empty" of a string member that is "", unless
// it has a problem already.
func (c *checker) nonEmpty(name, value string) {
	if value == "" && !c.named(name) {
		c.add(name, "missing or empty")
	}
}

// link reports whether s is a web address (isWebURL); another is a
// problem of member name.
func (c *checker) link(name, s string) bool {
	if isWebURL(s) {
		return true
	}
	c.add(name, "%q is not an absolute http(s) URL: ignored", c.r.quote(s))
	return false
}

// nonNegative makes a negative *v a problem of member name, and 0.
func (c *checker) nonNegative(name string, v *float64) {
	if *v < 0 {
		c.add(name, "%v is negative", *v)
		*v = 0
	}
}

var (
	timeType   = reflect.TypeFor[time.Time]()
	rawType    = reflect.TypeFor[json.RawMessage]()
	anyMapType = reflect.TypeFor[map[string]any]()
)

// isNull reports whether raw is JSON's null.
func isNull(raw []byte) bool { return string(raw) == "null" }

// isNumber reports whether raw is a JSON number.
func isNumber(raw []byte) bool { return raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9' }

// text reads a JSON string as encoding/json does (escapes read, invalid
// UTF-8 replaced); ok is false for another kind.
func text(raw []byte) (s string, ok bool) {
	if raw[0] != '"' {
		return "", false
	}
	if inner := raw[1 : len(raw)-1]; bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner), true
	}
	return s, json.Unmarshal(raw, &s) == nil
}

// count reads a JSON number as a count, or says its problem.
func count(raw []byte) (int64, string) {
	if !isNumber(raw) {
		return 0, "want a number, got " + bounded.Kind(raw)
	}
	n := string(raw)
	if v, err := strconv.ParseInt(n, 10, 64); err == nil {
		if v < 0 {
			return 0, n + " is negative"
		}
		return v, ""
	}
	v, err := strconv.ParseFloat(n, 64) // a JSON number: only its range can fail
	n = redact.Clip(n, maxEchoedValue)
	switch {
	case err != nil || v >= math.MaxInt64 || v <= math.MinInt64:
		return 0, n + " is out of range"
	case v != math.Trunc(v):
		return 0, n + " is not a whole number"
	case v < 0:
		return 0, n + " is negative"
	}
	return int64(v), ""
}

// timestampLayouts are RFC 3339, and the same without a zone (UTC).
var timestampLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00"}

// parseTimestamp reads a timestamp in one of timestampLayouts.
func parseTimestamp(s string) (time.Time, bool) {
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}
