package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func TestOptions_staticExports(t *testing.T) {
	for want, change := range map[string]func(*options){
		`-export-outcome "done": want completed, failed or never`:  func(o *options) { o.exportOutcome = "done" },
		`-bundle-size: size "1TB"`:                                 func(o *options) { o.bundleSize = "1TB" },
		`-bundle-ttl -1s is negative`:                              func(o *options) { o.bundleTTL = -time.Second },
		`-export-pages -1 is negative`:                             func(o *options) { o.export.Pages = -1 },
		`-export-queued and -export-duration must not be negative`: func(o *options) { o.export.RunFor = -time.Second },
	} {
		o := defaults()
		change(&o)
		if _, err := o.config(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want %q", err, want)
		}
	}
	o := defaults()
	o.exportOutcome, o.bundleSize, o.bundleTTL, o.exportsDisabled = "failed", "2MiB", time.Minute, true
	o.export = mintlifytest.ExportScript{QueuedFor: time.Second, RunFor: time.Minute, Pages: 7}
	cfg, err := o.config()
	want := mintlifytest.StaticExportConfig{Disabled: true, LinkTTL: time.Minute,
		Default: mintlifytest.ExportScript{QueuedFor: time.Second, RunFor: time.Minute, Pages: 7, Outcome: mintlifytest.OutcomeFailed, BundleSize: 2 << 20}}
	if err != nil || cfg.StaticExports != want {
		t.Errorf("%+v, %v", cfg.StaticExports, err)
	}
}

// The standalone fake serves an export's archive at the link it gives,
// with no key.
func TestRun_servesStaticExportsAndTheirArchives(t *testing.T) {
	o := defaults()
	o.export = mintlifytest.ExportScript{RunFor: time.Millisecond, Pages: 3}
	o.bundleSize = "100KiB"
	env, _ := startRun(t, o)
	base := strings.TrimPrefix(strings.Split(env, "\n")[0], "MINTLIFY_BASE_URL=")
	id, _ := callJSON(t, "POST", base+"/v1/static-export/jobs", `{"domain":"docs.example.com"}`)["jobId"].(string)
	time.Sleep(20 * time.Millisecond)
	bundle := callJSON(t, "POST", base+"/v1/static-export/jobs/"+id+"/bundle", "")
	link, _ := bundle["bundleUrl"].(string)
	if !strings.HasPrefix(link, base+"/_bundles/"+id+"/bundle.tar.gz?") {
		t.Fatalf("bundle %v", bundle)
	}
	resp, err := http.Get(link) //nolint:gosec,noctx // the fake's own link
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 || float64(len(data)) != bundle["sizeBytes"] || len(data) < 100<<10 {
		t.Errorf("%d, %d bytes: %v", resp.StatusCode, len(data), err)
	}
}

// callJSON sends a request with the demo key and a body, and decodes the
// answer's JSON object.
func callJSON(t *testing.T, method, link, body string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest(method, link, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&got)
	return got
}
