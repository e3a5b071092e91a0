package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// hostile is the fake behind a stand-in that rewrites chosen answers: a
// misbehaving API, or something between the provider and the API.
type hostile struct {
	fake    *mintlifytest.Fake
	rewrite func(r *http.Request, status int, body string) (int, string)
}

func (h hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := httptest.NewRecorder()
	h.fake.ServeHTTP(rec, r)
	status, body := h.rewrite(r, rec.Code, rec.Body.String())
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// startHostile serves the fake behind rewrite, for one test.
func startHostile(t *testing.T, rewrite func(r *http.Request, status int, body string) (int, string)) (*mintlifytest.Fake, string) {
	t.Helper()
	fs := mintlifytest.New(mintlifytest.Config{DefaultJob: mintlifytest.JobScript{ActiveFor: 100 * time.Millisecond, Outcome: mintlifytest.OutcomeCompleted},
		Analytics: mintlifytest.Dataset{Paths: 20}})
	ts := httptest.NewServer(hostile{fs, rewrite})
	t.Cleanup(ts.Close)
	return fs, ts.URL
}

func isCreate(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/job")
}

func TestAccHardening_malformedCreateAnswerKeepsTheJob(t *testing.T) {
	clearEnv(t)
	fs, url := startHostile(t, func(r *http.Request, status int, body string) (int, string) {
		if isCreate(r) {
			body = strings.Replace(body, `"createdAt":"2`, `"createdAt":12345,"x":"2`, 1)
		}
		return status, body
	})
	cfg := jobConfig(url, "Document it", "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders(),
		Steps: []resource.TestStep{
			{Config: cfg, ExpectError: wrapped(`Malformed answer from Mintlify`, `createdAt: want a string or null, got a number`, `was created and is saved in state (tainted`)},
			jobKeptTainted(fs, cfg),
		},
	})
	if n := fs.Requests(mintlifytest.RouteCreateJob); n != 1 {
		t.Errorf("%d POSTs", n)
	}
}

func TestAccHardening_redirectedPOSTIsAnErrorNamingTheLocation(t *testing.T) {
	clearEnv(t)
	fs, url := startHostile(t, func(_ *http.Request, status int, body string) (int, string) { return status, body })
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, url+r.URL.Path, http.StatusFound)
	}))
	defer redirector.Close()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders(),
		Steps: []resource.TestStep{{
			Config:      jobConfig(redirector.URL, "x", ""),
			ExpectError: wrapped(`Could not create the agent job`, `302 Found: redirected to "`+url+`/v2/agent/demo-project/job"`, `a POST is never followed`),
		}},
	})
	if n := fs.TotalRequests(); n != 0 {
		t.Errorf("the redirect was followed: %d requests at its target", n)
	}
}

func TestJobRun_aRequestThatNeverLeftDoesNotClaimAJob(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	data := clientFor(t, closed)
	var diags diag.Diagnostics
	job := jobRun{data: data, projectID: "p", wait: true, timeout: time.Minute, words: createWords,
		send:  func(ctx context.Context) (*sdk.AgentJob, error) { return data.client.AgentJobs.Create(ctx, "p", "x") },
		onJob: func(*sdk.AgentJob) { t.Error("no job") },
	}.run(t.Context(), &diags)
	text := diagText(diags, diag.SeverityError)
	if job != nil || !strings.Contains(text, "Could not create the agent job") || !strings.Contains(text, "connection refused") {
		t.Fatalf("%v: %s", job, text)
	}
	if strings.Contains(text, "may exist") || strings.Contains(text, "may have reached") {
		t.Errorf("a refused connection claims a job may exist: %s", text)
	}
}

func TestAccHardening_stalledReadEndsAtTheRequestTimeout(t *testing.T) {
	clearEnv(t)
	fs, url := startFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 5}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteVisitors, Kind: mintlifytest.FaultLatency, Latency: time.Hour})
	cfg := strings.Replace(providerBlock(url), "provider \"mintlify\" {", "provider \"mintlify\" {\n  request_timeout = \"300ms\"\n  max_retries = 1", 1) +
		"data \"mintlify_unique_visitors\" \"test\" {}\n"
	start := time.Now()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders(),
		Steps:                    []resource.TestStep{{Config: cfg, ExpectError: wrapped(`Could not read unique visitors`, `no response within 300ms (the request timeout)`)}},
	})
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("took %s", took)
	}
	if n := fs.Requests(mintlifytest.RouteVisitors); n != 2 {
		t.Errorf("%d attempts, want the first and one retry", n)
	}
}

// An answer echoing the key puts it nowhere: not in state, not in outputs.
func TestAccHardening_echoedKeyNeverReachesState(t *testing.T) {
	clearEnv(t)
	key := mintlifytest.DemoAPIKey
	_, url := startHostile(t, func(_ *http.Request, status int, body string) (int, string) {
		body = strings.ReplaceAll(body, `"model":"claude-sonnet-4-5"`, `"model":"`+key+`"`)
		body = strings.Replace(body, `"path":"/"`, `"path":"/`+key+`"`, 1)
		return status, body
	})
	cfg := jobConfig(url, "x", "") + `
data "mintlify_unique_visitors" "test" {}
output "model" { value = mintlify_agent_job.test.model }
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders(),
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("model"), knownString("[REDACTED]")),
				statecheck.ExpectKnownOutputValue("model", knownString("[REDACTED]")),
				checkState(func(s *tfjson.State) error {
					vals, _ := resourceValues(s.Values.RootModule, visitorsAddr)
					if first := vals["visitors"].([]any)[0].(map[string]any)["path"]; first != "/[REDACTED]" {
						return fmt.Errorf("first path %v", first)
					}
					// Nowhere in the whole state, outputs included.
					all, err := json.Marshal(s)
					if err != nil || strings.Contains(string(all), key) {
						return fmt.Errorf("the state holds the key (%w)", err)
					}
					return nil
				}),
			},
		}},
	})
}

func TestAgentJobRead_hostileAnswers(t *testing.T) {
	var body string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	defer srv.Close()
	r := &agentJobResource{data: clientFor(t, srv.URL)}
	state := map[string]tftypes.Value{"id": str("job-1"), "project_id": str("p"), "prompt": str("x"), "status": str("active")}

	body = `{"id":"job-1","status":"completed","prLink":"javascript:alert(1)","source":{"repository":"r"}}`
	resp := readResource(t, r, state)
	var link *string
	resp.State.GetAttribute(t.Context(), tfjsonPathToPath("pr_link"), &link)
	if link != nil || !strings.Contains(diagText(resp.Diagnostics, diag.SeverityWarning), `gave agent job job-1 the pull request link "javascript:alert(1)", which is not an absolute http(s) URL: pr_link is recorded as null`) {
		t.Errorf("pr_link %v, diagnostics %v", link, resp.Diagnostics)
	}

	body = `{"id":"job-2","status":"completed"}`
	resp = readResource(t, r, state)
	var id, status string
	resp.State.GetAttribute(t.Context(), tfjsonPathToPath("id"), &id)
	resp.State.GetAttribute(t.Context(), tfjsonPathToPath("status"), &status)
	if !strings.Contains(diagText(resp.Diagnostics, diag.SeverityError), `the answer is for job "job-2", not job "job-1"`) || id != "job-1" || status != "active" {
		t.Errorf("another job's answer: id %q, status %q, %v", id, status, resp.Diagnostics)
	}
	for link, ok := range map[string]bool{"https://github.com/a/b/pull/1": true, "http://ghe.local/x": true, "javascript:alert(1)": false,
		"/relative": false, "https://": false, "https://user:pw@github.com/x": false, "ftp://x/y": false} {
		if isWebURL(link) != ok {
			t.Errorf("isWebURL(%q) = %v", link, !ok)
		}
	}
}

func TestAccHardening_keyWithANewlineIsNamed(t *testing.T) {
	clearEnv(t)
	_, url := startFake(t, mintlifytest.Config{})
	t.Setenv(EnvAPIKey, mintlifytest.DemoAPIKey+"\n")
	t.Setenv(EnvBaseURL, url)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders(),
		Steps: []resource.TestStep{{
			Config:      `data "mintlify_unique_visitors" "x" { project_id = "p" }`,
			ExpectError: wrapped(`Invalid Mintlify API key`, `contains a newline (often a trailing one, from a file or a secret store): remove it`),
		}},
	})
}

// Errors about the key are not attached to api_key: Terraform would print
// the configuration line, which may hold the key.
func TestConfigure_keyErrorsPointAtNoLine(t *testing.T) {
	clearEnv(t)
	for _, key := range []string{"mint_secret value", "mint_secret\n", ""} {
		resp := configureProvider(t, map[string]tftypes.Value{"api_key": str(key)})
		if !resp.Diagnostics.HasError() {
			t.Fatalf("%q accepted", key)
		}
		for _, d := range resp.Diagnostics {
			if wp, ok := d.(diag.DiagnosticWithPath); ok {
				t.Errorf("%q: the diagnostic points at %s", key, wp.Path())
			}
			if key != "" && strings.Contains(d.Detail(), "mint_secret") {
				t.Errorf("%q: the key is in the message: %s", key, d.Detail())
			}
		}
	}
}
