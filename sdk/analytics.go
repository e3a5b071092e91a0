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

// getAnalytics sends one analytics GET, through the cache when the client
// has one, and decodes its answer into out.
func (c *Client) getAnalytics(ctx context.Context, what, escPath string, query url.Values, out any) (CacheStatus, error) {
	var status CacheStatus
	var err error
	if c.cache != nil {
		status, err = c.getCached(ctx, escPath, query, out)
	} else {
		err = c.do(ctx, http.MethodGet, escPath, query, nil, out)
	}
	if err != nil {
		return status, fmt.Errorf("getting %s: %w", what, err)
	}
	return status, nil
}

// cacheNoter is an analytics answer that records where it came from.
type cacheNoter interface{ noteCache(CacheStatus) }

// fetchInto reads one analytics answer into a new P; nil on error.
func fetchInto[P any](ctx context.Context, c *Client, what, escPath string, query url.Values) (*P, error) {
	page := new(P)
	status, err := c.getAnalytics(ctx, what, escPath, query, page)
	if err != nil {
		return nil, err
	}
	if n, ok := any(page).(cacheNoter); ok {
		n.noteCache(status)
	}
	return page, nil
}

func (pg *VisitorsPage) noteCache(s CacheStatus)   { pg.Cache = s }
func (pg *ViewsPage) noteCache(s CacheStatus)      { pg.Cache = s }
func (pg *SearchesPage) noteCache(s CacheStatus)   { pg.Cache = s }
func (pg *FeedbackPage) noteCache(s CacheStatus)   { pg.Cache = s }
func (fb *FeedbackByPage) noteCache(s CacheStatus) { fb.Cache = s }
func (pg *AssistantPage) noteCache(s CacheStatus)  { pg.Cache = s }
func (t *AssistantThread) noteCache(s CacheStatus) { t.Cache = s }
func (cs *CallerStats) noteCache(s CacheStatus)    { cs.Cache = s }
