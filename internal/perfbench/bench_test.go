package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseBenchOutput(t *testing.T) {
	out := `goos: linux
BenchmarkDecodeVisitorsPage250-2   	     200	    191619 ns/op	  92.48 MB/s	   30625 B/op	     267 allocs/op
BenchmarkDecodeVisitorsPage250-2   	     200	    180000 ns/op	  99.00 MB/s	   30625 B/op	     267 allocs/op
BenchmarkDecodeVisitorsPage250-2   	     200	    200000 ns/op	  90.00 MB/s	   30625 B/op	     267 allocs/op
BenchmarkWaitForAgentJob/job=3s-2         	      50	         0.2155 late-s	         3.000 polls
PASS
ok  	github.com/mintlify/terraform-provider-mintlify/sdk	0.051s
`
	want := map[string]map[string]float64{
		"BenchmarkDecodeVisitorsPage250":  {"ns/op": 191619, "MB/s": 92.48, "B/op": 30625, "allocs/op": 267},
		"BenchmarkWaitForAgentJob/job=3s": {"late-s": 0.2155, "polls": 3},
	}
	if diff := cmp.Diff(want, parseBenchOutput(out)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := parseBenchOutput("PASS\nok x 0.1s\n"); len(got) != 0 {
		t.Errorf("parsed %v from no benchmark lines", got)
	}
}

func TestMedian(t *testing.T) {
	if got := median([]int{5, 1, 3}); got != 3 {
		t.Errorf("odd: %d", got)
	}
	if got := median([]time.Duration{4, 1, 3, 2}); got != 2 {
		t.Errorf("even: %d", got)
	}
	xs := []float64{3, 1, 2}
	median(xs)
	if xs[0] != 3 {
		t.Error("median sorted its argument in place")
	}
}

func TestFirstLine(t *testing.T) {
	for output, want := range map[string]string{
		"terraform apply: exit 1\n  Warning: x\n  Error: Could not create\n  more": "Error: Could not create",
		"plain failure\nsecond": "plain failure",
	} {
		if got := firstLine(output); got != want {
			t.Errorf("firstLine(%q) = %q, want %q", output, got, want)
		}
	}
}

func TestUsage_largestRSSAndTotalCPU(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rss")
	if err := os.WriteFile(path, []byte("20448 30000\n529348 5020000\nbroken\n20260 10000\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rss, cpu := usage(path)
	if rss != 529348 || cpu != 5060*time.Millisecond {
		t.Errorf("rss %d, cpu %s", rss, cpu)
	}
	if rss, cpu := usage(filepath.Join(t.TempDir(), "missing")); rss != 0 || cpu != 0 {
		t.Errorf("missing file: %d %s", rss, cpu)
	}
}
