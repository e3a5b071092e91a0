package sdk

import (
	"fmt"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/rules"
)

// DateFormats names the accepted date forms, for error messages.
const DateFormats = "YYYY-MM-DD or an ISO 8601 date-time such as 2026-10-01T09:30:00Z"

// ParseDate parses an analytics date bound: a calendar date (YYYY-MM-DD,
// read as midnight UTC) or an ISO 8601 date-time, with or without a zone
// (without one it is read as UTC here; the server applies its own). It is
// the one definition of a valid date, shared with the Terraform provider's
// validators.
func ParseDate(s string) (time.Time, error) {
	t, _, ok := rules.Date(s)
	if !ok {
		return time.Time{}, fmt.Errorf("%q is not a date (use %s)", s, DateFormats)
	}
	return t, nil
}

// ValidateDateRange checks a dateFrom/dateTo pair: each, when set, must be a
// date, and dateFrom must come before dateTo (dateTo is exclusive, so equal
// bounds select nothing). When only one of them names an instant (the other
// is a date-time without a zone), the order is refused only when no zone
// could make it right. Empty strings mean "not set".
func ValidateDateRange(dateFrom, dateTo string) error {
	return validationError(rules.DateRange(dateFrom, dateTo, DateFormats))
}
