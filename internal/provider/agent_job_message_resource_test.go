package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

const messageAddr = "mintlify_agent_job_message.test"

// messageConfig is a job and a follow-up message to it.
func messageConfig(url, prompt, extra string) string {
	return providerBlock(url) + fmt.Sprintf(`
resource "mintlify_agent_job" "docs" {
  prompt = "Update the docs"
}

resource "mintlify_agent_job_message" "test" {
  job_id = mintlify_agent_job.docs.id
  prompt = %q
%s
}
`, prompt, extra)
}

// messageMatchesServer checks the message's state against the job on the
// server, and that its id is JOB_ID/SENT_AT.
func messageMatchesServer(fs *mintlifytest.Fake) statecheck.StateCheck {
	return valuesInState(messageAddr, func(vals map[string]any) error {
		if want := fmt.Sprint(vals["job_id"]) + "/" + fmt.Sprint(vals["sent_at"]); vals["id"] != want {
			return fmt.Errorf("id %v, want %s", vals["id"], want)
		}
		if _, err := time.Parse(time.RFC3339Nano, fmt.Sprint(vals["sent_at"])); err != nil {
			return fmt.Errorf("sent_at: %w", err)
		}
		vals["id"] = vals["job_id"]
		return compareJob(fs, vals)
	})
}

func TestAccAgentJobMessage_sendsOnceAndWaitsForTheNewRound(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	cfg := messageConfig(url, "[fake:active=10m] Also add a changelog entry", "")
	runSteps(t, clk, []resource.TestStep{
		{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(messageAddr, tfjsonPath("status"), knownString("completed")),
				statecheck.ExpectKnownValue(messageAddr, tfjsonPath("pr_link"), knownvalue.StringRegexp(regexp.MustCompile(`^https://github.com/acme/demo-project/pull/101$`))),
				statecheck.ExpectKnownValue(messageAddr, tfjsonPath("project_id"), knownString(mintlifytest.DemoProjectID)),
				messageMatchesServer(fs),
				// sent_at is read on the clock the provider's client runs
				// on (here the fake's), not the wall clock: with no retry,
				// the moment the fake received the message.
				valuesInState(messageAddr, func(vals map[string]any) error {
					rec, _ := fs.JobRecord(mintlifytest.DemoProjectID, fmt.Sprint(vals["job_id"]))
					if len(rec.Messages) != 1 {
						return fmt.Errorf("the fake received %d messages, want 1", len(rec.Messages))
					}
					if want := rec.Messages[0].At.UTC().Format(time.RFC3339Nano); vals["sent_at"] != want {
						return fmt.Errorf("sent_at %v, want %s (when the fake received it)", vals["sent_at"], want)
					}
					return nil
				}),
			},
		},
		// A second plan is empty; a refresh reads the job, sends nothing.
		{Config: cfg, ConfigPlanChecks: plansNothing()},
		// A new prompt is a new message to the same job.
		{
			Config: messageConfig(url, "And fix the typo", ""),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(messageAddr, plancheck.ResourceActionReplace),
				plancheck.ExpectResourceAction("mintlify_agent_job.docs", plancheck.ResourceActionNoop),
			}},
			ConfigStateChecks: []statecheck.StateCheck{messageMatchesServer(fs)},
		},
		// triggers: a changed value sends another message.
		{Config: messageConfig(url, "And fix the typo", `  triggers = { commit = "a1" }`)},
		{Config: messageConfig(url, "And fix the typo", `  triggers = { commit = "a1" }`), PlanOnly: true},
		{Config: messageConfig(url, "And fix the typo", `  triggers = { commit = "b2" }`)},
	})
	if jobs, msgs := fs.Requests(mintlifytest.RouteAgentJobsCreate), fs.Requests(mintlifytest.RouteAgentJobsSendMessage); jobs != 1 || msgs != 4 {
		t.Errorf("%d job POSTs and %d messages, want 1 and 4", jobs, msgs)
	}
}

func TestAccAgentJobMessage_failedRoundTaintsTheMessage(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	cfg := messageConfig(url, "[fake:failed] Break it", "")
	runSteps(t, clk, []resource.TestStep{
		{Config: cfg, ExpectError: wrapped(`Agent job failed`, `ended with status "failed"`, `The message stays in state, tainted: the next apply sends it again`)},
		planAfterApply(cfg, plancheck.ExpectResourceAction(messageAddr, plancheck.ResourceActionReplace)),
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsSendMessage, 1, "messages")
}

func TestAccAgentJobMessage_timeoutKeepsTheMessage(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	// The job is not waited for: the message's wait is the only one.
	cfg := strings.Replace(messageConfig(url, "[fake:never] Keep going", "  timeouts {\n    create = \"2m\"\n  }"),
		`prompt = "Update the docs"`, `prompt = "Update the docs"`+"\n  wait_for_completion = false", 1)
	runSteps(t, clk, []resource.TestStep{
		{Config: cfg, ExpectError: wrapped(`Timed out waiting for the agent job`, `The message to agent job`, `was sent and is saved in state (tainted, so the next apply sends it again; run`,
			`It was still active after 2m. This can take a while: raise the limit with`, `create = "60m"`)},
		planAfterApply(cfg, plancheck.ExpectResourceAction(messageAddr, plancheck.ResourceActionReplace)),
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsSendMessage, 1, "messages")
	if waited := clk.Now().Sub(epoch); waited != 2*time.Minute {
		t.Errorf("the wait lasted %s of the clock, want 2m", waited)
	}
}

func TestAccAgentJobMessage_withoutWaiting(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	cfg := messageConfig(url, "[fake:active=20m] Later", "  wait_for_completion = false")
	runSteps(t, clk, []resource.TestStep{
		{Config: cfg, ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(messageAddr, tfjsonPath("status"), knownString("active"))}},
		{
			PreConfig:         func() { clk.Advance(20 * time.Minute) }, // the new round ends meanwhile
			Config:            cfg,
			ConfigPlanChecks:  plansNothing(),
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(messageAddr, tfjsonPath("status"), knownString("completed"))},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsSendMessage, 1, "messages")
}

// A 404 to a message is about the job: the advice says to check job_id,
// not project_id.
func TestAccAgentJobMessage_toAnUnknownJobIsA404(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	rec := &diagRecorder{}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: recordingProviders(clk, rec),
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
resource "mintlify_agent_job_message" "test" {
  job_id = "no-such-job"
  prompt = "Hello?"
}
`,
			ExpectError: wrapped(`Could not send the message to the agent job`, `404 Not Found: Job not found`, jobNotFound),
		}},
	})
	if got := rec.text(); strings.Contains(got, "Check project_id") || strings.Count(got, "\n\n"+jobNotFound+"\n") != 1 {
		t.Errorf("diagnostics:\n%s", got)
	}
	wantRequests(t, fs, mintlifytest.RouteAgentJobsSendMessage, 1, "messages")
}

// A message is never sent twice, whatever the network does.
func TestAccAgentJobMessage_neverDuplicatedUnderFaults(t *testing.T) {
	for name, tt := range map[string]struct {
		fault    mintlifytest.Fault
		wantErr  *regexp.Regexp
		messages int // POSTs that reached the server
	}{
		"502 after sending": {mintlifytest.Fault{Kind: mintlifytest.FaultServerError, Requests: []int{1}},
			wrapped(`Could not send the message`, `502 Bad Gateway`, `the message may have been sent`), 1},
		"dropped connection": {mintlifytest.Fault{Kind: mintlifytest.FaultDropConnection, Requests: []int{1}},
			wrapped(`Could not send the message`, `the message may have been sent`), 1},
		// Refused, so retried: the one sent after it is accepted.
		"429 refused, then accepted": {mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: 30 * time.Second, Requests: []int{1}}, nil, 2},
	} {
		t.Run(name, func(t *testing.T) {
			fs, url, clk := startAccFake(t, mintlifytest.Config{})
			tt.fault.Route = mintlifytest.RouteAgentJobsSendMessage
			fs.InjectFault(tt.fault)
			runSteps(t, clk, []resource.TestStep{{Config: messageConfig(url, "Once only", ""), ExpectError: tt.wantErr}})
			wantRequests(t, fs, mintlifytest.RouteAgentJobsSendMessage, tt.messages, "message POSTs")
			if retried := slices.Contains(clk.slept(), 30*time.Second); retried != (tt.messages == 2) {
				t.Errorf("the Retry-After was waited on the clock: %v (sleeps %v)", retried, clk.slept())
			}
		})
	}
}

func TestAccAgentJobMessage_invalidInputFailsAtPlan(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	for _, tt := range []struct{ body, want string }{
		{`job_id = ".."` + "\n  prompt = \"x\"", `job_id ".." is not allowed`},
		{`job_id = "j"` + "\n  prompt = \" \"", `prompt " " must not be empty or only white space`},
		{`job_id = ""` + "\n  prompt = \"x\"", `job_id "" must not be empty`},
		{`job_id = "j/k"` + "\n  prompt = \"x\"", `job_id "j/k" may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character).`},
		{`job_id = "j"` + "\n  project_id = \"a b\"\n  prompt = \"x\"", `project_id "a b" may hold only ASCII letters, digits and - _ . ~ :`},
		{`job_id = "j"` + "\n  prompt = \"x\"\n  timeouts {\n    create = \"0s\"\n  }", `timeouts.create "0s" must be a duration from 1m to 24h, such as "30m".`},
		{`job_id = "j"` + "\n  prompt = \"x\"\n  timeouts {\n    create = \"100000h\"\n  }", `timeouts.create "100000h" must be a duration from 1m to 24h, such as "30m".`},
	} {
		runSteps(t, clk, []resource.TestStep{{Config: providerBlock(url) + "resource \"mintlify_agent_job_message\" \"test\" {\n  " + tt.body + "\n}\n",
			PlanOnly: true, ExpectError: wrapped(tt.want)}})
	}
	wantNoRequests(t, fs, "for invalid configuration")
}

// A 2xx answer to a message that is not the job (nothing, text, a page,
// another job), or is the job with a mistyped field, still means the
// message was accepted: it is recorded, the job is read and waited for,
// and the next apply sends nothing.
func TestAccAgentJobMessage_oddAnswerIsRecordedAndNeverSentAgain(t *testing.T) {
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
