package provider

import (
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Ids no request can send, below Terraform, through the provider's
// protocol-6 server: in a state an earlier provider saved (which no CLI
// run of this provider can write), and in answers of a hostile server
// (FaultUnreadableID) to the requests that start work or list jobs,
// checked RPC by RPC for what is recorded.

// unreadableIDs are ids an earlier provider saved as the API answered
// them, which no request can send; shown is how a warning shows each.
var unreadableIDs = []struct{ id, shown string }{
	{"a/b", `"a/b"`},
	{"st 1", `"st 1"`},
	{"..", `".."`},
	{strings.Repeat("x", 300), `"` + strings.Repeat("x", 200) + `…"`},
	{"a\nb", `"a\nb"`},
	{"a\u202eb", `"a\u202eb"`},
}

// stateWithID is, for each resource that reads its object back, a state
// it could hold, its id (the attribute named) replaced by id.
func statesWithID(id string) map[string]struct {
	r    resource.Resource
	vals map[string]tftypes.Value
} {
	wait := tftypes.NewValue(tftypes.Bool, true)
	project := str(mintlifytest.DemoProjectID)
	return map[string]struct {
		r    resource.Resource
		vals map[string]tftypes.Value
	}{
		"mintlify_agent_job": {&agentJobResource{}, map[string]tftypes.Value{"id": str(id), "project_id": project, "prompt": str("x"),
			"status": str("active"), "wait_for_completion": wait}},
		"mintlify_agent_job_message": {&agentJobMessageResource{}, map[string]tftypes.Value{"id": str(id + "/2026-11-21T12:00:00Z"),
			"job_id": str(id), "project_id": project, "prompt": str("x"), "status": str("active"), "wait_for_completion": wait}},
		"mintlify_deployment": {&deploymentResource{}, map[string]tftypes.Value{"id": str(id), "project_id": project,
			"status": str("queued"), "wait_for_completion": wait}},
		"mintlify_preview_deployment": {&previewDeploymentResource{}, map[string]tftypes.Value{"id": str(id), "project_id": project,
			"branch": str("main"), "status": str("queued"), "wait_for_completion": wait}},
		"mintlify_static_export": {&staticExportResource{}, map[string]tftypes.Value{"id": str(id), "domain": str("docs.example.com"),
			"status": str("queued"), "wait_for_completion": wait}},
	}
}

// A state holding an id no request can send still refreshes: state kept
// as it is, a warning naming the id (escaped) and the way out, and no
// request. Before, every plan failed with "may hold only ..." forever.
func TestRead_unreadableIDInStateKeepsStateWithAWarningAndNoRequest(t *testing.T) {
	fs, url, _ := startFake(t, mintlifytest.Config{})
	data := clientFor(t, url)
	for _, bad := range unreadableIDs {
		for typeName, tt := range statesWithID(bad.id) {
			t.Run(typeName+" "+bad.shown[:min(len(bad.shown), 12)], func(t *testing.T) {
				configureResource(tt.r, data)
				resp := readResource(t, tt.r, tt.vals)
				want := objectOf(t, resourceSchema(t, tt.r), tt.vals, false)
				warnings := diagText(resp.Diagnostics, diag.SeverityWarning)
				if resp.Diagnostics.HasError() || len(resp.Diagnostics) != 1 {
					t.Fatalf("diagnostics: %v", resp.Diagnostics)
				}
				contains(t, "warning", warnings, "Unreadable id in state: The "+typeName+" resource's state holds ", bad.shown,
					"`terraform state rm "+typeName+".<name>`", "`terraform apply -replace="+typeName+".<name>`")
				assertShownSafely(t, "the warning", warnings, 4096)
				if !resp.State.Raw.Equal(want) {
					t.Errorf("state changed: %v", resp.State.Raw)
				}
			})
		}
	}
	wantNoRequests(t, fs, "for ids no request can send")
}

// configureResource gives a resource the provider's data, as Configure.
func configureResource(r resource.Resource, data *providerData) {
	resp := &resource.ConfigureResponse{}
	r.(resource.ResourceWithConfigure).Configure(context.Background(), resource.ConfigureRequest{ProviderData: data}, resp) //nolint:forcetypeassert // every resource here has Configure
}

// Through the protocol, as terraform plan drives it: the refresh of such
// a state warns, the identity follows the state, and the plan that
// follows succeeds with no change.
func TestPlan_unreadableIDInStatePlansNothingWithAWarning(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	ctx := context.Background()
	for typeName, tt := range statesWithID("a/b") {
		if typeName == "mintlify_agent_job_message" {
			continue // its job_id comes from configuration, checked at plan
		}
		s := h.schema.ResourceSchemas[typeName]
		state := h.dynamic(s, tt.vals)
		read, err := h.srv.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: state})
		if err != nil {
			t.Fatal(err)
		}
		text := diagsText(read.Diagnostics)
		if !strings.HasPrefix(text, "warning: Unreadable id in state") || strings.Contains(text, "error") {
			t.Errorf("%s: refresh: %s", typeName, text)
			continue
		}
		if got := h.identityOf(typeName, read.NewIdentity); got["id"] != "a/b" {
			t.Errorf("%s: identity %v", typeName, got)
		}
		plan, err := h.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: typeName,
			PriorState: read.NewState, ProposedNewState: read.NewState, Config: h.configOf(s, tt.vals),
			PriorIdentity: read.NewIdentity})
		if err != nil {
			t.Fatal(err)
		}
		if len(plan.Diagnostics) > 0 || len(plan.RequiresReplace) > 0 {
			t.Errorf("%s: plan: %s, replaces %v", typeName, diagsText(plan.Diagnostics), plan.RequiresReplace)
		}
		before, _ := read.NewState.Unmarshal(s.ValueType())
		after, _ := plan.PlannedState.Unmarshal(s.ValueType())
		if !before.Equal(after) {
			t.Errorf("%s: the plan changes state:\n%v\n%v", typeName, before, after)
		}
	}
	wantNoRequests(t, h.fs, "for ids no request can send")
}

// configOf is the configuration that state vals of schema s came from:
// vals without the attributes only the provider sets.
func (h *actionHarness) configOf(s *tfprotov6.Schema, vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	cfg := map[string]tftypes.Value{}
	for _, a := range s.Block.Attributes {
		if v, ok := vals[a.Name]; ok && (a.Optional || a.Required) && a.Name != "wait_for_completion" {
			cfg[a.Name] = v
		}
	}
	return h.dynamic(s, cfg)
}

// The request that starts work answered with an id no read can send: an
// error that says the work may be there and how to find it, and nothing
// recorded (no state that a later plan cannot read).
func TestWork_anAnswerWithAnUnreadableIDIsNeverRecorded(t *testing.T) {
	for _, bad := range unreadableIDs {
		_, url, clk := startHostile(t, func(r *http.Request, status int, body string) (int, string) {
			if isCreate(r) && status/100 == 2 {
				body = regexp.MustCompile(`"id":"[^"]*"`).ReplaceAllString(body, `"id":`+strconv.Quote(bad.id))
			}
			return status, body
		})
		records, _, diags, last := runJob(t.Context(), t, url, clk, "x", nil)
		text := diagText(diags, diag.SeverityError)
		if len(records) != 0 || last != nil || len(diags) != 1 {
			t.Errorf("%s: records %v, diagnostics %v", bad.shown, records, diags)
		}
		contains(t, "error", text, "Could not create the agent job: Mintlify answered with agent job id "+bad.shown+", which ",
			"the provider keeps nothing of the answer", "import it")
		assertShownSafely(t, "the error", text, 4096)
	}
}

// One job whose listed id no request can send no longer costs the query
// (terraform query -generate-config-out wrote nothing for the good jobs):
// the list resource and the data source leave it out, name it in a
// warning, and give the rest.
func TestListing_skipsAndNamesIDsNoRequestCanSend(t *testing.T) {
	bad := []string{"a/b", "x\u202ey\x1b[2J", strings.Repeat("z", 300)}
	h := protoHarnessOf(t, newHostileActionHarness(t, func(r *http.Request, status int, body string) (int, string) {
		if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, "/v1/agent/") {
			return status, body
		}
		var page map[string][]map[string]any
		if err := json.Unmarshal([]byte(body), &page); err != nil {
			return status, body
		}
		for i, s := range page["allSessions"] {
			if i < len(bad) {
				s["sessionId"] = bad[i]
			}
		}
		out, _ := json.Marshal(page)
		return status, string(out)
	}))
	all := seedJobs(t, h.fs, 5, "completed")
	good := all[len(bad):]
	check := func(what string, got []string, diags []*tfprotov6.Diagnostic) {
		t.Helper()
		text := diagsText(diags)
		if !cmp.Equal(good, got) || strings.Contains(text, "error") {
			t.Errorf("%s: ids %v, want %v; %s", what, got, good, text)
		}
		contains(t, what, text, "Agent jobs left out of the listing", "gave 3 job(s) whose id no request can send", `"a/b" (may hold only`,
			`"x\u202ey\x1b[2J"`, `"`+strings.Repeat("z", 200)+`…" (is longer than 256 characters`)
		assertShownSafely(t, what, text, 8192)
	}
	results, diags := h.query(nil, true, 100)
	for _, r := range results {
		if len(r.diags) > 0 {
			t.Errorf("result %s: %s", r.identity["id"], diagsText(r.diags))
		}
	}
	check("terraform query", ids(results), diags)
	if n := h.fs.Requests(mintlifytest.RouteAgentJobsGet); n != len(good) {
		t.Errorf("%d v2 reads, want one per good job", n)
	}
	state, diags := h.readData("mintlify_agent_jobs", nil)
	listedIDs, _ := listedJobs(t, state)
	check("the data source", listedIDs, diags)
}

// The same for a deployment's trigger and an export's start: whatever the
// kind, the runner records no id a later read could not send.
func TestWork_unreadableIDsOfDeploymentsAndExportsAreNeverRecorded(t *testing.T) {
	for _, bad := range unreadableIDs {
		_, url, clk := startHostile(t, func(r *http.Request, status int, body string) (int, string) {
			if r.Method == http.MethodPost && status/100 == 2 {
				body = regexp.MustCompile(`"(statusId|jobId)":"[^"]*"`).ReplaceAllString(body, `"$1":`+strconv.Quote(bad.id))
			}
			return status, body
		})
		data := clientFor(t, url, sdk.WithClock(clk))
		deploy := deployWork(data, "deployment", func(ctx context.Context) (*sdk.Deployment, error) {
			started, err := data.client.Deployments.Trigger(ctx, mintlifytest.DemoProjectID)
			if err != nil {
				return nil, err
			}
			return queued(mintlifytest.DemoProjectID, started.StatusID, nil), nil
		})
		deploy.words = deploymentWords("deployment", "Could not deploy", func(id string) string { return "kept " + id }, "failed")
		export := exportWork(data, sdk.StaticExportRequest{Domain: "docs.example.com"})
		export.words = exportCreateWords
		for what, run := range map[string]func(*diag.Diagnostics) int{
			"deployment":    func(d *diag.Diagnostics) int { return recordsOf(t, deploy, d) },
			"static export": func(d *diag.Diagnostics) int { return recordsOf(t, export, d) },
		} {
			var diags diag.Diagnostics
			if n := run(&diags); n != 0 {
				t.Errorf("%s %s: %d records", what, bad.shown, n)
			}
			text := diagText(diags, diag.SeverityError)
			if !strings.Contains(text, "Mintlify answered with "+what+" id "+bad.shown) && !strings.Contains(text, "malformed response") {
				t.Errorf("%s %s: %s", what, bad.shown, text)
			}
			assertShownSafely(t, what, text, 4096)
		}
	}
}

// recordsOf runs w, waiting, and counts what it recorded.
func recordsOf[O any](t *testing.T, w work[O], diags *diag.Diagnostics) int {
	t.Helper()
	n := 0
	w.doWait, w.timeout = true, time.Hour
	w.record = func(*O) { n++ }
	w.run(t.Context(), diags)
	return n
}
