package sdk

import (
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/transport"
)

func TestDisplayText_escapesWhatWouldActOnATerminal(t *testing.T) {
	for name, tc := range map[string]struct{ in, want string }{
		"plain text is itself":             {"Build failed: missing page", "Build failed: missing page"},
		"newlines kept":                    {"one\ntwo", "one\ntwo"},
		"screen clear":                     {"\x1b[2J\x1b[HApply complete!", `\x1b[2J\x1b[HApply complete!`},
		"carriage return":                  {"ok\rFAILED", `ok\rFAILED`},
		"tab":                              {"a\tb", `a\tb`},
		"bell and DEL":                     {"\a\x7f", `\x07\x7f`},
		"C1 control (CSI)":                 {"a\u009b2Jb", `a\u009b2Jb`},
		"right-to-left override":           {"file\u202eexe.txt", `file\u202eexe.txt`},
		"zero-width space":                 {"a\u200bb", `a\u200bb`},
		"line separator":                   {"a\u2028b", `a\u2028b`},
		"byte order mark":                  {"\ufeffx", `\ufeffx`},
		"private use":                      {"\ue000", `\ue000`},
		"interlinear annotation":           {"\ufff9", `\ufff9`},
		"invalid UTF-8 is its byte":        {"a\xffb", `a\xffb`},
		"a real replacement char stays":    {"a\ufffdb", "a\ufffdb"},
		"accents and scripts stay":         {"déjà vu — 日本語", "déjà vu — 日本語"},
		"OSC window title, BEL-terminated": {"\x1b]0;pwned\x07", `\x1b]0;pwned\x07`},
	} {
		t.Run(name, func(t *testing.T) {
			if got := DisplayText(tc.in); got != tc.want {
				t.Errorf("DisplayText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestDisplayLine_escapesNewlines(t *testing.T) {
	if got, want := DisplayLine("title\nApply complete!"), `title\nApply complete!`; got != want {
		t.Errorf("DisplayLine = %q, want %q", got, want)
	}
}

func TestDisplayText_clipsEachLineAndTheWhole(t *testing.T) {
	long := strings.Repeat("x", MaxDisplayLine+50)
	got := DisplayText(long + "\nnext")
	if want := strings.Repeat("x", MaxDisplayLine) + "…\nnext"; got != want {
		t.Errorf("a long line: got %q, want %q", got, want)
	}
	exact := strings.Repeat("y", MaxDisplayLine)
	if got := DisplayText(exact); got != exact {
		t.Errorf("a line of exactly MaxDisplayLine runes was changed: %q", got)
	}
	// Twelve 1 MiB log lines make a text of at most MaxDisplayText runes.
	huge := strings.Repeat(strings.Repeat("z", 1<<20)+"\n", 12)
	got = DisplayText(huge)
	if n := utf8.RuneCountInString(got); n > MaxDisplayText+1 {
		t.Errorf("twelve 1 MiB lines shown as %d runes, want at most %d", n, MaxDisplayText+1)
	}
	if !strings.HasSuffix(got, "…") {
		t.Errorf("a text cut short does not say so: ends %q", got[len(got)-10:])
	}
	if lines := strings.Count(got, "\n"); lines < 5 {
		t.Errorf("only %d lines shown of twelve long ones; each should be clipped, not the first shown whole", lines+1)
	}
}

func TestDisplayText_escapesCountTowardTheBounds(t *testing.T) {
	// 300 ESC bytes are 1,200 runes once escaped: clipped like text.
	got := DisplayText(strings.Repeat("\x1b", 300))
	if n := utf8.RuneCountInString(got); n > MaxDisplayLine+1 {
		t.Errorf("escaped line of %d runes, want at most %d", n, MaxDisplayLine+1)
	}
	if strings.Contains(got, "\x1b") {
		t.Error("an ESC byte survived")
	}
	// An escape is never cut in half.
	got = DisplayLine(strings.Repeat("a", MaxDisplayLine-2) + "\x1b")
	if want := strings.Repeat("a", MaxDisplayLine-2) + "…"; got != want {
		t.Errorf("escape at the line's end: got %q, want %q", got, want)
	}
}

func TestDisplayLine_wholeBoundIsTheLineBound(t *testing.T) {
	got := DisplayLine(strings.Repeat("a\n", MaxDisplayLine))
	if n := utf8.RuneCountInString(got); n > MaxDisplayLine+1 {
		t.Errorf("DisplayLine of %d runes, want at most %d", n, MaxDisplayLine+1)
	}
}

// clip only shortens: its values are quoted with %q, which escapes them.
func TestClip_cutsAtNRunesAndMarksIt(t *testing.T) {
	if got := redact.Clip("abcdef", 6); got != "abcdef" {
		t.Errorf("clip at exactly n: %q", got)
	}
	if got := redact.Clip("abc def", 4); got != "abc…" {
		t.Errorf("clip: got %q, want %q (a trailing space is dropped before the mark)", got, "abc…")
	}
	if got := redact.Clip("ééééé", 3); got != "ééé…" {
		t.Errorf("clip counts runes, not bytes: %q", got)
	}
}

func BenchmarkDisplayText_plain(b *testing.B) {
	s := strings.Repeat("Build step 12 of 40: rendering pages\n", 20)
	for b.Loop() {
		_ = DisplayText(s)
	}
}

func TestAPIError_serverTextIsEscaped(t *testing.T) {
	k := &core{settings: settings{clock: transport.WallClock{}}}
	for name, body := range map[string]string{
		"JSON error":     `{"error":"\u001b[2J\u001b[32mApply complete!\r","details":[{"message":"bad\u202eexe"}]}`,
		"HTML page":      "<html><body>\x1b]0;pwned\x07 Bad gateway \u202e</body></html>",
		"object storage": "<?xml version=\"1.0\"?><Error><Code>AccessDenied</Code><Message>\x1b[2Jdenied</Message></Error>",
	} {
		t.Run(name, func(t *testing.T) {
			e := k.newAPIError(call{method: "GET", path: "/v1/x"}, transport.Result{Attempt: transport.Attempt{Status: 502, Header: http.Header{}, Body: []byte(body)}})
			msg := e.Error()
			for _, d := range e.Details {
				msg += d.Message
			}
			if strings.ContainsAny(msg, "\x1b\x07\r\u202e") {
				t.Errorf("server text reaches the error raw: %q", msg)
			}
		})
	}
}

// A text whose bound falls right after a clipped line's mark is marked
// once, not "……".
func TestDisplayText_aCutAfterAClippedLineIsMarkedOnce(t *testing.T) {
	long := strings.Repeat("x", MaxDisplayLine+1) + "\n"
	in := strings.Repeat(long, 8) + strings.Repeat("s", 182) + "\n" + long + "more"
	got := DisplayText(in)
	if strings.HasSuffix(got, "……") || !strings.HasSuffix(got, "x…") {
		t.Errorf("ends %q", got[len(got)-10:])
	}
}
