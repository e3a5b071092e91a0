package provider

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// What the static export resource, action and ephemeral resource share.

// staticExportKind is what the runner (work) knows of static exports.
var staticExportKind = workKind[sdk.StaticExport]{
	noun:     "static export",
	id:       func(e *sdk.StaticExport) string { return e.ID },
	validID:  sdk.ValidateStaticExportID,
	status:   func(e *sdk.StaticExport) string { return string(e.Status) },
	known:    func(s string) bool { return sdk.StaticExportStatus(s).Known() },
	problems: func(e *sdk.StaticExport) []string { return e.Problems },
	outcome: func(e *sdk.StaticExport, words workWords, diags *diag.Diagnostics) {
		if e.Status == sdk.StaticExportStatusFailed {
			diags.AddError("Static export failed",
				fmt.Sprintf("Static export %s ended with status \"failed\": %s. %s", sdk.DisplayLine(e.ID), exportFailure(e), words.failed))
		}
	},
}

// exportFailure is the API's reason for a failed export, in a sentence:
// server text, escaped and clipped.
func exportFailure(e *sdk.StaticExport) string {
	if e.Error == nil || strings.TrimSpace(*e.Error) == "" {
		return "the API gave no reason"
	}
	return strings.TrimSuffix(sdk.DisplayLine(*e.Error), ".")
}

// exportWork is a run of a static export: the wait is the SDK's.
func exportWork(data *providerData, req sdk.StaticExportRequest) work[sdk.StaticExport] {
	return work[sdk.StaticExport]{
		data: data,
		kind: staticExportKind,
		start: func(ctx context.Context) (*sdk.StaticExport, error) {
			return data.client.StaticExports.Start(ctx, req)
		},
		wait: func(ctx context.Context, e *sdk.StaticExport, opts ...sdk.WaitOption) (*sdk.StaticExport, error) {
			return data.client.StaticExports.Wait(ctx, e.ID, opts...)
		},
	}
}

// describeExport says where an export stands: "running, 42% (128 pages)".
func describeExport(e *sdk.StaticExport) string {
	s := describeStatus(string(e.Status))
	if e.Status == sdk.StaticExportStatusRunning || e.Progress > 0 && e.Status != sdk.StaticExportStatusCompleted {
		s += ", " + percent(e.Progress)
	}
	return s + " (" + pages(e.PageCount) + ")"
}

func percent(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) + "%" }

func pages(n int64) string {
	if n == 1 {
		return "1 page"
	}
	return strconv.FormatInt(n, 10) + " pages"
}

// exportInput is what an export is asked for, in the resource and the
// action alike: the attributes exportInputDescriptions describes.
type exportInput struct {
	Domain  types.String `tfsdk:"domain"`
	Version types.String `tfsdk:"version"`
	Paths   types.Set    `tfsdk:"paths"`
}

// request is the export the configuration asks for; false when the paths
// could not be read (the reason is in diags).
func (in exportInput) request(ctx context.Context, diags *diag.Diagnostics) (sdk.StaticExportRequest, bool) {
	req := sdk.StaticExportRequest{Domain: in.Domain.ValueString(), Version: in.Version.ValueString()}
	if !in.Paths.IsNull() {
		diags.Append(in.Paths.ElementsAs(ctx, &req.Paths, false)...)
	}
	return req, !diags.HasError()
}

// What the resource and the action say of an export's outcomes.
const (
	exportForbidden = "Static export is an Enterprise feature: the API answers 403 until it is enabled for the " +
		"organization (ask Mintlify to enable it), and it needs an admin key that may start work, not a read-only one."
	exportStartNotFound = "The API at base_url (or " + EnvBaseURL + ") does not serve static exports: check the address."
	exportNotFound      = "Check the job id: it must be a static export of the key's organization (the id the API " +
		"returned when the export started, such as se_3f9a2c1b8e7d4a06)."
)

var (
	exportCreateWords = workWords{
		startFailed: "Could not start the static export",
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the export may have started. " +
			"The API cannot list static exports: if you learn its job id (from Mintlify), import it " +
			"(terraform import ADDRESS JOB_ID) instead of starting another.",
		kept: func(id string) string {
			return "Static export " + id + " was started and is saved in state (tainted, so the next apply starts a new " +
				"export; run `terraform untaint` to keep this one instead)."
		},
		unknownOutcome: func(id string) string {
			return "Static export " + id + " was started and is saved in state, not tainted: " + outcomeUnknown +
				" no new export starts by itself."
		},
		failed:         "It stays in state, tainted: the next apply starts a new export.",
		notFound:       exportStartNotFound,
		forbidden:      exportForbidden,
		timeoutSetting: "timeouts.create",
		raiseTimeout:   resourceTimeoutExample,
	}
	exportActionWords = actionWords(workWords{
		startFailed: "Could not start the static export",
		mayHaveTakenEffect: "The request may have reached Mintlify before it failed, so the export may have started: " +
			"invoking the action again starts another.",
		kept: func(id string) string {
			return "Static export " + id + " goes on at Mintlify: an action keeps no state; its bundle can be fetched later " +
				"with the mintlify_static_export_bundle ephemeral resource."
		},
		failed:    "Invoke the action again to start a new export.",
		notFound:  exportStartNotFound,
		forbidden: exportForbidden,
	})
)

// Plan-time rules of an export's inputs: the SDK's own.
var (
	domainValidator = sdkRule{
		description: "must be a bare hostname such as docs.example.com or acme.mintlify.app: no scheme, port, path or trailing slash",
		check:       sdk.ValidateStaticExportDomain,
	}
	exportVersionValidator = sdkRule{
		description: "must not be empty or only white space, and must hold no control character",
		check: func(s string) error {
			if s == "" { // the SDK reads "" as "not set"; in configuration, leave it out
				return &sdk.ValidationError{Field: "version", Rule: "must not be empty: leave it out to export the latest published version"}
			}
			return sdk.ValidateStaticExportVersion(s)
		},
	}
	exportIDValidator = idValidator(sdk.ValidateStaticExportID)
)

// pathsValidators are the plan-time rules of paths: no null element,
// each a page path.
var pathsValidators = []validator.Set{setvalidator.NoNullValues(), pathsValidator{}}

// pathsValidator checks paths at plan with the SDK's rule for each page
// path, and refuses an empty set (leave paths out to export every page).
type pathsValidator struct{}

var _ validator.Set = pathsValidator{}

func (pathsValidator) Description(context.Context) string {
	return "each a page path such as guides/getting-started (no leading or trailing slash, query or fragment); at least one"
}

func (v pathsValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (pathsValidator) ValidateSet(_ context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	elems := req.ConfigValue.Elements()
	if len(elems) == 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(),
			req.Path.String()+" is empty: list at least one page path, or leave paths out to export every published page.")
		return
	}
	for _, e := range elems {
		s, ok := e.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		if err := sdk.ValidateStaticExportPath(s.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(),
				fmt.Sprintf("%s holds %q, which %s.", req.Path, s.ValueString(), ruleOf(err)))
		}
	}
}

// exportInputDescriptions are the descriptions of an export's inputs;
// changes says what changing one does ("" for the action).
func exportInputDescriptions(changes string) (domain, version, paths string) {
	domain = "The primary domain of the deployment to export, as a bare hostname: its custom domain " +
		"(`docs.example.com`) or, without one, its Mintlify subdomain (`acme.mintlify.app`). No scheme, port, path " +
		"or trailing slash: `https://docs.example.com/docs` is refused at plan, naming the hostname to write." + changes
	version = "A version label that tags the export, such as `2026-06-01` or `v2`. Defaults to the latest " +
		"published version." + changes
	paths = "The pages to export, as page paths written the way the docs' navigation writes them " +
		"(`index`, `guides/getting-started`): no leading or trailing slash. Leave it out to export every published " +
		"page." + changes
	return domain, version, paths
}

// bundleLogContext masks a bundle's link in every log line written with
// the returned context, as the API key is: the SDK never logs it, and
// this keeps it out whatever else might.
func bundleLogContext(ctx context.Context, b *sdk.StaticExportBundle) context.Context {
	ctx = tflog.MaskAllFieldValuesStrings(ctx, b.Secrets()...)
	return tflog.MaskMessageStrings(ctx, b.Secrets()...)
}

// bundleError is the advice for a bundle that could not be made.
func bundleError(jobID string, err error) (summary, detail string) {
	switch {
	case errors.Is(err, sdk.ErrStaticExportFailed):
		// The error ends with the API's reason: server text.
		return "Static export failed", fmt.Sprintf("Static export %s failed, so it has no bundle: %s. Start a new export.", jobID, sdk.DisplayLine(err.Error()))
	case sdk.IsNotFound(err):
		return "No such static export", apiErrorDetailFor(err, exportNotFound)
	case errors.Is(err, context.DeadlineExceeded) && !sdk.IsRateLimited(err):
		return "Timed out waiting for the static export", fmt.Sprintf("Static export %s did not complete in time, so it "+
			"has no bundle yet: %s. It goes on at Mintlify; raise the timeout, or ask again later.", jobID, err)
	}
	detail = apiErrorDetailFor(err, exportNotFound)
	if sdk.IsForbidden(err) {
		detail += " " + exportForbidden
	}
	return "Could not create the bundle of static export " + jobID, detail
}
