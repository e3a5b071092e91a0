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

// Resource identity of the deployments and static exports below
// Terraform, through the provider's protocol-6 server, for what the real
// CLI (identity_cli_test.go) cannot make: a state from before identities,
// which a refresh gives one, and the identity schemas as declared.

const (
	deploymentType   = "mintlify_deployment"
	previewType      = "mintlify_preview_deployment"
	staticExportType = "mintlify_static_export"
)

func newIdentityHarness(t *testing.T) *protoHarness {
	t.Helper()
	return newProtoHarness(t, mintlifytest.Config{
		DefaultDeployment: testDeployment,
		StaticExports:     mintlifytest.StaticExportConfig{Default: mintlifytest.ExportScript{QueuedFor: 30 * time.Second, RunFor: 3 * time.Minute, Pages: 12}},
	}, true)
}

// create plans and applies a new resource from its configuration, as
// terraform apply does, and fails the test on any diagnostic.
func (h *protoHarness) create(typeName string, config map[string]tftypes.Value) *tfprotov6.ApplyResourceChangeResponse {
	h.t.Helper()
	cfg := h.resourceOf(typeName, config)
	plan := h.planAs(typeName, h.nullOf(typeName), cfg, cfg, nil)
	if len(plan.Diagnostics) > 0 {
		h.t.Fatalf("plan: %s", diagsText(plan.Diagnostics))
	}
	return h.apply(typeName, h.nullOf(typeName), plan, cfg)
}

func (h *protoHarness) apply(typeName string, prior *tfprotov6.DynamicValue, plan *tfprotov6.PlanResourceChangeResponse, cfg *tfprotov6.DynamicValue) *tfprotov6.ApplyResourceChangeResponse {
	h.t.Helper()
	applied, err := h.srv.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{TypeName: typeName,
		PriorState: prior, PlannedState: plan.PlannedState, Config: cfg, PlannedIdentity: plan.PlannedIdentity, PlannedPrivate: plan.PlannedPrivate})
	if err != nil || len(applied.Diagnostics) > 0 {
		h.t.Fatalf("apply: %v %s", err, diagsText(applied.Diagnostics))
	}
	return applied
}

var noWait = tftypes.NewValue(tftypes.Bool, false)

func TestIdentity_schemasOfDeploymentsAndExports(t *testing.T) {
	h := newIdentityHarness(t)
	type attr struct{ required, optional bool }
	for typeName, want := range map[string]map[string]attr{
		deploymentType:   {"project_id": {optional: true}, "id": {required: true}},
		previewType:      {"project_id": {optional: true}, "id": {required: true}},
		staticExportType: {"id": {required: true}},
	} {
		s := h.ids[typeName]
		if s == nil || s.Version != 0 {
			t.Fatalf("%s: identity schema %+v", typeName, s)
		}
		got := map[string]attr{}
		for _, a := range s.IdentityAttributes {
			if !a.Type.Is(tftypes.String) {
				t.Errorf("%s.%s is a %s", typeName, a.Name, a.Type)
			}
			got[a.Name] = attr{a.RequiredForImport, a.OptionalForImport}
		}
		if diff := cmp.Diff(want, got, cmp.AllowUnexported(attr{})); diff != "" {
			t.Errorf("%s identity (-want +got):\n%s", typeName, diff)
		}
	}
}

// A deployment has its identity from the create on; a refresh keeps it
// (and gives one to state from before identities).
func TestIdentity_deploymentOnCreateAndRead(t *testing.T) {
	h := newIdentityHarness(t)
	applied := h.create(deploymentType, map[string]tftypes.Value{"wait_for_completion": noWait})
	ids := h.fs.DeploymentIDs(mintlifytest.DemoProjectID)
	if len(ids) != 1 {
		t.Fatalf("deployments %v", ids)
	}
	want := map[string]string{"project_id": mintlifytest.DemoProjectID, "id": ids[0]}
	if diff := cmp.Diff(want, h.identityOf(deploymentType, applied.NewIdentity)); diff != "" {
		t.Fatalf("identity after create (-want +got):\n%s", diff)
	}
	for name, identity := range map[string]*tfprotov6.ResourceIdentityData{"with its identity": applied.NewIdentity, "state from before identities": nil} {
		read := h.readAs(deploymentType, applied.NewState, identity, nil)
		if len(read.Diagnostics) > 0 || !cmp.Equal(want, h.identityOf(deploymentType, read.NewIdentity)) {
			t.Errorf("read %s: %v %s", name, h.identityOf(deploymentType, read.NewIdentity), diagsText(read.Diagnostics))
		}
	}
}
