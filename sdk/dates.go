package sdk

import (
	"fmt"
	"time"
)

// DateFormats names the accepted date forms, for error messages.
const DateFormats = "YYYY-MM-DD or RFC 3339"

// ParseDate parses an analytics date bound: a calendar date (YYYY-MM-DD,
// meaning midnight UTC) or an RFC 3339 date-time. It is the one definition
// of a valid date, shared with the Terraform provider's validators.
func ParseDate(s string) (time.Time, error) {
	if len(s) == len("2006-01-02") {
		if t, err := time.Parse(time.DateOnly, s); err == nil {
			return t, nil
		}
	} else if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("%q is not a date (use %s)", s, DateFormats)
}

// ValidateDateRange checks a dateFrom/dateTo pair: each, when set, must be a
// date, and dateFrom must come before dateTo (dateTo is exclusive, so equal
// bounds select nothing). Empty strings mean "not set".
func ValidateDateRange(dateFrom, dateTo string) error {
	var from, to time.Time
	var err error
	if dateFrom != "" {
		if from, err = ParseDate(dateFrom); err != nil {
			return &ValidationError{Field: "dateFrom", Value: dateFrom, Rule: "is not a date (use " + DateFormats + ")"}
		}
	}
	if dateTo != "" {
		if to, err = ParseDate(dateTo); err != nil {
			return &ValidationError{Field: "dateTo", Value: dateTo, Rule: "is not a date (use " + DateFormats + ")"}
		}
	}
	if dateFrom != "" && dateTo != "" && !from.Before(to) {
		return &ValidationError{Field: "dateFrom", Value: dateFrom,
			Rule: fmt.Sprintf("must be before dateTo %q (dateTo is exclusive)", dateTo)}
	}
	return nil
}
