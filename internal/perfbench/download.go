package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/internal/perfbench/peak"
	"github.com/mintlify/terraform-provider-mintlify/internal/provider"
	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The static export download: a bundle of downloadSize bytes, served by
// the fake (in this process) on loopback, fetched by three other
// processes in turn, each writing it to a file: curl, the SDK's
// DownloadBundle, and the provider's mintlify_static_export action (its
// download phase: the SDK's download plus the action's SHA-256, fsync and
// rename), driven through its protocol-6 server as Terraform 1.14 would.
// Each child's peak RSS comes from its resource usage; its time, from
// itself (the transfer alone, not the process's start).

const downloadSize = 1 << 30

// Child modes of this program (MINTLIFY_BENCH_DOWNLOAD), with their inputs.
const (
	envDownload     = "MINTLIFY_BENCH_DOWNLOAD" // "sdk" or "action"
	envDownloadURL  = "MINTLIFY_BENCH_DOWNLOAD_URL"
	envDownloadOut  = "MINTLIFY_BENCH_DOWNLOAD_OUT"
	envDownloadSize = "MINTLIFY_BENCH_DOWNLOAD_SIZE"
)

type downloadResult struct {
	size                       int64
	runs                       int
	fileSystem                 string
	curl, sdk, action          []time.Duration
	curlRSS, sdkRSS, actionRSS []int64 // KiB
	// mismatches are the downloads whose SHA-256 was not their archive's.
	mismatches int
	// actionTotal is the whole invocation, the export and its wait included.
	actionTotal []time.Duration
}

// measureDownload runs each downloader b.runs times against one export.
func (b *bench) measureDownload(size int64) (*downloadResult, error) {
	f, err := startFake(mintlifytest.Config{StaticExports: mintlifytest.StaticExportConfig{
		Default: mintlifytest.ExportScript{Pages: 24}, LinkTTL: time.Hour}})
	if err != nil {
		return nil, err
	}
	defer f.close()
	c, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(f.url))
	if err != nil {
		return nil, err
	}
	version := fmt.Sprintf("bench [fake:bundle=%d]", size)
	e, err := c.StaticExports.Start(b.ctx, sdk.StaticExportRequest{Domain: "docs.example.com", Version: version})
	if err != nil {
		return nil, err
	}
	bundle, err := c.StaticExports.CreateBundleWhenReady(b.ctx, e.ID)
	if err != nil {
		return nil, err
	}
	r := &downloadResult{size: bundle.SizeBytes, runs: b.runs}
	dir := filepath.Join(b.work, "download")
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return nil, err
	}
	r.fileSystem = fileSystemOf(b.ctx, dir)
	out := filepath.Join(dir, "docs.tar.gz")
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	for i := range b.runs {
		log.Printf("  run %d of %d: curl, the SDK, the action", i+1, b.runs)
		// curl
		cmd := exec.CommandContext(b.ctx, "curl", "-sS", "-o", out, "-w", "%{time_total} %{size_download}", bundle.URL) //nolint:gosec // the fake's own link
		stdout, rss, err := runChild(cmd)
		if err != nil {
			return nil, fmt.Errorf("curl: %w: %s", err, stdout)
		}
		var secs float64
		var n int64
		if _, err := fmt.Sscan(stdout, &secs, &n); err != nil || n != r.size {
			return nil, fmt.Errorf("curl wrote %d of %d bytes (%q): %w", n, r.size, stdout, err)
		}
		r.curl, r.curlRSS = append(r.curl, time.Duration(secs*float64(time.Second))), append(r.curlRSS, rss)
		if err := os.Remove(out); err != nil {
			return nil, err
		}

		// The SDK, then the action: children of this program.
		for _, mode := range []string{"sdk", "action"} {
			cmd := exec.CommandContext(b.ctx, self) //nolint:gosec // this program
			cmd.Env = append(cleanEnv(), envDownload+"="+mode, envDownloadURL+"="+bundle.URL, envDownloadOut+"="+out,
				envDownloadSize+"="+strconv.FormatInt(r.size, 10), "MINTLIFY_BENCH_FAKE_URL="+f.url)
			stdout, rss, err := runChild(cmd)
			if err != nil {
				return nil, fmt.Errorf("%s download: %w: %s", mode, err, stdout)
			}
			var ns, total int64
			var sum, jobID string
			if _, err := fmt.Sscan(stdout, &ns, &sum, &total, &jobID); err != nil {
				return nil, fmt.Errorf("%s download said %q: %w", mode, stdout, err)
			}
			if jobID == "-" {
				jobID = e.ID // the SDK downloads the export made above; the action makes its own
			}
			h := sha256.New()
			if _, err := f.WriteStaticExportArchive(jobID, h); err != nil {
				return nil, err
			}
			if fmt.Sprintf("%x", h.Sum(nil)) != sum {
				r.mismatches++
			}
			if mode == "sdk" {
				r.sdk, r.sdkRSS = append(r.sdk, time.Duration(ns)), append(r.sdkRSS, rss)
			} else {
				r.action, r.actionRSS = append(r.action, time.Duration(ns)), append(r.actionRSS, rss)
				r.actionTotal = append(r.actionTotal, time.Duration(total))
			}
			if err := os.Remove(out); err != nil {
				return nil, err
			}
		}
	}
	if r.mismatches > 0 {
		return nil, fmt.Errorf("%d downloads were not their export's archive", r.mismatches)
	}
	return r, nil
}

// runChild runs cmd and returns its standard output and peak RSS (KiB).
//
// The peak is read from the child's own /proc/PID/status (VmHWM, its
// high-water mark, which only grows), every 10 ms until it exits: the
// rusage that wait returns will not do, as Linux counts in it the RSS of
// the process that started the child (this one, which serves the fake)
// when the child was forked.
func runChild(cmd *exec.Cmd) (string, int64, error) {
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		return "", 0, err
	}
	done := make(chan struct{})
	highest := make(chan int64, 1)
	go func() {
		var hwm int64
		status := fmt.Sprintf("/proc/%d/status", cmd.Process.Pid)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			if n := peak.KiB(status, "VmHWM"); n > hwm {
				hwm = n
			}
			select {
			case <-done:
				highest <- hwm
				return
			case <-t.C:
			}
		}
	}()
	err := cmd.Wait()
	close(done)
	rss := <-highest
	if err != nil {
		return stdout.String() + stderr.String(), rss, err
	}
	return strings.TrimSpace(stdout.String()), rss, nil
}

// fileSystemOf names the file system the downloads are written to.
func fileSystemOf(ctx context.Context, dir string) string {
	out, err := exec.CommandContext(ctx, "df", "-T", dir).Output() //nolint:gosec // the benchmark's own directory
	if err != nil {
		return "unknown"
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if f := strings.Fields(lines[len(lines)-1]); len(f) > 1 {
		return f[1]
	}
	return "unknown"
}

// downloadChild is this program as a downloader: it prints the transfer's
// nanoseconds, the file's SHA-256, and for the action the whole
// invocation's nanoseconds and the export it started ("-" for the SDK).
func downloadChild(mode string) int {
	link, out := os.Getenv(envDownloadURL), os.Getenv(envDownloadOut)
	size, _ := strconv.ParseInt(os.Getenv(envDownloadSize), 10, 64)
	var took, total time.Duration
	jobID := "-"
	var err error
	switch mode {
	case "sdk":
		took, err = sdkDownload(link, out, size)
	case "action":
		took, total, jobID, err = actionDownload(os.Getenv("MINTLIFY_BENCH_FAKE_URL"), out, size)
	default:
		err = fmt.Errorf("unknown mode %q", mode)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "perfbench download:", err)
		return 1
	}
	sum, err := fileSHA256(out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "perfbench download:", err)
		return 1
	}
	fmt.Println(took.Nanoseconds(), sum, total.Nanoseconds(), jobID)
	return 0
}

func sdkDownload(link, out string, size int64) (time.Duration, error) {
	c, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL("http://127.0.0.1"))
	if err != nil {
		return 0, err
	}
	f, err := os.Create(out) //nolint:gosec // the benchmark's own file
	if err != nil {
		return 0, err
	}
	start := time.Now()
	n, err := c.StaticExports.DownloadBundle(context.Background(), link, f, sdk.WithExpectedSize(size))
	took := time.Since(start)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n != size {
		err = fmt.Errorf("%d of %d bytes", n, size)
	}
	return took, err
}

// actionDownload invokes the mintlify_static_export action with
// output_path through the provider's protocol-6 server, and times its
// download phase by its progress messages.
func actionDownload(base, out string, size int64) (took, total time.Duration, jobID string, err error) {
	ctx := context.Background()
	actions, schema, err := actionServer(ctx, base)
	if err != nil {
		return 0, 0, "", err
	}
	cfg := dynamic(schema.ActionSchemas["mintlify_static_export"].Schema, map[string]tftypes.Value{
		"domain": str("docs.example.com"), "version": str(fmt.Sprintf("bench [fake:bundle=%d]", size)), "output_path": str(out)})
	start := time.Now()
	stream, err := actions.InvokeAction(ctx, &tfprotov6.InvokeActionRequest{ActionType: "mintlify_static_export", Config: cfg})
	if err != nil {
		return 0, 0, "", err
	}
	var from time.Time
	for ev := range stream.Events {
		switch e := ev.Type.(type) {
		case tfprotov6.ProgressInvokeActionEventType:
			switch {
			case strings.HasPrefix(e.Message, "Static export ") && strings.Contains(e.Message, " started;"):
				jobID = strings.Fields(e.Message)[2]
			case strings.HasPrefix(e.Message, "Downloading the archive"):
				from = time.Now()
			case strings.HasPrefix(e.Message, "Saved the archive"):
				took = time.Since(from)
			}
		case tfprotov6.CompletedInvokeActionEventType:
			for _, d := range e.Diagnostics {
				if d.Severity == tfprotov6.DiagnosticSeverityError {
					return 0, 0, "", fmt.Errorf("%s: %s", d.Summary, d.Detail)
				}
			}
		}
	}
	if took == 0 || jobID == "" {
		return 0, 0, "", errors.New("the action reported no export or no download")
	}
	return took, time.Since(start), jobID, nil
}

// actionServer is the provider's protocol-6 server, configured for the
// fake at base (the demo key, the analytics cache off), and its schema.
func actionServer(ctx context.Context, base string) (tfprotov6.ProviderServerWithActions, *tfprotov6.GetProviderSchemaResponse, error) { //nolint:staticcheck // the action RPCs are only there in terraform-plugin-go v0.31
	srv, err := providerserver.NewProtocol6WithError(provider.New("bench")())()
	if err != nil {
		return nil, nil, err
	}
	actions, ok := srv.(tfprotov6.ProviderServerWithActions) //nolint:staticcheck // the action RPCs are only there in terraform-plugin-go v0.31
	if !ok {
		return nil, nil, errors.New("the provider serves no actions")
	}
	schema, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, nil, err
	}
	os.Setenv(provider.EnvCacheTTL, "0") //nolint:errcheck,gosec // a child process of its own
	conf, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.14.0",
		Config: dynamic(schema.Provider, map[string]tftypes.Value{"api_key": str(mintlifytest.DemoAPIKey), "base_url": str(base)})})
	if err != nil {
		return nil, nil, fmt.Errorf("configure: %w", err)
	}
	if len(conf.Diagnostics) > 0 {
		return nil, nil, fmt.Errorf("configure: %s: %s", conf.Diagnostics[0].Summary, conf.Diagnostics[0].Detail)
	}
	return actions, schema, nil
}

// fileSHA256 is a file's checksum, read through one small buffer.
func fileSHA256(path string) (string, error) {
	f, err := os.Open(path) //nolint:gosec // the benchmark's own file
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return fmt.Sprintf("%x", h.Sum(nil)), nil
}

func str(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

// dynamic encodes vals as a value of schema s, the others null.
func dynamic(s *tfprotov6.Schema, vals map[string]tftypes.Value) *tfprotov6.DynamicValue {
	typ := s.ValueType().(tftypes.Object) //nolint:forcetypeassert // a schema's type is an object
	all := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		if v, ok := vals[name]; ok {
			all[name] = v
		} else {
			all[name] = tftypes.NewValue(at, nil)
		}
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, all))
	if err != nil {
		panic(err)
	}
	return &dv
}

// mibps is a throughput in MiB/s.
func mibps(size int64, d time.Duration) float64 {
	return float64(size) / (1 << 20) / d.Seconds()
}

// section renders the report's section on the download.
func (r *downloadResult) section(num int) string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format, args...) }
	curl, sdkT, action := median(r.curl), median(r.sdk), median(r.action)
	p("## %d. Downloading a 1 GiB static export bundle\n\n", num)
	p("A bundle of %s bytes (the fake generates it as it sends it, from the export's seed: the same bytes every time, never held in memory), downloaded from the fake on loopback to a file (%s), %d times each, in turn, by three processes: `curl -o`, the SDK's `StaticExports.DownloadBundle` into an `*os.File`, and the `mintlify_static_export` action with `output_path`, invoked through the provider's protocol-6 server as Terraform 1.14 would (its download phase, from the message before it to the message after: the SDK's download, plus the SHA-256 the action reports, an fsync and the rename into place). Time is the transfer's (curl's `time_total`; the others time themselves); peak RSS is each process's own high-water mark (`VmHWM`, sampled every 10 ms until it exits). Every download's SHA-256 matched its export's archive. curl reads and writes through its default 16 KiB buffer, the SDK through one of 256 KiB. Targets: the SDK's peak RSS under 64 MiB, its throughput at least 80%% of curl's.\n\n", thousands(int(r.size)), r.fileSystem, r.runs)
	p("| downloader | time (median) | throughput | vs curl | peak RSS (median) |\n|---|---:|---:|---:|---:|\n")
	p("| `curl -o` | %s | %.0f MiB/s | 1.00 | %.1f MiB |\n", round(curl), mibps(r.size, curl), float64(median(r.curlRSS))/1024)
	p("| **SDK `DownloadBundle`** | %s | %.0f MiB/s | **%.2f** | **%.1f MiB** |\n", round(sdkT), mibps(r.size, sdkT), curl.Seconds()/sdkT.Seconds(), float64(median(r.sdkRSS))/1024)
	p("| action, download phase (with SHA-256, fsync, rename) | %s | %.0f MiB/s | %.2f | %.1f MiB |\n", round(action), mibps(r.size, action), curl.Seconds()/action.Seconds(), float64(median(r.actionRSS))/1024)
	p("\nRuns: curl %s; SDK %s; action %s (the whole invocation, the export's start and first poll included: %s).\n\n", durations(r.curl), durations(r.sdk), durations(r.action), durations(r.actionTotal))
	return w.String()
}

// summaryRow is the summary line on the download.
func (r *downloadResult) summaryRow() (what, result string) {
	curl, sdkT := median(r.curl), median(r.sdk)
	return "1 GiB static export bundle downloaded from the fake on loopback (SDK vs `curl -o`)",
		fmt.Sprintf("%.0f vs %.0f MiB/s (%.2f); peak RSS %.1f MiB", mibps(r.size, sdkT), mibps(r.size, curl), curl.Seconds()/sdkT.Seconds(), float64(median(r.sdkRSS))/1024)
}

// downloadSection is the download's section number in the report.
const downloadSection = 9

// measureOnly measures one section and splices it into the report at out
// (and its line into the summary, when summaryFile is set), leaving
// the others as the last full run wrote them.
func (b *bench) measureOnly(what, out, summaryFile string) error {
	switch what {
	case "download":
	case "assistant":
		return b.measureAssistantOnly(out, summaryFile)
	case "plans":
		return b.measurePlansOnly(out, summaryFile)
	case "hostile":
		return b.measureHostileOnly(out, summaryFile)
	case "daily":
		return b.measureDailyOnly(out, summaryFile)
	default:
		return fmt.Errorf(`-only %q: the sections that can be measured alone are: "download", "assistant", "plans", "hostile", "daily", "scale", "waits", "budget", "soak", "endless"`, what)
	}
	size := int64(downloadSize)
	if b.quick {
		size = 64 << 20
	}
	log.Printf("a %d MiB static export bundle, downloaded by curl, the SDK and the action", size>>20)
	d, err := b.measureDownload(size)
	if err != nil {
		return err
	}
	report, err := os.ReadFile(out) //nolint:gosec // a path the developer names
	if err != nil {
		return fmt.Errorf("%s: -only splices into an existing report: %w", out, err)
	}
	section := d.section(downloadSection) + fmt.Sprintf("(This section measured on %s by `make bench BENCH_FLAGS=\"-only download\"`; machine: %s.)\n\n",
		time.Now().UTC().Format("2006-01-02"), machine(b.ctx, b.tf))
	if err := os.WriteFile(out, spliceSection(report, fmt.Sprintf("## %d. ", downloadSection), section), 0o600); err != nil { //nolint:gosec // a path the developer names
		return err
	}
	fmt.Println("wrote section", downloadSection, "of", out)
	if summaryFile == "" {
		return nil
	}
	old, err := os.ReadFile(summaryFile) //nolint:gosec // a path the developer names
	if err != nil {
		return err
	}
	what, result := d.summaryRow()
	updated, err := spliceSummaryRow(old, "| "+what+" |", fmt.Sprintf("| %s | %s |\n", what, result))
	if err != nil {
		return fmt.Errorf("%s: %w", summaryFile, err)
	}
	info, err := os.Stat(summaryFile)
	if err != nil {
		return err
	}
	fmt.Println("wrote its line in", summaryFile)
	return os.WriteFile(summaryFile, updated, info.Mode().Perm()) //nolint:gosec // a path the developer names
}

// spliceSection replaces the report's section whose heading starts with
// heading (up to the next "## " heading), or appends it.
func spliceSection(report []byte, heading, section string) []byte {
	s := string(report)
	start := 0
	if !strings.HasPrefix(s, heading) {
		if start = strings.Index(s, "\n"+heading); start < 0 {
			return []byte(strings.TrimRight(s, "\n") + "\n\n" + section)
		}
		start++
	}
	end := len(s)
	if next := strings.Index(s[start+len(heading):], "\n## "); next >= 0 {
		end = start + len(heading) + next + 1
	}
	return []byte(s[:start] + section + s[end:])
}

// spliceSummaryRow replaces the summary's line that starts with prefix, or
// adds it at the end of the table.
func spliceSummaryRow(summaryFile []byte, prefix, row string) ([]byte, error) {
	s := string(summaryFile)
	start, end := strings.Index(s, summaryStart), strings.Index(s, summaryEnd)
	if start < 0 || end < start {
		return nil, errors.New("the summary file has no " + summaryStart + " ... " + summaryEnd + " block, in that order")
	}
	block := s[start:end]
	if i := strings.Index(block, "\n"+prefix); i >= 0 {
		lineEnd := strings.Index(block[i+1:], "\n")
		block = block[:i+1] + row + block[i+1+lineEnd+1:]
	} else {
		block += row
	}
	return []byte(s[:start] + block + s[end:]), nil
}
