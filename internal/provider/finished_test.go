package provider

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// A finished deployment, preview or static export is a record that never
// changes: a refresh keeps its state and sends nothing. Whatever is not
// final (an odd status, an empty one) is read, and so is an agent job in
// any status, since a follow-up message takes it up again.
func TestRead_finishedRecordsAreNotReadAgain(t *testing.T) {
	fs, url, _ := startDeployFake(t, mintlifytest.Config{})
	data := clientFor(t, url)
	deployment := fs.TriggerDeployment(mintlifytest.DemoProjectID)
	job := fs.CreateJob(mintlifytest.DemoProjectID, "x")
	for _, tt := range []struct {
		name   string
		res    fwresource.Resource
		status string
		reads  int
	}{
		{"mintlify_deployment", &deploymentResource{data: data}, "success", 0},
		{"mintlify_deployment", &deploymentResource{data: data}, "failure", 0},
		{"mintlify_deployment", &deploymentResource{data: data}, "queued", 1},
		{"mintlify_deployment", &deploymentResource{data: data}, "in_progress", 1},
		{"mintlify_deployment", &deploymentResource{data: data}, "rolling_back", 1},
		{"mintlify_deployment", &deploymentResource{data: data}, "", 1},
		{"mintlify_preview_deployment", &previewDeploymentResource{data: data}, "success", 0},
		{"mintlify_preview_deployment", &previewDeploymentResource{data: data}, "failure", 0},
		{"mintlify_preview_deployment", &previewDeploymentResource{data: data}, "in_progress", 1},
		{"mintlify_static_export", &staticExportResource{data: data}, "completed", 0},
		{"mintlify_static_export", &staticExportResource{data: data}, "failed", 0},
		{"mintlify_static_export", &staticExportResource{data: data}, "running", 1},
		{"mintlify_static_export", &staticExportResource{data: data}, "paused", 1},
		{"mintlify_agent_job", &agentJobResource{data: data}, "completed", 1},
		{"mintlify_agent_job", &agentJobResource{data: data}, "failed", 1},
		{"mintlify_agent_job", &agentJobResource{data: data}, "archived", 1},
		{"mintlify_agent_job_message", &agentJobMessageResource{data: data}, "completed", 1},
	} {
		t.Run(tt.name+"/"+tt.status, func(t *testing.T) {
			// The ids are the fake's, so that a read, were one sent, would
			// succeed and change the state.
			vals := map[string]tftypes.Value{"id": str(deployment), "project_id": str(mintlifytest.DemoProjectID), "status": str(tt.status)}
			switch tt.name {
			case "mintlify_static_export":
				vals["id"] = str("se_3f9a2c1b8e7d4a06")
			case "mintlify_agent_job":
				vals["id"] = str(job)
			case "mintlify_agent_job_message":
				vals["id"], vals["job_id"] = str(job+"/2026-11-21T12:00:00Z"), str(job)
			}
			if tt.status == "" {
				vals["status"] = tftypes.NewValue(tftypes.String, nil) // as after an import
			}
			before := fs.TotalRequests()
			resp := readResource(t, tt.res, vals)
			if n := fs.TotalRequests() - before; n != tt.reads {
				t.Errorf("%d requests, want %d", n, tt.reads)
			}
			if tt.reads > 0 {
				return
			}
			if len(resp.Diagnostics) > 0 {
				t.Errorf("diagnostics: %v", resp.Diagnostics)
			}
			s := resourceSchema(t, tt.res)
			if want := objectOf(t, s, vals, false); !resp.State.Raw.Equal(want) {
				t.Errorf("state changed:\n%v\nwant\n%v", resp.State.Raw, want)
			}
		})
	}
}

// A finished object's state from before identities still gets one, with
// no request.
func TestRead_finishedRecordGetsAnIdentityWithoutARead(t *testing.T) {
	fs, url, _ := startDeployFake(t, mintlifytest.Config{})
	r := &deploymentResource{data: clientFor(t, url)}
	s := resourceSchema(t, r)
	var isr fwresource.IdentitySchemaResponse
	r.IdentitySchema(context.Background(), fwresource.IdentitySchemaRequest{}, &isr)
	state := tfsdk.State{Schema: s, Raw: objectOf(t, s, map[string]tftypes.Value{"id": str("68a1b2c3d4e5f60718293a4b"),
		"project_id": str(mintlifytest.DemoProjectID), "status": str("success")}, false)}
	identity := &tfsdk.ResourceIdentity{Schema: isr.IdentitySchema, Raw: tftypes.NewValue(isr.IdentitySchema.Type().TerraformType(context.Background()), nil)}
	resp := &fwresource.ReadResponse{State: state, Identity: identity}
	r.Read(context.Background(), fwresource.ReadRequest{State: state, Identity: identity}, resp)
	var id, project string
	resp.Diagnostics.Append(resp.Identity.GetAttribute(context.Background(), tfjsonPathToPath("id"), &id)...)
	resp.Diagnostics.Append(resp.Identity.GetAttribute(context.Background(), tfjsonPathToPath("project_id"), &project)...)
	if resp.Diagnostics.HasError() || id != "68a1b2c3d4e5f60718293a4b" || project != mintlifytest.DemoProjectID || fs.TotalRequests() != 0 {
		t.Errorf("identity %q %q after %d requests: %v", project, id, fs.TotalRequests(), resp.Diagnostics)
	}
}

// Destroying what the API cannot delete is the documented behavior: no
// diagnostic, one INFO line in the log saying what remains at Mintlify.
func TestDelete_removedFromStateOnlyIsLoggedNotWarned(t *testing.T) {
	for _, tt := range []struct {
		res  fwresource.Resource
		vals map[string]tftypes.Value
		want string
	}{
		{&agentJobResource{}, map[string]tftypes.Value{"id": str("j-1"), "project_id": str("p"), "prompt": str("x")},
			`Agent job removed from state only: The Mintlify API cannot delete agent jobs: job j-1 in project "p" remains at Mintlify.`},
		{&agentJobResource{}, map[string]tftypes.Value{"id": str("j-1"), "project_id": str("p"), "prompt": str("x"), "pr_link": str("https://github.com/a/b/1")},
			`Agent job removed from state only: The Mintlify API cannot delete agent jobs: job j-1 in project "p" remains at Mintlify, and so does its pull request https://github.com/a/b/1 (close it in your code host if it is no longer wanted).`},
		{&agentJobMessageResource{}, map[string]tftypes.Value{"job_id": str("j-1"), "project_id": str("p"), "prompt": str("x")},
			`Message removed from state only: A sent message cannot be taken back: the message to agent job j-1 in project "p", and the work it started, remain at Mintlify.`},
		{&deploymentResource{}, map[string]tftypes.Value{"id": str("abc"), "project_id": str("demo-project")},
			`Deployment removed from state only: A deployment cannot be undone or deleted through the Mintlify API: removing deployment abc of project "demo-project" from state changes nothing that is published.`},
		{&previewDeploymentResource{}, map[string]tftypes.Value{"id": str("abc"), "project_id": str("demo-project"), "branch": str("feature/x"),
			"preview_url": str("https://demo-project-feature-x.mintlify.app")},
			`Preview deployment removed from state only: The Mintlify API cannot delete a preview deployment or undo one: the preview of branch "feature/x" of project "demo-project" stays at https://demo-project-feature-x.mintlify.app.`},
		{&staticExportResource{}, map[string]tftypes.Value{"id": str("se_3f9a2c1b8e7d4a06"), "domain": str("docs.example.com")},
			`Static export removed from state only: The Mintlify API cannot delete static exports: export se_3f9a2c1b8e7d4a06 remains at Mintlify. Bundle links already made of it expire on their own.`},
	} {
		name := fmt.Sprintf("%T", tt.res)
		var logs bytes.Buffer
		ctx := tflogtest.RootLogger(context.Background(), &logs)
		s := resourceSchema(t, tt.res)
		state := tfsdkState(s, objectOf(t, s, tt.vals, false))
		resp := deleteResource(ctx, tt.res, state)
		if len(resp.Diagnostics) > 0 {
			t.Errorf("%s: diagnostics %s", name, diagText(resp.Diagnostics, diag.SeverityWarning)+diagText(resp.Diagnostics, diag.SeverityError))
		}
		entries, err := tflogtest.MultilineJSONDecode(&logs)
		if err != nil {
			t.Fatal(err)
		}
		var said []string
		for _, e := range entries {
			if e["@level"] == "info" {
				said = append(said, fmt.Sprint(e["@message"]))
			}
		}
		if len(said) != 1 || said[0] != tt.want {
			t.Errorf("%s: logged at INFO:\n%s\nwant\n%s", name, strings.Join(said, "\n"), tt.want)
		}
	}
}

// An import reads a finished deployment once; nothing reads it after.
func TestAccDeployment_importedFinishedDeploymentIsReadOnce(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	id := fs.TriggerDeployment(mintlifytest.DemoProjectID)
	clk.Advance(time.Hour) // it has finished
	cfg := deployConfig(url, triggers("a1"))
	log := &requestLog{fs: fs}
	runSteps(t, clk, []resource.TestStep{
		importStep(cfg, deployAddr, id),
		adoptStep(cfg, deployAddr, id, statecheck.ExpectKnownValue(deployAddr, tfjsonPath("status"), knownString("success"))),
		{
			PreConfig: log.setMark,
			Config:    cfg,
			PlanOnly:  true,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{checkPlan(func(*tfjson.Plan) error { return log.sent("plan", map[string]int{}) })},
			},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteDeploymentsStatus, 1, "status reads: the import's alone")
	wantRequests(t, fs, mintlifytest.RouteDeploymentsTrigger, 0, "deployments: importing deploys nothing")
}

// A redeploy that did not finish (timed out here; an interrupt leaves the
// same state) keeps a status that is not final: the next plan reads it,
// and the redeploy is tried again since the old triggers were kept. Once
// finished, a plan reads nothing.
func TestAccPreviewDeployment_unfinishedRedeployIsReadUntilItEnds(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	log := &requestLog{fs: fs}
	cfg := func(commit string) string {
		return previewConfig(url, "feature/x", triggers(commit)+"\n  timeouts {\n    create = \"1m\"\n  }")
	}
	runSteps(t, clk, []resource.TestStep{
		{Config: cfg("a1")},
		{
			PreConfig: func() {
				fs.SetDefaultDeployment(mintlifytest.DeploymentScript{Queued: time.Second, Building: time.Hour, Outcome: mintlifytest.OutcomeCompleted})
			},
			Config:      cfg("b2"),
			ExpectError: wrapped("Timed out waiting for the preview deployment"),
		},
		{
			PreConfig: func() {
				clk.Advance(2 * time.Hour) // the timed-out redeploy ends meanwhile
				fs.SetDefaultDeployment(testDeployment)
				log.setMark()
			},
			Config: cfg("b2"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(previewAddr, plancheck.ResourceActionUpdate),
				checkPlan(func(*tfjson.Plan) error {
					return log.sent("plan", map[string]int{mintlifytest.RouteDeploymentsStatus: 1})
				}),
			}},
		},
		{
			PreConfig: log.setMark,
			Config:    cfg("b2"),
			PlanOnly:  true,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PostApplyPostRefresh: []plancheck.PlanCheck{checkPlan(func(*tfjson.Plan) error { return log.sent("plan", map[string]int{}) })},
			},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteDeploymentsPreview, 3, "previews: the first, the one that timed out, and its retry")
}
