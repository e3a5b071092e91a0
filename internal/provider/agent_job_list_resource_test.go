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

// The list resource below Terraform, through the provider's protocol-6
// server, for what terraform query (agent_job_list_cli_test.go) does not
// show: each result's resource value (include_resource) and its own
// diagnostics with their severity, under faults and odd listings that
// strike one request. protoHarness serves the identity tests too.

// protoHarness is the action harness with the list resource and identity
// RPCs, and every schema.
type protoHarness struct {
	*actionHarness
	list   tfprotov6.ProviderServerWithListResource //nolint:staticcheck // the list RPCs are only there in terraform-plugin-go v0.31
	schema *tfprotov6.GetProviderSchemaResponse
	ids    map[string]*tfprotov6.ResourceIdentitySchema
}

func newProtoHarness(t *testing.T, cfg mintlifytest.Config, withProject bool) *protoHarness {
	t.Helper()
	return protoHarnessOf(t, newActionHarness(t, cfg, withProject))
}

// protoHarnessOf is the protocol harness over an action harness.
func protoHarnessOf(t *testing.T, h *actionHarness) *protoHarness {
	t.Helper()
	ls, ok := h.srv.(tfprotov6.ProviderServerWithListResource) //nolint:staticcheck // as above
	if !ok {
		t.Fatalf("%T serves no list resources", h.srv)
	}
	ctx := context.Background()
	schema, err := h.srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(schema.Diagnostics) > 0 {
		t.Fatalf("schema: %v %v", err, schema.Diagnostics)
	}
	ids, err := h.srv.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil || len(ids.Diagnostics) > 0 {
		t.Fatalf("identity schemas: %v %v", err, ids.Diagnostics)
	}
	return &protoHarness{actionHarness: h, list: ls, schema: schema, ids: ids.IdentitySchemas}
}

// identityType is the type of a resource's identity.
func (h *protoHarness) identityType(typeName string) tftypes.Object {
	attrs := map[string]tftypes.Type{}
	for _, a := range h.ids[typeName].IdentityAttributes {
		attrs[a.Name] = a.Type
	}
	return tftypes.Object{AttributeTypes: attrs}
}

// identityOf decodes an identity into strings.
func (h *protoHarness) identityOf(typeName string, id *tfprotov6.ResourceIdentityData) map[string]string {
	h.t.Helper()
	if id == nil || id.IdentityData == nil {
		return nil
	}
	return h.decode(id.IdentityData, h.identityType(typeName))
}

// decode reads an object value as strings: "<null>" for null, numbers and
// bools written out, nested objects as their fields' strings.
func (h *protoHarness) decode(dv *tfprotov6.DynamicValue, typ tftypes.Type) map[string]string {
	h.t.Helper()
	v, err := dv.Unmarshal(typ)
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[string]string{}
	var flatten func(prefix string, v tftypes.Value)
	flatten = func(prefix string, v tftypes.Value) {
		var fields map[string]tftypes.Value
		switch {
		case v.IsNull():
			out[prefix] = "<null>"
		case v.Type().Is(tftypes.String):
			var s string
			_ = v.As(&s)
			out[prefix] = s
		case v.Type().Is(tftypes.Bool):
			var b bool
			_ = v.As(&b)
			out[prefix] = fmt.Sprint(b)
		case v.Type().Is(tftypes.Number):
			var n big.Float
			_ = v.As(&n)
			out[prefix] = n.String()
		case v.Type().Is(tftypes.Object{}):
			_ = v.As(&fields)
			for k, f := range fields {
				name := k
				if prefix != "" {
					name = prefix + "." + k
				}
				flatten(name, f)
			}
		default:
			out[prefix] = v.String()
		}
	}
	flatten("", v)
	return out
}

func (h *protoHarness) resourceType(typeName string) tftypes.Type {
	return h.schema.ResourceSchemas[typeName].ValueType()
}

// listConfig encodes a list block's configuration.
func (h *protoHarness) listConfig(vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	return h.dynamic(h.schema.ListResourceSchemas["mintlify_agent_job"], vals)
}

type listed struct {
	identity map[string]string
	name     string
	resource map[string]string
	diags    []*tfprotov6.Diagnostic
}

// query validates a list block and lists, as terraform query does.
func (h *protoHarness) query(vals map[string]tftypes.Value, includeResource bool, limit int64) ([]listed, []*tfprotov6.Diagnostic) {
	h.t.Helper()
	ctx := context.Background()
	v, err := h.list.ValidateListResourceConfig(ctx, &tfprotov6.ValidateListResourceConfigRequest{TypeName: "mintlify_agent_job", Config: h.listConfig(vals)})
	if err != nil {
		h.t.Fatal(err)
	}
	if len(v.Diagnostics) > 0 {
		return nil, v.Diagnostics
	}
	stream, err := h.list.ListResource(ctx, &tfprotov6.ListResourceRequest{TypeName: "mintlify_agent_job", Config: h.listConfig(vals),
		IncludeResource: includeResource, Limit: limit})
	if err != nil {
		h.t.Fatal(err)
	}
	var out []listed
	var diags []*tfprotov6.Diagnostic
	for r := range stream.Results {
		if r.Identity == nil {
			diags = append(diags, r.Diagnostics...)
			continue
		}
		l := listed{identity: h.identityOf("mintlify_agent_job", r.Identity), name: r.DisplayName, diags: r.Diagnostics}
		if r.Resource != nil {
			l.resource = h.decode(r.Resource, h.resourceType("mintlify_agent_job"))
		}
		out = append(out, l)
	}
	return out, diags
}

// seedJobs puts n completed jobs into the demo project, an hour apart
// from 2026-11-01 on, and returns their ids newest first.
func seedJobs(t *testing.T, fs *mintlifytest.Fake, n int, status string) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range n {
		id, err := fs.SeedJob(mintlifytest.DemoProjectID, mintlifytest.JobSeed{Status: status, Prompt: fmt.Sprintf("Job %d", i),
			CreatedAt: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)})
		if err != nil {
			t.Fatal(err)
		}
		ids[n-1-i] = id
	}
	return ids
}

func ids(results []listed) []string {
	out := make([]string, len(results))
	for i, r := range results {
		out[i] = r.identity["id"]
	}
	return out
}

func sameStrings(a, b []string) bool {
	return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b)
}

// With include_resource, each result is the job as the resource reads it,
// from one v2 read; a job v2 does not know is still listed, with what the
// listing says and a warning.
func TestList_includeResourceReadsEachJobOnce(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	done, err := h.fs.SeedJob(mintlifytest.DemoProjectID, mintlifytest.JobSeed{Status: "archived", Prompt: "Tidy up",
		PRLink: "https://github.com/acme/demo-project/pull/7", CreatedAt: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	unknown := h.fs.CreateJob(mintlifytest.DemoProjectID, "Listed, but v2 says 404")
	// v2 answers 404 for the first job read (the newest: unknown).
	h.fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultClientError, Status: 404, Message: "Job not found", Requests: []int{1}})
	results, diags := h.query(nil, true, 100)
	if len(diags) > 0 || len(results) != 2 {
		t.Fatalf("%d results: %s", len(results), diagsText(diags))
	}
	got := results[1]
	if len(got.diags) > 0 {
		t.Errorf("diagnostics: %s", diagsText(got.diags))
	}
	want := map[string]string{"id": done, "project_id": mintlifytest.DemoProjectID, "prompt": "<null>", "triggers": "<null>",
		"wait_for_completion": "true", "status": "archived", "model": "claude-sonnet-4-5", "pr_link": "https://github.com/acme/demo-project/pull/7",
		"source.repository": "https://github.com/acme/demo-project", "source.ref": "main", "created_at": "2026-11-01T00:00:00Z",
		"archived_at": "2026-11-01T00:00:00Z", "timeouts": "<null>"}
	if diff := cmp.Diff(want, got.resource); diff != "" {
		t.Errorf("resource (-want +got):\n%s", diff)
	}
	miss := results[0]
	if miss.identity["id"] != unknown || miss.resource["status"] != "active" || miss.resource["source.ref"] != "main" ||
		miss.resource["model"] != "<null>" || miss.resource["source.repository"] != "<null>" || miss.resource["prompt"] != "<null>" {
		t.Errorf("the listing's view of a job v2 does not know: %+v", miss)
	}
	if !hasSeverity(miss.diags, tfprotov6.DiagnosticSeverityWarning) || hasSeverity(miss.diags, tfprotov6.DiagnosticSeverityError) {
		t.Errorf("severity: %s", diagsText(miss.diags))
	}
	contains(t, "warning", diagsText(miss.diags), "Listed agent job not readable through v2", unknown, "importing it will fail",
		"takes to be the jobs' v2 ids (the API reference does not say so)")
	if l, g := h.fs.Requests(mintlifytest.RouteAgentJobsSessions), h.fs.Requests(mintlifytest.RouteAgentJobsGet); l != 1 || g != 2 {
		t.Errorf("%d listings and %d v2 reads, want 1 and 2", l, g)
	}
}

// A v2 read that fails for another reason stops the query with an error
// naming the job; the results before it stand.
func TestList_aFailedReadStopsTheQuery(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	jobs := seedJobs(t, h.fs, 3, "completed")
	h.fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultClientError, Status: 403, Message: "Forbidden", Requests: []int{2}})
	results, diags := h.query(nil, true, 100)
	if len(results) != 1 || results[0].identity["id"] != jobs[0] || results[0].resource["status"] != "completed" {
		t.Fatalf("%+v", results)
	}
	contains(t, "error", diagsText(diags), "Could not read agent job "+jobs[1], "403", "read-only")
	if !hasSeverity(diags, tfprotov6.DiagnosticSeverityError) || h.fs.Requests(mintlifytest.RouteAgentJobsGet) != 2 {
		t.Errorf("%d v2 reads: %s", h.fs.Requests(mintlifytest.RouteAgentJobsGet), diagsText(diags))
	}
}

func TestList_listingErrorsAndOddRows(t *testing.T) {
	t.Run("a refused listing", func(t *testing.T) {
		h := newProtoHarness(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteAgentJobsSessions, Kind: mintlifytest.FaultClientError, Status: 401}}}, true)
		results, diags := h.query(nil, false, 100)
		if len(results) != 0 || !hasSeverity(diags, tfprotov6.DiagnosticSeverityError) {
			t.Fatalf("%+v %s", results, diagsText(diags))
		}
		contains(t, "error", diagsText(diags), "Could not read the agent jobs", "401", "api_key")
	})
	t.Run("no project", func(t *testing.T) {
		h := newProtoHarness(t, mintlifytest.Config{}, false)
		_, diags := h.query(nil, false, 100)
		contains(t, "error", diagsText(diags), "Missing project_id")
		if h.fs.TotalRequests() != 0 {
			t.Errorf("%d requests", h.fs.TotalRequests())
		}
	})
	t.Run("a row with odd fields", func(t *testing.T) {
		h := newProtoHarness(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteAgentJobsSessions, Kind: mintlifytest.FaultMalformed, Status: 200,
			Body: `{"allSessions":[{"sessionId":"s-1","title":"Odd","haulted":"no","createdAt":"2026-11-01T00:00:00Z"}]}`}}}, true)
		results, diags := h.query(nil, false, 100)
		if len(results) != 1 || results[0].identity["id"] != "s-1" || results[0].name != "Odd (active, 2026-11-01)" {
			t.Fatalf("%+v", results)
		}
		contains(t, "warning", diagsText(diags), "Unexpected answer from Mintlify", "job s-1: haulted: want true or false, got a string")
	})
}

func TestJobDisplayName(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteAgentJobsSessions, Kind: mintlifytest.FaultMalformed, Status: 200,
		Body: `{"allSessions":[{"sessionId":"a","haulted":true,"haultReason":"paused"},{"sessionId":"b","title":"","haultReason":"error","createdAt":"2026-11-01T23:00:00-02:00"}]}`}}}, true)
	results, _ := h.query(nil, false, 100)
	if len(results) != 2 || results[0].name != "agent job a (halted: paused)" || results[1].name != "agent job b (failed, 2026-11-02)" {
		t.Errorf("%+v", results)
	}
}
