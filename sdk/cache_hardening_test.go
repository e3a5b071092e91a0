package sdk

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The cache's hardening, one test a rule. These use only what any version
// of the cache has (a directory of *.json files, public reads), so each
// can be run against an earlier cache to show it fails there.

// source labels where each page of a read came from, "error" for a
// failure: a read of one snapshot is all "api" or all "cache".
func sources(t *testing.T, pages func(func(*PathCountsPage, error) bool)) []string {
	t.Helper()
	var out []string
	for p, err := range pages {
		switch {
		case err != nil:
			out = append(out, "error")
		case p.Cache.Stale:
			out = append(out, "stale")
		case p.Cache.Hit:
			out = append(out, "cache")
		default:
			out = append(out, "api")
		}
	}
	return out
}

// A server that echoes the key in a field the SDK does not read must not
// get it written into the cache: only what the SDK decoded is stored.
func TestCacheHardening_storesOnlyWhatTheSDKDecoded(t *testing.T) {
	dir := t.TempDir()
	key := mintlifytest.DemoAPIKey
	body := strings.TrimSuffix(visitorsPageJSON(false, "/a", "/b"), "}") + `,"debug":{"authorization":"Bearer ` + key + `","echo":["` + key + `"]}}`
	rec, ts := newRecorder(t, jsonResponse(200, body))
	c := newTestClient(t, ts.URL, nil, WithAnalyticsCache(cacheOpts(dir)))
	first, err := c.Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{})
	if err != nil || len(first.Paths) != 2 {
		t.Fatalf("%+v, %v", first, err)
	}
	second, err := c.Analytics.Visitors.All(context.Background(), "p", VisitorsQuery{})
	if err != nil || !second.Cache.Hit || !cmp.Equal(first.Paths, second.Paths) || rec.count() != 1 {
		t.Errorf("the answer was not cached: %+v, %v, %d requests", second.Cache, err, rec.count())
	}
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, _ error) error {
		if d.IsDir() {
			return nil
		}
		n++
		data, _ := os.ReadFile(p)
		if strings.Contains(string(data), key) || strings.Contains(string(data), "debug") || strings.Contains(string(data), "authorization") {
			t.Errorf("%s holds what the SDK did not decode:\n%s", p, data)
		}
		return nil
	})
	if n == 0 {
		t.Error("nothing was cached")
	}
}

// A read that gets pages from the API and is then refused must not join a
// cached copy's pages to them: it fails; read again, the copy serves it
// whole, without a request.
func TestCacheHardening_noStaleFallbackAfterAFreshPage(t *testing.T) {
	// Seven requests an hour: the first read takes five, the next gets two
	// pages, then a refusal for the 45 minutes left of the hour.
	fs, c, clk := newFake(t, mintlifytest.Config{AnalyticsBudget: 7, Analytics: mintlifytest.Dataset{Paths: 1200}}, WithAnalyticsCache(cacheOpts(t.TempDir())))
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	first, err := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(15 * time.Minute) // the copy is no longer fresh
	got := sources(t, c.Analytics.Visitors.Pages(ctx, p, VisitorsQuery{}))
	if want := []string{"api", "api", "error"}; !cmp.Equal(got, want) || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 8 {
		t.Errorf("pages %v, want %v; %d requests, want 5 + 2 + the refusal", got, want, fs.Requests(mintlifytest.RouteAnalyticsVisitors))
	}
	again, err := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{})
	if err != nil || !again.Cache.Stale || !cmp.Equal(first.Paths, again.Paths) || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 8 {
		t.Errorf("read again: %+v, %v, %d requests", again.Cache, err, fs.Requests(mintlifytest.RouteAnalyticsVisitors))
	}
}

// Each falls back to the cache by itself when the budget runs out in the
// middle of a read: while a copy that could stand in is at hand, the API's
// pages are held back, so the refusal on the third page leaves fn with the
// copy's pages from the start, stale, and no error. Without a copy, the
// pages stream and the refusal is the read's error.
func TestCacheHardening_eachFallsBackToTheCopyMidRead(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{AnalyticsBudget: 7, Analytics: mintlifytest.Dataset{Paths: 1200}}, WithAnalyticsCache(cacheOpts(t.TempDir())))
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	first, err := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{})
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(15 * time.Minute) // the copy is no longer fresh
	var got []string
	var paths []PathCounts
	info, err := c.Analytics.Visitors.Each(ctx, p, VisitorsQuery{}, func(page *PathCountsPage) error {
		got = append(got, sources(t, func(yield func(*PathCountsPage, error) bool) { yield(page, nil) })...)
		paths = append(paths, page.Paths...)
		return nil
	})
	if want := []string{"stale", "stale", "stale", "stale", "stale"}; err != nil || !cmp.Equal(got, want) || !info.Cache.Stale || info.Cache.RateLimit == nil {
		t.Fatalf("Each saw %v (%+v, %v), want %v and no error", got, info.Cache, err, want)
	}
	if !cmp.Equal(first.Paths, paths) || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 8 {
		t.Errorf("%d paths (want the copy's %d); %d requests, want 5 + 2 + the refusal", len(paths), len(first.Paths), fs.Requests(mintlifytest.RouteAnalyticsVisitors))
	}
	// Without a copy the pages stream, and the refusal ends the read.
	_, c, _ = newFake(t, mintlifytest.Config{AnalyticsBudget: 2, Analytics: mintlifytest.Dataset{Paths: 1200}}, WithAnalyticsCache(cacheOpts(t.TempDir())))
	seen := 0
	_, err = c.Analytics.Visitors.Each(ctx, p, VisitorsQuery{}, func(*PathCountsPage) error { seen++; return nil })
	if !RateLimitedByAPI(err) || seen != 2 {
		t.Errorf("without a copy: %d pages, %v; want 2 and the API's refusal", seen, err)
	}
}

// A read capped by max_results leaves no prefix for a longer read to start
// from: the longer read is a snapshot of its own.
func TestCacheHardening_aSmallerReadLeavesNoPrefix(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 1200}}, WithAnalyticsCache(cacheOpts(t.TempDir())))
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	if _, err := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{MaxResults: 300}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	got := sources(t, c.Analytics.Visitors.Pages(ctx, p, VisitorsQuery{}))
	if want := []string{"api", "api", "api", "api", "api"}; !cmp.Equal(got, want) || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 7 {
		t.Errorf("pages %v, want %v; %d requests", got, want, fs.Requests(mintlifytest.RouteAnalyticsVisitors))
	}
	got = sources(t, c.Analytics.Visitors.Pages(ctx, p, VisitorsQuery{}))
	if want := []string{"cache", "cache", "cache", "cache", "cache"}; !cmp.Equal(got, want) {
		t.Errorf("read again: %v, want %v", got, want)
	}
}

// A read that failed on its last page leaves nothing behind for the next
// read to start from.
func TestCacheHardening_aReadFailedOnItsLastPageLeavesNothing(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 1200}}, WithAnalyticsCache(cacheOpts(t.TempDir())), WithMaxRetries(0))
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	if _, err := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(11 * time.Minute)
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAnalyticsVisitors, Kind: mintlifytest.FaultServerError, Requests: []int{5}}) // the read's last page
	if _, err := c.Analytics.Visitors.All(ctx, p, VisitorsQuery{}); statusOf(err) != 502 {
		t.Fatalf("the last page's 502: %v", err)
	}
	clk.Advance(time.Minute)
	got := sources(t, c.Analytics.Visitors.Pages(ctx, p, VisitorsQuery{}))
	if want := []string{"api", "api", "api", "api", "api"}; !cmp.Equal(got, want) || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 15 {
		t.Errorf("pages %v, want %v; %d requests", got, want, fs.Requests(mintlifytest.RouteAnalyticsVisitors))
	}
}

// An entry dated in the future (written by a machine whose clock is
// ahead) is not fresh until that date: it is a miss. A little skew is
// tolerated.
func TestCacheHardening_anEntryFromTheFutureIsStale(t *testing.T) {
	for _, tt := range []struct {
		ahead   time.Duration
		wantHit bool
	}{{time.Hour, false}, {24 * time.Hour, false}, {30 * time.Second, true}} {
		t.Run(tt.ahead.String(), func(t *testing.T) {
			dir := t.TempDir()
			fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(cacheOpts(dir)))
			ahead := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch.Add(tt.ahead))}
			writer := newTestClient(t, c.BaseURL(), ahead, WithAnalyticsCache(cacheOpts(dir)))
			if _, err := writer.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{}); err != nil {
				t.Fatal(err)
			}
			clk.Advance(time.Second)
			got, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{})
			if err != nil || got.Cache.Hit != tt.wantHit {
				t.Errorf("an entry %s ahead: hit %v, want %v (%v)", tt.ahead, got.Cache.Hit, tt.wantHit, err)
			}
			if !tt.wantHit {
				// Refetched, it is fresh again.
				again, _ := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{})
				if !again.Cache.Hit || fs.Requests(mintlifytest.RouteAnalyticsVisitors) != 2 {
					t.Errorf("refetched: %+v, %d requests", again.Cache, fs.Requests(mintlifytest.RouteAnalyticsVisitors))
				}
			}
		})
	}
}

// A directory that others can write is not used: they could plant
// answers (or links) in it.
func TestCacheHardening_refusesADirectoryOthersCanWrite(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no permission bits")
	}
	for _, mode := range []os.FileMode{0o777, 0o770, 0o722, os.ModeSticky | 0o777} {
		t.Run(mode.String(), func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Chmod(dir, mode); err != nil {
				t.Fatal(err)
			}
			fs, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(cacheOpts(dir)))
			for range 2 {
				if _, err := c.Analytics.Visitors.All(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{}); err != nil {
					t.Fatal(err)
				}
			}
			files, _ := os.ReadDir(dir)
			if n := fs.Requests(mintlifytest.RouteAnalyticsVisitors); n != 2 || len(files) != 0 {
				t.Errorf("mode %v: %d requests, %d files: the directory was used", mode, n, len(files))
			}
		})
	}
}

// Only regular files are read as entries: never through a link, and a
// FIFO or a device in an entry's place neither hangs the read nor is read.
func TestCacheHardening_readsOnlyRegularFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no FIFOs or device nodes")
	}
	for _, tt := range []struct {
		name  string
		plant func(t *testing.T, entry, elsewhere string)
	}{
		{"symlink to a valid entry", func(t *testing.T, entry, elsewhere string) {
			if err := os.Rename(entry, elsewhere); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(elsewhere, entry); err != nil {
				t.Fatal(err)
			}
		}},
		{"fifo", func(t *testing.T, entry, _ string) {
			_ = os.Remove(entry)
			if err := syscall.Mkfifo(entry, 0o600); err != nil {
				t.Skip(err)
			}
		}},
		{"device", func(t *testing.T, entry, _ string) {
			_ = os.Remove(entry)
			// /dev/zero's numbers: read, it never ends.
			if err := syscall.Mknod(entry, syscall.S_IFCHR|0o600, int(1<<8|5)); err != nil {
				t.Skip(err)
			}
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			fs, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(cacheOpts(dir)))
			ctx, p := context.Background(), mintlifytest.DemoProjectID
			if _, err := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); err != nil {
				t.Fatal(err)
			}
			files := entryFiles(t, dir)
			if len(files) != 1 {
				t.Fatalf("files %v", files)
			}
			tt.plant(t, files[0], filepath.Join(t.TempDir(), "elsewhere.json"))
			clk.Advance(time.Second)
			done := make(chan *PathCountsPage, 1)
			go func() {
				page, err := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{})
				if err != nil {
					t.Error(err)
				}
				done <- page
			}()
			select {
			case page := <-done:
				if page != nil && page.Cache.Hit {
					t.Errorf("%s was read as an entry", tt.name)
				}
			case <-time.After(20 * time.Second):
				t.Fatalf("the read hung on a %s", tt.name)
			}
			if n := fs.Requests(mintlifytest.RouteAnalyticsVisitors); n != 2 {
				t.Errorf("%d requests, want 2", n)
			}
		})
	}
}

// Eviction removes only the files the cache wrote: never a user's file,
// whatever its name.
func TestCacheHardening_evictsOnlyItsOwnFiles(t *testing.T) {
	dir := t.TempDir()
	mine := map[string]string{
		"notes.json":                       `{"mine": true}`,
		"backup.json":                      strings.Repeat("x", 30<<10),
		strings.Repeat("ab", 32) + ".json": `{"a user's file with an entry's name": true}`,
	}
	for name, body := range mine {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		old := epoch.Add(-240 * time.Hour) // older than any entry
		_ = os.Chtimes(filepath.Join(dir, name), old, old)
	}
	o := cacheOpts(dir)
	o.MaxBytes = 60 << 10
	_, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 2000}}, WithAnalyticsCache(o))
	for i := range 8 {
		clk.Advance(time.Second)
		if _, err := c.Analytics.Visitors.Page(context.Background(), mintlifytest.DemoProjectID, VisitorsQuery{Offset: i * 250}); err != nil {
			t.Fatal(err)
		}
	}
	if files := entryFiles(t, dir); len(files) >= 9 {
		t.Fatalf("nothing was evicted: %d entries", len(files))
	}
	for name, body := range mine {
		if data, err := os.ReadFile(filepath.Join(dir, name)); err != nil || string(data) != body {
			t.Errorf("the user's %s was removed or changed: %v", name, err)
		}
	}
}

// forge is what whoever can write a shared bucket, but has not the API
// key, can make of a genuine record: its first line (the header, whatever
// it holds) kept, and its JSON body rewritten at will. The key's
// fingerprint ("who") is in the body in clear, so it is copied.
func forge(t *testing.T, genuine []byte, change func(r map[string]any)) []byte {
	t.Helper()
	header, body, ok := strings.Cut(string(genuine), "\n")
	if !ok {
		t.Fatalf("a record without a header line: %q", genuine)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(body), &r); err != nil {
		t.Fatal(err)
	}
	change(r)
	forged, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte(header+"\n"), forged...)
}

// Whoever can write a shared bucket (a file:// directory others can
// write, an S3 bucket's other users) but has not the API key cannot plant
// a record the cache trusts: an entry of their own rows, dated now, with
// the fingerprint copied from a genuine record, is a miss, read again from
// the API and overwritten; a forged spent budget stops no request; a
// forged lease holds up no reader.
func TestCacheHardening_recordsForgedWithoutTheKeyAreNotTrusted(t *testing.T) {
	fileURL, dir := fileBucket(t)
	for name, url := range map[string]string{"file": fileURL, "s3": s3Bucket(t)} {
		t.Run(name, func(t *testing.T) {
			ctx, p := context.Background(), mintlifytest.DemoProjectID
			fake, c, clk := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(bucketOpts(url)))
			want, err := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{})
			if err != nil {
				t.Fatal(err)
			}
			store := c.core.cache.Store
			key := mustKey(t, c)
			entry := c.core.cache.EntryName(key)
			genuine, err := store.Get(ctx, entry, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			write := func(name string, data []byte) {
				t.Helper()
				if err := store.Put(ctx, name, data); err != nil {
					t.Fatal(err)
				}
				if url == fileURL {
					_ = os.Chmod(filepath.Join(dir, name), 0o666)
				}
			}
			now := clk.Now().Format(time.RFC3339Nano)

			// An entry of the forger's rows, dated now.
			write(entry, forge(t, genuine, func(r map[string]any) {
				r["at"] = now
				for _, page := range r["pages"].([]any) {
					value := page.(map[string]any)["value"].(map[string]any)
					for _, row := range value["paths"].([]any) {
						row.(map[string]any)["path"] = "/poisoned"
					}
				}
			}))
			clk.Advance(time.Second)
			got, err := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{})
			if err != nil || got.Cache.Hit || !cmp.Equal(got.Paths, want.Paths) || fake.Requests(mintlifytest.RouteAnalyticsVisitors) != 2 {
				t.Errorf("a forged entry: hit %v, %d requests, paths %v, %v", got.Cache.Hit, fake.Requests(mintlifytest.RouteAnalyticsVisitors), got.Paths[:1], err)
			}
			if again, _ := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); !again.Cache.Hit || !cmp.Equal(again.Paths, want.Paths) {
				t.Errorf("the forged entry was not overwritten by the genuine one: %+v", again.Cache)
			}

			// A spent budget, until a day ahead.
			base := c.core.baseURL.String()
			write(c.core.cache.BudgetName(base), forge(t, genuine, func(r map[string]any) {
				r["kind"], r["key"], r["at"], r["until"] = analyticscache.KindBudget, base, now, clk.Now().Add(23*time.Hour).Format(time.RFC3339Nano)
				delete(r, "pages")
			}))
			other := newTestClient(t, c.BaseURL(), clk, WithAnalyticsCache(bucketOpts(url)))
			if _, err := other.Analytics.Views.Page(ctx, p, VisitorsQuery{}); err != nil {
				t.Errorf("a forged spent budget stopped a read: %v", err)
			}

			// A lease on the next read, until 9999 (the forged budget gone,
			// which would have spared the read the lease).
			if err := store.Remove(ctx, c.core.cache.BudgetName(base)); err != nil {
				t.Fatal(err)
			}
			clk.Advance(time.Hour)
			write(c.core.cache.LeaseName(key), forge(t, genuine, func(r map[string]any) {
				r["kind"], r["at"], r["until"], r["token"] = analyticscache.KindLease, clk.Now().Format(time.RFC3339Nano), "9999-01-01T00:00:00Z", "forged"
				delete(r, "pages")
			}))
			before := len(clk.Sleeps())
			if _, err := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{}); err != nil || len(clk.Sleeps()) != before {
				t.Errorf("a forged lease held the read up for %d polls (%v)", len(clk.Sleeps())-before, err)
			}
		})
	}
}
