package provider

import (
	"context"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The deployment actions below Terraform, through the provider's
// protocol-6 server (see actionHarness): only the provider's error on an
// interrupt, which Terraform 1.16 may drop (TestAccAgentJobAction_interrupted).
// The rest is tested through the real CLI (action_cli_test.go).

func TestAction_deploymentInterruptedNamesWhatGoesOn(t *testing.T) {
	h := newActionHarness(t, mintlifytest.Config{DefaultDeployment: mintlifytest.DeploymentScript{Outcome: mintlifytest.OutcomeNever}}, true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Ctrl-C at the third poll's sleep.
	sleeps := 0
	h.clk.onSleep(func(context.Context) {
		if sleeps++; sleeps == 3 {
			cancel()
		}
	})
	_, diags := h.invoke(ctx, "mintlify_deployment", nil)
	id := h.fs.DeploymentIDs(mintlifytest.DemoProjectID)[0]
	contains(t, "diagnostics", diagsText(diags), "Interrupted while waiting for the deployment", "Deployment "+id+" goes on at Mintlify",
		"still in_progress", "the action's timeout")
}
