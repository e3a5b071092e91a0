// Package analyticscache is where the SDK's analytics cache keeps its
// records, and how it trusts them: the stores (a directory, a bucket), the
// guard that bounds them and turns off a store that fails, the records
// (entries, spent budgets, leases), sealed with a key derived from the API
// key, and the leases that let programs sharing a store spend one read;
// Open picks the store a client names (a bucket, else a directory), and
// Problems keeps the first reason one is not used.
//
// It knows nothing of HTTP, pages or answers: an entry's pages are JSON
// the SDK encoded, and the SDK's analytics read (sdk/cache.go) reads and
// stores them, and decides when a copy serves.
package analyticscache

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"
	"time"
)

// Store is where the cache keeps its records: a directory (Disk) or a
// bucket (Bucket). Its method set is that of sdk.CacheBucket, whose errors
// Bucket turns into these.
type Store interface {
	// Get returns what name holds, at most limit bytes: ErrNotFound when
	// there is nothing, ErrRefused for anything but a regular file (or
	// object) of at most limit bytes.
	Get(ctx context.Context, name string, limit int64) ([]byte, error)
	// Put writes name whole: a reader sees the old record or the new one.
	Put(ctx context.Context, name string, data []byte) error
	// PutIfAbsent writes name only when there is none, and says whether
	// it did.
	PutIfAbsent(ctx context.Context, name string, data []byte) (bool, error)
	// Remove deletes name; a missing one is not an error.
	Remove(ctx context.Context, name string) error
	// Where names the store in messages (never with credentials).
	Where() string
}

var (
	// ErrNotFound is a name that holds nothing: a miss.
	ErrNotFound = errors.New("not in the cache")
	// ErrRefused is a name that holds something the cache does not read:
	// not a regular file, or too large. A miss too.
	ErrRefused = errors.New("not a cache record (not a regular file, or too large)")
)

// Bucket is an object store (an sdk.CacheBucket) as a Store: its
// fs.ErrNotExist is ErrNotFound, its fs.ErrInvalid ErrRefused.
func Bucket(b Store) Store { return bucketStore{b} }

type bucketStore struct{ Store }

func (s bucketStore) Get(ctx context.Context, name string, limit int64) ([]byte, error) {
	data, err := s.Store.Get(ctx, name, limit)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, ErrNotFound
	case errors.Is(err, fs.ErrInvalid):
		return nil, ErrRefused
	}
	return data, err
}

// OpTimeout bounds each operation on a guarded store: a bucket that does
// not answer must not hold up a plan.
const OpTimeout = 15 * time.Second

// Guarded bounds each operation of a store in time and, after the store's
// first failure (anything but a miss), leaves it alone for the rest of the
// client's life, noting why: a store that is down must not make every read
// wait for it. Two failures leave it partly in use: writes refused for
// good (fs.ErrPermission: no such bucket, a credential that may only read)
// stop the writes but not the reads, so that a runner with a read-only
// credential still uses what others stored; a store without conditional
// writes (errors.ErrUnsupported) stops the leases alone.
type Guarded struct {
	Store
	note     func(error)
	broken   atomic.Bool
	readOnly atomic.Bool
	noLeases atomic.Bool
}

// Guard guards s; note is told each way the store stopped being used, once.
func Guard(s Store, note func(error)) *Guarded { return &Guarded{Store: s, note: note} }

// ErrStoreOff is an operation the guard did not send: the store, or this
// use of it, was turned off by an earlier failure.
var ErrStoreOff = errors.New("not sent: an earlier failure turned this use of the store off")

func (g *Guarded) fail(ctx context.Context, err error, write bool) {
	switch {
	case err == nil || errors.Is(err, ErrNotFound) || errors.Is(err, ErrRefused) || errors.Is(err, ErrStoreOff) || ctx.Err() != nil:
		// a miss, or the caller gave up: the store is not at fault
	case errors.Is(err, errors.ErrUnsupported):
		if !g.noLeases.Swap(true) {
			g.note(fmt.Errorf("the analytics cache (%s) takes no leases, so runners that miss the same read at the same time each read it (answers are still shared): %w", g.Where(), err))
		}
	case write && errors.Is(err, fs.ErrPermission):
		if !g.readOnly.Swap(true) {
			g.note(fmt.Errorf("the analytics cache (%s) is read but not written by this program: answers already stored there are used, none is added: %w", g.Where(), err))
		}
	default:
		if !g.broken.Swap(true) {
			g.note(fmt.Errorf("the analytics cache (%s) failed, and is not used again by this program: %w", g.Where(), err))
		}
	}
}

// writable says whether writes may still be sent.
func (g *Guarded) writable() bool { return !g.broken.Load() && !g.readOnly.Load() }

// Get reads name, or reports a miss without asking a broken store.
func (g *Guarded) Get(ctx context.Context, name string, limit int64) ([]byte, error) {
	if g.broken.Load() {
		return nil, ErrNotFound
	}
	opCtx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	data, err := g.Store.Get(opCtx, name, limit)
	g.fail(ctx, err, false)
	return data, err
}

// Put writes name, unless writes are off. It is not cut short by ctx's
// end: a record is written whole or not at all.
func (g *Guarded) Put(ctx context.Context, name string, data []byte) error {
	if !g.writable() {
		return ErrStoreOff
	}
	opCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), OpTimeout)
	defer cancel()
	err := g.Store.Put(opCtx, name, data)
	g.fail(ctx, err, true)
	return err
}

// PutIfAbsent writes name when there is none, unless writes or leases are
// off.
func (g *Guarded) PutIfAbsent(ctx context.Context, name string, data []byte) (bool, error) {
	if !g.writable() || g.noLeases.Load() {
		return false, ErrStoreOff
	}
	opCtx, cancel := context.WithTimeout(ctx, OpTimeout)
	defer cancel()
	ok, err := g.Store.PutIfAbsent(opCtx, name, data)
	g.fail(ctx, err, true)
	return ok, err
}

// Remove deletes name, unless writes are off.
func (g *Guarded) Remove(ctx context.Context, name string) error {
	if !g.writable() {
		return ErrStoreOff
	}
	opCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), OpTimeout)
	defer cancel()
	err := g.Store.Remove(opCtx, name)
	g.fail(ctx, err, true)
	return err
}
