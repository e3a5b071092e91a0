package sdk

import (
	"context"
	"iter"
)

// SearchesQuery selects documentation search terms, most searched first.
type SearchesQuery struct {
	// DateFrom and DateTo bound the range (DateTo exclusive); see DateRange.
	DateFrom string
	DateTo   string
	// Limit is the page size, 1 to 100; 0 means MaxSearchesPageSize.
	Limit int
	// Cursor starts the read at a page a previous read stopped before
	// (its last page's NextCursor); "" starts at the beginning.
	Cursor string
	// MaxResults stops the paging helpers after this many terms (0: all).
	MaxResults int
}

func (q SearchesQuery) r() cursorRange {
	return cursorRange{q.DateFrom, q.DateTo, q.Limit, MaxSearchesPageSize, q.Cursor, q.MaxResults}
}

// Validate checks the query before any request is sent.
func (q SearchesQuery) Validate() error { return q.r().validate() }

// SearchTerm is one search term and how it fared.
type SearchTerm struct {
	Query string `json:"searchQuery"`
	// Hits is how many times the term was searched in the range.
	Hits int64 `json:"hits"`
	// CTR is the click-through rate of the term's results.
	CTR float64 `json:"ctr"`
	// TopClickedPage is the result path clicked most; nil when none was.
	TopClickedPage *string `json:"topClickedPage"`
	// LastSearchedAt is when the term was last searched, as the API wrote it.
	LastSearchedAt string `json:"lastSearchedAt"`
}

// SearchesPage is one page of search terms.
type SearchesPage struct {
	Searches []SearchTerm `json:"searches"`
	// TotalSearches counts search events in the range (the sum of all hits,
	// not distinct terms); every page carries it.
	TotalSearches int64 `json:"totalSearches"`
	// NextCursor leads to the next page; nil on the last one.
	NextCursor *string `json:"nextCursor"`
	// Cache says whether the page came from the client's cache.
	Cache CacheStatus `json:"-"`
}

// Searches is every search term read, with the range's total.
type Searches struct {
	TotalSearches int64
	Searches      []SearchTerm
	Pages         int
	// Cache combines the pages' cache statuses.
	Cache CacheStatus
}

type rawSearchTerm struct {
	Query          *string `json:"searchQuery"`
	Hits           count   `json:"hits"`
	CTR            count   `json:"ctr"`
	TopClickedPage *string `json:"topClickedPage"`
	LastSearchedAt *string `json:"lastSearchedAt"`
}

// UnmarshalJSON decodes and checks a page: every term with its counts.
func (pg *SearchesPage) UnmarshalJSON(data []byte) error {
	fields, err := decodeTop(data)
	if err != nil {
		return err
	}
	var p fieldProblems
	var raw []rawSearchTerm
	if err := decodeList(&p, fields, "searches", &raw); err != nil {
		return err
	}
	*pg = SearchesPage{Searches: make([]SearchTerm, len(raw))}
	for i, r := range raw {
		pg.Searches[i] = SearchTerm{
			Query:          required(&p, row("searches", i, "searchQuery"), r.Query),
			Hits:           wholeCount(&p, row("searches", i, "hits"), r.Hits),
			CTR:            ratio(&p, row("searches", i, "ctr"), r.CTR),
			TopClickedPage: r.TopClickedPage,
			LastSearchedAt: required(&p, row("searches", i, "lastSearchedAt"), r.LastSearchedAt),
		}
	}
	var total count
	decodeField(&p, fields, "totalSearches", &total)
	pg.TotalSearches = wholeCount(&p, top("totalSearches"), total)
	decodeField(&p, fields, "nextCursor", &pg.NextCursor)
	return p.err()
}

func searchesPager(c *Client, projectID string, q SearchesQuery) pager[SearchesPage] {
	return pager[SearchesPage]{
		what: "search queries", keyName: "search term", cursor: true,
		fetch: func(ctx context.Context, r pageRequest) (*SearchesPage, error) {
			return fetchInto[SearchesPage](ctx, c, "search queries", analyticsPath(projectID, "searches"), q.r().query(r, nil))
		},
		view: func(p *SearchesPage) pageView {
			return pageView{rows: len(p.Searches), key: func(i int) string { return p.Searches[i].Query },
				hasMore: moreByCursor(p.NextCursor), next: p.NextCursor}
		},
		trim: func(p *SearchesPage, n int) { p.Searches = p.Searches[:n] },
	}
}

// GetSearches reads one page of search terms (q.Limit, 100 when 0, from
// q.Cursor).
func (c *Client) GetSearches(ctx context.Context, projectID string, q SearchesQuery) (*SearchesPage, error) {
	return cursorPage(ctx, projectID, q.Validate, q.r(), searchesPager(c, projectID, q))
}

// SearchPages iterates over pages of search terms, following nextCursor,
// until the last page or q.MaxResults terms.
func (c *Client) SearchPages(ctx context.Context, projectID string, q SearchesQuery) iter.Seq2[*SearchesPage, error] {
	return cursorPages(ctx, c, projectID, q.Validate, q.r(), searchesPager(c, projectID, q))
}

// SearchRows iterates over search terms across pages.
func (c *Client) SearchRows(ctx context.Context, projectID string, q SearchesQuery) iter.Seq2[SearchTerm, error] {
	return rowsOf(c.SearchPages(ctx, projectID, q), func(p *SearchesPage) []SearchTerm { return p.Searches })
}

// ListAllSearches reads every page (or up to q.MaxResults terms).
func (c *Client) ListAllSearches(ctx context.Context, projectID string, q SearchesQuery) (*Searches, error) {
	out := &Searches{}
	all, err := collect(c.SearchPages(ctx, projectID, q), func(p *SearchesPage) []SearchTerm { return p.Searches },
		func(p *SearchesPage) CacheStatus { return p.Cache }, func(p *SearchesPage) { out.TotalSearches = p.TotalSearches })
	if err != nil {
		return nil, err
	}
	out.Searches, out.Pages, out.Cache = all.rows, all.pages, all.cache
	return out, nil
}
