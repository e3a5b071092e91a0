// Package poll is the one waiting loop of the SDK: it reads an object on
// a schedule until the object says it is done, a bound passes, or reads
// keep failing.
//
// It is separate from package sdk because the loop is machinery: what an
// object is, how it is read and which failures are worth another read are
// the caller's (package sdk passes them in), and the schedule, the
// timeout and the tolerance of transient failures are tested here on
// their own, with a clock that runs in no wall time.
package poll

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/transport"
)

// MaxTransientErrors is how many reads in a row may fail with a transient
// error (after the request's own retries) before the wait ends.
const MaxTransientErrors = 3

// ErrTimeout ends a wait that reached its Schedule.Timeout. It wraps
// context.DeadlineExceeded, so a caller can treat it as the deadline of a
// context.
var ErrTimeout = fmt.Errorf("wait timed out: %w", context.DeadlineExceeded)

// Clock is the time a wait is measured on and sleeps through.
type Clock interface {
	Now() time.Time
	// Sleep waits for d or until ctx is done, and returns ctx.Err() when
	// ctx ended the wait.
	Sleep(ctx context.Context, d time.Duration) error
}

// WallClock is the real time: the clock of a client given none.
type WallClock struct{}

// Now is time.Now.
func (WallClock) Now() time.Time { return time.Now() }

// Sleep waits for d or until ctx is done, whichever comes first, and
// returns ctx.Err() when ctx ended the wait (at once when d is not
// positive).
func (WallClock) Sleep(ctx context.Context, d time.Duration) error {
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

// Schedule is when a wait reads: Initial + 10% of the time waited so far
// before each read, up to Max, jittered down by up to 5%; Timeout (0: no
// bound but ctx's) bounds the whole wait.
type Schedule struct {
	Initial, Max time.Duration
	Timeout      time.Duration
}

// Delay is the delay before the next read, elapsed time after the wait
// began. It grows geometrically (Initial + elapsed/10, about ×1.1 a read)
// up to Max, then is jittered down by up to 5%. Tying the delay to the
// elapsed time bounds how late the waiter notices a finished job: at most
// Initial + 10% of the job's run time (until Max), while a 5-minute job
// takes under 40 reads with the SDK's defaults (1 s, 20 s).
func (s Schedule) Delay(elapsed time.Duration) time.Duration {
	d := min(s.Initial+elapsed/10, s.Max)
	return d - rand.N(d/20+1)
}

// Poller is what one wait needs from its caller.
type Poller[T any] struct {
	// What names the object in errors: "agent job 123".
	What string
	// Read reads the object once.
	Read func(context.Context) (T, error)
	// Done reports whether the object's state ends the wait.
	Done func(T) bool
	// OnStatus, when set, is called with the object after every read that
	// succeeded.
	OnStatus func(T)
	// Transient reports whether a failed read may succeed if made again
	// later; any other failure ends the wait at once.
	Transient func(error) bool
	// RetryAfter is how long the server asked to wait before the next read
	// in a failed read's error (0: it did not say).
	RetryAfter func(error) time.Duration
}

// Wait reads p's object on schedule s until p.Done holds, and returns it.
// Otherwise it returns the last object read (T's zero value if none) with
// an error naming p.What: ctx ended (wrapping ctx.Err()), s.Timeout passed
// (wrapping ErrTimeout; one last read is made when it runs out), a read
// failed with an error that is not transient, MaxTransientErrors reads in
// a row failed, or the server asked to wait (RetryAfter) longer than the
// timeout or ctx's deadline leaves.
func Wait[T any](ctx context.Context, clock Clock, s Schedule, p Poller[T]) (T, error) {
	var last T
	start := clock.Now()
	failures := 0
	delay := s.Delay(0)
	for {
		if s.Timeout > 0 {
			left := s.Timeout - clock.Now().Sub(start)
			if left <= 0 {
				return last, fmt.Errorf("waiting for %s: %w after %s", p.What, ErrTimeout, s.Timeout)
			}
			delay = min(delay, left)
		}
		if err := clock.Sleep(ctx, delay); err != nil {
			return last, fmt.Errorf("waiting for %s: %w", p.What, err)
		}
		delay = s.Delay(clock.Now().Sub(start))
		v, err := p.Read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return last, fmt.Errorf("waiting for %s: %w", p.What, ctx.Err())
			}
			failures++
			if !p.Transient(err) || failures >= MaxTransientErrors {
				return last, fmt.Errorf("waiting for %s: %w", p.What, err)
			}
			if after := p.RetryAfter(err); after > 0 {
				// A wait the server asks for that outlasts ours ends it
				// now, with the error that says when to come back.
				outlasts := s.Timeout > 0 && clock.Now().Sub(start)+after >= s.Timeout
				if outlasts || !transport.FitsBeforeDeadline(ctx, after) {
					return last, fmt.Errorf("waiting for %s: %w", p.What, err)
				}
				delay = after
			}
			continue
		}
		failures = 0
		last = v
		if p.OnStatus != nil {
			p.OnStatus(v)
		}
		if p.Done(v) {
			return v, nil
		}
	}
}
