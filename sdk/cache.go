package sdk

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// CacheOptions configure the analytics cache (WithAnalyticsCache): answers
// of analytics GETs kept on disk, so that the programs sharing a machine
// (every terraform command starts its own provider) spend the
// organization's hourly analytics budget once per answer instead of once
// per run. Agent-job reads are never cached. Each page is an entry of its
// own; a paging read that has had to ask the API for one page asks it for
// the rest too, so its rows always come from one snapshot.
type CacheOptions struct {
	// Dir holds the cache; it is created (0700) when missing. Entries are
	// files readable by their owner only (0600).
	Dir string
	// FreshFor is how long a cached answer is used instead of asking the
	// API. 0 turns the cache off.
	FreshFor time.Duration
	// MaxStale is how old a cached answer may be and still stand in for
	// one the API refuses with a rate limit the client will not wait out
	// (a 429 whose Retry-After is longer than WithMaxRetryAfter, or one
	// that outlasted the retries). The page then says so (CacheStatus).
	// 0 never serves a stale answer.
	MaxStale time.Duration
	// MaxBytes caps the cache on disk: past it, the oldest entries are
	// removed. 0 means DefaultCacheMaxBytes.
	MaxBytes int64
}

// DefaultCacheMaxBytes caps the analytics cache on disk: room for forty
// reads of a 100,000-path site.
const DefaultCacheMaxBytes = 400 << 20

// WithAnalyticsCache keeps analytics answers on disk (see CacheOptions).
// A directory that cannot be created or written makes the cache do
// nothing, quietly: the client then behaves as without one.
func WithAnalyticsCache(o CacheOptions) Option {
	return optionFunc(func(s *settings) error {
		if o.FreshFor < 0 || o.MaxStale < 0 || o.MaxBytes < 0 {
			return fmt.Errorf("sdk: WithAnalyticsCache: durations and sizes must not be negative")
		}
		if o.FreshFor == 0 || o.Dir == "" {
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

func newDiskCache(o CacheOptions) *diskCache { return &diskCache{opts: o} }

// CacheStatus says where an analytics answer came from when the client has
// a cache. The zero value is an answer fresh from the API.
type CacheStatus struct {
	// Hit is set when the answer came from the cache, with no request.
	Hit bool
	// StoredAt is when a cached answer was fetched from the API.
	StoredAt time.Time
	// Stale is set when the answer was older than fresh and served only
	// because the API refused the request with RateLimit.
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

// cacheFormat versions the entries: another format is a miss.
const cacheFormat = 1

type cacheEntry struct {
	Format   int             `json:"format"`
	URL      string          `json:"url"` // the request, without the key
	StoredAt time.Time       `json:"storedAt"`
	Body     json.RawMessage `json:"body"`
}

// diskCache is the cache's files. Safe for concurrent use, across
// processes too: entries are written whole and renamed into place, so a
// reader sees an old entry or a new one, never half of one.
type diskCache struct {
	opts CacheOptions

	mu    sync.Mutex
	size  int64 // bytes on disk as last counted, plus what this process wrote since
	known bool  // size has been counted
}

// keyFingerprint stands for the API key in cache keys: a hash from which
// the key cannot be recovered, so answers read with one key are never
// served to another, and the key is never written.
func keyFingerprint(apiKey string) string {
	sum := sha256.Sum256([]byte("mintlify-analytics-cache/v1\x00" + apiKey))
	return hex.EncodeToString(sum[:16])
}

// entryName names the file of one request: everything that changes the
// answer goes into it (base URL, project and endpoint in the path, query,
// key).
func entryName(requestURL, apiKey string) string {
	sum := sha256.Sum256([]byte(requestURL + "\x00" + keyFingerprint(apiKey)))
	return hex.EncodeToString(sum[:]) + ".json"
}

// load returns the cached entry of requestURL, or false when there is
// none, or it cannot be read or trusted: a miss, never an error.
func (d *diskCache) load(requestURL, apiKey string) (cacheEntry, bool) {
	data, err := os.ReadFile(filepath.Join(d.opts.Dir, entryName(requestURL, apiKey)))
	if err != nil {
		return cacheEntry{}, false
	}
	var e cacheEntry
	if json.Unmarshal(data, &e) != nil || e.Format != cacheFormat || e.URL != requestURL || len(e.Body) == 0 {
		return cacheEntry{}, false
	}
	return e, true
}

// store writes an entry atomically, then keeps the cache under its cap.
// Any failure leaves the cache as it was, quietly.
func (d *diskCache) store(requestURL, apiKey string, body []byte, now time.Time) {
	data, err := json.Marshal(cacheEntry{Format: cacheFormat, URL: requestURL, StoredAt: now.UTC(), Body: body})
	if err != nil || os.MkdirAll(d.opts.Dir, 0o700) != nil {
		return
	}
	tmp, err := os.CreateTemp(d.opts.Dir, ".tmp-*") // created 0600
	if err != nil {
		return
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if werr != nil || cerr != nil || os.Rename(tmp.Name(), filepath.Join(d.opts.Dir, entryName(requestURL, apiKey))) != nil {
		_ = os.Remove(tmp.Name())
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.known {
		d.size, d.known = d.count(), true
	} else {
		d.size += int64(len(data))
	}
	if d.size > d.opts.MaxBytes {
		d.size = d.evict()
	}
}

// count returns the bytes the cache's entries take.
func (d *diskCache) count() int64 {
	var total int64
	for _, e := range d.entries() {
		total += e.size
	}
	return total
}

type entryFile struct {
	path    string
	size    int64
	modTime time.Time
}

func (d *diskCache) entries() []entryFile {
	dirents, err := os.ReadDir(d.opts.Dir)
	if err != nil {
		return nil
	}
	var out []entryFile
	for _, de := range dirents {
		if de.IsDir() || !strings.HasSuffix(de.Name(), ".json") {
			continue
		}
		if info, err := de.Info(); err == nil {
			out = append(out, entryFile{filepath.Join(d.opts.Dir, de.Name()), info.Size(), info.ModTime()})
		}
	}
	return out
}

// evict removes the oldest entries until the cache takes at most 90% of
// its cap, and returns its new size. Other processes may evict at the same
// time: a file already gone is fine.
func (d *diskCache) evict() int64 {
	files := d.entries()
	sort.Slice(files, func(i, j int) bool { return files[i].modTime.Before(files[j].modTime) })
	var total int64
	for _, f := range files {
		total += f.size
	}
	for _, f := range files {
		if total <= d.opts.MaxBytes*9/10 {
			break
		}
		if err := os.Remove(f.path); err == nil || errors.Is(err, os.ErrNotExist) {
			total -= f.size
		}
	}
	return total
}

// readSnapshot is what one paging read remembers of its pages: whether
// one of them came from the API. From then on the read asks the API for
// every page, so that it never joins pages of two snapshots: a fresh page
// and a cached one taken minutes earlier may hold the same path twice (a
// read error), or miss one, when the data changed in between. Each page
// is cached on its own, so without this a read that starts just as its
// first page expires would do exactly that.
type readSnapshot struct{ fromAPI atomic.Bool }

type readSnapshotKey struct{}

// withReadSnapshot starts a paging read's snapshot in ctx.
func withReadSnapshot(ctx context.Context) context.Context {
	return context.WithValue(ctx, readSnapshotKey{}, &readSnapshot{})
}

// getCached sends an analytics GET through the cache: a fresh entry
// answers without a request (unless this paging read has already been to
// the API); otherwise the API is asked, and its answer stored. When the
// API refuses with a rate limit the client will not wait out, an entry
// younger than MaxStale answers instead, marked stale. read decodes a body
// into out; the size returned is that of the body read.
func (k *core) getCached(ctx context.Context, c call, out any, read func([]byte) error) (ResponseInfo, int64, error) {
	requestURL := k.baseURL.String() + c.path
	if q := c.query.Encode(); q != "" {
		requestURL += "?" + q
	}
	snapshot, _ := ctx.Value(readSnapshotKey{}).(*readSnapshot)
	entry, found := k.cache.load(requestURL, k.apiKey)
	now := k.clock.Now()
	if found && now.Sub(entry.StoredAt) < k.cache.opts.FreshFor && (snapshot == nil || !snapshot.fromAPI.Load()) {
		if _, err := k.decodeWith(c, entry.Body, out, read); err == nil {
			return ResponseInfo{Pages: 1, Cache: CacheStatus{Hit: true, StoredAt: entry.StoredAt}}, int64(len(entry.Body)), nil
		}
		// An entry that no longer decodes is refetched.
	}
	data, info, err := k.roundTrip(ctx, c)
	if err != nil {
		var apiErr *APIError
		if found && errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusTooManyRequests && now.Sub(entry.StoredAt) < k.cache.opts.MaxStale {
			if _, decErr := k.decodeWith(c, entry.Body, out, read); decErr == nil {
				return ResponseInfo{Pages: 1, Attempts: apiErr.Attempts, RequestID: apiErr.RequestID,
					Cache: CacheStatus{Hit: true, Stale: true, StoredAt: entry.StoredAt, RateLimit: apiErr}}, int64(len(entry.Body)), nil
			}
		}
		return ResponseInfo{}, 0, err
	}
	if snapshot != nil {
		snapshot.fromAPI.Store(true)
	}
	redacted, err := k.decodeWith(c, data, out, read)
	if err != nil {
		return ResponseInfo{}, int64(len(data)), err
	}
	// An answer that is malformed, or that echoed the key, is never stored.
	if !redacted {
		k.cache.store(requestURL, k.apiKey, data, now)
	}
	return info, int64(len(data)), nil
}
