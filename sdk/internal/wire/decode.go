package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
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
		return nil, Problems{"answer: want a list of " + name + ", got " + KindName(te.Value)}
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
		o.Echo = func(s string) string { return clip(s, maxEchoed) }
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

// typePlan is how one public struct type is decoded.
type typePlan struct {
	raw      reflect.Type
	fields   []fieldPlan
	problems int // the index of the problems field; -1 for none
}

// fieldPlan is how one field is read: from raw field rawIndex into
// public field index, by rule.
type fieldPlan struct {
	index, rawIndex int
	group           int    // the leaf's index in a flattened object; -1 for none
	name            string // as the answer spells it
	rule            rule
	def             string    // the default=… value
	elem            *typePlan // the object's, or the list element's, plan
	list            bool
	stringList      bool
	rowByRow        bool // a list of rows that keep their problems
	url, skipOdd    bool
	signed, must    bool
	expected        bool
	max             *float64 // the max=… value
}

type rule uint8

const (
	ruleRequired rule = iota
	ruleNonEmpty
	ruleOptional // a pointer, or a value that may be absent
	ruleDefault
	ruleWhole
	ruleOptionalWhole
	ruleRatio
	ruleBool
	ruleOptionalBool
	ruleTime
	ruleOptionalTime
	ruleObject
	ruleAny
)

type planKey struct {
	t     reflect.Type
	names string
}

// plans are made once per type and kept.
var plans = struct {
	sync.Mutex
	m map[planKey]*typePlan
}{m: map[planKey]*typePlan{}}

var (
	textType  = reflect.TypeFor[Text]()
	countType = reflect.TypeFor[count]()
	flagType  = reflect.TypeFor[flag]()
	timeType  = reflect.TypeFor[time.Time]()
	rawType   = reflect.TypeFor[json.RawMessage]()
	anyMap    = reflect.TypeFor[map[string]any]()
)

// planFor returns the plan of t, with its top-level names respelled by
// names; plans are made once and kept.
func planFor(t reflect.Type, names map[string]string) *typePlan {
	plans.Lock()
	defer plans.Unlock()
	return planLocked(t, names)
}

// planLocked is planFor with plans locked: nested types are planned
// inside the same lock.
func planLocked(t reflect.Type, names map[string]string) *typePlan {
	key := planKey{t: t}
	if len(names) > 0 {
		key.names = fmt.Sprint(names)
	}
	if p, ok := plans.m[key]; ok {
		return p
	}
	p := makePlan(t, names)
	plans.m[key] = p
	return p
}

func makePlan(t reflect.Type, names map[string]string) *typePlan {
	plan := &typePlan{problems: -1}
	var raw []reflect.StructField
	groups := map[string]int{} // a flattened object's index in raw
	members := map[string][]reflect.StructField{}
	var order []string
	for i := range t.NumField() {
		f := t.Field(i)
		tag := words(f.Tag.Get("api"))
		if f.Anonymous || tag["-"] || !f.IsExported() {
			continue
		}
		if tag["problems"] {
			if f.Type != reflect.TypeFor[[]string]() {
				panic(fmt.Sprintf("wire: problems field %s of %s is not a []string", f.Name, t))
			}
			plan.problems = i
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if w := f.Tag.Get("wire"); w != "" {
			name = w
		}
		if name == "" || name == "-" {
			panic(fmt.Sprintf("wire: field %s of %s has no JSON name (a wire or json tag)", f.Name, t))
		}
		if w, ok := names[name]; ok {
			name = w
		}
		fp := fieldPlan{index: i, rawIndex: len(raw), name: name, group: -1}
		rawType := fp.classify(f, tag)
		if object, leaf, ok := strings.Cut(name, "."); ok {
			// object.leaf: a leaf of an object the type flattens. Its
			// raw field is one of the object's, made below.
			if _, seen := groups[object]; !seen {
				groups[object] = len(raw)
				order = append(order, object)
				raw = append(raw, reflect.StructField{}) // the object's place
			}
			fp.rawIndex, fp.group = groups[object], len(members[object])
			members[object] = append(members[object], reflect.StructField{Name: f.Name, Type: rawType, Tag: reflect.StructTag(`json:"` + leaf + `"`)})
			plan.fields = append(plan.fields, fp)
			continue
		}
		raw = append(raw, reflect.StructField{Name: f.Name, Type: rawType, Tag: reflect.StructTag(`json:"` + name + `"`)})
		plan.fields = append(plan.fields, fp)
	}
	for _, object := range order {
		raw[groups[object]] = reflect.StructField{Name: "Object" + strconv.Itoa(groups[object]),
			Type: reflect.PointerTo(reflect.StructOf(members[object])), Tag: reflect.StructTag(`json:"` + object + `"`)}
	}
	plan.raw = reflect.StructOf(raw)
	return plan
}

// words reads an api tag: its comma-separated words, default=… kept
// whole under "default=" with its value.
func words(tag string) map[string]bool {
	if tag == "" {
		return nil
	}
	m := map[string]bool{}
	for w := range strings.SplitSeq(tag, ",") {
		m[w] = true
	}
	return m
}

// classify sets the field's rule from its Go type and tag, and returns
// the raw type that reads it.
func (fp *fieldPlan) classify(f reflect.StructField, tag map[string]bool) reflect.Type {
	t := f.Type
	optional := tag["optional"] || tag["expected"]
	for w := range tag {
		if d, ok := strings.CutPrefix(w, "default="); ok {
			fp.def, optional = d, true
		}
		if m, ok := strings.CutPrefix(w, "max="); ok {
			v, err := strconv.ParseFloat(m, 64)
			if err != nil {
				panic(fmt.Sprintf("wire: field %s: %s is not a number", f.Name, w))
			}
			fp.max = &v
		}
	}
	fp.url, fp.skipOdd, fp.signed, fp.must, fp.expected = tag["url"], tag["skipodd"], tag["signed"], tag["must"], tag["expected"]
	if t.Kind() == reflect.Pointer {
		t, optional = t.Elem(), true
	}
	switch {
	case t == timeType:
		fp.rule = ruleTime
		if optional {
			fp.rule = ruleOptionalTime
		}
		return textType
	case t == anyMap:
		fp.rule = ruleAny
		return rawType
	}
	switch t.Kind() {
	case reflect.String:
		fp.rule = ruleRequired
		switch {
		case fp.def != "":
			fp.rule = ruleDefault
		case optional:
			fp.rule = ruleOptional
		case tag["nonempty"]:
			fp.rule = ruleNonEmpty
		}
		return textType
	case reflect.Int64:
		fp.rule = ruleWhole
		if optional {
			fp.rule = ruleOptionalWhole
		}
		return countType
	case reflect.Float64:
		fp.rule = ruleRatio
		if optional {
			fp.rule = ruleOptional
		}
		return countType
	case reflect.Bool:
		fp.rule = ruleBool
		if optional {
			fp.rule = ruleOptionalBool
		}
		return flagType
	case reflect.Struct:
		fp.rule, fp.elem = ruleObject, planLocked(t, nil)
		if optional {
			fp.rule = ruleOptional
		}
		return reflect.PointerTo(fp.elem.raw)
	case reflect.Slice:
		fp.list, fp.rule = true, ruleObject
		if optional {
			fp.rule = ruleOptional
		}
		if t.Elem().Kind() == reflect.String {
			fp.stringList = true
			return reflect.PointerTo(reflect.SliceOf(textType))
		}
		fp.elem = planLocked(t.Elem(), nil)
		if fp.elem.problems >= 0 {
			fp.rowByRow = true
			return reflect.PointerTo(reflect.SliceOf(rawType))
		}
		return reflect.PointerTo(reflect.SliceOf(fp.elem.raw))
	}
	panic(fmt.Sprintf("wire: no decoding rule for field %s of type %s", f.Name, f.Type))
}

// where is the object being read, for naming a field in a problem; the
// names are built only when a problem is reported.
type where struct {
	prefix string // "totals." inside a top-level object
	list   string // the list the object is a row of; "" at the top
	index  int
}

func (w where) field(name string) Field {
	return Field{list: w.list, index: w.index, name: w.prefix + name}
}

// String names the object itself: "visitors[3]", "totals".
func (w where) String() string {
	if w.list == "" {
		return strings.TrimSuffix(w.prefix, ".")
	}
	return Field{list: w.list, index: w.index, name: strings.TrimSuffix(w.prefix, ".")}.String()
}

// inside is where an object field of this object is read.
func (w where) inside(name string) where { w.prefix += name + "."; return w }

// rowsOf is where the rows of a list field of this object are read.
func (w where) rowsOf(name string) where {
	if w.list == "" && w.prefix == "" {
		return where{list: name}
	}
	return where{list: w.field(name).String()}
}

// convert checks the raw struct raw and fills the public struct v.
func (plan *typePlan) convert(r reader, p *Problems, raw, v reflect.Value, at where) {
	if plan.problems >= 0 && (at != where{}) {
		// A struct that keeps its own problems, inside another.
		var own Problems
		plan.convertOwn(r, &own, raw, v, where{})
		v.Field(plan.problems).Set(reflect.ValueOf([]string(own)))
		return
	}
	plan.convertOwn(r, p, raw, v, at)
}

// convertOwn converts the fields, and reports whether a must field has a
// problem of its own (a must list's rows do not count: they are kept).
func (plan *typePlan) convertOwn(r reader, p *Problems, raw, v reflect.Value, at where) (failed bool) {
	for i := range plan.fields {
		fp := &plan.fields[i]
		rf := raw.Field(fp.rawIndex)
		if fp.group >= 0 { // a field of an object the type flattens
			if rf.IsNil() {
				rf = reflect.New(rf.Type().Elem()).Elem().Field(fp.group)
			} else {
				rf = rf.Elem().Field(fp.group)
			}
		}
		fp.convert(r, p, rf, v.Field(fp.index), at)
		if fp.must && (fp.list && rf.IsNil() || !fp.list && p.Names(at.field(fp.name).String())) {
			failed = true
		}
	}
	return failed
}

func (fp *fieldPlan) convert(r reader, p *Problems, rf, out reflect.Value, at where) {
	switch {
	case fp.list:
		fp.convertList(r, p, rf, out, at)
	case fp.rule == ruleAny:
		fp.convertAny(p, rf.Bytes(), out, at.field(fp.name))
	case fp.elem != nil:
		if rf.IsNil() || len(*p) > 0 && p.Names(at.field(fp.name).String()) {
			// Missing, or of the wrong kind (already said: encoding/json
			// leaves an empty object behind then).
			if rf.IsNil() && fp.rule != ruleOptional && !p.Names(at.field(fp.name).String()) {
				p.Add(at.field(fp.name).String(), "missing")
			}
			return
		}
		if out.Kind() == reflect.Pointer {
			out.Set(reflect.New(out.Type().Elem()))
			out = out.Elem()
		}
		fp.elem.convert(r, p, rf.Elem(), out, at.inside(fp.name))
	default:
		fp.convertLeaf(r, p, rf.Addr().Interface(), out, at.field(fp.name))
	}
}

func (fp *fieldPlan) convertList(r reader, p *Problems, rf, out reflect.Value, at where) {
	if rf.IsNil() {
		if fp.rule != ruleOptional && !p.Names(at.field(fp.name).String()) {
			p.Add(at.field(fp.name).String(), "missing")
		}
		if fp.rule != ruleOptional {
			out.Set(reflect.MakeSlice(out.Type(), 0, 0))
		}
		return
	}
	in := rf.Elem()
	if in.IsNil() && fp.rule == ruleOptional {
		return // of the wrong kind: nil, as when absent
	}
	n := in.Len()
	if most, ok := r.Most[fp.name]; ok && at == (where{}) && most > 0 && n > most {
		p.Add(fp.name, "%d %s where at most %d were asked for: the first %d kept", n, fp.name, most, most)
		n = most
	}
	out.Set(reflect.MakeSlice(out.Type(), n, n))
	rows := at.rowsOf(fp.name)
	kept := 0
	for i := range n {
		rows.index = i
		switch {
		case fp.stringList:
			t, _ := in.Index(i).Addr().Interface().(*Text) // a list of Text, by plan
			if fp.skipOdd {
				if t.set {
					out.Index(kept).SetString(t.v)
					kept++
				} else {
					p.Add(Field{list: rows.list, index: i}.String(), "want a string, got %s", cmpOr(t.odd, "null"))
				}
				continue
			}
			out.Index(i).SetString(Required(p, Field{list: rows.list, index: i}, *t))
		case fp.rowByRow:
			fp.convertRow(r, p, in.Index(i).Bytes(), out.Index(i), at)
		default:
			fp.elem.convert(r, p, in.Index(i), out.Index(i), rows)
		}
	}
	if fp.skipOdd {
		out.Set(out.Slice(0, kept))
	}
}

// convertRow reads a row that keeps its problems from its own JSON, so
// that a field of the wrong kind is its problem alone.
func (fp *fieldPlan) convertRow(r reader, p *Problems, data []byte, out reflect.Value, at where) {
	raw := reflect.New(fp.elem.raw)
	var own Problems
	if string(data) != "null" {
		if err := ReadRaw(data, raw.Interface(), &own); err != nil {
			// Not an object: the list is not what the API sends.
			if !p.Names(at.field(fp.name).String()) {
				p.Add(at.field(fp.name).String(), "want a list of objects, got %s in it", RawKind(data))
			}
			return
		}
	}
	fp.elem.convertOwn(r, &own, raw.Elem(), out, where{})
	out.Field(fp.elem.problems).Set(reflect.ValueOf([]string(own)))
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// convertAny reads an optional JSON object of any values.
func (fp *fieldPlan) convertAny(p *Problems, raw []byte, out reflect.Value, f Field) {
	if len(raw) == 0 || string(raw) == "null" {
		return
	}
	if raw[0] != '{' {
		p.Add(f.String(), "want an object, got %s", RawKind(raw))
		return
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // a score of 0.1 stays 0.1, an id of 2^60 stays whole
	if err := dec.Decode(&m); err != nil {
		p.Add(f.String(), "not a JSON object")
		return
	}
	out.Set(reflect.ValueOf(m))
}

func (fp *fieldPlan) convertLeaf(r reader, p *Problems, raw any, out reflect.Value, f Field) {
	switch leaf := raw.(type) {
	case *Text:
		if fp.rule == ruleTime || fp.rule == ruleOptionalTime {
			fp.convertTime(r, p, *leaf, out, f)
			return
		}
		fp.convertText(r, p, *leaf, out, f)
	case *count:
		fp.convertCount(p, *leaf, out, f)
	case *flag:
		if fp.rule == ruleBool {
			out.SetBool(requiredBool(p, f, *leaf))
			return
		}
		switch b := optionalBool(p, f, *leaf); {
		case b == nil:
		case out.Kind() == reflect.Pointer:
			out.Set(reflect.ValueOf(b))
		default:
			out.SetBool(*b)
		}
	}
}

func (fp *fieldPlan) convertCount(p *Problems, c count, out reflect.Value, f Field) {
	switch fp.rule {
	case ruleRatio:
		v := ratio(p, f, c)
		if fp.max != nil && v > *fp.max {
			p.Add(f.String(), "%v is above %v", v, *fp.max)
			v = 0
		}
		out.SetFloat(v)
	case ruleWhole:
		out.SetInt(wholeCount(p, f, c))
	case ruleOptionalWhole:
		if !c.set && c.kind == "" {
			return
		}
		n := wholeCount(p, f, c)
		if p.Names(f.String()) {
			return
		}
		if out.Kind() == reflect.Pointer {
			out.Set(reflect.ValueOf(&n))
		} else {
			out.SetInt(n)
		}
	default: // an optional float64
		if v, ok := optionalFloat(p, f, c, fp.signed); ok {
			out.SetFloat(v)
		}
	}
}

func (fp *fieldPlan) convertText(r reader, p *Problems, t Text, out reflect.Value, f Field) {
	var s *string
	switch fp.rule {
	case ruleRequired:
		if v := Required(p, f, t); t.set {
			s = &v
		}
	case ruleNonEmpty:
		if v := NonEmpty(p, f, t); t.set {
			s = &v
		}
	default: // ruleOptional, ruleDefault
		s = optional(p, f, t)
	}
	if fp.url && s != nil && !(fp.expected && *s == "") && !isWebURL(*s) {
		p.Add(f.String(), "%q is not an absolute http(s) URL: ignored", r.Echo(*s))
		s = nil
	} else if fp.expected && (s == nil || *s == "") && !p.Names(f.String()) {
		p.Add(f.String(), "missing or empty")
	}
	switch {
	case out.Kind() == reflect.Pointer:
		if s != nil {
			out.Set(reflect.ValueOf(s).Convert(out.Type()))
		}
	case s != nil && *s != "":
		out.SetString(*s)
	default:
		out.SetString(fp.def)
	}
}

// convertTime reads an ISO 8601 timestamp.
func (fp *fieldPlan) convertTime(r reader, p *Problems, t Text, out reflect.Value, f Field) {
	s := optional(p, f, t)
	if s == nil {
		if fp.rule == ruleTime && t.odd == "" {
			p.Add(f.String(), "missing")
		}
		return
	}
	v, ok := ParseTimestamp(*s)
	if !ok {
		p.Add(f.String(), "%q is not an ISO 8601 timestamp", r.Echo(*s))
		return
	}
	if out.Kind() == reflect.Pointer {
		out.Set(reflect.ValueOf(&v))
	} else {
		out.Set(reflect.ValueOf(v))
	}
}

// timestampLayouts are the ISO 8601 forms seen from JSON APIs: RFC 3339 (with
// or without fractions), and the same without a zone, read as UTC.
var timestampLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05.999999999Z07:00"}

// ParseTimestamp reads an ISO 8601 timestamp: RFC 3339 with or without
// fractions, or the same without a zone (UTC).
func ParseTimestamp(s string) (time.Time, bool) {
	for _, layout := range timestampLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// isWebURL reports whether s is an absolute http(s) URL without
// credentials: the only kind of link handed on.
func isWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" && u.User == nil
}

// IsWebURL reports whether s is an absolute http(s) URL without
// credentials: the rule of an api:"url" field.
func IsWebURL(s string) bool { return isWebURL(s) }
