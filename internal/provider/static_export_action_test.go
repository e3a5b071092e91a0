package provider

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"
	"github.com/hashicorp/terraform-plugin-log/tfsdklogtest"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// exportHarness drives the static export action and ephemeral resource
// through the provider's protocol-6 server, as Terraform 1.14 would,
// against the fake on the test's manual clock (the action harness's): an
// export's minutes pass in no wall time, as the SDK's waits advance it.
type exportHarness struct {
	*actionHarness
	ephemeral *tfprotov6.Schema
	logs      *syncBuffer
}

// syncBuffer is a log sink for concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newExportHarness(t *testing.T, cfg mintlifytest.Config) *exportHarness {
	t.Helper()
	h := &exportHarness{actionHarness: newActionHarness(t, cfg, false), logs: &syncBuffer{}}
	schema, err := h.srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	h.ephemeral = schema.EphemeralResourceSchemas["mintlify_static_export_bundle"]
	return h
}

// client is an SDK client for the harness's fake, on its clock.
func (h *exportHarness) client() *sdk.Client {
	h.t.Helper()
	c, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(h.url()), sdk.WithClock(h.clk))
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// traced is a context whose provider and framework logs, at TRACE, go to
// the harness's buffer.
func (h *exportHarness) traced(ctx context.Context) context.Context {
	return tfsdklogtest.RootLogger(tflogtest.RootLogger(ctx, h.logs), h.logs)
}

// open validates and opens the bundle ephemeral resource.
func (h *exportHarness) open(ctx context.Context, vals map[string]tftypes.Value) (map[string]tftypes.Value, []*tfprotov6.Diagnostic) {
	h.t.Helper()
	cfg := h.dynamic(h.ephemeral, vals)
	v, err := h.srv.ValidateEphemeralResourceConfig(ctx, &tfprotov6.ValidateEphemeralResourceConfigRequest{TypeName: "mintlify_static_export_bundle", Config: cfg})
	if err != nil {
		h.t.Fatal(err)
	}
	if len(v.Diagnostics) > 0 {
		return nil, v.Diagnostics
	}
	resp, err := h.srv.OpenEphemeralResource(ctx, &tfprotov6.OpenEphemeralResourceRequest{TypeName: "mintlify_static_export_bundle", Config: cfg})
	if err != nil {
		h.t.Fatal(err)
	}
	if resp.Result == nil {
		return nil, resp.Diagnostics
	}
	raw, err := resp.Result.Unmarshal(h.ephemeral.ValueType())
	if err != nil {
		h.t.Fatal(err)
	}
	out := map[string]tftypes.Value{}
	if err := raw.As(&out); err != nil {
		h.t.Fatal(err)
	}
	return out, resp.Diagnostics
}

func exportVals(domain string, more ...any) map[string]tftypes.Value {
	vals := map[string]tftypes.Value{"domain": str(domain)}
	for i := 0; i+1 < len(more); i += 2 {
		switch v := more[i+1].(type) {
		case string:
			vals[more[i].(string)] = str(v) //nolint:forcetypeassert // names are strings
		case bool:
			vals[more[i].(string)] = tftypes.NewValue(tftypes.Bool, v) //nolint:forcetypeassert // as above
		case []string:
			elems := make([]tftypes.Value, len(v))
			for j, s := range v {
				elems[j] = str(s)
			}
			vals[more[i].(string)] = tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, elems) //nolint:forcetypeassert // as above
		}
	}
	return vals
}

// archiveSHA256 is the fake's own checksum of a job's archive.
func archiveSHA256(t *testing.T, fs *mintlifytest.Fake, jobID string) (string, int64) {
	t.Helper()
	h := sha256.New()
	n, err := fs.WriteStaticExportArchive(jobID, h)
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil)), n
}

func fileSHA256(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path) //nolint:gosec // the test's own file
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// dirEntries lists a directory's file names.
func dirEntries(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// linkSecrets are what of the fake's bundle links must never be shown:
// each link's secrets, by the SDK's one rule.
func linkSecrets(t *testing.T, fs *mintlifytest.Fake) []string {
	t.Helper()
	var out []string
	for _, l := range fs.BundleLinks() {
		out = append(out, sdk.StaticExportBundle{URL: l}.Secrets()...)
	}
	if len(out) == 0 {
		t.Fatal("the fake issued no bundle link")
	}
	return out
}

// assertNoLink fails when text shows any part of a bundle link.
func assertNoLink(t *testing.T, fs *mintlifytest.Fake, what, text string) {
	t.Helper()
	for _, s := range linkSecrets(t, fs) {
		if strings.Contains(text, s) {
			t.Errorf("%s shows the bundle link (%s...)", what, s[:min(len(s), 12)])
		}
	}
}

func TestStaticExportAction_downloadsTheArchiveByteExact(t *testing.T) {
	h := newExportHarness(t, mintlifytest.Config{})
	dir := t.TempDir()
	out := filepath.Join(dir, "docs.tar.gz")
	ctx := h.traced(context.Background())
	progress, diags := h.invoke(ctx, "mintlify_static_export", exportVals("docs.example.com", "version", "v2 [fake:pages=40] [fake:running=2m]", "output_path", out))
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	ids := h.fs.StaticExportIDs()
	if len(ids) != 1 || h.fs.Requests(mintlifytest.RouteStaticExportsStart) != 1 {
		t.Fatalf("exports %v after %d POSTs", ids, h.fs.Requests(mintlifytest.RouteStaticExportsStart))
	}
	id := ids[0]
	sum, size := archiveSHA256(t, h.fs, id)
	if got := fileSHA256(t, out); got != sum {
		t.Errorf("the file's SHA-256 is %s, the fake's archive %s", got, sum)
	}
	if names := dirEntries(t, dir); len(names) != 1 || names[0] != "docs.tar.gz" {
		t.Errorf("the directory holds %v: a temporary file was left behind", names)
	}
	if st, err := os.Stat(out); err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("%v, %v", st, err)
	}
	all := strings.Join(progress, "\n")
	contains(t, "progress", all,
		"Static export "+id+" of docs.example.com started; it is queued (0 pages).",
		"Static export "+id+" is now running, ",
		"Static export "+id+" is running, ",
		"Static export "+id+" is now completed (40 pages).",
		"Downloading the archive of static export "+id+" (",
		"Saved the archive of static export "+id+" to "+out+": "+strconv.FormatInt(size, 10)+" bytes, SHA-256 "+sum+".")
	if n := strings.Count(all, "is running, "); n > 9 {
		t.Errorf("%d progress messages while running: one per tenth at most", n)
	}
	assertNoLink(t, h.fs, "progress", all)
	assertNoLink(t, h.fs, "the logs", h.logs.String())
	if !strings.Contains(h.logs.String(), "Mintlify API request") {
		t.Error("no request was logged: the log capture does not work")
	}
}

func TestStaticExportAction_failedExportLeavesNoFile(t *testing.T) {
	h := newExportHarness(t, mintlifytest.Config{})
	dir := t.TempDir()
	out := filepath.Join(dir, "docs.tar.gz")
	_, diags := h.invoke(context.Background(), "mintlify_static_export", exportVals("docs.example.com", "version", "[fake:failed]", "output_path", out))
	id := h.fs.StaticExportIDs()[0]
	contains(t, "diagnostics", diagsText(diags), "Static export failed", "Static export "+id+` ended with status "failed": Rendering page`, "Invoke the action again")
	if !strings.HasPrefix(diagsText(diags), "error: ") || len(dirEntries(t, dir)) != 0 || h.fs.Requests(mintlifytest.RouteStaticExportsCreateBundle) != 0 {
		t.Errorf("files %v, %d bundle requests: %s", dirEntries(t, dir), h.fs.Requests(mintlifytest.RouteStaticExportsCreateBundle), diagsText(diags))
	}
}

func TestStaticExportAction_brokenDownloadNeverLeavesAPartialFile(t *testing.T) {
	h := newExportHarness(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteStaticExportsDownloadBundle, Kind: mintlifytest.FaultReset}}})
	dir := t.TempDir()
	out := filepath.Join(dir, "docs.tar.gz")
	if err := os.WriteFile(out, []byte("last release's archive"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, diags := h.invoke(context.Background(), "mintlify_static_export", exportVals("docs.example.com", "version", "[fake:bundle=3MiB]", "output_path", out))
	id := h.fs.StaticExportIDs()[0]
	text := diagsText(diags)
	contains(t, "diagnostics", text, "Could not download the archive of static export "+id, "Nothing was written to "+out, "was removed",
		"mintlify_static_export_bundle", "and again after each of 4 resumes")
	if data, _ := os.ReadFile(out); string(data) != "last release's archive" { //nolint:gosec // the test's own file
		t.Errorf("output_path now holds %d bytes: a partial download replaced the file", len(data))
	}
	if names := dirEntries(t, dir); len(names) != 1 {
		t.Errorf("the directory holds %v", names)
	}
	wantRequests(t, h.fs, mintlifytest.RouteStaticExportsDownloadBundle, 1+sdk.DefaultMaxRetries, "the first download and a resume per retry")
	assertNoLink(t, h.fs, "the diagnostics", text)
}

func TestStaticExportAction_resumesADownloadThatBroke(t *testing.T) {
	h := newExportHarness(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteStaticExportsDownloadBundle, Kind: mintlifytest.FaultReset, Requests: []int{1, 2}}}})
	dir := t.TempDir()
	out := filepath.Join(dir, "docs.tar.gz")
	progress, diags := h.invoke(context.Background(), "mintlify_static_export", exportVals("docs.example.com", "version", "[fake:bundle=5MiB]", "output_path", out))
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	sum, _ := archiveSHA256(t, h.fs, h.fs.StaticExportIDs()[0])
	if fileSHA256(t, out) != sum || h.fs.Requests(mintlifytest.RouteStaticExportsDownloadBundle) != 3 {
		t.Errorf("%d download requests; checksum differs: %v", h.fs.Requests(mintlifytest.RouteStaticExportsDownloadBundle), fileSHA256(t, out) != sum)
	}
	contains(t, "progress", strings.Join(progress, "\n"), "Downloaded ", "MiB of 5")
	if log := h.fs.RequestsTo(mintlifytest.RouteStaticExportsDownloadBundle); len(log) != 3 || log[1].Status != 206 || log[2].Status != 206 {
		t.Errorf("the resumes were not range requests: %+v", log)
	}
}

func TestStaticExportAction_withoutOutputPath(t *testing.T) {
	h := newExportHarness(t, mintlifytest.Config{})
	progress, diags := h.invoke(context.Background(), "mintlify_static_export", exportVals("docs.example.com"))
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	contains(t, "progress", strings.Join(progress, "\n"), "is now completed (24 pages).", "Set output_path to download its archive")
	if h.fs.Requests(mintlifytest.RouteStaticExportsCreateBundle) != 0 {
		t.Error("a bundle was made without output_path")
	}
	vals := exportVals("docs.example.com", "wait_for_completion", false)
	progress, diags = h.invoke(context.Background(), "mintlify_static_export", vals)
	if len(diags) > 0 || len(progress) != 1 || h.fs.Requests(mintlifytest.RouteStaticExportsGet) == 0 {
		t.Fatalf("%q %s", progress, diagsText(diags))
	}
}

func TestStaticExportAction_timeoutAndInterrupt(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		h := newExportHarness(t, mintlifytest.Config{})
		dir := t.TempDir()
		vals := exportVals("docs.example.com", "version", "[fake:never]", "timeout", "10m", "output_path", filepath.Join(dir, "a.tgz"))
		_, diags := h.invoke(context.Background(), "mintlify_static_export", vals)
		id := h.fs.StaticExportIDs()[0]
		contains(t, "diagnostics", diagsText(diags), "Timed out waiting for the static export", "Static export "+id+" goes on at Mintlify", "It was still running after 10m.")
		if len(dirEntries(t, dir)) != 0 {
			t.Error("a file was left")
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		h := newExportHarness(t, mintlifytest.Config{})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		h.clk.onSleep(func(context.Context) {
			if h.fs.Requests(mintlifytest.RouteStaticExportsGet) == 2 {
				cancel() // Ctrl-C, at a known point of the wait
			}
		})
		dir := t.TempDir()
		_, diags := h.invoke(ctx, "mintlify_static_export", exportVals("docs.example.com", "version", "[fake:never]", "output_path", filepath.Join(dir, "a.tgz")))
		contains(t, "diagnostics", diagsText(diags), "Interrupted while waiting for the static export", h.fs.StaticExportIDs()[0])
		if len(dirEntries(t, dir)) != 0 {
			t.Error("a file was left")
		}
	})
}

func TestStaticExportAction_notEnabledIs403WithAdviceAndNoFile(t *testing.T) {
	h := newExportHarness(t, mintlifytest.Config{StaticExports: mintlifytest.StaticExportConfig{Disabled: true}})
	dir := t.TempDir()
	_, diags := h.invoke(context.Background(), "mintlify_static_export", exportVals("docs.example.com", "output_path", filepath.Join(dir, "a.tgz")))
	contains(t, "diagnostics", diagsText(diags), "Could not start the static export", "403 Forbidden", "Static export is not enabled for this organization",
		"Static export is an Enterprise feature")
	if strings.Contains(diagsText(diags), "may have reached") || len(dirEntries(t, dir)) != 0 {
		t.Errorf("files %v: %s", dirEntries(t, dir), diagsText(diags))
	}
}

func TestStaticExportAction_invalidConfigFailsAtPlanWithNoRequest(t *testing.T) {
	h := newExportHarness(t, mintlifytest.Config{})
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		vals map[string]tftypes.Value
		want string
	}{
		{exportVals("https://docs.example.com/docs"), `domain "https://docs.example.com/docs" must be a bare hostname, without a scheme, port, path or trailing slash: write "docs.example.com"`},
		{exportVals("docs"), `must be a full hostname`},
		{exportVals("docs.example.com", "paths", []string{"index", "/guides/x"}), `paths holds "/guides/x", which must not start or end with a slash: write "guides/x"`},
		{exportVals("docs.example.com", "paths", []string{}), "paths is empty: list at least one page path"},
		{exportVals("docs.example.com", "version", ""), `version "" must not be empty: leave it out`},
		{exportVals("docs.example.com", "timeout", "30s"), `timeout "30s" must be a duration from 1m to 24h`},
		{exportVals("docs.example.com", "output_path", ""), `output_path "" is empty`},
		{exportVals("docs.example.com", "output_path", dir+"/"), "names a directory"},
		{exportVals("docs.example.com", "output_path", dir), "is a directory: name the archive's file in it"},
		{exportVals("docs.example.com", "output_path", filepath.Join(dir, "missing", "a.tgz")), "does not exist; create it first"},
		{exportVals("docs.example.com", "output_path", filepath.Join(file, "a.tgz")), "is not a directory"},
		{exportVals("docs.example.com", "output_path", filepath.Join(dir, "a.tgz"), "wait_for_completion", false), "wait_for_completion = false cannot be used with output_path"},
	} {
		contains(t, "plan", diagsText(h.check("mintlify_static_export", tt.vals)), tt.want)
	}
	wantNoRequests(t, h.fs, "for invalid configuration")
	if names := dirEntries(t, dir); len(names) != 1 {
		t.Errorf("planning wrote files: %v", names)
	}
}

func TestStaticExportAction_unwritableOutputPathStartsNoExport(t *testing.T) {
	h := newExportHarness(t, mintlifytest.Config{})
	dir := filepath.Join(t.TempDir(), "build")
	if err := os.Mkdir(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	vals := exportVals("docs.example.com", "output_path", filepath.Join(dir, "a.tgz"))
	if d := h.check("mintlify_static_export", vals); len(d) > 0 {
		t.Fatal(diagsText(d))
	}
	// The directory goes away between plan and apply.
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	stream, err := h.srv.InvokeAction(context.Background(), &tfprotov6.InvokeActionRequest{ActionType: "mintlify_static_export", Config: h.config("mintlify_static_export", vals)})
	if err != nil {
		t.Fatal(err)
	}
	var diags []*tfprotov6.Diagnostic
	for ev := range stream.Events {
		if c, ok := ev.Type.(tfprotov6.CompletedInvokeActionEventType); ok {
			diags = c.Diagnostics
		}
	}
	contains(t, "diagnostics", diagsText(diags), "Cannot write output_path", "No export was started")
	wantNoRequests(t, h.fs, "for an unwritable output path")
}

func TestStaticExportBundle_waitsThrough409ThenGivesTheLink(t *testing.T) {
	h := newExportHarness(t, mintlifytest.Config{})
	e, err := h.client().StaticExports.Start(context.Background(), sdk.StaticExportRequest{Domain: "docs.example.com", Version: "[fake:running=5m]"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := h.traced(context.Background())
	result, diags := h.open(ctx, map[string]tftypes.Value{"job_id": str(e.ID)})
	if len(diags) > 0 {
		t.Fatal(diagsText(diags))
	}
	var link, expires string
	_ = result["url"].As(&link)
	_ = result["expires_at"].As(&expires)
	links := h.fs.BundleLinks()
	if len(links) != 1 || link != links[0] {
		t.Fatalf("url is not the link the fake issued (%d issued)", len(links))
	}
	wantRequests(t, h.fs, mintlifytest.RouteStaticExportsCreateBundle, 2, "a 409, then the bundle")
	if at, err := time.Parse(time.RFC3339, expires); err != nil || !at.After(epoch.Add(5*time.Minute)) {
		t.Errorf("expires_at %q", expires)
	}
	assertNoLink(t, h.fs, "the logs", h.logs.String())
	if !strings.Contains(h.logs.String(), "waiting for the static export to complete") {
		t.Errorf("the wait was not logged:\n%s", h.logs.String())
	}
}

func TestStaticExportBundle_refusals(t *testing.T) {
	h := newExportHarness(t, mintlifytest.Config{})
	failed, err := h.client().StaticExports.Start(context.Background(), sdk.StaticExportRequest{Domain: "docs.example.com", Version: "[fake:failed]"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		vals map[string]tftypes.Value
		want string
	}{
		{map[string]tftypes.Value{"job_id": str("../x")}, `job_id "../x" may hold only ASCII letters`},
		{map[string]tftypes.Value{"job_id": str("se_1"), "timeout": str("5s")}, `timeout "5s" must be a duration from 1m to 24h`},
		{map[string]tftypes.Value{"job_id": str("se_unknown")}, "No such static export"},
		{map[string]tftypes.Value{"job_id": str(failed.ID)}, "Static export " + failed.ID + " failed, so it has no bundle"},
	} {
		_, diags := h.open(context.Background(), tt.vals)
		contains(t, "diagnostics", diagsText(diags), tt.want)
	}
}
