package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewFeedbackDataSource is the mintlify_feedback data source.
func NewFeedbackDataSource() datasource.DataSource { return &feedbackDataSource{} }

// NewFeedbackByPageDataSource is the mintlify_feedback_by_page data source.
func NewFeedbackByPageDataSource() datasource.DataSource { return &feedbackByPageDataSource{} }

type feedbackDataSource = analyticsDataSource[feedbackModel, *feedbackModel]

type feedbackByPageDataSource = analyticsDataSource[feedbackByPageModel, *feedbackByPageModel]

// feedbackFilterModel holds the filters both feedback data sources take.
type feedbackFilterModel struct {
	Source   types.String `tfsdk:"source"`
	Statuses types.List   `tfsdk:"statuses"`
}

type feedbackModel struct {
	pagedQueryModel
	feedbackFilterModel
	Feedback types.List `tfsdk:"feedback"`
}

type feedbackByPageModel struct {
	analyticsQueryModel
	feedbackFilterModel
	MaxResults types.Number `tfsdk:"max_results"`
	Pages      types.List   `tfsdk:"pages"`
	HasMore    types.Bool   `tfsdk:"has_more"`
}

var (
	sourceValidator = sdkRule{description: "must be one of " + joinValues(sdk.FeedbackSources),
		check: func(s string) error { return sdk.ValidateFeedbackSource(sdk.FeedbackSource(s)) }}
	statusValidator = sdkRule{description: "must be one of " + joinValues(sdk.FeedbackStatuses),
		check: func(s string) error { return sdk.ValidateFeedbackStatus(sdk.FeedbackStatus(s)) }}
)

func joinValues[T ~string](values []T) string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = "`" + string(v) + "`"
	}
	return strings.Join(out, ", ")
}

func filterAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"source": schema.StringAttribute{
			MarkdownDescription: "Keep only feedback from one source: " + joinValues(sdk.FeedbackSources) + " (`contextual` is " +
				"page-level feedback, `code_snippet` feedback on a code block, `agent` from a third-party AI agent, " +
				"`thumbs_only` a thumbs up or down). Default: every source.",
			Optional:   true,
			Validators: []validator.String{sourceValidator},
		},
		"statuses": schema.ListAttribute{
			MarkdownDescription: "Keep only feedback in one of these review statuses: " + joinValues(sdk.FeedbackStatuses) + ". Default: every status.",
			ElementType:         types.StringType,
			Optional:            true,
			Validators:          []validator.List{listvalidator.SizeAtLeast(1), listvalidator.NoNullValues(), listvalidator.ValueStringsAre(statusValidator)},
		},
	}
}

// filter reads the filters in the SDK's terms.
func (f feedbackFilterModel) filter(ctx context.Context, diags *diag.Diagnostics) (sdk.FeedbackSource, []sdk.FeedbackStatus) {
	var statuses []sdk.FeedbackStatus
	if !f.Statuses.IsNull() {
		diags.Append(f.Statuses.ElementsAs(ctx, &statuses, false)...)
	}
	return sdk.FeedbackSource(f.Source.ValueString()), statuses
}

func (f feedbackFilterModel) params(statuses []sdk.FeedbackStatus) map[string]string {
	names := make([]string, len(statuses))
	for i, s := range statuses {
		names[i] = string(s)
	}
	return map[string]string{"source": f.Source.ValueString(), "statuses": strings.Join(names, ",")}
}

func (*feedbackModel) typeName() string { return "_feedback" }

func (*feedbackByPageModel) typeName() string { return "_feedback_by_page" }

func (*feedbackModel) schema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Feedback readers left on the documentation, newest first as the API orders it. Entries " +
			"have three shapes by `source`: every field of every shape is here, null where an entry's shape lacks it.\n\n" + budgetNote,
		Attributes: attributes(queryAttributes(), pagingAttributes(sdk.MaxFeedbackPageSize, "entries"), filterAttributes(), map[string]schema.Attribute{
			"feedback": schema.ListNestedAttribute{
				MarkdownDescription: "One entry per piece of feedback, in the API's order.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":         computedString("The feedback's id."),
					"path":       computedString("The page (path or URL) it is about."),
					"comment":    computedString("What the reader wrote; null when nothing."),
					"created_at": computedString("When it was submitted, as the API writes it; null when unknown."),
					"source":     computedString("`contextual`, `code_snippet`, `agent` or `thumbs_only`."),
					"status":     computedString("Review status: `pending`, `in_progress`, `resolved` or `dismissed`."),
					"helpful":    schema.BoolAttribute{MarkdownDescription: "Whether the page helped (`contextual` feedback only; null otherwise).", Computed: true},
					"contact":    computedString("E-mail address left for follow-up (`contextual` feedback only); null when none."),
					"code":       computedString("The code block the feedback is about (`code_snippet` feedback only)."),
					"filename":   computedString("The code block's file name (`code_snippet` feedback only); null when unknown."),
					"lang":       computedString("The code block's language (`code_snippet` feedback only); null when unknown."),
				}},
			},
		}),
	}
}

func (*feedbackByPageModel) schema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Feedback counts per documentation page: thumbs up and down (page-level feedback), " +
			"code-snippet feedback and all feedback, most feedback first as the API orders them.\n\n" +
			"The API lists at most " + strconv.Itoa(sdk.MaxFeedbackByPageSize) + " pages per request and has no paging for this export: a read is always one " +
			"request. When more pages have feedback than it listed, `has_more` is true (with a warning when the " +
			"API, not `max_results`, cut the list).\n\n" + oneRequestBudgetNote,
		Attributes: attributes(queryAttributes(), filterAttributes(), map[string]schema.Attribute{
			"max_results": schema.NumberAttribute{
				MarkdownDescription: fmt.Sprintf("How many pages to list, 1 to %d. Default %d.", sdk.MaxFeedbackByPageSize, sdk.MaxFeedbackByPageSize),
				Optional:            true,
				Validators:          []validator.Number{wholeNumber{1, sdk.MaxFeedbackByPageSize}},
			},
			"has_more": schema.BoolAttribute{MarkdownDescription: "Whether more pages had feedback than `pages` lists.", Computed: true},
			"pages": schema.ListNestedAttribute{
				MarkdownDescription: "One row per page, in the API's order: most feedback first.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"path":        computedString("The page path."),
					"thumbs_up":   computedInt("Page-level (`contextual`) feedback that found the page helpful."),
					"thumbs_down": computedInt("Page-level (`contextual`) feedback that did not."),
					"code":        computedInt("Feedback on the page's code blocks."),
					"total":       computedInt("All feedback on the page."),
				}},
			},
		}),
	}
}

func (m *feedbackModel) read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool {
	source, statuses := m.filter(ctx, diags)
	if diags.HasError() {
		return false // a filter that cannot be read must not become a read of everything
	}
	q := sdk.FeedbackQuery{DateFrom: m.DateFrom.ValueString(), DateTo: m.DateTo.ValueString(), Source: source, Statuses: statuses,
		Limit: numberValue(m.PageSize), MaxResults: numberValue(m.MaxResults)}
	elem := elemType(typeOf(m.schema().Attributes, "feedback"))
	var rows []attr.Value
	if !readEach(ctx, data, diags, "feedback", data.client.Analytics.Feedback.Each, m.ProjectID.ValueString(), q,
		func(p *sdk.FeedbackPage) {
			rows = appendFlat(rows, elem, p.Feedback)
		}) {
		return false
	}
	params := m.params(statuses)
	params["date_from"], params["date_to"], params["max_results"] = q.DateFrom, q.DateTo, fmt.Sprint(q.MaxResults)
	m.ID = types.StringValue(queryID(m.ProjectID.ValueString(), params))
	m.Feedback = listOf(elem, rows)
	return true
}

func (m *feedbackByPageModel) read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool {
	source, statuses := m.filter(ctx, diags)
	if diags.HasError() {
		return false // a filter that cannot be read must not become a read of everything
	}
	q := sdk.FeedbackByPageQuery{DateFrom: m.DateFrom.ValueString(), DateTo: m.DateTo.ValueString(), Source: source, Statuses: statuses,
		Limit: numberValue(m.MaxResults)}
	got, err := data.client.Analytics.FeedbackByPage(ctx, m.ProjectID.ValueString(), q)
	if !readEnded(ctx, data, diags, "feedback by page", err, func() sdk.CacheStatus { return got.Cache }) {
		return false
	}
	if got.HasMore && q.Limit == 0 {
		diags.AddWarning("More pages have feedback than the API lists",
			fmt.Sprintf("The Mintlify API lists at most %d pages per request and cannot page past them: pages holds the %d with the most feedback. Narrow the date range or filter by source or status to see the rest.",
				sdk.MaxFeedbackByPageSize, len(got.Pages)))
	}
	params := m.params(statuses)
	params["date_from"], params["date_to"], params["max_results"] = q.DateFrom, q.DateTo, fmt.Sprint(q.Limit)
	m.ID = types.StringValue(queryID(m.ProjectID.ValueString(), params))
	m.Pages = flattenList(elemType(typeOf(m.schema().Attributes, "pages")), got.Pages)
	m.HasMore = types.BoolValue(got.HasMore)
	return true
}
