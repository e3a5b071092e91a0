package sdk

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The key must never reach a caller's output, even split across deltas at
// any point, in any part, in either protocol.
func TestAssistantStream_keyIsRedactedEvenSplitAcrossDeltas(t *testing.T) {
	key := testAssistantKey
	for cut := 0; cut <= len(key); cut++ {
		var b strings.Builder
		for _, d := range []string{"Your key is ", key[:cut], key[cut:] + " and", " m", "ore."} {
			fmt.Fprintf(&b, "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":%q}\n\n", d)
		}
		b.WriteString("data: {\"type\":\"text-end\",\"id\":\"t\"}\n\ndata: {\"type\":\"finish\"}\n\n")
		s, _ := streamOf(t, AssistantV2, strings.NewReader(b.String()))
		parts, err := readAll(s)
		if err != nil {
			t.Fatal(err)
		}
		var text strings.Builder
		for _, p := range parts {
			for n := 4; n <= len(key); n++ { // no part holds 4 or more characters of it
				if strings.Contains(p.Text, key[:n]) || (n < len(key) && strings.Contains(p.Text, key[len(key)-n:])) {
					t.Fatalf("cut %d: part %q holds %q", cut, p.Text, key[:n])
				}
			}
			text.WriteString(p.Text)
		}
		if want := "Your key is " + Redacted + " and more."; text.String() != want {
			t.Errorf("cut %d: %q, want %q", cut, text.String(), want)
		}
	}
	escaped := strings.ReplaceAll(key, "_", `\u005f`)
	body := "data: {\"type\":\"error\",\"errorText\":\"bad key " + key + "\"}\n\n" +
		"data: {\"type\":\"tool-output-available\",\"toolCallId\":\"c\",\"output\":{\"echo\":\"" + escaped + "\",\"" + key + "\":1}}\n\n" +
		"data: {\"type\":\"source-url\",\"sourceId\":\"s\",\"url\":\"https://x.test/?k=" + key + "\",\"title\":\"" + key + "\"}\n\n" +
		"data: {\"type\":\"data-echo\",\"data\":[\"" + key + "\"]}\n\n" +
		"data: {\"type\":\"mystery\",\"value\":\"" + escaped + "\"}\n\n" +
		"data: {\"type\":\"reasoning-delta\",\"id\":\"r\",\"delta\":\"" + key[:9] + "\"}\n\n" +
		"data: {\"type\":\"reasoning-delta\",\"id\":\"r\",\"delta\":\"" + key[9:] + "\"}\n\n" +
		"data: {\"type\":\"finish\",\"threadId\":\"" + key + "\"}\n\n"
	s, _ := streamOf(t, AssistantV2, strings.NewReader(body))
	parts, err := readAll(s)
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(parts)
	if strings.Contains(string(out), key) || strings.Contains(string(out), escaped) || strings.Contains(string(out), key[9:]) {
		t.Errorf("the key leaked: %s", out)
	}
	if !strings.Contains(string(out), Redacted) {
		t.Errorf("nothing redacted: %s", out)
	}
	s, _ = streamOf(t, AssistantV1, strings.NewReader("0:\"key: "+key[:5]+"\"\n0:\""+key[5:]+"\"\nd:{\"finishReason\":\"stop\"}\n"))
	a, err := s.Collect()
	if err != nil || a.Text != "key: "+Redacted {
		t.Errorf("v1: %v %q", err, a.Text)
	}
}

// A delta held back whole (it ends like the start of the key) makes no
// part until what follows shows it is not the key: the next delta of its
// kind, or, in v1, whose text has no block ends, any part of another kind
// (a tool's own input for its deltas). An empty delta is passed on as
// it came. The first message id is the answer's.
func TestAssistantStream_deltasHeldBackWholeMakeNoPart(t *testing.T) {
	summary := func(parts []AssistantPart) []string {
		var out []string
		for _, p := range parts {
			out = append(out, fmt.Sprintf("%s %q%s", p.Type, p.Text, p.MessageID))
		}
		return out
	}
	var v2 strings.Builder
	for _, d := range []string{"a", "mint_d", "x", ""} {
		fmt.Fprintf(&v2, "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":%q}\n\n", d)
	}
	for _, d := range []string{"b", "mint_d", "y", ""} {
		fmt.Fprintf(&v2, "data: {\"type\":\"tool-input-delta\",\"toolCallId\":\"c\",\"inputTextDelta\":%q}\n\n", d)
	}
	v2.WriteString("data: {\"type\":\"text-end\",\"id\":\"t\"}\n\ndata: {\"type\":\"finish\"}\n\n")
	s, _ := streamOf(t, AssistantV2, strings.NewReader(v2.String()))
	parts, err := readAll(s)
	want := []string{`text-delta "a"`, `text-delta "mint_dx"`, `text-delta ""`,
		`tool-input-delta "b"`, `tool-input-delta "mint_dy"`, `tool-input-delta ""`, `text-end ""`, `finish ""`}
	if diff := cmp.Diff(want, summary(parts)); err != nil || diff != "" {
		t.Errorf("v2 (-want +got), %v:\n%s", err, diff)
	}
	v1 := `0:""
f:{}
f:{"messageId":"m1"}
0:"I like mint_d"
g:"hmm"
0:"ew"
0:"x mint_d"
b:{"toolCallId":"c","toolName":"search"}
c:{"toolCallId":"c","argsTextDelta":"mint_d"}
9:{"toolCallId":"c","toolName":"search","args":{}}
f:{"messageId":"m2"}
0:"y mint_d"
d:{"finishReason":"stop"}
`
	s, _ = streamOf(t, AssistantV1, strings.NewReader(v1))
	parts, err = readAll(s)
	want = []string{`text-delta ""`, `start-step ""`, `start-step ""m1`,
		`text-delta "I like "`, `reasoning-delta "hm"`, `text-delta "mint_dew"`, `text-delta "x "`,
		`reasoning-delta "m"`, `text-delta "mint_d"`, `tool-input-start ""`, `tool-input-delta "mint_d"`, `tool-input-available ""`,
		`start-step ""m2`, `text-delta "y "`, `text-delta "mint_d"`, `finish ""`}
	if diff := cmp.Diff(want, summary(parts)); err != nil || diff != "" {
		t.Errorf("v1 (-want +got), %v:\n%s", err, diff)
	}
	s, _ = streamOf(t, AssistantV1, strings.NewReader(v1))
	if a, err := s.Collect(); err != nil || a.MessageID != "m1" || a.Text != "I like mint_dewx mint_dy mint_d" {
		t.Errorf("v1 Collect: %q %q, %v", a.MessageID, a.Text, err)
	}
}

// Held-back text (a delta that ends like the start of the key) is handed
// out at the block's end when it turns out not to be the key; a cut
// stream drops it.
func TestAssistantStream_heldBackTextComesOutAtTheBlocksEnd(t *testing.T) {
	body := "data: {\"type\":\"text-delta\",\"id\":\"t\",\"delta\":\"I like mint_d\"}\n\n"
	s, _ := streamOf(t, AssistantV2, strings.NewReader(body+"data: {\"type\":\"text-end\",\"id\":\"t\"}\n\ndata: {\"type\":\"finish\"}\n\n"))
	parts, err := readAll(s)
	if err != nil {
		t.Fatal(err)
	}
	want := []AssistantPart{{Type: PartTextDelta, ID: "t", Text: "I like "}, {Type: PartTextDelta, ID: "t", Text: "mint_d"}, {Type: PartTextEnd, ID: "t"}, {Type: PartFinish}}
	if diff := cmp.Diff(want, parts); diff != "" {
		t.Error(diff)
	}
	s, _ = streamOf(t, AssistantV2, strings.NewReader(body))
	a, err := s.Collect()
	if err == nil || a.Text != "I like " {
		t.Errorf("%v %q", err, a.Text)
	}
}

// Collect pools the text of every block: the key sent half in one block
// and half in another (in turn, or interleaved) is redacted in the
// answer's Text and Reasoning, though no block holds it whole.
func TestAssistantStream_keySplitAcrossBlocksIsRedactedInTheAnswer(t *testing.T) {
	key := testAssistantKey
	var b strings.Builder
	for _, p := range [][3]string{{"text-delta", "a", "your key: " + key[:14]}, {"reasoning-delta", "r", "it is " + key[:10]},
		{"text-delta", "b", ""}, {"text-end", "a", ""}, {"reasoning-end", "r", ""}, {"reasoning-delta", "s", key[10:]},
		{"text-delta", "b", key[14:] + "."}, {"text-end", "b", ""}, {"reasoning-end", "s", ""}} {
		fmt.Fprintf(&b, "data: {\"type\":%q,\"id\":%q,\"delta\":%q}\n\n", p[0], p[1], p[2])
	}
	b.WriteString("data: {\"type\":\"finish\"}\n\n")
	s, _ := streamOf(t, AssistantV2, strings.NewReader(b.String()))
	a, err := s.Collect()
	if err != nil || a.Text != "your key: "+Redacted+"." || a.Reasoning != "it is "+Redacted {
		t.Errorf("%v: text %q, reasoning %q", err, a.Text, a.Reasoning)
	}
}
