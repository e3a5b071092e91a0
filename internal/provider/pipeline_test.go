package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// A release pipeline as a platform team writes one: the docs published,
// a preview per branch, a static export and an agent job per commit, and
// a search that checks the live docs.

// pipelineBranches are the pipeline's preview branches.
var pipelineBranches = []string{"feature/a", "feature/b", "feature/c"}

// pipelineConfig is the pipeline at url for commit; wait sets every
// resource's wait_for_completion.
func pipelineConfig(url, commit string, wait bool) string {
	return fmt.Sprintf(`
provider "mintlify" {
  api_key           = %[1]q
  assistant_api_key = %[2]q
  base_url          = %[3]q
  project_id        = %[4]q
  domain            = %[5]q
}

locals {
  commit = %[6]q
  wait     = %[7]t
  branches = %[8]s
}

resource "mintlify_deployment" "docs" {
  triggers            = { commit = local.commit }
  wait_for_completion = local.wait
}

# count, not for_each: terraform-plugin-testing cannot read back a state
# whose instance keys are strings.
resource "mintlify_preview_deployment" "branch" {
  count               = length(local.branches)
  branch              = local.branches[count.index]
  triggers            = { commit = local.commit }
  wait_for_completion = local.wait
}

resource "mintlify_static_export" "release" {
  domain              = "docs.example.com"
  triggers            = { commit = local.commit }
  wait_for_completion = local.wait
}

resource "mintlify_agent_job" "changelog" {
  prompt              = "Write the changelog entry for ${local.commit}"
  triggers            = { commit = local.commit }
  wait_for_completion = local.wait
}

check "search" {
  data "mintlify_search" "install" {
    query = "install the CLI"
  }

  assert {
    condition     = contains(data.mintlify_search.install.paths, "/quickstart")
    error_message = "Searching \"install the CLI\" does not find /quickstart."
  }
}
`, mintlifytest.DemoAPIKey, mintlifytest.DemoAssistantKey, url, mintlifytest.DemoProjectID, mintlifytest.DemoDomain,
		commit, wait, fmt.Sprintf(`["%s"]`, strings.Join(pipelineBranches, `", "`)))
}

// pipelineResources are the addresses of the pipeline's resources.
func pipelineResources() []string {
	addrs := []string{"mintlify_deployment.docs", "mintlify_static_export.release", "mintlify_agent_job.changelog"}
	for i := range pipelineBranches {
		addrs = append(addrs, previewOf(i))
	}
	return addrs
}

// previewOf is the address of the pipeline's i-th preview.
func previewOf(i int) string { return fmt.Sprintf("mintlify_preview_deployment.branch[%d]", i) }

// onlyTheCheckReads checks that a plan changes nothing but reads the
// check's data source, as a check block's always is (Terraform plans it
// "read during apply", so terraform-plugin-testing counts the plan as not
// empty).
func onlyTheCheckReads() plancheck.PlanCheck {
	return checkPlan(func(p *tfjson.Plan) error {
		for _, rc := range p.ResourceChanges {
			if rc.Address == "data.mintlify_search.install" || rc.Change.Actions.NoOp() {
				continue
			}
			return fmt.Errorf("%s: %v", rc.Address, rc.Change.Actions)
		}
		return nil
	})
}

// requestLog marks a point in the fake's log, to count what was sent after.
type requestLog struct {
	fs   *mintlifytest.Fake
	mark int
}

func (l *requestLog) setMark() { l.mark = len(l.fs.RequestLog()) }

// since counts the requests sent after the mark, by route, and moves the
// mark to now.
func (l *requestLog) since() map[string]int {
	log := l.fs.RequestLog()
	n := map[string]int{}
	for _, r := range log[l.mark:] {
		n[r.Route]++
	}
	l.mark = len(log)
	return n
}

// sent checks that exactly want (by route) was sent since the mark; what
// names the command.
func (l *requestLog) sent(what string, want map[string]int) error {
	if got := l.since(); !maps.Equal(got, want) {
		return fmt.Errorf("%s sent %v, want %v", what, got, want)
	}
	return nil
}

// unknownAfterPlan checks that the plan leaves exactly the attributes want
// of addr unknown (known after apply): a plan shows only what will change.
func unknownAfterPlan(addr string, want ...string) plancheck.PlanCheck {
	return checkPlan(func(p *tfjson.Plan) error {
		for _, rc := range p.ResourceChanges {
			if rc.Address != addr {
				continue
			}
			unknown, _ := rc.Change.AfterUnknown.(map[string]any)
			var got []string
			for name, v := range unknown {
				if v == true {
					got = append(got, name)
				}
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				return fmt.Errorf("%s: known after apply %v, want %v", addr, got, want)
			}
			return nil
		}
		return fmt.Errorf("no change planned for %s", addr)
	})
}

// The pipeline's no-change plan reads the job (a follow-up message can
// take it up again) and the search (what the check is for), and nothing
// finished; a release replaces the deployment, the export and the job and
// redeploys the previews in place, planning as known what stays, and
// prints no warning, nor does the destroy at the end.
func TestAccPipeline_quietCheapPlans(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startExportFake(t, mintlifytest.Config{DefaultDeployment: testDeployment})
	log := &requestLog{fs: fs}
	rec := &diagRecorder{}
	read := map[string]int{mintlifytest.RouteAgentJobsGet: 1, mintlifytest.RouteDiscoverySearch: 1}
	searched := map[string]int{mintlifytest.RouteDiscoverySearch: 1}
	first, release := pipelineConfig(url, "a1", true), pipelineConfig(url, "b2", true)
	finished := func(status string) []statecheck.StateCheck {
		var checks []statecheck.StateCheck
		for i := range pipelineBranches {
			checks = append(checks, statecheck.ExpectKnownValue(previewOf(i), tfjsonPath("status"), knownString(status)))
		}
		return append(checks,
			statecheck.ExpectKnownValue("mintlify_deployment.docs", tfjsonPath("status"), knownString(status)),
			statecheck.ExpectKnownValue("mintlify_static_export.release", tfjsonPath("status"), knownString("completed")),
			statecheck.ExpectKnownValue("mintlify_agent_job.changelog", tfjsonPath("status"), knownString("completed")))
	}
	redeploy := []plancheck.PlanCheck{
		plancheck.ExpectResourceAction("mintlify_deployment.docs", plancheck.ResourceActionReplace),
		plancheck.ExpectResourceAction("mintlify_static_export.release", plancheck.ResourceActionReplace),
		plancheck.ExpectResourceAction("mintlify_agent_job.changelog", plancheck.ResourceActionReplace),
	}
	for i, b := range pipelineBranches {
		addr := previewOf(i)
		redeploy = append(redeploy,
			plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
			unknownAfterPlan(addr, "id", "status", "summary", "commit_sha", "commit_message", "created_at", "ended_at"),
			plancheck.ExpectKnownValue(addr, tfjsonPath("commit_ref"), knownString(b)),
			plancheck.ExpectKnownValue(addr, tfjsonPath("subdomain"), knownString("demo-project")),
			plancheck.ExpectKnownValue(addr, tfjsonPath("source"), knownString("api")),
			plancheck.ExpectKnownValue(addr, tfjsonPath("preview_url"), knownString("https://demo-project-"+strings.ReplaceAll(b, "/", "-")+".mintlify.app")))
	}
	// Changing wait_for_completion starts nothing: every attribute stays known.
	var recordOnly []plancheck.PlanCheck
	for _, addr := range pipelineResources() {
		recordOnly = append(recordOnly, plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate), unknownAfterPlan(addr))
	}
	// Each step's plans after its apply change nothing but read the check.
	// (A check's data source makes every plan "not empty" to the testing
	// framework: ExpectNonEmptyPlan, and onlyTheCheckReads instead.)
	settled := func(step resource.TestStep) resource.TestStep {
		step.ExpectNonEmptyPlan = true
		step.ConfigPlanChecks.PostApplyPreRefresh = append(step.ConfigPlanChecks.PostApplyPreRefresh, onlyTheCheckReads())
		step.ConfigPlanChecks.PostApplyPostRefresh = append(step.ConfigPlanChecks.PostApplyPostRefresh, onlyTheCheckReads())
		return step
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: recordingProviders(clk, rec), Steps: []resource.TestStep{
		settled(resource.TestStep{Config: first, ConfigStateChecks: finished("success")}),
		// One plan with nothing to change: 2 requests, the job and the search.
		settled(resource.TestStep{
			PreConfig: log.setMark,
			Config:    first,
			PlanOnly:  true,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				// The plan without refresh reads the check's data source alone.
				PostApplyPreRefresh:  []plancheck.PlanCheck{checkPlan(func(*tfjson.Plan) error { return log.sent("plan -refresh=false", searched) })},
				PostApplyPostRefresh: []plancheck.PlanCheck{checkPlan(func(*tfjson.Plan) error { return log.sent("plan", read) })},
			},
		}),
		// -refresh-only too.
		{
			PreConfig:          log.setMark,
			RefreshState:       true,
			ExpectNonEmptyPlan: true,
			Check:              func(*terraform.State) error { return log.sent("refresh", read) },
		},
		// A release: everything new, the previews redeployed in place.
		settled(resource.TestStep{
			Config:            release,
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: redeploy},
			ConfigStateChecks: append(finished("success"), deploymentInStateMatchesServer(fs, previewOf(0))),
		}),
		// Changing wait_for_completion starts nothing and reads nothing more.
		settled(resource.TestStep{
			PreConfig: log.setMark,
			Config:    pipelineConfig(url, "b2", false),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: append(recordOnly, checkPlan(func(*tfjson.Plan) error { return log.sent("plan", read) })),
			},
			// The apply of that plan read the check's data source alone.
			Check: func(*terraform.State) error { return log.sent("apply", searched) },
		}),
	}})
	if got := rec.text(); got != "" {
		t.Errorf("diagnostics from the pipeline's applies, refreshes and reads:\n%s", got)
	}
	wantRequests(t, fs, mintlifytest.RouteDeploymentsTrigger, 2, "deployments: one per commit")
	wantRequests(t, fs, mintlifytest.RouteDeploymentsPreview, 6, "previews: one per branch per commit")
	wantRequests(t, fs, mintlifytest.RouteStaticExportsStart, 2, "exports: one per commit")
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 2, "jobs: one per commit")
}

// Every computed attribute of every resource is planned as state has it
// unless something says it changes (a replacement, which plans a new
// object, or planChanges): its plan modifiers keep the state's value when
// the framework would mark it unknown. An attribute added without one
// would show "(known after apply)" on every update.
func TestSchemas_everyComputedAttributeKeepsItsStateValue(t *testing.T) {
	ctx := context.Background()
	for _, newResource := range (&mintlifyProvider{}).Resources(ctx) {
		r := newResource()
		s := resourceSchema(t, r)
		state := tfsdk.State{Schema: s, Raw: objectOf(t, s, nil, false)}
		for name, a := range s.Attributes {
			if !a.IsComputed() {
				continue
			}
			kept := false
			switch a := a.(type) {
			case rschema.StringAttribute:
				kept = a.Default != nil || keeps(a.PlanModifiers, func(m planmodifier.String) bool {
					resp := &planmodifier.StringResponse{PlanValue: types.StringUnknown()}
					m.PlanModifyString(ctx, planmodifier.StringRequest{State: state, StateValue: types.StringValue("x"), PlanValue: types.StringUnknown(), ConfigValue: types.StringNull()}, resp)
					return resp.PlanValue.Equal(types.StringValue("x"))
				})
			case rschema.BoolAttribute:
				kept = a.Default != nil
			case rschema.Int64Attribute:
				kept = keeps(a.PlanModifiers, func(m planmodifier.Int64) bool {
					resp := &planmodifier.Int64Response{PlanValue: types.Int64Unknown()}
					m.PlanModifyInt64(ctx, planmodifier.Int64Request{State: state, StateValue: types.Int64Value(7), PlanValue: types.Int64Unknown(), ConfigValue: types.Int64Null()}, resp)
					return resp.PlanValue.Equal(types.Int64Value(7))
				})
			case rschema.Float64Attribute:
				kept = keeps(a.PlanModifiers, func(m planmodifier.Float64) bool {
					resp := &planmodifier.Float64Response{PlanValue: types.Float64Unknown()}
					m.PlanModifyFloat64(ctx, planmodifier.Float64Request{State: state, StateValue: types.Float64Value(7), PlanValue: types.Float64Unknown(), ConfigValue: types.Float64Null()}, resp)
					return resp.PlanValue.Equal(types.Float64Value(7))
				})
			case rschema.ObjectAttribute:
				v := types.ObjectValueMust(a.AttributeTypes, map[string]attr.Value{"repository": types.StringValue("r"), "ref": types.StringNull()})
				kept = keeps(a.PlanModifiers, func(m planmodifier.Object) bool {
					resp := &planmodifier.ObjectResponse{PlanValue: types.ObjectUnknown(a.AttributeTypes)}
					m.PlanModifyObject(ctx, planmodifier.ObjectRequest{State: state, StateValue: v, PlanValue: types.ObjectUnknown(a.AttributeTypes), ConfigValue: types.ObjectNull(a.AttributeTypes)}, resp)
					return resp.PlanValue.Equal(v)
				})
			}
			if !kept {
				t.Errorf("%T: computed attribute %s is not kept from state in a plan", r, name)
			}
		}
	}
}

// keeps reports whether one of modifiers keeps the state's value.
func keeps[M any](modifiers []M, keep func(M) bool) bool {
	return slices.ContainsFunc(modifiers, keep)
}
