package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/float64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/int64planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/setplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewStaticExportResource is the mintlify_static_export resource.
func NewStaticExportResource() resource.Resource { return &staticExportResource{} }

type staticExportResource struct {
	data *providerData
	createTimeoutCheck
}

type staticExportModel struct {
	ID types.String `tfsdk:"id"`
	exportInput
	Triggers          types.Map      `tfsdk:"triggers"`
	WaitForCompletion types.Bool     `tfsdk:"wait_for_completion"`
	Status            types.String   `tfsdk:"status"`
	Progress          types.Float64  `tfsdk:"progress"`
	PageCount         types.Int64    `tfsdk:"page_count"`
	CreatedAt         types.String   `tfsdk:"created_at"`
	UpdatedAt         types.String   `tfsdk:"updated_at"`
	Error             types.String   `tfsdk:"error"`
	Timeouts          timeouts.Value `tfsdk:"timeouts"`
}

// applyExport copies what the API says of an export into the model.
func (m *staticExportModel) applyExport(e *sdk.StaticExport) {
	m.ID = types.StringValue(e.ID)
	m.Status = types.StringValue(string(e.Status))
	m.Progress = types.Float64Value(e.Progress)
	m.PageCount = types.Int64Value(e.PageCount)
	m.CreatedAt = timeValue(&e.CreatedAt)
	m.UpdatedAt = timeValue(&e.UpdatedAt)
	m.Error = types.StringPointerValue(e.Error)
}

func (r *staticExportResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_static_export"
}

func (r *staticExportResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	replaces := " Changing it starts a new export (after an import, the configured value is adopted instead)."
	domain, version, paths := exportInputDescriptions(replaces)
	resp.Schema = schema.Schema{
		MarkdownDescription: "A static export: Mintlify pre-renders a deployment's documentation into a self-contained " +
			"set of static HTML, RSC and asset files, to archive or self-host (air-gapped networks, a compliance " +
			"snapshot per release). Static export is available on Enterprise plans.\n\n" +
			"Creating the resource starts the export and, unless `wait_for_completion = false`, waits until it is " +
			"`completed` or `failed` (see `timeouts`). The job id is saved in state as soon as the API returns it, so " +
			"a failure, a timeout or an interrupt never loses it. A `failed` export is an error and leaves the " +
			"resource tainted: the next apply starts a fresh one.\n\n" +
			"An export runs again only when you say so: when `domain`, `version`, `paths` or `triggers` change, or " +
			"with `terraform apply -replace`. To download its archive, use the `mintlify_static_export_bundle` " +
			"ephemeral resource (a presigned link kept out of plan and state), or the `mintlify_static_export` " +
			"action with `output_path`.\n\n" +
			"A refresh reads the export until it is `completed` or `failed`. A finished export is a record that never " +
			"changes, so from then on plans and refreshes (`-refresh-only` included) send no request for it; an " +
			"import reads it once. The API cannot delete exports: destroying the resource only removes it from " +
			"state (the provider logs it at `INFO`, with no warning).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The export's job id, such as `se_3f9a2c1b8e7d4a06`.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"domain": schema.StringAttribute{
				MarkdownDescription: domain,
				Required:            true,
				Validators:          []validator.String{domainValidator},
				PlanModifiers:       exportInputReplaces("domain"),
			},
			"version": schema.StringAttribute{
				MarkdownDescription: version,
				Optional:            true,
				Validators:          []validator.String{exportVersionValidator},
				PlanModifiers:       exportInputReplaces("version"),
			},
			"paths": schema.SetAttribute{
				MarkdownDescription: paths + " Their order does not matter.",
				ElementType:         types.StringType,
				Optional:            true,
				Validators:          pathsValidators,
				PlanModifiers: []planmodifier.Set{setplanmodifier.RequiresReplaceIf(func(ctx context.Context, req planmodifier.SetRequest, resp *setplanmodifier.RequiresReplaceIfFuncResponse) {
					resp.RequiresReplace = !importedExport(ctx, req.State.GetAttribute, &resp.Diagnostics)
				}, "Changing the paths starts a new export.", "Changing the paths starts a new export.")},
			},
			"triggers": triggersAttribute("starts a new export (after an import, the first triggers are adopted instead)",
				func(ctx context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
					resp.RequiresReplace = !importedExport(ctx, req.State.GetAttribute, &resp.Diagnostics) && triggersChanged(req.StateValue, req.PlanValue)
				}),
			"wait_for_completion": waitAttribute("the export", "`completed` or `failed`"),
			"status": schema.StringAttribute{
				MarkdownDescription: "The export's status: `queued`, `running`, `completed` or `failed`. A refresh " +
					"records later changes without planning anything, until it is `completed` or `failed`, after which " +
					"it is not read again.",
				Computed:      true,
				PlanModifiers: keep,
			},
			"progress": schema.Float64Attribute{
				MarkdownDescription: "How far the export has got, in percent (0 to 100).",
				Computed:            true,
				PlanModifiers:       []planmodifier.Float64{float64planmodifier.UseStateForUnknown()},
			},
			"page_count": schema.Int64Attribute{
				MarkdownDescription: "How many pages were exported so far.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Int64{int64planmodifier.UseStateForUnknown()},
			},
			"created_at": schema.StringAttribute{
				MarkdownDescription: "When the export was started (RFC 3339).",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "When the export last changed (RFC 3339).",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"error": schema.StringAttribute{
				MarkdownDescription: "Why the export failed, as the API says; null unless it failed.",
				Computed:            true,
				PlanModifiers:       keep,
			},
		},
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock(ctx, "the export")},
	}
}

// exportInputReplaces is the plan modifier of a string input of the
// export (what names it): a change starts a new export, except after an
// import (exportInputChangeStartsNewExport).
func exportInputReplaces(what string) []planmodifier.String {
	description := "Changing the " + what + " starts a new export."
	return []planmodifier.String{stringplanmodifier.RequiresReplaceIf(exportInputChangeStartsNewExport, description, description)}
}

// exportInputChangeStartsNewExport replaces the export when domain or
// version change, except on the first apply after an import: the API does
// not return them, and importing never starts an export.
func exportInputChangeStartsNewExport(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !importedExport(ctx, req.State.GetAttribute, &resp.Diagnostics)
}

// importedExport reports whether state holds an export just imported:
// only an import leaves domain (required) unset.
func importedExport(ctx context.Context, get func(context.Context, path.Path, any) diag.Diagnostics, diags *diag.Diagnostics) bool {
	var domain types.String
	diags.Append(get(ctx, path.Root("domain"), &domain)...)
	return domain.IsNull()
}

func (r *staticExportResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = staticExportIdentity.schema()
}

func (r *staticExportResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *staticExportResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan staticExportModel
	if !readModel(ctx, r.data, req.Plan, &plan, &resp.Diagnostics) {
		return
	}
	exportReq, ok := plan.request(ctx, &resp.Diagnostics)
	if !ok {
		return
	}
	w := exportWork(r.data, exportReq)
	w.words = exportCreateWords
	w.record = func(e *sdk.StaticExport) {
		plan.applyExport(e)
		saveState(ctx, &plan, &resp.State, staticExportIdentity, resp.Identity, &resp.Diagnostics)
	}
	runAsConfigured(ctx, w, plan.WaitForCompletion, plan.Timeouts, &resp.Diagnostics)
}

func (r *staticExportResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state staticExportModel
	if !readModel(ctx, r.data, req.State, &state, &resp.Diagnostics) || staticExportReadIDs.unreadable(ctx, req, resp) {
		return
	}
	ctx = r.data.logContext(ctx)
	jobID := state.ID.ValueString()
	if keepFinished(ctx, sdk.StaticExportStatus(state.Status.ValueString()).Terminal(), "static export", jobID, staticExportIdentity, req, resp) {
		return
	}
	importing := state.Status.IsNull() // only an import leaves it unset
	e, err := r.data.client.StaticExports.Get(ctx, jobID)
	switch {
	case sdk.IsNotFound(err) && importing:
		resp.Diagnostics.AddError("Cannot import the static export",
			fmt.Sprintf("Mintlify has no static export %q (404). %s", jobID, exportNotFound))
		return
	case sdk.IsNotFound(err):
		resp.Diagnostics.AddWarning("Static export no longer exists at Mintlify",
			fmt.Sprintf("Static export %s is gone from the Mintlify API (404). The mintlify_static_export resource stays in "+
				"state unchanged so that nothing starts again by itself. Run `terraform state rm mintlify_static_export.<name>` "+
				"to forget it, or `terraform apply -replace=mintlify_static_export.<name>` to export again.", jobID))
		staticExportIdentity.fromState(ctx, req.State, resp.Identity, &resp.Diagnostics) // state from before identities gets one
		return
	case err != nil:
		addAPIError(&resp.Diagnostics, "Could not read the static export", err)
		return
	}
	notes := newProblemNotes("static export", jobID)
	notes.add(e.Problems)
	notes.warn(&resp.Diagnostics)
	if e.Status == sdk.StaticExportStatusFailed && state.Status.ValueString() != string(sdk.StaticExportStatusFailed) && !importing {
		resp.Diagnostics.AddWarning("Static export failed",
			fmt.Sprintf("Static export %s has failed: %s. It will not run again by itself: change its triggers, or run "+
				"terraform apply -replace=mintlify_static_export.<name>, to start a new export.", jobID, exportFailure(e)))
	}
	if state.WaitForCompletion.IsNull() {
		state.WaitForCompletion = types.BoolValue(true) // imported: the schema's default
	}
	state.applyExport(e)
	saveState(ctx, &state, &resp.State, staticExportIdentity, resp.Identity, &resp.Diagnostics)
}

// Update only records the configuration: every input that matters to the
// API starts a new export, so what reaches here is an input adopted after
// an import, wait_for_completion, or new timeouts.
func (r *staticExportResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	recordPlan(ctx, &staticExportModel{}, staticExportIdentity, req, resp)
}

func (r *staticExportResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state staticExportModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	removedFromStateOnly(ctx, "Static export",
		fmt.Sprintf("The Mintlify API cannot delete static exports: export %s remains at Mintlify. Bundle links already "+
			"made of it expire on their own.", state.ID.ValueString()),
		map[string]any{"job_id": state.ID.ValueString()})
}

// ImportState takes the export's job id, or (Terraform 1.12+) an
// identity holding it.
func (r *staticExportResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	staticExportIdentity.importState(ctx, r.data, req, resp, func(id, _ string) (map[string]string, error) {
		if err := sdk.ValidateStaticExportID(id); err != nil {
			return nil, fmt.Errorf("import id %q: %w: use the export's job id, such as se_3f9a2c1b8e7d4a06", id, err)
		}
		return map[string]string{"id": id}, nil
	})
}
