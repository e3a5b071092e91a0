package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// actionBase is what every action of the provider shares: the provider's
// data, a timeout checked at plan, and a project known at plan.
type actionBase struct {
	data *providerData
}

func (a *actionBase) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// ValidateConfig refuses a timeout that is not a duration within bounds,
// before any request: one rule, one wording, as for timeouts.create.
func (a *actionBase) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
	validateTimeout(ctx, req.Config, &resp.Diagnostics)
}

// validateTimeout refuses a configuration's timeout attribute (an
// action's, an ephemeral resource's) that is not a duration within the
// bounds of a wait.
func validateTimeout(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) {
	var timeout types.String
	diags.Append(config.GetAttribute(ctx, path.Root("timeout"), &timeout)...)
	if timeout.IsNull() || timeout.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(timeout.ValueString())
	if err != nil {
		d = -1 // not a duration: out of bounds, said by the same rule
	}
	if err := checkWaitTimeout("timeout", timeout.ValueString(), d); err != nil {
		diags.AddAttributeError(path.Root("timeout"), "Invalid timeout", err.Error()+".")
	}
}

// ModifyPlan checks at plan that the action's project is known: set on
// the action, or on the provider.
func (a *actionBase) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	var projectID types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("project_id"), &projectID)...)
	if a.data == nil || projectID.IsUnknown() {
		return // the provider's settings are not known yet
	}
	if !a.data.requireAdminKey(&resp.Diagnostics) {
		return
	}
	a.data.projectOrDefault(projectID, path.Root("project_id"), &resp.Diagnostics)
}

// actionTimeoutAttribute is an action's timeout: what names what it waits for.
func actionTimeoutAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: fmt.Sprintf("How long to wait for %s, as a duration from `%s` to `%s` such as `45m` "+
			"(default `%s`); only when waiting. When it runs out the action fails, naming what it started, which goes "+
			"on at Mintlify.", what, shortDuration(minWaitTimeout), shortDuration(maxWaitTimeout), shortDuration(DefaultCreateTimeout)),
		Optional: true,
	}
}

// actionTimeout is a configured timeout, checked at plan, or the default.
func actionTimeout(v types.String) time.Duration {
	if v.IsNull() {
		return DefaultCreateTimeout
	}
	d, _ := time.ParseDuration(v.ValueString()) // validated at plan
	return d
}

// actionNote ends every action's description: what needs Terraform 1.14,
// and when to use the resource instead; what names the object ("job").
func actionNote(what string) string {
	return "Actions need Terraform 1.14 or later. They keep no state: use the resource of the same name when " +
		"something downstream needs the " + what + "'s attributes, or a record of it in state; use the action to " +
		"act on events, such as every release."
}
