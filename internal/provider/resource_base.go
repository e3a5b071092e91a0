package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// What the managed resources share: each starts work at Mintlify through
// the runner (run.go), and takes the steps around it (reading the plan or
// state, running as configured, saving state and identity) the same way.

// startedResource is what every managed resource implements: the
// provider's data, and timeouts.create checked at plan (createTimeoutCheck).
type startedResource interface {
	resource.ResourceWithConfigure
	resource.ResourceWithValidateConfig
}

// importableResource is a resource that can be adopted by import, by id or
// (Terraform 1.12+) by identity.
type importableResource interface {
	resource.ResourceWithImportState
	resource.ResourceWithIdentity
}

// What each resource implements, checked at compile time.
var (
	_ = []startedResource{(*agentJobResource)(nil), (*agentJobMessageResource)(nil),
		(*deploymentResource)(nil), (*previewDeploymentResource)(nil), (*staticExportResource)(nil)}
	// Those with a project_id resolve it at plan (planProjectID).
	_ = []resource.ResourceWithModifyPlan{(*agentJobResource)(nil), (*agentJobMessageResource)(nil),
		(*deploymentResource)(nil), (*previewDeploymentResource)(nil)}
	// A message has nothing to import: the API does not list them.
	_ = []importableResource{(*agentJobResource)(nil), (*deploymentResource)(nil),
		(*previewDeploymentResource)(nil), (*staticExportResource)(nil)}
)

// createTimeoutCheck gives a resource, by embedding, its ValidateConfig:
// timeouts.create within the bounds of a wait, at plan, before any request.
type createTimeoutCheck struct{}

func (createTimeoutCheck) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	validateCreateTimeout(ctx, req.Config.GetAttribute, &resp.Diagnostics)
}

// readModel reads a request's plan, state or configuration (from) into
// model, once the provider is configured. It is false when the request
// cannot go on: the diagnostics say why.
func readModel(ctx context.Context, data *providerData, from interface {
	Get(context.Context, any) diag.Diagnostics
}, model any, diags *diag.Diagnostics) bool {
	if !requireConfigured(data, diags) {
		return false
	}
	diags.Append(from.Get(ctx, model)...)
	return !diags.HasError()
}

// runAsConfigured runs w as the resource's configuration says: waiting
// unless wait_for_completion is false, for at most timeouts.create. It
// returns the last object the run saw (nil when nothing started).
func runAsConfigured[O any](ctx context.Context, w work[O], wait types.Bool, tm timeouts.Value, diags *diag.Diagnostics) *O {
	timeout, d := tm.Create(ctx, DefaultCreateTimeout)
	diags.Append(d...)
	if diags.HasError() {
		return nil
	}
	w.doWait, w.timeout = wait.ValueBool(), timeout
	return w.run(ctx, diags)
}

// saveState sets the resource's state to model and, for a resource with an
// identity, the identity from that state: Terraform refuses a resource
// without one after a Create, Read or Update.
func saveState(ctx context.Context, model any, state *tfsdk.State, identity resourceIdentity, to *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	diags.Append(state.Set(ctx, model)...)
	identity.fromState(ctx, *state, to, diags)
}

// recordPlan is the Update of a resource whose every input that matters to
// the API starts new work: what reaches an update (wait_for_completion,
// timeouts, an input adopted after an import) is only recorded. model is a
// zero model of the resource, to read the plan into. It is false when the
// plan could not be read.
func recordPlan(ctx context.Context, model any, identity resourceIdentity, req resource.UpdateRequest, resp *resource.UpdateResponse) bool {
	resp.Diagnostics.Append(req.Plan.Get(ctx, model)...)
	if resp.Diagnostics.HasError() {
		return false
	}
	saveState(ctx, model, &resp.State, identity, resp.Identity, &resp.Diagnostics)
	return true
}
