package sdk

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// BenchmarkWaitForAgentJob measures, on the fake's clock, how late the
// waiter notices a finished job and how many polls it makes, for jobs of
// 3 s, 30 s and 300 s. Each iteration is one job; the metrics are the median
// and the worst over the iterations (the schedule is jittered).
func BenchmarkWaitForAgentJob(b *testing.B) {
	for _, run := range []time.Duration{3 * time.Second, 30 * time.Second, 300 * time.Second} {
		b.Run(fmt.Sprintf("job=%s", run), func(b *testing.B) {
			var lates []float64
			var polls []float64
			for b.Loop() {
				clk := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}
				fs := mintlifytest.New(mintlifytest.Config{Clock: clk, DefaultJob: mintlifytest.JobScript{ActiveFor: run, Outcome: mintlifytest.OutcomeCompleted}})
				c := mustInProcessClient(b, fs, clk)
				job, err := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "x")
				if err != nil {
					b.Fatal(err)
				}
				if _, err := c.AgentJobs.Wait(context.Background(), mintlifytest.DemoProjectID, job.ID); err != nil {
					b.Fatal(err)
				}
				lates = append(lates, (clk.Now().Sub(epoch) - run).Seconds())
				polls = append(polls, float64(fs.Requests(mintlifytest.RouteGetJob)))
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
