package provider

import (
	"os"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The destroy-time example of the guide (examples/guides/service-removal)
// as it is, through the real CLI (Terraform 1.14+): creating the services
// starts no job; taking one out of var.running destroys it and starts one
// job, whose prompt names it; terraform destroy starts one for each
// service left; removing the resource block starts none.
func TestAccGuides_serviceRemovalExample(t *testing.T) {
	example, err := os.ReadFile("../../examples/guides/service-removal/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	c := newCLIDir(t, clk, cliActions, map[string]string{"main.tf": string(example), "provider.tf": providerBlock(url)})
	prompts := func() []string {
		var out []string
		for _, id := range fs.JobIDs(mintlifytest.DemoProjectID) {
			rec, _ := fs.JobRecord(mintlifytest.DemoProjectID, id)
			out = append(out, rec.Prompt)
		}
		return out
	}
	wantOutput(t, "the create", c.ok("apply", "-auto-approve", "-input=false"), "Apply complete! Resources: 2 added, 0 changed, 0 destroyed.")
	if p := prompts(); len(p) != 0 {
		t.Fatalf("jobs started by the create: %q", p)
	}
	wantOutput(t, "the removal", c.ok("apply", "-auto-approve", "-input=false", `-var=running=["payments"]`),
		`terraform_data.service["search"]: Destroying...`, `Action started: action.mintlify_agent_job.document_removal["search"]`,
		"is completed: pull request", "Apply complete! Resources: 0 added, 0 changed, 1 destroyed. Actions: 1 invoked.")
	if p := prompts(); len(p) != 1 || !strings.HasPrefix(p[0], "The search service has been shut down.") {
		t.Fatalf("prompts %q", p)
	}
	wantOutput(t, "terraform destroy", c.ok("destroy", "-auto-approve", "-input=false", `-var=running=["payments"]`),
		`Action started: action.mintlify_agent_job.document_removal["payments"]`, "Destroy complete! Resources: 1 destroyed. Actions: 1 invoked.")
	if p := prompts(); len(p) != 2 || !strings.HasPrefix(p[1], "The payments service has been shut down.") {
		t.Errorf("prompts %q", p)
	}
	// The resource block removed takes its triggers with it: the services
	// go, and no job starts.
	c.ok("apply", "-auto-approve", "-input=false")
	withoutServices, _, found := strings.Cut(string(example), "# Stands for the service's infrastructure")
	if !found {
		t.Fatal("the example's resource block moved")
	}
	c.write(map[string]string{"main.tf": withoutServices})
	wantOutput(t, "the block removed", c.ok("apply", "-auto-approve", "-input=false"), "Apply complete! Resources: 0 added, 0 changed, 2 destroyed.")
	if p := prompts(); len(p) != 2 {
		t.Errorf("prompts %q: a job started without the resource block", p)
	}
}

// The guide's warning: an action keyed by the same set as the services
// loses the removed one's instance with it, and Terraform 1.16 destroys
// the service with a warning and no job.
func TestAccGuides_serviceRemovalNeedsTheActionOfTheRemovedService(t *testing.T) {
	example, err := os.ReadFile("../../examples/guides/service-removal/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	keyedAlike := strings.Replace(string(example), "for_each = local.documented", "for_each = var.running", 1)
	if keyedAlike == string(example) {
		t.Fatal("the example's action is no longer keyed by local.documented")
	}
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	c := newCLIDir(t, clk, cliActions, map[string]string{"main.tf": keyedAlike, "provider.tf": providerBlock(url)})
	c.ok("apply", "-auto-approve", "-input=false")
	wantOutput(t, "the removal", flat(c.ok("apply", "-auto-approve", "-input=false", `-var=running=["payments"]`)),
		`terraform_data.service["search"]: Destruction complete`, "Warning: Orphaned action failed to plan",
		"Apply complete! Resources: 0 added, 0 changed, 1 destroyed.")
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 0, "jobs started")
}
