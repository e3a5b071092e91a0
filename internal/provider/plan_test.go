package provider

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Plan-time decisions, without Terraform.

// A null project_id is planned as the provider's; a change of that
// default replaces, as a change of the attribute does.
func TestPlanProjectID(t *testing.T) {
	s := resourceSchema(t, &agentJobResource{})
	withDefault := &providerData{client: &sdk.Client{}, projectID: "dflt"}
	for _, tt := range []struct {
		name       string
		data       *providerData
		configured string // "" for null
		prior      string // "" for no state
		destroy    bool
		want       string // the planned project_id; "?" for unknown
		replace    bool
		wantErr    string
	}{
		{name: "destroy", data: withDefault, prior: "old", destroy: true},
		{name: "configured", data: withDefault, configured: "own", prior: "old", want: "own"},
		{name: "the default, on create", data: withDefault, want: "dflt"},
		{name: "the default, unchanged", data: withDefault, prior: "dflt", want: "dflt"},
		{name: "the default, changed", data: withDefault, prior: "old", want: "dflt", replace: true},
		{name: "provider unknown, state kept", prior: "old", want: "old"},
		{name: "provider unknown, on create", want: "?"},
		{name: "no default", data: &providerData{client: &sdk.Client{}}, prior: "old", want: "?", wantErr: "Missing project_id: Set project_id here, or on the provider (or the MINTLIFY_PROJECT_ID environment variable).\n"},
		// An assistant key alone serves the discovery data sources only:
		// a resource of the admin API says so at plan.
		{name: "no admin key", data: &providerData{projectID: "dflt"}, configured: "own", prior: "old", want: "own",
			wantErr: "Missing Mintlify API key: This needs an admin API key: set api_key in the provider block or the MINTLIFY_API_KEY environment variable to an admin API key from the API keys page of the Mintlify dashboard. The provider has only an assistant key (assistant_api_key), which serves mintlify_search and mintlify_page alone.\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfgVals := map[string]tftypes.Value{"prompt": str("x")}
			planVals := map[string]tftypes.Value{"prompt": str("x")}
			if tt.configured != "" {
				cfgVals["project_id"], planVals["project_id"] = str(tt.configured), str(tt.configured)
			}
			req := resource.ModifyPlanRequest{
				Config: tfsdk.Config{Schema: s, Raw: objectOf(t, s, cfgVals, false)},
				Plan:   tfsdk.Plan{Schema: s, Raw: objectOf(t, s, planVals, true)},
				State:  tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(context.Background()), nil)},
			}
			if tt.prior != "" {
				req.State.Raw = objectOf(t, s, map[string]tftypes.Value{"id": str("j"), "prompt": str("x"), "project_id": str(tt.prior)}, false)
			}
			if tt.destroy {
				req.Plan.Raw = tftypes.NewValue(s.Type().TerraformType(context.Background()), nil)
			}
			resp := &resource.ModifyPlanResponse{Plan: req.Plan}
			planProjectID(context.Background(), tt.data, req, resp)
			if got := diagText(resp.Diagnostics, diag.SeverityError); got != tt.wantErr {
				t.Errorf("errors %q, want %q", got, tt.wantErr)
			}
			if tt.replace != (len(resp.RequiresReplace) == 1 && resp.RequiresReplace[0].Equal(path.Root("project_id"))) || len(resp.RequiresReplace) > 1 {
				t.Errorf("replace %v", resp.RequiresReplace)
			}
			if tt.destroy {
				if !resp.Plan.Raw.IsNull() {
					t.Errorf("a destroy was planned: %v", resp.Plan.Raw)
				}
				return
			}
			var got types.String
			resp.Plan.GetAttribute(context.Background(), path.Root("project_id"), &got)
			if (tt.want == "?") != got.IsUnknown() || (tt.want != "?" && got.ValueString() != tt.want) {
				t.Errorf("planned project_id %v, want %s", got, tt.want)
			}
		})
	}
}

// Null and empty triggers are both "none"; any other change is a change.
func TestTriggersChanged(t *testing.T) {
	m := func(kv ...string) types.Map {
		vals := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			vals[kv[i]] = kv[i+1]
		}
		v, _ := types.MapValueFrom(context.Background(), types.StringType, vals)
		return v
	}
	null := types.MapNull(types.StringType)
	for _, tt := range []struct {
		state, plan types.Map
		want        bool
	}{
		{null, null, false}, {null, m(), false}, {m(), null, false}, {m(), m(), false},
		{m("a", "1"), m("a", "1"), false},
		{null, m("a", "1"), true}, {m("a", "1"), null, true}, {m("a", "1"), m(), true},
		{m("a", "1"), m("a", "2"), true}, {m("a", "1"), m("a", "1", "b", "2"), true}, {m("a", "1"), m("b", "1"), true},
	} {
		if got := triggersChanged(tt.state, tt.plan); got != tt.want {
			t.Errorf("triggersChanged(%v, %v) = %v", tt.state, tt.plan, got)
		}
	}
	// The job's triggers are adopted after an import (no prompt in state yet).
	s := resourceSchema(t, &agentJobResource{})
	for prompt, want := range map[string]bool{"": false, "x": true} {
		vals := map[string]tftypes.Value{"id": str("j")}
		if prompt != "" {
			vals["prompt"] = str(prompt)
		}
		req := planmodifier.MapRequest{State: tfsdk.State{Schema: s, Raw: objectOf(t, s, vals, false)}, StateValue: null, PlanValue: m("a", "1")}
		resp := &mapplanmodifier.RequiresReplaceIfFuncResponse{}
		triggersChangeStartsNewJob(context.Background(), req, resp)
		if resp.RequiresReplace != want || resp.Diagnostics.HasError() {
			t.Errorf("prompt %q in state: replace %v (%v)", prompt, resp.RequiresReplace, resp.Diagnostics)
		}
	}
}

func TestAgentJobImportState(t *testing.T) {
	s := resourceSchema(t, &agentJobResource{})
	for _, tt := range []struct {
		data                 *providerData
		id                   string
		wantProject, wantJob string
		wantErr              string
	}{
		{nil, "p/j-1", "p", "j-1", ""},
		{&providerData{projectID: "dflt"}, "j-1", "dflt", "j-1", ""},
		{&providerData{projectID: "dflt"}, "p/j-1", "p", "j-1", ""},
		{nil, "j-1", "", "", `Invalid import id: import id "j-1" has no project: use PROJECT_ID/JOB_ID, or set project_id on the provider (or MINTLIFY_PROJECT_ID)` + "\n"},
	} {
		r := &agentJobResource{data: tt.data}
		resp := &resource.ImportStateResponse{State: tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(context.Background()), nil)}}
		r.ImportState(context.Background(), resource.ImportStateRequest{ID: tt.id}, resp)
		if got := diagText(resp.Diagnostics, diag.SeverityError); got != tt.wantErr {
			t.Errorf("%q: %q, want %q", tt.id, got, tt.wantErr)
			continue
		}
		if tt.wantErr != "" {
			continue
		}
		var project, id string
		resp.State.GetAttribute(context.Background(), path.Root("project_id"), &project)
		resp.State.GetAttribute(context.Background(), path.Root("id"), &id)
		if project != tt.wantProject || id != tt.wantJob {
			t.Errorf("%q: project %q, job %q", tt.id, project, id)
		}
	}
}

// The read after an import (no status in state yet) says why the import
// failed on a 404, does not call the job newly failed, and records the
// schema's default for wait_for_completion.
func TestAgentJobRead_afterAnImport(t *testing.T) {
	r, failed := failedJobResource(t)

	resp := readResource(t, r, map[string]tftypes.Value{"id": str("no-such-job"), "project_id": str(mintlifytest.DemoProjectID)})
	want := `Cannot import the agent job: Mintlify has no agent job "no-such-job" in project "demo-project" (404). Check the job id ` +
		`and the project: import by PROJECT_ID/JOB_ID, by JOB_ID with the provider's project_id set to the job's project, or ` +
		`(Terraform 1.12+) by identity = { project_id = ..., id = ... }.` + "\n\n" + listedIDAssumption + "\n"
	if got := diagText(resp.Diagnostics, diag.SeverityError); got != want || len(resp.Diagnostics) != 1 {
		t.Errorf("%q, want %q", got, want)
	}

	for wait, want := range map[string]bool{"": true, "false": false} {
		vals := map[string]tftypes.Value{"id": str(failed), "project_id": str(mintlifytest.DemoProjectID)}
		if wait != "" {
			vals["wait_for_completion"] = tftypes.NewValue(tftypes.Bool, false)
			vals["status"] = str("failed")
		}
		resp = readResource(t, r, vals)
		var got types.Bool
		var status string
		resp.State.GetAttribute(context.Background(), path.Root("wait_for_completion"), &got)
		resp.State.GetAttribute(context.Background(), path.Root("status"), &status)
		if len(resp.Diagnostics) != 0 || got.ValueBool() != want || got.IsNull() || status != "failed" {
			t.Errorf("wait %q: wait_for_completion %v, status %q, %v", wait, got, status, resp.Diagnostics)
		}
	}
}

func TestAgentJobMessageRead_vanishedJobIsKeptWithAWarning(t *testing.T) {
	srv := mintlifytest.NewServer(mintlifytest.Config{})
	defer srv.Close()
	r := &agentJobMessageResource{data: clientFor(t, srv.URL)}
	resp := readResource(t, r, map[string]tftypes.Value{"id": str("gone-1/2026-11-21T12:00:00Z"), "job_id": str("gone-1"),
		"project_id": str(mintlifytest.DemoProjectID), "prompt": str("x"), "status": str("completed")})
	want := `Agent job no longer exists at Mintlify: Agent job gone-1 in project "demo-project" is gone from the Mintlify API (404). ` +
		"The mintlify_agent_job_message resource stays in state unchanged so that nothing starts again by itself. Run " +
		"`terraform state rm mintlify_agent_job_message.<name>` to forget it, or `terraform apply -replace=mintlify_agent_job_message.<name>` " +
		"to run it again.\n"
	var status string
	resp.State.GetAttribute(context.Background(), path.Root("status"), &status)
	if got := diagText(resp.Diagnostics, diag.SeverityWarning); got != want || resp.Diagnostics.HasError() || status != "completed" {
		t.Errorf("%q, want %q; status %q", got, want, status)
	}
}

// A duration setting comes from the attribute, else the environment, else
// the default; a bad environment value names the variable.
func TestDurationSetting(t *testing.T) {
	for _, tt := range []struct {
		attr    types.String
		env     string
		want    time.Duration
		wantErr string
	}{
		{types.StringValue("90s"), "5m", 90 * time.Second, ""},
		{types.StringNull(), "5m", 5 * time.Minute, ""},
		{types.StringNull(), "", 7 * time.Minute, ""},
		{types.StringNull(), "2d", 48 * time.Hour, ""},
		{types.StringNull(), "ten", 0, `Invalid MINTLIFY_CACHE_TTL: MINTLIFY_CACHE_TTL "ten" must be a non-negative duration such as "90s", "10m", "6h" or "7d".` + "\n"},
		{types.StringValue("ten"), "", 0, `Invalid cache_ttl: cache_ttl "ten" must be a non-negative duration such as "90s", "10m", "6h" or "7d".` + "\n"},
	} {
		t.Setenv(EnvCacheTTL, tt.env)
		var diags diag.Diagnostics
		got, ok := durationSetting(tt.attr, EnvCacheTTL, 7*time.Minute, "cache_ttl", &diags)
		if got != tt.want || ok != (tt.wantErr == "") || diagText(diags, diag.SeverityError) != tt.wantErr {
			t.Errorf("%v, env %q: %s, %v, %v", tt.attr, tt.env, got, ok, diags)
		}
	}
	// A setting without a variable ignores the environment.
	var diags diag.Diagnostics
	if got, ok := durationSetting(types.StringNull(), "", time.Minute, "max_retry_wait", &diags); got != time.Minute || !ok {
		t.Errorf("%s, %v", got, ok)
	}
}

func TestConfigure_unknownValuesWaitForApply(t *testing.T) {
	clearEnv(t)
	unknown := tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	for _, name := range []string{"api_key", "base_url", "project_id", "max_retry_wait", "request_timeout", "cache_dir", "cache_ttl", "cache_max_stale", "cache_timeout"} {
		vals := map[string]tftypes.Value{"api_key": str(mintlifytest.DemoAPIKey), name: unknown}
		resp := configureProvider(t, vals)
		if len(resp.Diagnostics) != 0 || resp.ResourceData != nil || resp.DataSourceData != nil || resp.ActionData != nil {
			t.Errorf("%s unknown: %v, data %v", name, resp.Diagnostics, resp.ResourceData)
		}
	}
	resp := configureProvider(t, map[string]tftypes.Value{"api_key": str(mintlifytest.DemoAPIKey), "max_retries": tftypes.NewValue(tftypes.Number, tftypes.UnknownValue)})
	if len(resp.Diagnostics) != 0 || resp.ResourceData != nil {
		t.Errorf("max_retries unknown: %v", resp.Diagnostics)
	}
	// Known values configure every kind of object alike.
	resp = configureProvider(t, map[string]tftypes.Value{"api_key": str(mintlifytest.DemoAPIKey), "project_id": str("p"),
		"max_retries": tftypes.NewValue(tftypes.Number, big.NewFloat(2))})
	data, ok := resp.ResourceData.(*providerData)
	if !ok || resp.DataSourceData != resp.ResourceData || resp.ActionData != resp.ResourceData || data.projectID != "p" ||
		data.apiKey != mintlifytest.DemoAPIKey || data.client.BaseURL() != "https://api.mintlify.com" {
		t.Errorf("configured %+v: %v", resp.ResourceData, resp.Diagnostics)
	}
}

func TestConfiguredData(t *testing.T) {
	var diags diag.Diagnostics
	if configuredData(nil, &diags) != nil || len(diags) != 0 {
		t.Errorf("nil: %v", diags)
	}
	data := &providerData{client: &sdk.Client{}, projectID: "p"}
	if configuredData(data, &diags) != data || len(diags) != 0 {
		t.Errorf("data: %v", diags)
	}
	if configuredData("x", &diags) != nil || !strings.HasPrefix(diagText(diags, diag.SeverityError), "Unexpected provider data: Expected *providerData, got string.") {
		t.Errorf("wrong type: %v", diags)
	}
	diags = nil
	if requireConfigured(data, &diags) != true || len(diags) != 0 {
		t.Errorf("configured: %v", diags)
	}
	if requireConfigured(nil, &diags) != false || !strings.HasPrefix(diagText(diags, diag.SeverityError), "Provider not configured: ") {
		t.Errorf("not configured: %v", diags)
	}
	diags = nil
	if requireConfigured(&providerData{assistantKey: "mint_dsc_k"}, &diags) != false || !strings.HasPrefix(diagText(diags, diag.SeverityError), "Missing Mintlify API key: This needs an admin API key") {
		t.Errorf("an assistant key alone: %v", diags)
	}
	// A configured provider's project, or the one given.
	for _, tt := range []struct {
		data       *providerData
		configured types.String
		want       string
		ok         bool
	}{
		{&providerData{projectID: "dflt"}, types.StringNull(), "dflt", true},
		{&providerData{projectID: "dflt"}, types.StringValue("own"), "own", true},
		{&providerData{}, types.StringValue("own"), "own", true},
		{&providerData{}, types.StringNull(), "", false},
		{&providerData{}, types.StringUnknown(), "", false},
	} {
		var d diag.Diagnostics
		got, ok := tt.data.projectOrDefault(tt.configured, path.Root("project_id"), &d)
		if got != tt.want || ok != tt.ok || d.HasError() == ok {
			t.Errorf("%+v, %v: %q, %v, %v", tt.data, tt.configured, got, ok, d)
		}
	}
}

// date_from must come before date_to (exclusive), when both are dates.
func TestDateRangeValidator(t *testing.T) {
	var sresp datasource.SchemaResponse
	(&uniqueVisitorsDataSource{}).Schema(context.Background(), datasource.SchemaRequest{}, &sresp)
	for _, tt := range []struct {
		from, to string // "" for null
		wantErr  string
	}{
		{"2026-10-01", "2026-10-02", ""},
		{"2026-10-01T23:59:59Z", "2026-10-02", ""},
		{"2026-10-01", "", ""},
		{"", "2026-10-01", ""},
		{"soon", "2026-10-01", ""}, // the attribute's validator says so
		{"2026-10-01", "later", ""},
		{"2026-10-02", "2026-10-01", `Invalid date range: date_from "2026-10-02" must be before date_to "2026-10-01": date_to is exclusive, so the range would select no day.` + "\n"},
		{"2026-10-01", "2026-10-01", `Invalid date range: date_from "2026-10-01" must be before date_to "2026-10-01": date_to is exclusive, so the range would select no day.` + "\n"},
	} {
		vals := map[string]tftypes.Value{}
		if tt.from != "" {
			vals["date_from"] = str(tt.from)
		}
		if tt.to != "" {
			vals["date_to"] = str(tt.to)
		}
		resp := &datasource.ValidateConfigResponse{}
		dateRangeValidator{}.ValidateDataSource(context.Background(),
			datasource.ValidateConfigRequest{Config: tfsdk.Config{Schema: sresp.Schema, Raw: objectOf(t, sresp.Schema, vals, false)}}, resp)
		if got := diagText(resp.Diagnostics, diag.SeverityError); got != tt.wantErr {
			t.Errorf("%q..%q: %q, want %q", tt.from, tt.to, got, tt.wantErr)
		}
	}
	if d := (dateRangeValidator{}).Description(context.Background()); d != "date_from must be before date_to (date_to is exclusive)" ||
		(dateRangeValidator{}).MarkdownDescription(context.Background()) != d {
		t.Errorf("description %q", d)
	}
}

// The provider's settings reach its client: retries, and the cache (off
// with cache_ttl = "0", so that a rate-limited read fails instead of
// serving a copy).
func TestConfigure_settingsReachTheClient(t *testing.T) {
	clearEnv(t)
	configured := func(vals map[string]tftypes.Value) *providerData {
		t.Helper()
		resp := configureProvider(t, vals)
		data, ok := resp.ResourceData.(*providerData)
		if !ok || resp.Diagnostics.HasError() {
			t.Fatalf("configure: %v", resp.Diagnostics)
		}
		return data
	}
	for retries, want := range map[int64]int{0: 1, 1: 2} {
		srv := mintlifytest.NewServer(mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultServerError}}})
		data := configured(map[string]tftypes.Value{"api_key": str(mintlifytest.DemoAPIKey), "base_url": str(srv.URL),
			"max_retries": tftypes.NewValue(tftypes.Number, big.NewFloat(float64(retries)))})
		if _, err := data.client.Analytics.Visitors.All(t.Context(), mintlifytest.DemoProjectID, sdk.VisitorsQuery{}); err == nil {
			t.Error("a 502 read succeeded")
		}
		if n := srv.Requests(mintlifytest.RouteAnalyticsVisitors); n != want {
			t.Errorf("max_retries %d: %d requests, want %d", retries, n, want)
		}
		srv.Close()
	}
	for ttl, wantCopy := range map[string]bool{"0": false, "10m": true} {
		srv := mintlifytest.NewServer(mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 3}})
		data := configured(map[string]tftypes.Value{"api_key": str(mintlifytest.DemoAPIKey), "base_url": str(srv.URL),
			"cache_ttl": str(ttl), "cache_dir": str(t.TempDir())})
		if _, err := data.client.Analytics.Visitors.All(t.Context(), mintlifytest.DemoProjectID, sdk.VisitorsQuery{}); err != nil {
			t.Fatal(err)
		}
		srv.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
		page, err := data.client.Analytics.Visitors.All(t.Context(), mintlifytest.DemoProjectID, sdk.VisitorsQuery{})
		if gotCopy := err == nil && page.Cache.Hit; gotCopy != wantCopy || (!wantCopy && !sdk.IsRateLimited(err)) {
			t.Errorf("cache_ttl %s: a copy %v (%v)", ttl, gotCopy, err)
		}
		srv.Close()
	}
}
