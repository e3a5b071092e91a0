package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func plansFigures(baseline string) *plansResult {
	r := &plansResult{date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), machine: "a machine", baseline: baseline}
	for _, n := range []int{1, 50} {
		row := planRow{previews: n, after: map[string]int{mintlifytest.RouteAgentJobsGet: 1, mintlifytest.RouteDiscoverySearch: 1}}
		if baseline != "" {
			row.before = map[string]int{mintlifytest.RouteDeploymentsStatus: n + 1, mintlifytest.RouteStaticExportsGet: 1, mintlifytest.RouteAgentJobsGet: 1, mintlifytest.RouteDiscoverySearch: 1}
			row.haveBefore = true
		}
		row.afterRequests, row.beforeRequests = total(row.after), total(row.before)
		r.rows = append(r.rows, row)
	}
	return r
}

func TestPlans_sectionAndSummaryFromTheFigures(t *testing.T) {
	r := plansFigures("main at d66eb1e")
	got := r.section()
	for _, want := range []string{
		plansHeading + "\n\n",
		"| previews | requests per no-change plan, before (main at d66eb1e) | **after** |",
		"| 1 | 5 | **2** | 1 × `GET /v2/agent/{projectId}/job/{id}`, 1 × `POST /discovery/v1/search/{domain}` | 2 × `GET /v1/project/update-status/{statusId}`, 1 × ",
		"| 50 | 54 | **2** |",
		"Measured on 2026-11-21",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
	var rows []string
	r.summaryRow(func(what, result string, args ...any) {
		rows = append(rows, "| "+what+" | "+fmt.Sprintf(result, args...)+" |")
	})
	if len(rows) != 1 || rows[0] != "| requests per no-change plan of a release pipeline with 1 / 50 previews | **2 / 2** (before: 5 / 54) |" ||
		!strings.HasPrefix(rows[0], plansSummaryPrefix) {
		t.Errorf("summary %q", rows)
	}
	// Without a baseline: the figures alone.
	alone := plansFigures("")
	if s := alone.section(); strings.Contains(s, "before") && strings.Contains(s, "| 1 | 5 |") || !strings.Contains(s, "| 1 | **2** |") {
		t.Errorf("section without a baseline:\n%s", s)
	}
	rows = nil
	alone.summaryRow(func(_, result string, args ...any) { rows = append(rows, fmt.Sprintf(result, args...)) })
	if len(rows) != 1 || rows[0] != "**2 / 2**" {
		t.Errorf("summary without a baseline %q", rows)
	}
	// In the whole report, after the assistant's section.
	all := figures()
	all.plans = r
	if report := all.report(); !strings.HasSuffix(strings.TrimRight(report, "\n"), strings.TrimRight(r.section(), "\n")) {
		t.Error("the report does not end with the plans' section")
	}
	if !strings.Contains(all.summary(), "| requests per no-change plan of a release pipeline with 1 / 50 previews |") {
		t.Error("the summary lacks the plans' row")
	}
}
