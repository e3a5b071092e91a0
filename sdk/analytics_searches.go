package sdk

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

// Validate checks the query before any request is sent.
func (q SearchesQuery) Validate() error { return validatePaging(q.paging(), MaxSearchesPageSize) }

func (q SearchesQuery) paging() pageParams {
	return pageParams{dateFrom: q.DateFrom, dateTo: q.DateTo, limit: q.Limit, cursor: q.Cursor, maxResults: q.MaxResults}
}

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

func (t *SearchTerm) check(c *checker) {
	c.need("searchQuery", "hits", "ctr", "lastSearchedAt")
	c.nonNegative("ctr", &t.CTR)
}

// SearchesPage is one page of search terms (or, from All, every page of
// one read).
type SearchesPage struct {
	Searches []SearchTerm `json:"searches"`
	// TotalSearches counts search events in the range (the sum of all hits,
	// not distinct terms); every page carries it.
	TotalSearches int64 `json:"totalSearches"`
	// NextCursor leads to the next page; nil on the last one.
	NextCursor *string `json:"nextCursor"`
	ResponseInfo
}

func (pg *SearchesPage) check(c *checker) { c.need("searches", "totalSearches") }

// searchesSpec describes the searches endpoint: cursor paging, and "more"
// only as a next cursor (the endpoint has no hasMore).
var searchesSpec = pageSpec[SearchesPage, SearchTerm]{
	what: "search queries", keyName: "search term", path: analyticsEndpoint("searches"),
	largest: MaxSearchesPageSize, cursor: true, cached: true,
	rows: func(p *SearchesPage) *[]SearchTerm { return &p.Searches },
	key:  func(r *SearchTerm) string { return r.Query },
	more: func(p *SearchesPage) (bool, *string) {
		return p.NextCursor != nil && *p.NextCursor != "", p.NextCursor
	},
}
