package provider

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"

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
	return withAdviceFor(err, "", notFound)
}

// withAdvice is the error's text, then the advice for it and more, then
// where all of it is explained at length. An error without advice is its
// text alone.
func withAdvice(err error, more string) string { return withAdviceFor(err, more, projectNotFound) }

// withAdviceFor is withAdvice with the advice for a 404 given.
func withAdviceFor(err error, more, notFound string) string {
	detail := err.Error()
	advice := adviceFor(err, notFound)
	if advice == "" {
		return detail
	}
	if more != "" {
		advice += "\n\n" + more
	}
	return detail + "\n\n" + advice + "\n\n" + seeTroubleshooting
}

// adviceFor says what to do about an error: the key, its permissions, the
// project or the rate limits when the API refused; the proxy or the
// certificates when it could not be reached. "" when there is nothing to say.
func adviceFor(err error, notFound string) string {
	var (
		apiErr    *sdk.APIError
		unknownCA x509.UnknownAuthorityError
		opErr     *net.OpError
		dnsErr    *net.DNSError
	)
	switch {
	case errors.As(err, &unknownCA):
		return "The API's TLS certificate is signed by an authority this machine does not trust. Behind a proxy that " +
			"inspects TLS, trust that proxy's CA: on Linux, SSL_CERT_FILE (a PEM file) or SSL_CERT_DIR; on macOS and " +
			"Windows, the system's certificate store."
	case errors.As(err, &opErr) && opErr.Op == "proxyconnect":
		return "The proxy could not be reached: check HTTPS_PROXY (or HTTP_PROXY for an http base_url), and NO_PROXY " +
			"for hosts to reach directly."
	case errors.As(err, &dnsErr) || (errors.As(err, &opErr) && opErr.Op == "dial"):
		return "The API could not be reached: check base_url (or " + EnvBaseURL + ") and the network. Where this " +
			"machine reaches the internet only through a proxy, set HTTPS_PROXY in the environment of terraform."
	case !errors.As(err, &apiErr):
		return ""
	case sdk.IsUnauthorized(err):
		return "The API key was refused: check api_key (or " + EnvAPIKey + ") holds a current admin API key from the Mintlify dashboard."
	case sdk.IsForbidden(err):
		return "The key lacks permission: it may be read-only (reads only), or this machine's IP address is not on the key's allow list, or the feature (previews, static exports, say) is not on the organization's plan."
	case sdk.IsNotFound(err):
		return notFound
	case sdk.IsRateLimited(err):
		advice := "The Mintlify API rate-limited this request (agent jobs: " + sdk.AgentJobLimit.String() + "; analytics: " +
			sdk.AnalyticsLimit.String() + "; deployments and automation runs: " + sdk.DeploymentLimit.String() + "; previews: " +
			sdk.PreviewLimit.String() + ")."
		if apiErr.NotSent {
			// Only analytics reads are held back: the API refused an earlier
			// one, here or on a machine sharing the cache.
			advice = "This request was not sent: the API refused an earlier analytics request (" + sdk.AnalyticsLimit.String() +
				", shared by every analytics endpoint and every runner), from this run or from another one " +
				"sharing the cache, and nothing more is sent on that budget until the time it gave."
		}
		return advice + tryAgainAfter(apiErr)
	}
	return ""
}

// tryAgainAfter ends a rate limit's advice with when it frees up, when
// the API said.
func tryAgainAfter(apiErr *sdk.APIError) string {
	if apiErr.RetryAt.IsZero() {
		return ""
	}
	return " Try again after " + apiErr.RetryAt.UTC().Format("2006-01-02 15:04:05 MST") + "."
}

// ruleOf is the rule an SDK check says a value broke ("may hold only
// ..."), or its whole error.
func ruleOf(err error) string {
	var ve *sdk.ValidationError
	if errors.As(err, &ve) {
		return ve.Rule
	}
	return err.Error()
}

// seeTroubleshooting ends every error that gives advice: the guide explains
// keys, proxies, certificates and rate limits at length.
const seeTroubleshooting = "See the Troubleshooting guide: https://registry.terraform.io/providers/mintlify/mintlify/latest/docs/guides/troubleshooting"

// addReadError is addAPIError for a data source's read ("Could not read
// "+what). A rate limit with no cached copy to stand in fails every plan
// that reads the data source until the budget frees up: the error also
// says how to change or destroy resources meanwhile.
func addReadError(diags *diag.Diagnostics, what string, err error) {
	more := ""
	if sdk.IsRateLimited(err) {
		more = rateLimitedReadAdvice
	}
	diags.AddError("Could not read "+what, withAdvice(err, more))
}

// rateLimitedReadAdvice is what a rate-limited data-source read adds.
const rateLimitedReadAdvice = "Until then, every plan that reads this data source fails. To change resources meanwhile, " +
	"apply with -target=ADDRESS for each resource that does not depend on it; `terraform destroy -refresh=false` " +
	"destroys without reading data sources. To read it less often, raise cache_ttl, or move dashboards into their " +
	"own root module."

// Server text (what an answer says: a status, a summary, log lines, a
// title, an id not yet checked) is shown to a person only through
// sdk.DisplayLine or sdk.DisplayText: escaped, so that it cannot act on a
// terminal, and clipped, so that a diagnostic stays bounded whatever the
// server sends. Data sources and state keep the full value.

// quoted is server text quoted inside a sentence.
func quoted(s string) string { return `"` + sdk.DisplayLine(s) + `"` }

// maxProblemsShown bounds how many of an answer's odd fields one warning
// names: the rest are counted.
const maxProblemsShown = 10

// problemList names the odd fields of answers in one run of text, at most
// maxProblemsShown of them, each through shownProblem.
func problemList(problems []string) string {
	shown := make([]string, 0, min(len(problems), maxProblemsShown)+1)
	for i, p := range problems {
		if i == maxProblemsShown {
			shown = append(shown, fmt.Sprintf("and %d more", len(problems)-maxProblemsShown))
			break
		}
		shown = append(shown, shownProblem(p))
	}
	return strings.Join(shown, "; ")
}

// maxProblemRunes bounds one odd field as a warning names it.
const maxProblemRunes = 1000

// problemPiece is how many runes of a problem sdk.DisplayLine escapes at
// a time: escaped, each takes at most 10 runes (\U0010ffff), so a piece
// is never clipped.
const problemPiece = sdk.MaxDisplayLine / 10

// shownProblem is one odd field of an answer, escaped by sdk.DisplayLine
// piece by piece and clipped at maxProblemRunes. A problem is the SDK's
// sentence about an answer (a request's path, two ids, the server's
// value quoted): longer than a quoted value, so not cut at one line's
// length, but bounded all the same.
func shownProblem(p string) string {
	var b strings.Builder
	runes, start := 0, 0
	for i := range p {
		if runes == maxProblemRunes {
			return b.String() + sdk.DisplayLine(p[start:i]) + "…"
		}
		if runes%problemPiece == 0 && i > start {
			b.WriteString(sdk.DisplayLine(p[start:i]))
			start = i
		}
		runes++
	}
	return b.String() + sdk.DisplayLine(p[start:])
}
