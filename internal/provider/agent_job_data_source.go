package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

var _ datasource.DataSourceWithConfigure = (*agentJobDataSource)(nil)

// NewAgentJobDataSource is the mintlify_agent_job data source.
func NewAgentJobDataSource() datasource.DataSource { return &agentJobDataSource{} }

type agentJobDataSource struct {
	data *providerData
}

type agentJobDataModel struct {
	ID        types.String `tfsdk:"id"`
	ProjectID types.String `tfsdk:"project_id"`
	jobStateModel
}

func (d *agentJobDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_job"
}

func (d *agentJobDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
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

func (d *agentJobDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *agentJobDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m agentJobDataModel
	ctx, ok := beginRead(ctx, d.data, req, resp, &m, &m.ProjectID)
	if !ok {
		return
	}
	projectID := m.ProjectID.ValueString()
	jobID := m.ID.ValueString()
	job, err := d.data.client.AgentJobs.Get(ctx, projectID, jobID)
	switch {
	case sdk.IsNotFound(err):
		resp.Diagnostics.AddError("Agent job not found",
			fmt.Sprintf("Mintlify has no agent job %q in project %q (404). Check id and project_id (the provider's "+
				"project_id when it is not set here): the project must exist, belong to the key's organization, and "+
				"hold the job.\n\n%s", jobID, projectID, listedIDAssumption))
		return
	case err != nil:
		addReadError(&resp.Diagnostics, "agent job "+jobID, err)
		return
	}
	notes := newProblemNotes("agent job", jobID)
	notes.add(job.Problems)
	notes.warn(&resp.Diagnostics)
	resp.Diagnostics.Append(m.applyJob(job)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
