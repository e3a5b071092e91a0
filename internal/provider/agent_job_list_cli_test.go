package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// terraform query with the mintlify_agent_job list resource, through the
// real CLI (Terraform 1.14+; cliDir): the listing, its filters and limit,
// and -generate-config-out, whose configuration then plans as imports
// only and, once applied, plans clean.

// queryResult is a line terraform query prints for a result.
type queryResult struct{ id, project, name string }

var queryLine = regexp.MustCompile(`(?m)^list\.mintlify_agent_job\.[a-z_]+\s+id=([^,\s]+),project_id=(\S+)\s+(.+?)\s*$`)

// query runs terraform query with the list block of config (the block's
// body) as the directory's only query file, and returns its results.
func (c *cliDir) query(body string, args ...string) ([]queryResult, cliResult) {
	c.t.Helper()
	c.write(map[string]string{"jobs.tfquery.hcl": "list \"mintlify_agent_job\" \"jobs\" {\n  provider = mintlify\n" + body + "}\n"})
	r := c.run(append([]string{"query"}, args...)...)
	var out []queryResult
	for _, m := range queryLine.FindAllStringSubmatch(r.out, -1) {
		out = append(out, queryResult{m[1], m[2], m[3]})
	}
	return out, r
}

func resultIDs(results []queryResult) []string {
	ids := make([]string, len(results))
	for i, r := range results {
		ids[i] = r.id
	}
	return ids
}

// Every job, across several pages of the v1 listing, newest first, each
// with its identity and display name, from floor(N/100)+1 requests and no
// v2 read; the list block's limit stops the listing, no page read past it.
func TestAccList_everyJobAcrossPagesUpToTheLimit(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	want := seedJobs(t, fs, 230, "completed")
	c := newCLIDir(t, clk, cliQuery, map[string]string{"main.tf": providerBlock(url)})
	for _, tt := range []struct {
		limit, want, listings int
	}{{1000, 230, 3}, {100, 100, 1}, {101, 101, 2}, {200, 200, 2}} {
		before := fs.Requests(mintlifytest.RouteAgentJobsSessions)
		results, r := c.query(fmt.Sprintf("  limit    = %d\n", tt.limit))
		if r.code != 0 {
			t.Fatalf("limit %d: exit status %d:\n%s", tt.limit, r.code, r.out)
		}
		if diff := cmp.Diff(want[:tt.want], resultIDs(results)); diff != "" {
			t.Errorf("limit %d: ids (-want +got):\n%s", tt.limit, diff)
		}
		if n := fs.Requests(mintlifytest.RouteAgentJobsSessions) - before; n != tt.listings {
			t.Errorf("limit %d: %d listings, want %d", tt.limit, n, tt.listings)
		}
		for _, res := range results {
			if res.project != mintlifytest.DemoProjectID {
				t.Fatalf("limit %d: result %+v", tt.limit, res)
			}
		}
	}
	results, _ := c.query("  limit    = 1000\n")
	if len(results) != 230 || results[0].name != "Job 229 (completed, 2026-11-10)" || results[229].name != "Job 0 (completed, 2026-11-01)" {
		t.Errorf("%d results; display names %+v, %+v", len(results), results[0], results[len(results)-1])
	}
	wantRequests(t, fs, mintlifytest.RouteAgentJobsGet, 0, "v2 reads: the listing says all terraform query shows")
}

func TestAccList_filtersByStatusAndCreationTime(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	var made []string // oldest first
	for i, s := range []string{"completed", "failed", "active",
		"archived", "completed", "failed"} {
		id, err := fs.SeedJob(mintlifytest.DemoProjectID, mintlifytest.JobSeed{Status: s, CreatedAt: time.Date(2026, 11, 1+i, 12, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		made = append(made, id)
	}
	c := newCLIDir(t, clk, cliQuery, map[string]string{"main.tf": providerBlock(url)})
	for name, tt := range map[string]struct {
		config string
		want   []string // newest first
	}{
		"no filter":               {"", []string{made[5], made[4], made[3], made[2], made[1], made[0]}},
		"failed":                  {`statuses = ["failed"]`, []string{made[5], made[1]}},
		"completed or archived":   {`statuses = ["completed", "archived"]`, []string{made[4], made[3], made[0]}},
		"active":                  {`statuses = ["active"]`, []string{made[2]}},
		"an empty status list":    {`statuses = []`, []string{made[5], made[4], made[3], made[2], made[1], made[0]}},
		"after a day, inclusive":  {`created_after = "2026-11-03T12:00:00Z"`, []string{made[5], made[4], made[3], made[2]}},
		"before a day, exclusive": {`created_before = "2026-11-03T12:00:00Z"`, []string{made[1], made[0]}},
		"a window and a status": {"created_after  = \"2026-11-02\"\n    created_before = \"2026-11-06T00:00:00+02:00\"\n    statuses       = [\"failed\", \"completed\"]",
			[]string{made[4], made[1]}},
	} {
		results, r := c.query("  config {\n    " + tt.config + "\n  }\n")
		if r.code != 0 {
			t.Errorf("%s: exit status %d:\n%s", name, r.code, r.out)
			continue
		}
		if diff := cmp.Diff(tt.want, resultIDs(results), cmp.Comparer(sameStrings)); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", name, diff)
		}
	}
}

// Bad filters are refused when the query is validated, with no request.
func TestAccList_badFiltersFailBeforeAnyRequest(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	c := newCLIDir(t, clk, cliQuery, map[string]string{"main.tf": providerBlock(url)})
	for _, tt := range []struct{ config, want string }{
		{`statuses = ["done"]`, `"done" must be one of active, completed, archived, failed`},
		{`created_after = "last week"`, `created_after "last week"`},
		{"created_after  = \"2026-11-02\"\n    created_before = \"2026-11-02\"", `created_after "2026-11-02" must be before created_before`},
		{`project_id = "a/b"`, `project_id "a/b" may hold only`},
	} {
		_, r := c.query("  config {\n    " + tt.config + "\n  }\n")
		if r.code != 1 {
			t.Errorf("%s: exit status %d, want 1", tt.config, r.code)
		}
		wantOutput(t, tt.config, flat(r.out), "Error: ", tt.want)
	}
	wantNoRequests(t, fs, "for bad filters")
}

// terraform query -generate-config-out writes an import block (by
// identity) and a resource block (no prompt: the API does not return it)
// for each job; the configuration plans as imports only, applies, and
// then plans clean. A change to it later updates in place, and a prompt
// set later is adopted: no job is ever started.
func TestAccList_generatedConfigurationPlansClean(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	var jobs []string
	for i, s := range []string{"completed", "failed", "archived"} {
		id, err := fs.SeedJob(mintlifytest.DemoProjectID, mintlifytest.JobSeed{Status: s, Prompt: fmt.Sprintf("Job %d", i),
			PRLink: "https://github.com/acme/demo-project/pull/7", CreatedAt: time.Date(2026, 11, 1+i, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, id)
	}
	c := newCLIDir(t, clk, cliQuery, map[string]string{"main.tf": providerBlock(url)})
	results, r := c.query("", "-generate-config-out=generated.tf")
	if r.code != 0 || len(results) != 3 {
		t.Fatalf("exit status %d, %d results:\n%s", r.code, len(results), r.out)
	}
	generated, err := os.ReadFile(filepath.Join(c.dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	gen := string(generated)
	for _, id := range jobs {
		wantOutput(t, "generated.tf", gen, "import {", "identity = {", `id         = "`+id+`"`)
	}
	if strings.Contains(gen, "prompt") || strings.Count(gen, `resource "mintlify_agent_job"`) != 3 {
		t.Errorf("generated.tf:\n%s", gen)
	}
	wantOutput(t, "the plan", c.ok("plan", "-input=false"), "Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.")
	wantOutput(t, "the apply", c.ok("apply", "-auto-approve", "-input=false"), "Apply complete! Resources: 3 imported, 0 added, 0 changed, 0 destroyed.")
	if r := c.run("plan", "-detailed-exitcode", "-input=false"); r.code != 0 {
		t.Fatalf("the plan after the import: exit status %d:\n%s", r.code, r.out)
	}
	// A change beside the left-out prompt updates in place; a prompt set
	// later is adopted in place.
	gen = strings.Replace(gen, "wait_for_completion = true", "wait_for_completion = false", 1)
	c.write(map[string]string{"generated.tf": gen})
	wantOutput(t, "a change", c.ok("apply", "-auto-approve", "-input=false"), "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.")
	c.write(map[string]string{"generated.tf": strings.Replace(gen, "wait_for_completion = false", "wait_for_completion = false\n  prompt              = \"Adopted\"", 1)})
	wantOutput(t, "a prompt", c.ok("apply", "-auto-approve", "-input=false"), "Apply complete! Resources: 0 added, 1 changed, 0 destroyed.")
	if r := c.run("plan", "-detailed-exitcode", "-input=false"); r.code != 0 {
		t.Errorf("the plan after both: exit status %d:\n%s", r.code, r.out)
	}
	wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 0, "jobs started")
}
