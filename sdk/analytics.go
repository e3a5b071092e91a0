package sdk

import (
	"context"
	"fmt"
	"strconv"
)

// AnalyticsService reads the analytics export. [AnalyticsLimit] is shared
// by every endpoint and program of the organization, so paged reads use
// the largest page, read each page once and, with WithAnalyticsCache,
// each answer once across processes.
type AnalyticsService struct {
	// Visitors and Views read unique visitors and view events per page
	// path, with site totals.
	Visitors      *PagedEndpoint[VisitorsQuery, PathCountsPage, PathCounts]
	Views         *PagedEndpoint[VisitorsQuery, PathCountsPage, PathCounts]
	Searches      *PagedEndpoint[SearchesQuery, SearchesPage, SearchTerm]
	Feedback      *PagedEndpoint[FeedbackQuery, FeedbackPage, Feedback]
	Conversations *PagedEndpoint[ConversationsQuery, ConversationsPage, Conversation]

	core *core
}

// The largest page each analytics endpoint serves, which paging uses by
// default (MaxPageSize: visitors and views).
const (
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

// DateRange bounds an analytics query: DateFrom inclusive, DateTo
// exclusive, each YYYY-MM-DD or an ISO 8601 date-time ("": the server's
// default).
type DateRange struct {
	DateFrom string
	DateTo   string
}

// Validate checks the range before any request is sent.
func (r DateRange) Validate() error { return ValidateDateRange(r.DateFrom, r.DateTo) }

// ValidatePageSize checks a page size up to an endpoint's largest (0: the
// largest).
func ValidatePageSize(limit, largest int) error { return upTo("limit", limit, largest) }

func validateMaxResults(n int) error {
	if n < 0 {
		return &ValidationError{Field: "maxResults", Value: strconv.Itoa(n), Rule: "must be 0 (no limit) or more"}
	}
	return nil
}

// validatePaging checks a paged query's offset, page size, row cap and
// dates.
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

// analyticsEndpoint is an analytics endpoint's path function.
func analyticsEndpoint(endpoint ...string) func(string) string {
	return func(projectID string) string { return analyticsPath(projectID, endpoint...) }
}

// getOne reads one analytics answer through the cache, as a read of its
// own.
func getOne[T any](ctx context.Context, k *core, what string, c call) (*T, error) {
	out, err := readOne[T](ctx, k, "one\x00"+k.requestURL(c), c, nil)
	if err != nil {
		return nil, fmt.Errorf("getting %s: %w", what, err)
	}
	return out, nil
}
