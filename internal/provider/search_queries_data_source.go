package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewSearchQueriesDataSource is the mintlify_search_queries data source.
func NewSearchQueriesDataSource() datasource.DataSource { return &searchQueriesDataSource{} }

type searchQueriesDataSource = analyticsDataSource[searchQueriesModel, *searchQueriesModel]

type searchQueriesModel struct {
	pagedQueryModel
	TotalSearches types.Int64 `tfsdk:"total_searches"`
	Searches      types.List  `tfsdk:"searches"`
}

func (*searchQueriesModel) typeName() string { return "_search_queries" }

func (*searchQueriesModel) schema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "What readers searched the documentation for: one row per search term, most searched first, " +
			"with its click-through rate and the result clicked most.\n\n" + budgetNote,
		Attributes: attributes(queryAttributes(), pagingAttributes(sdk.MaxSearchesPageSize, "search terms"), map[string]schema.Attribute{
			"total_searches": computedInt("Search events in the range: the sum of every term's hits, not the number of distinct terms."),
			"searches": schema.ListNestedAttribute{
				MarkdownDescription: "One row per search term, in the API's order: most hits first.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"query":            computedString("The search term."),
					"hits":             computedInt("How many times it was searched in the range."),
					"ctr":              schema.Float64Attribute{MarkdownDescription: "Click-through rate of its results, from 0 to 1.", Computed: true},
					"top_clicked_page": computedString("The result path clicked most; null when no result was clicked."),
					"last_searched_at": computedString("When it was last searched, as the API writes it."),
				}},
			},
		}),
	}
}

func (m *searchQueriesModel) read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool {
	q := sdk.SearchesQuery{DateFrom: m.DateFrom.ValueString(), DateTo: m.DateTo.ValueString(),
		Limit: numberValue(m.PageSize), MaxResults: numberValue(m.MaxResults)}
	elem := elemType(typeOf(m.schema().Attributes, "searches"))
	var rows []attr.Value
	var total int64
	if !readEach(ctx, data, diags, "search queries", data.client.Analytics.Searches.Each, m.ProjectID.ValueString(), q,
		func(p *sdk.SearchesPage) {
			total = p.TotalSearches
			rows = appendFlat(rows, elem, p.Searches)
		}) {
		return false
	}
	m.ID = types.StringValue(queryID(m.ProjectID.ValueString(), map[string]string{"date_from": q.DateFrom, "date_to": q.DateTo,
		"max_results": fmt.Sprint(q.MaxResults)}))
	m.TotalSearches = types.Int64Value(total)
	m.Searches = listOf(elem, rows)
	return true
}
