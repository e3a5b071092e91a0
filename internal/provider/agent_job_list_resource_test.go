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

// Terraform 1.14's terraform query, and 1.12's resource identity, cannot be
// installed here: they are driven below Terraform, through the provider's
// protocol-6 server, as Terraform drives them.

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

// identity encodes an identity of a resource type; attributes not given
// are null.
func (h *protoHarness) identity(typeName string, vals map[string]string) *tfprotov6.ResourceIdentityData {
	h.t.Helper()
	typ := h.identityType(typeName)
	all := map[string]tftypes.Value{}
	for name := range typ.AttributeTypes {
		if v, ok := vals[name]; ok {
			all[name] = str(v)
		} else {
			all[name] = tftypes.NewValue(tftypes.String, nil)
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, all))
	if err != nil {
		h.t.Fatal(err)
	}
	return &tfprotov6.ResourceIdentityData{IdentityData: &dv}
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

// Every job, across several pages of the v1 listing: one identity and one
// display name each, from floor(N/100)+1 requests and no v2 read.
func TestList_everyJobWithItsIdentityAcrossPages(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	want := seedJobs(t, h.fs, 230, "completed")
	results, diags := h.query(nil, false, 1000)
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	if diff := cmp.Diff(want, ids(results)); diff != "" {
		t.Fatalf("ids (-want +got):\n%s", diff)
	}
	for _, r := range results {
		if r.identity["project_id"] != mintlifytest.DemoProjectID || r.resource != nil || len(r.diags) > 0 {
			t.Fatalf("result %+v", r)
		}
	}
	if results[0].name != "Job 229 (completed, 2026-11-10)" || results[229].name != "Job 0 (completed, 2026-11-01)" {
		t.Errorf("display names %q, %q", results[0].name, results[229].name)
	}
	if l, g := h.fs.Requests(mintlifytest.RouteAgentJobsSessions), h.fs.Requests(mintlifytest.RouteAgentJobsGet); l != 3 || g != 0 {
		t.Errorf("%d listings and %d v2 reads, want 3 and 0", l, g)
	}
}

// Terraform's limit stops the listing: no page is read past it.
func TestList_stopsAtTerraformsLimit(t *testing.T) {
	for _, tt := range []struct {
		jobs     int
		limit    int64
		want     int
		requests int
	}{{150, 100, 100, 1}, {150, 101, 101, 2}, {100, 100, 100, 1}, {100, 1000, 100, 2}, {0, 100, 0, 1}, {5, 3, 3, 1}} {
		t.Run(fmt.Sprintf("%d jobs, limit %d", tt.jobs, tt.limit), func(t *testing.T) {
			h := newProtoHarness(t, mintlifytest.Config{}, true)
			want := seedJobs(t, h.fs, tt.jobs, "completed")
			results, diags := h.query(nil, false, tt.limit)
			if len(diags) > 0 || !cmp.Equal(want[:tt.want], ids(results), cmp.Comparer(sameStrings)) {
				t.Fatalf("%d results %s", len(results), diagsText(diags))
			}
			wantRequests(t, h.fs, mintlifytest.RouteAgentJobsSessions, tt.requests, "listings")
		})
	}
}

func sameStrings(a, b []string) bool {
	return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b)
}

func TestList_filtersByStatusAndCreationTime(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	var made []string // oldest first
	for i, s := range []string{"completed", "failed", "active", "archived", "completed", "failed"} {
		id, err := h.fs.SeedJob(mintlifytest.DemoProjectID, mintlifytest.JobSeed{Status: s, CreatedAt: time.Date(2026, 11, 1+i, 12, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, id)
	}
	statuses := func(s ...string) tftypes.Value {
		vals := make([]tftypes.Value, len(s))
		for i, x := range s {
			vals[i] = str(x)
		}
		return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, vals)
	}
	for name, tt := range map[string]struct {
		vals map[string]tftypes.Value
		want []string // newest first
	}{
		"no filter":              {nil, []string{made[5], made[4], made[3], made[2], made[1], made[0]}},
		"failed":                 {map[string]tftypes.Value{"statuses": statuses("failed")}, []string{made[5], made[1]}},
		"completed or archived":  {map[string]tftypes.Value{"statuses": statuses("completed", "archived")}, []string{made[4], made[3], made[0]}},
		"active":                 {map[string]tftypes.Value{"statuses": statuses("active")}, []string{made[2]}},
		"an empty status list":   {map[string]tftypes.Value{"statuses": statuses()}, []string{made[5], made[4], made[3], made[2], made[1], made[0]}},
		"after a day, inclusive": {map[string]tftypes.Value{"created_after": str("2026-11-03T12:00:00Z")}, []string{made[5], made[4], made[3], made[2]}},
		"before a day, exclusive": {map[string]tftypes.Value{"created_before": str("2026-11-03T12:00:00Z")},
			[]string{made[1], made[0]}},
		"a window and a status": {map[string]tftypes.Value{"created_after": str("2026-11-02"), "created_before": str("2026-11-06T00:00:00+02:00"),
			"statuses": statuses("failed", "completed")}, []string{made[4], made[1]}},
	} {
		t.Run(name, func(t *testing.T) {
			results, diags := h.query(tt.vals, false, 100)
			if len(diags) > 0 {
				t.Fatal(diagsText(diags))
			}
			if diff := cmp.Diff(tt.want, ids(results)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
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

// Bad filters are refused when the query is validated, with no request.
func TestList_badFiltersFailBeforeAnyRequest(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	for _, tt := range []struct {
		vals map[string]tftypes.Value
		want string
	}{
		{map[string]tftypes.Value{"statuses": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str("done")})},
			`"done" must be one of active, completed, archived, failed`},
		{map[string]tftypes.Value{"created_after": str("last week")}, `created_after "last week"`},
		{map[string]tftypes.Value{"created_after": str("2026-11-02"), "created_before": str("2026-11-02")}, "created_after \"2026-11-02\" must be before created_before"},
		{map[string]tftypes.Value{"project_id": str("a/b")}, `project_id "a/b" may hold only`},
	} {
		_, diags := h.query(tt.vals, false, 100)
		contains(t, "diagnostics", diagsText(diags), tt.want)
	}
	wantNoRequests(t, h.fs, "for bad filters")
}

func TestJobDisplayName(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteAgentJobsSessions, Kind: mintlifytest.FaultMalformed, Status: 200,
		Body: `{"allSessions":[{"sessionId":"a","haulted":true,"haultReason":"paused"},{"sessionId":"b","title":"","haultReason":"error","createdAt":"2026-11-01T23:00:00-02:00"}]}`}}}, true)
	results, _ := h.query(nil, false, 100)
	if len(results) != 2 || results[0].name != "agent job a (halted: paused)" || results[1].name != "agent job b (failed, 2026-11-02)" {
		t.Errorf("%+v", results)
	}
}
