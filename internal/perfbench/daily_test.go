package main

import (
	"strings"
	"testing"
	"time"
)

func TestDaily_sectionAndSummaryFromTheFigures(t *testing.T) {
	r := &dailyResult{date: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), machine: "a machine", rows: []dailyRow{
		{days: 7, fill: []int{20, 1}, sameDay: 0, afterTTL: 6, newDay: 9, settledNewDay: 3},
		{days: 365, fill: append(make([]int, 0, 56), repeat(20, 54)...), sameDay: 0, afterTTL: 6, newDay: 9, settledNewDay: 3},
	}}
	r.rows[1].fill = append(r.rows[1].fill, 15)
	got := r.section()
	for _, want := range []string{
		dailyHeading + "\n\n",
		"| 7 days | 2 | 20, 1 | 21 (21) | **0** | 6 | **9** | **3** |",
		"| 365 days | 55 | 20 × 54, 15 | 1095 (1095) | **0** | 6 | **9** | **3** |",
		"`max_requests = 20`, `settling_window = \"48h\"`",
		"Measured on 2026-11-21",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
	var rows []string
	r.summaryRows(func(what, result string, args ...any) {
		rows = append(rows, what+" → "+strings.ReplaceAll(result, "%s", args[0].(string)))
	})
	if len(rows) != 2 || !strings.Contains(rows[0], "7 / 365 days of 3 metrics: first fill (at most 20 a plan) → 21 in 2 applies / 1095 in 55 applies") ||
		!strings.Contains(rows[1], "**0 / 9 / 3**, **0 / 9 / 3**") || !strings.HasPrefix("| "+rows[0], dailySummaryPrefix) {
		t.Errorf("summary rows: %q", rows)
	}
}

func repeat(n, times int) []int {
	out := make([]int, times)
	for i := range out {
		out[i] = n
	}
	return out
}
