package sdk

import (
	"context"
	"fmt"
	"net/http"
)

// AutomationsService runs a project's scheduled automations now. Triggers
// share [DeploymentLimit] with deployments. The API has no endpoint to
// read a run: follow it in the dashboard's run history.
type AutomationsService struct {
	core *core
}

// AutomationRun is the API's answer to a trigger: the run was queued.
type AutomationRun struct {
	SchemaID   string `json:"schemaId"`   // the automation triggered
	InstanceID string `json:"instanceId"` // the run, as the run history shows it
	JobID      string `json:"jobId"`      // the job running it ("": not said)
	// Problems name the fields the SDK could not use; the run was queued.
	Problems []string `json:"-"`
	ResponseInfo
}

// check is what a run needs beyond its ids (automationRunID,
// automationSchemaID).
func (r *AutomationRun) check(c *checker) {
	c.nonEmpty("schemaId", r.SchemaID)
	c.nonEmpty("jobId", r.JobID)
}

// The ids of a run's answer: the new run's, and the automation's.
var (
	automationRunID    = answerID{field: "instanceId"}
	automationSchemaID = answerID{field: "schemaId", kind: "automation"}
)

// ValidateAutomationID checks an automation's id (workflowSchemaId), as
// ValidateProjectID does.
func ValidateAutomationID(automationID string) error {
	return validateID("workflowSchemaId", automationID)
}

// Trigger queues a run of a scheduled automation now, picking up changes
// since the last completed run. Only an active automation on a custom
// schedule can be triggered (others: 400, IsBadRequest; unknown: 404).
// Like a deployment trigger, it is never sent twice. An answer without
// the run's id, or for another automation, is a *MalformedResponseError
// (the run may have been queued).
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
