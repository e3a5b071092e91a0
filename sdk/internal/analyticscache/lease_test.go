package analyticscache

import (
	"context"
	"strings"
	"testing"
	"time"
)

func waitFor(clk *manualClock, spent *bool) Wait {
	return Wait{Clock: clk, FreshFor: 10 * time.Minute, EntryLimit: 1 << 20,
		Spent: func(context.Context, time.Time) bool { return *spent }}
}

// The first program takes the lease and releases it; a second waits
// while it is held, and is served the holder's entry once it is stored.
func TestLease_aWaiterIsServedTheHoldersEntry(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	holder, waiter := New(store, "mint_key"), New(store, "mint_key")
	clk, spent := &manualClock{now: epoch}, false
	lease, entry := holder.Acquire(ctx, "read", waitFor(clk, &spent))
	if lease == nil || entry != nil {
		t.Fatalf("the first program: %v, %v", lease, entry)
	}
	polls := 0
	clk.onSleep = func() {
		if polls++; polls == 3 {
			holder.Save(ctx, holder.EntryName("read"), Record{Kind: KindRead, Key: "read", At: clk.now})
		}
		lease.Extend(ctx, clk.now)
	}
	got, served := waiter.Acquire(ctx, "read", waitFor(clk, &spent))
	if got != nil || served == nil || polls != 3 || clk.slept != 3*LeasePoll {
		t.Fatalf("the waiter: %v, %v after %d polls (%v)", got, served, polls, clk.slept)
	}
	lease.Release(ctx, clk.now)
	if _, ok := store.files[holder.LeaseName("read")]; ok {
		t.Error("the lease outlived its release")
	}
	// With the entry fresh, a new taker is served it at once.
	if l, e := waiter.Acquire(ctx, "read", waitFor(clk, &spent)); l != nil || e == nil {
		t.Errorf("after the entry: %v, %v", l, e)
	}
	// Nil leases do nothing.
	var none *Lease
	none.Extend(ctx, clk.now)
	none.Release(ctx, clk.now)
}

// A waiter stops waiting when the budget turns out spent, when the lease
// expires (taking it over), and after LeaseMaxWait in all.
func TestLease_waitsAreBounded(t *testing.T) {
	ctx := context.Background()
	t.Run("the budget is spent", func(t *testing.T) {
		store := newMemStore()
		clk, spent := &manualClock{now: epoch}, false
		if l, _ := New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent)); l == nil {
			t.Fatal("no lease")
		}
		clk.onSleep = func() { spent = true }
		if l, e := New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent)); l != nil || e != nil || clk.slept != LeasePoll {
			t.Errorf("%v, %v after %v", l, e, clk.slept)
		}
	})
	t.Run("the holder died", func(t *testing.T) {
		store := newMemStore()
		clk, spent := &manualClock{now: epoch}, false
		if l, _ := New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent)); l == nil {
			t.Fatal("no lease")
		}
		l, e := New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent))
		if l == nil || e != nil || clk.slept != LeaseFor {
			t.Errorf("took over %v, %v after %v, want after %v", l, e, clk.slept, LeaseFor)
		}
	})
	t.Run("a holder that never finishes", func(t *testing.T) {
		store := newMemStore()
		clk, spent := &manualClock{now: epoch}, false
		holder, _ := New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent))
		clk.onSleep = func() { holder.Extend(ctx, clk.now) }
		if l, e := New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent)); l != nil || e != nil || clk.slept != LeaseMaxWait {
			t.Errorf("%v, %v after %v, want after %v", l, e, clk.slept, LeaseMaxWait)
		}
	})
	t.Run("the caller gives up", func(t *testing.T) {
		store := newMemStore()
		clk, spent := &manualClock{now: epoch}, false
		_, _ = New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent))
		canceled, cancel := context.WithCancel(ctx)
		cancel()
		if l, e := New(store, "k").Acquire(canceled, "read", waitFor(clk, &spent)); l != nil || e != nil || clk.slept != 0 {
			t.Errorf("%v, %v after %v", l, e, clk.slept)
		}
	})
	t.Run("a store that takes no leases", func(t *testing.T) {
		store := newMemStore()
		store.err = context.DeadlineExceeded
		clk, spent := &manualClock{now: epoch}, false
		if l, e := New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent)); l != nil || e != nil {
			t.Errorf("%v, %v", l, e)
		}
	})
}

// A lease is trusted LeaseFor at most from when it was taken or first
// seen, whatever its until says; an extension is a new version.
func TestSightings_boundTheTrustInALease(t *testing.T) {
	s := Sightings{}
	forever := time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC)
	if got := s.Expiry(Record{At: epoch, Until: forever, Token: "a"}, epoch); !got.Equal(epoch.Add(LeaseFor)) {
		t.Errorf("dated now, until 9999: %v", got)
	}
	ahead := Record{At: epoch.Add(30 * time.Second), Until: forever, Token: "b"}
	if got := s.Expiry(ahead, epoch); !got.Equal(epoch.Add(LeaseFor)) {
		t.Errorf("dated ahead: %v", got)
	}
	if got := s.Expiry(ahead, epoch.Add(time.Minute)); !got.Equal(epoch.Add(LeaseFor)) {
		t.Errorf("seen again later: %v", got)
	}
	short := Record{At: epoch, Until: epoch.Add(time.Second), Token: "c"}
	if got := s.Expiry(short, epoch); !got.Equal(epoch.Add(time.Second)) {
		t.Errorf("a short lease: %v", got)
	}
}

// An entry exactly FreshFor old no longer spares the read; the first try
// takes the lease without asking again whether the budget is spent (the
// caller just did).
func TestLease_edges(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	c := New(store, "k")
	clk, spent := &manualClock{now: epoch}, true
	c.Save(ctx, c.EntryName("read"), Record{Kind: KindRead, Key: "read", At: epoch.Add(-10 * time.Minute)})
	lease, entry := c.Acquire(ctx, "read", waitFor(clk, &spent))
	if lease == nil || entry != nil {
		t.Fatalf("%v, %v", lease, entry)
	}
	until := func() time.Time {
		r, _ := c.Load(ctx, c.LeaseName("read"), KindLease, "read", clk.now, MaxRecordBytes)
		return r.Until
	}
	lease.Extend(ctx, epoch.Add(LeaseExtendEvery-time.Second))
	if !until().Equal(epoch.Add(LeaseFor)) {
		t.Errorf("extended early: until %v", until())
	}
	lease.Extend(ctx, epoch.Add(LeaseExtendEvery))
	if !until().Equal(epoch.Add(LeaseExtendEvery + LeaseFor)) {
		t.Errorf("not extended: until %v", until())
	}
}

func isLease(name string) bool { return strings.HasPrefix(name, "lease-") }

// A lease this program created is its own, even when the store does not
// show it when read back (a store slow to show a write, or another user
// of the bucket writing over it): the read goes on at once, not after
// polling it for LeaseMaxWait.
func TestLease_aLeaseCreatedIsOwnedAtOnce(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	store.hide = isLease
	clk, spent := &manualClock{now: epoch}, false
	l, e := New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent))
	if l == nil || e != nil || clk.slept != 0 || store.calls != 2 { // the conditional write, then a look for an entry
		t.Fatalf("%v, %v after %v and %d calls", l, e, clk.slept, store.calls)
	}
	// Its release removes it only when it reads back as its own.
	l.Release(ctx, clk.now)
	if _, ok := store.files[New(store, "k").LeaseName("read")]; !ok {
		t.Error("a lease that did not read back as its own was removed")
	}
}

// Something at the lease's name that no program of this key is waiting
// on (garbage another user of the bucket keeps writing there, a lease of
// another key, one the store refuses to overwrite but never shows) holds
// no read up: it is removed and tried again at once, once, then the read
// goes on without a lease. Even when each call to the store takes 50 ms,
// no wait passes LeaseMaxWait, and the store is not asked in a loop.
func TestLease_nothingToWaitOnHoldsNoReadUp(t *testing.T) {
	ctx := context.Background()
	for name, plant := range map[string]func(c *Cache, store *memStore){
		"garbage written again at once": func(c *Cache, store *memStore) {
			store.files[c.LeaseName("read")] = []byte("not a lease")
			store.keep = isLease
		},
		"another key's lease": func(c *Cache, store *memStore) {
			other := New(store, "another key")
			data, _ := other.Encode(Record{Kind: KindLease, Key: "read", Who: Fingerprint("another key"), At: epoch, Until: epoch.Add(LeaseFor), Token: "t"})
			store.files[c.LeaseName("read")] = data
			store.keep = isLease
		},
		"a lease the store never shows": func(c *Cache, store *memStore) {
			store.files[c.LeaseName("read")] = []byte("whatever")
			store.hide, store.keep = isLease, isLease
		},
	} {
		t.Run(name, func(t *testing.T) {
			store := newMemStore()
			c := New(store, "k")
			plant(c, store)
			clk, spent := &manualClock{now: epoch}, false
			store.each = func() { clk.now = clk.now.Add(50 * time.Millisecond) }
			l, e := c.Acquire(ctx, "read", waitFor(clk, &spent))
			if l != nil || e != nil || clk.now.Sub(epoch) > LeaseMaxWait || store.calls > 10 {
				t.Errorf("%v, %v after %v (%v asleep) and %d calls", l, e, clk.now.Sub(epoch), clk.slept, store.calls)
			}
		})
	}
}

// A lease the store shows late (the first read of it misses) is waited
// for, not removed: its holder's read serves the waiter.
func TestLease_aLeaseShownLateIsWaitedFor(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	holder, waiter := New(store, "k"), New(store, "k")
	clk, spent := &manualClock{now: epoch}, false
	lease, _ := holder.Acquire(ctx, "read", waitFor(clk, &spent))
	missed := false
	store.hide = func(name string) bool {
		if isLease(name) && !missed {
			missed = true
			return true
		}
		return false
	}
	clk.onSleep = func() {
		if clk.slept == 3*LeasePoll {
			holder.Save(ctx, holder.EntryName("read"), Record{Kind: KindRead, Key: "read", At: clk.now})
			lease.Release(ctx, clk.now)
		}
	}
	if l, e := waiter.Acquire(ctx, "read", waitFor(clk, &spent)); l != nil || e == nil || !missed || clk.slept != 3*LeasePoll {
		t.Errorf("%v, %v after %v (missed %v)", l, e, clk.slept, missed)
	}
}

// Every call to the store takes 7 s and the holder never finishes: the
// wait still ends by LeaseMaxWait, give or take one poll's calls.
func TestLease_aSlowStoreWaitsNoLongerInAll(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	clk, spent := &manualClock{now: epoch}, false
	holder, _ := New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent))
	clk.onSleep = func() { holder.Extend(ctx, clk.now) }
	store.each = func() { clk.now = clk.now.Add(7 * time.Second) }
	start := clk.now
	if l, e := New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent)); l != nil || e != nil || clk.now.Sub(start) > LeaseMaxWait+4*7*time.Second {
		t.Errorf("%v, %v after %v", l, e, clk.now.Sub(start))
	}
}

// A store that deletes a lease under its holder (a lifecycle rule): the
// next program takes its own at once, and the first holder's release
// leaves it alone. Clocks far apart (past ClockSkew, or a lease already
// expired by the waiter's clock) make the waiter take over at once: two
// reads, never a wait.
func TestLease_deletedOrSkewedLeasesAreTakenOver(t *testing.T) {
	ctx := context.Background()
	store := newMemStore()
	clk, spent := &manualClock{now: epoch}, false
	first, _ := New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent))
	clear(store.files)
	second, e := New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent))
	if second == nil || e != nil || clk.slept != 0 {
		t.Fatalf("%v, %v after %v", second, e, clk.slept)
	}
	first.Release(ctx, clk.now)
	if len(store.files) != 1 {
		t.Error("the first holder removed the second's lease")
	}
	for _, skew := range []time.Duration{5 * time.Minute, -5 * time.Minute} {
		store := newMemStore()
		ahead := &manualClock{now: epoch.Add(skew)}
		clk := &manualClock{now: epoch}
		if l, _ := New(store, "k").Acquire(ctx, "read", waitFor(ahead, &spent)); l == nil {
			t.Fatal("no lease")
		}
		if l, e := New(store, "k").Acquire(ctx, "read", waitFor(clk, &spent)); l == nil || e != nil || clk.slept != 0 {
			t.Errorf("a holder's clock %v off: %v, %v after %v", skew, l, e, clk.slept)
		}
	}
}

// Renewing the lease while the API is read is not one of the read's
// operations: a long read on a store that answers in 60 ms keeps its
// lease and stores its answer, though its twelve renewals took longer in
// all than the read's timeout. Each renewal is still bounded alone.
func TestLease_renewalsAreNotTheReadsTime(t *testing.T) {
	ctx := ForRead(context.Background())
	m := newMemStore()
	var notes []error
	c := New(Guard(slowStore{m, 60 * time.Millisecond}, 600*time.Millisecond, func(err error) { notes = append(notes, err) }), "k")
	clk, spent := &manualClock{now: epoch}, false
	l, _ := c.Acquire(ctx, "read", waitFor(clk, &spent))
	if l == nil {
		t.Fatal("no lease")
	}
	for range 12 {
		clk.now = clk.now.Add(LeaseExtendEvery)
		l.Extend(ctx, clk.now)
	}
	c.Save(ctx, c.EntryName("read"), Record{Kind: KindRead, Key: "read", At: clk.now})
	l.Release(ctx, clk.now)
	// The lease and a look for an entry, 12 renewals, the entry, and the
	// release (a look at the lease, its removal).
	if _, ok := m.files[c.EntryName("read")]; !ok || len(notes) != 0 || m.calls != 2+12+1+2 {
		t.Errorf("stored %v, %d calls, notes %v", ok, m.calls, notes)
	}
}
