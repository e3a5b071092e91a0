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

// PathCounts are the visitors or views of one page path.
type PathCounts struct {
	Path  string `json:"path"`
	Human int64  `json:"human"`
	AI    int64  `json:"ai"`
	Total int64  `json:"total"`
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

// rawCounts and rawPathRow hold counts as the API sends them (JSON
// numbers, possibly 12.0), remembering which were there.
type rawCounts struct {
	Human count `json:"human"`
	AI    count `json:"ai"`
	Total count `json:"total"`
}

type rawPathRow struct {
	Path  text  `json:"path"`
	Human count `json:"human"`
	AI    count `json:"ai"`
	Total count `json:"total"`
}

// rawVisitorsPage and rawViewsPage are the two exports' shapes.
type rawVisitorsPage struct {
	Totals   *rawCounts    `json:"totals"`
	Visitors *[]rawPathRow `json:"visitors"`
	HasMore  flag          `json:"hasMore"`
}

type rawViewsPage struct {
	Totals  *rawCounts    `json:"totals"`
	Views   *[]rawPathRow `json:"views"`
	HasMore flag          `json:"hasMore"`
}

// decodePathCounts reads the shape both exports share: totals, the rows
// under listName ("visitors" or "views") and hasMore, each required; every
// count whole and not negative, every row with a path.
func decodePathCounts(data []byte, listName string, pg *PathCountsPage) error {
	var p fieldProblems
	var totals *rawCounts
	var rows *[]rawPathRow
	var more flag
	if listName == "views" {
		var raw rawViewsPage
		if err := decodeRaw(data, &raw, &p); err != nil {
			return err
		}
		totals, rows, more = raw.Totals, raw.Views, raw.HasMore
	} else {
		var raw rawVisitorsPage
		if err := decodeRaw(data, &raw, &p); err != nil {
			return err
		}
		totals, rows, more = raw.Totals, raw.Visitors, raw.HasMore
	}
	*pg = PathCountsPage{}
	if totals == nil {
		if !p.names("totals") { // of the wrong kind: already said
			p.add("totals", "missing")
		}
	} else {
		pg.Totals = Counts{
			Human: wholeCount(&p, top("totals.human"), totals.Human),
			AI:    wholeCount(&p, top("totals.ai"), totals.AI),
			Total: wholeCount(&p, top("totals.total"), totals.Total),
		}
	}
	in := list(&p, listName, rows)
	pg.Paths = make([]PathCounts, len(in))
	for i, r := range in {
		pg.Paths[i] = PathCounts{
			Path:  nonEmpty(&p, row(listName, i, "path"), r.Path),
			Human: wholeCount(&p, row(listName, i, "human"), r.Human),
			AI:    wholeCount(&p, row(listName, i, "ai"), r.AI),
			Total: wholeCount(&p, row(listName, i, "total"), r.Total),
		}
	}
	pg.HasMore = requiredBool(&p, top("hasMore"), more)
	return p.err()
}

// pathCountsSpec describes the visitors or the views endpoint.
func pathCountsSpec(what, listName string) pageSpec[PathCountsPage, PathCounts] {
	return pageSpec[PathCountsPage, PathCounts]{
		what: what, keyName: "path", path: analyticsEndpoint(listName), largest: MaxPageSize, cached: true,
		decode: func(data []byte, p *PathCountsPage) error { return decodePathCounts(data, listName, p) },
		rows:   func(p *PathCountsPage) *[]PathCounts { return &p.Paths },
		key:    func(r *PathCounts) string { return r.Path },
		more:   func(p *PathCountsPage) (bool, *string) { return p.HasMore, nil },
	}
}
