package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// guideBlocks are the ```terraform blocks of a generated guide, in order:
// a test that applies one runs what readers copy, so the guide cannot
// drift from what works (.ci/validate-examples only validates them).
func guideBlocks(t *testing.T, guide string) []string {
	t.Helper()
	md, err := os.ReadFile(filepath.Join("..", "..", "docs", "guides", guide+".md"))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []string
	for _, m := range regexp.MustCompile("(?s)```terraform\n(.*?)```").FindAllStringSubmatch(string(md), -1) {
		blocks = append(blocks, m[1])
	}
	if len(blocks) == 0 {
		t.Fatalf("docs/guides/%s.md has no terraform block", guide)
	}
	return blocks
}

// The recipe of "Checking a deployment with search", as printed, with the
// two keys of its "Keys" section, over two runs: the first deploys a
// commit without the release notes, and both checks fail (warnings: the
// run goes on); the second deploys the commit that adds them, and both
// pass. Each check's data source is read once by an apply, and once by a
// plan that does not replace the deployment (the test's own checks plan
// again after each apply): 1 of each, then 4, nothing more.
func TestAccGuide_checkingADeploymentWithSearchSeesTheDeployedPage(t *testing.T) {
	clearDiscoveryEnv(t)
	var notes mintlifytest.DocPage
	var site []mintlifytest.DocPage
	for _, p := range mintlifytest.DemoPages() {
		if p.Path == "/changelog/v2" {
			notes = p
		} else {
			site = append(site, p)
		}
	}
	fs, url, clk := startDeployFake(t, mintlifytest.Config{Pages: site})
	provider := fmt.Sprintf(`
provider "mintlify" {
  api_key           = %q
  project_id        = %q
  assistant_api_key = %q
  domain            = %q
  base_url          = %q
}
`, mintlifytest.DemoAPIKey, mintlifytest.DemoProjectID, mintlifytest.DemoAssistantKey, mintlifytest.DemoDomain, url)
	recipe := provider + guideBlocks(t, "checking-a-deployment-with-search")[0]
	// run applies the recipe for commit (after preConfig, when set): the
	// deployment succeeds, both checks end with status, the search's saying
	// notFound when failing, and the API has had reads searches and reads
	// page reads in all.
	run := func(preConfig func(), commit string, status tfjson.CheckStatus, notFound string, reads int) resource.TestStep {
		return resource.TestStep{
			PreConfig:          preConfig,
			Config:             recipe,
			ConfigVariables:    config.Variables{"commit_sha": config.StringVariable(commit)},
			ExpectNonEmptyPlan: true, // a check's data sources are read again at every apply
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("mintlify_deployment.docs", tfjsonPath("status"), knownString("success")),
				statecheck.ExpectKnownValue("mintlify_deployment.docs", tfjsonPath("triggers"),
					knownvalue.MapExact(map[string]knownvalue.Check{"commit": knownString(commit)})),
				checkStatus("release_notes_are_found", status, notFound),
				checkStatus("release_notes_are_live", status, ""),
				checkState(func(*tfjson.State) error {
					search, page := fs.Requests(mintlifytest.RouteDiscoverySearch), fs.Requests(mintlifytest.RouteDiscoveryPage)
					if search != reads || page != reads {
						return fmt.Errorf("%d searches and %d page reads, want %d of each", search, page, reads)
					}
					return nil
				}),
			},
		}
	}
	runSteps(t, clk, []resource.TestStep{
		run(nil, "4f2a9c1", tfjson.CheckStatusFail, "not /changelog/v2.", 1),
		run(func() { fs.PutPage(mintlifytest.DemoDomain, notes) }, "9d1e7b3", tfjson.CheckStatusPass, "", 4),
	})
	if accepted, refused := postsTo(fs, mintlifytest.RouteDeploymentsTrigger); accepted != 2 || refused != 0 {
		t.Errorf("deployments: %d accepted, %d refused; want 2", accepted, refused)
	}
}

// "Publish and preview docs", section 1 as printed, then with the
// resource not waiting (the guide's "Check that a deployment succeeded"):
// the output holds in both, though the API has not reported a commit yet.
func TestAccGuide_publishOutputHoldsWithAndWithoutWaiting(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{})
	section1 := guideBlocks(t, "publish-and-preview-docs")[0]
	notWaiting := regexp.MustCompile(`(triggers = \{ commit = var\.docs_commit \})`).ReplaceAllString(section1, "$1\n  wait_for_completion = false")
	if notWaiting == section1 {
		t.Fatal("section 1 of the guide no longer has the triggers line this test extends")
	}
	// moving: a deployment not waited for moves on by the next refresh.
	step := func(hcl, commit string, want *regexp.Regexp, moving bool) resource.TestStep {
		return resource.TestStep{
			Config:             providerBlock(url) + hcl,
			ConfigVariables:    config.Variables{"docs_commit": config.StringVariable(commit)},
			ConfigStateChecks:  []statecheck.StateCheck{statecheck.ExpectKnownOutputValue("published", knownvalue.StringRegexp(want))},
			ExpectNonEmptyPlan: moving,
		}
	}
	runSteps(t, clk, []resource.TestStep{
		step(section1, "4f2a9c1", regexp.MustCompile(`^success \(\S+\)$`), false),
		step(notWaiting, "b7e3d20", regexp.MustCompile(`^queued \(commit not reported yet\)$`), true),
	})
	if accepted, refused := postsTo(fs, mintlifytest.RouteDeploymentsTrigger); accepted != 2 || refused != 0 {
		t.Errorf("deployments: %d accepted, %d refused; want 2", accepted, refused)
	}
}
