package main

import (
	"fmt"
	"log"
	"sort"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// results are every figure of one make bench run: report renders them
// as docs/performance.md, summary as the summary table (CONTRIBUTING.md), so the two
// always agree.
type results struct {
	date         time.Time
	runs         int
	machine      string
	reqs         []requestRow
	scales       []*scaleResult
	decode, wait map[string]map[string]float64
	many         *manyJobsResult
	soak         *soakResult
	endless      []*endlessCase
	cache        *cacheResult
	download     *downloadResult
	budget       *budgetResult
	assistant    *assistantResult
	plans        *plansResult
	hostile      *hostileResult
	daily        *dailyResult
}

// measure takes every measurement.
func (b *bench) measure() (*results, error) {
	sizes := map[string][]int{
		"unique_visitors": {0, 1, 250, 251, 10000}, "page_views": {0, 250, 251, 10000},
		"search_queries": {0, 100, 101, 1000}, "feedback": {0, 100, 101, 1000}, "assistant_conversations": {0, 1000, 1001, 5000},
	}
	scalePaths, soakApplies, manyJobs, cacheCommands, spentPlans, runners := 100000, 20, 50, 20, 20, 10
	if b.quick {
		for k := range sizes {
			sizes[k] = sizes[k][:3]
		}
		scalePaths, soakApplies, manyJobs, cacheCommands, spentPlans, runners = 10000, 3, 20, 4, 4, 3
	}
	log.Println("1/15 requests per read, every paged data source")
	var reqs []requestRow
	for _, s := range pagedSources {
		rows, err := b.measureRequests(s, sizes[s.name])
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, rows...)
	}
	var scales []*scaleResult
	for i, s := range []source{visitorsSource, viewsSource} {
		log.Printf("%d/15 read cost at %d rows of %s (%d runs each, provider and floor)", 2+i, scalePaths, s.name, b.runs)
		scale, err := b.measureScale(s, scalePaths)
		if err != nil {
			return nil, err
		}
		scales = append(scales, scale)
		reqs = append(reqs, requestRow{source: s.name, paths: scalePaths, reads: 1, requests: int(scale.requestsPerRead + 0.5), floor: (scalePaths + 249) / 250, stateBytes: scale.stateBytes})
	}
	// Group the rows by data source, smallest data set first.
	order := map[string]int{}
	for i, s := range pagedSources {
		order[s.name] = i
	}
	sort.SliceStable(reqs, func(i, j int) bool {
		if order[reqs[i].source] != order[reqs[j].source] {
			return order[reqs[i].source] < order[reqs[j].source]
		}
		return reqs[i].paths < reqs[j].paths
	})
	log.Println("4/15 SDK decoding (go test -bench)")
	decode, err := goBench(b.ctx, "DecodeVisitorsPage250", "-benchmem", "-count", "5")
	if err != nil {
		return nil, err
	}
	log.Println("5/15 waiting for jobs and deployments (go test -bench, on the fake's clock)")
	wait, err := b.measureWaits()
	if err != nil {
		return nil, err
	}
	log.Printf("6/15 %d jobs in one apply", manyJobs)
	many, err := b.measureManyJobs(manyJobs, 3*time.Second)
	if err != nil {
		return nil, err
	}
	log.Printf("7/15 fault soak: %d applies", soakApplies)
	soak, err := b.soak(soakApplies, 5, 2000)
	if err != nil {
		return nil, err
	}
	log.Printf("8/15 the analytics cache: %d commands, and a plan and apply of %d paths", cacheCommands, scalePaths)
	cache, err := b.measureCache(cacheCommands, 1200, scalePaths)
	if err != nil {
		return nil, err
	}
	log.Printf("9/15 the analytics budget: %d plans while it is spent, %d runners sharing a bucket, totals of %d paths", spentPlans, runners, scalePaths)
	budget, err := b.measureBudget(spentPlans, runners, scalePaths)
	if err != nil {
		return nil, err
	}
	log.Printf("10/15 a %d MiB static export bundle, downloaded by curl, the SDK and the action", downloadSize>>20)
	download, err := b.measureDownload(downloadSize)
	if err != nil {
		return nil, err
	}
	log.Println("11/15 servers that never stop paging")
	endless, err := b.measureEndless()
	if err != nil {
		return nil, err
	}
	log.Println("12/15 the assistant's streamed answer (go test -bench)")
	assistant, err := b.measureAssistant()
	if err != nil {
		return nil, err
	}
	log.Println("13/15 requests per no-change plan of a release pipeline")
	plans, err := b.measurePlans()
	if err != nil {
		return nil, err
	}
	log.Println("14/15 a hostile server: endless events, floods of empty parts, endless and trickling downloads")
	hostile, err := b.measureHostile()
	if err != nil {
		return nil, err
	}
	log.Println("15/15 daily analytics series: first fill and steady state of 7, 30 and 365 days")
	daily, err := b.measureDaily()
	if err != nil {
		return nil, err
	}

	return &results{date: time.Now().UTC(), runs: b.runs, machine: machine(b.ctx, b.tf), reqs: reqs, scales: scales,
		decode: decode, wait: wait, many: many, soak: soak, cache: cache, download: download, budget: budget, endless: endless, assistant: assistant, plans: plans, hostile: hostile, daily: daily}, nil
}

// report renders docs/performance.md.
// writeScales writes section 2: the read cost of 100,000 rows against the floor.
func (r *results) writeScales(p func(format string, args ...any)) {
	for i, scale := range r.scales {
		p("## 2.%d Read cost at %d rows: `mintlify_%s`\n\n", i+1, scale.paths, scale.source)
		adjusted := scale.floorApply - scale.floorGen
		p("`terraform apply` of a configuration whose only output is the row count. The **floor** is the same apply through a build of the provider (`internal/perfbench/floor`) whose data source returns the same rows from memory, with no HTTP: what Terraform and the plugin framework cost by themselves. The floor generates the rows in-process first (%s, measured separately); the ratios subtract that, which is the stricter comparison. On a shared 2-core machine wall times vary from run to run; the provider's CPU time, read from its processes' resource usage, varies far less.\n\n", round(scale.floorGen))
		p("| figure | value |\n|---|---:|\n")
		p("| apply through HTTP (median) | %s |\n", round(scale.apply))
		p("| apply, floor (median; minus row generation) | %s (%s) |\n", round(scale.floorApply), round(adjusted))
		p("| **apply / floor** | **%.3f** |\n", float64(scale.apply)/float64(adjusted))
		p("| raw fetch of the same %d pages with the SDK (median) | %s |\n", (scale.paths+249)/250, round(scale.fetch))
		p("| provider peak RSS / floor's | %.0f MiB / %.0f MiB (%.2f) |\n", float64(scale.rss)/1024, float64(scale.floorRSS)/1024, float64(scale.rss)/float64(max(scale.floorRSS, 1)))
		floorCPU := scale.floorCPU - scale.floorGen
		p("| provider CPU time (all its processes; median) / floor's, minus row generation | %s / %s (%.2f) |\n", round(scale.cpu), round(floorCPU), float64(scale.cpu)/float64(max(floorCPU, 1)))
		p("\nRuns: HTTP %s; floor %s; fetch %s.\n\n", durations(scale.applies), durations(scale.floorApplies), durations(scale.fetchs))
	}
}

func (r *results) report() string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format, args...) }
	reqs, decode, many, cache := r.reqs, r.decode, r.many, r.cache

	p("# Performance\n\n")
	p("Generated by `make bench` on %s. Re-run it to reproduce; each timed figure is the median of %d runs.\n\n", r.date.Format("2006-01-02"), r.runs)
	p("Machine: %s.\n\n", r.machine)
	p("Everything runs against the fake API (`sdk/mintlifytest`) on loopback, through real `terraform` runs of the built provider, with the analytics cache off unless section 7 says otherwise.\n\n")

	p("## 1. Requests per data-source read\n\n")
	p("Analytics requests are rate limited (%s, shared by every analytics endpoint). One read of each paged data source against data sets of N rows, default page size (the largest each endpoint serves), against the floor ceil(N / largest page):\n\n", sdk.AnalyticsLimit)
	p("| data source | rows | requests per read | floor | ratio | state |\n|---|---:|---:|---:|---:|---:|\n")
	for _, row := range reqs {
		p("| `mintlify_%s` | %d | %.0f | %d | %.2f | %s |\n", row.source, row.paths, row.perRead(), row.floor, row.ratio(), bytesText(row.stateBytes))
	}
	p("\n(0 rows still costs one request: the API must be asked. `mintlify_feedback_by_page` and `mintlify_assistant_caller_stats` are one request a read, always. **state** is the size of `terraform.tfstate` after the apply, the data source's rows included: what a remote backend stores and every command reads; section 8 gives the totals-only reads' and the other two data sources'.)\n\n")

	r.writeScales(p)

	p("## 3. SDK decoding of one 250-row page\n\n")
	p("`go test -bench DecodeVisitorsPage250 -benchmem -count 5 ./sdk`, medians:\n\n")
	p("| decoder | ns/op | B/op | allocs/op |\n|---|---:|---:|---:|\n")
	for _, row := range []struct{ label, name string }{{"typed (`sdk.PathCountsPage`)", "BenchmarkDecodeVisitorsPage250"}, {"`map[string]any` baseline", "BenchmarkDecodeVisitorsPage250Map"}} {
		m := decode[row.name]
		p("| %s | %.0f | %.0f | %.0f |\n", row.label, m["ns/op"], m["B/op"], m["allocs/op"])
	}

	r.writeWaits(p)

	p("\n## 5. Many jobs in one apply\n\n")
	ideal := time.Duration((many.jobs+many.parallelism-1)/many.parallelism) * many.jobTime
	p("%d `mintlify_agent_job` resources, jobs of %s, Terraform's default parallelism (%d): the ideal is %d rounds of %s = %s.\n\n", many.jobs, many.jobTime, many.parallelism, (many.jobs+many.parallelism-1)/many.parallelism, many.jobTime, ideal)
	p("| figure | value |\n|---|---:|\n| apply wall time (median) | %s |\n| wall / ideal | %.2f |\n| polls per job (median) | %.1f |\n", round(many.wall), float64(many.wall)/float64(ideal), many.polls)
	p("\nRuns: %s.\n\n", durations(many.walls))

	r.writeSoak(p)

	p("\n## 7. The analytics cache\n\n")
	p("Terraform reads data sources on every command, and every terraform command starts a new provider process: the cache on disk is what lets them share answers. Analytics requests sent by %d terraform commands in a row (`plan` and `apply` in turn) on one `mintlify_unique_visitors` of %d paths (%d requests a read), and by one `plan` then `apply` of %d paths, with the cache at its default (`cache_ttl = \"10m\"`) and off (`cache_ttl = \"0\"`):\n\n", cache.commands, cache.paths, (cache.paths+249)/250, cache.pairPaths)
	p("| commands | cache at its default | cache off | one read |\n|---|---:|---:|---:|\n")
	p("| %d commands, %d paths | **%d** | %d | %d |\n", cache.commands, cache.paths, cache.requestsDefault, cache.requestsOff, (cache.paths+249)/250)
	p("| `plan` then `apply`, %d paths | **%d** | %d | %d |\n", cache.pairPaths, cache.pairDefault, cache.pairOff, cache.pairFloor)
	r.writeBudget(p)
	if r.download != nil {
		p("\n%s", r.download.section(downloadSection))
	}
	if r.endless != nil {
		p("\n")
		r.writeEndless(p)
	}
	if r.assistant != nil {
		p("\n%s", r.assistant.section())
	}
	if r.plans != nil {
		p("\n%s", r.plans.section())
	}
	if r.hostile != nil {
		p("\n%s", r.hostile.section())
	}
	if r.daily != nil {
		p("\n%s", r.daily.section())
	}
	return w.String()
}

// measureWaits runs the waits' benchmarks (jobs and deployments), on the
// fake's clock.
func (b *bench) measureWaits() (map[string]map[string]float64, error) {
	return goBench(b.ctx, "WaitForAgentJob|WaitForDeployment", "-benchtime", "200x", "-count", "1")
}

// writeWaits renders section 4: how late and how often the waits poll.
func (r *results) writeWaits(p func(format string, args ...any)) {
	p("\n## 4. Waiting for a job\n\n")
	p("`WaitForAgentJob` against jobs that run 3 s, 30 s and 300 s on the fake's clock (200 jobs each; the schedule is jittered). Lateness is the time between the job turning terminal and the waiter returning. Target: at most 1 s + 10%% of the run time, and at most 40 polls for 300 s.\n\n")
	p("| job runs | median lateness | worst lateness | target | median polls | worst polls |\n|---:|---:|---:|---:|---:|---:|\n")
	for _, run := range []time.Duration{3 * time.Second, 30 * time.Second, 300 * time.Second} {
		m := r.wait["BenchmarkWaitForAgentJob/job="+run.String()]
		p("| %s | %.2f s | %.2f s | %.1f s | %.0f | %.0f |\n", run, m["late-s"], m["max-late-s"], (time.Second + run/10).Seconds(), m["polls"], m["max-polls"])
	}
	r.deploymentWait(p)
}

// bytesText is a size in bytes, KB or MB ("" when not measured).
func bytesText(n int64) string {
	switch {
	case n == 0:
		return "–"
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 10<<10:
		return fmt.Sprintf("%.0f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

func shortTTL(d time.Duration) string {
	if d%time.Minute == 0 {
		return fmt.Sprintf("%dm", int(d/time.Minute))
	}
	return d.String()
}

func round(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return d.Round(100 * time.Millisecond).String()
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	}
	return d.Round(100 * time.Microsecond).String()
}

func durations(ds []time.Duration) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = round(d)
	}
	return strings.Join(parts, ", ")
}

// writeBudget renders section 8, when it was measured.
func (r *results) writeBudget(p func(format string, args ...any)) {
	if bu := r.budget; bu != nil {
		p("\n## 8. The analytics budget across commands and machines\n\n")
		p("**A spent budget.** A dashboard of the seven analytics data sources (%d requests a read) is applied once, which fills the cache; then every analytics request is refused with `Retry-After: 3600` and %d `terraform plan` runs follow, each a new provider process, with `cache_ttl = \"1ns\"` so that no copy is ever fresh and every plan would ask. The first refusal is recorded beside the cache (\"spent until T\"); every read after it, in that plan and the next ones, sends nothing and shows the stale copy with a warning.\n\n", bu.dashboardRead, bu.plans)
		p("| figure | value |\n|---|---:|\n")
		p("| requests sent by %d plans during a spent budget | **%d** |\n", bu.plans, bu.spentRequests)
		p("| plans that failed | 0 |\n| wall time of the %d plans | %s |\n\n", bu.plans, round(bu.spentWall))
		p("**A fleet sharing one bucket.** %d runners start `terraform plan` at once, each its own provider process with its own empty `cache_dir`, all with one `cache_url` (a `file://` bucket: the same code path as `s3://`, `gs://` and `azblob://`), `cache_ttl = \"%s\"`, on a `mintlify_unique_visitors` of %d paths (%d requests a read); a second wave starts once the first wave's copy has expired. One runner takes the read's lease and reads; the others wait for its entry.\n\n", bu.runners, shortTTL(bu.fleetTTL), bu.fleetPaths, bu.fleetRead)
		p("| wave | runners | requests | one read | wall time |\n|---|---:|---:|---:|---:|\n")
		for i, n := range bu.waves {
			p("| %d | %d | **%d** | %d | %s |\n", i+1, bu.runners, n, bu.fleetRead, round(bu.waveWalls[i]))
		}
		p("\n**Totals without rows** (`max_results = 0`), %d paths:\n\n", bu.totalsPaths)
		p("| data source | requests per read | state |\n|---|---:|---:|\n")
		for _, name := range []string{"unique_visitors", "page_views"} {
			p("| `mintlify_%s`, `max_results = 0` | **%d** | %s |\n", name, bu.totalsRequests[name], bytesText(bu.totalsState[name]))
		}
		p("| `mintlify_feedback_by_page` (the API lists at most 100 pages) | 1 | %s |\n", bytesText(bu.singleState["feedback_by_page"]))
		p("| `mintlify_assistant_caller_stats` | 1 | %s |\n", bytesText(bu.singleState["assistant_caller_stats"]))
	}
}

// writeSoak writes section 6, the fault soak.
func (r *results) writeSoak(p func(format string, args ...any)) {
	s := r.soak
	p("## 6. Fault soak\n\n")
	p("%d applies, each of %d new jobs (1 s), a follow-up message to each and a %d-path data source, while the fake injects random faults: 5%% of all requests answer 429 with `Retry-After: 1`, 10%% of the remaining GETs answer a 502 HTML page or drop the connection, and 10%% of the remaining POSTs take effect but answer 2xx with `createdAt` or `status` a number. The provider runs with `max_retries = 6`.\n\n", s.applies, s.jobsPerApply, s.paths)
	p("| figure | value |\n|---|---:|\n")
	p("| applies that succeeded | %d of %d |\n", s.applies-s.failed, s.applies)
	p("| jobs in Terraform state / jobs created on the server | %d / %d |\n", s.jobsInState, s.jobsOnServer)
	p("| job POSTs sent / refused with 429 (not acted on) | %d / %d |\n", s.posts, s.refused)
	p("| duplicate jobs (created on the server, not in state) | %d |\n", s.jobsOnServer-s.jobsInState)
	p("| messages in Terraform state / messages received on the server | %d / %d |\n", s.messagesInState, s.messagesOnServer)
	p("| duplicate messages (received on the server, not in state) | %d |\n", s.messagesOnServer-s.messagesInState)
	p("| data-source results different from the server's data | %d |\n", s.dataMismatches)
	p("| faults injected: 429 / 502 / dropped connection / 2xx with a mistyped field | %d / %d / %d / %d |\n", s.faults429, s.faults5xx, s.faultsDrop, s.faultsOdd)
	p("| GET requests in all | %d |\n", s.gets)
	p("| soak wall time | %s |\n", round(s.wall))
	for _, f := range s.failures {
		p("\nFailed apply: `%s`\n", f)
	}
}
