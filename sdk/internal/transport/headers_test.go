package transport

import (
	"net/http"
	"testing"
	"time"
)

func TestRequestID_firstHeaderThatHoldsOne(t *testing.T) {
	for _, tt := range []struct {
		h    http.Header
		want string
	}{
		{http.Header{}, ""},
		{http.Header{"Cf-Ray": {"ray"}}, "ray"},
		{http.Header{"X-Amzn-Requestid": {"amzn"}, "Cf-Ray": {"ray"}}, "amzn"},
		{http.Header{"Request-Id": {"rid"}, "X-Amzn-Requestid": {"amzn"}}, "rid"},
		{http.Header{"X-Request-Id": {"xrid"}, "Request-Id": {"rid"}}, "xrid"},
		{http.Header{"X-Request-Id": {""}, "Request-Id": {"rid"}}, "rid"},
	} {
		if got := RequestID(tt.h); got != tt.want {
			t.Errorf("%v: %q", tt.h, got)
		}
	}
}

func TestParseRateLimit(t *testing.T) {
	for _, tt := range []struct {
		name string
		h    http.Header
		want RateLimit
	}{
		{"none", http.Header{}, RateLimit{}},
		{"X- form", http.Header{"X-Ratelimit-Limit": {"100"}, "X-Ratelimit-Remaining": {" 7 "}, "X-Ratelimit-Reset": {"30"}},
			RateLimit{Known: true, Limit: 100, Remaining: 7, Reset: epoch.Add(30 * time.Second)}},
		{"IETF form", http.Header{"Ratelimit-Limit": {"10"}, "Ratelimit-Remaining": {"0"}}, RateLimit{Known: true, Limit: 10}},
		{"X- wins", http.Header{"X-Ratelimit-Limit": {"5"}, "Ratelimit-Limit": {"10"}}, RateLimit{Known: true, Limit: 5}},
		{"Unix reset", http.Header{"Ratelimit-Reset": {"1900000000"}}, RateLimit{Known: true, Reset: time.Unix(1900000000, 0).UTC()}},
		{"a year of seconds", http.Header{"Ratelimit-Reset": {"31536000"}}, RateLimit{Known: true, Reset: epoch.Add(365 * 24 * time.Hour)}},
		{"a year and a second", http.Header{"Ratelimit-Reset": {"31536001"}}, RateLimit{Known: true, Reset: time.Unix(31536001, 0).UTC()}},
		{"zero reset", http.Header{"Ratelimit-Reset": {"0"}}, RateLimit{Known: true, Reset: epoch}},
		{"only remaining", http.Header{"Ratelimit-Remaining": {"3"}}, RateLimit{Known: true, Remaining: 3}},
		{"a limit of none", http.Header{"Ratelimit-Limit": {"0"}}, RateLimit{Known: true}},
		{"none remaining", http.Header{"Ratelimit-Remaining": {"0"}}, RateLimit{Known: true}},
		{"negative and junk", http.Header{"Ratelimit-Limit": {"-1"}, "Ratelimit-Remaining": {"-2"}, "Ratelimit-Reset": {"soon"}}, RateLimit{}},
		{"negative reset", http.Header{"Ratelimit-Reset": {"-5"}}, RateLimit{}},
	} {
		if got := ParseRateLimit(tt.h, epoch); got != tt.want {
			t.Errorf("%s: %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
