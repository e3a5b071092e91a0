package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewSearchDataSource is the mintlify_search data source.
func NewSearchDataSource() datasource.DataSource {
	return &describedDataSource[searchModel, *searchModel]{}
}

type searchModel struct {
	Domain         types.String  `tfsdk:"domain"`
	Query          types.String  `tfsdk:"query"`
	PageSize       types.Number  `tfsdk:"page_size"`
	ScoreThreshold types.Float64 `tfsdk:"score_threshold"`
	Version        types.String  `tfsdk:"version"`
	Language       types.String  `tfsdk:"language"`
	Tag            types.String  `tfsdk:"tag"`
	Groups         types.List    `tfsdk:"groups"`
	Results        types.List    `tfsdk:"results"`
	Paths          types.List    `tfsdk:"paths"`
}

var (
	queryValidator = sdkRule{description: "must not be empty or only white space", check: sdk.ValidateQuery}
	groupValidator = sdkRule{description: "must not be empty or only white space", check: sdk.ValidateGroup}
)

// groupsAttribute is the groups a reader may see, on a protected site.
func groupsAttribute(what string) schema.ListAttribute {
	return schema.ListAttribute{
		MarkdownDescription: "Documentation groups the reader may see, on a site with authentication: " + what +
			" limited to pages these groups can view. Without them a protected site serves public pages only.",
		ElementType: types.StringType,
		Optional:    true,
		Validators:  []validator.List{listvalidator.NoNullValues(), listvalidator.ValueStringsAre(groupValidator)},
	}
}

func (*searchModel) typeName() string { return "_search" }

func (*searchModel) schema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Searches a documentation site as its readers do, best match first: for a `check` block " +
			"that asserts a page just deployed is found, or to feed page paths to other resources.\n\n" + discoveryNote,
		Attributes: map[string]schema.Attribute{
			"domain": domainAttribute(),
			"query": schema.StringAttribute{
				MarkdownDescription: "What to search for.",
				Required:            true,
				Validators:          []validator.String{queryValidator},
			},
			"page_size": schema.NumberAttribute{
				MarkdownDescription: fmt.Sprintf("How many results, 1 to %d. Default: the API's, 10.", sdk.MaxSearchPageSize),
				Optional:            true,
				Validators:          []validator.Number{wholeNumber{1, sdk.MaxSearchPageSize}},
			},
			"score_threshold": schema.Float64Attribute{
				MarkdownDescription: "Keep only results scored at or above this relevance, from 0 to 1.",
				Optional:            true,
				Validators:          []validator.Float64{scoreThresholdValidator{}},
			},
			"version":  schema.StringAttribute{MarkdownDescription: "Only results of this documentation version.", Optional: true},
			"language": schema.StringAttribute{MarkdownDescription: "Only results in this content language.", Optional: true},
			"tag":      schema.StringAttribute{MarkdownDescription: "Only results with this tag.", Optional: true},
			"groups":   groupsAttribute("results are"),
			"results": schema.ListNestedAttribute{
				MarkdownDescription: "The results, best first.",
				Computed:            true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"path":    computedString("The page's path, as `mintlify_page` takes it."),
					"content": computedString("The matching text."),
					"metadata": schema.MapAttribute{
						MarkdownDescription: "What the API adds about the result (its title, say): string values as they " +
							"are, other values as JSON (read them with `jsondecode`). Empty when it sent none.",
						ElementType: types.StringType,
						Computed:    true,
					},
				}},
			},
			"paths": schema.ListAttribute{
				MarkdownDescription: "The results' paths, best first: `contains(data.mintlify_search.x.paths, \"/quickstart\")`.",
				ElementType:         types.StringType,
				Computed:            true,
			},
		},
	}
}

func (m *searchModel) begin(ctx context.Context, data *providerData, req datasource.ReadRequest, resp *datasource.ReadResponse) (context.Context, bool) {
	return beginDiscoveryRead(ctx, data, req, resp, m, &m.Domain)
}

func (m *searchModel) read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool {
	q := sdk.SearchRequest{Query: m.Query.ValueString(), PageSize: numberValue(m.PageSize), ScoreThreshold: m.ScoreThreshold.ValueFloat64Pointer(),
		Filter: sdk.SearchFilter{Version: m.Version.ValueString(), Language: m.Language.ValueString(), Tag: m.Tag.ValueString(),
			Groups: stringsOfList(ctx, m.Groups, diags)}}
	if diags.HasError() {
		return false
	}
	res, err := data.discovery.Search(ctx, m.Domain.ValueString(), q)
	if err != nil {
		diags.AddError("Could not search "+m.Domain.ValueString(), discoveryErrorDetail(err,
			"The API knows no site "+m.Domain.ValueString()+", or it has no search index yet: check domain (the identifier at the end of the dashboard's URL)."))
		return false
	}
	if len(res.Problems) > 0 {
		diags.AddWarning("Unexpected answer from Mintlify",
			fmt.Sprintf("The search for %q had fields the provider could not use: %s. The results are kept; what could not be read is empty.",
				q.Query, problemList(res.Problems)))
	}
	m.applyResults(res)
	tflog.Debug(ctx, "searched", map[string]any{"domain": m.Domain.ValueString(), "results": len(res.Results), "requests": res.Attempts})
	return true
}

// searchResultRow is a result as the data source shows it: its metadata's
// values as strings.
type searchResultRow struct {
	*sdk.SearchResult
	Metadata map[string]string
}

// applyResults copies the results into the model, in the schema's types.
func (m *searchModel) applyResults(res *sdk.SearchResults) {
	rows := make([]searchResultRow, len(res.Results))
	for i := range res.Results {
		r := &res.Results[i]
		rows[i] = searchResultRow{r, r.MetadataText()}
	}
	attrs := m.schema().Attributes
	m.Results = flattenList(elemType(typeOf(attrs, "results")), rows)
	m.Paths = flattenList(elemType(typeOf(attrs, "paths")), res.Paths())
}

// scoreThresholdValidator applies sdk.ValidateScoreThreshold at plan.
type scoreThresholdValidator struct{}

func (scoreThresholdValidator) Description(context.Context) string { return "must be between 0 and 1" }

func (v scoreThresholdValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (scoreThresholdValidator) ValidateFloat64(_ context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := sdk.ValidateScoreThreshold(req.ConfigValue.ValueFloat64()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(),
			fmt.Sprintf("%s is %v; it must be between 0 and 1.", req.Path, req.ConfigValue.ValueFloat64()))
	}
}
