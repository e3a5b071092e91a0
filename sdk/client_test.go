package sdk

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/transport"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func TestNewClient_validatesKeyAndBaseURL(t *testing.T) {
	tests := []struct {
		name    string
		key     string
		opts    []Option
		wantErr string
	}{
		{"empty key", "", nil, "apiKey is required"},
		{"key with space", "mint_ab cd", nil, "apiKey contains white space: remove it"},
		{"key with tab", "mint_ab\tcd", nil, "apiKey contains white space: remove it"},
		{"key with trailing newline", "mint_abcd\n", nil, "apiKey contains a newline (often a trailing one, from a file or a secret store): remove it"},
		{"key with carriage return", "mint_ab\rcd", nil, "apiKey contains a newline"},
		{"key with control character", "mint_ab\x01cd", nil, "apiKey must be printable ASCII"},
		{"key with non-ascii", "mint_abé", nil, "apiKey must be printable ASCII"},
		{"plain http off loopback", "mint_x", []Option{WithBaseURL("http://api.mintlify.com")}, "must use https"},
		{"plain http on private address", "mint_x", []Option{WithBaseURL("http://10.0.0.1:8080")}, "must use https"},
		{"not a URL", "mint_x", []Option{WithBaseURL("api.mintlify.com")}, "must be an absolute http(s) URL"},
		{"ftp", "mint_x", []Option{WithBaseURL("ftp://api.mintlify.com")}, "must be an absolute http(s) URL"},
		{"credentials in URL", "mint_x", []Option{WithBaseURL("https://user:pw@api.mintlify.com")}, "must not carry credentials"},
		{"query in URL", "mint_x", []Option{WithBaseURL("https://api.mintlify.com?x=1")}, "must not carry credentials, a query"},
		{"nil http client", "mint_x", []Option{WithHTTPClient(nil)}, "client is nil"},
		{"negative retries", "mint_x", []Option{WithMaxRetries(-1)}, "-1 is negative"},
		{"negative retry-after", "mint_x", []Option{WithMaxRetryAfter(-time.Second)}, "is negative"},
		{"backoff max below min", "mint_x", []Option{WithRetryBackoff(2*time.Second, time.Second)}, "need 0 < min <= max"},
		{"backoff zero", "mint_x", []Option{WithRetryBackoff(0, time.Second)}, "need 0 < min <= max"},
		{"empty user agent", "mint_x", []Option{WithUserAgent(" ")}, "non-empty single line"},
		{"multi-line user agent", "mint_x", []Option{WithUserAgent("a\r\nX-Evil: 1")}, "non-empty single line"},
		{"tiny body cap", "mint_x", []Option{WithMaxResponseBytes(10)}, "below 1024"},
		{"negative request timeout", "mint_x", []Option{WithRequestTimeout(-time.Nanosecond)}, "sdk: WithRequestTimeout: -1ns is negative"},
		{"negative grace", "mint_x", []Option{WithSentRequestGrace(-time.Second)}, "sdk: WithSentRequestGrace: -1s is negative"},
		{"negative stream duration", "mint_x", []Option{WithMaxStreamDuration(-time.Second)}, "sdk: WithMaxStreamDuration: -1s is negative"},
		{"no pages per read", "mint_x", []Option{WithMaxPagesPerRead(0)}, "sdk: WithMaxPagesPerRead: 0 is below 1"},
		{"tiny read cap", "mint_x", []Option{WithMaxBytesPerRead(1<<20 - 1)}, "sdk: WithMaxBytesPerRead: 1048575 is below 1 MiB"},
		{"no stream parts", "mint_x", []Option{WithMaxStreamParts(0)}, "sdk: WithMaxStreamParts: 0 is below 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewClient(tt.key, tt.opts...)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want it to contain %q", err, tt.wantErr)
			}
			if tt.key != "" && strings.Contains(err.Error(), tt.key) {
				t.Errorf("error %q echoes the key", err)
			}
		})
	}
}

func TestNewClient_acceptsHTTPSAndLoopback(t *testing.T) {
	for _, raw := range []string{"https://api.mintlify.com", "https://api.mintlify.com/", "https://proxy.example/mintlify/", "http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:9"} {
		c, err := NewClient("mint_x", WithBaseURL(raw))
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		if strings.HasSuffix(c.BaseURL(), "/") {
			t.Errorf("%s: base URL %q keeps a trailing slash", raw, c.BaseURL())
		}
	}
	c, err := NewClient("mint_x")
	if err != nil || c.BaseURL() != DefaultBaseURL {
		t.Fatalf("default base URL = %v, %v", c.BaseURL(), err)
	}
	k := c.core
	if k.maxRetries != DefaultMaxRetries || k.maxRetryAfter != DefaultMaxRetryAfter || k.maxResponseBytes != DefaultMaxResponseBytes ||
		k.requestTimeout != DefaultRequestTimeout || k.sentGrace != DefaultSentRequestGrace || k.maxPagesPerRead != DefaultMaxPagesPerRead ||
		k.maxBytesPerRead != DefaultMaxBytesPerRead || k.retryMinBackoff != defaultRetryMinBackoff || k.retryMaxBackoff != defaultRetryMaxBackoff ||
		k.clock != (transport.WallClock{}) || k.cache != nil || k.userAgent != "mintlify-go-sdk/"+Version {
		t.Errorf("defaults not applied: %+v", k.settings)
	}
	if k.apiKey != "mint_x" || len(k.secrets.List()) != 1 || k.secrets.List()[0] != "mint_x" {
		t.Errorf("key %q, secrets %q", k.apiKey, k.secrets.List())
	}
}

func TestClient_sendsBearerKeyUserAgentAndJSON(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(201, jobJSON))
	c := newTestClient(t, ts.URL+"/base/", nil, WithUserAgent("terraform-provider-mintlify/1.2.3"))
	if _, err := c.AgentJobs.Create(context.Background(), "proj", "Document the API"); err != nil {
		t.Fatal(err)
	}
	r := rec.requests[0]
	checks := map[string][2]string{
		"method":        {r.Method, http.MethodPost},
		"path":          {r.URL.Path, "/base/v2/agent/proj/job"},
		"authorization": {r.Header.Get("Authorization"), "Bearer mint_demo_0123456789abcdef"},
		"user agent":    {r.Header.Get("User-Agent"), "terraform-provider-mintlify/1.2.3"},
		"content type":  {r.Header.Get("Content-Type"), "application/json"},
		"accept":        {r.Header.Get("Accept"), "application/json"},
		"body":          {rec.bodies[0], `{"prompt":"Document the API"}`},
	}
	for name, got := range checks {
		if got[0] != got[1] {
			t.Errorf("%s = %q, want %q", name, got[0], got[1])
		}
	}
}

func TestClient_defaultUserAgentNamesSDKVersion(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, jobJSON))
	c := newTestClient(t, ts.URL, nil)
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); err != nil {
		t.Fatal(err)
	}
	if got := rec.requests[0].Header.Get("User-Agent"); got != "mintlify-go-sdk/"+Version {
		t.Errorf("User-Agent = %q", got)
	}
}

// Ids that would need escaping are refused (see ValidateProjectID); every
// id that is allowed is sent as it is, one segment.
func TestClient_pathSegmentsAreSentAsGiven(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, jobJSONFor("a.b~c:d")))
	c := newTestClient(t, ts.URL, nil)
	if _, err := c.AgentJobs.Get(context.Background(), "acme_docs-2", "a.b~c:d"); err != nil {
		t.Fatal(err)
	}
	if got, want := rec.requests[0].URL.EscapedPath(), "/v2/agent/acme_docs-2/job/a.b~c:d"; got != want {
		t.Errorf("path = %q, want %q", got, want)
	}
	if rec.requests[0].URL.RawQuery != "" {
		t.Errorf("query = %q, want none", rec.requests[0].URL.RawQuery)
	}
	if _, err := c.AgentJobs.Get(context.Background(), "p", "a/b?c"); !IsValidation(err) || rec.count() != 1 {
		t.Errorf("an id with a slash and a question mark: %v", err)
	}
	// escapePath itself keeps any segment one segment.
	if got := escapePath("v2", "acme docs/β", "a?b#c"); got != "/v2/acme%20docs%2F%CE%B2/a%3Fb%23c" {
		t.Errorf("escapePath = %q", got)
	}
}

func TestClient_neverForwardsKeyToAnotherHost(t *testing.T) {
	var leaked, sameHost []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked = append(leaked, r.Header.Get("Authorization"))
		jsonResponse(200, jobJSONFor("leave"))(w, r)
	}))
	defer other.Close()
	var origin *httptest.Server
	origin = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "same") {
			sameHost = append(sameHost, r.Header.Get("Authorization"))
			jsonResponse(200, jobJSONFor("stay"))(w, r)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/job/stay") {
			http.Redirect(w, r, origin.URL+"/same", http.StatusFound)
			return
		}
		// Another port on the same IP is another host: Go's own policy
		// would forward the key there.
		http.Redirect(w, r, other.URL+"/elsewhere", http.StatusTemporaryRedirect)
	}))
	defer origin.Close()
	c := newTestClient(t, origin.URL, nil)

	if _, err := c.AgentJobs.Get(context.Background(), "p", "leave"); err != nil {
		t.Fatal(err)
	}
	if len(leaked) != 1 || leaked[0] != "" {
		t.Errorf("redirect to another host got Authorization %q", leaked)
	}
	if _, err := c.AgentJobs.Get(context.Background(), "p", "stay"); err != nil {
		t.Fatal(err)
	}
	if len(sameHost) != 1 || sameHost[0] != "Bearer "+mintlifytest.DemoAPIKey {
		t.Errorf("redirect on the same host got Authorization %q, want the key kept", sameHost)
	}
}

func TestClient_refusesRedirectToPlainHTTPOffLoopback(t *testing.T) {
	_, ts := newRecorder(t, respond(http.StatusFound, "", "", "Location", "http://example.com/x"))
	c := newTestClient(t, ts.URL, nil, WithMaxRetries(0))
	_, err := c.AgentJobs.Get(context.Background(), "p", "j")
	if err == nil || !strings.Contains(err.Error(), "refusing redirect to insecure URL") {
		t.Fatalf("err = %v", err)
	}
}

func TestClient_customHTTPClientRedirectPolicyStillRuns(t *testing.T) {
	_, ts := newRecorder(t, respond(http.StatusFound, "", "", "Location", "/v2/agent/p/job/other"), jsonResponse(200, jobJSON))
	called := false
	hc := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error {
		called = true
		return errors.New("no redirects here")
	}}
	c := newTestClient(t, ts.URL, nil, WithHTTPClient(hc), WithMaxRetries(0))
	_, err := c.AgentJobs.Get(context.Background(), "p", "j")
	if !called || err == nil || !strings.Contains(err.Error(), "no redirects here") {
		t.Fatalf("called=%v err=%v", called, err)
	}
	if hc.CheckRedirect == nil {
		t.Fatal("caller's client was modified")
	}
}

func TestClient_requestHookSeesEveryAttemptButNoSecrets(t *testing.T) {
	_, ts := newRecorder(t, respond(502, "text/html", "<h1>bad</h1>", "X-Request-Id", "req-1"), jsonResponse(200, jobJSON, "X-Request-Id", "req-2"))
	var infos []RequestInfo
	c := newTestClient(t, ts.URL, nil, WithRequestHook(func(_ context.Context, i RequestInfo) { infos = append(infos, i) }), WithClock(realClockNoSleep{}))
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); err != nil {
		t.Fatal(err)
	}
	if len(infos) != 2 || infos[0].Attempt != 1 || infos[0].StatusCode != 502 || infos[1].Attempt != 2 || infos[1].StatusCode != 200 {
		t.Fatalf("hook saw %+v", infos)
	}
	if infos[0].Method != "GET" || infos[0].Path != "/v2/agent/p/job/j" || infos[0].RequestID != "req-1" || infos[1].RequestID != "req-2" || infos[0].Err != nil || infos[0].Query != "" {
		t.Errorf("hook info = %+v", infos[0])
	}
	// A query is logged; a page read says which one.
	infos = nil
	_, ts = newRecorder(t, jsonResponse(200, visitorsPageJSON(false, "/a")))
	c = newTestClient(t, ts.URL, nil, WithRequestHook(func(_ context.Context, i RequestInfo) { infos = append(infos, i) }))
	if _, err := c.Analytics.Visitors.Page(context.Background(), "p", VisitorsQuery{Limit: 3}); err != nil {
		t.Fatal(err)
	}
	if len(infos) != 1 || infos[0].Query != "limit=3&offset=0" || infos[0].Path != "/v1/analytics/p/visitors" || infos[0].Duration <= 0 {
		t.Errorf("hook saw %+v", infos)
	}
}

// realClockNoSleep is the real clock without waiting, for tests of retries
// that do not care about the delay.
type realClockNoSleep struct{ transport.WallClock }

func (realClockNoSleep) Sleep(ctx context.Context, _ time.Duration) error { return ctx.Err() }

func TestPOST_redirectIsNeverFollowed(t *testing.T) {
	for _, status := range []int{300, 301, 302, 303, 307, 308} {
		var elsewhere int
		other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			elsewhere++
			jsonResponse(200, jobJSON)(w, r)
		}))
		rec, ts := newRecorder(t, respond(status, "", "", "Location", other.URL+"/v2/agent/p/job"))
		c := newTestClient(t, ts.URL, nil)
		job, err := c.AgentJobs.Create(context.Background(), "p", "x")
		other.Close()
		if job != nil || err == nil || !strings.Contains(err.Error(), `redirected to "`+other.URL+`/v2/agent/p/job"`) {
			t.Errorf("%d: job %+v, err %v", status, job, err)
		}
		if elsewhere != 0 || rec.count() != 1 || MayHaveTakenEffect(err) {
			t.Errorf("%d: the redirect was followed (%d requests there, %d here)", status, elsewhere, rec.count())
		}
	}
}

func TestGET_redirectLoopIsFinal(t *testing.T) {
	rec, ts := newRecorder(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, r.URL.Path, http.StatusFound) })
	c := newTestClient(t, ts.URL, &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)})
	_, err := c.AgentJobs.Get(context.Background(), "p", "j")
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") || rec.count() != 10 {
		t.Fatalf("err = %v after %d requests; a redirect loop is not retried", err, rec.count())
	}
}

func TestBaseURL_keepsTheUsersEncoding(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, jobJSON))
	c := newTestClient(t, ts.URL+"/proxy%2Fmintlify/", nil)
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); err != nil {
		t.Fatal(err)
	}
	if got := rec.requests[0].URL.EscapedPath(); got != "/proxy%2Fmintlify/v2/agent/p/job/j" {
		t.Errorf("path = %q", got)
	}
	if c.BaseURL() != ts.URL+"/proxy%2Fmintlify" {
		t.Errorf("BaseURL() = %q", c.BaseURL())
	}
}

func TestBoundary_keyCharacters(t *testing.T) {
	for _, bad := range []string{"mint_\x7f", "mint_ ", "mint_\x1f", " ", "x", "mint", "Mint_x", "MINT_x", "mint_dsc_ABC-123.456", "mint_us_x", "mint_dsc_", "mint_us_"} {
		if err := ValidateAPIKey(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, good := range []string{"mint_!~", "mint_", "mint_x", "mint_dsc", "mint_dscx", "mint_us", "mint_usx", "mint_u_s_x", "mint_x_mint_dsc_y", "mint_\x7e"} {
		if err := ValidateAPIKey(good); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
}

func TestBoundary_maxResponseBytesMinimum(t *testing.T) {
	if _, err := NewClient("mint_x", WithMaxResponseBytes(1024)); err != nil {
		t.Errorf("1024: %v", err)
	}
	if _, err := NewClient("mint_x", WithMaxResponseBytes(1023)); err == nil {
		t.Error("1023 accepted")
	}
}

func TestBoundary_redirectLoopStopsAfterTen(t *testing.T) {
	rec, ts := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
	})
	c := newTestClient(t, ts.URL, nil, WithMaxRetries(0))
	_, err := c.AgentJobs.Get(context.Background(), "p", "j")
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") || rec.count() != 10 {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
}
