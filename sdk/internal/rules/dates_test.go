package rules

import (
	"testing"
	"time"
)

func TestDate(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tt := range []struct {
		in          string
		at          string
		instant, ok bool
	}{
		{"2026-10-01", "2026-10-01T00:00:00Z", true, true},
		{"2026-10-01T09:30:00Z", "2026-10-01T09:30:00Z", true, true},
		{"2026-10-01T09:30:00.5+02:00", "2026-10-01T07:30:00.5Z", true, true},
		{"2026-10-01T09:30:00+0200", "2026-10-01T07:30:00Z", true, true},
		{"2026-10-01T09:30:00-02", "2026-10-01T11:30:00Z", true, true},
		{"2026-10-01T09:30:00", "2026-10-01T09:30:00Z", false, true},
		{"2026-10-01T09:30Z", "2026-10-01T09:30:00Z", true, true},
		{"2026-10-01T09:30+01:00", "2026-10-01T08:30:00Z", true, true},
		{"2026-10-01T09:30+0100", "2026-10-01T08:30:00Z", true, true},
		{"2026-10-01T09:30+01", "2026-10-01T08:30:00Z", true, true},
		{"2026-10-01T09:30", "2026-10-01T09:30:00Z", false, true},
		{"", "", false, false},
		{"2026-13-01", "", false, false},
		{"2026-10-1", "", false, false},
		{"2026-10-01 09:30", "", false, false},
		{"2026-10-01T", "", false, false},
		{"2026-10-01T9:30", "2026-10-01T09:30:00Z", false, true}, // time.Parse takes a one-digit hour
		{"yesterday", "", false, false},
		{"20261001T0930", "", false, false},
	} {
		got, instant, ok := Date(tt.in)
		if ok != tt.ok || instant != tt.instant {
			t.Errorf("%q: instant %v ok %v, want %v %v", tt.in, instant, ok, tt.instant, tt.ok)
		}
		if tt.ok && !got.Equal(utc(tt.at)) {
			t.Errorf("%q: %v, want %s", tt.in, got, tt.at)
		}
		if !tt.ok && !got.IsZero() {
			t.Errorf("%q: %v, want the zero time", tt.in, got)
		}
	}
}

func TestDateRange(t *testing.T) {
	for _, tt := range []struct {
		from, to, want string
	}{
		{"", "", ""},
		{"2026-10-01", "", ""},
		{"", "2026-10-01", ""},
		{"2026-10-01", "2026-10-02", ""},
		{"2026-10-01", "2026-10-01", `dateFrom "2026-10-01" must be before dateTo "2026-10-01" (dateTo is exclusive)`},
		{"2026-10-02", "2026-10-01", `dateFrom "2026-10-02" must be before dateTo "2026-10-01" (dateTo is exclusive)`},
		{"x", "", `dateFrom "x" is not a date (use FORMS)`},
		{"x", "y", `dateFrom "x" is not a date (use FORMS)`},
		{"", "y", `dateTo "y" is not a date (use FORMS)`},
		{"2026-10-01", "y", `dateTo "y" is not a date (use FORMS)`},
		// Both instants: no slack.
		{"2026-10-01T10:00:00Z", "2026-10-01T10:00:01Z", ""},
		{"2026-10-01T10:00:00Z", "2026-10-01T10:00:00Z", `dateFrom "2026-10-01T10:00:00Z" must be before dateTo "2026-10-01T10:00:00Z" (dateTo is exclusive)`},
		// Neither names an instant: both in the server's zone, no slack.
		{"2026-10-01T10:00", "2026-10-01T10:01", ""},
		{"2026-10-01T10:00", "2026-10-01T10:00", `dateFrom "2026-10-01T10:00" must be before dateTo "2026-10-01T10:00" (dateTo is exclusive)`},
		// From without a zone: it may be up to 14 hours earlier than in UTC.
		{"2026-10-01T13:59", "2026-10-01T00:00:00Z", ""},
		{"2026-10-01T14:00", "2026-10-01T00:00:00Z", `dateFrom "2026-10-01T14:00" must be before dateTo "2026-10-01T00:00:00Z" (dateTo is exclusive)`},
		// To without a zone: it may be up to 12 hours later than in UTC.
		{"2026-10-01T11:59:00Z", "2026-10-01T00:00", ""},
		{"2026-10-01T12:00:00Z", "2026-10-01T00:00", `dateFrom "2026-10-01T12:00:00Z" must be before dateTo "2026-10-01T00:00" (dateTo is exclusive)`},
	} {
		if got := text(DateRange(tt.from, tt.to, "FORMS")); got != tt.want {
			t.Errorf("%q..%q:\n got %s\nwant %s", tt.from, tt.to, got, tt.want)
		}
	}
}
