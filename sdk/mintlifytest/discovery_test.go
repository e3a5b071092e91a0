package mintlifytest

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
)

const searchPath = "/discovery/v1/search/" + DemoDomain

// paths lists the paths of a search answer.
func paths(t *testing.T, data []byte) []string {
	t.Helper()
	var hits []SearchHit
	if err := json.Unmarshal(data, &hits); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	out := []string{}
	for _, h := range hits {
		out = append(out, h.Path)
	}
	return out
}

// Ranking: a query term in a title counts 2, in the text 1; ties by path.
// The same query always gives the same order.
func TestDiscoverySearch_rankingAndFilters(t *testing.T) {
	h := newHarness(t, Config{})
	for body, want := range map[string][]string{
		`{"query":"install the CLI"}`:                                     {"/installation", "/quickstart", "/fr/quickstart"},
		`{"query":"install the CLI","pageSize":1}`:                        {"/installation"},
		`{"query":"changelog"}`:                                           {"/changelog/v1", "/changelog/v2"},
		`{"query":"changelog","filter":{"version":"v2"}}`:                 {"/changelog/v2"},
		`{"query":"npm","filter":{"language":"fr"}}`:                      {"/fr/quickstart"},
		`{"query":"deploy","filter":{"tag":"deploy"}}`:                    {"/deploy/deployments", "/deploy/preview-deployments"},
		`{"query":"rotate key"}`:                                          {"/api/keys", "/api/search"},
		`{"query":"rotate key","filter":{"groups":["staff"]}}`:            {"/api/keys", "/internal/runbook", "/api/search"},
		`{"query":"preview deployments","scoreThreshold":0.9}`:            {"/deploy/preview-deployments"},
		`{"query":"install the CLI","scoreThreshold":0.67}`:               {"/installation"}, // a score at the threshold is kept
		`{"query":"the of and"}`:                                          {},
		`{"query":"How do I deploy?"}`:                                    {"/deploy/deployments", "/deploy/preview-deployments", "/quickstart"},
		`{"query":"zzz"}`:                                                 {},
		`{"query":"api","pageSize":50,"filter":{"groups":["outsiders"]}}`: {"/api/keys", "/api/search", "/analytics/overview", "/deploy/deployments"},
	} {
		for range 2 { // the same answer every time
			status, _, data := h.send("POST", searchPath, body, DemoAssistantKey)
			if status != 200 {
				t.Fatalf("%s: %d %s", body, status, data)
			}
			if diff := cmp.Diff(want, paths(t, data)); diff != "" {
				t.Errorf("%s (-want +got):\n%s", body, diff)
			}
		}
	}
	_, _, data := h.send("POST", searchPath, `{"query":"install the CLI","pageSize":1}`, DemoAssistantKey)
	var hits []SearchHit
	_ = json.Unmarshal(data, &hits)
	// Installation: "install" in its title (2) and text (1), "cli" in its
	// text (1): 4 of 6.
	want := []SearchHit{{Path: "/installation", Content: "The CLI needs Node.js 20 or later. Install it globally with npm or pnpm, then check the install with `mint --version`.",
		Metadata: map[string]any{"title": "Installation", "score": 0.67, "language": "en", "tag": "getting-started"}}}
	if diff := cmp.Diff(want, hits); diff != "" {
		t.Errorf("a result as sent (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, h.srv.SearchData(DemoDomain, SearchQuery{Query: "install the CLI", PageSize: 1})); diff != "" {
		t.Errorf("SearchData (-want +got):\n%s", diff)
	}
}

func TestDiscoverySearch_refusals(t *testing.T) {
	h := newHarness(t, Config{})
	h.srv.AddSite("other-docs", "other-org", DemoPages())
	for _, tt := range []struct {
		path, body, key string
		status          int
		message         string
	}{
		{searchPath, `{}`, DemoAssistantKey, 400, "query: Required"},
		{searchPath, `{"query":"x","pageSize":0}`, DemoAssistantKey, 400, "pageSize: must be an integer between 1 and 50"},
		{searchPath, `{"query":"x","pageSize":51}`, DemoAssistantKey, 400, "pageSize"},
		{searchPath, `{"query":"x","pageSize":2.5}`, DemoAssistantKey, 400, "pageSize"},
		{searchPath, `{"query":"x","scoreThreshold":1.5}`, DemoAssistantKey, 400, "scoreThreshold"},
		{searchPath, `{"query":7}`, DemoAssistantKey, 400, "query: expected string"},
		{searchPath, `[`, DemoAssistantKey, 400, "body must be a JSON object"},
		{"/discovery/v1/search/other-docs", `{"query":"x"}`, DemoAssistantKey, 404, "No search index available for domain other-docs"},
		{"/discovery/v1/search/nowhere", `{"query":"x"}`, DemoAssistantKey, 404, "No search index"},
		{searchPath, `{"query":"x"}`, DemoAPIKey, 401, "this API takes an assistant API key (mint_dsc_...), not an admin API key (mint_...)"},
		{searchPath, `{"query":"x"}`, DemoIndexKey, 401, "not a Mintlify Index API key"},
		{searchPath, `{"query":"x"}`, "", 401, "missing, invalid or expired API key"},
		{"/v2/agent/" + DemoProjectID + "/job", `{"prompt":"x"}`, DemoAssistantKey, 401, ""},
	} {
		status, _, data := h.send("POST", tt.path, tt.body, tt.key)
		var body map[string]any
		_ = json.Unmarshal(data, &body)
		msg, _ := body["message"].(string)
		if strings.HasPrefix(tt.path, "/v2/") { // the admin API's own error body
			msg, _ = body["error"].(string)
			tt.message = "Unauthorized"
			delete(body, "details")
		}
		if status != tt.status || !strings.Contains(msg, tt.message) || len(body) != 1 {
			t.Errorf("%s %s with %.9s: %d %s, want %d %q", tt.path, tt.body, tt.key, status, data, tt.status, tt.message)
		}
	}
}

func TestDiscoveryPage(t *testing.T) {
	h := newHarness(t, Config{})
	for _, tt := range []struct {
		body   string
		status int
		want   string
	}{
		{`{"path":"/quickstart"}`, 200, `"path":"/quickstart"`},
		{`{"path":"quickstart/"}`, 200, `"path":"/quickstart"`},
		{`{"path":"/internal/runbook"}`, 404, `{"message":"Page not found"}`},
		{`{"path":"/internal/runbook","groups":["staff"]}`, 200, "Staff only."},
		{`{"path":"/nope"}`, 404, `{"message":"Page not found"}`},
		{`{"groups":["staff"]}`, 400, "path: Required"},
	} {
		status, _, data := h.send("POST", "/discovery/v1/page/"+DemoDomain, tt.body, DemoAssistantKey)
		if status != tt.status || !strings.Contains(string(data), tt.want) {
			t.Errorf("%s: %d %s", tt.body, status, data)
		}
	}
	h.srv.PutPage(DemoDomain, DocPage{Path: "/release-notes", Title: "Release notes", Content: "# Release notes\n\nVersion 3 is out."})
	if _, _, data := h.send("POST", "/discovery/v1/page/"+DemoDomain, `{"path":"/release-notes"}`, DemoAssistantKey); !strings.Contains(string(data), "Version 3 is out.") {
		t.Errorf("a page just put: %s", data)
	}
	if _, _, data := h.send("POST", searchPath, `{"query":"release notes"}`, DemoAssistantKey); paths(t, data)[0] != "/release-notes" {
		t.Errorf("search after the put: %s", data)
	}
	h.srv.PutPage(DemoDomain, DocPage{Path: "release-notes", Title: "Release notes", Content: "# Release notes\n\nVersion 4 is out."})
	if n := len(h.srv.Pages(DemoDomain)); n != len(DemoPages())+1 {
		t.Errorf("%d pages after replacing one", n)
	}
	if !h.srv.RemovePage(DemoDomain, "/release-notes/") || h.srv.RemovePage(DemoDomain, "/release-notes") || h.srv.RemovePage("nowhere", "/x") {
		t.Error("RemovePage")
	}
	if status, _, _ := h.send("POST", "/discovery/v1/page/"+DemoDomain, `{"path":"/release-notes"}`, DemoAssistantKey); status != 404 {
		t.Errorf("a removed page: %d", status)
	}
}

// events reads a v2 stream's events (their data), and whether it ended
// with [DONE].
func events(t *testing.T, body io.Reader) ([]string, bool, error) {
	t.Helper()
	var out []string
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	done := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "" || strings.HasPrefix(line, ":"):
		case line == "data: [DONE]":
			done = true
		case strings.HasPrefix(line, "data: "):
			out = append(out, strings.TrimPrefix(line, "data: "))
		default:
			t.Fatalf("not an SSE line: %q", line)
		}
	}
	return out, done, sc.Err()
}

func (h *harness) ask(path, question, extra string) *http.Response {
	h.t.Helper()
	q, _ := json.Marshal(question)
	body := `{"fp":"anonymous","messages":[{"id":"m1","role":"user","content":` + string(q) + `,"parts":[{"type":"text","text":` + string(q) + `}]}]` + extra + `}`
	req, _ := http.NewRequest("POST", h.ts.URL+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+DemoAssistantKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	return resp
}

const (
	messagePath   = "/discovery/v2/assistant/" + DemoDomain + "/message"
	messagePathV1 = "/discovery/v1/assistant/" + DemoDomain + "/message"
)

func TestAssistant_v2StreamAsSent(t *testing.T) {
	h := newHarness(t, Config{})
	resp := h.ask(messagePath, "How do I install the CLI?", "")
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" || resp.Header.Get("X-Vercel-AI-UI-Message-Stream") != "v1" {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	got, done, err := events(t, resp.Body)
	if err != nil || !done {
		t.Fatalf("done %v, %v", done, err)
	}
	answers := h.srv.AssistantAnswers()
	if len(answers) != 1 {
		t.Fatalf("%d answers", len(answers))
	}
	a := answers[0]
	if diff := cmp.Diff(a.Parts, got); diff != "" || !a.Complete || a.Protocol != "v2" || a.Question != "How do I install the CLI?" {
		t.Errorf("parts as recorded (-recorded +sent):\n%s%+v", diff, a)
	}
	var types []string
	var text strings.Builder
	for _, p := range got {
		var part struct{ Type, Delta, ThreadID string }
		_ = json.Unmarshal([]byte(p), &part)
		types = append(types, part.Type)
		text.WriteString(part.Delta)
	}
	if types[0] != "start" || types[len(types)-1] != "finish" || !strings.Contains(strings.Join(types, " "), "tool-input-available tool-output-available text-start text-delta") ||
		!strings.Contains(strings.Join(types, " "), "text-end source-url") {
		t.Errorf("types %v", types)
	}
	if text.String() != a.Text || a.Text != "From the documentation:\n\n- **Installation**: The CLI needs Node.js 20 or later.\n- **Quickstart**: Install the Mintlify CLI with npm: `npm i -g mint`.\n- **Prise en main**: Installez la CLI Mintlify avec npm : `npm i -g mint`, puis lancez `mint dev`.\n" {
		t.Errorf("text %q, recorded %q", text.String(), a.Text)
	}
	if !strings.HasSuffix(got[len(got)-1], `"threadId":"`+a.ThreadID+`"}`) || a.ThreadID != "thread_000001" || a.MessageID != "msg_000001" ||
		a.Sources[0] != "https://demo-docs.mintlify.site/installation" {
		t.Errorf("%+v", a)
	}
}

func TestAssistant_v1StreamAsSent(t *testing.T) {
	h := newHarness(t, Config{})
	resp := h.ask(messagePathV1, "How do I deploy?", `,"retrievalPageSize":1`)
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	a := h.srv.AssistantAnswers()[0]
	if resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" || resp.Header.Get("X-Vercel-AI-Data-Stream") != "v1" || !cmp.Equal(a.Parts, lines) {
		t.Fatalf("%v\n%q\n%q", resp.Header, lines, a.Parts)
	}
	var codes []string
	for _, l := range lines {
		codes = append(codes, l[:1])
	}
	if strings.Join(codes, "") != "f9a"+strings.Repeat("0", strings.Count(string(data), "\n0:"))+"hed" || len(a.Sources) != 1 {
		t.Errorf("codes %v, sources %v", codes, a.Sources)
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, `d:{"finishReason":"stop"`) || !strings.HasSuffix(last, `"threadId":"thread_000001"}`) {
		t.Errorf("finish %s", last)
	}
	// The source's id, and the usage a model would report: about a token
	// for 4 characters of the question and of the answer.
	usage := fmt.Sprintf(`"usage":{"completionTokens":%d,"promptTokens":%d}`, len(a.Text)/4+1, len("How do I deploy?")/4+1)
	if !strings.Contains(string(data), `h:{"sourceType":"url","id":"src_1",`) || strings.Count(string(data), usage) != 2 {
		t.Errorf("no source src_1, or not twice %s:\n%s", usage, data)
	}
}

func TestAssistant_threadsAndFilters(t *testing.T) {
	h := newHarness(t, Config{})
	h.srv.AddSite("other-docs", DemoOrg, DemoPages())
	for _, tt := range []struct {
		path, extra, want string
	}{
		{messagePath, "", "thread_000001"},
		{messagePath, `,"threadId":"thread_000001"`, "thread_000001"},
		{messagePath, `,"threadId":"made-up"`, "thread_000002"},
		{"/discovery/v2/assistant/other-docs/message", `,"threadId":"thread_000001"`, "thread_000003"}, // another site's thread is not continued
	} {
		resp := h.ask(tt.path, "How do I deploy?", tt.extra)
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		answers := h.srv.AssistantAnswers()
		if got := answers[len(answers)-1].ThreadID; got != tt.want {
			t.Errorf("%s %s: thread %s, want %s", tt.path, tt.extra, got, tt.want)
		}
	}
	resp := h.ask(messagePath, "rotate a key", `,"filter":{"groups":["staff"]},"retrievalPageSize":2`)
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	answers := h.srv.AssistantAnswers()
	if a := answers[len(answers)-1]; len(a.Sources) != 2 || a.Sources[1] != "https://demo-docs.mintlify.site/internal/runbook" ||
		!strings.Contains(strings.Join(a.Parts, "\n"), `"sourceId":"src_1"`) || !strings.Contains(strings.Join(a.Parts, "\n"), `"sourceId":"src_2"`) {
		t.Errorf("a staff answer: %+v", a)
	}
	resp = h.ask(messagePath, "zzz", "")
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	answers = h.srv.AssistantAnswers()
	if a := answers[len(answers)-1]; a.Text != "I could not find that in the documentation." || len(a.Sources) != 0 || !a.Complete {
		t.Errorf("no match: %+v", a)
	}
}

func TestAssistant_refusals(t *testing.T) {
	h := newHarness(t, Config{})
	for _, tt := range []struct {
		body    string
		status  int
		message string
	}{
		{`{"messages":[]}`, 400, "fp: Required"},
		{`{"fp":"a"}`, 400, "messages: Required"},
		{`{"fp":"a","messages":[{"role":"user"}]}`, 400, "messages[0]: id and role are required"},
		{`{"fp":"a","messages":[{"id":"1","role":"bot"}]}`, 400, `messages[0].role: bot is not one of system, assistant, user, data`},
		{`{"fp":"a","messages":[],"currentPath":"` + strings.Repeat("x", 201) + `"}`, 400, "currentPath"},
	} {
		status, _, data := h.send("POST", messagePath, tt.body, DemoAssistantKey)
		if status != tt.status || !strings.Contains(string(data), tt.message) {
			t.Errorf("%s: %d %s", tt.body, status, data)
		}
	}
	if status, _, data := h.send("POST", "/discovery/v2/assistant/nowhere/message", `{"fp":"a","messages":[]}`, DemoAssistantKey); status != 404 || !strings.Contains(string(data), `"message"`) {
		t.Errorf("unknown site: %d %s", status, data)
	}
	if n := len(h.srv.AssistantAnswers()); n != 0 {
		t.Errorf("%d answers from refused messages", n)
	}
}

// The question's markers script the stream: cut, error, size, keep-alive.
func TestAssistant_scripts(t *testing.T) {
	h := newHarness(t, Config{})
	resp := h.ask(messagePath, "[fake:cut=4] How do I deploy?", "")
	got, done, err := events(t, resp.Body)
	resp.Body.Close()
	a := h.srv.AssistantAnswers()[0]
	if len(got) != 4 || done || err == nil || a.Complete || len(a.Parts) != 4 || a.Question != "[fake:cut=4] How do I deploy?" {
		t.Errorf("cut: %d parts, done %v, err %v, %+v", len(got), done, err, a)
	}
	resp = h.ask(messagePath, "[fake:error] How do I deploy?", "")
	got, done, err = events(t, resp.Body)
	resp.Body.Close()
	if last := got[len(got)-1]; last != `{"type":"error","errorText":"The assistant is unavailable: try again later."}` || done || err != nil || h.srv.AssistantAnswers()[1].Complete {
		t.Errorf("error: last %s, done %v, %v", last, done, err)
	}
	// The error comes half-way through the text, in both protocols.
	for path, kind := range map[string]struct{ delta, err string }{
		messagePath:   {`{"type":"text-delta"`, `{"type":"error"`},
		messagePathV1: {"0:", "3:"},
	} {
		deltas := func(question string) (n int, last string) {
			resp := h.ask(path, question, "")
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			answers := h.srv.AssistantAnswers()
			parts := answers[len(answers)-1].Parts
			for _, p := range parts {
				if strings.HasPrefix(strings.TrimPrefix(p, "data: "), kind.delta) {
					n++
				}
			}
			return n, parts[len(parts)-1]
		}
		full, _ := deltas("How do I deploy?")
		half, last := deltas("[fake:error] How do I deploy?")
		if full < 4 || half != full/2 || !strings.HasPrefix(last, kind.err) {
			t.Errorf("%s: %d deltas before the error (of %d), last part %s", path, half, full, last)
		}
	}
	resp = h.ask(messagePath, "[fake:size=1MB] [fake:keepalive] How do I deploy?", "")
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	answers := h.srv.AssistantAnswers()
	a = answers[len(answers)-1]
	if len(a.Text) != 1<<20 || strings.Count(string(data), ": keep-alive\n\n") != len(a.Parts)+0 || !strings.HasSuffix(string(data), "data: [DONE]\n\n") {
		t.Errorf("size: %d bytes of text, %d keep-alives for %d parts", len(a.Text), strings.Count(string(data), ": keep-alive"), len(a.Parts))
	}
	for spec, want := range map[string]answerScript{
		"[fake:cut=3]":                 {cutAfter: 3},
		"[fake:slow=250ms] text":       {slow: 250 * time.Millisecond},
		"[fake:size=2KB][fake:error]":  {size: 2048, fail: true},
		"[fake:size=12B] [fake:other]": {size: 12},
		"[fake:size=3MB]":              {size: 3 << 20},
	} {
		if got, _ := parseAnswerScript(spec); got != want {
			t.Errorf("%s: %+v, want %+v", spec, got, want)
		}
	}
}

// A slow stream (a FaultSlowStream, or [fake:slow=...]) sends its parts
// that far apart, and a reset cuts the answer in half; in a synctest
// bubble the waits take no wall time.
func TestAssistant_slowStreamAndReset(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := New(Config{Faults: []Fault{
			{Route: RouteAssistantStream, Kind: FaultSlowStream, Latency: 300 * time.Millisecond, Requests: []int{1}},
			{Route: RouteAssistantStream, Kind: FaultReset, Requests: []int{2}},
		}})
		post := func() *http.Response {
			req, _ := http.NewRequest("POST", "https://mintlify.test"+messagePath, strings.NewReader(`{"fp":"a","messages":[{"id":"1","role":"user","parts":[{"type":"text","text":"deploy"}]}]}`))
			req.Header.Set("Authorization", "Bearer "+DemoAssistantKey)
			resp, err := f.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			return resp
		}
		resp := post()
		r := bufio.NewReader(resp.Body)
		start := time.Now()
		for i := 1; i <= 3; i++ {
			line, err := r.ReadString('\n')
			if err != nil || !strings.HasPrefix(line, "data: ") {
				t.Fatalf("%q %v", line, err)
			}
			if got := time.Since(start); got != time.Duration(i)*300*time.Millisecond {
				t.Errorf("part %d after %s", i, got)
			}
			_, _ = r.ReadString('\n')
		}
		resp.Body.Close()
		resp = post()
		data, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		a := f.AssistantAnswers()[1]
		if !errors.Is(err, io.ErrUnexpectedEOF) || a.Complete || strings.Count(string(data), "data: ") != len(a.Parts) {
			t.Errorf("reset: %v, %d parts sent, %+v", err, strings.Count(string(data), "data: "), a)
		}
	})
}

// Search, page content and assistant messages share the organization's
// hourly budget.
func TestDiscovery_sharedHourlyBudget(t *testing.T) {
	h := newHarness(t, Config{Limits: map[string]int{budgetDiscovery: 3}})
	h.send("POST", searchPath, `{"query":"x"}`, DemoAssistantKey)
	h.send("POST", "/discovery/v1/page/"+DemoDomain, `{"path":"/quickstart"}`, DemoAssistantKey)
	resp := h.ask(messagePath, "deploy", "")
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	status, header, data := h.send("POST", searchPath, `{"query":"x"}`, DemoAssistantKey)
	if status != 429 || header.Get("Retry-After") != "3600" || !strings.Contains(string(data), `{"message":"Too many requests: rate limit of 3 requests per hour exceeded"}`) {
		t.Errorf("%d %v %s", status, header, data)
	}
	h.clk.Advance(time.Hour)
	if status, _, _ := h.send("POST", searchPath, `{"query":"x"}`, DemoAssistantKey); status != 200 {
		t.Errorf("an hour later: %d", status)
	}
}

// The rules of a term's match, at their edges: a plural's singular counts
// from 4 letters, an English ending from a 4-letter term.
func TestMatches_edges(t *testing.T) {
	for _, tt := range []struct {
		term  string
		words []string
		want  bool
	}{
		{"nodes", []string{"node"}, true}, // a singular of 4 letters
		{"keys", []string{"key"}, false},  // of 3: too short to trust
		{"edit", []string{"editing"}, true},
		{"add", []string{"adding"}, false},
		{"key", []string{"keys"}, true},
		{"box", []string{"boxes"}, true},
		{"deploy", []string{"deployments"}, true},
		{"install", []string{"installez"}, false},
	} {
		if got := matches(tt.term, tt.words); got != tt.want {
			t.Errorf("matches(%q, %q) = %v, want %v", tt.term, tt.words, got, tt.want)
		}
	}
}

// A search result shows the first of the paragraphs that match best.
func TestSnippet_firstOfTheBest(t *testing.T) {
	p := &DocPage{Content: "# Deploy\n\nNothing here.\n\nDeploy from main.\n\nDeploy from a branch.\n\nDeploy a preview of a branch."}
	if got := snippet(p, "deploy"); got != "Deploy from main." {
		t.Errorf("deploy: %q", got)
	}
	if got := snippet(p, "deploy branch"); got != "Deploy from a branch." {
		t.Errorf("deploy branch: %q", got)
	}
}

// An answer streams three words a delta, or 4 KiB pieces when padded to a
// size; nothing is lost or doubled, and no delta is empty.
func TestSplitDeltas(t *testing.T) {
	if got, want := splitDeltas("one two three four five six", 0), []string{"one two three ", "four five six"}; !cmp.Equal(got, want) {
		t.Errorf("words: %q", got)
	}
	text := strings.Repeat("x", 10000)
	got := splitDeltas(text, len(text))
	if len(got) != 3 || len(got[0]) != 4096 || len(got[1]) != 4096 || strings.Join(got, "") != text {
		t.Errorf("padded: %d deltas", len(got))
	}
}

// A message's text is its text parts (not its reasoning or files), else
// its content: a v1 client sends content alone.
func TestMessage_text(t *testing.T) {
	for body, want := range map[string]string{
		`{"content":"old","parts":[{"type":"text","text":"How do I "},{"type":"reasoning","text":"hmm"},{"type":"text","text":"deploy?"}]}`: "How do I deploy?",
		`{"content":"How do I deploy?"}`:                                      "How do I deploy?",
		`{"content":"How do I deploy?","parts":[{"type":"file","text":"x"}]}`: "How do I deploy?",
	} {
		var m message
		if err := json.Unmarshal([]byte(body), &m); err != nil {
			t.Fatal(err)
		}
		if got := m.text(); got != want {
			t.Errorf("%s: %q, want %q", body, got, want)
		}
	}
}
