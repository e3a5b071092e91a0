// Package redact removes secrets from what a client shows or keeps: a
// server's text, decoded answers, URLs in errors. It is separate from
// package sdk so that every place that scrubs does it the same way, from
// one list of secrets (Memory), and so the rules can be tested without a
// client.
//
// Secrets are of two kinds: a client's own (the key it sends) and those it
// is handed (a bundle's presigned link: its signature, credential and
// token). A link's secrets are learned the moment its answer arrives,
// before anything of it is logged or decoded.
package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Marker replaces a secret wherever it was found (sdk.Redacted).
const Marker = "[REDACTED]"

// MaxLinks is how many links' secrets a Memory remembers: the links a
// client handed out last (a link works for minutes).
const MaxLinks = 8

// Memory is what a client learned of secrets, shared by its calls. The
// zero value knows only the client's own secrets, passed to each method.
type Memory struct {
	mu    sync.Mutex
	links [][]string               // each link's secrets, oldest first
	all   atomic.Pointer[[]string] // own secrets, then the links'
}

// List is every secret known: own, then the secrets of the links learned
// last.
func (m *Memory) List(own []string) []string {
	if all := m.all.Load(); all != nil {
		return *all
	}
	return own
}

// Learn adds the secrets of one link (nothing for none); own are the
// client's own secrets, which stay first.
func (m *Memory) Learn(own, link []string) {
	if len(link) == 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, known := range m.links {
		if slices.Equal(known, link) {
			return
		}
	}
	m.links = append(m.links, link)
	if len(m.links) > MaxLinks {
		m.links = m.links[1:]
	}
	all := slices.Clone(own)
	for _, l := range m.links {
		all = append(all, l...)
	}
	m.all.Store(&all)
}

// LinkSecrets are the strings of a presigned link that must never be
// shown: the link whole, its query, and each query value long enough to
// be a signature, a credential or a token (raw and query-escaped).
func LinkSecrets(u *url.URL) []string {
	secrets := []string{u.String(), u.RawQuery}
	for _, values := range u.Query() {
		for _, v := range values {
			if len(v) >= 8 {
				secrets = append(secrets, v, url.QueryEscape(v))
			}
		}
	}
	return secrets
}

// BundleLinkSecrets are the secrets of the link a bundle answer
// ({"bundleUrl": ...}) holds: none when it holds no link, the whole value
// when it is not a URL.
func BundleLinkSecrets(body []byte) []string {
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
	return LinkSecrets(u)
}

// Scrub returns s without secrets, and whether it held any.
func Scrub(s string, secrets []string) (string, bool) {
	found := false
	for _, secret := range secrets {
		if secret != "" && strings.Contains(s, secret) {
			s = strings.ReplaceAll(s, secret, Marker)
			found = true
		}
	}
	return s, found
}

// String returns s without secrets.
func String(s string, secrets []string) string {
	s, _ = Scrub(s, secrets)
	return s
}

// MayHold reports whether a body may spell one of the secrets: it holds
// one, or escapes that could.
func MayHold(data []byte, secrets []string) bool {
	if bytes.IndexByte(data, '\\') >= 0 {
		return true
	}
	for _, s := range secrets {
		if s != "" && bytes.Contains(data, []byte(s)) {
			return true
		}
	}
	return false
}

// Strings replaces every secret in every string reachable from v (a
// pointer to a decoded answer): struct fields, pointers, slices, arrays,
// maps (their keys too) and interfaces, and reports whether it found any.
// Two keys of a map that are the same once redacted are both kept: each
// later one in the keys' order gets the first free number ("[REDACTED]
// (2)"), so that one answer always gives one map. Callers run it only
// when an answer may hold a secret (MayHold), so its cost is paid by
// misbehaving servers, not by every page.
func Strings(v any, secrets []string) bool {
	found := false
	value(reflect.ValueOf(v), secrets, &found)
	return found
}

func value(v reflect.Value, secrets []string, found *bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			if v.Kind() == reflect.Interface && v.Elem().Kind() == reflect.String {
				if s, ok := Scrub(v.Elem().String(), secrets); ok && v.CanSet() {
					v.Set(reflect.ValueOf(s).Convert(v.Elem().Type()))
					*found = true
				}
				return
			}
			value(v.Elem(), secrets, found)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				value(v.Field(i), secrets, found)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			value(v.Index(i), secrets, found)
		}
	case reflect.Map:
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			if k.Kind() == reflect.String {
				k = redactKey(v, k, secrets, found)
			}
			e := v.MapIndex(k)
			str := e // a string, or a string in an interface (map[string]any)
			if e.Kind() == reflect.Interface && !e.IsNil() {
				str = e.Elem()
			}
			if str.Kind() == reflect.String {
				if s, ok := Scrub(str.String(), secrets); ok {
					v.SetMapIndex(k, reflect.ValueOf(s).Convert(str.Type()))
					*found = true
				}
				continue
			}
			if e.Kind() == reflect.Pointer || e.Kind() == reflect.Interface {
				value(e, secrets, found)
			}
		}
	case reflect.String:
		if s, ok := Scrub(v.String(), secrets); ok && v.CanSet() {
			v.SetString(s)
			*found = true
		}
	}
}

// redactKey moves the entry of map m at k, a string, to k without
// secrets, numbered when m has that key already; it returns the entry's
// key.
func redactKey(m, k reflect.Value, secrets []string, found *bool) reflect.Value {
	clean, ok := Scrub(k.String(), secrets)
	if !ok {
		return k
	}
	e := m.MapIndex(k)
	m.SetMapIndex(k, reflect.Value{})
	k = reflect.ValueOf(clean).Convert(k.Type())
	for n := 2; m.MapIndex(k).IsValid(); n++ {
		k = reflect.ValueOf(fmt.Sprintf("%s (%d)", clean, n)).Convert(k.Type())
	}
	m.SetMapIndex(k, e)
	*found = true
	return k
}

// URLError drops the query (a presigned link's signature) from the URL
// net/http names in its errors; other errors are returned as they are.
func URLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		clean := *ue
		if u, perr := url.Parse(ue.URL); perr == nil {
			clean.URL = WithoutQuery(u)
		} else {
			clean.URL = "(link)"
		}
		return &clean
	}
	return err
}

// WithoutQuery writes u without its query, fragment or password: what may
// be shown of a link whose query is a signature.
func WithoutQuery(u *url.URL) string {
	clean := *u
	clean.RawQuery, clean.Fragment, clean.RawFragment, clean.ForceQuery = "", "", "", false
	return clean.Redacted()
}

var (
	htmlTagRE    = regexp.MustCompile(`(?s)<(script|style)\b.*?</(script|style)>|<[^>]*>`)
	whitespaceRE = regexp.MustCompile(`\s+`)
)

// maxSnippetInput is how much of a body Snippet reads.
const maxSnippetInput = 64 << 10

// Snippet turns a body that is not an API's JSON (an HTML 502 page from a
// proxy, say) into one line of text without tags, control characters,
// runs of white space or secrets. It reads at most the body's first 64
// KiB; the caller clips the line for display.
func Snippet(data []byte, secrets []string) string {
	s := string(data[:min(len(data), maxSnippetInput)])
	s = htmlTagRE.ReplaceAllString(s, " ")
	s = strings.Map(func(r rune) rune {
		if r < ' ' && r != '\n' && r != '\t' {
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(whitespaceRE.ReplaceAllString(s, " "))
	return String(s, secrets)
}
