package sdk

import (
	"encoding/json"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Secrets never echo. A client knows secrets of two kinds: its own (the
// key it sends) and those it is handed (a bundle's presigned link: its
// signature, credential and token). Both are in one list, secretList,
// and every place that shows or keeps server text removes them through
// it: errors (k.redact, k.echo, k.snippet), decoded answers (decodeWith),
// problems, streamed text (split across deltas too), request ids in logs,
// download errors. A link's secrets are learned the moment its answer
// arrives, before anything of it is logged or decoded.

// maxLearnedLinks is how many links' secrets a client remembers: the
// links it handed out last (a link works for minutes).
const maxLearnedLinks = 8

// secretMemory is what a client learned, shared by its calls.
type secretMemory struct {
	mu    sync.Mutex
	links [][]string               // each link's secrets, oldest first
	all   atomic.Pointer[[]string] // the client's secrets, then the links'
}

// secretList is every secret the client knows: its key, and the secrets
// of the links it was handed last.
func (k *core) secretList() []string {
	if all := k.learned.all.Load(); all != nil {
		return *all
	}
	return k.secrets
}

// learn adds the secrets of a link the client was handed, or is given.
func (k *core) learn(link []string) {
	if len(link) == 0 {
		return
	}
	m := &k.learned
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, known := range m.links {
		if slices.Equal(known, link) {
			return
		}
	}
	m.links = append(m.links, link)
	if len(m.links) > maxLearnedLinks {
		m.links = m.links[1:]
	}
	all := slices.Clone(k.secrets)
	for _, l := range m.links {
		all = append(all, l...)
	}
	m.all.Store(&all)
}

// bundleLinkSecrets are the secrets of the link a bundle answer holds
// (none when it holds no link): what a client learns from it.
func bundleLinkSecrets(body []byte) []string {
	var raw struct {
		BundleURL string `json:"bundleUrl"`
	}
	if json.Unmarshal(body, &raw) != nil || raw.BundleURL == "" {
		return nil
	}
	u, err := url.Parse(raw.BundleURL)
	if err != nil {
		return []string{raw.BundleURL}
	}
	return linkSecrets(u)
}

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
