package sdk

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
	"gocloud.dev/blob"
	_ "gocloud.dev/blob/s3blob"

	"github.com/mintlify/terraform-provider-mintlify/sdk/cachebucket"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// fileBucket is a file:// bucket in a new directory.
func fileBucket(t *testing.T) (bucket, dir string) {
	dir = t.TempDir()
	return "file://" + filepath.ToSlash(dir), dir
}

// s3Bucket serves an S3-compatible API in-process (gofakes3) with one
// bucket, and returns its s3:// URL. Credentials come from the
// environment, as from any AWS credential chain.
func s3Bucket(t *testing.T) string {
	backend := s3mem.New()
	if err := backend.CreateBucket("mintlify-cache"); err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(gofakes3.New(backend).Server())
	t.Cleanup(ts.Close)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAFAKE")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "fake-secret")
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(t.TempDir(), "none"))
	return "s3://mintlify-cache?region=us-east-1&use_path_style=true&disable_https=true&endpoint=" + url.QueryEscape(ts.URL) + "&prefix=runners/"
}

func bucketOpts(url string) CacheOptions {
	o := cacheOpts("")
	o.URL, o.OpenBucket = url, cachebucket.Open
	return o
}

// Runners on different machines (empty disks, one bucket) share reads and
// the known-spent budget: the second runner reads nothing from the API.
func TestCacheBucket_runnersShareReadsAndTheSpentBudget(t *testing.T) {
	fileURL, _ := fileBucket(t)
	for name, url := range map[string]string{"file": fileURL, "s3": s3Bucket(t)} {
		t.Run(name, func(t *testing.T) {
			fs, first, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 1200}}, WithAnalyticsCache(bucketOpts(url)))
			if first.CacheProblem() != nil {
				t.Fatal(first.CacheProblem())
			}
			ctx, p := context.Background(), mintlifytest.DemoProjectID
			want, err := first.Analytics.Visitors.All(ctx, p, VisitorsQuery{})
			if err != nil || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 5 {
				t.Fatalf("first runner: %v, %d requests", err, fs.Requests(mintlifytest.RouteAnalyticsVisitors))
			}
			// Another machine: its own empty directory, the same bucket.
			o := bucketOpts(url)
			o.Dir = t.TempDir()
			second := newTestClient(t, first.BaseURL(), clk, WithAnalyticsCache(o))
			got, err := second.Analytics.Visitors.All(ctx, p, VisitorsQuery{})
			if err != nil || !got.Cache.Hit || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 5 || len(got.Paths) != len(want.Paths) {
				t.Errorf("second runner: %+v, %v, %d requests", got.Cache, err, fs.Requests(mintlifytest.RouteAnalyticsVisitors))
			}
			if files, _ := os.ReadDir(o.Dir); len(files) != 0 {
				t.Errorf("the bucket won, yet %d files were written to the directory", len(files))
			}
			// The budget spent for one runner is spent for all.
			fs.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
			if _, err := first.Analytics.Views.All(ctx, p, VisitorsQuery{}); !RateLimitedByAPI(err) {
				t.Fatal(err)
			}
			third := newTestClient(t, first.BaseURL(), clk, WithAnalyticsCache(bucketOpts(url)))
			if _, err := third.Analytics.Searches.All(ctx, p, SearchesQuery{}); !IsNotSent(err) {
				t.Errorf("third runner: %v", err)
			}
			if hits := fs.FaultHits()[0]; hits != 1 {
				t.Errorf("%d refused requests, want 1", hits)
			}
		})
	}
}

// Objects of the bucket are checked before use: garbage, another key's
// entry or one too large is a miss, refetched and overwritten.
func TestCacheBucket_badObjectsAreMisses(t *testing.T) {
	url := s3Bucket(t)
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(bucketOpts(url)), WithMaxBytesPerRead(1<<20))
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	if _, err := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); err != nil {
		t.Fatal(err)
	}
	b, err := blob.OpenBucket(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var name string
	iter := b.List(nil)
	for {
		obj, err := iter.Next(ctx)
		if err != nil {
			break
		}
		if !strings.HasPrefix(obj.Key, "lease-") && !strings.HasPrefix(obj.Key, "budget-") {
			name = obj.Key
		}
	}
	good, err := b.ReadAll(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	var other []byte
	if r, ok := c.core.cache.Decode(good, analyticscache.KindRead, mustKey(t, c), clk.Now()); ok {
		r.Who = analyticscache.Fingerprint("mint_someone_else")
		other, _ = analyticscache.New(nil, "mint_someone_else").Encode(r)
	} else {
		t.Fatal("the entry does not decode")
	}
	huge := append(append([]byte{}, good...), []byte(strings.Repeat(" ", 3<<20))...)
	for i, bad := range [][]byte{[]byte("garbage"), other, huge} {
		if err := b.WriteAll(ctx, name, bad, nil); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Second)
		got, err := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{})
		if err != nil || got.Cache.Hit || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != i+2 {
			t.Errorf("bad object %d: %+v, %v", i, got.Cache, err)
		}
	}
	if got, _ := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); !got.Cache.Hit {
		t.Error("the refetched entry does not serve")
	}
}

// mustKey is the read key of the first page of an unset VisitorsQuery.
func mustKey(t *testing.T, c *Client) string {
	t.Helper()
	e := c.Analytics.Visitors
	return "page\x00" + c.core.requestURL(e.call(mintlifytest.DemoProjectID, VisitorsQuery{}.paging(), e.spec.start(VisitorsQuery{}.paging())))
}

// A URL without OpenBucket (the SDK links no store) falls back to the
// directory, saying what to pass.
func TestCacheBucket_urlWithoutAnOpenerUsesTheDirectory(t *testing.T) {
	o := cacheOpts(t.TempDir())
	o.URL, _ = fileBucket(t)
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(o))
	if err := c.CacheProblem(); err == nil || !strings.Contains(err.Error(), "CacheOptions.OpenBucket is not set (pass cachebucket.Open from package sdk/cachebucket)") {
		t.Errorf("problem: %v", err)
	}
	for range 2 {
		if _, err := c.Analytics.Visitors.Page(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{}); err != nil {
			t.Fatal(err)
		}
	}
	if fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 1 || len(entryFiles(t, o.Dir)) != 1 {
		t.Errorf("the directory did not stand in: %d requests", fs.Requests(mintlifytest.RouteAnalyticsVisitors))
	}
}

// A bucket that cannot be opened falls back to the directory; one that
// fails later is left alone; both say why, and reads still work.
func TestCacheBucket_problemsFallBackAndAreReported(t *testing.T) {
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	missing := "file://" + filepath.ToSlash(filepath.Join(t.TempDir(), "no-such-dir"))
	o := bucketOpts(missing)
	o.Dir = t.TempDir()
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(o))
	if err := c.CacheProblem(); err == nil || !strings.Contains(err.Error(), "could not be opened, so the cache directory is used instead") || strings.Contains(err.Error(), "?") {
		t.Errorf("problem: %v", err)
	}
	for range 2 {
		if _, err := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); err != nil {
			t.Fatal(err)
		}
	}
	if fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 1 || len(entryFiles(t, o.Dir)) != 1 {
		t.Errorf("the directory did not stand in: %d requests", fs.Requests(mintlifytest.RouteAnalyticsVisitors))
	}

	// Opened, then broken (its directory replaced by a file): the first
	// failure turns the store off.
	bucket, dir := fileBucket(t)
	fs, c, _ = newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(bucketOpts(bucket)))
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); err != nil {
			t.Fatalf("a failing bucket broke the read: %v", err)
		}
	}
	if err := c.CacheProblem(); err == nil || !strings.Contains(err.Error(), "failed, and is not used again") {
		t.Errorf("problem: %v", err)
	}
	if n := fs.Requests(mintlifytest.RouteAnalyticsVisitors); n != 2 {
		t.Errorf("%d requests", n)
	}
}

func TestValidateCacheURL(t *testing.T) {
	checkAccepted(t, ValidateCacheURL, "s3://b", "s3://b?region=eu-west-1&prefix=x/", "gs://b", "azblob://c", "file:///srv/cache", "file:///srv/cache?create_dir=true")
	for bad, want := range map[string]string{
		"":                       "must be a bucket URL",
		"bucket":                 "must be a bucket URL",
		"http://example.com/b":   "must use one of the schemes s3://, gs://, azblob://, file://",
		"s3://AKIA:secret@b":     "must not carry credentials",
		"file://":                "names no directory",
		"ftp://x":                "must use one of the schemes",
		"::not a url":            "must be a bucket URL",
		"azblob://user:pw@c?x=y": "must not carry credentials",
	} {
		err := ValidateCacheURL(bad)
		if err == nil || !strings.Contains(err.Error(), want) || !IsValidation(err) || strings.Contains(err.Error(), "secret") || strings.Contains(err.Error(), ":pw") {
			t.Errorf("%q: %v, want %q", bad, err, want)
		}
		if _, err := NewClient("mint_x", WithAnalyticsCache(CacheOptions{URL: bad, FreshFor: time.Minute})); bad != "" && err == nil {
			t.Errorf("%q accepted by WithAnalyticsCache", bad)
		}
	}
}

// Leases: runners that miss the same read at once wait for the one
// reading it instead of reading too.
func TestCacheLease_aWaiterServesTheHoldersEntry(t *testing.T) {
	url, dir := fileBucket(t)
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 600}}, WithAnalyticsCache(bucketOpts(url)))
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	// The holder's entry, made in another bucket, and its lease here.
	otherURL, otherDir := fileBucket(t)
	holder := newTestClient(t, c.BaseURL(), clk, WithAnalyticsCache(bucketOpts(otherURL)))
	want, err := holder.Analytics.Visitors.All(ctx, p, VisitorsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	entries := entryFiles(t, otherDir)
	if len(entries) != 1 {
		t.Fatal(entries)
	}
	cache := c.core.cache
	key := "read\x00" + strings.TrimPrefix(mustKey(t, c), "page\x00") + "\x000"
	if cache.EntryName(key) != filepath.Base(entries[0]) {
		t.Fatalf("entry names differ: %s, %s", cache.EntryName(key), entries[0])
	}
	now := clk.Now()
	cache.Save(ctx, cache.LeaseName(key), analyticscache.Record{Kind: analyticscache.KindLease, Key: key, At: now, Until: now.Add(analyticscache.LeaseFor), Token: "the holder"})
	// The holder finishes while the waiter's first poll sleeps.
	clock := &hookClock{fakeClock: clk, hook: func() {
		data, _ := os.ReadFile(entries[0])
		_ = os.WriteFile(filepath.Join(dir, filepath.Base(entries[0])), data, 0o600)
		_ = os.Remove(filepath.Join(dir, cache.LeaseName(key)))
	}}
	waiter := newTestClient(t, c.BaseURL(), nil, WithClock(clock), WithAnalyticsCache(bucketOpts(url)))
	before := fs.Requests(mintlifytest.RouteAnalyticsVisitors)
	got, err := waiter.Analytics.Visitors.All(ctx, p, VisitorsQuery{})
	if err != nil || !got.Cache.Hit || len(got.Paths) != len(want.Paths) || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != before {
		t.Errorf("waiter: %+v, %v, %d requests", got.Cache, err, fs.Requests(mintlifytest.RouteAnalyticsVisitors)-before)
	}
	if clock.sleeps != 1 {
		t.Errorf("%d polls, want 1", clock.sleeps)
	}
}

// hookClock runs hook on the first Sleep.
type hookClock struct {
	*fakeClock
	hook   func()
	sleeps int
}

func (c *hookClock) Sleep(ctx context.Context, d time.Duration) error {
	if c.sleeps++; c.sleeps == 1 {
		c.hook()
	}
	return c.fakeClock.Sleep(ctx, d)
}

// A lease is trusted for analyticscache.LeaseFor at most from when it was taken or last
// extended (its time, or when this reader first saw it if that is
// earlier), whatever its until says: a dead holder's lease expires after a
// minute, as documented, even one dated until 9999 (a bug, a clock far
// off), which held every reader for the whole analyticscache.LeaseMaxWait. A holder that
// keeps extending its lease but never finishes is waited on analyticscache.LeaseMaxWait
// at most.
func TestCacheLease_deadOrStuckHoldersAreNotWaitedOnForever(t *testing.T) {
	forever := time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		name      string
		at        time.Duration // from now
		until     time.Time     // zero: at + analyticscache.LeaseFor
		extended  bool          // the holder extends it at every poll
		wantSleep time.Duration
	}{
		{name: "expired", at: -2 * time.Minute, wantSleep: 0},
		{name: "until 9999, taken now", at: 0, until: forever, wantSleep: analyticscache.LeaseFor},
		{name: "until 9999, taken a minute ago", at: -time.Minute, until: forever, wantSleep: 0},
		{name: "until 9999, dated 30s ahead", at: 30 * time.Second, until: forever, wantSleep: analyticscache.LeaseFor},
		{name: "kept alive, never finished", at: 0, extended: true, wantSleep: analyticscache.LeaseMaxWait},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			srv, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}})
			ctx, p := context.Background(), mintlifytest.DemoProjectID
			var cache *analyticsCache
			key := mustKey(t, c)
			lease := func(at time.Time) {
				until := tt.until
				if until.IsZero() {
					until = at.Add(analyticscache.LeaseFor)
				}
				cache.Save(ctx, cache.LeaseName(key), analyticscache.Record{Kind: analyticscache.KindLease, Key: key, At: at, Until: until, Token: "the holder"})
			}
			clock := &pollClock{fakeClock: clk, poll: func(now time.Time) {
				if tt.extended {
					lease(now)
				}
			}}
			reader := newTestClient(t, c.BaseURL(), nil, WithClock(clock), WithAnalyticsCache(cacheOpts(dir)))
			cache = reader.core.cache
			lease(clk.Now().Add(tt.at))
			if _, err := reader.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); err != nil || srv.Requests(mintlifytest.RouteAnalyticsVisitors) != 1 {
				t.Fatalf("%v, %d requests", err, srv.Requests(mintlifytest.RouteAnalyticsVisitors))
			}
			var slept time.Duration
			for _, d := range clk.Sleeps() {
				slept += d
			}
			if slept < tt.wantSleep || slept > tt.wantSleep+analyticscache.LeasePoll {
				t.Errorf("waited %s, want %s", slept, tt.wantSleep)
			}
			if _, err := os.Stat(filepath.Join(dir, cache.LeaseName(key))); !tt.extended && !os.IsNotExist(err) {
				t.Errorf("the lease taken over was not released: %v", err)
			}
		})
	}
}

// pollClock runs poll before each Sleep.
type pollClock struct {
	*fakeClock
	poll func(now time.Time)
}

func (c *pollClock) Sleep(ctx context.Context, d time.Duration) error {
	c.poll(c.Now())
	return c.fakeClock.Sleep(ctx, d)
}

// Six processes (clients of their own, on the real clock) that miss the
// same read at once spend one read: one takes the lease and reads, the
// others wait for its entry.
func TestCacheLease_concurrentRunnersSpendOneRead(t *testing.T) {
	dir := t.TempDir()
	srv := mintlifytest.NewServer(mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 1200}})
	defer srv.Close()
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			c, err := NewClient(mintlifytest.DemoAPIKey, WithBaseURL(srv.URL), WithAnalyticsCache(cacheOpts(dir)))
			if err != nil {
				t.Error(err)
				return
			}
			if got, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{}); err != nil || len(got.Paths) != 1200 {
				t.Errorf("%v", err)
			}
		})
	}
	wg.Wait()
	if n := srv.Requests(mintlifytest.RouteAnalyticsVisitors); n != 5 {
		t.Errorf("%d requests for 6 runners, want one read's 5", n)
	}
	if leases, _ := filepath.Glob(filepath.Join(dir, "lease-*")); len(leases) != 0 {
		t.Errorf("leases left: %v", leases)
	}
}

// Every cached answer type comes back from its entry as it was decoded.
func TestCache_entriesRestoreEveryAnswerType(t *testing.T) {
	_, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 30, SearchTerms: 30, Feedback: 30, Conversations: 30}}, WithAnalyticsCache(cacheOpts(t.TempDir())))
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	conv, err := c.Analytics.Conversations.Page(ctx, p, ConversationsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	reads := map[string]func() (any, CacheStatus, error){
		"visitors": func() (any, CacheStatus, error) {
			r, e := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{})
			return r, r.Cache, e
		},
		"views": func() (any, CacheStatus, error) {
			r, e := c.Analytics.Views.All(ctx, p, VisitorsQuery{})
			return r, r.Cache, e
		},
		"searches": func() (any, CacheStatus, error) {
			r, e := c.Analytics.Searches.All(ctx, p, SearchesQuery{})
			return r, r.Cache, e
		},
		"feedback": func() (any, CacheStatus, error) {
			r, e := c.Analytics.Feedback.All(ctx, p, FeedbackQuery{})
			return r, r.Cache, e
		},
		"by page": func() (any, CacheStatus, error) {
			r, e := c.Analytics.FeedbackByPage(ctx, p, FeedbackByPageQuery{})
			return r, r.Cache, e
		},
		"assistant": func() (any, CacheStatus, error) {
			r, e := c.Analytics.Conversations.All(ctx, p, ConversationsQuery{})
			return r, r.Cache, e
		},
		"callers": func() (any, CacheStatus, error) {
			r, e := c.Analytics.CallerStats(ctx, p, DateRange{})
			return r, r.Cache, e
		},
		"thread": func() (any, CacheStatus, error) {
			r, e := c.Analytics.Thread(ctx, p, conv.Conversations[0].ID)
			return r, r.Cache, e
		},
	}
	for name, read := range reads {
		fresh, s1, err := read()
		if err != nil || s1.Hit {
			t.Fatalf("%s: %v", name, err)
		}
		cached, s2, err := read()
		if err != nil || !s2.Hit {
			t.Fatalf("%s again: %v", name, err)
		}
		if diff := cmpDiff(fresh, cached); diff != "" {
			t.Errorf("%s: the cached answer differs (-fresh +cached):\n%s", name, diff)
		}
	}
}

func cmpDiff(a, b any) string { return cmp.Diff(a, b, ignoreInfo) }

// scriptedBucket is a CacheBucket of a program's own, in memory, whose
// writes fail with the errors a store gives.
type scriptedBucket struct {
	mu                  sync.Mutex
	objects             map[string][]byte
	putErr, ifAbsentErr error
	writes              int // write requests sent (Put, PutIfAbsent, Remove)
}

func (b *scriptedBucket) Get(_ context.Context, name string, limit int64) ([]byte, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	data, ok := b.objects[name]
	switch {
	case !ok:
		return nil, fs.ErrNotExist
	case int64(len(data)) > limit:
		return nil, fs.ErrInvalid
	}
	return data, nil
}

func (b *scriptedBucket) Put(_ context.Context, name string, data []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writes++
	if b.putErr != nil {
		return b.putErr
	}
	b.objects[name] = data
	return nil
}

func (b *scriptedBucket) PutIfAbsent(_ context.Context, name string, data []byte) (bool, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writes++
	if b.ifAbsentErr != nil {
		return false, b.ifAbsentErr
	}
	if _, ok := b.objects[name]; ok {
		return false, nil
	}
	b.objects[name] = data
	return true, nil
}

func (b *scriptedBucket) Remove(_ context.Context, name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.writes++
	if b.putErr != nil {
		return b.putErr
	}
	delete(b.objects, name)
	return nil
}

func (b *scriptedBucket) Where() string { return "bucket scripted://cache" }

func (b *scriptedBucket) writesSent() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.writes
}

func scriptedOpts(b *scriptedBucket) CacheOptions {
	o := cacheOpts("")
	o.URL = "s3://cache"
	o.OpenBucket = func(context.Context, string) (CacheBucket, error) { return b, nil }
	return o
}

// A runner whose credential may read the bucket but not write it (a
// pull-request plan's, say) still serves what other runners stored: the
// first refused write stops the writes, not the reads, and says so once.
// Before, that first refusal turned the bucket off for the rest of the
// program, entries and all.
func TestCacheBucket_aReadOnlyCredentialStillReads(t *testing.T) {
	b := &scriptedBucket{objects: map[string][]byte{}}
	fake, writer, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(scriptedOpts(b)))
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	if _, err := writer.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); err != nil {
		t.Fatal(err)
	}
	b.putErr = fmt.Errorf("the bucket cannot be written: 403 AccessDenied: %w", fs.ErrPermission)
	b.ifAbsentErr = b.putErr
	reader := newTestClient(t, writer.BaseURL(), clk, WithAnalyticsCache(scriptedOpts(b)))
	// A miss: read from the API, nothing stored, one problem.
	if got, err := reader.Analytics.Views.Page(ctx, p, VisitorsQuery{}); err != nil || got.Cache.Hit {
		t.Fatalf("a miss: %+v %v", got.Cache, err)
	}
	problem := reader.CacheProblem()
	if problem == nil || !strings.Contains(problem.Error(), "is read but not written by this program: answers already stored there are used, none is added: the bucket cannot be written: 403 AccessDenied") {
		t.Errorf("problem: %v", problem)
	}
	writes := b.writesSent()
	// What another runner stored still serves, and no write is tried again.
	for range 2 {
		if got, err := reader.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); err != nil || !got.Cache.Hit {
			t.Errorf("an entry another runner stored: %+v %v", got.Cache, err)
		}
		if _, err := reader.Analytics.Searches.Page(ctx, p, SearchesQuery{}); err != nil {
			t.Fatal(err)
		}
	}
	if n := b.writesSent(); n != writes {
		t.Errorf("%d more writes after the store refused one", n-writes)
	}
	if n := fake.Requests(mintlifytest.RouteAnalyticsVisitors); n != 1 {
		t.Errorf("%d requests for the stored read, want the writer's 1", n)
	}
}

// A store without conditional writes (an S3-compatible one answering 501
// to If-None-Match) takes no leases but still shares answers: the refusal
// is said once and not sent again. Before, it turned the bucket off.
func TestCacheBucket_noConditionalWritesTakesNoLeasesButSharesAnswers(t *testing.T) {
	b := &scriptedBucket{objects: map[string][]byte{}, ifAbsentErr: fmt.Errorf("the store does not implement conditional writes: 501 NotImplemented: %w", errors.ErrUnsupported)}
	fake, first, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(scriptedOpts(b)))
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	for _, c := range []*Client{first, newTestClient(t, first.BaseURL(), clk, WithAnalyticsCache(scriptedOpts(b)))} {
		if _, err := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); err != nil {
			t.Fatal(err)
		}
	}
	if n := fake.Requests(mintlifytest.RouteAnalyticsVisitors); n != 1 {
		t.Errorf("%d requests for two runners, want 1: the answer is shared without a lease", n)
	}
	problem := first.CacheProblem()
	if problem == nil || !strings.Contains(problem.Error(), "takes no leases, so runners that miss the same read at the same time each read it (answers are still shared): the store does not implement conditional writes: 501 NotImplemented") {
		t.Errorf("problem: %v", problem)
	}
	writes := b.writesSent()
	if _, err := first.Analytics.Views.Page(ctx, p, VisitorsQuery{}); err != nil {
		t.Fatal(err)
	}
	if n := b.writesSent() - writes; n != 1 {
		t.Errorf("%d writes for a new read, want its entry alone (no conditional write tried again)", n)
	}
}
