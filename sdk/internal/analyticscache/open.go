package analyticscache

import (
	"sync"
	"time"
)

// Problems keeps the first problem of a client's cache: why it is not
// working as configured. Its methods are safe for concurrent use.
type Problems struct {
	mu    sync.Mutex
	first error
}

// Note keeps err unless a problem was noted before.
func (p *Problems) Note(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.first == nil {
		p.first = err
	}
}

// First is the first problem noted, or nil.
func (p *Problems) First() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.first
}

// Open is the cache of apiKey's records in the bucket bucket opens (nil
// when none is named), else (or when it cannot be opened) in the
// directory dir (none when ""), capped at maxBytes, the store guarded
// (Guard: timeout is a read's). It returns nil when neither can be used;
// why is noted in problems, as is each way the store later stops being
// used.
func Open(bucket func() (Store, error), dir string, maxBytes int64, timeout time.Duration, apiKey string, problems *Problems) *Cache {
	var store Store
	if bucket != nil {
		b, err := bucket()
		if err == nil {
			store = b
		} else {
			problems.Note(err)
		}
	}
	if store == nil {
		if dir == "" {
			return nil
		}
		disk, err := OpenDisk(dir, maxBytes)
		if err != nil {
			problems.Note(err)
			return nil
		}
		store = disk
	}
	return New(Guard(store, timeout, problems.Note), apiKey)
}
