package main

import (
	"fmt"
	"log"
	"slices"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The cost of a plan with nothing to change: a release pipeline (a
// deployment, N previews, a static export, an agent job and a search in a
// check block) applied once, then planned again, its requests counted by
// route. What can no longer change should cost nothing; the job (a
// follow-up message can take it up again) and the search (what the check
// is for) are read on every plan.

// planPreviews are the pipeline sizes measured, in previews.
var planPreviews = []int{1, 10, 50}

// plansHeading starts the report's section (and ends it: the next "## "
// heading).
const plansHeading = "## 12. Requests per no-change plan"

// planRow is one pipeline size: the plan's requests by route, through the
// provider measured and (when set) the baseline build.
type planRow struct {
	previews        int
	after, before   map[string]int
	haveBefore      bool
	afterRequests   int
	beforeRequests  int
	afterStatusRead int
}

type plansResult struct {
	date     time.Time
	machine  string
	baseline string // what the baseline build is ("" when none was measured)
	rows     []planRow
}

// pipelineConfig is the release pipeline with n previews against f.
func pipelineConfig(f *fake, n int) string {
	branches := make([]string, n)
	for i := range branches {
		branches[i] = fmt.Sprintf("%q", fmt.Sprintf("feature/branch-%02d", i+1))
	}
	return "terraform {\n  required_providers {\n    mintlify = { source = \"mintlify/mintlify\" }\n  }\n}\n" + fmt.Sprintf(`
provider "mintlify" {
  api_key           = %[1]q
  assistant_api_key = %[2]q
  base_url          = %[3]q
  project_id        = %[4]q
  domain            = %[5]q
}

locals {
  commit = "a1b2c3d"
}

resource "mintlify_deployment" "docs" {
  triggers = { commit = local.commit }
}

resource "mintlify_preview_deployment" "branch" {
  for_each = toset([%[6]s])
  branch   = each.key
  triggers = { commit = local.commit }
}

resource "mintlify_static_export" "release" {
  domain   = "docs.example.com"
  triggers = { commit = local.commit }
}

resource "mintlify_agent_job" "changelog" {
  prompt   = "Write the changelog entry for ${local.commit}"
  triggers = { commit = local.commit }
}

check "search" {
  data "mintlify_search" "install" {
    query = "install the CLI"
  }

  assert {
    condition     = contains(data.mintlify_search.install.paths, "/quickstart")
    error_message = "Searching \"install the CLI\" does not find /quickstart."
  }
}
`, mintlifytest.DemoAPIKey, mintlifytest.DemoAssistantKey, f.url, mintlifytest.DemoProjectID, mintlifytest.DemoDomain, strings.Join(branches, ", "))
}

// planRequests applies the pipeline with n previews through provider,
// then plans it again, and returns the plan's requests by route.
func (b *bench) planRequests(provider string, n int) (map[string]int, error) {
	// Fast work, and no rate limit on previews or deployments: the
	// benchmark counts a plan's requests, not the waits of an apply.
	f, err := startFake(mintlifytest.Config{
		DefaultDeployment: mintlifytest.DeploymentScript{Queued: 10 * time.Millisecond, Building: 10 * time.Millisecond, Outcome: mintlifytest.OutcomeCompleted},
		DefaultJob:        mintlifytest.JobScript{ActiveFor: 10 * time.Millisecond, Outcome: mintlifytest.OutcomeCompleted},
		StaticExports:     mintlifytest.StaticExportConfig{Default: mintlifytest.ExportScript{QueuedFor: 10 * time.Millisecond, RunFor: 10 * time.Millisecond, Pages: 12}},
		JobBudget:         -1,
		Limits:            map[string]int{"previews": -1, "deployments": -1},
	})
	if err != nil {
		return nil, err
	}
	defer f.close()
	res, err := b.apply(pipelineConfig(f, n), provider)
	if err != nil {
		return nil, err
	}
	mark := len(f.RequestLog())
	out, err := b.terraform(res.dir, []string{"MINTLIFY_BENCH_WRAP_TARGET=" + provider}, "plan", "-input=false", "-no-color")
	if err != nil {
		return nil, fmt.Errorf("terraform plan in %s: %w\n%s", res.dir, err, indent(out))
	}
	if !strings.Contains(out, "0 to add, 0 to change, 0 to destroy") {
		return nil, fmt.Errorf("the plan in %s is not a no-change plan:\n%s", res.dir, indent(out))
	}
	byRoute := map[string]int{}
	for _, r := range f.RequestLog()[mark:] {
		byRoute[r.Route]++
	}
	return byRoute, nil
}

// measurePlans measures every pipeline size through the provider and, when
// the bench has one, the baseline build.
func (b *bench) measurePlans() (*plansResult, error) {
	r := &plansResult{date: time.Now().UTC(), machine: machine(b.ctx, b.tf), baseline: b.baselineLabel}
	for _, n := range planPreviews {
		log.Printf("a no-change plan of a pipeline with %d previews", n)
		row := planRow{previews: n}
		var err error
		if row.after, err = b.planRequests(b.provider, n); err != nil {
			return nil, err
		}
		if b.baseline != "" {
			if row.before, err = b.planRequests(b.baseline, n); err != nil {
				return nil, err
			}
			row.haveBefore = true
		}
		row.afterRequests, row.beforeRequests = total(row.after), total(row.before)
		row.afterStatusRead = row.after[mintlifytest.RouteDeploymentsStatus] + row.after[mintlifytest.RouteStaticExportsGet]
		r.rows = append(r.rows, row)
	}
	return r, nil
}

func total(byRoute map[string]int) int {
	n := 0
	for _, c := range byRoute {
		n += c
	}
	return n
}

// routes writes a plan's requests by route, largest first.
func routes(byRoute map[string]int) string {
	keys := make([]string, 0, len(byRoute))
	for k := range byRoute {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if byRoute[a] != byRoute[b] {
			return byRoute[b] - byRoute[a]
		}
		return strings.Compare(a, b)
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%d × `%s`", byRoute[k], k)
	}
	return strings.Join(parts, ", ")
}

// section renders the report's section.
func (r *plansResult) section() string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format, args...) }
	p("%s\n\n", plansHeading)
	p("A release pipeline as a platform team writes one: a `mintlify_deployment`, N `mintlify_preview_deployment` (for_each over branches), a `mintlify_static_export` and a `mintlify_agent_job` per commit, and a `mintlify_search` in a `check` block. Applied once against the fake (every deployment and export finished), then `terraform plan` with nothing to change; its requests are counted from the fake's log, by route. A finished deployment, preview or export is a record that never changes; the job (a follow-up message can take it up again) and the search (what the check is for) are what a plan must read: the floor is 2 at every N. Measured on %s (`make bench BENCH_FLAGS=\"-only plans\"` measures this section alone; `-baseline` adds another build's figures as \"before\"); machine: %s.\n\n", r.date.Format("2006-01-02"), r.machine)
	if r.baseline != "" {
		p("| previews | requests per no-change plan, before (%s) | **after** | what the plan read, after | before |\n|---:|---:|---:|---|---|\n", r.baseline)
		for _, row := range r.rows {
			p("| %d | %d | **%d** | %s | %s |\n", row.previews, row.beforeRequests, row.afterRequests, routes(row.after), routes(row.before))
		}
	} else {
		p("| previews | requests per no-change plan | what the plan read |\n|---:|---:|---|\n")
		for _, row := range r.rows {
			p("| %d | **%d** | %s |\n", row.previews, row.afterRequests, routes(row.after))
		}
	}
	p("\n")
	return w.String()
}

// summaryRow is the summary table's row of the section.
func (r *plansResult) summaryRow(row func(what, result string, args ...any)) {
	sizes, after, before := make([]string, len(r.rows)), make([]string, len(r.rows)), make([]string, len(r.rows))
	for i, x := range r.rows {
		sizes[i], after[i], before[i] = fmt.Sprint(x.previews), fmt.Sprint(x.afterRequests), fmt.Sprint(x.beforeRequests)
	}
	result := "**" + strings.Join(after, " / ") + "**"
	if r.baseline != "" {
		result += fmt.Sprintf(" (before: %s)", strings.Join(before, " / "))
	}
	row(fmt.Sprintf("requests per no-change plan of a release pipeline with %s previews", strings.Join(sizes, " / ")), "%s", result)
}

// plansSummaryPrefix starts the summary row of the section.
const plansSummaryPrefix = "| requests per no-change plan of a release pipeline"

// measurePlansOnly measures the section alone (-only plans) and splices
// it into the report at out and its row into the summary table (CONTRIBUTING.md).
func (b *bench) measurePlansOnly(out, summaryFile string) error {
	r, err := b.measurePlans()
	if err != nil {
		return err
	}
	return spliceOnly(out, summaryFile, "the plans'", plansHeading, r.section(), plansSummaryPrefix, r.summaryRow)
}
