package sdk

import (
	"context"
	"time"
)

// Clock is the SDK's view of time, for WithClock. Waits (polling, backoff,
// Retry-After) go through Sleep, and the timestamps a client reasons with
// (when a rate limit ends, how old a cached answer is) come from Now.
//
// mintlifytest.ManualClock is a Clock whose Sleep advances it at once:
// given to both the fake API and the client, it runs a long job in no wall
// time. Code under testing/synctest needs no Clock: the real one is
// already virtual inside a bubble.
type Clock interface {
	Now() time.Time
	// Sleep waits for d or until ctx is done, whichever comes first, and
	// returns ctx.Err() when ctx ended the wait.
	Sleep(ctx context.Context, d time.Duration) error
}

// wallClock is the real time: the clock of a client given none.
type wallClock struct{}

// Now is time.Now.
func (wallClock) Now() time.Time { return time.Now() }

// Sleep waits for d or until ctx is done, whichever comes first, and
// returns ctx.Err() when ctx ended the wait (at once when d is not
// positive).
func (wallClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
