package assistantstream

import (
	"encoding/json"
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
