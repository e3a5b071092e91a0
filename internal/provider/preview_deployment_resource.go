package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewPreviewDeploymentResource is the mintlify_preview_deployment resource.
func NewPreviewDeploymentResource() resource.Resource { return &previewDeploymentResource{} }

// previewDeploymentResource is the preview of one branch. The API
// redeploys a branch's preview under the same URL with a new status id:
// a change of triggers is therefore an update in place (same preview_url,
// new id), not a replacement, which would plan a destroy the API cannot
// do and hide the URL until apply.
type previewDeploymentResource struct {
	data *providerData
	createTimeoutCheck
}

// previewDeploymentModel is a deployment's model and what a preview adds.
type previewDeploymentModel struct {
	deploymentModel
	Branch     types.String `tfsdk:"branch"`
	PreviewURL types.String `tfsdk:"preview_url"`
}

func (r *previewDeploymentResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_preview_deployment"
	// The identity holds the status id of the latest deployment (the only
	// thing the API reads a preview by), which a redeploy changes.
	resp.ResourceBehavior.MutableIdentity = true
}

func (r *previewDeploymentResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = deploymentIdentity.schema()
}

func (r *previewDeploymentResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The preview deployment of a branch: Mintlify builds `branch` and serves it at " +
			"`preview_url`, for review before the branch merges. Previews must be on the organization's plan (the " +
			"API answers 403 otherwise).\n\n" +
			"Creating the resource queues the preview and, unless `wait_for_completion = false`, waits until it is " +
			deploymentEnds + " (see `timeouts`). The status id is saved in state as soon as the API returns it. A " +
			"`failure` is an error that quotes the last log lines and leaves the resource tainted.\n\n" +
			"**Redeploys are updates in place.** When `triggers` change (the branch's head commit, say), the same " +
			"branch is deployed again: the API keeps the preview's URL and gives the new deployment a new status id, " +
			"so the plan shows an update: `preview_url` stays known and unchanged, and so do `subdomain`, `commit_ref` " +
			"and `source` when state holds a deployment of that branch triggered through the API; `id`, `status`, " +
			"`summary`, `commit_sha`, `commit_message`, `created_at` and `ended_at` (the new deployment's own) are " +
			"known after apply. A redeploy that fails, times out or is interrupted keeps the old triggers in state, " +
			"so the next apply tries it again; any other redeploy the API accepted keeps the new ones (one not waited " +
			"for, or whose answer was odd, such as a new URL, which is saved and said as an error), so it is never " +
			"sent twice. Changing `branch` (or `project_id`) replaces the resource with the other branch's " +
			"preview.\n\n" +
			"A refresh reads the status of the preview's latest deployment until it is `success` or `failure`. A " +
			"finished deployment is a record that never changes, so from then on plans and refreshes " +
			"(`-refresh-only` included) send no request for it, until the next redeploy; an import reads it once.\n\n" +
			"The API cannot delete a preview: destroying the resource only removes it from state (the provider logs " +
			"it at `INFO`, with no warning). Previews are rate limited to " + sdk.PreviewLimit.String() + "; a " +
			"rate-limited trigger is sent again once the limit frees up, never twice.",
		Attributes: attributes(deploymentStateAttributes(), map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The status id of the preview's latest deployment: it changes with each redeploy. " +
					"`mintlify_deployment_status` reads it; `terraform import` takes it.",
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "Project of the preview. Defaults to the provider's `project_id`. Changing it " +
					"replaces the resource.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{projectIDValidator},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"branch": schema.StringAttribute{
				MarkdownDescription: "The Git branch to preview, such as `feature/new-quickstart` (a pull request's " +
					"head branch). It must be a valid branch name (`git check-ref-format --branch`). Changing it " +
					"replaces the resource with the other branch's preview; after an import the configured branch " +
					"is adopted without a deployment.",
				Required:   true,
				Validators: []validator.String{branchValidator},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(branchChangeReplaces,
					"Changing the branch previews another branch, except after an import, where the configured branch is adopted.",
					"Changing the branch previews another branch, except after an import, where the configured branch is adopted.")},
			},
			"triggers": schema.MapAttribute{
				MarkdownDescription: "Arbitrary values (a commit SHA, a pull request's head) that, when any of them " +
					"changes (a key added or removed included), redeploy the branch's preview in place: same " +
					"`preview_url`, new `id`. Unchanged values plan nothing, apply after apply. An empty map and no " +
					"triggers both mean none. After an import, the first triggers are adopted without a deployment.",
				ElementType: types.StringType,
				Optional:    true,
			},
			"wait_for_completion": waitAttribute("the preview", deploymentEnds),
			"preview_url": schema.StringAttribute{
				MarkdownDescription: "Where the preview is served. It stays the same across redeploys of the branch. " +
					"Null after an import (the API gives the URL only when a preview is triggered) until the next " +
					"redeploy, whose plan shows it as known after apply.",
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		}),
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock(ctx, "the preview")},
	}
}

// branchChangeReplaces decides, for a changed branch, whether the preview
// is replaced. An imported preview has no branch in state (the status
// does not say it): the configured branch is adopted in place.
func branchChangeReplaces(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !req.StateValue.IsNull()
}

func (r *previewDeploymentResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// ModifyPlan resolves the project and, when the triggers change, plans the
// redeploy: a new id and the new deployment's own facts known after
// apply, and the rest as they are (redeployChanges): the same preview_url,
// subdomain and commit_ref.
func (r *previewDeploymentResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	planProjectID(ctx, r.data, req, resp)
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() || resp.Diagnostics.HasError() {
		return // create or destroy
	}
	if !r.redeploys(ctx, req.State.GetAttribute, resp.Plan.GetAttribute, req.Private, &resp.Diagnostics) {
		return
	}
	var prior previewDeploymentModel
	var branch types.String
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root("branch"), &branch)...)
	if resp.Diagnostics.HasError() {
		return
	}
	changes := prior.redeployChanges(branch.ValueString())
	if prior.PreviewURL.IsNull() {
		// Imported: the API gives the URL only in a trigger's answer.
		changes = append(changes, "preview_url")
	}
	planChanges(ctx, &resp.Plan, changes, &resp.Diagnostics)
}

// redeploys reports whether an update deploys the branch again: its
// triggers changed, and it is not the first apply after an import.
func (r *previewDeploymentResource) redeploys(ctx context.Context, state, plan func(context.Context, path.Path, any) diag.Diagnostics, private privateState, diags *diag.Diagnostics) bool {
	var before, after types.Map
	diags.Append(state(ctx, path.Root("triggers"), &before)...)
	diags.Append(plan(ctx, path.Root("triggers"), &after)...)
	return !diags.HasError() && !wasImported(ctx, private, diags) && triggersChanged(before, after)
}

func (r *previewDeploymentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan previewDeploymentModel
	if !readModel(ctx, r.data, req.Plan, &plan, &resp.Diagnostics) {
		return
	}
	defer func() { deploymentIdentity.fromState(ctx, resp.State, resp.Identity, &resp.Diagnostics) }()
	r.deploy(ctx, &plan, nil, previewCreateWords, func(m *previewDeploymentModel) {
		resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	}, &resp.Diagnostics)
}

// deploy triggers the preview of plan's branch and follows it, saving the
// model (save) the moment the API answers and again when the wait ends.
// prior is the state before a redeploy (nil on create). It reports whether
// the deployment is to be tried again: it failed, or the wait for it timed
// out or was interrupted. An accepted deployment whose answers were merely
// odd (a new URL, facts the plan did not show) is not.
func (r *previewDeploymentResource) deploy(ctx context.Context, plan, prior *previewDeploymentModel, words workWords, save func(*previewDeploymentModel), diags *diag.Diagnostics) (again bool) {
	projectID, branch := plan.ProjectID.ValueString(), plan.Branch.ValueString()
	w := deployWork(r.data, "preview deployment", func(ctx context.Context) (*sdk.Deployment, error) {
		started, err := r.data.client.Deployments.Preview(ctx, projectID, branch)
		if err != nil {
			return nil, err
		}
		if started.PreviewURL != "" {
			if prior != nil && !prior.PreviewURL.IsNull() && prior.PreviewURL.ValueString() != started.PreviewURL {
				diags.AddError("The preview's URL changed",
					fmt.Sprintf("Mintlify redeployed the preview of branch %q under a new URL, %s (it was %s): the API "+
						"documents that a redeploy keeps the URL. The new URL is saved in state; anything that uses "+
						"preview_url picks it up on the next apply.", branch, sdk.DisplayLine(started.PreviewURL), sdk.DisplayLine(prior.PreviewURL.ValueString())))
			}
			plan.PreviewURL = types.StringValue(started.PreviewURL)
		} else if prior == nil || plan.PreviewURL.IsUnknown() {
			plan.PreviewURL = types.StringNull() // the problem is in the warning
		}
		return queued(projectID, started.StatusID, started.Problems), nil
	})
	w.words = words
	stopped := false
	w.stopped = func() { stopped = true }
	var contradicted []string // by the last answer recorded
	w.record = func(d *sdk.Deployment) {
		plan.ID = types.StringValue(d.ID)
		plan.applyDeployment(d)
		if prior != nil {
			contradicted = plan.keepAcrossRedeploy(prior.deploymentStateModel, branch)
		}
		save(plan)
	}
	d := runAsConfigured(ctx, w, plan.WaitForCompletion, plan.Timeouts, diags)
	again = d != nil && (stopped || d.Status == sdk.DeploymentFailure)
	if len(contradicted) > 0 {
		// Terraform refuses an apply whose result differs from what the
		// plan showed as known: say why, in words, instead of its "bug in
		// the provider".
		diags.AddError("The redeployed preview is not what the plan showed",
			fmt.Sprintf("Mintlify's answer about the redeploy of branch %q gives %s: a redeploy of the same branch was "+
				"expected to keep it, so the plan showed it unchanged. State holds the API's values; this error says only "+
				"that the plan did not show them.", branch, strings.Join(contradicted, ", ")))
	}
	return again
}

func (r *previewDeploymentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state previewDeploymentModel
	readDeploymentResource(ctx, r.data, "mintlify_preview_deployment", "preview deployment", &state, &state.deploymentModel, req, resp)
}

// Update redeploys the branch when its triggers changed; otherwise (new
// wait_for_completion or timeouts, or the configuration adopted after an
// import) it only records the configuration.
func (r *previewDeploymentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, prior previewDeploymentModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// Whatever state ends as: the identity follows its id (a redeploy's
	// new status id, or the prior one when the trigger failed).
	defer func() { deploymentIdentity.fromState(ctx, resp.State, resp.Identity, &resp.Diagnostics) }()
	if !r.redeploys(ctx, req.State.GetAttribute, req.Plan.GetAttribute, req.Private, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, importedKey, nil)...)
		return
	}
	// Until the API answers, state is what it was: a trigger that fails
	// changed nothing, and the next apply tries it again.
	resp.Diagnostics.Append(resp.State.Set(ctx, &prior)...)
	if !requireConfigured(r.data, &resp.Diagnostics) {
		return
	}
	again := r.deploy(ctx, &plan, &prior, previewRedeployWords, func(m *previewDeploymentModel) {
		resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	}, &resp.Diagnostics)
	if again {
		// The redeploy failed, timed out or was interrupted. An update
		// cannot be tainted: keeping the old triggers makes the next apply
		// redeploy, as a tainted create would. A redeploy the API accepted
		// and that was not waited for, or whose answers were only odd,
		// keeps the new triggers: the next apply must not send it again.
		plan.Triggers = prior.Triggers
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	}
}

func (r *previewDeploymentResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state previewDeploymentModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	where := ""
	if url := state.PreviewURL.ValueString(); url != "" {
		where = " at " + url
	}
	removedFromStateOnly(ctx, "Preview deployment",
		fmt.Sprintf("The Mintlify API cannot delete a preview deployment or undo one: the preview of branch %q of project %q "+
			"stays%s.", state.Branch.ValueString(), state.ProjectID.ValueString(), where),
		map[string]any{"status_id": state.ID.ValueString()})
}

// ImportState takes the status id of one of the preview's deployments, or
// (Terraform 1.12+) an identity; the branch is adopted from the
// configuration on the next apply.
func (r *previewDeploymentResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importStatusID(ctx, r.data, req, resp)
}

// What the preview resource says.
var (
	previewCreateWords = deploymentWords("preview deployment", "Could not deploy the preview", func(id string) string {
		return "Preview deployment " + id + " was queued and is saved in state (tainted, so the next apply deploys the " +
			"preview again; run `terraform untaint` to keep this one instead)."
	}, "It stays in state, tainted: the next apply deploys the preview again.")
	previewRedeployWords = deploymentWords("preview deployment", "Could not redeploy the preview", func(id string) string {
		return "Preview deployment " + id + " was queued and is saved in state, with the triggers it had before, so the " +
			"next apply redeploys the preview again."
	}, "The triggers keep their old values in state, so the next apply redeploys the preview again.")
)
