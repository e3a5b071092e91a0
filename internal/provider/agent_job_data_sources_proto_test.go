package provider

import (
	"context"
	"fmt"
	"math/big"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The job data sources through the protocol-6 server, as Terraform reads
// them: these run without TF_ACC (the acceptance tests in
// agent_jobs_data_source_test.go drive the same reads through terraform).

// readData validates and reads a data source, as terraform plan does.
func (h *protoHarness) readData(typeName string, vals map[string]tftypes.Value) (tftypes.Value, []*tfprotov6.Diagnostic) {
	h.t.Helper()
	s := h.schema.DataSourceSchemas[typeName]
	cfg := h.dynamic(s, vals)
	ctx := context.Background()
	v, err := h.srv.ValidateDataResourceConfig(ctx, &tfprotov6.ValidateDataResourceConfigRequest{TypeName: typeName, Config: cfg})
	if err != nil {
		h.t.Fatal(err)
	}
	if len(v.Diagnostics) > 0 {
		return tftypes.Value{}, v.Diagnostics
	}
	resp, err := h.srv.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: cfg})
	if err != nil {
		h.t.Fatal(err)
	}
	if resp.State == nil {
		return tftypes.Value{}, resp.Diagnostics
	}
	out, err := resp.State.Unmarshal(s.ValueType())
	if err != nil {
		h.t.Fatal(err)
	}
	return out, resp.Diagnostics
}

// listedJobs are the ids and statuses of a mintlify_agent_jobs state.
func listedJobs(t *testing.T, state tftypes.Value) (ids, statuses []string) {
	t.Helper()
	var attrs map[string]tftypes.Value
	var jobs []tftypes.Value
	if err := state.As(&attrs); err != nil {
		t.Fatal(err)
	}
	if err := attrs["jobs"].As(&jobs); err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		var f map[string]tftypes.Value
		var id, status string
		if err := j.As(&f); err != nil {
			t.Fatal(err)
		}
		_ = f["id"].As(&id)
		_ = f["status"].As(&status)
		ids, statuses = append(ids, id), append(statuses, status)
	}
	return ids, statuses
}

func strList(vals ...string) tftypes.Value {
	out := make([]tftypes.Value, len(vals))
	for i, v := range vals {
		out[i] = str(v)
	}
	return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, out)
}

// Filters by status and creation time over a listing of three v1 pages:
// the jobs the fake lists that pass, in its order, from ceil(230/100)
// requests and no v2 read; max_results stops at the first page.
func TestDataSource_agentJobsFiltersAcrossPages(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	seedMix(t, h.fs, 230)
	after := time.Date(2026, 11, 3, 0, 0, 0, 0, time.UTC)
	var want []string
	for _, j := range h.fs.Sessions(mintlifytest.DemoProjectID) {
		created, _ := time.Parse(time.RFC3339, fmt.Sprint(j["createdAt"]))
		if r := j["haultReason"]; (r == "completed" || r == "error") && !created.Before(after) {
			want = append(want, fmt.Sprint(j["sessionId"]))
		}
	}
	state, diags := h.readData("mintlify_agent_jobs", map[string]tftypes.Value{
		"statuses": strList("completed", "failed"), "created_after": str(after.Format(time.RFC3339)),
	})
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	ids, statuses := listedJobs(t, state)
	if diff := cmp.Diff(want, ids); diff != "" || len(ids) != 92 { // 116 completed or failed, 24 of them before the 3rd
		t.Errorf("%d jobs (-want +got):\n%s", len(ids), diff)
	}
	for _, s := range statuses {
		if s != "completed" && s != "failed" {
			t.Fatalf("status %q passed the filter", s)
		}
	}
	if reads, requests := listingReads(h.fs); reads != 1 || requests != 3 || h.fs.Requests(mintlifytest.RouteAgentJobsGet) != 0 {
		t.Errorf("%d reads in %d requests and %d v2 reads; want 1 in 3, and 0", reads, requests, h.fs.Requests(mintlifytest.RouteAgentJobsGet))
	}

	state, diags = h.readData("mintlify_agent_jobs", map[string]tftypes.Value{"max_results": tftypes.NewValue(tftypes.Number, big.NewFloat(5))})
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	if ids, _ := listedJobs(t, state); len(ids) != 5 {
		t.Errorf("max_results = 5 kept %d jobs", len(ids))
	}
	if _, requests := listingReads(h.fs); requests != 4 {
		t.Errorf("max_results = 5 took %d requests, want 1", requests-3)
	}
	// A bad filter is refused before any request.
	_, diags = h.readData("mintlify_agent_jobs", map[string]tftypes.Value{"statuses": strList("done")})
	contains(t, "bad status", diagsText(diags), `"done"`)
	if _, requests := listingReads(h.fs); requests != 4 {
		t.Errorf("a bad filter sent %d requests", requests-4)
	}
}

// One job by id, from one v2 read; an id v2 does not know is an error
// that names the listing's assumption.
func TestDataSource_agentJobReadsOneJob(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	id, err := h.fs.SeedJob(mintlifytest.DemoProjectID, mintlifytest.JobSeed{Status: "completed",
		PRLink: "https://github.com/acme/demo-project/pull/4", CreatedAt: time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	state, diags := h.readData("mintlify_agent_job", map[string]tftypes.Value{"id": str(id)})
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	var attrs map[string]tftypes.Value
	_ = state.As(&attrs)
	got := map[string]string{}
	for _, name := range []string{"id", "project_id", "status", "pr_link", "created_at"} {
		var s string
		_ = attrs[name].As(&s)
		got[name] = s
	}
	want := map[string]string{"id": id, "project_id": mintlifytest.DemoProjectID, "status": "completed",
		"pr_link": "https://github.com/acme/demo-project/pull/4", "created_at": "2026-11-01T08:00:00Z"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("job (-want +got):\n%s", diff)
	}
	_, diags = h.readData("mintlify_agent_job", map[string]tftypes.Value{"id": str("not-a-job")})
	contains(t, "unknown job", diagsText(diags), "Agent job not found", `Mintlify has no agent job "not-a-job" in project "demo-project" (404)`,
		"takes to be the jobs' v2 ids")
	wantRequests(t, h.fs, mintlifytest.RouteAgentJobsGet, 2, "v2 reads")
}
