package main

import (
	"fmt"
	"strings"
	"time"
)

// deploymentRuns are the deployments BenchmarkWaitForDeployment (sdk)
// waits for, as its sub-benchmarks name them.
var deploymentRuns = []time.Duration{time.Minute, 10 * time.Minute}

// deploymentWait renders the cost of waiting for a deployment, from the
// same `go test -bench` run as the jobs' waits.
func (r *results) deploymentWait(p func(format string, args ...any)) {
	p("\n### Waiting for a deployment\n\n")
	p("`WaitForDeployment` (`client.Deployments.Wait`, the same poller as jobs) against deployments that end 1 minute and 10 minutes after their trigger (queued for the first tenth), on the fake's clock, 200 deployments each. Polls are status reads (`GET /v1/project/update-status/{statusId}`, no published limit). Target: lateness at most 1 s + 10%% of the run.\n\n")
	p("| deployment runs | median lateness | worst lateness | target | median polls | worst polls |\n|---:|---:|---:|---:|---:|---:|\n")
	for _, run := range deploymentRuns {
		m := r.wait[deploymentBench(run)]
		p("| %s | %.2f s | %.2f s | %.1f s | %.0f | %.0f |\n", shortRun(run), m["late-s"], m["max-late-s"], (time.Second + run/10).Seconds(), m["polls"], m["max-polls"])
	}
}

// deploymentWaitSummary is the summary row for it, when the run measured it.
func (r *results) deploymentWaitSummary(row func(what, result string, args ...any)) {
	var late, polls []string
	for _, run := range deploymentRuns {
		m, ok := r.wait[deploymentBench(run)]
		if !ok {
			return
		}
		late = append(late, fmt.Sprintf("%.2f s", m["max-late-s"]))
		polls = append(polls, fmt.Sprintf("%.0f", m["max-polls"]))
	}
	row("lateness noticing a finished deployment (1 min / 10 min, worst of 200)", "%s; at most %s polls", strings.Join(late, " / "), strings.Join(polls, " / "))
}

func deploymentBench(run time.Duration) string {
	return "BenchmarkWaitForDeployment/run=" + run.String()
}

// shortRun writes a run as "1 min", "10 min".
func shortRun(d time.Duration) string {
	if d%time.Minute == 0 {
		return fmt.Sprintf("%d min", d/time.Minute)
	}
	return d.String()
}
