package sdk

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// The largest page each analytics endpoint serves. Analytics calls are rate
// limited per organization (100 an hour, shared by every endpoint), so the
// paging helpers default to these: the fewest requests for the data.
const (
	// MaxPageSize is the largest page of unique visitors and of page views.
	MaxPageSize           = 250
	MaxSearchesPageSize   = 100
	MaxFeedbackPageSize   = 100
	MaxFeedbackByPageSize = 100
	MaxAssistantPageSize  = 1000
)

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
func ValidatePageSize(limit, largest int) error {
	if limit < 0 || limit > largest {
		return &ValidationError{Field: "limit", Value: strconv.Itoa(limit), Rule: fmt.Sprintf("must be between 1 and %d", largest)}
	}
	return nil
}

func validateMaxResults(n int) error {
	if n < 0 {
		return &ValidationError{Field: "maxResults", Value: strconv.Itoa(n), Rule: "must be 0 (no limit) or more"}
	}
	return nil
}

// orLargest is the page size to send: limit, or the largest page when 0.
func orLargest(limit, largest int) int {
	if limit == 0 {
		return largest
	}
	return limit
}

// analyticsPath is the escaped path of an analytics endpoint.
func analyticsPath(projectID string, endpoint ...string) string {
	return escapePath(append([]string{"v1", "analytics", projectID}, endpoint...)...)
}

// analyticsQuery starts a query string with the date range.
func analyticsQuery(from, to string) url.Values {
	q := url.Values{}
	if from != "" {
		q.Set("dateFrom", from)
	}
	if to != "" {
		q.Set("dateTo", to)
	}
	return q
}

// getAnalytics sends one analytics GET and decodes its answer into out.
func (c *Client) getAnalytics(ctx context.Context, what, escPath string, query url.Values, out any) error {
	if err := c.do(ctx, http.MethodGet, escPath, query, nil, out); err != nil {
		return fmt.Errorf("getting %s: %w", what, err)
	}
	return nil
}
