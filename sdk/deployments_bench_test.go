package sdk

import (
	"context"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// deploymentRuns are the deployments the wait is measured on: a typical
// one and a long one.
var deploymentRuns = []time.Duration{time.Minute, 10 * time.Minute}

// waitForDeployment triggers a deployment that ends run after its trigger
// (queued for a tenth of it) and waits for it, on the fake's clock; it
// returns how late the waiter noticed the end, and how many polls it made.
func waitForDeployment(tb testing.TB, run time.Duration) (late time.Duration, polls int) {
	tb.Helper()
	clk := newClock()
	fs := mintlifytest.New(mintlifytest.Config{Clock: clk,
		DefaultDeployment: mintlifytest.DeploymentScript{Queued: run / 10, Building: run - run/10, Outcome: mintlifytest.OutcomeCompleted}})
	c := mustInProcessClient(tb, fs, clk)
	started, err := c.Deployments.Trigger(context.Background(), mintlifytest.DemoProjectID)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := c.Deployments.Wait(context.Background(), started.StatusID)
	if err != nil || d.Status != DeploymentSuccess {
		tb.Fatalf("wait = %+v, %v", d, err)
	}
	return clk.Now().Sub(epoch) - run, fs.Requests(mintlifytest.RouteDeploymentsStatus)
}

// BenchmarkWaitForDeployment measures, on the fake's clock, how late the
// waiter notices a finished deployment and how many status polls it makes,
// for deployments of 1 and 10 minutes. Each iteration is one deployment.
func BenchmarkWaitForDeployment(b *testing.B) {
	benchmarkWait(b, "run", deploymentRuns, waitForDeployment)
}

func TestWaitForDeployment_latenessAndPolls(t *testing.T) {
	// Polls grow with the run, not in step.
	checkLatenessAndPolls(t, map[time.Duration]int{time.Minute: 24, 10 * time.Minute: 55}, waitForDeployment)
}
