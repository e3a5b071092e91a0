package assistantstream

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
)

// The longest end of a text that starts a secret, whichever secret it is;
// a whole secret is not a start (it was redacted already).
func TestSecretPrefixAtEnd(t *testing.T) {
	secrets := []string{"mint_dsc_0123", "sk-9876543"}
	for s, want := range map[string]int{
		"":                 0,
		"no secret here":   0,
		"the key is mint_": 5,
		"the key is m":     1,
		"mint_dsc_0123":    0,
		"or sk-98":         5,
		"mint_ then sk":    2,
		"sk-9876543 mint":  4,
	} {
		if got := secretPrefixAtEnd(s, secrets); got != want {
			t.Errorf("%q: %d, want %d", s, got, want)
		}
	}
}

// A JSON value is redacted whole: keys and values, nested, escaped; one
// without a secret is kept as it came, and one that cannot be decoded is
// kept as redacted text.
func TestRedactJSON(t *testing.T) {
	s, _ := newStream(false, strings.NewReader(""))
	escaped := `"mint\u005fdsc_0123456789"`
	many := "[" + strings.Repeat("0,", bounded.MaxItems) + `"` + secret + `"]`
	for in, want := range map[string]string{
		``:                       ``,
		`null`:                   ``,
		`{"a": 1}`:               `{"a": 1}`,
		`{"a": "x\n"}`:           `{"a": "x\n"}`,
		`{"k":"` + secret + `"}`: `{"k":"[REDACTED]"}`,
		`{"` + secret + `":[1, {"n": "` + secret + `!"}]}`: `{"[REDACTED]":[1,{"n":"[REDACTED]!"}]}`,
		`[` + escaped + `, 1.50]`:                          `["[REDACTED]",1.50]`,
		`{"k":"` + secret:                                  `"{\"k\":\"[REDACTED]"`,
		many:                                               strconv.Quote(strings.Replace(many, secret, "[REDACTED]", 1)),
	} {
		got := string(s.redactJSON(json.RawMessage(in)))
		if got != want {
			t.Errorf("%.60q: %.80q, want %.80q", in, got, want)
		}
	}
}

// A secret split across deltas never shows, whatever the cut; the held
// end comes out at the block's end when it was no secret after all.
func TestScrubDelta_heldAcrossDeltas(t *testing.T) {
	for cut := range len(secret) + 1 {
		body := sse(`{"type":"text-delta","id":"t","delta":"key `+secret[:cut]+`"}`,
			`{"type":"text-delta","id":"u","delta":"mi"}`,
			`{"type":"text-delta","id":"t","delta":"`+secret[cut:]+` m"}`,
			`{"type":"text-end","id":"t"}`, `{"type":"text-end","id":"u"}`, `{"type":"finish"}`)
		s, _ := newStream(false, strings.NewReader(body))
		parts, err := readAll(t, s)
		var text, other strings.Builder
		for _, p := range parts {
			if p.ID == "t" {
				text.WriteString(p.Text)
			} else {
				other.WriteString(p.Text)
			}
		}
		if !errors.Is(err, io.EOF) || text.String() != "key [REDACTED] m" || other.String() != "mi" {
			t.Errorf("cut %d: %q and %q, %v", cut, text.String(), other.String(), err)
		}
	}
}

// A failure drops the held text: it may be most of a secret.
func TestScrubDelta_failureDropsHeldText(t *testing.T) {
	s, _ := newStream(true, strings.NewReader(`0:"key `+secret[:8]+`"`+"\n"))
	parts, err := readAll(t, s)
	for _, p := range parts {
		if strings.Contains(p.Text, secret[:8]) {
			t.Errorf("%q handed out", p.Text)
		}
	}
	if failure(t, err).Problem != Cut || len(s.held) != 0 {
		t.Errorf("%v, %d held", err, len(s.held))
	}
}

// A block's end hands out the text held for that block only: its kind
// and its id.
func TestScrubDelta_blockEndFlushesItsOwnBlock(t *testing.T) {
	body := sse(`{"type":"text-delta","id":"x","delta":"a m"}`, `{"type":"reasoning-delta","id":"x","delta":"b m"}`,
		`{"type":"text-delta","id":"y","delta":"c m"}`, `{"type":"reasoning-end","id":"x"}`, `{"type":"text-end","id":"x"}`,
		`{"type":"tool-input-delta","toolCallId":"k","inputTextDelta":"d m"}`, `{"type":"tool-input-delta","toolCallId":"j","inputTextDelta":"e m"}`,
		`{"type":"tool-input-available","toolCallId":"k"}`, `{"type":"finish"}`)
	s, _ := newStream(false, strings.NewReader(body))
	parts, err := readAll(t, s)
	var got []string
	for _, p := range parts {
		id := p.ID
		if p.Tool != nil {
			id = p.Tool.CallID
		}
		got = append(got, fmt.Sprintf("%s %s %q", p.Type, id, p.Text))
	}
	want := []string{`text-delta x "a "`, `reasoning-delta x "b "`, `text-delta y "c "`,
		`reasoning-delta x "m"`, `reasoning-end x ""`, `text-delta x "m"`, `text-end x ""`,
		`tool-input-delta k "d "`, `tool-input-delta j "e "`, `tool-input-delta k "m"`, `tool-input-available k ""`,
		`text-delta y "m"`, `tool-input-delta j "m"`, `finish  ""`}
	if !errors.Is(err, io.EOF) || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%v:\n%s\nwant\n%s", err, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// v1 text has no block ends: any part but a delta hands out the text
// held so far, and a tool's input waits for its tool call.
func TestScrubDelta_v1AnyOtherPartEndsTheText(t *testing.T) {
	body := strings.Join([]string{`0:"a m"`, `g:"b m"`, `c:{"toolCallId":"k","argsTextDelta":"d m"}`, `2:[1]`,
		`9:{"toolCallId":"k"}`, `0:"e m"`, `d:{}`}, "\n") + "\n"
	s, _ := newStream(true, strings.NewReader(body))
	parts, err := readAll(t, s)
	var got []string
	for _, p := range parts {
		got = append(got, fmt.Sprintf("%s %q", p.Type, p.Text))
	}
	want := []string{`text-delta "a "`, `reasoning-delta "b "`, `tool-input-delta "d "`,
		`text-delta "m"`, `reasoning-delta "m"`, `data ""`,
		`tool-input-delta "m"`, `tool-input-available ""`, `text-delta "e "`, `text-delta "m"`, `finish ""`}
	if !errors.Is(err, io.EOF) || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("%v:\n%s\nwant\n%s", err, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
