package sdk

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// waitFunc starts something that ends run after it starts and waits for
// it, on the fake's clock; it returns how late the waiter noticed the end,
// and how many polls it made.
type waitFunc func(tb testing.TB, run time.Duration) (late time.Duration, polls int)

// agentJobRuns are the agent jobs the wait is measured on.
var agentJobRuns = []time.Duration{3 * time.Second, 30 * time.Second, 300 * time.Second}

// waitForAgentJob is the waitFunc of an agent job that completes after
// run.
func waitForAgentJob(tb testing.TB, run time.Duration) (late time.Duration, polls int) {
	tb.Helper()
	clk := newClock()
	fs := mintlifytest.New(mintlifytest.Config{Clock: clk, DefaultJob: mintlifytest.JobScript{ActiveFor: run, Outcome: mintlifytest.OutcomeCompleted}})
	c := mustInProcessClient(tb, fs, clk)
	job, err := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "x")
	if err != nil {
		tb.Fatal(err)
	}
	done, err := c.AgentJobs.Wait(context.Background(), mintlifytest.DemoProjectID, job.ID)
	if err != nil || done.Status != JobStatusCompleted {
		tb.Fatalf("wait = %+v, %v", done, err)
	}
	return clk.Now().Sub(epoch) - run, fs.Requests(mintlifytest.RouteAgentJobsGet)
}

// BenchmarkWaitForAgentJob measures, on the fake's clock, how late the
// waiter notices a finished job and how many polls it makes, for jobs of
// 3 s, 30 s and 300 s. Each iteration is one job.
func BenchmarkWaitForAgentJob(b *testing.B) { benchmarkWait(b, "job", agentJobRuns, waitForAgentJob) }

// benchmarkWait measures wait for each of runs (a sub-benchmark named
// label=run): the metrics are the median and the worst over the
// iterations, since the schedule is jittered.
func benchmarkWait(b *testing.B, label string, runs []time.Duration, wait waitFunc) {
	for _, run := range runs {
		b.Run(fmt.Sprintf("%s=%s", label, run), func(b *testing.B) {
			var lates, polls []float64
			for b.Loop() {
				late, n := wait(b, run)
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

// checkLatenessAndPolls holds a waiter to the schedule's promise: the end
// of a run is noticed at most 1 s + 10% of the run late, with at most
// maxPolls[run] polls. The delays are jittered: each run is tried 20 times.
func checkLatenessAndPolls(t *testing.T, maxPolls map[time.Duration]int, wait waitFunc) {
	t.Helper()
	for run, most := range maxPolls {
		for range 20 {
			late, polls := wait(t, run)
			if limit := time.Second + run/10; late > limit || late < 0 {
				t.Errorf("%s: noticed %s after the end, want at most %s", run, late, limit)
			}
			if polls > most {
				t.Errorf("%s: %d polls, want at most %d", run, polls, most)
			}
		}
	}
}
