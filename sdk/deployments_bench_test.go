package sdk

import (
	"context"
	"fmt"
	"slices"
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
	clk := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}
	fs := mintlifytest.New(mintlifytest.Config{Clock: clk,
		DefaultDeployment: mintlifytest.DeploymentScript{Queued: run / 10, Building: run - run/10, Outcome: mintlifytest.DeploySuccess}})
	c := mustInProcessClient(tb, fs, clk)
	started, err := c.Deployments.Trigger(context.Background(), mintlifytest.DemoProjectID)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := c.Deployments.Wait(context.Background(), started.StatusID)
	if err != nil || d.Status != DeploymentSuccess {
		tb.Fatalf("wait = %+v, %v", d, err)
	}
	return clk.Now().Sub(epoch) - run, fs.Requests(mintlifytest.RouteUpdateStatus)
}

// BenchmarkWaitForDeployment measures, on the fake's clock, how late the
// waiter notices a finished deployment and how many status polls it makes,
// for deployments of 1 and 10 minutes. Each iteration is one deployment;
// the metrics are the median and the worst (the schedule is jittered).
func BenchmarkWaitForDeployment(b *testing.B) {
	for _, run := range deploymentRuns {
		b.Run(fmt.Sprintf("run=%s", run), func(b *testing.B) {
			var lates, polls []float64
			for b.Loop() {
				late, n := waitForDeployment(b, run)
				lates = append(lates, late.Seconds())
				polls = append(polls, float64(n))
			}
			slices.Sort(lates)
			slices.Sort(polls)
			b.ReportMetric(lates[len(lates)/2], "late-s")
			b.ReportMetric(lates[len(lates)-1], "max-late-s")
			b.ReportMetric(polls[len(polls)/2], "polls")
			b.ReportMetric(polls[len(polls)-1], "max-polls")
			b.ReportMetric(0, "ns/op")
		})
	}
}

func TestWaitForDeployment_latenessAndPolls(t *testing.T) {
	// The schedule's promise: a finished deployment is noticed at most
	// 1 s + 10% of its run late; polls grow with the run, not in step.
	maxPolls := map[time.Duration]int{time.Minute: 24, 10 * time.Minute: 55}
	for _, run := range deploymentRuns {
		for range 20 { // the delays are jittered: try several draws
			late, polls := waitForDeployment(t, run)
			if limit := time.Second + run/10; late > limit || late < 0 {
				t.Errorf("%s: noticed %s after the end, want at most %s", run, late, limit)
			}
			if polls > maxPolls[run] {
				t.Errorf("%s: %d polls, want at most %d", run, polls, maxPolls[run])
			}
		}
	}
}
