package sdk

import (
	"context"
	"iter"
	"net/url"
	"strconv"
)

// cursorRange is what every cursor-paged query has: dates, page size, a
// starting cursor and a cap on rows.
type cursorRange struct {
	from, to   string
	limit      int
	largest    int
	cursor     string
	maxResults int
}

func (r cursorRange) validate() error {
	if err := ValidatePageSize(r.limit, r.largest); err != nil {
		return err
	}
	if err := validateMaxResults(r.maxResults); err != nil {
		return err
	}
	return ValidateDateRange(r.from, r.to)
}

// query is the query string of the page r asks for, plus extra filters.
func (r cursorRange) query(p pageRequest, extra url.Values) url.Values {
	v := analyticsQuery(r.from, r.to)
	for k, vs := range extra {
		v[k] = vs
	}
	v.Set("limit", strconv.Itoa(p.limit))
	if p.cursor != "" {
		v.Set("cursor", p.cursor)
	}
	return v
}

func (r cursorRange) start() pageRequest {
	return pageRequest{limit: orLargest(r.limit, r.largest), cursor: r.cursor}
}

// cursorPages validates the project and query, then reads pages with pg.
func cursorPages[P any](ctx context.Context, c *Client, projectID string, validate func() error, r cursorRange, pg pager[P]) iter.Seq2[*P, error] {
	if err := ValidateProjectID(projectID); err != nil {
		return failed[P](err)
	}
	if err := validate(); err != nil {
		return failed[P](err)
	}
	return readPages(ctx, c, pg, r.start(), r.maxResults)
}

// cursorPage validates, then reads the one page r names.
func cursorPage[P any](ctx context.Context, projectID string, validate func() error, r cursorRange, pg pager[P]) (*P, error) {
	if err := ValidateProjectID(projectID); err != nil {
		return nil, err
	}
	if err := validate(); err != nil {
		return nil, err
	}
	return pg.fetch(ctx, r.start())
}

// moreByCursor is "has more" for an endpoint that says so only with a
// cursor: a next cursor means more.
func moreByCursor(next *string) bool { return next != nil && *next != "" }
