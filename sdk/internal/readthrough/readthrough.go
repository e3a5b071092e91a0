// Package readthrough is the analytics cache's policy: when a read is
// served from a cached entry, when it waits for another program's lease,
// when it asks the API (and stores what it read), and when a stale copy
// stands in for an answer the API refused with a rate limit.
//
// It is separate from package sdk because it is a decision, not the API:
// it knows nothing of HTTP, of the SDK's requests or answers, nor of its
// errors. A page is a value of the SDK's own type P, fetched, marked and
// scrubbed by functions the SDK gives (Codec), a request an opaque C; the
// budget and the rate limit are functions too (Policy). It is separate from
// package analyticscache, which it reads and writes through, because that
// package is where records live and how they are trusted, not when they
// serve.
package readthrough

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
)

// Policy is what one read needs of the client: its cache, how long an
// entry serves, and what is known of its budget.
type Policy struct {
	// Cache is the client's cache; nil is none (the budget still gates).
	Cache *analyticscache.Cache
	// FreshFor is how long an entry serves with no request; MaxStale how
	// old one may be and still stand in for a refused read.
	FreshFor, MaxStale time.Duration
	// EntryLimit bounds an entry's bytes.
	EntryLimit int64
	Clock      analyticscache.Clock
	// Refresh learns a spent budget another program recorded beside the
	// cache; Spent says whether the budget is known to be spent at now.
	Refresh func(ctx context.Context)
	Spent   func(now time.Time) bool
	// RateLimit is how many attempts the API refused and err's rate-limit
	// refusal by the API (nil when err is none).
	RateLimit func(err error) (attempts int, refusal error)
}

// Served is how a page of a cached entry was handed out.
type Served struct {
	StoredAt time.Time
	// Stale is set when the entry stood in for a read the API refused
	// (Refusal, as RateLimit gave it).
	Stale   bool
	Refusal error
	// Attempts is how many attempts the API refused before the copy: set
	// on a stale read's first page only.
	Attempts int
}

// Codec is how a read fetches, keeps and restores pages of type P, for
// requests of type C.
type Codec[P, C any] struct {
	// Fetch asks the API for the page answering c (with how it arrived
	// set on it), its answer's size, and whether the answer had to be
	// scrubbed of a secret (such a read is never stored).
	Fetch func(c C) (p *P, size int64, redacted bool, err error)
	// Query is the query c sends: what an entry's page answers.
	Query func(c C) string
	// Clear removes from a copy of a page how it arrived, before it is
	// kept; Mark sets how a restored page was served.
	Clear func(p *P)
	Mark  func(p *P, s Served)
	// Scrub removes the client's secrets from a page restored from data,
	// should data spell one (an entry read from a shared store).
	Scrub func(data []byte, p *P)
}

// Source gives the page answering a request, and its size in bytes.
type Source[P, C any] func(c C) (*P, int64, error)

// Walker runs a read: it asks src for each page in turn, hands each page
// to emit, and reports whether it reached the read's end (rather than
// being stopped by emit).
type Walker[P, C any] func(src Source[P, C], emit func(*P) bool) (complete bool, err error)

// ErrEntryMismatch is an entry whose pages do not answer the read's
// requests: a miss.
var ErrEntryMismatch = errors.New("cache entry does not match the read")

// Read runs one read (walk) through the cache and the known-spent budget,
// handing its pages, or its error, to yield:
//
//   - a fresh entry for the read serves it whole, with no request;
//   - otherwise, when another process is fetching the same read (it holds
//     the read's lease), its entry is awaited (bounded);
//   - otherwise the API is asked, page after page, unless the budget is
//     known to be spent; a read that ends whole is stored as one entry;
//   - when the API refuses the read's first request with a rate limit (or
//     it is not sent because the budget is spent), an entry younger than
//     MaxStale serves the read whole, marked stale. A refusal after pages
//     of the API's were handed out ends the read with the error: its
//     pages are never joined to a copy's.
//
// whole asks for a read that falls back to the copy even when the API
// refuses a later page: while a copy that could stand in is at hand (one
// younger than MaxStale), the API's pages are held back until the read
// ends whole, so that nothing was handed out when a refusal comes and the
// copy can serve the read from its start. Held pages are bounded by the
// read's byte cap, as the entry the read stores is.
func Read[P, C any](ctx context.Context, pol Policy, key string, whole bool, codec Codec[P, C], walk Walker[P, C], yield func(*P, error) bool) {
	c := pol.Cache
	ctx = analyticscache.ForRead(ctx) // the store's operations of this read share its timeout
	var entry *analyticscache.Record
	if c != nil {
		now := pol.Clock.Now()
		pol.Refresh(ctx)
		if e, ok := c.Load(ctx, c.EntryName(key), analyticscache.KindRead, key, now, pol.EntryLimit); ok {
			entry = &e
			if now.Sub(e.At) < pol.FreshFor && serve(e, Served{StoredAt: e.At}, codec, walk, yield) {
				return
			}
		}
	}
	var lease *analyticscache.Lease
	if c != nil && !pol.Spent(pol.Clock.Now()) {
		var awaited *analyticscache.Record
		lease, awaited = c.Acquire(ctx, key, analyticscache.Wait{Clock: pol.Clock, FreshFor: pol.FreshFor, EntryLimit: pol.EntryLimit,
			Spent: func(ctx context.Context, now time.Time) bool {
				pol.Refresh(ctx)
				return pol.Spent(now)
			}})
		if awaited != nil && serve(*awaited, Served{StoredAt: awaited.At}, codec, walk, yield) {
			return
		}
	}
	storable := c != nil
	standIn := whole && entry != nil && pol.Clock.Now().Sub(entry.At) < pol.MaxStale
	var held []*P
	var pages []analyticscache.Page
	var stored time.Time
	handedOut := false // a page of the API's reached yield
	api := func(call C) (*P, int64, error) {
		p, size, redacted, err := codec.Fetch(call)
		if err != nil {
			return nil, size, err
		}
		// An answer that echoed the key is never stored, even redacted.
		storable = storable && !redacted
		if storable {
			if stored.IsZero() {
				stored = pol.Clock.Now()
			}
			copied, err := encode(p, codec.Clear, codec.Query(call))
			storable = err == nil
			pages = append(pages, copied)
		}
		lease.Extend(ctx, pol.Clock.Now())
		return p, size, nil
	}
	emit := func(p *P) bool { handedOut = true; return yield(p, nil) }
	if standIn {
		emit = func(p *P) bool { held = append(held, p); return true }
	}
	complete, err := walk(api, emit)
	if err == nil {
		if complete && storable {
			c.Save(ctx, c.EntryName(key), analyticscache.Record{Kind: analyticscache.KindRead, Key: key, At: stored, Pages: pages})
		}
		lease.Release(ctx, pol.Clock.Now())
		for _, p := range held {
			if !yield(p, nil) {
				return
			}
		}
		return
	}
	lease.Release(ctx, pol.Clock.Now())
	if c != nil && !handedOut && pol.MaxStale > 0 {
		if attempts, refusal := pol.RateLimit(err); refusal != nil {
			now := pol.Clock.Now()
			if entry == nil || lease != nil { // another process may have stored one meanwhile
				if e, ok := c.Load(ctx, c.EntryName(key), analyticscache.KindRead, key, now, pol.EntryLimit); ok {
					entry = &e
				}
			}
			if entry != nil && now.Sub(entry.At) < pol.MaxStale &&
				serve(*entry, Served{Stale: true, StoredAt: entry.At, Refusal: refusal, Attempts: attempts}, codec, walk, yield) {
				return
			}
		}
	}
	yield(nil, err)
}

// One reads a single page (the request c) through the cache as a read of
// its own, under key: see Read.
func One[P, C any](ctx context.Context, pol Policy, key string, codec Codec[P, C], c C) (*P, error) {
	var out *P
	var err error
	Read(ctx, pol, key, false, codec, func(src Source[P, C], emit func(*P) bool) (bool, error) {
		p, _, err := src(c)
		if err != nil {
			return false, err
		}
		emit(p)
		return true, nil
	}, func(p *P, perr error) bool { out, err = p, perr; return false })
	return out, err
}

// encode is a page as an entry keeps it: its value without how it
// arrived.
func encode[P any](p *P, strip func(*P), query string) (analyticscache.Page, error) {
	v := *p
	strip(&v)
	data, err := json.Marshal(&v)
	return analyticscache.Page{Query: query, Value: data}, err
}

// serve hands out the pages of an entry, each marked as served, the first
// with the attempts the API refused before it (a stale copy's). It first
// walks the whole entry without handing anything out: an entry whose pages
// do not answer the read's requests one by one, or that the read's guards
// refuse, is a miss (false), and nothing was handed out.
func serve[P, C any](e analyticscache.Record, served Served, codec Codec[P, C], walk Walker[P, C], yield func(*P, error) bool) bool {
	pages := make([]*P, len(e.Pages))
	for i, pc := range e.Pages {
		p := new(P)
		if json.Unmarshal(pc.Value, p) != nil {
			return false
		}
		// The entry was written without secrets; one read from a shared
		// store is checked again all the same.
		codec.Scrub(pc.Value, p)
		pages[i] = p
	}
	from := func(next *int) Source[P, C] {
		return func(c C) (*P, int64, error) {
			i := *next
			if i >= len(pages) || e.Pages[i].Query != codec.Query(c) {
				return nil, 0, ErrEntryMismatch
			}
			*next++
			s := served
			if i > 0 {
				s.Attempts = 0
			}
			codec.Mark(pages[i], s)
			return pages[i], int64(len(e.Pages[i].Value)), nil
		}
	}
	checked := 0
	if complete, err := walk(from(&checked), func(*P) bool { return true }); !complete || err != nil || checked != len(pages) {
		return false
	}
	next := 0
	_, err := walk(from(&next), func(p *P) bool { return yield(p, nil) })
	if err != nil { // cannot happen: the same walk passed above
		yield(nil, err)
	}
	return true
}
