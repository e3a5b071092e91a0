package provider

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

const jobAddr = "mintlify_agent_job.test"

func jobConfig(url, prompt, extra string) string {
	return resourceConfig(url, "mintlify_agent_job", "prompt", prompt, extra)
}

// jobKeptTainted is the step after a failed create: the server's job is in
// state, and tainted, so the next apply plans its replacement.
func jobKeptTainted(fs *mintlifytest.Fake, cfg string) resource.TestStep {
	return planAfterApply(cfg, priorStateHoldsServerJob(fs, jobAddr), plancheck.ExpectResourceAction(jobAddr, plancheck.ResourceActionReplace))
}

func TestAccAgentJob_completedWithPRLink(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	runSteps(t, clk, []resource.TestStep{
		{
			Config: jobConfig(url, "Document the new endpoints", ""),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(jobAddr, plancheck.ResourceActionCreate),
				plancheck.ExpectKnownValue(jobAddr, tfjsonPath("project_id"), knownString(mintlifytest.DemoProjectID)),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("status"), knownString("completed")),
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("pr_link"), knownvalue.StringRegexp(regexp.MustCompile(`^https://github.com/acme/demo-project/pull/\d+$`))),
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("prompt"), knownString("Document the new endpoints")),
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("source"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"repository": knownString("https://github.com/acme/demo-project"), "ref": knownString("main"),
				})),
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("model"), knownString("claude-sonnet-4-5")),
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$`))),
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("archived_at"), knownvalue.Null()),
				jobInStateMatchesServer(fs, jobAddr),
			},
		},
		// The same configuration again plans nothing and sends no POST.
		{
			Config:           jobConfig(url, "Document the new endpoints", ""),
			ConfigPlanChecks: plansNothing(),
		},
		// A new prompt is a new job.
		{
			Config:            jobConfig(url, "Document the changelog too", ""),
			ConfigPlanChecks:  plansAction(jobAddr, plancheck.ResourceActionReplace),
			ConfigStateChecks: []statecheck.StateCheck{jobInStateMatchesServer(fs, jobAddr)},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 2, "POSTs")
	uaRE := regexp.MustCompile(`^terraform-provider-mintlify/test Terraform/\d+\.\d+\.\d+ mintlify-go-sdk/\S+$`)
	for _, r := range fs.RequestLog() {
		if !uaRE.MatchString(r.UserAgent) {
			t.Fatalf("User-Agent %q", r.UserAgent)
		}
	}
}

// A job that changes nothing completes with no pull request; an archived
// one succeeds too, with the time it was archived.
func TestAccAgentJob_unchangedAndArchivedJobsSucceed(t *testing.T) {
	for _, tt := range []struct {
		name, prompt, status, attr string
		want                       knownvalue.Check
	}{
		{"nochange", "[fake:nochange] Check the docs are fine", "completed", "pr_link", knownvalue.Null()},
		{"archived", "[fake:archived] Tidy up", "archived", "archived_at", knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-`))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs, url, clk := startAccFake(t, mintlifytest.Config{})
			runSteps(t, clk, []resource.TestStep{{
				Config: jobConfig(url, tt.prompt, ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(jobAddr, tfjsonPath("status"), knownString(tt.status)),
					statecheck.ExpectKnownValue(jobAddr, tfjsonPath(tt.attr), tt.want),
					jobInStateMatchesServer(fs, jobAddr),
				},
			}})
		})
	}
}

func TestAccAgentJob_failedJobStaysInState(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	cfg := jobConfig(url, "[fake:failed] Rewrite everything", "")
	runSteps(t, clk, []resource.TestStep{
		{
			Config:      cfg,
			ExpectError: wrapped(`Agent job failed`, `ended with status "failed". It stays in state, tainted: the next apply starts a new job. See the job in the Mintlify dashboard for the agent's error.`),
		},
		jobKeptTainted(fs, cfg),
	})
}

// The wait is bounded by timeouts.create on the clock the SDK runs on:
// here the fake's, so two minutes of waiting take no wall time.
func TestAccAgentJob_createTimeoutKeepsJob(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	cfg := jobConfig(url, "[fake:never] Take forever", `  timeouts {
    create = "2m"
  }`)
	runSteps(t, clk, []resource.TestStep{
		{
			Config: cfg,
			ExpectError: wrapped(`Timed out waiting for the agent job`, `was created and is saved in state (tainted, so the next apply starts a new job; run`+
				" `terraform untaint` "+`to keep this one instead). It was still active after 2m. This can take a while: raise the limit with`,
				`timeouts {`, `create = "60m"`),
		},
		jobKeptTainted(fs, cfg),
	})
	// The wait began after the POST, and ended when two minutes had passed.
	if waited := clk.Now().Sub(epoch); waited != 2*time.Minute {
		t.Errorf("the wait lasted %s of the clock, want 2m", waited)
	}
	if n := fs.Requests(mintlifytest.RouteAgentJobsGet); n < 2 {
		t.Errorf("%d polls", n)
	}
}

// A job as long as the default timeout (30 minutes) is still seen to
// complete: the last poll is made when the timeout runs out. One second
// longer times out, naming the default. No wall time passes either way.
func TestAccAgentJob_defaultTimeoutIsThirtyMinutes(t *testing.T) {
	for _, tt := range []struct {
		active  string
		wantErr *regexp.Regexp
	}{
		{"30m", nil},
		{"30m1s", wrapped(`Timed out waiting for the agent job`, `It was still active after 30m.`)},
	} {
		t.Run(tt.active, func(t *testing.T) {
			fs, url, clk := startAccFake(t, mintlifytest.Config{})
			checks := []statecheck.StateCheck{statecheck.ExpectKnownValue(jobAddr, tfjsonPath("status"), knownString("completed")), jobInStateMatchesServer(fs, jobAddr)}
			if tt.wantErr != nil {
				checks = nil
			}
			runSteps(t, clk, []resource.TestStep{{
				Config:            jobConfig(url, "[fake:active="+tt.active+"] Rewrite the guides", ""),
				ExpectError:       tt.wantErr,
				ConfigStateChecks: checks,
			}})
			if waited := clk.Now().Sub(epoch); waited != 30*time.Minute {
				t.Errorf("the wait lasted %s of the clock, want 30m", waited)
			}
		})
	}
}

func TestAccAgentJob_importByProjectAndIDAdoptsPrompt(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	fs.AddProject(oddProject, mintlifytest.DemoOrg, mintlifytest.Dataset{})
	id := fs.CreateJob(oddProject, "Written outside Terraform")
	cfg := providerBlock(url) + `
resource "mintlify_agent_job" "test" {
  project_id = "` + oddProject + `"
  prompt     = "Written outside Terraform"
}
`
	runSteps(t, clk, []resource.TestStep{
		{
			Config:             cfg,
			ResourceName:       jobAddr,
			ImportState:        true,
			ImportStateId:      oddProject + "/" + id,
			ImportStatePersist: true,
			ImportStateCheck: func(states []*terraform.InstanceState) error {
				if len(states) != 1 || states[0].ID != id || states[0].Attributes["project_id"] != oddProject || states[0].Attributes["status"] == "" {
					return fmt.Errorf("imported %+v", states)
				}
				return nil
			},
		},
		// The API does not return the prompt: the configured one is
		// adopted in place, with no new job. After that, nothing to do.
		adoptStep(cfg, jobAddr, id,
			statecheck.ExpectKnownValue(jobAddr, tfjsonPath("prompt"), knownString("Written outside Terraform")),
			jobInStateMatchesServer(fs, jobAddr)),
		{
			Config:   cfg,
			PlanOnly: true,
		},
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 0, "jobs created by the import")
}

func TestAccAgentJob_importByIDAloneUsesProviderProject(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	id := fs.CreateJob(mintlifytest.DemoProjectID, "[fake:nochange]")
	clk.Advance(3 * time.Minute) // the job finishes, at the very end of its 3 minutes
	cfg := jobConfig(url, "Imported prompt", "")
	runSteps(t, clk, []resource.TestStep{
		importStep(cfg, jobAddr, id),
		{
			Config:           cfg,
			ConfigPlanChecks: plansAction(jobAddr, plancheck.ResourceActionUpdate),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("project_id"), knownString(mintlifytest.DemoProjectID)),
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("status"), knownString("completed")),
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("pr_link"), knownvalue.Null()),
			},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 0, "jobs created by the import")
}

func TestAccAgentJob_importBlockPlansNoReplacement(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	id := fs.CreateJob(mintlifytest.DemoProjectID, "x")
	cfg := jobConfig(url, "Adopted", "") + fmt.Sprintf(`
import {
  to = mintlify_agent_job.test
  id = "demo-project/%s"
}
`, id)
	runSteps(t, clk, []resource.TestStep{{
		Config:            cfg,
		ConfigPlanChecks:  plansAction(jobAddr, plancheck.ResourceActionUpdate),
		ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(jobAddr, tfjsonPath("id"), knownString(id))},
	}})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 0, "jobs created by the import")
}

// oddProject is a project id with every kind of character an id may hold.
const oddProject = "Acme.Docs_v2~eu:1"

func TestAccAgentJob_projectIDOfEveryAllowedCharacter(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	fs.AddProject(oddProject, mintlifytest.DemoOrg, mintlifytest.Dataset{})
	runSteps(t, clk, []resource.TestStep{{
		Config: jobConfig(url, "Hello", `  project_id = "`+oddProject+`"`),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(jobAddr, tfjsonPath("project_id"), knownString(oddProject)),
			statecheck.ExpectKnownValue(jobAddr, tfjsonPath("source").AtMapKey("repository"), knownString("https://github.com/acme/acme-docs-v2-eu-1")),
			jobInStateMatchesServer(fs, jobAddr),
		},
	}})
	if n := len(fs.JobIDs(oddProject)); n != 1 {
		t.Errorf("jobs in the project: %d", n)
	}
	for _, r := range fs.RequestLog() {
		if r.Route == "unmatched" {
			t.Errorf("a request missed the API's routes: %+v", r)
		}
	}
}

func TestAccAgentJob_providerProjectChangeReplaces(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	fs.AddProject("second", mintlifytest.DemoOrg, mintlifytest.Dataset{})
	other := adminProvider(mintlifytest.DemoAPIKey, url, "second") + `
resource "mintlify_agent_job" "test" {
  prompt = "Same prompt"
}
`
	runSteps(t, clk, []resource.TestStep{
		{Config: jobConfig(url, "Same prompt", "")},
		{
			Config:            other,
			ConfigPlanChecks:  plansAction(jobAddr, plancheck.ResourceActionReplace),
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(jobAddr, tfjsonPath("project_id"), knownString("second"))},
		},
	})
}

func TestAccAgentJob_survivesInjectedFaultsWithoutDuplicatePOST(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	// The first POST is refused with 429 (retried when the server said:
	// the server did nothing), polls meet a 502 page and a dropped
	// connection (retried: reads are safe).
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultRateLimit, RetryAfter: 45 * time.Second, Requests: []int{1}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultServerError, Requests: []int{1}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultDropConnection, Requests: []int{3}})
	runSteps(t, clk, []resource.TestStep{{
		Config: jobConfig(url, "[fake:active=5m] Survive", ""),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(jobAddr, tfjsonPath("status"), knownString("completed")),
			jobInStateMatchesServer(fs, jobAddr),
		},
	}})
	if posts, jobs := fs.Requests(mintlifytest.RouteAgentJobsCreate), len(fs.JobIDs(mintlifytest.DemoProjectID)); posts != 2 || jobs != 1 {
		t.Errorf("POSTs = %d (want the refused one and one more), jobs = %d (want 1)", posts, jobs)
	}
	// The Retry-After was waited on the clock, first of all: no wall time.
	if slept := clk.slept(); len(slept) == 0 || slept[0] != 45*time.Second {
		t.Errorf("sleeps %v: the first is not the Retry-After", slept)
	}
}

func TestAccAgentJob_postServerErrorIsNotRetried(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultServerError, Requests: []int{1}})
	runSteps(t, clk, []resource.TestStep{{
		Config:      jobConfig(url, "x", ""),
		ExpectError: wrapped(`Could not create the agent job`, `502 Bad Gateway`, `the job may exist`),
	}})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 1, "POSTs: a POST that may have reached the server is not repeated")
}

func TestAccAgentJob_lostCreateResponseWarnsOfAPossibleJob(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultDropConnection, Requests: []int{1}})
	runSteps(t, clk, []resource.TestStep{{
		Config:      jobConfig(url, "x", ""),
		ExpectError: wrapped(`Could not create the agent job`, `the job may exist`, `The v2 API cannot list jobs`, `Mintlify dashboard`, `GET /v1/agent/{projectId}/jobs`, `terraform import ADDRESS PROJECT_ID/JOB_ID`),
	}})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 1, "POSTs: a POST whose answer was lost is not repeated")
}

func TestAccAgentJob_rateLimitedCreateSaysWhenToRetry(t *testing.T) {
	_, url, clk := startAccFake(t, mintlifytest.Config{JobBudget: 1})
	runSteps(t, clk, []resource.TestStep{{
		Config: providerBlock(url) + `
resource "mintlify_agent_job" "a" { prompt = "one" }
resource "mintlify_agent_job" "b" {
  prompt     = "two"
  depends_on = [mintlify_agent_job.a]
}
`,
		ExpectError: wrapped(`429 Too Many Requests`, `try again after`, `100 per project per hour`, `Try again after`),
	}})
}

func TestAccAgentJob_invalidInputFailsAtPlan(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	for _, tt := range []struct{ prompt, extra, want string }{
		{"", "", `prompt "" must not be empty or only white space`},
		{"   ", "", `prompt "   " must not be empty or only white space`},
		{"x", `  project_id = ""`, `project_id "" must not be empty`},
		{"x", `  project_id = ".."`, `project_id ".." is not allowed: it would change the request's path`},
		{"x", `  project_id = "acme docs"`, `project_id "acme docs" may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character).`},
		{"x", `  project_id = "p/q"`, `project_id "p/q" may hold only ASCII letters, digits and - _ . ~ :`},
		{"x", `  project_id = "p\tq"`, `project_id "p\tq" may hold only ASCII letters`},
		{"x", `  project_id = "β"`, `project_id "β" may hold only ASCII letters`},
		{"x", `  project_id = "` + strings.Repeat("p", 257) + `"`, `is longer than 256 characters: it cannot be an id.`},
		{"x", "  timeouts {\n    create = \"soon\"\n  }", `Invalid Attribute Value Time Duration`},
		{"x", "  timeouts {\n    create = \"0s\"\n  }", `timeouts.create "0s" must be a duration from 1m to 24h, such as "30m".`},
		{"x", "  timeouts {\n    create = \"-5m\"\n  }", `timeouts.create "-5m" must be a duration from 1m to 24h, such as "30m".`},
		{"x", "  timeouts {\n    create = \"1ms\"\n  }", `timeouts.create "1ms" must be a duration from 1m to 24h, such as "30m".`},
		{"x", "  timeouts {\n    create = \"59s\"\n  }", `timeouts.create "59s" must be a duration from 1m to 24h, such as "30m".`},
		{"x", "  timeouts {\n    create = \"100000h\"\n  }", `timeouts.create "100000h" must be a duration from 1m to 24h, such as "30m".`},
		{"x", "  timeouts {\n    create = \"24h0m1s\"\n  }", `timeouts.create "24h0m1s" must be a duration from 1m to 24h, such as "30m".`},
	} {
		runSteps(t, clk, []resource.TestStep{{Config: jobConfig(url, tt.prompt, tt.extra), PlanOnly: true, ExpectError: wrapped(tt.want)}})
	}
	wantNoRequests(t, fs, "for invalid configuration")
}

// The bounds of timeouts.create are themselves allowed.
func TestAccAgentJob_timeoutBoundsAreAllowed(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	runSteps(t, clk, []resource.TestStep{{
		Config: providerBlock(url) + `
resource "mintlify_agent_job" "shortest" {
  prompt = "x"
  timeouts {
    create = "1m"
  }
}
resource "mintlify_agent_job" "longest" {
  prompt = "x"
  timeouts {
    create = "24h"
  }
}
`,
		PlanOnly:           true,
		ExpectNonEmptyPlan: true,
	}})
	wantNoRequests(t, fs, "at plan")
}

func TestAccAgentJob_missingProject(t *testing.T) {
	_, url, clk := startAccFake(t, mintlifytest.Config{})
	runSteps(t, clk, []resource.TestStep{{
		Config: adminProvider(mintlifytest.DemoAPIKey, url, "") + `
resource "mintlify_agent_job" "test" { prompt = "x" }
`,
		ExpectError: wrapped(`Missing project_id`, `MINTLIFY_PROJECT_ID`),
	}})
}

// A job that vanished from the API is history: it stays in state, with a
// warning, and nothing plans a new job.
func TestAccAgentJob_goneFromServerStaysInStateAndPlansNothing(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	cfg := jobConfig(url, "x", "")
	var id string
	runSteps(t, clk, []resource.TestStep{
		{Config: cfg, Check: func(s *terraform.State) error { id = s.RootModule().Resources[jobAddr].Primary.ID; return nil }},
		{
			// The project is replaced by an empty one: the job 404s.
			PreConfig: func() { fs.AddProject(mintlifytest.DemoProjectID, mintlifytest.DemoOrg, mintlifytest.Dataset{}) },
			Config:    cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				checkState(func(s *tfjson.State) error {
					vals, ok := resourceValues(s.Values.RootModule, jobAddr)
					if !ok || vals["id"] != id || vals["status"] != "completed" {
						return fmt.Errorf("state after the 404: %v", vals)
					}
					return nil
				}),
			},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 1, "POSTs: a vanished job started another")
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

// A 201 whose id is right but one field is mistyped is still the job: it
// is kept untainted, the odd field is named, the job is waited for by
// reading it, and the next apply starts nothing.
func TestAccAgentJob_oddCreateAnswerKeepsTheJobUntainted(t *testing.T) {
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

func TestAccAgentJob_redirectedPOSTIsAnErrorNamingTheLocation(t *testing.T) {
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

// A pull-request link that is not a web address is dropped by the SDK:
// pr_link stays null, and the apply says so once; every refresh says it
// again.
func TestAccAgentJob_unsafePRLinkIsDroppedWithAWarning(t *testing.T) {
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
