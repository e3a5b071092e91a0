package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// hostileFigures is a run of the section: every case measured, peaks of
// 8 MiB + 1 MiB per case, and the errors the bounds give.
func hostileFigures() *hostileResult {
	r := &hostileResult{date: time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC), machine: "a machine"}
	for i, c := range hostileCases() {
		res := probeResult{Case: c.probe, Measured: true, StartKiB: 8 << 10, PeakKiB: int64(8+i+1) << 10,
			Nanos: int64(time.Duration(i+1) * 100 * time.Millisecond), Err: strings.Join(c.expect, " ")}
		switch c.probe {
		case "collect-v2", "collect-v1":
			res.Parts = 100000
		case "download-announced":
			res.Written = hostileBundle
		case "download-trickle":
			res.Nanos = int64(29700 * time.Millisecond)
		case "action-trickle":
			res.Nanos = int64(60340 * time.Millisecond)
		}
		r.rows = append(r.rows, hostileRow{hostileCase: c, probeResult: res})
	}
	return r
}

func TestHostile_sectionAndSummaryFromTheFigures(t *testing.T) {
	r := hostileFigures()
	got := r.section()
	for _, want := range []string{
		hostileHeading + "\n\n",
		"Measured on 2026-11-28 (`make bench BENCH_FLAGS=\"-only hostile\"` measures this section alone); machine: a machine.",
		"| case | what the server does | peak RSS | above start | time | how it ended |",
		"| SDK `Assistant.Ask` (v2) | one event of endless 1 KiB `data:` lines, never a blank line | **9.0 MiB** | +1.0 MiB | 100ms | refused at 4 MiB of one event's data",
		"| SDK `Stream`, then `Collect` (v2) | empty text deltas without end | **11.0 MiB** | +3.0 MiB | 300ms | stopped after 100,000 parts, at the cap",
		"| **13.0 MiB** | +5.0 MiB | 500ms | refused before reading the body",
		"cut at the size announced: 268,435,456 bytes written",
		// The trickle's time is the rule's: 5 attempts of 5 s, and what
		// was left is the backoffs; with the default timeout, 5 minutes and those.
		"| 29.7s | gave up after 5 attempts (the first and 4 resumes)", "5 × 5s, + 4.7s between attempts", "5 × 1m0s + the backoffs, about 5m4.7s",
		"| the `mintlify_static_export` action, `timeout = \"1m\"` | the archive, one byte a second | **17.0 MiB** | +9.0 MiB | 1m0.3s | timed out at the action's `timeout`",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("section lacks %q:\n%s", want, got)
		}
	}
	if rows := strings.Count(got, "\n| "); rows != 1+len(hostileCases()) {
		t.Errorf("%d table lines, want a heading and %d cases:\n%s", rows, len(hostileCases()), got)
	}
	var rows []string
	r.summaryRows(func(what, result string, args ...any) {
		rows = append(rows, "| "+what+" | "+fmt.Sprintf(result, args...)+" |")
	})
	want := []string{
		"| hostile server: peak RSS of an SDK program against an endless event / a flood of empty parts / an endless download | **9.0 MiB / 11.0 MiB / 14.0 MiB** |",
		"| hostile server: the action under an endless download (peak RSS above start) / a 1 byte/s trickle with `timeout = \"1m\"` (time) | **+8.0 MiB / 1m0.3s** |",
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("summary\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}
	for _, row := range rows {
		if !strings.HasPrefix(row, hostileSummaryPrefix) {
			t.Errorf("summary row %q does not start with %q: -only hostile would not replace it", row, hostileSummaryPrefix)
		}
	}
	// In the whole report, after the plans' section; in the summary.
	all := figures()
	all.plans, all.hostile = plansFigures(""), r
	report := all.report()
	if !strings.HasSuffix(strings.TrimRight(report, "\n"), strings.TrimRight(r.section(), "\n")) || strings.Index(report, plansHeading) > strings.Index(report, hostileHeading) {
		t.Error("the report does not end with the hostile server's section, after the plans'")
	}
	if !strings.Contains(all.summary(), want[0]) || !strings.Contains(all.summary(), want[1]) {
		t.Error("the summary lacks the hostile server's rows")
	}
}

// Where the peak cannot be read (not Linux), the section says so rather
// than print 0.
func TestHostile_unmeasuredPeakIsSaidSo(t *testing.T) {
	r := hostileFigures()
	for i := range r.rows {
		r.rows[i].Measured, r.rows[i].StartKiB, r.rows[i].PeakKiB = false, 0, 0
	}
	got := r.section()
	if strings.Contains(got, "0.0 MiB") || !strings.Contains(got, "| **not measured** | not measured | 100ms |") {
		t.Errorf("section:\n%s", got)
	}
}

// A case that ends otherwise than by its bound (another error, or none)
// fails the benchmark: the report never states a bound that did not hold.
func TestHostile_aCaseNotEndedByItsBoundFails(t *testing.T) {
	for _, c := range hostileCases() {
		if len(c.expect) == 0 {
			t.Errorf("%s: no error expected: any ending would pass", c.probe)
			continue
		}
		if err := c.held(&probeResult{Err: strings.Join(c.expect, "; ")}); err != nil {
			t.Errorf("%s: its bound's error refused: %v", c.probe, err)
		}
		for _, other := range []string{"", "context deadline exceeded"} {
			if err := c.held(&probeResult{Err: other}); err == nil || !strings.Contains(err.Error(), "the bound did not hold") {
				t.Errorf("%s ending with %q: %v", c.probe, other, err)
			}
		}
	}
}

// -only hostile replaces the section where it is, or adds it at the end;
// running it twice leaves one section.
func TestHostile_splicedOnceIntoTheReport(t *testing.T) {
	r := hostileFigures()
	report := "# Performance\n\n" + plansHeading + "\n\nplans\n"
	once := spliceSection([]byte(report), hostileHeading, r.section())
	twice := spliceSection(once, hostileHeading, r.section())
	if string(once) != string(twice) || strings.Count(string(twice), hostileHeading) != 1 || !strings.HasPrefix(string(twice), report+"\n"+hostileHeading) {
		t.Errorf("after two splices:\n%s", twice)
	}
	summary := "x\n" + summaryStart + "\n| what | result |\n|---|---|\n| a | b |\n| hostile server: old | 1 |\n" + summaryEnd + "\n"
	var rows strings.Builder
	r.summaryRows(func(what, result string, args ...any) {
		fmt.Fprintf(&rows, "| %s | %s |\n", what, fmt.Sprintf(result, args...))
	})
	got, err := spliceRows([]byte(summary), hostileSummaryPrefix, rows.String())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), "old") || strings.Count(string(got), hostileSummaryPrefix) != 2 || !strings.Contains(string(got), "| a | b |\n"+rows.String()+summaryEnd) {
		t.Errorf("summary after the splice:\n%s", got)
	}
}
