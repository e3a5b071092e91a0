package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The provider's actions. Each is configured with the provider's data and
// checks its project at plan (the export, its output_path instead); each
// that waits also checks its timeout at plan.
var (
	_ = []interface {
		action.ActionWithConfigure
		action.ActionWithModifyPlan
		action.ActionWithValidateConfig
	}{(*agentJobAction)(nil), (*agentJobMessageAction)(nil), (*deploymentAction)(nil), (*previewDeploymentAction)(nil), (*staticExportAction)(nil)}
	_ = []interface {
		action.ActionWithConfigure
		action.ActionWithModifyPlan
	}{(*automationRunAction)(nil)}
)

// actionBase is what every action of the provider shares: its name, the
// provider's data, and a project known at plan.
type actionBase struct {
	// typeName follows the provider's name: "_agent_job" makes
	// mintlify_agent_job.
	typeName string
	data     *providerData
}

func (a *actionBase) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + a.typeName
}

func (a *actionBase) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.data = configuredData(req.ProviderData, &resp.Diagnostics)
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

// waitingActionBase is the base of an action that waits for the work it
// starts: its timeout is checked at plan too.
type waitingActionBase struct {
	actionBase
}

// ValidateConfig refuses a timeout that is not a duration within bounds,
// before any request: one rule, one wording, as for timeouts.create.
func (a *waitingActionBase) ValidateConfig(ctx context.Context, req action.ValidateConfigRequest, resp *action.ValidateConfigResponse) {
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

// invokeConfig begins an Invoke: once the provider is configured, it
// reads the action's configuration into m and resolves the project from
// projectID, which points at m's project_id (the provider's when null).
func (a *actionBase) invokeConfig(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse, m any, projectID *types.String) (string, bool) {
	if !requireConfigured(a.data, &resp.Diagnostics) {
		return "", false
	}
	if !req.Config.Raw.IsNull() { // `action "mintlify_deployment" "x" {}` has no config block at all
		resp.Diagnostics.Append(req.Config.Get(ctx, m)...)
	}
	if resp.Diagnostics.HasError() {
		return "", false
	}
	return a.data.projectOrDefault(*projectID, path.Root("project_id"), &resp.Diagnostics)
}

// requiredActionString is a required string attribute of an action, checked
// at plan by v.
func requiredActionString(desc string, v validator.String) schema.StringAttribute {
	return schema.StringAttribute{MarkdownDescription: desc, Required: true, Validators: []validator.String{v}}
}

// actionProjectAttribute is an action's project_id; what says what the
// project is ("The project").
func actionProjectAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: what + ". Defaults to the provider's `project_id`.",
		Optional:            true,
		Validators:          []validator.String{projectIDValidator},
	}
}

// actionWaitModel is whether an action waits for the work it starts, and
// how long.
type actionWaitModel struct {
	WaitForCompletion types.Bool   `tfsdk:"wait_for_completion"`
	Timeout           types.String `tfsdk:"timeout"`
}

// waits reports whether the action waits: it does unless told not to.
func (m actionWaitModel) waits() bool {
	return m.WaitForCompletion.IsNull() || m.WaitForCompletion.ValueBool()
}

// actionWaitAttributes are the attributes of actionWaitModel: wait is
// wait_for_completion's description, what names what the timeout waits
// for.
func actionWaitAttributes(wait, what string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"wait_for_completion": schema.BoolAttribute{MarkdownDescription: wait, Optional: true},
		"timeout":             actionTimeoutAttribute(what),
	}
}

// actionTimeoutAttribute is an action's timeout: what names what it waits for.
func actionTimeoutAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: "How long to wait for " + what + ", as " + timeoutBoundsPhrase() + "; only when waiting. " +
			"When it runs out the action fails, naming what it started, which goes on at Mintlify.",
		Optional: true,
	}
}

// timeoutBoundsPhrase says, for a timeout's description, what it takes: "a
// duration from `1m` to `24h` such as `45m` (default `30m`)".
func timeoutBoundsPhrase() string {
	return fmt.Sprintf("a duration from `%s` to `%s` such as `45m` (default `%s`)",
		shortDuration(minWaitTimeout), shortDuration(maxWaitTimeout), shortDuration(DefaultCreateTimeout))
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

// invokeWork runs work for an action, reporting its progress: first is
// the first message, once the request is answered, then each change of
// status while it waits. It returns the object as the wait ended, or nil
// when the action did not wait or the run had an error: the end is the
// caller's to report.
func invokeWork[O any](ctx context.Context, resp *action.InvokeResponse, m actionWaitModel, w work[O], words workWords, first func(*O) string) *O {
	w.doWait = m.waits()
	w.timeout = actionTimeout(m.Timeout)
	w.words = words
	announced := false
	w.record = func(obj *O) {
		if !announced { // the request's answer; the wait's end is reported by the caller
			announced = true
			progress(resp, "%s", first(obj))
		}
	}
	w.onChange = func(obj *O, from string) {
		progress(resp, "%s %s is now %s (was %s).", capitalize(w.kind.noun), w.kind.id(obj), describeStatus(w.kind.status(obj)), describeStatus(from))
	}
	obj := w.run(ctx, &resp.Diagnostics)
	if obj == nil || !w.doWait || resp.Diagnostics.HasError() {
		return nil
	}
	return obj
}

// progress sends an action's progress message.
func progress(resp *action.InvokeResponse, format string, args ...any) {
	resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(format, args...)})
}

// actionWords completes what an action says of its outcomes: it keeps no
// state, so its timeout is the one setting to raise.
func actionWords(w workWords) workWords {
	w.timeoutSetting = "the action's timeout"
	w.raiseTimeout = `  timeout = "60m"`
	return w
}
