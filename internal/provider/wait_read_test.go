package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// A status read that fails while the apply waits (502s past the retries,
// a 404, an answer for another object) is not a failed run: the resource
// is saved untainted, with a warning that its outcome is not known, the
// next plan starts nothing, and its refresh (here, terraform's own after
// the apply) records how it ended.
func TestAccResources_aFailedReadWhileWaitingKeepsItUntaintedAndTheRefreshLearnsTheOutcome(t *testing.T) {
	// From the status route's second read on, three polls in a row fail
	// (the SDK's wait gives up then), with each of their retries.
	failing := make([]int, 3*(1+sdk.DefaultMaxRetries))
	for i := range failing {
		failing[i] = 2 + i
	}
	for _, tt := range []struct {
		name, typ, body, noun, route, ended string
		fault                               mintlifytest.Fault
	}{
		{name: "deployment, 502s", typ: "mintlify_deployment", body: triggers("a1"), noun: "deployment",
			route: mintlifytest.RouteDeploymentsStatus, ended: "success",
			fault: mintlifytest.Fault{Kind: mintlifytest.FaultServerError, Requests: failing}},
		{name: "preview, 404", typ: "mintlify_preview_deployment", body: `  branch = "feature/x"`, noun: "preview deployment",
			route: mintlifytest.RouteDeploymentsStatus, ended: "success",
			fault: mintlifytest.Fault{Kind: mintlifytest.FaultClientError, Status: 404, Requests: []int{2}}},
		{name: "static export, another export's answer", typ: "mintlify_static_export", body: `  domain = "docs.example.com"`,
			noun: "static export", route: mintlifytest.RouteStaticExportsGet, ended: "completed",
			fault: mintlifytest.Fault{Kind: mintlifytest.FaultMalformed, Body: `{"jobId":"se_other","status":"completed"}`, Requests: []int{2}}},
		{name: "agent job, 502s", typ: "mintlify_agent_job", body: `  prompt = "Document it"`, noun: "agent job",
			route: mintlifytest.RouteAgentJobsGet, ended: "completed",
			fault: mintlifytest.Fault{Kind: mintlifytest.FaultServerError, Requests: failing}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			clearEnv(t)
			tt.fault.Route = tt.route
			fs, url, clk := startExportFake(t, mintlifytest.Config{DefaultDeployment: testDeployment, Faults: []mintlifytest.Fault{tt.fault}})
			addr := tt.typ + ".test"
			cfg := providerBlock(url) + fmt.Sprintf("resource %q \"test\" {\n%s\n}\n", tt.typ, tt.body)
			rec := &diagRecorder{}
			summary := "Could not learn how the " + tt.noun + " ended"
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: recordingProviders(clk, rec),
				Steps: []resource.TestStep{
					{
						Config: cfg,
						ConfigStateChecks: []statecheck.StateCheck{checkState(func(s *tfjson.State) error {
							vals, ok := resourceValues(s.Values.RootModule, addr)
							if !ok {
								return fmt.Errorf("%s not in state", addr)
							}
							text := rec.text()
							if rec.count("ApplyResourceChange", summary) != 1 || strings.Contains(text, "error:") ||
								!strings.Contains(text, fmt.Sprint(vals["id"])+" was ") || !strings.Contains(text, "not tainted") {
								return fmt.Errorf("diagnostics:\n%s", text)
							}
							return nil
						})},
					},
					{
						// Later, the work has ended: the plan starts nothing
						// (the resource is not tainted), and its refresh
						// records the outcome.
						PreConfig:         func() { clk.Advance(time.Hour) },
						Config:            cfg,
						ConfigPlanChecks:  plansNothing(),
						ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonPath("status"), knownString(tt.ended))},
					},
				},
			})
			for _, route := range []string{mintlifytest.RouteDeploymentsTrigger, mintlifytest.RouteDeploymentsPreview, mintlifytest.RouteStaticExportsStart, mintlifytest.RouteAgentJobsCreate} {
				if n := fs.Requests(route); n > 1 {
					t.Errorf("%d requests to %s: the work ran again", n, route)
				}
			}
			if hits := fs.FaultHits(); hits[0] == 0 {
				t.Error("the fault never hit")
			}
		})
	}
}
