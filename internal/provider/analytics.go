package provider

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// pageReader reads every page of a query in turn, as
// sdk.PagedEndpoint.Each does, and says how the pages arrived.
type pageReader[Q sdk.PageQuery, P any] func(ctx context.Context, projectID string, q Q, fn func(*P) error) (sdk.ResponseInfo, error)

// budgetNote is the rate-limit paragraph of every paged analytics data
// source's documentation; oneRequestBudgetNote that of the two whose read is
// always one request (feedback by page, assistant caller stats), where
// advice about pages would mislead.
var (
	budgetNote = budgetLimits + "A read costs one request per page (ceil(rows / page size)); the provider pages at " +
		"the largest size the endpoint allows, requests each page once, stops at `max_results`, and " + budgetCache +
		" To spend less, set `max_results`, and keep dashboards in their own root module so that applying other " +
		"resources does not read them."
	oneRequestBudgetNote = budgetLimits + "A read of this data source is one request, whatever the range; the " +
		"provider " + budgetCache + " To spend less, keep dashboards in their own root module so that applying " +
		"other resources does not read them."

	budgetLimits = "Analytics requests are rate limited: **" + sdk.AnalyticsLimit.String() + ", shared by every " +
		"analytics endpoint and every user of the organization**, and Terraform reads data sources on every `plan`, " +
		"`apply`, `refresh`, `import` and `destroy`. "
	budgetCache = "keeps answers in its cache (see the provider's `cache_ttl`) so that a `plan` and the `apply` " +
		"after it read once. When the API refuses a read for longer than the provider waits, a cached copy up to " +
		"`cache_max_stale` old is used with a warning; without one, the read fails, says when to try again, and how " +
		"to apply (`-target`) or destroy (`-refresh=false`) other resources meanwhile."
)

// analyticsQueryModel holds the attributes every analytics data source has.
type analyticsQueryModel struct {
	ID        types.String `tfsdk:"id"`
	ProjectID types.String `tfsdk:"project_id"`
	DateFrom  types.String `tfsdk:"date_from"`
	DateTo    types.String `tfsdk:"date_to"`
}

// pagingModel holds the attributes of a paged data source.
type pagingModel struct {
	PageSize   types.Number `tfsdk:"page_size"`
	MaxResults types.Number `tfsdk:"max_results"`
}

// pagedQueryModel holds the attributes every paged analytics data source
// has: the query's and the paging's.
type pagedQueryModel struct {
	analyticsQueryModel
	pagingModel
}

// queryAttributes are the schema of analyticsQueryModel.
func queryAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			MarkdownDescription: "Identifies the query: project, dates, filters and row limit.",
			Computed:            true,
		},
		"project_id": schema.StringAttribute{
			MarkdownDescription: "Project to read. Defaults to the provider's `project_id`.",
			Optional:            true,
			Computed:            true,
			Validators:          []validator.String{projectIDValidator},
		},
		"date_from": schema.StringAttribute{
			MarkdownDescription: "Start of the range, inclusive: `YYYY-MM-DD` or an ISO 8601 date-time " +
				"(`2026-10-01T09:30:00Z`, `2026-10-01T09:30:00+02:00`, or without a zone, read in the API's). " +
				"When neither bound is set the API applies its own default range.",
			Optional:   true,
			Validators: []validator.String{dateValidator},
		},
		"date_to": schema.StringAttribute{
			MarkdownDescription: "End of the range, **exclusive**, in the same forms: `date_to = \"2026-11-01\"` " +
				"covers days up to and including October 31.",
			Optional:   true,
			Validators: []validator.String{dateValidator},
		},
	}
}

// pagingAttributes are the schema of pagingModel for an endpoint whose
// largest page is largest; what names the rows ("paths").
func pagingAttributes(largest int, what string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"page_size": schema.NumberAttribute{
			MarkdownDescription: fmt.Sprintf("Rows per request, 1 to %d. Default %d, the largest the API serves: the fewest requests.", largest, largest),
			Optional:            true,
			Validators:          []validator.Number{wholeNumber{1, int64(largest)}},
		},
		"max_results": schema.NumberAttribute{
			MarkdownDescription: "Read at most this many " + what + " (the first ones, in the API's order), and no " +
				"more requests than they need. Default: all of them.",
			Optional:   true,
			Validators: []validator.Number{wholeNumber{1, 0}},
		},
	}
}

// analyticsBase is what analyticsDataSource holds: the provider's data.
type analyticsBase struct {
	data *providerData
}

func (b *analyticsBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	b.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

// ConfigValidators checks date_from < date_to at plan, and what else the
// model asks (configValidators).
func (d *analyticsDataSource[M, P]) ConfigValidators(context.Context) []datasource.ConfigValidator {
	checks := []datasource.ConfigValidator{dateRangeValidator{}}
	if more, ok := any(P(nil)).(interface {
		configValidators() []datasource.ConfigValidator
	}); ok {
		checks = append(checks, more.configValidators()...)
	}
	return checks
}

// analyticsModel is the model of an analytics data source (a struct that
// embeds analyticsQueryModel; P is its pointer), and says what the data
// source is: its type name after the provider's ("_feedback"), its schema,
// and its read. read runs once the configuration is in the model and the
// project resolved; it fills the model, and returns false when it failed
// (the error is in diags).
type analyticsModel[M any] interface {
	*M
	query() *analyticsQueryModel
	typeName() string
	schema() schema.Schema
	read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool
}

// query gives analyticsDataSource the attributes every model embeds.
func (q *analyticsQueryModel) query() *analyticsQueryModel { return q }

// analyticsDataSource is the analytics data source whose model is M: the
// framework's methods are the same for every one, and ask M what differs.
type analyticsDataSource[M any, P analyticsModel[M]] struct{ analyticsBase }

var _ datasource.DataSourceWithConfigValidators = (*analyticsDataSource[feedbackModel, *feedbackModel])(nil)

func (d *analyticsDataSource[M, P]) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + P(nil).typeName()
}

func (d *analyticsDataSource[M, P]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = P(nil).schema()
}

// Read starts as every data source on a project does (beginRead), then
// reads through the model, and sets the state only when that succeeded.
func (d *analyticsDataSource[M, P]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	m := P(new(M))
	ctx, ok := beginRead(ctx, d.data, req, resp, m, &m.query().ProjectID)
	if ok && m.read(ctx, d.data, &resp.Diagnostics) {
		resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
	}
}

// beginRead starts the read of a data source that works on a project: an
// error when the provider is not configured; else the configuration read
// into model and *projectID resolved (the provider's project when unset).
// It returns false when the read must stop.
func beginRead(ctx context.Context, data *providerData, req datasource.ReadRequest, resp *datasource.ReadResponse, model any, projectID *types.String) (context.Context, bool) {
	if !readConfig(ctx, data, req, resp, model, requireConfigured) {
		return ctx, false
	}
	project, ok := data.projectOrDefault(*projectID, path.Root("project_id"), &resp.Diagnostics)
	*projectID = types.StringValue(project)
	return data.logContext(ctx), ok
}

// readEach reads every page of a query with read (an SDK endpoint's
// Each), handing each page to add as it arrives, then says where the
// answer came from. A failure becomes the data source's error ("Could not
// read "+what); it returns false then. The pages add sees are one
// snapshot: when the budget runs out in the middle of the read, Each
// itself serves the cache's whole copy (younger than cache_max_stale)
// from the start, or fails.
func readEach[Q sdk.PageQuery, P any](ctx context.Context, data *providerData, diags *diag.Diagnostics, what string, read pageReader[Q, P],
	projectID string, q Q, add func(*P)) bool {
	info, err := read(ctx, projectID, q, func(p *P) error { add(p); return nil })
	if !readEnded(ctx, data, diags, what, err, func() sdk.CacheStatus { return info.Cache }) {
		return false
	}
	tflog.Debug(ctx, "read "+what, map[string]any{"pages": info.Pages, "requests": info.Attempts})
	return true
}

// readEnded ends every analytics read, paged or not, the same way: a
// problem with the cache said (once per process), then the read's error as
// the data source's ("Could not read "+what), or else where the answer
// came from (cache, read only when there was no error). It is false when
// the read failed.
func readEnded(ctx context.Context, data *providerData, diags *diag.Diagnostics, what string, err error, cache func() sdk.CacheStatus) bool {
	data.noteCacheProblem(diags)
	if err != nil {
		addReadError(diags, what, err)
		return false
	}
	noteCache(ctx, data, diags, what, cache())
	return true
}

// noteCache tells the user where an analytics answer came from: a warning
// for a stale copy served instead of a rate-limited read, a debug line for
// a fresh one. what names the data ("unique visitors").
func noteCache(ctx context.Context, data *providerData, diags *diag.Diagnostics, what string, status sdk.CacheStatus) {
	switch {
	case status.Stale:
		when := "when the limit resets"
		if status.RateLimit != nil && !status.RateLimit.RetryAt.IsZero() {
			when = "at " + status.RateLimit.RetryAt.UTC().Format("2006-01-02 15:04:05 MST")
		}
		diags.AddWarning("Mintlify "+what+" served from cache",
			fmt.Sprintf("The Mintlify API refused to read %s: the organization's analytics requests are spent (%s, "+
				"shared by every analytics endpoint); the budget frees up %s. The values shown are a cached copy fetched %s "+
				"ago (%s), and may be out of date. The copy is used while it is younger than cache_max_stale.",
				what, sdk.AnalyticsLimit, when, age(data.now(), status.StoredAt), status.StoredAt.UTC().Format(time.RFC3339)))
	case status.Hit:
		tflog.Debug(ctx, "analytics read from cache", map[string]any{"data": what, "age": age(data.now(), status.StoredAt)})
	}
}

// age is how long before now t was, to the second.
func age(now, t time.Time) string { return now.Sub(t).Round(time.Second).String() }

// queryID names a query in a stable, readable way: the project, then the
// parameters that are set.
func queryID(projectID string, params map[string]string) string {
	v := url.Values{}
	for k, p := range params {
		if p != "" && p != "0" {
			v.Set(k, p)
		}
	}
	if enc := v.Encode(); enc != "" {
		return projectID + "?" + enc
	}
	return projectID
}
