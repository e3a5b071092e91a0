package transport

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// requestIDHeaders are where APIs and gateways put a request's id.
var requestIDHeaders = []string{"X-Request-Id", "Request-Id", "X-Amzn-Requestid", "Cf-Ray"}

// RequestID is the id the server (or its gateway) gave a request, as it
// came: the caller redacts it before showing it.
func RequestID(h http.Header) string {
	for _, name := range requestIDHeaders {
		if v := h.Get(name); v != "" {
			return v
		}
	}
	return ""
}

// RateLimit is a budget as an answer's headers reported it.
type RateLimit struct {
	// Known says whether any of the headers was read.
	Known     bool
	Limit     int
	Remaining int
	// Reset is when the budget refills (zero when not said).
	Reset time.Time
}

// ParseRateLimit reads an answer's rate-limit headers (X-RateLimit-Limit,
// -Remaining and -Reset, or the RateLimit-* forms); now turns a Reset in
// seconds into a time.
func ParseRateLimit(h http.Header, now time.Time) RateLimit {
	var rl RateLimit
	get := func(name string) string {
		if v := h.Get("X-RateLimit-" + name); v != "" {
			return v
		}
		return h.Get("RateLimit-" + name)
	}
	if n, err := strconv.Atoi(strings.TrimSpace(get("Limit"))); err == nil && n >= 0 {
		rl.Limit, rl.Known = n, true
	}
	if n, err := strconv.Atoi(strings.TrimSpace(get("Remaining"))); err == nil && n >= 0 {
		rl.Remaining, rl.Known = n, true
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(get("Reset")), 10, 64); err == nil && n >= 0 {
		// Either seconds from now or a Unix time: a value past a year of
		// seconds can only be the latter.
		if n > 365*24*3600 {
			rl.Reset = time.Unix(n, 0).UTC()
		} else {
			rl.Reset = now.Add(time.Duration(n) * time.Second)
		}
		rl.Known = true
	}
	return rl
}
