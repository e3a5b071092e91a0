package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// figures is a run's results as docs/performance.md reported them.
func figures() *results {
	s := time.Second
	return &results{
		reqs: []requestRow{
			{source: "unique_visitors", paths: 0, reads: 1, requests: 1, floor: 1},
			{source: "unique_visitors", paths: 100000, reads: 1, requests: 400, floor: 400},
			{source: "assistant_conversations", paths: 1001, reads: 1, requests: 4, floor: 2}, // a regression shows,
		},
		scales: []*scaleResult{{
			source: "page_views", paths: 100000, apply: 8150 * time.Millisecond,
			floorApply: 9530 * time.Millisecond, floorGen: 1480 * time.Millisecond,
			cpu: 5470 * time.Millisecond, floorCPU: 6890 * time.Millisecond,
		}},
		wait: map[string]map[string]float64{
			"BenchmarkWaitForAgentJob/job=3s":      {"max-late-s": 0.29, "max-polls": 3},
			"BenchmarkWaitForAgentJob/job=30s":     {"max-late-s": 3.95, "max-polls": 16},
			"BenchmarkWaitForAgentJob/job=5m0s":    {"max-late-s": 19.31, "max-polls": 39},
			"BenchmarkWaitForDeployment/run=1m0s":  {"max-late-s": 6.89, "max-polls": 22},
			"BenchmarkWaitForDeployment/run=10m0s": {"max-late-s": 19.06, "max-polls": 54},
		},
		many:  &manyJobsResult{jobs: 50, parallelism: 10, jobTime: 3 * s, wall: 16800 * time.Millisecond},
		soak:  &soakResult{applies: 20, failed: 1, jobsInState: 100, jobsOnServer: 100, messagesInState: 99, messagesOnServer: 99, dataMismatches: 0},
		cache: &cacheResult{commands: 20, paths: 1200, requestsDefault: 5, requestsOff: 100, pairPaths: 100000, pairDefault: 400, pairOff: 800},
	}
}

func TestSummary_oneLinePerSectionFromTheSameFigures(t *testing.T) {
	want := `| what | result |
|---|---|
| analytics requests per read, every paged data source, 0 to 100,000 rows | ceil(rows / largest page): ratio 1.00 to 2.00 |
| ` + "`mintlify_page_views`" + `, 100,000 rows: apply through HTTP vs the same rows from memory | 8.15s vs 8.05s (1.01); provider CPU 1.01× the floor's |
| lateness noticing a finished job (3 s / 30 s / 300 s jobs, worst of 200) | 0.29 s / 3.95 s / 19.31 s; at most 39 polls |
| lateness noticing a finished deployment (1 min / 10 min, worst of 200) | 6.89 s / 19.06 s; at most 22 / 54 polls |
| 50 jobs of 3s in one apply (ideal 15s) | 16.8s |
| fault soak: 20 applies under random 429 / 502 / dropped connections / 2xx with mistyped fields | 19 of 20 succeeded; 100 jobs in state, 100 on the server; 99 messages in state, 99 on the server; 0 misread results |
| analytics requests of 20 terraform commands on 1,200 paths | **5** with the cache (its default), 100 without |
| ` + "`plan`" + ` then ` + "`apply`" + ` of 100,000 paths | **400** requests with the cache, 800 without |
`
	if diff := cmp.Diff(strings.Split(want, "\n"), strings.Split(figures().summary(), "\n")); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestSummary_equalRatiosSayEverySize(t *testing.T) {
	r := &results{reqs: []requestRow{{source: "feedback", paths: 0, reads: 1, requests: 1, floor: 1}, {source: "feedback", paths: 101, reads: 1, requests: 2, floor: 2}}}
	if got := r.summary(); !strings.Contains(got, "0 to 101 rows | ceil(rows / largest page): ratio 1.00 at every size |") {
		t.Errorf("got:\n%s", got)
	}
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 100000: "100,000", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestSpliceSummary(t *testing.T) {
	summaryFile := "# Title\n\n## Performance\n\n" + summaryStart + "\n| old |\n" + summaryEnd + "\n\n## Next\n"
	got, err := spliceSummary([]byte(summaryFile), "| new |\n")
	if err != nil {
		t.Fatal(err)
	}
	want := "# Title\n\n## Performance\n\n" + summaryStart + "\n| new |\n" + summaryEnd + "\n\n## Next\n"
	if string(got) != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	again, err := spliceSummary(got, "| new |\n")
	if err != nil || string(again) != want {
		t.Errorf("splicing the same table twice changed the summary: %v\n%s", err, again)
	}
	for name, bad := range map[string]string{
		"no markers":       "# Title\n",
		"no end":           summaryStart + "\n",
		"end before start": summaryEnd + "\n" + summaryStart + "\n",
	} {
		if _, err := spliceSummary([]byte(bad), "| new |\n"); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// make bench rewrites the summary last, after minutes of measuring: the
// block it needs is checked here, by every make test.
func TestContributing_hasTheSummaryBlock(t *testing.T) {
	summaryFile, err := os.ReadFile(filepath.Join("..", "..", "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := spliceSummary(summaryFile, "| x |\n"); err != nil {
		t.Error(err)
	}
}

func TestSpliceSection(t *testing.T) {
	report := "# Performance\n\n## 7. Cache\n\nseven\n\n## 8. Download\n\nold\n"
	got := string(spliceSection([]byte(report), "## 8. ", "## 8. Download\n\nnew\n"))
	if got != "# Performance\n\n## 7. Cache\n\nseven\n\n## 8. Download\n\nnew\n" {
		t.Errorf("replace at the end: %q", got)
	}
	got = string(spliceSection([]byte("## 8. D\n\nold\n## 9. N\n"), "## 8. ", "## 8. D\n\nnew\n"))
	if got != "## 8. D\n\nnew\n## 9. N\n" {
		t.Errorf("replace in the middle: %q", got)
	}
	got = string(spliceSection([]byte("# P\n\n## 7. C\n\nseven\n"), "## 8. ", "## 8. D\n\nnew\n"))
	if got != "# P\n\n## 7. C\n\nseven\n\n## 8. D\n\nnew\n" {
		t.Errorf("append: %q", got)
	}
}

func TestSpliceSummaryRow(t *testing.T) {
	summaryFile := "x\n" + summaryStart + "\n| what | result |\n|---|---|\n| a | 1 |\n" + summaryEnd + "\ny\n"
	got, err := spliceSummaryRow([]byte(summaryFile), "| b |", "| b | 2 |\n")
	if err != nil || string(got) != "x\n"+summaryStart+"\n| what | result |\n|---|---|\n| a | 1 |\n| b | 2 |\n"+summaryEnd+"\ny\n" {
		t.Fatalf("add: %q %v", got, err)
	}
	got, err = spliceSummaryRow(got, "| a |", "| a | 3 |\n")
	if err != nil || string(got) != "x\n"+summaryStart+"\n| what | result |\n|---|---|\n| a | 3 |\n| b | 2 |\n"+summaryEnd+"\ny\n" {
		t.Fatalf("replace: %q %v", got, err)
	}
	if _, err := spliceSummaryRow([]byte("no block"), "| a |", "| a | 1 |\n"); err == nil {
		t.Error("no block accepted")
	}
}
