package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Plan-time helpers of the resources: what is decided, and refused,
// before any request.

// The bounds of a wait for work at Mintlify (timeouts.create, an action's
// timeout): shorter would give up before a first poll could tell anything;
// longer would hold a CI runner past any job's life.
const (
	minWaitTimeout = time.Minute
	maxWaitTimeout = 24 * time.Hour
)

// checkWaitTimeout is the one rule of a wait's bounds; name is the setting.
func checkWaitTimeout(name, raw string, d time.Duration) error {
	if d < minWaitTimeout || d > maxWaitTimeout {
		return fmt.Errorf("%s %q must be a duration from %s to %s, such as \"30m\"", name, raw, shortDuration(minWaitTimeout), shortDuration(maxWaitTimeout))
	}
	return nil
}

// validateCreateTimeout refuses a timeouts.create out of bounds, at plan,
// with no request sent.
func validateCreateTimeout(ctx context.Context, get func(context.Context, path.Path, any) diag.Diagnostics, diags *diag.Diagnostics) {
	var tm timeouts.Value
	diags.Append(get(ctx, path.Root("timeouts"), &tm)...)
	if diags.HasError() || tm.IsNull() || tm.IsUnknown() {
		return
	}
	var raw types.String
	diags.Append(get(ctx, path.Root("timeouts").AtName("create"), &raw)...)
	if raw.IsNull() || raw.IsUnknown() {
		return
	}
	d, errs := tm.Create(ctx, DefaultCreateTimeout)
	if errs.HasError() {
		return // the timeouts type says the value is not a duration
	}
	if err := checkWaitTimeout("timeouts.create", raw.ValueString(), d); err != nil {
		diags.AddAttributeError(path.Root("timeouts").AtName("create"), "Invalid timeouts.create", err.Error()+".")
	}
}

// planProjectID resolves a null project_id to the provider's default in
// the plan, so that a resource always records the project it ran in, and a
// change of that default (like a change of the attribute) plans a
// replacement.
func planProjectID(ctx context.Context, data *providerData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	if data != nil && !data.requireAdminKey(&resp.Diagnostics) {
		return // an assistant key alone: say so at plan, not at apply
	}
	var configured types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("project_id"), &configured)...)
	if resp.Diagnostics.HasError() || !configured.IsNull() {
		return
	}
	var prior types.String
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("project_id"), &prior)...)
	}
	if data == nil {
		// The provider's settings are unknown until apply: keep what state has.
		if !prior.IsNull() {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("project_id"), prior)...)
		}
		return
	}
	projectID, ok := data.projectOrDefault(configured, path.Root("project_id"), &resp.Diagnostics)
	if !ok {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("project_id"), types.StringValue(projectID))...)
	if !prior.IsNull() && prior.ValueString() != projectID {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("project_id"))
	}
}

// triggersChanged is true when the planned triggers differ from the
// state's, null and empty counting as the same "no triggers".
func triggersChanged(state, plan types.Map) bool {
	if len(state.Elements()) == 0 && len(plan.Elements()) == 0 {
		return false
	}
	return !state.Equal(plan)
}

// planChanges plans an update in place that starts new work at Mintlify
// (a preview's redeploy): the computed attributes named in changes will
// get new values, known after apply. Every other computed attribute
// keeps, through its UseStateForUnknown, the value state has, so that the
// plan shows only what will change.
func planChanges(ctx context.Context, plan *tfsdk.Plan, changes []string, diags *diag.Diagnostics) {
	for _, name := range changes {
		diags.Append(plan.SetAttribute(ctx, path.Root(name), types.StringUnknown())...)
	}
}
