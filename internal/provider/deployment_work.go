package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// Deployments and previews: what the runner (work), the two resources,
// the two actions and the data source share.

// Plan-time checks of the area's inputs: the SDK's own rules.
var (
	branchValidator = sdkRule{
		description: "must be a Git branch name (git check-ref-format --branch)",
		check:       sdk.ValidateBranch,
	}
	statusIDValidator     = idValidator(sdk.ValidateStatusID)
	automationIDValidator = idValidator(sdk.ValidateAutomationID)
)

// deploymentKind is what the runner knows of a deployment; noun is
// "deployment" or "preview deployment".
func deploymentKind(noun string) workKind[sdk.Deployment] {
	return workKind[sdk.Deployment]{
		noun:     noun,
		id:       func(d *sdk.Deployment) string { return d.ID },
		validID:  sdk.ValidateStatusID,
		status:   func(d *sdk.Deployment) string { return string(d.Status) },
		known:    func(s string) bool { return sdk.DeploymentStatus(s).Known() },
		problems: func(d *sdk.Deployment) []string { return d.Problems },
		outcome: func(d *sdk.Deployment, words workWords, diags *diag.Diagnostics) {
			if d.Status == sdk.DeploymentFailure {
				diags.AddError(capitalize(noun)+" failed", deploymentFailure(noun, d)+" "+words.failed)
			}
		},
	}
}

// failureLogLines is how many of a failed deployment's last log lines an
// error quotes: enough for the build's error, short enough to read.
const failureLogLines = 10

// deploymentFailure says which deployment failed and why, quoting its
// summary and last log lines: server text, escaped and clipped line by
// line (a docs build's log can carry anything a contributor's file name
// does), so that the error stays bounded.
func deploymentFailure(noun string, d *sdk.Deployment) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", capitalize(noun), sdk.DisplayLine(d.ID))
	if d.ProjectID != "" {
		fmt.Fprintf(&b, " of project %s", quoted(d.ProjectID))
	}
	fmt.Fprintf(&b, " ended with status %s", quoted(string(d.Status)))
	if d.Summary != "" {
		fmt.Fprintf(&b, ": %s", sdk.DisplayLine(d.Summary))
	}
	b.WriteString(".")
	if lines := d.LastLogs(failureLogLines); len(lines) > 0 {
		cut := len(lines) < len(d.Logs)
		if cut {
			fmt.Fprintf(&b, " Its last %d log lines (of %d):\n\n", len(lines), len(d.Logs))
		} else {
			b.WriteString(" Its log:\n\n")
		}
		for _, l := range lines {
			b.WriteString("    " + sdk.DisplayLine(l) + "\n")
		}
		if cut {
			b.WriteString("\nThe whole log is in the data source mintlify_deployment_status (status_id = \"" + sdk.DisplayLine(d.ID) + "\") and in the Mintlify dashboard.")
		}
	} else {
		b.WriteString(" The API gave no log lines: see the deployment in the Mintlify dashboard.")
	}
	return b.String()
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// deployWork is a run of a deployment or preview: start sends the trigger,
// and the wait is the SDK's.
func deployWork(data *providerData, noun string, start func(context.Context) (*sdk.Deployment, error)) work[sdk.Deployment] {
	return work[sdk.Deployment]{
		data:  data,
		kind:  deploymentKind(noun),
		start: start,
		wait: func(ctx context.Context, d *sdk.Deployment, opts ...sdk.WaitOption) (*sdk.Deployment, error) {
			return data.client.Deployments.Wait(ctx, d.ID, opts...)
		},
	}
}

// queued is a deployment as its trigger's answer describes it: the API
// answers 202 with the status id alone, which means it was queued.
// Problems of the answer (a preview URL it could not use) go with it.
func queued(projectID, statusID string, problems []string) *sdk.Deployment {
	return &sdk.Deployment{ID: statusID, ProjectID: projectID, Status: sdk.DeploymentQueued, Problems: problems}
}

// deploymentEnds names the statuses a deployment's wait ends on.
const deploymentEnds = "`success` or `failure`"

// deploymentStateModel is what the API says of a deployment, as both
// resources keep it. Every attribute is a read-only fact: a refresh that
// sees it change records the change and plans nothing.
type deploymentStateModel struct {
	Status        types.String `tfsdk:"status"`
	Summary       types.String `tfsdk:"summary"`
	Subdomain     types.String `tfsdk:"subdomain"`
	CommitSHA     types.String `tfsdk:"commit_sha"`
	CommitRef     types.String `tfsdk:"commit_ref"`
	CommitMessage types.String `tfsdk:"commit_message"`
	Source        types.String `tfsdk:"source"`
	CreatedAt     types.String `tfsdk:"created_at"`
	EndedAt       types.String `tfsdk:"ended_at"`
}

// byName is the model's attributes by name.
func (m *deploymentStateModel) byName() map[string]*types.String {
	return map[string]*types.String{"status": &m.Status, "summary": &m.Summary, "subdomain": &m.Subdomain,
		"commit_sha": &m.CommitSHA, "commit_ref": &m.CommitRef, "commit_message": &m.CommitMessage,
		"source": &m.Source, "created_at": &m.CreatedAt, "ended_at": &m.EndedAt}
}

// What a preview's redeploy (an update in place) does to its attributes:
// the one rule its plan (ModifyPlan) and its apply (keepAcrossRedeploy)
// follow, so that what the plan shows as known is what the apply saves.

// redeployChanges are the attributes a redeploy of branch gives new
// values, known after apply, when m is state's deployment facts; every
// other computed attribute is planned as state has it. id, status,
// summary, the commit's SHA and message and the times are the new
// deployment's own. subdomain, commit_ref and source are kept when m is a
// deployment of that very branch (its commit_ref is the branch): the
// redeploy builds the same branch of the same docs, so subdomain and
// commit_ref repeat, and source too when it is `api`, as a redeploy's is
// (the provider triggers it through the API). A preview imported from
// another deployment's status id has none of them kept.
func (m deploymentStateModel) redeployChanges(branch string) []string {
	changes := []string{"id", "status", "summary", "commit_sha", "commit_message", "created_at", "ended_at"}
	if m.CommitRef.IsNull() || m.CommitRef.ValueString() != branch {
		return append(changes, "subdomain", "commit_ref", "source")
	}
	if m.Subdomain.IsNull() {
		changes = append(changes, "subdomain")
	}
	if m.Source.ValueString() != string(sdk.DeploymentSourceAPI) {
		changes = append(changes, "source")
	}
	return changes
}

// keepAcrossRedeploy puts back into m, after a redeploy's answer was
// applied to it, each attribute the plan kept (see redeployChanges) that
// the answer left out: a trigger's answer gives the status alone, and a
// field the API gave in an odd shape is empty. A value the API did give
// is the one saved: contradicted names those that differ from the plan's.
func (m *deploymentStateModel) keepAcrossRedeploy(prior deploymentStateModel, branch string) (contradicted []string) {
	now, before := m.byName(), prior.byName()
	for _, name := range prior.redeployChanges(branch) {
		delete(before, name)
	}
	for name, v := range before {
		switch {
		case now[name].IsNull():
			*now[name] = *v
		case !now[name].Equal(*v):
			contradicted = append(contradicted, fmt.Sprintf("%s %q (it was %q)", name, now[name].ValueString(), v.ValueString()))
		}
	}
	slices.Sort(contradicted)
	return contradicted
}

// deploymentStateAttributes is the schema of deploymentStateModel.
func deploymentStateAttributes() map[string]schema.Attribute {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	attr := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{MarkdownDescription: desc, Computed: true, PlanModifiers: keep}
	}
	return map[string]schema.Attribute{
		"status": attr("The deployment's status: `queued`, `in_progress`, `success` or `failure`. `queued` right after " +
			"the API accepted it; a refresh records later changes without planning anything, until it is `success` or " +
			"`failure`, after which it is not read again."),
		"summary":        attr("The API's summary of how the deployment went; null until it gives one."),
		"subdomain":      attr("The subdomain of the docs being deployed; null until the API gives one."),
		"commit_sha":     attr("The SHA of the commit deployed; null until the API gives one."),
		"commit_ref":     attr("The ref (branch) of the commit deployed; null until the API gives one."),
		"commit_message": attr("The message of the commit deployed; null until the API gives one."),
		"source": attr("What triggered the deployment, as the API says: `api` for this provider; `internal`, " +
			"`github-app-installation`, `github`, `dashboard`, `gitlab` or `onboarding` for others."),
		"created_at": attr("When the deployment was queued (RFC 3339)."),
		"ended_at":   attr("When the deployment ended (RFC 3339); null until it does."),
	}
}

// applyDeployment copies what the API says of a deployment into the model.
// The trigger's answer carries the status alone: the other facts stay
// null until a poll or a refresh reads them.
func (m *deploymentStateModel) applyDeployment(d *sdk.Deployment) {
	m.Status = types.StringValue(string(d.Status))
	m.Summary = stringOrNull(d.Summary)
	m.Subdomain = stringOrNull(d.Subdomain)
	m.Source = stringOrNull(string(d.Source))
	m.CommitSHA, m.CommitRef, m.CommitMessage = types.StringNull(), types.StringNull(), types.StringNull()
	if c := d.Commit; c != nil {
		m.CommitSHA, m.CommitRef, m.CommitMessage = stringOrNull(c.SHA), stringOrNull(c.Ref), stringOrNull(c.Message)
	}
	m.CreatedAt = timeValue(&d.CreatedAt)
	m.EndedAt = timeValue(d.EndedAt)
}

func stringOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// deploymentRead refreshes a deployment resource's facts: the outcome
// says whether the state is to be saved. A deployment the API no longer
// has (404) stays in state unchanged, with a warning, so that nothing is
// deployed again by itself; on import it is an error. typeName names the
// resource ("mintlify_deployment").
func deploymentRead(ctx context.Context, data *providerData, typeName, noun string, id, projectID types.String, importing bool, m *deploymentStateModel, diags *diag.Diagnostics) (foundProject string, ok bool) {
	ctx = data.logContext(ctx)
	statusID := id.ValueString()
	d, err := data.client.Deployments.Status(ctx, statusID)
	switch {
	case sdk.IsNotFound(err) && importing:
		diags.AddError("Cannot import the "+noun,
			fmt.Sprintf("Mintlify has no deployment status %q (404). Import by the status id a trigger returned (the id "+
				"attribute of a %s, or the statusId of the API's answer), with an admin key of the project's organization.", statusID, typeName))
		return "", false
	case sdk.IsNotFound(err):
		addr := typeName + ".<name>"
		diags.AddWarning(capitalize(noun)+" no longer exists at Mintlify",
			fmt.Sprintf("Deployment status %s is gone from the Mintlify API (404). The %s resource stays in state unchanged "+
				"so that nothing is deployed again by itself. Run `terraform state rm %s` to forget it, or `terraform apply "+
				"-replace=%s` to deploy again.", statusID, typeName, addr, addr))
		return "", false
	case err != nil:
		addAPIError(diags, "Could not read the "+noun, err)
		return "", false
	}
	if want := projectID.ValueString(); importing && want != "" {
		// An import identity named the project: the deployment must be in it.
		if d.ProjectID != "" && d.ProjectID != want {
			diags.AddError("Cannot import the "+noun,
				fmt.Sprintf("Deployment status %s is of project %s, not %q as the import's identity says. Set identity.project_id "+
					"to %s, or leave it out (the API's answer gives the project).", statusID, quoted(d.ProjectID), want, quoted(d.ProjectID)))
			return "", false
		}
		foundProject = want // kept when the answer names none
	}
	notes := newProblemNotes(noun, statusID)
	notes.add(d.Problems)
	if want := projectID.ValueString(); !importing && d.ProjectID != "" && want != "" && d.ProjectID != want {
		notes.add([]string{fmt.Sprintf("projectId: the API says this deployment is of project %s, not %q as in state", quoted(d.ProjectID), want)})
	}
	notes.warn(diags)
	if d.Status == sdk.DeploymentFailure && m.Status.ValueString() != string(sdk.DeploymentFailure) && !importing {
		diags.AddWarning(capitalize(noun)+" failed", deploymentFailure(noun, d)+
			fmt.Sprintf(" It will not be deployed again by itself: change its triggers, or run terraform apply -replace=%s.<name>.", typeName))
	}
	m.applyDeployment(d)
	if d.ProjectID != "" {
		foundProject = d.ProjectID
	}
	return foundProject, true
}

// readDeploymentResource is the Read of both deployment resources: model
// is the resource's whole model, read from and saved to state, and m its
// deployment part. typeName names the resource ("mintlify_deployment").
func readDeploymentResource(ctx context.Context, data *providerData, typeName, noun string, model any, m *deploymentModel, req resource.ReadRequest, resp *resource.ReadResponse) {
	if !readModel(ctx, data, req.State, model, &resp.Diagnostics) || deploymentReadIDsOf(typeName).unreadable(ctx, req, resp) {
		return
	}
	if keepFinished(ctx, sdk.DeploymentStatus(m.Status.ValueString()).Terminal(), noun, m.ID.ValueString(), deploymentIdentity, req, resp) {
		return
	}
	// Only an import leaves the status unset: no create or read does.
	importing := m.Status.IsNull()
	project, ok := deploymentRead(ctx, data, typeName, noun, m.ID, m.ProjectID, importing, &m.deploymentStateModel, &resp.Diagnostics)
	if ok {
		if importing {
			m.ProjectID = stringOrNull(project)
			m.WaitForCompletion = types.BoolValue(true) // the schema's default
		}
		resp.Diagnostics.Append(resp.State.Set(ctx, model)...)
	}
	if !resp.Diagnostics.HasError() {
		// Also when it vanished (state kept): state from before identities
		// gets one.
		deploymentIdentity.fromState(ctx, resp.State, resp.Identity, &resp.Diagnostics)
	}
}

// importedKey marks, in private state, a resource imported and not yet
// applied: its first apply adopts the configuration's triggers (and
// branch) instead of deploying, since importing never deploys.
const importedKey = "imported"

// importStatusID is the ImportState of both resources: by status id, or
// (Terraform 1.12+) by identity, whose project_id may be left out (the
// import's read takes the API's).
func importStatusID(ctx context.Context, data *providerData, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	imported := deploymentIdentity.importState(ctx, data, req, resp, func(id, _ string) (map[string]string, error) {
		if err := sdk.ValidateStatusID(id); err != nil {
			return nil, errors.New("Import by the deployment's status id: " + err.Error() + ".") // the diagnostic's sentence
		}
		return map[string]string{"id": id}, nil
	})
	if imported {
		resp.Diagnostics.Append(resp.Private.SetKey(ctx, importedKey, []byte("true"))...)
	}
}

// privateState is what plan modifiers and Update see of private state.
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// wasImported reports whether private state holds the import mark.
func wasImported(ctx context.Context, private privateState, diags *diag.Diagnostics) bool {
	v, d := private.GetKey(ctx, importedKey)
	diags.Append(d...)
	return len(v) > 0
}

// Words of the runner for deployments and previews.
func deploymentWords(noun, startFailed string, kept func(id string) string, failed string) workWords {
	return workWords{
		startFailed: startFailed,
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the " + noun + " may have been " +
			"queued. Check the project's deployments in the Mintlify dashboard before applying again; if it is there, " +
			"import it by its status id instead of deploying twice.",
		kept: kept,
		unknownOutcome: func(id string) string {
			return capitalize(noun) + " " + id + " was queued and is saved in state, not tainted: " + outcomeUnknown +
				" nothing is deployed again by itself."
		},
		failed:         failed,
		timeoutSetting: "timeouts.create",
		raiseTimeout:   resourceTimeoutExample,
	}
}
