package provider

import (
	"errors"
	"net/http"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// addAPIError turns an SDK error into a diagnostic that says what to do
// next. The SDK never puts the key in an error, so the text is safe to show.
func addAPIError(diags *diag.Diagnostics, summary string, err error) {
	diags.AddError(summary, apiErrorDetail(err))
}

// projectNotFound is the advice for a 404 of a request about a project.
const projectNotFound = "Check project_id (or " + EnvProjectID + "): the project must exist and belong to the key's organization."

// apiErrorDetail is the error's text with advice for the API's refusals.
func apiErrorDetail(err error) string { return apiErrorDetailFor(err, projectNotFound) }

// apiErrorDetailFor is apiErrorDetail with the advice for a 404 given:
// what was not found depends on the request.
func apiErrorDetailFor(err error, notFound string) string {
	detail := err.Error()
	var apiErr *sdk.APIError
	if errors.As(err, &apiErr) {
		switch apiErr.StatusCode {
		case http.StatusUnauthorized:
			detail += "\n\nThe API key was refused: check api_key (or " + EnvAPIKey + ") holds a current admin API key from the Mintlify dashboard."
		case http.StatusForbidden:
			detail += "\n\nThe key lacks permission: it may be read-only (reads only), or this machine's IP address is not on the key's allow list, or the feature (previews, say) is not on the organization's plan."
		case http.StatusNotFound:
			detail += "\n\n" + notFound
		case http.StatusTooManyRequests:
			detail += "\n\nThe Mintlify API rate-limited this request (agent jobs: 100 per project per hour; analytics: 100 per organization per hour; deployments and automation runs: 10 per 10 seconds per organization; previews: 5 per minute per organization)."
			if !apiErr.RetryAt.IsZero() {
				detail += " Try again after " + apiErr.RetryAt.UTC().Format("2006-01-02 15:04:05 MST") + "."
			}
		}
	}
	return detail
}

// addReadError is addAPIError for a data source's read ("Could not read
// "+what). A rate limit with no cached copy to stand in fails every plan
// that reads the data source until the budget frees up: the error also
// says how to change or destroy resources meanwhile.
func addReadError(diags *diag.Diagnostics, what string, err error) {
	detail := apiErrorDetail(err)
	if sdk.IsRateLimited(err) {
		detail += "\n\n" + rateLimitedReadAdvice
	}
	diags.AddError("Could not read "+what, detail)
}

// rateLimitedReadAdvice is what a rate-limited data-source read adds.
const rateLimitedReadAdvice = "Until then, every plan that reads this data source fails. To change resources meanwhile, " +
	"apply with -target=ADDRESS for each resource that does not depend on it; `terraform destroy -refresh=false` " +
	"destroys without reading data sources. To read it less often, raise cache_ttl, or move dashboards into their " +
	"own root module."
