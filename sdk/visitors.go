package sdk

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
)

// MaxPageSize is the largest page the analytics API serves. Analytics calls
// are rate limited per organization (100 an hour), so the paging helpers
// default to it: the fewest requests for the data.
const MaxPageSize = 250

// VisitorsQuery selects unique-visitor rows.
type VisitorsQuery struct {
	// DateFrom and DateTo bound the range, each YYYY-MM-DD or RFC 3339;
	// DateTo is exclusive. Empty means not sent (the server's default range).
	DateFrom string
	DateTo   string
	// Limit is the page size, 1 to 250; 0 means MaxPageSize.
	Limit int
	// Offset is how many rows to skip, 0 or more.
	Offset int
	// MaxResults stops the paging helpers after this many rows (0: all).
	// It is not sent; the last page is shrunk so no row is fetched in vain.
	MaxResults int
}

// Validate checks the query before any request is sent.
func (q VisitorsQuery) Validate() error {
	if q.Limit < 0 || q.Limit > MaxPageSize {
		return &ValidationError{Field: "limit", Value: strconv.Itoa(q.Limit), Rule: fmt.Sprintf("must be between 1 and %d", MaxPageSize)}
	}
	if q.Offset < 0 {
		return &ValidationError{Field: "offset", Value: strconv.Itoa(q.Offset), Rule: "must be 0 or more"}
	}
	if q.MaxResults < 0 {
		return &ValidationError{Field: "maxResults", Value: strconv.Itoa(q.MaxResults), Rule: "must be 0 (no limit) or more"}
	}
	return ValidateDateRange(q.DateFrom, q.DateTo)
}

func (q VisitorsQuery) pageSize() int {
	if q.Limit == 0 {
		return MaxPageSize
	}
	return q.Limit
}

// VisitorCounts are unique visitors split by traffic kind. Total is
// deduplicated across human and AI traffic: it is not Human + AI.
type VisitorCounts struct {
	Human int64 `json:"human"`
	AI    int64 `json:"ai"`
	Total int64 `json:"total"`
}

// PathVisitors are the unique visitors of one page path.
type PathVisitors struct {
	Path  string `json:"path"`
	Human int64  `json:"human"`
	AI    int64  `json:"ai"`
	Total int64  `json:"total"`
}

// VisitorsPage is one page of the analytics export.
type VisitorsPage struct {
	Totals   VisitorCounts  `json:"totals"`
	Visitors []PathVisitors `json:"visitors"`
	HasMore  bool           `json:"hasMore"`
}

// UniqueVisitors is the whole export: site-wide totals and every row read.
type UniqueVisitors struct {
	Totals   VisitorCounts
	Visitors []PathVisitors
	// Pages is how many requests the read took.
	Pages int
}

// GetUniqueVisitors reads one page: q.Limit rows (250 when 0) from q.Offset.
func (c *Client) GetUniqueVisitors(ctx context.Context, projectID string, q VisitorsQuery) (*VisitorsPage, error) {
	if err := ValidateProjectID(projectID); err != nil {
		return nil, err
	}
	if err := q.Validate(); err != nil {
		return nil, err
	}
	return c.getVisitorsPage(ctx, projectID, q.DateFrom, q.DateTo, q.pageSize(), q.Offset)
}

func (c *Client) getVisitorsPage(ctx context.Context, projectID, from, to string, limit, offset int) (*VisitorsPage, error) {
	query := url.Values{"limit": {strconv.Itoa(limit)}, "offset": {strconv.Itoa(offset)}}
	if from != "" {
		query.Set("dateFrom", from)
	}
	if to != "" {
		query.Set("dateTo", to)
	}
	var page VisitorsPage
	if err := c.do(ctx, http.MethodGet, escapePath("v1", "analytics", projectID, "visitors"), query, nil, &page); err != nil {
		return nil, fmt.Errorf("getting unique visitors: %w", err)
	}
	return &page, nil
}

// UniqueVisitorPages iterates over pages from q.Offset, asking for the next
// page (offset + rows received) while the server says hasMore, and stopping
// once q.MaxResults rows have been read. Each page is requested exactly once.
// An error ends the iteration; it is yielded with a nil page.
func (c *Client) UniqueVisitorPages(ctx context.Context, projectID string, q VisitorsQuery) iter.Seq2[*VisitorsPage, error] {
	return func(yield func(*VisitorsPage, error) bool) {
		if err := ValidateProjectID(projectID); err != nil {
			yield(nil, err)
			return
		}
		if err := q.Validate(); err != nil {
			yield(nil, err)
			return
		}
		size, offset, read := q.pageSize(), q.Offset, 0
		prevFirst := ""
		for {
			limit := size
			if q.MaxResults > 0 {
				limit = min(limit, q.MaxResults-read)
			}
			page, err := c.getVisitorsPage(ctx, projectID, q.DateFrom, q.DateTo, limit, offset)
			if err != nil {
				yield(nil, err)
				return
			}
			if len(page.Visitors) > limit {
				// A server that ignores limit must not make us hand out more
				// than was asked for, nor skip rows on the next offset.
				page.Visitors = page.Visitors[:limit]
			}
			if page.HasMore && len(page.Visitors) == 0 {
				yield(nil, fmt.Errorf("getting unique visitors: the page at offset %d is empty but hasMore is true; stopping rather than loop", offset))
				return
			}
			// Each path appears once in an export: a page that starts where
			// the previous one did means the server is not honoring offset.
			if len(page.Visitors) > 0 {
				if read > 0 && page.Visitors[0].Path == prevFirst {
					yield(nil, fmt.Errorf("getting unique visitors: the page at offset %d repeats the previous page (path %q); the server is not advancing, stopping rather than loop", offset, prevFirst))
					return
				}
				prevFirst = page.Visitors[0].Path
			}
			read += len(page.Visitors)
			offset += len(page.Visitors)
			done := !page.HasMore || (q.MaxResults > 0 && read >= q.MaxResults)
			if !yield(page, nil) || done {
				return
			}
		}
	}
}

// UniqueVisitorRows iterates over rows across pages; see UniqueVisitorPages.
func (c *Client) UniqueVisitorRows(ctx context.Context, projectID string, q VisitorsQuery) iter.Seq2[PathVisitors, error] {
	return func(yield func(PathVisitors, error) bool) {
		for page, err := range c.UniqueVisitorPages(ctx, projectID, q) {
			if err != nil {
				yield(PathVisitors{}, err)
				return
			}
			for _, row := range page.Visitors {
				if !yield(row, nil) {
					return
				}
			}
		}
	}
}

// ListAllUniqueVisitors reads every page (or up to q.MaxResults rows) and
// returns the totals of the first page with all rows, in the API's order.
func (c *Client) ListAllUniqueVisitors(ctx context.Context, projectID string, q VisitorsQuery) (*UniqueVisitors, error) {
	out := &UniqueVisitors{}
	for page, err := range c.UniqueVisitorPages(ctx, projectID, q) {
		if err != nil {
			return nil, err
		}
		if out.Pages == 0 {
			out.Totals = page.Totals
			out.Visitors = make([]PathVisitors, 0, len(page.Visitors))
		}
		out.Pages++
		out.Visitors = append(out.Visitors, page.Visitors...)
	}
	if out.Visitors == nil {
		out.Visitors = []PathVisitors{}
	}
	return out, nil
}
