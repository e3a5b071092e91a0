package wire

import (
	"bytes"
	"encoding/json"
	"net/url"
	"reflect"
	"strings"
	"time"
)

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
		if rf.IsNil() || len(*p) != 0 && p.Names(at.field(fp.name).String()) {
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
	if fp.url && s != nil && (!fp.expected || *s != "") && !isWebURL(*s) {
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
	v, ok := parseTimestamp(*s)
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

// parseTimestamp reads an ISO 8601 timestamp: RFC 3339 with or without
// fractions, or the same without a zone (UTC).
func parseTimestamp(s string) (time.Time, bool) {
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
