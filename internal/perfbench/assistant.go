package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"
)

// The assistant's streamed answer: what the SDK adds to the time to the
// first text part, and the memory of a 10 MiB answer collected or read
// part by part. Both are Go benchmarks of ./sdk (assistant_bench_test.go).

type assistantResult struct {
	date      time.Time
	runs      int
	firstText map[string]float64            // BenchmarkAssistantFirstText's medians
	answer    map[string]map[string]float64 // BenchmarkAssistantAnswer10MB/collect and /iterate
}

// assistantHeading starts the report's section (and ends it: the next
// "## " heading).
const assistantHeading = "## 11. The assistant's streamed answer"

// measureAssistantOnly measures the assistant's section alone (-only
// assistant) and splices it into the report at out and its rows into
// the summary table (CONTRIBUTING.md), leaving the other sections as they were.
func (b *bench) measureAssistantOnly(out, summaryFile string) error {
	a, err := b.measureAssistant()
	if err != nil {
		return err
	}
	return spliceOnly(out, summaryFile, "the assistant's", assistantHeading, a.section(), "| assistant: ", a.summaryRows)
}

// spliceOnly writes a section measured alone (-only) into the report at
// out, in place of the one that starts with heading, and, when
// summaryFile is set, its rows into that file's summary table, in place
// of those that start with prefix. name says whose section it is.
func spliceOnly(out, summaryFile, name, heading, section, prefix string, summaryRows func(row func(what, result string, args ...any))) error {
	report, err := os.ReadFile(out) //nolint:gosec // a path the developer names
	if err != nil {
		return fmt.Errorf("%s: -only splices into an existing report: %w", out, err)
	}
	if err := os.WriteFile(out, spliceSection(report, heading, section), 0o600); err != nil { //nolint:gosec // a path the developer names
		return err
	}
	fmt.Println("wrote", name, "section of", out)
	if summaryFile == "" {
		return nil
	}
	var rows strings.Builder
	summaryRows(func(what, result string, args ...any) {
		fmt.Fprintf(&rows, "| %s | %s |\n", what, fmt.Sprintf(result, args...))
	})
	old, err := os.ReadFile(summaryFile) //nolint:gosec // a path the developer names
	if err != nil {
		return err
	}
	updated, err := spliceRows(old, prefix, rows.String())
	if err != nil {
		return fmt.Errorf("%s: %w", summaryFile, err)
	}
	fmt.Println("wrote", name, "rows in", summaryFile)
	return os.WriteFile(summaryFile, updated, 0o600) //nolint:gosec // a path the developer names
}

// measureAssistant runs the two benchmarks, runs times each.
func (b *bench) measureAssistant() (*assistantResult, error) {
	count := fmt.Sprint(max(b.runs, 1))
	first, err := goBench(b.ctx, "AssistantFirstText", "-benchtime", "300x", "-count", count)
	if err != nil {
		return nil, err
	}
	answer, err := goBench(b.ctx, "AssistantAnswer10MB", "-benchmem", "-benchtime", "10x", "-count", count)
	if err != nil {
		return nil, err
	}
	return &assistantResult{date: time.Now().UTC(), runs: b.runs, firstText: first["BenchmarkAssistantFirstText"], answer: answer}, nil
}

// section renders the report's section.
func (a *assistantResult) section() string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format, args...) }
	p("%s\n\n", assistantHeading)
	p("`go test -bench 'AssistantFirstText|AssistantAnswer10MB' ./sdk` on %s, %d runs, medians (`make bench BENCH_FLAGS=\"-only assistant\"` measures this section alone).\n\n", a.date.Format("2006-01-02"), a.runs)
	p("**Time to the first text part.** A question to the fake's assistant on loopback, until the first `text-delta` part: through the SDK (`Assistant.Stream`, then `Next`), and by a raw HTTP read of the same stream (`bufio` lines until one holds a text delta). The two alternate, 300 pairs a run; the overhead is the median of the pairs' differences. Target: under 1 ms.\n\n")
	p("| through the SDK | raw HTTP read | **SDK overhead** |\n|---:|---:|---:|\n")
	p("| %.0f µs | %.0f µs | **%.0f µs** |\n\n", a.firstText["sdk-us"], a.firstText["raw-us"], a.firstText["overhead-us"])
	p("**A 10 MiB answer.** The fake's answer padded to 10 MiB of text (`[fake:size=10MB]`, deltas of 4 KiB), recorded once and replayed by a plain handler so that only the client is measured. `Collect` keeps the whole text; `Next` drops each part once read. Peak is the heap of live and not yet collected objects during the read (for `Next`, mostly parts already dropped that the collector has not reached yet), kept what the read left in memory, both above the heap before it.\n\n")
	p("| read | peak heap | kept after | allocated | time |\n|---|---:|---:|---:|---:|\n")
	for _, mode := range []string{"collect", "iterate"} {
		m := a.answer["BenchmarkAssistantAnswer10MB/"+mode]
		label := map[string]string{"collect": "`Collect`", "iterate": "`Next`, part by part"}[mode]
		p("| %s | %.1f MiB | %.2f MiB | %.1f MiB | %.0f ms |\n", label, m["peak-MiB"], m["kept-MiB"], m["B/op"]/(1<<20), m["ns/op"]/1e6)
	}
	p("\n")
	return w.String()
}

// summaryRows are the summary table's rows of the section.
func (a *assistantResult) summaryRows(row func(what, result string, args ...any)) {
	row("assistant: time to the first text part, SDK vs a raw HTTP read of the same stream", "%.0f µs vs %.0f µs: **%.0f µs** overhead",
		a.firstText["sdk-us"], a.firstText["raw-us"], a.firstText["overhead-us"])
	c, i := a.answer["BenchmarkAssistantAnswer10MB/collect"], a.answer["BenchmarkAssistantAnswer10MB/iterate"]
	row("assistant: a 10 MiB answer, peak heap collected vs read part by part", "%.1f MiB vs %.1f MiB (%.2f MiB kept)", c["peak-MiB"], i["peak-MiB"], i["kept-MiB"])
}

// spliceRows replaces the summary table's rows that start with prefix by
// rows, at the table's end.
func spliceRows(summaryFile []byte, prefix, rows string) ([]byte, error) {
	end := bytes.Index(summaryFile, []byte(summaryEnd))
	if end < 0 {
		return nil, errors.New("the summary file has no " + summaryEnd + " marker")
	}
	var kept []string
	for _, line := range strings.SplitAfter(string(summaryFile[:end]), "\n") {
		if !strings.HasPrefix(line, prefix) {
			kept = append(kept, line)
		}
	}
	return []byte(strings.Join(kept, "") + rows + string(summaryFile[end:])), nil
}
