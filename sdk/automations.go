package sdk

import (
	"context"
	"fmt"
	"net/http"
)

// AutomationsService runs a project's scheduled automations now, instead
// of at their next scheduled time. Triggers share a budget with
// deployments (see [DeploymentLimit]).
//
// The API publishes no endpoint to read a run: a run is followed in the
// dashboard's run history, by its instance id.
type AutomationsService struct {
	core *core
}

// AutomationRun is the API's answer to a trigger: the run was queued.
type AutomationRun struct {
	// SchemaID is the automation's id (the one triggered).
	SchemaID string `json:"schemaId"`
	// InstanceID is the queued run's id, as the dashboard's run history
	// shows it.
	InstanceID string `json:"instanceId"`
	// JobID is the background job processing the run; "" when the answer
	// carried none the SDK could use (see Problems).
	JobID string `json:"jobId"`
	// Problems name the fields of the answer the SDK could not use. The
	// run was queued: its instance id was in the answer.
	Problems []string `json:"-"`
	ResponseInfo
}

// check is what a run's answer needs beyond its ids (the call's to check:
// automationRunID, automationSchemaID): each id said.
func (r *AutomationRun) check(c *checker) {
	c.nonEmpty("schemaId", r.SchemaID)
	c.nonEmpty("jobId", r.JobID)
}

// The ids of a run's answer: the new run's, and the automation's.
var (
	automationRunID    = answerID{field: "instanceId"}
	automationSchemaID = answerID{field: "schemaId", kind: "automation"}
)

// ValidateAutomationID checks an automation's id (the API's
// workflowSchemaId), by the same rule as a project id.
func ValidateAutomationID(automationID string) error {
	return validateID("workflowSchemaId", automationID)
}

// Trigger queues a run of a scheduled automation now. Only an active
// automation on a custom schedule can be triggered: others, and a
// malformed id, answer 400 (IsBadRequest); an automation the project does
// not have answers 404 (IsNotFound). The run picks up changes since the
// last completed run, as a scheduled run does.
//
// Like a deployment trigger, it is never sent twice once it may have
// reached the server. An answer without the run's instance id, or for
// another automation, is a *MalformedResponseError (the run may still
// have been queued: MayHaveTakenEffect is true).
func (s *AutomationsService) Trigger(ctx context.Context, projectID, automationID string) (*AutomationRun, error) {
	k, err := checked(s.core, ValidateProjectID(projectID), ValidateAutomationID(automationID))
	if err != nil {
		return nil, err
	}
	c := call{method: http.MethodPost, path: escapePath("v1", "workflow", projectID, automationID, "trigger")}
	run, err := answerTo(ctx, k, c, func(r *AutomationRun) error {
		if r.SchemaID != "" {
			if err := automationSchemaID.check(k, c, r.SchemaID, automationID, r.Problems); err != nil {
				return err
			}
		}
		return automationRunID.check(k, c, r.InstanceID, "", r.Problems)
	})
	if err != nil {
		return nil, fmt.Errorf("triggering automation %s of project %s: %w", automationID, projectID, err)
	}
	return run, nil
}
