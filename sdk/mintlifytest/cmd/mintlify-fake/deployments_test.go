package main

import (
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func TestOptions_deployments(t *testing.T) {
	o := defaults()
	o.deployOutcome = "rolled-back"
	if _, err := o.config(); err == nil || !strings.Contains(err.Error(), `-deploy-outcome "rolled-back": want success, failure or never`) {
		t.Errorf("err = %v", err)
	}
	o = defaults()
	o.deploy.Building = -time.Second
	if _, err := o.config(); err == nil || !strings.Contains(err.Error(), "want durations of 0 or more") {
		t.Errorf("err = %v", err)
	}
	o = defaults()
	o.deploy = mintlifytest.DeploymentScript{Queued: 2 * time.Second, Building: 30 * time.Second}
	o.deployOutcome, o.noPreviews = "failure", true
	cfg, err := o.config()
	want := mintlifytest.DeploymentScript{Queued: 2 * time.Second, Building: 30 * time.Second, Outcome: mintlifytest.OutcomeFailed}
	if err != nil || cfg.DefaultDeployment != want || !cfg.PreviewsOffPlan {
		t.Errorf("%+v, %v", cfg, err)
	}
}

// -h tells a user how to script deployments and which automations exist.
func TestUsage_documentsDeploymentsPreviewsAndAutomations(t *testing.T) {
	for _, want := range []string{"-deploy-queued", "-deploy-duration", "-deploy-outcome", "fake-failure", "fake-never", "-no-previews",
		"same URL, with a new status id", mintlifytest.DemoAutomationID + " ", mintlifytest.DemoPausedAutomationID, mintlifytest.DemoDailyAutomationID,
		"trigger-update", "preview", "deployments"} {
		if !strings.Contains(usage, want) {
			t.Errorf("usage lacks %q", want)
		}
	}
}
