package sdk

import (
	"context"
	"encoding/json"
	"iter"
	"net/url"
	"strconv"
)

// VisitorsQuery selects unique-visitor rows (and, as ViewsQuery, page-view
// rows: the two endpoints take the same query).
type VisitorsQuery struct {
	// DateFrom and DateTo bound the range, each YYYY-MM-DD or an ISO 8601
	// date-time; DateTo is exclusive. Empty means not sent (the server's
	// default range).
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

// ViewsQuery selects page-view rows.
type ViewsQuery = VisitorsQuery

// Validate checks the query before any request is sent.
func (q VisitorsQuery) Validate() error {
	if err := ValidatePageSize(q.Limit, MaxPageSize); err != nil {
		return err
	}
	if q.Offset < 0 {
		return &ValidationError{Field: "offset", Value: strconv.Itoa(q.Offset), Rule: "must be 0 or more"}
	}
	if err := validateMaxResults(q.MaxResults); err != nil {
		return err
	}
	return ValidateDateRange(q.DateFrom, q.DateTo)
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

// VisitorsPage is one page of the unique-visitors export.
type VisitorsPage struct {
	Totals   VisitorCounts  `json:"totals"`
	Visitors []PathVisitors `json:"visitors"`
	HasMore  bool           `json:"hasMore"`
	// Cache says whether the page came from the client's cache.
	Cache CacheStatus `json:"-"`
}

// UniqueVisitors is the whole export: site-wide totals and every row read.
type UniqueVisitors struct {
	Totals   VisitorCounts
	Visitors []PathVisitors
	// Pages is how many pages the read took.
	Pages int
	// Cache combines the pages' cache statuses.
	Cache CacheStatus
}

// ViewCounts are content view events split by traffic kind: events, not
// visitors, so Total is Human + AI.
type ViewCounts struct {
	Human int64 `json:"human"`
	AI    int64 `json:"ai"`
	Total int64 `json:"total"`
}

// PathViews are the content view events of one page path.
type PathViews struct {
	Path  string `json:"path"`
	Human int64  `json:"human"`
	AI    int64  `json:"ai"`
	Total int64  `json:"total"`
}

// ViewsPage is one page of the page-views export.
type ViewsPage struct {
	Totals  ViewCounts  `json:"totals"`
	Views   []PathViews `json:"views"`
	HasMore bool        `json:"hasMore"`
	// Cache says whether the page came from the client's cache.
	Cache CacheStatus `json:"-"`
}

// PageViews is the whole page-views export: totals and every row read.
type PageViews struct {
	Totals ViewCounts
	Views  []PathViews
	// Pages is how many pages the read took.
	Pages int
	// Cache combines the pages' cache statuses.
	Cache CacheStatus
}

// rawCounts and rawPathRow hold counts as the API sends them (JSON
// numbers, possibly 12.0), remembering which were there.
type rawCounts struct {
	Human count `json:"human"`
	AI    count `json:"ai"`
	Total count `json:"total"`
}

type rawPathRow struct {
	Path  string `json:"path"`
	Human count  `json:"human"`
	AI    count  `json:"ai"`
	Total count  `json:"total"`
}

// rawVisitorsPage and rawViewsPage are the two exports' shapes; nil
// pointers and lists are missing fields.
type rawVisitorsPage struct {
	Totals   *rawCounts   `json:"totals"`
	Visitors []rawPathRow `json:"visitors"`
	HasMore  *bool        `json:"hasMore"`
}

type rawViewsPage struct {
	Totals  *rawCounts   `json:"totals"`
	Views   []rawPathRow `json:"views"`
	HasMore *bool        `json:"hasMore"`
}

// decodePathPage reads the shape both endpoints share: totals, a list of
// per-path counts under list, and hasMore, each required. A well-formed
// page takes the fast path (fastPathPage); any other is read carefully,
// and what is wrong named.
func decodePathPage(data []byte, list string) (totals VisitorCounts, rows []PathVisitors, hasMore bool, err error) {
	if t, r, m, ok := fastPathPage(data, list); ok {
		return t, r, m, nil
	}
	return carefulPathPage(data, list)
}

func carefulPathPage(data []byte, list string) (totals VisitorCounts, rows []PathVisitors, hasMore bool, err error) {
	if string(data) == "null" {
		return totals, nil, false, fieldProblems{"answer: want an object, got null"}
	}
	var raw rawVisitorsPage
	if list == "views" {
		var views rawViewsPage
		err = json.Unmarshal(data, &views)
		raw = rawVisitorsPage{Totals: views.Totals, Visitors: views.Views, HasMore: views.HasMore}
	} else {
		err = json.Unmarshal(data, &raw)
	}
	if err != nil {
		return totals, nil, false, pageTypeProblem(err, list)
	}
	var p fieldProblems
	if raw.Totals == nil {
		p.add("totals", "missing")
	} else {
		totals.Human = wholeCount(&p, top("totals.human"), raw.Totals.Human)
		totals.AI = wholeCount(&p, top("totals.ai"), raw.Totals.AI)
		totals.Total = wholeCount(&p, top("totals.total"), raw.Totals.Total)
	}
	in := raw.Visitors
	if in == nil {
		p.add(list, "missing")
	}
	rows = make([]PathVisitors, len(in))
	for i, r := range in {
		if r.Path == "" {
			p.add(row(list, i, "path").String(), "missing or empty")
		}
		rows[i] = PathVisitors{
			Path:  r.Path,
			Human: wholeCount(&p, row(list, i, "human"), r.Human),
			AI:    wholeCount(&p, row(list, i, "ai"), r.AI),
			Total: wholeCount(&p, row(list, i, "total"), r.Total),
		}
	}
	hasMore = requiredBool(&p, top("hasMore"), raw.HasMore)
	return totals, rows, hasMore, p.err()
}

// UnmarshalJSON decodes and checks a page: every count present, whole and
// not negative, every row with a path.
func (pg *VisitorsPage) UnmarshalJSON(data []byte) error {
	totals, rows, more, err := decodePathPage(data, "visitors")
	*pg = VisitorsPage{Totals: totals, Visitors: rows, HasMore: more}
	return err
}

// UnmarshalJSON decodes and checks a page, as VisitorsPage does.
func (pg *ViewsPage) UnmarshalJSON(data []byte) error {
	totals, rows, more, err := decodePathPage(data, "views")
	views := make([]PathViews, len(rows))
	for i, r := range rows {
		views[i] = PathViews(r)
	}
	*pg = ViewsPage{Totals: ViewCounts(totals), Views: views, HasMore: more}
	return err
}

func offsetQuery(q VisitorsQuery, r pageRequest) url.Values {
	v := analyticsQuery(q.DateFrom, q.DateTo)
	v.Set("limit", strconv.Itoa(r.limit))
	v.Set("offset", strconv.Itoa(r.offset))
	return v
}

func visitorsPager(c *Client, projectID string, q VisitorsQuery) pager[VisitorsPage] {
	return pager[VisitorsPage]{
		what: "unique visitors", keyName: "path",
		fetch: func(ctx context.Context, r pageRequest) (*VisitorsPage, error) {
			return fetchInto[VisitorsPage](ctx, c, "unique visitors", analyticsPath(projectID, "visitors"), offsetQuery(q, r))
		},
		view: func(p *VisitorsPage) pageView {
			return pageView{rows: len(p.Visitors), key: func(i int) string { return p.Visitors[i].Path }, hasMore: p.HasMore}
		},
		trim: func(p *VisitorsPage, n int) { p.Visitors = p.Visitors[:n] },
	}
}

func viewsPager(c *Client, projectID string, q ViewsQuery) pager[ViewsPage] {
	return pager[ViewsPage]{
		what: "page views", keyName: "path",
		fetch: func(ctx context.Context, r pageRequest) (*ViewsPage, error) {
			return fetchInto[ViewsPage](ctx, c, "page views", analyticsPath(projectID, "views"), offsetQuery(q, r))
		},
		view: func(p *ViewsPage) pageView {
			return pageView{rows: len(p.Views), key: func(i int) string { return p.Views[i].Path }, hasMore: p.HasMore}
		},
		trim: func(p *ViewsPage, n int) { p.Views = p.Views[:n] },
	}
}

// offsetPages validates the query, then reads its pages with pg.
func offsetPages[P any](ctx context.Context, c *Client, projectID string, q VisitorsQuery, pg pager[P]) iter.Seq2[*P, error] {
	if err := validateQuery(projectID, q); err != nil {
		return failed[P](err)
	}
	return readPages(ctx, c, pg, firstRequest(q), q.MaxResults)
}

// onePage validates the query, then reads the one page it names with pg.
func onePage[P any](ctx context.Context, projectID string, q VisitorsQuery, pg pager[P]) (*P, error) {
	if err := validateQuery(projectID, q); err != nil {
		return nil, err
	}
	return pg.fetch(ctx, firstRequest(q))
}

func validateQuery(projectID string, q interface{ Validate() error }) error {
	if err := ValidateProjectID(projectID); err != nil {
		return err
	}
	return q.Validate()
}

func firstRequest(q VisitorsQuery) pageRequest {
	return pageRequest{limit: orLargest(q.Limit, MaxPageSize), offset: q.Offset}
}

// GetUniqueVisitors reads one page: q.Limit rows (250 when 0) from q.Offset.
func (c *Client) GetUniqueVisitors(ctx context.Context, projectID string, q VisitorsQuery) (*VisitorsPage, error) {
	return onePage(ctx, projectID, q, visitorsPager(c, projectID, q))
}

// UniqueVisitorPages iterates over pages from q.Offset, asking for the next
// page (offset + rows received) while the server says hasMore, and stopping
// once q.MaxResults rows have been read. Each page is requested exactly once;
// see readPages for the guards against a server that does not advance. An
// error ends the iteration; it is yielded with a nil page.
func (c *Client) UniqueVisitorPages(ctx context.Context, projectID string, q VisitorsQuery) iter.Seq2[*VisitorsPage, error] {
	return offsetPages(ctx, c, projectID, q, visitorsPager(c, projectID, q))
}

// UniqueVisitorRows iterates over rows across pages; see UniqueVisitorPages.
func (c *Client) UniqueVisitorRows(ctx context.Context, projectID string, q VisitorsQuery) iter.Seq2[PathVisitors, error] {
	return rowsOf(c.UniqueVisitorPages(ctx, projectID, q), func(p *VisitorsPage) []PathVisitors { return p.Visitors })
}

// ListAllUniqueVisitors reads every page (or up to q.MaxResults rows) and
// returns the totals of the first page with all rows, in the API's order.
func (c *Client) ListAllUniqueVisitors(ctx context.Context, projectID string, q VisitorsQuery) (*UniqueVisitors, error) {
	out := &UniqueVisitors{}
	all, err := collect(c.UniqueVisitorPages(ctx, projectID, q), func(p *VisitorsPage) []PathVisitors { return p.Visitors },
		func(p *VisitorsPage) CacheStatus { return p.Cache }, func(p *VisitorsPage) { out.Totals = p.Totals })
	if err != nil {
		return nil, err
	}
	out.Visitors, out.Pages, out.Cache = all.rows, all.pages, all.cache
	return out, nil
}

// GetPageViews reads one page of content view events per path: q.Limit
// rows (250 when 0) from q.Offset.
func (c *Client) GetPageViews(ctx context.Context, projectID string, q ViewsQuery) (*ViewsPage, error) {
	return onePage(ctx, projectID, q, viewsPager(c, projectID, q))
}

// PageViewPages iterates over pages of page views, as UniqueVisitorPages
// does for visitors.
func (c *Client) PageViewPages(ctx context.Context, projectID string, q ViewsQuery) iter.Seq2[*ViewsPage, error] {
	return offsetPages(ctx, c, projectID, q, viewsPager(c, projectID, q))
}

// PageViewRows iterates over page-view rows across pages.
func (c *Client) PageViewRows(ctx context.Context, projectID string, q ViewsQuery) iter.Seq2[PathViews, error] {
	return rowsOf(c.PageViewPages(ctx, projectID, q), func(p *ViewsPage) []PathViews { return p.Views })
}

// ListAllPageViews reads every page (or up to q.MaxResults rows) and returns
// the totals of the first page with all rows, in the API's order.
func (c *Client) ListAllPageViews(ctx context.Context, projectID string, q ViewsQuery) (*PageViews, error) {
	out := &PageViews{}
	all, err := collect(c.PageViewPages(ctx, projectID, q), func(p *ViewsPage) []PathViews { return p.Views },
		func(p *ViewsPage) CacheStatus { return p.Cache }, func(p *ViewsPage) { out.Totals = p.Totals })
	if err != nil {
		return nil, err
	}
	out.Views, out.Pages, out.Cache = all.rows, all.pages, all.cache
	return out, nil
}
