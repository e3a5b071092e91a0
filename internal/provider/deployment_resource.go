package provider

import (
	"context"
	"fmt"

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

// NewDeploymentResource is the mintlify_deployment resource.
func NewDeploymentResource() resource.Resource { return &deploymentResource{} }

type deploymentResource struct {
	data *providerData
	createTimeoutCheck
}

// deploymentModel is the deployment resource's model, and the part of the
// preview's that both resources read the same way (readDeploymentResource).
type deploymentModel struct {
	ID                types.String `tfsdk:"id"`
	ProjectID         types.String `tfsdk:"project_id"`
	Triggers          types.Map    `tfsdk:"triggers"`
	WaitForCompletion types.Bool   `tfsdk:"wait_for_completion"`
	deploymentStateModel
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

func (r *deploymentResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_deployment"
}

func (r *deploymentResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A deployment of the project's documentation: Mintlify builds the project's configured " +
			"deployment branch and publishes it.\n\n" +
			"Creating the resource queues the deployment and, unless `wait_for_completion = false`, waits until it is " +
			deploymentEnds + " (see `timeouts`). The status id is saved in state as soon as the API returns it, so a " +
			"failure, a timeout or an interrupt never loses it. A `failure` is an error that quotes the last log lines " +
			"and leaves the resource tainted: the next apply deploys again.\n\n" +
			"A deployment runs again only when you say so: when `triggers` (or `project_id`) change, or with " +
			"`terraform apply -replace`. Set `triggers` to what should publish the docs, such as the commit of the " +
			"docs repository or a release tag.\n\n" +
			"A refresh reads the deployment's status until it is `success` or `failure`. A finished deployment is a " +
			"record that never changes, so from then on plans and refreshes (`-refresh-only` included) send no " +
			"request for it; an import reads it once.\n\n" +
			"A deployment cannot be undone or deleted through the API: destroying the resource only removes it from " +
			"state (the published docs stay as they are; the provider logs it at `INFO`, with no warning), and a " +
			"deployment that vanishes from the API before it finishes stays in state. Deployments share a rate " +
			"limit of " + sdk.DeploymentLimit.Of("requests") + " with automation triggers; a rate-limited trigger " +
			"is sent again once the limit frees up, never twice.",
		Attributes: attributes(deploymentStateAttributes(), map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "The deployment's status id: what `mintlify_deployment_status` reads and " +
					"`terraform import` takes.",
				Computed:      true,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "Project to deploy. Defaults to the provider's `project_id`. Changing it deploys " +
					"the other project.",
				Optional:      true,
				Computed:      true,
				Validators:    []validator.String{projectIDValidator},
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"triggers":            triggersAttribute("deploys again (after an import, the first triggers are adopted instead)", triggersChangeDeploysAgain),
			"wait_for_completion": waitAttribute("the deployment", deploymentEnds),
		}),
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock(ctx, "the deployment")},
	}
}

// triggersChangeDeploysAgain replaces the deployment when its triggers
// change, except on the first apply after an import, which adopts them:
// importing never deploys.
func triggersChangeDeploysAgain(ctx context.Context, req planmodifier.MapRequest, resp *mapplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !wasImported(ctx, req.Private, &resp.Diagnostics) && triggersChanged(req.StateValue, req.PlanValue)
}

func (r *deploymentResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = deploymentIdentity.schema()
}

func (r *deploymentResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (r *deploymentResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	planProjectID(ctx, r.data, req, resp)
}

func (r *deploymentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan deploymentModel
	if !readModel(ctx, r.data, req.Plan, &plan, &resp.Diagnostics) {
		return
	}
	projectID := plan.ProjectID.ValueString()
	w := deployWork(r.data, "deployment", func(ctx context.Context) (*sdk.Deployment, error) {
		started, err := r.data.client.Deployments.Trigger(ctx, projectID)
		if err != nil {
			return nil, err
		}
		return queued(projectID, started.StatusID, nil), nil
	})
	w.words = deploymentWords("deployment", "Could not deploy", func(id string) string {
		return "Deployment " + id + " was queued and is saved in state (tainted, so the next apply deploys again; run " +
			"`terraform untaint` to keep this one instead)."
	}, "It stays in state, tainted: the next apply deploys again.")
	w.record = func(d *sdk.Deployment) {
		plan.ID = types.StringValue(d.ID)
		plan.applyDeployment(d)
		saveState(ctx, &plan, &resp.State, deploymentIdentity, resp.Identity, &resp.Diagnostics)
	}
	runAsConfigured(ctx, w, plan.WaitForCompletion, plan.Timeouts, &resp.Diagnostics)
}

func (r *deploymentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state deploymentModel
	readDeploymentResource(ctx, r.data, "mintlify_deployment", "deployment", &state, &state, req, resp)
}

// Update only records the configuration: a change of triggers or project
// replaces the deployment, so what reaches here is triggers adopted after
// an import, wait_for_completion, or new timeouts.
func (r *deploymentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if recordPlan(ctx, &deploymentModel{}, deploymentIdentity, req, resp) {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, importedKey, nil)...)
	}
}

func (r *deploymentResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state deploymentModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	removedFromStateOnly(ctx, "Deployment",
		fmt.Sprintf("A deployment cannot be undone or deleted through the Mintlify API: removing deployment %s of project %q "+
			"from state changes nothing that is published.", state.ID.ValueString(), state.ProjectID.ValueString()),
		map[string]any{"status_id": state.ID.ValueString()})
}

// ImportState takes the deployment's status id, or (Terraform 1.12+) an
// identity; the project comes from the API's answer.
func (r *deploymentResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importStatusID(ctx, r.data, req, resp)
}
