package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewAgentJobsDataSource is the mintlify_agent_jobs data source.
func NewAgentJobsDataSource() datasource.DataSource {
	return &describedDataSource[agentJobsModel, *agentJobsModel]{}
}

type agentJobsModel struct {
	ID types.String `tfsdk:"id"`
	jobFilterModel
	MaxResults types.Number `tfsdk:"max_results"`
	Jobs       types.List   `tfsdk:"jobs"`
}

func (*agentJobsModel) typeName() string { return "_agent_jobs" }

func (*agentJobsModel) schema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "The project's agent jobs, however they were started (the dashboard, another pipeline, " +
			"Terraform), newest first: for dashboards, and for finding jobs to adopt on Terraform versions before " +
			"1.14 (which have no `terraform query`). One job by id, with its v2 details: the `mintlify_agent_job` " +
			"data source.\n\n" + listingNote + "\n\nTerraform reads data sources on every plan: set `max_results` " +
			"to read no more pages than the jobs you need.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "Identifies the query: project and filters.",
				Computed:            true,
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: filterProjectDesc, Optional: true, Computed: true,
				Validators: []validator.String{projectIDValidator},
			},
			"statuses": schema.ListAttribute{
				MarkdownDescription: filterStatusDesc, Optional: true, ElementType: types.StringType,
				Validators: statusesValidators,
			},
			"created_after":  schema.StringAttribute{MarkdownDescription: filterAfterDesc, Optional: true, Validators: timeValidators},
			"created_before": schema.StringAttribute{MarkdownDescription: filterBeforeDesc, Optional: true, Validators: timeValidators},
			"max_results": schema.NumberAttribute{
				MarkdownDescription: "Keep at most this many jobs (the newest that pass the filters), and read no " +
					"more pages than they need. Default: all of them.",
				Optional:   true,
				Validators: []validator.Number{wholeNumber{1, 0}},
			},
			"jobs": schema.ListNestedAttribute{
				MarkdownDescription: "The jobs that pass the filters, in the listing's order (newest first).",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":              computedString("The job's id (the listing's session id; see above)."),
					"status":          computedString("`active`, `completed`, `archived` or `failed`, from the listing's `halt_reason` (see above); null for a reason the provider does not know."),
					"halt_reason":     computedString("The listing's own word for where the job is: `processing`, `completed`, `error`, `github_missconfigured` (sic) or `interrupted`."),
					"halted":          schema.BoolAttribute{MarkdownDescription: "Whether the job has stopped (the listing's `haulted`, sic), whatever its `halt_reason`.", Computed: true},
					"title":           computedString("A generated title summarizing the job."),
					"message_to_user": computedString("The agent's message about the outcome; null when none."),
					"branch":          computedString("The git branch the agent works on; null when none."),
					"pr_link":         computedString("The pull request the job opened; null when none (or not an http(s) URL)."),
					"subdomain":       computedString("The documentation site the job belongs to."),
					"user_id":         computedString("Who started the job, when the API knows; else null."),
					"created_at":      computedString("When the job was created (RFC 3339); null when the listing did not say."),
					"todos": schema.ListNestedAttribute{
						MarkdownDescription: "The agent's task list, in the listing's order; empty when it has none.",
						Computed:            true,
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"id":       computedString("The task's id."),
							"content":  computedString("What the task is."),
							"status":   computedString("`pending`, `in_progress`, `completed` or `cancelled`; null when none."), //nolint:misspell // the API's spelling
							"priority": computedString("`high`, `medium` or `low`; null when none."),
						}},
					},
				}},
			},
		},
	}
}

func (*agentJobsModel) configValidators() []datasource.ConfigValidator {
	return []datasource.ConfigValidator{createdRange{}}
}

func (m *agentJobsModel) begin(ctx context.Context, data *providerData, req datasource.ReadRequest, resp *datasource.ReadResponse) (context.Context, bool) {
	return beginRead(ctx, data, req, resp, m, &m.ProjectID)
}

func (m *agentJobsModel) read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool {
	projectID := m.ProjectID.ValueString()
	f := m.filter(ctx, diags)
	if diags.HasError() {
		return false
	}
	limit := numberValue(m.MaxResults)
	elem := elemType(typeOf(m.schema().Attributes, "jobs"))
	var rows []attr.Value
	var notes listingNotes
	err := listJobs(ctx, data, projectID, f, &notes, func(s *sdk.AgentSession) bool {
		rows = append(rows, listedJob(elem, s))
		return limit == 0 || len(rows) < limit
	})
	if err != nil {
		addReadError(diags, "the agent jobs", err)
		return false
	}
	notes.warn(diags)
	tflog.Debug(ctx, "listed agent jobs", map[string]any{"project_id": projectID, "kept": len(rows)})
	statuses := make([]string, len(f.statuses))
	for i, s := range f.statuses {
		statuses[i] = string(s)
	}
	m.ID = types.StringValue(queryID(projectID, map[string]string{"statuses": strings.Join(statuses, ","),
		"created_after": f.rawAfter, "created_before": f.rawBefore, "max_results": fmt.Sprint(limit)}))
	m.Jobs = listOf(elem, rows)
	return true
}
