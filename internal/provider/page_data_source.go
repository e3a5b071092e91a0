package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewPageDataSource is the mintlify_page data source.
func NewPageDataSource() datasource.DataSource { return &describedDataSource[pageModel, *pageModel]{} }

type pageModel struct {
	Domain  types.String `tfsdk:"domain"`
	Path    types.String `tfsdk:"path"`
	Groups  types.List   `tfsdk:"groups"`
	Content types.String `tfsdk:"content"`
}

var pagePathValidator = sdkRule{description: "must not be empty or only white space", check: sdk.ValidatePagePath}

func (*pageModel) typeName() string { return "_page" }

func (*pageModel) schema() schema.Schema {
	return schema.Schema{
		MarkdownDescription: "The full text of one documentation page, by its path: for a `check` block that asserts a " +
			"page is live and says what it should. A page the site does not have fails the read (in a `check` block: " +
			"a warning, and the check fails).\n\n" + discoveryNote,
		Attributes: map[string]schema.Attribute{
			"domain": domainAttribute(),
			"path": schema.StringAttribute{
				MarkdownDescription: "The page's path, as `mintlify_search` gives it (`/quickstart`, `guides/deploy`).",
				Required:            true,
				Validators:          []validator.String{pagePathValidator},
			},
			"groups":  groupsAttribute("the page is served only when"),
			"content": computedString("The page's full text."),
		},
	}
}

func (m *pageModel) begin(ctx context.Context, data *providerData, req datasource.ReadRequest, resp *datasource.ReadResponse) (context.Context, bool) {
	return beginDiscoveryRead(ctx, data, req, resp, m, &m.Domain)
}

func (m *pageModel) read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool {
	groups := stringsOfList(ctx, m.Groups, diags)
	if diags.HasError() {
		return false
	}
	domain, path := m.Domain.ValueString(), m.Path.ValueString()
	page, err := data.discovery.Page(ctx, domain, path, groups)
	if err != nil {
		diags.AddError(fmt.Sprintf("Could not read page %s of %s", path, domain), discoveryErrorDetail(err,
			fmt.Sprintf("%s has no page %s (or no search index yet, or the page needs groups the configuration does not give): "+
				"check path and domain. A page just deployed can take a moment to be indexed.", domain, path)))
		return false
	}
	if len(page.Problems) > 0 {
		diags.AddWarning("Unexpected answer from Mintlify",
			fmt.Sprintf("The answer for page %s had fields the provider could not use: %s. The content is kept.", path, problemList(page.Problems)))
	}
	m.Content = types.StringValue(page.Content)
	tflog.Debug(ctx, "read page", map[string]any{"domain": domain, "path": path, "bytes": len(page.Content), "requests": page.Attempts})
	return true
}
