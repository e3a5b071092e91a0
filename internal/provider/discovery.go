package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// What the discovery data sources (mintlify_search, mintlify_page) share:
// the assistant key's client, the default domain, and errors that point
// at the right key.

// domainRule is the SDK's rule for a domain identifier, in words.
const domainRule = "must be the domain identifier of domain.mintlify.site: 1 to 256 ASCII letters, digits and - _ . ~ :"

var siteDomainValidator = sdkRule{description: domainRule, check: sdk.ValidateDomain}

// discoveryNote ends the discovery data sources' descriptions.
var discoveryNote = "Needs the provider's `assistant_api_key` (an assistant key, `mint_dsc_...`), and works with it " +
	"alone. Search and page content cost no credits; the discovery API allows " + sdk.DiscoveryLimit.Of("requests") +
	". Terraform reads data sources on every `plan` and `apply`: written inside a `check` block, a failed read " +
	"or assertion is a warning that does not stop the run, which suits a smoke test after a deployment.\n\n" +
	"There is deliberately no data source for the assistant's answers: every assistant message costs credits, and a " +
	"data source would ask again on every plan. Use the Go SDK (`DiscoveryClient.Assistant`) for that."

// domainAttribute is the domain of a discovery data source.
func domainAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		MarkdownDescription: "Documentation site to read: the domain identifier of `domain.mintlify.site` (at the end " +
			"of the dashboard's URL). Defaults to the provider's `domain`.",
		Optional:   true,
		Computed:   true,
		Validators: []validator.String{siteDomainValidator},
	}
}

// beginDiscoveryRead begins a discovery data source's read: it reads the
// configuration into model and resolves the domain (*domain: the configured
// one, set to the one used). It returns false when the read must stop:
// the error is in resp.
func beginDiscoveryRead(ctx context.Context, data *providerData, req datasource.ReadRequest, resp *datasource.ReadResponse, model any, domain *types.String) (context.Context, bool) {
	if !readConfig(ctx, data, req, resp, model, requireDiscovery) {
		return ctx, false
	}
	if domain.IsNull() || domain.IsUnknown() {
		if data.domain == "" {
			resp.Diagnostics.AddAttributeError(path.Root("domain"), "Missing domain",
				"Set domain here, or on the provider (or the "+EnvDomain+" environment variable): the domain identifier of domain.mintlify.site.")
			return ctx, false
		}
		*domain = types.StringValue(data.domain)
	}
	return data.logContext(ctx), true
}

// requireDiscovery reports whether the provider can read the discovery
// API, and says why not.
func requireDiscovery(data *providerData, diags *diag.Diagnostics) bool {
	if data == nil {
		diags.AddError("Provider not configured",
			"The Mintlify provider's settings (assistant_api_key, base_url, domain) are not known yet: they come from a resource not applied yet. Apply that resource first, for example with terraform apply -target=<its address>, then apply everything.")
		return false
	}
	if data.discovery == nil {
		diags.AddError("Missing Mintlify assistant API key",
			"mintlify_search and mintlify_page read the discovery API, which takes an assistant API key (mint_dsc_...), "+
				"not the admin key: set assistant_api_key in the provider block or the "+EnvAssistantAPIKey+" environment "+
				"variable to one from the API keys page of the Mintlify dashboard.")
		return false
	}
	return true
}

// discoveryErrorDetail is an SDK error's text with advice for the
// discovery API's refusals (notFound: the advice for a 404), or the
// network advice every error shares, then, as every error with advice,
// the Troubleshooting guide.
func discoveryErrorDetail(err error, notFound string) string {
	detail := err.Error()
	var apiErr *sdk.APIError
	advice := ""
	switch {
	case !errors.As(err, &apiErr):
		advice = adviceFor(err, notFound) // a proxy, a CA, an address: as for the admin API
	case sdk.IsUnauthorized(err):
		advice = "The assistant API key was refused: check assistant_api_key (or " + EnvAssistantAPIKey + ") holds a current assistant key (mint_dsc_...) of the organization that owns the site."
	case sdk.IsForbidden(err):
		advice = "The key may not read this site: check domain, or this machine's IP address is not on the key's allow list."
	case sdk.IsNotFound(err):
		advice = notFound
	case sdk.IsRateLimited(err):
		advice = "The discovery API rate-limited this request (" + sdk.DiscoveryLimit.Of("requests") + "); until the " +
			"time it gave, no other search or page read of this run is sent."
		if apiErr.NotSent {
			advice = "This request was not sent: the discovery API refused an earlier one of this run with a rate limit " +
				"(" + sdk.DiscoveryLimit.Of("requests") + "), and no search or page read is sent until the time it gave."
		}
		advice += tryAgainAfter(apiErr)
	}
	if advice == "" {
		return detail
	}
	return detail + "\n\n" + advice + "\n\n" + seeTroubleshooting
}

// stringsOfList reads a list of strings attribute (nil when null).
func stringsOfList(ctx context.Context, l types.List, diags *diag.Diagnostics) []string {
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	var out []string
	diags.Append(l.ElementsAs(ctx, &out, false)...)
	return out
}
