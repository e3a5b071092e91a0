package provider

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
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
	fs, url, clk := startDeployFake(t, mintlifytest.Config{DefaultDeployment: mintlifytest.DeploymentScript{Queued: time.Second, Building: 9 * time.Second, Outcome: mintlifytest.OutcomeCompleted}})
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

// The status's fields as state holds them: "" (the API gave none) is null
// for every string but the id, an absent author or commit is null, lists
// are empty rather than null and keep their elements as they are.
func TestDeploymentStatus_applyWritesNullForWhatTheAPIDidNotGive(t *testing.T) {
	created := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	ended := created.Add(10 * time.Second)
	id := int64(1815)
	for name, tc := range map[string]struct {
		dep  sdk.Deployment
		want string
	}{
		"every field": {
			dep: sdk.Deployment{ID: "s1", ProjectID: "p", Status: sdk.DeploymentSuccess, Summary: "ok", Logs: []string{"a", ""},
				Subdomain: "docs", Screenshot: "s", ScreenshotLight: "l", ScreenshotDark: "d",
				Author: &sdk.DeploymentAuthor{Name: "Ada", AvatarURL: "https://a", GitHubUserID: &id},
				Commit: &sdk.DeploymentCommit{SHA: "abc", Ref: "main", Message: "m",
					FilesChanged: sdk.FilesChanged{Added: []string{"x.mdx"}, Modified: []string{""}}},
				Source: "dashboard", CreatedAt: created, EndedAt: &ended},
			want: `"s1" "p" "success" "ok" ["a",""] "docs" "s" "l" "d" ` +
				`{"avatar_url":"https://a","github_user_id":1815,"name":"Ada"} ` +
				`{"files_changed":{"added":["x.mdx"],"modified":[""],"removed":[]},"message":"m","ref":"main","sha":"abc"} ` +
				`"dashboard" "2026-11-21T12:00:00Z" "2026-11-21T12:00:10Z"`,
		},
		"nothing but the id": {
			dep:  sdk.Deployment{ID: "s2"},
			want: `"s2" <null> <null> <null> [] <null> <null> <null> <null> <null> <null> <null> <null> <null>`,
		},
		"an author and a commit of empty fields": {
			dep: sdk.Deployment{ID: "s3", Author: &sdk.DeploymentAuthor{}, Commit: &sdk.DeploymentCommit{}},
			want: `"s3" <null> <null> <null> [] <null> <null> <null> <null> ` +
				`{"avatar_url":<null>,"github_user_id":<null>,"name":<null>} ` +
				`{"files_changed":{"added":[],"modified":[],"removed":[]},"message":<null>,"ref":<null>,"sha":<null>} ` +
				`<null> <null> <null>`,
		},
	} {
		var m deploymentStatusModel
		m.apply(&tc.dep)
		got := strings.Join([]string{m.ID.String(), m.ProjectID.String(), m.Status.String(), m.Summary.String(), m.Logs.String(),
			m.Subdomain.String(), m.Screenshot.String(), m.ScreenshotLight.String(), m.ScreenshotDark.String(), m.Author.String(),
			m.Commit.String(), m.Source.String(), m.CreatedAt.String(), m.EndedAt.String()}, " ")
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, tc.want)
		}
		s := m.schema()
		for attr, v := range map[string]attr.Value{"author": m.Author, "commit": m.Commit, "logs": m.Logs} {
			if !v.Type(t.Context()).Equal(s.Attributes[attr].GetType()) {
				t.Errorf("%s: %s is of %s, the schema's %s", name, attr, v.Type(t.Context()), s.Attributes[attr].GetType())
			}
		}
	}
}
