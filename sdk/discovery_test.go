package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func newDiscoveryTestClient(t *testing.T, url string, clk *fakeClock, opts ...Option) *DiscoveryClient {
	t.Helper()
	all := []Option{WithBaseURL(url)}
	if clk != nil {
		all = append(all, WithClock(clk))
	}
	c, err := NewDiscoveryClient(testAssistantKey, append(all, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Each key kind goes to its own client only, refused before any request
// with an error that names the kind.
func TestKeyKinds_eachClientTakesItsOwnKeyOnly(t *testing.T) {
	const admin, assistant, index = "mint_admin_key", "mint_dsc_key", "mint_us_key"
	for _, tt := range []struct {
		name string
		make func(string) error
		key  string
		want string // "" accepted
	}{
		{"admin client, admin key", func(k string) error { _, err := NewClient(k); return err }, admin, ""},
		{"admin client, assistant key", func(k string) error { _, err := NewClient(k); return err }, assistant, "apiKey is an assistant key (mint_dsc_...), for the discovery API, not an admin API key (mint_...)"},
		{"admin client, Index key", func(k string) error { _, err := NewClient(k); return err }, index, "apiKey is a Mintlify Index key (mint_us_...), not an admin API key"},
		{"discovery client, assistant key", func(k string) error { _, err := NewDiscoveryClient(k); return err }, assistant, ""},
		{"discovery client, admin key", func(k string) error { _, err := NewDiscoveryClient(k); return err }, admin, "assistantKey is an admin API key (mint_...), for the admin API, not an assistant API key (mint_dsc_...)"},
		{"discovery client, Index key", func(k string) error { _, err := NewDiscoveryClient(k); return err }, index, "assistantKey is a Mintlify Index key (mint_us_...), not an assistant API key"},
		{"discovery client, no Mintlify key", func(k string) error { _, err := NewDiscoveryClient(k); return err }, "sk-123", "assistantKey is not an assistant API key: those start mint_dsc_"},
		{"Index client, Index key", func(k string) error { _, err := NewIndexClient(k); return err }, index, ""},
		{"Index client, admin key", func(k string) error { _, err := NewIndexClient(k); return err }, admin, "indexKey is an admin API key (mint_...), for the admin API, not a Mintlify Index API key (mint_us_...)"},
		{"Index client, assistant key", func(k string) error { _, err := NewIndexClient(k); return err }, assistant, "indexKey is an assistant key (mint_dsc_...), for the discovery API, not a Mintlify Index API key"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.make(tt.key)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("err = %v, want %q", err, tt.want)
			case err != nil && strings.Contains(err.Error(), tt.key):
				t.Errorf("the key is echoed: %v", err)
			}
		})
	}
}

// Each client's default address is its own API's host.
func TestKeyKinds_defaultHosts(t *testing.T) {
	d, _ := NewDiscoveryClient(testAssistantKey)
	i, _ := NewIndexClient("mint_us_k")
	if d.BaseURL() != "https://api.mintlify.com/discovery" || i.BaseURL() != "https://leaves.mintlify.com/api/universal-search" {
		t.Errorf("%s %s", d.BaseURL(), i.BaseURL())
	}
	var zeroD *DiscoveryClient
	var zeroI IndexClient
	if zeroD.BaseURL() != "" || zeroI.BaseURL() != "" {
		t.Error("zero clients have an address")
	}
	if _, err := zeroD.Search(context.Background(), "d", SearchRequest{Query: "q"}); !errors.Is(err, ErrNotConfigured) {
		t.Error(err)
	}
	if _, err := (&DiscoveryClient{}).Assistant.Stream(context.Background(), "d", AssistantRequest{Question: "q"}); !errors.Is(err, ErrNotConfigured) {
		t.Error(err)
	}
	if _, err := zeroI.Context(context.Background(), IndexContextRequest{Query: "q"}); !errors.Is(err, ErrNotConfigured) {
		t.Error(err)
	}
}

func TestClientsFromEnv(t *testing.T) {
	t.Setenv(EnvAssistantAPIKey, "")
	t.Setenv(EnvIndexAPIKey, "")
	if _, err := NewDiscoveryClientFromEnv(); err == nil || !strings.Contains(err.Error(), EnvAssistantAPIKey) {
		t.Error(err)
	}
	if _, err := NewIndexClientFromEnv(); err == nil || !strings.Contains(err.Error(), EnvIndexAPIKey) {
		t.Error(err)
	}
	t.Setenv(EnvAssistantAPIKey, testAssistantKey)
	t.Setenv(EnvBaseURL, "http://127.0.0.1:9/")
	t.Setenv(EnvIndexAPIKey, "mint_us_k")
	t.Setenv(EnvIndexBaseURL, "http://127.0.0.1:9/api/universal-search")
	d, err := NewDiscoveryClientFromEnv()
	if err != nil || d.BaseURL() != "http://127.0.0.1:9/discovery" {
		t.Errorf("%v %v", d, err)
	}
	i, err := NewIndexClientFromEnv()
	if err != nil || i.BaseURL() != "http://127.0.0.1:9/api/universal-search" {
		t.Errorf("%v %v", i, err)
	}
}

func TestSearch_sendsTheQueryAndReadsResults(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, `[{"path":"/quickstart","content":"Install with npm","metadata":{"title":"Quickstart","score":0.91}},
		{"path":"guides/deploy","content":"Deploy","metadata":null},{"content":7,"metadata":"x"}]`))
	c := newDiscoveryTestClient(t, ts.URL+"/discovery", nil)
	th := 0.5
	res, err := c.Search(context.Background(), "acme", SearchRequest{Query: "install", PageSize: 3, ScoreThreshold: &th,
		Filter: SearchFilter{Version: "v2", Groups: []string{"staff"}}})
	if err != nil {
		t.Fatal(err)
	}
	r := rec.requests[0]
	if r.URL.Path != "/discovery/v1/search/acme" || r.Method != http.MethodPost || r.Header.Get("Authorization") != "Bearer "+testAssistantKey {
		t.Errorf("%s %s %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
	}
	if want := `{"query":"install","pageSize":3,"scoreThreshold":0.5,"filter":{"version":"v2","groups":["staff"]}}`; rec.bodies[0] != want {
		t.Errorf("body %s, want %s", rec.bodies[0], want)
	}
	want := []SearchResult{
		{Path: "/quickstart", Content: "Install with npm", Metadata: map[string]any{"title": "Quickstart", "score": json.Number("0.91")}},
		{Path: "guides/deploy", Content: "Deploy"},
		{},
	}
	if diff := cmp.Diff(want, res.Results); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]string{"results[2].content: want a string, got a number", "results[2].metadata: want an object, got a string", "results[2].path: missing"}, res.Problems); diff != "" {
		t.Error(diff)
	}
	if diff := cmp.Diff([]string{"/quickstart", "guides/deploy", ""}, res.Paths()); diff != "" {
		t.Error(diff)
	}
	// The least: a query alone, no filter.
	if _, err := c.Search(context.Background(), "acme", SearchRequest{Query: "x"}); err != nil || rec.bodies[1] != `{"query":"x"}` {
		t.Errorf("%v %s", err, rec.bodies[1])
	}
}

// A result's metadata as text: strings as they are, every other value as
// the JSON the API wrote (a score keeps its digits), empty when none.
func TestSearchResult_MetadataText(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(200, `[{"path":"/a","content":"c","metadata":{"title":"Quick \"start\"","score":0.910,"id":1152921504606846976,
		"pinned":true,"tags":["a","b"],"more":{"x":null},"none":null}},{"path":"/b","content":"c","metadata":null}]`))
	c := newDiscoveryTestClient(t, ts.URL+"/discovery", nil)
	res, err := c.Search(context.Background(), "acme", SearchRequest{Query: "q"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"title": `Quick "start"`, "score": "0.910", "id": "1152921504606846976", "pinned": "true",
		"tags": `["a","b"]`, "more": `{"x":null}`, "none": "null"}
	if diff := cmp.Diff(want, res.Results[0].MetadataText()); diff != "" {
		t.Error(diff)
	}
	if got := res.Results[1].MetadataText(); got == nil || len(got) != 0 {
		t.Errorf("no metadata: %#v", got)
	}
	if got := (SearchResult{Metadata: map[string]any{"f": func() {}}}).MetadataText(); got["f"] == "" {
		t.Error("a value JSON cannot write is lost")
	}
}

func TestSearch_answersThatAreNotAListAreRefused(t *testing.T) {
	for body, want := range map[string]string{
		`{"results":[]}`: "answer: want a list of results, got an object",
		`null`:           "answer: want a list of results, got null",
		`<html>`:         "not the API's JSON",
	} {
		_, ts := newRecorder(t, jsonResponse(200, body))
		_, err := newDiscoveryTestClient(t, ts.URL, nil).Search(context.Background(), "acme", SearchRequest{Query: "x"})
		if !IsMalformedResponse(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", body, err)
		}
	}
}

func TestDiscovery_inputsRefusedBeforeAnyRequest(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, `[]`))
	c := newDiscoveryTestClient(t, ts.URL, nil)
	ctx := context.Background()
	nan, over := 0.0, 1.5
	nan /= nan
	for want, call := range map[string]func() error{
		`domain "a/b" is a URL or a path`:        func() error { _, err := c.Search(ctx, "a/b", SearchRequest{Query: "x"}); return err },
		"domain must not be empty":               func() error { _, err := c.Page(ctx, " ", "/x", nil); return err },
		"query must not be empty":                func() error { _, err := c.Search(ctx, "d", SearchRequest{Query: " "}); return err },
		`pageSize "51" must be between 1 and 50`: func() error { _, err := c.Search(ctx, "d", SearchRequest{Query: "x", PageSize: 51}); return err },
		`pageSize "-1" must be between 1 and 50`: func() error { _, err := c.Search(ctx, "d", SearchRequest{Query: "x", PageSize: -1}); return err },
		`scoreThreshold "1.5" must be between`: func() error {
			_, err := c.Search(ctx, "d", SearchRequest{Query: "x", ScoreThreshold: &over})
			return err
		},
		`scoreThreshold "NaN" must be between`: func() error {
			_, err := c.Search(ctx, "d", SearchRequest{Query: "x", ScoreThreshold: &nan})
			return err
		},
		"filter.groups[1] must not be empty": func() error {
			_, err := c.Search(ctx, "d", SearchRequest{Query: "x", Filter: SearchFilter{Groups: []string{"a", ""}}})
			return err
		},
		"path must not be empty":      func() error { _, err := c.Page(ctx, "d", "", nil); return err },
		"groups[0] must not be empty": func() error { _, err := c.Page(ctx, "d", "/x", []string{""}); return err },
		"question is required":        func() error { _, err := c.Assistant.Stream(ctx, "d", AssistantRequest{}); return err },
		"question must not be empty": func() error {
			_, err := c.Assistant.Stream(ctx, "d", AssistantRequest{Question: "  ", Messages: []AssistantMessage{{Role: RoleUser, Text: "x"}}})
			return err
		},
		`messages[0].role "bot" must be`: func() error {
			_, err := c.Assistant.Stream(ctx, "d", AssistantRequest{Messages: []AssistantMessage{{Role: "bot", Text: "x"}}})
			return err
		},
		"messages[0].text must not be empty": func() error {
			_, err := c.Assistant.Stream(ctx, "d", AssistantRequest{Messages: []AssistantMessage{{Role: RoleUser}}})
			return err
		},
		`protocol "v3" must be`: func() error {
			_, err := c.Assistant.Stream(ctx, "d", AssistantRequest{Question: "q", Protocol: "v3"})
			return err
		},
		"retrievalPageSize \"-2\" must be 1": func() error {
			_, err := c.Assistant.Stream(ctx, "d", AssistantRequest{Question: "q", RetrievalPageSize: -2})
			return err
		},
		"filter.groups is not supported by the v1": func() error {
			_, err := c.Assistant.Stream(ctx, "d", AssistantRequest{Question: "q", Protocol: AssistantV1, Filter: AssistantFilter{Groups: []string{"g"}}})
			return err
		},
		`context[0].type "file" must be`: func() error {
			_, err := c.Assistant.Stream(ctx, "d", AssistantRequest{Question: "q", Context: []AssistantContext{{Type: "file", Value: "x"}}})
			return err
		},
		"context[0].value must not be empty": func() error {
			_, err := c.Assistant.Stream(ctx, "d", AssistantRequest{Question: "q", Context: []AssistantContext{{Type: "code"}}})
			return err
		},
		"currentPath": func() error {
			_, err := c.Assistant.Stream(ctx, "d", AssistantRequest{Question: "q", CurrentPath: strings.Repeat("é", 201)})
			return err
		},
	} {
		if err := call(); !IsValidation(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want %q", err, want)
		}
	}
	if err := (AssistantRequest{Question: "q", CurrentPath: strings.Repeat("é", 200)}).Validate(); err != nil {
		t.Errorf("200 characters: %v", err)
	}
	// Both ends of each range are taken (a page size of 0 is the API's
	// default).
	for _, n := range []int{0, 1, MaxSearchPageSize} {
		if err := ValidateSearchPageSize(n); err != nil {
			t.Errorf("page size %d: %v", n, err)
		}
	}
	for _, v := range []float64{0, 1} {
		if err := ValidateScoreThreshold(v); err != nil {
			t.Errorf("score threshold %g: %v", v, err)
		}
	}
	if n := rec.count(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// A site's address pasted whole is the likeliest wrong domain: the error
// says to write the identifier alone, and which one when the URL shows it.
func TestValidateDomain_aURLSaysWhatToWrite(t *testing.T) {
	checkAccepted(t, ValidateDomain, "acme", "acme.mintlify.site", "docs.example.com", "a-b_c.d~e:f")
	checkRefused(t, ValidateDomain, "domain", map[string]string{
		"https://acme.mintlify.site/docs": `is a URL or a path: write the domain identifier alone, as acme for acme.mintlify.site (the end of the dashboard's URL, app.mintlify.com/<organization>/<domain>): write "acme"`,
		"acme.mintlify.app/":              `: write "acme"`,
		"http://docs-2.mintlify.site":     `: write "docs-2"`,
		"https://docs.example.com/guide":  "is a URL or a path: write the domain identifier alone",
		"https://.mintlify.site/":         "is a URL or a path: write the domain identifier alone",
		"acme docs":                       "may hold only ASCII letters, digits and - _ . ~ :",
		"":                                "must not be empty",
	})
	for _, in := range []string{"https://docs.example.com/guide", "https://.mintlify.site/", "https://a b.mintlify.site/"} {
		if err := ValidateDomain(in); strings.Contains(err.Error(), ": write \"") {
			t.Errorf("ValidateDomain(%q) = %v: names an identifier the URL does not show", in, err)
		}
	}
}

func TestPage_readsThePageAndChecksItIsTheOneAskedFor(t *testing.T) {
	for name, tt := range map[string]struct {
		body, want, problem string
	}{
		"the page":                  {`{"path":"/quickstart","content":"# Quickstart"}`, "# Quickstart", ""},
		"a slash more or less":      {`{"path":"quickstart/","content":"# Quickstart"}`, "# Quickstart", ""},
		"no path: assumed":          {`{"content":"# Quickstart"}`, "# Quickstart", "path: missing: the page asked for is assumed"},
		"another page":              {`{"path":"/pricing","content":"$"}`, "", `path: the answer is for page "/pricing", not "/quickstart"`},
		"no content":                {`{"path":"/quickstart"}`, "", "content: missing"},
		"content of the wrong kind": {`{"path":"/quickstart","content":["#"]}`, "", "content: want a string, got a list"},
	} {
		t.Run(name, func(t *testing.T) {
			rec, ts := newRecorder(t, jsonResponse(200, tt.body))
			p, err := newDiscoveryTestClient(t, ts.URL, nil).Page(context.Background(), "acme", "/quickstart", []string{"staff"})
			if rec.bodies[0] != `{"path":"/quickstart","groups":["staff"]}` || rec.requests[0].URL.Path != "/v1/page/acme" {
				t.Errorf("sent %s to %s", rec.bodies[0], rec.requests[0].URL.Path)
			}
			if tt.want == "" {
				if !IsMalformedResponse(err) || !strings.Contains(err.Error(), tt.problem) {
					t.Errorf("err = %v, want %q", err, tt.problem)
				}
				return
			}
			if err != nil || p.Content != tt.want || p.Path == "" {
				t.Fatalf("%+v %v", p, err)
			}
			if got := strings.Join(p.Problems, "; "); got != tt.problem {
				t.Errorf("problems %q, want %q", got, tt.problem)
			}
		})
	}
}

func TestPage_notFoundIsA404(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(404, `{"message":"Page not found"}`))
	_, err := newDiscoveryTestClient(t, ts.URL, nil).Page(context.Background(), "acme", "/gone", nil)
	if !IsNotFound(err) || !strings.Contains(err.Error(), "Page not found") || rec.count() != 1 {
		t.Errorf("%v after %d requests", err, rec.count())
	}
}

// A server echoing the key puts it nowhere a caller sees: not in results,
// not in their metadata, not in errors.
func TestDiscovery_keyEchoedByTheServerIsRedacted(t *testing.T) {
	k := testAssistantKey
	_, ts := newRecorder(t, jsonResponse(200, `[{"path":"/`+k+`","content":"key `+k+`","metadata":{"auth":"Bearer `+k+`","nested":{"k":"`+k+`"},"list":["`+k+`"]}}]`))
	res, err := newDiscoveryTestClient(t, ts.URL, nil).Search(context.Background(), "acme", SearchRequest{Query: "x"})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(res)
	if strings.Contains(string(out), k) || !strings.Contains(string(out), Redacted) {
		t.Errorf("%s", out)
	}
	_, ts = newRecorder(t, jsonResponse(401, `{"message":"bad key `+k+`"}`))
	_, err = newDiscoveryTestClient(t, ts.URL, nil).Page(context.Background(), "acme", "/x", nil)
	if !IsUnauthorized(err) || strings.Contains(err.Error(), k) {
		t.Errorf("%v", err)
	}
}

func sseResponse(body string) http.HandlerFunc {
	return respond(200, "text/event-stream", body, "X-Request-Id", "req-1")
}

func TestAssistantStream_sendsTheConversation(t *testing.T) {
	rec, ts := newRecorder(t, sseResponse(recordedV2))
	c := newDiscoveryTestClient(t, ts.URL+"/discovery", nil)
	a, err := c.Assistant.Ask(context.Background(), "acme", AssistantRequest{
		Messages:    []AssistantMessage{{Role: RoleUser, Text: "How do I install?"}, {ID: "a1", Role: RoleAssistant, Text: "With npm."}},
		Question:    "And deploy?",
		ThreadID:    "thread-42",
		Filter:      AssistantFilter{Version: "v2", Groups: []string{"staff"}},
		Context:     []AssistantContext{{Type: "code", Value: "mint dev", ElementID: "e1"}},
		CurrentPath: "/quickstart",
	})
	if err != nil {
		t.Fatal(err)
	}
	if a.ThreadID != "thread-42" || a.RequestID != "req-1" || a.Attempts != 1 {
		t.Errorf("%+v", a.ResponseInfo)
	}
	want := `{"fp":"anonymous","threadId":"thread-42","messages":[` +
		`{"id":"msg-1","role":"user","parts":[{"type":"text","text":"How do I install?"}]},` +
		`{"id":"a1","role":"assistant","parts":[{"type":"text","text":"With npm."}]},` +
		`{"id":"msg-3","role":"user","parts":[{"type":"text","text":"And deploy?"}]}],` +
		`"filter":{"version":"v2","groups":["staff"]},"context":[{"type":"code","value":"mint dev","elementId":"e1"}],"currentPath":"/quickstart"}`
	if rec.bodies[0] != want || rec.requests[0].URL.Path != "/discovery/v2/assistant/acme/message" {
		t.Errorf("sent %s\nto %s\nwant %s", rec.bodies[0], rec.requests[0].URL.Path, want)
	}
}

func TestAssistantStream_v1SendsEachMessagesContent(t *testing.T) {
	rec, ts := newRecorder(t, respond(200, "text/plain; charset=utf-8", recordedV1))
	c := newDiscoveryTestClient(t, ts.URL, nil)
	a, err := c.Assistant.Ask(context.Background(), "acme", AssistantRequest{Question: "Hi", Fingerprint: "user-7", RetrievalPageSize: 3, Protocol: AssistantV1})
	if err != nil || a.Text != "Run `npm i mint`." || a.ThreadID != "thread-7" {
		t.Fatalf("%v %+v", err, a)
	}
	want := `{"fp":"user-7","messages":[{"id":"msg-1","role":"user","content":"Hi","parts":[{"type":"text","text":"Hi"}]}],"retrievalPageSize":3}`
	if rec.bodies[0] != want || rec.requests[0].URL.Path != "/v1/assistant/acme/message" {
		t.Errorf("sent %s to %s", rec.bodies[0], rec.requests[0].URL.Path)
	}
}

// A message costs credits: once it may have reached the server it is
// never sent again; a 429 (not acted on) is, when its wait is short.
func TestAssistantStream_neverSentTwice(t *testing.T) {
	for _, tt := range []struct {
		name      string
		responses []http.HandlerFunc
		requests  int
		want      string
		mayHave   bool
	}{
		{"500", []http.HandlerFunc{jsonResponse(500, `{"error":"boom"}`), sseResponse(recordedV2)}, 1, "500 Internal Server Error", true},
		{"502 page", []http.HandlerFunc{respond(502, "text/html", htmlBadGateway), sseResponse(recordedV2)}, 1, "502 Bad Gateway", true},
		{"dropped connection", []http.HandlerFunc{dropConnection, sseResponse(recordedV2)}, 1, "EOF", true},
		{"short 429, then the answer", []http.HandlerFunc{jsonResponse(429, `{"error":"slow down"}`, "Retry-After", "2"), sseResponse(recordedV2)}, 2, "", false},
		{"long 429 fails at once", []http.HandlerFunc{jsonResponse(429, `{"error":"slow down"}`, "Retry-After", "3600")}, 1, "try again after 2026-11-21T13:00:00Z", false},
		{"cut after the headers", []http.HandlerFunc{sseResponse("data: {\"type\":\"start\"}\n\n"), sseResponse(recordedV2)}, 1, "before its finish part", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec, ts := newRecorder(t, tt.responses...)
			clk := newClock()
			c := newDiscoveryTestClient(t, ts.URL, clk)
			a, err := c.Assistant.Ask(context.Background(), "acme", AssistantRequest{Question: "q"})
			if rec.count() != tt.requests {
				t.Errorf("%d requests, want %d", rec.count(), tt.requests)
			}
			if tt.want == "" {
				if err != nil || a.ThreadID != "thread-42" || a.Attempts != 2 {
					t.Errorf("%v %+v", err, a)
				}
				if diff := cmp.Diff([]time.Duration{2 * time.Second}, clk.Sleeps()); diff != "" {
					t.Error(diff)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) || MayHaveTakenEffect(err) != tt.mayHave {
				t.Errorf("err = %v (may have taken effect: %v), want %q", err, MayHaveTakenEffect(err), tt.want)
			}
			var apiErr *APIError
			if tt.name == "long 429 fails at once" && (!errors.As(err, &apiErr) || !apiErr.RetryAt.Equal(epoch.Add(time.Hour))) {
				t.Errorf("RetryAt: %v", err)
			}
		})
	}
}

// A key goes to its own API's host only: the one request of each call
// carries it there, and a redirect elsewhere (any status, even a 307
// that would re-send the POST with its body) is never followed, so the
// other host sees neither the key nor the question; the error says where
// it pointed and that nothing took effect.
func TestDiscoveryAndIndex_keyNeverLeavesItsHost(t *testing.T) {
	calls := map[string]struct {
		key  string
		call func(base string) error
	}{
		"search": {testAssistantKey, func(base string) error {
			_, err := newDiscoveryTestClient(t, base, nil).Search(context.Background(), "acme", SearchRequest{Query: "q"})
			return err
		}},
		"page": {testAssistantKey, func(base string) error {
			_, err := newDiscoveryTestClient(t, base, nil).Page(context.Background(), "acme", "/x", nil)
			return err
		}},
		"assistant v2": {testAssistantKey, func(base string) error {
			_, err := newDiscoveryTestClient(t, base, nil).Assistant.Ask(context.Background(), "acme", AssistantRequest{Question: "q"})
			return err
		}},
		"assistant v1": {testAssistantKey, func(base string) error {
			_, err := newDiscoveryTestClient(t, base, nil).Assistant.Ask(context.Background(), "acme", AssistantRequest{Question: "q", Protocol: AssistantV1})
			return err
		}},
		"index search": {testIndexKey, func(base string) error {
			_, err := newIndexTestClient(t, base, nil).Search(context.Background(), IndexSearchRequest{Query: "q"})
			return err
		}},
		"index context": {testIndexKey, func(base string) error {
			_, err := newIndexTestClient(t, base, nil).Context(context.Background(), IndexContextRequest{Query: "q"})
			return err
		}},
		"index contents": {testIndexKey, func(base string) error {
			_, err := newIndexTestClient(t, base, nil).Contents(context.Background(), IndexContentsRequest{IDs: []string{"a"}})
			return err
		}},
	}
	for name, c := range calls {
		for _, status := range []int{301, 302, 303, 307, 308} {
			t.Run(fmt.Sprint(name, " ", status), func(t *testing.T) {
				elsewhere, other := newRecorder(t, sseResponse(recordedV2))
				elsewhereURL := other.URL
				rec, ts := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Location", elsewhereURL+r.URL.Path)
					w.WriteHeader(status)
				})
				err := c.call(ts.URL)
				if err == nil || !strings.Contains(err.Error(), `redirected to "`+elsewhereURL) || MayHaveTakenEffect(err) {
					t.Errorf("err = %v (may have taken effect: %v)", err, MayHaveTakenEffect(err))
				}
				if rec.count() != 1 || rec.requests[0].Header.Get("Authorization") != "Bearer "+c.key {
					t.Errorf("%d requests to its own host, the first with the right key: %v", rec.count(), rec.count() > 0 && rec.requests[0].Header.Get("Authorization") == "Bearer "+c.key)
				}
				if n := elsewhere.count(); n != 0 {
					t.Errorf("the redirect was followed: %d requests elsewhere, the key sent there: %v", n, elsewhere.requests[0].Header.Get("Authorization") != "")
				}
			})
		}
	}
}
