package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// When a job runs again: only when the user says so.

func triggersConfig(url, triggers string) string {
	extra := ""
	if triggers != "" {
		extra = "  triggers = " + triggers
	}
	return jobConfig(url, "Update the docs for the changes in this release", extra)
}

func TestAccAgentJob_triggersStartANewJobExactlyWhenTheyChange(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	posts := func(want int) func() {
		return func() {
			wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, want, "POSTs before this step")
		}
	}
	step := func(triggers string, action plancheck.ResourceActionType, postsBefore int) resource.TestStep {
		checks := []plancheck.PlanCheck{plancheck.ExpectResourceAction(jobAddr, action)}
		if action == plancheck.ResourceActionNoop {
			checks = []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
		}
		return resource.TestStep{
			PreConfig:         posts(postsBefore),
			Config:            triggersConfig(url, triggers),
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: checks},
			ConfigStateChecks: []statecheck.StateCheck{jobInStateMatchesServer(fs, jobAddr)},
		}
	}
	runSteps(t, clk, []resource.TestStep{
		step(`{ commit = "abc123" }`, plancheck.ResourceActionCreate, 0),
		step(`{ commit = "abc123" }`, plancheck.ResourceActionNoop, 1),    // unchanged: nothing
		step(`{ commit = "def456" }`, plancheck.ResourceActionReplace, 1), // changed value: a new job
		step(`{ commit = "def456", tag = "v2" }`, plancheck.ResourceActionReplace, 2),
		step(`{ tag = "v2" }`, plancheck.ResourceActionReplace, 3), // a key removed
		step(`{}`, plancheck.ResourceActionReplace, 4),
		// Empty and null are both "no triggers": switching between them
		// starts no job. (Terraform plans the switch as an update of
		// state: a provider may not plan a value a null config lacks.)
		step(``, plancheck.ResourceActionUpdate, 5),
		step(`{}`, plancheck.ResourceActionUpdate, 5),
		step(`{}`, plancheck.ResourceActionNoop, 5),
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 5, "POSTs")
}

func TestAccAgentJob_importAdoptsTriggersWithoutAJob(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	id := fs.CreateJob(mintlifytest.DemoProjectID, "Written in the dashboard")
	cfg := triggersConfig(url, `{ commit = "abc123" }`)
	runSteps(t, clk, []resource.TestStep{
		importStep(cfg, jobAddr, id),
		adoptStep(cfg, jobAddr, id,
			statecheck.ExpectKnownValue(jobAddr, tfjsonPath("triggers"), knownvalue.MapExact(map[string]knownvalue.Check{"commit": knownString("abc123")})),
			statecheck.ExpectKnownValue(jobAddr, tfjsonPath("wait_for_completion"), knownvalue.Bool(true))),
		{Config: cfg, PlanOnly: true},
		// After the adoption, a new commit is a new job, as always.
		{
			Config:           triggersConfig(url, `{ commit = "def456" }`),
			ConfigPlanChecks: plansAction(jobAddr, plancheck.ResourceActionReplace),
		},
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 1, "POSTs: only the one after the triggers changed")
}

func TestAccAgentJob_withoutWaitingReturnsAtOnceAndRefreshesPlanNothing(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	cfg := jobConfig(url, "[fake:active=30m] Fire and forget", "  wait_for_completion = false")
	runSteps(t, clk, []resource.TestStep{
		{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("status"), knownString("active")),
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("pr_link"), knownvalue.Null()),
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("wait_for_completion"), knownvalue.Bool(false)),
			},
		},
		{
			// The job finishes on its own; the refresh records it, plans nothing.
			PreConfig: func() {
				wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 1, "POSTs")
				if !clk.Now().Equal(epoch) {
					t.Errorf("the apply waited until %s", clk.Now())
				}
				clk.Advance(30 * time.Minute) // the job finishes meanwhile
			},
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("status"), knownString("completed")),
				statecheck.ExpectKnownValue(jobAddr, tfjsonPath("pr_link"), knownvalue.StringRegexp(regexp.MustCompile(`/pull/\d+$`))),
				jobInStateMatchesServer(fs, jobAddr),
			},
		},
		// Waiting or not starts nothing when it changes.
		{
			Config:           jobConfig(url, "[fake:active=30m] Fire and forget", ""),
			ConfigPlanChecks: plansAction(jobAddr, plancheck.ResourceActionUpdate),
		},
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 1, "POSTs")
}

func TestAccAgentJob_failedWithoutWaitingIsKeptAndNotRerun(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	cfg := jobConfig(url, "[fake:failed] [fake:active=10m] Try", "  wait_for_completion = false")
	runSteps(t, clk, []resource.TestStep{
		{Config: cfg},
		{
			PreConfig: func() { clk.Advance(10 * time.Minute) }, // the job fails meanwhile
			Config:    cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(jobAddr, tfjsonPath("status"), knownString("failed"))},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 1, "POSTs: a failed job ran again by itself")
}

// failedJobResource is the agent job resource on a fake that holds one
// job of the demo project, failed a minute ago; id is that job's.
func failedJobResource(t *testing.T) (r *agentJobResource, id string) {
	t.Helper()
	clk := newTestClock()
	srv := mintlifytest.NewServer(mintlifytest.Config{Clock: clk})
	t.Cleanup(srv.Close)
	id = srv.CreateJob(mintlifytest.DemoProjectID, "[fake:failed] [fake:active=1m]")
	clk.Advance(time.Minute)
	return &agentJobResource{data: clientFor(t, srv.URL)}, id
}

// The refresh that sees a job turn failed warns, naming it; it does not
// warn again once state says failed.
func TestAgentJobRead_warnsWhenAJobHasFailed(t *testing.T) {
	r, id := failedJobResource(t)
	for prior, wantWarning := range map[string]bool{"active": true, "failed": false} {
		resp := readResource(t, r, map[string]tftypes.Value{"id": str(id), "project_id": str(mintlifytest.DemoProjectID),
			"prompt": str("x"), "status": str(prior), "wait_for_completion": tftypes.NewValue(tftypes.Bool, false)})
		warnings := diagText(resp.Diagnostics, diag.SeverityWarning)
		if resp.Diagnostics.HasError() || strings.Contains(warnings, id) != wantWarning {
			t.Errorf("prior %s: %v", prior, resp.Diagnostics)
		}
		if wantWarning && !strings.Contains(warnings, "will not run again by itself: change its triggers, or run terraform apply -replace=mintlify_agent_job.<name>") {
			t.Errorf("warning %q", warnings)
		}
	}
}

func TestAgentJobRead_vanishedJobIsKeptWithAWarning(t *testing.T) {
	srv := mintlifytest.NewServer(mintlifytest.Config{})
	defer srv.Close()
	r := &agentJobResource{data: clientFor(t, srv.URL)}
	resp := readResource(t, r, map[string]tftypes.Value{"id": str("gone-1"), "project_id": str(mintlifytest.DemoProjectID),
		"prompt": str("x"), "status": str("completed")})
	warnings := diagText(resp.Diagnostics, diag.SeverityWarning)
	for _, want := range []string{"Agent job gone-1 in project \"demo-project\" is gone from the Mintlify API (404)",
		"stays in state unchanged", "terraform state rm mintlify_agent_job.<name>", "terraform apply -replace=mintlify_agent_job.<name>"} {
		if !strings.Contains(warnings, want) {
			t.Errorf("warning %q lacks %q", warnings, want)
		}
	}
	if resp.Diagnostics.HasError() || resp.State.Raw.IsNull() {
		t.Errorf("the resource was removed: %v", resp.Diagnostics)
	}
	var status string
	resp.State.GetAttribute(t.Context(), tfjsonPathToPath("status"), &status)
	if status != "completed" {
		t.Errorf("state changed: status %q", status)
	}
}

func TestAccAgentJob_importOfAnUnknownJobIsAnError(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	runSteps(t, clk, []resource.TestStep{{
		Config:        jobConfig(url, "x", ""),
		ResourceName:  jobAddr,
		ImportState:   true,
		ImportStateId: "demo-project/no-such-job",
		ExpectError:   wrapped(`Cannot import the agent job`, `Mintlify has no agent job "no-such-job" in project "demo-project" (404)`, `PROJECT_ID/JOB_ID`),
	}})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 0, "POSTs")
}

// A refresh the API refuses for any reason but 404 is an error, and the
// job stays in state as it was: a revoked key or an outage never drops a
// job from state nor marks it gone.
func TestAgentJobRead_otherErrorsKeepTheJob(t *testing.T) {
	srv := mintlifytest.NewServer(mintlifytest.Config{})
	defer srv.Close()
	id := srv.CreateJob(mintlifytest.DemoProjectID, "x")
	data := clientFor(t, srv.URL)
	revoked, err := sdk.NewClient("mint_revoked_0123456789", sdk.WithBaseURL(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	data.client = revoked
	common := map[string]tftypes.Value{"project_id": str(mintlifytest.DemoProjectID), "prompt": str("x"), "status": str("active")}
	for name, tt := range map[string]struct {
		r    fwresource.Resource
		vals map[string]tftypes.Value
	}{
		"job":     {&agentJobResource{data: data}, map[string]tftypes.Value{"id": str(id)}},
		"message": {&agentJobMessageResource{data: data}, map[string]tftypes.Value{"id": str(id + "/2026-11-23T00:00:00Z"), "job_id": str(id)}},
	} {
		for k, v := range common {
			tt.vals[k] = v
		}
		resp := readResource(t, tt.r, tt.vals)
		errs := diagText(resp.Diagnostics, diag.SeverityError)
		for _, want := range []string{"Could not read the agent job", "401", "check api_key"} {
			if !strings.Contains(errs, want) {
				t.Errorf("%s: errors %q lack %q", name, errs, want)
			}
		}
		if w := diagText(resp.Diagnostics, diag.SeverityWarning); w != "" {
			t.Errorf("%s: a refused read warned %q", name, w)
		}
		var status string
		resp.State.GetAttribute(t.Context(), tfjsonPathToPath("status"), &status)
		if resp.State.Raw.IsNull() || status != "active" {
			t.Errorf("%s: state changed: null %v, status %q", name, resp.State.Raw.IsNull(), status)
		}
	}
}

func TestAccAgentJob_stateHoldsTheSpecsRepositoryURL(t *testing.T) {
	_, url, clk := startAccFake(t, mintlifytest.Config{})
	runSteps(t, clk, []resource.TestStep{{
		Config: jobConfig(url, "x", ""),
		ConfigStateChecks: []statecheck.StateCheck{checkState(func(s *tfjson.State) error {
			vals, _ := resourceValues(s.Values.RootModule, jobAddr)
			src, _ := vals["source"].(map[string]any)
			if src["repository"] != "https://github.com/acme/demo-project" {
				return fmt.Errorf("source %v", src)
			}
			return nil
		})},
	}})
}
