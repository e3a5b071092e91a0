package provider

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

const statusAddr = "data.mintlify_deployment_status.test"

func statusConfig(url, statusID string) string {
	return providerBlock(url) + fmt.Sprintf(`
data "mintlify_deployment_status" "test" {
  status_id = %q
}
`, statusID)
}

func TestAccDeploymentStatus_readsEveryFieldOfADeploymentStartedElsewhere(t *testing.T) {
	clearEnv(t)
	fs, url, clk := startDeployFake(t, mintlifytest.Config{DefaultDeployment: mintlifytest.DeploymentScript{Queued: time.Second, Building: 9 * time.Second, Outcome: mintlifytest.DeploySuccess}})
	done := fs.TriggerDeployment(mintlifytest.DemoProjectID)
	clk.Advance(time.Minute)
	queued := fs.TriggerDeployment(mintlifytest.DemoProjectID)
	str := knownvalue.StringExact
	runSteps(t, clk, []resource.TestStep{
		{
			Config: statusConfig(url, done),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("id"), str(done)),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("project_id"), str(mintlifytest.DemoProjectID)),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("status"), str("success")),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("summary"), str("Deployed 42 pages")),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("logs"), knownvalue.ListSizeExact(5)),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("subdomain"), str("demo-project")),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("screenshot_dark"), str("https://screenshots.mintlify.test/"+done+"-dark.png")),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("source"), str("dashboard")),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("created_at"), str("2026-11-21T12:00:00Z")),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("ended_at"), str("2026-11-21T12:00:10Z")),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("author"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"name": str("Ada Lovelace"), "avatar_url": str("https://avatars.githubusercontent.com/u/1815"), "github_user_id": knownvalue.Int64Exact(1815),
				})),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("commit").AtMapKey("ref"), str("main")),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("commit").AtMapKey("files_changed"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"added":    knownvalue.ListExact([]knownvalue.Check{str("guides/deployments.mdx")}),
					"modified": knownvalue.ListExact([]knownvalue.Check{str("docs.json"), str("quickstart.mdx")}),
					"removed":  knownvalue.ListSizeExact(0),
				})),
			},
		},
		{
			Config: statusConfig(url, queued),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("status"), str("queued")),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("ended_at"), knownvalue.Null()),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("screenshot"), knownvalue.Null()),
				statecheck.ExpectKnownValue(statusAddr, tfjsonPath("logs"), knownvalue.ListSizeExact(1)),
			},
		},
		{
			Config:      statusConfig(url, "000000000000000000000000"),
			ExpectError: wrapped(`Could not read deployment status 000000000000000000000000`, `404 Not Found`, `Check status_id`),
		},
	})
}
