package provider

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// runSteps runs an acceptance test's steps against the provider served
// in-process on clk (see testProviders): the test case most tests need.
func runSteps(t *testing.T, clk *testClock, steps []resource.TestStep) {
	t.Helper()
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testProviders(clk), Steps: steps})
}

// wantNoRequests fails the test if fs was sent any request: what is refused
// at plan, or before the call, must not reach the API. why ends the message
// ("at plan", "for invalid configuration").
func wantNoRequests(t *testing.T, fs *mintlifytest.Fake, why string) {
	t.Helper()
	if n := fs.TotalRequests(); n != 0 {
		t.Errorf("%d requests %s", n, why)
	}
}

// startAccFake is startFake for a test whose provider must see only its own
// configuration: the developer's MINTLIFY_* environment is cleared first
// (clearEnv).
func startAccFake(t *testing.T, cfg mintlifytest.Config) (*mintlifytest.Fake, string, *testClock) {
	t.Helper()
	clearEnv(t)
	return startFake(t, cfg)
}

// valuesInState checks the attribute values of the resource or data source
// at addr in state with check; it fails if addr is not in state.
func valuesInState(addr string, check func(vals map[string]any) error) statecheck.StateCheck {
	return checkState(func(s *tfjson.State) error {
		vals, ok := resourceValues(s.Values.RootModule, addr)
		if !ok {
			return fmt.Errorf("%s not in state", addr)
		}
		return check(vals)
	})
}

// plansAction checks, before a step's apply, that its plan does action to
// the resource at addr.
func plansAction(addr string, action plancheck.ResourceActionType) resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, action)}}
}

// planAfterApply is a step that plans cfg again on the state the last apply
// left, before any refresh: after a failed apply, what state kept. The plan
// must not be empty, and checks must hold.
func planAfterApply(cfg string, checks ...plancheck.PlanCheck) resource.TestStep {
	return resource.TestStep{Config: cfg, PlanOnly: true, ExpectNonEmptyPlan: true,
		ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPreRefresh: checks}}
}

// valuesInPriorState checks, in a plan, the attribute values that state
// held for addr before the plan; it fails if addr was not in state.
func valuesInPriorState(addr string, check func(vals map[string]any) error) plancheck.PlanCheck {
	return checkPlan(func(p *tfjson.Plan) error {
		if p.PriorState == nil || p.PriorState.Values == nil {
			return fmt.Errorf("no prior state")
		}
		vals, ok := resourceValues(p.PriorState.Values.RootModule, addr)
		if !ok {
			return fmt.Errorf("%s is not in state: it was lost", addr)
		}
		return check(vals)
	})
}

// plansNothing checks, before a step's apply, that its plan is empty.
func plansNothing() resource.ConfigPlanChecks {
	return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}
}

// importStep imports the resource at addr by id, and keeps it in state for
// the steps after.
func importStep(cfg, addr, id string) resource.TestStep {
	return resource.TestStep{Config: cfg, ResourceName: addr, ImportState: true, ImportStateId: id, ImportStatePersist: true}
}

// adoptStep applies cfg right after an import: what the API does not return
// is taken from the configuration in place (an update, nothing new is
// started), and state keeps the imported id; checks add to that.
func adoptStep(cfg, addr, id string, checks ...statecheck.StateCheck) resource.TestStep {
	return resource.TestStep{Config: cfg, ConfigPlanChecks: plansAction(addr, plancheck.ResourceActionUpdate),
		ConfigStateChecks: append([]statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonPath("id"), knownString(id))}, checks...)}
}

// wantRequests fails the test unless fs was sent want requests on route;
// what says what they are, or why that many.
func wantRequests(t *testing.T, fs *mintlifytest.Fake, route string, want int, what string) {
	t.Helper()
	if n := fs.Requests(route); n != want {
		t.Errorf("%d requests to %s, want %d: %s", n, route, want, what)
	}
}

// resourceConfig is providerBlock and one resource of type typ, named test,
// whose attribute attr is value, with the HCL lines extra.
func resourceConfig(url, typ, attr, value, extra string) string {
	return providerBlock(url) + fmt.Sprintf(`
resource %q "test" {
  %s = %q
%s
}
`, typ, attr, value, extra)
}

// hostile is the fake behind a stand-in that rewrites chosen answers: a
// misbehaving API, or something between the provider and the API.
type hostile struct {
	fake    *mintlifytest.Fake
	rewrite func(r *http.Request, status int, body string) (int, string)
}

func (h hostile) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The fake reads the body; rewrite may read it again (promptOf).
	sent, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(sent))
	rec := httptest.NewRecorder()
	h.fake.ServeHTTP(rec, r)
	r.Body = io.NopCloser(bytes.NewReader(sent))
	status, body := h.rewrite(r, rec.Code, rec.Body.String())
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// startHostile serves the fake behind rewrite, for one test, on a manual
// clock as startFake does.
func startHostile(t *testing.T, rewrite func(r *http.Request, status int, body string) (int, string)) (*mintlifytest.Fake, string, *testClock) {
	t.Helper()
	clk := newTestClock()
	fs := mintlifytest.New(mintlifytest.Config{Clock: clk, DefaultJob: mintlifytest.JobScript{ActiveFor: 3 * time.Minute, Outcome: mintlifytest.OutcomeCompleted},
		Analytics: mintlifytest.Dataset{Paths: 20}})
	ts := httptest.NewServer(hostile{fs, rewrite})
	t.Cleanup(ts.Close)
	return fs, ts.URL, clk
}

func isCreate(r *http.Request) bool {
	return r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/job")
}
