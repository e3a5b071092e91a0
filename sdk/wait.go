package sdk

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/transport"
)

const (
	// DefaultPollInitial is the first delay between polls of a job.
	DefaultPollInitial = time.Second
	// DefaultPollMax caps the delay between polls. With the schedule below, a
	// 5-minute job takes at most 39 polls and is noticed at most 20 s late.
	DefaultPollMax = 20 * time.Second
)

// WaitOption configures a wait: AgentJobs.Wait and the waits of every
// other service that starts work in the background.
//
// Every wait follows the same rules. Polls come on a schedule tied to the
// time waited (see WithPollInterval). Transient failures (5xx, broken
// connections, short rate limits) already retried by the request layer do
// not end the wait unless several polls in a row fail; a 4xx such as 404,
// or an answer that is not the object waited for, ends it at once. A poll
// refused with 429 and a Retry-After is next sent when the server said,
// when that fits before ctx's deadline; otherwise the wait ends at once
// with the error, which says when to try again. When ctx ends, the wait
// returns the last status it saw with an error wrapping ctx.Err().
type WaitOption interface{ applyWait(*waitSettings) }

type waitOptionFunc func(*waitSettings)

func (f waitOptionFunc) applyWait(w *waitSettings) { f(w) }

type waitSettings struct {
	initial, max time.Duration
	timeout      time.Duration // 0: until ctx ends
	onStatus     any           // a func(T) for the T waited for
}

// ErrWaitTimeout ends a wait that reached its WithWaitTimeout. It wraps
// context.DeadlineExceeded, so a caller can treat it as the deadline of a
// context.
var ErrWaitTimeout = fmt.Errorf("wait timed out: %w", context.DeadlineExceeded)

// WithWaitTimeout bounds the wait to d, measured on the client's clock
// (see WithClock): the last poll is made when d runs out, and if the
// object is still not done the wait returns it with an error wrapping
// ErrWaitTimeout. Unlike a context deadline, a test's clock runs it in no
// wall time. 0 means no bound but ctx's.
func WithWaitTimeout(d time.Duration) WaitOption {
	return waitOptionFunc(func(w *waitSettings) {
		if d > 0 {
			w.timeout = d
		}
	})
}

// WithPollInterval sets the first delay between polls and its cap
// (defaults DefaultPollInitial and DefaultPollMax). The delay before each
// poll is initial + 10% of the time waited so far, up to the cap, jittered
// down by up to 5%: how late a finished job is noticed stays within
// initial + 10% of its run time.
func WithPollInterval(initial, maxDelay time.Duration) WaitOption {
	return waitOptionFunc(func(w *waitSettings) {
		if initial > 0 {
			w.initial = initial
		}
		if maxDelay >= w.initial {
			w.max = maxDelay
		}
	})
}

// WithStatusCallback registers fn, called with the object after every
// poll: a func(*AgentJob) for AgentJobs.Wait, and so on for each kind of
// wait. A callback of another type makes the wait fail before any request.
func WithStatusCallback[T any](fn func(T)) WaitOption {
	return waitOptionFunc(func(w *waitSettings) { w.onStatus = fn })
}

// poller is what one kind of wait needs: how to read the object, and
// which of its states end the wait.
type poller[T any] struct {
	what     string // "agent job 123", for errors
	read     func(context.Context) (T, error)
	terminal func(T) bool
}

// maxTransientErrors is how many reads in a row may fail with a transient
// error (after the request's own retries) before the wait ends.
const maxTransientErrors = 3

// delay is the delay before the next poll, elapsed time after the wait
// began. It grows geometrically (initial + elapsed/10, about ×1.1 a poll)
// up to max, then is jittered down by up to 5%. Tying the delay to the
// elapsed time bounds how late the waiter notices a finished job: at most
// initial + 10% of the job's run time (until max), while a 5-minute job
// takes under 40 polls with the defaults (1 s, 20 s).
func (w waitSettings) delay(elapsed time.Duration) time.Duration {
	d := min(w.initial+elapsed/10, w.max)
	return d - rand.N(d/20+1)
}

// poll is the SDK's one waiting loop: it reads p's object on the options'
// schedule, on the client's clock, until p.terminal holds, and returns it.
// Otherwise it returns the last object read (T's zero value if none) with
// an error naming p.what: ctx ended (wrapping ctx.Err()), the timeout
// passed (wrapping ErrWaitTimeout; one last read is made when it runs
// out), a read failed with an error that is not transient (isTransient),
// maxTransientErrors reads in a row failed, or the server asked to wait
// (a 429's Retry-After) longer than the timeout or ctx's deadline leaves.
func poll[T any](ctx context.Context, k *core, p poller[T], opts []WaitOption) (T, error) {
	w := waitSettings{initial: DefaultPollInitial, max: DefaultPollMax}
	for _, opt := range opts {
		if opt != nil {
			opt.applyWait(&w)
		}
	}
	var last T
	onStatus, ok := w.onStatus.(func(T))
	if w.onStatus != nil && !ok {
		return last, &ValidationError{Field: "WithStatusCallback", Rule: fmt.Sprintf("takes a %T here, not a %T", onStatus, w.onStatus)}
	}
	clock := k.clock
	start := clock.Now()
	failures := 0
	delay := w.delay(0)
	for {
		if w.timeout > 0 {
			left := w.timeout - clock.Now().Sub(start)
			if left <= 0 {
				return last, fmt.Errorf("waiting for %s: %w after %s", p.what, ErrWaitTimeout, w.timeout)
			}
			delay = min(delay, left)
		}
		if err := clock.Sleep(ctx, delay); err != nil {
			return last, fmt.Errorf("waiting for %s: %w", p.what, err)
		}
		delay = w.delay(clock.Now().Sub(start))
		v, err := p.read(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return last, fmt.Errorf("waiting for %s: %w", p.what, ctx.Err())
			}
			failures++
			if !isTransient(err) || failures >= maxTransientErrors {
				return last, fmt.Errorf("waiting for %s: %w", p.what, err)
			}
			if after := retryAfter(err); after > 0 {
				// A wait the server asks for that outlasts ours ends it
				// now, with the error that says when to come back.
				outlasts := w.timeout > 0 && clock.Now().Sub(start)+after >= w.timeout
				if outlasts || !transport.FitsBeforeDeadline(ctx, after) {
					return last, fmt.Errorf("waiting for %s: %w", p.what, err)
				}
				delay = after
			}
			continue
		}
		failures = 0
		last = v
		if onStatus != nil {
			onStatus(v)
		}
		if p.terminal(v) {
			return v, nil
		}
	}
}

// retryAfter is the wait a failed request's server asked for (0: none).
func retryAfter(err error) time.Duration {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.RetryAfter
	}
	return 0
}

// isTransient reports whether a failed request may succeed if made again
// later: a 429, a 5xx other than 501, or no response at all. A malformed
// answer would be malformed again.
func isTransient(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode == http.StatusTooManyRequests || transport.ServerFailedTransiently(apiErr.StatusCode)
	}
	return !IsValidation(err) && !IsMalformedResponse(err) && !errors.Is(err, ErrNotConfigured)
}
