package sdk

import (
	"strconv"
	"time"
)

// Limit is one of the API's published rate limits: at most Requests per
// Scope ("organization", "project", "IP") in any Window. The API enforces
// it; the client says it, and remembers when the API said it is spent.
type Limit struct {
	Requests int
	Scope    string
	Window   time.Duration
}

// The API's published rate limits (its reference states them in prose;
// the OpenAPI files give only the 429). Everything that says a limit says
// it through these. Read them; do not change them.
var (
	// AgentJobLimit: agent job creations and follow-up messages, together,
	// per project.
	AgentJobLimit = Limit{Requests: 100, Scope: "project", Window: time.Hour}
	// AnalyticsLimit: analytics requests, every endpoint's together, per
	// organization: each page of a read is one.
	AnalyticsLimit = Limit{Requests: 100, Scope: "organization", Window: time.Hour}
	// DeploymentLimit: deployments (trigger update) and automation
	// triggers, together, per organization.
	DeploymentLimit = Limit{Requests: 10, Scope: "organization", Window: 10 * time.Second}
	// PreviewLimit: preview deployments, per organization.
	PreviewLimit = Limit{Requests: 5, Scope: "organization", Window: time.Minute}
	// DiscoveryLimit: discovery requests (search, page content and
	// assistant messages, together), per organization.
	DiscoveryLimit = Limit{Requests: 10_000, Scope: "organization", Window: time.Hour}
	// AssistantMessageLimit: assistant messages per IP address, besides
	// DiscoveryLimit.
	AssistantMessageLimit = Limit{Requests: 10_000, Scope: "IP", Window: 24 * time.Hour}
	// IndexSecondLimit and IndexDayLimit: Mintlify Index requests per
	// organization; both apply.
	IndexSecondLimit = Limit{Requests: 10, Scope: "organization", Window: time.Second}
	IndexDayLimit    = Limit{Requests: 1_000, Scope: "organization", Window: 24 * time.Hour}
)

// String says the limit in words: "100 per organization per hour".
func (l Limit) String() string { return l.Of("") }

// Of says the limit in words, naming what is counted:
// AnalyticsLimit.Of("requests") is "100 requests per organization per hour".
func (l Limit) Of(what string) string {
	s := limitNumber(l.Requests)
	if what != "" {
		s += " " + what
	}
	return s + " per " + l.Scope + " per " + limitWindow(l.Window)
}

// limitWindow is a window in words: "hour", "10 seconds".
func limitWindow(d time.Duration) string {
	for _, u := range []struct {
		size time.Duration
		name string
	}{{24 * time.Hour, "day"}, {time.Hour, "hour"}, {time.Minute, "minute"}, {time.Second, "second"}} {
		switch {
		case d == u.size:
			return u.name
		case d > u.size && d%u.size == 0:
			return strconv.FormatInt(int64(d/u.size), 10) + " " + u.name + "s"
		}
	}
	return d.String()
}

// limitNumber writes n with comma separators: 10000 is "10,000".
func limitNumber(n int) string {
	s := strconv.Itoa(n)
	start := 0
	if n < 0 {
		start = 1
	}
	for i := len(s) - 3; i > start; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
