package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewPreviewDeploymentAction is the mintlify_preview_deployment action: it
// deploys (or redeploys) the preview of a branch.
func NewPreviewDeploymentAction() action.Action {
	return &previewDeploymentAction{waitingActionBase{actionBase{typeName: "_preview_deployment"}}}
}

type previewDeploymentAction struct {
	waitingActionBase
}

type previewActionModel struct {
	Branch types.String `tfsdk:"branch"`
	deployActionModel
}

func (a *previewDeploymentAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Deploys the preview of a branch, or redeploys it when the branch has one (under the same " +
			"URL). The action reports the status id and the preview's URL at once, each change of status while it " +
			"waits, and the outcome; a `failure` fails the action, quoting the last log lines. Previews must be on " +
			"the organization's plan. The trigger is never sent twice: a rate-limited one (" +
			sdk.PreviewLimit.String() + ") is sent again once the limit frees up.\n\n" + actionNote("preview"),
		Attributes: attributes(deployActionAttributes("the preview"), map[string]schema.Attribute{
			"branch": requiredActionString("The Git branch to preview, such as `feature/new-quickstart`.", branchValidator),
		}),
	}
}

func (a *previewDeploymentAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m previewActionModel
	projectID, ok := a.invokeConfig(ctx, req, resp, &m, &m.ProjectID)
	if !ok {
		return
	}
	branch := m.Branch.ValueString()
	url := ""
	w := deployWork(a.data, "preview deployment", func(ctx context.Context) (*sdk.Deployment, error) {
		started, err := a.data.client.Deployments.Preview(ctx, projectID, branch)
		if err != nil {
			return nil, err
		}
		url = started.PreviewURL
		return queued(projectID, started.StatusID, started.Problems), nil
	})
	first := func(d *sdk.Deployment) string {
		return fmt.Sprintf("Preview deployment %s of branch %q of project %q queued%s.", d.ID, branch, projectID, at(url))
	}
	if d := invokeWork(ctx, resp, m.actionWaitModel, w, actionDeployWords("preview deployment", "Could not deploy the preview",
		"Invoke the action again to redeploy the preview."), first); d != nil && d.Status == sdk.DeploymentSuccess {
		progress(resp, "The preview of branch %q is live%s%s.", branch, at(url), summaryOf(d))
	}
}

// at says where a preview is: " at URL", or nothing when the API gave none.
func at(url string) string {
	if url == "" {
		return ""
	}
	return " at " + sdk.DisplayLine(url)
}
