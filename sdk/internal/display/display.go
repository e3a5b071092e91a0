// Package display makes text a server sent fit to show a person: in
// errors, Terraform's warnings and progress lines, display names. Such text
// may carry terminal control sequences (a screen clear, a fake green
// "Apply complete!", a window title, a carriage return that overwrites
// the line, a right-to-left override that reorders it). It is separate from package
// sdk, which holds the public DisplayText and DisplayLine and their bounds,
// so the escaping, which a hostile server attacks, is tested on its own.
package display

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clip shortens s to at most n runes, marking the cut with "…", for a
// value quoted with %q (which escapes it): a value a server sent may be
// any length, and an error message must stay readable.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if r := []rune(s); len(r) > n {
		return strings.TrimSpace(string(r[:n])) + "…"
	}
	return s
}

// Escape returns s fit to show a person: every control character (C0,
// DEL, C1), line separator and invisible formatting character escaped as
// Go writes it in a string literal (\x1b, \r, \u202e), bytes that are not
// UTF-8 as \xff, each line clipped at maxLine runes and the whole at
// maxTotal, each cut marked with "…". keepNewlines keeps newlines (each
// starts a line) instead of escaping them. Past what is shown, s is only
// scanned for newlines.
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

// plain reports whether s needs neither escaping nor clipping: the
// common case, answered without building anything.
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
// what is shown instead of being shown: controls (a tab too, which can
// hide text), line and paragraph separators, formatting characters
// (U+200B–U+200F, U+202A–U+202E, U+2066–U+2069, U+FEFF, ...), and the
// non-characters and private-use runes a terminal may treat as commands.
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
