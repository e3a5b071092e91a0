package sdk

// VisitorsQuery selects rows of unique visitors or of page views.
type VisitorsQuery struct {
	// DateFrom and DateTo bound the range (see DateRange).
	DateFrom string
	DateTo   string
	Limit    int // page size, 1 to 250 (0: MaxPageSize)
	Offset   int // rows to skip
	// MaxResults stops after this many rows (0: all); not sent. For the
	// totals alone, read one Page with Limit 1.
	MaxResults int
}

// Validate checks the query before any request is sent.
func (q VisitorsQuery) Validate() error { return validatePaging(q.paging(), MaxPageSize) }

func (q VisitorsQuery) paging() pageParams {
	return pageParams{dateFrom: q.DateFrom, dateTo: q.DateTo, limit: q.Limit, offset: q.Offset, maxResults: q.MaxResults}
}

// Counts are a site's visitors or views by traffic kind. For unique
// visitors Total is deduplicated, not Human + AI; for views it is.
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

// PathCountsPage is one page of visitors or views (or, from All, of one
// read).
type PathCountsPage struct {
	Totals  Counts       `json:"totals"` // the whole range's, on every page
	Paths   []PathCounts `json:"paths"`
	HasMore bool         `json:"hasMore"`
	ResponseInfo
}

func (pg *PathCountsPage) check(c *checker) { c.need("totals", "paths", "hasMore") }

// decodePathCounts reads either export, its rows under listName.
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
