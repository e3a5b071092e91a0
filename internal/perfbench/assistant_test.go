package main

import (
	"fmt"
	"strings"
	"testing"
)

func TestSpliceRows(t *testing.T) {
	summaryFile := "intro\n" + summaryStart + "\n| what | result |\n|---|---|\n| a | 1 |\n| assistant: old | 2 |\n| b | 3 |\n" + summaryEnd + "\nafter\n"
	got, err := spliceRows([]byte(summaryFile), "| assistant: ", "| assistant: new | 4 |\n")
	want := "intro\n" + summaryStart + "\n| what | result |\n|---|---|\n| a | 1 |\n| b | 3 |\n| assistant: new | 4 |\n" + summaryEnd + "\nafter\n"
	if err != nil || string(got) != want {
		t.Errorf("%v\n%s", err, got)
	}
	if _, err := spliceRows([]byte("no table"), "| x", ""); err == nil || !strings.Contains(err.Error(), summaryEnd) {
		t.Errorf("%v", err)
	}
}

func TestAssistantSection_rendersTheFigures(t *testing.T) {
	a := &assistantResult{runs: 5, firstText: map[string]float64{"sdk-us": 600, "raw-us": 520, "overhead-us": 80},
		answer: map[string]map[string]float64{
			"BenchmarkAssistantAnswer10MB/collect": {"peak-MiB": 21.5, "kept-MiB": 10.02, "B/op": 25 << 20, "ns/op": 120e6},
			"BenchmarkAssistantAnswer10MB/iterate": {"peak-MiB": 11.1, "kept-MiB": 0.02, "B/op": 14 << 20, "ns/op": 80e6},
		}}
	s := a.section()
	for _, want := range []string{"| 600 µs | 520 µs | **80 µs** |", "| `Collect` | 21.5 MiB | 10.02 MiB | 25.0 MiB | 120 ms |", "| `Next`, part by part | 11.1 MiB | 0.02 MiB | 14.0 MiB | 80 ms |"} {
		if !strings.Contains(s, want) {
			t.Errorf("section lacks %q:\n%s", want, s)
		}
	}
	var rows []string
	a.summaryRows(func(what, result string, args ...any) {
		rows = append(rows, what+" = "+strings.TrimSpace(fmt.Sprintf(result, args...)))
	})
	if len(rows) != 2 || !strings.Contains(rows[0], "**80 µs** overhead") || !strings.Contains(rows[1], "21.5 MiB vs 11.1 MiB (0.02 MiB kept)") {
		t.Errorf("%q", rows)
	}
}
