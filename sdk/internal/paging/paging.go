// Package paging holds the guards of every paged read of the SDK: a
// read's state (Walk) says which page to ask for next and checks each page
// it is told of: that the server is advancing, and that the read stays
// within its caps. A page's query parameters and the wording of why a read
// stopped are words.go. Prefetch keeps the next page on its way while the
// caller works on this one.
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

// Read is one read's start and caps, and how its endpoint pages.
type Read struct {
	Start Request
	// Cursor marks cursor paging; otherwise offsets.
	Cursor bool
	// Prepends: rows may be added at the head of the list while it is
	// read (a newest-first listing), pushing the rows of later offsets
	// down. A row seen on an earlier page is then dropped, not a problem;
	// only a page holding no row that was not seen before stops the read.
	Prepends bool
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

// Walk is one read under way: the next page to ask for, and what the
// read has seen and cost. The caller asks Next for each page's request,
// fetches the page, tells Took what it said, and keeps the rows Took
// keeps, until Took says the read is done or either returns an *Error.
type Walk struct {
	rd       Read
	req      Request // where the next page starts
	asked    Request // the last page asked for
	requests int     // requests sent
	read     int     // rows kept
	bytes    int64
	seen     map[string]struct{}
	cursors  map[string]struct{}
}

// Walk starts the read.
func (rd Read) Walk() *Walk {
	return &Walk{rd: rd, req: rd.Start, seen: map[string]struct{}{}, cursors: map[string]struct{}{}}
}

// fail stops the read at the page that starts at w.req.
func (w *Walk) fail(first bool, p Problem, value string) *Error {
	return &Error{Problem: p, Page: w.req, First: first, Requests: w.requests, Value: value}
}

// Next is the request of the read's next page (asking for no more rows
// than MaxResults leaves), or an *Error when it would pass MaxPages.
func (w *Walk) Next() (Request, *Error) {
	if w.requests == w.rd.MaxPages {
		return Request{}, w.fail(w.requests == 0, RequestCap, "")
	}
	r := w.req
	if w.rd.MaxResults > 0 {
		r.Limit = min(r.Limit, w.rd.MaxResults-w.read)
	}
	w.asked = r
	w.requests++
	return r, nil
}

// Page is what the page answering the last Next said, for Took.
type Page struct {
	// Size is its answer's bytes; Keys identify its rows, in order.
	Size int64
	Keys []string
	// SetAside is how many rows its decoder set aside (rows it cannot
	// use, kept apart on the page): they were served, so they count
	// toward the next offset and a full page.
	SetAside int
	// Says is set when the endpoint says whether there is a page after
	// this one (More) and, cursor paging, its cursor (Next). When it does
	// not, a full page (as many rows as asked for) means there may be
	// more, so a list of exactly n full pages costs one more request,
	// answered with no rows.
	Says bool
	More bool
	Next *string
}

// Took checks the page answering the last Next, and returns the indices
// of its rows to keep: not those past what was asked for (a server that
// ignores the limit must not make the read hand out more, nor skip rows
// on the next offset), nor those seen on an earlier page (dropped when
// the read Prepends, else an *Error). It reports whether the read is done.
func (w *Walk) Took(p Page) (keep []int, done bool, err *Error) {
	first := w.requests == 1
	if w.bytes += p.Size; w.bytes > w.rd.MaxBytes {
		return nil, false, w.fail(first, ByteCap, "")
	}
	n := min(len(p.Keys), max(w.asked.Limit-p.SetAside, 0))
	served := min(n+p.SetAside, w.asked.Limit) // the next offset counts every row served
	hasMore, next := served == w.asked.Limit, p.Next
	if p.Says {
		hasMore = p.More
	}
	if hasMore && served == 0 {
		return nil, false, w.fail(first, EmptyWithMore, "")
	}
	keep = make([]int, 0, n)
	for i, key := range p.Keys[:n] {
		if _, dup := w.seen[key]; dup {
			if w.rd.Prepends {
				continue // pushed down by a row added at the head
			}
			return nil, false, w.fail(first, RepeatedRow, key)
		}
		w.seen[key] = struct{}{}
		keep = append(keep, i)
	}
	if n > 0 && len(keep) == 0 {
		return nil, false, w.fail(first, OnlyRepeatedRows, "")
	}
	w.read += len(keep)
	done = !hasMore || (w.rd.MaxResults > 0 && w.read >= w.rd.MaxResults)
	if !done && w.rd.Cursor {
		switch {
		case next == nil || *next == "":
			return nil, false, w.fail(first, NoCursor, "")
		case w.rd.Untrusted != "" && strings.Contains(*next, w.rd.Untrusted):
			return nil, false, w.fail(first, UntrustedCursor, "")
		}
		if _, dup := w.cursors[*next]; dup || *next == w.rd.Start.Cursor {
			return nil, false, w.fail(first, RepeatedCursor, *next)
		}
		w.cursors[*next] = struct{}{}
		w.req.Cursor = *next
	}
	w.req.Offset += served
	return keep, done, nil
}

// Keep is rows with only the indices keep (in order) left, in place.
func Keep[R any](rows []R, keep []int) []R {
	out := rows[:0]
	for _, i := range keep {
		out = append(out, rows[i])
	}
	return out
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
