package analyticscache

import (
	"context"
	"crypto/rand"
	"errors"
	"time"
)

// Leases: two programs sharing a cache that miss the same read at once.
//
// Before fetching a read, a program takes its lease, a record created only
// if there is none (a conditional write; a lease it created is its own at
// once). The others poll for the holder's entry instead of reading the
// API, so runners that start together spend one read. A lease lives
// LeaseFor unless its holder extends it (trusted that long at most), and
// nobody waits past LeaseMaxWait in all, store operations included; then,
// or when the holder died, the waiter reads itself. Only a lease sealed
// with the API key holds anyone up: anything else at its name is tried
// once more, then the read goes on without a lease. A CacheBucket that
// checks, then writes, may let two programs take a lease: each reads once.
const (
	LeaseFor         = time.Minute
	LeaseExtendEvery = 15 * time.Second
	LeasePoll        = time.Second
	LeaseMaxWait     = 2 * time.Minute
)

// Clock is time as the SDK's client sees it: Now, and a Sleep that ends
// early with ctx (returning its error).
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// Wait is what Acquire needs to know of the read whose lease it takes.
type Wait struct {
	Clock Clock
	// FreshFor is how young an entry must be to serve the read.
	FreshFor time.Duration
	// EntryLimit bounds an entry's bytes.
	EntryLimit int64
	// Spent says whether the read's budget is now known to be spent (as
	// another program may have recorded it): the wait then ends, since
	// the read will not be sent.
	Spent func(ctx context.Context, now time.Time) bool
}

// Lease is a lease this program holds. Its methods do nothing on nil.
type Lease struct {
	c              *Cache
	name, key, tok string
	extended       time.Time
}

// Acquire takes the lease on a read, or waits for the holder's entry
// (returned, fresh); neither when the read is to go on without a lease
// (no leases in the store, the holder gone and another took over, no
// lease to wait on twice, the budget spent, the wait past its bound). Its
// first tries count in the read's time (ForRead); its polls in the wait's.
func (c *Cache) Acquire(ctx context.Context, readKey string, w Wait) (*Lease, *Record) {
	name := c.LeaseName(readKey)
	tok := rand.Text()
	end := w.Clock.Now().Add(LeaseMaxWait)
	seen := Sightings{}
	fresh := func(ctx context.Context, now time.Time) *Record {
		if e, ok := c.Load(ctx, c.EntryName(readKey), KindRead, readKey, now, w.EntryLimit); ok && now.Sub(e.At) < w.FreshFor {
			return &e
		}
		return nil
	}
	// The first tries' store operations are the read's; from the first
	// pause on, they are the wait's, bounded by its end.
	ops := ctx
	waiting, stop := context.WithTimeout(outsideRead(ctx), LeaseMaxWait)
	defer stop()
	misses := 0           // tries in a row that found no lease to wait on
	for i := range 1000 { // bounded in time below; this bounds a clock that does not move
		now := w.Clock.Now()
		if !now.Before(end) {
			return nil, nil
		}
		if i > 0 {
			if e := fresh(ops, now); e != nil {
				return nil, e
			}
			if w.Spent(ops, now) {
				return nil, nil
			}
		}
		data, err := c.Encode(Record{Kind: KindLease, Key: readKey, Who: c.who, At: now, Until: now.Add(LeaseFor), Token: tok})
		if err != nil {
			return nil, nil
		}
		created, err := c.Store.PutIfAbsent(ops, name, data)
		switch {
		case err != nil:
			return nil, nil
		case created:
			l := &Lease{c: c, name: name, key: readKey, tok: tok, extended: now}
			// The last holder may have finished just before: its entry
			// spares the read.
			if e := fresh(ops, now); e != nil {
				l.Release(ctx, now)
				return nil, e
			}
			return l, nil
		}
		holder, there, held := c.peekLease(ops, name, readKey, now)
		if held && seen.Expiry(holder, now).After(now) {
			// Another program holds it: wait for its entry.
			misses = 0
			left := end.Sub(w.Clock.Now())
			if left <= 0 {
				return nil, nil
			}
			ops = waiting
			if w.Clock.Sleep(ctx, min(LeasePoll, left)) != nil {
				return nil, nil
			}
			continue
		}
		// Released, expired (its holder died), not a lease, or not shown
		// by the store: remove what is there, and try again at once, once.
		if misses++; misses == 2 {
			return nil, nil
		}
		if there {
			_ = c.Store.Remove(ops, name)
		}
	}
	return nil, nil
}

// peekLease reads what the lease's name holds: whether anything is there
// (a record or not), and the lease when it is one of this key's on
// readKey.
func (c *Cache) peekLease(ctx context.Context, name, readKey string, now time.Time) (lease Record, there, ok bool) {
	data, err := c.Store.Get(ctx, name, MaxRecordBytes)
	if err != nil {
		return Record{}, errors.Is(err, ErrRefused), false
	}
	lease, ok = c.Decode(data, KindLease, readKey, now)
	return lease, true, ok
}

// Sightings are when a waiter first saw each version of a lease (its
// holder's token and until, which change when it is extended).
type Sightings map[string]time.Time

// Expiry is when the waiter stops trusting a lease: its until, but at
// most LeaseFor after it was taken or last extended (its time, or when
// first seen if that is earlier: a holder's clock ahead moves neither),
// whatever its until says. A lease dated far ahead (a holder's bug, a
// clock far off) then holds up nobody past the lifetime documented.
func (s Sightings) Expiry(l Record, now time.Time) time.Time {
	version := l.Token + "\x00" + l.Until.String()
	first, ok := s[version]
	if !ok {
		first = now
		s[version] = now
	}
	return minTime(l.Until, minTime(l.At, first).Add(LeaseFor))
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

// Extend keeps the lease alive while its holder reads. A renewal is not
// one of the read's operations (ForRead): a read of many minutes renews
// its lease every LeaseExtendEvery, and those must not use up the time
// its store has for the read (finding its entry, storing its answer).
// Each is still bounded by the guard's timeout.
func (l *Lease) Extend(ctx context.Context, now time.Time) {
	if l == nil || now.Sub(l.extended) < LeaseExtendEvery {
		return
	}
	l.extended = now
	l.c.Save(outsideRead(ctx), l.name, Record{Kind: KindLease, Key: l.key, At: now, Until: now.Add(LeaseFor), Token: l.tok})
}

// Release removes the lease, if it is still this program's.
func (l *Lease) Release(ctx context.Context, now time.Time) {
	if l == nil {
		return
	}
	if r, ok := l.c.Load(ctx, l.name, KindLease, l.key, now, MaxRecordBytes); ok && r.Token == l.tok {
		_ = l.c.Store.Remove(ctx, l.name)
	}
}
