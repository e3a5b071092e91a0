package sdk

import (
	"strings"
	"testing"
	"time"
)

func TestParseDate(t *testing.T) {
	good := map[string]time.Time{
		"2026-10-01":                time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC),
		"2024-02-29":                time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC),
		"2026-10-01T12:30:00Z":      time.Date(2026, 10, 1, 12, 30, 0, 0, time.UTC),
		"2026-10-01T12:30:00.5Z":    time.Date(2026, 10, 1, 12, 30, 0, 5e8, time.UTC),
		"2026-10-01T14:30:00+02:00": time.Date(2026, 10, 1, 12, 30, 0, 0, time.UTC),
		"2026-10-01T14:30:00+0200":  time.Date(2026, 10, 1, 12, 30, 0, 0, time.UTC),
		"2026-10-01T14:30:00+02":    time.Date(2026, 10, 1, 12, 30, 0, 0, time.UTC),
		"2026-10-01T07:00:00-0530":  time.Date(2026, 10, 1, 12, 30, 0, 0, time.UTC),
		"2026-10-01T12:30:00":       time.Date(2026, 10, 1, 12, 30, 0, 0, time.UTC),
		"2026-10-01T12:30:00.250":   time.Date(2026, 10, 1, 12, 30, 0, 25e7, time.UTC),
		"2026-10-01T12:30":          time.Date(2026, 10, 1, 12, 30, 0, 0, time.UTC),
		"2026-10-01T12:30Z":         time.Date(2026, 10, 1, 12, 30, 0, 0, time.UTC),
		"2026-10-01T14:30+02:00":    time.Date(2026, 10, 1, 12, 30, 0, 0, time.UTC),
	}
	for in, want := range good {
		got, err := ParseDate(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseDate(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "2026-13-45", "2025-02-29", "2026-1-1", "01/10/2026", "2026-10-01 12:30:00Z", "today", "2026-10-01Z", " 2026-10-01",
		"2026-10-01T", "2026-10-01T12", "2026-10-01T25:00:00Z", "2026-10-01t12:30:00Z", "2026-10-01T12:30:00+2", "2026-10-01T12:30:00 Z",
		"2026-10-01T12:30:00Zulu", "2026-10-01T12:30:00+02:00:00", "20261001", "2026-10-01T12:30:00.Z", "2026-10-01T12:30:60Z"} {
		if _, err := ParseDate(bad); err == nil || !strings.Contains(err.Error(), "is not a date (use YYYY-MM-DD or an ISO 8601 date-time such as 2026-10-01T09:30:00Z)") {
			t.Errorf("ParseDate(%q) err = %v", bad, err)
		}
	}
}

func TestValidateDateRange(t *testing.T) {
	for _, ok := range [][2]string{{"", ""}, {"2026-10-01", ""}, {"", "2026-10-01"}, {"2026-10-01", "2026-10-02"}, {"2026-10-01T23:59:59Z", "2026-10-02"},
		// Without a zone, a bound is read in the server's zone: the order
		// is refused only when no zone could make it right.
		{"2026-10-02T13:59:00", "2026-10-02"}, {"2026-10-02", "2026-10-01T12:01:00"}, {"2026-10-01T10:00", "2026-10-01T11:00"}} {
		if err := ValidateDateRange(ok[0], ok[1]); err != nil {
			t.Errorf("%v: %v", ok, err)
		}
	}
	bad := map[[2]string]string{
		{"2026-10-02", "2026-10-01"}:                          `dateFrom "2026-10-02" must be before dateTo "2026-10-01" (dateTo is exclusive)`,
		{"2026-10-02", "2026-10-02"}:                          `dateFrom "2026-10-02" must be before dateTo "2026-10-02" (dateTo is exclusive)`,
		{"x", "2026-10-02"}:                                   `dateFrom "x" is not a date (use YYYY-MM-DD or an ISO 8601 date-time such as 2026-10-01T09:30:00Z)`,
		{"2026-10-02", "y"}:                                   `dateTo "y" is not a date (use YYYY-MM-DD or an ISO 8601 date-time such as 2026-10-01T09:30:00Z)`,
		{"2026-10-02T00:00:00+01:00", "2026-10-01T23:00:00Z"}: `must be before dateTo`,
		{"2026-10-02T00:00:00+0100", "2026-10-01T23:00:00Z"}:  `must be before dateTo`,
		{"2026-10-01T11:00", "2026-10-01T10:00"}:              `must be before dateTo`,
		{"2026-10-02T14:00:00", "2026-10-02"}:                 `must be before dateTo`,
		{"2026-10-02", "2026-10-01T12:00:00"}:                 `must be before dateTo`,
	}
	for in, want := range bad {
		if err := ValidateDateRange(in[0], in[1]); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: err = %v, want %q", in, err, want)
		}
	}
}
