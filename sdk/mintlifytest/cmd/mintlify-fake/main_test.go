package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakehostile"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func defaults() options {
	return options{addr: "127.0.0.1:0", dataEnd: defaultDataEnd, outcome: "completed", jobLimit: 100, analyticsLimit: 100,
		data: mintlifytest.Dataset{Paths: 3, Days: 90}, job: mintlifytest.JobScript{ActiveFor: time.Second}}
}

func TestRun_refusesAddressesOffLoopback(t *testing.T) {
	for addr, want := range map[string]string{
		"0.0.0.0:0":    "listens on loopback only",
		"10.1.2.3:80":  "listens on loopback only",
		"example.com:": "listens on loopback only",
		"nonsense":     "missing port",
	} {
		o := defaults()
		o.addr = addr
		err := run(context.Background(), o, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", addr, err, want)
		}
	}
}

func TestRun_servesAndPrintsTheEnvironment(t *testing.T) {
	env, info := startRun(t, defaults())
	base := strings.TrimPrefix(strings.Split(env, "\n")[0], "MINTLIFY_BASE_URL=")
	if !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.Contains(env, "MINTLIFY_API_KEY="+mintlifytest.DemoAPIKey+"\n") ||
		!strings.Contains(env, "MINTLIFY_PROJECT_ID=demo-project\n") {
		t.Fatalf("env %q", env)
	}
	if status, body := callDemo(http.MethodGet, base+"/v1/analytics/demo-project/visitors"); status != 200 {
		t.Fatalf("%d %s", status, body)
	}
	// The first and last day of data, and how long jobs run.
	if want := "mintlify-fake: analytics data from 2026-08-03 to 2026-10-31; jobs run 1s;"; !strings.HasPrefix(info, want) {
		t.Errorf("info %q, want it to start %q", info, want)
	}
}

// startRun runs the command with o until the test ends, and returns what
// it printed: the environment and the information line. It waits on the
// information line, which run writes last, so that the environment (and
// -env-file) is whole when it returns.
func startRun(t *testing.T, o options) (env, info string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	infoR, infoW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, o, &out, infoW)
		infoW.Close() // a run that failed ends the read below
		done <- err
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	})
	info, err := bufio.NewReader(infoR).ReadString('\n')
	if err != nil {
		t.Fatalf("no information line (%v); stdout %q", err, out.String())
	}
	return out.String(), info
}

// callDemo sends a request with the demo key and returns the answer's
// status and body (0 and the error when none came).
func callDemo(method, link string) (int, string) {
	req, _ := http.NewRequest(method, link, nil)
	req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

func TestOptions_checked(t *testing.T) {
	for want, change := range map[string]func(*options){
		`-data-end "nov": want YYYY-MM-DD`:              func(o *options) { o.dataEnd = "nov" },
		`-job-outcome "done": want completed, nochange`: func(o *options) { o.outcome = "done" },
		`-job-limit 0: want a positive limit, or -1`:    func(o *options) { o.jobLimit = 0 },
		`-analytics-limit -2: want a positive limit`:    func(o *options) { o.analyticsLimit = -2 },
		`-paths -1 is negative`:                         func(o *options) { o.data.Paths = -1 },
	} {
		o := defaults()
		change(&o)
		if _, err := o.config(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("err = %v, want %q", err, want)
		}
	}
	o := defaults()
	o.analyticsLimit, o.outcome = -1, "failed"
	cfg, err := o.config()
	if err != nil || cfg.AnalyticsBudget != -1 || cfg.DefaultJob.Outcome != mintlifytest.OutcomeFailed || cfg.Analytics.End.Format(time.DateOnly) != defaultDataEnd {
		t.Errorf("%+v, %v", cfg, err)
	}
}

// checkFaultsParsed checks that each spec parses into its rules.
func checkFaultsParsed(t *testing.T, want map[string][]mintlifytest.Fault) {
	t.Helper()
	for spec, rules := range want {
		got, err := parseFault(spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
		} else if diff := cmp.Diff(rules, got, cmpopts.IgnoreFields(mintlifytest.Fault{}, "Respond")); diff != "" {
			t.Errorf("%s (-want +got):\n%s", spec, diff)
		}
		for _, f := range got {
			if (f.Respond != nil) != fakehostile.Plays(f.Kind) {
				t.Errorf("%s: a %s rule with Respond %v", spec, f.Kind, f.Respond != nil)
			}
		}
	}
}

// checkFaultsRefused checks that each spec is refused with an error
// holding its text.
func checkFaultsRefused(t *testing.T, want map[string]string) {
	t.Helper()
	for spec, text := range want {
		if _, err := parseFault(spec); err == nil || !strings.Contains(err.Error(), text) {
			t.Errorf("%s: err = %v, want %q", spec, err, text)
		}
	}
}

func TestParseFault(t *testing.T) {
	good := map[string][]mintlifytest.Fault{
		"rate-limit":                         {{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour}},
		"rate-limit=45m,route=visitors":      {{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultRateLimit, RetryAfter: 45 * time.Minute}},
		"server-error=503,p=0.1,method=GET":  {{Method: "GET", Kind: mintlifytest.FaultServerError, Status: 503, Probability: 0.1}},
		"drop,route=create-job,requests=1;3": {{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultDropConnection, Requests: []int{1, 3}}},
		"latency=2s,route=jobs": {
			{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultLatency, Latency: 2 * time.Second},
			{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultLatency, Latency: 2 * time.Second},
			{Route: mintlifytest.RouteAgentJobsSendMessage, Kind: mintlifytest.FaultLatency, Latency: 2 * time.Second},
			{Route: mintlifytest.RouteAgentJobsSessions, Kind: mintlifytest.FaultLatency, Latency: 2 * time.Second}},
		"server-error":     {{Kind: mintlifytest.FaultServerError, Status: 502}},
		"server-error=500": {{Kind: mintlifytest.FaultServerError, Status: 500}},
		"server-error=599": {{Kind: mintlifytest.FaultServerError, Status: 599}},
		"drop,p=1":         {{Kind: mintlifytest.FaultDropConnection, Probability: 1}},
		"slow-stream=50ms,route=assistant-message": {{Route: mintlifytest.RouteAssistantStream, Kind: mintlifytest.FaultSlowStream, Latency: 50 * time.Millisecond}},
	}
	checkFaultsParsed(t, good)
	got, _ := parseFault("drop,route=analytics")
	for _, r := range mintlifytest.Routes() {
		if r.Area == "analytics" && !slices.ContainsFunc(got, func(f mintlifytest.Fault) bool { return f.Route == r.Pattern }) {
			t.Errorf("route=analytics: no rule for %s", r.Pattern)
		}
	}
	if len(got) != 8 {
		t.Errorf("route=analytics: %d rules", len(got))
	}
	checkFaultsRefused(t, map[string]string{
		"explode":            `unknown kind "explode"`,
		"rate-limit=soon":    `invalid duration`,
		"server-error=404":   `404 is not a 5xx status`,
		"server-error=499":   `499 is not a 5xx status`,
		"server-error=600":   `600 is not a 5xx status`,
		"latency":            `invalid duration`,
		"drop,route=nowhere": `unknown route "nowhere"`,
		"drop,method=PUT":    `method must be GET or POST`,
		"drop,p=2":           `p must be a probability`,
		"drop,p=0":           `p must be a probability`,
		"drop,requests=0":    `requests are positions from 1`,
		"drop,requests=x":    `requests are positions from 1`,
		"drop,color=red":     `unknown option "color"`,
		"server-error=abc":   `invalid syntax`,
	})
	var ff faultFlags
	if err := ff.Set("drop"); err != nil || len(ff) != 1 || ff.String() != "1 faults" {
		t.Errorf("flag: %v %v", ff, err)
	}
}

func TestControlRoutes(t *testing.T) {
	fake := mintlifytest.New(mintlifytest.Config{AnalyticsBudget: 1})
	ts := httptest.NewServer(withControl(fake))
	defer ts.Close()
	call := func(method, path string) (int, string) { return callDemo(method, ts.URL+path) }
	call("GET", "/v1/analytics/demo-project/views")
	// Each step depends on the ones before it: the first one off stops the test.
	for _, step := range []struct {
		name, method, path string
		status             int
		body               string // what the body must hold, if anything
	}{
		{"budget not spent", "GET", "/v1/analytics/demo-project/views", 429, ""},
		{"reset", "POST", "/_fake/reset", 200, "a new hour starts now"},
		{"after reset", "GET", "/v1/analytics/demo-project/views", 200, ""},
		{"add fault", "POST", "/_fake/faults?spec=server-error=503,route=get-job", 200, "1 fault rules added"},
		{"injected fault", "GET", "/v2/agent/demo-project/job/x", 503, ""},
		{"bad spec", "POST", "/_fake/faults?spec=bogus", 400, "unknown kind"},
		{"clear", "DELETE", "/_fake/faults", 200, ""},
		{"after clear", "GET", "/v2/agent/demo-project/job/x", 404, ""},
	} {
		if s, body := call(step.method, step.path); s != step.status || !strings.Contains(body, step.body) {
			t.Fatalf("%s: %d %s", step.name, s, body)
		}
	}
	_, body := call("GET", "/_fake/requests")
	var counts map[string]int
	if err := json.Unmarshal([]byte(body), &counts); err != nil || counts[mintlifytest.RouteAnalyticsViews] != 3 || counts[mintlifytest.RouteAgentJobsGet] != 2 {
		t.Errorf("requests: %s (%v)", body, err)
	}
}

// -h tells a user what they need without reading the source.
func TestUsage_documentsScriptsDatesLimitsAndFaults(t *testing.T) {
	for _, want := range []string{"[fake:failed]", "[fake:nochange]", "[fake:archived]", "[fake:never]", "[fake:completed]", "[fake:active=30s]",
		"2026-08-03 to 2026-10-31", `"last week" included, returns no`, "-analytics-limit", "-1 turns a limit off", "/_fake/reset",
		"rate-limit[=RETRY_AFTER]", "server-error[=STATUS]", "drop", "latency=DELAY", "route=analytics",
		"endless-event", "empty-deltas", "endless-body", "trickle[=DELAY]", "control-text", "unreadable-id[=ID]", "echo-secret[=FIELD]"} {
		if !strings.Contains(usage, want) {
			t.Errorf("usage lacks %q", want)
		}
	}
	// The data range the usage states is the default data set's.
	end, _ := time.Parse(time.DateOnly, defaultDataEnd)
	first := end.AddDate(0, 0, -90).Format(time.DateOnly)
	// ... and the fake's, without -data-end.
	f := mintlifytest.New(mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 1}})
	last, _, _ := f.VisitorsData(mintlifytest.DemoProjectID, end.AddDate(0, 0, -1).Format(time.DateOnly), defaultDataEnd)
	after, _, _ := f.VisitorsData(mintlifytest.DemoProjectID, defaultDataEnd, end.AddDate(0, 0, 1).Format(time.DateOnly))
	if last.Total == 0 || after.Total != 0 {
		t.Errorf("the fake's data does not end at %s: %d visitors the day before, %d on it", defaultDataEnd, last.Total, after.Total)
	}
	if !strings.Contains(usage, first+" to 2026-10-31") {
		t.Errorf("usage states another range than the data's, which starts %s", first)
	}
}

func TestParseFault_everyKind(t *testing.T) {
	good := map[string][]mintlifytest.Fault{
		"client-error":                       {{Kind: mintlifytest.FaultClientError, Status: 400}},
		"client-error=404,message=Gone away": {{Kind: mintlifytest.FaultClientError, Status: 404, Message: "Gone away"}},
		"client-error=499":                   {{Kind: mintlifytest.FaultClientError, Status: 499}},
		"malformed":                          {{Kind: mintlifytest.FaultMalformed, Status: 200}},
		"malformed=201,route=get-job,body={\"id\":1,\"status\":[2]}": {{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultMalformed, Status: 201, Body: `{"id":1,"status":[2]}`}},
		"malformed,body=":                             {{Kind: mintlifytest.FaultMalformed, Status: 200}},
		"reset,route=message":                         {{Route: mintlifytest.RouteAgentJobsSendMessage, Kind: mintlifytest.FaultReset}},
		"stall,requests=2":                            {{Kind: mintlifytest.FaultStall, Requests: []int{2}}},
		"drop-connection":                             {{Kind: mintlifytest.FaultDropConnection}},
		"odd-field":                                   {{Kind: mintlifytest.FaultOddField}},
		"odd-field=status,route=create-job,p=0.1":     {{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultOddField, Field: "status", Probability: 0.1}},
		"drop,route=thread":                           {{Route: mintlifytest.RouteAnalyticsThread, Kind: mintlifytest.FaultDropConnection}},
		"endless-event,route=assistant-message":       {{Route: mintlifytest.RouteAssistantStream, Kind: fakehostile.EndlessEvent}},
		"empty-deltas,body={\"type\":\"start-step\"}": {{Kind: fakehostile.EmptyDeltas, Body: `{"type":"start-step"}`}},
		"endless-body,route=download":                 {{Route: mintlifytest.RouteStaticExportsDownloadBundle, Kind: fakehostile.EndlessBody}},
		"trickle":                                     {{Kind: fakehostile.Trickle}},
		"trickle=10ms,route=get-job":                  {{Route: mintlifytest.RouteAgentJobsGet, Kind: fakehostile.Trickle, Latency: 10 * time.Millisecond}},
		"control-text,route=update-status":            {{Route: mintlifytest.RouteDeploymentsStatus, Kind: fakehostile.ControlText}},
		"unreadable-id":                               {{Kind: fakehostile.UnreadableID}},
		"unreadable-id=st 1,route=start-export":       {{Route: mintlifytest.RouteStaticExportsStart, Kind: fakehostile.UnreadableID, Text: "st 1"}},
		"echo-secret=jobId,route=bundle":              {{Route: mintlifytest.RouteStaticExportsCreateBundle, Kind: fakehostile.EchoSecret, Field: "jobId"}},
	}
	checkFaultsParsed(t, good)
	checkFaultsRefused(t, map[string]string{
		"client-error=500":            `500 is not a 4xx status`,
		"client-error=399":            `399 is not a 4xx status`,
		"malformed=404":               `404 is not a 2xx status`,
		"malformed=x":                 `invalid syntax`,
		"drop=5":                      `drop takes no value`,
		"reset=1":                     `reset takes no value`,
		"stall=1s":                    `stall takes no value`,
		"server-error,body=x":         `only malformed, endless-event, empty-deltas and endless-body take a body`,
		"control-text=x":              `control-text takes no value`,
		"trickle=fast":                `invalid duration`,
		"server-error,message=x":      `only client-error takes a message`,
		"explode":                     `(rate-limit, server-error, client-error, malformed, odd-field, drop, reset, stall, latency, slow-stream, endless-event, empty-deltas, endless-body, trickle, control-text, unreadable-id or echo-secret)`,
		"drop,route=nowhere":          `unknown route "nowhere" (a route: create-job, get-job, message, list-jobs, visitors,`,
		"drop,route=nowhere,p=1":      `or an area: jobs (create-job, get-job, message, list-jobs); analytics (visitors,`,
		"malformed,color=red,body={}": `unknown option "color" (route, method, p, requests, message or body)`,
	})
	// Every route and area of the fake's table has its name.
	for _, r := range mintlifytest.Routes() {
		if got, err := parseFault("drop,route=" + r.Name); err != nil || len(got) != 1 || got[0].Route != r.Pattern {
			t.Errorf("route=%s: %v %v", r.Name, got, err)
		}
	}
	if got, _ := parseFault("drop,route=jobs"); len(got) != 4 {
		t.Errorf("route=jobs: %d rules", len(got))
	}
}

func TestLimitFlag(t *testing.T) {
	var l limitFlags
	if err := l.Set("previews=2"); err != nil {
		t.Fatal(err)
	}
	if err := l.Set("index-day=-1"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(limitFlags{"previews": 2, "index-day": -1}, l); diff != "" || l.String() != "2 limits" {
		t.Errorf("limits (-want +got):\n%s", diff)
	}
	for spec, want := range map[string]string{
		"nope=1":      `no budget "nope" (agent-jobs, analytics, deployments, previews, discovery, index-second, index-day)`,
		"previews=0":  `want NAME=N, N a positive limit or -1 for none`,
		"previews=-2": `want NAME=N`,
		"previews=x":  `want NAME=N`,
		"previews":    `want NAME=N`,
	} {
		if err := l.Set(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", spec, err, want)
		}
	}
	o := defaults()
	o.limits = l
	cfg, err := o.config()
	if err != nil || cfg.Limits["previews"] != 2 {
		t.Errorf("config %+v %v", cfg.Limits, err)
	}
	// The limit reaches the fake.
	o.limits = limitFlags{"analytics": 1}
	cfg, _ = o.config()
	fake := mintlifytest.New(cfg)
	ts := httptest.NewServer(withControl(fake))
	defer ts.Close()
	statuses := []int{}
	for range 2 {
		status, body := callDemo("GET", ts.URL+"/v1/analytics/demo-project/views")
		if status == 0 {
			t.Fatal(body)
		}
		statuses = append(statuses, status)
	}
	if !cmp.Equal(statuses, []int{200, 429}) {
		t.Errorf("-limit analytics=1 over -analytics-limit 100: %v", statuses)
	}
}

// The env file is what a shell sources: every variable exported. It is
// whole once the environment is printed (renamed into place, leaving
// nothing else in its folder).
func TestRun_envFileExportsForAShell(t *testing.T) {
	o := defaults()
	dir := t.TempDir()
	o.envFile = dir + "/fake.env"
	env, _ := startRun(t, o)
	data, err := os.ReadFile(o.envFile)
	if err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files beside the env file", len(entries)-1)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	stdout := strings.Split(strings.TrimSuffix(env, "\n"), "\n")
	if len(lines) != 7 || len(stdout) != 7 {
		t.Fatalf("env file %q, stdout %q", data, env)
	}
	for i, l := range lines {
		if l != "export "+stdout[i] {
			t.Errorf("line %d: %q, want %q", i+1, l, "export "+stdout[i])
		}
	}
	info, _ := os.Stat(o.envFile)
	if info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", info.Mode())
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to source the file")
	}
	got, err := exec.Command("sh", "-c", `. "$1" && sh -c 'echo "$MINTLIFY_PROJECT_ID $MINTLIFY_API_KEY $MINTLIFY_ASSISTANT_API_KEY $MINTLIFY_DOMAIN"'`, "sh", o.envFile).Output()
	if err != nil || string(got) != "demo-project "+mintlifytest.DemoAPIKey+" "+mintlifytest.DemoAssistantKey+" "+mintlifytest.DemoDomain+"\n" {
		t.Errorf("a child of the sourcing shell sees %q (%v)", got, err)
	}
}

// -h lists what the fake's tables hold: every route, area and budget.
func TestUsage_listsTheTables(t *testing.T) {
	flat := strings.Join(strings.Fields(usage), " ")
	for _, r := range mintlifytest.Routes() {
		if !strings.Contains(flat, r.Name+",") && !strings.Contains(flat, r.Name+".") {
			t.Errorf("usage lacks route %s", r.Name)
		}
	}
	for _, b := range mintlifytest.Budgets() {
		if !strings.Contains(flat, fmt.Sprintf("%s %d per", b.Name, b.Limit)) {
			t.Errorf("usage lacks budget %s", b.Name)
		}
	}
	for _, want := range []string{"client-error[=STATUS]", "malformed[=STATUS]", "reset", "stall", "-limit NAME=N",
		"or an area, for all its routes: jobs (create-job, get-job, message, list-jobs); analytics (", `"export NAME=value"`} {
		if !strings.Contains(flat, want) {
			t.Errorf("usage lacks %q", want)
		}
	}
	if before, _, _ := strings.Cut(flat, "or an area"); strings.Contains(before[strings.Index(before, "route is a route:"):], " jobs") {
		t.Error("usage lists jobs as a route")
	}
	for _, line := range strings.Split(usage, "\n") {
		if len(line) > 80 && !strings.Contains(line, "curl") { // a command cannot wrap
			t.Errorf("usage line over 80 columns: %q", line)
		}
	}
}

func TestControlRoutes_newFaultsAndEveryRouteCounted(t *testing.T) {
	fake := mintlifytest.New(mintlifytest.Config{})
	ts := httptest.NewServer(withControl(fake))
	defer ts.Close()
	do := func(method, path string) (int, string) { return callDemo(method, ts.URL+path) }
	if s, body := do("POST", "/_fake/faults?spec="+url.QueryEscape("client-error=409,route=get-job,message=Busy")); s != 200 || !strings.Contains(body, "1 fault rules added") {
		t.Fatalf("%d %s", s, body)
	}
	if s, body := do("GET", "/v2/agent/demo-project/job/x"); s != 409 || body != `{"error":"Busy"}`+"\n" {
		t.Errorf("client-error: %d %q", s, body)
	}
	do("GET", "/nowhere")
	_, body := do("GET", "/_fake/requests")
	var counts map[string]int
	if err := json.Unmarshal([]byte(body), &counts); err != nil {
		t.Fatal(err)
	}
	if len(counts) != len(mintlifytest.Routes())+1 || counts[mintlifytest.RouteAgentJobsGet] != 1 || counts[mintlifytest.RouteUnmatched] != 1 {
		t.Errorf("counts %v", counts)
	}
}
