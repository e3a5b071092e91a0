package provider

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

const previewAddr = "mintlify_preview_deployment.test"

func previewConfig(url, branch, extra string) string {
	return resourceConfig(url, "mintlify_preview_deployment", "branch", branch, extra)
}

// previewInState reads the preview's id and URL from state.
func previewInState(id, url *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		a := s.RootModule().Resources[previewAddr].Primary.Attributes
		*id, *url = a["id"], a["preview_url"]
		return nil
	}
}

func TestAccPreviewDeployment_redeployKeepsItsURLWithANewID(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	var firstID, firstURL, secondID, secondURL string
	runSteps(t, clk, []resource.TestStep{
		{
			Config: previewConfig(url, "feature/x", triggers("a1")),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("preview_url"), knownString("https://demo-project-feature-x.mintlify.app")),
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("status"), knownString("success")),
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("commit_ref"), knownString("feature/x")),
				deploymentInStateMatchesServer(fs, previewAddr),
			},
			Check: previewInState(&firstID, &firstURL),
		},
		{
			Config:           previewConfig(url, "feature/x", triggers("a1")),
			ConfigPlanChecks: plansNothing(),
		},
		// A new commit redeploys in place: the URL is known at plan and
		// stays; the id is the redeploy's status id.
		{
			Config: previewConfig(url, "feature/x", triggers("b2")),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(previewAddr, plancheck.ResourceActionUpdate),
				plancheck.ExpectKnownValue(previewAddr, tfjsonPath("preview_url"), knownString("https://demo-project-feature-x.mintlify.app")),
				plancheck.ExpectUnknownValue(previewAddr, tfjsonPath("id")),
				plancheck.ExpectUnknownValue(previewAddr, tfjsonPath("status")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{deploymentInStateMatchesServer(fs, previewAddr)},
			Check:             previewInState(&secondID, &secondURL),
		},
		// Another branch is another preview: a replacement.
		{
			Config:           previewConfig(url, "feature/y", triggers("b2")),
			ConfigPlanChecks: plansAction(previewAddr, plancheck.ResourceActionReplace),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("preview_url"), knownString("https://demo-project-feature-y.mintlify.app")),
			},
		},
	})
	rec, _ := fs.Preview(mintlifytest.DemoProjectID, "feature/x")
	if secondURL != firstURL || secondID == firstID || len(rec.StatusIDs) != 2 || rec.StatusIDs[0] != firstID || rec.StatusIDs[1] != secondID {
		t.Errorf("first %s at %s, then %s at %s; the fake: %+v", firstID, firstURL, secondID, secondURL, rec)
	}
	if accepted, refused := postsTo(fs, mintlifytest.RouteDeploymentsPreview); accepted != 3 || refused != 0 {
		t.Errorf("preview POSTs: %d accepted, %d refused; want 3", accepted, refused)
	}
}

// A redeploy cannot taint the resource: it keeps the old triggers, so the
// next apply redeploys again.
func TestAccPreviewDeployment_failedRedeployKeepsTheOldTriggers(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	failing := previewConfig(url, "feature/x", triggers("b2"))
	runSteps(t, clk, []resource.TestStep{
		{Config: previewConfig(url, "feature/x", triggers("a1"))},
		{
			PreConfig: func() {
				fs.SetDefaultDeployment(failingDeployment)
			},
			Config:      failing,
			ExpectError: wrapped(`Preview deployment failed`, `ended with status "failure"`, `broken link`, `The triggers keep their old values in state`),
		},
		planAfterApply(failing,
			plancheck.ExpectResourceAction(previewAddr, plancheck.ResourceActionUpdate),
			valuesInPriorState(previewAddr, func(vals map[string]any) error {
				rec, _ := fs.Preview(mintlifytest.DemoProjectID, "feature/x")
				trig, _ := vals["triggers"].(map[string]any)
				if len(rec.StatusIDs) != 2 || vals["id"] != rec.StatusIDs[1] || vals["status"] != "failure" || trig["commit"] != "a1" {
					return fmt.Errorf("state %v; the fake %+v", vals, rec)
				}
				return nil
			})),
		// Fixed: the next apply redeploys, once.
		{
			PreConfig: func() { fs.SetDefaultDeployment(testDeployment) },
			Config:    failing,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("status"), knownString("success")),
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("triggers"), knownvalue.MapExact(map[string]knownvalue.Check{"commit": knownString("b2")})),
			},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteDeploymentsPreview, 3, "preview POSTs")
}

func TestAccPreviewDeployment_notOnThePlan(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{PreviewsOffPlan: true})
	runSteps(t, clk, []resource.TestStep{{
		Config: previewConfig(url, "feature/x", ""),
		ExpectError: wrapped(`Could not deploy the preview`, `403 Forbidden: Preview deployments are not available on your current plan`,
			`the feature (previews, static exports, say) is not on the organization's plan`),
	}})
	wantRequests(t, fs, mintlifytest.RouteDeploymentsPreview, 1, "preview POSTs")
}

func TestAccPreviewDeployment_importAdoptsBranchAndTriggers(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	id := fs.TriggerDeployment(mintlifytest.DemoProjectID)
	cfg := previewConfig(url, "feature/x", triggers("a1"))
	runSteps(t, clk, []resource.TestStep{
		importStep(cfg, previewAddr, id),
		adoptStep(cfg, previewAddr, id,
			statecheck.ExpectKnownValue(previewAddr, tfjsonPath("branch"), knownString("feature/x")),
			statecheck.ExpectKnownValue(previewAddr, tfjsonPath("preview_url"), knownvalue.Null())),
		{Config: cfg, ConfigPlanChecks: plansNothing()},
	})
	wantRequests(t, fs, mintlifytest.RouteDeploymentsPreview, 0, "preview POSTs: importing deploys nothing")
}

// A redeploy the API refuses changed nothing: state keeps the preview as
// it was, old triggers included, so the next apply tries again.
func TestAccPreviewDeployment_refusedRedeployKeepsThePriorState(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	var id, previewURL string
	runSteps(t, clk, []resource.TestStep{
		{Config: previewConfig(url, "feature/x", triggers("a1")), Check: previewInState(&id, &previewURL)},
		{
			PreConfig:   func() { fs.SetPreviewsOnPlan(mintlifytest.DemoOrg, false) },
			Config:      previewConfig(url, "feature/x", triggers("b2")),
			ExpectError: wrapped(`Could not redeploy the preview`, `403 Forbidden`),
		},
		planAfterApply(previewConfig(url, "feature/x", triggers("b2")),
			plancheck.ExpectResourceAction(previewAddr, plancheck.ResourceActionUpdate),
			valuesInPriorState(previewAddr, func(vals map[string]any) error {
				trig, _ := vals["triggers"].(map[string]any)
				if vals["id"] != id || vals["preview_url"] != previewURL || vals["status"] != "success" || trig["commit"] != "a1" {
					return fmt.Errorf("state after the refusal: %v", vals)
				}
				return nil
			})),
	})
	if accepted, refused := postsTo(fs, mintlifytest.RouteDeploymentsPreview); accepted != 1 || refused != 1 {
		t.Errorf("preview POSTs: %d accepted, %d refused", accepted, refused)
	}
}

// What a redeploy changes: the rule the plan and the apply share.
func TestRedeployChanges_keepsOnlyWhatADeploymentOfTheBranchRepeats(t *testing.T) {
	ofBranch := deploymentStateModel{Status: types.StringValue("success"), Subdomain: types.StringValue("acme"),
		CommitRef: types.StringValue("feature/x"), Source: types.StringValue("api"), CommitSHA: types.StringValue("abc")}
	own := []string{"id", "status", "summary", "commit_sha", "commit_message", "created_at", "ended_at"}
	for name, tt := range map[string]struct {
		prior deploymentStateModel
		want  []string
	}{
		"a deployment of the branch, triggered through the API": {ofBranch, own},
		"started elsewhere (source github)": {func() deploymentStateModel { m := ofBranch; m.Source = types.StringValue("github"); return m }(),
			append(slices.Clone(own), "source")},
		"no subdomain given": {func() deploymentStateModel { m := ofBranch; m.Subdomain = types.StringNull(); return m }(),
			append(slices.Clone(own), "subdomain")},
		"imported from another branch's deployment": {func() deploymentStateModel { m := ofBranch; m.CommitRef = types.StringValue("main"); return m }(),
			append(slices.Clone(own), "subdomain", "commit_ref", "source")},
		"not read since it was queued": {deploymentStateModel{Status: types.StringValue("queued")},
			append(slices.Clone(own), "subdomain", "commit_ref", "source")},
	} {
		got := tt.prior.redeployChanges("feature/x")
		slices.Sort(got)
		slices.Sort(tt.want)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: changes %v, want %v", name, got, tt.want)
		}
	}
	// The apply puts back what the plan kept and the answer left out; what
	// the API did say is saved, and the new deployment's own facts are
	// never taken from the old one.
	m := deploymentStateModel{Status: types.StringValue("queued"), Subdomain: types.StringNull(), CommitRef: types.StringNull(),
		Source: types.StringValue("api"), CommitSHA: types.StringNull()}
	m.keepAcrossRedeploy(ofBranch, "feature/x")
	if m.Subdomain.ValueString() != "acme" || m.CommitRef.ValueString() != "feature/x" || !m.CommitSHA.IsNull() || m.Status.ValueString() != "queued" {
		t.Errorf("after a queued answer: %+v", m)
	}
	if got := m.keepAcrossRedeploy(ofBranch, "feature/x"); got != nil {
		t.Errorf("contradicted %q", got)
	}
	m = deploymentStateModel{Subdomain: types.StringValue("acme-renamed"), CommitRef: types.StringNull()}
	got := m.keepAcrossRedeploy(func() deploymentStateModel { p := ofBranch; p.CommitRef = types.StringValue("main"); return p }(), "feature/x")
	if m.Subdomain.ValueString() != "acme-renamed" || !m.CommitRef.IsNull() || !m.Source.IsNull() || got != nil {
		t.Errorf("after an answer of its own, the prior of another branch: %+v, contradicted %q", m, got)
	}
	// An answer that contradicts what the plan kept is saved, and named.
	m = deploymentStateModel{Subdomain: types.StringValue("acme-renamed"), CommitRef: types.StringValue("feature/x"), Source: types.StringValue("api")}
	if got := m.keepAcrossRedeploy(ofBranch, "feature/x"); !slices.Equal(got, []string{`subdomain "acme-renamed" (it was "acme")`}) || m.Subdomain.ValueString() != "acme-renamed" {
		t.Errorf("contradicted %q, subdomain %s", got, m.Subdomain)
	}
}

// A redeploy that does not wait saves the trigger's answer (a status
// alone) and what the plan kept, as the plan showed it; the next refresh
// reads the rest.
func TestAccPreviewDeployment_redeployWithoutWaitingSavesWhatThePlanShowed(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	runSteps(t, clk, []resource.TestStep{
		{Config: previewConfig(url, "feature/x", triggers("a1"))},
		{
			Config: previewConfig(url, "feature/x", triggers("b2")+"\n  wait_for_completion = false"),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				unknownAfterPlan(previewAddr, "id", "status", "summary", "commit_sha", "commit_message", "created_at", "ended_at"),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("status"), knownString("queued")),
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("commit_ref"), knownString("feature/x")),
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("subdomain"), knownString("demo-project")),
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("source"), knownString("api")),
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("commit_sha"), knownvalue.Null()),
			},
		},
		{
			PreConfig:         func() { clk.Advance(time.Minute) }, // the redeploy ends meanwhile
			Config:            previewConfig(url, "feature/x", triggers("b2")+"\n  wait_for_completion = false"),
			ConfigPlanChecks:  plansNothing(),
			ConfigStateChecks: []statecheck.StateCheck{deploymentInStateMatchesServer(fs, previewAddr)},
		},
	})
}

// A preview imported by the status id of another deployment (the
// project's own, of its deployment branch) has nothing a redeploy of the
// configured branch repeats: the plan shows its facts as known after
// apply, and the apply saves the new deployment's.
func TestAccPreviewDeployment_importedFromAnotherDeploymentPlansItsFactsUnknown(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	id := fs.TriggerDeployment(mintlifytest.DemoProjectID)
	cfg := previewConfig(url, "feature/x", triggers("a1"))
	runSteps(t, clk, []resource.TestStep{
		importStep(cfg, previewAddr, id),
		adoptStep(cfg, previewAddr, id, statecheck.ExpectKnownValue(previewAddr, tfjsonPath("commit_ref"), knownString("main"))),
		{
			Config: previewConfig(url, "feature/x", triggers("b2")),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(previewAddr, plancheck.ResourceActionUpdate),
				unknownAfterPlan(previewAddr, "id", "status", "summary", "commit_sha", "commit_message", "created_at", "ended_at",
					"subdomain", "commit_ref", "source", "preview_url"),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("commit_ref"), knownString("feature/x")),
				deploymentInStateMatchesServer(fs, previewAddr),
			},
		},
	})
}

// A redeploy whose answer contradicts what the plan kept (the project's
// subdomain renamed between two deploys, say) saves the API's value and
// says so in words, not with Terraform's "bug in the provider".
func TestAccPreviewDeployment_redeployAnswerContradictingThePlanIsSavedAndSaid(t *testing.T) {
	clearEnv(t)
	var renamed atomic.Bool
	fs, url, clk := startHostile(t, func(r *http.Request, status int, body string) (int, string) {
		if renamed.Load() && r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/update-status/") {
			body = strings.Replace(body, `"subdomain":"demo-project"`, `"subdomain":"renamed-docs"`, 1)
		}
		return status, body
	})
	runSteps(t, clk, []resource.TestStep{
		{Config: previewConfig(url, "feature/x", triggers("a1"))},
		{
			PreConfig:   func() { renamed.Store(true) },
			Config:      previewConfig(url, "feature/x", triggers("b2")),
			ExpectError: wrapped("The redeployed preview is not what the plan showed", `gives subdomain "renamed-docs" (it was "demo-project")`),
		},
		{
			Config:           previewConfig(url, "feature/x", triggers("b2")),
			ConfigPlanChecks: plansNothing(),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("subdomain"), knownString("renamed-docs")),
				statecheck.ExpectKnownValue(previewAddr, tfjsonPath("status"), knownString("success")),
			},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteDeploymentsPreview, 2, "previews: the first and the redeploy, once")
}

// A redeploy the API accepted keeps its new triggers when its answers are
// only odd: here a new preview URL (said as an error) on a redeploy not
// waited for, or also with a status that could not be read while waiting
// (said as a warning). The next plan has nothing to do: the redeploy is
// never sent a third time.
func TestAccPreviewDeployment_acceptedRedeployWithAnOddAnswerIsNotSentAgain(t *testing.T) {
	for name, wait := range map[string]bool{"not waited for": false, "its status unreadable while waiting": true} {
		t.Run(name, func(t *testing.T) {
			clearEnv(t)
			var moved atomic.Bool
			fs, url, clk := startHostile(t, func(r *http.Request, status int, body string) (int, string) {
				switch {
				case !moved.Load():
				case r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/project/preview/"):
					body = strings.Replace(body, "demo-project-feature-x.mintlify.app", "moved-feature-x.mintlify.app", 1)
				case r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/update-status/"):
					return http.StatusNotFound, `{"error":"not found"}`
				}
				return status, body
			})
			extra := "\n  wait_for_completion = false"
			if wait {
				extra = ""
			}
			redeploy := previewConfig(url, "feature/x", triggers("b2")+extra)
			runSteps(t, clk, []resource.TestStep{
				{Config: previewConfig(url, "feature/x", triggers("a1")+extra)},
				{
					PreConfig:   func() { moved.Store(true) },
					Config:      redeploy,
					ExpectError: wrapped("The preview's URL changed", "moved-feature-x.mintlify.app"),
				},
				{
					Config:           redeploy,
					PlanOnly:         true,
					ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				},
				{
					Config:           redeploy,
					ConfigPlanChecks: plansNothing(),
					ConfigStateChecks: []statecheck.StateCheck{
						statecheck.ExpectKnownValue(previewAddr, tfjsonPath("preview_url"), knownString("https://moved-feature-x.mintlify.app")),
						statecheck.ExpectKnownValue(previewAddr, tfjsonPath("triggers"), knownvalue.MapExact(map[string]knownvalue.Check{"commit": knownString("b2")})),
					},
				},
			})
			wantRequests(t, fs, mintlifytest.RouteDeploymentsPreview, 2, "previews: the first and the redeploy, once")
		})
	}
}
