package rules

import (
	"fmt"
	"time"
)

// dateTimeLayouts are the ISO 8601 extended date-times the API accepts:
// minutes, or seconds with an optional fraction, then a zone (Z, ±hh:mm,
// ±hhmm, ±hh) or none.
var dateTimeLayouts = func() []string {
	var out []string
	for _, clock := range []string{"15:04:05.999999999", "15:04"} {
		for _, zone := range []string{"Z07:00", "Z0700", "Z07", ""} {
			out = append(out, "2006-01-02T"+clock+zone)
		}
	}
	return out
}()

// Date parses a date bound and says whether it names an instant: a
// calendar date (midnight UTC) or a date-time with a zone does; a
// date-time without a zone (read as UTC here) is read in the server's
// zone, which the client does not know. ok is false for anything else.
func Date(s string) (t time.Time, instant, ok bool) {
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

// The zones furthest from UTC: a date-time without a zone names an instant
// up to this much before (east) or after (west) the same clock time in UTC.
const (
	maxZoneEast = 14 * time.Hour
	maxZoneWest = 12 * time.Hour
)

// DateRange checks a dateFrom/dateTo pair ("" is not set): each a date
// (formats names the forms, for the error), dateFrom before dateTo, which
// is exclusive. When only one names an instant, the order is refused only
// when no zone could make it right.
func DateRange(dateFrom, dateTo, formats string) *Broken {
	var from, to time.Time
	var fromInstant, toInstant, ok bool
	if dateFrom != "" {
		if from, fromInstant, ok = Date(dateFrom); !ok {
			return &Broken{Field: "dateFrom", Value: dateFrom, Rule: "is not a date (use " + formats + ")"}
		}
	}
	if dateTo != "" {
		if to, toInstant, ok = Date(dateTo); !ok {
			return &Broken{Field: "dateTo", Value: dateTo, Rule: "is not a date (use " + formats + ")"}
		}
	}
	if dateFrom == "" || dateTo == "" {
		return nil
	}
	// When a bound has no zone, it names its earliest instant (from) or
	// its latest (to) in the zone most favorable to the order.
	slack := time.Duration(0)
	switch {
	case !fromInstant && toInstant:
		slack = maxZoneEast
	case fromInstant && !toInstant:
		slack = maxZoneWest
	}
	if !from.Before(to.Add(slack)) {
		return &Broken{Field: "dateFrom", Value: dateFrom,
			Rule: fmt.Sprintf("must be before dateTo %q (dateTo is exclusive)", dateTo)}
	}
	return nil
}
