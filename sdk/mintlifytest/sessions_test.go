package mintlifytest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestListJobs_everyJobNewestFirstInV1Words(t *testing.T) {
	h := newHarness(t, Config{DefaultJob: JobScript{ActiveFor: time.Minute, Outcome: OutcomeCompleted}})
	old := t0.Add(-48 * time.Hour)
	seeded := func(seed JobSeed) string {
		t.Helper()
		id, err := h.srv.SeedJob(DemoProjectID, seed)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	failed := seeded(JobSeed{ID: "job-failed", Status: jobFailed, Prompt: "Fix the build", CreatedAt: old})
	archived := seeded(JobSeed{ID: "job-archived", Status: jobArchived, Prompt: "", CreatedAt: old.Add(time.Hour), PRLink: "https://github.com/acme/demo-project/pull/7"})
	_, _, j := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"[fake:nochange] Check   the links\nthen stop"}`)
	noChange := j["id"].(string)
	h.clk.Advance(2 * time.Minute) // both created ones end
	made := h.srv.CreateJob(DemoProjectID, "Document the v2 endpoints")
	_, _, j = h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"`+strings.Repeat("x", 70)+`"}`) // same instant: made later, listed first
	long := j["id"].(string)

	status, _, body := h.call("GET", "/v1/agent/demo-project/jobs?take=100", "")
	if status != 200 {
		t.Fatalf("%d %v", status, body)
	}
	got := list(body, "allSessions")
	var ids []string
	for _, s := range got {
		ids = append(ids, s["sessionId"].(string))
	}
	if diff := cmp.Diff([]string{long, made, noChange, archived, failed}, ids); diff != "" {
		t.Fatalf("order (-want +got):\n%s", diff)
	}
	main := "main"
	want := []map[string]any{
		{"sessionId": long, "subdomain": "demo-project", "branch": main, "haulted": false, "haultReason": "processing",
			"title": strings.Repeat("x", 59) + "…", "createdAt": "2026-11-21T12:02:00.000Z"},
		{"sessionId": made, "haulted": false, "haultReason": "processing", "title": "Document the v2 endpoints", "userId": dashboardUserID},
		{"sessionId": noChange, "haulted": true, "haultReason": "completed", "title": "Check the links",
			"messageToUser": "No files needed changes.", "createdAt": "2026-11-21T12:00:00.000Z"},
		{"sessionId": archived, "haulted": true, "haultReason": "interrupted", "title": "Agent job",
			"pullRequestLink": "https://github.com/acme/demo-project/pull/7", "createdAt": "2026-11-19T13:00:00.000Z"},
		{"sessionId": failed, "haulted": true, "haultReason": "error", "messageToUser": "The agent ran into an error and stopped."},
	}
	for i, w := range want {
		for k, v := range w {
			if got[i][k] != v {
				t.Errorf("%s: %s = %#v, want %#v", ids[i], k, got[i][k], v)
			}
		}
	}
	// What the spec types as a plain string is left out, never null.
	for _, s := range got {
		for _, k := range []string{"pullRequestLink", "messageToUser", "userId"} {
			if v, ok := s[k]; ok && v == nil {
				t.Errorf("%s: %s is null", s["sessionId"], k)
			}
		}
	}
	if _, ok := got[1]["pullRequestLink"]; ok {
		t.Error("an active job with a pull request link")
	}
	if _, ok := got[0]["userId"]; ok {
		t.Error("a job created with a key names a user")
	}
	// A job that ends moves to its v1 words; the listing is what Sessions says.
	h.clk.Advance(2 * time.Minute)
	_, _, body = h.call("GET", "/v1/agent/demo-project/jobs?take=100", "")
	now := list(body, "allSessions")
	if now[1]["haultReason"] != "completed" || now[1]["pullRequestLink"] != "https://github.com/acme/demo-project/pull/104" ||
		now[1]["messageToUser"] != "Opened a pull request with the changes." {
		t.Errorf("a completed job: %v", now[1])
	}
	if diff := cmp.Diff(now, h.srv.Sessions(DemoProjectID)); diff != "" {
		t.Errorf("Sessions (-listed +Sessions):\n%s", diff)
	}
	if h.srv.Sessions("nope") != nil {
		t.Error("Sessions of no project")
	}
	// Every listed id reads through v2: the fake's answer to the question
	// the spec leaves open.
	for _, id := range ids {
		if status, _, j := h.call("GET", "/v2/agent/demo-project/job/"+id, ""); status != 200 || j["id"] != id {
			t.Errorf("v2 read of listed %s: %d %v", id, status, j)
		}
	}
}

func TestListJobs_skipTakeAndTheirDefaults(t *testing.T) {
	h := newHarness(t, Config{})
	var want []string
	for i := range 30 {
		id, err := h.srv.SeedJob(DemoProjectID, JobSeed{CreatedAt: t0.Add(-time.Duration(i) * time.Minute)})
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, id)
	}
	page := func(query string) []string {
		t.Helper()
		status, _, body := h.call("GET", "/v1/agent/demo-project/jobs"+query, "")
		if status != 200 {
			t.Fatalf("%s: %d %v", query, status, body)
		}
		if len(body) != 1 {
			t.Errorf("%s: the answer has %d keys; the spec gives allSessions only (no total, no hasMore)", query, len(body))
		}
		var ids []string
		for _, s := range list(body, "allSessions") {
			ids = append(ids, s["sessionId"].(string))
		}
		return ids
	}
	for query, w := range map[string][]string{
		"":                  want[:12], // take defaults to 12, skip to 0
		"?skip=12":          want[12:24],
		"?skip=24":          want[24:],
		"?skip=30":          nil,
		"?skip=1000":        nil,
		"?take=100":         want,
		"?take=1&skip=29":   want[29:],
		"?take=7.0&skip=10": want[10:17], // a whole number written as a float
	} {
		if diff := cmp.Diff(w, page(query)); diff != "" {
			t.Errorf("%q (-want +got):\n%s", query, diff)
		}
	}
	before := h.srv.TotalRequests()
	for query, problem := range map[string]string{
		"?take=0":         "take: Number must be greater than or equal to 1",
		"?take=101":       "take: Number must be less than or equal to 100",
		"?take=2.5":       "take: Expected integer, received float",
		"?skip=-1":        "skip: Number must be greater than or equal to 0",
		"?skip=ten":       "skip: Expected number, received string",
		"?skip=-1&take=0": "skip: Number must be greater than or equal to 0",
	} {
		status, _, body := h.call("GET", "/v1/agent/demo-project/jobs"+query, "")
		details := fmt.Sprint(body["details"])
		if status != 400 || body["error"] != "Invalid query parameters" || !strings.Contains(details, problem) {
			t.Errorf("%s: %d %v, want a 400 naming %q", query, status, body, problem)
		}
	}
	if _, _, body := h.call("GET", "/v1/agent/demo-project/jobs?skip=-1&take=0", ""); len(body["details"].([]any)) != 2 {
		t.Errorf("a 400 names every problem: %v", body)
	}
	if h.srv.TotalRequests()-before != 7 || h.srv.Requests(RouteAgentJobsSessions) != 8+7 {
		t.Errorf("requests counted: %d in all, %d listings", h.srv.TotalRequests(), h.srv.Requests(RouteAgentJobsSessions))
	}
}

func TestListJobs_noBudgetAndTheProjectsOwn(t *testing.T) {
	h := newHarness(t, Config{JobBudget: 1})
	h.srv.AddProject("other", DemoOrg, Dataset{})
	h.srv.CreateJob("other", "elsewhere")
	for range 150 { // reads draw from no budget: none is published
		if status, _, body := h.call("GET", "/v1/agent/demo-project/jobs", ""); status != 200 || len(list(body, "allSessions")) != 0 {
			t.Fatalf("%d %v", status, body)
		}
	}
	if status, _, _ := h.call("POST", "/v2/agent/demo-project/job", `{"prompt":"x"}`); status != 201 {
		t.Errorf("the listing spent the job budget: %d", status)
	}
	if _, _, body := h.call("GET", "/v1/agent/other/jobs", ""); len(list(body, "allSessions")) != 1 {
		t.Errorf("other project: %v", body)
	}
	h.srv.AddKey("mint_other_org", "other-org", true)
	if status, _, _ := h.call("GET", "/v1/agent/demo-project/jobs", "", "mint_other_org"); status != 404 {
		t.Errorf("another organization's project: %d", status)
	}
}

func TestTitle_isThePromptsFirstLine(t *testing.T) {
	for prompt, want := range map[string]string{
		"":                             "Agent job",
		"[fake:failed]":                "Agent job",
		"  Fix\ttypos  \nand more":     "Fix typos",
		"[fake:active=5s] Document it": "Document it",
		strings.Repeat("é", 61):        strings.Repeat("é", 59) + "…",
		strings.Repeat("é", 60):        strings.Repeat("é", 60),
	} {
		if got := title(prompt); got != want {
			t.Errorf("title(%q) = %q, want %q", prompt, got, want)
		}
	}
}
