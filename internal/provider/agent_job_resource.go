package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// DefaultCreateTimeout bounds how long create waits for a job to finish
// when the configuration sets no timeouts.create.
const DefaultCreateTimeout = 30 * time.Minute

var (
	_ resource.Resource                   = (*agentJobResource)(nil)
	_ resource.ResourceWithConfigure      = (*agentJobResource)(nil)
	_ resource.ResourceWithImportState    = (*agentJobResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*agentJobResource)(nil)
	_ resource.ResourceWithValidateConfig = (*agentJobResource)(nil)
)

// NewAgentJobResource is the mintlify_agent_job resource.
func NewAgentJobResource() resource.Resource { return &agentJobResource{} }

type agentJobResource struct {
	data *providerData
}

type agentJobModel struct {
	ID         types.String   `tfsdk:"id"`
	ProjectID  types.String   `tfsdk:"project_id"`
	Prompt     types.String   `tfsdk:"prompt"`
	Status     types.String   `tfsdk:"status"`
	Source     types.Object   `tfsdk:"source"`
	Model      types.String   `tfsdk:"model"`
	PRLink     types.String   `tfsdk:"pr_link"`
	CreatedAt  types.String   `tfsdk:"created_at"`
	ArchivedAt types.String   `tfsdk:"archived_at"`
	Timeouts   timeouts.Value `tfsdk:"timeouts"`
}

var sourceAttrTypes = map[string]attr.Type{"repository": types.StringType, "ref": types.StringType}

func (r *agentJobResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_job"
}

func (r *agentJobResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A background agent job: Mintlify's agent carries out `prompt` on the project's " +
			"documentation and, when it changes files, opens a pull request (`pr_link`).\n\n" +
			"Creating the resource starts the job and waits until it is `completed`, `archived` or `failed` " +
			"(see `timeouts`). The job id is saved in state as soon as the API returns it, so a failure, a " +
			"timeout or an interrupt never loses it. A `failed` job is an error and leaves the resource tainted: " +
			"the next apply runs a fresh job.\n\n" +
			"The API has no update or delete for jobs: changing `prompt` or `project_id` starts a new job, and " +
			"destroying the resource only removes it from state (the job and its pull request remain).",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The job's id.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "Project to run the job in. Defaults to the provider's `project_id`. " +
					"Changing it starts a new job.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{projectIDValidator},
				PlanModifiers: keep,
			},
			"prompt": schema.StringAttribute{
				MarkdownDescription: "The instruction the agent carries out, for example `Document the new " +
					"/v2/agent endpoints`. Changing it starts a new job. After an import (the API does not return " +
					"the prompt) the configured prompt is adopted without a new job.",
				Required:   true,
				Validators: []validator.String{promptValidator},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(promptChangeStartsNewJob,
					"Changing the prompt starts a new job, except after an import, where the configured prompt is adopted.",
					"Changing the prompt starts a new job, except after an import, where the configured prompt is adopted.",
				)},
			},
			"status": schema.StringAttribute{
				MarkdownDescription: "The job's status: `active`, `completed`, `archived` or `failed`. After a " +
					"successful apply it is `completed` or `archived`; a refresh shows later changes.",
				Computed:      true,
				PlanModifiers: keep,
			},
			"source": schema.SingleNestedAttribute{
				MarkdownDescription: "The repository the job works on.",
				Computed:            true,
				PlanModifiers:       []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
				Attributes: map[string]schema.Attribute{
					"repository": schema.StringAttribute{
						MarkdownDescription: "The repository, as the API names it.",
						Computed:            true,
					},
					"ref": schema.StringAttribute{
						MarkdownDescription: "The reference (a branch, for example) within the repository; null when the API gives none.",
						Computed:            true,
					},
				},
			},
			"model": schema.StringAttribute{
				MarkdownDescription: "The AI model that ran the job.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"pr_link": schema.StringAttribute{
				MarkdownDescription: "URL of the pull request the agent opened. Null when the job changed no " +
					"files, and while it is active.",
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
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{
				Create: true,
				CreateDescription: fmt.Sprintf("How long to wait for the job to finish, as a duration such as "+
					"`45m` (default `%s`). When it runs out the job stays in state, tainted.", shortDuration(DefaultCreateTimeout)),
			}),
		},
	}
}

// promptChangeStartsNewJob decides, for a changed prompt, whether the job is
// replaced. An imported job has no prompt in state (the API does not return
// it): the configured prompt is adopted in place instead of starting a job.
func promptChangeStartsNewJob(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !req.StateValue.IsNull()
}

func (r *agentJobResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *agentJobResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var tm timeouts.Value
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("timeouts"), &tm)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d, diags := tm.Create(ctx, DefaultCreateTimeout); !diags.HasError() && d <= 0 {
		resp.Diagnostics.AddAttributeError(path.Root("timeouts").AtName("create"), "Invalid timeouts.create",
			"timeouts.create must be a positive duration such as \"30m\".")
	}
}

// ModifyPlan resolves project_id from the provider's default, so that a job
// always records the project it ran in, and a change of that default (like a
// change of the attribute) starts a new job.
func (r *agentJobResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
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
	if r.data == nil {
		// The provider's settings are unknown until apply: keep what state has.
		if !prior.IsNull() {
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("project_id"), prior)...)
		}
		return
	}
	if r.data.projectID == "" {
		resp.Diagnostics.AddAttributeError(path.Root("project_id"), "Missing project_id",
			"Set project_id on the resource, or on the provider (or the "+EnvProjectID+" environment variable).")
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("project_id"), types.StringValue(r.data.projectID))...)
	if !prior.IsNull() && prior.ValueString() != r.data.projectID {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("project_id"))
	}
}

func (r *agentJobResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	var plan agentJobModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := plan.Timeouts.Create(ctx, DefaultCreateTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx = r.data.logContext(ctx)
	projectID := plan.ProjectID.ValueString()
	waitCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	job, err := r.data.client.CreateAgentJob(waitCtx, projectID, plan.Prompt.ValueString())
	if err != nil {
		if createMayHaveSucceeded(err) {
			err = fmt.Errorf("%w\n\nThe request may have reached Mintlify before it failed, so the job may exist. Check the project's agent jobs in the dashboard before applying again (an existing job can be imported) to avoid running it twice", err)
		}
		addAPIError(&resp.Diagnostics, "Could not create the agent job", err)
		return
	}
	// Save the job at once: whatever happens while waiting, its id is in state.
	resp.Diagnostics.Append(plan.applyJob(ctx, job)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	tflog.Info(ctx, "agent job created; waiting for it to finish", map[string]any{"job_id": job.ID, "project_id": projectID, "status": string(job.Status), "timeout": timeout.String()})

	lastStatus := job.Status
	onStatus := sdk.WithStatusCallback(func(j *sdk.AgentJob) {
		if j.Status != lastStatus {
			tflog.Info(ctx, "agent job status changed", map[string]any{"job_id": j.ID, "from": string(lastStatus), "to": string(j.Status)})
			lastStatus = j.Status
		} else {
			tflog.Debug(ctx, "agent job still "+string(j.Status), map[string]any{"job_id": j.ID})
		}
	})
	final, err := r.data.client.WaitForAgentJob(waitCtx, projectID, job.ID, append([]sdk.WaitOption{onStatus}, r.data.waitOptions...)...)
	if final != nil {
		resp.Diagnostics.Append(plan.applyJob(ctx, final)...)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
	if err != nil {
		where := fmt.Sprintf("Agent job %s in project %q was created and is saved in state (tainted, so the next apply starts a new job; run `terraform untaint` to keep this one instead).", job.ID, projectID)
		switch {
		case errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil:
			resp.Diagnostics.AddError("Timed out waiting for the agent job",
				fmt.Sprintf("%s It was still %s after %s. Jobs can take a while: raise the limit with\n\n  timeouts {\n    create = \"60m\"\n  }", where, lastStatus, timeout))
		case ctx.Err() != nil:
			resp.Diagnostics.AddError("Interrupted while waiting for the agent job",
				fmt.Sprintf("%s It was still %s when Terraform stopped waiting. To wait longer next time, raise timeouts.create.", where, lastStatus))
		default:
			addAPIError(&resp.Diagnostics, "Error while waiting for the agent job", fmt.Errorf("%s %w", where, err))
		}
		return
	}
	switch final.Status {
	case sdk.JobStatusFailed:
		resp.Diagnostics.AddError("Agent job failed",
			fmt.Sprintf("Agent job %s in project %q ended with status %q. It stays in state, tainted: the next apply starts a new job. See the job in the Mintlify dashboard for the agent's error.", final.ID, projectID, final.Status))
	case sdk.JobStatusArchived:
		resp.Diagnostics.AddWarning("Agent job archived",
			fmt.Sprintf("Agent job %s in project %q was archived before it completed; pr_link is %s.", final.ID, projectID, describeLink(final.PRLink)))
	}
	tflog.Info(ctx, "agent job finished", map[string]any{"job_id": final.ID, "status": string(final.Status), "pr_link": describeLink(final.PRLink)})
}

func (r *agentJobResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	var state agentJobModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx = r.data.logContext(ctx)
	job, err := r.data.client.GetAgentJob(ctx, state.ProjectID.ValueString(), state.ID.ValueString())
	if sdk.IsNotFound(err) {
		tflog.Warn(ctx, "agent job no longer exists; removing it from state", map[string]any{"job_id": state.ID.ValueString()})
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		addAPIError(&resp.Diagnostics, "Could not read the agent job", err)
		return
	}
	resp.Diagnostics.Append(state.applyJob(ctx, job)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update only records the configuration: every input that matters to the
// API forces a new job, so what reaches here is a prompt adopted after an
// import, or new timeouts.
func (r *agentJobResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan agentJobModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *agentJobResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state agentJobModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.AddWarning("Agent job removed from state only",
		fmt.Sprintf("The Mintlify API cannot delete agent jobs: job %s in project %q, and any pull request it opened, remain. Close the pull request in your code host if it is no longer wanted.",
			state.ID.ValueString(), state.ProjectID.ValueString()))
}

// createMayHaveSucceeded reports whether a failed job POST may still have
// created a job: no answer came back, or a 5xx did (a gateway's error can
// hide a job the API created). The API has no list endpoint or idempotency
// key to find such a job, so the user must be told to look.
func createMayHaveSucceeded(err error) bool {
	var apiErr *sdk.APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode >= 500
	}
	return !sdk.IsValidation(err)
}

// ImportState accepts PROJECT_ID/JOB_ID, or JOB_ID alone with the provider's
// project_id. A project id may itself hold slashes: the job id is what
// follows the last one.
func (r *agentJobResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	defaultProject := ""
	if r.data != nil {
		defaultProject = r.data.projectID
	}
	projectID, jobID, err := parseImportID(req.ID, defaultProject)
	if err != nil {
		resp.Diagnostics.AddError("Invalid import id", err.Error())
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), jobID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("project_id"), projectID)...)
}

func parseImportID(id, defaultProject string) (projectID, jobID string, err error) {
	if i := strings.LastIndex(id, "/"); i >= 0 {
		projectID, jobID = id[:i], id[i+1:]
		if strings.TrimSpace(projectID) == "" || strings.TrimSpace(jobID) == "" {
			return "", "", fmt.Errorf("import id %q: expected PROJECT_ID/JOB_ID with both parts non-empty", id)
		}
		return projectID, jobID, nil
	}
	if strings.TrimSpace(id) == "" {
		return "", "", fmt.Errorf("import id is empty: expected PROJECT_ID/JOB_ID, or JOB_ID with the provider's project_id set")
	}
	if strings.TrimSpace(defaultProject) == "" {
		return "", "", fmt.Errorf("import id %q has no project: use PROJECT_ID/JOB_ID, or set project_id on the provider (or %s)", id, EnvProjectID)
	}
	return defaultProject, id, nil
}

// applyJob copies what the API says of a job into the model.
func (m *agentJobModel) applyJob(_ context.Context, job *sdk.AgentJob) diag.Diagnostics {
	m.ID = types.StringValue(job.ID)
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

func describeLink(link *string) string {
	if link == nil {
		return "null (no files changed)"
	}
	return *link
}

// shortDuration writes whole hours or minutes the way timeouts are written
// in configuration ("30m", "2h").
func shortDuration(d time.Duration) string {
	switch {
	case d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}
