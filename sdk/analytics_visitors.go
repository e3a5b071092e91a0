package sdk

// VisitorsQuery selects rows of unique visitors or of page views (the two
// endpoints take the same query).
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
	// For the site's totals alone, read one Page with Limit 1: every page
	// carries Totals (the provider's max_results = 0 does that).
	MaxResults int
}

// Validate checks the query before any request is sent.
func (q VisitorsQuery) Validate() error { return validatePaging(q.paging(), MaxPageSize) }

func (q VisitorsQuery) paging() pageParams {
	return pageParams{dateFrom: q.DateFrom, dateTo: q.DateTo, limit: q.Limit, offset: q.Offset, maxResults: q.MaxResults}
}

// Counts are a site's visitors or views split by traffic kind. For unique
// visitors Total is deduplicated across human and AI traffic: it is not
// Human + AI. For page views (events, not visitors) it is.
type Counts struct {
	Human int64 `json:"human"`
	AI    int64 `json:"ai"`
	Total int64 `json:"total"`
}

func (t *Counts) check(c *checker) { c.need("human", "ai", "total") }

// PathCounts are the visitors or views of one page path.
type PathCounts struct {
	Path  string `json:"path"`
	Human int64  `json:"human"`
	AI    int64  `json:"ai"`
	Total int64  `json:"total"`
}

func (r *PathCounts) check(c *checker) {
	c.need("path", "human", "ai", "total")
	c.nonEmpty("path", r.Path)
}

// PathCountsPage is one page of the unique-visitors or the page-views
// export (or, from All, every page of one read).
type PathCountsPage struct {
	// Totals are the site's counts for the whole range; every page
	// carries them.
	Totals Counts `json:"totals"`
	// Paths are the page's rows, in the API's order (which it does not
	// document).
	Paths   []PathCounts `json:"paths"`
	HasMore bool         `json:"hasMore"`
	ResponseInfo
}

func (pg *PathCountsPage) check(c *checker) { c.need("totals", "paths", "hasMore") }

// decodePathCounts reads the shape both exports share, its rows under
// listName ("visitors" or "views").
func decodePathCounts(d decoding, data []byte, listName string, pg *PathCountsPage) error {
	d.names = map[string]string{"paths": listName}
	return d.decode(data, pg)
}

// pathCountsSpec describes the visitors or the views endpoint.
func pathCountsSpec(what, listName string) pageSpec[PathCountsPage, PathCounts] {
	return pageSpec[PathCountsPage, PathCounts]{
		what: what, keyName: "path", path: analyticsEndpoint(listName), largest: MaxPageSize, cached: true,
		decode: func(d decoding, data []byte, p *PathCountsPage) error { return decodePathCounts(d, data, listName, p) },
		rows:   func(p *PathCountsPage) *[]PathCounts { return &p.Paths },
		key:    func(r *PathCounts) string { return r.Path },
		more:   func(p *PathCountsPage) (bool, *string) { return p.HasMore, nil },
	}
}
