package assistantstream

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// An answer pools its text, keeps its sources, errors and the parts worth
// keeping, names each part's problems by its type, and leaves out the
// deltas and the markers.
func TestAnswer_gathers(t *testing.T) {
	var a Answer
	src := Source{ID: "s", URL: "https://a"}
	tool := Part{Type: ToolOutput, Tool: &Tool{CallID: "c", Output: json.RawMessage(`1`)}}
	for _, p := range []Part{
		{Type: Start, MessageID: "m"}, {Type: TextStart, ID: "t"}, {Type: TextDelta, Text: "Hel"}, {Type: TextDelta, Text: "lo"},
		{Type: TextEnd}, {Type: ReasoningStart}, {Type: ReasoningDelta, Text: "hm"}, {Type: ReasoningEnd},
		{Type: StartStep}, {Type: ToolInputDelta, Text: "{}", Tool: &Tool{CallID: "c"}}, tool,
		{Type: SourceURL, Source: &src}, {Type: SourceDocument, Source: &src, Problems: []string{"url: missing"}},
		{Type: Error, ErrorText: "bad"}, {Type: "data-x", Data: json.RawMessage(`{}`)}, {Type: FinishStep},
		{Type: Finish, FinishReason: "stop"},
	} {
		if !a.Add(p, 1<<20) {
			t.Fatalf("%+v refused", p)
		}
	}
	want := Answer{Sources: []Source{src, src}, Parts: []Part{tool, {Type: Error, ErrorText: "bad"}, {Type: "data-x", Data: json.RawMessage(`{}`)}},
		Errors: []string{"bad"}, Problems: []string{"source-document: url: missing"}, FinishReason: "stop"}
	if a.Text.String() != "Hello" || a.Reasoning.String() != "hm" {
		t.Errorf("text %q, reasoning %q", a.Text.String(), a.Reasoning.String())
	}
	if diff := cmp.Diff(want, a, cmp.AllowUnexported(Answer{}), cmpopts.IgnoreFields(Answer{}, "Text", "Reasoning", "size")); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
}

// Every byte of a part counts against the cap: text, data, raw JSON, an
// error's text and a tool's input and output; the part that passes it is
// not gathered.
func TestAnswer_capOfBytes(t *testing.T) {
	for name, p := range map[string]Part{
		"text":   {Type: TextDelta, Text: "12345"},
		"data":   {Type: "data-x", Data: json.RawMessage(`"123"`)},
		"raw":    {Type: "new", Raw: json.RawMessage(`"123"`)},
		"error":  {Type: Error, ErrorText: "12345"},
		"input":  {Type: ToolInput, Tool: &Tool{Input: json.RawMessage(`"123"`)}},
		"output": {Type: ToolOutput, Tool: &Tool{Output: json.RawMessage(`"123"`)}},
	} {
		t.Run(name, func(t *testing.T) {
			var a Answer
			for range 2 {
				if !a.Add(p, 10) {
					t.Fatal("10 bytes refused under a cap of 10")
				}
			}
			if a.Add(p, 10) {
				t.Error("15 bytes gathered under a cap of 10")
			}
			if strings.Count(a.Text.String(), "12345") > 2 || len(a.Parts) > 2 || len(a.Errors) > 2 {
				t.Errorf("the refused part was gathered: %+v", a)
			}
		})
	}
}

// Collect gathers the whole answer; error parts make a ReportedError
// failure naming the last, with the answer gathered.
func TestCollect_gathersAndReportsErrorParts(t *testing.T) {
	s, closes := newStream(false, strings.NewReader(sse(`{"type":"text-delta","id":"t","delta":"Hel"}`, `{"type":"text-delta","id":"t","delta":"lo"}`,
		`{"type":"finish","finishReason":"stop"}`)))
	a, err := s.Collect(1 << 10)
	if err != nil || a.Text.String() != "Hello" || a.FinishReason != "stop" || *closes != 1 {
		t.Fatalf("%+v, %v, %d closes", a, err, *closes)
	}
	for n, detail := range map[int]string{1: "the stream carried an error part", 3: "the stream carried 3 error parts"} {
		parts := []string{}
		for i := range n {
			parts = append(parts, fmt.Sprintf(`{"type":"error","errorText":"bad %d"}`, i+1))
		}
		s, _ := newStream(false, strings.NewReader(sse(append(parts, `{"type":"finish"}`)...)))
		a, err := s.Collect(1 << 10)
		f := failure(t, err)
		if f.Problem != ReportedError || f.Detail != detail || f.ServerError != fmt.Sprintf("bad %d", n) || f.Parts != n+1 || len(a.Errors) != n || f.Limit != NoLimit {
			t.Errorf("%d error parts: %+v, %+v", n, f, a)
		}
	}
}

// Past its cap Collect stops with a TooLarge failure, which ends the
// stream; what it gathered is returned.
func TestCollect_capOfBytes(t *testing.T) {
	s := New(Config{Body: strings.NewReader(sse(`{"type":"text-delta","id":"t","delta":"12345"}`, `{"type":"text-delta","id":"t","delta":"67890"}`, `{"type":"finish"}`)),
		MaxLine: 1024, MaxParts: 10})
	a, err := s.Collect(8)
	var got *Failure
	if !errors.As(err, &got) || a.Text.String() != "12345" || got.Problem != TooLarge || got.Limit != BytesLimit || got.Max != 8 || got.Parts != 2 ||
		got.Detail != "the answer grew past 8 bytes (WithMaxResponseBytes); read it with Next or Parts instead" {
		t.Errorf("%+v, %v; failure %+v", a, err, got)
	}
	if _, again := s.Next(); again != err { //nolint:errorlint // the stream's final error
		t.Errorf("the stream did not end with it: %v", again)
	}
	// Exactly at the cap is within it.
	s, _ = newStream(false, strings.NewReader(sse(`{"type":"text-delta","id":"t","delta":"12345678"}`, `{"type":"finish"}`)))
	if a, err := s.Collect(8); err != nil || a.Text.String() != "12345678" {
		t.Errorf("at the cap: %+v, %v", a, err)
	}
}

// A read failure ends Collect with Next's error and what was gathered.
func TestCollect_readFailure(t *testing.T) {
	s, _ := newStream(false, strings.NewReader(sse(`{"type":"text-delta","id":"t","delta":"part"}`)))
	a, err := s.Collect(1 << 10)
	if failure(t, err).Problem != Cut || a.Text.String() != "part" {
		t.Errorf("%+v, %v", a, err)
	}
}

// Collect pools the text of every block: a secret split across blocks
// (in turn, interleaved, across three, in v1's text after another part)
// is whole only in the pool, and is redacted there, in Text and in
// Reasoning alike. A secret split between the text and the reasoning is
// whole in neither.
func TestCollect_aSecretSplitAcrossBlocksIsRedactedInThePool(t *testing.T) {
	delta := func(kind, id, text string) string {
		return fmt.Sprintf(`{"type":"%s-delta","id":"%s","delta":"%s"}`, kind, id, text)
	}
	end := func(kind, id string) string { return fmt.Sprintf(`{"type":"%s-end","id":"%s"}`, kind, id) }
	finish := `{"type":"finish"}`
	a, b, c := secret[:7], secret[7:12], secret[12:]
	for name, body := range map[string]string{
		"in turn":       sse(delta("text", "a", "your key: "+a+b), end("text", "a"), delta("text", "b", c+" ok"), end("text", "b"), finish),
		"interleaved":   sse(delta("text", "a", "your key: "+a+b), delta("text", "b", ""), end("text", "a"), delta("text", "b", c+" ok"), end("text", "b"), finish),
		"three blocks":  sse(delta("text", "a", "your key: "+a), end("text", "a"), delta("text", "b", b), end("text", "b"), delta("text", "c", c+" ok"), end("text", "c"), finish),
		"reasoning":     sse(delta("reasoning", "r", "your key: "+a), end("reasoning", "r"), delta("reasoning", "s", b+c+" ok"), end("reasoning", "s"), finish),
		"v1 text parts": strings.Join([]string{`0:"your key: ` + a + b + `"`, `2:[1]`, `0:"` + c + ` ok"`, `d:{}`}, "\n") + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := newStream(name == "v1 text parts", strings.NewReader(body))
			got, err := s.Collect(1 << 10)
			pooled := got.Text.String()
			if name == "reasoning" {
				pooled = got.Reasoning.String()
			}
			if err != nil || pooled != "your key: [REDACTED] ok" {
				t.Errorf("%q, %v", pooled, err)
			}
		})
	}
	t.Run("text and reasoning", func(t *testing.T) {
		s, _ := newStream(false, strings.NewReader(sse(delta("text", "a", "your key: "+a+b), end("text", "a"),
			delta("reasoning", "r", c+" ok"), end("reasoning", "r"), finish)))
		got, err := s.Collect(1 << 10)
		if err != nil || got.Text.String() != "your key: "+a+b || got.Reasoning.String() != c+" ok" {
			t.Errorf("text %q, reasoning %q, %v", got.Text.String(), got.Reasoning.String(), err)
		}
	})
	t.Run("a failed stream", func(t *testing.T) {
		s, _ := newStream(false, strings.NewReader(sse(delta("text", "a", "your key: "+a+b), end("text", "a"), delta("text", "b", c+" ok"))))
		got, err := s.Collect(1 << 10)
		if failure(t, err).Problem != Cut || strings.Contains(got.Text.String(), secret) {
			t.Errorf("%q, %v", got.Text.String(), err)
		}
	})
}
