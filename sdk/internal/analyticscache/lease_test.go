package analyticscache

import (
	"context"
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
