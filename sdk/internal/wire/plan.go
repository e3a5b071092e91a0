package wire

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
)

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
	if len(names) != 0 {
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
	switch t {
	case timeType:
		fp.rule = ruleTime
		if optional {
			fp.rule = ruleOptionalTime
		}
		return textType
	case anyMap:
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
