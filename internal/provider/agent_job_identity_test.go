package provider

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

const jobType = "mintlify_agent_job"

// The agent job's identity below Terraform, through the provider's
// protocol-6 server, for what the real CLI (identity_cli_test.go,
// agent_job_adopt_test.go) cannot make: a state from before identities
// (an older provider's, or Terraform 1.11's), which the first refresh
// gives one, and the identity schema's import flags as declared. The
// helpers serve identity_resources_test.go and state_ids_test.go too.

// resource encodes a value of the agent job resource's type (others null).
func (h *protoHarness) resource(vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	return h.resourceOf(jobType, vals)
}

// resourceOf encodes a value of a resource type (attributes not given null).
func (h *protoHarness) resourceOf(typeName string, vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	return h.dynamic(h.schema.ResourceSchemas[typeName], vals)
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

// hasSeverity reports whether any of diags has the severity.
func hasSeverity(diags []*tfprotov6.Diagnostic, sev tfprotov6.DiagnosticSeverity) bool {
	for _, d := range diags {
		if d.Severity == sev {
			return true
		}
	}
	return false
}
