package sdk

import (
	"reflect"
	"strings"
)

// redactStrings replaces every secret in every string reachable from v (a
// pointer to a decoded answer): struct fields, pointers, slices, arrays,
// maps and interfaces, and reports whether it found any. It runs only when
// an answer may hold a secret, so its cost is paid by misbehaving servers,
// not by every page.
func redactStrings(v any, secrets []string) bool {
	found := false
	redactValue(reflect.ValueOf(v), secrets, &found)
	return found
}

// scrub returns s without secrets, and whether it held any.
func scrub(s string, secrets []string) (string, bool) {
	found := false
	for _, secret := range secrets {
		if secret != "" && strings.Contains(s, secret) {
			s = strings.ReplaceAll(s, secret, Redacted)
			found = true
		}
	}
	return s, found
}

func redactValue(v reflect.Value, secrets []string, found *bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			if v.Kind() == reflect.Interface && v.Elem().Kind() == reflect.String {
				if s, ok := scrub(v.Elem().String(), secrets); ok && v.CanSet() {
					v.Set(reflect.ValueOf(s).Convert(v.Elem().Type()))
					*found = true
				}
				return
			}
			redactValue(v.Elem(), secrets, found)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				redactValue(v.Field(i), secrets, found)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			redactValue(v.Index(i), secrets, found)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			str := e // a string, or a string in an interface (map[string]any)
			if e.Kind() == reflect.Interface && !e.IsNil() {
				str = e.Elem()
			}
			if str.Kind() == reflect.String {
				if s, ok := scrub(str.String(), secrets); ok {
					v.SetMapIndex(k, reflect.ValueOf(s).Convert(str.Type()))
					*found = true
				}
				continue
			}
			if e.Kind() == reflect.Pointer || e.Kind() == reflect.Interface {
				redactValue(e, secrets, found)
			}
		}
	case reflect.String:
		if s, ok := scrub(v.String(), secrets); ok && v.CanSet() {
			v.SetString(s)
			*found = true
		}
	}
}
