// Package provider maps Terraform configuration and state to SDK calls and
// back. It holds no HTTP or JSON: that is the sdk package's job.
package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/cachebucket"
)

// Environment variables read when the provider block leaves a setting out.
const (
	EnvAPIKey         = "MINTLIFY_API_KEY" //nolint:gosec // the variable's name, not a credential
	EnvProjectID      = "MINTLIFY_PROJECT_ID"
	EnvBaseURL        = "MINTLIFY_BASE_URL"
	EnvRequestTimeout = "MINTLIFY_REQUEST_TIMEOUT"
	EnvCacheDir       = "MINTLIFY_CACHE_DIR"
	EnvCacheURL       = "MINTLIFY_CACHE_URL"
	EnvCacheTTL       = "MINTLIFY_CACHE_TTL"
	EnvCacheMaxStale  = "MINTLIFY_CACHE_MAX_STALE"
	EnvCacheTimeout   = "MINTLIFY_CACHE_TIMEOUT"
	// EnvAssistantAPIKey and EnvDomain are the discovery API's key and the
	// documentation site's default domain (mintlify_search, mintlify_page).
	EnvAssistantAPIKey = sdk.EnvAssistantAPIKey
	EnvDomain          = "MINTLIFY_DOMAIN"
)

// Defaults of the analytics cache: fresh long enough that a plan and the
// apply after it in one CI job read once; stale copies kept for a day of
// rate limits.
const (
	DefaultCacheTTL      = 10 * time.Minute
	DefaultCacheMaxStale = 24 * time.Hour
)

var (
	_ provider.Provider            = (*mintlifyProvider)(nil)
	_ provider.ProviderWithActions = (*mintlifyProvider)(nil)

	_ provider.ProviderWithEphemeralResources = (*mintlifyProvider)(nil)
	_ provider.ProviderWithListResources      = (*mintlifyProvider)(nil)
)

type mintlifyProvider struct {
	version string
	// Tests make polling and retries fast; production uses the SDK defaults.
	sdkOptions []sdk.Option
	// clock, when a test sets one, is the time both SDK clients and the
	// provider itself run on (sdk.WithClock); nil: the wall clock.
	clock       sdk.Clock
	waitOptions []sdk.WaitOption
}

// New returns the provider factory for providerserver; version is set at
// build time and shown in the User-Agent.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &mintlifyProvider{version: version} }
}

type providerModel struct {
	APIKey         types.String `tfsdk:"api_key"`
	ProjectID      types.String `tfsdk:"project_id"`
	BaseURL        types.String `tfsdk:"base_url"`
	MaxRetries     types.Int64  `tfsdk:"max_retries"`
	MaxRetryWait   types.String `tfsdk:"max_retry_wait"`
	RequestTimeout types.String `tfsdk:"request_timeout"`
	CacheDir       types.String `tfsdk:"cache_dir"`
	CacheURL       types.String `tfsdk:"cache_url"`
	CacheTTL       types.String `tfsdk:"cache_ttl"`
	CacheMaxStale  types.String `tfsdk:"cache_max_stale"`
	CacheTimeout   types.String `tfsdk:"cache_timeout"`
	AssistantKey   types.String `tfsdk:"assistant_api_key"`
	Domain         types.String `tfsdk:"domain"`
}

// providerData is what resources, data sources and actions receive from
// Configure. client is nil without an admin key (see requireConfigured).
type providerData struct {
	client      *sdk.Client
	projectID   string // default for resources; "" when none
	apiKey      string // kept only to mask it in logs
	waitOptions []sdk.WaitOption

	// discovery serves mintlify_search and mintlify_page; nil without an
	// assistant key (see requireDiscovery).
	discovery    *sdk.DiscoveryClient
	assistantKey string // kept only to mask it in logs
	domain       string // default for the discovery data sources; "" when none
	// clock is the SDK client's clock (nil: the wall clock): the time a
	// message is sent, and a cached copy's age, read on the same clock as
	// the client's waits and the cache's entries.
	clock sdk.Clock
	// cacheWarned is set once the cache's problem (client.CacheProblem)
	// has been shown: once per provider process.
	cacheWarned atomic.Bool
}

// now is the time on the provider's clock.
func (d *providerData) now() time.Time {
	if d.clock != nil {
		return d.clock.Now()
	}
	return time.Now()
}

// logContext masks the API key in every log line written with the returned
// context, whatever field or message it might end up in.
func (d *providerData) logContext(ctx context.Context) context.Context {
	return maskSecret(maskSecret(ctx, d.apiKey), d.assistantKey)
}

func maskSecret(ctx context.Context, secret string) context.Context {
	ctx = tflog.MaskFieldValuesWithFieldKeys(ctx, "api_key", "assistant_api_key", "Authorization", "authorization")
	if secret == "" {
		return ctx
	}
	ctx = tflog.MaskAllFieldValuesStrings(ctx, secret)
	return tflog.MaskMessageStrings(ctx, secret)
}

func (p *mintlifyProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "mintlify"
	resp.Version = p.version
}

func (p *mintlifyProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manage [Mintlify](https://mintlify.com) documentation with Terraform: run background " +
			"agent jobs that edit your docs and open pull requests, publish and preview the docs (deployments, " +
			"previews, automation runs), export a static copy, read the analytics export (visitors, page " +
			"views, searches, feedback and assistant usage), and search the live docs (for `check` blocks after a deployment).",
		Attributes: map[string]schema.Attribute{
			"api_key": schema.StringAttribute{
				MarkdownDescription: "Admin API key (`mint_...`) from the API keys page of the Mintlify dashboard. " +
					"Falls back to the `" + EnvAPIKey + "` environment variable. Never logged or stored in state.",
				Optional:  true,
				Sensitive: true,
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "Default project for resources and data sources that do not set their own " +
					"`project_id`; shown on the dashboard's API keys page. Falls back to `" + EnvProjectID + "`.",
				Optional:   true,
				Validators: []validator.String{projectIDValidator},
			},
			"base_url": schema.StringAttribute{
				MarkdownDescription: "API address. Falls back to `" + EnvBaseURL + "`, then `" + sdk.DefaultBaseURL + "`. " +
					"Must be `https`, except for loopback hosts (a local test server).",
				Optional: true,
			},
			"max_retries": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("How many times a request refused with 429, or a read that met a "+
					"5xx, a broken connection or a timeout, is tried again. Default %d. A job creation or message "+
					"that may have reached the server is never sent twice.", sdk.DefaultMaxRetries),
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(0, 10)},
			},
			"max_retry_wait": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("Longest `Retry-After` the provider waits through, as a duration "+
					"such as `30s` or `2m`. Default `%s`. A rate-limited request asking for a longer wait (analytics "+
					"allows %s) fails at once with the time to try again.", sdk.DefaultMaxRetryAfter, sdk.AnalyticsLimit),
				Optional:   true,
				Validators: []validator.String{durationValidator{}},
			},
			"request_timeout": schema.StringAttribute{
				MarkdownDescription: fmt.Sprintf("How long one HTTP request may take, from sending it to the last "+
					"byte of the answer, as a duration such as `90s`. Default `%s`; falls back to `%s`; `0s` sets "+
					"no limit. A read that stalls past it is retried; a job creation or message is not (it may "+
					"have been carried out).", shortDuration(sdk.DefaultRequestTimeout), EnvRequestTimeout),
				Optional:   true,
				Validators: []validator.String{durationValidator{}},
			},
			"cache_dir": schema.StringAttribute{
				MarkdownDescription: "Directory of the analytics cache, shared by every `terraform` command on the " +
					"machine. Falls back to `" + EnvCacheDir + "`, then to `terraform-provider-mintlify` in the " +
					"user's cache directory (`$XDG_CACHE_HOME` or `~/.cache` on Linux). When it cannot be created " +
					"or written (a read-only home, say), the provider works without a cache. A directory that others " +
					"can write (group- or world-writable, or another user's) is refused with a warning: they could " +
					"plant answers in it. `cache_url`, when set, wins.",
				Optional: true,
			},
			"cache_url": schema.StringAttribute{
				MarkdownDescription: "A bucket that many machines share as the analytics cache, so that a fleet of CI " +
					"runners (each starting with an empty disk) reads each analytics answer once per `cache_ttl` instead " +
					"of once per runner: `s3://bucket?region=us-east-1` (and `prefix=`, `endpoint=` for S3-compatible " +
					"stores), `gs://bucket`, `azblob://container` or `file:///shared/dir`. Credentials come from each " +
					"store's standard chain (AWS environment, profile or instance role; Google application default " +
					"credentials; Azure environment or managed identity), never from the URL. Falls back to `" + EnvCacheURL +
					"`. Runners that miss the same read at once wait for the one that took its lease (at most 2 minutes; a " +
					"dead runner's lease expires after 1 minute), so a fleet that starts together reads once. " +
					"**Wins over `cache_dir`**; when the bucket cannot be opened, `cache_dir` is used, with a warning; " +
					"a bucket that cannot be written (missing, or a read-only credential) is still read, and one that " +
					"fails otherwise is left alone for the rest of the command, each with a warning (see the " +
					"Troubleshooting guide). Records are sealed with a key derived from the API key: whoever can write " +
					"the bucket without it cannot plant answers. The known-spent budget is shared there too: a runner " +
					"refused until a time records it, and every runner of the same API key sends no analytics request " +
					"until then, believing such a record for up to 24 hours. Give the " +
					"bucket a lifecycle rule that expires objects after `cache_max_stale`: the provider does not cap it " +
					"(with `mintlify_analytics_daily`, whose history is rewritten only when a day settles, no sooner than " +
					"the longest gap between two plans: an expired history is read again).",
				Optional:   true,
				Validators: []validator.String{cacheURLValidator},
			},
			"cache_ttl": schema.StringAttribute{
				MarkdownDescription: "How long a cached analytics answer is used instead of asking the API again, " +
					"as a duration such as `10m`, `6h` or `7d`. Default `" + shortDuration(DefaultCacheTTL) + "`: a " +
					"plan and the apply after it read once. Falls back to `" + EnvCacheTTL + "`; `0` turns the " +
					"cache off. Ranges that no longer change (last month) can use hours or days.",
				Optional:   true,
				Validators: []validator.String{durationValidator{}},
			},
			"cache_max_stale": schema.StringAttribute{
				MarkdownDescription: "When the API refuses an analytics read with a rate limit longer than " +
					"`max_retry_wait`, a cached answer up to this old is used instead, with a warning that gives " +
					"its age and when the budget frees up. Default `" + shortDuration(DefaultCacheMaxStale) + "`; " +
					"falls back to `" + EnvCacheMaxStale + "`; `0` never uses a stale answer.",
				Optional:   true,
				Validators: []validator.String{durationValidator{}},
			},
			"cache_timeout": schema.StringAttribute{
				MarkdownDescription: "How long the analytics cache (the bucket, or `cache_dir`) may take for one read: " +
					"each operation, and all those of one read together (looking for its answer and the known-spent " +
					"budget, taking and releasing its lease, storing the answer). Past it the read goes to the API, and " +
					"the cache is left alone for the rest of the command, with a warning: a bucket that answers slowly " +
					"never costs a read more than this. A read that takes minutes also renews its lease every 15 seconds, " +
					"each renewal bounded by this alone. Default `" + shortDuration(sdk.DefaultCacheTimeout) + "` (also " +
					"for `0s`); falls back to `" + EnvCacheTimeout + "`. Waiting for another runner's read of the same answer is bounded " +
					"apart, at 2 minutes in all.",
				Optional:   true,
				Validators: []validator.String{durationValidator{}},
			},
			"assistant_api_key": schema.StringAttribute{
				MarkdownDescription: "Assistant API key (`mint_dsc_...`) from the API keys page of the Mintlify dashboard, " +
					"for `mintlify_search` and `mintlify_page` (the discovery API takes no admin key). Falls back to the `" +
					EnvAssistantAPIKey + "` environment variable. Never logged or stored in state. Requests go to `base_url` + " +
					"`/discovery` (`" + sdk.DefaultDiscoveryBaseURL + "` by default). With only this key, the provider serves " +
					"those two data sources; everything else needs `api_key`.",
				Optional:  true,
				Sensitive: true,
			},
			"domain": schema.StringAttribute{
				MarkdownDescription: "Default documentation site for `mintlify_search` and `mintlify_page`: the domain " +
					"identifier of `domain.mintlify.site`, at the end of the dashboard's URL. Falls back to `" + EnvDomain + "`.",
				Optional:   true,
				Validators: []validator.String{siteDomainValidator},
			},
		},
	}
}

func (p *mintlifyProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// A key or URL that comes from another resource is unknown until apply:
	// configure nothing yet, Terraform calls Configure again with values.
	// Where Terraform can defer, the framework defers every data source,
	// ephemeral resource and resource plan of this provider meanwhile;
	// elsewhere each says it is not configured (requireConfigured).
	for _, v := range []interface{ IsUnknown() bool }{cfg.APIKey, cfg.BaseURL, cfg.ProjectID, cfg.MaxRetries, cfg.MaxRetryWait,
		cfg.RequestTimeout, cfg.CacheDir, cfg.CacheURL, cfg.CacheTTL, cfg.CacheMaxStale, cfg.CacheTimeout, cfg.AssistantKey, cfg.Domain} {
		if v.IsUnknown() {
			tflog.Debug(ctx, "provider configuration has unknown values; configuring at apply")
			if req.ClientCapabilities.DeferralAllowed {
				resp.Deferred = &provider.Deferred{Reason: provider.DeferredReasonProviderConfigUnknown}
			}
			return
		}
	}

	apiKey := stringOrEnv(cfg.APIKey, EnvAPIKey)
	assistantKey := stringOrEnv(cfg.AssistantKey, EnvAssistantAPIKey)
	ctx = maskSecret(maskSecret(ctx, apiKey), assistantKey)
	// Errors about the key are not attached to api_key: Terraform would
	// print the configuration line, which may hold the key itself.
	if apiKey == "" && assistantKey == "" {
		resp.Diagnostics.AddError("Missing Mintlify API key",
			"Set api_key in the provider block or the "+EnvAPIKey+" environment variable to an admin API key "+
				"from the API keys page of the Mintlify dashboard (mintlify_search and mintlify_page need only "+
				"assistant_api_key, an assistant key).")
		return
	}
	// Each key is checked only when given: with only an assistant key the
	// provider serves the discovery data sources, and whatever needs the
	// admin key says so (requireConfigured).
	if apiKey != "" {
		if err := sdk.ValidateAPIKey(apiKey); err != nil {
			resp.Diagnostics.AddError("Invalid Mintlify API key",
				"The key (from api_key or "+EnvAPIKey+") "+strings.TrimPrefix(err.Error(), "apiKey ")+".")
			return
		}
	}
	if assistantKey != "" {
		if err := sdk.ValidateAssistantKey(assistantKey); err != nil {
			resp.Diagnostics.AddError("Invalid Mintlify assistant API key",
				"The key (from assistant_api_key or "+EnvAssistantAPIKey+") "+strings.TrimPrefix(err.Error(), "assistantKey ")+".")
			return
		}
	}
	baseURL := stringOrEnv(cfg.BaseURL, EnvBaseURL)
	if baseURL == "" {
		baseURL = sdk.DefaultBaseURL
	}
	if _, err := sdk.ParseBaseURL(baseURL); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("base_url"), "Invalid base_url",
			"The API address (from base_url or "+EnvBaseURL+") "+strings.TrimPrefix(err.Error(), "baseURL ")+".")
		return
	}

	opts := []sdk.Option{
		sdk.WithUserAgent(userAgent(p.version, req.TerraformVersion)),
		sdk.WithRequestHook(logRequest),
	}
	if !cfg.MaxRetries.IsNull() {
		opts = append(opts, sdk.WithMaxRetries(int(cfg.MaxRetries.ValueInt64())))
	}
	durations := map[string]time.Duration{}
	for _, s := range []struct {
		name, env string
		value     types.String
		def       time.Duration
	}{
		{"max_retry_wait", "", cfg.MaxRetryWait, sdk.DefaultMaxRetryAfter},
		{"request_timeout", EnvRequestTimeout, cfg.RequestTimeout, sdk.DefaultRequestTimeout},
		{"cache_ttl", EnvCacheTTL, cfg.CacheTTL, DefaultCacheTTL},
		{"cache_max_stale", EnvCacheMaxStale, cfg.CacheMaxStale, DefaultCacheMaxStale},
		{"cache_timeout", EnvCacheTimeout, cfg.CacheTimeout, sdk.DefaultCacheTimeout},
	} {
		d, ok := durationSetting(s.value, s.env, s.def, s.name, &resp.Diagnostics)
		if !ok {
			return
		}
		durations[s.name] = d
	}
	opts = append(opts, sdk.WithMaxRetryAfter(durations["max_retry_wait"]), sdk.WithRequestTimeout(durations["request_timeout"]))
	bucket := stringOrEnv(cfg.CacheURL, EnvCacheURL)
	if err := sdk.ValidateCacheURL(bucket); bucket != "" && err != nil {
		// The attribute's validator has said it at plan; this is the variable.
		resp.Diagnostics.AddError("Invalid "+EnvCacheURL, strings.Replace(err.Error(), "cacheURL", EnvCacheURL, 1)+".")
		return
	}
	if p.clock != nil {
		opts = append(opts, sdk.WithClock(p.clock))
	}
	// The cache is the admin API's analytics only: the discovery client
	// gets every option but it.
	common := opts
	if dir := cacheDir(cfg.CacheDir); (dir != "" || bucket != "") && durations["cache_ttl"] > 0 {
		opts = append(opts[:len(opts):len(opts)], sdk.WithAnalyticsCache(sdk.CacheOptions{Dir: dir, URL: bucket, OpenBucket: cachebucket.Open,
			FreshFor: durations["cache_ttl"], MaxStale: durations["cache_max_stale"], Timeout: durations["cache_timeout"]}))
		tflog.Debug(ctx, "analytics cache", map[string]any{"dir": dir, "bucket": bucket != "", "ttl": durations["cache_ttl"].String(),
			"max_stale": durations["cache_max_stale"].String(), "timeout": durations["cache_timeout"].String()})
	}
	data := &providerData{apiKey: apiKey, assistantKey: assistantKey, waitOptions: p.waitOptions, clock: p.clock}
	if apiKey != "" {
		client, err := sdk.NewClient(apiKey, append(append([]sdk.Option{sdk.WithBaseURL(baseURL)}, opts...), p.sdkOptions...)...)
		if err != nil {
			resp.Diagnostics.AddError("Could not configure the Mintlify client", err.Error())
			return
		}
		data.client = client
	}
	if assistantKey != "" {
		// The discovery API lives under /discovery on the admin API's host:
		// base_url pointed at a test server points both there.
		discoveryURL := strings.TrimRight(baseURL, "/") + "/discovery"
		discovery, err := sdk.NewDiscoveryClient(assistantKey, append(append([]sdk.Option{sdk.WithBaseURL(discoveryURL)}, common...), p.sdkOptions...)...)
		if err != nil {
			resp.Diagnostics.AddError("Could not configure the Mintlify discovery client", err.Error())
			return
		}
		data.discovery = discovery
	}
	data.domain = stringOrEnv(cfg.Domain, EnvDomain)
	if data.domain != "" && sdk.ValidateDomain(data.domain) != nil {
		resp.Diagnostics.AddAttributeError(path.Root("domain"), "Invalid domain",
			"The default domain (from domain or "+EnvDomain+") "+strings.TrimPrefix(sdk.ValidateDomain(data.domain).Error(), "domain ")+".")
		return
	}
	projectID := stringOrEnv(cfg.ProjectID, EnvProjectID)
	if projectID != "" && sdk.ValidateProjectID(projectID) != nil {
		resp.Diagnostics.AddAttributeError(path.Root("project_id"), "Invalid project_id",
			"The default project (from project_id or "+EnvProjectID+") "+strings.TrimPrefix(sdk.ValidateProjectID(projectID).Error(), "projectId ")+": set a project id, or leave it unset.")
		return
	}
	data.projectID = projectID
	data.noteCacheProblem(&resp.Diagnostics)
	tflog.Debug(ctx, "configured Mintlify client", map[string]any{"base_url": baseURL, "admin_key": apiKey != "",
		"assistant_key": assistantKey != "", "default_project_id": data.projectID, "default_domain": data.domain})
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ActionData = data
	resp.ListResourceData = data
	resp.EphemeralResourceData = data
}

// noteCacheProblem warns, once per provider process, that the analytics
// cache is not working as configured (the SDK's problem says how much of
// it still works): reads still work, but what the cache would have
// answered spends the budget.
func (d *providerData) noteCacheProblem(diags *diag.Diagnostics) {
	if d == nil || d.client == nil {
		return
	}
	if err := d.client.CacheProblem(); err != nil && !d.cacheWarned.Swap(true) {
		diags.AddWarning("Mintlify analytics cache not used as configured",
			err.Error()+". Analytics reads still work, but each read the cache does not answer spends the analytics budget ("+
				sdk.AnalyticsLimit.Of("requests")+").\n\n"+seeTroubleshooting)
	}
}

// durationSetting reads a duration from the attribute, else from env, else
// def. A bad environment value is an error naming the variable (the
// attribute's own validator reports a bad attribute).
func durationSetting(v types.String, env string, def time.Duration, name string, diags *diag.Diagnostics) (time.Duration, bool) {
	raw, from := v.ValueString(), name
	if v.IsNull() {
		if env == "" || os.Getenv(env) == "" {
			return def, true
		}
		raw, from = os.Getenv(env), env
	}
	d, err := parseDuration(raw)
	if err != nil {
		diags.AddError("Invalid "+from, fmt.Sprintf("%s %q must be a non-negative duration such as \"90s\", \"10m\", \"6h\" or \"7d\".", from, raw))
		return 0, false
	}
	return d, true
}

// cacheDir is where the analytics cache lives: the attribute, the
// environment, or the user's cache directory; "" (no cache) when there is
// none, as on a machine without a home.
func cacheDir(v types.String) string {
	if dir := stringOrEnv(v, EnvCacheDir); dir != "" {
		return dir
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "terraform-provider-mintlify")
}

func (p *mintlifyProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{NewAgentJobResource, NewAgentJobMessageResource,
		NewDeploymentResource, NewPreviewDeploymentResource, NewStaticExportResource}
}

func (p *mintlifyProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewUniqueVisitorsDataSource, NewPageViewsDataSource, NewSearchQueriesDataSource, NewFeedbackDataSource,
		NewFeedbackByPageDataSource, NewAssistantConversationsDataSource, NewAssistantCallerStatsDataSource,
		NewDeploymentStatusDataSource, NewAgentJobDataSource, NewAgentJobsDataSource, NewSearchDataSource, NewPageDataSource,
		NewAnalyticsDailyDataSource,
	}
}

func (p *mintlifyProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{NewAgentJobListResource}
}

func (p *mintlifyProvider) Actions(context.Context) []func() action.Action {
	return []func() action.Action{NewAgentJobAction, NewAgentJobMessageAction,
		NewDeploymentAction, NewPreviewDeploymentAction, NewAutomationRunAction, NewStaticExportAction}
}

func (p *mintlifyProvider) EphemeralResources(context.Context) []func() ephemeral.EphemeralResource {
	return []func() ephemeral.EphemeralResource{NewStaticExportBundleEphemeralResource}
}

func stringOrEnv(v types.String, env string) string {
	if !v.IsNull() && !v.IsUnknown() {
		return v.ValueString()
	}
	return os.Getenv(env)
}

// userAgent names the provider first, then Terraform, then the SDK, so the
// API's logs tell which tool sent a request.
func userAgent(version, terraformVersion string) string {
	if version == "" {
		version = "dev"
	}
	ua := "terraform-provider-mintlify/" + version
	if terraformVersion != "" {
		ua += " Terraform/" + terraformVersion
	}
	return ua + " mintlify-go-sdk/" + sdk.Version
}

// logRequest writes one debug line per HTTP attempt. RequestInfo carries no
// header, so the key cannot reach it; the context masks it regardless.
func logRequest(ctx context.Context, info sdk.RequestInfo) {
	fields := map[string]any{
		"method": info.Method, "path": info.Path, "query": info.Query, "attempt": info.Attempt,
		"status": info.StatusCode, "duration_ms": info.Duration.Milliseconds(),
	}
	if info.Err != nil {
		fields["error"] = info.Err.Error()
	}
	tflog.Debug(ctx, "Mintlify API request", fields)
}

// requireConfigured reports whether the provider was configured, and says
// why not when its settings are still unknown (they come from a resource
// not yet applied).
func requireConfigured(data *providerData, diags *diag.Diagnostics) bool {
	if data == nil {
		diags.AddError("Provider not configured",
			"The Mintlify provider's settings (api_key, base_url, project_id) are not known yet: they come from a resource not applied yet. Apply that resource first, for example with terraform apply -target=<its address>, then apply everything.")
		return false
	}
	return data.requireAdminKey(diags)
}

// requireAdminKey says, where the admin API is needed, that a provider
// configured with only an assistant key cannot serve it.
func (d *providerData) requireAdminKey(diags interface{ AddError(string, string) }) bool {
	if d.client != nil {
		return true
	}
	diags.AddError("Missing Mintlify API key",
		"This needs an admin API key: set api_key in the provider block or the "+EnvAPIKey+" environment variable "+
			"to an admin API key from the API keys page of the Mintlify dashboard. The provider has only an assistant "+
			"key (assistant_api_key), which serves mintlify_search and mintlify_page alone.")
	return false
}

// configuredData extracts the provider's data in a resource's, data
// source's or action's Configure. It is nil before the provider is
// configured.
func configuredData(raw any, diags interface{ AddError(string, string) }) *providerData {
	if raw == nil {
		return nil
	}
	data, ok := raw.(*providerData)
	if !ok {
		diags.AddError("Unexpected provider data", fmt.Sprintf("Expected *providerData, got %T. Please report this issue to the provider developers.", raw))
		return nil
	}
	return data
}

// projectOrDefault resolves a configured project_id against the provider's
// default, adding an error on path when there is neither.
func (d *providerData) projectOrDefault(configured types.String, at path.Path, diags *diag.Diagnostics) (string, bool) {
	if !configured.IsNull() && !configured.IsUnknown() {
		return configured.ValueString(), true
	}
	if d.projectID == "" {
		diags.AddAttributeError(at, "Missing project_id",
			"Set project_id here, or on the provider (or the "+EnvProjectID+" environment variable).")
		return "", false
	}
	return d.projectID, true
}
