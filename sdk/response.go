package sdk

import (
	"time"
)

// ResponseInfo is what the SDK knows of how an answer arrived. Every answer
// type embeds it, so page.RequestID or job.Attempts read it directly.
type ResponseInfo struct {
	// RequestID is the id the API (or its gateway) gave the request, for
	// support tickets; empty when none was sent.
	RequestID string
	// Attempts is how many HTTP requests the answer took, retries included
	// (0 for an answer served from the cache). For a paging read's All, the
	// sum over its pages.
	Attempts int
	// Pages is how many pages made the answer: 1 for one page or a single
	// answer, the number of pages for All.
	Pages int
	// RateLimit is the budget the API reported with the answer, when it
	// sent rate-limit headers.
	RateLimit RateLimit
	// Cache says whether an analytics answer came from the client's cache
	// (WithAnalyticsCache). The zero value is an answer fresh from the API.
	Cache CacheStatus
}

// info gives the decoders' generic code access to the embedded value.
func (r *ResponseInfo) info() *ResponseInfo { return r }

// answer is an answer type: one that embeds ResponseInfo.
type answer[T any] interface {
	*T
	info() *ResponseInfo
}

// combine merges the information of the pages of one read: attempts and
// pages add up, the cache statuses combine, and the newest request id and
// budget stand for the read.
func (r ResponseInfo) combine(next ResponseInfo) ResponseInfo {
	if r.Pages == 0 { // nothing read yet: the first page stands for the read
		return next
	}
	out := next
	out.Attempts += r.Attempts
	out.Pages += r.Pages
	out.Cache = r.Cache.Combine(next.Cache)
	if out.RequestID == "" {
		out.RequestID = r.RequestID
	}
	if out.RateLimit == (RateLimit{}) {
		out.RateLimit = r.RateLimit
	}
	return out
}

// RateLimit is a budget as the API reported it in a response's headers
// (X-RateLimit-Limit, -Remaining and -Reset, or the RateLimit-* forms).
// Fields the answer did not carry are zero; Known says whether any did.
type RateLimit struct {
	Known     bool
	Limit     int
	Remaining int
	// Reset is when the budget refills, when the API said.
	Reset time.Time
}
