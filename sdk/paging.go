package sdk

import (
	"context"
	"fmt"
	"iter"
	"strconv"
)

// DefaultMaxPagesPerRead caps the requests of one paging read. At the
// largest page size it allows 250,000 unique-visitor rows, far past a real
// site, while a server that never stops saying "there is more" costs at
// most this many of the hourly analytics budget before the read stops.
const DefaultMaxPagesPerRead = 1000

// pageRequest is where the next page starts: an offset, or the cursor the
// previous page gave ("" for the first page).
type pageRequest struct {
	limit  int
	offset int
	cursor string
}

// pageView is what the paging loop needs to know of one page.
type pageView struct {
	rows    int
	key     func(i int) string // identity of row i: each appears once per read
	hasMore bool
	next    *string // the cursor for the next page; nil for offset paging
}

// pager describes how one analytics endpoint pages. Every paged endpoint
// goes through readPages, so the guards below hold for all of them.
type pager[P any] struct {
	what    string // "unique visitors", for errors
	keyName string // what a row's identity is: "path", "id", "search term"
	cursor  bool   // cursor paging; otherwise offset paging
	fetch   func(ctx context.Context, r pageRequest) (*P, error)
	view    func(*P) pageView
	trim    func(*P, int) // keep only the first n rows
}

// readPages iterates over pages from start, requesting each page exactly
// once at the given page size, and stopping once maxResults rows (0: no
// limit) have been read; the last page is shrunk so no row is fetched in
// vain. An error ends the iteration; it is yielded with a nil page.
//
// A server that misbehaves ends the read with an error rather than a loop
// that spends the organization's hourly analytics budget: a page that is
// empty while claiming more, a row or a cursor seen before (the server is
// not advancing), "more" with no cursor to follow, or more requests in one
// read than the client's cap (WithMaxPagesPerRead).
func readPages[P any](ctx context.Context, c *Client, pg pager[P], start pageRequest, maxResults int) iter.Seq2[*P, error] {
	return func(yield func(*P, error) bool) {
		ctx := withReadSnapshot(ctx) // each iteration is one read
		fail := func(format string, args ...any) {
			yield(nil, fmt.Errorf("getting %s: "+format, append([]any{pg.what}, args...)...))
		}
		seen := map[string]struct{}{}
		cursors := map[string]struct{}{}
		req, read := start, 0
		for requests := 0; ; requests++ {
			if requests == c.maxPagesPerRead {
				fail("stopped after %d requests in one read (the client's cap on requests per read): the server keeps saying there is more; read fewer rows (a max_results) or raise the cap", requests)
				return
			}
			r := req
			if maxResults > 0 {
				r.limit = min(r.limit, maxResults-read)
			}
			page, err := pg.fetch(ctx, r)
			if err != nil {
				yield(nil, err)
				return
			}
			v := pg.view(page)
			if v.rows > r.limit {
				// A server that ignores limit must not make us hand out more
				// than was asked for, nor skip rows on the next offset.
				pg.trim(page, r.limit)
				v = pg.view(page)
			}
			at := "the first page"
			if requests > 0 {
				at = "the page at " + describe(req)
			}
			if v.hasMore && v.rows == 0 {
				fail("%s is empty but says there is more; stopping rather than loop", at)
				return
			}
			for i := range v.rows {
				k := v.key(i)
				if _, dup := seen[k]; dup {
					fail("%s repeats %s %q from an earlier page: the server is not advancing; stopping rather than loop", at, pg.keyName, k)
					return
				}
				seen[k] = struct{}{}
			}
			read += v.rows
			done := !v.hasMore || (maxResults > 0 && read >= maxResults)
			if !done && pg.cursor {
				if v.next == nil || *v.next == "" {
					fail("%s says there is more but gives no cursor to it", at)
					return
				}
				if _, dup := cursors[*v.next]; dup || *v.next == start.cursor {
					fail("%s gives cursor %q again: the server is not advancing; stopping rather than loop", at, *v.next)
					return
				}
				cursors[*v.next] = struct{}{}
				req.cursor = *v.next
			}
			req.offset += v.rows
			if !yield(page, nil) || done {
				return
			}
		}
	}
}

func describe(r pageRequest) string {
	if r.cursor != "" {
		return "cursor " + strconv.Quote(r.cursor)
	}
	return "offset " + strconv.Itoa(r.offset)
}

// rowsOf flattens an iterator of pages into one of rows.
func rowsOf[P, R any](pages iter.Seq2[*P, error], rows func(*P) []R) iter.Seq2[R, error] {
	return func(yield func(R, error) bool) {
		for page, err := range pages {
			if err != nil {
				var zero R
				yield(zero, err)
				return
			}
			for _, row := range rows(page) {
				if !yield(row, nil) {
					return
				}
			}
		}
	}
}

// collected is what collect gathers from the pages of one read.
type collected[R any] struct {
	rows  []R
	pages int
	cache CacheStatus
}

// collect reads every page of pages into one list of rows; first sees the
// first page (for totals), cacheOf says where each page came from.
func collect[P, R any](pages iter.Seq2[*P, error], rows func(*P) []R, cacheOf func(*P) CacheStatus, first func(*P)) (collected[R], error) {
	out := collected[R]{rows: []R{}}
	for page, err := range pages {
		if err != nil {
			return out, err
		}
		if out.pages == 0 {
			out.cache = cacheOf(page)
			if first != nil {
				first(page)
			}
		}
		out.pages++
		out.cache = out.cache.Combine(cacheOf(page))
		out.rows = append(out.rows, rows(page)...)
	}
	return out, nil
}

// failed is an iterator that yields only err: a read refused before any
// request (a validation error).
func failed[T any](err error) iter.Seq2[*T, error] {
	return func(yield func(*T, error) bool) { yield(nil, err) }
}
