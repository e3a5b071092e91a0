package provider

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Resource identity of the deployments and static exports, through the
// protocol-6 server as Terraform 1.12+ drives it (see
// agent_job_identity_test.go for the agent job's).

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

// withAttrs is a resource value with some attributes replaced: what
// Terraform proposes when the configuration changes them.
func (h *protoHarness) withAttrs(typeName string, dv *tfprotov6.DynamicValue, vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	h.t.Helper()
	typ := h.resourceType(typeName)
	v, err := dv.Unmarshal(typ)
	if err != nil {
		h.t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		h.t.Fatal(err)
	}
	for name, val := range vals {
		attrs[name] = val
	}
	out, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		h.t.Fatal(err)
	}
	return &out
}

func stringMap(kv map[string]string) tftypes.Value {
	vals := map[string]tftypes.Value{}
	for k, v := range kv {
		vals[k] = str(v)
	}
	return tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, vals)
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

// An import block's identity imports a deployment started elsewhere; its
// project may be left out (the API's answer says it), and when given must
// be the deployment's. The status id string keeps working. No import
// deploys anything.
func TestIdentity_deploymentImportByIdentityOrByID(t *testing.T) {
	h := newIdentityHarness(t)
	h.fs.AddProject("other", mintlifytest.DemoOrg, mintlifytest.Dataset{})
	other := h.fs.TriggerDeployment("other") // from the dashboard
	want := map[string]string{"project_id": "other", "id": other}
	for name, tt := range map[string]struct {
		id       string
		identity map[string]string
		imported map[string]string // the identity the import returns
	}{
		"identity":                 {"", map[string]string{"project_id": "other", "id": other}, want},
		"identity without project": {"", map[string]string{"id": other}, map[string]string{"project_id": "<null>", "id": other}},
		"status id":                {other, nil, map[string]string{"project_id": "<null>", "id": other}},
	} {
		t.Run(name, func(t *testing.T) {
			imported, diags := h.importAs(deploymentType, tt.id, tt.identity)
			if len(diags) > 0 || imported == nil {
				t.Fatal(diagsText(diags))
			}
			if diff := cmp.Diff(tt.imported, h.identityOf(deploymentType, imported.Identity)); diff != "" {
				t.Errorf("imported identity (-want +got):\n%s", diff)
			}
			read := h.readAs(deploymentType, imported.State, imported.Identity, imported.Private)
			if len(read.Diagnostics) > 0 {
				t.Fatal(diagsText(read.Diagnostics))
			}
			if diff := cmp.Diff(want, h.identityOf(deploymentType, read.NewIdentity)); diff != "" {
				t.Errorf("identity after the import's read (-want +got):\n%s", diff)
			}
			if st := h.stateOf(deploymentType, read.NewState); st["project_id"] != "other" || st["status"] == "<null>" || st["source"] != "dashboard" {
				t.Errorf("state after the import's read %v", st)
			}
		})
	}
	// An identity naming another project than the deployment's is refused
	// at the import's read, naming both.
	imported, diags := h.importAs(deploymentType, "", map[string]string{"project_id": mintlifytest.DemoProjectID, "id": other})
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	read := h.readAs(deploymentType, imported.State, imported.Identity, imported.Private)
	contains(t, "wrong project", diagsText(read.Diagnostics), "Cannot import the deployment",
		`is of project "other", not "demo-project" as the import's identity says`)
	wantRequests(t, h.fs, mintlifytest.RouteDeploymentsTrigger, 0, "deployments triggered by imports")
}

func TestIdentity_badDeploymentAndExportImportsFailBeforeAnyRequest(t *testing.T) {
	h := newIdentityHarness(t)
	for _, tt := range []struct {
		typeName string
		id       string
		identity map[string]string
		want     []string
	}{
		{deploymentType, "", map[string]string{"project_id": mintlifytest.DemoProjectID}, []string{"Invalid import identity", "identity.id is required"}},
		{deploymentType, "", map[string]string{"project_id": "a b", "id": "a/b"}, []string{`identity.project_id "a b" may hold only`, `identity.id "a/b"`}},
		{previewType, "", map[string]string{"id": "a/b"}, []string{"Invalid import identity", `identity.id "a/b"`}},
		{deploymentType, "a/b", nil, []string{"Invalid import id", `Import by the deployment's status id: statusId "a/b" may hold only`}},
		{staticExportType, "", map[string]string{}, []string{"Invalid import identity", "identity.id is required"}},
		{staticExportType, "", map[string]string{"id": "a/b"}, []string{"Invalid import identity", `identity.id "a/b"`}},
		{staticExportType, "a/b", nil, []string{"Invalid import id", `import id "a/b"`, "use the export's job id"}},
	} {
		_, diags := h.importAs(tt.typeName, tt.id, tt.identity)
		contains(t, tt.typeName+" import", diagsText(diags), tt.want...)
	}
	wantNoRequests(t, h.fs, "for bad imports")
}

// A preview's identity is the status id of its latest deployment, the one
// thing the API reads a preview by: a redeploy (an update in place) moves
// it to the new id, which the identity's schema allows (mutable).
func TestIdentity_previewFollowsItsRedeploys(t *testing.T) {
	h := newIdentityHarness(t)
	config := map[string]tftypes.Value{"branch": str("feature/identity"), "triggers": stringMap(map[string]string{"sha": "a1"}), "wait_for_completion": noWait}
	created := h.create(previewType, config)
	first := h.stateOf(previewType, created.NewState)["id"]
	want := map[string]string{"project_id": mintlifytest.DemoProjectID, "id": first}
	if diff := cmp.Diff(want, h.identityOf(previewType, created.NewIdentity)); diff != "" {
		t.Fatalf("identity after create (-want +got):\n%s", diff)
	}
	if read := h.readAs(previewType, created.NewState, nil, nil); len(read.Diagnostics) > 0 || !cmp.Equal(want, h.identityOf(previewType, read.NewIdentity)) {
		t.Errorf("read: %v %s", h.identityOf(previewType, read.NewIdentity), diagsText(read.Diagnostics))
	}

	config["triggers"] = stringMap(map[string]string{"sha": "b2"})
	cfg := h.resourceOf(previewType, config)
	proposed := h.withAttrs(previewType, created.NewState, map[string]tftypes.Value{"triggers": config["triggers"]})
	plan := h.planAs(previewType, created.NewState, proposed, cfg, created.NewIdentity)
	if len(plan.Diagnostics) > 0 {
		t.Fatal(diagsText(plan.Diagnostics))
	}
	updated := h.apply(previewType, created.NewState, plan, cfg)
	second := h.stateOf(previewType, updated.NewState)["id"]
	if second == first || second == "" {
		t.Fatalf("redeploy kept id %q", second)
	}
	want["id"] = second
	if diff := cmp.Diff(want, h.identityOf(previewType, updated.NewIdentity)); diff != "" {
		t.Errorf("identity after the redeploy (-want +got):\n%s", diff)
	}
	if read := h.readAs(previewType, updated.NewState, updated.NewIdentity, nil); len(read.Diagnostics) > 0 || !cmp.Equal(want, h.identityOf(previewType, read.NewIdentity)) {
		t.Errorf("read after the redeploy: %v %s", h.identityOf(previewType, read.NewIdentity), diagsText(read.Diagnostics))
	}

	// Imported by identity, as by status id: the project from the API.
	imported, diags := h.importAs(previewType, "", map[string]string{"id": second})
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	read := h.readAs(previewType, imported.State, imported.Identity, imported.Private)
	if len(read.Diagnostics) > 0 || !cmp.Equal(want, h.identityOf(previewType, read.NewIdentity)) {
		t.Errorf("import's read: %v %s", h.identityOf(previewType, read.NewIdentity), diagsText(read.Diagnostics))
	}
	wantRequests(t, h.fs, mintlifytest.RouteDeploymentsPreview, 2, "previews triggered (create, redeploy)")
}

// A static export's identity is its job id (the export API knows no
// project): from the create on, and an import block's identity imports
// an export started elsewhere, as the id string does.
func TestIdentity_staticExportOnCreateReadAndImport(t *testing.T) {
	h := newIdentityHarness(t)
	created := h.create(staticExportType, map[string]tftypes.Value{"domain": str("docs.example.com"), "wait_for_completion": noWait})
	id := h.stateOf(staticExportType, created.NewState)["id"]
	if diff := cmp.Diff(map[string]string{"id": id}, h.identityOf(staticExportType, created.NewIdentity)); diff != "" || id == "" {
		t.Fatalf("identity after create (-want +got):\n%s", diff)
	}
	if read := h.readAs(staticExportType, created.NewState, nil, nil); len(read.Diagnostics) > 0 || !cmp.Equal(map[string]string{"id": id}, h.identityOf(staticExportType, read.NewIdentity)) {
		t.Errorf("read: %v %s", h.identityOf(staticExportType, read.NewIdentity), diagsText(read.Diagnostics))
	}

	c, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(h.baseURL), sdk.WithClock(h.clk))
	if err != nil {
		t.Fatal(err)
	}
	e, err := c.StaticExports.Start(context.Background(), sdk.StaticExportRequest{Domain: "docs.example.com"}) // started elsewhere
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"id": e.ID}
	for name, tt := range map[string]struct {
		id       string
		identity map[string]string
	}{"identity": {"", want}, "job id": {e.ID, nil}} {
		imported, diags := h.importAs(staticExportType, tt.id, tt.identity)
		if len(diags) > 0 || !cmp.Equal(want, h.identityOf(staticExportType, imported.Identity)) {
			t.Fatalf("%s: %v %s", name, imported, diagsText(diags))
		}
		read := h.readAs(staticExportType, imported.State, imported.Identity, imported.Private)
		if st := h.stateOf(staticExportType, read.NewState); len(read.Diagnostics) > 0 || st["status"] == "<null>" ||
			!cmp.Equal(want, h.identityOf(staticExportType, read.NewIdentity)) {
			t.Errorf("%s: read %v %v %s", name, st, h.identityOf(staticExportType, read.NewIdentity), diagsText(read.Diagnostics))
		}
	}
	wantRequests(t, h.fs, mintlifytest.RouteStaticExportsStart, 2, "exports started (the create, and the one started elsewhere)")
}
