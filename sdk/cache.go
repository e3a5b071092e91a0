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

// CacheOptions configure the analytics cache (WithAnalyticsCache): answers
// of analytics reads kept in a directory or an object store, so that the
// programs sharing it (every terraform command starts its own provider;
// CI runners on other machines) spend the organization's hourly analytics
// budget once per answer instead of once per run. Agent-job reads are never
// cached.
//
// A read (every page of a query, or one answer) is one entry, written
// once the read is whole: its pages always come from one snapshot. An
// entry holds what the SDK decoded, never a raw answer, the key, or an
// answer that echoed the key.
type CacheOptions struct {
	// Dir holds the cache on this machine; it is created (0700) when
	// missing. Entries are files readable by their owner only (0600). A
	// directory that others can write (group- or world-writable, or owned
	// by another user) is refused: the client then works without a cache
	// and CacheProblem says why.
	Dir string
	// URL names an object store bucket shared by many machines: s3://,
	// gs://, azblob:// or file://, with the store's own URL parameters
	// (region, prefix, ...), opened by OpenBucket. Its credentials come
	// from the store's standard chain (environment, files, instance
	// roles), never from the URL. URL wins over Dir; a bucket that cannot
	// be opened falls back to Dir (CacheProblem says why). Every record is
	// sealed with a key derived from the API key (an HMAC; the key itself
	// is never written): whoever can write the bucket but has not the API
	// key cannot plant an answer, a spent budget or a lease, whatever the
	// store's permissions.
	URL string
	// OpenBucket opens URL: cachebucket.Open (package sdk/cachebucket,
	// through gocloud.dev/blob; the program imports the drivers it needs,
	// for example `_ "gocloud.dev/blob/s3blob"`), or a CacheBucket of the
	// program's own. The SDK links no object store itself.
	OpenBucket func(ctx context.Context, url string) (CacheBucket, error)
	// FreshFor is how long a cached answer is used instead of asking the
	// API. 0 turns the cache off.
	FreshFor time.Duration
	// MaxStale is how old a cached answer may be and still stand in for
	// one the API refuses with a rate limit the client will not wait out
	// (a 429 whose Retry-After is longer than WithMaxRetryAfter, or one
	// that outlasted the retries), or one the client does not ask for
	// because the budget is known to be spent. The answer then says so
	// (CacheStatus). 0 never serves a stale answer.
	MaxStale time.Duration
	// MaxBytes caps the cache in Dir: past it, the oldest entries the
	// cache wrote are removed (never another file). 0 means
	// DefaultCacheMaxBytes. A bucket is not capped by the client: give it
	// a lifecycle rule that expires objects older than MaxStale.
	MaxBytes int64
}

// DefaultCacheMaxBytes caps the analytics cache on disk: room for forty
// reads of a 100,000-path site.
const DefaultCacheMaxBytes = 400 << 20

// WithAnalyticsCache keeps analytics answers in a directory or a bucket
// (see CacheOptions). A store that cannot be used makes the cache do
// nothing, or fall back to Dir: the client then behaves as without one,
// and Client.CacheProblem says why.
func WithAnalyticsCache(o CacheOptions) Option {
	return optionFunc(func(s *settings) error {
		if o.FreshFor < 0 || o.MaxStale < 0 || o.MaxBytes < 0 {
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
		s.cacheOptions = &o
		return nil
	})
}

// CacheURLSchemes are the object stores a cache URL may name.
var CacheURLSchemes = []string{"s3", "gs", "azblob", "file"}

// ValidateCacheURL checks a cache bucket URL's form: one of
// CacheURLSchemes, a file:// URL with a directory, and no credentials in it
// (they come from the store's standard chain). Whether the bucket can be
// reached is known only when it is used.
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

// CacheStatus says where an analytics answer came from when the client has
// a cache. The zero value is an answer fresh from the API.
type CacheStatus struct {
	// Hit is set when the answer came from the cache, with no request.
	Hit bool
	// StoredAt is when a cached answer was fetched from the API.
	StoredAt time.Time
	// Stale is set when the answer was older than fresh and served only
	// because the API refused the request, or would have (the budget was
	// known to be spent), with RateLimit: its RetryAt says when the
	// budget frees up.
	Stale     bool
	RateLimit *APIError
}

// Combine merges the statuses of the pages of one read: a hit only if
// every page was, stale if any was, stored at the oldest of the cached
// pages' times.
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

// CacheProblem says why the analytics cache is not working as configured,
// or nil: a directory others can write (refused), a bucket that could not
// be opened (the client falls back to Dir), or a store that failed (the
// client goes on without it). Reads still work; they just spend the budget
// as without a cache. The first problem is kept.
func (c *Client) CacheProblem() error {
	if c == nil || c.core == nil {
		return nil
	}
	return c.core.problems.First()
}

// analyticsCache is the client's cache: where entries live (the records
// of package analyticscache, sealed with the API key) and how long they
// serve.
type analyticsCache struct {
	*analyticscache.Cache
	opts CacheOptions
}

// newAnalyticsCache opens the store o names: the bucket, else (or when it
// cannot be opened) the directory. It returns nil, with the reason noted
// in problems, when neither can be used.
func newAnalyticsCache(o CacheOptions, apiKey string, problems *analyticscache.Problems) *analyticsCache {
	var bucket func() (analyticscache.Store, error)
	if o.URL != "" {
		bucket = func() (analyticscache.Store, error) { return openBucketStore(context.Background(), o) }
	}
	if c := analyticscache.Open(bucket, o.Dir, o.MaxBytes, apiKey, problems); c != nil {
		return &analyticsCache{Cache: c, opts: o}
	}
	return nil
}

// entryLimit bounds an entry: the pages of one read are at most the
// client's per-read cap of answers, re-encoded.
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

// errEntryMismatch is an entry whose pages do not answer the read's
// requests: a miss.
var errEntryMismatch = errors.New("cache entry does not match the read")

// cachedRead runs one analytics read (walk) through the client's cache
// and its known-spent budget, handing its pages, or its error, to yield:
//
//   - a fresh entry for the read serves it whole, with no request;
//   - otherwise, when another program is fetching the same read (it holds
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
func cachedRead[P any](ctx context.Context, k *core, key string, whole bool, decode func(decoding, []byte, *P) error,
	walk func(src pageSource[P], emit func(*P) bool) (bool, error), yield func(*P, error) bool) {
	c := k.cache
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

// readOne reads a single page (the request c) through the cache as a
// read of its own, under key: see cachedRead.
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

// serveEntry hands out the pages of an entry, each with how it was served
// (status; the first also with the attempts the API refused before a stale
// copy). It first walks the whole entry without handing anything out: an
// entry whose pages do not answer the read's requests one by one, or that
// the read's guards refuse, is a miss (false), and nothing was handed out.
func serveEntry[P any](k *core, e analyticscache.Record, status CacheStatus, attempts int,
	walk func(src pageSource[P], emit func(*P) bool) (bool, error), yield func(*P, error) bool) bool {
	pages := make([]*P, len(e.Pages))
	for i, pc := range e.Pages {
		p := new(P)
		if json.Unmarshal(pc.Value, p) != nil {
			return false
		}
		// The entry was written without secrets; one read from a shared
		// store is checked again all the same.
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
