package provider

import (
	"context"
	"encoding/json"
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
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

const deployAddr = "mintlify_deployment.test"

// testDeployment is the lifecycle of the tests' deployments, on the test's
// clock: queued, then building long enough for polls to see each status.
var testDeployment = mintlifytest.DeploymentScript{Queued: 5 * time.Second, Building: 40 * time.Second, Outcome: mintlifytest.OutcomeCompleted}

// failingDeployment is testDeployment ending in failure.
var failingDeployment = mintlifytest.DeploymentScript{Queued: 5 * time.Second, Building: 40 * time.Second, Outcome: mintlifytest.OutcomeFailed}

// startDeployFake is startFake with testDeployment, unless cfg says.
func startDeployFake(t *testing.T, cfg mintlifytest.Config) (*mintlifytest.Fake, string, *testClock) {
	t.Helper()
	if cfg.DefaultDeployment == (mintlifytest.DeploymentScript{}) {
		cfg.DefaultDeployment = testDeployment
	}
	return startFake(t, cfg)
}

func deployConfig(url, extra string) string {
	return providerBlock(url) + fmt.Sprintf(`
resource "mintlify_deployment" "test" {
%s
}
`, extra)
}

func triggers(commit string) string { return fmt.Sprintf("  triggers = { commit = %q }", commit) }

// deploymentInStateMatchesServer checks that the deployment in state at
// addr is one the fake holds, with its status and commit.
func deploymentInStateMatchesServer(fs *mintlifytest.Fake, addr string) statecheck.StateCheck {
	return valuesInState(addr, func(vals map[string]any) error {
		return compareDeployment(fs, vals)
	})
}

func compareDeployment(fs *mintlifytest.Fake, vals map[string]any) error {
	raw, ok := fs.DeploymentStatus(fmt.Sprint(vals["id"]))
	if !ok {
		return fmt.Errorf("the server has no deployment %v", vals["id"])
	}
	var st struct {
		ProjectID string `json:"projectId"`
		Status    string `json:"status"`
		Summary   string `json:"summary"`
		Commit    struct{ SHA, Ref, Message string }
		Source    string `json:"source"`
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		return err
	}
	for name, want := range map[string]string{"project_id": st.ProjectID, "status": st.Status, "summary": st.Summary,
		"commit_sha": st.Commit.SHA, "commit_ref": st.Commit.Ref, "commit_message": st.Commit.Message, "source": st.Source} {
		if vals[name] != want {
			return fmt.Errorf("%s in state %v, on the server %q", name, vals[name], want)
		}
	}
	return nil
}

// postsTo counts the requests of a route the fake accepted (202) and refused.
func postsTo(fs *mintlifytest.Fake, route string) (accepted, refused int) {
	for _, r := range fs.RequestsTo(route) {
		if r.Status == 202 {
			accepted++
		} else {
			refused++
		}
	}
	return accepted, refused
}

func TestAccDeployment_deploysExactlyWhenTriggersChange(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	var first string
	runSteps(t, clk, []resource.TestStep{
		{
			Config: deployConfig(url, triggers("a1")),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(deployAddr, plancheck.ResourceActionCreate),
				plancheck.ExpectKnownValue(deployAddr, tfjsonPath("project_id"), knownString(mintlifytest.DemoProjectID)),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(deployAddr, tfjsonPath("status"), knownString("success")),
				statecheck.ExpectKnownValue(deployAddr, tfjsonPath("id"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{24}$`))),
				statecheck.ExpectKnownValue(deployAddr, tfjsonPath("subdomain"), knownString("demo-project")),
				statecheck.ExpectKnownValue(deployAddr, tfjsonPath("source"), knownString("api")),
				statecheck.ExpectKnownValue(deployAddr, tfjsonPath("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT`))),
				statecheck.ExpectKnownValue(deployAddr, tfjsonPath("ended_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT`))),
				deploymentInStateMatchesServer(fs, deployAddr),
			},
			Check: func(s *terraform.State) error { first = s.RootModule().Resources[deployAddr].Primary.ID; return nil },
		},
		// The same triggers plan nothing and send nothing.
		{
			Config:           deployConfig(url, triggers("a1")),
			ConfigPlanChecks: plansNothing(),
		},
		// wait_for_completion only updates state: no deployment.
		{
			Config:           deployConfig(url, triggers("a1")+"\n  wait_for_completion = false"),
			ConfigPlanChecks: plansAction(deployAddr, plancheck.ResourceActionUpdate),
			ConfigStateChecks: []statecheck.StateCheck{checkState(func(s *tfjson.State) error {
				if vals, _ := resourceValues(s.Values.RootModule, deployAddr); vals["id"] != first {
					return fmt.Errorf("id %v, want %s", vals["id"], first)
				}
				return nil
			})},
		},
		// New triggers: a new deployment, not waited for.
		{
			Config:           deployConfig(url, triggers("b2")+"\n  wait_for_completion = false"),
			ConfigPlanChecks: plansAction(deployAddr, plancheck.ResourceActionReplace),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(deployAddr, tfjsonPath("status"), knownString("queued")),
				statecheck.ExpectKnownValue(deployAddr, tfjsonPath("ended_at"), knownvalue.Null()),
			},
		},
	})
	if accepted, refused := postsTo(fs, mintlifytest.RouteDeploymentsTrigger); accepted != 2 || refused != 0 {
		t.Errorf("update POSTs: %d accepted, %d refused; want 2 (one per change of triggers)", accepted, refused)
	}
	if ids := fs.DeploymentIDs(mintlifytest.DemoProjectID); len(ids) != 2 || ids[0] != first {
		t.Errorf("deployments %v", ids)
	}
}

func TestAccDeployment_failureIsTaintedWithItsIDKept(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{DefaultDeployment: failingDeployment})
	cfg := deployConfig(url, triggers("a1"))
	runSteps(t, clk, []resource.TestStep{
		{
			Config: cfg,
			ExpectError: wrapped(`Deployment failed`, `of project "demo-project" ended with status "failure": Build failed`,
				`Error: quickstart.mdx:12: broken link to /missing-page`, `Build failed after 42 pages`, `tainted`),
		},
		planAfterApply(cfg,
			plancheck.ExpectResourceAction(deployAddr, plancheck.ResourceActionReplace),
			valuesInPriorState(deployAddr, func(vals map[string]any) error {
				ids := fs.DeploymentIDs(mintlifytest.DemoProjectID)
				if len(ids) != 1 || vals["id"] != ids[0] || vals["status"] != "failure" {
					return fmt.Errorf("state holds %v, the server %v", vals, ids)
				}
				return nil
			})),
	})
	wantRequests(t, fs, mintlifytest.RouteDeploymentsTrigger, 1, "update POSTs")
}

// The 10-per-10-s budget of deployments and automation runs is spent when
// terraform applies: the refusal is waited out (on the fake's clock) and
// the trigger sent again, once.
func TestAccDeployment_rateLimitWaitedOutWithoutADuplicatePOST(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	c, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(url), sdk.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	// Another pipeline of the organization spends the budget.
	for i := range 10 {
		clk.Advance(500 * time.Millisecond)
		if i%2 == 0 {
			_, err = c.Deployments.Trigger(context.Background(), mintlifytest.DemoProjectID)
		} else {
			_, err = c.Automations.Trigger(context.Background(), mintlifytest.DemoProjectID, mintlifytest.DemoAutomationID)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	before := len(fs.DeploymentIDs(mintlifytest.DemoProjectID))
	runSteps(t, clk, []resource.TestStep{{
		Config: deployConfig(url, triggers("a1")),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(deployAddr, tfjsonPath("status"), knownString("success")),
			deploymentInStateMatchesServer(fs, deployAddr),
		},
	}})
	if accepted, refused := postsTo(fs, mintlifytest.RouteDeploymentsTrigger); accepted != 5+1 || refused != 1 {
		t.Errorf("update POSTs: %d accepted, %d refused; want the 5 before, then one refused and one accepted", accepted, refused)
	}
	if after := len(fs.DeploymentIDs(mintlifytest.DemoProjectID)); after != before+1 {
		t.Errorf("%d deployments from one apply", after-before)
	}
}

func TestAccDeployment_importByStatusIDAdoptsTriggers(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	id := fs.TriggerDeployment(mintlifytest.DemoProjectID) // from the dashboard
	cfg := deployConfig(url, triggers("a1"))
	runSteps(t, clk, []resource.TestStep{
		{
			Config:             cfg,
			ResourceName:       deployAddr,
			ImportState:        true,
			ImportStateId:      id,
			ImportStatePersist: true,
			ImportStateCheck: func(states []*terraform.InstanceState) error {
				if len(states) != 1 || states[0].ID != id || states[0].Attributes["project_id"] != mintlifytest.DemoProjectID ||
					states[0].Attributes["source"] != "dashboard" || states[0].Attributes["status"] == "" {
					return fmt.Errorf("imported %+v", states)
				}
				return nil
			},
		},
		// The configured triggers are adopted in place: no deployment.
		adoptStep(cfg, deployAddr, id, deploymentInStateMatchesServer(fs, deployAddr)),
		// After that, triggers deploy again as usual.
		{
			Config:           deployConfig(url, triggers("b2")),
			ConfigPlanChecks: plansAction(deployAddr, plancheck.ResourceActionReplace),
		},
	})
	wantRequests(t, fs, mintlifytest.RouteDeploymentsTrigger, 1, "update POSTs: importing deploys nothing")
}

func TestAccDeployment_importOfAnUnknownStatusFails(t *testing.T) {
	clearEnv(t)
	_, url, clk := startDeployFake(t, mintlifytest.Config{})
	for id, want := range map[string]string{
		"000000000000000000000000": `Mintlify has no deployment status "000000000000000000000000" \(404\)`,
		"a/b":                      `Import by the deployment's status id: statusId "a/b" may hold only`,
	} {
		runSteps(t, clk, []resource.TestStep{{
			Config: deployConfig(url, ""), ResourceName: deployAddr, ImportState: true, ImportStateId: id,
			ExpectError: regexp.MustCompile(want),
		}})
	}
}

func TestAccDeployment_invalidInputFailsAtPlanWithNoRequest(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	for _, tt := range []struct{ cfg, want string }{
		{deployConfig(url, `  project_id = "a/b"`), `project_id "a/b" may hold only ASCII letters`},
		{deployConfig(url, "  timeouts {\n    create = \"10s\"\n  }"), `timeouts.create "10s" must be a duration from 1m to 24h`},
		{previewConfig(url, "main ", ""), `branch "main " contains white space`},
		{previewConfig(url, "a..b", ""), `branch "a..b" contains "..", "@{" or "//"`},
		{previewConfig(url, "", ""), `branch "" is required`},
		{providerBlock(url) + `data "mintlify_deployment_status" "x" { status_id = "../x" }`, `status_id "../x" may hold only`},
	} {
		runSteps(t, clk, []resource.TestStep{{Config: tt.cfg, PlanOnly: true, ExpectError: wrapped(tt.want)}})
	}
	wantNoRequests(t, fs, "for invalid configuration")
}

// Destroy sends nothing (what it says is TestDelete_removedFromStateOnlyIsLoggedNotWarned's).
func TestAccDeployment_destroyRemovesFromStateOnly(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	runSteps(t, clk, []resource.TestStep{{Config: deployConfig(url, triggers("a1"))}})
	// The destroy at the end of the test sent nothing to the API.
	for _, r := range fs.RequestLog() {
		if r.Route != mintlifytest.RouteDeploymentsTrigger && r.Route != mintlifytest.RouteDeploymentsStatus {
			t.Errorf("request %s", r.Route)
		}
	}
}

func TestDeploymentRead_goneFromTheAPIStaysWithAWarning(t *testing.T) {
	fs, url, _ := startDeployFake(t, mintlifytest.Config{})
	id := fs.TriggerDeployment(mintlifytest.DemoProjectID)
	fs.ForgetDeployment(id)
	for name, res := range map[string]fwresource.Resource{
		"mintlify_deployment":         &deploymentResource{data: clientFor(t, url)},
		"mintlify_preview_deployment": &previewDeploymentResource{data: clientFor(t, url)},
	} {
		// Not finished yet: a finished one is not read again (TestRead_finishedRecordsAreNotReadAgain).
		resp := readResource(t, res, map[string]tftypes.Value{"id": str(id), "project_id": str("demo-project"), "status": str("in_progress")})
		contains(t, name, diagText(resp.Diagnostics, diag.SeverityWarning), "no longer exists at Mintlify", id, "stays in state unchanged",
			"terraform state rm "+name+".<name>")
		if resp.Diagnostics.HasError() || resp.State.Raw.IsNull() {
			t.Errorf("%s: %v", name, resp.Diagnostics)
		}
	}
}

func TestDeploymentFailure_quotesTheLastTenLogLines(t *testing.T) {
	d := &sdk.Deployment{ID: "s1", ProjectID: "p", Status: sdk.DeploymentFailure, Summary: "Build failed"}
	for i := range 14 {
		d.Logs = append(d.Logs, fmt.Sprintf("line %d", i+1))
	}
	got := deploymentFailure("deployment", d)
	contains(t, "message", got, `Deployment s1 of project "p" ended with status "failure": Build failed.`, "Its last 10 log lines (of 14):",
		"    line 5\n", "    line 14\n", `status_id = "s1"`)
	if strings.Contains(got, "line 4\n") {
		t.Errorf("quotes more than 10 lines:\n%s", got)
	}
	d.Logs = d.Logs[:3]
	if got := deploymentFailure("preview deployment", d); !strings.Contains(got, "Preview deployment s1") || !strings.Contains(got, "Its log:\n\n    line 1\n") ||
		strings.Contains(got, "whole log") {
		t.Errorf("short log:\n%s", got)
	}
	d.Logs, d.Summary, d.ProjectID = nil, "", ""
	if got := deploymentFailure("deployment", d); got != `Deployment s1 ended with status "failure". The API gave no log lines: see the deployment in the Mintlify dashboard.` {
		t.Errorf("no log:\n%s", got)
	}
}
