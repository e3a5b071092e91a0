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

// The static export action and the bundle ephemeral resource below
// Terraform, through the provider's protocol-6 server, for what the real
// CLI (action_cli_test.go, static_export_resource_test.go) cannot show:
// the provider's TRACE logs, which the harness captures to check that no
// bundle link is in them; the link the ephemeral resource returns, which
// no CLI writes anywhere; a download cut mid-body, resumed by range
// requests or left as no file, checked request by request; and the
// provider's error on an interrupt, which Terraform 1.16 may drop.
//
// exportHarness drives them against the fake on the test's manual clock
// (the action harness's): an export's minutes pass in no wall time.
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

func TestStaticExportAction_interrupted(t *testing.T) {
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
