package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
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
	// The fake reads the body; rewrite may read it again (promptOf).
	sent, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(sent))
	rec := httptest.NewRecorder()
	h.fake.ServeHTTP(rec, r)
	r.Body = io.NopCloser(bytes.NewReader(sent))
	status, body := h.rewrite(r, rec.Code, rec.Body.String())
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// startHostile serves the fake behind rewrite, for one test, on a manual
// clock as startFake does.
func startHostile(t *testing.T, rewrite func(r *http.Request, status int, body string) (int, string)) (*mintlifytest.Fake, string, *testClock) {
	t.Helper()
	clk := newTestClock()
	fs := mintlifytest.New(mintlifytest.Config{Clock: clk, DefaultJob: mintlifytest.JobScript{ActiveFor: 3 * time.Minute, Outcome: mintlifytest.OutcomeCompleted},
		Analytics: mintlifytest.Dataset{Paths: 20}})
	ts := httptest.NewServer(hostile{fs, rewrite})
	t.Cleanup(ts.Close)
	return fs, ts.URL, clk
}

func isCreate(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/job")
}

// promptOf is the prompt a POST sent ("" for other requests).
func promptOf(r *http.Request) string {
	var body struct {
		Prompt string `json:"prompt"`
	}
	if r.Method == http.MethodPost {
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &body)
	}
	return body.Prompt
}

var oddMarker = regexp.MustCompile(`\[odd:([a-zA-Z]+)\]`)

// oddAnswers rewrite the fake's answer to a POST the way a misbehaving API
// might, each picked by the marker [odd:NAME] in the POST's prompt.
var oddAnswers = map[string]func(body string) string{
	"createdAt": func(b string) string {
		return regexp.MustCompile(`"createdAt":"[^"]*"`).ReplaceAllString(b, `"createdAt":12345`)
	},
	"statusnum": func(b string) string { return strings.Replace(b, `"status":"active"`, `"status":7`, 1) },
	"nostatus":  func(b string) string { return strings.Replace(b, `"status":"active",`, ``, 1) },
	"empty":     func(string) string { return `{}` },
	"text":      func(string) string { return `OK` },
	"html":      func(string) string { return `<html><body><h1>Accepted</h1></body></html>` },
	"otherjob": func(b string) string {
		return regexp.MustCompile(`"id":"[^"]*"`).ReplaceAllString(b, `"id":"someone-elses-job"`)
	},
}

// oddProblems is what the provider says of each odd answer, as the SDK
// words it; JOB stands for the job's id.
var oddProblems = map[string]string{
	"createdAt": `createdAt: want a string or null, got a number`,
	"statusnum": `status: want a string or null, got a number`,
	"nostatus":  `status: missing or empty`,
	"empty": `the API accepted the message, but its answer is not this job: malformed response to POST ` +
		`/v2/agent/demo-project/job/JOB/message: id: missing or empty; status: missing or empty`,
	"text": `the API accepted the message, but its answer is not this job: malformed response to POST ` +
		`/v2/agent/demo-project/job/JOB/message: the body is not the API's JSON`,
	"html": `the API accepted the message, but its answer is not this job: malformed response to POST ` +
		`/v2/agent/demo-project/job/JOB/message: the body is not the API's JSON`,
	"otherjob": `the API accepted the message, but its answer is not this job: malformed response to POST ` +
		`/v2/agent/demo-project/job/JOB/message: id: the answer is for job "someone-elses-job", not job "JOB"`,
}

// rewriteOdd answers a 2xx POST whose prompt carries [odd:NAME] as
// oddAnswers[NAME] says; everything else passes unchanged.
func rewriteOdd(r *http.Request, status int, body string) (int, string) {
	if m := oddMarker.FindStringSubmatch(promptOf(r)); m != nil && status/100 == 2 {
		body = oddAnswers[m[1]](body)
	}
	return status, body
}

// sameCreatedAt checks that created_at in state is the job's creation on
// the server.
func sameCreatedAt(fs *mintlifytest.Fake, vals map[string]any) error {
	raw, _ := fs.Job(fmt.Sprint(vals["project_id"]), fmt.Sprint(vals["id"]))
	var job struct {
		CreatedAt time.Time `json:"createdAt"`
	}
	if err := json.Unmarshal(raw, &job); err != nil {
		return err
	}
	got, err := time.Parse(time.RFC3339Nano, fmt.Sprint(vals["created_at"]))
	if err != nil || !got.Equal(job.CreatedAt) {
		return fmt.Errorf("created_at %v, on the server %s (%w)", vals["created_at"], job.CreatedAt, err)
	}
	return nil
}

// unexpectedAnswer is the warning the provider gives about odd fields in
// the answers about job id.
func unexpectedAnswer(id, problems string) string {
	return "warning: Unexpected answer from Mintlify: Mintlify's answers about agent job " + id + " had fields the provider " +
		"could not use: " + problems + ". The agent job is kept as it is and nothing is run again because of it; the " +
		"attributes that could not be read are empty.\n"
}

// runOddAnswers applies cfg, whose instances addr[i] meet the odd answer
// odd[i], and checks each instance in state with checkOne (given the
// warnings so far); the provider must warn once per instance and give no
// error. The same cfg again then plans nothing: no odd answer is retried.
func runOddAnswers(t *testing.T, clk *testClock, cfg, addr string, odd []string, checkOne func(addr, key string, vals map[string]any, warnings string) error) {
	t.Helper()
	rec := &diagRecorder{}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: recordingProviders(clk, rec),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{checkState(func(s *tfjson.State) error {
					warnings := rec.text()
					for i, key := range odd {
						instance := fmt.Sprintf("%s[%d]", addr, i)
						vals, ok := resourceValues(s.Values.RootModule, instance)
						if !ok {
							return fmt.Errorf("%s not in state", instance)
						}
						if err := checkOne(instance, key, vals, warnings); err != nil {
							return err
						}
					}
					if n := rec.count("ApplyResourceChange", "Unexpected answer from Mintlify"); n != len(odd) || strings.Contains(warnings, "error:") {
						return fmt.Errorf("%d warnings, want %d:\n%s", n, len(odd), warnings)
					}
					return nil
				})},
			},
			{
				Config:           cfg,
				ConfigPlanChecks: plansNothing(),
			},
		},
	})
}

// A 201 whose id is right but one field is mistyped is still the job: it
// is kept untainted, the odd field is named, the job is waited for by
// reading it, and the next apply starts nothing.
func TestAccHardening_oddCreateAnswerKeepsTheJobUntainted(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startHostile(t, rewriteOdd)
	odd := []string{"createdAt", "statusnum", "nostatus"}
	cfg := providerBlock(url) + `
locals {
  odd = ["createdAt", "statusnum", "nostatus"]
}
resource "mintlify_agent_job" "test" {
  count  = length(local.odd)
  prompt = "[odd:${local.odd[count.index]}] Document it"
}
`
	runOddAnswers(t, clk, cfg, jobAddr, odd, func(addr, key string, vals map[string]any, warnings string) error {
		if err := compareJob(fs, vals); err != nil {
			return fmt.Errorf("%s: %w", addr, err)
		}
		// The wait read the job: the created_at the POST's answer lacked is there now.
		if err := sameCreatedAt(fs, vals); err != nil || vals["status"] != "completed" {
			return fmt.Errorf("%s: status %v, %w", addr, vals["status"], err)
		}
		if want := unexpectedAnswer(fmt.Sprint(vals["id"]), oddProblems[key]); strings.Count(warnings, want) != 1 {
			return fmt.Errorf("%s: warnings lack %q:\n%s", addr, want, warnings)
		}
		return nil
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, len(odd), "POSTs: an odd answer started a second job")
}

// A 2xx answer to a message that is not the job (nothing, text, a page,
// another job), or is the job with a mistyped field, still means the
// message was accepted: it is recorded, the job is read and waited for,
// and the next apply sends nothing.
func TestAccHardening_oddMessageAnswerIsRecordedAndNeverSentAgain(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startHostile(t, rewriteOdd)
	odd := []string{"empty", "text", "html", "otherjob", "createdAt", "statusnum", "nostatus"}
	cfg := providerBlock(url) + `
locals {
  odd = ["empty", "text", "html", "otherjob", "createdAt", "statusnum", "nostatus"]
}
resource "mintlify_agent_job" "docs" {
  count  = length(local.odd)
  prompt = "Update the docs"
}

resource "mintlify_agent_job_message" "test" {
  count  = length(local.odd)
  job_id = mintlify_agent_job.docs[count.index].id
  prompt = "[odd:${local.odd[count.index]}] Also the changelog"
}
`
	runOddAnswers(t, clk, cfg, messageAddr, odd, func(addr, key string, vals map[string]any, warnings string) error {
		jobID := fmt.Sprint(vals["job_id"])
		if vals["id"] != jobID+"/"+fmt.Sprint(vals["sent_at"]) || vals["status"] != "completed" || vals["model"] != "claude-sonnet-4-5" {
			return fmt.Errorf("%s: %v", addr, vals)
		}
		want := unexpectedAnswer(jobID, strings.ReplaceAll(oddProblems[key], "JOB", jobID))
		if key == "text" || key == "html" { // the JSON decoder's words follow
			want = strings.TrimSuffix(want, ". The agent job is kept as it is and nothing is run again because of it; the attributes that could not be read are empty.\n")
		}
		if strings.Count(warnings, want) != 1 {
			return fmt.Errorf("%s: warnings lack %q:\n%s", addr, want, warnings)
		}
		return nil
	})
	if jobs, msgs := fs.Requests(mintlifytest.RouteAgentJobsCreate), fs.Requests(mintlifytest.RouteAgentJobsSendMessage); jobs != len(odd) || msgs != len(odd) {
		t.Errorf("%d job POSTs and %d message POSTs, want %d of each: a message was sent again", jobs, msgs, len(odd))
	}
}

func TestAccHardening_redirectedPOSTIsAnErrorNamingTheLocation(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startHostile(t, func(_ *http.Request, status int, body string) (int, string) { return status, body })
	redirector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, url+r.URL.Path, http.StatusFound)
	}))
	defer redirector.Close()
	runSteps(t, clk, []resource.TestStep{{
		Config:      jobConfig(redirector.URL, "x", ""),
		ExpectError: wrapped(`Could not create the agent job`, `302 Found: redirected to "`+url+`/v2/agent/demo-project/job"`, `a POST is never followed`),
	}})
	if n := fs.TotalRequests(); n != 0 {
		t.Errorf("the redirect was followed: %d requests at its target", n)
	}
}

func TestJobWork_aRequestThatNeverLeftDoesNotClaimAJob(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	data := clientFor(t, closed)
	var diags diag.Diagnostics
	w := jobWork(data, "p", func(ctx context.Context) (*sdk.AgentJob, error) { return data.client.AgentJobs.Create(ctx, "p", "x") })
	w.doWait, w.timeout, w.words = true, time.Minute, createWords
	w.record = func(*sdk.AgentJob) { t.Error("no job") }
	job := w.run(t.Context(), &diags)
	text := diagText(diags, diag.SeverityError)
	if job != nil || len(diags) != 1 || !strings.HasPrefix(text, "Could not create the agent job: ") || !strings.Contains(text, "connection refused") {
		t.Fatalf("%v: %s", job, text)
	}
	if strings.Contains(text, "may exist") || strings.Contains(text, "may have reached") {
		t.Errorf("a refused connection claims a job may exist: %s", text)
	}
}

func TestAccHardening_stalledReadEndsAtTheRequestTimeout(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 5}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultLatency, Latency: time.Hour})
	cfg := strings.Replace(providerBlock(url), "provider \"mintlify\" {", "provider \"mintlify\" {\n  request_timeout = \"300ms\"\n  max_retries = 1", 1) +
		"data \"mintlify_unique_visitors\" \"test\" {}\n"
	start := time.Now()
	runSteps(t, clk, []resource.TestStep{{Config: cfg, ExpectError: wrapped(`Could not read unique visitors`, `no response within 300ms (the request timeout)`)}})
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("took %s", took)
	}
	wantRequests(t, fs, mintlifytest.RouteAnalyticsVisitors, 2, "the first attempt and one retry")
}

// An answer echoing the key puts it nowhere: not in state, not in outputs.
func TestAccHardening_echoedKeyNeverReachesState(t *testing.T) {
	clearEnv(t)
	key := mintlifytest.DemoAPIKey
	_, url, clk := startHostile(t, func(_ *http.Request, status int, body string) (int, string) {
		body = strings.ReplaceAll(body, `"model":"claude-sonnet-4-5"`, `"model":"`+key+`"`)
		body = strings.Replace(body, `"path":"/"`, `"path":"/`+key+`"`, 1)
		return status, body
	})
	cfg := jobConfig(url, "x", "") + `
data "mintlify_unique_visitors" "test" {}
output "model" { value = mintlify_agent_job.test.model }
`
	runSteps(t, clk, []resource.TestStep{{
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
	}})
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

	// The SDK drops a link that is not a web address; the provider says so
	// and records pr_link as null.
	body = `{"id":"job-1","status":"completed","prLink":"javascript:alert(1)","source":{"repository":"r"}}`
	resp := readResource(t, r, state)
	var link *string
	var status string
	resp.State.GetAttribute(t.Context(), tfjsonPathToPath("pr_link"), &link)
	resp.State.GetAttribute(t.Context(), tfjsonPathToPath("status"), &status)
	want := "Unexpected answer from Mintlify: Mintlify's answers about agent job job-1 had fields the provider could not use: " +
		`prLink: "javascript:alert(1)" is not an absolute http(s) URL: ignored. The agent job is kept as it is and nothing is ` +
		"run again because of it; the attributes that could not be read are empty.\n"
	if link != nil || status != "completed" || diagText(resp.Diagnostics, diag.SeverityWarning) != want || resp.Diagnostics.HasError() {
		t.Errorf("pr_link %v, status %q, diagnostics %v", link, status, resp.Diagnostics)
	}

	// A clean answer warns of nothing.
	body = `{"id":"job-1","status":"completed","prLink":"https://github.com/a/b/pull/1","source":{"repository":"r"},"model":"m","createdAt":"2026-11-21T12:00:00Z"}`
	resp = readResource(t, r, state)
	resp.State.GetAttribute(t.Context(), tfjsonPathToPath("pr_link"), &link)
	if len(resp.Diagnostics) != 0 || link == nil || *link != "https://github.com/a/b/pull/1" {
		t.Errorf("pr_link %v, diagnostics %v", link, resp.Diagnostics)
	}

	body = `{"id":"job-2","status":"completed"}`
	resp = readResource(t, r, state)
	var id string
	resp.State.GetAttribute(t.Context(), tfjsonPathToPath("id"), &id)
	resp.State.GetAttribute(t.Context(), tfjsonPathToPath("status"), &status)
	if !strings.Contains(diagText(resp.Diagnostics, diag.SeverityError), `the answer is for job "job-2", not job "job-1"`) || id != "job-1" || status != "active" {
		t.Errorf("another job's answer: id %q, status %q, %v", id, status, resp.Diagnostics)
	}
}

// The message resource's refresh says what was odd in the same words.
func TestAgentJobMessageRead_warnsOfOddFields(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id":"job-1","status":"completed","createdAt":"yesterday","source":{"repository":"r"}}`))
	}))
	defer srv.Close()
	r := &agentJobMessageResource{data: clientFor(t, srv.URL)}
	resp := readResource(t, r, map[string]tftypes.Value{"id": str("job-1/2026-11-21T12:00:00Z"), "job_id": str("job-1"),
		"project_id": str("p"), "prompt": str("x"), "status": str("active")})
	want := "Unexpected answer from Mintlify: Mintlify's answers about agent job job-1 had fields the provider could not use: " +
		`createdAt: "yesterday" is not an ISO 8601 timestamp. The agent job is kept as it is and nothing is run again because ` +
		"of it; the attributes that could not be read are empty.\n"
	var status, createdAt types.String
	resp.State.GetAttribute(t.Context(), tfjsonPathToPath("status"), &status)
	resp.State.GetAttribute(t.Context(), tfjsonPathToPath("created_at"), &createdAt)
	if got := diagText(resp.Diagnostics, diag.SeverityWarning); got != want || resp.Diagnostics.HasError() {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
	if status.ValueString() != "completed" || !createdAt.IsNull() {
		t.Errorf("status %v, created_at %v", status, createdAt)
	}
}

func TestAccHardening_keyWithANewlineIsNamed(t *testing.T) {
	_, url, clk := startAccFake(t, mintlifytest.Config{})
	t.Setenv(EnvAPIKey, mintlifytest.DemoAPIKey+"\n")
	t.Setenv(EnvBaseURL, url)
	runSteps(t, clk, []resource.TestStep{{
		Config:      `data "mintlify_unique_visitors" "x" { project_id = "p" }`,
		ExpectError: wrapped(`Invalid Mintlify API key`, `contains a newline (often a trailing one, from a file or a secret store): remove it`),
	}})
}

// Errors about the key are not attached to api_key: Terraform would print
// the configuration line, which may hold the key.
func TestConfigure_keyErrorsPointAtNoLine(t *testing.T) {
	clearEnv(t)
	for _, key := range []string{"mint_secret value", "mint_secret\n", "", "mint_dsc_secret", "mint_us_secret", "sk_secret"} {
		resp := configureProvider(t, map[string]tftypes.Value{"api_key": str(key)})
		if !resp.Diagnostics.HasError() || resp.ResourceData != nil {
			t.Fatalf("%q accepted", key)
		}
		for _, d := range resp.Diagnostics {
			if wp, ok := d.(diag.DiagnosticWithPath); ok {
				t.Errorf("%q: the diagnostic points at %s", key, wp.Path())
			}
			if key != "" && strings.Contains(d.Detail(), strings.TrimSpace(key)) {
				t.Errorf("%q: the key is in the message: %s", key, d.Detail())
			}
		}
	}
}

// A key of another kind (an assistant key, an Index key, not a Mintlify
// key at all) is refused by Configure, saying which it is, before any
// request.
func TestAccProvider_keyOfAnotherKindIsRefusedBeforeAnyRequest(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	for key, want := range map[string]string{
		"mint_dsc_0123456789": `The key (from api_key or MINTLIFY_API_KEY) is an assistant key (mint_dsc_...), for the discovery API, not an admin API key (mint_...): get one from the API keys page of the Mintlify dashboard.`,
		"mint_us_0123456789":  `The key (from api_key or MINTLIFY_API_KEY) is a Mintlify Index key (mint_us_...), not an admin API key (mint_...): get one from the API keys page of the Mintlify dashboard.`,
		"sk_live_0123456789":  `The key (from api_key or MINTLIFY_API_KEY) is not an admin API key: those start mint_ (get one from the API keys page of the Mintlify dashboard).`,
	} {
		runSteps(t, clk, []resource.TestStep{{
			Config: adminProvider(key, url, "demo-project") + `
data "mintlify_unique_visitors" "x" {}
resource "mintlify_agent_job" "x" { prompt = "x" }
`,
			ExpectError: wrapped(`Invalid Mintlify API key`, want),
		}})
		resp := configureProvider(t, map[string]tftypes.Value{"api_key": str(key)})
		if got := diagText(resp.Diagnostics, diag.SeverityError); got != "Invalid Mintlify API key: "+want+"\n" {
			t.Errorf("%s: %q", key, got)
		}
	}
	wantNoRequests(t, fs, "with a key of another kind")
}

// A pull-request link that is not a web address is dropped by the SDK:
// pr_link stays null, and the apply says so once; every refresh says it
// again.
func TestAccHardening_unsafePRLinkIsDroppedWithAWarning(t *testing.T) {
	clearEnv(t)
	_, url, clk := startHostile(t, func(_ *http.Request, status int, body string) (int, string) {
		return status, regexp.MustCompile(`"prLink":"[^"]*"`).ReplaceAllString(body, `"prLink":"javascript:alert(1)"`)
	})
	rec := &diagRecorder{}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: recordingProviders(clk, rec),
		Steps: []resource.TestStep{{
			Config: jobConfig(url, "Document it", ""),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("status"), knownString("completed")),
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("pr_link"), knownvalue.Null()),
				checkState(func(s *tfjson.State) error {
					vals, _ := resourceValues(s.Values.RootModule, jobAddr)
					want := unexpectedAnswer(fmt.Sprint(vals["id"]), `prLink: "javascript:alert(1)" is not an absolute http(s) URL: ignored`)
					if n := rec.count("ApplyResourceChange", "Unexpected answer from Mintlify"); n != 1 || !strings.Contains(rec.text(), want) {
						return fmt.Errorf("%d warnings from the apply:\n%s", n, rec.text())
					}
					return nil
				}),
			},
		}},
	})
	if n := rec.count("ReadResource", "Unexpected answer from Mintlify"); n == 0 {
		t.Errorf("no refresh warned:\n%s", rec.text())
	}
}

// A server that never stops paging, with answers larger than asked: the
// read stops at the client's 64 MiB cap with an error naming it, and
// nothing of it is cached (the bound docs/performance.md measures).
func TestAccSearchQueries_endlessServerStopsAtTheByteCap(t *testing.T) {
	clearEnv(t)
	cacheDir := t.TempDir()
	t.Setenv(EnvCacheDir, cacheDir)
	t.Setenv(EnvCacheTTL, "10m")
	var requests atomic.Int64
	pad := strings.Repeat("x", 1000)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n := requests.Add(1)
		var b strings.Builder
		b.WriteString(`{"searches":[`)
		for i := range 1000 {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"searchQuery":"q-%d-%d-%s","hits":1,"ctr":0,"topClickedPage":null,"lastSearchedAt":"2026-11-20T00:00:00Z"}`, n, i, pad)
		}
		fmt.Fprintf(&b, `],"totalSearches":1000000,"nextCursor":"c%d"}`, n)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, b.String())
	}))
	t.Cleanup(ts.Close)
	clk := newTestClock()
	runSteps(t, clk, []resource.TestStep{{
		Config:      providerBlock(ts.URL) + "data \"mintlify_search_queries\" \"all\" {}\n",
		ExpectError: wrapped(`took the read past the client's cap of 64 MiB per read: read fewer rows (a max_results) or raise the cap; stopped after`),
	}})
	// About 1.05 MiB an answer: the 64 MiB cap is passed on the 62nd (the
	// 1,000-request cap would take 1,000). One read, tried once.
	if n := requests.Load(); n < 61 || n > 63 {
		t.Errorf("%d requests, want the 64 MiB cap passed at about 62", n)
	}
	_ = filepath.WalkDir(cacheDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			t.Errorf("cache holds %s after a read that failed", path)
		}
		return nil
	})
}
