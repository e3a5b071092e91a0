// Command perfbench measures the provider against the fake API on loopback
// and writes docs/performance.md. `make bench` builds and runs it; it is a
// benchmark, not a test, and is not part of `make test`.
//
// It drives real `terraform apply` runs through a dev_overrides CLI config.
// The provider binary is reached through this same program in wrapper mode
// (MINTLIFY_BENCH_WRAP_TARGET), which runs the real binary as its child and
// records the child's peak RSS.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

func main() {
	if target := os.Getenv("MINTLIFY_BENCH_WRAP_TARGET"); target != "" {
		os.Exit(wrap(target, os.Getenv("MINTLIFY_BENCH_RSS_FILE")))
	}
	if mode := os.Getenv(envDownload); mode != "" {
		os.Exit(downloadChild(mode))
	}
	if mode := os.Getenv(envHostile); mode != "" {
		os.Exit(hostileActionChild(mode))
	}
	out := flag.String("out", "docs/performance.md", "report to write")
	summaryFile := flag.String("summary", "", "file whose summary block (between its make bench markers) to rewrite; none when empty")
	provider := flag.String("provider", "", "provider binary (required)")
	floor := flag.String("floor", "", "the floor build of the provider, from ./internal/perfbench/floor (required)")
	terraform := flag.String("terraform", "terraform", "terraform binary")
	runs := flag.Int("runs", 3, "runs per timed figure (the median is reported)")
	quick := flag.Bool("quick", false, "smaller data sets and fewer applies, to try the harness")
	limit := flag.Duration("timeout", 30*time.Minute, "stop everything after this long")
	baseline := flag.String("baseline", "", "another build of the provider (an earlier commit's) to measure beside it, as \"before\", where a section compares (section 12, requests per no-change plan)")
	baselineLabel := flag.String("baseline-label", "an earlier build", "what -baseline is, as the report names it (\"main at d66eb1e\")")
	only := flag.String("only", "", `measure one section alone: "download", "assistant", "plans", "hostile" or "daily" (each spliced into the existing report and its summary lines), "waits" (the waits for jobs and deployments), "scale" (the 100,000-row applies against the floor, section 2), "budget" (the analytics budget, section 8), "soak" (the fault soak, section 6) or "endless" (a server that never stops paging, section 10) (printed, writing nothing)`)
	flag.Parse()
	// The assistant's section is Go benchmarks of ./sdk alone, and the
	// hostile server's is run by its own probe and by this program: no
	// terraform, no provider build.
	if (*provider == "" || *floor == "") && *only != "assistant" && *only != "hostile" {
		log.Fatal("perfbench: -provider and -floor are required (make bench sets them)")
	}
	// The whole benchmark is bounded in time: it stops by itself.
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()
	b, err := newBench(ctx, *terraform, *provider, *floor, *runs, *quick)
	if err != nil {
		log.Fatal(err)
	}
	if *baseline != "" {
		b.baseline, b.baselineLabel = abs(*baseline), *baselineLabel
	}
	defer b.close()
	if *only == "waits" {
		wait, err := b.measureWaits()
		if err != nil {
			log.Fatal(err)
		}
		var w strings.Builder
		(&results{wait: wait}).writeWaits(func(format string, args ...any) { fmt.Fprintf(&w, format, args...) })
		fmt.Print(w.String())
		return
	}
	if *only == "scale" {
		var res results
		paths := 100000
		if *quick {
			paths = 10000
		}
		for i, s := range []source{visitorsSource, viewsSource} {
			log.Printf("%d/2 read cost at %d rows of %s (%d runs each, provider and floor)", i+1, paths, s.name, b.runs)
			scale, err := b.measureScale(s, paths)
			if err != nil {
				log.Fatal(err)
			}
			res.scales = append(res.scales, scale)
		}
		var w strings.Builder
		res.writeScales(func(format string, args ...any) { fmt.Fprintf(&w, format, args...) })
		fmt.Print(w.String())
		return
	}
	if *only == "budget" {
		plans, runners, paths := 20, 10, 100000
		if *quick {
			plans, runners, paths = 4, 3, 10000
		}
		budget, err := b.measureBudget(plans, runners, paths)
		if err != nil {
			log.Fatal(err)
		}
		var w strings.Builder
		(&results{budget: budget}).writeBudget(func(format string, args ...any) { fmt.Fprintf(&w, format, args...) })
		fmt.Print(w.String())
		return
	}
	if *only == "endless" {
		endless, err := b.measureEndless()
		if err != nil {
			log.Fatal(err)
		}
		var w strings.Builder
		(&results{endless: endless}).writeEndless(func(format string, args ...any) { fmt.Fprintf(&w, format, args...) })
		fmt.Print(w.String())
		return
	}
	if *only == "soak" {
		applies := 20
		if *quick {
			applies = 3
		}
		soak, err := b.soak(applies, 5, 2000)
		if err != nil {
			log.Fatal(err)
		}
		var w strings.Builder
		(&results{soak: soak}).writeSoak(func(format string, args ...any) { fmt.Fprintf(&w, format, args...) })
		fmt.Print(w.String())
		return
	}
	if *only != "" {
		if err := b.measureOnly(*only, *out, *summaryFile); err != nil {
			log.Fatal(err)
		}
		return
	}
	res, err := b.measure()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(*out), 0o750); err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, []byte(res.report()), 0o600); err != nil {
		log.Fatal(err)
	}
	fmt.Println("wrote", *out)
	if *summaryFile != "" {
		if err := rewriteSummary(*summaryFile, res.summary()); err != nil {
			log.Fatal(err)
		}
		fmt.Println("wrote the summary in", *summaryFile)
	}
}

// rewriteSummary replaces the summary block of the file at path.
func rewriteSummary(path, table string) error {
	old, err := os.ReadFile(path) //nolint:gosec // a path the developer names
	if err != nil {
		return err
	}
	updated, err := spliceSummary(old, table)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	return os.WriteFile(path, updated, info.Mode().Perm())
}

// wrap runs target with this process's arguments and stdio (Terraform's
// plugin handshake passes straight through), then appends the child's peak
// resident set size in KiB and its CPU time (user + system) in
// microseconds to rssFile, one line per process.
func wrap(target, rssFile string) int {
	// The child lives as long as Terraform keeps the plugin: no deadline here.
	cmd := exec.CommandContext(context.Background(), target, os.Args[1:]...) //nolint:gosec // the harness names its own binary
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "perfbench wrapper:", err)
		return 1
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		for s := range sigs {
			_ = cmd.Process.Signal(s)
		}
	}()
	err := cmd.Wait()
	if rssFile != "" && cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			if f, ferr := os.OpenFile(rssFile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); ferr == nil { //nolint:gosec // the harness's own temp file
				cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
				fmt.Fprintln(f, ru.Maxrss, cpu.Microseconds())
				_ = f.Close()
			}
		}
	}
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok { //nolint:errorlint // Wait returns *ExitError unwrapped
			return ee.ExitCode()
		}
		return 1
	}
	return 0
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n    ")
}
