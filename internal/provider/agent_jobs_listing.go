package provider

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// What the mintlify_agent_job list resource and the mintlify_agent_jobs
// data source share: the listing's filters, its read, and the words about
// it.

// listingNote is the paragraph every page about the listing carries.
var listingNote = "Jobs are read from Mintlify's v1 listing (`GET /v1/agent/{projectId}/jobs`), the only listing " +
	"the API has: it is marked deprecated, but its replacement (v2) reads one job by id and lists nothing. It " +
	"takes no filters, so the provider reads it page by page at the largest size (" + pageOfJobs + " jobs), newest " +
	"first, and filters as it goes: a listing costs floor(N/" + pageOfJobs + ") + 1 requests for a project of N jobs " +
	"(ceil(N/" + pageOfJobs + "), plus one request that comes back empty when N is a multiple of " + pageOfJobs + ", " +
	"since the API says neither how many jobs there " +
	"are nor whether more follow a full page). It stops early once enough jobs are found. No rate limit is " +
	"published for it, and it is never cached: a job's status changes by the minute.\n\n" +
	"The listing's statuses are v1's (`haultReason`): `processing` is shown as `active`, `completed` as " +
	"`completed`, `error` and `github_missconfigured` as `failed`, `interrupted` as `archived`. The listing gives " +
	"each job as a session id, which the provider takes to be the job's v2 id; the API reference does not say so. " +
	"A listed job whose id no request could send (a slash, white space or a control character in it, or more " +
	"than 256 characters) is left out, and named in a warning: the other jobs are listed."

// pageOfJobs is the listing's largest page.
var pageOfJobs = strconv.Itoa(sdk.MaxSessionsPageSize)

// listedIDAssumption is said wherever a listed id fails to read through v2.
const listedIDAssumption = "If the id came from the job listing (terraform query, the mintlify_agent_jobs data source): the " +
	"listing is Mintlify's v1 listing, the only one the API has, and gives session ids, which the provider takes to be " +
	"the jobs' v2 ids (the API reference does not say so). A listed job that v2 answers 404 for is one for which that " +
	"does not hold: the provider cannot read or adopt it."

// jobFilterModel holds the listing's filters.
type jobFilterModel struct {
	ProjectID     types.String `tfsdk:"project_id"`
	Statuses      types.List   `tfsdk:"statuses"`
	CreatedAfter  types.String `tfsdk:"created_after"`
	CreatedBefore types.String `tfsdk:"created_before"`
}

// The filters' descriptions and validators, for both kinds of schema.
const (
	filterProjectDesc = "Project whose jobs to list. Defaults to the provider's `project_id`."
	filterStatusDesc  = "Keep only jobs in one of these statuses: `active`, `completed`, `archived`, `failed` (as the " +
		"listing gives them: see above). Default: every status."
	filterAfterDesc = "Keep only jobs created at or after this time: `YYYY-MM-DD` (midnight UTC) or an ISO 8601 " +
		"date-time such as `2026-10-01T09:30:00Z`."
	filterBeforeDesc = "Keep only jobs created before this time (exclusive), in the same forms."
)

var (
	jobStatusValidator = sdkRule{
		description: "must be one of active, completed, archived, failed",
		check:       func(s string) error { return sdk.ValidateJobStatus(sdk.JobStatus(s)) },
	}
	statusesValidators = []validator.List{listvalidator.NoNullValues(), listvalidator.ValueStringsAre(jobStatusValidator)}
	timeValidators     = []validator.String{dateValidator}
)

// jobFilter is a validated filter. The API filters nothing: rows are
// matched as they are read.
type jobFilter struct {
	statuses      []sdk.JobStatus // none: every status
	after, before *time.Time
	// raw values, for the data source's id.
	rawAfter, rawBefore string
}

// filter reads the model's filters (validated at plan).
func (m jobFilterModel) filter(ctx context.Context, diags *diag.Diagnostics) jobFilter {
	var f jobFilter
	var statuses []string
	diags.Append(m.Statuses.ElementsAs(ctx, &statuses, false)...)
	for _, s := range statuses {
		f.statuses = append(f.statuses, sdk.JobStatus(s))
	}
	for _, b := range []struct {
		v   types.String
		out **time.Time
		raw *string
	}{{m.CreatedAfter, &f.after, &f.rawAfter}, {m.CreatedBefore, &f.before, &f.rawBefore}} {
		if b.v.IsNull() || b.v.IsUnknown() {
			continue
		}
		t, err := sdk.ParseDate(b.v.ValueString())
		if err != nil {
			diags.AddError("Invalid filter", err.Error()) // the validators said so at plan already
			continue
		}
		*b.out, *b.raw = &t, b.v.ValueString()
	}
	return f
}

// match reports whether a listed job passes the filter. A job without a
// creation time passes no time filter.
func (f jobFilter) match(s *sdk.AgentSession) bool {
	if len(f.statuses) > 0 && !slices.Contains(f.statuses, s.Status()) {
		return false
	}
	if (f.after != nil || f.before != nil) && s.CreatedAt.IsZero() {
		return false
	}
	if f.after != nil && s.CreatedAt.Before(*f.after) {
		return false
	}
	return f.before == nil || s.CreatedAt.Before(*f.before)
}

// listJobs reads the project's jobs, in the listing's order, and hands
// each that passes the filter to keep until it returns false: the read
// then stops, and no further page is requested. notes gathers what to
// say of the rows: their odd fields, and the jobs left out because no
// request can send their ids (sdk.ValidateJobID): such a job could not be
// read, imported or generated, and one of them must not cost the rest.
func listJobs(ctx context.Context, data *providerData, projectID string, f jobFilter, notes *listingNotes, keep func(*sdk.AgentSession) bool) error {
	for page, err := range data.client.AgentJobs.Sessions.Pages(ctx, projectID, sdk.SessionsQuery{}) {
		if err != nil {
			return err
		}
		// The SDK sets such rows apart (Skipped), by the same rule.
		for _, sk := range page.Skipped {
			notes.skipped = append(notes.skipped, fmt.Sprintf("%s (%s)", quoted(sk.ID), ruleOf(sdk.ValidateJobID(sk.ID))))
		}
		for i := range page.Sessions {
			s := &page.Sessions[i]
			if !f.match(s) {
				continue
			}
			notes.add(s)
			if !keep(s) {
				return nil
			}
		}
	}
	return nil
}

// listingNotes gathers what to say of a listing's rows, to say once: their
// odd fields, and the jobs left out.
type listingNotes struct {
	problems []string
	skipped  []string
}

func (n *listingNotes) add(s *sdk.AgentSession) {
	for _, pr := range s.Problems {
		n.problems = append(n.problems, fmt.Sprintf("job %s: %s", s.ID, pr))
	}
}

func (n listingNotes) warn(diags *diag.Diagnostics) {
	if len(n.skipped) > 0 {
		diags.AddWarning("Agent jobs left out of the listing",
			fmt.Sprintf("Mintlify's job listing gave %d job(s) whose id no request can send: %s. They are left out, and "+
				"the other jobs are listed: such a job cannot be read, imported or generated by the provider. Find them "+
				"in the Mintlify dashboard.", len(n.skipped), problemList(n.skipped)))
	}
	if len(n.problems) == 0 {
		return
	}
	diags.AddWarning("Unexpected answer from Mintlify",
		"The job listing had fields the provider could not use: "+problemList(n.problems)+". Those jobs are listed "+
			"with the fields that could be read; the others are empty. A job without a creation time passes no "+
			"created_after or created_before filter.")
}

// jobDisplayName is how a listed job reads in terraform query's output:
// its title, status and day. The title and the listing's words are server
// text: escaped and clipped.
func jobDisplayName(s *sdk.AgentSession) string {
	title := sdk.DisplayLine(s.Title)
	if title == "" {
		title = "agent job " + sdk.DisplayLine(s.ID)
	}
	status := string(s.Status())
	if status == "" {
		status = "halted: " + sdk.DisplayLine(string(s.HaltReason))
	}
	if s.CreatedAt.IsZero() {
		return fmt.Sprintf("%s (%s)", title, status)
	}
	return fmt.Sprintf("%s (%s, %s)", title, status, s.CreatedAt.UTC().Format(time.DateOnly))
}

// createdRange checks created_after < created_before at plan, with the
// SDK's rule of a date range's order. It serves both the data source and
// the list resource.
type createdRange struct{}

var (
	_ datasource.ConfigValidator = createdRange{}
	_ list.ConfigValidator       = createdRange{}
)

func (createdRange) Description(context.Context) string {
	return "created_after must be before created_before (created_before is exclusive)"
}

func (v createdRange) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v createdRange) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	v.validate(ctx, req.Config, &resp.Diagnostics)
}

func (v createdRange) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	v.validate(ctx, req.Config, &resp.Diagnostics)
}

func (createdRange) validate(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) {
	var after, before types.String
	diags.Append(config.GetAttribute(ctx, path.Root("created_after"), &after)...)
	diags.Append(config.GetAttribute(ctx, path.Root("created_before"), &before)...)
	if diags.HasError() || after.IsNull() || after.IsUnknown() || before.IsNull() || before.IsUnknown() {
		return
	}
	_, errAfter := sdk.ParseDate(after.ValueString())
	_, errBefore := sdk.ParseDate(before.ValueString())
	if errAfter != nil || errBefore != nil {
		return // the attribute validators report these
	}
	if sdk.ValidateDateRange(after.ValueString(), before.ValueString()) != nil {
		diags.AddAttributeError(path.Root("created_after"), "Invalid creation time range",
			fmt.Sprintf("created_after %q must be before created_before %q: created_before is exclusive, so no job could match.",
				after.ValueString(), before.ValueString()))
	}
}

// listedJobRow is a listed job as the data source shows it: the listing's
// fields, and its status in v2's words.
type listedJobRow struct {
	*sdk.AgentSession
	Status sdk.JobStatus
}

// listedJob is a listed job, converted once into elem, the schema's type:
// what the listing left out ("") is null.
func listedJob(elem attr.Type, s *sdk.AgentSession) attr.Value {
	return flattenObject(elem, listedJobRow{s, s.Status()}, emptyIsNull)
}
