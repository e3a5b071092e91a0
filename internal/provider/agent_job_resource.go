package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewAgentJobResource is the mintlify_agent_job resource.
func NewAgentJobResource() resource.Resource { return &agentJobResource{} }

type agentJobResource struct {
	data *providerData
	createTimeoutCheck
}

type agentJobModel struct {
	ID                types.String `tfsdk:"id"`
	ProjectID         types.String `tfsdk:"project_id"`
	Prompt            types.String `tfsdk:"prompt"`
	Triggers          types.Map    `tfsdk:"triggers"`
	WaitForCompletion types.Bool   `tfsdk:"wait_for_completion"`
	jobStateModel
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

func (r *agentJobResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_job"
}

func (r *agentJobResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A background agent job: Mintlify's agent carries out `prompt` on the project's " +
			"documentation and, when it changes files, opens a pull request (`pr_link`).\n\n" +
			"Creating the resource starts the job and, unless `wait_for_completion = false`, waits until it is " +
			"`completed`, `archived` or `failed` (see `timeouts`). The job id is saved in state as soon as the API " +
			"returns it, so a failure, a timeout or an interrupt never loses it. A `failed` job is an error and leaves " +
			"the resource tainted: the next apply runs a fresh job.\n\n" +
			"A job runs again only when you say so: when `prompt`, `project_id` or `triggers` change, or with " +
			"`terraform apply -replace`. The API has no update or delete for jobs: destroying the resource only removes " +
			"it from state (the job and its pull request remain; the provider logs it at `INFO`, with no warning), and " +
			"a job that vanishes from the API stays in state.\n\n" +
			"A refresh reads the job on every plan, whatever its status: a follow-up message " +
			"(`mintlify_agent_job_message`, from here or elsewhere) takes a completed or failed job up again, so its " +
			"status, pull request and the rest can change after it has finished.\n\n" +
			"Jobs started elsewhere (the dashboard, another pipeline) can be found with `terraform query` (the " +
			"`mintlify_agent_job` list resource, Terraform 1.14+) or the `mintlify_agent_jobs` data source, and " +
			"adopted by import: by `PROJECT_ID/JOB_ID`, or on Terraform 1.12+ by identity (`project_id`, `id`). " +
			"Importing never starts a job; see the guide \"Adopt jobs that already exist\".",
		Attributes: attributes(jobStateAttributes(""), map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The job's id.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "Project to run the job in. Defaults to the provider's `project_id`. " +
					"Changing it starts a new job.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{projectIDValidator},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"prompt": schema.StringAttribute{
				MarkdownDescription: "The instruction the agent carries out, for example `Document the new " +
					"/v2/agent endpoints`. **Required to start a job**: a plan that would create one without it fails, " +
					"with no request sent. Changing it starts a new job.\n\n" +
					"Leave it out only for a job adopted by import (the API does not return a job's prompt, so " +
					"`terraform plan -generate-config-out` and `terraform query -generate-config-out` write none): " +
					"the job is kept as it is and no job starts. Setting a prompt on such a job later adopts it in " +
					"place, without a new job; so does leaving it out of a job Terraform started (state keeps the prompt).",
				Optional:   true,
				Computed:   true,
				Validators: []validator.String{promptValidator},
				PlanModifiers: []planmodifier.String{
					// Left out of the configuration: keep what state has (the
					// prompt the job started with; null for an imported job), not
					// an unknown that would read as a change.
					stringplanmodifier.UseStateForUnknown(),
					stringplanmodifier.RequiresReplaceIf(promptChangeStartsNewJob,
						"Changing the prompt starts a new job, except after an import, where the configured prompt is adopted.",
						"Changing the prompt starts a new job, except after an import, where the configured prompt is adopted.",
					),
				},
			},
			"triggers":            triggersAttribute("starts a new job (after an import, the first triggers are adopted instead)", triggersChangeStartsNewJob),
			"wait_for_completion": waitAttribute("the job", jobEnds),
		}),
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock(ctx, "the job")},
	}
}

// promptChangeStartsNewJob decides, for a changed prompt, whether the job is
// replaced. An imported job has no prompt in state (the API does not return
// it): the configured prompt is adopted in place instead of starting a job.
func promptChangeStartsNewJob(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !req.StateValue.IsNull()
}

// triggersChangeStartsNewJob replaces the job when its triggers change,
// except on the first apply after an import (no prompt in state yet),
// which adopts them: importing never starts a job.
func triggersChangeStartsNewJob(ctx context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
	var prompt types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("prompt"), &prompt)...)
	resp.RequiresReplace = !prompt.IsNull() && triggersChanged(req.StateValue, req.PlanValue)
}

func (r *agentJobResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *agentJobResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = agentJobIdentity.schema()
}

func (r *agentJobResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	planProjectID(ctx, r.data, req, resp)
	requirePromptToStart(ctx, req, resp)
}

// requirePromptToStart refuses, at plan, a job to be started without a
// prompt. prompt is optional only so that a job adopted by import (whose
// prompt the API does not return) plans with no prompt and starts nothing.
func requirePromptToStart(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return // not a creation: an imported job keeps no prompt
	}
	var prompt types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("prompt"), &prompt)...)
	if prompt.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("prompt"), "Missing prompt",
			"A new agent job needs a prompt: set prompt to the instruction the agent should carry out. (prompt may be "+
				"left out only of a job adopted by import: add an import block, or run terraform import, to adopt an "+
				"existing job instead of starting one.)")
	}
}

func (r *agentJobResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan agentJobModel
	if !readModel(ctx, r.data, req.Plan, &plan, &resp.Diagnostics) {
		return
	}
	projectID := plan.ProjectID.ValueString()
	w := jobWork(r.data, projectID, func(ctx context.Context) (*sdk.AgentJob, error) {
		return r.data.client.AgentJobs.Create(ctx, projectID, plan.Prompt.ValueString())
	})
	w.words = createWords
	w.record = func(job *sdk.AgentJob) {
		plan.ID = types.StringValue(job.ID)
		plan.applyJob(job)
		saveState(ctx, &plan, &resp.State, agentJobIdentity, resp.Identity, &resp.Diagnostics)
	}
	runAsConfigured(ctx, w, plan.WaitForCompletion, plan.Timeouts, &resp.Diagnostics)
}

func (r *agentJobResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state agentJobModel
	if !readModel(ctx, r.data, req.State, &state, &resp.Diagnostics) || agentJobReadIDs.unreadable(ctx, req, resp) {
		return
	}
	ctx = r.data.logContext(ctx)
	projectID, jobID := state.ProjectID.ValueString(), state.ID.ValueString()
	// Only an import leaves the status unset: no create or read does.
	importing := state.Status.IsNull()
	job, err := r.data.client.AgentJobs.Get(ctx, projectID, jobID)
	switch {
	case sdk.IsNotFound(err) && importing:
		resp.Diagnostics.AddError("Cannot import the agent job",
			fmt.Sprintf("Mintlify has no agent job %q in project %q (404). Check the job id and the project: import by "+
				"PROJECT_ID/JOB_ID, by JOB_ID with the provider's project_id set to the job's project, or (Terraform 1.12+) "+
				"by identity = { project_id = ..., id = ... }.\n\n%s", jobID, projectID, listedIDAssumption))
		return
	case sdk.IsNotFound(err):
		vanishedJob(&resp.Diagnostics, "mintlify_agent_job", jobID, projectID)
		agentJobIdentity.fromState(ctx, req.State, resp.Identity, &resp.Diagnostics)
		return
	case err != nil:
		addAPIError(&resp.Diagnostics, "Could not read the agent job", err)
		return
	}
	notes := newProblemNotes("agent job", jobID)
	notes.add(job.Problems)
	notes.warn(&resp.Diagnostics)
	if job.Status == sdk.JobStatusFailed && state.Status.ValueString() != string(sdk.JobStatusFailed) && !importing {
		resp.Diagnostics.AddWarning("Agent job failed",
			fmt.Sprintf("Agent job %s in project %q has failed (see the job in the Mintlify dashboard for the agent's error). It will not run again by itself: change its triggers, or run terraform apply -replace=mintlify_agent_job.<name>, to start a new job.", jobID, projectID))
	}
	if state.WaitForCompletion.IsNull() {
		state.WaitForCompletion = types.BoolValue(true) // imported: the schema's default
	}
	state.applyJob(job)
	saveState(ctx, &state, &resp.State, agentJobIdentity, resp.Identity, &resp.Diagnostics)
}

// Update only records the configuration: every input that matters to the
// API forces a new job, so what reaches here is a prompt or triggers
// adopted after an import, wait_for_completion, or new timeouts.
func (r *agentJobResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	recordPlan(ctx, &agentJobModel{}, agentJobIdentity, req, resp)
}

func (r *agentJobResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state agentJobModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	detail := fmt.Sprintf("The Mintlify API cannot delete agent jobs: job %s in project %q remains at Mintlify.", state.ID.ValueString(), state.ProjectID.ValueString())
	if link := state.PRLink.ValueString(); link != "" {
		detail = strings.TrimSuffix(detail, ".") + fmt.Sprintf(", and so does its pull request %s (close it in your code host if it is no longer wanted).", link)
	}
	removedFromStateOnly(ctx, "Agent job", detail, map[string]any{"job_id": state.ID.ValueString()})
}

// ImportState accepts PROJECT_ID/JOB_ID, or JOB_ID alone with the provider's
// project_id, or (Terraform 1.12+) an identity: project_id (the provider's
// when left out) and id. Neither id may hold a slash (sdk.ValidateProjectID).
func (r *agentJobResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	agentJobIdentity.importState(ctx, r.data, req, resp, func(id, defaultProject string) (map[string]string, error) {
		projectID, jobID, err := parseImportID(id, defaultProject)
		return map[string]string{"project_id": projectID, "id": jobID}, err
	})
}

func parseImportID(id, defaultProject string) (projectID, jobID string, err error) {
	if i := strings.LastIndex(id, "/"); i >= 0 {
		projectID, jobID = id[:i], id[i+1:]
		if strings.TrimSpace(projectID) == "" || strings.TrimSpace(jobID) == "" {
			return "", "", fmt.Errorf("import id %q: expected PROJECT_ID/JOB_ID with both parts non-empty", id)
		}
	} else {
		if strings.TrimSpace(id) == "" {
			return "", "", fmt.Errorf("import id is empty: expected PROJECT_ID/JOB_ID, or JOB_ID with the provider's project_id set")
		}
		if strings.TrimSpace(defaultProject) == "" {
			return "", "", fmt.Errorf("import id %q has no project: use PROJECT_ID/JOB_ID, or set project_id on the provider (or %s)", id, EnvProjectID)
		}
		projectID, jobID = defaultProject, id
	}
	for _, err := range []error{sdk.ValidateProjectID(projectID), sdk.ValidateJobID(jobID)} {
		if err != nil {
			return "", "", fmt.Errorf("import id %q: %w", id, err)
		}
	}
	return projectID, jobID, nil
}
