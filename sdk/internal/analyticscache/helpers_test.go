package analyticscache

import (
	"context"
	"sync"
	"time"
)

// memStore is a Store in memory, with an error to fail every call with,
// and ways to misbehave.
type memStore struct {
	mu    sync.Mutex
	files map[string][]byte
	err   error // every call fails with it
	calls int
	// hide, when set, makes a Get of a name it matches miss (a store slow
	// to show a write); keep makes a Remove of a name it matches do
	// nothing (a store slow to show a delete, or another user of the
	// bucket writing the name again at once).
	hide, keep func(name string) bool
	// each, when set, runs at every call, outside the lock: a store's
	// latency on a test clock.
	each func()
}

// call counts a call and runs each.
func (m *memStore) call() {
	if m.each != nil {
		m.each()
	}
	m.mu.Lock()
	m.calls++
}

func newMemStore() *memStore { return &memStore{files: map[string][]byte{}} }

func (m *memStore) Get(_ context.Context, name string, limit int64) ([]byte, error) {
	m.call()
	defer m.mu.Unlock()
	if m.err != nil {
		return nil, m.err
	}
	data, ok := m.files[name]
	if m.hide != nil && m.hide(name) {
		ok = false
	}
	switch {
	case !ok:
		return nil, ErrNotFound
	case int64(len(data)) > limit:
		return nil, ErrRefused
	}
	return data, nil
}

func (m *memStore) Put(_ context.Context, name string, data []byte) error {
	m.call()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	m.files[name] = data
	return nil
}

func (m *memStore) PutIfAbsent(_ context.Context, name string, data []byte) (bool, error) {
	m.call()
	defer m.mu.Unlock()
	if m.err != nil {
		return false, m.err
	}
	if _, ok := m.files[name]; ok {
		return false, nil
	}
	m.files[name] = data
	return true, nil
}

func (m *memStore) Remove(_ context.Context, name string) error {
	m.call()
	defer m.mu.Unlock()
	if m.err != nil {
		return m.err
	}
	if m.keep == nil || !m.keep(name) {
		delete(m.files, name)
	}
	return nil
}

func (m *memStore) Where() string { return "memory" }

// manualClock is a Clock whose Sleep advances it at once, then runs
// onSleep (another program's move).
type manualClock struct {
	now     time.Time
	slept   time.Duration
	onSleep func()
}

func (c *manualClock) Now() time.Time { return c.now }

func (c *manualClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.now, c.slept = c.now.Add(d), c.slept+d
	if c.onSleep != nil {
		c.onSleep()
	}
	return nil
}
