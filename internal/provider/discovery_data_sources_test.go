package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// searchProvider configures the provider with the assistant key alone:
// the discovery data sources need nothing else.
func searchProvider(url string) string {
	return assistantProvider(mintlifytest.DemoAssistantKey, url, mintlifytest.DemoDomain)
}

// assistantProvider configures the provider with the assistant key key
// alone, for the API at url, with domain as the default docs site ("":
// none).
func assistantProvider(key, url, domain string) string {
	return providerConfig("assistant_api_key", key, url, "domain", domain)
}

// clearDiscoveryEnv keeps a developer's discovery variables out of a test.
func clearDiscoveryEnv(t *testing.T) {
	clearEnv(t)
	t.Setenv(EnvAssistantAPIKey, "")
	t.Setenv(EnvDomain, "")
}

// checkStatus asserts a check block's result in state: "pass" or "fail",
// and, when failing, that a problem says want.
func checkStatus(name string, status tfjson.CheckStatus, want string) statecheck.StateCheck {
	return checkState(func(s *tfjson.State) error {
		for _, c := range s.Checks {
			if c.Address.Kind != tfjson.CheckKindCheckBlock || c.Address.Name != name {
				continue
			}
			if c.Status != status {
				return fmt.Errorf("check %s is %s, want %s: %+v", name, c.Status, status, c.Instances)
			}
			var problems []string
			for _, in := range c.Instances {
				for _, p := range in.Problems {
					problems = append(problems, p.Message)
				}
			}
			if want != "" && !strings.Contains(strings.Join(problems, "\n"), want) {
				return fmt.Errorf("check %s's problems %q do not say %q", name, problems, want)
			}
			return nil
		}
		return fmt.Errorf("no check %s in state (%d checks)", name, len(s.Checks))
	})
}

// onlyDiscoveryRequests asserts that the fake saw requests of the
// discovery API alone (the admin API was never called), each with the
// demo organization's assistant key (another kind would be a 401).
func onlyDiscoveryRequests(fs *mintlifytest.Fake, atLeast int) statecheck.StateCheck {
	return checkState(func(*tfjson.State) error {
		log := fs.RequestLog()
		if len(log) < atLeast {
			return fmt.Errorf("%d requests, want at least %d", len(log), atLeast)
		}
		for _, r := range log {
			if !strings.HasPrefix(r.Path, "/discovery/v1/") || r.Org != mintlifytest.DemoOrg || r.Status != 200 && r.Status != 404 {
				return fmt.Errorf("request %s %s (org %q) answered %d", r.Method, r.Path, r.Org, r.Status)
			}
		}
		return nil
	})
}

// The data sources' state is what the fake answers for the same query,
// with the assistant key alone.
func TestAccSearch_stateMatchesTheFake(t *testing.T) {
	clearDiscoveryEnv(t)
	fs, url, clk := startFake(t, mintlifytest.Config{})
	th := 0.3
	runSteps(t, clk, []resource.TestStep{{
		Config: searchProvider(url) + `
data "mintlify_search" "deploy" {
  query           = "deploy preview"
  page_size       = 2
  score_threshold = 0.3
}

data "mintlify_search" "staff" {
  query    = "rotate key"
  language = "en"
  groups   = ["staff"]
}

data "mintlify_search" "nothing" {
  query  = "deploy"
  domain = "demo-docs"
  tag    = "changelog"
}

data "mintlify_page" "runbook" {
  path   = "internal/runbook"
  groups = ["staff"]
}
`,
		ConfigStateChecks: []statecheck.StateCheck{
			searchMatchesFake(fs, "data.mintlify_search.deploy", mintlifytest.SearchQuery{Query: "deploy preview", PageSize: 2, ScoreThreshold: &th}),
			searchMatchesFake(fs, "data.mintlify_search.staff", mintlifytest.SearchQuery{Query: "rotate key", Language: "en", Groups: []string{"staff"}}),
			searchMatchesFake(fs, "data.mintlify_search.nothing", mintlifytest.SearchQuery{Query: "deploy", Tag: "changelog"}),
			statecheck.ExpectKnownValue("data.mintlify_search.deploy", tfjsonPath("domain"), knownString(mintlifytest.DemoDomain)),
			statecheck.ExpectKnownValue("data.mintlify_page.runbook", tfjsonPath("content"), knownString(mintlifytest.DemoPages()[11].Content)),
			onlyDiscoveryRequests(fs, 4), // the assistant key alone serves them
		},
	}})
}

// A search answer that echoes the assistant key as a metadata key, and
// as its value, keeps it out of state and outputs: keys are redacted as
// values are (hole 4 of #43: the key was a metadata key in
// terraform.tfstate).
func TestAccSearch_anEchoedKeyNeverReachesState(t *testing.T) {
	clearDiscoveryEnv(t)
	key := mintlifytest.DemoAssistantKey
	_, url, clk := startFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteDiscoverySearch, Kind: mintlifytest.FaultMalformed,
		Body: `[{"path":"/a","content":"c","metadata":{"` + key + `":"` + key + `","title":"T"}}]`}}})
	runSteps(t, clk, []resource.TestStep{{
		Config: searchProvider(url) + `
data "mintlify_search" "echo" {
  query = "deploy"
}

output "metadata" {
  value = data.mintlify_search.echo.results[0].metadata
}
`,
		ConfigStateChecks: []statecheck.StateCheck{
			checkState(func(s *tfjson.State) error {
				b, err := json.Marshal(s)
				switch {
				case err != nil:
					return err
				case bytes.Contains(b, []byte(key)):
					return fmt.Errorf("state holds the key: %s", b)
				case !bytes.Contains(b, []byte(`"title":"T"`)) || !bytes.Contains(b, []byte(`"[REDACTED]":"[REDACTED]"`)):
					return fmt.Errorf("state lost the metadata: %s", b)
				}
				return nil
			}),
		},
	}})
}

// searchMatchesFake compares a mintlify_search in state with the fake's
// own answer: paths, content and metadata (non-strings as JSON), in order.
func searchMatchesFake(fs *mintlifytest.Fake, addr string, q mintlifytest.SearchQuery) statecheck.StateCheck {
	return valuesInState(addr, func(vals map[string]any) error {
		want := fs.SearchData(mintlifytest.DemoDomain, q)
		got, _ := vals["results"].([]any)
		paths, _ := vals["paths"].([]any)
		if len(got) != len(want) || len(paths) != len(want) {
			return fmt.Errorf("%s: %d results (%d paths) in state, %d on the server", addr, len(got), len(paths), len(want))
		}
		for i, w := range want {
			g := got[i].(map[string]any)
			meta := g["metadata"].(map[string]any)
			if g["path"] != w.Path || paths[i] != w.Path || g["content"] != w.Content || meta["title"] != w.Metadata["title"] ||
				meta["score"] != fmt.Sprint(w.Metadata["score"]) || len(meta) != len(w.Metadata) {
				return fmt.Errorf("%s result %d: state %v, server %+v", addr, i, g, w)
			}
		}
		return nil
	})
}

// The results as state holds them: metadata strings as they are, other
// values as JSON (numbers as the API wrote them), no metadata an empty
// map; paths in the results' order.
func TestSearch_applyResultsKeepsMetadataAsStrings(t *testing.T) {
	var m searchModel
	m.applyResults(&sdk.SearchResults{Results: []sdk.SearchResult{
		{Path: "/a", Content: "x", Metadata: map[string]any{"title": "A", "score": json.Number("0.10"), "big": json.Number("1152921504606846976"),
			"draft": false, "none": nil, "tags": []any{"x", json.Number("1")}, "nested": map[string]any{"k": "v \"q\" <b>"}, "empty": ""}},
		{Path: "", Content: ""},
	}})
	want := `[{"content":"x","metadata":{"big":"1152921504606846976","draft":"false","empty":"","nested":"{\"k\":\"v \\\"q\\\" \\u003cb\\u003e\"}",` +
		`"none":"null","score":"0.10","tags":"[\"x\",1]","title":"A"},"path":"/a"},{"content":"","metadata":{},"path":""}]`
	if got := m.Results.String(); got != want {
		t.Errorf("results:\n got %s\nwant %s", got, want)
	}
	if got := m.Paths.String(); got != `["/a",""]` {
		t.Errorf("paths: %s", got)
	}
	s := (&searchModel{}).schema()
	if !m.Results.Type(t.Context()).Equal(s.Attributes["results"].GetType()) || !m.Paths.Type(t.Context()).Equal(s.Attributes["paths"].GetType()) {
		t.Errorf("types %s and %s", m.Results.Type(t.Context()), m.Paths.Type(t.Context()))
	}
}

// With only an assistant key, what needs the admin key says so at plan,
// before any request; without an assistant key, the discovery data
// sources say which key they need.
func TestAccProvider_eachKeyServesItsOwnAPI(t *testing.T) {
	clearDiscoveryEnv(t)
	fs, url, clk := startFake(t, mintlifytest.Config{})
	for name, tt := range map[string]struct {
		config string
		want   []string
	}{
		"a resource without the admin key": {searchProvider(url) + `
resource "mintlify_agent_job" "x" {
  project_id = "demo-project"
  prompt     = "Document it"
}`, []string{"Missing Mintlify API key", "needs an admin API key", "api_key", "MINTLIFY_API_KEY", "assistant_api_key"}},
		"an analytics read without the admin key": {searchProvider(url) + `
data "mintlify_unique_visitors" "x" {
  project_id = "demo-project"
}`, []string{"Missing Mintlify API key", "needs an admin API key"}},
		"search without the assistant key": {providerBlock(url) + `
data "mintlify_search" "x" {
  domain = "demo-docs"
  query  = "install"
}`, []string{"Missing Mintlify assistant API key", "not the admin key", "assistant_api_key", "MINTLIFY_ASSISTANT_API_KEY"}},
		"an admin key as the assistant key": {assistantProvider(mintlifytest.DemoAPIKey, url, "") + `
data "mintlify_page" "x" {
  domain = "demo-docs"
  path   = "/quickstart"
}`, []string{"Invalid Mintlify assistant API key", "is an admin API key (mint_...), for the admin API, not an assistant API key (mint_dsc_...)"}},
		"no domain anywhere": {assistantProvider(mintlifytest.DemoAssistantKey, url, "") + `
data "mintlify_page" "x" {
  path = "/quickstart"
}`, []string{"Missing domain", "MINTLIFY_DOMAIN"}},
		"no key at all": {`
data "mintlify_search" "x" {
  domain = "demo-docs"
  query  = "install"
}`, []string{"Missing Mintlify API key", "assistant_api_key"}},
	} {
		t.Run(name, func(t *testing.T) {
			runSteps(t, clk, []resource.TestStep{{Config: tt.config, PlanOnly: true, ExpectError: wrapped(tt.want...)}})
		})
	}
	wantNoRequests(t, fs, "for a wrong key")
}

// Every bad input is refused at plan, with the SDK's rule, and 0 requests.
func TestAccSearch_badInputRefusedAtPlan(t *testing.T) {
	clearDiscoveryEnv(t)
	fs, url, clk := startFake(t, mintlifytest.Config{})
	// search is a search for "install" with one more argument.
	search := func(arg string) string {
		return "data \"mintlify_search\" \"x\" {\n  query = \"install\"\n  " + arg + "\n}"
	}
	for config, want := range map[string][]string{
		search(`page_size = 51`):                                 {"page_size is 51; it must be a whole number from 1 to 50"},
		search(`page_size = 2.5`):                                {"page_size is 2.5"},
		search(`score_threshold = 1.5`):                          {"score_threshold is 1.5; it must be between 0 and 1"},
		search(`domain = "a b"`):                                 {`domain "a b" may hold only ASCII letters`},
		search(`domain = "https://demo-docs.mintlify.app/docs"`): {`domain "https://demo-docs.mintlify.app/docs" is a URL or a path: write the domain identifier alone`, `write "demo-docs"`},
		search(`groups = ["staff", " "]`):                        {"must not be empty or only white space"},
		`data "mintlify_search" "x" { query = "   " }`:           {`query "   " must not be empty or only white space`},
		`data "mintlify_page" "x" { path = "" }`:                 {`path "" must not be empty`},
	} {
		runSteps(t, clk, []resource.TestStep{{Config: searchProvider(url) + config, PlanOnly: true, ExpectError: wrapped(want...)}})
	}
	wantNoRequests(t, fs, "at plan")
}

// A page the site does not have fails the read, saying what to check; a
// search that is rate limited says when to try again.
func TestAccSearch_refusalsSayWhatToDo(t *testing.T) {
	clearDiscoveryEnv(t)
	fs, url, clk := startFake(t, mintlifytest.Config{})
	runSteps(t, clk, []resource.TestStep{{
		Config: searchProvider(url) + `
data "mintlify_page" "x" {
  path = "/no-such-page"
}`,
		ExpectError: wrapped("Could not read page /no-such-page of demo-docs", "404", "Page not found", "check path and domain"),
	}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteDiscoverySearch, Kind: mintlifytest.FaultRateLimit, RetryAfter: 2 * time.Hour})
	runSteps(t, clk, []resource.TestStep{{
		Config: searchProvider(url) + `
data "mintlify_search" "x" {
  query = "install"
}`,
		ExpectError: wrapped("Could not search demo-docs", "429", "10,000 requests per organization per hour", "Try again after"),
	}})
	wantRequests(t, fs, mintlifytest.RouteDiscoverySearch, 1, "searches: a long rate limit is not waited through")
}

// A spent discovery budget costs a plan one refused request, not one per
// data source: the first read is refused, the others are not sent, and
// each error says so and when to try again.
func TestAccSearch_spentBudgetCostsOneRefusal(t *testing.T) {
	clearDiscoveryEnv(t)
	fs, url, clk := startFake(t, mintlifytest.Config{})
	fs.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: 2 * time.Hour})
	runSteps(t, clk, []resource.TestStep{{
		Config: searchProvider(url) + `
data "mintlify_search" "install" {
  query = "install"
}
data "mintlify_search" "deploy" {
  query = "deploy"
}
data "mintlify_search" "changelog" {
  query = "changelog"
}
data "mintlify_page" "quickstart" {
  path = "/quickstart"
}`,
		PlanOnly:    true,
		ExpectError: wrapped("not sent: the organization's discovery budget is known to be spent", "This request was not sent", "Try again after"),
	}})
	if hits, n := fs.FaultHits()[0], fs.TotalRequests(); hits != 1 || n != 1 {
		t.Errorf("%d refused requests (%d in all) for a plan of 4 discovery data sources, want 1", hits, n)
	}
}

// Configured from the environment alone: the key, the domain and the
// address (MINTLIFY_BASE_URL + /discovery).
func TestAccSearch_configFromEnvironment(t *testing.T) {
	clearDiscoveryEnv(t)
	fs, url, clk := startFake(t, mintlifytest.Config{})
	t.Setenv(EnvAssistantAPIKey, mintlifytest.DemoAssistantKey)
	t.Setenv(EnvDomain, mintlifytest.DemoDomain)
	t.Setenv(EnvBaseURL, url)
	runSteps(t, clk, []resource.TestStep{{
		Config: `
provider "mintlify" {}
data "mintlify_search" "x" {
  query = "install the CLI"
}`,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.mintlify_search.x", tfjsonPath("domain"), knownString(mintlifytest.DemoDomain)),
			searchMatchesFake(fs, "data.mintlify_search.x", mintlifytest.SearchQuery{Query: "install the CLI"}),
		},
	}})
}

func TestLogsNeverHoldTheAssistantKey(t *testing.T) {
	const key = "mint_dsc_secret_0123456789"
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	data := &providerData{apiKey: "mint_admin_secret", assistantKey: key}
	ctx = data.logContext(ctx)
	tflog.Info(ctx, "keys "+key+" and mint_admin_secret", map[string]any{"assistant_api_key": "anything", "note": "Bearer " + key})
	logRequest(ctx, sdk.RequestInfo{Method: "POST", Path: "/v1/search/" + key, Attempt: 1, StatusCode: 200, Err: errors.New("echo " + key)})
	raw := out.String()
	if strings.Contains(raw, key) || strings.Contains(raw, "mint_admin_secret") || strings.Contains(raw, "anything") {
		t.Fatalf("log holds a key:\n%s", raw)
	}
	if !strings.Contains(raw, `"@message":"keys *** and ***"`) || !strings.Contains(raw, `"assistant_api_key":"***"`) {
		t.Errorf("masked values missing from the log:\n%s", raw)
	}
}

func TestDiscoveryErrorDetail_advice(t *testing.T) {
	wantAdvice(t, map[int]string{
		401: "check assistant_api_key (or MINTLIFY_ASSISTANT_API_KEY)",
		403: "check domain",
		404: "the 404 advice",
		429: "10,000 requests per organization per hour); until the time it gave, no other search or page read of this run is sent. Try again after 2026-11-21 13:00:00 UTC.",
		500: "500",
	}, func(status int) string {
		err := fmt.Errorf("searching: %w", &sdk.APIError{StatusCode: status, Method: "POST", Path: "/v1/search/d", RetryAt: adviceRetryAt})
		return discoveryErrorDetail(err, "the 404 advice")
	})
	notSent := discoveryErrorDetail(fmt.Errorf("searching: %w", &sdk.APIError{StatusCode: 429, Method: "POST", Path: "/v1/search/d",
		RetryAt: adviceRetryAt, RetryAfter: time.Hour, NotSent: true, Budget: "the organization's discovery budget"}), "x")
	for _, want := range []string{"not sent: the organization's discovery budget is known to be spent", "This request was not sent", "Try again after 2026-11-21 13:00:00 UTC."} {
		if !strings.Contains(notSent, want) {
			t.Errorf("not sent: %q lacks %q", notSent, want)
		}
	}
	if strings.Contains(notSent, "analytics") || strings.Contains(notSent, "cache") || strings.Contains(notSent, "rate-limited this request") {
		t.Errorf("not sent, worded as for analytics or as sent: %q", notSent)
	}
	if got := discoveryErrorDetail(errors.New("plain"), "x"); got != "plain" {
		t.Errorf("%q", got)
	}
	dial := fmt.Errorf("searching: %w", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")})
	if got := discoveryErrorDetail(dial, "x"); !strings.Contains(got, "check base_url") || !strings.HasSuffix(got, seeTroubleshooting) {
		t.Errorf("unreachable: %q", got)
	}
}
