package provider

import (
	"fmt"
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
	// A service the action has no instance for is refused at plan.
	r := c.run("plan", "-input=false", `-var=running=["payments","billing"]`)
	wantOutput(t, "a service not documented", flat(r.out), "Error: Resource precondition failed",
		`Add "billing" to local.documented, so that its removal is documented.`)
	if r.code != 1 {
		t.Errorf("a service not documented: exit status %d", r.code)
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

// The guide's warning, and why the example has its precondition: a
// service whose action instance is missing when it is removed (the action
// keyed by the same set as the services, or a service never added to
// local.documented) is destroyed by Terraform 1.16 with a warning and no
// job; nothing says so at plan.
func TestAccGuides_serviceRemovalNeedsTheActionOfTheRemovedService(t *testing.T) {
	example, err := os.ReadFile("../../examples/guides/service-removal/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(s, old, replacement string) string {
		t.Helper()
		if !strings.Contains(s, old) {
			t.Fatalf("the example no longer has %q", old)
		}
		return strings.Replace(s, old, replacement, 1)
	}
	keyedAlike := edit(string(example), "for_each = local.documented", "for_each = var.running")
	before, precondition, _ := strings.Cut(string(example), "    precondition {")
	_, after, _ := strings.Cut(precondition, "    }\n")
	unchecked := before + after
	for name, tt := range map[string]struct {
		config  string
		running []string // before the removal; after, payments alone
		removed string
	}{
		"the action keyed by var.running":                          {keyedAlike, []string{"payments", "search"}, "search"},
		"a service missing from local.documented, no precondition": {unchecked, []string{"payments", "billing"}, "billing"},
	} {
		t.Run(name, func(t *testing.T) {
			fs, url, clk := startAccFake(t, mintlifytest.Config{})
			c := newCLIDir(t, clk, cliActions, map[string]string{"main.tf": tt.config, "provider.tf": providerBlock(url)})
			c.ok("apply", "-auto-approve", "-input=false", fmt.Sprintf(`-var=running=["%s"]`, strings.Join(tt.running, `","`)))
			wantOutput(t, "the removal", flat(c.ok("apply", "-auto-approve", "-input=false", `-var=running=["payments"]`)),
				`terraform_data.service["`+tt.removed+`"]: Destruction complete`, "Warning: Orphaned action failed to plan",
				"Apply complete! Resources: 0 added, 0 changed, 1 destroyed.")
			wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 0, "jobs started")
		})
	}
}
