package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

const exportAddr = "mintlify_static_export.test"

// startExportFake runs the fake (see startFake) with exports that are
// queued 30 s and run 3 minutes of the test's clock.
func startExportFake(t *testing.T, cfg mintlifytest.Config) (*mintlifytest.Fake, string, *testClock) {
	t.Helper()
	if cfg.StaticExports.Default == (mintlifytest.ExportScript{}) {
		cfg.StaticExports.Default = mintlifytest.ExportScript{QueuedFor: 30 * time.Second, RunFor: 3 * time.Minute, Pages: 12}
	}
	return startFake(t, cfg)
}

func exportConfig(url, body string) string {
	return providerBlock(url) + fmt.Sprintf(`
resource "mintlify_static_export" "test" {
%s
}
`, body)
}

// exportInStateIsTheServers checks that state holds the fake's export,
// with its status and page count: the provider lost nothing.
func exportInStateIsTheServers(fs *mintlifytest.Fake) statecheck.StateCheck {
	return valuesInState(exportAddr, func(vals map[string]any) error {
		return compareExport(fs, vals)
	})
}

func compareExport(fs *mintlifytest.Fake, vals map[string]any) error {
	raw, ok := fs.StaticExport(fmt.Sprint(vals["id"]))
	if !ok {
		return fmt.Errorf("the fake has no export %v", vals["id"])
	}
	var e struct {
		Status    string  `json:"status"`
		Progress  float64 `json:"progress"`
		PageCount float64 `json:"pageCount"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		return err
	}
	// State's numbers may come as json.Number: compare what they say.
	state := fmt.Sprintf("%v, %v%%, %v pages", vals["status"], vals["progress"], vals["page_count"])
	if fake := fmt.Sprintf("%v, %v%%, %v pages", e.Status, e.Progress, e.PageCount); state != fake {
		return fmt.Errorf("state has %s; the fake %s", state, fake)
	}
	return nil
}

// exportKeptTainted is the step after a failed create: the fake's export
// is in state, and tainted, so the next apply plans its replacement.
func exportKeptTainted(fs *mintlifytest.Fake, cfg string) resource.TestStep {
	return planAfterApply(cfg,
		valuesInPriorState(exportAddr, func(vals map[string]any) error {
			if ids := fs.StaticExportIDs(); len(ids) != 1 || ids[0] != vals["id"] {
				return fmt.Errorf("state holds export %v, the fake has %v", vals["id"], ids)
			}
			return nil
		}),
		plancheck.ExpectResourceAction(exportAddr, plancheck.ResourceActionReplace))
}

func TestAccStaticExport_startedOncePerTriggersChange(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startExportFake(t, mintlifytest.Config{})
	cfg := func(release string) string {
		return exportConfig(url, fmt.Sprintf(`  domain   = "docs.example.com"
  version  = "v1"
  paths    = ["index", "guides/getting-started"]
  triggers = { release = %q }`, release))
	}
	runSteps(t, clk, []resource.TestStep{
		{
			Config: cfg("v1.0.0"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(exportAddr, tfjsonPath("status"), knownString("completed")),
				statecheck.ExpectKnownValue(exportAddr, tfjsonPath("progress"), knownvalue.Float64Exact(100)),
				statecheck.ExpectKnownValue(exportAddr, tfjsonPath("page_count"), knownvalue.Int64Exact(2)),
				statecheck.ExpectKnownValue(exportAddr, tfjsonPath("id"), knownvalue.StringRegexp(regexp.MustCompile(`^se_[0-9a-f]{16}$`))),
				statecheck.ExpectKnownValue(exportAddr, tfjsonPath("error"), knownvalue.Null()),
				statecheck.ExpectKnownValue(exportAddr, tfjsonPath("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT`))),
				statecheck.ExpectKnownValue(exportAddr, tfjsonPath("updated_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT`))),
				exportInStateIsTheServers(fs),
			},
		},
		// The same configuration plans nothing and starts nothing.
		{Config: cfg("v1.0.0"), ConfigPlanChecks: plansNothing()},
		// A new release is a new export.
		{
			Config:            cfg("v1.1.0"),
			ConfigPlanChecks:  plansAction(exportAddr, plancheck.ResourceActionReplace),
			ConfigStateChecks: []statecheck.StateCheck{exportInStateIsTheServers(fs)},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteStaticExportsStart, 2, "exports started")
	var body map[string]any
	if log := fs.RequestsTo(mintlifytest.RouteStaticExportsStart); len(log) == 0 || json.Unmarshal([]byte(log[0].Body), &body) != nil ||
		fmt.Sprint(body) != "map[domain:docs.example.com paths:[guides/getting-started index] version:v1]" {
		t.Errorf("sent %v", body)
	}
}

func TestAccStaticExport_failedStaysInStateTainted(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startExportFake(t, mintlifytest.Config{})
	cfg := exportConfig(url, `  domain  = "docs.example.com"
  version = "[fake:failed]"`)
	runSteps(t, clk, []resource.TestStep{
		{Config: cfg, ExpectError: wrapped("Static export failed", `ended with status "failed": Rendering page`, "tainted: the next apply starts a new export")},
		exportKeptTainted(fs, cfg),
	})
}

func TestAccStaticExport_notWaitedForThenRefreshed(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startExportFake(t, mintlifytest.Config{})
	cfg := exportConfig(url, `  domain              = "acme.mintlify.app"
  version             = "[fake:running=5m]"
  wait_for_completion = false`)
	runSteps(t, clk, []resource.TestStep{
		{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(exportAddr, tfjsonPath("status"), knownString("queued")),
				statecheck.ExpectKnownValue(exportAddr, tfjsonPath("page_count"), knownvalue.Int64Exact(0)),
			},
		},
		{
			PreConfig:        func() { clk.Advance(10 * time.Minute) }, // the export completes meanwhile
			Config:           cfg,
			ConfigPlanChecks: plansNothing(),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(exportAddr, tfjsonPath("status"), knownString("completed")),
				exportInStateIsTheServers(fs),
			},
		},
	})
	wantRequests(t, fs, mintlifytest.RouteStaticExportsStart, 1, "exports started")
}

func TestAccStaticExport_importAdoptsTheConfiguration(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startExportFake(t, mintlifytest.Config{})
	c, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(url), sdk.WithClock(clk))
	if err != nil {
		t.Fatal(err)
	}
	e, err := c.StaticExports.Start(context.Background(), sdk.StaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := exportConfig(url, `  domain   = "docs.example.com"
  triggers = { release = "v1" }`)
	runSteps(t, clk, []resource.TestStep{
		importStep(cfg, exportAddr, e.ID),
		// The API does not return domain or triggers: they are adopted,
		// in place, without a new export.
		adoptStep(cfg, exportAddr, e.ID, exportInStateIsTheServers(fs)),
		{Config: cfg, ConfigPlanChecks: plansNothing()},
		{Config: cfg, ResourceName: exportAddr, ImportState: true, ImportStateId: "se_0000000000000000", ExpectError: wrapped("Cannot import the static export", `no static export "se_0000000000000000"`)},
		{Config: cfg, ResourceName: exportAddr, ImportState: true, ImportStateId: "a/b", ExpectError: wrapped("Invalid import id", `import id "a/b"`)},
	})
	wantRequests(t, fs, mintlifytest.RouteStaticExportsStart, 1, "exports started: importing started one")
}

func TestAccStaticExport_invalidInputFailsAtPlanWithNoRequest(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startExportFake(t, mintlifytest.Config{})
	var steps []resource.TestStep
	for body, want := range map[string]*regexp.Regexp{
		`domain = "https://docs.example.com/docs"`:                              wrapped(`domain "https://docs.example.com/docs" must be a bare hostname`, `write "docs.example.com"`),
		`domain = "docs.example.com:8443"`:                                      wrapped(`write "docs.example.com"`),
		`domain = "docs"`:                                                       wrapped("must be a full hostname"),
		"domain = \"docs.example.com\"\n  paths = [\"/guides/x\"]":              wrapped(`paths holds "/guides/x", which must not start or end with a slash: write "guides/x"`),
		"domain = \"docs.example.com\"\n  paths = []":                           wrapped("paths is empty: list at least one page path"),
		"domain = \"docs.example.com\"\n  version = \"\"":                       wrapped(`version "" must not be empty`),
		"domain = \"docs.example.com\"\n  timeouts {\n    create = \"5s\"\n  }": wrapped(`timeouts.create "5s" must be a duration from 1m to 24h`),
	} {
		steps = append(steps, resource.TestStep{Config: exportConfig(url, "  "+body), PlanOnly: true, ExpectError: want})
	}
	runSteps(t, clk, steps)
	wantNoRequests(t, fs, "for invalid input")
}

func TestAccStaticExport_notEnabledIs403WithAdvice(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startExportFake(t, mintlifytest.Config{StaticExports: mintlifytest.StaticExportConfig{Disabled: true}})
	runSteps(t, clk, []resource.TestStep{{
		Config:      exportConfig(url, `  domain = "docs.example.com"`),
		ExpectError: wrapped("Could not start the static export", "403 Forbidden", "Static export is not enabled for this organization", "Static export is an Enterprise feature"),
	}})
	if n := len(fs.StaticExportIDs()); n != 0 {
		t.Errorf("%d exports", n)
	}
}

// The bundle's link, through Terraform itself: opened by the ephemeral
// resource (waiting through the API's 409 for an export not waited for),
// handed to curl in a provisioner's environment, and never written to the
// plan, the state, or Terraform's and the provider's logs at TRACE.
func TestAccStaticExportBundle_linkNeverInPlanStateOrTraceLogs(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		t.Skip("curl is not installed")
	}
	clearEnv(t)
	logs := t.TempDir()
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH_MASK", filepath.Join(logs, "%s.log"))
	fs, url, clk := startExportFake(t, mintlifytest.Config{})
	out := filepath.Join(t.TempDir(), "docs.tar.gz")
	cfg := exportConfig(url, `  domain              = "docs.example.com"
  version             = "[fake:running=5m] [fake:bundle=256KiB]"
  wait_for_completion = false`) + fmt.Sprintf(`
ephemeral "mintlify_static_export_bundle" "test" {
  job_id = mintlify_static_export.test.id
}

resource "terraform_data" "archive" {
  triggers_replace = [mintlify_static_export.test.id]

  provisioner "local-exec" {
    command = "%s -fsS -o %s \"$BUNDLE_URL\""
    environment = {
      BUNDLE_URL = ephemeral.mintlify_static_export_bundle.test.url
    }
  }
}
`, curl, out)
	noLink := func(what string, v any) error {
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		for _, s := range linkSecrets(t, fs) {
			if strings.Contains(string(data), s) {
				return fmt.Errorf("the %s holds the bundle link", what)
			}
		}
		return nil
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders(clk),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{cliEphemeral},
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
				checkPlan(func(p *tfjson.Plan) error { return noLink("plan", p) }),
			}},
			ConfigStateChecks: []statecheck.StateCheck{checkState(func(s *tfjson.State) error { return noLink("state", s) })},
		}},
	})
	ids := fs.StaticExportIDs()
	if len(ids) != 1 {
		t.Fatalf("exports %v", ids)
	}
	h := sha256.New()
	if _, err := fs.WriteStaticExportArchive(ids[0], h); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out) //nolint:gosec // the test's own file
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != hex.EncodeToString(h.Sum(nil)) {
		t.Error("curl's download is not the export's archive")
	}
	// The first opening met a running export: 409, then a wait.
	log := fs.RequestsTo(mintlifytest.RouteStaticExportsCreateBundle)
	if len(log) < 2 || log[0].Status != 409 {
		t.Errorf("bundle requests %+v", log)
	}
	statuses := make([]int, len(log))
	for i, r := range log {
		statuses[i] = r.Status
	}
	t.Logf("bundle requests of one apply (plan and apply open the ephemeral resource): %v", statuses)
	entries, err := os.ReadDir(logs)
	if err != nil || len(entries) == 0 {
		t.Fatalf("no logs: %v", err)
	}
	var all strings.Builder
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(logs, e.Name())) //nolint:gosec // the test's own logs
		if err != nil {
			t.Fatal(err)
		}
		all.Write(data)
	}
	if !strings.Contains(all.String(), "static export bundle ready") || !strings.Contains(all.String(), "[TRACE]") {
		t.Fatalf("the logs hold no TRACE line or no line of the ephemeral resource (%d bytes)", all.Len())
	}
	assertNoLink(t, fs, "the TRACE logs", all.String())
}

// The bundle ephemeral resource refuses, when Terraform opens it, a
// malformed job id or timeout (before any request), an export the API
// does not know, and one that failed.
func TestAccStaticExportBundle_refusals(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	failed, err := clientFor(t, url).client.StaticExports.Start(context.Background(), sdk.StaticExportRequest{Domain: "docs.example.com", Version: "[fake:failed]"})
	if err != nil {
		t.Fatal(err)
	}
	c := newCLIDir(t, clk, cliEphemeral, map[string]string{"main.tf": providerBlock(url)})
	for _, tt := range []struct{ body, want string }{
		{`job_id = "../x"`, `job_id "../x" may hold only ASCII letters`},
		{"job_id  = \"se_1\"\n  timeout = \"5s\"", `timeout "5s" must be a duration from 1m to 24h`},
		{`job_id = "se_unknown"`, "No such static export"},
		{fmt.Sprintf("job_id = %q", failed.ID), "Static export " + failed.ID + " failed, so it has no bundle"},
	} {
		c.write(map[string]string{"bundle.tf": "ephemeral \"mintlify_static_export_bundle\" \"this\" {\n  " + tt.body + "\n}\n"})
		r := c.run("plan", "-input=false")
		if r.code != 1 {
			t.Errorf("%s: exit status %d", tt.body, r.code)
		}
		wantOutput(t, tt.body, flat(r.out), "Error: ", tt.want)
	}
	wantRequests(t, fs, mintlifytest.RouteStaticExportsCreateBundle, 2, "bundles asked: the unknown export and the failed one")
}
