package sdk

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func cacheOpts(dir string) CacheOptions {
	return CacheOptions{Dir: dir, FreshFor: 10 * time.Minute, MaxStale: 24 * time.Hour}
}

func TestCache_freshAnswerIsReadOnce(t *testing.T) {
	dir := t.TempDir()
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 1200, SearchTerms: 40}}, WithAnalyticsCache(cacheOpts(dir)))
	ctx := context.Background()
	first, err := c.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{})
	if err != nil || first.Cache.Hit || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 5 || first.Pages != 5 || first.Attempts != 5 {
		t.Fatalf("first read: %+v, %v, %d requests", first.ResponseInfo, err, fs.Requests(mintlifytest.RouteAnalyticsVisitors))
	}
	clk.Advance(9 * time.Minute)
	// A new client (a new terraform command) on the same directory.
	c2 := newTestClient(t, c.BaseURL(), clk, WithAnalyticsCache(cacheOpts(dir)))
	second, err := c2.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{})
	if err != nil || !second.Cache.Hit || second.Cache.Stale || !second.Cache.StoredAt.Equal(epoch) {
		t.Fatalf("second read: %+v, %v", second.Cache, err)
	}
	// A read from the cache made no request: five pages, no attempts.
	if second.Pages != 5 || second.Attempts != 0 {
		t.Errorf("second read: %d pages, %d attempts", second.Pages, second.Attempts)
	}
	if diff := cmp.Diff(first.Paths, second.Paths); diff != "" || first.Totals != second.Totals {
		t.Errorf("cached rows differ (-first +second):\n%s", diff)
	}
	if n := fs.Requests(mintlifytest.RouteAnalyticsVisitors); n != 5 {
		t.Errorf("%d requests for two reads within the fresh time, want 5", n)
	}
	// Past the fresh time, the API is asked again.
	clk.Advance(2 * time.Minute)
	third, _ := c2.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{})
	if third.Cache.Hit || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 10 {
		t.Errorf("expired: %+v, %d requests", third.Cache, fs.Requests(mintlifytest.RouteAnalyticsVisitors))
	}
	// Another query is another entry; so is another endpoint.
	if _, err := c2.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{DateFrom: "2026-10-01"}); err != nil || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 15 {
		t.Errorf("another range: %v, %d requests", err, fs.Requests(mintlifytest.RouteAnalyticsVisitors))
	}
	for range 2 {
		if _, err := c2.Analytics.Searches.All(ctx, mintlifytest.DemoProjectID, SearchesQuery{}); err != nil {
			t.Fatal(err)
		}
	}
	if n := fs.Requests(mintlifytest.RouteAnalyticsSearches); n != 1 {
		t.Errorf("searches read twice: %d requests", n)
	}
}

func TestCache_agentJobReadsAreNeverCached(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{}, WithAnalyticsCache(cacheOpts(t.TempDir())))
	job, _ := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "[fake:never]")
	for range 3 {
		if _, err := c.AgentJobs.Get(context.Background(), mintlifytest.DemoProjectID, job.ID); err != nil {
			t.Fatal(err)
		}
	}
	if n := fs.Requests(mintlifytest.RouteAgentJobsGet); n != 3 {
		t.Errorf("%d job reads reached the API, want 3", n)
	}
}

func TestCache_staleCopyStandsInForARateLimitedRead(t *testing.T) {
	dir := t.TempDir()
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 600}}, WithAnalyticsCache(cacheOpts(dir)))
	ctx := context.Background()
	fresh, err := c.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(3 * time.Hour)
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
	stale, err := c.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{})
	if err != nil {
		t.Fatalf("a rate-limited read with a stale copy failed: %v", err)
	}
	if !stale.Cache.Stale || !stale.Cache.Hit || !stale.Cache.StoredAt.Equal(epoch) || stale.Cache.RateLimit == nil ||
		!stale.Cache.RateLimit.RetryAt.Equal(epoch.Add(4*time.Hour)) {
		t.Errorf("cache status %+v", stale.Cache)
	}
	if diff := cmp.Diff(fresh.Paths, stale.Paths); diff != "" {
		t.Errorf("stale rows differ:\n%s", diff)
	}
	// Older than MaxStale, the copy is not used: the rate limit's error is.
	clk.Advance(22 * time.Hour)
	if _, err := c.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{}); !IsRateLimited(err) {
		t.Errorf("a copy past MaxStale: %v", err)
	}
	// Without a copy, the rate limit's clear error.
	if _, err := c.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{DateFrom: "2026-10-01"}); !IsRateLimited(err) || !strings.Contains(err.Error(), "try again after") {
		t.Errorf("no copy: %v", err)
	}
	// A server error is not a rate limit: no stale copy for it (a new
	// directory: the first one knows the budget is spent).
	dir = t.TempDir()
	fs.ClearFaults()
	c = newTestClient(t, c.BaseURL(), clk, WithAnalyticsCache(cacheOpts(dir)), WithMaxRetries(0))
	if _, err := c.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour)
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultServerError})
	if _, err := c.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{}); statusOf(err) != 502 {
		t.Errorf("502 with a stale copy: %v", err)
	}
}

func TestCache_staleIsNeverServedWithoutMaxStale(t *testing.T) {
	o := cacheOpts(t.TempDir())
	o.MaxStale = 0
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(o))
	if _, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour)
	fs.InjectFault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
	if _, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{}); !IsRateLimited(err) {
		t.Errorf("err = %v", err)
	}
}

func TestCache_corruptOrForeignEntriesAreRefetched(t *testing.T) {
	dir := t.TempDir()
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 300}}, WithAnalyticsCache(cacheOpts(dir)))
	ctx := context.Background()
	want, _ := c.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{})
	files := entryFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one entry for the read", files)
	}
	good, _ := os.ReadFile(files[0])
	header, body, _ := strings.Cut(string(good), "\n")
	var rec analyticscache.Record
	if err := json.Unmarshal([]byte(body), &rec); err != nil || len(rec.Pages) != 2 {
		t.Fatalf("entry %s: %v", good, err)
	}
	// Each variant is sealed with the key (by sealer): the checks past
	// the seal refuse it.
	variantBy := func(encode func(analyticscache.Record) ([]byte, error), change func(r *analyticscache.Record)) string {
		r := rec
		r.Pages = slices.Clone(rec.Pages)
		change(&r)
		data, _ := encode(r)
		return string(data)
	}
	// A record sealed with the key's fingerprint (written in every
	// record) rather than the key of the seals (written nowhere).
	sealedWithFingerprint := func(r analyticscache.Record) ([]byte, error) {
		body, err := json.Marshal(r)
		m := hmac.New(sha256.New, []byte(rec.Who))
		m.Write(body)
		return append(hex.AppendEncode([]byte(analyticscache.Magic), m.Sum(nil)), append([]byte("\n"), body...)...), err
	}
	variant := func(change func(r *analyticscache.Record)) string { return variantBy(c.core.cache.Encode, change) }
	unchanged := func(*analyticscache.Record) {}
	flipped := []byte(header)
	flipped[len(flipped)-1] ^= 1
	for i, garbage := range []string{
		"{not json",
		analyticscache.Magic + "{not json",
		header + "\n{not json",
		body,                                  // no header
		"mintlify-analytics-cache/2\n" + body, // the unsealed format before
		string(flipped) + "\n" + body,         // a seal one bit off
		header[:len(header)-2] + "\n" + body,  // a seal cut short
		strings.Replace(string(good), `"human":`, `"human":1`, 1),                 // the body changed under its seal
		variantBy(analyticscache.New(nil, "mint_someone_else").Encode, unchanged), // sealed with another key
		variantBy(sealedWithFingerprint, unchanged),                               // sealed with the fingerprint
		variant(func(r *analyticscache.Record) { r.Kind = analyticscache.KindBudget }),
		variant(func(r *analyticscache.Record) { r.Key = strings.Replace(r.Key, "offset=0", "offset=1", 1) }), // another read's
		variant(func(r *analyticscache.Record) { r.Who = analyticscache.Fingerprint("mint_someone_else") }),   // another key's
		variant(func(r *analyticscache.Record) { r.At = time.Time{} }),
		variant(func(r *analyticscache.Record) { r.Pages = r.Pages[:1] }),                                                 // a read cut short
		variant(func(r *analyticscache.Record) { r.Pages[1].Query = strings.Replace(r.Pages[1].Query, "250", "249", 1) }), // pages of other requests
		variant(func(r *analyticscache.Record) { r.Pages[0].Value = json.RawMessage(`{"paths":"x"}`) }),
		variant(func(r *analyticscache.Record) { r.Pages = append(r.Pages, r.Pages[1]) }), // a page too many
		variant(func(r *analyticscache.Record) { r.Pages[1] = r.Pages[0] }),               // the same rows twice: the read's guards refuse it
		"",
	} {
		if err := os.WriteFile(files[0], []byte(garbage), 0o600); err != nil {
			t.Fatal(err)
		}
		clk.Advance(time.Second)
		got, err := c.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{})
		if err != nil || got.Cache.Hit || !cmp.Equal(want.Paths, got.Paths) {
			t.Errorf("garbage %d: %+v, %v", i, got.Cache, err)
		}
		if n := fs.Requests(mintlifytest.RouteAnalyticsVisitors); n != 2*(i+2) {
			t.Errorf("garbage %d: %d requests, want %d", i, n, 2*(i+2))
		}
	}
	// The entry as written still serves.
	if err := os.WriteFile(files[0], good, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{}); err != nil || !got.Cache.Hit {
		t.Errorf("the good entry: %+v, %v", got.Cache, err)
	}
}

// entryFiles lists the cache's entries in dir (not its budget or leases).
func entryFiles(t *testing.T, dir string) []string {
	t.Helper()
	all, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var out []string
	for _, f := range all {
		if regexp.MustCompile(`^[0-9a-f]{64}\.json$`).MatchString(filepath.Base(f)) {
			out = append(out, f)
		}
	}
	return out
}

func TestCache_filesArePrivateAndNeverHoldTheKey(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cache", "nested")
	_, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 300}}, WithAnalyticsCache(cacheOpts(dir)))
	if _, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{}); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(dir)
	if err != nil || (runtime.GOOS != "windows" && info.Mode().Perm() != 0o700) {
		t.Fatalf("dir %v, %v", info.Mode(), err)
	}
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, _ error) error {
		if d.IsDir() {
			return nil
		}
		n++
		info, _ := d.Info()
		data, _ := os.ReadFile(p)
		if runtime.GOOS != "windows" && info.Mode().Perm() != 0o600 {
			t.Errorf("%s is %v", p, info.Mode())
		}
		if strings.Contains(string(data), c.core.apiKey) || strings.Contains(p, c.core.apiKey) || strings.HasPrefix(d.Name(), ".tmp-") {
			t.Errorf("%s holds the key or is a leftover temp file", p)
		}
		return nil
	})
	if n != 1 {
		t.Errorf("%d files for one read of 2 pages, want 1 entry", n)
	}
	for _, key := range []string{"mint_a", c.core.apiKey, strings.Repeat("k", 200)} {
		fp := analyticscache.Fingerprint(key)
		if fp == key || strings.Contains(fp, key) || strings.Contains(key, fp) || len(fp) != 32 {
			t.Errorf("fingerprint %q of %q", fp, key)
		}
	}
	a, b := analyticscache.New(nil, "mint_a"), analyticscache.New(nil, "mint_b")
	if analyticscache.Fingerprint("mint_a") == analyticscache.Fingerprint("mint_b") || a.EntryName("u") == b.EntryName("u") || a.EntryName("u") == a.EntryName("v") ||
		a.BudgetName("u") == b.BudgetName("u") || a.BudgetName("u") == a.BudgetName("v") {
		t.Error("fingerprints or entries collide")
	}
}

func TestCache_anotherKeyIsAnotherEntry(t *testing.T) {
	dir := t.TempDir()
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(cacheOpts(dir)))
	fs.AddKey("mint_other", mintlifytest.DemoOrg, true)
	if _, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{}); err != nil {
		t.Fatal(err)
	}
	other := newKeyedClient(t, "mint_other", c.BaseURL(), clk, WithAnalyticsCache(cacheOpts(dir)))
	got, err := other.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{})
	if err != nil || got.Cache.Hit || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 2 {
		t.Errorf("another key was served the first key's answer: %+v, %v", got.Cache, err)
	}
}

func TestCache_answerEchoingTheKeyIsNotStored(t *testing.T) {
	dir := t.TempDir()
	key := mintlifytest.DemoAPIKey
	rec, ts := newRecorder(t, jsonResponse(200, visitorsPageJSON(false, "/"+key)))
	c := newTestClient(t, ts.URL, nil, WithAnalyticsCache(cacheOpts(dir)))
	for range 2 {
		got, err := c.Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{})
		if err != nil || got.Paths[0].Path != "/[REDACTED]" || got.Cache.Hit {
			t.Fatalf("%+v, %v", got, err)
		}
	}
	files, _ := os.ReadDir(dir)
	if len(files) != 0 || rec.count() != 2 {
		t.Errorf("%d files, %d requests: an answer holding the key was cached", len(files), rec.count())
	}
	// Nor is a malformed one.
	_, ts = newRecorder(t, jsonResponse(200, `{"visitors":[]}`))
	c = newTestClient(t, ts.URL, nil, WithAnalyticsCache(cacheOpts(dir)))
	_, _ = c.Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{})
	if files, _ := os.ReadDir(dir); len(files) != 0 {
		t.Errorf("a malformed answer was cached")
	}
}

func TestCache_evictsTheOldestPastItsCap(t *testing.T) {
	dir := t.TempDir()
	o := cacheOpts(dir)
	o.MaxBytes = 60 << 10 // about three 250-row pages
	_, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 2000}}, WithAnalyticsCache(o))
	for i := range 8 {
		clk.Advance(time.Second)
		if _, err := c.Analytics.Visitors.Page(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{Offset: i * 250}); err != nil {
			t.Fatal(err)
		}
		// Modification times must differ for the order to be the real one.
		files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
		for _, f := range files {
			info, _ := os.Stat(f)
			_ = os.Chtimes(f, info.ModTime(), info.ModTime().Add(-time.Duration(8-i)*time.Hour))
		}
	}
	var total int64
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		info, _ := os.Stat(f)
		total += info.Size()
	}
	if total > o.MaxBytes || len(files) == 0 || len(files) >= 8 {
		t.Fatalf("%d files, %d bytes, cap %d", len(files), total, o.MaxBytes)
	}
	// The newest page is still cached; the first one is gone.
	last, _ := c.Analytics.Visitors.Page(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{Offset: 7 * 250})
	first, _ := c.Analytics.Visitors.Page(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{})
	if !last.Cache.Hit || first.Cache.Hit {
		t.Errorf("last page hit %v, first page hit %v", last.Cache.Hit, first.Cache.Hit)
	}
}

func TestCache_concurrentReadersAndWriters(t *testing.T) {
	dir := t.TempDir()
	srv := mintlifytest.NewServer(mintlifytest.Config{AnalyticsBudget: -1, Analytics: mintlifytest.Dataset{Paths: 700}})
	defer srv.Close()
	_, want, err := srv.VisitorsData(mintlifytest.DemoProjectID, "", "")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			// Each goroutine is its own client, as separate processes are;
			// all race to read and write the same entries.
			c, _ := NewClient(mintlifytest.DemoAPIKey, WithBaseURL(srv.URL), WithAnalyticsCache(cacheOpts(dir)))
			for range 5 {
				got, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{Limit: 100 + i%3})
				if err != nil {
					t.Error(err)
					return
				}
				for j, row := range got.Paths {
					if row.Path != want[j].Path || row.Total != want[j].Total {
						t.Errorf("row %d: %+v, want %+v", j, row, want[j])
						return
					}
				}
			}
		})
	}
	wg.Wait()
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".tmp-*")); len(leftovers) != 0 {
		t.Errorf("temp files left: %v", leftovers)
	}
	// Afterwards every page is cached whole: a new reader sends nothing.
	before := srv.Requests(mintlifytest.RouteAnalyticsVisitors)
	c, _ := NewClient(mintlifytest.DemoAPIKey, WithBaseURL(srv.URL), WithAnalyticsCache(cacheOpts(dir)))
	for size := 100; size <= 102; size++ {
		got, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{Limit: size})
		if err != nil || !got.Cache.Hit || len(got.Paths) != 700 {
			t.Errorf("page size %d: %+v, %v", size, got.Cache, err)
		}
	}
	if n := srv.Requests(mintlifytest.RouteAnalyticsVisitors); n != before {
		t.Errorf("%d requests after the cache was filled", n-before)
	}
}

func TestCache_unwritableDirectoryDegradesQuietly(t *testing.T) {
	// A path through a file can never be a directory, even for root.
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(cacheOpts(filepath.Join(file, "cache"))))
	for range 2 {
		if _, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{}); err != nil {
			t.Fatalf("an unusable cache directory broke the read: %v", err)
		}
	}
	if n := fs.Requests(mintlifytest.RouteAnalyticsVisitors); n != 2 {
		t.Errorf("%d requests", n)
	}
}

func TestCache_options(t *testing.T) {
	for _, o := range []CacheOptions{{Dir: "x", FreshFor: -1}, {Dir: "x", MaxStale: -1}, {Dir: "x", MaxBytes: -1}} {
		if _, err := NewClient("mint_x", WithAnalyticsCache(o)); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	for _, o := range []CacheOptions{{Dir: "x"}, {FreshFor: time.Minute}} {
		c, err := NewClient("mint_x", WithAnalyticsCache(o))
		if err != nil || c.core.cache != nil {
			t.Errorf("%+v: cache %v, %v; want it off", o, c.core.cache, err)
		}
	}
	c, _ := NewClient("mint_x", WithAnalyticsCache(CacheOptions{Dir: "x", FreshFor: time.Minute}))
	if c.core.cache == nil || c.core.cache.opts.MaxBytes != DefaultCacheMaxBytes {
		t.Errorf("defaults: %+v", c.core.cache)
	}
	c, _ = NewClient("mint_x", WithAnalyticsCache(CacheOptions{Dir: "x", FreshFor: time.Minute, MaxBytes: 1}))
	if c.core.cache == nil || c.core.cache.opts.MaxBytes != 1 {
		t.Errorf("a cap of 1 byte: %+v", c.core.cache)
	}
	// A later option without a cache turns an earlier one off.
	c, _ = NewClient("mint_x", WithAnalyticsCache(CacheOptions{Dir: "x", FreshFor: time.Minute}), WithAnalyticsCache(CacheOptions{}))
	if c.core.cache != nil {
		t.Error("the cache stayed on")
	}
}

func TestCacheStatus_combine(t *testing.T) {
	t1, t2 := epoch, epoch.Add(time.Hour)
	limit := &APIError{StatusCode: 429}
	for _, tt := range []struct{ a, b, want CacheStatus }{
		{CacheStatus{Hit: true, StoredAt: t2}, CacheStatus{Hit: true, StoredAt: t1}, CacheStatus{Hit: true, StoredAt: t1}},
		{CacheStatus{Hit: true, StoredAt: t1}, CacheStatus{}, CacheStatus{StoredAt: t1}},
		{CacheStatus{}, CacheStatus{Hit: true, Stale: true, StoredAt: t2, RateLimit: limit}, CacheStatus{Stale: true, StoredAt: t2, RateLimit: limit}},
		{CacheStatus{Hit: true, Stale: true, StoredAt: t1, RateLimit: limit}, CacheStatus{Hit: true, StoredAt: t2}, CacheStatus{Hit: true, Stale: true, StoredAt: t1, RateLimit: limit}},
	} {
		if got := tt.a.Combine(tt.b); !cmp.Equal(tt.want, got) {
			t.Errorf("%+v + %+v = %+v, want %+v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestCache_everyEndpointNotesWhereItsAnswerCameFrom(t *testing.T) {
	_, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 5, SearchTerms: 5, Feedback: 5, Conversations: 5}}, WithAnalyticsCache(cacheOpts(t.TempDir())))
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	reads := map[string]func() (CacheStatus, error){
		"visitors": func() (CacheStatus, error) {
			r, e := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{})
			return statusOrZero(r, e, func() CacheStatus { return r.Cache })
		},
		"views": func() (CacheStatus, error) {
			r, e := c.Analytics.Views.Page(ctx, p, VisitorsQuery{})
			return statusOrZero(r, e, func() CacheStatus { return r.Cache })
		},
		"searches": func() (CacheStatus, error) {
			r, e := c.Analytics.Searches.All(ctx, p, SearchesQuery{})
			return statusOrZero(r, e, func() CacheStatus { return r.Cache })
		},
		"feedback": func() (CacheStatus, error) {
			r, e := c.Analytics.Feedback.All(ctx, p, FeedbackQuery{})
			return statusOrZero(r, e, func() CacheStatus { return r.Cache })
		},
		"by page": func() (CacheStatus, error) {
			r, e := c.Analytics.FeedbackByPage(ctx, p, FeedbackByPageQuery{})
			return statusOrZero(r, e, func() CacheStatus { return r.Cache })
		},
		"assistant": func() (CacheStatus, error) {
			r, e := c.Analytics.Conversations.All(ctx, p, ConversationsQuery{})
			return statusOrZero(r, e, func() CacheStatus { return r.Cache })
		},
		"callers": func() (CacheStatus, error) {
			r, e := c.Analytics.CallerStats(ctx, p, DateRange{})
			return statusOrZero(r, e, func() CacheStatus { return r.Cache })
		},
		"views list": func() (CacheStatus, error) {
			r, e := c.Analytics.Views.All(ctx, p, VisitorsQuery{Limit: 3})
			return statusOrZero(r, e, func() CacheStatus { return r.Cache })
		},
	}
	for name, read := range reads {
		first, err := read()
		if err != nil || first.Hit {
			t.Fatalf("%s: %+v, %v", name, first, err)
		}
		second, err := read()
		if err != nil || !second.Hit {
			t.Errorf("%s: second read %+v, %v", name, second, err)
		}
	}
	conv, _ := c.Analytics.Conversations.Page(ctx, p, ConversationsQuery{})
	thread, err := c.Analytics.Thread(ctx, p, conv.Conversations[0].ID)
	if err != nil || thread.Cache.Hit {
		t.Fatal(thread, err)
	}
	if again, _ := c.Analytics.Thread(ctx, p, conv.Conversations[0].ID); !again.Cache.Hit {
		t.Error("thread not cached")
	}
}

func statusOrZero[T any](r *T, err error, status func() CacheStatus) (CacheStatus, error) {
	if err != nil || r == nil {
		return CacheStatus{}, fmt.Errorf("read: %w", err)
	}
	return status(), nil
}

// Fresh for FreshFor means up to it, not at it; a stale copy stands in
// up to MaxStale, not at it.
func TestCache_agesAtTheirEdges(t *testing.T) {
	dir := t.TempDir()
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(cacheOpts(dir)))
	ctx := context.Background()
	read := func() (*PathCountsPage, error) {
		return c.Analytics.Visitors.All(ctx, mintlifytest.DemoProjectID, VisitorsQuery{})
	}
	if _, err := read(); err != nil {
		t.Fatal(err)
	}
	clk.Advance(10*time.Minute - time.Nanosecond)
	if got, err := read(); err != nil || !got.Cache.Hit || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 1 {
		t.Errorf("just before FreshFor: %+v, %v, %d requests", got.Cache, err, fs.Requests(mintlifytest.RouteAnalyticsVisitors))
	}
	clk.Advance(time.Nanosecond)
	if got, err := read(); err != nil || got.Cache.Hit || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 2 {
		t.Errorf("at FreshFor: %+v, %v, %d requests", got.Cache, err, fs.Requests(mintlifytest.RouteAnalyticsVisitors))
	}
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultRateLimit, RetryAfter: time.Hour})
	clk.Advance(24*time.Hour - time.Nanosecond)
	if got, err := read(); err != nil || !got.Cache.Stale {
		t.Errorf("just before MaxStale: %+v, %v", got.Cache, err)
	}
	clk.Advance(time.Nanosecond)
	if _, err := read(); !IsRateLimited(err) {
		t.Errorf("at MaxStale: %v", err)
	}
}

// An entry larger than a read may be (twice the per-read cap) is not read:
// a miss, however well-formed.
func TestCache_oversizedEntryIsAMiss(t *testing.T) {
	dir := t.TempDir()
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(cacheOpts(dir)), WithMaxBytesPerRead(1<<20))
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	if _, err := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{}); err != nil {
		t.Fatal(err)
	}
	files := entryFiles(t, dir)
	good, _ := os.ReadFile(files[0])
	// Still valid JSON, sealed: only its size is wrong.
	_, body, _ := strings.Cut(string(good), "\n")
	pad := func(size int) []byte {
		sealed := func(spaces int) []byte {
			b := []byte(body + strings.Repeat(" ", spaces))
			return append(hex.AppendEncode([]byte(analyticscache.Magic), c.core.cache.Seal(b)), append([]byte("\n"), b...)...)
		}
		return sealed(size - len(sealed(0)))
	}
	padded := pad(int(c.core.entryLimit()) + 1)
	if err := os.WriteFile(files[0], padded, 0o600); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Second)
	if got, err := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{}); err != nil || got.Cache.Hit || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 2 {
		t.Errorf("an oversized entry: %+v, %v", got.Cache, err)
	}
	// Just within the limit, it serves.
	within := pad(int(c.core.entryLimit()))
	if len(within) != int(c.core.entryLimit()) {
		t.Fatalf("%d bytes", len(within))
	}
	if err := os.WriteFile(files[0], within, 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{}); err != nil || !got.Cache.Hit {
		t.Errorf("an entry at the limit: %+v, %v", got.Cache, err)
	}
}
