package sdk

import (
	"reflect"
	"strings"
)

// redactStrings replaces key in every string reachable from v (a pointer
// to a decoded answer): struct fields, pointers, slices, arrays, maps and
// interfaces, and reports whether it found any. It runs only when an
// answer may hold the key, so its cost is paid by misbehaving servers, not
// by every page.
func redactStrings(v any, key string) bool {
	found := false
	redactValue(reflect.ValueOf(v), key, &found)
	return found
}

func redactValue(v reflect.Value, key string, found *bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			if v.Kind() == reflect.Interface && v.Elem().Kind() == reflect.String {
				if s := v.Elem().String(); strings.Contains(s, key) && v.CanSet() {
					v.Set(reflect.ValueOf(strings.ReplaceAll(s, key, Redacted)).Convert(v.Elem().Type()))
					*found = true
				}
				return
			}
			redactValue(v.Elem(), key, found)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				redactValue(v.Field(i), key, found)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			redactValue(v.Index(i), key, found)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			if e.Kind() == reflect.String && strings.Contains(e.String(), key) {
				v.SetMapIndex(k, reflect.ValueOf(strings.ReplaceAll(e.String(), key, Redacted)).Convert(e.Type()))
				*found = true
				continue
			}
			if e.Kind() == reflect.Pointer || e.Kind() == reflect.Interface {
				redactValue(e, key, found)
			}
		}
	case reflect.String:
		if s := v.String(); strings.Contains(s, key) && v.CanSet() {
			v.SetString(strings.ReplaceAll(s, key, Redacted))
			*found = true
		}
	}
}
