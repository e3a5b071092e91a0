package provider

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// idRule is the SDK's rule for ids (sdk.ValidateProjectID), in words.
const idRule = "must be 1 to 256 ASCII letters, digits and - _ . ~ : (no slash, white space or control character), and not . or .."

// sdkRule is a string validator that applies one of the SDK's own checks, so
// plan-time validation and the SDK can never disagree on what is valid.
type sdkRule struct {
	description string
	check       func(string) error
}

var (
	dateValidator = sdkRule{
		description: "must be a date: " + sdk.DateFormats,
		check:       func(s string) error { _, err := sdk.ParseDate(s); return err },
	}
	promptValidator = sdkRule{
		description: "must not be empty or only white space",
		check:       sdk.ValidatePrompt,
	}
	projectIDValidator = idValidator(sdk.ValidateProjectID)
	jobIDValidator     = idValidator(sdk.ValidateJobID)
	cacheURLValidator  = sdkRule{
		description: "must be an s3://, gs://, azblob:// or file:// bucket URL without credentials",
		check:       sdk.ValidateCacheURL,
	}
)

// idValidator checks an id by one of the SDK's id rules, which all say idRule.
func idValidator(check func(string) error) sdkRule {
	return sdkRule{description: idRule, check: check}
}

func (v sdkRule) Description(context.Context) string         { return v.description }
func (v sdkRule) MarkdownDescription(context.Context) string { return v.description }

func (v sdkRule) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := v.check(req.ConfigValue.ValueString()); err != nil {
		// Say the SDK's own rule when it names one: the exact rule broken.
		rule := v.description
		var ve *sdk.ValidationError
		if errors.As(err, &ve) {
			rule = ve.Rule
		}
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(),
			fmt.Sprintf("%s %q %s.", req.Path, req.ConfigValue.ValueString(), rule))
	}
}

// parseDuration reads a non-negative duration: Go's form ("90s", "10m",
// "1h30m", "0") or whole days ("7d"), which Go's form lacks.
func parseDuration(s string) (time.Duration, error) {
	if days, ok := strings.CutSuffix(s, "d"); ok && days != "" && strings.Trim(days, "0123456789") == "" {
		n, err := strconv.Atoi(days)
		if err != nil || n > 100000 {
			return 0, fmt.Errorf("%q is too long", s)
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, err
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is negative", s)
	}
	return d, nil
}

// durationValidator accepts what parseDuration reads.
type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return `must be a non-negative duration such as "30s", "10m", "6h" or "7d"`
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v durationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := parseDuration(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(),
			fmt.Sprintf("%s %q %s.", req.Path, req.ConfigValue.ValueString(), v.Description(ctx)))
	}
}

// wholeNumber checks a number attribute holds a whole number in [lo, hi]
// (hi 0: no upper bound). The attributes are numbers, not Int64, so that
// 2.5 gets this clear message instead of the framework's conversion error.
type wholeNumber struct{ lo, hi int64 }

func (v wholeNumber) Description(context.Context) string {
	if v.hi == 0 {
		return fmt.Sprintf("must be a whole number, at least %d", v.lo)
	}
	return fmt.Sprintf("must be a whole number from %d to %d", v.lo, v.hi)
}

func (v wholeNumber) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v wholeNumber) ValidateNumber(ctx context.Context, req validator.NumberRequest, resp *validator.NumberResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	f := req.ConfigValue.ValueBigFloat()
	n, acc := f.Int64()
	if !f.IsInt() || acc != big.Exact || n < v.lo || (v.hi > 0 && n > v.hi) {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(),
			fmt.Sprintf("%s is %s; it %s.", req.Path, f.Text('g', 20), v.Description(ctx)))
	}
}

// numberValue reads a validated whole-number attribute; 0 when null.
func numberValue(n types.Number) int {
	if n.IsNull() || n.IsUnknown() {
		return 0
	}
	v, _ := n.ValueBigFloat().Int64()
	return int(v)
}

// dateRangeValidator checks date_from < date_to (date_to is exclusive) at
// plan, with the SDK's rule.
type dateRangeValidator struct{}

var _ datasource.ConfigValidator = dateRangeValidator{}

func (dateRangeValidator) Description(context.Context) string {
	return "date_from must be before date_to (date_to is exclusive)"
}

func (v dateRangeValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v dateRangeValidator) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var from, to types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("date_from"), &from)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("date_to"), &to)...)
	if resp.Diagnostics.HasError() || from.IsNull() || from.IsUnknown() || to.IsNull() || to.IsUnknown() {
		return
	}
	_, errFrom := sdk.ParseDate(from.ValueString())
	_, errTo := sdk.ParseDate(to.ValueString())
	if errFrom != nil || errTo != nil {
		return // the attribute validators report these
	}
	// Both are dates, so what the SDK refuses now is their order.
	if sdk.ValidateDateRange(from.ValueString(), to.ValueString()) != nil {
		resp.Diagnostics.AddAttributeError(path.Root("date_from"), "Invalid date range",
			fmt.Sprintf("date_from %q must be before date_to %q: date_to is exclusive, so the range would select no day.",
				from.ValueString(), to.ValueString()))
	}
}
