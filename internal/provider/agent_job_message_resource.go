package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewAgentJobMessageResource is the mintlify_agent_job_message resource.
func NewAgentJobMessageResource() resource.Resource { return &agentJobMessageResource{} }

type agentJobMessageResource struct {
	data *providerData
	createTimeoutCheck
}

type agentJobMessageModel struct {
	ID                types.String `tfsdk:"id"`
	JobID             types.String `tfsdk:"job_id"`
	ProjectID         types.String `tfsdk:"project_id"`
	Prompt            types.String `tfsdk:"prompt"`
	Triggers          types.Map    `tfsdk:"triggers"`
	WaitForCompletion types.Bool   `tfsdk:"wait_for_completion"`
	SentAt            types.String `tfsdk:"sent_at"`
	jobStateModel
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

func (r *agentJobMessageResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_job_message"
}

func (r *agentJobMessageResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A follow-up message to an agent job: the agent takes the job up again with `prompt` " +
			"(\"Also add a changelog entry\"), and the job's pull request gets the new changes.\n\n" +
			"Creating the resource sends the message once (never again, even when the request may have reached " +
			"Mintlify before it failed) and, unless `wait_for_completion = false`, waits until the job is `completed`, " +
			"`archived` or `failed` again; the computed attributes are the job's as it stands after this message. " +
			"Changing `prompt`, `job_id`, `project_id` or `triggers` sends a new message. A refresh reads the job on " +
			"every plan: another message can take it up again. A sent message cannot be taken back: destroying the " +
			"resource removes it from state only (the provider logs it at `INFO`, with no warning). There is nothing " +
			"to import: the API does not list a job's messages.",
		Attributes: attributes(jobStateAttributes(" after this message"), map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "Identifies the message: `JOB_ID/SENT_AT`, the job's id and when the message was sent.",
				Computed:            true,
				PlanModifiers:       keep,
			},
			"job_id": schema.StringAttribute{
				MarkdownDescription: "The job to send the message to, such as `mintlify_agent_job.docs.id`.",
				Required:            true,
				Validators:          []validator.String{jobIDValidator},
				PlanModifiers:       replace,
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The job's project. Defaults to the provider's `project_id`.",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.String{projectIDValidator},
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace(), stringplanmodifier.UseStateForUnknown()},
			},
			"prompt": schema.StringAttribute{
				MarkdownDescription: "The follow-up instruction. Changing it sends a new message.",
				Required:            true,
				Validators:          []validator.String{promptValidator},
				PlanModifiers:       replace,
			},
			"triggers": triggersAttribute("sends a new message", func(_ context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
				resp.RequiresReplace = triggersChanged(req.StateValue, req.PlanValue)
			}),
			"wait_for_completion": waitAttribute("the job", jobEnds),
			"sent_at": schema.StringAttribute{
				MarkdownDescription: "When the message was sent (RFC 3339).",
				Computed:            true,
				PlanModifiers:       keep,
			},
		}),
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock(ctx, "the job's new round of work")},
	}
}

func (r *agentJobMessageResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *agentJobMessageResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	planProjectID(ctx, r.data, req, resp)
}

func (r *agentJobMessageResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan agentJobMessageModel
	if !readModel(ctx, r.data, req.Plan, &plan, &resp.Diagnostics) {
		return
	}
	projectID, jobID := plan.ProjectID.ValueString(), plan.JobID.ValueString()
	w := jobWork(r.data, projectID, func(ctx context.Context) (*sdk.AgentJob, error) {
		sentAt := r.data.now().UTC().Format(time.RFC3339Nano)
		plan.ID, plan.SentAt = types.StringValue(jobID+"/"+sentAt), types.StringValue(sentAt)
		return r.data.client.AgentJobs.SendMessage(ctx, projectID, jobID, plan.Prompt.ValueString())
	})
	w.words = messageWords
	w.record = func(job *sdk.AgentJob) {
		plan.applyJob(job)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
	runAsConfigured(ctx, w, plan.WaitForCompletion, plan.Timeouts, &resp.Diagnostics)
}

// Read refreshes the job's attributes as they stand now.
func (r *agentJobMessageResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state agentJobMessageModel
	if !readModel(ctx, r.data, req.State, &state, &resp.Diagnostics) || agentJobMessageReadIDs.unreadable(ctx, req, resp) {
		return
	}
	ctx = r.data.logContext(ctx)
	job, err := r.data.client.AgentJobs.Get(ctx, state.ProjectID.ValueString(), state.JobID.ValueString())
	switch {
	case sdk.IsNotFound(err):
		vanishedJob(&resp.Diagnostics, "mintlify_agent_job_message", state.JobID.ValueString(), state.ProjectID.ValueString())
		return
	case err != nil:
		addAPIError(&resp.Diagnostics, "Could not read the agent job", err)
		return
	}
	notes := newProblemNotes("agent job", state.JobID.ValueString())
	notes.add(job.Problems)
	notes.warn(&resp.Diagnostics)
	state.applyJob(job)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// Update records wait_for_completion or timeouts: every other input sends
// a new message.
func (r *agentJobMessageResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	recordPlan(ctx, &agentJobMessageModel{}, nil, req, resp) // a message has no identity
}

func (r *agentJobMessageResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state agentJobMessageModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	removedFromStateOnly(ctx, "Message",
		fmt.Sprintf("A sent message cannot be taken back: the message to agent job %s in project %q, and the work it started, remain at Mintlify.",
			state.JobID.ValueString(), state.ProjectID.ValueString()),
		map[string]any{"job_id": state.JobID.ValueString(), "id": state.ID.ValueString()})
}
