package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

type bench struct {
	// ctx bounds the whole run: every command it starts ends with it.
	ctx                 context.Context
	tf, provider, floor string
	runs                int
	quick               bool
	// baseline, when set, is another build of the provider measured beside
	// it (baselineLabel says which) where a section compares.
	baseline, baselineLabel string
	work, devrc             string
	seq                     int
}

func newBench(ctx context.Context, tf, provider, floor string, runs int, quick bool) (*bench, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "mintlify-bench-")
	if err != nil {
		return nil, err
	}
	b := &bench{ctx: ctx, tf: tf, provider: abs(provider), floor: abs(floor), runs: max(runs, 1), quick: quick, work: work}
	// dev_overrides points at this program in wrapper mode; each run names
	// the real binary (provider or floor) in MINTLIFY_BENCH_WRAP_TARGET.
	overrides := filepath.Join(work, "overrides")
	if err := os.MkdirAll(overrides, 0o750); err != nil {
		return nil, err
	}
	if err := os.Symlink(self, filepath.Join(overrides, "terraform-provider-mintlify")); err != nil {
		return nil, err
	}
	b.devrc = filepath.Join(work, "dev.tfrc")
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    \"registry.terraform.io/mintlify/mintlify\" = %q\n  }\n  direct {}\n}\n", overrides)
	return b, os.WriteFile(b.devrc, []byte(rc), 0o600)
}

func (b *bench) close() { _ = os.RemoveAll(b.work) }

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// fake is the fake API served on a loopback port for terraform to reach.
type fake struct {
	*mintlifytest.Fake
	url string
	srv *http.Server
}

func startFake(cfg mintlifytest.Config) (*fake, error) {
	fs := mintlifytest.New(cfg)
	ln, err := (&net.ListenConfig{}).Listen(context.Background(), "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	srv := &http.Server{Handler: fs, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return &fake{Fake: fs, url: "http://" + ln.Addr().String(), srv: srv}, nil
}

func (f *fake) close() { _ = f.srv.Close() }

func (f *fake) providerBlock(extra string) string { return providerBlock(f.url, extra) }

// providerBlock configures the provider for the demo key and project at
// url, with extra settings.
func providerBlock(url, extra string) string {
	return "terraform {\n  required_providers {\n    mintlify = { source = \"mintlify/mintlify\" }\n  }\n}\n" + fmt.Sprintf("provider \"mintlify\" {\n  api_key    = %q\n  base_url   = %q\n  project_id = %q\n%s}\n",
		mintlifytest.DemoAPIKey, url, mintlifytest.DemoProjectID, extra)
}

type applyResult struct {
	wall   time.Duration
	rssKiB int64
	cpu    time.Duration // of every provider process of the run
	dir    string
}

// apply runs `terraform apply` on config in a new directory, through the
// given provider binary, and measures its wall time and the provider's
// peak RSS (the largest of the provider processes Terraform started).
func (b *bench) apply(config, target string, env ...string) (applyResult, error) {
	b.seq++
	dir := filepath.Join(b.work, fmt.Sprintf("run-%03d", b.seq))
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return applyResult{}, err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		return applyResult{}, err
	}
	rssFile := filepath.Join(dir, "rss")
	start := time.Now()
	out, err := b.terraform(dir, append(env, "MINTLIFY_BENCH_WRAP_TARGET="+target, "MINTLIFY_BENCH_RSS_FILE="+rssFile),
		"apply", "-auto-approve", "-input=false", "-no-color")
	wall := time.Since(start)
	rss, cpu := usage(rssFile)
	res := applyResult{wall: wall, rssKiB: rss, cpu: cpu, dir: dir}
	if err != nil {
		// What was measured still holds: a failing apply's peak RSS is a
		// figure too (a read stopped at its cap).
		return res, fmt.Errorf("terraform apply in %s: %w\n%s", dir, err, indent(out))
	}
	return res, nil
}

// terraform runs a terraform command in dir. The analytics cache is off
// (each measurement counts requests) unless env turns it on; its directory
// is the benchmark's own.
func (b *bench) terraform(dir string, env []string, args ...string) (string, error) {
	cmd := exec.CommandContext(b.ctx, b.tf, append([]string{"-chdir=" + dir}, args...)...) //nolint:gosec // our own terraform
	cmd.Env = append(cleanEnv(), "TF_CLI_CONFIG_FILE="+b.devrc, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1",
		"MINTLIFY_CACHE_DIR="+filepath.Join(b.work, "cache"), "MINTLIFY_CACHE_TTL=0")
	cmd.Env = append(cmd.Env, env...) // later entries win
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	err := cmd.Run()
	return buf.String(), err
}

// output reads one output value of an applied directory into v.
func (b *bench) output(dir, name string, v any) error {
	out, err := b.terraform(dir, nil, "output", "-json", name)
	if err != nil {
		return fmt.Errorf("terraform output %s: %w\n%s", name, err, out)
	}
	return json.Unmarshal([]byte(out), v)
}

// cleanEnv is the environment without anything that would steer terraform
// or the provider away from the benchmark's own settings.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "TF_") || strings.HasPrefix(kv, "MINTLIFY_") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// usage reads the wrapper's lines: the largest peak RSS of the provider's
// processes, and their CPU time in all.
func usage(path string) (maxRSS int64, cpu time.Duration) {
	data, _ := os.ReadFile(path) //nolint:gosec // our own temp file
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		if len(f) != 2 {
			continue
		}
		if n, err := strconv.ParseInt(f[0], 10, 64); err == nil && n > maxRSS {
			maxRSS = n
		}
		if us, err := strconv.ParseInt(f[1], 10, 64); err == nil {
			cpu += time.Duration(us) * time.Microsecond
		}
	}
	return maxRSS, cpu
}

func median[T int64 | float64 | time.Duration | int](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// readsAndPages counts the reads of a route (first pages: offset 0, or no
// offset and no cursor) and all its requests in the fake's log.
func readsAndPages(f *fake, route string) (reads, pages int) {
	for _, r := range f.RequestLog() {
		if r.Route != route {
			continue
		}
		pages++
		q, _ := url.ParseQuery(r.Query)
		if q.Get("cursor") == "" && (q.Get("offset") == "" || q.Get("offset") == "0") {
			reads++
		}
	}
	return reads, pages
}

// source is a paged data source, as the benchmark reads it.
type source struct {
	name, route, list string
	largest           int
	data              func(n int) mintlifytest.Dataset
}

var (
	visitorsSource = source{"unique_visitors", mintlifytest.RouteAnalyticsVisitors, "visitors", 250, func(n int) mintlifytest.Dataset { return mintlifytest.Dataset{Paths: n, Seed: 42} }}
	viewsSource    = source{"page_views", mintlifytest.RouteAnalyticsViews, "views", 250, func(n int) mintlifytest.Dataset { return mintlifytest.Dataset{Paths: n, Seed: 42} }}
	pagedSources   = []source{visitorsSource, viewsSource,
		{"search_queries", mintlifytest.RouteAnalyticsSearches, "searches", 100, func(n int) mintlifytest.Dataset { return mintlifytest.Dataset{SearchTerms: n, Paths: 50, Seed: 42} }},
		{"feedback", mintlifytest.RouteAnalyticsFeedback, "feedback", 100, func(n int) mintlifytest.Dataset { return mintlifytest.Dataset{Feedback: n, Paths: 50, Seed: 42} }},
		{"assistant_conversations", mintlifytest.RouteAnalyticsConversations, "conversations", 1000, func(n int) mintlifytest.Dataset {
			return mintlifytest.Dataset{Conversations: n, Paths: 50, Seed: 42}
		}},
	}
)

// config is a configuration reading the source whole, with its row count
// as the only output.
func (s source) config() string {
	return fmt.Sprintf("\ndata \"mintlify_%s\" \"all\" {}\n\noutput \"rows\" {\n  value = length(data.mintlify_%s.all.%s)\n}\n", s.name, s.name, s.list)
}

type requestRow struct {
	source                        string
	paths, reads, requests, floor int
	stateBytes                    int64 // the state the apply left; 0: not measured
}

// perRead is the requests one read made; ratio compares it with the floor.
func (r requestRow) perRead() float64 { return float64(r.requests) / float64(max(r.reads, 1)) }
func (r requestRow) ratio() float64   { return r.perRead() / float64(max(r.floor, 1)) }

// measureRequests applies a data source once per data set size (in rows)
// and counts the requests one read made. The fake's data sets hold exactly
// the rows asked for but for searches, which leave out terms nobody
// searched: the row count read is the one compared.
func (b *bench) measureRequests(s source, sizes []int) ([]requestRow, error) {
	var rows []requestRow
	for _, n := range sizes {
		f, err := startFake(mintlifytest.Config{Analytics: s.data(n), AnalyticsBudget: -1})
		if err != nil {
			return nil, err
		}
		res, err := b.apply(f.providerBlock("")+s.config(), b.provider)
		var got int
		if err == nil {
			err = b.output(res.dir, "rows", &got)
		}
		reads, pages := readsAndPages(f, s.route)
		f.close()
		if err != nil {
			return nil, err
		}
		if got > n {
			return nil, fmt.Errorf("%s: %d rows read from a data set of %d", s.name, got, n)
		}
		rows = append(rows, requestRow{source: s.name, paths: got, reads: reads, requests: pages, floor: max(1, (got+s.largest-1)/s.largest), stateBytes: stateBytes(res.dir)})
	}
	return rows, nil
}

type scaleResult struct {
	source                        string
	paths                         int
	apply, floorApply, floorGen   time.Duration
	fetch                         time.Duration
	rss, floorRSS                 int64
	cpu, floorCPU                 time.Duration
	applies, floorApplies, fetchs []time.Duration
	requestsPerRead               float64
	stateBytes                    int64
}

// measureScale compares an apply that reads paths rows of s (visitors or
// views) through HTTP with the same apply through the floor build, which
// serves the rows from memory.
func (b *bench) measureScale(s source, paths int) (*scaleResult, error) {
	const seed = 42
	f, err := startFake(mintlifytest.Config{Analytics: s.data(paths), AnalyticsBudget: -1})
	if err != nil {
		return nil, err
	}
	defer f.close()
	// Warm the fake's cache so the server's one-off computation of the data
	// is not counted against the provider.
	genStart := time.Now()
	export := f.VisitorsData
	if s.route == mintlifytest.RouteAnalyticsViews {
		export = f.ViewsData
	}
	if _, _, err := export(mintlifytest.DemoProjectID, "", ""); err != nil {
		return nil, err
	}
	r := &scaleResult{source: s.name, paths: paths, floorGen: time.Since(genStart)}
	floorEnv := []string{fmt.Sprintf("MINTLIFY_BENCH_FLOOR_PATHS=%d", paths), fmt.Sprintf("MINTLIFY_BENCH_FLOOR_SEED=%d", seed)}
	var rss, floorRSS []int64
	var cpu, floorCPU []time.Duration
	config := f.providerBlock("") + s.config()
	for range b.runs {
		viaHTTP, err := b.apply(config, b.provider)
		if err != nil {
			return nil, err
		}
		floor, err := b.apply(config, b.floor, floorEnv...)
		if err != nil {
			return nil, err
		}
		for _, res := range []applyResult{viaHTTP, floor} {
			var got int
			if err := b.output(res.dir, "rows", &got); err != nil {
				return nil, err
			}
			if got != paths {
				return nil, fmt.Errorf("apply in %s returned %d rows, want %d", res.dir, got, paths)
			}
		}
		r.applies, r.floorApplies = append(r.applies, viaHTTP.wall), append(r.floorApplies, floor.wall)
		r.stateBytes = stateBytes(viaHTTP.dir)
		rss, floorRSS = append(rss, viaHTTP.rssKiB), append(floorRSS, floor.rssKiB)
		cpu, floorCPU = append(cpu, viaHTTP.cpu), append(floorCPU, floor.cpu)
	}
	reads, pages := readsAndPages(f, s.route)
	r.requestsPerRead = float64(pages) / float64(max(reads, 1))
	client, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(f.url))
	if err != nil {
		return nil, err
	}
	for range b.runs {
		start := time.Now()
		n := 0
		fetch := client.Analytics.Visitors.Rows
		if s.route == mintlifytest.RouteAnalyticsViews {
			fetch = client.Analytics.Views.Rows
		}
		for _, err := range fetch(context.Background(), mintlifytest.DemoProjectID, sdk.VisitorsQuery{}) {
			if err != nil {
				return nil, err
			}
			n++
		}
		if n != paths {
			return nil, fmt.Errorf("fetch returned %d rows", n)
		}
		r.fetchs = append(r.fetchs, time.Since(start))
	}
	r.apply, r.floorApply, r.fetch = median(r.applies), median(r.floorApplies), median(r.fetchs)
	r.rss, r.floorRSS = median(rss), median(floorRSS)
	r.cpu, r.floorCPU = median(cpu), median(floorCPU)
	return r, nil
}

type manyJobsResult struct {
	jobs, parallelism int
	jobTime           time.Duration
	walls             []time.Duration
	wall              time.Duration
	polls             float64
}

func (b *bench) measureManyJobs(jobs int, jobTime time.Duration) (*manyJobsResult, error) {
	r := &manyJobsResult{jobs: jobs, parallelism: 10, jobTime: jobTime}
	var polls []float64
	for range b.runs {
		f, err := startFake(mintlifytest.Config{DefaultJob: mintlifytest.JobScript{ActiveFor: jobTime, Outcome: mintlifytest.OutcomeCompleted}, JobBudget: -1})
		if err != nil {
			return nil, err
		}
		config := f.providerBlock("") + fmt.Sprintf(`
resource "mintlify_agent_job" "many" {
  count  = %d
  prompt = "Benchmark job ${count.index}"
}
`, jobs)
		res, err := b.apply(config, b.provider)
		created := len(f.JobIDs(mintlifytest.DemoProjectID))
		polls = append(polls, float64(f.Requests(mintlifytest.RouteAgentJobsGet))/float64(jobs))
		f.close()
		if err != nil {
			return nil, err
		}
		if created != jobs {
			return nil, fmt.Errorf("%d jobs created for %d resources", created, jobs)
		}
		r.walls = append(r.walls, res.wall)
	}
	r.wall, r.polls = median(r.walls), median(polls)
	return r, nil
}

type soakResult struct {
	applies, failed, jobsPerApply, paths      int
	jobsInState, jobsOnServer, posts, refused int
	messagesInState, messagesOnServer         int
	gets, faults5xx, faultsDrop, faults429    int
	faultsOdd                                 int
	dataMismatches                            int
	wall                                      time.Duration
	failures                                  []string
}

// soak runs applies of jobs and a data source while the fake injects random
// faults, and checks that nothing is lost, duplicated or misread.
func (b *bench) soak(applies, jobs, paths int) (*soakResult, error) {
	f, err := startFake(mintlifytest.Config{
		DefaultJob:      mintlifytest.JobScript{ActiveFor: time.Second, Outcome: mintlifytest.OutcomeCompleted},
		Analytics:       mintlifytest.Dataset{Paths: paths, Seed: 7},
		JobBudget:       -1,
		AnalyticsBudget: -1,
	})
	if err != nil {
		return nil, err
	}
	defer f.close()
	// Rules are tried in order: 5% of all requests are refused with a 1 s
	// Retry-After, then 10% of the GETs left fail (half 502 pages, half
	// dropped connections), and 10% of the POSTs left take effect but
	// answer 2xx with a mistyped field (half createdAt, half status): the
	// job or message exists and must not be sent again.
	f.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, Probability: 0.05, RetryAfter: time.Second, Seed: 1})
	f.InjectFault(mintlifytest.Fault{Method: http.MethodGet, Kind: mintlifytest.FaultServerError, Probability: 0.05, Seed: 2})
	f.InjectFault(mintlifytest.Fault{Method: http.MethodGet, Kind: mintlifytest.FaultDropConnection, Probability: 0.05 / 0.95, Seed: 3})
	f.InjectFault(mintlifytest.Fault{Method: http.MethodPost, Kind: mintlifytest.FaultOddField, Field: "createdAt", Probability: 0.05, Seed: 4})
	f.InjectFault(mintlifytest.Fault{Method: http.MethodPost, Kind: mintlifytest.FaultOddField, Field: "status", Probability: 0.05 / 0.95, Seed: 5})
	_, wantRows, err := f.VisitorsData(mintlifytest.DemoProjectID, "", "")
	if err != nil {
		return nil, err
	}
	config := f.providerBlock("  max_retries = 6\n") + fmt.Sprintf(`
resource "mintlify_agent_job" "soak" {
  count  = %[1]d
  prompt = "Soak job ${count.index}"
}

resource "mintlify_agent_job_message" "soak" {
  count   = %[1]d
  job_id  = mintlify_agent_job.soak[count.index].id
  prompt  = "Soak follow-up ${count.index}"
}

data "mintlify_unique_visitors" "all" {}

output "visitors" {
  value = data.mintlify_unique_visitors.all.visitors
}
`, jobs)
	r := &soakResult{applies: applies, jobsPerApply: jobs, paths: paths}
	start := time.Now()
	for range applies {
		res, err := b.apply(config, b.provider)
		if err != nil {
			r.failed++
			r.failures = append(r.failures, firstLine(err.Error()))
		}
		// Count from state, failed applies included: what a failed apply
		// created is in its state, or it is a duplicate in the making.
		dir := filepath.Join(b.work, fmt.Sprintf("run-%03d", b.seq))
		out, lerr := b.terraform(dir, nil, "state", "list")
		if lerr != nil && err == nil {
			return nil, fmt.Errorf("terraform state list: %w\n%s", lerr, out)
		}
		for _, addr := range strings.Fields(out) {
			switch {
			case strings.HasPrefix(addr, "mintlify_agent_job.soak["):
				r.jobsInState++
			case strings.HasPrefix(addr, "mintlify_agent_job_message.soak["):
				r.messagesInState++
			}
		}
		if err != nil {
			continue
		}
		var rows []mintlifytest.PathRow
		if err := b.output(res.dir, "visitors", &rows); err != nil {
			return nil, err
		}
		if !slices.Equal(rows, wantRows) {
			r.dataMismatches++
		}
	}
	r.wall = time.Since(start)
	r.jobsOnServer = len(f.JobIDs(mintlifytest.DemoProjectID))
	for _, id := range f.JobIDs(mintlifytest.DemoProjectID) {
		rec, _ := f.JobRecord(mintlifytest.DemoProjectID, id)
		r.messagesOnServer += len(rec.Messages)
	}
	r.posts = f.Requests(mintlifytest.RouteAgentJobsCreate)
	r.gets = f.Requests(mintlifytest.RouteAgentJobsGet) + f.Requests(mintlifytest.RouteAnalyticsVisitors)
	hits := f.FaultHits()
	r.faults429, r.faults5xx, r.faultsDrop, r.faultsOdd = hits[0], hits[1], hits[2], hits[3]+hits[4]
	r.refused = r.posts - r.jobsOnServer
	return r, nil
}

func firstLine(s string) string {
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); strings.HasPrefix(l, "Error:") {
			return l
		}
	}
	if i := strings.IndexByte(s, '\n'); i > 0 {
		return s[:i]
	}
	return s
}

// goBench runs `go test -bench` on ./sdk (where every Go benchmark of the
// report lives) and returns the median of each reported unit, by
// benchmark name.
func goBench(ctx context.Context, pattern string, args ...string) (map[string]map[string]float64, error) {
	cmd := exec.CommandContext(ctx, "go", append([]string{"test", "-run", "^$", "-bench", pattern}, append(args, "./sdk")...)...) //nolint:gosec // fixed arguments
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("go test -bench %s: %w\n%s", pattern, err, indent(out.String()))
	}
	medians := parseBenchOutput(out.String())
	if len(medians) == 0 {
		return nil, errors.New("go test -bench reported nothing:\n" + indent(out.String()))
	}
	return medians, nil
}

// parseBenchOutput reads `go test -bench` lines ("BenchmarkX-2  N  v unit
// v unit ...") and returns, by benchmark name without the -GOMAXPROCS
// suffix, the median of each unit over the runs (-count).
func parseBenchOutput(out string) map[string]map[string]float64 {
	samples := map[string]map[string][]float64{}
	for _, line := range strings.Split(out, "\n") {
		fields := strings.Fields(line)
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := fields[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			name = name[:i] // drop -GOMAXPROCS
		}
		if samples[name] == nil {
			samples[name] = map[string][]float64{}
		}
		for i := 2; i+1 < len(fields); i += 2 {
			if v, err := strconv.ParseFloat(fields[i], 64); err == nil {
				samples[name][fields[i+1]] = append(samples[name][fields[i+1]], v)
			}
		}
	}
	medians := map[string]map[string]float64{}
	for name, units := range samples {
		medians[name] = map[string]float64{}
		for unit, vs := range units {
			medians[name][unit] = median(vs)
		}
	}
	return medians
}

func machine(ctx context.Context, tf string) string {
	cpu := "unknown CPU"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "model name") {
				cpu = strings.TrimSpace(strings.SplitN(l, ":", 2)[1])
				break
			}
		}
	}
	mem := ""
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		for _, l := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(l, "MemTotal:") {
				if kb, err := strconv.ParseInt(strings.Fields(l)[1], 10, 64); err == nil {
					mem = fmt.Sprintf(", %.0f GiB", float64(kb)/(1<<20))
				}
			}
		}
	}
	tfVersion := "unknown"
	if out, err := exec.CommandContext(ctx, tf, "version", "-json").Output(); err == nil { //nolint:gosec // our own terraform
		var v struct {
			Version string `json:"terraform_version"`
		}
		if json.Unmarshal(out, &v) == nil {
			tfVersion = v.Version
		}
	}
	return fmt.Sprintf("%s, %d cores%s, %s/%s; %s; Terraform %s", cpu, runtime.NumCPU(), mem, runtime.GOOS, runtime.GOARCH, runtime.Version(), tfVersion)
}
