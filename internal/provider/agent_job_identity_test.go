package provider

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

const jobType = "mintlify_agent_job"

// resource encodes a value of the agent job resource's type (others null).
func (h *protoHarness) resource(vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	return h.resourceOf(jobType, vals)
}

// resourceOf encodes a value of a resource type (attributes not given null).
func (h *protoHarness) resourceOf(typeName string, vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	return h.dynamic(h.schema.ResourceSchemas[typeName], vals)
}

func (h *protoHarness) state(dv *tfprotov6.DynamicValue) map[string]string {
	h.t.Helper()
	return h.stateOf(jobType, dv)
}

func (h *protoHarness) stateOf(typeName string, dv *tfprotov6.DynamicValue) map[string]string {
	h.t.Helper()
	return h.decode(dv, h.resourceType(typeName))
}

// importJob imports as Terraform does: by id, or by identity when id is "".
func (h *protoHarness) importJob(id string, identity map[string]string) (*tfprotov6.ImportedResource, []*tfprotov6.Diagnostic) {
	h.t.Helper()
	return h.importAs(jobType, id, identity)
}

// importAs imports a resource of a type: by id, or by identity when id is "".
func (h *protoHarness) importAs(typeName, id string, identity map[string]string) (*tfprotov6.ImportedResource, []*tfprotov6.Diagnostic) {
	h.t.Helper()
	req := &tfprotov6.ImportResourceStateRequest{TypeName: typeName, ID: id}
	if id == "" {
		req.Identity = h.identity(typeName, identity)
	}
	resp, err := h.srv.ImportResourceState(context.Background(), req)
	if err != nil {
		h.t.Fatal(err)
	}
	if len(resp.ImportedResources) != 1 {
		return nil, resp.Diagnostics
	}
	return resp.ImportedResources[0], resp.Diagnostics
}

// read refreshes a job whose state and identity are given.
func (h *protoHarness) read(state *tfprotov6.DynamicValue, identity *tfprotov6.ResourceIdentityData) *tfprotov6.ReadResourceResponse {
	h.t.Helper()
	return h.readAs(jobType, state, identity, nil)
}

// readAs refreshes a resource of a type, with its private state (an
// import's mark) when given.
func (h *protoHarness) readAs(typeName string, state *tfprotov6.DynamicValue, identity *tfprotov6.ResourceIdentityData, private []byte) *tfprotov6.ReadResourceResponse {
	h.t.Helper()
	resp, err := h.srv.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: state,
		CurrentIdentity: identity, Private: private})
	if err != nil {
		h.t.Fatal(err)
	}
	return resp
}

func (h *protoHarness) plan(prior, proposed, config *tfprotov6.DynamicValue, identity *tfprotov6.ResourceIdentityData) *tfprotov6.PlanResourceChangeResponse {
	h.t.Helper()
	return h.planAs(jobType, prior, proposed, config, identity)
}

func (h *protoHarness) planAs(typeName string, prior, proposed, config *tfprotov6.DynamicValue, identity *tfprotov6.ResourceIdentityData) *tfprotov6.PlanResourceChangeResponse {
	h.t.Helper()
	resp, err := h.srv.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{TypeName: typeName,
		PriorState: prior, ProposedNewState: proposed, Config: config, PriorIdentity: identity})
	if err != nil {
		h.t.Fatal(err)
	}
	return resp
}

func (h *protoHarness) null() *tfprotov6.DynamicValue {
	h.t.Helper()
	return h.nullOf(jobType)
}

func (h *protoHarness) nullOf(typeName string) *tfprotov6.DynamicValue {
	h.t.Helper()
	return h.nullValue(h.schema.ResourceSchemas[typeName])
}

func TestIdentity_schemaIsProjectAndID(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	s := h.ids[jobType]
	if s == nil || s.Version != 0 || len(s.IdentityAttributes) != 2 {
		t.Fatalf("identity schema %+v", s)
	}
	for _, a := range s.IdentityAttributes {
		switch {
		case a.Name == "id" && a.RequiredForImport && !a.OptionalForImport && a.Type.Is(tftypes.String):
		case a.Name == "project_id" && !a.RequiredForImport && a.OptionalForImport && a.Type.Is(tftypes.String):
		default:
			t.Errorf("identity attribute %+v", a)
		}
	}
}

// A job Terraform starts has its identity from the create on.
func TestIdentity_onCreateAndRead(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	config := h.resource(map[string]tftypes.Value{"prompt": str("Document it"), "wait_for_completion": tftypes.NewValue(tftypes.Bool, false)})
	plan := h.plan(h.null(), config, config, nil)
	if len(plan.Diagnostics) > 0 {
		t.Fatal(diagsText(plan.Diagnostics))
	}
	applied, err := h.srv.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{TypeName: jobType,
		PriorState: h.null(), PlannedState: plan.PlannedState, Config: config, PlannedIdentity: plan.PlannedIdentity})
	if err != nil || len(applied.Diagnostics) > 0 {
		t.Fatalf("%v %s", err, diagsText(applied.Diagnostics))
	}
	id := h.fs.JobIDs(mintlifytest.DemoProjectID)[0]
	want := map[string]string{"project_id": mintlifytest.DemoProjectID, "id": id}
	if diff := cmp.Diff(want, h.identityOf(jobType, applied.NewIdentity)); diff != "" {
		t.Fatalf("identity after create (-want +got):\n%s", diff)
	}
	read := h.read(applied.NewState, applied.NewIdentity)
	if len(read.Diagnostics) > 0 || !cmp.Equal(want, h.identityOf(jobType, read.NewIdentity)) {
		t.Errorf("read: %v %s", h.identityOf(jobType, read.NewIdentity), diagsText(read.Diagnostics))
	}
	// State written before identities (an older provider) gets one on its
	// first refresh; so does a job that vanished meanwhile (kept, with a
	// warning, and no error for want of an identity).
	if read := h.read(applied.NewState, nil); len(read.Diagnostics) > 0 || !cmp.Equal(want, h.identityOf(jobType, read.NewIdentity)) {
		t.Errorf("read without an identity: %v %s", h.identityOf(jobType, read.NewIdentity), diagsText(read.Diagnostics))
	}
	gone := h.resource(map[string]tftypes.Value{"id": str("gone"), "project_id": str(mintlifytest.DemoProjectID), "status": str("completed"),
		"prompt": str("x"), "wait_for_completion": tftypes.NewValue(tftypes.Bool, true)})
	read = h.read(gone, nil)
	if hasSeverity(read.Diagnostics, tfprotov6.DiagnosticSeverityError) || !cmp.Equal(map[string]string{"project_id": mintlifytest.DemoProjectID, "id": "gone"}, h.identityOf(jobType, read.NewIdentity)) {
		t.Errorf("vanished job: %v %s", h.identityOf(jobType, read.NewIdentity), diagsText(read.Diagnostics))
	}
	contains(t, "warning", diagsText(read.Diagnostics), "Agent job no longer exists at Mintlify")
}

// An import block's identity imports a job on Terraform 1.12+; the id
// string keeps working, and both end with the same state and identity.
func TestIdentity_importByIdentityOrByID(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	h.fs.AddProject("other", mintlifytest.DemoOrg, mintlifytest.Dataset{})
	job, err := h.fs.SeedJob("other", mintlifytest.JobSeed{Status: "completed", Prompt: "From the dashboard",
		PRLink: "https://github.com/acme/other/pull/3", CreatedAt: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	mine := h.fs.CreateJob(mintlifytest.DemoProjectID, "In the default project")
	for name, tt := range map[string]struct {
		id       string
		identity map[string]string
		want     map[string]string
	}{
		"identity":                           {"", map[string]string{"project_id": "other", "id": job}, map[string]string{"project_id": "other", "id": job}},
		"identity, the provider's project":   {"", map[string]string{"id": mine}, map[string]string{"project_id": mintlifytest.DemoProjectID, "id": mine}},
		"PROJECT_ID/JOB_ID":                  {"other/" + job, nil, map[string]string{"project_id": "other", "id": job}},
		"JOB_ID with the provider's project": {mine, nil, map[string]string{"project_id": mintlifytest.DemoProjectID, "id": mine}},
	} {
		t.Run(name, func(t *testing.T) {
			imported, diags := h.importJob(tt.id, tt.identity)
			if len(diags) > 0 || imported == nil {
				t.Fatal(diagsText(diags))
			}
			if diff := cmp.Diff(tt.want, h.identityOf(jobType, imported.Identity)); diff != "" {
				t.Errorf("imported identity (-want +got):\n%s", diff)
			}
			st := h.state(imported.State)
			if st["id"] != tt.want["id"] || st["project_id"] != tt.want["project_id"] || st["status"] != "<null>" {
				t.Errorf("imported state %v", st)
			}
			read := h.read(imported.State, imported.Identity)
			if len(read.Diagnostics) > 0 || !cmp.Equal(tt.want, h.identityOf(jobType, read.NewIdentity)) {
				t.Fatalf("read: %v %s", h.identityOf(jobType, read.NewIdentity), diagsText(read.Diagnostics))
			}
			if st := h.state(read.NewState); st["prompt"] != "<null>" || st["status"] == "<null>" || st["wait_for_completion"] != "true" {
				t.Errorf("state after the import's read %v", st)
			}
		})
	}
	wantRequests(t, h.fs, mintlifytest.RouteAgentJobsCreate, 0, "jobs started by imports")
}

func TestIdentity_badImportsFailBeforeAnyRequest(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	noDefault := newProtoHarness(t, mintlifytest.Config{}, false)
	for _, tt := range []struct {
		h        *protoHarness
		id       string
		identity map[string]string
		want     []string
	}{
		{h, "", map[string]string{"project_id": "p"}, []string{"Invalid import identity", "identity.id is required"}},
		{h, "", map[string]string{"project_id": "a b", "id": "../x"}, []string{`identity.project_id "a b" may hold only`, `identity.id "../x" may hold only`}},
		{noDefault, "", map[string]string{"id": "j"}, []string{"identity.project_id is not set, and neither is the provider's project_id (or MINTLIFY_PROJECT_ID)"}},
		{noDefault, "j", nil, []string{"Invalid import id", `import id "j" has no project`}},
		{h, "p/", nil, []string{"Invalid import id", "both parts non-empty"}},
	} {
		_, diags := tt.h.importJob(tt.id, tt.identity)
		contains(t, "import", diagsText(diags), tt.want...)
	}
	if n := h.fs.TotalRequests() + noDefault.fs.TotalRequests(); n != 0 {
		t.Errorf("%d requests", n)
	}
}

// A job v2 does not know fails its import with the assumption the listing
// rests on named.
func TestIdentity_importOfAnUnknownJobNamesTheAssumption(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	imported, diags := h.importJob("", map[string]string{"id": "s-listed-only"})
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	read := h.read(imported.State, imported.Identity)
	contains(t, "error", diagsText(read.Diagnostics), "Cannot import the agent job", `no agent job "s-listed-only" in project "demo-project" (404)`,
		"identity = { project_id = ..., id = ... }", "takes to be the jobs' v2 ids (the API reference does not say so)")
}

// The configuration Terraform generates for an imported job (terraform
// plan or query -generate-config-out) has no prompt: it plans as it is,
// with no replacement and no new job.
func TestIdentity_generatedConfigurationPlansNothing(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	id := h.fs.CreateJob(mintlifytest.DemoProjectID, "From the dashboard")
	imported, diags := h.importJob("", map[string]string{"id": id})
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	read := h.read(imported.State, imported.Identity)
	if len(read.Diagnostics) > 0 {
		t.Fatal(diagsText(read.Diagnostics))
	}
	gen, err := h.srv.GenerateResourceConfig(context.Background(), &tfprotov6.GenerateResourceConfigRequest{TypeName: jobType, State: read.NewState})
	if err != nil || len(gen.Diagnostics) > 0 {
		t.Fatalf("%v %s", err, diagsText(gen.Diagnostics))
	}
	config := h.state(gen.Config)
	want := map[string]string{"project_id": mintlifytest.DemoProjectID, "prompt": "<null>", "triggers": "<null>", "wait_for_completion": "true",
		"id": "<null>", "status": "<null>", "source": "<null>", "model": "<null>", "pr_link": "<null>", "created_at": "<null>", "archived_at": "<null>", "timeouts": "<null>"}
	if diff := cmp.Diff(want, config); diff != "" {
		t.Fatalf("generated configuration (-want +got):\n%s", diff)
	}
	// Terraform proposes the prior state for what the configuration leaves out.
	plan := h.plan(read.NewState, read.NewState, gen.Config, read.NewIdentity)
	if len(plan.Diagnostics) > 0 || len(plan.RequiresReplace) > 0 {
		t.Fatalf("replace %v: %s", plan.RequiresReplace, diagsText(plan.Diagnostics))
	}
	if diff := cmp.Diff(h.state(read.NewState), h.state(plan.PlannedState)); diff != "" {
		t.Errorf("planned change (-state +plan):\n%s", diff)
	}
	// Another change (wait_for_completion) updates in place, the prompt
	// still null: no unknown left for the apply, no job.
	noWait := h.decodeValue(gen.Config)
	noWait["wait_for_completion"] = tftypes.NewValue(tftypes.Bool, false)
	proposed := h.decodeValue(read.NewState)
	proposed["wait_for_completion"] = tftypes.NewValue(tftypes.Bool, false)
	plan = h.plan(read.NewState, h.resource(proposed), h.resource(noWait), read.NewIdentity)
	if planned := h.state(plan.PlannedState); len(plan.Diagnostics) > 0 || len(plan.RequiresReplace) > 0 || planned["prompt"] != "<null>" || planned["wait_for_completion"] != "false" {
		t.Errorf("a change beside a left-out prompt: replace %v, planned %v, %s", plan.RequiresReplace, planned, diagsText(plan.Diagnostics))
	}
	// Setting a prompt later adopts it in place.
	withPrompt := h.resource(map[string]tftypes.Value{"project_id": str(mintlifytest.DemoProjectID), "prompt": str("From the dashboard"),
		"wait_for_completion": tftypes.NewValue(tftypes.Bool, true)})
	proposed = h.decodeValue(read.NewState)
	proposed["prompt"] = str("From the dashboard")
	plan = h.plan(read.NewState, h.resource(proposed), withPrompt, read.NewIdentity)
	if len(plan.Diagnostics) > 0 || len(plan.RequiresReplace) > 0 || h.state(plan.PlannedState)["prompt"] != "From the dashboard" {
		t.Errorf("adopting a prompt: replace %v, %s", plan.RequiresReplace, diagsText(plan.Diagnostics))
	}
	wantRequests(t, h.fs, mintlifytest.RouteAgentJobsCreate, 0, "jobs started")
}

// A prompt left out of the configuration of a job Terraform started keeps
// the job: state keeps the prompt, and nothing is replaced.
func TestResource_promptLeftOutKeepsTheJob(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	prior := h.resource(map[string]tftypes.Value{"id": str("j"), "project_id": str(mintlifytest.DemoProjectID), "prompt": str("Document it"),
		"status": str("completed"), "wait_for_completion": tftypes.NewValue(tftypes.Bool, true)})
	config := h.resource(map[string]tftypes.Value{"wait_for_completion": tftypes.NewValue(tftypes.Bool, false)})
	proposed := h.decodeValue(prior)
	proposed["wait_for_completion"] = tftypes.NewValue(tftypes.Bool, false)
	plan := h.plan(prior, h.resource(proposed), config, nil)
	if planned := h.state(plan.PlannedState); len(plan.Diagnostics) > 0 || len(plan.RequiresReplace) > 0 || planned["prompt"] != "Document it" {
		t.Errorf("replace %v, planned %v, %s", plan.RequiresReplace, planned, diagsText(plan.Diagnostics))
	}
}

// A job cannot start without a prompt: the plan says so, with no request.
func TestResource_promptIsRequiredToStartAJob(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	config := h.resource(map[string]tftypes.Value{"wait_for_completion": tftypes.NewValue(tftypes.Bool, true)})
	plan := h.plan(h.null(), config, config, nil)
	contains(t, "plan", diagsText(plan.Diagnostics), "Missing prompt", "A new agent job needs a prompt", "import")
	if !hasSeverity(plan.Diagnostics, tfprotov6.DiagnosticSeverityError) || h.fs.TotalRequests() != 0 {
		t.Errorf("%d requests: %s", h.fs.TotalRequests(), diagsText(plan.Diagnostics))
	}
}

// decodeValue reads a resource value into its attributes.
func (h *protoHarness) decodeValue(dv *tfprotov6.DynamicValue) map[string]tftypes.Value {
	h.t.Helper()
	v, err := dv.Unmarshal(h.resourceType(jobType))
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[string]tftypes.Value{}
	if err := v.As(&out); err != nil {
		h.t.Fatal(err)
	}
	return out
}

// hasSeverity reports whether any of diags has the severity.
func hasSeverity(diags []*tfprotov6.Diagnostic, sev tfprotov6.DiagnosticSeverity) bool {
	for _, d := range diags {
		if d.Severity == sev {
			return true
		}
	}
	return false
}
