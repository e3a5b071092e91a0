package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// testProvider is the provider as the tests serve it: its SDK client runs
// on clk (when not nil), the clock the fake API runs on, so that waits,
// backoffs and Retry-After take no wall time.
func testProvider(clk *testClock) *mintlifyProvider {
	p := &mintlifyProvider{version: "test"}
	if clk != nil {
		p.clock = clk
	} else {
		p.sdkOptions = []sdk.Option{sdk.WithRetryBackoff(5*time.Millisecond, 20*time.Millisecond)}
	}
	return p
}

// testProviders serves the provider in-process, on clk (see testProvider).
func testProviders(clk *testClock) map[string]func() (tfprotov6.ProviderServer, error) {
	return recordingProviders(clk, nil)
}

// recordingProviders is testProviders whose diagnostics are also kept in
// rec (when not nil): the testing framework shows no warnings, and these
// tests assert them.
func recordingProviders(clk *testClock, rec *diagRecorder) map[string]func() (tfprotov6.ProviderServer, error) {
	serve := providerserver.NewProtocol6WithError(testProvider(clk))
	return map[string]func() (tfprotov6.ProviderServer, error){"mintlify": func() (tfprotov6.ProviderServer, error) {
		srv, err := serve()
		if err != nil || rec == nil {
			return srv, err
		}
		return recordingServer{ProviderServer: srv, rec: rec}, nil
	}}
}

// diagRecorder keeps the diagnostics of every apply, refresh and
// data-source read Terraform asked of the provider, by RPC.
type diagRecorder struct {
	mu    sync.Mutex
	diags []*tfprotov6.Diagnostic
	rpcs  []string // the RPC of each diagnostic
}

func (r *diagRecorder) add(rpc string, diags []*tfprotov6.Diagnostic) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, d := range diags {
		r.diags = append(r.diags, d)
		r.rpcs = append(r.rpcs, rpc)
	}
}

// text is diagsText of every diagnostic kept so far.
func (r *diagRecorder) text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return diagsText(r.diags)
}

// count is how many diagnostics with this summary came from rpc ("" for
// any).
func (r *diagRecorder) count(rpc, summary string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for i, d := range r.diags {
		if d.Summary == summary && (rpc == "" || r.rpcs[i] == rpc) {
			n++
		}
	}
	return n
}

// recordingServer is a provider server whose applies and reads keep their
// diagnostics in rec.
type recordingServer struct {
	tfprotov6.ProviderServer
	rec *diagRecorder
}

func (s recordingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := s.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		s.rec.add("ApplyResourceChange", resp.Diagnostics)
	}
	return resp, err
}

func (s recordingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := s.ProviderServer.ReadResource(ctx, req)
	if resp != nil {
		s.rec.add("ReadResource", resp.Diagnostics)
	}
	return resp, err
}

func (s recordingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	resp, err := s.ProviderServer.ReadDataSource(ctx, req)
	if resp != nil {
		s.rec.add("ReadDataSource", resp.Diagnostics)
	}
	return resp, err
}

// startFake runs the fake API on loopback for one test, on a manual clock
// (cfg.Clock, when not set) that the test gives the provider too. Jobs are
// active for 3 minutes of that clock unless their prompt says otherwise.
func startFake(t *testing.T, cfg mintlifytest.Config) (*mintlifytest.Fake, string, *testClock) {
	t.Helper()
	if cfg.DefaultJob == (mintlifytest.JobScript{}) {
		cfg.DefaultJob = mintlifytest.JobScript{ActiveFor: 3 * time.Minute, Outcome: mintlifytest.OutcomeCompleted}
	}
	clk, _ := cfg.Clock.(*testClock)
	if cfg.Clock == nil {
		clk = newTestClock()
		cfg.Clock = clk
	}
	srv := mintlifytest.NewServer(cfg)
	t.Cleanup(srv.Close)
	return srv.Fake, srv.URL, clk
}

// providerBlock configures the provider for the fake at url: the demo
// admin key and project.
func providerBlock(url string) string {
	return adminProvider(mintlifytest.DemoAPIKey, url, mintlifytest.DemoProjectID)
}

// adminProvider configures the provider with the admin API key key, for
// the API at url, with project as the default project ("": none).
func adminProvider(key, url, project string) string {
	return providerConfig("api_key", key, url, "project_id", project)
}

// providerConfig is a provider block for the API at url that authenticates
// with keyAttr = key and, unless def is "", sets defaultAttr = def: the
// default project, or docs site.
func providerConfig(keyAttr, key, url, defaultAttr, def string) string {
	defaultLine := ""
	if def != "" {
		defaultLine = fmt.Sprintf("  %s = %q\n", defaultAttr, def)
	}
	return fmt.Sprintf(`
provider "mintlify" {
  %s = %q
  base_url = %q
%s}
`, keyAttr, key, url, defaultLine)
}

// clearEnv keeps a developer's MINTLIFY_* variables out of a test, and
// turns the analytics cache off (in a directory of the test's own): the
// tests count requests, and the cache's own tests turn it on.
func clearEnv(t *testing.T) {
	for _, v := range []string{EnvAPIKey, EnvBaseURL, EnvProjectID, EnvRequestTimeout, EnvCacheMaxStale, EnvCacheURL, EnvCacheTimeout} {
		t.Setenv(v, "")
	}
	t.Setenv(EnvCacheTTL, "0")
	t.Setenv(EnvCacheDir, t.TempDir())
}

// resourceValues finds a resource's attribute values in a state or plan.
func resourceValues(module *tfjson.StateModule, addr string) (map[string]any, bool) {
	if module == nil {
		return nil, false
	}
	for _, r := range module.Resources {
		if r.Address == addr {
			return r.AttributeValues, true
		}
	}
	return nil, false
}

// checkState is a statecheck.StateCheck from a function.
type checkState func(*tfjson.State) error

func (f checkState) CheckState(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if req.State == nil || req.State.Values == nil {
		resp.Error = fmt.Errorf("no state")
		return
	}
	resp.Error = f(req.State)
}

// checkPlan is a plancheck.PlanCheck from a function.
type checkPlan func(*tfjson.Plan) error

func (f checkPlan) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	resp.Error = f(req.Plan)
}

// jobInStateMatchesServer checks that the job in state is the one the fake
// holds, with the same status and PR link: the provider lost nothing.
func jobInStateMatchesServer(fs *mintlifytest.Fake, addr string) statecheck.StateCheck {
	return valuesInState(addr, func(vals map[string]any) error {
		return compareJob(fs, vals)
	})
}

func compareJob(fs *mintlifytest.Fake, vals map[string]any) error {
	raw, ok := fs.Job(fmt.Sprint(vals["project_id"]), fmt.Sprint(vals["id"]))
	if !ok {
		return fmt.Errorf("the server has no job %v in project %v", vals["id"], vals["project_id"])
	}
	var job struct {
		Status string  `json:"status"`
		PRLink *string `json:"prLink"`
	}
	if err := json.Unmarshal(raw, &job); err != nil {
		return err
	}
	if vals["status"] != job.Status {
		return fmt.Errorf("status in state %v, on the server %s", vals["status"], job.Status)
	}
	if (job.PRLink == nil) != (vals["pr_link"] == nil) || (job.PRLink != nil && vals["pr_link"] != *job.PRLink) {
		return fmt.Errorf("pr_link in state %v, on the server %v", vals["pr_link"], job.PRLink)
	}
	return nil
}

// priorStateHoldsServerJob checks, in a plan made after a failed apply, that
// state kept the job the server created.
func priorStateHoldsServerJob(fs *mintlifytest.Fake, addr string) plancheck.PlanCheck {
	return valuesInPriorState(addr, func(vals map[string]any) error {
		ids := fs.JobIDs(fmt.Sprint(vals["project_id"]))
		if len(ids) != 1 || ids[0] != vals["id"] {
			return fmt.Errorf("state holds job %v, the server has %v", vals["id"], ids)
		}
		return nil
	})
}

func TestProvider_metadataAndSchema(t *testing.T) {
	p := New("1.2.3")()
	srv := providerserver.NewProtocol6(p)()
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range resp.Diagnostics {
		t.Errorf("schema diagnostic: %s: %s", d.Summary, d.Detail)
	}
	for _, name := range []string{"mintlify_agent_job", "mintlify_agent_job_message", "mintlify_deployment", "mintlify_preview_deployment"} {
		if _, ok := resp.ResourceSchemas[name]; !ok {
			t.Errorf("no %s resource", name)
		}
		if _, ok := resp.ActionSchemas[name]; !ok {
			t.Errorf("no %s action", name)
		}
	}
	for _, name := range []string{"unique_visitors", "page_views", "search_queries", "feedback", "feedback_by_page",
		"assistant_conversations", "assistant_caller_stats", "deployment_status", "agent_job", "agent_jobs", "search", "page", "analytics_daily"} {
		if _, ok := resp.DataSourceSchemas["mintlify_"+name]; !ok {
			t.Errorf("no mintlify_%s data source", name)
		}
	}
	if n := len(resp.DataSourceSchemas); n != 13 {
		t.Errorf("%d data sources", n)
	}
	if _, ok := resp.ActionSchemas["mintlify_automation_run"]; !ok {
		t.Error("no mintlify_automation_run action")
	}
	if _, ok := resp.ListResourceSchemas["mintlify_agent_job"]; !ok || len(resp.ListResourceSchemas) != 1 {
		t.Errorf("list resources %v", resp.ListResourceSchemas)
	}
	for _, a := range resp.Provider.Block.Attributes {
		if (a.Name == "api_key" || a.Name == "assistant_api_key") && !a.Sensitive {
			t.Errorf("%s is not sensitive", a.Name)
		}
	}
	// Every attribute and block of every schema is described for the
	// registry page, nested ones included.
	blocks := map[string]*tfprotov6.SchemaBlock{"the provider": resp.Provider.Block}
	for kind, schemas := range map[string]map[string]*tfprotov6.Schema{"resource": resp.ResourceSchemas,
		"data source": resp.DataSourceSchemas, "ephemeral resource": resp.EphemeralResourceSchemas, "list resource": resp.ListResourceSchemas} {
		for name, s := range schemas {
			blocks[kind+" "+name] = s.Block
		}
	}
	for name, s := range resp.ActionSchemas {
		blocks["action "+name] = s.Schema.Block
	}
	for where, b := range blocks {
		for _, what := range undescribed("", b) {
			t.Errorf("%s: %s has no description", where, what)
		}
	}
	ids, err := srv.GetResourceIdentitySchemas(context.Background(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range ids.IdentitySchemas {
		for _, a := range s.IdentityAttributes {
			if a.Description == "" {
				t.Errorf("identity of %s: %s has no description", name, a.Name)
			}
		}
	}
}

// undescribed lists what has no description in a schema's block (at is
// its path, "" at the top): the block itself, its attributes, their nested
// attributes, and its blocks.
func undescribed(at string, b *tfprotov6.SchemaBlock) []string {
	var out []string
	if b.Description == "" && at == "" {
		out = append(out, "the schema")
	} else if b.Description == "" {
		out = append(out, at)
	}
	var attrs func(at string, as []*tfprotov6.SchemaAttribute)
	attrs = func(at string, as []*tfprotov6.SchemaAttribute) {
		for _, a := range as {
			if a.Description == "" {
				out = append(out, at+a.Name)
			}
			if a.NestedType != nil {
				attrs(at+a.Name+".", a.NestedType.Attributes)
			}
		}
	}
	prefix := ""
	if at != "" {
		prefix = at + "."
	}
	attrs(prefix, b.Attributes)
	for _, nb := range b.BlockTypes {
		out = append(out, undescribed(prefix+nb.TypeName, nb.Block)...)
	}
	return out
}

func TestAccProvider_configFromEnvironment(t *testing.T) {
	fs, url, clk := startFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 3}})
	t.Setenv(EnvAPIKey, mintlifytest.DemoAPIKey)
	t.Setenv(EnvBaseURL, url)
	t.Setenv(EnvProjectID, mintlifytest.DemoProjectID)
	runSteps(t, clk, []resource.TestStep{{
		Config: `
provider "mintlify" {}
data "mintlify_unique_visitors" "all" {}
resource "mintlify_agent_job" "env" {
  prompt = "Document the environment variables"
}
`,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.mintlify_unique_visitors.all", tfjsonPath("project_id"), knownString(mintlifytest.DemoProjectID)),
			statecheck.ExpectKnownValue("mintlify_agent_job.env", tfjsonPath("project_id"), knownString(mintlifytest.DemoProjectID)),
			statecheck.ExpectKnownValue("mintlify_agent_job.env", tfjsonPath("status"), knownString("completed")),
			jobInStateMatchesServer(fs, "mintlify_agent_job.env"),
		},
	}})
}

func TestAccProvider_missingKey(t *testing.T) {
	clearEnv(t)
	runSteps(t, nil, []resource.TestStep{{
		Config:      `data "mintlify_unique_visitors" "x" { project_id = "p" }`,
		ExpectError: wrapped(`Missing Mintlify API key`, `api_key`, `MINTLIFY_API_KEY`),
	}})
}

func TestAccProvider_wrongKeyIs401WithAdvice(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	runSteps(t, clk, []resource.TestStep{{
		Config: adminProvider("mint_wrong_key", url, "") + `
data "mintlify_unique_visitors" "x" { project_id = "demo-project" }
`,
		ExpectError: wrapped(`401 Unauthorized`, `check api_key`),
	}})
	wantRequests(t, fs, mintlifytest.RouteAnalyticsVisitors, 1, "a 401 is not retried")
}

func TestAccProvider_refusesPlainHTTPOffLoopback(t *testing.T) {
	clearEnv(t)
	runSteps(t, nil, []resource.TestStep{{
		Config: `
provider "mintlify" {
  api_key  = "mint_x"
  base_url = "http://api.mintlify.com"
}
data "mintlify_unique_visitors" "x" { project_id = "p" }
`,
		ExpectError: wrapped(`Invalid base_url`, `must use https`),
	}})
}

func TestAccProvider_invalidProjectFromEnvironment(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	for env, want := range map[string]string{
		"  ":  `The default project (from project_id or MINTLIFY_PROJECT_ID) must not be empty or only white space: set a project id, or leave it unset.`,
		"p/q": `The default project (from project_id or MINTLIFY_PROJECT_ID) "p/q" may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character): set a project id, or leave it unset.`,
	} {
		t.Setenv(EnvProjectID, env)
		runSteps(t, clk, []resource.TestStep{{
			Config: adminProvider(mintlifytest.DemoAPIKey, url, "") + `
data "mintlify_unique_visitors" "x" {}
`,
			ExpectError: wrapped(`Invalid project_id`, want),
		}})
	}
	wantNoRequests(t, fs, "for an invalid project")
}

// The provider's own project_id is checked at plan by the same rule.
func TestAccProvider_invalidProjectIsRefusedAtPlan(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	runSteps(t, clk, []resource.TestStep{{
		Config: adminProvider(mintlifytest.DemoAPIKey, url, "acme docs") + `
data "mintlify_unique_visitors" "x" {}
`,
		PlanOnly:    true,
		ExpectError: wrapped(`project_id "acme docs" may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character).`),
	}})
	wantNoRequests(t, fs, "at plan")
}

// lateKeyProvider configures the provider with a key that comes from a
// resource, so it is unknown until that resource is applied.
func lateKeyProvider(url string) string {
	return fmt.Sprintf(`
resource "terraform_data" "key" {
  input = %q
}
provider "mintlify" {
  api_key    = terraform_data.key.output
  base_url   = %q
  project_id = %q
}
`, mintlifytest.DemoAPIKey, url, mintlifytest.DemoProjectID)
}

// Terraform reads data sources at plan even when the provider's key is not
// known yet; without deferral support the read must say what to do.
func TestAccProvider_keyUnknownAtPlanForDataSource(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 3}})
	runSteps(t, clk, []resource.TestStep{{
		Config: lateKeyProvider(url) + `
data "mintlify_unique_visitors" "x" {}
`,
		ExpectError: wrapped(`Provider not configured`, `not known yet`, `terraform apply -target=`),
	}})
	wantNoRequests(t, fs, "with no key")
}

// A provider whose settings are unknown at plan (a key from a resource not
// applied yet), where Terraform allows deferral, defers everything that
// needs them: every data source's read, every ephemeral resource's
// opening, every resource's plan. Where Terraform does not, a data
// source's read says what to do. Through the protocol: no released
// Terraform (1.16.4 included) allows deferral, an experiment of its
// alpha builds.
func TestProvider_unknownSettingsDeferEverythingWhereTerraformAllows(t *testing.T) {
	ctx := context.Background()
	for _, allowed := range []bool{true, false} {
		server, err := providerserver.NewProtocol6WithError(testProvider(nil))()
		if err != nil {
			t.Fatal(err)
		}
		schema, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
		if err != nil || len(schema.Diagnostics) > 0 {
			t.Fatalf("schema: %v %v", err, schema.Diagnostics)
		}
		h := &actionHarness{t: t}
		unknownKey := map[string]tftypes.Value{"api_key": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}
		conf, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.14.0",
			Config: h.dynamic(schema.Provider, unknownKey), ClientCapabilities: &tfprotov6.ConfigureProviderClientCapabilities{DeferralAllowed: allowed}})
		if err != nil || len(conf.Diagnostics) > 0 {
			t.Fatalf("configure: %v %v", err, conf.Diagnostics)
		}
		deferred := func(what string, d *tfprotov6.Deferred, diags []*tfprotov6.Diagnostic) {
			t.Helper()
			if d == nil || d.Reason != tfprotov6.DeferredReasonProviderConfigUnknown || len(diags) > 0 {
				t.Errorf("%s, deferral allowed: deferred %+v, diagnostics %v", what, d, diags)
			}
		}
		for name, s := range schema.DataSourceSchemas {
			resp, err := server.ReadDataSource(ctx, &tfprotov6.ReadDataSourceRequest{TypeName: name, Config: h.dynamic(s, nil),
				ClientCapabilities: &tfprotov6.ReadDataSourceClientCapabilities{DeferralAllowed: allowed}})
			switch {
			case err != nil:
				t.Fatal(err)
			case allowed:
				deferred(name, resp.Deferred, resp.Diagnostics)
			case resp.Deferred != nil || len(resp.Diagnostics) != 1 || resp.Diagnostics[0].Summary != "Provider not configured":
				t.Errorf("%s, deferral not allowed: deferred %+v, diagnostics %v", name, resp.Deferred, resp.Diagnostics)
			}
		}
		if !allowed {
			continue
		}
		for name, s := range schema.EphemeralResourceSchemas {
			resp, err := server.OpenEphemeralResource(ctx, &tfprotov6.OpenEphemeralResourceRequest{TypeName: name, Config: h.dynamic(s, nil),
				ClientCapabilities: &tfprotov6.OpenEphemeralResourceClientCapabilities{DeferralAllowed: true}})
			if err != nil {
				t.Fatal(err)
			}
			deferred(name, resp.Deferred, resp.Diagnostics)
		}
		for name, s := range schema.ResourceSchemas {
			resp, err := server.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{TypeName: name, PriorState: h.nullValue(s),
				ProposedNewState: h.dynamic(s, nil), Config: h.dynamic(s, nil),
				ClientCapabilities: &tfprotov6.PlanResourceChangeClientCapabilities{DeferralAllowed: true}})
			if err != nil {
				t.Fatal(err)
			}
			deferred(name, resp.Deferred, resp.Diagnostics)
		}
	}
}

func TestAccProvider_keyUnknownAtPlan(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	runSteps(t, clk, []resource.TestStep{{
		Config: lateKeyProvider(url) + fmt.Sprintf(`
resource "mintlify_agent_job" "late" {
  project_id = %q
  prompt     = "Runs once the key is known"
}
`, mintlifytest.DemoProjectID),
		ConfigStateChecks: []statecheck.StateCheck{jobInStateMatchesServer(fs, "mintlify_agent_job.late")},
	}})
}

func TestAccProvider_stalledReadEndsAtTheRequestTimeout(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 5}})
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultLatency, Latency: time.Hour})
	cfg := strings.Replace(providerBlock(url), "provider \"mintlify\" {", "provider \"mintlify\" {\n  request_timeout = \"300ms\"\n  max_retries = 1", 1) +
		"data \"mintlify_unique_visitors\" \"test\" {}\n"
	start := time.Now()
	runSteps(t, clk, []resource.TestStep{{Config: cfg, ExpectError: wrapped(`Could not read unique visitors`, `no response within 300ms (the request timeout)`)}})
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("took %s", took)
	}
	wantRequests(t, fs, mintlifytest.RouteAnalyticsVisitors, 2, "the first attempt and one retry")
}

// An answer echoing the key puts it nowhere: not in state, not in outputs.
func TestAccProvider_echoedKeyNeverReachesState(t *testing.T) {
	clearEnv(t)
	key := mintlifytest.DemoAPIKey
	_, url, clk := startHostile(t, func(_ *http.Request, status int, body string) (int, string) {
		body = strings.ReplaceAll(body, `"model":"claude-sonnet-4-5"`, `"model":"`+key+`"`)
		body = strings.Replace(body, `"path":"/"`, `"path":"/`+key+`"`, 1)
		return status, body
	})
	cfg := jobConfig(url, "x", "") + `
data "mintlify_unique_visitors" "test" {}
output "model" { value = mintlify_agent_job.test.model }
`
	runSteps(t, clk, []resource.TestStep{{
		Config: cfg,
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(jobAddr, tfjsonPath("model"), knownString("[REDACTED]")),
			statecheck.ExpectKnownOutputValue("model", knownString("[REDACTED]")),
			checkState(func(s *tfjson.State) error {
				vals, _ := resourceValues(s.Values.RootModule, visitorsAddr)
				if first := vals["visitors"].([]any)[0].(map[string]any)["path"]; first != "/[REDACTED]" {
					return fmt.Errorf("first path %v", first)
				}
				// Nowhere in the whole state, outputs included.
				all, err := json.Marshal(s)
				if err != nil || strings.Contains(string(all), key) {
					return fmt.Errorf("the state holds the key (%w)", err)
				}
				return nil
			}),
		},
	}})
}

func TestAccProvider_keyWithANewlineIsNamed(t *testing.T) {
	_, url, clk := startAccFake(t, mintlifytest.Config{})
	t.Setenv(EnvAPIKey, mintlifytest.DemoAPIKey+"\n")
	t.Setenv(EnvBaseURL, url)
	runSteps(t, clk, []resource.TestStep{{
		Config:      `data "mintlify_unique_visitors" "x" { project_id = "p" }`,
		ExpectError: wrapped(`Invalid Mintlify API key`, `contains a newline (often a trailing one, from a file or a secret store): remove it`),
	}})
}

// Errors about the key are not attached to api_key: Terraform would print
// the configuration line, which may hold the key.
func TestConfigure_keyErrorsPointAtNoLine(t *testing.T) {
	clearEnv(t)
	for _, key := range []string{"mint_secret value", "mint_secret\n", "", "mint_dsc_secret", "mint_us_secret", "sk_secret"} {
		resp := configureProvider(t, map[string]tftypes.Value{"api_key": str(key)})
		if !resp.Diagnostics.HasError() || resp.ResourceData != nil {
			t.Fatalf("%q accepted", key)
		}
		for _, d := range resp.Diagnostics {
			if wp, ok := d.(diag.DiagnosticWithPath); ok {
				t.Errorf("%q: the diagnostic points at %s", key, wp.Path())
			}
			if key != "" && strings.Contains(d.Detail(), strings.TrimSpace(key)) {
				t.Errorf("%q: the key is in the message: %s", key, d.Detail())
			}
		}
	}
}

// A key of another kind (an assistant key, an Index key, not a Mintlify
// key at all) is refused by Configure, saying which it is, before any
// request.
func TestAccProvider_keyOfAnotherKindIsRefusedBeforeAnyRequest(t *testing.T) {
	fs, url, clk := startAccFake(t, mintlifytest.Config{})
	for key, want := range map[string]string{
		"mint_dsc_0123456789": `The key (from api_key or MINTLIFY_API_KEY) is an assistant key (mint_dsc_...), for the discovery API, not an admin API key (mint_...): get one from the API keys page of the Mintlify dashboard.`,
		"mint_us_0123456789":  `The key (from api_key or MINTLIFY_API_KEY) is a Mintlify Index key (mint_us_...), not an admin API key (mint_...): get one from the API keys page of the Mintlify dashboard.`,
		"sk_live_0123456789":  `The key (from api_key or MINTLIFY_API_KEY) is not an admin API key: those start mint_ (get one from the API keys page of the Mintlify dashboard).`,
	} {
		runSteps(t, clk, []resource.TestStep{{
			Config: adminProvider(key, url, "demo-project") + `
data "mintlify_unique_visitors" "x" {}
resource "mintlify_agent_job" "x" { prompt = "x" }
`,
			ExpectError: wrapped(`Invalid Mintlify API key`, want),
		}})
		resp := configureProvider(t, map[string]tftypes.Value{"api_key": str(key)})
		if got := diagText(resp.Diagnostics, diag.SeverityError); got != "Invalid Mintlify API key: "+want+"\n" {
			t.Errorf("%s: %q", key, got)
		}
	}
	wantNoRequests(t, fs, "with a key of another kind")
}
