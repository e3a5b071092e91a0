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

// DefaultTimeout bounds a guarded store's time for one read (Guarded): a
// slow bucket must not cost every read more than a broken one.
const DefaultTimeout = 5 * time.Second

// Guarded bounds a store's operations in time, each and a read's together
// (ForRead), and after its first failure (anything but a miss) or a read
// past its time leaves it alone for the client's life, noting why. Writes
// refused for good (fs.ErrPermission) stop only writes, so a read-only
// credential still uses what others stored; a store without conditional
// writes (errors.ErrUnsupported) stops only leases.
type Guarded struct {
	Store
	timeout  time.Duration
	note     func(error)
	broken   atomic.Bool
	readOnly atomic.Bool
	noLeases atomic.Bool
}

// Guard guards s, whose operations take at most timeout for one read
// (DefaultTimeout when it is not positive); note is told each way the
// store stopped being used, once.
func Guard(s Store, timeout time.Duration, note func(error)) *Guarded {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	return &Guarded{Store: s, timeout: timeout, note: note}
}

// ErrStoreOff is an operation the guard did not send: the store, or this
// use of it, was turned off by an earlier failure.
var ErrStoreOff = errors.New("not sent: an earlier failure turned this use of the store off")

// readTime is what is left of one read's time on the store: nanoseconds,
// set to the store's timeout by the read's first operation.
type readTime struct {
	left    atomic.Int64
	started atomic.Bool
}

type readTimeKey struct{}

// ForRead is ctx for the store operations of one read: together they take
// at most the guarded store's timeout (they share it, whoever runs them).
func ForRead(ctx context.Context) context.Context {
	return context.WithValue(ctx, readTimeKey{}, &readTime{})
}

// outsideRead is ctx for operations not counted in its read's time (a
// lease's polls, which the wait bounds): each still takes at most the
// timeout.
func outsideRead(ctx context.Context) context.Context {
	return context.WithValue(ctx, readTimeKey{}, (*readTime)(nil))
}

// do runs one operation of the store, bounded: by the timeout, by what is
// left of its read's time, and by ctx (not when detached: a write is not
// cut short by its caller's end, so that a record is written whole or not
// at all). It returns op's error, after the guard took it in.
func (g *Guarded) do(ctx context.Context, write, detached bool, op func(ctx context.Context) error) error {
	limit := g.timeout
	read, _ := ctx.Value(readTimeKey{}).(*readTime)
	if read != nil {
		if !read.started.Swap(true) {
			read.left.Store(int64(g.timeout))
		}
		limit = min(limit, time.Duration(read.left.Load()))
		if limit <= 0 {
			return ErrStoreOff // another operation of the read used its time up
		}
	}
	parent := ctx
	if detached {
		parent = context.WithoutCancel(ctx)
	}
	began := time.Now() // before the timeout starts: one that fires has used up limit
	opCtx, cancel := context.WithTimeout(parent, limit)
	defer cancel()
	err := op(opCtx)
	if read != nil && read.left.Add(-int64(time.Since(began))) <= 0 && ctx.Err() == nil {
		if !g.broken.Swap(true) {
			g.note(fmt.Errorf("the analytics cache (%s) took more than %s over one read's operations, so the read went on without it, and it is not used again by this program", g.Where(), g.timeout))
		}
		if err == nil {
			return nil // this one made it, just
		}
		return ErrStoreOff
	}
	g.fail(ctx, err, write)
	return err
}

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
	var data []byte
	err := g.do(ctx, false, false, func(ctx context.Context) (err error) {
		data, err = g.Store.Get(ctx, name, limit)
		return err
	})
	if errors.Is(err, ErrStoreOff) {
		return nil, ErrNotFound
	}
	return data, err
}

// Put writes name, unless writes are off. It is not cut short by ctx's
// end: a record is written whole or not at all.
func (g *Guarded) Put(ctx context.Context, name string, data []byte) error {
	if !g.writable() {
		return ErrStoreOff
	}
	return g.do(ctx, true, true, func(ctx context.Context) error { return g.Store.Put(ctx, name, data) })
}

// PutIfAbsent writes name when there is none, unless writes or leases are
// off.
func (g *Guarded) PutIfAbsent(ctx context.Context, name string, data []byte) (bool, error) {
	if !g.writable() || g.noLeases.Load() {
		return false, ErrStoreOff
	}
	var ok bool
	err := g.do(ctx, true, false, func(ctx context.Context) (err error) {
		ok, err = g.Store.PutIfAbsent(ctx, name, data)
		return err
	})
	return ok && err == nil, err
}

// Remove deletes name, unless writes are off.
func (g *Guarded) Remove(ctx context.Context, name string) error {
	if !g.writable() {
		return ErrStoreOff
	}
	return g.do(ctx, true, true, func(ctx context.Context) error { return g.Store.Remove(ctx, name) })
}
