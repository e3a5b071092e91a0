package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
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
	return c.core.problems.get()
}

// problemLog keeps the first cache problem of a client.
type problemLog struct {
	mu    sync.Mutex
	first error
}

func (p *problemLog) note(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.first == nil {
		p.first = err
	}
}

func (p *problemLog) get() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.first
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
func newAnalyticsCache(o CacheOptions, apiKey string, problems *problemLog) *analyticsCache {
	var store analyticscache.Store
	if o.URL != "" {
		b, err := openBucketStore(context.Background(), o)
		if err == nil {
			store = b
		} else {
			problems.note(err)
		}
	}
	if store == nil {
		if o.Dir == "" {
			return nil
		}
		disk, err := analyticscache.OpenDisk(o.Dir, o.MaxBytes)
		if err != nil {
			problems.note(err)
			return nil
		}
		store = disk
	}
	return &analyticsCache{Cache: analyticscache.New(analyticscache.Guard(store, problems.note), apiKey), opts: o}
}

// entryLimit bounds an entry: the pages of one read are at most the
// client's per-read cap of answers, re-encoded.
func (k *core) entryLimit() int64 { return 2*k.maxBytesPerRead + analyticscache.MaxRecordBytes }

// encodePage is a page as an entry keeps it: its decoded value without
// how it arrived.
func encodePage[P any](p *P, info func(*P) *ResponseInfo, query string) (analyticscache.Page, error) {
	v := *p
	*info(&v) = ResponseInfo{}
	data, err := json.Marshal(&v)
	return analyticscache.Page{Query: query, Value: data}, err
}

// pageSource gives the page answering a call, and its size in bytes.
type pageSource[P any] func(c call) (*P, int64, error)

// walker runs a read: it asks src for each page in turn, hands each page
// to emit, and reports whether it reached the read's end (rather than
// being stopped by emit).
type walker[P any] func(src pageSource[P], emit func(*P) bool) (complete bool, err error)

// pageCodec is how readThrough decodes, keeps and restores pages of one
// type.
type pageCodec[P any] struct {
	decode func(data []byte, p *P) error
	info   func(*P) *ResponseInfo
}

// errEntryMismatch is an entry whose pages do not answer the read's
// requests: a miss.
var errEntryMismatch = errors.New("cache entry does not match the read")

// readThrough runs one analytics read (walk) through the cache and the
// known-spent budget:
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
// read's byte cap (WithMaxBytesPerRead), as the entry the read stores is.
func readThrough[P any](ctx context.Context, k *core, key string, whole bool, codec pageCodec[P], walk walker[P], yield func(*P, error) bool) {
	c := k.cache
	var entry *analyticscache.Record
	if c != nil {
		now := k.clock.Now()
		k.budget.refresh(ctx, k)
		if e, ok := c.Load(ctx, c.EntryName(key), analyticscache.KindRead, key, now, k.entryLimit()); ok {
			entry = &e
			if now.Sub(e.At) < c.opts.FreshFor && serveEntry(k, e, CacheStatus{Hit: true, StoredAt: e.At}, 0, codec, walk, yield) {
				return
			}
		}
	}
	var lease *analyticscache.Lease
	if c != nil && k.budget.Until(k.clock.Now()).IsZero() {
		var awaited *analyticscache.Record
		lease, awaited = c.Acquire(ctx, key, analyticscache.Wait{Clock: k.clock, FreshFor: c.opts.FreshFor, EntryLimit: k.entryLimit(),
			Spent: func(ctx context.Context, now time.Time) bool {
				k.budget.refresh(ctx, k)
				return !k.budget.Until(now).IsZero()
			}})
		if awaited != nil && serveEntry(k, *awaited, CacheStatus{Hit: true, StoredAt: awaited.At}, 0, codec, walk, yield) {
			return
		}
	}
	storable := c != nil
	standIn := whole && entry != nil && k.clock.Now().Sub(entry.At) < c.opts.MaxStale
	var held []*P
	var pages []analyticscache.Page
	var stored time.Time
	served := 0
	api := func(call call) (*P, int64, error) {
		data, info, err := k.budgetedRoundTrip(ctx, call, k.budget)
		if err != nil {
			return nil, int64(len(data)), err
		}
		p := new(P)
		redacted, err := k.decodeWith(call, data, p, func(b []byte) error { return codec.decode(b, p) })
		if err != nil {
			return nil, int64(len(data)), err
		}
		*codec.info(p) = info
		// An answer that echoed the key is never stored, even redacted.
		storable = storable && !redacted
		if storable {
			if stored.IsZero() {
				stored = k.clock.Now()
			}
			copied, err := encodePage(p, codec.info, call.query.Encode())
			storable = err == nil
			pages = append(pages, copied)
		}
		lease.Extend(ctx, k.clock.Now())
		return p, int64(len(data)), nil
	}
	emit := func(p *P) bool { served++; return yield(p, nil) }
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
	var apiErr *APIError
	if c != nil && served == 0 && errors.As(err, &apiErr) && apiErr.StatusCode == 429 && c.opts.MaxStale > 0 {
		now := k.clock.Now()
		if entry == nil || lease != nil { // another process may have stored one meanwhile
			if e, ok := c.Load(ctx, c.EntryName(key), analyticscache.KindRead, key, now, k.entryLimit()); ok {
				entry = &e
			}
		}
		if entry != nil && now.Sub(entry.At) < c.opts.MaxStale &&
			serveEntry(k, *entry, CacheStatus{Hit: true, Stale: true, StoredAt: entry.At, RateLimit: apiErr}, apiErr.Attempts, codec, walk, yield) {
			return
		}
	}
	yield(nil, err)
}

// serveEntry hands out the pages of an entry, each marked with status, the
// first with the attempts the API refused before it (a stale copy's). It
// first walks the whole entry without handing anything out: an entry whose
// pages do not answer the read's requests one by one, or that the read's
// guards refuse, is a miss (false), and nothing was handed out.
func serveEntry[P any](k *core, e analyticscache.Record, status CacheStatus, refused int, codec pageCodec[P], walk walker[P], yield func(*P, error) bool) bool {
	pages := make([]*P, len(e.Pages))
	for i, pc := range e.Pages {
		p := new(P)
		if json.Unmarshal(pc.Value, p) != nil {
			return false
		}
		// The entry was written without secrets; one read from a shared
		// store is checked again all the same.
		if k.mayHoldSecret(pc.Value) {
			redactStrings(p, k.secrets)
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
			*codec.info(pages[i]) = ResponseInfo{Pages: 1, Cache: status}
			if i == 0 {
				codec.info(pages[i]).Attempts = refused
			}
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
