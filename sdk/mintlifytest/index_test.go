package mintlifytest

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func (h *harness) index(path, body string) (int, map[string]any) {
	h.t.Helper()
	status, _, out := h.call("POST", "/api/universal-search/v1/"+path, body, DemoIndexKey)
	return status, out
}

func ids(results any) []string {
	var out []string
	for _, r := range results.([]any) {
		out = append(out, r.(map[string]any)["id"].(string))
	}
	return out
}

// unlimitedIndex turns the Index's per-second budget off, for tests that
// send more than 10 requests.
var unlimitedIndex = Config{Limits: map[string]int{budgetIndexSecond: -1}}

func TestIndexSearch(t *testing.T) {
	h := newHarness(t, unlimitedIndex)
	status, out := h.index("search", `{"query":"search API","numResults":3}`)
	if status != 200 || !strings.HasPrefix(out["requestId"].(string), "idx_req_") {
		t.Fatalf("%d %v", status, out)
	}
	// The demo site's public pages and the web pages, ranked as the
	// discovery search ranks a site.
	if diff := cmp.Diff([]string{"demo-docs:/api/search", "https://forum.example.org/t/search-api-tips", "demo-docs:/api/keys"}, ids(out["results"])); diff != "" {
		t.Error(diff)
	}
	first := out["results"].([]any)[0].(map[string]any)
	want := map[string]any{"id": "demo-docs:/api/search", "url": "https://demo-docs.mintlify.site/api/search", "title": "Search API", "text": "",
		"truncated": false, "totalCharacters": float64(len(DemoPages()[5].Content)), "score": 1.0, "source": "mintlify", "siteName": "demo-docs",
		"breadcrumbs": []any{"Api"}, "publishedDate": nil}
	if diff := cmp.Diff(want, first); diff != "" {
		t.Errorf("a result (-want +got):\n%s", diff)
	}
	for body, check := range map[string]func(map[string]any) string{
		`{"query":"search API","numResults":1,"text":true}`: func(r map[string]any) string {
			if r["text"] != DemoPages()[5].Content || r["truncated"] != false {
				return "text: true gives it all"
			}
			return ""
		},
		`{"query":"search API","numResults":1,"text":{"maxCharacters":8}}`: func(r map[string]any) string {
			if r["text"] != "# Search" || r["truncated"] != true {
				return "maxCharacters cuts"
			}
			return ""
		},
		`{"query":"search API","numResults":1,"includeDomains":["example.org"]}`: func(r map[string]any) string {
			if r["source"] != "web" || r["publishedDate"] != "2026-05-02T09:30:00Z" {
				return "includeDomains keeps the forum, a web page with its date"
			}
			return ""
		},
		`{"query":"docs as code","numResults":1,"excludeDomains":["demo-docs.mintlify.site"]}`: func(r map[string]any) string {
			if r["publishedDate"] != "2026-03-14T00:00:00.000Z" {
				return "a search normalizes a date to a full timestamp"
			}
			return ""
		},
	} {
		status, out := h.index("search", body)
		if status != 200 || len(out["results"].([]any)) == 0 {
			t.Errorf("%s: %d %v", body, status, out)
			continue
		}
		if msg := check(out["results"].([]any)[0].(map[string]any)); msg != "" {
			t.Errorf("%s: %s: %v", body, msg, out["results"])
		}
	}
	for _, body := range []string{`{"query":"x"}`, `{"numResults":1}`, `{"query":"x","numResults":21}`, `{"query":"x","numResults":0}`,
		`{"query":"x","numResults":1,"text":"yes"}`, `{"query":"x","numResults":1,"text":{}}`, `{"query":"x","numResults":1,"includeDomains":[]}`,
		`{"query":"x","numResults":1,"color":"red"}`} {
		if status, out := h.index("search", body); status != 400 || !strings.HasPrefix(out["error"].(string), "Invalid request body") || len(out) != 1 {
			t.Errorf("%s: %d %v", body, status, out)
		}
	}
}

func TestIndexContext_withinTheBudget(t *testing.T) {
	h := newHarness(t, unlimitedIndex)
	for _, budget := range []int{1, 60, 150, 3000} {
		for _, format := range []string{"txt", "json"} {
			status, out := h.index("context", `{"query":"deploy preview","format":"`+format+`","tokenBudget":`+jsonNumber(budget)+`}`)
			resp := out["response"].(string)
			if status != 200 || out["outputTokens"].(float64) > float64(budget) || out["outputTokens"].(float64) != float64(tokens(resp)) {
				t.Errorf("%s, %d tokens: %d %v", format, budget, status, out)
			}
			switch {
			case budget == 1 && (resp != "" || out["resultsCount"].(float64) != 0):
				t.Errorf("nothing fits 1 token: %v", out)
			case budget == 3000 && format == "txt" && strings.Count(resp, "Source: ") != int(out["resultsCount"].(float64)):
				t.Errorf("a section per result: %v", out)
			case budget == 3000 && format == "json":
				var v struct{ Results []map[string]string }
				if err := json.Unmarshal([]byte(resp), &v); err != nil || len(v.Results) != int(out["resultsCount"].(float64)) {
					t.Errorf("json: %v %v", err, resp)
				}
			}
		}
	}
	// A context that takes the budget exactly is kept whole.
	for _, format := range []string{"txt", "json"} {
		_, full := h.index("context", `{"query":"deploy preview","format":"`+format+`","tokenBudget":3000}`)
		exact := int(full["outputTokens"].(float64))
		_, out := h.index("context", `{"query":"deploy preview","format":"`+format+`","tokenBudget":`+jsonNumber(exact)+`}`)
		if exact >= 3000 || out["response"] != full["response"] {
			t.Errorf("%s in exactly %d tokens: %v", format, exact, out)
		}
	}
	_, def := h.index("context", `{"query":"deploy preview","format":"txt"}`)
	_, big := h.index("context", `{"query":"deploy preview","format":"txt","tokenBudget":3000}`)
	if def["response"] != big["response"] {
		t.Error("the default budget is not 3000")
	}
	for _, body := range []string{`{"query":"x"}`, `{"query":"x","format":"md"}`, `{"query":"x","format":"txt","tokenBudget":6001}`, `{"format":"txt"}`, `{"query":"x","format":"txt","product":""}`} {
		if status, out := h.index("context", body); status != 400 || len(out) != 1 {
			t.Errorf("%s: %d %v", body, status, out)
		}
	}
}

func jsonNumber(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestIndexContents(t *testing.T) {
	h := newHarness(t, Config{})
	status, out := h.index("contents", `{"ids":["demo-docs:/quickstart","demo-docs:/internal/runbook"],"urls":["https://blog.example.com/docs-as-code","https://nowhere.test/"],"maxCharacters":30,"query":"push"}`)
	if status != 200 {
		t.Fatalf("%d %v", status, out)
	}
	if diff := cmp.Diff([]string{"demo-docs:/quickstart", "https://blog.example.com/docs-as-code"}, ids(out["results"])); diff != "" {
		t.Error(diff)
	}
	statuses, _ := json.Marshal(out["statuses"])
	want := `[{"id":"demo-docs:/quickstart","status":"success"},{"error":{"httpStatusCode":404,"tag":"NOT_FOUND"},"id":"demo-docs:/internal/runbook","status":"error"},` +
		`{"id":"https://blog.example.com/docs-as-code","status":"success"},{"error":{"httpStatusCode":404,"tag":"NOT_FOUND"},"id":"https://nowhere.test/","status":"error"}]`
	if string(statuses) != want {
		t.Errorf("statuses %s", statuses)
	}
	quick := out["results"].([]any)[0].(map[string]any)
	if quick["text"] != "When the preview looks right, " || quick["truncated"] != true || quick["score"] != 0.0 {
		t.Errorf("the query chooses where the cut text starts: %v", quick)
	}
	if web := out["results"].([]any)[1].(map[string]any); web["publishedDate"] != "2026-03-14" {
		t.Errorf("a date by URL, as the source gives it: %v", web["publishedDate"])
	}
	// The query moves the start only of a text it cuts: a text within
	// maxCharacters, or with none given, is whole.
	_, whole := h.index("contents", `{"ids":["demo-docs:/quickstart"]}`)
	text := whole["results"].([]any)[0].(map[string]any)["text"].(string)
	for _, body := range []string{
		`{"ids":["demo-docs:/quickstart"],"query":"push"}`,
		`{"ids":["demo-docs:/quickstart"],"query":"push","maxCharacters":` + jsonNumber(utf8.RuneCountInString(text)) + `}`,
	} {
		_, out := h.index("contents", body)
		if r := out["results"].([]any)[0].(map[string]any); r["text"] != text || r["truncated"] == true {
			t.Errorf("%s: %v", body, r)
		}
	}
	many := `{"ids":[` + strings.TrimSuffix(strings.Repeat(`"a",`, 21), ",") + `]}`
	if status, out := h.index("contents", many); status != 400 || out["error"] != "A request may reference at most 20 items across urls and ids" {
		t.Errorf("21 items: %d %v", status, out)
	}
	for _, body := range []string{`{}`, `{"ids":[]}`, `{"urls":["not a url"]}`, `{"ids":["a"],"maxCharacters":0}`, `{"ids":["a"],"query":""}`} {
		if status, out := h.index("contents", body); status != 400 || len(out) != 1 {
			t.Errorf("%s: %d %v", body, status, out)
		}
	}
}

// The Index allows 10 requests a second and 1,000 a day, per organization.
func TestIndex_budgets(t *testing.T) {
	h := newHarness(t, Config{Limits: map[string]int{budgetIndexDay: 15}})
	for i := range 10 {
		if status, _ := h.index("search", `{"query":"x","numResults":1}`); status != 200 {
			t.Fatalf("request %d: %d", i+1, status)
		}
	}
	status, header, out := h.call("POST", "/api/universal-search/v1/context", `{"query":"x","format":"txt"}`, DemoIndexKey)
	if status != 429 || header.Get("Retry-After") != "1" || out["error"] != "Too many requests: rate limit of 10 requests per second exceeded" || len(out) != 1 {
		t.Errorf("the 11th in a second: %d %v %v", status, header, out)
	}
	h.clk.Advance(time.Second)
	for i := range 5 {
		if status, _ := h.index("contents", `{"ids":["demo-docs:/quickstart"]}`); status != 200 {
			t.Fatalf("request %d of the next second: %d", i+1, status)
		}
	}
	status, header, _ = h.call("POST", "/api/universal-search/v1/search", `{"query":"x","numResults":1}`, DemoIndexKey)
	if status != 429 || header.Get("Retry-After") != "86399" {
		t.Errorf("the day's 16th: %d %v", status, header)
	}
	if status, _, out := h.call("POST", "/api/universal-search/v1/search", `{"query":"x","numResults":1}`, DemoAPIKey); status != 401 || len(out) != 1 {
		t.Errorf("an admin key: %d %v", status, out)
	}
}

// positive reads a whole number from 1 to hi, or of at least 1 when hi is
// 0; and a text's tokens are a quarter of its characters, rounded up.
func TestPositiveAndTokens(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		hi   int
		want string // the error, or the number read
	}{
		{1, 20, "1"}, {20, 20, "20"}, {21, 20, "x: must be an integer from 1 to 20"}, {1.5, 20, "x: must be an integer from 1 to 20"},
		{100000, 0, "100000"}, {0, 0, "x: must be an integer of at least 1"}, {-3, 0, "x: must be an integer of at least 1"},
	} {
		n, err := positive("x", &tt.v, tt.hi)
		got := strconv.Itoa(n)
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("positive(%g, %d) = %s, want %s", tt.v, tt.hi, got, tt.want)
		}
	}
	if n, err := positive("x", nil, 20); n != 0 || err != nil {
		t.Errorf("not given: %d, %v", n, err)
	}
	for s, want := range map[string]int{"": 0, "a": 1, "abcd": 1, "abcde": 2, "abcdefgh": 2} {
		if got := tokens(s); got != want {
			t.Errorf("tokens(%q) = %d, want %d", s, got, want)
		}
	}
}
