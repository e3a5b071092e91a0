package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/budget"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// CacheOptions configure the analytics cache (WithAnalyticsCache): the
// answers of analytics reads kept in a directory or an object store, so
// that the programs sharing it (each terraform command, CI runners
// elsewhere) spend the analytics budget once per answer, not once per
// run. A read (every page of a query, or one answer) is one entry, written
// once whole: its pages come from one snapshot. An entry holds what the
// SDK decoded, never a raw answer, the key, or an answer that echoed it.
type CacheOptions struct {
	// Dir holds the cache on this machine, created 0700 (files 0600). A
	// directory others can write is refused: the client then works
	// without a cache, and CacheProblem says why.
	Dir string
	// URL names a bucket shared by many machines (s3://, gs://, azblob://,
	// file://), opened by OpenBucket with the store's own credentials; it
	// wins over Dir, which it falls back to. Records are sealed with a key
	// derived from the API key, so others who can write the bucket cannot
	// plant one. A spent budget another client of the key recorded there
	// is believed until its time, 24 hours ahead at most.
	URL string
	// OpenBucket opens URL: cachebucket.Open (the program imports the
	// gocloud.dev drivers it needs), or a CacheBucket of its own.
	OpenBucket func(ctx context.Context, url string) (CacheBucket, error)
	// FreshFor is how long a cached answer is used instead of asking the
	// API. 0 turns the cache off.
	FreshFor time.Duration
	// MaxStale is how old a cached answer may be and still stand in for
	// one the API refuses with a rate limit the client will not wait out,
	// or one not asked for because the budget is known to be spent; it is
	// then marked stale (CacheStatus). 0: never.
	MaxStale time.Duration
	// MaxBytes caps the cache in Dir (0: DefaultCacheMaxBytes): past it,
	// the oldest entries are removed. Give a bucket a lifecycle rule that
	// expires objects older than MaxStale instead.
	MaxBytes int64
	// Timeout bounds the store's time for one read: each operation, and
	// all of one read's together (its entry, the spent budget, its lease,
	// storing the answer). Past it the read goes to the API and the client
	// stops using the store (CacheProblem says why): a slow store must not
	// cost more than a broken one. Lease renewals of a long read are each
	// bounded by Timeout alone; waiting on another program's lease is
	// bounded apart, two minutes in all. 0 means DefaultCacheTimeout.
	Timeout time.Duration
}

// DefaultCacheTimeout bounds the store's time for one read
// (CacheOptions.Timeout).
const DefaultCacheTimeout = analyticscache.DefaultTimeout

// DefaultCacheMaxBytes caps the analytics cache on disk: forty reads of a
// 100,000-path site.
const DefaultCacheMaxBytes = 400 << 20

// WithAnalyticsCache keeps analytics answers in a directory or a bucket
// (CacheOptions). A store that cannot be used leaves the client as
// without one (or on Dir), and Client.CacheProblem says why.
func WithAnalyticsCache(o CacheOptions) Option {
	return optionFunc(func(s *settings) error {
		if o.FreshFor < 0 || o.MaxStale < 0 || o.MaxBytes < 0 || o.Timeout < 0 {
			return fmt.Errorf("sdk: WithAnalyticsCache: durations and sizes must not be negative")
		}
		if o.URL != "" {
			if err := ValidateCacheURL(o.URL); err != nil {
				return fmt.Errorf("sdk: WithAnalyticsCache: %w", err)
			}
		}
		if o.FreshFor == 0 || (o.Dir == "" && o.URL == "") {
			s.cacheOptions = nil
			return nil
		}
		if o.MaxBytes == 0 {
			o.MaxBytes = DefaultCacheMaxBytes
		}
		if o.Timeout == 0 {
			o.Timeout = DefaultCacheTimeout
		}
		s.cacheOptions = &o
		return nil
	})
}

// CacheURLSchemes are the object stores a cache URL may name.
var CacheURLSchemes = []string{"s3", "gs", "azblob", "file"}

// ValidateCacheURL checks a cache bucket URL's form: one of
// CacheURLSchemes, a file:// URL with a directory, no credentials.
func ValidateCacheURL(raw string) error {
	fail := func(rule string) error { return &ValidationError{Field: "cacheURL", Value: raw, Rule: rule} }
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return fail("must be a bucket URL such as s3://bucket?region=us-east-1, gs://bucket, azblob://container or file:///shared/dir")
	}
	if u.User != nil {
		return &ValidationError{Field: "cacheURL", Value: u.Redacted(), Rule: "must not carry credentials: the store's own chain provides them (environment, profile, instance role)"}
	}
	if !slices.Contains(CacheURLSchemes, u.Scheme) {
		return fail("must use one of the schemes " + strings.Join(CacheURLSchemes, "://, ") + "://")
	}
	if u.Scheme == "file" && u.Path == "" {
		return fail("names no directory: use file:///absolute/path")
	}
	return nil
}

// CacheStatus says where an analytics answer came from. The zero value is
// an answer fresh from the API.
type CacheStatus struct {
	// Hit: the answer came from the cache, with no request.
	Hit bool
	// StoredAt is when a cached answer was fetched from the API.
	StoredAt time.Time
	// Stale: older than fresh, served because the API refused the request
	// or would have, with RateLimit (its RetryAt: when the budget frees).
	Stale     bool
	RateLimit *APIError
}

// Combine merges the statuses of one read's pages: a hit if every page
// was, stale if any was, stored at the oldest time.
func (s CacheStatus) Combine(next CacheStatus) CacheStatus {
	out := CacheStatus{Hit: s.Hit && next.Hit, Stale: s.Stale || next.Stale, RateLimit: s.RateLimit, StoredAt: s.StoredAt}
	if next.RateLimit != nil {
		out.RateLimit = next.RateLimit
	}
	if !next.StoredAt.IsZero() && (out.StoredAt.IsZero() || next.StoredAt.Before(out.StoredAt)) {
		out.StoredAt = next.StoredAt
	}
	return out
}

// CacheProblem says why the analytics cache is not working as configured
// (the first problem: a directory refused, a bucket that did not open, a
// store that failed), or nil. Reads still work, spending the budget.
func (c *Client) CacheProblem() error {
	if c == nil || c.core == nil {
		return nil
	}
	return c.core.problems.First()
}

// analyticsCache is the client's cache and how long its entries serve.
type analyticsCache struct {
	*analyticscache.Cache
	opts CacheOptions
}

// newAnalyticsCache opens the bucket, else the directory o names; nil,
// noted in problems, when neither can be used.
func newAnalyticsCache(o CacheOptions, apiKey string, problems *analyticscache.Problems) *analyticsCache {
	var bucket func() (analyticscache.Store, error)
	if o.URL != "" {
		bucket = func() (analyticscache.Store, error) { return openBucketStore(context.Background(), o) }
	}
	if c := analyticscache.Open(bucket, o.Dir, o.MaxBytes, o.Timeout, apiKey, problems); c != nil {
		return &analyticsCache{Cache: c, opts: o}
	}
	return nil
}

// entryLimit bounds an entry: a read's pages, within the per-read cap.
func (k *core) entryLimit() int64 { return 2*k.maxBytesPerRead + analyticscache.MaxRecordBytes }

// pageSource gives the page answering a call, and its size in bytes.
type pageSource[P any] func(c call) (*P, int64, error)

// fetchPage asks the API for the page answering c (fetch, on budgets
// when given), read with decode (nil: as P): the page, its answer's size,
// and whether it had to be scrubbed.
func fetchPage[P any](ctx context.Context, k *core, c call, decode func(decoding, []byte, *P) error, budgets ...*budget.Budget) (*P, int64, bool, error) {
	p := new(P)
	var read func(decoding, []byte) error
	if decode != nil {
		read = func(d decoding, data []byte) error { return decode(d, data, p) }
	}
	size, redacted, err := k.fetch(ctx, c, p, read, budgets...)
	if err != nil {
		return nil, size, redacted, err
	}
	return p, size, redacted, nil
}

// errEntryMismatch: an entry's pages do not answer the read (a miss).
var errEntryMismatch = errors.New("cache entry does not match the read")

// cachedRead runs one analytics read (walk) through the cache as a store,
// handing its pages, or its error, to yield: a fresh entry serves it
// whole; else another program's lease is awaited (bounded); else the API
// is asked unless the budget is spent, and a whole read is stored; on a
// rate limit before a page was handed out, an entry younger than MaxStale
// serves it, stale. With whole, the API's pages are held back (within the
// byte cap) while a copy could stand in, so it serves on a later refusal.
func cachedRead[P any](ctx context.Context, k *core, key string, whole bool, decode func(decoding, []byte, *P) error,
	walk func(src pageSource[P], emit func(*P) bool) (bool, error), yield func(*P, error) bool) {
	c := k.cache
	ctx = analyticscache.ForRead(ctx) // the store's operations of this read share its timeout
	serve := func(e analyticscache.Record, status CacheStatus, attempts int) bool {
		return serveEntry(k, e, status, attempts, walk, yield)
	}
	var entry *analyticscache.Record
	if c != nil {
		now := k.clock.Now()
		k.budget.Refresh(ctx, now)
		if e, ok := c.Load(ctx, c.EntryName(key), analyticscache.KindRead, key, now, k.entryLimit()); ok {
			entry = &e
			if now.Sub(e.At) < c.opts.FreshFor && serve(e, CacheStatus{Hit: true, StoredAt: e.At}, 0) {
				return
			}
		}
	}
	var lease *analyticscache.Lease
	if c != nil && k.budget.Until(k.clock.Now()).IsZero() {
		var awaited *analyticscache.Record
		lease, awaited = c.Acquire(ctx, key, analyticscache.Wait{Clock: k.clock, FreshFor: c.opts.FreshFor, EntryLimit: k.entryLimit(), Spent: k.budget.Spent})
		if awaited != nil && serve(*awaited, CacheStatus{Hit: true, StoredAt: awaited.At}, 0) {
			return
		}
	}
	storable := c != nil
	standIn := whole && entry != nil && k.clock.Now().Sub(entry.At) < c.opts.MaxStale
	var held []*P
	var pages []analyticscache.Page
	var stored time.Time
	handedOut := false // a page of the API's reached yield
	api := func(call call) (*P, int64, error) {
		p, size, redacted, err := fetchPage(ctx, k, call, decode, k.budget)
		if err != nil {
			return nil, size, err
		}
		// An answer that echoed the key is never stored, even redacted.
		if storable = storable && !redacted; storable {
			if stored.IsZero() {
				stored = k.clock.Now()
			}
			kept := *p // kept without how it arrived
			*infoOf(&kept) = ResponseInfo{}
			data, err := json.Marshal(&kept)
			storable = err == nil
			pages = append(pages, analyticscache.Page{Query: call.query.Encode(), Value: data})
		}
		lease.Extend(ctx, k.clock.Now())
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
		lease.Release(ctx, k.clock.Now())
		for _, p := range held {
			if !yield(p, nil) {
				return
			}
		}
		return
	}
	lease.Release(ctx, k.clock.Now())
	var refusal *APIError
	if c != nil && !handedOut && c.opts.MaxStale > 0 && errors.As(err, &refusal) && refusal.StatusCode == http.StatusTooManyRequests {
		now := k.clock.Now()
		if entry == nil || lease != nil { // another program may have stored one meanwhile
			if e, ok := c.Load(ctx, c.EntryName(key), analyticscache.KindRead, key, now, k.entryLimit()); ok {
				entry = &e
			}
		}
		if entry != nil && now.Sub(entry.At) < c.opts.MaxStale &&
			serve(*entry, CacheStatus{Hit: true, Stale: true, StoredAt: entry.At, RateLimit: refusal}, refusal.Attempts) {
			return
		}
	}
	yield(nil, err)
}

// readOne reads the one page c asks for through the cache (cachedRead).
func readOne[P any](ctx context.Context, k *core, key string, c call, decode func(decoding, []byte, *P) error) (*P, error) {
	var out *P
	var err error
	cachedRead(ctx, k, key, false, decode, func(src pageSource[P], emit func(*P) bool) (bool, error) {
		p, _, err := src(c)
		if err != nil {
			return false, err
		}
		emit(p)
		return true, nil
	}, func(p *P, perr error) bool { out, err = p, perr; return false })
	return out, err
}

// serveEntry hands out an entry's pages as served by status (the first
// with the attempts refused before a stale copy). An entry whose pages do
// not answer the read, or that its guards refuse, is a miss (false): it is
// walked whole first, handing nothing out.
func serveEntry[P any](k *core, e analyticscache.Record, status CacheStatus, attempts int,
	walk func(src pageSource[P], emit func(*P) bool) (bool, error), yield func(*P, error) bool) bool {
	pages := make([]*P, len(e.Pages))
	for i, pc := range e.Pages {
		p := new(P)
		if json.Unmarshal(pc.Value, p) != nil {
			return false
		}
		// Written without secrets; a shared store's is checked again.
		if k.secrets.MayHold(pc.Value) {
			redact.Strings(p, k.secrets.List())
		}
		pages[i] = p
	}
	from := func(next *int) pageSource[P] {
		return func(c call) (*P, int64, error) {
			i := *next
			if i >= len(pages) || e.Pages[i].Query != c.query.Encode() {
				return nil, 0, errEntryMismatch
			}
			*next++
			ri := ResponseInfo{Pages: 1, Cache: status}
			if i == 0 {
				ri.Attempts = attempts
			}
			*infoOf(pages[i]) = ri
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
