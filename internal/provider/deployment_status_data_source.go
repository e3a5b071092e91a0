package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewDeploymentStatusDataSource is the mintlify_deployment_status data source.
func NewDeploymentStatusDataSource() datasource.DataSource {
	return &describedDataSource[deploymentStatusModel, *deploymentStatusModel]{}
}

type deploymentStatusModel struct {
	StatusID        types.String `tfsdk:"status_id"`
	ID              types.String `tfsdk:"id"`
	ProjectID       types.String `tfsdk:"project_id"`
	Status          types.String `tfsdk:"status"`
	Summary         types.String `tfsdk:"summary"`
	Logs            types.List   `tfsdk:"logs"`
	Subdomain       types.String `tfsdk:"subdomain"`
	Screenshot      types.String `tfsdk:"screenshot"`
	ScreenshotLight types.String `tfsdk:"screenshot_light"`
	ScreenshotDark  types.String `tfsdk:"screenshot_dark"`
	Author          types.Object `tfsdk:"author"`
	Commit          types.Object `tfsdk:"commit"`
	Source          types.String `tfsdk:"source"`
	CreatedAt       types.String `tfsdk:"created_at"`
	EndedAt         types.String `tfsdk:"ended_at"`
}

func (*deploymentStatusModel) typeName() string { return "_deployment_status" }

func (*deploymentStatusModel) schema() schema.Schema {
	files := func(what string) schema.ListAttribute {
		return schema.ListAttribute{MarkdownDescription: what, ElementType: types.StringType, Computed: true}
	}
	return schema.Schema{
		MarkdownDescription: "The status of one deployment or preview deployment, by its status id: every field the " +
			"API reports, the log included. For pipelines whose deployment was started elsewhere (the dashboard, a " +
			"Git push, another workspace, the `mintlify_deployment` action), and for a `check` block that asserts " +
			"a deployment succeeded.\n\n" +
			"One request per read, and it does not wait: a deployment still `queued` or `in_progress` is read as it " +
			"is. Like every data source it is read on every plan, finished or not; a deployment this configuration " +
			"manages is better followed through its resource's attributes, which are not read again once it has " +
			"finished. No rate limit is published for this endpoint.",
		Attributes: map[string]schema.Attribute{
			"status_id": schema.StringAttribute{
				MarkdownDescription: "The status id a trigger returned: the `id` of a `mintlify_deployment` or " +
					"`mintlify_preview_deployment`, or the `statusId` of the API's answer.",
				Required:   true,
				Validators: []validator.String{statusIDValidator},
			},
			"id":         computedString("The status id, as the API returns it (`_id`)."),
			"project_id": computedString("The project deployed; null when the API gives none."),
			"status":     computedString("`queued`, `in_progress`, `success` or `failure`."),
			"summary":    computedString("The API's summary of how the deployment went; null when it gives none."),
			"logs": schema.ListAttribute{
				MarkdownDescription: "The deployment's log lines, oldest first; empty when there are none yet.",
				ElementType:         types.StringType,
				Computed:            true,
			},
			"subdomain":        computedString("The subdomain of the docs deployed; null when the API gives none."),
			"screenshot":       computedString("A screenshot of the docs, as the API gives it; null when none."),
			"screenshot_light": computedString("A screenshot of the docs in light mode; null when none."),
			"screenshot_dark":  computedString("A screenshot of the docs in dark mode; null when none."),
			"author": schema.SingleNestedAttribute{
				MarkdownDescription: "Who made the change deployed; null when the API gives no author.",
				Computed:            true,
				Attributes: map[string]schema.Attribute{
					"name":           computedString("The author's name."),
					"avatar_url":     computedString("URL of the author's avatar."),
					"github_user_id": computedInt("The author's GitHub user id; null when the API gives none."),
				},
			},
			"commit": schema.SingleNestedAttribute{
				MarkdownDescription: "The commit deployed; null when the API gives none.",
				Computed:            true,
				Attributes: map[string]schema.Attribute{
					"sha":     computedString("The commit's SHA."),
					"ref":     computedString("The commit's ref (branch)."),
					"message": computedString("The commit message."),
					"files_changed": schema.SingleNestedAttribute{
						MarkdownDescription: "The files the commit changed.",
						Computed:            true,
						Attributes: map[string]schema.Attribute{
							"added":    files("Files added."),
							"modified": files("Files modified."),
							"removed":  files("Files removed."),
						},
					},
				},
			},
			"source": computedString("What triggered the deployment: `api`, `internal`, `github-app-installation`, " +
				"`github`, `dashboard`, `gitlab` or `onboarding` (or a newer value the API adds)."),
			"created_at": computedString("When the deployment was queued (RFC 3339); null when the API gives none."),
			"ended_at":   computedString("When the deployment ended (RFC 3339); null until it does."),
		},
	}
}

// begin needs no project: the status is read by its id alone.
func (m *deploymentStatusModel) begin(ctx context.Context, data *providerData, req datasource.ReadRequest, resp *datasource.ReadResponse) (context.Context, bool) {
	return ctx, readConfig(ctx, data, req, resp, m, requireConfigured)
}

func (m *deploymentStatusModel) read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool {
	statusID := m.StatusID.ValueString()
	dep, err := data.client.Deployments.Status(data.logContext(ctx), statusID)
	if err != nil {
		diags.AddError("Could not read deployment status "+statusID, apiErrorDetailFor(err, "Check status_id: it must be "+
			"the status id a deployment or preview trigger returned, for a project of the key's organization."))
		return false
	}
	notes := newProblemNotes("deployment", statusID)
	notes.add(dep.Problems)
	notes.warn(diags)
	m.apply(dep)
	return true
}

// apply copies what the API says of the deployment into the model: ""
// (the API gave none) is null, but for the id; the author and the commit
// take their types from the schema.
func (m *deploymentStatusModel) apply(dep *sdk.Deployment) {
	attrs := m.schema().Attributes
	m.ID = types.StringValue(dep.ID)
	m.ProjectID = stringOrNull(dep.ProjectID)
	m.Status = stringOrNull(string(dep.Status))
	m.Summary = stringOrNull(dep.Summary)
	m.Logs = flattenList(elemType(typeOf(attrs, "logs")), dep.Logs)
	m.Subdomain = stringOrNull(dep.Subdomain)
	m.Screenshot, m.ScreenshotLight, m.ScreenshotDark = stringOrNull(dep.Screenshot), stringOrNull(dep.ScreenshotLight), stringOrNull(dep.ScreenshotDark)
	m.Source = stringOrNull(string(dep.Source))
	m.CreatedAt = timeValue(&dep.CreatedAt)
	m.EndedAt = timeValue(dep.EndedAt)
	m.Author = flattenObject(typeOf(attrs, "author"), dep.Author, emptyIsNull)
	m.Commit = flattenObject(typeOf(attrs, "commit"), dep.Commit, emptyIsNull)
}
