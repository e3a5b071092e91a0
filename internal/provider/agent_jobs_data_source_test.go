package provider

import (
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// listingReads counts the job listing's reads (first pages: skip=0) and
// all its requests.
func listingReads(fs *mintlifytest.Fake) (reads, requests int) {
	for _, r := range fs.RequestLog() {
		if r.Route != mintlifytest.RouteAgentJobsSessions {
			continue
		}
		requests++
		if q, _ := url.ParseQuery(r.Query); q.Get("skip") == "0" {
			reads++
		}
	}
	return reads, requests
}

// seedMix puts n jobs into the demo project, an hour apart from
// 2026-11-01T00:00Z, their statuses cycling completed, failed, active,
// archived.
func seedMix(t *testing.T, fs *mintlifytest.Fake, n int) {
	t.Helper()
	statuses := []string{"completed", "failed", "active", "archived"}
	for i := range n {
		if _, err := fs.SeedJob(mintlifytest.DemoProjectID, mintlifytest.JobSeed{Status: statuses[i%4], Prompt: fmt.Sprintf("Job %d", i),
			CreatedAt: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
}

// jobsMatchServer checks the data source's jobs against the fake's own
// listing, filtered by keep and cut at most (0: all): the same jobs in the
// same order, field by field.
func jobsMatchServer(fs *mintlifytest.Fake, keep func(map[string]any) bool, most int) statecheck.StateCheck {
	return checkState(func(s *tfjson.State) error {
		vals, ok := resourceValues(s.Values.RootModule, "data.mintlify_agent_jobs.test")
		if !ok {
			return fmt.Errorf("no data source in state")
		}
		got, _ := vals["jobs"].([]any)
		var want []map[string]any
		for _, j := range fs.Sessions(mintlifytest.DemoProjectID) {
			if keep(j) && (most == 0 || len(want) < most) {
				want = append(want, j)
			}
		}
		if len(got) != len(want) {
			return fmt.Errorf("%d jobs, the server lists %d that match", len(got), len(want))
		}
		for i, w := range want {
			g, _ := got[i].(map[string]any)
			created, _ := time.Parse(time.RFC3339, fmt.Sprint(w["createdAt"]))
			for attr, v := range map[string]any{"id": w["sessionId"], "halt_reason": w["haultReason"], "title": w["title"],
				"subdomain": w["subdomain"], "branch": w["branch"], "user_id": w["userId"], "created_at": created.UTC().Format(time.RFC3339)} {
				if fmt.Sprint(g[attr]) != fmt.Sprint(v) {
					return fmt.Errorf("jobs[%d].%s = %v, the server says %v", i, attr, g[attr], v)
				}
			}
			if link, ok := w["pullRequestLink"]; (ok && g["pr_link"] != link) || (!ok && g["pr_link"] != nil) {
				return fmt.Errorf("jobs[%d].pr_link = %v, the server says %v", i, g["pr_link"], link)
			}
			if g["halted"] != w["haulted"] {
				return fmt.Errorf("jobs[%d].halted = %v, the server says %v", i, g["halted"], w["haulted"])
			}
			if err := todosMatch(g["todos"], w["todos"]); err != nil {
				return fmt.Errorf("jobs[%d].todos: %w", i, err)
			}
		}
		return nil
	})
}

// todosMatch compares a listed job's todos in state with the server's.
func todosMatch(got, want any) error {
	g, _ := got.([]any)
	w, _ := want.([]any)
	if len(g) != len(w) || g == nil {
		return fmt.Errorf("%v, the server says %v", got, want)
	}
	for i := range w {
		gt, _ := g[i].(map[string]any)
		wt, _ := w[i].(map[string]any)
		for _, attr := range []string{"id", "content", "status", "priority"} {
			if gt[attr] != wt[attr] {
				return fmt.Errorf("[%d].%s = %v, the server says %v", i, attr, gt[attr], wt[attr])
			}
		}
	}
	return nil
}

// maxResults reads max_results out of a data source's arguments.
func maxResults(args string) int {
	var n int
	if i := strings.Index(args, "max_results = "); i >= 0 {
		_, _ = fmt.Sscanf(args[i:], "max_results = %d", &n)
	}
	return n
}

func reasonIn(reasons ...string) func(map[string]any) bool {
	return func(j map[string]any) bool {
		for _, r := range reasons {
			if j["haultReason"] == r {
				return true
			}
		}
		return false
	}
}

func jobsConfig(url, args string) string {
	return providerBlock(url) + fmt.Sprintf("\ndata \"mintlify_agent_jobs\" \"test\" {\n%s\n}\n", args)
}

// The listing through the data source: every read costs floor(N/100)+1
// requests (one more, empty, when N is a multiple of 100), whatever the
// filters; max_results stops it as soon as it has its jobs.
func TestAccAgentJobs_filtersAndRequests(t *testing.T) {
	clearEnv(t)
	all := func(map[string]any) bool { return true }
	for _, tt := range []struct {
		jobs         int
		args         string
		keep         func(map[string]any) bool
		wantRequests int
	}{
		{0, "", all, 1},
		{100, "", all, 2},
		{230, "", all, 3},
		{230, `statuses = ["failed", "archived"]`, reasonIn("error", "interrupted"), 3},
		{230, `created_after = "2026-11-05"
created_before = "2026-11-06T12:00:00Z"`, func(j map[string]any) bool {
			c := fmt.Sprint(j["createdAt"])
			return c >= "2026-11-05" && c < "2026-11-06T12"
		}, 3},
		{230, `max_results = 100`, all, 1},
		{230, `statuses = ["active"]
max_results = 30`, reasonIn("processing"), 2},
	} {
		t.Run(fmt.Sprintf("%d jobs %s", tt.jobs, tt.args), func(t *testing.T) {
			fs, url, clk := startFake(t, mintlifytest.Config{})
			seedMix(t, fs, tt.jobs)
			runSteps(t, clk, []resource.TestStep{{
				Config:            jobsConfig(url, tt.args),
				ConfigStateChecks: []statecheck.StateCheck{jobsMatchServer(fs, tt.keep, maxResults(tt.args))},
			}})
			reads, requests := listingReads(fs)
			if reads == 0 || requests != reads*tt.wantRequests {
				t.Errorf("%d requests over %d reads; want %d a read", requests, reads, tt.wantRequests)
			}
			wantRequests(t, fs, mintlifytest.RouteAgentJobsGet, 0, "v2 reads")
		})
	}
}

// A job started from the dashboard names its user; every job shows its
// task list and whether it halted, as the listing gives them.
func TestAccAgentJobs_userTodosAndHaltedAsListed(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	seedMix(t, fs, 2)
	fs.CreateJob(mintlifytest.DemoProjectID, "From the dashboard")
	all := func(map[string]any) bool { return true }
	runSteps(t, clk, []resource.TestStep{{
		Config: jobsConfig(url, ""),
		ConfigStateChecks: []statecheck.StateCheck{jobsMatchServer(fs, all, 0),
			statecheck.ExpectKnownValue("data.mintlify_agent_jobs.test", tfjsonPath("jobs").AtSliceIndex(0).AtMapKey("user_id"), knownvalue.NotNull()),
			statecheck.ExpectKnownValue("data.mintlify_agent_jobs.test", tfjsonPath("jobs").AtSliceIndex(0).AtMapKey("todos"), knownvalue.ListSizeExact(1)),
			statecheck.ExpectKnownValue("data.mintlify_agent_jobs.test", tfjsonPath("jobs").AtSliceIndex(1).AtMapKey("halted"), knownvalue.Bool(true)),
		},
	}})
}

func TestAccAgentJobs_idProjectAndEmptyList(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	fs.AddProject("other", mintlifytest.DemoOrg, mintlifytest.Dataset{})
	runSteps(t, clk, []resource.TestStep{{
		Config: jobsConfig(url, `project_id = "other"
statuses = ["failed"]
created_after = "2026-11-01"
max_results = 5`),
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.mintlify_agent_jobs.test", tfjsonPath("id"),
				knownString("other?created_after=2026-11-01&max_results=5&statuses=failed")),
			statecheck.ExpectKnownValue("data.mintlify_agent_jobs.test", tfjsonPath("project_id"), knownString("other")),
			statecheck.ExpectKnownValue("data.mintlify_agent_jobs.test", tfjsonPath("jobs"), knownvalue.ListSizeExact(0)),
		},
	}})
}

func TestAccAgentJobs_badFiltersFailAtPlan(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	for args, want := range map[string]string{
		`statuses = ["done"]`:        `"done" must be one of active, completed, archived, failed`,
		`created_after = "tomorrow"`: `created_after "tomorrow"`,
		`created_after = "2026-11-02"
created_before = "2026-11-01"`: `created_after "2026-11-02" must be before created_before "2026-11-01"`,
		`max_results = 0`: "max_results is 0; it must be a whole number, at least 1",
	} {
		runSteps(t, clk, []resource.TestStep{{Config: jobsConfig(url, args), ExpectError: wrapped(want)}})
	}
	wantNoRequests(t, fs, "for bad filters")
}

func TestAccAgentJob_dataSourceReadsOneJob(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	id, err := fs.SeedJob(mintlifytest.DemoProjectID, mintlifytest.JobSeed{Status: "archived",
		PRLink: "https://github.com/acme/demo-project/pull/9", CreatedAt: time.Date(2026, 11, 1, 8, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	const addr = "data.mintlify_agent_job.test"
	runSteps(t, clk, []resource.TestStep{
		{
			Config: providerBlock(url) + fmt.Sprintf(`
data "mintlify_agent_job" "test" {
  id = %q
}

output "gate" {
  value = data.mintlify_agent_job.test.status == "archived" ? "go" : "wait"
}
`, id),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonPath("project_id"), knownString(mintlifytest.DemoProjectID)),
				statecheck.ExpectKnownValue(addr, tfjsonPath("status"), knownString("archived")),
				statecheck.ExpectKnownValue(addr, tfjsonPath("pr_link"), knownString("https://github.com/acme/demo-project/pull/9")),
				statecheck.ExpectKnownValue(addr, tfjsonPath("created_at"), knownString("2026-11-01T08:00:00Z")),
				statecheck.ExpectKnownValue(addr, tfjsonPath("archived_at"), knownString("2026-11-01T08:00:00Z")),
				statecheck.ExpectKnownValue(addr, tfjsonPath("model"), knownString("claude-sonnet-4-5")),
				statecheck.ExpectKnownValue(addr, tfjsonPath("source"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"repository": knownString("https://github.com/acme/demo-project"), "ref": knownString("main"),
				})),
				statecheck.ExpectKnownOutputValue("gate", knownString("go")),
				checkState(func(s *tfjson.State) error {
					raw, _ := fs.Job(mintlifytest.DemoProjectID, id)
					var job map[string]any
					_ = json.Unmarshal(raw, &job)
					vals, _ := resourceValues(s.Values.RootModule, addr)
					return compareJob(fs, map[string]any{"project_id": vals["project_id"], "id": job["id"], "status": vals["status"], "pr_link": vals["pr_link"]})
				}),
			},
		},
	})
	// A job the project does not have, and an id no job can have.
	for cfg, want := range map[string]*regexp.Regexp{
		"project_id = \"demo-project\"\n  id = \"not-a-job\"": wrapped("Agent job not found",
			`Mintlify has no agent job "not-a-job" in project "demo-project" (404)`, "takes to be the jobs' v2 ids"),
		"id = \"a/b\"": wrapped(`id "a/b" may hold only`),
	} {
		runSteps(t, clk, []resource.TestStep{{
			Config:      providerBlock(url) + "\ndata \"mintlify_agent_job\" \"test\" {\n  " + cfg + "\n}\n",
			ExpectError: want,
		}})
	}
	wantRequests(t, fs, mintlifytest.RouteAgentJobsGet, 4, "v2 reads: 3 of the job (plan, apply, refresh) and 1 of the unknown one")
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 0, "jobs started")
}
