package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

var (
	_ list.ListResourceWithConfigure        = (*agentJobListResource)(nil)
	_ list.ListResourceWithConfigValidators = (*agentJobListResource)(nil)
)

// NewAgentJobListResource is the mintlify_agent_job list resource, for
// terraform query (Terraform 1.14+).
func NewAgentJobListResource() list.ListResource { return &agentJobListResource{} }

type agentJobListResource struct {
	data *providerData
}

func (r *agentJobListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_job"
}

func (r *agentJobListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds the project's agent jobs, however they were started (the dashboard, another " +
			"pipeline, Terraform), for `terraform query` (Terraform 1.14+). Each result carries the job's identity " +
			"(`project_id`, `id`) and a display name (title, status, day created); " +
			"`terraform query -generate-config-out=jobs.tf` writes an `import` block and a resource block for each, " +
			"which then plan as imports only: no job starts (the generated resource has no `prompt`, which the API " +
			"does not return; see the resource's `prompt`).\n\n" +
			"With `include_resource = true` (implied by `-generate-config-out`), each result also carries the job as " +
			"the resource reads it, from one v2 read per result: a query of M results then costs M more requests. A " +
			"listed job that v2 does not know (404) is still listed, with what the listing says and a warning.\n\n" +
			listingNote,
		Attributes: map[string]schema.Attribute{
			"project_id": schema.StringAttribute{
				MarkdownDescription: filterProjectDesc, Optional: true,
				Validators: []validator.String{projectIDValidator},
			},
			"statuses": schema.ListAttribute{
				MarkdownDescription: filterStatusDesc, Optional: true, ElementType: types.StringType,
				Validators: statusesValidators,
			},
			"created_after":  schema.StringAttribute{MarkdownDescription: filterAfterDesc, Optional: true, Validators: timeValidators},
			"created_before": schema.StringAttribute{MarkdownDescription: filterBeforeDesc, Optional: true, Validators: timeValidators},
		},
	}
}

func (r *agentJobListResource) ListResourceConfigValidators(context.Context) []list.ConfigValidator {
	return []list.ConfigValidator{createdRange{}}
}

func (r *agentJobListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// List streams the project's jobs that pass the filters, in the listing's
// order (newest first), up to Terraform's limit: the listing stops as soon
// as the limit is reached.
func (r *agentJobListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	if !requireConfigured(r.data, &diags) {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	var m jobFilterModel
	diags.Append(req.Config.Get(ctx, &m)...)
	projectID, _ := r.data.projectOrDefault(m.ProjectID, path.Root("project_id"), &diags)
	f := m.filter(ctx, &diags)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	ctx = r.data.logContext(ctx)
	stream.Results = func(push func(list.ListResult) bool) {
		var notes listingNotes
		emitted, stopped := int64(0), false
		err := listJobs(ctx, r.data, projectID, f, &notes, func(s *sdk.AgentSession) bool {
			result, fatal := r.result(ctx, req, projectID, s)
			emitted++
			if !push(result) || fatal {
				stopped = true
				return false
			}
			return req.Limit <= 0 || emitted < req.Limit
		})
		if stopped {
			return
		}
		var end diag.Diagnostics
		if err != nil {
			addReadError(&end, "the agent jobs", err)
		}
		notes.warn(&end)
		if len(end) > 0 {
			push(list.ListResult{Diagnostics: end})
		}
	}
}

// result is one listed job: its identity and display name, and with
// include_resource the job as the resource reads it (one v2 read). fatal
// says the read failed for another reason than a 404: the query stops.
func (r *agentJobListResource) result(ctx context.Context, req list.ListRequest, projectID string, s *sdk.AgentSession) (list.ListResult, bool) {
	result := req.NewListResult(ctx)
	result.DisplayName = jobDisplayName(s)
	agentJobIdentity.set(ctx, result.Identity, map[string]string{"project_id": projectID, "id": s.ID}, &result.Diagnostics)
	if !req.IncludeResource {
		return result, false
	}
	m := agentJobModel{
		ID: types.StringValue(s.ID), ProjectID: types.StringValue(projectID),
		Prompt: types.StringNull(), Triggers: types.MapNull(types.StringType), WaitForCompletion: types.BoolValue(true),
	}
	// No timeouts: null, of the resource schema's type, as the new result holds them.
	result.Diagnostics.Append(result.Resource.GetAttribute(ctx, path.Root("timeouts"), &m.Timeouts)...)
	job, err := r.data.client.AgentJobs.Get(ctx, projectID, s.ID)
	switch {
	case sdk.IsNotFound(err):
		// The listing knows a job v2 does not: keep what the listing says.
		result.Diagnostics.AddWarning("Listed agent job not readable through v2",
			fmt.Sprintf("Agent job %s in project %q is in Mintlify's job listing, but the v2 API answers 404 for it: the "+
				"result holds what the listing says (status, pr_link, created_at, branch as source.ref), and importing it "+
				"will fail. %s", sdk.DisplayLine(s.ID), projectID, listedIDAssumption))
		m.jobStateModel = listedJobState(s)
	case err != nil:
		addAPIError(&result.Diagnostics, "Could not read agent job "+sdk.DisplayLine(s.ID), err)
		return result, true
	default:
		notes := newProblemNotes("agent job", s.ID)
		notes.add(job.Problems)
		notes.warn(&result.Diagnostics)
		m.applyJob(job)
	}
	result.Diagnostics.Append(result.Resource.Set(ctx, &m)...)
	return result, false
}

// listedJobState is what the listing says of a job, in the resource's
// attributes: its v2 status as the listing's words map to it, and no
// model, repository or archive time (the listing has none).
func listedJobState(s *sdk.AgentSession) jobStateModel {
	src := flattenObject(jobSourceType, struct{ Repository, Ref *string }{nil, s.Branch})
	return jobStateModel{
		Status: stringOrNull(string(s.Status())), Source: src, Model: types.StringNull(),
		PRLink: types.StringPointerValue(s.PRLink), CreatedAt: timeValue(&s.CreatedAt), ArchivedAt: types.StringNull(),
	}
}
