package sdk

import (
	"fmt"
	"time"
)

// DateFormats names the accepted date forms, for error messages.
const DateFormats = "YYYY-MM-DD or an ISO 8601 date-time such as 2026-10-01T09:30:00Z"

// ParseDate parses an analytics date bound: a calendar date (YYYY-MM-DD,
// midnight UTC) or an ISO 8601 date-time, with or without a zone (UTC
// here; the server applies its own). It is the one definition of a valid
// date, which the provider's validators share.
func ParseDate(s string) (time.Time, error) {
	t, _, ok := parseDate(s)
	if !ok {
		return time.Time{}, fmt.Errorf("%q is not a date (use %s)", s, DateFormats)
	}
	return t, nil
}

// ValidateDateRange checks a dateFrom/dateTo pair ("": not set): each a
// date, and dateFrom before dateTo (exclusive). When one has no zone, the
// order is refused only when no zone could make it right.
func ValidateDateRange(dateFrom, dateTo string) error {
	var from, to time.Time
	var fromInstant, toInstant, ok bool
	if dateFrom != "" {
		if from, fromInstant, ok = parseDate(dateFrom); !ok {
			return &ValidationError{Field: "dateFrom", Value: dateFrom, Rule: "is not a date (use " + DateFormats + ")"}
		}
	}
	if dateTo != "" {
		if to, toInstant, ok = parseDate(dateTo); !ok {
			return &ValidationError{Field: "dateTo", Value: dateTo, Rule: "is not a date (use " + DateFormats + ")"}
		}
	}
	if dateFrom == "" || dateTo == "" {
		return nil
	}
	// A bound without a zone is read in the zone most favorable to order.
	slack := time.Duration(0)
	switch {
	case !fromInstant && toInstant:
		slack = maxZoneEast
	case fromInstant && !toInstant:
		slack = maxZoneWest
	}
	if !from.Before(to.Add(slack)) {
		return &ValidationError{Field: "dateFrom", Value: dateFrom,
			Rule: fmt.Sprintf("must be before dateTo %q (dateTo is exclusive)", dateTo)}
	}
	return nil
}

// dateTimeLayouts are the date-times the API accepts: minutes, or seconds
// and a fraction, then a zone (Z, ±hh:mm, ±hhmm, ±hh) or none.
var dateTimeLayouts = func() []string {
	var out []string
	for _, clock := range []string{"15:04:05.999999999", "15:04"} {
		for _, zone := range []string{"Z07:00", "Z0700", "Z07", ""} {
			out = append(out, "2006-01-02T"+clock+zone)
		}
	}
	return out
}()

// parseDate parses a date bound and says whether it names an instant (a
// date-time without a zone is read in the server's, unknown, zone).
func parseDate(s string) (t time.Time, instant, ok bool) {
	if len(s) == len(time.DateOnly) {
		if t, err := time.Parse(time.DateOnly, s); err == nil {
			return t, true, true
		}
	} else if len(s) > len(time.DateOnly) && s[len(time.DateOnly)] == 'T' {
		for i, layout := range dateTimeLayouts {
			if t, err := time.Parse(layout, s); err == nil {
				return t, i%4 != 3, true // every fourth layout has no zone
			}
		}
	}
	return time.Time{}, false, false
}

// The zones furthest east and west of UTC.
const (
	maxZoneEast = 14 * time.Hour
	maxZoneWest = 12 * time.Hour
)
