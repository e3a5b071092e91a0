package sdk

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/readthrough"
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
	// store's permissions. A spent budget that a client of the same key
	// recorded there is believed by every other until the time it gives,
	// 24 hours ahead at most: no analytics request is sent meanwhile.
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
	// Timeout bounds the time the store (the bucket, or Dir) may take for
	// one read: each operation, and all those of one read together
	// (looking for its entry and the known-spent budget, taking and
	// releasing its lease, storing its answer). Past it the read goes to
	// the API, and the store is not used again by the client
	// (CacheProblem says why): a store that answers slowly must not cost
	// every read more than a broken one. A read that takes minutes also
	// renews its lease every 15 seconds, each renewal bounded by Timeout
	// alone. Waiting for another program's read of the same answer (its
	// lease) is bounded apart, at two minutes in all, whatever the store
	// answers. 0 means DefaultCacheTimeout.
	Timeout time.Duration
}

// DefaultCacheTimeout bounds the time the analytics cache's store may take
// for one read (CacheOptions.Timeout).
const DefaultCacheTimeout = analyticscache.DefaultTimeout

// DefaultCacheMaxBytes caps the analytics cache on disk: room for forty
// reads of a 100,000-path site.
const DefaultCacheMaxBytes = 400 << 20

// WithAnalyticsCache keeps analytics answers in a directory or a bucket
// (see CacheOptions). A store that cannot be used makes the cache do
// nothing, or fall back to Dir: the client then behaves as without one,
// and Client.CacheProblem says why.
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
	if c := analyticscache.Open(bucket, o.Dir, o.MaxBytes, o.Timeout, apiKey, problems); c != nil {
		return &analyticsCache{Cache: c, opts: o}
	}
	return nil
}

// entryLimit bounds an entry: the pages of one read are at most the
// client's per-read cap of answers, re-encoded.
func (k *core) entryLimit() int64 { return 2*k.maxBytesPerRead + analyticscache.MaxRecordBytes }

// readPolicy is the analytics cache's policy (package readthrough) over
// this client's cache, clock and budget.
func (k *core) readPolicy() readthrough.Policy {
	pol := readthrough.Policy{
		EntryLimit: k.entryLimit(),
		Clock:      k.clock,
		Refresh:    func(ctx context.Context) { k.budget.Refresh(ctx, k.clock.Now()) },
		Spent:      func(now time.Time) bool { return !k.budget.Until(now).IsZero() },
		RateLimit: func(err error) (int, error) {
			var apiErr *APIError
			if errors.As(err, &apiErr) && apiErr.StatusCode == 429 {
				return apiErr.Attempts, apiErr
			}
			return 0, nil
		},
	}
	if c := k.cache; c != nil {
		pol.Cache, pol.FreshFor, pol.MaxStale = c.Cache, c.opts.FreshFor, c.opts.MaxStale
	}
	return pol
}

// pageSource gives the page answering a call, and its size in bytes.
type pageSource[P any] = readthrough.Source[P, call]

// fetchPage asks the API for one page with send (a round trip, on the
// budget or not) and decodes it with decode, redacted, its ResponseInfo
// (info) set: the page, its answer's size, and whether it was redacted.
func fetchPage[P any](ctx context.Context, k *core, send func(context.Context, call) ([]byte, ResponseInfo, error), decode func(data []byte, p *P) error, info func(*P) *ResponseInfo) func(call) (*P, int64, bool, error) {
	return func(c call) (*P, int64, bool, error) {
		data, ri, err := send(ctx, c)
		if err != nil {
			return nil, int64(len(data)), false, err
		}
		p := new(P)
		redacted, err := k.decodeWith(c, data, p, func(b []byte) error { return decode(b, p) })
		if err != nil {
			return nil, int64(len(data)), redacted, err
		}
		*info(p) = ri
		return p, int64(len(data)), redacted, nil
	}
}

// pageCodec is how the read-through policy fetches, keeps and restores
// the pages of one type: the API's answer through the budget (fetchPage);
// its ResponseInfo (info) cleared before it is kept, and set from the
// cache's Served when it is restored.
func pageCodec[P any](ctx context.Context, k *core, decode func(data []byte, p *P) error, info func(*P) *ResponseInfo) readthrough.Codec[P, call] {
	budgeted := func(ctx context.Context, c call) ([]byte, ResponseInfo, error) {
		return k.budgetedRoundTrip(ctx, c, k.budget)
	}
	return readthrough.Codec[P, call]{
		Fetch: fetchPage(ctx, k, budgeted, decode, info),
		Query: func(c call) string { return c.query.Encode() },
		Clear: func(p *P) { *info(p) = ResponseInfo{} },
		Mark: func(p *P, s readthrough.Served) {
			var refusal *APIError
			errors.As(s.Refusal, &refusal)
			*info(p) = ResponseInfo{Pages: 1, Attempts: s.Attempts, Cache: CacheStatus{Hit: true, Stale: s.Stale, StoredAt: s.StoredAt, RateLimit: refusal}}
		},
		Scrub: func(data []byte, p *P) {
			if k.mayHoldSecret(data) {
				redactStrings(p, k.secrets)
			}
		},
	}
}
