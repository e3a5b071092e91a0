// Command mintlify-fake serves an in-memory fake of Mintlify's API on
// loopback, for trying the Terraform provider or the SDK by hand, and for
// `make demo`. Run it with -h for everything it does.
//
//	go run github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest/cmd/mintlify-fake@latest
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest/internal/bundle"
)

// usage is the -h text; its lists of routes and budgets come from the
// fake's own tables.
var usage = strings.NewReplacer(
	"{{ROUTES}}", wrap(routeList+".", "    "),
	"{{AREAS}}", wrap(areaList+".", "    "),
	"{{BUDGETS}}", budgetList(),
).Replace(`mintlify-fake serves a fake of Mintlify's API on loopback: agent jobs, the
whole analytics export, deployments, previews and automations, static
exports (their archives included), search, page content, the assistant and
Mintlify Index, with the API's key check, errors, rate limits and paging.
It prints the environment the Terraform provider and the SDK read
(MINTLIFY_BASE_URL, MINTLIFY_API_KEY, MINTLIFY_PROJECT_ID,
MINTLIFY_ASSISTANT_API_KEY, MINTLIFY_DOMAIN, MINTLIFY_INDEX_API_KEY,
MINTLIFY_INDEX_BASE_URL) and serves until
interrupted; -env-file writes the same as "export NAME=value" lines, for a
shell to source.

Usage: mintlify-fake [flags]

JOBS
  A job stays active for -job-duration, then ends as -job-outcome says,
  unless its prompt carries a script marker:
    [fake:completed]    completed, with a pull request
    [fake:nochange]     completed, no files changed (prLink stays null)
    [fake:failed]       failed
    [fake:archived]     archived (with archivedAt)
    [fake:never]        active forever
    [fake:active=30s]   active for this long (any Go duration)
  A follow-up message takes the job up again for another round; archived
  jobs refuse messages.
  -seed-jobs N starts the fake with N jobs already there, as if started
  from the dashboard, an hour apart before now and in every status: for
  trying the job listing (terraform query, mintlify_agent_jobs) by hand.

STATIC EXPORTS
  An export is queued for -export-queued, runs for -export-duration (its
  progress and page count growing), then ends as -export-outcome says,
  unless its version carries script markers:
    [fake:completed]    completed
    [fake:failed]       fails 60% of the way, naming the page that failed
    [fake:never]        runs forever (progress stops at 99%)
    [fake:queued=5s]    queued for this long (any Go duration)
    [fake:running=30s]  runs for this long
    [fake:pages=500]    this many pages (without paths; with paths, theirs)
    [fake:bundle=1GiB]  an archive of about this size (B, KiB, MiB, GiB, KB,
                        MB or GB), generated as it is sent
  for example version = "v2 [fake:running=1m] [fake:pages=300]". A domain
  under .invalid answers 400 (not a reachable hostname);
  -exports-disabled answers every export 403, as for an organization
  without the feature. A completed export's bundle is a .tar.gz served by
  this server at a presigned-style link that works for -bundle-ttl, with
  no key; an expired or altered link answers 403 with S3's XML error.
  The same export always has the same archive. Range requests are
  honored; -fault reset,route=download cuts downloads half-way.

ANALYTICS DATA
  The data covers the -days days before -data-end (exclusive): by default
  the 90 days 2026-08-03 to 2026-10-31. Every page has visitors and views
  every day of it. A range outside it, "last week" included, returns no
  rows: use dates inside it, such as date_from = "2026-10-01" and
  date_to = "2026-11-01".

DEPLOYMENTS, PREVIEWS AND AUTOMATIONS
  A deployment (or preview) is queued for -deploy-queued, in_progress for
  -deploy-duration, then ends as -deploy-outcome says (success, failure or
  never), with logs, a summary and commit details. A preview's branch
  picks its own outcome: a name holding fake-failure (docs/fake-failure)
  fails, one holding fake-never builds forever. The same branch again
  redeploys its preview under the same URL, with a new status id.
  -no-previews takes previews off the plan: a preview answers 403.
  The demo project's automations:
    demo-automation          active, custom schedule: runs (202)
    demo-automation-paused   not active: 400
    demo-automation-daily    daily schedule, not a custom one: 400
  Any other id is 404; one with characters other than letters, digits,
  - and _ is malformed: 400.

SEARCH, PAGES AND THE ASSISTANT
  The fake serves every API on one host: the admin API at its root, the
  discovery API (search, page content, the assistant; assistant keys) under
  /discovery, and Mintlify Index (Index keys) under /api/universal-search:
    discovery base URL   $MINTLIFY_BASE_URL/discovery
    Index base URL       $MINTLIFY_BASE_URL/api/universal-search
  Each API takes its own key kind only (another kind: 401). The demo site,
  $MINTLIFY_DOMAIN, has a dozen pages (/quickstart, /installation,
  /deploy/deployments, /api/keys, /changelog/v2, ...; /internal/runbook for
  the group "staff" only). Search ranks them the same way every time. The
  assistant answers from them, streamed (v2: AI SDK v5 UI message stream;
  v1: v4 data stream), with a thread id; markers in the question script it:
    [fake:cut=N]        the connection breaks after N parts
    [fake:slow=200ms]   the parts come this far apart
    [fake:error]        an error part halfway, and no finish
    [fake:size=10MB]    the answer's text padded to this size (B, KB, MB)
    [fake:keepalive]    a keep-alive comment before each part (v2)

RATE LIMITS
  Like the API, in sliding windows; past a limit, 429 with Retry-After.
  The budgets (NAME: limit, what draws from it):
{{BUDGETS}}
  -limit NAME=N changes one (may be repeated); -job-limit and
  -analytics-limit are agent-jobs and analytics. -1 turns a limit off. To
  start every window afresh without a restart:
    curl -X POST $MINTLIFY_BASE_URL/_fake/reset
  A client that was refused remembers it: the provider sends no analytics
  read until the Retry-After it was given, by its cache's record (delete
  the budget-*.json files in its cache directory, or set
  MINTLIFY_CACHE_TTL=0, to forget).

FAULTS
  -fault KIND[=VALUE][,route=NAME][,method=GET|POST][,p=PROB][,requests=N;M]
  may be repeated. KIND is one of:
    rate-limit[=RETRY_AFTER]   429 with this Retry-After (default 1h)
    server-error[=STATUS]      a 5xx HTML page, as from a proxy (default 502)
    client-error[=STATUS]      a 4xx with the API's JSON error body (default
                               400; ,message=TEXT sets its "error")
    malformed[=STATUS]         a 2xx whose body is not the answer: cut short
                               and mistyped, or ,body=TEXT (last: it takes
                               the rest of the spec, commas included)
    odd-field[=FIELD]          serve the request, then send its 2xx answer
                               with FIELD (default createdAt) a number
    drop                       close the connection, no answer
    reset                      serve the request, send its headers and half
                               its body, then break the connection
    stall                      never answer, until the client gives up
    latency=DELAY              wait, then answer normally
    slow-stream=DELAY          an assistant answer's parts come DELAY apart
  and the hostile server's, for a client's bounds, escapes and checks:
    endless-event              an event stream whose one event never ends
                               (data: lines, no blank line; ,body=LINE)
    empty-deltas               an assistant stream of empty text deltas
                               without end (,body=PART floods another part)
    endless-body               a 200 with no size that never ends (on
                               route=download, a gzip header then zeros)
    trickle[=DELAY]            serve the request, then send its answer one
                               byte per DELAY (default 1s)
    control-text               serve it; terminal escapes in its server
                               text (summary, logs, error, title, message)
    unreadable-id[=ID]         serve it; its answer names the new job,
                               deployment or export by ID (default a/b), an
                               id no client can read back
    echo-secret[=FIELD]        serve it; its answer repeats the link's
                               signature (a bundle) or the key in FIELD
  route is a route:
{{ROUTES}}
  or an area, for all its routes:
{{AREAS}}
  Without route, every route; without p (a probability) or requests
  (positions among the route's requests, from 1), every request is hit.
  Examples:
    -fault rate-limit=45m,route=analytics   the analytics budget is spent
    -fault server-error=503,p=0.1           one request in ten fails
    -fault drop,route=create-job,requests=1 the first job POST gets no answer
    -fault malformed,route=get-job,body={"id":1}
  At run time:
    curl -X POST "$MINTLIFY_BASE_URL/_fake/faults?spec=drop,route=get-job,requests=1"
    curl -X DELETE $MINTLIFY_BASE_URL/_fake/faults
    curl $MINTLIFY_BASE_URL/_fake/requests     requests counted per route

REQUEST LOG
  -log FILE (or -log - for stderr) writes one JSON line per request, once
  it is answered: time, method, path, query, route, status, fault,
  request_id, and the body of a POST. Keys and a bundle link's secrets
  are written as [REDACTED], however they were spelled (escaped, in a JSON
  string, in a pair the server skipped); no header is written. To watch
  what a configuration sends:
    mintlify-fake -log requests.jsonl &   ...   tail -f requests.jsonl

FLAGS
`)

// budgetList is one line per budget.
func budgetList() string {
	var b strings.Builder
	for _, s := range mintlifytest.Budgets() {
		scope := "organization"
		if s.PerProject {
			scope = "project"
		}
		fmt.Fprintf(&b, "    %-13s %d per %s per %s:\n%s\n", s.Name, s.Limit, s.Per(), scope, wrap(s.Covers, "                  "))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// defaultDataEnd is -data-end's default, as the usage states it: the
// fake's own default too.
const defaultDataEnd = "2026-11-01"

// publishedLimit is a budget's published limit.
func publishedLimit(name string) int {
	for _, s := range mintlifytest.Budgets() {
		if s.Name == name {
			return s.Limit
		}
	}
	return 0
}

// wrap fills text into lines of at most 76 columns after indent.
func wrap(text, indent string) string {
	var lines []string
	line := indent
	for _, word := range strings.Fields(text) {
		if len(line)+1+len(word) > 76 && line != indent {
			lines = append(lines, line)
			line = indent
		}
		if line != indent {
			line += " "
		}
		line += word
	}
	return strings.Join(append(lines, line), "\n")
}

func main() {
	fs := flag.NewFlagSet("mintlify-fake", flag.ExitOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usage)
		fs.PrintDefaults()
	}
	o := options{}
	fs.StringVar(&o.addr, "addr", "127.0.0.1:0", "address to listen on (loopback only; port 0 picks a free one)")
	fs.StringVar(&o.envFile, "env-file", "", "also write the environment to this file (0600, whole before anything is printed), as \"export NAME=value\" lines for a shell to source")
	fs.IntVar(&o.data.Paths, "paths", 1200, "documentation pages (rows of visitors and views)")
	fs.IntVar(&o.data.SearchTerms, "search-terms", 300, "distinct search terms")
	fs.IntVar(&o.data.Feedback, "feedback", 500, "feedback entries")
	fs.IntVar(&o.data.Conversations, "conversations", 2000, "assistant conversations")
	fs.IntVar(&o.data.Days, "days", 90, "days of analytics data")
	fs.StringVar(&o.dataEnd, "data-end", defaultDataEnd, "end of the data, exclusive (YYYY-MM-DD)")
	fs.Uint64Var(&o.data.Seed, "seed", 42, "varies the numbers")
	fs.DurationVar(&o.job.ActiveFor, "job-duration", 3*time.Second, "how long a job stays active before its outcome")
	fs.StringVar(&o.outcome, "job-outcome", "completed", "how a job without a marker ends: completed, nochange, failed, archived or never")
	fs.DurationVar(&o.deploy.Queued, "deploy-queued", time.Second, "how long a deployment or preview stays queued")
	fs.DurationVar(&o.deploy.Building, "deploy-duration", 4*time.Second, "how long a deployment or preview stays in_progress before its outcome")
	fs.StringVar(&o.deployOutcome, "deploy-outcome", "success", "how a deployment ends (and a preview without a marker): success, failure or never")
	fs.BoolVar(&o.noPreviews, "no-previews", false, "previews are not on the plan: a preview trigger answers 403")
	fs.IntVar(&o.jobLimit, "job-limit", publishedLimit("agent-jobs"), "job creations and messages per project per hour (-1: no limit)")
	fs.IntVar(&o.analyticsLimit, "analytics-limit", publishedLimit("analytics"), "analytics requests per organization per hour (-1: no limit)")
	fs.DurationVar(&o.export.QueuedFor, "export-queued", time.Second, "how long a static export stays queued")
	fs.DurationVar(&o.export.RunFor, "export-duration", 5*time.Second, "how long a static export runs")
	fs.StringVar(&o.exportOutcome, "export-outcome", "completed", "how a static export without a marker ends: completed, failed or never")
	fs.IntVar(&o.export.Pages, "export-pages", 24, "pages of a static export that names no paths")
	fs.StringVar(&o.bundleSize, "bundle-size", "0", "about how large an export's archive is (such as 1GiB); 0: its pages alone")
	fs.DurationVar(&o.bundleTTL, "bundle-ttl", 15*time.Minute, "how long a bundle link works")
	fs.BoolVar(&o.exportsDisabled, "exports-disabled", false, "refuse static exports with 403, as for an organization without the feature")
	fs.Var(&o.limits, "limit", "set a budget's limit, NAME=N (see RATE LIMITS above; -1: no limit); may be repeated")
	fs.Var(&o.faults, "fault", "inject a fault (see FAULTS above); may be repeated")
	fs.IntVar(&o.seedJobs, "seed-jobs", 0, "jobs already there at start (see JOBS above)")
	fs.StringVar(&o.logFile, "log", "", "write one JSON line per request to this file (appended, 0600), or - for stderr (see REQUEST LOG above)")
	_ = fs.Parse(os.Args[1:])
	if err := run(context.Background(), o, os.Stdout, os.Stderr); err != nil {
		log.Fatal(err)
	}
}

type options struct {
	addr, envFile, dataEnd, outcome string
	logFile                         string
	data                            mintlifytest.Dataset
	job                             mintlifytest.JobScript
	jobLimit, analyticsLimit        int
	deploy                          mintlifytest.DeploymentScript
	deployOutcome                   string
	noPreviews                      bool
	seedJobs                        int
	limits                          limitFlags
	faults                          faultFlags
	export                          mintlifytest.ExportScript
	exportOutcome, bundleSize       string
	bundleTTL                       time.Duration
	exportsDisabled                 bool
}

// deployOutcomes are the outcomes -deploy-outcome takes, in a
// deployment's words ("": the fake's default, success).
var deployOutcomes = map[string]mintlifytest.Outcome{
	"": mintlifytest.OutcomeCompleted, "success": mintlifytest.OutcomeCompleted,
	"failure": mintlifytest.OutcomeFailed, "never": mintlifytest.OutcomeNever,
}

// config checks the options and turns them into the fake's configuration.
func (o options) config() (mintlifytest.Config, error) {
	end, err := time.Parse(time.DateOnly, o.dataEnd)
	if err != nil {
		return mintlifytest.Config{}, fmt.Errorf("-data-end %q: want YYYY-MM-DD", o.dataEnd)
	}
	switch mintlifytest.Outcome(o.outcome) {
	case mintlifytest.OutcomeCompleted, mintlifytest.OutcomeNoChange, mintlifytest.OutcomeFailed, mintlifytest.OutcomeArchived, mintlifytest.OutcomeNever:
	default:
		return mintlifytest.Config{}, fmt.Errorf("-job-outcome %q: want completed, nochange, failed, archived or never", o.outcome)
	}
	deployOutcome, ok := deployOutcomes[o.deployOutcome]
	if !ok {
		return mintlifytest.Config{}, fmt.Errorf("-deploy-outcome %q: want success, failure or never", o.deployOutcome)
	}
	if o.deploy.Queued < 0 || o.deploy.Building < 0 {
		return mintlifytest.Config{}, fmt.Errorf("-deploy-queued %s, -deploy-duration %s: want durations of 0 or more", o.deploy.Queued, o.deploy.Building)
	}
	for name, n := range map[string]int{"-job-limit": o.jobLimit, "-analytics-limit": o.analyticsLimit} {
		if n == 0 || n < -1 {
			return mintlifytest.Config{}, fmt.Errorf("%s %d: want a positive limit, or -1 for none", name, n)
		}
	}
	for name, n := range map[string]int{"-paths": o.data.Paths, "-search-terms": o.data.SearchTerms, "-feedback": o.data.Feedback,
		"-conversations": o.data.Conversations, "-days": o.data.Days} {
		if n < 0 {
			return mintlifytest.Config{}, fmt.Errorf("%s %d is negative", name, n)
		}
	}
	data := o.data
	data.End = end
	job := o.job
	job.Outcome = mintlifytest.Outcome(o.outcome)
	deploy := o.deploy
	deploy.Outcome = deployOutcome
	exports, err := o.exports()
	if err != nil {
		return mintlifytest.Config{}, err
	}
	return mintlifytest.Config{JobBudget: o.jobLimit, AnalyticsBudget: o.analyticsLimit, Limits: o.limits,
		DefaultJob: job, Analytics: data, Faults: o.faults, StaticExports: exports,
		DefaultDeployment: deploy, PreviewsOffPlan: o.noPreviews}, nil
}

// exports checks the static export options; those left empty keep the
// fake's defaults.
func (o options) exports() (mintlifytest.StaticExportConfig, error) {
	script := o.export
	switch mintlifytest.Outcome(o.exportOutcome) {
	case "":
	case mintlifytest.OutcomeCompleted, mintlifytest.OutcomeFailed, mintlifytest.OutcomeNever:
		script.Outcome = mintlifytest.Outcome(o.exportOutcome)
	default:
		return mintlifytest.StaticExportConfig{}, fmt.Errorf("-export-outcome %q: want completed, failed or never", o.exportOutcome)
	}
	if o.bundleSize != "" {
		size, err := bundle.ParseSize(o.bundleSize)
		if err != nil {
			return mintlifytest.StaticExportConfig{}, fmt.Errorf("-bundle-size: %w", err)
		}
		script.BundleSize = size
	}
	switch {
	case script.QueuedFor < 0 || script.RunFor < 0:
		return mintlifytest.StaticExportConfig{}, errors.New("-export-queued and -export-duration must not be negative")
	case script.Pages < 0:
		return mintlifytest.StaticExportConfig{}, fmt.Errorf("-export-pages %d is negative", script.Pages)
	case o.bundleTTL < 0:
		return mintlifytest.StaticExportConfig{}, fmt.Errorf("-bundle-ttl %s is negative", o.bundleTTL)
	}
	return mintlifytest.StaticExportConfig{Disabled: o.exportsDisabled, Default: script, LinkTTL: o.bundleTTL}, nil
}

// run serves the fake until ctx ends or a signal comes: the environment
// to export goes to out, a line on the data and jobs to info.
func run(ctx context.Context, o options, out, info io.Writer) error {
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil {
		return fmt.Errorf("-addr %q: %w", o.addr, err)
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return fmt.Errorf("-addr %q: the fake server listens on loopback only", o.addr)
	}
	cfg, err := o.config()
	if err != nil {
		return err
	}
	if o.logFile != "" {
		w, closeLog, err := openLog(o.logFile, info)
		if err != nil {
			return err
		}
		defer func() { _ = closeLog() }()
		l := &requestLog{w: w}
		cfg.OnRequest = l.write
	}
	fake := mintlifytest.New(cfg)
	if err := seedJobs(fake, o.seedJobs, time.Now()); err != nil {
		return err
	}
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", o.addr)
	if err != nil {
		return err
	}
	env := fmt.Sprintf("MINTLIFY_BASE_URL=http://%s\nMINTLIFY_API_KEY=%s\nMINTLIFY_PROJECT_ID=%s\n",
		ln.Addr(), mintlifytest.DemoAPIKey, mintlifytest.DemoProjectID)
	// The discovery API and the Index, on the same host (see SEARCH, PAGES
	// AND THE ASSISTANT in -h).
	env += fmt.Sprintf("MINTLIFY_ASSISTANT_API_KEY=%s\nMINTLIFY_DOMAIN=%s\nMINTLIFY_INDEX_API_KEY=%s\nMINTLIFY_INDEX_BASE_URL=http://%s/api/universal-search\n",
		mintlifytest.DemoAssistantKey, mintlifytest.DemoDomain, mintlifytest.DemoIndexKey, ln.Addr())
	// The file is whole before anything is printed: a script that waits
	// for either may read it at once.
	if o.envFile != "" {
		exports := strings.ReplaceAll("export "+strings.TrimSuffix(env, "\n"), "\n", "\nexport ") + "\n"
		if err := writeWhole(o.envFile, exports); err != nil {
			return err
		}
	}
	fmt.Fprint(out, env)
	first := cfg.Analytics.End.AddDate(0, 0, -cfg.Analytics.Days)
	deploy := cfg.DefaultDeployment
	fmt.Fprintf(info, "mintlify-fake: analytics data from %s to %s; jobs run %s; deployments %s; static exports %s; discovery at %s/discovery, Index at %s/api/universal-search; -h for scripts, limits and faults\n",
		first.Format(time.DateOnly), cfg.Analytics.End.AddDate(0, 0, -1).Format(time.DateOnly), cfg.DefaultJob.ActiveFor,
		deploy.Queued+deploy.Building, cfg.StaticExports.Default.QueuedFor+cfg.StaticExports.Default.RunFor,
		"http://"+ln.Addr().String(), "http://"+ln.Addr().String())
	httpSrv := &http.Server{Handler: withControl(fake), ReadHeaderTimeout: 10 * time.Second}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		fake.Stop()
		shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_ = httpSrv.Shutdown(shutdownCtx)
	}()
	if err := httpSrv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// writeWhole writes text to a file readable by its owner alone (0600), by
// renaming a finished copy into place: a script that waits for the file
// to be non-empty never reads half of it.
func writeWhole(name, text string) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), ".mintlify-fake-*") // 0600
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(text)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// withControl adds the fake's control routes, under /_fake/, to the API.
func withControl(fake *mintlifytest.Fake) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", fake)
	mux.HandleFunc("POST /_fake/reset", func(w http.ResponseWriter, _ *http.Request) {
		fake.ResetRateLimits()
		fmt.Fprintln(w, "rate limits reset: a new hour starts now")
	})
	mux.HandleFunc("POST /_fake/faults", func(w http.ResponseWriter, r *http.Request) {
		faults, err := parseFault(r.URL.Query().Get("spec"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, f := range faults {
			fake.InjectFault(f)
		}
		fmt.Fprintf(w, "%d fault rules added\n", len(faults))
	})
	mux.HandleFunc("DELETE /_fake/faults", func(w http.ResponseWriter, _ *http.Request) {
		fake.ClearFaults()
		fmt.Fprintln(w, "faults cleared")
	})
	mux.HandleFunc("GET /_fake/requests", func(w http.ResponseWriter, _ *http.Request) {
		counts := map[string]int{mintlifytest.RouteUnmatched: fake.Requests(mintlifytest.RouteUnmatched)}
		for _, r := range mintlifytest.Routes() {
			counts[r.Pattern] = fake.Requests(r.Pattern)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(counts)
	})
	return mux
}
