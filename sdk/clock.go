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
