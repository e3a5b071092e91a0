package sdk

import (
	"time"
)

// ResponseInfo is what the SDK knows of how an answer arrived. Every answer
// type embeds it, so page.RequestID or job.Attempts read it directly.
//
// Answers embed it rather than come beside it (go-github returns a
// *Response as a second value): a page served from the analytics cache
// carries its CacheStatus in it, and a paged read's pages (from Pages, or
// joined by All) must each carry their own, which a second return value
// cannot do for the pages of a range loop.
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

// info is the one method generic code needs of an answer: promoted to
// every type that embeds ResponseInfo.
func (r *ResponseInfo) info() *ResponseInfo { return r }

// infoOf is the ResponseInfo of p, a pointer to an answer type.
func infoOf(p any) *ResponseInfo {
	return p.(interface{ info() *ResponseInfo }).info() //nolint:forcetypeassert // every answer type embeds it
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
