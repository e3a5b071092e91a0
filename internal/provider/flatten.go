package provider

import (
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// Flattening: SDK values into Terraform values, each field written once.
//
// A data source's rows are the SDK's own structs; their Terraform type is
// the schema's (elemType, attrType). flattenList and flattenObject fill
// each attribute of the schema's object type from the Go field of the
// same name, matched ignoring case and underscores (page_url is PageURL,
// github_user_id is GitHubUserID), so a new field of an answer is one
// line in its SDK type and one attribute in the schema, and nothing in
// between. Go types map as the framework's own reflection maps them:
// string kinds to String, int64 to Int64, float64 to Float64, bool to
// Bool, a struct to an Object, a slice to a List, a map with string keys
// to a Map, and a nil pointer to a null; a time.Time is a String in RFC
// 3339 (UTC), the zero time null, as timeValue writes it. The framework's
// types.ListValueFrom does the same through its generic reflection at
// about 30 times the cost, which a 100,000-row read would feel; here each
// (Go type, Terraform type, rules) is planned once.
//
// A field that the schema shows differently from its SDK type (a method's
// value, a value the provider renders) is a field of a small row struct
// that embeds the SDK's and shadows that one field; the other fields are
// still matched through the embedded struct.

// flatRule changes one mapping for a whole conversion.
type flatRule uint8

const (
	// emptyIsNull: an object's attribute filled from a Go string (not a
	// pointer to one) is null when the string is empty. For SDK types
	// whose "" means the API gave none; a list's or a map's elements keep
	// "", and a pointer's value is kept as it is.
	emptyIsNull flatRule = 1 << iota
)

// flattenList converts a slice of structs (or of strings) into a list of
// elem, the schema's element type.
func flattenList(elem attr.Type, rows any, rules ...flatRule) types.List {
	return listOf(elem, appendFlat(nil, elem, rows, rules...))
}

// appendFlat appends rows (a slice), each converted into elem, to vals:
// a read of many pages converts each page as it arrives.
func appendFlat(vals []attr.Value, elem attr.Type, rows any, rules ...flatRule) []attr.Value {
	v := reflect.ValueOf(rows)
	conv := converterFor(v.Type().Elem(), elem, rules)
	for i := range v.Len() {
		vals = append(vals, conv(v.Index(i)))
	}
	return vals
}

// flattenObject converts a struct (or a pointer to one: nil is null) into
// an object of type t, the schema's.
func flattenObject(t attr.Type, row any, rules ...flatRule) types.Object {
	v := reflect.ValueOf(row)
	obj, ok := converterFor(v.Type(), t, rules)(v).(types.Object)
	if !ok {
		panic(fmt.Sprintf("provider: %s is not an object type", t))
	}
	return obj
}

// typeOf is the Terraform type of a schema's attribute: the one place a
// row's type is written.
func typeOf[A interface{ GetType() attr.Type }](attrs map[string]A, name string) attr.Type {
	return attrs[name].GetType()
}

// elemType is the element type of a list type.
func elemType(t attr.Type) attr.Type {
	list, ok := t.(types.ListType)
	if !ok {
		panic(fmt.Sprintf("provider: %s is not a list type", t))
	}
	return list.ElemType
}

// converter turns one Go value into the Terraform value of its type.
type converter func(reflect.Value) attr.Value

// converters are the planned conversions: per Go type and rules, each
// Terraform type met so far. Types are told apart with Equal, which
// allocates nothing, so a conversion of one value (flattenObject per row)
// costs no more than a page's.
var (
	convertersMu sync.RWMutex
	converters   = map[converterKey][]plannedConverter{}
)

type converterKey struct {
	goType reflect.Type
	rules  flatRule
}

type plannedConverter struct {
	tfType attr.Type
	conv   converter
}

func converterFor(goType reflect.Type, tfType attr.Type, rules []flatRule) converter {
	var all flatRule
	for _, r := range rules {
		all |= r
	}
	key := converterKey{goType, all}
	convertersMu.RLock()
	conv := plannedFor(converters[key], tfType)
	convertersMu.RUnlock()
	if conv != nil {
		return conv
	}
	convertersMu.Lock()
	defer convertersMu.Unlock()
	if conv = plannedFor(converters[key], tfType); conv == nil {
		conv = makeConverter(goType, tfType, all)
		converters[key] = append(converters[key], plannedConverter{tfType, conv})
	}
	return conv
}

func plannedFor(planned []plannedConverter, tfType attr.Type) converter {
	for _, p := range planned {
		if p.tfType.Equal(tfType) {
			return p.conv
		}
	}
	return nil
}

var timeType = reflect.TypeFor[time.Time]()

func makeConverter(goType reflect.Type, tfType attr.Type, rules flatRule) converter {
	if goType.Kind() == reflect.Pointer {
		inner := makeConverter(goType.Elem(), tfType, rules)
		null := nullOf(tfType)
		return func(v reflect.Value) attr.Value {
			if v.IsNil() {
				return null
			}
			return inner(v.Elem())
		}
	}
	mismatch := func() converter {
		panic(fmt.Sprintf("provider: cannot flatten Go %s into Terraform %s", goType, tfType))
	}
	switch t := tfType.(type) {
	case basetypes.StringType:
		if goType == timeType {
			return func(v reflect.Value) attr.Value {
				t, _ := v.Interface().(time.Time)
				return timeValue(&t)
			}
		}
		if goType.Kind() != reflect.String {
			return mismatch()
		}
		return func(v reflect.Value) attr.Value { return types.StringValue(v.String()) }
	case basetypes.Int64Type:
		if goType.Kind() != reflect.Int64 && goType.Kind() != reflect.Int {
			return mismatch()
		}
		return func(v reflect.Value) attr.Value { return types.Int64Value(v.Int()) }
	case basetypes.Float64Type:
		if goType.Kind() != reflect.Float64 {
			return mismatch()
		}
		return func(v reflect.Value) attr.Value { return types.Float64Value(v.Float()) }
	case basetypes.BoolType:
		if goType.Kind() != reflect.Bool {
			return mismatch()
		}
		return func(v reflect.Value) attr.Value { return types.BoolValue(v.Bool()) }
	case basetypes.ListType:
		if goType.Kind() != reflect.Slice {
			return mismatch()
		}
		elem := makeConverter(goType.Elem(), t.ElemType, rules)
		return func(v reflect.Value) attr.Value {
			vals := make([]attr.Value, v.Len())
			for i := range vals {
				vals[i] = elem(v.Index(i))
			}
			return listOf(t.ElemType, vals)
		}
	case basetypes.MapType:
		if goType.Kind() != reflect.Map || goType.Key().Kind() != reflect.String {
			return mismatch()
		}
		elem := makeConverter(goType.Elem(), t.ElemType, rules)
		return func(v reflect.Value) attr.Value {
			vals := make(map[string]attr.Value, v.Len())
			for it := v.MapRange(); it.Next(); {
				vals[it.Key().String()] = elem(it.Value())
			}
			return basetypes.NewMapValueMust(t.ElemType, vals)
		}
	case basetypes.ObjectType:
		if goType.Kind() != reflect.Struct {
			return mismatch()
		}
		return objectConverter(goType, t, rules)
	}
	return mismatch()
}

// objectConverter fills each attribute of t from the field of goType
// whose name matches it.
func objectConverter(goType reflect.Type, t basetypes.ObjectType, rules flatRule) converter {
	type attrField struct {
		name  string
		index []int
		conv  converter
	}
	fields := make(map[string][]int)
	for _, f := range reflect.VisibleFields(goType) {
		if f.IsExported() && !f.Anonymous {
			fields[matchName(f.Name)] = f.Index
		}
	}
	plan := make([]attrField, 0, len(t.AttrTypes))
	for name, at := range t.AttrTypes {
		index, ok := fields[matchName(name)]
		if !ok {
			panic(fmt.Sprintf("provider: %s has no field for attribute %q", goType, name))
		}
		ft := goType.FieldByIndex(index).Type
		conv := makeConverter(ft, at, rules)
		if rules&emptyIsNull != 0 && ft.Kind() == reflect.String {
			conv = emptyNull(conv, nullOf(at))
		}
		plan = append(plan, attrField{name, index, conv})
	}
	return func(v reflect.Value) attr.Value {
		vals := make(map[string]attr.Value, len(plan))
		for _, f := range plan {
			vals[f.name] = f.conv(v.FieldByIndex(f.index))
		}
		return basetypes.NewObjectValueMust(t.AttrTypes, vals)
	}
}

// emptyNull is conv, with "" converted into null.
func emptyNull(conv converter, null attr.Value) converter {
	return func(v reflect.Value) attr.Value {
		if v.Len() == 0 {
			return null
		}
		return conv(v)
	}
}

// matchName is a name as attributes and fields are matched: lower case,
// without underscores.
func matchName(s string) string { return strings.ReplaceAll(strings.ToLower(s), "_", "") }

// nullOf is the null value of a Terraform type.
func nullOf(t attr.Type) attr.Value {
	switch t := t.(type) {
	case basetypes.StringType:
		return types.StringNull()
	case basetypes.Int64Type:
		return types.Int64Null()
	case basetypes.Float64Type:
		return types.Float64Null()
	case basetypes.BoolType:
		return types.BoolNull()
	case basetypes.ListType:
		return types.ListNull(t.ElemType)
	case basetypes.MapType:
		return types.MapNull(t.ElemType)
	case basetypes.ObjectType:
		return types.ObjectNull(t.AttrTypes)
	}
	panic(fmt.Sprintf("provider: no null value for %s", t))
}
