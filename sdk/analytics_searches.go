package sdk

// SearchesQuery selects documentation search terms, most searched first.
type SearchesQuery struct {
	DateFrom   string // see DateRange
	DateTo     string
	Limit      int    // page size, 1 to 100 (0: MaxSearchesPageSize)
	Cursor     string // a previous read's NextCursor ("": the start)
	MaxResults int    // stop after this many (0: all)
}

// Validate checks the query before any request is sent.
func (q SearchesQuery) Validate() error { return validatePaging(q.paging(), MaxSearchesPageSize) }

func (q SearchesQuery) paging() pageParams {
	return pageParams{dateFrom: q.DateFrom, dateTo: q.DateTo, limit: q.Limit, cursor: q.Cursor, maxResults: q.MaxResults}
}

// SearchTerm is one search term and how it fared.
type SearchTerm struct {
	Query          string  `json:"searchQuery"`
	Hits           int64   `json:"hits"`           // searches in the range
	CTR            float64 `json:"ctr"`            // click-through rate
	TopClickedPage *string `json:"topClickedPage"` // nil when none was
	LastSearchedAt string  `json:"lastSearchedAt"` // as the API wrote it
}

func (t *SearchTerm) check(c *checker) {
	c.need("searchQuery", "hits", "ctr", "lastSearchedAt")
	c.nonNegative("ctr", &t.CTR)
}

// SearchesPage is one page of search terms (or, from All, of one read).
type SearchesPage struct {
	Searches []SearchTerm `json:"searches"`
	// TotalSearches counts the range's searches (all hits), on every page.
	TotalSearches int64   `json:"totalSearches"`
	NextCursor    *string `json:"nextCursor"` // nil on the last page
	ResponseInfo
}

func (pg *SearchesPage) check(c *checker) { c.need("searches", "totalSearches") }

// searchesSpec: cursor paging, "more" only as a next cursor.
var searchesSpec = pageSpec[SearchesPage, SearchTerm]{
	what: "search queries", keyName: "search term", path: analyticsEndpoint("searches"),
	largest: MaxSearchesPageSize, cursor: true, cached: true,
	rows: func(p *SearchesPage) *[]SearchTerm { return &p.Searches },
	key:  func(r *SearchTerm) string { return r.Query },
	more: func(p *SearchesPage) (bool, *string) {
		return p.NextCursor != nil && *p.NextCursor != "", p.NextCursor
	},
}
