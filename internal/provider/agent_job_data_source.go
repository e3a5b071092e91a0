package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewAgentJobDataSource is the mintlify_agent_job data source.
func NewAgentJobDataSource() datasource.DataSource {
	return &describedDataSource[agentJobDataModel, *agentJobDataModel]{}
}

type agentJobDataModel struct {
	ID        types.String `tfsdk:"id"`
	ProjectID types.String `tfsdk:"project_id"`
	jobStateModel
}

func (*agentJobDataModel) typeName() string { return "_agent_job" }

func (*agentJobDataModel) schema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "One agent job, by id, as the v2 API reports it now: its status, pull request and " +
			"more, for gating a pipeline on a job started elsewhere, or for dashboards. It reads the job on every " +
			"plan (one request) and changes nothing. A job the project does not have is an error. To find job ids, " +
			"use the `mintlify_agent_jobs` data source or `terraform query`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The job's id.",
				Required:            true,
				Validators:          []validator.String{jobIDValidator},
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "The job's project. Defaults to the provider's `project_id`.",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.String{projectIDValidator},
			},
			"status": computedString("The job's status: `active`, `completed`, `archived` or `failed`."),
			"source": schema.SingleNestedAttribute{
				MarkdownDescription: "The repository the job works on.",
				Computed:            true,
				Attributes: map[string]schema.Attribute{
					"repository": computedString("The repository's URL, as the API gives it."),
					"ref":        computedString("The branch the agent works on; null when the API gives none."),
				},
			},
			"model":       computedString("The AI model that runs the job."),
			"pr_link":     computedString("URL of the pull request the agent opened. Null while the job is active, when it changed no files, and when the API's link is not an absolute http(s) URL (with a warning)."),
			"created_at":  computedString("When the job was created (RFC 3339)."),
			"archived_at": computedString("When the job was archived (RFC 3339); null unless it is archived."),
		},
	}
}

func (m *agentJobDataModel) begin(ctx context.Context, data *providerData, req datasource.ReadRequest, resp *datasource.ReadResponse) (context.Context, bool) {
	return beginRead(ctx, data, req, resp, m, &m.ProjectID)
}

func (m *agentJobDataModel) read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool {
	projectID := m.ProjectID.ValueString()
	jobID := m.ID.ValueString()
	job, err := data.client.AgentJobs.Get(ctx, projectID, jobID)
	switch {
	case sdk.IsNotFound(err):
		diags.AddError("Agent job not found",
			fmt.Sprintf("Mintlify has no agent job %q in project %q (404). Check id and project_id (the provider's "+
				"project_id when it is not set here): the project must exist, belong to the key's organization, and "+
				"hold the job.\n\n%s", jobID, projectID, listedIDAssumption))
		return false
	case err != nil:
		addReadError(diags, "agent job "+jobID, err)
		return false
	}
	notes := newProblemNotes("agent job", jobID)
	notes.add(job.Problems)
	notes.warn(diags)
	m.applyJob(job)
	return true
}
