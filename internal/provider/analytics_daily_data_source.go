package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/numbervalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// NewAnalyticsDailyDataSource is the mintlify_analytics_daily data source.
//
// One data source for every metric, not one per metric: its cap on
// requests is one budget per run for the whole chart (a data source per
// metric would each spend its own cap, and a three-line chart three
// times the requests a user asked for), it fills the newest days first
// across metrics, and it gives one list of points, a line per metric, to
// chart.
func NewAnalyticsDailyDataSource() datasource.DataSource { return &analyticsDailyDataSource{} }

type analyticsDailyDataSource = analyticsDataSource[analyticsDailyModel, *analyticsDailyModel]

type analyticsDailyModel struct {
	analyticsQueryModel
	Days           types.Number `tfsdk:"days"`
	Metrics        types.List   `tfsdk:"metrics"`
	SettlingWindow types.String `tfsdk:"settling_window"`
	MaxRequests    types.Number `tfsdk:"max_requests"`
	Points         types.List   `tfsdk:"points"`
	Missing        types.List   `tfsdk:"missing"`
	Requests       types.Int64  `tfsdk:"requests"`
}

// defaultDailyDays is the window when neither days nor dates are set.
const defaultDailyDays = 30

func (*analyticsDailyModel) typeName() string { return "_analytics_daily" }

func (*analyticsDailyModel) schema() schema.Schema {
	metrics := make([]string, len(sdk.DailyMetrics))
	for i, m := range sdk.DailyMetrics {
		metrics[i] = string(m)
	}
	dayRule := sdkRule{description: "must be a day, YYYY-MM-DD (UTC)", check: func(s string) error { _, err := sdk.ParseDay(s); return err }}
	dates := path.Expressions{path.MatchRoot("date_from"), path.MatchRoot("date_to")}
	counts := func(what string) schema.SingleNestedAttribute {
		return schema.SingleNestedAttribute{MarkdownDescription: what, Computed: true,
			Attributes: countAttributes("Human traffic.", "AI traffic (agents, crawlers, assistants).", "All of it.")}
	}
	return schema.Schema{
		MarkdownDescription: "Analytics day by day, for charts: one point a day per metric (page views, unique visitors, " +
			"searches, feedback, assistant conversations) over a window of up to " + fmt.Sprint(sdk.MaxDailyDays) + " days. " +
			"Past days are **kept for good** in the provider's analytics cache (`cache_dir`, or the fleet's `cache_url`) " +
			"once they are settled, and never requested again: after the first fill, a plan costs nothing for kept days. " +
			"See the guide \"Charting docs analytics day by day\".\n\n" +
			"**What a plan costs.** Views, visitors and searches cost one request per day each (the smallest page, totals " +
			"only); feedback and conversations the pages of their listing over the days needed (counted by the UTC day of " +
			"each event), not a request a day. A day is **settled** `settling_window` after it ends: until then (today, and " +
			"the days before it within the window) its point is `partial`, re-read at most once per `cache_ttl`, never kept. " +
			"A first fill reads at most `max_requests` per plan, the newest days first; the days it leaves are in `missing`, " +
			"with a warning saying how many more runs and hours the rest takes, and the next plan carries on.\n\n" +
			"**One data source for every metric**, rather than one per metric: `max_requests` is one budget for the whole " +
			"chart (a data source per metric would each spend its own), the newest days are filled first across metrics, " +
			"and one list of points gives a line per metric.\n\n" + budgetLimits,
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{MarkdownDescription: "Identifies the series: project, window and metrics.", Computed: true},
			"project_id": schema.StringAttribute{
				MarkdownDescription: "Project to read. Defaults to the provider's `project_id`.",
				Optional:            true, Computed: true, Validators: []validator.String{projectIDValidator},
			},
			"days": schema.NumberAttribute{
				MarkdownDescription: fmt.Sprintf("The window: this many days **ending yesterday** (UTC), on the provider's clock. "+
					"Default %d when no dates are set. 1 to %d. Conflicts with `date_from` and `date_to`.", defaultDailyDays, sdk.MaxDailyDays),
				Optional:   true,
				Validators: []validator.Number{wholeNumber{1, sdk.MaxDailyDays}, numbervalidator.ConflictsWith(dates...)},
			},
			"date_from": schema.StringAttribute{
				MarkdownDescription: "First day of an explicit window, `YYYY-MM-DD` (UTC). Set with `date_to`; with `days`, " +
					"the first day of that window.",
				Optional: true, Computed: true,
				Validators: []validator.String{dayRule, stringvalidator.AlsoRequires(path.MatchRoot("date_to"))},
			},
			"date_to": schema.StringAttribute{
				MarkdownDescription: "End of an explicit window, **exclusive**, `YYYY-MM-DD` (UTC): at most tomorrow, so the " +
					"window ends today at the latest (today is `partial`). With `days`, today.",
				Optional: true, Computed: true,
				Validators: []validator.String{dayRule, stringvalidator.AlsoRequires(path.MatchRoot("date_from"))},
			},
			"metrics": schema.ListAttribute{
				MarkdownDescription: "The series to read, each once: `views` (page views: events, human + AI), `visitors` " +
					"(**that day's** unique visitors: never add days up, a reader who comes back on two days is one visitor " +
					"of the week; a range's uniques are `mintlify_unique_visitors`' totals), `searches` (search events), " +
					"`feedback` (feedback entries) and `conversations` (assistant conversations).",
				ElementType: types.StringType, Required: true,
				Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.NoNullValues(), listvalidator.UniqueValues(),
					listvalidator.ValueStringsAre(stringvalidator.OneOf(metrics...))},
			},
			"settling_window": schema.StringAttribute{
				MarkdownDescription: "How long after a day ends its numbers may still grow as late events arrive: until then the " +
					"day is `partial` and never kept. Default `" + shortDuration(sdk.DefaultDailySettle) + "`; from `" +
					shortDuration(sdk.MinDailySettle) + "` to `" + maxSettle + "`.",
				Optional: true, Validators: []validator.String{settlingValidator},
			},
			"max_requests": schema.NumberAttribute{
				MarkdownDescription: fmt.Sprintf("The most requests one read sends, at least 1. Default %d, a fifth of the "+
					"organization's hourly budget (%s).", sdk.DefaultDailyMaxRequests, sdk.AnalyticsLimit),
				Optional: true, Validators: []validator.Number{wholeNumber{1, 0}},
			},
			"points": schema.ListNestedAttribute{
				MarkdownDescription: "One point a day of the window, oldest first. A metric not asked for, or not read yet " +
					"(see `missing`), is null.",
				Computed: true,
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"date":          computedString("The day, `YYYY-MM-DD` (UTC)."),
					"views":         counts("Page views: events, `total` = `human + ai`."),
					"visitors":      counts("The day's unique visitors, `total` deduplicated across human and AI. Never add days up."),
					"searches":      computedInt("Search events."),
					"feedback":      computedInt("Feedback entries created that day."),
					"conversations": computedInt("Assistant conversations started that day."),
					"partial": schema.BoolAttribute{Computed: true, MarkdownDescription: "The values may still grow: today, or a day " +
						"within `settling_window` of its end (draw it dashed)."},
					"source": computedString("Where the values came from: `kept` (the history, no request), `cached` (an answer " +
						"the cache held), `read` (the API, in this read) or `missing`."),
				}},
			},
			"missing": schema.ListAttribute{
				MarkdownDescription: "Days, oldest first, of which a metric is not read yet: the read's requests ran out " +
					"(`max_requests`), the budget is spent, or an answer was not usable (a warning says which).",
				ElementType: types.StringType, Computed: true,
			},
			"requests": computedInt("Requests this read sent, retries included."),
		},
	}
}

// maxSettle is sdk.MaxDailySettle in days.
var maxSettle = fmt.Sprintf("%dd", sdk.MaxDailySettle/(24*time.Hour))

// settlingValidator is a duration within the SDK's bounds of a settling
// window.
var settlingValidator = sdkRule{
	description: fmt.Sprintf("must be a duration from %s to %s, such as \"48h\" or \"2d\"", shortDuration(sdk.MinDailySettle), maxSettle),
	check: func(s string) error {
		if d, err := parseDuration(s); err != nil || d < sdk.MinDailySettle || d > sdk.MaxDailySettle {
			return errors.New("out of bounds")
		}
		return nil
	},
}

func (m *analyticsDailyModel) read(ctx context.Context, data *providerData, diags *diag.Diagnostics) bool {
	q := sdk.DailyQuery{DateFrom: m.DateFrom.ValueString(), DateTo: m.DateTo.ValueString(), MaxRequests: numberValue(m.MaxRequests)}
	if m.DateFrom.IsNull() {
		days := numberValue(m.Days)
		if days == 0 {
			days = defaultDailyDays
		}
		today := data.now().UTC().Truncate(24 * time.Hour)
		q.DateFrom, q.DateTo = today.AddDate(0, 0, -days).Format(time.DateOnly), today.Format(time.DateOnly)
	}
	for _, v := range m.Metrics.Elements() {
		if s, ok := v.(types.String); ok {
			q.Metrics = append(q.Metrics, sdk.DailyMetric(s.ValueString()))
		}
	}
	if !m.SettlingWindow.IsNull() {
		q.Settle, _ = parseDuration(m.SettlingWindow.ValueString()) // checked at plan
	}
	s, err := data.client.Analytics.Daily(ctx, m.ProjectID.ValueString(), q)
	if ve := (*sdk.ValidationError)(nil); errors.As(err, &ve) {
		// What only the clock can tell (date_to in the future), or a
		// window of days that reaches past the SDK's rules.
		attr := dailyFields.Replace(ve.Field)
		diags.AddAttributeError(path.Root(attr), "Invalid "+attr, dailyFields.Replace(err.Error())+".")
		return false
	}
	if !readEnded(ctx, data, diags, "daily analytics", err, func() sdk.CacheStatus { return sdk.CacheStatus{} }) {
		return false
	}
	noteDaily(diags, s, len(q.Metrics))
	names := make([]string, len(q.Metrics))
	for i, metric := range q.Metrics {
		names[i] = string(metric)
	}
	m.ID = types.StringValue(queryID(m.ProjectID.ValueString(), map[string]string{"date_from": q.DateFrom, "date_to": q.DateTo, "metrics": strings.Join(names, ",")}))
	m.DateFrom, m.DateTo = types.StringValue(q.DateFrom), types.StringValue(q.DateTo)
	m.Points = flattenList(elemType(typeOf(m.schema().Attributes, "points")), s.Points)
	m.Missing = flattenList(types.StringType, s.Missing)
	m.Requests = types.Int64Value(int64(s.Requests))
	return true
}

// noteDaily warns of what a daily series lacks: a history that is not
// kept, days still missing (and how many runs and hours the rest takes),
// a spent budget, answers not used.
func noteDaily(diags *diag.Diagnostics, s *sdk.DailySeries, metrics int) {
	if !s.Kept {
		diags.AddWarning("Mintlify daily analytics are not kept",
			"The provider has no analytics cache (cache_ttl is 0, or neither cache_dir nor cache_url can be used), so no "+
				"day is kept: every read asks for the window's days again, at most max_requests of them. Set cache_dir or "+
				"cache_url, and a cache_ttl above 0.")
	}
	if len(s.Problems) > 0 {
		lines := make([]string, len(s.Problems))
		for i, p := range s.Problems {
			lines[i] = fmt.Sprintf("%s %s: %s", p.Date, p.Metric, p.Problem)
		}
		diags.AddWarning("Mintlify daily analytics: answers not used",
			"These days' answers were not used (neither shown nor kept); they are read again by a later plan once the "+
				"cache's copy is older than cache_ttl: "+problemList(lines)+".")
	}
	if len(s.Missing) == 0 {
		return
	}
	why := fmt.Sprintf("this read sent %d requests (max_requests = %d)", s.Requests, s.MaxRequests)
	if rl := s.RateLimit; rl != nil {
		why = "the organization's analytics budget (" + sdk.AnalyticsLimit.String() + ") is spent"
		if !rl.RetryAt.IsZero() {
			why += " until " + rl.RetryAt.UTC().Format("2006-01-02 15:04 MST")
		}
		why += ": kept days are shown, nothing more was asked"
	}
	runs := (s.Left + s.MaxRequests - 1) / s.MaxRequests
	hours := (s.Left + sdk.AnalyticsLimit.Requests - 1) / sdk.AnalyticsLimit.Requests * int(sdk.AnalyticsLimit.Window/time.Hour)
	diags.AddWarning("Mintlify daily analytics not filled yet",
		fmt.Sprintf("%d of the window's days are not read yet (%s to %s, listed in missing), for %d metric(s): %s. "+
			"The rest needs at least %d more requests: about %d more runs at max_requests = %d, and at least %d hour(s) of "+
			"the organization's whole analytics budget (%s, shared by every analytics read). Each run carries on where "+
			"the last stopped, the newest days first; kept days cost nothing.",
			len(s.Missing), s.Missing[0], s.Missing[len(s.Missing)-1], metrics, why, s.Left, runs, s.MaxRequests, hours, sdk.AnalyticsLimit))
}

// dailyWindowValidator checks an explicit window at plan with the SDK's
// rule: at most sdk.MaxDailyDays days, date_from before date_to.
type dailyWindowValidator struct{}

func (dailyWindowValidator) Description(context.Context) string {
	return fmt.Sprintf("date_to must be 1 to %d days after date_from", sdk.MaxDailyDays)
}

func (v dailyWindowValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (dailyWindowValidator) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var from, to types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("date_from"), &from)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("date_to"), &to)...)
	if resp.Diagnostics.HasError() || from.IsNull() || from.IsUnknown() || to.IsNull() || to.IsUnknown() {
		return
	}
	_, errFrom := sdk.ParseDay(from.ValueString())
	_, errTo := sdk.ParseDay(to.ValueString())
	if errFrom != nil || errTo != nil {
		return // the attributes' validators say it
	}
	if err := (sdk.DailyQuery{DateFrom: from.ValueString(), DateTo: to.ValueString(), Metrics: sdk.DailyMetrics}).Validate(); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("date_to"), "Invalid date_to", dailyFields.Replace(err.Error())+".")
	}
}

// dailyFields are the SDK's names of a daily query's fields, as the
// schema names them.
var dailyFields = strings.NewReplacer("dateFrom", "date_from", "dateTo", "date_to", "maxRequests", "max_requests", "settle", "settling_window")

func (*analyticsDailyModel) configValidators() []datasource.ConfigValidator {
	return []datasource.ConfigValidator{dailyWindowValidator{}}
}
