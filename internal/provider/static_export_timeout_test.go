package provider

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// A hostile server below Terraform, through the provider's protocol-6
// server (the export action's harness): a download that trickles, on the
// wall clock, bounded by the action's timeout. The CLI adds nothing to it
// but a second process to wait for.

// trickle serves the fake, and each bundle download one byte every
// interval: a body that never stalls long enough for an idle timer, and
// never ends in any time that matters. onBundle, when set, is called as a
// bundle is asked for.
type trickle struct {
	fake     *mintlifytest.Fake
	interval time.Duration
	onBundle func()
}

func (tr trickle) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if tr.onBundle != nil && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/bundle") {
		tr.onBundle()
	}
	if !strings.HasPrefix(r.URL.Path, "/_bundles/") {
		tr.fake.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	tr.fake.ServeHTTP(rec, r)
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	body := rec.Body.Bytes()
	tick := time.NewTicker(tr.interval)
	defer tick.Stop()
	for i := range body {
		select {
		case <-r.Context().Done():
			return
		case <-tick.C:
		}
		if _, err := w.Write(body[i : i+1]); err != nil {
			return
		}
		w.(http.Flusher).Flush() //nolint:forcetypeassert // httptest's writer flushes
	}
}

// startTrickle serves the fake behind trickle for one test, on clk (nil:
// the wall clock), and a harness of the export action over it.
func startTrickle(t *testing.T, clk *testClock, tr *trickle) *actionHarness {
	t.Helper()
	cfg := mintlifytest.Config{}
	if clk != nil {
		cfg.Clock = clk
	}
	tr.fake = mintlifytest.New(cfg)
	ts := httptest.NewServer(tr)
	t.Cleanup(ts.Close)
	return harnessFor(t, tr.fake, ts.URL, clk, false)
}

// The action's timeout bounds the whole action, the archive's download
// included: a bundle trickling one byte every 50 ms ends with the
// timeout, with no file left. Before, the download ran past the timeout
// for as long as the server trickled.
func TestStaticExportAction_timeoutBoundsTheDownload(t *testing.T) {
	clk := newTestClock()
	// The export and its bundle take 57 s of the action's minute (the
	// clock moves on when the bundle is asked for): 3 s are left for the
	// download.
	tr := &trickle{interval: 50 * time.Millisecond, onBundle: func() {
		if left := epoch.Add(57 * time.Second).Sub(clk.Now()); left > 0 {
			clk.Advance(left)
		}
	}}
	h := startTrickle(t, clk, tr)
	dir := t.TempDir()
	out := filepath.Join(dir, "docs.tar.gz")
	// A safety net: without the bound, the download would go on for hours.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	began := time.Now()
	_, diags := h.invoke(ctx, "mintlify_static_export", exportVals("docs.example.com", "version", "[fake:running=10s]",
		"output_path", out, "timeout", "1m"))
	took := time.Since(began)
	text := diagsText(diags)
	id := h.fs.StaticExportIDs()[0]
	contains(t, "diagnostics", text, "Timed out downloading the archive of static export "+id,
		"The action's timeout (1m) ran out", "Nothing was written to "+out, "raise timeout", `job_id = "`+id+`"`)
	if took > 10*time.Second || took < 2*time.Second {
		t.Errorf("the action took %s, want the 3 s its timeout left", took.Round(time.Millisecond))
	}
	if names := dirEntries(t, dir); len(names) != 0 {
		t.Errorf("the directory holds %v", names)
	}
}

// How long the action takes to end under a 1 byte/s trickle with
// timeout = "1m", on the wall clock: for docs/performance.md. It takes a
// minute, so it runs only when asked (MINTLIFY_MEASURE_TRICKLE=1).
func TestStaticExportAction_trickleMeasured(t *testing.T) {
	if os.Getenv("MINTLIFY_MEASURE_TRICKLE") == "" {
		t.Skip("set MINTLIFY_MEASURE_TRICKLE=1 to measure (about a minute)")
	}
	h := startTrickle(t, nil, &trickle{interval: time.Second})
	out := filepath.Join(t.TempDir(), "docs.tar.gz")
	began := time.Now()
	_, diags := h.invoke(context.Background(), "mintlify_static_export", exportVals("docs.example.com", "version", "[fake:completed]",
		"output_path", out, "timeout", "1m"))
	took := time.Since(began)
	t.Logf("the action ended after %s: %s", took.Round(time.Millisecond), diagsText(diags))
	if took > 65*time.Second || !strings.Contains(diagsText(diags), "Timed out downloading") {
		t.Errorf("the action took %s", took)
	}
}
