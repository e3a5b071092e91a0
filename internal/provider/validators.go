package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

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
	projectIDValidator = sdkRule{
		description: "must not be empty or only white space",
		check:       sdk.ValidateProjectID,
	}
)

func (v sdkRule) Description(context.Context) string         { return v.description }
func (v sdkRule) MarkdownDescription(context.Context) string { return v.description }

func (v sdkRule) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := v.check(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(),
			fmt.Sprintf("%s %q %s.", req.Path, req.ConfigValue.ValueString(), v.description))
	}
}

// durationValidator accepts a non-negative Go duration such as "30s".
type durationValidator struct{}

func (durationValidator) Description(context.Context) string {
	return `must be a non-negative duration such as "30s" or "2m"`
}

func (v durationValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v durationValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if d, err := time.ParseDuration(req.ConfigValue.ValueString()); err != nil || d < 0 {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(),
			fmt.Sprintf("%s %q %s.", req.Path, req.ConfigValue.ValueString(), v.Description(ctx)))
	}
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
