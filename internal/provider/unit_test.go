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
		{"acme docs/β/job-1", "", "acme docs/β", "job-1", ""},
		{"job-1", "default", "default", "job-1", ""},
		{"job-1", "", "", "", `import id "job-1" has no project: use PROJECT_ID/JOB_ID, or set project_id on the provider (or MINTLIFY_PROJECT_ID)`},
		{"0", " ", "", "", `import id "0" has no project`},
		{"", "default", "", "", "import id is empty"},
		{"proj/", "", "", "", `import id "proj/": expected PROJECT_ID/JOB_ID with both parts non-empty`},
		{"/job", "", "", "", `import id "/job": expected PROJECT_ID/JOB_ID with both parts non-empty`},
		{" /job", "", "", "", "both parts non-empty"},
	}
	for _, tt := range tests {
		project, job, err := parseImportID(tt.id, tt.defaultProject)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
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

func TestAddAPIError_advice(t *testing.T) {
	retryAt := time.Date(2026, 11, 21, 13, 0, 0, 0, time.UTC)
	for status, want := range map[int]string{
		401: "check api_key (or MINTLIFY_API_KEY)",
		403: "it may be read-only",
		404: "Check project_id (or MINTLIFY_PROJECT_ID)",
		429: "Try again after 2026-11-21 13:00:00 UTC.",
		500: "500",
	} {
		var diags diag.Diagnostics
		err := &sdk.APIError{StatusCode: status, Method: "GET", Path: "/x", RetryAt: retryAt, RetryAfter: time.Hour}
		addAPIError(&diags, "summary", err)
		if len(diags) != 1 || diags[0].Summary() != "summary" || !strings.Contains(diags[0].Detail(), want) || !strings.HasPrefix(diags[0].Detail(), err.Error()) ||
			(status != 500) != strings.HasSuffix(diags[0].Detail(), seeTroubleshooting) {
			t.Errorf("%d: %v", status, diags)
		}
	}
	var diags diag.Diagnostics
	addAPIError(&diags, "s", errors.New("dial tcp: refused"))
	if diags[0].Detail() != "dial tcp: refused" {
		t.Errorf("plain error: %q", diags[0].Detail())
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
		{projectIDValidator, types.StringValue("acme docs/β"), ""},
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
	if describeLink(nil) != "null (no files changed)" || describeLink(&link) != link {
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
