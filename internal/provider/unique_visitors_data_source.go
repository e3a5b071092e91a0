package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewUniqueVisitorsDataSource is the mintlify_unique_visitors data source.
func NewUniqueVisitorsDataSource() datasource.DataSource { return &uniqueVisitorsDataSource{} }

// NewPageViewsDataSource is the mintlify_page_views data source.
func NewPageViewsDataSource() datasource.DataSource { return &pageViewsDataSource{} }

type uniqueVisitorsDataSource = analyticsDataSource[uniqueVisitorsModel, *uniqueVisitorsModel]

type pageViewsDataSource = analyticsDataSource[pageViewsModel, *pageViewsModel]

// pathCountsModel holds what both path-counts models have: all but the
// rows, whose attribute each names its own way.
type pathCountsModel struct {
	pagedQueryModel
	Totals types.Object `tfsdk:"totals"`
}

type uniqueVisitorsModel struct {
	pathCountsModel
	Visitors types.List `tfsdk:"visitors"`
}

type pageViewsModel struct {
	pathCountsModel
	Views types.List `tfsdk:"views"`
}

func (*uniqueVisitorsModel) typeName() string { return "_unique_visitors" }

func (*pageViewsModel) typeName() string { return "_page_views" }

// pathCountsSchema is the schema both data sources share: totals and one
// row per path, with words for what is counted.
func pathCountsSchema(description, list, unit string, total string) schema.Schema {
	return schema.Schema{
		MarkdownDescription: description + "\n\n" + budgetNote,
		Attributes: attributes(queryAttributes(), pagingAttributes(sdk.MaxPageSize, "paths"), map[string]schema.Attribute{
			"max_results": schema.NumberAttribute{
				MarkdownDescription: "Read at most this many paths (the first ones, in the API's order), and no more " +
					"requests than they need. Default: all of them. **`0` reads the totals only**: one request whatever " +
					"the site's size (the API's smallest page, whose row is dropped), `" + list + "` an empty list, and " +
					"a state under 1 KB whatever the site's size (a full read of 100,000 paths puts megabytes in state; " +
					"see the measured sizes in the repository's docs/performance.md).",
				Optional:   true,
				Validators: []validator.Number{wholeNumber{0, 0}},
			},
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

func (*uniqueVisitorsModel) schema() schema.Schema {
	return pathCountsSchema("Unique visitors of a project's documentation: site-wide totals and one row per page "+
		"path, each split into human and AI traffic.", "visitors", "unique visitors",
		"Unique visitors, deduplicated across human and AI traffic: not necessarily `human + ai`.")
}

func (*pageViewsModel) schema() schema.Schema {
	return pathCountsSchema("Page views of a project's documentation: content view events, site-wide and per "+
		"page path, split into human and AI traffic. Events, not visitors: one visitor reading a page twice counts twice.",
		"views", "view events", "All view events: `human + ai`.")
}

// totalsOnly reports whether a path-counts data source reads its totals
// only (max_results = 0).
func totalsOnly(p pagingModel) bool { return !p.MaxResults.IsNull() && numberValue(p.MaxResults) == 0 }

// visitorsQuery is the SDK query a paged path-counts data source asks for.
// Totals only are one row of the smallest page: every page carries the
// totals, and the row is dropped.
func visitorsQuery(q pagedQueryModel) sdk.VisitorsQuery {
	if totalsOnly(q.pagingModel) {
		return sdk.VisitorsQuery{DateFrom: q.DateFrom.ValueString(), DateTo: q.DateTo.ValueString(), Limit: 1, MaxResults: 1}
	}
	return sdk.VisitorsQuery{DateFrom: q.DateFrom.ValueString(), DateTo: q.DateTo.ValueString(),
		Limit: numberValue(q.PageSize), MaxResults: numberValue(q.MaxResults)}
}

func pathQueryID(q pagedQueryModel) string {
	maxResults := fmt.Sprint(numberValue(q.MaxResults))
	if totalsOnly(q.pagingModel) {
		maxResults = "totals" // queryID leaves "0" out: it would read as no cap
	}
	return queryID(q.ProjectID.ValueString(), map[string]string{"date_from": q.DateFrom.ValueString(), "date_to": q.DateTo.ValueString(),
		"max_results": maxResults})
}

// readPathCounts reads a path-counts export page by page into m and *list
// (the rows, attribute listName of schema s); what names it in messages.
func readPathCounts(ctx context.Context, data *providerData, diags *diag.Diagnostics, what string, read pageReader[sdk.VisitorsQuery, sdk.PathCountsPage],
	m *pathCountsModel, s schema.Schema, listName string, list *types.List) bool {
	elem := elemType(typeOf(s.Attributes, listName))
	var rows []attr.Value
	var counts sdk.Counts
	only := totalsOnly(m.pagingModel)
	ok := readEach(ctx, data, diags, what, read, m.ProjectID.ValueString(), visitorsQuery(m.pagedQueryModel), func(page *sdk.PathCountsPage) {
		if rows == nil {
			counts, rows = page.Totals, make([]attr.Value, 0, len(page.Paths))
		}
		if !only {
			rows = appendFlat(rows, elem, page.Paths)
		}
	})
	if !ok {
		return false
	}
	m.ID = types.StringValue(pathQueryID(m.pagedQueryModel))
	m.Totals, *list = flattenObject(typeOf(s.Attributes, "totals"), counts), listOf(elem, rows)
	return true
}

func (m *uniqueVisitorsModel) read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool {
	return readPathCounts(ctx, data, diags, "unique visitors", visitorsPages(data), &m.pathCountsModel, m.schema(), "visitors", &m.Visitors)
}

func (m *pageViewsModel) read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool {
	return readPathCounts(ctx, data, diags, "page views", viewsPages(data), &m.pathCountsModel, m.schema(), "views", &m.Views)
}
