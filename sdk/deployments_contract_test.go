package sdk_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// plainErrorSchema is the error body of openapi.json, which declares it
// inline on each answer rather than as a component: {"error": string}.
var plainErrorSchema = openapi3.NewObjectSchema().WithProperty("error", openapi3.NewStringSchema()).WithRequired([]string{"error"})

// exerciseDeployments drives every operation of openapi.json through the
// validating proxy at url: each answer the fake gives, success and
// refusal, and each request the SDK sends.
func exerciseDeployments(t *testing.T, c *sdk.Client, url string, fake *mintlifytest.Fake) {
	t.Helper()
	ctx := context.Background()
	project := mintlifytest.DemoProjectID
	fast := sdk.WithPollInterval(5*time.Millisecond, 10*time.Millisecond)
	fake.SetDefaultDeployment(mintlifytest.DeploymentScript{Queued: 10 * time.Millisecond, Building: 20 * time.Millisecond, Outcome: mintlifytest.OutcomeCompleted})
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}

	// A deployment and previews, each followed to its end: every status.
	started, err := c.Deployments.Trigger(ctx, project)
	must(err)
	_, err = c.Deployments.Wait(ctx, started.StatusID, fast)
	must(err)
	for _, branch := range []string{"feature/x", "feature/x", "docs/fake-failure"} {
		p, err := c.Deployments.Preview(ctx, project, branch)
		must(err)
		_, err = c.Deployments.Wait(ctx, p.StatusID, fast)
		must(err)
	}
	_, err = c.Deployments.Status(ctx, "000000000000000000000000")
	wantStatus(t, err, 404)
	_, err = c.Deployments.Trigger(ctx, "no-such-project")
	wantStatus(t, err, 404)

	// Automations: a run, and each refusal.
	_, err = c.Automations.Trigger(ctx, project, mintlifytest.DemoAutomationID)
	must(err)
	for _, id := range []string{mintlifytest.DemoPausedAutomationID, mintlifytest.DemoDailyAutomationID, "a.b"} {
		_, err = c.Automations.Trigger(ctx, project, id)
		wantStatus(t, err, 400)
	}
	_, err = c.Automations.Trigger(ctx, project, "no-such-automation")
	wantStatus(t, err, 404)

	// Previews off the plan; a preview without a branch, sent raw (the
	// SDK refuses it before sending).
	fake.SetPreviewsOnPlan(mintlifytest.DemoOrg, false)
	_, err = c.Deployments.Preview(ctx, project, "main")
	wantStatus(t, err, 403)
	fake.SetPreviewsOnPlan(mintlifytest.DemoOrg, true)
	req, _ := http.NewRequest(http.MethodPost, url+"/v1/project/preview/"+project, strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAPIKey)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(invalidRequestHeader, "1")
	resp, err := http.DefaultClient.Do(req)
	must(err)
	resp.Body.Close()
	if resp.StatusCode != 400 {
		t.Errorf("a preview without a branch: %d, want 400", resp.StatusCode)
	}

	// The keys: a read-only key cannot deploy, a wrong one reads nothing.
	readOnly, _ := sdk.NewClient("mint_readonly", sdk.WithBaseURL(url))
	_, err = readOnly.Deployments.Trigger(ctx, project)
	wantStatus(t, err, 403)
	wrongKey, _ := sdk.NewClient("mint_wrong", sdk.WithBaseURL(url))
	_, err = wrongKey.Deployments.Status(ctx, started.StatusID)
	wantStatus(t, err, 401)

	// Both published limits: 10 deployments and runs per 10 s, 5 previews
	// per minute (the client above retries nothing).
	var limited error
	for i := 0; limited == nil && i < 20; i++ {
		_, limited = c.Deployments.Trigger(ctx, project)
	}
	wantStatus(t, limited, 429)
	_, err = c.Automations.Trigger(ctx, project, mintlifytest.DemoAutomationID)
	wantStatus(t, err, 429)
	limited = nil
	for i := 0; limited == nil && i < 10; i++ {
		_, limited = c.Deployments.Preview(ctx, project, "main")
	}
	wantStatus(t, limited, 429)
}
