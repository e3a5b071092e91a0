package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Resource identity through the real CLI (Terraform 1.12+, OpenTofu
// 1.12+; cliDir): import blocks with `identity = { ... }` for what was
// started elsewhere, the configuration Terraform generates for them, and
// the identity in state from a create on.

// identities is the identity of each resource in the state the last
// command left, by address.
func (c *cliDir) identities() map[string]map[string]any {
	c.t.Helper()
	out := map[string]map[string]any{}
	if s := c.state(); s.Values != nil {
		for _, r := range s.Values.RootModule.Resources {
			out[r.Address] = r.IdentityValues
		}
	}
	return out
}

// Import blocks by identity adopt a job, a deployment (of another project,
// its project_id left out: the API's answer says it), a preview and a
// static export, each started elsewhere; plan -generate-config-out writes
// the job's and the deployment's resource blocks (the preview's branch and
// the export's domain, which the API's answers lack, are written by hand),
// which import, apply what the API does not say in place, and then plan
// clean. No import starts anything.
func TestAccIdentity_importBlocksAdoptWhatWasStartedElsewhere(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{DefaultDeployment: testDeployment})
	fs.AddProject("other", mintlifytest.DemoOrg, mintlifytest.Dataset{})
	job := fs.CreateJob(mintlifytest.DemoProjectID, "[fake:completed] From the dashboard")
	otherJob := fs.CreateJob("other", "[fake:completed] From the other project's dashboard")
	deployment := fs.TriggerDeployment("other")
	client, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(url), sdk.WithClock(clk))
	if err != nil {
		t.Fatal(err)
	}
	preview, err := client.Deployments.Preview(context.Background(), mintlifytest.DemoProjectID, "feature/x")
	if err != nil {
		t.Fatal(err)
	}
	export, err := client.StaticExports.Start(context.Background(), sdk.StaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	requests := fs.TotalRequests()
	c := newCLIDir(t, clk, cliIdentity, map[string]string{"main.tf": providerBlock(url) + fmt.Sprintf(`
import {
  to       = mintlify_agent_job.job
  identity = { id = %q } # in the provider's project
}

import {
  to       = mintlify_agent_job.other
  identity = { project_id = "other", id = %q }
}

import {
  to       = mintlify_deployment.release
  identity = { id = %q }
}

import {
  to       = mintlify_preview_deployment.feature
  identity = { id = %q }
}

resource "mintlify_preview_deployment" "feature" {
  branch = "feature/x"
}

import {
  to       = mintlify_static_export.snapshot
  identity = { id = %q }
}

resource "mintlify_static_export" "snapshot" {
  domain = "docs.example.com"
}
`, job, otherJob, deployment, preview.StatusID, export.ID)})
	wantOutput(t, "plan -generate-config-out", c.ok("plan", "-input=false", "-generate-config-out=generated.tf"),
		"Plan: 5 to import, 0 to add, 2 to change, 0 to destroy.")
	wantOutput(t, "the apply", c.ok("apply", "-auto-approve", "-input=false"), "Apply complete! Resources: 5 imported, 0 added, 2 changed, 0 destroyed.")
	if r := c.run("plan", "-detailed-exitcode", "-input=false"); r.code != 0 {
		t.Errorf("the plan after the import: exit status %d:\n%s", r.code, r.out)
	}
	want := map[string]map[string]any{
		"mintlify_agent_job.job":              {"project_id": mintlifytest.DemoProjectID, "id": job},
		"mintlify_agent_job.other":            {"project_id": "other", "id": otherJob},
		"mintlify_deployment.release":         {"project_id": "other", "id": deployment},
		"mintlify_preview_deployment.feature": {"project_id": mintlifytest.DemoProjectID, "id": preview.StatusID},
		"mintlify_static_export.snapshot":     {"id": export.ID},
	}
	if diff := cmp.Diff(want, c.identities()); diff != "" {
		t.Errorf("identities in state (-want +got):\n%s", diff)
	}
	for _, route := range []string{mintlifytest.RouteAgentJobsCreate, mintlifytest.RouteDeploymentsTrigger, mintlifytest.RouteDeploymentsPreview, mintlifytest.RouteStaticExportsStart} {
		wantRequests(t, fs, route, map[string]int{mintlifytest.RouteDeploymentsPreview: 1, mintlifytest.RouteStaticExportsStart: 1}[route], "sent by the test only; "+route+" by an import")
	}
	if fs.TotalRequests() == requests {
		t.Error("the imports read nothing")
	}
}

// An identity naming another project than the deployment's is refused at
// the import's read, naming both; a malformed one at plan, before any
// request.
func TestAccIdentity_wrongOrMalformedIdentitiesAreRefused(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{DefaultDeployment: testDeployment})
	fs.AddProject("other", mintlifytest.DemoOrg, mintlifytest.Dataset{})
	other := fs.TriggerDeployment("other")
	importOf := func(typ, identity string) map[string]string {
		return map[string]string{"main.tf": providerBlock(url) + fmt.Sprintf(`
import {
  to       = %[1]s.x
  identity = %[2]s
}
`, typ, identity)}
	}
	c := newCLIDir(t, clk, cliIdentity, importOf("mintlify_deployment", fmt.Sprintf("{ project_id = %q, id = %q }", mintlifytest.DemoProjectID, other)))
	r := c.run("plan", "-input=false", "-generate-config-out=generated.tf")
	wantOutput(t, "the plan", flat(r.out), "Error: Cannot import the deployment",
		`is of project "other", not "demo-project" as the import's identity says`)
	if r.code != 1 {
		t.Errorf("exit status %d", r.code)
	}
	before := fs.TotalRequests()
	for _, tt := range []struct {
		typ, identity string
		want          []string
	}{
		// Terraform checks the identity's shape against its schema itself.
		{"mintlify_deployment", `{ project_id = "demo-project" }`, []string{"Error: Incorrect value type", `attribute "id" is required`}},
		{"mintlify_deployment", `{ project_id = "a b", id = "a/b" }`, []string{"Error: Invalid import identity", `identity.project_id "a b" may hold only`}},
		{"mintlify_preview_deployment", `{ id = "a/b" }`, []string{"Error: Invalid import identity", `identity.id "a/b"`}},
		{"mintlify_static_export", `{ id = "a/b" }`, []string{"Error: Invalid import identity", `identity.id "a/b"`}},
		{"mintlify_agent_job", `{ id = "../x" }`, []string{"Error: Invalid import identity", `identity.id "../x"`}},
	} {
		c.write(importOf(tt.typ, tt.identity))
		r := c.run("plan", "-input=false", "-generate-config-out=generated.tf")
		if r.code != 1 {
			t.Errorf("%s %s: exit status %d", tt.typ, tt.identity, r.code)
		}
		wantOutput(t, tt.typ+" "+tt.identity, flat(r.out), tt.want...)
	}
	// Import ids (import { id = ... }) by the same rules.
	for _, tt := range []struct{ typ, id, want string }{
		{"mintlify_deployment", "a/b", `Import by the deployment's status id: statusId "a/b" may hold only`},
		{"mintlify_static_export", "a/b", `import id "a/b"`},
		{"mintlify_agent_job", "p/", "both parts non-empty"},
	} {
		c.write(map[string]string{"main.tf": providerBlock(url) + fmt.Sprintf("\nimport {\n  to = %s.x\n  id = %q\n}\n", tt.typ, tt.id)})
		r := c.run("plan", "-input=false", "-generate-config-out=generated.tf")
		wantOutput(t, tt.typ+" "+tt.id, flat(r.out), "Error: Invalid import id", tt.want)
	}
	// Without a project on the identity, the id or the provider.
	noProject := adminProvider(mintlifytest.DemoAPIKey, url, "")
	c.write(map[string]string{"main.tf": noProject + "\nimport {\n  to       = mintlify_agent_job.x\n  identity = { id = \"j\" }\n}\n"})
	wantOutput(t, "no project", flat(c.run("plan", "-input=false", "-generate-config-out=generated.tf").out),
		"identity.project_id is not set, and neither is the provider's project_id (or MINTLIFY_PROJECT_ID)")
	c.write(map[string]string{"main.tf": noProject + "\nimport {\n  to = mintlify_agent_job.x\n  id = \"j\"\n}\n"})
	wantOutput(t, "no project", flat(c.run("plan", "-input=false", "-generate-config-out=generated.tf").out), `import id "j" has no project`)
	if n := fs.TotalRequests() - before; n != 0 {
		t.Errorf("%d requests for malformed identities", n)
	}
	// A job v2 does not know fails its import, naming the assumption the
	// listing rests on.
	c.write(importOf("mintlify_agent_job", `{ id = "s-listed-only" }`))
	wantOutput(t, "an unknown job", flat(c.run("plan", "-input=false", "-generate-config-out=generated.tf").out),
		"Error: Cannot import the agent job", `no agent job "s-listed-only" in project "demo-project" (404)`,
		"identity = { project_id = ..., id = ... }", "takes to be the jobs' v2 ids (the API reference does not say so)")
}

// A resource has its identity from the create on. A preview's is the
// status id of its latest deployment, the one thing the API reads it by:
// a redeploy (an update in place) moves it to the new id.
func TestAccIdentity_fromTheCreateOnAndAcrossARedeploy(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{DefaultDeployment: testDeployment})
	config := func(sha string) map[string]string {
		return map[string]string{"main.tf": providerBlock(url) + fmt.Sprintf(`
resource "mintlify_deployment" "release" {
  wait_for_completion = false
}

resource "mintlify_preview_deployment" "feature" {
  branch              = "feature/identity"
  triggers            = { sha = %q }
  wait_for_completion = false
}

resource "mintlify_static_export" "snapshot" {
  domain              = "docs.example.com"
  wait_for_completion = false
}
`, sha)}
	}
	c := newCLIDir(t, clk, cliIdentity, config("a1"))
	c.ok("apply", "-auto-approve", "-input=false")
	deployments := fs.DeploymentIDs(mintlifytest.DemoProjectID) // the deployment, then the preview
	rec, _ := fs.Preview(mintlifytest.DemoProjectID, "feature/identity")
	if len(deployments) != 2 || len(rec.StatusIDs) != 1 {
		t.Fatalf("deployments %v, preview %+v", deployments, rec)
	}
	want := map[string]map[string]any{
		"mintlify_deployment.release":         {"project_id": mintlifytest.DemoProjectID, "id": deployments[0]},
		"mintlify_preview_deployment.feature": {"project_id": mintlifytest.DemoProjectID, "id": rec.StatusIDs[0]},
		"mintlify_static_export.snapshot":     {"id": fs.StaticExportIDs()[0]},
	}
	if deployments[0] == rec.StatusIDs[0] {
		want["mintlify_deployment.release"]["id"] = deployments[1]
	}
	if diff := cmp.Diff(want, c.identities()); diff != "" {
		t.Fatalf("identities after the create (-want +got):\n%s", diff)
	}
	c.write(config("b2"))
	wantOutput(t, "the redeploy", c.ok("apply", "-auto-approve", "-input=false"), "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.")
	rec, _ = fs.Preview(mintlifytest.DemoProjectID, "feature/identity")
	if len(rec.StatusIDs) != 2 {
		t.Fatalf("preview %+v", rec)
	}
	want["mintlify_preview_deployment.feature"]["id"] = rec.StatusIDs[1]
	if diff := cmp.Diff(want, c.identities()); diff != "" {
		t.Errorf("identities after the redeploy (-want +got):\n%s", diff)
	}
	if r := c.run("plan", "-detailed-exitcode", "-input=false"); r.code != 0 {
		t.Errorf("the plan after: exit status %d:\n%s", r.code, r.out)
	}
}
