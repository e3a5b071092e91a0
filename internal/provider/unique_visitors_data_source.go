package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

var (
	_ datasource.DataSourceWithConfigure        = (*uniqueVisitorsDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*uniqueVisitorsDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*pageViewsDataSource)(nil)
)

// NewUniqueVisitorsDataSource is the mintlify_unique_visitors data source.
func NewUniqueVisitorsDataSource() datasource.DataSource { return &uniqueVisitorsDataSource{} }

// NewPageViewsDataSource is the mintlify_page_views data source.
func NewPageViewsDataSource() datasource.DataSource { return &pageViewsDataSource{} }

type uniqueVisitorsDataSource struct{ analyticsBase }

type pageViewsDataSource struct{ analyticsBase }

type uniqueVisitorsModel struct {
	analyticsQueryModel
	pagingModel
	Totals   types.Object `tfsdk:"totals"`
	Visitors types.List   `tfsdk:"visitors"`
}

type pageViewsModel struct {
	analyticsQueryModel
	pagingModel
	Totals types.Object `tfsdk:"totals"`
	Views  types.List   `tfsdk:"views"`
}

func (d *uniqueVisitorsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_unique_visitors"
}

func (d *pageViewsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_page_views"
}

// pathCountsSchema is the schema both data sources share: totals and one
// row per path, with words for what is counted.
func pathCountsSchema(description, list, unit string, total string) schema.Schema {
	return schema.Schema{
		MarkdownDescription: description + "\n\n" + budgetNote,
		Attributes: attributes(queryAttributes(), pagingAttributes(sdk.MaxPageSize, "paths"), map[string]schema.Attribute{
			"totals": schema.SingleNestedAttribute{
				MarkdownDescription: "Site-wide " + unit + " for the range.",
				Computed:            true,
				Attributes:          countAttributes("Human "+unit+".", "AI "+unit+" (agents, crawlers, assistants).", total),
			},
			list: schema.ListNestedAttribute{
				MarkdownDescription: "One row per page path, in the API's order (which the API does not document: sort it yourself if the order matters).",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"path":  computedString("The page path, such as `/quickstart`."),
					"human": computedInt("Human " + unit + " of the path."),
					"ai":    computedInt("AI " + unit + " of the path."),
					"total": computedInt("All " + unit + " of the path (see `totals.total`)."),
				}},
			},
		}),
	}
}

func (d *uniqueVisitorsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = pathCountsSchema("Unique visitors of a project's documentation: site-wide totals and one row per page "+
		"path, each split into human and AI traffic.", "visitors", "unique visitors",
		"Unique visitors, deduplicated across human and AI traffic: not necessarily `human + ai`.")
}

func (d *pageViewsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = pathCountsSchema("Page views of a project's documentation: content view events, site-wide and per "+
		"page path, split into human and AI traffic. Events, not visitors: one visitor reading a page twice counts twice.",
		"views", "view events", "All view events: `human + ai`.")
}

// visitorsQuery is the SDK query a paged path-counts data source asks for.
func visitorsQuery(q analyticsQueryModel, p pagingModel) sdk.VisitorsQuery {
	return sdk.VisitorsQuery{DateFrom: q.DateFrom.ValueString(), DateTo: q.DateTo.ValueString(),
		Limit: numberValue(p.PageSize), MaxResults: numberValue(p.MaxResults)}
}

func pathQueryID(q analyticsQueryModel, p pagingModel) string {
	return queryID(q.ProjectID.ValueString(), map[string]string{"date_from": q.DateFrom.ValueString(), "date_to": q.DateTo.ValueString(),
		"max_results": fmt.Sprint(numberValue(p.MaxResults))})
}

// readPathCounts reads a path-counts export page by page into totals and
// rows; what names it in messages.
func readPathCounts(ctx context.Context, resp *datasource.ReadResponse, what string, read pageReader[sdk.VisitorsQuery, sdk.PathCountsPage],
	m *analyticsQueryModel, p pagingModel) (types.Object, types.List, bool) {
	var rows []attr.Value
	var totals sdk.Counts
	ok := readEach(ctx, &resp.Diagnostics, what, read, m.ProjectID.ValueString(), visitorsQuery(*m, p), func(page *sdk.PathCountsPage) {
		if rows == nil {
			totals, rows = page.Totals, make([]attr.Value, 0, len(page.Paths))
		}
		for _, r := range page.Paths {
			rows = append(rows, pathRow(r.Path, r.Human, r.AI, r.Total))
		}
	})
	if !ok {
		return types.Object{}, types.List{}, false
	}
	m.ID = types.StringValue(pathQueryID(*m, p))
	return countsObject(totals.Human, totals.AI, totals.Total), listOf(pathRowType, rows), true
}

func (d *uniqueVisitorsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m uniqueVisitorsModel
	ctx, ok := d.begin(ctx, req, resp, &m, &m.analyticsQueryModel)
	if !ok {
		return
	}
	read := d.data.client.Analytics.Visitors.Each
	if d.data.pages != nil {
		read = d.data.pages.Visitors
	}
	if m.Totals, m.Visitors, ok = readPathCounts(ctx, resp, "unique visitors", read, &m.analyticsQueryModel, m.pagingModel); ok {
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	}
}

func (d *pageViewsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m pageViewsModel
	ctx, ok := d.begin(ctx, req, resp, &m, &m.analyticsQueryModel)
	if !ok {
		return
	}
	read := d.data.client.Analytics.Views.Each
	if d.data.pages != nil {
		read = d.data.pages.Views
	}
	if m.Totals, m.Views, ok = readPathCounts(ctx, resp, "page views", read, &m.analyticsQueryModel, m.pagingModel); ok {
		resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	}
}
