package mintlifytest

import (
	"context"
	"sync"
	"time"
)

// Clock is the fake's sense of time. Job lifecycles and rate-limit windows
// read it, so a test can drive a 5-minute job in no wall time.
type Clock interface {
	Now() time.Time
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

// ManualClock is a Clock that moves only when told to. Safe for concurrent use.
type ManualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewManualClock returns a clock stopped at start.
func NewManualClock(start time.Time) *ManualClock { return &ManualClock{now: start} }

// Now returns the clock's time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *ManualClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// Sleep advances the clock by d at once, as if d had passed, and returns
// nil; if ctx is done it returns ctx.Err() and leaves the clock alone.
// With it, one ManualClock can drive both the fake and a client that
// sleeps through a clock (anything with Now and Sleep(ctx, d) error, such
// as the SDK's): the client's waits move the fake's time.
func (c *ManualClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if d > 0 {
		c.Advance(d)
	}
	return nil
}
