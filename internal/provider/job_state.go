package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
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

// jobEnds names the statuses a job's wait ends on, for descriptions.
const jobEnds = "`completed`, `archived` or `failed`"

// jobSourceType is the type of a job's source, the schema's: both
// resources', the mintlify_agent_job data source's and the list
// resource's results.
var jobSourceType = typeOf(jobStateAttributes(""), "source")

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
		// An object attribute, not a nested one: Terraform 1.5 and 1.6
		// crash generating configuration (-generate-config-out) for a
		// resource with a computed nested attribute (fixed in 1.7.0).
		"source": schema.ObjectAttribute{
			MarkdownDescription: "The repository the job works on: `repository`, its URL as the API gives it, and " +
				"`ref`, the branch the agent works on (null when the API gives none).",
			Computed:       true,
			AttributeTypes: map[string]attr.Type{"repository": types.StringType, "ref": types.StringType},
			PlanModifiers:  []planmodifier.Object{objectplanmodifier.UseStateForUnknown()},
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
func (m *jobStateModel) applyJob(job *sdk.AgentJob) {
	m.Status = types.StringValue(string(job.Status))
	m.Model = types.StringValue(job.Model)
	m.PRLink = types.StringPointerValue(job.PRLink)
	m.CreatedAt = timeValue(&job.CreatedAt)
	m.ArchivedAt = timeValue(job.ArchivedAt)
	m.Source = flattenObject(jobSourceType, job.Source)
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
