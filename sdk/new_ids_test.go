package sdk

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakehostile"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// unreadableIDs are ids a read could not ask for: each breaks the rule of
// the reads (a slash, white space, a path step, a length, a control or a
// formatting character).
var unreadableIDs = map[string]string{
	"a/b":                           `"a/b"`,
	"st 1":                          `"st 1"`,
	"..":                            `".."`,
	strings.Repeat("x", 300):        `"` + strings.Repeat("x", 100) + `…"`,
	"job\nid":                       `"job\nid"`,
	"evil\u202eid":                  `"evil\u202eid"`,
	"\x1b[2Jcleared":                `"\x1b[2Jcleared"`,
	"id-" + mintlifytest.DemoAPIKey: `"id-[REDACTED]"`,
}

// An answer that starts work but names it by an id its reads could not
// ask for is refused before a caller can store it, saying the work may
// have been queued and where to find it; the request is never sent again
// (before: the id was returned, stored, and every later read of it
// failed with "may hold only ...").
func TestStartingWork_anIDThatCannotBeReadBackIsRefused(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name, route, path, what string
		start                   func(c *Client) error
		made                    func(f *mintlifytest.Fake) int
	}{
		{"agent job", mintlifytest.RouteAgentJobsCreate, "POST /v2/agent/demo-project/job", "agent job id",
			func(c *Client) error {
				_, err := c.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "Document it")
				return err
			},
			func(f *mintlifytest.Fake) int { return len(f.JobIDs(mintlifytest.DemoProjectID)) }},
		{"deployment", mintlifytest.RouteDeploymentsTrigger, "POST /v1/project/update/demo-project", "deployment statusId",
			func(c *Client) error { _, err := c.Deployments.Trigger(ctx, mintlifytest.DemoProjectID); return err },
			func(f *mintlifytest.Fake) int { return len(f.DeploymentIDs(mintlifytest.DemoProjectID)) }},
		{"preview", mintlifytest.RouteDeploymentsPreview, "POST /v1/project/preview/demo-project", "preview deployment statusId",
			func(c *Client) error {
				_, err := c.Deployments.Preview(ctx, mintlifytest.DemoProjectID, "docs/x")
				return err
			},
			func(f *mintlifytest.Fake) int { return len(f.DeploymentIDs(mintlifytest.DemoProjectID)) }},
		{"static export", mintlifytest.RouteStaticExportsStart, "POST /v1/static-export/jobs", "static export jobId",
			func(c *Client) error {
				_, err := c.StaticExports.Start(ctx, StaticExportRequest{Domain: "docs.example.com"})
				return err
			},
			func(f *mintlifytest.Fake) int { return len(f.StaticExportIDs()) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for id, shown := range unreadableIDs {
				fake, c, _ := newFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Route: tt.route, Kind: fakehostile.UnreadableID, Text: id})}})
				err := tt.start(c)
				var ue *UnusableIDError
				if !errors.As(err, &ue) || ue.ID != strings.ReplaceAll(id, mintlifytest.DemoAPIKey, Redacted) || ue.Path != strings.TrimPrefix(tt.path, "POST ") {
					t.Fatalf("%q: %v", id, err)
				}
				msg := err.Error()
				for _, want := range []string{tt.path + ": the API answered with " + tt.what + " " + shown + ", which cannot be read back (it ",
					"may have been queued all the same", "do not send the request again before you have looked for it in the Mintlify dashboard", "[request id req_"} {
					if !strings.Contains(msg, want) {
						t.Errorf("%q: %s\nlacks %s", id, msg, want)
					}
				}
				if strings.ContainsAny(msg, "\n\x1b\u202e") || strings.Contains(msg, mintlifytest.DemoAPIKey) {
					t.Errorf("%q: the error shows the id raw: %q", id, msg)
				}
				if !MayHaveTakenEffect(err) || !IsMalformedResponse(err) || tt.made(fake) != 1 || fake.Requests(tt.route) != 1 {
					t.Errorf("%q: may have taken effect %v, %d made, %d requests", id, MayHaveTakenEffect(err), tt.made(fake), fake.Requests(tt.route))
				}
			}
		})
	}
}

// A readable id passes, whatever else the answer holds.
func TestStartingWork_readableIDsPass(t *testing.T) {
	ctx := context.Background()
	for _, id := range []string{"j", "se_3f9a2c1b8e7d4a06", "a.b-c_d~e:f", strings.Repeat("x", 256)} {
		_, c, _ := newFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Kind: fakehostile.UnreadableID, Text: id})}})
		if job, err := c.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "x"); err != nil || job.ID != id {
			t.Errorf("%q: %v", id, err)
		}
		if d, err := c.Deployments.Trigger(ctx, mintlifytest.DemoProjectID); err != nil || d.StatusID != id {
			t.Errorf("%q: %v", id, err)
		}
		if e, err := c.StaticExports.Start(ctx, StaticExportRequest{Domain: "docs.example.com"}); err != nil || e.ID != id {
			t.Errorf("%q: %v", id, err)
		}
	}
}
