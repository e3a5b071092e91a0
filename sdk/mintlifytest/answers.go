package mintlifytest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// The assistant's answers: composed from the site's pages, deterministic,
// and streamed in the AI SDK v5 UI message stream (v2) or the AI SDK v4
// data stream (v1).

// AssistantAnswer is an answer the fake streamed, as it was sent.
type AssistantAnswer struct {
	Domain string
	// Protocol is "v2" or "v1", the endpoint asked.
	Protocol string
	// Question is the last user message's text.
	Question  string
	ThreadID  string
	MessageID string
	// Text is the whole answer text, as the text parts spell it.
	Text string
	// Sources are the URLs of the pages the answer cites.
	Sources []string
	// Parts are the stream's parts as written: for v2 each event's data
	// (JSON), for v1 each line (CODE:JSON), without line endings, and
	// without the parts a script or fault cut off.
	Parts []string
	// Complete says the finish part was sent: false when the stream was
	// cut ([fake:cut=N]) or ended with an error ([fake:error]).
	Complete bool
	// Time is when the message arrived, on the fake's clock.
	Time time.Time
}

// answerScript is what a question's [fake:...] markers ask of its answer.
type answerScript struct {
	cutAfter  int           // parts sent before the connection breaks (0: none)
	slow      time.Duration // pause before each part, in wall time
	fail      bool          // an error part instead of the finish
	size      int           // pad the text to this many bytes (0: as composed)
	keepAlive bool          // a comment between parts (v2)
	reset     bool          // a FaultReset: half the parts, then the connection breaks
}

var answerMarker = regexp.MustCompile(`\[fake:([a-z-]+)(?:=([^\]]*))?\]`)

// parseAnswerScript reads the markers of a question: [fake:cut=N],
// [fake:slow=50ms], [fake:error], [fake:size=10MB] (B, KB, MB),
// [fake:keepalive]. Unknown markers are ignored; the markers are left out
// of the question the answer is composed from.
func parseAnswerScript(question string) (answerScript, string) {
	var sc answerScript
	for _, m := range answerMarker.FindAllStringSubmatch(question, -1) {
		switch m[1] {
		case "cut":
			sc.cutAfter, _ = strconv.Atoi(m[2])
		case "slow":
			sc.slow, _ = time.ParseDuration(m[2])
		case "error":
			sc.fail = true
		case "size":
			sc.size = parseSize(m[2])
		case "keepalive":
			sc.keepAlive = true
		}
	}
	return sc, strings.TrimSpace(answerMarker.ReplaceAllString(question, ""))
}

func parseSize(s string) int {
	mult := 1
	for _, u := range []struct {
		suffix string
		mult   int
	}{{"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = n, u.mult
			break
		}
	}
	n, _ := strconv.Atoi(s)
	return n * mult
}

// composed is an answer before it is encoded.
type composed struct {
	query   string
	sources []*DocPage
	text    string
	deltas  []string
}

// compose answers question from the pages the filter admits: the best
// retrieval pages, a sentence from each of the first three.
func compose(st *site, question string, retrieval int, f pageFilter, size int) composed {
	c := composed{query: question}
	for i, r := range rank(st.pages, question, f) {
		if i == retrieval {
			break
		}
		c.sources = append(c.sources, r.page)
	}
	var b strings.Builder
	if len(c.sources) == 0 {
		b.WriteString("I could not find that in the documentation.")
	} else {
		b.WriteString("From the documentation:\n\n")
		for i, p := range c.sources {
			if i == 3 {
				break
			}
			fmt.Fprintf(&b, "- **%s**: %s\n", p.Title, firstSentence(snippet(p, question)))
		}
	}
	for b.Len() < size {
		b.WriteString(strings.Repeat("More detail follows. ", 64)[:min(21*64, size-b.Len())])
	}
	c.text = b.String()
	c.deltas = splitDeltas(c.text, size)
	return c
}

// splitDeltas cuts text into the deltas a model would stream: three words
// each, or 4 KiB pieces for a padded answer.
func splitDeltas(text string, size int) []string {
	var out []string
	if size > 0 {
		for len(text) > 0 {
			n := min(4096, len(text))
			out = append(out, text[:n])
			text = text[n:]
		}
		return out
	}
	words := strings.SplitAfter(text, " ")
	for i := 0; i < len(words); i += 3 {
		out = append(out, strings.Join(words[i:min(i+3, len(words))], ""))
	}
	return out
}

// sourceURL is a page's address on its site.
func sourceURL(domain string, p *DocPage) string {
	return "https://" + domain + ".mintlify.site/" + strings.TrimPrefix(p.Path, "/")
}

type toolResult struct {
	Path  string `json:"path"`
	Title string `json:"title"`
}

// partsV2 encodes an answer as the UI message stream's parts (each
// event's JSON), finish included; the [DONE] marker is the writer's.
func (c composed) partsV2(domain, messageID, threadID string, fail bool) []string {
	var parts []string
	add := func(v any) {
		b, _ := json.Marshal(v)
		parts = append(parts, string(b))
	}
	type obj = map[string]any
	add(struct {
		Type      string `json:"type"`
		MessageID string `json:"messageId"`
	}{"start", messageID})
	add(obj{"type": "start-step"})
	add(struct {
		Type       string `json:"type"`
		ToolCallID string `json:"toolCallId"`
		ToolName   string `json:"toolName"`
	}{"tool-input-start", "call_1", "search"})
	add(struct {
		Type       string `json:"type"`
		ToolCallID string `json:"toolCallId"`
		ToolName   string `json:"toolName"`
		Input      any    `json:"input"`
	}{"tool-input-available", "call_1", "search", obj{"query": c.query}})
	add(struct {
		Type       string       `json:"type"`
		ToolCallID string       `json:"toolCallId"`
		Output     []toolResult `json:"output"`
	}{"tool-output-available", "call_1", c.results()})
	add(struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}{"text-start", "text_1"})
	for i, d := range c.deltas {
		if fail && i == len(c.deltas)/2 {
			add(struct {
				Type      string `json:"type"`
				ErrorText string `json:"errorText"`
			}{"error", "The assistant is unavailable: try again later."})
			return parts
		}
		add(struct {
			Type  string `json:"type"`
			ID    string `json:"id"`
			Delta string `json:"delta"`
		}{"text-delta", "text_1", d})
	}
	add(struct {
		Type string `json:"type"`
		ID   string `json:"id"`
	}{"text-end", "text_1"})
	for i, p := range c.sources {
		add(struct {
			Type     string `json:"type"`
			SourceID string `json:"sourceId"`
			URL      string `json:"url"`
			Title    string `json:"title"`
		}{"source-url", "src_" + strconv.Itoa(i+1), sourceURL(domain, p), p.Title})
	}
	add(obj{"type": "finish-step"})
	add(struct {
		Type         string `json:"type"`
		FinishReason string `json:"finishReason"`
		ThreadID     string `json:"threadId"`
	}{"finish", "stop", threadID})
	return parts
}

// partsV1 encodes an answer as the v4 data stream's lines (CODE:JSON).
func (c composed) partsV1(domain, messageID, threadID string, fail bool) []string {
	var parts []string
	add := func(code string, v any) {
		b, _ := json.Marshal(v)
		parts = append(parts, code+":"+string(b))
	}
	add("f", struct {
		MessageID string `json:"messageId"`
	}{messageID})
	add("9", struct {
		ToolCallID string         `json:"toolCallId"`
		ToolName   string         `json:"toolName"`
		Args       map[string]any `json:"args"`
	}{"call_1", "search", map[string]any{"query": c.query}})
	add("a", struct {
		ToolCallID string       `json:"toolCallId"`
		Result     []toolResult `json:"result"`
	}{"call_1", c.results()})
	for i, d := range c.deltas {
		if fail && i == len(c.deltas)/2 {
			add("3", "The assistant is unavailable: try again later.")
			return parts
		}
		add("0", d)
	}
	for i, p := range c.sources {
		add("h", struct {
			SourceType string `json:"sourceType"`
			ID         string `json:"id"`
			URL        string `json:"url"`
			Title      string `json:"title"`
		}{"url", "src_" + strconv.Itoa(i+1), sourceURL(domain, p), p.Title})
	}
	usage := map[string]int{"promptTokens": len(c.query)/4 + 1, "completionTokens": len(c.text)/4 + 1}
	add("e", struct {
		FinishReason string         `json:"finishReason"`
		Usage        map[string]int `json:"usage"`
		IsContinued  bool           `json:"isContinued"`
	}{"stop", usage, false})
	add("d", struct {
		FinishReason string         `json:"finishReason"`
		Usage        map[string]int `json:"usage"`
		ThreadID     string         `json:"threadId"`
	}{"stop", usage, threadID})
	return parts
}

func (c composed) results() []toolResult {
	out := make([]toolResult, len(c.sources))
	for i, p := range c.sources {
		out[i] = toolResult{Path: p.Path, Title: p.Title}
	}
	return out
}
