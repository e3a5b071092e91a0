package sdk

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"
	"time"
)

// cacheStore is where the analytics cache keeps its records: a directory
// (diskStore) or a bucket (bucketStore).
type cacheStore interface {
	// get returns what name holds, at most limit bytes: errNotFound when
	// there is nothing, errRefused for anything but a regular file (or
	// object) of at most limit bytes.
	get(ctx context.Context, name string, limit int64) ([]byte, error)
	// put writes name whole: a reader sees the old record or the new one.
	put(ctx context.Context, name string, data []byte) error
	// putIfAbsent writes name only when there is none, and says whether
	// it did.
	putIfAbsent(ctx context.Context, name string, data []byte) (bool, error)
	remove(ctx context.Context, name string) error
	// where names the store in messages (never with credentials).
	where() string
}

var (
	errNotFound = errors.New("not in the cache")
	errRefused  = errors.New("not a cache record (not a regular file, or too large)")
)

// storeTimeout bounds each operation on a store: a bucket that does not
// answer must not hold up a plan.
const storeTimeout = 15 * time.Second

// guardedStore bounds each operation in time and, after the store's first
// failure (anything but a miss), leaves it alone for the rest of the
// client's life, noting why: a store that is down must not make every read
// wait for it. Two failures leave it partly in use: writes refused for
// good (fs.ErrPermission: no such bucket, a credential that may only read)
// stop the writes but not the reads, so that a runner with a read-only
// credential still uses what others stored; a store without conditional
// writes (errors.ErrUnsupported) stops the leases alone.
type guardedStore struct {
	cacheStore
	problems *problemLog
	broken   atomic.Bool
	readOnly atomic.Bool
	noLeases atomic.Bool
}

// errStoreOff is an operation the guard did not send: the store, or this
// use of it, was turned off by an earlier failure.
var errStoreOff = errors.New("not sent: an earlier failure turned this use of the store off")

func (g *guardedStore) fail(ctx context.Context, err error, write bool) {
	switch {
	case err == nil || errors.Is(err, errNotFound) || errors.Is(err, errRefused) || errors.Is(err, errStoreOff) || ctx.Err() != nil:
		// a miss, or the caller gave up: the store is not at fault
	case errors.Is(err, errors.ErrUnsupported):
		if !g.noLeases.Swap(true) {
			g.problems.note(fmt.Errorf("the analytics cache (%s) takes no leases, so runners that miss the same read at the same time each read it (answers are still shared): %w", g.where(), err))
		}
	case write && errors.Is(err, fs.ErrPermission):
		if !g.readOnly.Swap(true) {
			g.problems.note(fmt.Errorf("the analytics cache (%s) is read but not written by this program: answers already stored there are used, none is added: %w", g.where(), err))
		}
	default:
		if !g.broken.Swap(true) {
			g.problems.note(fmt.Errorf("the analytics cache (%s) failed, and is not used again by this program: %w", g.where(), err))
		}
	}
}

// writable says whether writes may still be sent.
func (g *guardedStore) writable() bool { return !g.broken.Load() && !g.readOnly.Load() }

func (g *guardedStore) get(ctx context.Context, name string, limit int64) ([]byte, error) {
	if g.broken.Load() {
		return nil, errNotFound
	}
	opCtx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	data, err := g.cacheStore.get(opCtx, name, limit)
	g.fail(ctx, err, false)
	return data, err
}

func (g *guardedStore) put(ctx context.Context, name string, data []byte) error {
	if !g.writable() {
		return errStoreOff
	}
	opCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	err := g.cacheStore.put(opCtx, name, data)
	g.fail(ctx, err, true)
	return err
}

func (g *guardedStore) putIfAbsent(ctx context.Context, name string, data []byte) (bool, error) {
	if !g.writable() || g.noLeases.Load() {
		return false, errStoreOff
	}
	opCtx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	ok, err := g.cacheStore.putIfAbsent(opCtx, name, data)
	g.fail(ctx, err, true)
	return ok, err
}

func (g *guardedStore) remove(ctx context.Context, name string) error {
	if !g.writable() {
		return errStoreOff
	}
	opCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), storeTimeout)
	defer cancel()
	err := g.cacheStore.remove(opCtx, name)
	g.fail(ctx, err, true)
	return err
}

// Leases: two programs sharing a cache that miss the same read at once.
//
// Before fetching a read, a program takes its lease: a record created
// only if there is none (a conditional write). The others, finding it,
// poll the store for the holder's entry instead of reading the API, so a
// fleet of runners that start together spends one read. The wait is
// bounded: a lease lives leaseFor unless its holder extends it while it
// reads (and is trusted that long at most, whatever its until says), and
// nobody waits longer than leaseMaxWait in all; a holder that
// died (its lease expired) or a wait past the bound makes the waiter read
// itself. The conditional write is atomic on every store package
// cachebucket opens (S3, GCS and Azure by their preconditions, a file://
// directory by a link); a CacheBucket of a program's own that only checks,
// then writes, may rarely let two programs both take the lease: each then
// reads once, as without a lease.
const (
	leaseFor         = time.Minute
	leaseExtendEvery = 15 * time.Second
	leasePoll        = time.Second
	leaseMaxWait     = 2 * time.Minute
)

// heldLease is a lease this program holds. Its methods do nothing on nil.
type heldLease struct {
	c              *analyticsCache
	name, key, tok string
	extended       time.Time
}

func (c *analyticsCache) leaseName(readKey string) string { return "lease-" + c.entryName(readKey) }

// acquire takes the lease on a read, or waits for the holder's entry
// (returned, fresh). It returns neither when the read is to be fetched
// without a lease: the store cannot take one, the holder is gone without
// an entry and another took over, the budget turned out to be spent, or
// the wait passed its bound.
func (c *analyticsCache) acquire(ctx context.Context, k *core, readKey string) (*heldLease, *record) {
	name := c.leaseName(readKey)
	tok := rand.Text()
	start := k.clock.Now()
	seen := leaseSightings{}
	for i := range 1000 { // bounded in time below; this bounds a store that misbehaves
		now := k.clock.Now()
		if i > 0 {
			if e, ok := c.load(ctx, c.entryName(readKey), kindRead, readKey, now, k.entryLimit()); ok && now.Sub(e.At) < c.opts.FreshFor {
				return nil, &e
			}
			if k.budget.refresh(ctx, k); !k.budget.until(now).IsZero() {
				return nil, nil
			}
		}
		data, err := c.encode(record{Kind: kindLease, Key: readKey, Who: c.who, At: now, Until: now.Add(leaseFor), Token: tok})
		if err != nil {
			return nil, nil
		}
		created, err := c.store.putIfAbsent(ctx, name, data)
		if err != nil {
			return nil, nil
		}
		holder, held := c.load(ctx, name, kindLease, readKey, now, maxRecordBytes)
		switch {
		case held && holder.Token == tok:
			l := &heldLease{c: c, name: name, key: readKey, tok: tok, extended: now}
			// The last holder may have finished just before: its entry
			// spares the read.
			if e, ok := c.load(ctx, c.entryName(readKey), kindRead, readKey, now, k.entryLimit()); ok && now.Sub(e.At) < c.opts.FreshFor {
				l.release(ctx, k)
				return nil, &e
			}
			return l, nil
		case created:
			// Our conditional write was overwritten at once: another
			// program holds the lease (a store that checks, then writes).
		case !held || !seen.expiry(holder, now).After(now):
			// Released, expired (its holder died), or not a lease: look
			// for the entry, then take the lease over.
			_ = c.store.remove(ctx, name)
			continue
		}
		if now.Sub(start) >= leaseMaxWait || k.clock.Sleep(ctx, leasePoll) != nil {
			return nil, nil
		}
	}
	return nil, nil
}

// leaseSightings are when a waiter first saw each version of a lease (its
// holder's token and until, which change when it is extended).
type leaseSightings map[string]time.Time

// expiry is when the waiter stops trusting a lease: its until, but at
// most leaseFor after it was taken or last extended (its time, or when
// first seen if that is earlier: a holder's clock ahead moves neither),
// whatever its until says. A lease dated far ahead (a holder's bug, a
// clock far off) then holds up nobody past the lifetime documented.
func (s leaseSightings) expiry(l record, now time.Time) time.Time {
	version := l.Token + "\x00" + l.Until.String()
	first, ok := s[version]
	if !ok {
		first = now
		s[version] = now
	}
	return minTime(l.Until, minTime(l.At, first).Add(leaseFor))
}

// extend keeps the lease alive while its holder reads.
func (l *heldLease) extend(ctx context.Context, k *core) {
	if l == nil {
		return
	}
	now := k.clock.Now()
	if now.Sub(l.extended) < leaseExtendEvery {
		return
	}
	l.extended = now
	l.c.save(ctx, l.name, record{Kind: kindLease, Key: l.key, At: now, Until: now.Add(leaseFor), Token: l.tok})
}

// release removes the lease, if it is still this program's.
func (l *heldLease) release(ctx context.Context, k *core) {
	if l == nil {
		return
	}
	if r, ok := l.c.load(ctx, l.name, kindLease, l.key, k.clock.Now(), maxRecordBytes); ok && r.Token == l.tok {
		_ = l.c.store.remove(ctx, l.name)
	}
}
