package provider

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Adopting jobs that already exist, on the Terraform the tests run (1.5+
// for import blocks and generated configuration, 1.12+ for identity).

// generatedJob is the configuration terraform plan -generate-config-out
// writes for an imported job (Terraform 1.11 and 1.14 alike): no prompt,
// which the API does not return.
func generatedJob(url, name string) string {
	return providerBlock(url) + fmt.Sprintf(`
resource "mintlify_agent_job" %q {
  project_id          = %q
  triggers            = null
  wait_for_completion = true
}
`, name, mintlifytest.DemoProjectID)
}

// terraform plan -generate-config-out on an import block writes a
// configuration that plans as an import and nothing else; applying it, and
// planning again, starts no job.
func TestAccAgentJob_generatedConfigurationAdoptsWithoutANewJob(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	id := fs.CreateJob(mintlifytest.DemoProjectID, "[fake:active=1m] From the dashboard")
	clk.Advance(2 * time.Minute) // the job finishes
	importBlock := fmt.Sprintf(`
import {
  to = mintlify_agent_job.adopted
  id = "demo-project/%s"
}
`, id)
	const addr = "mintlify_agent_job.adopted"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders(clk),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_5_0)},
		Steps: []resource.TestStep{
			// terraform plan -generate-config-out=generated.tf: the plan made
			// from the generated configuration is a no-op import.
			{
				Config:          providerBlock(url),
				ResourceName:    addr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithID,
				ImportStateId:   mintlifytest.DemoProjectID + "/" + id,
				GenerateConfig:  true,
			},
			// The same configuration, written out, applied: an import only.
			{
				Config:           generatedJob(url, "adopted") + importBlock,
				ConfigPlanChecks: plansAction(addr, plancheck.ResourceActionNoop),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonPath("id"), knownString(id)),
					statecheck.ExpectKnownValue(addr, tfjsonPath("prompt"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonPath("status"), knownString("completed")),
					jobInStateMatchesServer(fs, addr),
				},
			},
			// Nothing to do after that, with or without the import block.
			{Config: generatedJob(url, "adopted"), PlanOnly: true},
			// A prompt set later is adopted in place: still no job.
			{
				Config: jobConfig(url, "From the dashboard", "") + "\n" + `moved {
  from = mintlify_agent_job.adopted
  to   = mintlify_agent_job.test
}`,
				ConfigPlanChecks: plansAction(jobAddr, plancheck.ResourceActionUpdate),
			},
			// Changing it after that starts a new job, as for any job.
			{
				Config:           jobConfig(url, "Something else", ""),
				ConfigPlanChecks: plansAction(jobAddr, plancheck.ResourceActionReplace),
			},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 1, "jobs started by the last step only")
}

// A resource without a prompt that is not adopted would start a job with
// no instruction: refused at plan, with no request.
func TestAccAgentJob_noPromptAndNoImportFailsAtPlan(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	runSteps(t, clk, []resource.TestStep{{
		Config:      generatedJob(url, "test"),
		ExpectError: wrapped("Missing prompt", "A new agent job needs a prompt", "adopt an existing job instead of starting one"),
	}})
	wantNoRequests(t, fs, "at plan")
}

// Terraform 1.12+: the identity is in state from the create on, and an
// import block's identity adopts the job, as the id does.
func TestAccAgentJob_identity(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders(clk),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{cliIdentity},
		Steps: []resource.TestStep{
			{
				Config: jobConfig(url, "Document it", ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(jobAddr, map[string]knownvalue.Check{
						"project_id": knownString(mintlifytest.DemoProjectID),
						"id":         knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f-]{36}$`)),
					}),
					statecheck.ExpectIdentityValueMatchesState(jobAddr, tfjsonPath("id")),
					statecheck.ExpectIdentityValueMatchesState(jobAddr, tfjsonPath("project_id")),
				},
			},
			{
				ResourceName:    jobAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
				// The API does not return the prompt: the import plans its
				// adoption (an update), not a new job.
				ExpectNonEmptyPlan: true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(jobAddr, plancheck.ResourceActionUpdate),
				}},
			},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 1, "jobs started")
}

// A prompt left out of the configuration of a job Terraform started keeps
// the job: state keeps the prompt, a change beside it updates in place.
func TestAccAgentJob_promptLeftOutKeepsTheJob(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	runSteps(t, clk, []resource.TestStep{
		{Config: jobConfig(url, "Document it", "")},
		{
			Config:            providerBlock(url) + "\nresource \"mintlify_agent_job\" \"test\" {\n  wait_for_completion = false\n}\n",
			ConfigPlanChecks:  plansAction(jobAddr, plancheck.ResourceActionUpdate),
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(jobAddr, tfjsonPath("prompt"), knownString("Document it"))},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 1, "jobs started")
}
