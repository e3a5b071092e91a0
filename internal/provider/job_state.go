package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// jobStateModel is what the API says of a job, as both resources keep it.
// Every attribute is a read-only fact: a refresh that sees it change
// records the change and plans nothing.
type jobStateModel struct {
	Status     types.String `tfsdk:"status"`
	Source     types.Object `tfsdk:"source"`
	Model      types.String `tfsdk:"model"`
	PRLink     types.String `tfsdk:"pr_link"`
	CreatedAt  types.String `tfsdk:"created_at"`
	ArchivedAt types.String `tfsdk:"archived_at"`
}

var sourceAttrTypes = map[string]attr.Type{"repository": types.StringType, "ref": types.StringType}

// jobStateAttributes is the schema of jobStateModel; after says whose
// state it is ("after this message", for the message resource).
func jobStateAttributes(after string) map[string]schema.Attribute {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	return map[string]schema.Attribute{
		"status": schema.StringAttribute{
			MarkdownDescription: "The job's status" + after + ": `active`, `completed`, `archived` or `failed`. " +
				"A refresh records later changes without planning anything.",
			Computed:      true,
			PlanModifiers: keep,
		},
		"source": schema.SingleNestedAttribute{
			MarkdownDescription: "The repository the job works on.",
			Computed:            true,
			PlanModifiers:       []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
			Attributes: map[string]schema.Attribute{
				"repository": schema.StringAttribute{MarkdownDescription: "The repository's URL, as the API gives it.", Computed: true},
				"ref":        schema.StringAttribute{MarkdownDescription: "The branch the agent works on; null when the API gives none.", Computed: true},
			},
		},
		"model": schema.StringAttribute{
			MarkdownDescription: "The AI model that runs the job.",
			Computed:            true,
			PlanModifiers:       keep,
		},
		"pr_link": schema.StringAttribute{
			MarkdownDescription: "URL of the pull request the agent opened" + after + ". Null while the job is active, " +
				"when it changed no files, and when the API's link is not an absolute http(s) URL (with a warning).",
			Computed:      true,
			PlanModifiers: keep,
		},
		"created_at": schema.StringAttribute{
			MarkdownDescription: "When the job was created (RFC 3339).",
			Computed:            true,
			PlanModifiers:       keep,
		},
		"archived_at": schema.StringAttribute{
			MarkdownDescription: "When the job was archived (RFC 3339); null unless it is archived.",
			Computed:            true,
			PlanModifiers:       keep,
		},
	}
}

// applyJob copies what the API says of a job into the model.
func (m *jobStateModel) applyJob(job *sdk.AgentJob) diag.Diagnostics {
	m.Status = types.StringValue(string(job.Status))
	m.Model = types.StringValue(job.Model)
	m.PRLink = types.StringPointerValue(job.PRLink)
	m.CreatedAt = timeValue(&job.CreatedAt)
	m.ArchivedAt = timeValue(job.ArchivedAt)
	src, diags := types.ObjectValue(sourceAttrTypes, map[string]attr.Value{
		"repository": types.StringValue(job.Source.Repository),
		"ref":        types.StringPointerValue(job.Source.Ref),
	})
	m.Source = src
	return diags
}

func timeValue(t *time.Time) types.String {
	if t == nil || t.IsZero() {
		return types.StringNull()
	}
	return types.StringValue(t.UTC().Format(time.RFC3339Nano))
}

// triggersAttribute is the schema of triggers; replaceIf decides when a
// change starts new work.
func triggersAttribute(what string, replaceIf stringMapReplaceFunc) schema.MapAttribute {
	return schema.MapAttribute{
		MarkdownDescription: "Arbitrary values (a commit SHA, a release tag) that, when any of them changes (a key added " +
			"or removed included), " + what + ". Unchanged values plan nothing, apply after apply. An empty map and no " +
			"triggers both mean none: switching between them only updates state.",
		ElementType: types.StringType,
		Optional:    true,
		PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplaceIf(mapplanmodifier.RequiresReplaceIfFunc(replaceIf),
			"A change of triggers "+what+".", "A change of triggers "+what+".")},
	}
}

type stringMapReplaceFunc func(context.Context, planmodifier.MapRequest, *mapplanmodifier.RequiresReplaceIfFuncResponse)

// triggersChanged is true when the planned triggers differ from the
// state's, null and empty counting as the same "no triggers".
func triggersChanged(state, plan types.Map) bool {
	if len(state.Elements()) == 0 && len(plan.Elements()) == 0 {
		return false
	}
	return !state.Equal(plan)
}

// waitAttribute is the schema of wait_for_completion.
func waitAttribute(what string) schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: "Whether apply waits until " + what + " is `completed`, `archived` or `failed` " +
			"(default `true`). With `false`, apply returns as soon as the API has accepted the prompt, the job in " +
			"state with the status the API gave (usually `active`); later refreshes record its progress. Changing it " +
			"starts nothing.",
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(true),
	}
}

// planProjectID resolves a null project_id to the provider's default in
// the plan, so that a job always records the project it ran in, and a
// change of that default (like a change of the attribute) plans a
// replacement.
func planProjectID(ctx context.Context, data *providerData, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
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

// vanishedJob is the warning for a job the API no longer has: the
// resource (of type typeName) stays in state so that nothing starts again
// by itself. The provider is not told the resource's address.
func vanishedJob(diags *diag.Diagnostics, typeName, jobID, projectID string) {
	addr := typeName + ".<name>"
	diags.AddWarning("Agent job no longer exists at Mintlify",
		fmt.Sprintf("Agent job %s in project %q is gone from the Mintlify API (404). The %s resource stays in state unchanged "+
			"so that nothing starts again by itself. Run `terraform state rm %s` to forget it, or `terraform apply -replace=%s` "+
			"to run it again.", jobID, projectID, typeName, addr, addr))
}
