package wire

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// Answers are decoded from their public types' fields: each field of an
// answer is written once, in its type, and Decode derives the rest.
//
// For a public struct it builds (once per type, with reflect.StructOf) a
// raw struct of the same JSON names whose leaves are the lenient text,
// count and flag: encoding/json fills it, so one mistyped field never
// hides the others. Each raw field is then checked and copied into the
// public one by a rule that the field's Go type implies, or its `api` tag
// states:
//
//	string                required: missing, null or another kind is a problem
//	*string               optional: absent or null is nil
//	int64                 required whole number: 12, 12.0 and 1.2e1 are 12;
//	                      a fraction, a negative or one past int64 is a problem
//	float64               required non-negative number
//	bool, *bool           required, optional
//	struct                a required object, its fields by the same rules
//	[]struct, []string    a required list, each element by the same rules
//
//	api:"nonempty"        a required string that must not be ""
//	api:"optional"        a string, list or object that may be absent or null
//	                      ("", nil)
//	api:"default=answer"  optional, and "answer" when absent, null or ""
//	api:"-"               not read from the answer (set by the SDK)
//
// The JSON name is the field's json tag; a `wire:"name"` tag names it
// when the answer spells it otherwise than the Go shape kept in the cache.
// An embedded struct (package sdk's ResponseInfo) is the caller's, never read
// from the body.
// Problems name fields as the answer spells them: "visitors[3].total:
// -5 is negative".

// Decode decodes an answer into out by out's fields.
func Decode[T any](data []byte, out *T) error {
	return DecodeAs(data, out, nil)
}

// DecodeAs is Decode for an answer whose top-level fields are
// spelled otherwise by some endpoints (the visitors and views exports
// share PathCountsPage): wire maps a field's JSON name to the endpoint's.
func DecodeAs[T any](data []byte, out *T, wire map[string]string) error {
	plan := planFor(reflect.TypeFor[T](), wire)
	raw := reflect.New(plan.raw)
	var p Problems
	if err := ReadRaw(data, raw.Interface(), &p); err != nil {
		return err
	}
	v := reflect.ValueOf(out).Elem()
	v.SetZero()
	plan.convert(&p, raw.Elem(), v, where{})
	return p.Err()
}

// typePlan is how one public struct type is decoded.
type typePlan struct {
	raw    reflect.Type
	fields []fieldPlan
}

// fieldPlan is how one field is read: from raw field rawIndex into
// public field index, by rule.
type fieldPlan struct {
	index, rawIndex int
	name            string // as the answer spells it
	rule            rule
	def             string    // the default=… value
	elem            *typePlan // the object's, or the list element's, plan
	list            bool
	stringList      bool
}

type rule uint8

const (
	ruleRequired rule = iota
	ruleNonEmpty
	ruleOptional // a pointer, or a value that may be absent
	ruleDefault
	ruleWhole
	ruleRatio
	ruleBool
	ruleOptionalBool
	ruleObject
)

type planKey struct {
	t    reflect.Type
	wire string
}

// plans are made once per type and kept.
var plans = struct {
	sync.Mutex
	m map[planKey]*typePlan
}{m: map[planKey]*typePlan{}}

var (
	textType  = reflect.TypeFor[Text]()
	countType = reflect.TypeFor[Count]()
	flagType  = reflect.TypeFor[Flag]()
)

// planFor returns the plan of t, with its top-level names respelled by
// wire; plans are made once and kept.
func planFor(t reflect.Type, wire map[string]string) *typePlan {
	plans.Lock()
	defer plans.Unlock()
	return planLocked(t, wire)
}

// planLocked is planFor with plans locked: nested types are planned
// inside the same lock.
func planLocked(t reflect.Type, wire map[string]string) *typePlan {
	key := planKey{t: t, wire: fmt.Sprint(wire)}
	if p, ok := plans.m[key]; ok {
		return p
	}
	p := makePlan(t, wire)
	plans.m[key] = p
	return p
}

func makePlan(t reflect.Type, wire map[string]string) *typePlan {
	plan := &typePlan{}
	var raw []reflect.StructField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous || f.Tag.Get("api") == "-" || !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if w := f.Tag.Get("wire"); w != "" {
			name = w
		}
		if w, ok := wire[name]; ok {
			name = w
		}
		fp := fieldPlan{index: i, rawIndex: len(raw), name: name}
		rawType := fp.classify(f)
		raw = append(raw, reflect.StructField{Name: f.Name, Type: rawType, Tag: reflect.StructTag(`json:"` + name + `"`)})
		plan.fields = append(plan.fields, fp)
	}
	plan.raw = reflect.StructOf(raw)
	return plan
}

// classify sets the field's rule from its Go type and tag, and returns
// the raw type that reads it.
func (fp *fieldPlan) classify(f reflect.StructField) reflect.Type {
	tag := f.Tag.Get("api")
	t := f.Type
	optional := tag == "optional"
	if d, ok := strings.CutPrefix(tag, "default="); ok {
		fp.def, optional = d, true
	}
	if t.Kind() == reflect.Pointer {
		t, optional = t.Elem(), true
	}
	switch t.Kind() {
	case reflect.String:
		fp.rule = ruleRequired
		switch {
		case fp.def != "":
			fp.rule = ruleDefault
		case optional:
			fp.rule = ruleOptional
		case tag == "nonempty":
			fp.rule = ruleNonEmpty
		}
		return textType
	case reflect.Int64:
		fp.rule = ruleWhole
		return countType
	case reflect.Float64:
		fp.rule = ruleRatio
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

// convert checks the raw struct r and fills the public struct v.
func (plan *typePlan) convert(p *Problems, r, v reflect.Value, at where) {
	for i := range plan.fields {
		fp := &plan.fields[i]
		rf, out := r.Field(fp.rawIndex), v.Field(fp.index)
		switch {
		case fp.list:
			fp.convertList(p, rf, out, at)
		case fp.elem != nil:
			if rf.IsNil() || len(*p) > 0 && p.Names(at.field(fp.name).String()) {
				// Missing, or of the wrong kind (already said: encoding/json
				// leaves an empty object behind then).
				if rf.IsNil() && fp.rule != ruleOptional && !p.Names(at.field(fp.name).String()) {
					p.Add(at.field(fp.name).String(), "missing")
				}
				continue
			}
			if out.Kind() == reflect.Pointer {
				out.Set(reflect.New(out.Type().Elem()))
				out = out.Elem()
			}
			fp.elem.convert(p, rf.Elem(), out, at.inside(fp.name))
		default:
			fp.convertLeaf(p, rf.Addr().Interface(), out, at.field(fp.name))
		}
	}
}

func (fp *fieldPlan) convertList(p *Problems, rf, out reflect.Value, at where) {
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
	n := in.Len()
	out.Set(reflect.MakeSlice(out.Type(), n, n))
	rows := at.rowsOf(fp.name)
	for i := range n {
		rows.index = i
		if fp.stringList {
			t, _ := in.Index(i).Addr().Interface().(*Text) // a list of text, by plan
			out.Index(i).SetString(Required(p, Field{list: rows.list, index: i}, *t))
			continue
		}
		fp.elem.convert(p, in.Index(i), out.Index(i), rows)
	}
}

func (fp *fieldPlan) convertLeaf(p *Problems, raw any, out reflect.Value, f Field) {
	switch leaf := raw.(type) {
	case *Text:
		fp.convertText(p, *leaf, out, f)
	case *Count:
		if fp.rule == ruleRatio {
			out.SetFloat(Ratio(p, f, *leaf))
		} else {
			out.SetInt(WholeCount(p, f, *leaf))
		}
	case *Flag:
		if fp.rule == ruleBool {
			out.SetBool(RequiredBool(p, f, *leaf))
		} else if b := OptionalBool(p, f, *leaf); b != nil {
			out.Set(reflect.ValueOf(b))
		}
	}
}

func (fp *fieldPlan) convertText(p *Problems, t Text, out reflect.Value, f Field) {
	switch fp.rule {
	case ruleRequired:
		out.SetString(Required(p, f, t))
	case ruleNonEmpty:
		out.SetString(NonEmpty(p, f, t))
	default: // ruleOptional, ruleDefault
		s := Optional(p, f, t)
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
}
