package readthrough

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
)

// page is a page of the tests' reads: its number, how it arrived (never
// kept), and how a copy was served.
type page struct {
	N      int    `json:"n"`
	Via    string `json:"via,omitempty"`
	Secret string `json:"secret,omitempty"`
	Bad    any    `json:"bad,omitempty"` // set to a channel: the page cannot be kept
	served *Served
}

// limited is the API's rate-limit refusal, after attempts.
type limited struct{ attempts int }

func (l *limited) Error() string { return "429 after " + strconv.Itoa(l.attempts) + " attempts" }

// memStore is a Store in memory, counting reads.
type memStore struct {
	mu    sync.Mutex
	files map[string][]byte
	gets  int
}

func (m *memStore) Get(_ context.Context, name string, limit int64) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.gets++
	data, ok := m.files[name]
	switch {
	case !ok:
		return nil, analyticscache.ErrNotFound
	case int64(len(data)) > limit:
		return nil, analyticscache.ErrRefused
	}
	return data, nil
}

func (m *memStore) Put(_ context.Context, name string, data []byte) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files[name] = data
	return nil
}

func (m *memStore) PutIfAbsent(_ context.Context, name string, data []byte) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.files[name]; ok {
		return false, nil
	}
	m.files[name] = data
	return true, nil
}

func (m *memStore) Remove(_ context.Context, name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.files, name)
	return nil
}

func (m *memStore) Where() string { return "memory" }

// clock is a Clock whose Sleep advances it at once, then runs onSleep
// (another program's move).
type clock struct {
	now     time.Time
	onSleep func()
}

func (c *clock) Now() time.Time { return c.now }

func (c *clock) Sleep(ctx context.Context, d time.Duration) error {
	c.now = c.now.Add(d)
	if c.onSleep != nil {
		c.onSleep()
	}
	return ctx.Err()
}

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

// rig is one client: its store, clock, budget and API.
type rig struct {
	store   *memStore
	cache   *analyticscache.Cache
	clock   *clock
	pol     Policy
	spent   bool
	calls   []int         // the API's requests
	refuse  map[int]error // the API's answer to a request, when not a page
	onFetch func(c int)
	redact  bool // the API's answers echo the key
	bad     bool // the API's pages cannot be kept
	scrubs  int
}

func newRig() *rig {
	r := &rig{store: &memStore{files: map[string][]byte{}}, clock: &clock{now: t0}, refuse: map[int]error{}}
	r.cache = analyticscache.New(r.store, "key")
	r.pol = Policy{
		Cache: r.cache, FreshFor: 10 * time.Minute, MaxStale: time.Hour, EntryLimit: 1 << 20, Clock: r.clock,
		Refresh: func(context.Context) {},
		Spent:   func(time.Time) bool { return r.spent },
		RateLimit: func(err error) (int, error) {
			var l *limited
			if errors.As(err, &l) {
				return l.attempts, l
			}
			return 0, nil
		},
	}
	return r
}

func (r *rig) codec() Codec[page, int] {
	return Codec[page, int]{
		Fetch: func(c int) (*page, int64, bool, error) {
			r.calls = append(r.calls, c)
			if r.onFetch != nil {
				r.onFetch(c)
			}
			if err := r.refuse[c]; err != nil {
				return nil, 7, false, err
			}
			p := &page{N: c, Via: "api"}
			if r.bad {
				p.Bad = make(chan int)
			}
			return p, 10, r.redact, nil
		},
		Query: func(c int) string { return "page=" + strconv.Itoa(c) },
		Clear: func(p *page) { p.Via = "" },
		Mark:  func(p *page, s Served) { p.served = &s },
		Scrub: func(data []byte, p *page) {
			if strings.Contains(string(data), "key") {
				r.scrubs++
				p.Secret = "[REDACTED]"
			}
		},
	}
}

// walkN reads pages 0 to n-1, stopping when emit does.
func walkN(n int) Walker[page, int] {
	return func(src Source[page, int], emit func(*page) bool) (bool, error) {
		for i := range n {
			p, _, err := src(i)
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
// all), and returns what was handed out.
func (r *rig) read(n int, whole bool, stop int) ([]*page, []error) {
	var pages []*page
	var errs []error
	Read(context.Background(), r.pol, "k", whole, r.codec(), walkN(n), func(p *page, err error) bool {
		pages, errs = append(pages, p), append(errs, err)
		return stop == 0 || len(pages) < stop
	})
	return pages, errs
}

// prime stores a whole read of n pages, fetched at t.
func (r *rig) prime(t *testing.T, n int, at time.Time) {
	t.Helper()
	was := r.clock.now
	r.clock.now = at
	if _, errs := r.read(n, false, 0); len(errs) != n || errs[n-1] != nil {
		t.Fatalf("priming: %v", errs)
	}
	r.clock.now, r.calls = was, nil
}

func wantCopy(t *testing.T, pages []*page, errs []error, n int, want Served) {
	t.Helper()
	if len(pages) != n {
		t.Fatalf("got %d pages (errors %v), want %d from the copy", len(pages), errs, n)
	}
	for i, p := range pages {
		if errs[i] != nil || p == nil || p.N != i || p.Via != "" || p.served == nil {
			t.Fatalf("page %d: %+v, %v; want page %d of the copy", i, p, errs[i], i)
		}
		w := want
		if i > 0 {
			w.Attempts = 0
		}
		if *p.served != w {
			t.Errorf("page %d served %+v, want %+v", i, *p.served, w)
		}
	}
}

func TestRead_aFreshEntryServesTheReadWhole(t *testing.T) {
	r := newRig()
	pages, errs := r.read(2, false, 0)
	if len(pages) != 2 || errs[1] != nil || pages[0].Via != "api" || pages[0].served != nil || len(r.calls) != 2 {
		t.Fatalf("first read: %+v %v, calls %v", pages, errs, r.calls)
	}
	r.calls = nil
	r.clock.now = t0.Add(10*time.Minute - time.Nanosecond)
	pages, errs = r.read(2, false, 0)
	if len(r.calls) != 0 {
		t.Fatalf("a fresh entry asked the API: %v", r.calls)
	}
	wantCopy(t, pages, errs, 2, Served{StoredAt: t0})

	// Fresh is younger than FreshFor: at FreshFor the API is asked.
	r.clock.now = t0.Add(10 * time.Minute)
	if pages, _ := r.read(2, false, 0); len(r.calls) != 2 || pages[0].Via != "api" {
		t.Errorf("an entry FreshFor old served the read: calls %v", r.calls)
	}
}

func TestRead_onlyWholeReadsOfUnredactedPagesAreStored(t *testing.T) {
	for name, tt := range map[string]struct {
		stop        int
		redact, bad bool
	}{"stopped early": {stop: 1}, "redacted": {redact: true}, "not encodable": {bad: true}} {
		t.Run(name, func(t *testing.T) {
			r := newRig()
			r.redact, r.bad = tt.redact, tt.bad
			r.read(2, false, tt.stop)
			r.redact, r.bad, r.calls = false, false, nil
			r.read(2, false, 0)
			if len(r.calls) != 2 {
				t.Errorf("the read was stored: the next asked %v", r.calls)
			}
		})
	}
}

func TestRead_aCopyStandsInForARateLimitedFirstRequest(t *testing.T) {
	r := newRig()
	r.prime(t, 2, t0)
	refusal := &limited{attempts: 3}
	r.refuse[0] = refusal
	r.clock.now = t0.Add(time.Hour - time.Nanosecond)
	pages, errs := r.read(2, false, 0)
	wantCopy(t, pages, errs, 2, Served{StoredAt: t0, Stale: true, Refusal: refusal, Attempts: 3})

	// Stale is younger than MaxStale: at MaxStale the refusal is the answer.
	r.clock.now = t0.Add(time.Hour)
	if pages, errs := r.read(2, false, 0); len(pages) != 1 || pages[0] != nil || !errors.Is(errs[0], refusal) {
		t.Errorf("a copy MaxStale old stood in: %+v %v", pages, errs)
	}
}

func TestRead_noCopyStandsInForOtherErrorsOrWithoutMaxStale(t *testing.T) {
	other := errors.New("500")
	for name, tt := range map[string]struct {
		err      error
		maxStale time.Duration
		cache    bool
	}{"not a rate limit": {err: other, maxStale: time.Hour, cache: true}, "MaxStale 0": {err: &limited{}, cache: true}, "no cache": {err: &limited{}, maxStale: time.Hour}} {
		t.Run(name, func(t *testing.T) {
			r := newRig()
			r.pol.MaxStale = tt.maxStale
			r.clock.now = t0.Add(time.Hour)
			r.refuse[0] = tt.err
			if !tt.cache {
				r.pol.Cache = nil
			}
			pages, errs := r.read(2, false, 0)
			if len(pages) != 1 || pages[0] != nil || !errors.Is(errs[0], tt.err) {
				t.Fatalf("got %+v %v, want the error alone", pages, errs)
			}
			// Nothing is looked up again when no copy could stand in: the
			// entry; once the lease is taken (its own, not read back), a
			// fresh entry; the lease, at its release.
			if want := map[bool]int{true: 3, false: 0}[tt.cache]; !errors.Is(tt.err, other) && r.store.gets != want {
				t.Errorf("%d reads of the store, want %d", r.store.gets, want)
			}
		})
	}
}

func TestRead_aRefusalAfterPagesWereHandedOutEndsTheRead(t *testing.T) {
	r := newRig()
	r.prime(t, 2, t0)
	r.clock.now = t0.Add(30 * time.Minute)
	refusal := &limited{}
	r.refuse[1] = refusal
	pages, errs := r.read(2, false, 0)
	if len(pages) != 2 || pages[0].Via != "api" || pages[1] != nil || !errors.Is(errs[1], refusal) {
		t.Errorf("got %+v %v: want the API's first page, then the refusal", pages, errs)
	}
}

func TestRead_aWholeReadHoldsPagesBackWhileACopyCouldStandIn(t *testing.T) {
	r := newRig()
	r.prime(t, 2, t0)
	r.clock.now = t0.Add(time.Hour - time.Nanosecond)
	refusal := &limited{attempts: 2}
	r.refuse[1] = refusal
	pages, errs := r.read(2, true, 0)
	wantCopy(t, pages, errs, 2, Served{StoredAt: t0, Stale: true, Refusal: refusal, Attempts: 2})

	// Without a refusal, the held pages are handed out once the read is
	// whole; a consumer that stops is not handed more.
	delete(r.refuse, 1)
	handed := 0
	Read(context.Background(), r.pol, "k", true, r.codec(), walkN(2), func(p *page, err error) bool {
		if handed++; err != nil || p.Via != "api" {
			t.Errorf("page %d: %+v %v", handed, p, err)
		}
		return false
	})
	if handed != 1 {
		t.Errorf("%d pages handed out after the consumer stopped", handed)
	}

	// A copy MaxStale old cannot stand in: pages stream, then the refusal.
	r.prime(t, 2, t0) // the entry the read above stored is from t0's future: a miss
	r.clock.now = t0.Add(time.Hour)
	r.refuse[1] = refusal
	if pages, errs := r.read(2, true, 0); len(pages) != 2 || pages[0].Via != "api" || !errors.Is(errs[1], refusal) {
		t.Errorf("got %+v %v: want the API's first page, then the refusal", pages, errs)
	}
}

func TestRead_anEntryThatDoesNotAnswerTheReadIsAMiss(t *testing.T) {
	for name, tt := range map[string]struct {
		stored, read int
		query        func(int) string
	}{
		"fewer pages":   {stored: 1, read: 2},
		"more pages":    {stored: 2, read: 1},
		"another query": {stored: 2, read: 2, query: func(c int) string { return "other=" + strconv.Itoa(c) }},
	} {
		t.Run(name, func(t *testing.T) {
			r := newRig()
			r.prime(t, tt.stored, t0)
			codec := r.codec()
			if tt.query != nil {
				codec.Query = tt.query
			}
			var pages []*page
			Read(context.Background(), r.pol, "k", false, codec, walkN(tt.read), func(p *page, err error) bool {
				pages = append(pages, p)
				return err == nil
			})
			if len(r.calls) != tt.read || len(pages) != tt.read || pages[0].Via != "api" {
				t.Errorf("calls %v, pages %+v: want the API's", r.calls, pages)
			}
		})
	}
}

func TestRead_aCopyIsDecodedAndScrubbed(t *testing.T) {
	r := newRig()
	r.cache.Save(context.Background(), r.cache.EntryName("k"), analyticscache.Record{Kind: analyticscache.KindRead, Key: "k", At: t0,
		Pages: []analyticscache.Page{{Query: "page=0", Value: []byte(`{"n":0,"secret":"key"}`)}}})
	pages, errs := r.read(1, false, 0)
	if len(r.calls) != 0 || errs[0] != nil || pages[0].Secret != "[REDACTED]" || r.scrubs != 1 {
		t.Errorf("calls %v, page %+v %v, scrubs %d", r.calls, pages[0], errs[0], r.scrubs)
	}

	r.cache.Save(context.Background(), r.cache.EntryName("k"), analyticscache.Record{Kind: analyticscache.KindRead, Key: "k", At: t0,
		Pages: []analyticscache.Page{{Query: "page=0", Value: []byte(`"not a page"`)}}})
	if pages, _ := r.read(1, false, 0); len(r.calls) != 1 || pages[0].Via != "api" {
		t.Errorf("an entry that does not decode served the read: %+v", pages[0])
	}
}

func TestRead_anotherProgramsLeaseIsAwaited(t *testing.T) {
	r := newRig()
	ctx := context.Background()
	r.cache.Save(ctx, r.cache.LeaseName("k"), analyticscache.Record{Kind: analyticscache.KindLease, Key: "k", At: t0, Until: t0.Add(time.Minute), Token: "theirs"})
	// The holder stores its entry while this program waits.
	r.clock.onSleep = func() {
		if r.clock.now.Sub(t0) == 3*time.Second {
			r.cache.Save(ctx, r.cache.EntryName("k"), analyticscache.Record{Kind: analyticscache.KindRead, Key: "k", At: r.clock.now,
				Pages: []analyticscache.Page{{Query: "page=0", Value: []byte(`{"n":0}`)}}})
		}
	}
	pages, errs := r.read(1, false, 0)
	if len(r.calls) != 0 {
		t.Fatalf("asked the API while another program held the lease: %v", r.calls)
	}
	wantCopy(t, pages, errs, 1, Served{StoredAt: t0.Add(3 * time.Second)})
}

func TestRead_aLeaseIsTakenAndReleased(t *testing.T) {
	r := newRig()
	var held bool
	r.onFetch = func(int) { _, held = r.store.files[r.cache.LeaseName("k")] }
	r.read(1, false, 0)
	if _, after := r.store.files[r.cache.LeaseName("k")]; !held || after {
		t.Errorf("lease held while reading: %v, after: %v", held, after)
	}

	// A budget known to be spent takes no lease: the read is not sent.
	r = newRig()
	r.spent = true
	r.onFetch = func(int) { _, held = r.store.files[r.cache.LeaseName("k")] }
	r.read(1, false, 0)
	if held {
		t.Error("a lease was taken on a spent budget")
	}
}

func TestRead_aCopyStoredMeanwhileStandsIn(t *testing.T) {
	// No entry when the read began (with a lease, or none on a spent
	// budget), or only one too old but a lease held: another program's,
	// stored while the read was refused, stands in.
	for name, tt := range map[string]struct {
		start *time.Time
		spent bool
	}{"no entry": {}, "no entry, no lease": {spent: true}, "an entry too old": {start: new(t0.Add(-2 * time.Hour))}} {
		t.Run(name, func(t *testing.T) {
			r := newRig()
			if tt.start != nil {
				r.prime(t, 1, *tt.start)
			}
			r.spent = tt.spent
			refusal := &limited{attempts: 1}
			r.refuse[0] = refusal
			r.onFetch = func(int) {
				r.cache.Save(context.Background(), r.cache.EntryName("k"), analyticscache.Record{Kind: analyticscache.KindRead, Key: "k", At: t0.Add(-time.Minute),
					Pages: []analyticscache.Page{{Query: "page=0", Value: []byte(`{"n":0}`)}}})
			}
			pages, errs := r.read(1, false, 0)
			wantCopy(t, pages, errs, 1, Served{StoredAt: t0.Add(-time.Minute), Stale: true, Refusal: refusal, Attempts: 1})
		})
	}
}

func TestOne_readsOnePage(t *testing.T) {
	r := newRig()
	p, err := One(context.Background(), r.pol, "k", r.codec(), 0)
	if err != nil || p.N != 0 || p.Via != "api" {
		t.Fatalf("got %+v, %v", p, err)
	}
	if p, err := One(context.Background(), r.pol, "k", r.codec(), 0); err != nil || p.served == nil || len(r.calls) != 1 {
		t.Errorf("the second read was not the copy: %+v, %v", p, err)
	}
	refusal := errors.New("500")
	r.refuse[1] = refusal
	if p, err := One(context.Background(), r.pol, "k1", r.codec(), 1); p != nil || !errors.Is(err, refusal) {
		t.Errorf("got %+v, %v; want the error", p, err)
	}
}
