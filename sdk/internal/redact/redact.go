// Package redact makes what a server sent safe to show or keep: the
// client's secrets (its key, and the links it is handed, learned as their
// answer arrives) removed from text, decoded answers and URLs in errors;
// and for text shown to a person, control and formatting characters (a
// screen clear, a carriage return, a right-to-left override) escaped and
// lines clipped.
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
	"unicode"
	"unicode/utf8"
)

// Marker replaces a secret wherever it was found (sdk.Redacted).
const Marker = "[REDACTED]"

// MaxLinks is how many links' secrets a client remembers, the last ones.
const MaxLinks = 8

// Secrets are a client's own secrets, then its last links'. Safe for
// concurrent use.
type Secrets struct {
	own   []string
	mu    sync.Mutex
	links [][]string               // each link's secrets, oldest first
	all   atomic.Pointer[[]string] // own secrets, then the links'
}

// NewSecrets knows a client's own secrets.
func NewSecrets(own ...string) *Secrets {
	s := &Secrets{own: own}
	s.all.Store(&own)
	return s
}

// List is every secret known (none for a nil Secrets).
func (s *Secrets) List() []string {
	if s == nil {
		return nil
	}
	return *s.all.Load()
}

// Learn adds the secrets of one link (nothing for none).
func (s *Secrets) Learn(link []string) {
	if len(link) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, known := range s.links {
		if slices.Equal(known, link) {
			return
		}
	}
	s.links = append(s.links, link)
	if len(s.links) > MaxLinks {
		s.links = s.links[1:]
	}
	all := slices.Clone(s.own)
	for _, l := range s.links {
		all = append(all, l...)
	}
	s.all.Store(&all)
}

// Redact returns text without the secrets.
func (s *Secrets) Redact(text string) string { return String(text, s.List()) }

// Line is Line(s.Redact(text)).
func (s *Secrets) Line(text string) string { return Line(s.Redact(text)) }

// Snippet is a body that is not JSON as one short line (Snippet, Line).
func (s *Secrets) Snippet(data []byte) string { return Line(Snippet(data, s.List())) }

// MayHold is MayHold(data, s.List()).
func (s *Secrets) MayHold(data []byte) bool { return MayHold(data, s.List()) }

// LinkSecrets are a presigned link's strings never to show: the link, its
// query, and each query value long enough to be a signature or a token
// (raw and escaped).
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

// BundleLinkSecrets are the secrets of a bundle answer's bundleUrl (the
// whole value when it is not a URL).
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

// MayHold reports whether data may spell a secret: it holds one, or an
// escape that could.
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
// pointer to a decoded answer), map keys too, and reports whether it
// found any. Two keys the same once redacted are both kept, the later
// numbered ("[REDACTED] (2)"). Callers run it only when MayHold.
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

// redactKey moves m's entry at k to k without secrets (numbered when
// taken), and returns its key.
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

// URLError drops the query from the URL net/http names in its errors.
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

// WithoutQuery writes u without its query, fragment or password.
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

// Snippet turns a body that is not JSON (a proxy's HTML page) into one
// line without tags, control characters, runs of white space or secrets,
// from its first 64 KiB.
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

// The most of a line and of a whole text shown, in escaped runes.
const (
	MaxLine = 200
	MaxText = 2000
)

// Text is Escape with newlines kept (sdk.DisplayText).
func Text(s string) string { return Escape(s, true, MaxLine, MaxText) }

// Line is Escape on one line (sdk.DisplayLine).
func Line(s string) string { return Escape(s, false, MaxLine, MaxLine) }

// Clip shortens s to at most n runes, marking the cut "…", for a value
// quoted with %q.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if r := []rune(s); len(r) > n {
		return strings.TrimSpace(string(r[:n])) + "…"
	}
	return s
}

// Escape returns s fit to show a person: every control character, line
// separator and invisible formatting character escaped as in a Go string
// literal, bytes that are not UTF-8 as \xff, each line clipped at maxLine
// runes and the whole at maxTotal, each cut marked "…"; keepNewlines
// keeps newlines. Past what is shown, s is only scanned for newlines.
func Escape(s string, keepNewlines bool, maxLine, maxTotal int) string {
	if plain(s, keepNewlines, maxLine, maxTotal) {
		return s
	}
	var b strings.Builder
	total, line := 0, 0
	clipped := false // the current line was cut: skip to its end
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if r == '\n' && keepNewlines {
			if total+1 > maxTotal {
				if clipped { // the line's mark marks the cut
					return b.String()
				}
				return cut(&b)
			}
			b.WriteByte('\n')
			total, line, clipped = total+1, 0, false
			continue
		}
		if clipped { // skip the rest of a cut line at memchr's speed
			next := strings.IndexByte(s[i-size:], '\n')
			if next < 0 {
				break
			}
			i += next - size
			continue
		}
		piece := escapedRune(r)
		if r == utf8.RuneError && size == 1 {
			piece = fmt.Sprintf(`\x%02x`, s[i-1])
		}
		n := utf8.RuneCountInString(piece)
		if line+n > maxLine {
			if total+1 > maxTotal || !keepNewlines {
				return cut(&b)
			}
			b.WriteString("…")
			total, clipped = total+1, true
			continue
		}
		if total+n > maxTotal {
			return cut(&b)
		}
		b.WriteString(piece)
		total, line = total+n, line+n
	}
	return b.String()
}

// cut ends a text that goes on past what is shown.
func cut(b *strings.Builder) string {
	return strings.TrimRight(b.String(), " \t\n") + "…"
}

// plain reports whether s needs neither escaping nor clipping.
func plain(s string, keepNewlines bool, maxLine, maxTotal int) bool {
	total, line := 0, 0
	for _, r := range s {
		if total++; total > maxTotal {
			return false
		}
		switch {
		case r == '\n' && keepNewlines:
			line = 0
			continue
		case r == utf8.RuneError || mustEscape(r):
			return false
		}
		if line++; line > maxLine {
			return false
		}
	}
	return true
}

// mustEscape reports whether a rune would act on a terminal or reorder
// what is shown: controls (tab too), line and paragraph separators,
// formatting characters, private-use runes and U+FFF9–U+FFFB.
func mustEscape(r rune) bool {
	return unicode.IsControl(r) || unicode.In(r, unicode.Zl, unicode.Zp, unicode.Cf, unicode.Co) ||
		r >= 0xFFF9 && r <= 0xFFFB
}

// escapedRune is how one rune is shown: itself, or its escape.
func escapedRune(r rune) string {
	switch {
	case !mustEscape(r):
		return string(r)
	case r == '\n':
		return `\n`
	case r == '\r':
		return `\r`
	case r == '\t':
		return `\t`
	case r < 0x80:
		return fmt.Sprintf(`\x%02x`, r)
	case r <= 0xFFFF:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}
