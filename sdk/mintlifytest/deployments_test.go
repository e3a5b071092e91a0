package mintlifytest

import (
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// status reads a status id's answer.
func (h *harness) status(id string) (int, map[string]any) {
	h.t.Helper()
	code, _, body := h.call(http.MethodGet, "/v1/project/update-status/"+id, "")
	return code, body
}

func TestDeployment_lifecycleOnTheClock(t *testing.T) {
	h := newHarness(t, Config{DefaultDeployment: DeploymentScript{Queued: 2 * time.Second, Building: 10 * time.Second, Outcome: OutcomeCompleted}})
	code, _, body := h.call(http.MethodPost, "/v1/project/update/"+DemoProjectID, "")
	id, _ := body["statusId"].(string)
	if code != http.StatusAccepted || len(body) != 1 || !regexp.MustCompile(`^[0-9a-f]{24}$`).MatchString(id) {
		t.Fatalf("%d %v", code, body)
	}
	for _, step := range []struct {
		at      time.Duration
		status  string
		logs    int
		summary string
		ended   bool
	}{
		{0, "queued", 1, "Waiting for a builder", false},
		{2*time.Second - time.Millisecond, "queued", 1, "Waiting for a builder", false},
		{2 * time.Second, "in_progress", 4, "Building 42 pages", false},
		{12*time.Second - time.Millisecond, "in_progress", 4, "Building 42 pages", false},
		{12 * time.Second, "success", 5, "Deployed 42 pages", true},
		{time.Hour, "success", 5, "Deployed 42 pages", true},
	} {
		h.clk.Advance(t0.Add(step.at).Sub(h.clk.Now()))
		code, st := h.status(id)
		logs, _ := st["logs"].([]any)
		_, ended := st["endedAt"]
		if code != 200 || st["_id"] != id || st["status"] != step.status || len(logs) != step.logs || st["summary"] != step.summary || ended != step.ended {
			t.Errorf("at %s: %d %v", step.at, code, st)
		}
		if step.ended && st["endedAt"] != "2026-11-21T12:00:12.000Z" {
			t.Errorf("endedAt %v", st["endedAt"])
		}
	}
	_, st := h.status(id)
	commit, _ := st["commit"].(map[string]any)
	author, _ := st["author"].(map[string]any)
	if st["projectId"] != DemoProjectID || st["createdAt"] != "2026-11-21T12:00:00.000Z" || st["subdomain"] != "demo-project" ||
		st["source"] != "api" || commit["ref"] != "main" || len(commit["sha"].(string)) != 40 || author["githubUserId"] != float64(1815) ||
		st["screenshot"] == nil {
		t.Errorf("status %v", st)
	}
	if logs := st["logs"].([]any); logs[len(logs)-1] != "Published https://demo-project.mintlify.app" {
		t.Errorf("logs %v", logs)
	}
}

func TestDeployment_failureAndNeverScripts(t *testing.T) {
	h := newHarness(t, Config{DefaultDeployment: DeploymentScript{Queued: time.Second, Building: time.Second, Outcome: OutcomeFailed}})
	_, _, body := h.call(http.MethodPost, "/v1/project/update/"+DemoProjectID, "")
	h.srv.SetDefaultDeployment(DeploymentScript{Outcome: OutcomeNever})
	_, _, never := h.call(http.MethodPost, "/v1/project/update/"+DemoProjectID, "")
	h.clk.Advance(24 * time.Hour)
	_, failed := h.status(body["statusId"].(string))
	logs := failed["logs"].([]any)
	if failed["status"] != "failure" || !strings.Contains(failed["summary"].(string), "Build failed") || logs[len(logs)-1] != "Build failed after 42 pages" || failed["endedAt"] == nil || failed["screenshot"] != nil {
		t.Errorf("failure: %v", failed)
	}
	if _, st := h.status(never["statusId"].(string)); st["status"] != "in_progress" || st["endedAt"] != nil {
		t.Errorf("never: %v", st)
	}
}

func TestPreview_sameBranchKeepsItsURLWithANewStatusID(t *testing.T) {
	h := newHarness(t, Config{})
	post := func(branch string) map[string]any {
		t.Helper()
		code, _, body := h.call(http.MethodPost, "/v1/project/preview/"+DemoProjectID, fmt.Sprintf(`{"branch":%q}`, branch))
		if code != http.StatusAccepted {
			t.Fatalf("%s: %d %v", branch, code, body)
		}
		return body
	}
	first, again, other, alike := post("feature/x"), post("feature/x"), post("docs/fake-failure"), post("feature-x")
	if first["previewUrl"] != "https://demo-project-feature-x.mintlify.app" || again["previewUrl"] != first["previewUrl"] || again["statusId"] == first["statusId"] {
		t.Errorf("redeploy: %v then %v", first, again)
	}
	if alike["previewUrl"] == first["previewUrl"] || other["previewUrl"] == first["previewUrl"] {
		t.Errorf("another branch shares the URL: %v %v", alike, other)
	}
	// Branches that slug alike are numbered in the order they come.
	if third := post("Feature.X"); alike["previewUrl"] != "https://demo-project-feature-x-2.mintlify.app" ||
		third["previewUrl"] != "https://demo-project-feature-x-3.mintlify.app" {
		t.Errorf("branches alike: %v, then %v", alike["previewUrl"], third["previewUrl"])
	}
	rec, ok := h.srv.Preview(DemoProjectID, "feature/x")
	if !ok || rec.URL != first["previewUrl"] || len(rec.StatusIDs) != 2 || rec.StatusIDs[1] != again["statusId"] {
		t.Errorf("Preview = %+v", rec)
	}
	h.clk.Advance(time.Hour)
	_, st := h.status(again["statusId"].(string))
	// The second deployment of the fake: its pull request is #102.
	if commit := st["commit"].(map[string]any); st["status"] != "success" || commit["ref"] != "feature/x" || commit["message"] != "Update the docs (#102)" {
		t.Errorf("preview status %v", st)
	}
	if _, st := h.status(other["statusId"].(string)); st["status"] != "failure" {
		t.Errorf("the fake-failure branch: %v", st)
	}
	if d, ok := h.srv.Deployment(again["statusId"].(string)); !ok || !d.Preview || d.Branch != "feature/x" || d.Source != "api" {
		t.Errorf("Deployment = %+v", d)
	}
}

func TestPreview_refusals(t *testing.T) {
	h := newHarness(t, Config{})
	for _, body := range []string{`{}`, `{"branch":""}`, `{"branch":7}`, `not json`} {
		if code, _, out := h.call(http.MethodPost, "/v1/project/preview/"+DemoProjectID, body); code != http.StatusBadRequest || !strings.Contains(out["error"].(string), "branch") {
			t.Errorf("%s: %d %v", body, code, out)
		}
	}
	h.srv.SetPreviewsOnPlan(DemoOrg, false)
	if code, _, out := h.call(http.MethodPost, "/v1/project/preview/"+DemoProjectID, `{"branch":"main"}`); code != http.StatusForbidden || !strings.Contains(out["error"].(string), "not available on your current plan") {
		t.Errorf("off the plan: %d %v", code, out)
	}
	off := newHarness(t, Config{PreviewsOffPlan: true})
	if code, _, _ := off.call(http.MethodPost, "/v1/project/preview/"+DemoProjectID, `{"branch":"main"}`); code != http.StatusForbidden {
		t.Errorf("Config.PreviewsOffPlan: %d", code)
	}
	off.srv.SetPreviewsOnPlan(DemoOrg, true)
	if code, _, _ := off.call(http.MethodPost, "/v1/project/preview/"+DemoProjectID, `{"branch":"main"}`); code != http.StatusAccepted {
		t.Errorf("back on the plan: %d", code)
	}
}

func TestUpdateStatus_unknownOrAnotherOrganizationsIs404(t *testing.T) {
	h := newHarness(t, Config{})
	h.srv.AddKey("mint_other", "other-org", false)
	h.srv.AddProject("other-project", "other-org", Dataset{})
	id := h.srv.TriggerDeployment("other-project")
	if code, _, _ := h.call(http.MethodGet, "/v1/project/update-status/"+id, "", "mint_other"); code != 200 {
		t.Errorf("own organization: %d", code)
	}
	for _, sid := range []string{id, "000000000000000000000000"} {
		if code, body := h.status(sid); code != http.StatusNotFound || body["error"] != "Update status not found" {
			t.Errorf("%s: %d %v", sid, code, body)
		}
	}
	if d, ok := h.srv.Deployment(id); !ok || d.Source != "dashboard" || h.srv.Requests(RouteDeploymentsTrigger) != 0 {
		t.Errorf("TriggerDeployment: %+v, %d requests", d, h.srv.Requests(RouteDeploymentsTrigger))
	}
	if ids := h.srv.DeploymentIDs("other-project"); len(ids) != 1 || ids[0] != id {
		t.Errorf("DeploymentIDs = %v", ids)
	}
	h.srv.ForgetDeployment(id)
	if code, _, _ := h.call(http.MethodGet, "/v1/project/update-status/"+id, "", "mint_other"); code != http.StatusNotFound || len(h.srv.DeploymentIDs("other-project")) != 0 {
		t.Errorf("a forgotten deployment: %d", code)
	}
	if _, ok := h.srv.DeploymentStatus(id); ok {
		t.Error("DeploymentStatus of a forgotten deployment")
	}
}

func TestAutomation_triggerAndRefusals(t *testing.T) {
	h := newHarness(t, Config{})
	path := func(id string) string { return "/v1/workflow/" + DemoProjectID + "/" + id + "/trigger" }
	code, _, body := h.call(http.MethodPost, path(DemoAutomationID), "")
	if code != http.StatusAccepted || body["schemaId"] != DemoAutomationID || body["instanceId"] == "" || body["jobId"] == "" {
		t.Fatalf("%d %v", code, body)
	}
	runs := h.srv.AutomationRuns(DemoProjectID)
	if len(runs) != 1 || runs[0].InstanceID != body["instanceId"] || runs[0].JobID != body["jobId"] || !runs[0].At.Equal(t0) {
		t.Errorf("runs %+v", runs)
	}
	h.srv.AddProject("p2", DemoOrg, Dataset{})
	h.srv.AddAutomation("p2", "p2-auto", Automation{Active: true, Schedule: "custom"})
	for id, want := range map[string]struct {
		code int
		msg  string
	}{
		DemoPausedAutomationID: {400, "Automation is not active"},
		DemoDailyAutomationID:  {400, "Automation is not configured with a custom schedule"},
		"a.b":                  {400, "Invalid automation ID"},
		"unknown":              {404, "Automation not found"},
		"p2-auto":              {404, "Automation not found"}, // another project's
	} {
		if code, _, out := h.call(http.MethodPost, path(id), ""); code != want.code || out["error"] != want.msg {
			t.Errorf("%s: %d %v", id, code, out)
		}
	}
	if code, _, _ := h.call(http.MethodPost, "/v1/workflow/p2/p2-auto/trigger", ""); code != http.StatusAccepted {
		t.Errorf("p2's own automation: %d", code)
	}
	if n := len(h.srv.AutomationRuns(DemoProjectID)); n != 1 {
		t.Errorf("%d runs: a refused trigger queued one", n)
	}
}

func TestDeployments_shareTheBudgetWithAutomationsPreviewsHaveTheirOwn(t *testing.T) {
	h := newHarness(t, Config{})
	for range 5 {
		h.call(http.MethodPost, "/v1/project/update/"+DemoProjectID, "")
		h.call(http.MethodPost, "/v1/workflow/"+DemoProjectID+"/"+DemoAutomationID+"/trigger", "")
	}
	code, header, body := h.call(http.MethodPost, "/v1/project/update/"+DemoProjectID, "")
	if code != http.StatusTooManyRequests || header.Get("Retry-After") != "10" || body["error"] == nil {
		t.Errorf("11th of the shared budget: %d %v %v", code, header, body)
	}
	if got := len(h.srv.DeploymentIDs(DemoProjectID)); got != 5 {
		t.Errorf("%d deployments: a refused trigger queued one", got)
	}
	for i := range 5 {
		if code, _, _ := h.call(http.MethodPost, "/v1/project/preview/"+DemoProjectID, `{"branch":"b"}`); code != http.StatusAccepted {
			t.Fatalf("preview %d: %d", i+1, code)
		}
	}
	code, header, _ = h.call(http.MethodPost, "/v1/project/preview/"+DemoProjectID, `{"branch":"b"}`)
	if code != http.StatusTooManyRequests || header.Get("Retry-After") != "60" {
		t.Errorf("6th preview: %d %v", code, header)
	}
	// The status endpoint has no published limit.
	id := h.srv.DeploymentIDs(DemoProjectID)[0]
	for range 200 {
		if code, _ := h.status(id); code != 200 {
			t.Fatalf("status: %d", code)
		}
	}
	h.clk.Advance(10 * time.Second)
	if code, _, _ := h.call(http.MethodPost, "/v1/project/update/"+DemoProjectID, ""); code != http.StatusAccepted {
		t.Errorf("after the window: %d", code)
	}
}
