package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Reading a data source through the protocol-6 server, for the sweeps
// over every schema (null_elements_test.go) and the ids no request can
// send (state_ids_test.go). The job data sources themselves are tested
// through terraform (agent_jobs_data_source_test.go).

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
