package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// newDiscoveryFake starts the fake with a discovery client for it (the
// fake serves the API under /discovery).
func newDiscoveryFake(t *testing.T, cfg mintlifytest.Config, opts ...Option) (*mintlifytest.Server, *DiscoveryClient, *fakeClock) {
	return startFakeFor(t, cfg, NewDiscoveryClient, mintlifytest.DemoAssistantKey, "/discovery", opts)
}

func TestFakeSearch_matchesTheFakesOwnData(t *testing.T) {
	srv, c, _ := newDiscoveryFake(t, mintlifytest.Config{})
	ctx := context.Background()
	th := 0.3
	for _, q := range []mintlifytest.SearchQuery{
		{Query: "install the CLI"},
		{Query: "install the CLI", PageSize: 2},
		{Query: "changelog", Version: "v2"},
		{Query: "rotate API key", Groups: []string{"staff"}},
		{Query: "rotate API key"},
		{Query: "deploy preview", ScoreThreshold: &th},
		{Query: "nothing matches zzz"},
	} {
		res, err := c.Search(ctx, mintlifytest.DemoDomain, SearchRequest{Query: q.Query, PageSize: q.PageSize, ScoreThreshold: q.ScoreThreshold,
			Filter: SearchFilter{Version: q.Version, Language: q.Language, Tag: q.Tag, Groups: q.Groups}})
		if err != nil {
			t.Fatal(err)
		}
		want := srv.SearchData(mintlifytest.DemoDomain, q)
		got := make([]mintlifytest.SearchHit, len(res.Results))
		for i, r := range res.Results {
			meta := map[string]any{}
			for k, v := range r.Metadata {
				if n, ok := v.(json.Number); ok {
					f, _ := n.Float64()
					meta[k] = f
					continue
				}
				meta[k] = v
			}
			got[i] = mintlifytest.SearchHit{Path: r.Path, Content: r.Content, Metadata: meta}
		}
		if diff := cmp.Diff(want, got); diff != "" || len(res.Problems) > 0 {
			t.Errorf("%+v (-fake +sdk):\n%s%v", q, diff, res.Problems)
		}
	}
	res, _ := c.Search(ctx, mintlifytest.DemoDomain, SearchRequest{Query: "install the CLI"})
	if p := res.Paths(); len(p) != 3 || p[0] != "/installation" || p[1] != "/quickstart" {
		t.Errorf("install the CLI: %v", p)
	}
}

func TestFakePage_readsPagesAnd404s(t *testing.T) {
	srv, c, _ := newDiscoveryFake(t, mintlifytest.Config{})
	ctx := context.Background()
	p, err := c.Page(ctx, mintlifytest.DemoDomain, "quickstart", nil)
	if err != nil || p.Path != "/quickstart" || !strings.HasPrefix(p.Content, "# Quickstart") {
		t.Fatalf("%+v %v", p, err)
	}
	for name, call := range map[string]func() error{
		"unknown page":          func() error { _, err := c.Page(ctx, mintlifytest.DemoDomain, "/nope", nil); return err },
		"staff page, no groups": func() error { _, err := c.Page(ctx, mintlifytest.DemoDomain, "/internal/runbook", nil); return err },
		"unknown site":          func() error { _, err := c.Page(ctx, "other-site", "/quickstart", nil); return err },
	} {
		if err := call(); !IsNotFound(err) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := c.Page(ctx, mintlifytest.DemoDomain, "/internal/runbook", []string{"staff"}); err != nil {
		t.Error(err)
	}
	srv.PutPage(mintlifytest.DemoDomain, mintlifytest.DocPage{Path: "/new", Title: "New", Content: "# New\n\nJust deployed."})
	if p, err := c.Page(ctx, mintlifytest.DemoDomain, "/new", nil); err != nil || p.Content != "# New\n\nJust deployed." {
		t.Errorf("%+v %v", p, err)
	}
}

// Each API takes its own key kind: the fake refuses the others with 401,
// as Mintlify does; the SDK never even sends them.
func TestFake_keysOfAnotherKindAre401(t *testing.T) {
	srv, _, _ := newDiscoveryFake(t, mintlifytest.Config{})
	for _, tt := range []struct{ key, path string }{
		{mintlifytest.DemoAPIKey, "/discovery/v1/search/" + mintlifytest.DemoDomain},
		{mintlifytest.DemoIndexKey, "/discovery/v1/search/" + mintlifytest.DemoDomain},
		{mintlifytest.DemoAssistantKey, "/api/universal-search/v1/search"},
		{mintlifytest.DemoAssistantKey, "/v2/agent/" + mintlifytest.DemoProjectID + "/job"},
	} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+tt.path, strings.NewReader(`{"query":"x","numResults":1}`))
		req.Header.Set("Authorization", "Bearer "+tt.key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 401 || !strings.Contains(string(body), "this API takes") {
			t.Errorf("%s with %.9s...: %d %s", tt.path, tt.key, resp.StatusCode, body)
		}
	}
}

// The fake's streams, read back through the SDK, are exactly what it sent.
func TestFakeAssistant_streamsReadBackExactly(t *testing.T) {
	for _, proto := range []AssistantProtocol{AssistantV2, AssistantV1} {
		t.Run(string(proto), func(t *testing.T) {
			srv, c, _ := newDiscoveryFake(t, mintlifytest.Config{})
			ctx := context.Background()
			st, err := c.Assistant.Stream(ctx, mintlifytest.DemoDomain, AssistantRequest{Question: "How do I install the CLI?", Protocol: proto})
			if err != nil {
				t.Fatal(err)
			}
			parts, err := readAll(st)
			if err != nil {
				t.Fatal(err)
			}
			answers := srv.AssistantAnswers()
			if len(answers) != 1 || !answers[0].Complete || answers[0].Protocol != string(proto) {
				t.Fatalf("%+v", answers)
			}
			sent := answers[0]
			if len(parts) != len(sent.Parts) {
				t.Fatalf("%d parts read, %d sent", len(parts), len(sent.Parts))
			}
			var text strings.Builder
			var sources []string
			for i, p := range parts {
				raw := sent.Parts[i]
				if proto == AssistantV1 {
					raw = raw[strings.IndexByte(raw, ':')+1:]
				}
				var wire map[string]any
				_ = json.Unmarshal([]byte(raw), &wire)
				switch p.Type {
				case PartTextDelta:
					want, ok := wire["delta"]
					if proto == AssistantV1 {
						want, ok = raw[1:len(raw)-1], true
						_ = json.Unmarshal([]byte(raw), &want)
					}
					if !ok || p.Text != want {
						t.Errorf("part %d: %q, sent %s", i, p.Text, sent.Parts[i])
					}
					text.WriteString(p.Text)
				case PartSourceURL:
					sources = append(sources, p.Source.URL)
					if p.Source.URL != wire["url"] || p.Source.Title != wire["title"] {
						t.Errorf("part %d: %+v, sent %s", i, p.Source, sent.Parts[i])
					}
				case PartFinish:
					if p.ThreadID != sent.ThreadID || p.FinishReason != "stop" {
						t.Errorf("finish %+v, sent %s", p, sent.Parts[i])
					}
				default:
					if proto == AssistantV2 && string(p.Type) != wire["type"] {
						t.Errorf("part %d is %s, sent %s", i, p.Type, sent.Parts[i])
					}
				}
			}
			if text.String() != sent.Text || strings.Join(sources, " ") != strings.Join(sent.Sources, " ") || st.ThreadID() != sent.ThreadID {
				t.Errorf("text %q sources %v thread %q; sent %q %v %q", text.String(), sources, st.ThreadID(), sent.Text, sent.Sources, sent.ThreadID)
			}
			if !strings.Contains(sent.Text, "Quickstart") || len(sent.Sources) == 0 {
				t.Errorf("the answer draws on nothing: %+v", sent)
			}
		})
	}
}

func TestFakeAssistant_threadsContinue(t *testing.T) {
	_, c, _ := newDiscoveryFake(t, mintlifytest.Config{})
	ctx := context.Background()
	first, err := c.Assistant.Ask(ctx, mintlifytest.DemoDomain, AssistantRequest{Question: "How do I deploy?"})
	if err != nil || first.ThreadID == "" {
		t.Fatalf("%v %+v", err, first)
	}
	next, err := c.Assistant.Ask(ctx, mintlifytest.DemoDomain, AssistantRequest{Question: "And previews?", ThreadID: first.ThreadID,
		Messages: []AssistantMessage{{Role: RoleUser, Text: "How do I deploy?"}, {Role: RoleAssistant, Text: first.Text}}})
	if err != nil || next.ThreadID != first.ThreadID || next.MessageID == first.MessageID {
		t.Errorf("%v: thread %q then %q, messages %q %q", err, first.ThreadID, next.ThreadID, first.MessageID, next.MessageID)
	}
	other, _ := c.Assistant.Ask(ctx, mintlifytest.DemoDomain, AssistantRequest{Question: "Pricing?"})
	if other.ThreadID == first.ThreadID {
		t.Error("a new conversation got the old thread")
	}
}

func TestFakeAssistant_faults(t *testing.T) {
	t.Run("a stream cut mid-way is an error, and never re-sent", func(t *testing.T) {
		srv, c, _ := newDiscoveryFake(t, mintlifytest.Config{})
		a, err := c.Assistant.Ask(context.Background(), mintlifytest.DemoDomain, AssistantRequest{Question: "[fake:cut=9] How do I install?"})
		var se *StreamError
		if !errors.As(err, &se) || se.Problem != StreamCut || !MayHaveTakenEffect(err) {
			t.Fatalf("%v", err)
		}
		if n := srv.Requests(mintlifytest.RouteAssistantStream); n != 1 || a.Text == "" || strings.Contains(srv.AssistantAnswers()[0].Text, a.Text+"x") {
			t.Errorf("%d requests, partial %q", n, a.Text)
		}
	})
	t.Run("a reset after the headers", func(t *testing.T) {
		srv, c, _ := newDiscoveryFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteAssistantStream, Kind: mintlifytest.FaultReset}}})
		_, err := c.Assistant.Ask(context.Background(), mintlifytest.DemoDomain, AssistantRequest{Question: "How do I install?"})
		var se *StreamError
		if !errors.As(err, &se) || se.Problem != StreamCut || srv.Requests(mintlifytest.RouteAssistantStream) != 1 {
			t.Errorf("%v", err)
		}
	})
	t.Run("an error part", func(t *testing.T) {
		_, c, _ := newDiscoveryFake(t, mintlifytest.Config{})
		_, err := c.Assistant.Ask(context.Background(), mintlifytest.DemoDomain, AssistantRequest{Question: "[fake:error] How do I install?", Protocol: AssistantV1})
		if err == nil || !strings.Contains(err.Error(), "The assistant is unavailable") {
			t.Errorf("%v", err)
		}
	})
	t.Run("a slow stream arrives part by part", func(t *testing.T) {
		_, c, _ := newDiscoveryFake(t, mintlifytest.Config{})
		st, err := c.Assistant.Stream(context.Background(), mintlifytest.DemoDomain, AssistantRequest{Question: "[fake:slow=5ms] [fake:keepalive] How do I install?"})
		if err != nil {
			t.Fatal(err)
		}
		first, err := st.Next()
		if err != nil || first.Type != PartStart {
			t.Fatalf("%+v %v", first, err)
		}
		if _, err := readAll(st); err != nil || !st.Finished() {
			t.Errorf("%v", err)
		}
	})
	t.Run("a stalled stream fails after the request timeout", func(t *testing.T) {
		_, c, _ := newDiscoveryFake(t, mintlifytest.Config{}, WithRequestTimeout(50*time.Millisecond))
		_, err := c.Assistant.Ask(context.Background(), mintlifytest.DemoDomain, AssistantRequest{Question: "[fake:slow=1h] How?"})
		var se *StreamError
		if !errors.As(err, &se) || se.Problem != StreamStalled {
			t.Errorf("%v", err)
		}
	})
	t.Run("a 5xx before the stream is never re-sent; a short 429 is", func(t *testing.T) {
		srv, c, clk := newDiscoveryFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{
			{Route: mintlifytest.RouteAssistantStream, Kind: mintlifytest.FaultRateLimit, RetryAfter: 2 * time.Second, Requests: []int{1}},
			{Route: mintlifytest.RouteAssistantStream, Kind: mintlifytest.FaultServerError, Requests: []int{3}},
		}})
		if _, err := c.Assistant.Ask(context.Background(), mintlifytest.DemoDomain, AssistantRequest{Question: "How?"}); err != nil {
			t.Fatal(err)
		}
		_, err := c.Assistant.Ask(context.Background(), mintlifytest.DemoDomain, AssistantRequest{Question: "How?"})
		if statusOf(err) != 502 || srv.Requests(mintlifytest.RouteAssistantStream) != 3 || len(srv.AssistantAnswers()) != 1 {
			t.Errorf("%v after %d requests", err, srv.Requests(mintlifytest.RouteAssistantStream))
		}
		if diff := cmp.Diff([]time.Duration{2 * time.Second}, clk.Sleeps()); diff != "" {
			t.Error(diff)
		}
	})
	t.Run("a spent hour fails at once with when to retry", func(t *testing.T) {
		srv, c, _ := newDiscoveryFake(t, mintlifytest.Config{Limits: map[string]int{"discovery": 2}})
		for range 2 {
			if _, err := c.Search(context.Background(), mintlifytest.DemoDomain, SearchRequest{Query: "x"}); err != nil {
				t.Fatal(err)
			}
		}
		_, err := c.Assistant.Stream(context.Background(), mintlifytest.DemoDomain, AssistantRequest{Question: "How?"})
		var apiErr *APIError
		if !errors.As(err, &apiErr) || apiErr.StatusCode != 429 || apiErr.RetryAfter != time.Hour || len(srv.AssistantAnswers()) != 0 {
			t.Errorf("%v", err)
		}
	})
}

func TestFakeIndex_searchContextContents(t *testing.T) {
	_, c, _ := newIndexFake(t, mintlifytest.Config{})
	ctx := context.Background()
	res, err := c.Search(ctx, IndexSearchRequest{Query: "deploy preview", NumResults: 3, MaxCharacters: 40})
	if err != nil || len(res.Results) == 0 || len(res.Problems) > 0 || res.IndexRequestID == "" {
		t.Fatalf("%v %+v", err, res)
	}
	for _, r := range res.Results {
		if len([]rune(r.Text)) > 40 || (r.Truncated && (r.TotalCharacters == nil || *r.TotalCharacters <= 40)) {
			t.Errorf("%+v", r)
		}
	}
	web, _ := c.Search(ctx, IndexSearchRequest{Query: "search API", Domains: Domains{Include: []string{"example.org"}}})
	if len(web.Results) != 1 || web.Results[0].Source != "web" || web.Results[0].PublishedDate == nil {
		t.Errorf("%+v", web.Results)
	}
	got, err := c.Context(ctx, IndexContextRequest{Query: "install the CLI", TokenBudget: 200})
	if err != nil || got.ResultsCount == 0 || got.OutputTokens > 200 || !strings.Contains(got.Response, "Source: https://") {
		t.Errorf("%v %+v", err, got)
	}
	tiny, err := c.Context(ctx, IndexContextRequest{Query: "install the CLI", TokenBudget: 1, Format: ContextJSON})
	if err != nil || tiny.Response != "" || tiny.ResultsCount != 0 {
		t.Errorf("%v %+v", err, tiny)
	}
	contents, err := c.Contents(ctx, IndexContentsRequest{IDs: []string{res.Results[0].ID, "nobody:/x"}, URLs: []string{"https://blog.example.com/docs-as-code"}})
	if err != nil || len(contents.Results) != 2 || len(contents.Statuses) != 3 || !contents.Statuses[1].Failed() || contents.Statuses[2].Failed() {
		t.Fatalf("%v %+v", err, contents)
	}
	if contents.Results[1].PublishedDate == nil || *contents.Results[1].PublishedDate != "2026-03-14" {
		t.Errorf("a web page's date, as the source gives it: %v", contents.Results[1].PublishedDate)
	}
}

// The Index allows 10 requests a second: the 11th waits a second (on the
// client's clock), and is not an error.
func TestFakeIndex_perSecondBudgetWaitedOut(t *testing.T) {
	srv, c, clk := newIndexFake(t, mintlifytest.Config{})
	for i := range 11 {
		if _, err := c.Search(context.Background(), IndexSearchRequest{Query: "deploy"}); err != nil {
			t.Fatalf("search %d: %v", i+1, err)
		}
	}
	if n := srv.Requests(mintlifytest.RouteIndexSearch); n != 12 {
		t.Errorf("%d requests, want 12 (one refused with 429)", n)
	}
	if diff := cmp.Diff([]time.Duration{time.Second}, clk.Sleeps()); diff != "" {
		t.Error(diff)
	}
}
