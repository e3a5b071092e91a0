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

// NewAssistantConversationsDataSource is the mintlify_assistant_conversations data source.
func NewAssistantConversationsDataSource() datasource.DataSource {
	return &assistantConversationsDataSource{}
}

// NewAssistantCallerStatsDataSource is the mintlify_assistant_caller_stats data source.
func NewAssistantCallerStatsDataSource() datasource.DataSource {
	return &assistantCallerStatsDataSource{}
}

type assistantConversationsDataSource = analyticsDataSource[assistantConversationsModel, *assistantConversationsModel]

type assistantCallerStatsDataSource = analyticsDataSource[assistantCallerStatsModel, *assistantCallerStatsModel]

type assistantConversationsModel struct {
	pagedQueryModel
	Conversations types.List `tfsdk:"conversations"`
}

type assistantCallerStatsModel struct {
	analyticsQueryModel
	Web   types.Int64 `tfsdk:"web"`
	API   types.Int64 `tfsdk:"api"`
	Other types.Int64 `tfsdk:"other"`
	Total types.Int64 `tfsdk:"total"`
}

func (*assistantConversationsModel) typeName() string { return "_assistant_conversations" }

func (*assistantCallerStatsModel) typeName() string { return "_assistant_caller_stats" }

func (*assistantConversationsModel) schema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Conversations with the documentation's AI assistant, newest first: each question, the " +
			"answer, the pages it cited and whether it was answered.\n\n" + budgetNote,
		Attributes: attributes(queryAttributes(), pagingAttributes(sdk.MaxConversationsPageSize, "conversations"), map[string]schema.Attribute{
			"conversations": schema.ListNestedAttribute{
				MarkdownDescription: "One row per conversation turn, in the API's order: newest first.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":            computedString("The conversation's id (a ULID), also its thread's id."),
					"timestamp":     computedString("When the reader's message was sent, as the API writes it."),
					"query":         computedString("The reader's question."),
					"response":      computedString("The assistant's answer, or its question back."),
					"response_type": computedString("`answer`, or `clarifying_question` when the assistant asked back."),
					"sources": schema.ListNestedAttribute{
						MarkdownDescription: "Documentation pages the answer cited.",
						Computed:            true,
						NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
							"title": computedString("The page's title."),
							"url":   computedString("The page's URL."),
						}},
					},
					"resolution_status": computedString("`answered`, or `unanswered` when the documentation did not cover the question."),
					"query_category":    computedString("The category the question was filed under; null when none."),
					"page_url":          computedString("The page the conversation started on; null when unknown."),
				}},
			},
		}),
	}
}

func (*assistantCallerStatsModel) schema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "How many questions the documentation's AI assistant received in the range, by where they " +
			"came from. One request per read.\n\n" + oneRequestBudgetNote,
		Attributes: attributes(queryAttributes(), map[string]schema.Attribute{
			"web":   computedInt("Questions asked on the documentation site."),
			"api":   computedInt("Questions sent through the API."),
			"other": computedInt("Questions from integrations, SDKs and other callers."),
			"total": computedInt("All questions."),
		}),
	}
}

func (m *assistantConversationsModel) read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool {
	q := sdk.ConversationsQuery{DateFrom: m.DateFrom.ValueString(), DateTo: m.DateTo.ValueString(),
		Limit: numberValue(m.PageSize), MaxResults: numberValue(m.MaxResults)}
	elem := elemType(typeOf(m.schema().Attributes, "conversations"))
	var rows []attr.Value
	if !readEach(ctx, data, diags, "assistant conversations", data.client.Analytics.Conversations.Each, m.ProjectID.ValueString(), q,
		func(p *sdk.ConversationsPage) {
			rows = appendFlat(rows, elem, p.Conversations)
		}) {
		return false
	}
	m.ID = types.StringValue(queryID(m.ProjectID.ValueString(), map[string]string{"date_from": q.DateFrom, "date_to": q.DateTo,
		"max_results": fmt.Sprint(q.MaxResults)}))
	m.Conversations = listOf(elem, rows)
	return true
}

func (m *assistantCallerStatsModel) read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool {
	r := sdk.DateRange{DateFrom: m.DateFrom.ValueString(), DateTo: m.DateTo.ValueString()}
	stats, err := data.client.Analytics.CallerStats(ctx, m.ProjectID.ValueString(), r)
	if !readEnded(ctx, data, diags, "assistant caller stats", err, func() sdk.CacheStatus { return stats.Cache }) {
		return false
	}
	m.ID = types.StringValue(queryID(m.ProjectID.ValueString(), map[string]string{"date_from": r.DateFrom, "date_to": r.DateTo}))
	m.Web, m.API, m.Other, m.Total = types.Int64Value(stats.Web), types.Int64Value(stats.API), types.Int64Value(stats.Other), types.Int64Value(stats.Total)
	return true
}
