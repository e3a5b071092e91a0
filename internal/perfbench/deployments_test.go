package main

import (
	"strings"
	"testing"
)

func TestReport_deploymentWaitFromTheBenchFigures(t *testing.T) {
	got := figures().report()
	for _, want := range []string{
		"### Waiting for a deployment",
		"| 1 min | 0.00 s | 6.89 s | 7.0 s | 0 | 22 |",
		"| 10 min | 0.00 s | 19.06 s | 61.0 s | 0 | 54 |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	noDeployments := figures()
	delete(noDeployments.wait, "BenchmarkWaitForDeployment/run=1m0s")
	if strings.Contains(noDeployments.summary(), "deployment") {
		t.Error("a summary row for deployments the run did not measure")
	}
}
