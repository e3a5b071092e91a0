package provider

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

func TestParseImportID(t *testing.T) {
	tests := []struct {
		id, defaultProject   string
		wantProject, wantJob string
		wantErr              string
	}{
		{"proj/job-1", "", "proj", "job-1", ""},
		{"Acme.Docs_v2~eu:1/job-1", "", "Acme.Docs_v2~eu:1", "job-1", ""},
		{"proj/job-1", "default", "proj", "job-1", ""},
		// A project id holds no slash: what comes before the last one is
		// not a project.
		{"acme docs/β/job-1", "", "", "", `import id "acme docs/β/job-1": projectId "acme docs/β" may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character)`},
		{"p/q/job-1", "", "", "", `import id "p/q/job-1": projectId "p/q" may hold only ASCII letters`},
		{"proj/job 1", "", "", "", `import id "proj/job 1": jobId "job 1" may hold only ASCII letters`},
		{"../job-1", "", "", "", `import id "../job-1": projectId ".." is not allowed: it would change the request's path`},
		{"job 1", "default", "", "", `import id "job 1": jobId "job 1" may hold only ASCII letters`},
		{"job-1", "p q", "", "", `import id "job-1": projectId "p q" may hold only ASCII letters`},
		{"job-1", "default", "default", "job-1", ""},
		{"job-1", "", "", "", `import id "job-1" has no project: use PROJECT_ID/JOB_ID, or set project_id on the provider (or MINTLIFY_PROJECT_ID)`},
		{"0", " ", "", "", `import id "0" has no project: use PROJECT_ID/JOB_ID, or set project_id on the provider (or MINTLIFY_PROJECT_ID)`},
		{"", "default", "", "", "import id is empty: expected PROJECT_ID/JOB_ID, or JOB_ID with the provider's project_id set"},
		{" ", "default", "", "", "import id is empty: expected PROJECT_ID/JOB_ID"},
		{"proj/", "", "", "", `import id "proj/": expected PROJECT_ID/JOB_ID with both parts non-empty`},
		{"/job", "", "", "", `import id "/job": expected PROJECT_ID/JOB_ID with both parts non-empty`},
		{" /job", "", "", "", `import id " /job": expected PROJECT_ID/JOB_ID with both parts non-empty`},
		{"p/ ", "", "", "", `import id "p/ ": expected PROJECT_ID/JOB_ID with both parts non-empty`},
	}
	for _, tt := range tests {
		project, job, err := parseImportID(tt.id, tt.defaultProject)
		if tt.wantErr != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tt.wantErr) || project != "" || job != "" {
				t.Errorf("%q: err = %v, want %q", tt.id, err, tt.wantErr)
			}
			continue
		}
		if err != nil || project != tt.wantProject || job != tt.wantJob {
			t.Errorf("%q: got %q, %q, %v", tt.id, project, job, err)
		}
	}
}

func TestUserAgent(t *testing.T) {
	if got, want := userAgent("1.2.3", "1.11.4"), "terraform-provider-mintlify/1.2.3 Terraform/1.11.4 mintlify-go-sdk/"+sdk.Version; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := userAgent("", ""), "terraform-provider-mintlify/dev mintlify-go-sdk/"+sdk.Version; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestLogsNeverHoldTheKey(t *testing.T) {
	const key = "mint_secret_0123456789"
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &out)
	data := &providerData{apiKey: key}
	ctx = data.logContext(ctx)
	tflog.Info(ctx, "key is "+key, map[string]any{"api_key": "anything", "note": "Bearer " + key, "Authorization": "Bearer x"})
	logRequest(ctx, sdk.RequestInfo{Method: "GET", Path: "/v2/agent/p/job/" + key, Attempt: 1, StatusCode: 200, Err: errors.New("echo " + key)})
	raw := out.String() // decoding below drains the buffer
	entries, err := tflogtest.MultilineJSONDecode(&out)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("%d log entries", len(entries))
	}
	if strings.Contains(raw, key) || strings.Contains(raw, "anything") {
		t.Fatalf("log holds the key:\n%s", raw)
	}
	if !strings.Contains(raw, `"@message":"key is ***"`) || !strings.Contains(raw, `"api_key":"***"`) {
		t.Errorf("masked values missing from the log:\n%s", raw)
	}
	if entries[1]["@message"] != "Mintlify API request" || entries[1]["method"] != "GET" || entries[1]["status"] != float64(200) {
		t.Errorf("request log entry: %v", entries[1])
	}
}

// wantAdvice checks, for each status, that the detail explain gives of an
// API error of that status (retry at adviceRetryAt for a 429) says want,
// and ends with the troubleshooting guide's link unless it is a 500: there
// is no advice for those.
func wantAdvice(t *testing.T, wants map[int]string, explain func(status int) string) {
	t.Helper()
	for status, want := range wants {
		got := explain(status)
		if !strings.Contains(got, want) {
			t.Errorf("%d: %q, want %q", status, got, want)
		}
		if strings.HasSuffix(got, "\n\n"+seeTroubleshooting) != (status != 500) {
			t.Errorf("%d: the guide's link: %q", status, got)
		}
	}
}

var adviceRetryAt = time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC)

func TestAddAPIError_advice(t *testing.T) {
	wantAdvice(t, map[int]string{
		401: "check api_key (or MINTLIFY_API_KEY)",
		403: "it may be read-only",
		404: "Check project_id (or MINTLIFY_PROJECT_ID)",
		429: "Try again after 2026-11-21 13:00:00 UTC.",
		500: "500",
	}, func(status int) string {
		var diags diag.Diagnostics
		err := &sdk.APIError{StatusCode: status, Method: "GET", Path: "/x", RetryAt: adviceRetryAt, RetryAfter: time.Hour}
		addAPIError(&diags, "summary", err)
		if len(diags) != 1 || diags[0].Summary() != "summary" || !strings.HasPrefix(diags[0].Detail(), err.Error()) {
			t.Errorf("%d: %v", status, diags)
			return ""
		}
		return diags[0].Detail()
	})
	var diags diag.Diagnostics
	addAPIError(&diags, "s", errors.New("dial tcp: refused"))
	if diags[0].Detail() != "dial tcp: refused" {
		t.Errorf("plain error: %q", diags[0].Detail())
	}
}

// An analytics read the SDK held back (its budget known to be spent)
// says it was not sent, not that the API rate-limited it, and still when
// to try again.
func TestAddAPIError_notSentSaysSo(t *testing.T) {
	err := &sdk.APIError{StatusCode: 429, Method: "GET", Path: "/x", NotSent: true, Budget: "the organization's analytics budget",
		RetryAt: adviceRetryAt, RetryAfter: time.Hour}
	var diags diag.Diagnostics
	addAPIError(&diags, "summary", err)
	d := diags[0].Detail()
	if !strings.Contains(d, "This request was not sent") || strings.Contains(d, "rate-limited this request") ||
		!strings.Contains(d, "Try again after 2026-11-21 13:00:00 UTC.") {
		t.Errorf("detail: %s", d)
	}
}

// A data source's rate-limited read also says how to work meanwhile,
// after when to try again; its other errors read as addAPIError's.
func TestAddReadError_rateLimitSaysHowToWorkMeanwhile(t *testing.T) {
	limited := &sdk.APIError{StatusCode: 429, Method: "GET", Path: "/x", RetryAt: time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC), RetryAfter: time.Hour}
	var diags diag.Diagnostics
	addReadError(&diags, "page views", fmt.Errorf("getting page views: %w", limited))
	d := diags[0].Detail()
	if diags[0].Summary() != "Could not read page views" || !strings.HasSuffix(d, rateLimitedReadAdvice+"\n\n"+seeTroubleshooting) ||
		strings.Index(d, "Try again after 2026-11-21 13:00:00 UTC.") > strings.Index(d, "Until then") {
		t.Errorf("%s: %s", diags[0].Summary(), d)
	}
	for _, err := range []error{&sdk.APIError{StatusCode: 401, Method: "GET", Path: "/x"}, errors.New("dial tcp: refused")} {
		var read, plain diag.Diagnostics
		addReadError(&read, "feedback", err)
		addAPIError(&plain, "Could not read feedback", err)
		if !read.Equal(plain) {
			t.Errorf("%v: %v, want %v", err, read, plain)
		}
	}
}

func validateString(v validator.String, value types.String) diag.Diagnostics {
	resp := &validator.StringResponse{}
	v.ValidateString(context.Background(), validator.StringRequest{Path: path.Root("attr"), ConfigValue: value}, resp)
	return resp.Diagnostics
}

func TestStringValidators(t *testing.T) {
	tests := []struct {
		v       validator.String
		value   types.String
		wantErr string
	}{
		{dateValidator, types.StringValue("2026-10-01"), ""},
		{dateValidator, types.StringValue("2026-10-01T10:00:00+02:00"), ""},
		{dateValidator, types.StringValue("2026-02-30"), `attr "2026-02-30" must be a date: YYYY-MM-DD or an ISO 8601 date-time such as 2026-10-01T09:30:00Z.`},
		{dateValidator, types.StringValue("2026-10-01T09:30:00+0200"), ""},
		{dateValidator, types.StringValue("2026-10-01T09:30"), ""},
		{dateValidator, types.StringNull(), ""},
		{dateValidator, types.StringUnknown(), ""},
		{promptValidator, types.StringValue("x"), ""},
		{promptValidator, types.StringValue("\t "), `attr "\t " must not be empty or only white space.`},
		{projectIDValidator, types.StringValue("Acme.Docs_v2~eu:1"), ""},
		{projectIDValidator, types.StringValue(strings.Repeat("p", 256)), ""},
		{projectIDValidator, types.StringValue(strings.Repeat("p", 257)), `is longer than 256 characters: it cannot be an id.`},
		{projectIDValidator, types.StringValue("acme docs/β"), `attr "acme docs/β" may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character).`},
		{projectIDValidator, types.StringValue("p/q"), `attr "p/q" may hold only ASCII letters`},
		{projectIDValidator, types.StringValue("p\x00q"), `may hold only ASCII letters`},
		{projectIDValidator, types.StringValue("p\nq"), `may hold only ASCII letters`},
		{jobIDValidator, types.StringValue("job 1"), `attr "job 1" may hold only ASCII letters`},
		{jobIDValidator, types.StringValue("j/k"), `attr "j/k" may hold only ASCII letters`},
		{jobIDValidator, types.StringValue(".."), `attr ".." is not allowed: it would change the request's path.`},
		{projectIDValidator, types.StringValue(""), `attr "" must not be empty or only white space.`},
		{projectIDValidator, types.StringValue(".."), `attr ".." is not allowed: it would change the request's path.`},
		{jobIDValidator, types.StringValue("."), `attr "." is not allowed: it would change the request's path.`},
		{jobIDValidator, types.StringValue("job-1"), ""},
		{durationValidator{}, types.StringValue("90s"), ""},
		{durationValidator{}, types.StringValue("0s"), ""},
		{durationValidator{}, types.StringValue("-1s"), `attr "-1s" must be a non-negative duration`},
		{durationValidator{}, types.StringValue("7d"), ""},
		{durationValidator{}, types.StringValue("0"), ""},
		{durationValidator{}, types.StringValue("1.5d"), `attr "1.5d" must be a non-negative duration such as "30s", "10m", "6h" or "7d"`},
		{durationValidator{}, types.StringValue("d"), `must be a non-negative duration`},
		{durationValidator{}, types.StringValue("999999999d"), `must be a non-negative duration`},
		{durationValidator{}, types.StringValue("ten"), `attr "ten" must be a non-negative duration`},
		{durationValidator{}, types.StringUnknown(), ""},
	}
	for _, tt := range tests {
		diags := validateString(tt.v, tt.value)
		switch {
		case tt.wantErr == "" && diags.HasError():
			t.Errorf("%v: %v", tt.value, diags)
		case tt.wantErr != "" && (!diags.HasError() || !strings.Contains(diags[0].Detail(), tt.wantErr)):
			t.Errorf("%v: %v, want %q", tt.value, diags, tt.wantErr)
		}
		if tt.v.Description(context.Background()) == "" || tt.v.MarkdownDescription(context.Background()) == "" {
			t.Errorf("%T has no description", tt.v)
		}
	}
	// The ids' rule is the SDK's, in words.
	for _, v := range []sdkRule{projectIDValidator, jobIDValidator} {
		if got := v.Description(context.Background()); got != idRule || v.MarkdownDescription(context.Background()) != idRule {
			t.Errorf("description %q", got)
		}
	}
}

func TestShortDurationAndQueryID(t *testing.T) {
	for d, want := range map[time.Duration]string{30 * time.Minute: "30m", 2 * time.Hour: "2h", 90 * time.Second: "1m30s"} {
		if got := shortDuration(d); got != want {
			t.Errorf("shortDuration(%s) = %q", d, got)
		}
	}
	if got := queryID("p", map[string]string{"date_from": "", "max_results": "0"}); got != "p" {
		t.Errorf("queryID = %q", got)
	}
	if got := queryID("p", map[string]string{"date_to": "b", "date_from": "a", "max_results": "3", "source": "agent"}); got != "p?date_from=a&date_to=b&max_results=3&source=agent" {
		t.Errorf("queryID = %q", got)
	}
}

func TestPromptPlanModifier(t *testing.T) {
	ctx := context.Background()
	modifier := stringplanmodifier.RequiresReplaceIf(promptChangeStartsNewJob, "d", "d")
	state := tfsdk.State{Raw: tftypes.NewValue(tftypes.Object{}, map[string]tftypes.Value{})}
	tests := []struct {
		name         string
		prior, plan  types.String
		wantReplaced bool
	}{
		{"changed prompt", types.StringValue("old"), types.StringValue("new"), true},
		{"imported job adopts the prompt", types.StringNull(), types.StringValue("new"), false},
		{"unchanged prompt", types.StringValue("same"), types.StringValue("same"), false},
	}
	for _, tt := range tests {
		req := planmodifier.StringRequest{Path: path.Root("prompt"), StateValue: tt.prior, PlanValue: tt.plan, ConfigValue: tt.plan, State: state,
			Plan: tfsdk.Plan{Raw: tftypes.NewValue(tftypes.Object{}, map[string]tftypes.Value{})}}
		resp := &planmodifier.StringResponse{PlanValue: tt.plan}
		modifier.PlanModifyString(ctx, req, resp)
		if resp.RequiresReplace != tt.wantReplaced || resp.Diagnostics.HasError() {
			t.Errorf("%s: RequiresReplace = %v (%v)", tt.name, resp.RequiresReplace, resp.Diagnostics)
		}
	}
}

func TestDescribeLink(t *testing.T) {
	link := "https://x/pull/1"
	if describeLink(nil) != "null (the job opened no pull request)" || describeLink(&link) != link {
		t.Error("describeLink")
	}
}

// A duration means what it says: days are 24 hours, up to 100,000 of them.
func TestParseDuration_values(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"0": 0, "0d": 0, "1d": 24 * time.Hour, "7d": 7 * 24 * time.Hour, "100000d": 100000 * 24 * time.Hour,
		"90s": 90 * time.Second, "1h30m": 90 * time.Minute, "10m": 10 * time.Minute,
	} {
		if got, err := parseDuration(in); err != nil || got != want {
			t.Errorf("parseDuration(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"100001d", "-1s", "1.5d", "d", "-1d", "7 d", "", "ten"} {
		if got, err := parseDuration(in); err == nil {
			t.Errorf("parseDuration(%q) = %s, want an error", in, got)
		}
	}
}

// A whole-number setting takes both ends of its range and nothing past
// them, nor a fraction.
func TestWholeNumber_edges(t *testing.T) {
	for _, tt := range []struct {
		v    wholeNumber
		in   float64
		want bool
	}{
		{wholeNumber{1, 100}, 1, true}, {wholeNumber{1, 100}, 100, true},
		{wholeNumber{1, 100}, 0, false}, {wholeNumber{1, 100}, 101, false}, {wholeNumber{1, 100}, 1.5, false},
		{wholeNumber{1, 0}, 1e15, true}, {wholeNumber{1, 0}, 0, false},
	} {
		resp := &validator.NumberResponse{}
		tt.v.ValidateNumber(context.Background(), validator.NumberRequest{Path: path.Root("max_results"), ConfigValue: types.NumberValue(big.NewFloat(tt.in))}, resp)
		if ok := !resp.Diagnostics.HasError(); ok != tt.want {
			t.Errorf("%+v takes %v: %v, want %v (%v)", tt.v, tt.in, ok, tt.want, resp.Diagnostics)
		}
		if !tt.want && !strings.Contains(diagText(resp.Diagnostics, diag.SeverityError), "max_results is ") {
			t.Errorf("%+v on %v: the error does not name the field: %v", tt.v, tt.in, resp.Diagnostics)
		}
	}
}

// A wait's bounds are inclusive, and the one rule has one wording.
func TestCheckWaitTimeout_bounds(t *testing.T) {
	for d, ok := range map[time.Duration]bool{
		time.Minute: true, 24 * time.Hour: true, 30 * time.Minute: true,
		time.Minute - time.Nanosecond: false, 24*time.Hour + time.Nanosecond: false, 0: false, -5 * time.Minute: false,
	} {
		err := checkWaitTimeout("timeout", "RAW", d)
		if (err == nil) != ok {
			t.Errorf("%s: %v", d, err)
		}
		if !ok && (err == nil || err.Error() != `timeout "RAW" must be a duration from 1m to 24h, such as "30m"`) {
			t.Errorf("%s: %v", d, err)
		}
	}
}

// timeouts.create is checked at validation, with the wait's bounds: the
// same words for both resources.
func TestValidateConfig_createTimeout(t *testing.T) {
	for _, r := range []interface {
		resource.Resource
		resource.ResourceWithValidateConfig
	}{&agentJobResource{}, &agentJobMessageResource{}} {
		s := resourceSchema(t, r)
		timeoutsType := s.Type().TerraformType(context.Background()).(tftypes.Object).AttributeTypes["timeouts"] //nolint:forcetypeassert // a schema is an object
		for raw, want := range map[string]string{
			"1m": "", "24h": "", "90m": "", "soon": "", // "soon" is the timeouts type's to refuse
			"59s":     `Invalid timeouts.create: timeouts.create "59s" must be a duration from 1m to 24h, such as "30m".` + "\n",
			"24h1s":   `Invalid timeouts.create: timeouts.create "24h1s" must be a duration from 1m to 24h, such as "30m".` + "\n",
			"0s":      `Invalid timeouts.create: timeouts.create "0s" must be a duration from 1m to 24h, such as "30m".` + "\n",
			"-5m":     `Invalid timeouts.create: timeouts.create "-5m" must be a duration from 1m to 24h, such as "30m".` + "\n",
			"100000h": `Invalid timeouts.create: timeouts.create "100000h" must be a duration from 1m to 24h, such as "30m".` + "\n",
		} {
			tm := tftypes.NewValue(timeoutsType, map[string]tftypes.Value{"create": str(raw)})
			cfg := tfsdk.Config{Schema: s, Raw: objectOf(t, s, map[string]tftypes.Value{"prompt": str("x"), "job_id": str("j"), "timeouts": tm}, false)}
			resp := &resource.ValidateConfigResponse{}
			r.ValidateConfig(context.Background(), resource.ValidateConfigRequest{Config: cfg}, resp)
			if got := diagText(resp.Diagnostics, diag.SeverityError); got != want {
				t.Errorf("%T, %q: %q, want %q", r, raw, got, want)
			}
			if want != "" {
				if wp, ok := resp.Diagnostics[0].(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(path.Root("timeouts").AtName("create")) {
					t.Errorf("%T, %q: the error is not on timeouts.create", r, raw)
				}
			}
		}
		// No timeouts block, or one without create: nothing to check.
		for _, tm := range []tftypes.Value{tftypes.NewValue(timeoutsType, nil), tftypes.NewValue(timeoutsType, map[string]tftypes.Value{"create": tftypes.NewValue(tftypes.String, nil)}),
			tftypes.NewValue(timeoutsType, map[string]tftypes.Value{"create": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})} {
			cfg := tfsdk.Config{Schema: s, Raw: objectOf(t, s, map[string]tftypes.Value{"prompt": str("x"), "timeouts": tm}, false)}
			resp := &resource.ValidateConfigResponse{}
			r.ValidateConfig(context.Background(), resource.ValidateConfigRequest{Config: cfg}, resp)
			if len(resp.Diagnostics) != 0 {
				t.Errorf("%T, %v: %v", r, tm, resp.Diagnostics)
			}
		}
	}
}

// An action's timeout: its default, and what a configured one means.
func TestActionTimeout(t *testing.T) {
	for v, want := range map[types.String]time.Duration{
		types.StringNull(): DefaultCreateTimeout, types.StringValue("45m"): 45 * time.Minute, types.StringValue("1h30m"): 90 * time.Minute,
	} {
		if got := actionTimeout(v); got != want {
			t.Errorf("actionTimeout(%v) = %s, want %s", v, got, want)
		}
	}
	if DefaultCreateTimeout != 30*time.Minute || minWaitTimeout != time.Minute || maxWaitTimeout != 24*time.Hour {
		t.Errorf("bounds %s, %s, %s", DefaultCreateTimeout, minWaitTimeout, maxWaitTimeout)
	}
}

// The documentation of every timeout states the bounds the validation
// applies.
func TestTimeoutDescriptionsStateTheBounds(t *testing.T) {
	ctx := context.Background()
	want := "as a duration from `1m` to `24h` such as `45m` (default `30m`"
	if d := actionTimeoutAttribute("the job").MarkdownDescription; !strings.Contains(d, "How long to wait for the job, "+want) {
		t.Errorf("action: %q", d)
	}
	if d := timeoutsBlock(ctx, "the job").GetNestedObject().GetAttributes()["create"].GetDescription(); !strings.Contains(d, "How long to wait for the job to finish, "+want) ||
		!strings.Contains(d, "is still given 10s to answer") {
		t.Errorf("timeouts.create: %q", d)
	}
}

// A 404 says what to check: the project, unless the request was about a
// job.
func TestAPIErrorDetailFor_notFound(t *testing.T) {
	err := &sdk.APIError{StatusCode: 404, Method: "POST", Path: "/v2/agent/p/job/j/message", Message: "Job not found"}
	if got, want := apiErrorDetailFor(err, jobNotFound), err.Error()+"\n\n"+jobNotFound+"\n\n"+seeTroubleshooting; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if got, want := apiErrorDetail(err), err.Error()+"\n\n"+projectNotFound+"\n\n"+seeTroubleshooting; got != want {
		t.Errorf("%q, want %q", got, want)
	}
	if !strings.HasPrefix(jobNotFound, "Check job_id") || !strings.HasPrefix(projectNotFound, "Check project_id (or MINTLIFY_PROJECT_ID)") {
		t.Errorf("advice %q, %q", jobNotFound, projectNotFound)
	}
}
