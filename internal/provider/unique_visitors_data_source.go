package provider

import (
	"context"
	"fmt"
	"net/url"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

var (
	_ datasource.DataSource                     = (*uniqueVisitorsDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*uniqueVisitorsDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*uniqueVisitorsDataSource)(nil)
)

// NewUniqueVisitorsDataSource is the mintlify_unique_visitors data source.
func NewUniqueVisitorsDataSource() datasource.DataSource { return &uniqueVisitorsDataSource{} }

type uniqueVisitorsDataSource struct {
	data *providerData
}

type uniqueVisitorsModel struct {
	ID         types.String `tfsdk:"id"`
	ProjectID  types.String `tfsdk:"project_id"`
	DateFrom   types.String `tfsdk:"date_from"`
	DateTo     types.String `tfsdk:"date_to"`
	PageSize   types.Int64  `tfsdk:"page_size"`
	MaxResults types.Int64  `tfsdk:"max_results"`
	Totals     types.Object `tfsdk:"totals"`
	Visitors   types.List   `tfsdk:"visitors"`
}

var (
	countAttrTypes = map[string]attr.Type{"human": types.Int64Type, "ai": types.Int64Type, "total": types.Int64Type}
	rowAttrTypes   = map[string]attr.Type{"path": types.StringType, "human": types.Int64Type, "ai": types.Int64Type, "total": types.Int64Type}
	rowType        = types.ObjectType{AttrTypes: rowAttrTypes}
)

func (d *uniqueVisitorsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_unique_visitors"
}

func (d *uniqueVisitorsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	count := func(what string) schema.Int64Attribute {
		return schema.Int64Attribute{MarkdownDescription: what, Computed: true}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Unique visitors of a project's documentation: site-wide totals and one row per page " +
			"path, each split into human and AI traffic.\n\n" +
			"Analytics requests are rate limited (100 per organization per hour, shared by every analytics " +
			"endpoint). The data source reads every page through the API's `hasMore` at the largest page size " +
			"(250 rows) unless told otherwise, requests each page once, and stops early at `max_results`: a read of " +
			"N rows costs ceil(N / page_size) requests. When the API is rate limited for longer than the provider " +
			"waits (`max_retry_wait`), the read fails at once and says when to try again.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				MarkdownDescription: "Identifies the query: project, date range and row limit.",
				Computed:            true,
			},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "Project to read. Defaults to the provider's `project_id`.",
				Optional:            true,
				Computed:            true,
				Validators:          []validator.String{projectIDValidator},
			},
			"date_from": schema.StringAttribute{
				MarkdownDescription: "Start of the range, inclusive: `YYYY-MM-DD` or an RFC 3339 date-time. " +
					"When neither bound is set the API applies its own default range.",
				Optional:   true,
				Validators: []validator.String{dateValidator},
			},
			"date_to": schema.StringAttribute{
				MarkdownDescription: "End of the range, **exclusive**: `YYYY-MM-DD` or an RFC 3339 date-time. " +
					"`date_to = \"2026-11-01\"` covers days up to and including October 31.",
				Optional:   true,
				Validators: []validator.String{dateValidator},
			},
			"page_size": schema.Int64Attribute{
				MarkdownDescription: fmt.Sprintf("Rows per request, 1 to %d. Default %d: the fewest requests.", sdk.MaxPageSize, sdk.MaxPageSize),
				Optional:            true,
				Validators:          []validator.Int64{int64validator.Between(1, sdk.MaxPageSize)},
			},
			"max_results": schema.Int64Attribute{
				MarkdownDescription: "Read at most this many rows (the first ones, in the API's order), and no " +
					"more requests than they need. Default: every row.",
				Optional:   true,
				Validators: []validator.Int64{int64validator.AtLeast(1)},
			},
			"totals": schema.SingleNestedAttribute{
				MarkdownDescription: "Site-wide unique visitors for the range.",
				Computed:            true,
				Attributes: map[string]schema.Attribute{
					"human": count("Unique human visitors."),
					"ai":    count("Unique AI visitors (agents, crawlers, assistants)."),
					"total": count("Unique visitors, deduplicated across human and AI traffic: not necessarily `human + ai`."),
				},
			},
			"visitors": schema.ListNestedAttribute{
				MarkdownDescription: "One row per page path, in the API's order (which the API does not document: " +
					"sort it yourself if the order matters).",
				Computed: true,
				NestedObject: schema.NestedAttributeObject{
					Attributes: map[string]schema.Attribute{
						"path":  schema.StringAttribute{MarkdownDescription: "The page path, such as `/quickstart`.", Computed: true},
						"human": count("Unique human visitors of the path."),
						"ai":    count("Unique AI visitors of the path."),
						"total": count("Unique visitors of the path, deduplicated across human and AI traffic."),
					},
				},
			},
		},
	}
}

func (d *uniqueVisitorsDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{dateRangeValidator{}}
}

func (d *uniqueVisitorsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	d.data = configuredData(req.ProviderData, &resp.Diagnostics)
}

func (d *uniqueVisitorsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	// Terraform reads data sources at plan even when the provider's
	// settings are still unknown. Where it can defer the read, defer it.
	if d.data == nil && req.ClientCapabilities.DeferralAllowed {
		resp.Deferred = &datasource.Deferred{Reason: datasource.DeferredReasonProviderConfigUnknown}
		return
	}
	if !requireConfigured(d.data, &resp.Diagnostics) {
		return
	}
	var m uniqueVisitorsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx = d.data.logContext(ctx)
	if m.ProjectID.IsNull() {
		if d.data.projectID == "" {
			resp.Diagnostics.AddAttributeError(path.Root("project_id"), "Missing project_id",
				"Set project_id on the data source, or on the provider (or the "+EnvProjectID+" environment variable).")
			return
		}
		m.ProjectID = types.StringValue(d.data.projectID)
	}
	q := sdk.VisitorsQuery{
		DateFrom:   m.DateFrom.ValueString(),
		DateTo:     m.DateTo.ValueString(),
		Limit:      int(m.PageSize.ValueInt64()),
		MaxResults: int(m.MaxResults.ValueInt64()),
	}
	projectID := m.ProjectID.ValueString()

	var rows []attr.Value
	var totals sdk.VisitorCounts
	pages := 0
	for page, err := range prefetch(ctx, visitorPages(ctx, d.data.client, projectID, q)) {
		if err != nil {
			addAPIError(&resp.Diagnostics, "Could not read unique visitors", err)
			return
		}
		if pages == 0 {
			totals = page.Totals
			rows = make([]attr.Value, 0, len(page.Visitors))
		}
		pages++
		rows = appendRows(rows, page.Visitors)
	}
	tflog.Debug(ctx, "read unique visitors", map[string]any{"project_id": projectID, "rows": len(rows), "requests": pages})

	m.ID = types.StringValue(queryID(projectID, q))
	m.Totals = basetypes.NewObjectValueMust(countAttrTypes, map[string]attr.Value{
		"human": types.Int64Value(totals.Human), "ai": types.Int64Value(totals.AI), "total": types.Int64Value(totals.Total),
	})
	if rows == nil {
		rows = []attr.Value{}
	}
	m.Visitors = basetypes.NewListValueMust(rowType, rows)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// appendRows converts a page's rows once, straight into framework values.
func appendRows(dst []attr.Value, rows []sdk.PathVisitors) []attr.Value {
	for _, r := range rows {
		dst = append(dst, basetypes.NewObjectValueMust(rowAttrTypes, map[string]attr.Value{
			"path":  types.StringValue(r.Path),
			"human": types.Int64Value(r.Human),
			"ai":    types.Int64Value(r.AI),
			"total": types.Int64Value(r.Total),
		}))
	}
	return dst
}

// queryID names the query in a stable, readable way.
func queryID(projectID string, q sdk.VisitorsQuery) string {
	v := url.Values{}
	if q.DateFrom != "" {
		v.Set("date_from", q.DateFrom)
	}
	if q.DateTo != "" {
		v.Set("date_to", q.DateTo)
	}
	if q.MaxResults > 0 {
		v.Set("max_results", fmt.Sprint(q.MaxResults))
	}
	if enc := v.Encode(); enc != "" {
		return projectID + "?" + enc
	}
	return projectID
}
