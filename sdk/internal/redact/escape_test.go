package redact

import (
	"strings"
	"testing"
)

// Small bounds show every edge: the last rune that fits, the first that
// does not, newlines at the bound, escapes that do not fit whole.
func TestEscape_bounds(t *testing.T) {
	for _, tt := range []struct {
		in          string
		keep        bool
		line, total int
		want        string
	}{
		{"abc", true, 3, 10, "abc"},
		{"abcd", true, 3, 10, "abc…"},
		{"abcd\nef", true, 3, 10, "abc…\nef"},
		{"abcdefgh\nij", true, 3, 10, "abc…\nij"},
		{"ab\ncd", true, 3, 5, "ab\ncd"},
		{"ab\ncde", true, 3, 5, "ab\ncd…"},
		{"abc\n", true, 3, 4, "abc\n"},
		{"\x1b\n", true, 4, 5, "\\x1b\n"}, // a newline that just fits
		{"ab cd\x1b", true, 3, 4, "ab …"}, // the line's mark just fits
		{"a \x01", true, 2, 2, "a…"},      // it does not: the whole is cut
		{"abc\nd", true, 3, 4, "abc…"},
		{"abcd", true, 3, 3, "abc…"},
		{"abcd\n", true, 3, 4, "abc…"},
		{"abcd\nx", true, 3, 4, "abc…"},
		{"a b c", false, 3, 3, "a b…"},
		{"ab\ncd", false, 10, 10, `ab\ncd`},
		{"ab\ncd", false, 3, 3, "ab…"},
		{"a\x1b", true, 4, 10, "a…"},
		{"a\x1b", true, 5, 10, `a\x1b`},
		{"a\x1bb", true, 5, 10, `a\x1b…`},
		{"a\x1b", true, 10, 4, "a…"},
		{"\x1b\n\x1b", true, 4, 9, "\\x1b\n\\x1b"},
		{"\x1b\n\x1b", true, 4, 8, "\\x1b…"},
		{"x\xff", true, 10, 10, `x\xff`},
		{"\r\t\n\u202e\U000e0001", false, 40, 40, `\r\t\n\u202e\U000e0001`},
		{"ab \n", true, 2, 10, "ab…\n"},
		{"ab  cd", false, 4, 4, "ab…"},
		{"", true, 0, 0, ""},
		{"é", true, 1, 1, "é"},
		{"éé", true, 1, 10, "é…"},
	} {
		if got := Escape(tt.in, tt.keep, tt.line, tt.total); got != tt.want {
			t.Errorf("Escape(%q, %v, %d, %d) = %q, want %q", tt.in, tt.keep, tt.line, tt.total, got, tt.want)
		}
	}
}

// A cut line is skipped to its end, however long, and the next shown.
func TestEscape_skipsTheRestOfACutLine(t *testing.T) {
	in := strings.Repeat("x", 10_000) + "\x1b" + strings.Repeat("y", 10_000) + "\nnext\n" + strings.Repeat("z", 50)
	if got := Escape(in, true, 5, 100); got != "xxxxx…\nnext\nzzzzz…" {
		t.Errorf("%q", got)
	}
}

func TestEscapedRune(t *testing.T) {
	for r, want := range map[rune]string{'a': "a", '\n': `\n`, '\r': `\r`, '\t': `\t`, 0: `\x00`, 0x7f: `\x7f`, 0x9b: `\u009b`,
		0x2028: `\u2028`, 0xfff9: `\ufff9`, 0xfffb: `\ufffb`, 0xfffc: "\ufffc", 0xfff8: "\ufff8", 0xe000: `\ue000`, 0xe0001: `\U000e0001`, 'é': "é"} {
		if got := escapedRune(r); got != want {
			t.Errorf("%U: %q, want %q", r, got, want)
		}
	}
}

// Text that needs nothing is returned as it is, without building.
func TestEscape_plainTextIsItself(t *testing.T) {
	s := "déjà vu\n日本語"
	if got := Escape(s, true, 7, 11); got != s {
		t.Errorf("%q", got)
	}
	if !plain(s, true, 7, 11) || plain(s, true, 6, 11) || plain(s, true, 7, 10) || plain(s, false, 100, 100) || plain("a\ufffd", true, 9, 9) {
		t.Error("plain")
	}
}

func TestClip(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"abcdef", 6, "abcdef"},
		{"abcdef", 7, "abcdef"},
		{"abc def", 4, "abc…"},
		{"abcdef", 5, "abcde…"},
		{"ééééé", 3, "ééé…"},
		{"ééé", 3, "ééé"}, // 6 bytes, 3 runes: not cut
		{"", 0, ""},
		// As the stream quotes a part's code and the download a header.
		{"abc", 3, "abc"}, {"abcd", 3, "abc…"}, {"ééé", 3, "ééé"}, {"éééé", 3, "ééé…"}, {"a  b", 2, "a…"},
		{"short", 10, "short"},
		{strings.Repeat("a", 10), 10, strings.Repeat("a", 10)},
		{strings.Repeat("a", 11), 10, strings.Repeat("a", 10) + "…"},
		{strings.Repeat("é", 10), 10, strings.Repeat("é", 10)}, // 20 bytes, 10 runes
		{"aaaaaaaaa " + "b", 10, "aaaaaaaaa…"},
		{"12345678901", 10, "1234567890…"},
	} {
		if got := Clip(tt.in, tt.n); got != tt.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}
