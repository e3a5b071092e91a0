package sdk

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/paging"
)

// DefaultMaxPagesPerRead caps the requests of one paging read: 250,000
// unique-visitor rows at the largest page.
const DefaultMaxPagesPerRead = 1000

// DefaultMaxBytesPerRead caps the answers of one paging read: about ten
// times a 100,000-path site's unique visitors.
const DefaultMaxBytesPerRead = 64 << 20

// PageQuery is the query of a paged endpoint (VisitorsQuery, ...).
type PageQuery interface {
	Validate() error
	paging() pageParams
}

// pageParams is what the paging code needs of a query.
type pageParams struct {
	dateFrom, dateTo string
	limit            int // 0: the endpoint's largest page
	offset           int
	cursor           string
	maxResults       int        // 0: no limit
	filters          url.Values // further query parameters
}

// PagedEndpoint is one paged endpoint, such as Client.Analytics.Visitors:
// Q is its query, P its page type, R its row type. All read through one
// loop with the same guards (see Pages).
type PagedEndpoint[Q PageQuery, P any, R any] struct {
	core *core
	spec *pageSpec[P, R]
}

// pageSpec describes a paged endpoint.
type pageSpec[P, R any] struct {
	what    string // "unique visitors", for errors
	keyName string // what identifies a row: "path", "id"
	path    func(projectID string) string
	largest int  // the largest page the endpoint serves
	cursor  bool // cursor paging; otherwise offset paging
	// cached: an analytics endpoint, read through the cache and the
	// known-spent budget.
	cached bool
	params paging.Names // when not limit and offset
	// prepends, rows, key, more and skipped are what the loop tells
	// paging.Walk (more: nil when the endpoint does not say). decode reads
	// a page (nil: as P); merge joins what pages set aside, for All.
	prepends bool
	decode   func(d decoding, data []byte, page *P) error
	rows     func(*P) *[]R
	key      func(*R) string
	more     func(*P) (bool, *string)
	skipped  func(*P) int
	merge    func(into, from *P)
}

// newPaged makes a paged endpoint from its description.
func newPaged[Q PageQuery, P any, R any](k *core, spec pageSpec[P, R]) *PagedEndpoint[Q, P, R] {
	return &PagedEndpoint[Q, P, R]{core: k, spec: &spec}
}

// start is a query's first page: its limit (0: the largest) from its
// offset or cursor.
func (s *pageSpec[P, R]) start(q pageParams) paging.Request {
	return paging.Request{Limit: cmp.Or(q.limit, s.largest), Offset: q.offset, Cursor: q.cursor}
}

// query is the query string of one page.
func (s *pageSpec[P, R]) query(q pageParams, r paging.Request) url.Values {
	return paging.Query(paging.Values(q.dateFrom, q.dateTo, q.filters), s.params, s.cursor, r)
}

// check is checked for the project and the query.
func (e *PagedEndpoint[Q, P, R]) check(projectID string, q Q) (*core, error) {
	if e == nil {
		return nil, ErrNotConfigured
	}
	return checked(e.core, ValidateProjectID(projectID), q.Validate())
}

// Page reads one page: the query's limit (0: the largest) from its offset
// or cursor. An analytics page is read through the cache as a read of its
// own.
func (e *PagedEndpoint[Q, P, R]) Page(ctx context.Context, projectID string, q Q) (*P, error) {
	k, err := e.check(projectID, q)
	if err != nil {
		return nil, err
	}
	c := e.call(projectID, q.paging(), e.spec.start(q.paging()))
	var page *P
	if e.spec.cached {
		page, err = readOne(ctx, k, "page\x00"+k.requestURL(c), c, e.spec.decode)
	} else {
		page, _, _, err = fetchPage(ctx, k, c, e.spec.decode)
	}
	if err != nil {
		return nil, fmt.Errorf("getting %s: %w", e.spec.what, err)
	}
	return page, nil
}

// call is the request of one page.
func (e *PagedEndpoint[Q, P, R]) call(projectID string, q pageParams, r paging.Request) call {
	return call{method: http.MethodGet, path: e.spec.path(projectID), query: e.spec.query(q, r)}
}

// requestURL is a request's address: what a cache entry answers.
func (k *core) requestURL(c call) string {
	u := k.baseURL.String() + c.path
	if q := c.query.Encode(); q != "" {
		u += "?" + q
	}
	return u
}

// Pages iterates over pages from the query's offset or cursor, asking for
// each once at the query's page size (0: the largest), until MaxResults
// rows (0: no limit; the last page shrunk to fit). An error ends the
// iteration, yielded with a nil page.
//
// A server that misbehaves (an empty page claiming more, a row or cursor
// seen before, more without a cursor, a read past WithMaxPagesPerRead or
// WithMaxBytesPerRead) ends the read with a *PagingError. An analytics
// read is cached whole (all its pages from the cache or all from the
// API); a read stopped early is not cached.
func (e *PagedEndpoint[Q, P, R]) Pages(ctx context.Context, projectID string, q Q) iter.Seq2[*P, error] {
	k, err := e.check(projectID, q)
	if err != nil {
		return func(yield func(*P, error) bool) { yield(nil, err) }
	}
	return e.read(ctx, k, projectID, q.paging(), false)
}

// read is Pages; whole is cachedRead's.
func (e *PagedEndpoint[Q, P, R]) read(ctx context.Context, k *core, projectID string, q pageParams, whole bool) iter.Seq2[*P, error] {
	return func(yield func(*P, error) bool) {
		rd := paging.Read{Start: e.spec.start(q), Cursor: e.spec.cursor, Prepends: e.spec.prepends, MaxResults: q.maxResults,
			MaxPages: k.maxPagesPerRead, MaxBytes: k.maxBytesPerRead, Untrusted: Redacted}
		walk := func(src pageSource[P], emit func(*P) bool) (bool, error) { return e.walk(projectID, q, rd, src, emit) }
		if !e.spec.cached {
			api := func(c call) (*P, int64, error) {
				p, size, _, err := fetchPage(ctx, k, c, e.spec.decode)
				return p, size, err
			}
			if _, err := walk(api, func(p *P) bool { return yield(p, nil) }); err != nil {
				yield(nil, err)
			}
			return
		}
		key := "read\x00" + k.requestURL(e.call(projectID, q, rd.First())) + "\x00" + strconv.Itoa(q.maxResults)
		cachedRead(ctx, k, key, whole, e.spec.decode, walk, yield)
	}
}

// walk is the paging loop: it asks src for each page of rd, has
// paging.Walk check it (keeping the rows it keeps) and hands it to emit;
// it reports whether it reached the read's end, or why not.
func (e *PagedEndpoint[Q, P, R]) walk(projectID string, q pageParams, rd paging.Read, src pageSource[P], emit func(*P) bool) (bool, error) {
	s, w := e.spec, rd.Walk()
	for {
		r, stop := w.Next()
		if stop != nil {
			return false, s.pagingError(rd, stop)
		}
		page, size, err := src(e.call(projectID, q, r))
		if err != nil {
			return false, fmt.Errorf("getting %s: %w", s.what, err)
		}
		rows := s.rows(page)
		said := paging.Page{Size: size, Keys: make([]string, len(*rows))}
		for i := range *rows {
			said.Keys[i] = s.key(&(*rows)[i])
		}
		if s.skipped != nil {
			said.SetAside = s.skipped(page)
		}
		if s.more != nil {
			said.Says = true
			said.More, said.Next = s.more(page)
		}
		keep, done, stop := w.Took(said)
		if stop != nil {
			return false, s.pagingError(rd, stop)
		}
		*rows = paging.Keep(*rows, keep)
		if !emit(page) {
			return false, nil
		}
		if done {
			return true, nil
		}
	}
}

// pagingError is the loop's problem as a PagingError.
func (s *pageSpec[P, R]) pagingError(rd paging.Read, e *paging.Error) *PagingError {
	return &PagingError{Endpoint: s.what, At: e.At(), Problem: pagingProblems[e.Problem], Detail: e.Detail(s.keyName, rd), Requests: e.Requests}
}

// pagingProblems are the loop's problems as PagingError names them.
var pagingProblems = [...]PagingProblem{
	paging.RequestCap: PagingRequestCap, paging.ByteCap: PagingByteCap, paging.EmptyWithMore: PagingEmptyWithMore,
	paging.RepeatedRow: PagingRepeatedRow, paging.OnlyRepeatedRows: PagingRepeatedRow, paging.NoCursor: PagingNoCursor,
	paging.UntrustedCursor: PagingUntrustedCursor, paging.RepeatedCursor: PagingRepeatedCursor,
}

// Rows iterates over rows across pages (Pages); an error is yielded with
// a zero row.
func (e *PagedEndpoint[Q, P, R]) Rows(ctx context.Context, projectID string, q Q) iter.Seq2[R, error] {
	return func(yield func(R, error) bool) {
		for page, err := range e.Pages(ctx, projectID, q) {
			if err != nil {
				var zero R
				yield(zero, err)
				return
			}
			for _, r := range *e.spec.rows(page) {
				if !yield(r, nil) {
					return
				}
			}
		}
	}
}

// Each calls fn with every page in turn, fetching the next while fn works
// (asking for nothing Pages would not), and returns the read's combined
// ResponseInfo. The first error, fn's included, ends the read.
//
// fn sees one snapshot, never a page twice. With a cached copy younger
// than MaxStale at hand, the API's pages are fetched whole first, and a
// rate limit on a later page hands fn the copy's pages, marked stale, with
// no error (fn's own error then comes after the whole fetch); without
// one, pages stream as Pages yields them and a refusal ends the read.
func (e *PagedEndpoint[Q, P, R]) Each(ctx context.Context, projectID string, q Q, fn func(*P) error) (ResponseInfo, error) {
	var info ResponseInfo
	k, err := e.check(projectID, q)
	if err != nil {
		return info, err
	}
	pages := 0
	for page, err := range paging.Prefetch(ctx, e.read(ctx, k, projectID, q.paging(), true)) {
		if err != nil {
			return info, err
		}
		if pages++; pages == 1 {
			info = *infoOf(page) // combined with nothing: a hit stays a hit
		} else {
			info = info.combine(*infoOf(page))
		}
		if err := fn(page); err != nil {
			return info, err
		}
	}
	return info, nil
}

// All reads every page (or MaxResults rows) into one page: every row in
// the API's order, the other fields of the last page (its totals, cursor
// or HasMore, to go on from), and the pages' ResponseInfo added up. A
// read is whole or fails. It falls back to the cache as Each does.
func (e *PagedEndpoint[Q, P, R]) All(ctx context.Context, projectID string, q Q) (*P, error) {
	if e == nil {
		return nil, ErrNotConfigured
	}
	var last *P
	var rows []R
	info, err := e.Each(ctx, projectID, q, func(p *P) error {
		rows = append(rows, *e.spec.rows(p)...)
		if last != nil && e.spec.merge != nil {
			e.spec.merge(p, last)
		}
		last = p
		return nil
	})
	if err != nil {
		return nil, err
	}
	if last == nil { // a read of no pages: only a cap of 0 requests could
		last = new(P)
	}
	if rows == nil {
		rows = []R{}
	}
	*e.spec.rows(last) = rows
	*infoOf(last) = info
	return last, nil
}
