package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewDeploymentAction is the mintlify_deployment action: it publishes the
// docs.
func NewDeploymentAction() action.Action {
	return &deploymentAction{waitingActionBase{actionBase{typeName: "_deployment"}}}
}

type deploymentAction struct {
	waitingActionBase
}

// deployActionModel is what both deployment actions take.
type deployActionModel struct {
	ProjectID types.String `tfsdk:"project_id"`
	actionWaitModel
}

// deployActionAttributes are the attributes both deployment actions have;
// what names the deployment ("the deployment").
func deployActionAttributes(what string) map[string]schema.Attribute {
	return attributes(actionWaitAttributes("Whether the action waits until "+what+" is "+deploymentEnds+" (default "+
		"`true`), reporting each change of status. With `false` it ends as soon as the API has queued it, "+
		"reporting its status id.", what), map[string]schema.Attribute{
		"project_id": actionProjectAttribute("The project"),
	})
}

func (a *deploymentAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Publishes the project's documentation: queues a deployment of its configured deployment " +
			"branch. The action reports the status id at once, each change of status while it waits, and the " +
			"outcome; a `failure` fails the action, quoting the last log lines. The trigger is never sent twice: a " +
			"rate-limited one (" + sdk.DeploymentLimit.String() + ", shared with automation triggers) is sent again " +
			"once the limit frees up.\n\n" + actionNote("deployment"),
		Attributes: deployActionAttributes("the deployment"),
	}
}

func (a *deploymentAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	var m deployActionModel
	projectID, ok := a.invokeConfig(ctx, req, resp, &m, &m.ProjectID)
	if !ok {
		return
	}
	w := deployWork(a.data, "deployment", func(ctx context.Context) (*sdk.Deployment, error) {
		started, err := a.data.client.Deployments.Trigger(ctx, projectID)
		if err != nil {
			return nil, err
		}
		return queued(projectID, started.StatusID, nil), nil
	})
	d := invokeWork(ctx, resp, m.actionWaitModel, w, actionDeployWords("deployment", "Could not deploy", "Invoke the action again to deploy again."),
		func(d *sdk.Deployment) string {
			return fmt.Sprintf("Deployment %s of project %q queued.", d.ID, projectID)
		})
	if d != nil && d.Status == sdk.DeploymentSuccess {
		progress(resp, "Deployment %s succeeded%s.", d.ID, summaryOf(d))
	}
}

// summaryOf is a deployment's summary as the end of a sentence.
func summaryOf(d *sdk.Deployment) string {
	if d.Summary == "" {
		return ""
	}
	return ": " + sdk.DisplayLine(d.Summary)
}

// actionDeployWords are what the deployment actions say: they keep no
// state, so a deployment whose run ends in an error goes on at Mintlify.
func actionDeployWords(noun, startFailed, failed string) workWords {
	return actionWords(workWords{
		startFailed: startFailed,
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the " + noun + " may have been " +
			"queued: check the project's deployments in the Mintlify dashboard before invoking the action again.",
		kept: func(id string) string {
			return capitalize(noun) + " " + id + " goes on at Mintlify: an action keeps no state, so follow it with the data " +
				"source mintlify_deployment_status or in the Mintlify dashboard."
		},
		failed: failed,
	})
}
