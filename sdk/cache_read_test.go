package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/budget"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// cachedRead's rules, one read at a time, on pages of a type of the tests'
// own: the read of n pages asks the API for ?page=0 to ?page=n-1.

// testPage is a page of the rig's reads: its number, and a field a server
// may fill with the key.
type testPage struct {
	N      int    `json:"n"`
	Secret string `json:"secret,omitempty"`
	ResponseInfo
}

func decodeTestPage(_ decoding, data []byte, p *testPage) error { return json.Unmarshal(data, p) }

// readRig is one client with a cache in dir, and the API it reads.
type readRig struct {
	k       *core
	dir     string
	clk     *hookClock
	mu      sync.Mutex
	calls   []int
	refuse  map[int]int // the API's status for a page, when not 200
	echo    bool        // the API's answers echo the key
	spent   bool        // the budget is known to be spent
	onFetch func(n int)
	gets    int         // reads of the store
	onGet   func(n int) // after the store's nth read
}

func newReadRig(t *testing.T, o CacheOptions) *readRig {
	t.Helper()
	r := &readRig{dir: t.TempDir(), refuse: map[int]int{}}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		n, _ := strconv.Atoi(req.URL.Query().Get("page"))
		r.mu.Lock()
		r.calls = append(r.calls, n)
		status, echo, onFetch := r.refuse[n], r.echo, r.onFetch
		r.mu.Unlock()
		if onFetch != nil {
			onFetch(n)
		}
		if status != 0 {
			jsonResponse(status, `{"error":"no"}`)(w, req)
			return
		}
		p := testPage{N: n}
		if echo {
			p.Secret = mintlifytest.DemoAPIKey
		}
		data, _ := json.Marshal(p)
		jsonResponse(200, string(data))(w, req)
	}))
	t.Cleanup(ts.Close)
	r.clk = &hookClock{fakeClock: newClock(), hook: func() {}}
	o.Dir = r.dir
	r.k = newTestClient(t, ts.URL, nil, WithClock(r.clk), WithMaxRetries(0), WithAnalyticsCache(o)).core
	r.k.cache.Store = countingStore{r.k.cache.Store, r}
	return r
}

// countingStore counts the reads of a store, and runs the rig's onGet.
type countingStore struct {
	analyticscache.Store
	r *readRig
}

func (s countingStore) Get(ctx context.Context, name string, limit int64) ([]byte, error) {
	data, err := s.Store.Get(ctx, name, limit)
	if s.r.gets++; s.r.onGet != nil {
		s.r.onGet(s.r.gets)
	}
	return data, err
}

func rigOpts() CacheOptions { return CacheOptions{FreshFor: 10 * time.Minute, MaxStale: time.Hour} }

// walkN reads pages 0 to n-1, stopping when emit does.
func walkN(n int) func(src pageSource[testPage], emit func(*testPage) bool) (bool, error) {
	return func(src pageSource[testPage], emit func(*testPage) bool) (bool, error) {
		for i := range n {
			p, _, err := src(get("/v1/analytics/p/test", url.Values{"page": {strconv.Itoa(i)}}))
			if err != nil {
				return false, err
			}
			if !emit(p) {
				return false, nil
			}
		}
		return true, nil
	}
}

// read runs a read of n pages under "k", taking at most stop pages (0:
// all), and returns what was handed out. Each read starts with a budget
// not known to be spent, unless r.spent.
func (r *readRig) read(n int, whole bool, stop int) ([]*testPage, []error) {
	r.k.budget = &budget.Budget{Name: analyticsBudgetName}
	if r.spent {
		r.k.budget.Hold(r.clk.Now().Add(time.Hour))
	}
	var pages []*testPage
	var errs []error
	cachedRead(context.Background(), r.k, "k", whole, decodeTestPage, walkN(n), func(p *testPage, err error) bool {
		pages, errs = append(pages, p), append(errs, err)
		return stop == 0 || len(pages) < stop
	})
	return pages, errs
}

// at sets the rig's clock to t.
func (r *readRig) at(t time.Time) { r.clk.Advance(t.Sub(r.clk.Now())) }

// prime stores a whole read of n pages, fetched at at.
func (r *readRig) prime(t *testing.T, n int, at time.Time) {
	t.Helper()
	was := r.clk.Now()
	r.at(at)
	if _, errs := r.read(n, false, 0); len(errs) != n || errs[n-1] != nil {
		t.Fatalf("priming: %v", errs)
	}
	r.at(was)
	r.calls = nil
}

// save writes the entry of "k", its pages' values as given.
func (r *readRig) save(at time.Time, values ...string) {
	c := r.k.cache
	rec := analyticscache.Record{Kind: analyticscache.KindRead, Key: "k", At: at}
	for i, v := range values {
		rec.Pages = append(rec.Pages, analyticscache.Page{Query: "page=" + strconv.Itoa(i), Value: []byte(v)})
	}
	c.Save(context.Background(), c.EntryName("k"), rec)
}

// wantAPI checks that the pages came from the API.
func wantAPI(t *testing.T, pages []*testPage, errs []error, n int) {
	t.Helper()
	if len(pages) != n {
		t.Fatalf("got %d pages (errors %v), want %d from the API", len(pages), errs, n)
	}
	for i, p := range pages {
		if errs[i] != nil || p == nil || p.N != i || p.Cache.Hit || p.Attempts != 1 {
			t.Fatalf("page %d: %+v, %v; want the API's", i, p, errs[i])
		}
	}
}

// wantCopy checks that the pages are the copy's, served as want (the
// first with attempts).
func wantCopy(t *testing.T, pages []*testPage, errs []error, n int, want CacheStatus, attempts int) {
	t.Helper()
	if len(pages) != n {
		t.Fatalf("got %d pages (errors %v), want %d from the copy", len(pages), errs, n)
	}
	for i, p := range pages {
		if errs[i] != nil || p == nil || p.N != i {
			t.Fatalf("page %d: %+v, %v; want page %d of the copy", i, p, errs[i], i)
		}
		w := ResponseInfo{Pages: 1, Cache: want}
		if i == 0 {
			w.Attempts = attempts
		}
		if p.ResponseInfo != w {
			t.Errorf("page %d served %+v, want %+v", i, p.ResponseInfo, w)
		}
	}
}

func TestCachedRead_aFreshEntryServesTheReadWhole(t *testing.T) {
	r := newReadRig(t, rigOpts())
	pages, errs := r.read(2, false, 0)
	wantAPI(t, pages, errs, 2)
	r.calls = nil
	r.at(epoch.Add(10*time.Minute - time.Nanosecond))
	pages, errs = r.read(2, false, 0)
	if len(r.calls) != 0 {
		t.Fatalf("a fresh entry asked the API: %v", r.calls)
	}
	wantCopy(t, pages, errs, 2, CacheStatus{Hit: true, StoredAt: epoch}, 0)

	// Fresh is younger than FreshFor: at FreshFor the API is asked.
	r.at(epoch.Add(10 * time.Minute))
	if pages, errs := r.read(2, false, 0); len(r.calls) != 2 {
		t.Errorf("an entry FreshFor old served the read: calls %v", r.calls)
	} else {
		wantAPI(t, pages, errs, 2)
	}
}

func TestCachedRead_onlyWholeReadsOfUnredactedPagesAreStored(t *testing.T) {
	for name, tt := range map[string]struct {
		stop int
		echo bool
	}{"stopped early": {stop: 1}, "redacted": {echo: true}} {
		t.Run(name, func(t *testing.T) {
			r := newReadRig(t, rigOpts())
			r.echo = tt.echo
			pages, _ := r.read(2, false, tt.stop)
			if tt.echo && pages[0].Secret != Redacted {
				t.Fatalf("the key was not redacted: %+v", pages[0])
			}
			r.echo, r.calls = false, nil
			r.read(2, false, 0)
			if len(r.calls) != 2 {
				t.Errorf("the read was stored: the next asked %v", r.calls)
			}
		})
	}
}

func TestCachedRead_aCopyStandsInForARateLimitedFirstRequest(t *testing.T) {
	r := newReadRig(t, rigOpts())
	r.prime(t, 2, epoch)
	r.refuse[0] = 429
	r.at(epoch.Add(time.Hour - time.Nanosecond))
	pages, errs := r.read(2, false, 0)
	if len(pages) == 2 && pages[0].Cache.RateLimit == nil {
		t.Fatal("the stale copy does not carry the refusal")
	}
	refusal := pages[0].Cache.RateLimit
	if !RateLimitedByAPI(refusal) || pages[1].Cache.RateLimit != refusal {
		t.Errorf("the refusal the copy stood in for: %v", refusal)
	}
	wantCopy(t, pages, errs, 2, CacheStatus{Hit: true, Stale: true, StoredAt: epoch, RateLimit: refusal}, 1)

	// Stale is younger than MaxStale: at MaxStale the refusal is the answer.
	r.at(epoch.Add(time.Hour))
	if pages, errs := r.read(2, false, 0); len(pages) != 1 || pages[0] != nil || !RateLimitedByAPI(errs[0]) {
		t.Errorf("a copy MaxStale old stood in: %+v %v", pages, errs)
	}
	// So is a read the budget would not send, with the copy it falls to.
	r.spent = true
	r.at(epoch.Add(30 * time.Minute))
	pages, errs = r.read(2, false, 0)
	if len(pages) != 2 || !IsNotSent(pages[0].Cache.RateLimit) {
		t.Fatalf("a read not sent: %+v %v", pages, errs)
	}
	wantCopy(t, pages, errs, 2, CacheStatus{Hit: true, Stale: true, StoredAt: epoch, RateLimit: pages[0].Cache.RateLimit}, 0)
}

func TestCachedRead_noCopyStandsInForOtherErrorsOrWithoutMaxStale(t *testing.T) {
	for name, tt := range map[string]struct {
		status   int
		maxStale time.Duration
		cache    bool
	}{"not a rate limit": {status: 500, maxStale: time.Hour, cache: true}, "MaxStale 0": {status: 429, cache: true}, "no cache": {status: 429, maxStale: time.Hour}} {
		t.Run(name, func(t *testing.T) {
			o := rigOpts()
			o.MaxStale = tt.maxStale
			r := newReadRig(t, o)
			r.prime(t, 2, epoch)
			r.gets = 0
			r.at(epoch.Add(30 * time.Minute))
			r.refuse[0] = tt.status
			if !tt.cache {
				r.k.cache = nil
			}
			pages, errs := r.read(2, false, 0)
			var apiErr *APIError
			if len(pages) != 1 || pages[0] != nil || !errors.As(errs[0], &apiErr) || apiErr.StatusCode != tt.status {
				t.Fatalf("got %+v %v, want the error alone", pages, errs)
			}
			// Nothing is looked up again when no copy could stand in: the
			// entry; once the lease is taken (its own, not read back), a
			// fresh entry; the lease, at its release.
			if want := map[bool]int{true: 3, false: 0}[tt.cache]; r.gets != want {
				t.Errorf("%d reads of the store, want %d", r.gets, want)
			}
		})
	}
}

func TestCachedRead_aRefusalAfterPagesWereHandedOutEndsTheRead(t *testing.T) {
	r := newReadRig(t, rigOpts())
	r.prime(t, 2, epoch)
	r.at(epoch.Add(30 * time.Minute))
	r.refuse[1] = 429
	pages, errs := r.read(2, false, 0)
	if len(pages) != 2 || pages[0].Cache.Hit || pages[1] != nil || !RateLimitedByAPI(errs[1]) {
		t.Errorf("got %+v %v: want the API's first page, then the refusal", pages, errs)
	}
}

func TestCachedRead_aWholeReadHoldsPagesBackWhileACopyCouldStandIn(t *testing.T) {
	r := newReadRig(t, rigOpts())
	r.prime(t, 2, epoch)
	r.at(epoch.Add(time.Hour - time.Nanosecond))
	r.refuse[1] = 429
	pages, errs := r.read(2, true, 0)
	if len(pages) != 2 || len(r.calls) != 2 {
		t.Fatalf("got %+v %v after %v", pages, errs, r.calls)
	}
	wantCopy(t, pages, errs, 2, CacheStatus{Hit: true, Stale: true, StoredAt: epoch, RateLimit: pages[0].Cache.RateLimit}, 1)

	// Without a refusal, the held pages are handed out once the read is
	// whole; a consumer that stops is not handed more.
	delete(r.refuse, 1)
	pages, errs = r.read(2, true, 1)
	wantAPI(t, pages, errs, 1)

	// A copy MaxStale old cannot stand in: pages stream, then the refusal.
	r.prime(t, 2, epoch) // the entry the read above stored is from epoch's future: a miss
	r.at(epoch.Add(time.Hour))
	r.refuse[1] = 429
	if pages, errs := r.read(2, true, 0); len(pages) != 2 || pages[0].Cache.Hit || !RateLimitedByAPI(errs[1]) {
		t.Errorf("got %+v %v: want the API's first page, then the refusal", pages, errs)
	}
}

func TestCachedRead_anEntryThatDoesNotAnswerTheReadIsAMiss(t *testing.T) {
	for name, tt := range map[string]struct {
		stored []string
		read   int
	}{
		"fewer pages":   {stored: []string{`{"n":0}`}, read: 2},
		"more pages":    {stored: []string{`{"n":0}`, `{"n":1}`}, read: 1},
		"another query": {stored: []string{`{"n":0}`, `{"n":1}`}, read: 2},
		"not a page":    {stored: []string{`"not a page"`}, read: 1},
	} {
		t.Run(name, func(t *testing.T) {
			r := newReadRig(t, rigOpts())
			r.save(epoch, tt.stored...)
			if name == "another query" {
				c := r.k.cache
				c.Save(context.Background(), c.EntryName("k"), analyticscache.Record{Kind: analyticscache.KindRead, Key: "k", At: epoch,
					Pages: []analyticscache.Page{{Query: "other=0", Value: []byte(`{"n":0}`)}, {Query: "other=1", Value: []byte(`{"n":1}`)}}})
			}
			pages, errs := r.read(tt.read, false, 0)
			if len(r.calls) != tt.read {
				t.Errorf("calls %v: want the API's", r.calls)
			}
			wantAPI(t, pages, errs, tt.read)
		})
	}
}

func TestCachedRead_aCopyIsScrubbed(t *testing.T) {
	r := newReadRig(t, rigOpts())
	r.save(epoch, `{"n":0,"secret":"`+mintlifytest.DemoAPIKey+`"}`)
	pages, errs := r.read(1, false, 0)
	if len(r.calls) != 0 || errs[0] != nil || pages[0].Secret != Redacted || !pages[0].Cache.Hit {
		t.Errorf("calls %v, page %+v %v", r.calls, pages[0], errs[0])
	}
}

func TestCachedRead_anotherProgramsLeaseIsAwaited(t *testing.T) {
	r := newReadRig(t, rigOpts())
	c := r.k.cache
	ctx := context.Background()
	c.Save(ctx, c.LeaseName("k"), analyticscache.Record{Kind: analyticscache.KindLease, Key: "k", At: epoch, Until: epoch.Add(time.Minute), Token: "theirs"})
	// The holder stores its entry while this program waits.
	r.clk.hook = func() { r.save(epoch.Add(time.Second), `{"n":0}`) }
	pages, errs := r.read(1, false, 0)
	if len(r.calls) != 0 {
		t.Fatalf("asked the API while another program held the lease: %v", r.calls)
	}
	wantCopy(t, pages, errs, 1, CacheStatus{Hit: true, StoredAt: epoch.Add(time.Second)}, 0)
}

func TestCachedRead_aLeaseIsTakenAndReleased(t *testing.T) {
	r := newReadRig(t, rigOpts())
	lease := filepath.Join(r.dir, r.k.cache.LeaseName("k"))
	held := false
	r.onFetch = func(int) { _, err := os.Stat(lease); held = err == nil }
	r.read(1, false, 0)
	if _, err := os.Stat(lease); !held || err == nil {
		t.Errorf("lease held while reading: %v, after: %v", held, err)
	}

	// A budget known to be spent takes no lease: the read is not sent.
	r = newReadRig(t, rigOpts())
	r.spent, held = true, false
	r.onFetch = func(int) { held = true }
	pages, errs := r.read(1, false, 0)
	if matches, _ := filepath.Glob(filepath.Join(r.dir, "lease-*")); len(matches) != 0 || held || pages[0] != nil || !IsNotSent(errs[0]) {
		t.Errorf("a spent budget: leases %v, sent %v, %v", matches, held, errs)
	}
}

// A read that takes long keeps its lease alive: others wait for it, not
// take it over.
func TestCachedRead_aLongReadExtendsItsLease(t *testing.T) {
	r := newReadRig(t, rigOpts())
	c := r.k.cache
	var untils []time.Time
	r.onFetch = func(int) {
		if l, ok := c.Load(context.Background(), c.LeaseName("k"), analyticscache.KindLease, "k", r.clk.Now(), analyticscache.MaxRecordBytes); ok {
			untils = append(untils, l.Until)
		}
		r.clk.Advance(analyticscache.LeaseExtendEvery)
	}
	r.read(3, false, 0)
	want := []time.Time{epoch.Add(analyticscache.LeaseFor), epoch.Add(analyticscache.LeaseExtendEvery + analyticscache.LeaseFor), epoch.Add(2*analyticscache.LeaseExtendEvery + analyticscache.LeaseFor)}
	if !slices.Equal(untils, want) {
		t.Errorf("the lease ran until %v, want %v", untils, want)
	}
}

func TestCachedRead_aCopyStoredMeanwhileStandsIn(t *testing.T) {
	// No entry when the read began (with a lease, or none on a spent
	// budget), or only one too old but a lease held: another program's,
	// stored while the read was refused, stands in.
	for name, tt := range map[string]struct {
		old   bool
		spent bool
	}{"no entry": {}, "no entry, no lease": {spent: true}, "an entry too old": {old: true}} {
		t.Run(name, func(t *testing.T) {
			r := newReadRig(t, rigOpts())
			if tt.old {
				r.prime(t, 1, epoch.Add(-2*time.Hour))
			}
			r.spent = tt.spent
			r.refuse[0] = 429
			stored := epoch.Add(-time.Minute)
			r.onFetch = func(int) { r.save(stored, `{"n":0}`) }
			if tt.spent { // nothing is sent: the other program stores its copy once the read looked
				r.gets, r.onGet = 0, func(n int) {
					if n == 1 {
						r.save(stored, `{"n":0}`)
					}
				}
			}
			pages, errs := r.read(1, false, 0)
			if len(pages) != 1 || errs[0] != nil {
				t.Fatalf("got %+v %v", pages, errs)
			}
			wantCopy(t, pages, errs, 1, CacheStatus{Hit: true, Stale: true, StoredAt: stored, RateLimit: pages[0].Cache.RateLimit}, map[bool]int{true: 0, false: 1}[tt.spent])
		})
	}
}

func TestReadOne_readsOnePage(t *testing.T) {
	r := newReadRig(t, rigOpts())
	c := get("/v1/analytics/p/test", url.Values{"page": {"0"}})
	p, err := readOne(context.Background(), r.k, "k", c, decodeTestPage)
	if err != nil || p.N != 0 || p.Cache.Hit {
		t.Fatalf("got %+v, %v", p, err)
	}
	if p, err := readOne(context.Background(), r.k, "k", c, decodeTestPage); err != nil || !p.Cache.Hit || len(r.calls) != 1 {
		t.Errorf("the second read was not the copy: %+v, %v", p, err)
	}
	r.refuse[1] = 500
	c = get("/v1/analytics/p/test", url.Values{"page": {"1"}})
	if p, err := readOne(context.Background(), r.k, "k1", c, decodeTestPage); p != nil || statusOf(err) != 500 {
		t.Errorf("got %+v, %v; want the error", p, err)
	}
}

// failingPut is a store whose writes of whole records fail, as a bucket
// that goes down between the read's lease and its entry.
type failingPut struct{ analyticscache.Store }

func (failingPut) Put(context.Context, string, []byte) error { return errors.New("bucket unreachable") }

// A store that fails as the read is being stored costs the read nothing:
// its pages are the API's, whole; the cache is then left alone for the
// client's life, and says why.
func TestCachedRead_aStoreFailingMidReadCostsOnlyTheCopy(t *testing.T) {
	r := newReadRig(t, rigOpts())
	g := r.k.cache.Store.(countingStore).Store.(*analyticscache.Guarded)
	g.Store = failingPut{g.Store}
	pages, errs := r.read(2, false, 0)
	wantAPI(t, pages, errs, 2)
	if err := r.k.problems.First(); err == nil || !strings.Contains(err.Error(), "bucket unreachable") {
		t.Errorf("the failure was not noted: %v", err)
	}
	r.calls = nil
	pages, errs = r.read(2, false, 0)
	wantAPI(t, pages, errs, 2)
	if len(r.calls) != 2 {
		t.Errorf("after the failure: %v asked", r.calls)
	}
}
