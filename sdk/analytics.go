package sdk

import (
	"context"
	"fmt"
	"strconv"
)

// AnalyticsService reads the analytics export. Its requests are rate
// limited per organization (see [AnalyticsLimit]: shared by every endpoint
// and every program of the organization), so paged reads use the largest page
// by default, read each page once, and, with WithAnalyticsCache, read each
// answer once per cache lifetime across processes.
type AnalyticsService struct {
	// Visitors reads unique visitors per page path, with site totals.
	Visitors *PagedEndpoint[VisitorsQuery, PathCountsPage, PathCounts]
	// Views reads content view events per page path, with site totals.
	Views *PagedEndpoint[VisitorsQuery, PathCountsPage, PathCounts]
	// Searches reads search terms, most searched first.
	Searches *PagedEndpoint[SearchesQuery, SearchesPage, SearchTerm]
	// Feedback reads user feedback entries.
	Feedback *PagedEndpoint[FeedbackQuery, FeedbackPage, Feedback]
	// Conversations reads AI assistant conversations.
	Conversations *PagedEndpoint[ConversationsQuery, ConversationsPage, Conversation]

	core *core
}

// The largest page each analytics endpoint serves: the paging helpers
// default to these, the fewest requests for the data.
const (
	// MaxPageSize is the largest page of unique visitors and of page views.
	MaxPageSize              = 250
	MaxSearchesPageSize      = 100
	MaxFeedbackPageSize      = 100
	MaxFeedbackByPageSize    = 100
	MaxConversationsPageSize = 1000
)

func newAnalyticsService(k *core) AnalyticsService {
	return AnalyticsService{
		Visitors:      newPaged[VisitorsQuery, PathCountsPage, PathCounts](k, pathCountsSpec("unique visitors", "visitors")),
		Views:         newPaged[VisitorsQuery, PathCountsPage, PathCounts](k, pathCountsSpec("page views", "views")),
		Searches:      newPaged[SearchesQuery, SearchesPage, SearchTerm](k, searchesSpec),
		Feedback:      newPaged[FeedbackQuery, FeedbackPage, Feedback](k, feedbackSpec),
		Conversations: newPaged[ConversationsQuery, ConversationsPage, Conversation](k, conversationsSpec),
		core:          k,
	}
}

// DateRange bounds an analytics query. DateFrom is inclusive and DateTo
// exclusive, each YYYY-MM-DD or an ISO 8601 date-time; "" is not sent (the
// server's default range applies).
type DateRange struct {
	DateFrom string
	DateTo   string
}

// Validate checks the range before any request is sent.
func (r DateRange) Validate() error { return ValidateDateRange(r.DateFrom, r.DateTo) }

// ValidatePageSize checks a page size against an endpoint's largest page
// (MaxPageSize, MaxSearchesPageSize, ...); 0 means that largest page.
func ValidatePageSize(limit, largest int) error { return upTo("limit", limit, largest) }

func validateMaxResults(n int) error {
	if n < 0 {
		return &ValidationError{Field: "maxResults", Value: strconv.Itoa(n), Rule: "must be 0 (no limit) or more"}
	}
	return nil
}

// validatePaging checks what every paged query has: an offset (0 for a
// cursor-paged one), dates, page size and a cap on rows.
func validatePaging(p pageParams, largest int) error {
	if p.offset < 0 {
		return &ValidationError{Field: "offset", Value: strconv.Itoa(p.offset), Rule: "must be 0 or more"}
	}
	if err := ValidatePageSize(p.limit, largest); err != nil {
		return err
	}
	if err := validateMaxResults(p.maxResults); err != nil {
		return err
	}
	return ValidateDateRange(p.dateFrom, p.dateTo)
}

// analyticsPath is the escaped path of an analytics endpoint.
func analyticsPath(projectID string, endpoint ...string) string {
	return escapePath(append([]string{"v1", "analytics", projectID}, endpoint...)...)
}

// analyticsEndpoint returns the path function of an analytics endpoint.
func analyticsEndpoint(endpoint ...string) func(string) string {
	return func(projectID string) string { return analyticsPath(projectID, endpoint...) }
}

// getOne reads a single analytics answer (not paged) through the cache
// and the known-spent budget, as a read of its own.
func getOne[T any](ctx context.Context, k *core, what string, c call) (*T, error) {
	out, err := readOne[T](ctx, k, "one\x00"+k.requestURL(c), c, nil)
	if err != nil {
		return nil, fmt.Errorf("getting %s: %w", what, err)
	}
	return out, nil
}
