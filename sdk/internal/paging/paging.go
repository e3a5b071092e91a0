// Package paging is the loop every paged read of the SDK goes through:
// it asks for each page in turn, checks that the server is advancing, and
// stops at the read's caps; Prefetch, which keeps the next page on its
// way while the caller works on this one; and a page's query parameters.
//
// It is separate from package sdk because it knows nothing of HTTP, JSON
// or the API's endpoints: a page comes from a function the SDK gives (the
// API, or a cached copy), and the ways a read can fail are values
// (Problem), worded here (Error.At, Error.Detail), that package sdk makes
// its public PagingError.
package paging

import (
	"context"
	"iter"
	"strings"
)

// Request is where a page starts: an offset, or the cursor the previous
// page gave ("" for the first page), and how many rows it asks for.
type Request struct {
	Limit  int
	Offset int
	Cursor string
}

// Spec is what the loop needs of an endpoint whose pages are P and rows R.
type Spec[P, R any] struct {
	// Cursor marks cursor paging; otherwise offsets.
	Cursor bool
	// Prepends: rows may be added at the head of the list while it is
	// read (a newest-first listing), pushing the rows of later offsets
	// down. A row seen on an earlier page is then dropped, not a problem;
	// only a page holding no row that was not seen before stops the read.
	Prepends bool
	// Rows gives a page's rows (to count, trim and join them); Key
	// identifies a row.
	Rows func(*P) *[]R
	Key  func(*R) string
	// More says whether there is a page after this one, and its cursor.
	// Nil is an endpoint that does not say: a full page (as many rows as
	// asked for) means there may be more, so a list of exactly n full
	// pages costs one more request, answered with no rows.
	More func(*P) (bool, *string)
	// Skipped, when set, is how many rows of a page its decoder set aside
	// (rows it cannot use, kept apart on the page): they were served, so
	// they count toward the next offset and a full page.
	Skipped func(*P) int
}

// Read is one read's start and caps.
type Read struct {
	Start Request
	// MaxResults stops the read once that many rows were read (0: no
	// limit); the last page asks for no more than are missing.
	MaxResults int
	// MaxPages and MaxBytes cap the read's requests and answers.
	MaxPages int
	MaxBytes int64
	// Untrusted is a marker a cursor must not hold (the SDK's mark of a
	// redacted secret): following it would send a secret in a URL.
	Untrusted string
}

// First is the read's first page: Start, asking for no more than
// MaxResults rows.
func (rd Read) First() Request {
	r := rd.Start
	if rd.MaxResults > 0 {
		r.Limit = min(r.Limit, rd.MaxResults)
	}
	return r
}

// Problem is why a read stopped before its last page, the server's fault
// or the caps'.
type Problem int

// The problems, each of which would otherwise spend requests in a loop.
const (
	// EmptyWithMore: a page with no rows says there is more.
	EmptyWithMore Problem = iota + 1
	// RepeatedRow: a row seen on an earlier page came again (Value is its
	// key).
	RepeatedRow
	// OnlyRepeatedRows: a page of a read whose rows may be pushed down
	// (Spec.Prepends) held only rows seen before.
	OnlyRepeatedRows
	// RepeatedCursor: a cursor given before came again (Value).
	RepeatedCursor
	// NoCursor: a page says there is more but gives no cursor.
	NoCursor
	// UntrustedCursor: a cursor held the Untrusted marker.
	UntrustedCursor
	// RequestCap: the next request would pass MaxPages.
	RequestCap
	// ByteCap: the answers passed MaxBytes.
	ByteCap
)

// Error is a read stopped by a Problem.
type Error struct {
	Problem Problem
	// Page is the request of the page at fault; First is set when it is
	// the read's first.
	Page  Request
	First bool
	// Requests is how many requests the read sent.
	Requests int
	// Value is the row key or cursor at fault, when there is one.
	Value string
}

var problemNames = [...]string{EmptyWithMore: "an empty page with more", RepeatedRow: "a repeated row", OnlyRepeatedRows: "only repeated rows", RepeatedCursor: "a repeated cursor",
	NoCursor: "more without a cursor", UntrustedCursor: "an untrusted cursor", RequestCap: "the request cap", ByteCap: "the byte cap"}

func (e *Error) Error() string { return "paging stopped: " + problemNames[e.Problem] }

// Walk is the loop: it asks src for each page of the read in turn, checks
// it, and hands it to emit; it reports whether it reached the read's end
// (rather than being stopped by emit), and why it could not: src's error
// as it is, or an *Error.
func Walk[P, R any](s Spec[P, R], rd Read, src func(Request) (*P, int64, error), emit func(*P) bool) (bool, error) {
	seen := map[string]struct{}{}
	cursors := map[string]struct{}{}
	req, read := rd.Start, 0
	var bytes int64
	for requests := 0; ; requests++ {
		fail := func(sent int, p Problem, value string) (bool, error) {
			return false, &Error{Problem: p, Page: req, First: requests == 0, Requests: sent, Value: value}
		}
		if requests == rd.MaxPages {
			return fail(requests, RequestCap, "")
		}
		r := req
		if rd.MaxResults > 0 {
			r.Limit = min(r.Limit, rd.MaxResults-read)
		}
		page, size, err := src(r)
		if err != nil {
			return false, err
		}
		if bytes += size; bytes > rd.MaxBytes {
			return fail(requests+1, ByteCap, "")
		}
		rows := s.Rows(page)
		setAside := 0
		if s.Skipped != nil {
			setAside = s.Skipped(page)
		}
		if len(*rows)+setAside > r.Limit {
			// A server that ignores limit must not make us hand out more
			// than was asked for, nor skip rows on the next offset.
			*rows = (*rows)[:max(r.Limit-setAside, 0)]
		}
		served := min(len(*rows)+setAside, r.Limit) // the next offset counts every row served
		var hasMore bool
		var next *string
		if s.More != nil {
			hasMore, next = s.More(page)
		} else {
			hasMore = served == r.Limit
		}
		if hasMore && served == 0 {
			return fail(requests+1, EmptyWithMore, "")
		}
		fresh := (*rows)[:0]
		for i := range *rows {
			key := s.Key(&(*rows)[i])
			if _, dup := seen[key]; dup {
				if s.Prepends {
					continue // pushed down by a row added at the head
				}
				return fail(requests+1, RepeatedRow, key)
			}
			seen[key] = struct{}{}
			fresh = append(fresh, (*rows)[i])
		}
		if len(*rows) > 0 && len(fresh) == 0 {
			return fail(requests+1, OnlyRepeatedRows, "")
		}
		*rows = fresh
		read += len(*rows)
		done := !hasMore || (rd.MaxResults > 0 && read >= rd.MaxResults)
		if !done && s.Cursor {
			switch {
			case next == nil || *next == "":
				return fail(requests+1, NoCursor, "")
			case rd.Untrusted != "" && strings.Contains(*next, rd.Untrusted):
				return fail(requests+1, UntrustedCursor, "")
			}
			if _, dup := cursors[*next]; dup || *next == rd.Start.Cursor {
				return fail(requests+1, RepeatedCursor, *next)
			}
			cursors[*next] = struct{}{}
			req.Cursor = *next
		}
		req.Offset += served
		if !emit(page) {
			return false, nil
		}
		if done {
			return true, nil
		}
	}
}

// Prefetch runs seq one element ahead in its own goroutine, so the next
// page is on its way while the caller works on this one. It asks seq for
// nothing more than seq would yield anyway, and stopping early (or ctx
// ending) stops the producer.
func Prefetch[T any](ctx context.Context, seq iter.Seq2[T, error]) iter.Seq2[T, error] {
	type item struct {
		v   T
		err error
	}
	return func(yield func(T, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		defer cancel()
		ch := make(chan item) // unbuffered: one element ahead, not two
		go func() {
			defer close(ch)
			for v, err := range seq {
				select {
				case ch <- item{v, err}:
				case <-ctx.Done():
					return
				}
			}
		}()
		for it := range ch {
			if !yield(it.v, it.err) {
				return
			}
		}
	}
}
