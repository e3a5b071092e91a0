package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakehostile"
	"github.com/mintlify/terraform-provider-mintlify/internal/perfbench/peak"
	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// A hostile server: the memory and the time a client spends before it
// ends an answer that would never end on its own (an event without end, a
// flood of empty parts, an endless or trickling download). Each case is
// one process against the fake on loopback (in this process, with the
// fault injected): the SDK's cases in hostileprobe, a program that links
// the SDK alone; the action's in this program as a child
// (MINTLIFY_BENCH_HOSTILE), which invokes the provider's protocol-6
// server as Terraform 1.14 would. Each reports its own peak RSS (VmHWM,
// reset just before the case) and time.

// hostileHeading starts the report's section (and ends it: the next "## "
// heading).
const hostileHeading = "## 13. A hostile server"

// hostileSummaryPrefix starts the summary rows of the section.
const hostileSummaryPrefix = "| hostile server: "

// envHostile makes this program the action's probe: "endless" or "trickle".
const envHostile = "MINTLIFY_BENCH_HOSTILE"

// hostileBundle is the size announced for the endless downloads: the
// client must hold to it, whatever the server sends after.
const hostileBundle = 256 << 20

// hostileTrickleTimeout is the SDK's request timeout in its trickle case:
// with the default (1 min) the case takes over 5 minutes, and its time
// follows the same rule (attempts × request timeout + backoffs).
const hostileTrickleTimeout = 5 * time.Second

// probeResult is what a case's process prints.
type probeResult = peak.Result

// hostileCase is one case: who reads, what the server does, and the error
// that must end it (the bound that holds).
type hostileCase struct {
	probe  string // hostileprobe's -case, or "action-endless" / "action-trickle"
	who    string
	server string
	faults []mintlifytest.Fault
	expect []string // what the error must say
	ended  func(r probeResult) string
}

func hostileCases() []hostileCase {
	download := mintlifytest.RouteStaticExportsDownloadBundle
	endlessBody := []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Route: download, Kind: fakehostile.EndlessBody})}
	trickle := []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Route: download, Kind: fakehostile.Trickle, Latency: time.Second})}
	flood := func(r probeResult) string {
		return fmt.Sprintf("stopped after %s parts, at the cap (`WithMaxStreamParts`): a `StreamError`", thousands(r.Parts))
	}
	return []hostileCase{
		{probe: "ask-v2", who: "SDK `Assistant.Ask` (v2)", server: "one event of endless 1 KiB `data:` lines, never a blank line",
			faults: []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStream, Kind: fakehostile.EndlessEvent})},
			expect: []string{"an event's data is longer than 4194304 bytes"},
			ended: func(probeResult) string {
				return "refused at 4 MiB of one event's data (an event is capped like a line): a `StreamError`"
			}},
		{probe: "ask-v1", who: "SDK `Assistant.Ask` (v1)", server: "one line that never ends",
			faults: []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStreamV1, Kind: fakehostile.EndlessEvent})},
			expect: []string{"a line is longer than 4194304 bytes"},
			ended:  func(probeResult) string { return "refused at 4 MiB of one line: a `StreamError`" }},
		{probe: "collect-v2", who: "SDK `Stream`, then `Collect` (v2)", server: "empty text deltas without end",
			faults: []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStream, Kind: fakehostile.EmptyDeltas})},
			expect: []string{"more than 100000 parts"}, ended: flood},
		{probe: "collect-v1", who: "SDK `Stream`, then `Collect` (v1)", server: "empty `0:\"\"` lines without end",
			faults: []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStreamV1, Kind: fakehostile.EmptyDeltas})},
			expect: []string{"more than 100000 parts"}, ended: flood},
		{probe: "download-unannounced", who: "SDK `DownloadBundle`, no size given", server: "a gzip header, then zeros without end; no `Content-Length`",
			faults: endlessBody, expect: []string{"no size was announced"},
			ended: func(r probeResult) string {
				return fmt.Sprintf("refused before reading the body: no size announced, an endless body cannot be told from a large one (%s bytes written)", thousands(int(r.Written)))
			}},
		{probe: "download-announced", who: fmt.Sprintf("SDK `DownloadBundle`, `WithExpectedSize` (the API's `sizeBytes`, %d MiB)", hostileBundle>>20), server: "the same endless body",
			faults: endlessBody, expect: []string{"sent more than the"},
			ended: func(r probeResult) string {
				return fmt.Sprintf("cut at the size announced: %s bytes written, then an error", thousands(int(r.Written)))
			}},
		{probe: "download-trickle", who: fmt.Sprintf("SDK `DownloadBundle`, `WithRequestTimeout(%s)`", hostileTrickleTimeout), server: "the archive, one byte a second",
			faults: trickle, expect: []string{"after 5 attempts"},
			ended: func(r probeResult) string {
				took := time.Duration(r.Nanos)
				attempts := time.Duration(sdk.DefaultMaxRetries+1) * hostileTrickleTimeout
				backoffs := took - attempts
				return fmt.Sprintf("gave up after %d attempts (the first and %d resumes), each cut when less than 1 KiB a second (`MinDownloadRate`) came in a request timeout: %d × %s, + %s between attempts (the backoffs). With the default timeout (1 min): %d × 1m0s + the backoffs, about %s",
					sdk.DefaultMaxRetries+1, sdk.DefaultMaxRetries, sdk.DefaultMaxRetries+1, hostileTrickleTimeout, round(backoffs),
					sdk.DefaultMaxRetries+1, round(time.Duration(sdk.DefaultMaxRetries+1)*sdk.DefaultRequestTimeout+backoffs))
			}},
		{probe: "action-endless", who: "the `mintlify_static_export` action, `output_path`", server: fmt.Sprintf("the same endless body, %d MiB announced", hostileBundle>>20),
			faults: endlessBody, expect: []string{"sent more than the", "Nothing was written to"},
			ended: func(probeResult) string {
				return fmt.Sprintf("cut at the %d MiB announced; the partial file removed, nothing at `output_path`, the export's id in the error", hostileBundle>>20)
			}},
		{probe: "action-trickle", who: "the `mintlify_static_export` action, `timeout = \"1m\"`", server: "the archive, one byte a second",
			faults: trickle, expect: []string{"Timed out downloading", "Nothing was written to"},
			ended: func(probeResult) string {
				return "timed out at the action's `timeout` (the export, its wait and the download all inside it); nothing at `output_path`"
			}},
	}
}

// held says whether a case ended as its bound promises: with an error
// saying what the bound says.
func (c hostileCase) held(res *probeResult) error {
	for _, want := range c.expect {
		if !strings.Contains(res.Err, want) {
			return fmt.Errorf("%s against %q ended with %q, not an error saying %q: the bound did not hold", c.who, c.server, res.Err, want)
		}
	}
	return nil
}

type hostileRow struct {
	hostileCase
	probeResult
}

type hostileResult struct {
	date    time.Time
	machine string
	rows    []hostileRow
}

// measureHostile runs every case once (peak RSS does not vary with the
// machine's load; the times are each a single run).
func (b *bench) measureHostile() (*hostileResult, error) {
	probe := filepath.Join(b.work, "hostileprobe")
	build := exec.CommandContext(b.ctx, "go", "build", "-o", probe, "./internal/perfbench/hostileprobe") //nolint:gosec // fixed arguments
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build ./internal/perfbench/hostileprobe: %w\n%s", err, indent(string(out)))
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	r := &hostileResult{date: time.Now().UTC(), machine: machine(b.ctx, b.tf)}
	for i, c := range hostileCases() {
		log.Printf("  %d/%d %s: %s", i+1, len(hostileCases()), c.who, c.server)
		res, err := b.hostileCase(c, probe, self)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.probe, err)
		}
		if err := c.held(res); err != nil {
			return nil, err
		}
		r.rows = append(r.rows, hostileRow{hostileCase: c, probeResult: *res})
	}
	return r, nil
}

// hostileCase starts a fake with the case's faults and runs its process.
func (b *bench) hostileCase(c hostileCase, probe, self string) (*probeResult, error) {
	f, err := startFake(mintlifytest.Config{StaticExports: mintlifytest.StaticExportConfig{
		Default: mintlifytest.ExportScript{Pages: 12}, LinkTTL: time.Hour}})
	if err != nil {
		return nil, err
	}
	defer f.close()
	version := fmt.Sprintf("hostile [fake:completed] [fake:bundle=%d]", hostileBundle)
	if c.probe == "download-trickle" || c.probe == "action-trickle" {
		version = "hostile [fake:completed]" // its own small archive: the trickle never gets far
	}
	var cmd *exec.Cmd
	switch {
	case strings.HasPrefix(c.probe, "action-"):
		out := filepath.Join(b.work, "hostile", "docs.tar.gz")
		if err := os.MkdirAll(filepath.Dir(out), 0o750); err != nil {
			return nil, err
		}
		cmd = exec.CommandContext(b.ctx, self) //nolint:gosec // this program
		cmd.Env = append(cleanEnv(), envHostile+"="+strings.TrimPrefix(c.probe, "action-"), "MINTLIFY_BENCH_FAKE_URL="+f.url,
			envDownloadOut+"="+out, "MINTLIFY_BENCH_HOSTILE_VERSION="+version)
	case strings.HasPrefix(c.probe, "download-"):
		cl, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(f.url))
		if err != nil {
			return nil, err
		}
		e, err := cl.StaticExports.Start(b.ctx, sdk.StaticExportRequest{Domain: "docs.example.com", Version: version})
		if err != nil {
			return nil, err
		}
		bundle, err := cl.StaticExports.CreateBundleWhenReady(b.ctx, e.ID)
		if err != nil {
			return nil, err
		}
		args := []string{"-case", c.probe, "-url", f.url, "-key", mintlifytest.DemoAPIKey, "-link", bundle.URL}
		if c.probe != "download-unannounced" {
			args = append(args, "-size", fmt.Sprint(bundle.SizeBytes))
		}
		if c.probe == "download-trickle" {
			args = append(args, "-request-timeout", hostileTrickleTimeout.String())
		}
		cmd = exec.CommandContext(b.ctx, probe, args...) //nolint:gosec // the benchmark's own build
	default:
		cmd = exec.CommandContext(b.ctx, probe, "-case", c.probe, "-url", f.url, //nolint:gosec // the benchmark's own build
			"-assistant-key", mintlifytest.DemoAssistantKey, "-domain", mintlifytest.DemoDomain)
	}
	for _, fault := range c.faults {
		f.InjectFault(fault)
	}
	stdout, _, err := runChild(cmd)
	if err != nil {
		return nil, fmt.Errorf("%w: %s", err, stdout)
	}
	var res probeResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		return nil, fmt.Errorf("the probe said %q: %w", stdout, err)
	}
	return &res, nil
}

// hostileActionChild is this program as the action's probe: it invokes
// the mintlify_static_export action (output_path, and timeout = "1m" for
// the trickle) through the provider's protocol-6 server against the fake
// at MINTLIFY_BENCH_FAKE_URL, and prints a probeResult.
func hostileActionChild(mode string) int {
	ctx := context.Background()
	res := probeResult{Case: "action-" + mode}
	timeout := "10m"
	if mode == "trickle" {
		timeout = "1m"
	}
	actions, schema, err := actionServer(ctx, os.Getenv("MINTLIFY_BENCH_FAKE_URL"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "perfbench hostile:", err)
		return 1
	}
	cfg := dynamic(schema.ActionSchemas["mintlify_static_export"].Schema, map[string]tftypes.Value{
		"domain": str("docs.example.com"), "version": str(os.Getenv("MINTLIFY_BENCH_HOSTILE_VERSION")),
		"output_path": str(os.Getenv(envDownloadOut)), "timeout": str(timeout)})
	// The provider's start-up (its schema, its configuration) is not the
	// case: the high-water mark starts again here.
	res.Measured = peak.Reset()
	res.StartKiB = peak.KiB(peak.Self, "VmRSS")
	start := time.Now()
	stream, err := actions.InvokeAction(ctx, &tfprotov6.InvokeActionRequest{ActionType: "mintlify_static_export", Config: cfg})
	if err != nil {
		fmt.Fprintln(os.Stderr, "perfbench hostile:", err)
		return 1
	}
	var diags []string
	for ev := range stream.Events {
		if e, ok := ev.Type.(tfprotov6.CompletedInvokeActionEventType); ok {
			for _, d := range e.Diagnostics {
				if d.Severity == tfprotov6.DiagnosticSeverityError {
					diags = append(diags, d.Summary+": "+d.Detail)
				}
			}
		}
	}
	res.Nanos = time.Since(start).Nanoseconds()
	if res.Measured {
		res.PeakKiB = peak.KiB(peak.Self, "VmHWM")
	}
	res.Err = strings.Join(diags, "\n")
	if _, err := os.Lstat(os.Getenv(envDownloadOut)); err == nil { //nolint:gosec // the harness's own file
		res.Err += "\n(a file was left at output_path)"
	}
	if err := json.NewEncoder(os.Stdout).Encode(res); err != nil {
		return 1
	}
	return 0
}

// mib writes KiB as MiB, or says it was not measured.
func mib(measured bool, kib int64) string {
	if !measured {
		return "not measured"
	}
	return fmt.Sprintf("%.1f MiB", float64(kib)/1024)
}

// section renders the report's section.
func (r *hostileResult) section() string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format, args...) }
	p("%s\n\n", hostileHeading)
	p("What a client spends before it ends an answer that would never end by itself. Each case is one process against the fake on loopback, its fault injected (`internal/fakehostile`'s faults on `sdk/mintlifytest`, `mintlify-fake -fault`): the SDK's in `internal/perfbench/hostileprobe`, a program that links the SDK alone (as a Go service would); the action's in a process that links the provider and invokes `mintlify_static_export` through its protocol-6 server as Terraform 1.14 would. **Peak RSS** is the process's high-water mark (`VmHWM`) at the case's end, reset just before it (`/proc/self/clear_refs`): for the action, its start-up (schema, configuration) is left out; **above start** is what the case added to the process's resident set. Time is the case's own, one run each: RSS does not depend on the machine's load, times do (a loaded machine makes the floods slower, not the timeouts longer). Measured on %s (`make bench BENCH_FLAGS=\"-only hostile\"` measures this section alone); machine: %s.\n\n", r.date.Format("2006-01-02"), r.machine)
	p("| case | what the server does | peak RSS | above start | time | how it ended |\n|---|---|---:|---:|---:|---|\n")
	for _, row := range r.rows {
		above := "not measured"
		if row.Measured {
			above = fmt.Sprintf("+%.1f MiB", float64(row.PeakKiB-row.StartKiB)/1024)
		}
		p("| %s | %s | **%s** | %s | %s | %s |\n", row.who, row.server, mib(row.Measured, row.PeakKiB), above, round(time.Duration(row.Nanos)), row.ended(row.probeResult))
	}
	p("\nEvery case ended with the error its bound promises (the benchmark fails otherwise). The SDK's bounds, each with a default and an option: 4 MiB for a line or an event's data, `WithMaxStreamParts` (100,000 parts), `WithMaxStreamDuration` (10 min for a stream that trickles), `WithRequestTimeout` with `MinDownloadRate` for a download (resumed at most `WithMaxRetries` times), and the size announced for a download's total. The action adds its `timeout` over everything it does.\n\n")
	return w.String()
}

// row finds a case's row (none measured: zero).
func (r *hostileResult) row(probe string) hostileRow {
	for _, row := range r.rows {
		if row.probe == probe {
			return row
		}
	}
	return hostileRow{}
}

// summaryRows are the summary table's rows of the section.
func (r *hostileResult) summaryRows(row func(what, result string, args ...any)) {
	peak := func(probe string) string {
		x := r.row(probe)
		return mib(x.Measured, x.PeakKiB)
	}
	row("hostile server: peak RSS of an SDK program against an endless event / a flood of empty parts / an endless download", "**%s / %s / %s**",
		peak("ask-v2"), peak("collect-v2"), peak("download-announced"))
	act, trickle := r.row("action-endless"), r.row("action-trickle")
	row("hostile server: the action under an endless download (peak RSS above start) / a 1 byte/s trickle with `timeout = \"1m\"` (time)", "**+%.1f MiB / %s**",
		float64(act.PeakKiB-act.StartKiB)/1024, round(time.Duration(trickle.Nanos)))
}

// measureHostileOnly measures the section alone (-only hostile) and
// splices it into the report at out and its rows into the summary table
// (CONTRIBUTING.md).
func (b *bench) measureHostileOnly(out, summaryFile string) error {
	r, err := b.measureHostile()
	if err != nil {
		return err
	}
	return spliceOnly(out, summaryFile, "the hostile server's", hostileHeading, r.section(), hostileSummaryPrefix, r.summaryRows)
}
