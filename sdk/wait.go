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
	// DefaultPollMax caps the delay between polls: a 5-minute job takes at
	// most 39 polls and is noticed at most 20 s late.
	DefaultPollMax = 20 * time.Second
)

// WaitOption configures a wait (AgentJobs.Wait and the others). Every wait
// polls on a schedule tied to the time waited (WithPollInterval); three
// transient failures in a row (5xx, a broken connection, a rate limit)
// end it, any other at once; a 429's Retry-After is waited out when it
// fits the deadline; when ctx ends, it returns the last status seen with
// an error wrapping ctx.Err().
type WaitOption interface{ applyWait(*waitSettings) }

type waitOptionFunc func(*waitSettings)

func (f waitOptionFunc) applyWait(w *waitSettings) { f(w) }

type waitSettings struct {
	initial, max time.Duration
	timeout      time.Duration // 0: until ctx ends
	onStatus     any           // a func(T) for the T waited for
}

// ErrWaitTimeout ends a wait that reached its WithWaitTimeout; it wraps
// context.DeadlineExceeded.
var ErrWaitTimeout = fmt.Errorf("wait timed out: %w", context.DeadlineExceeded)

// WithWaitTimeout bounds the wait to d on the client's clock (0: ctx's
// bound only): a last poll is made when d runs out, and an object still
// not done is returned with an error wrapping ErrWaitTimeout.
func WithWaitTimeout(d time.Duration) WaitOption {
	return waitOptionFunc(func(w *waitSettings) {
		if d > 0 {
			w.timeout = d
		}
	})
}

// WithPollInterval sets the first delay between polls and its cap
// (DefaultPollInitial, DefaultPollMax). Each delay is initial + 10% of the
// time waited, up to the cap, jittered down by up to 5%.
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
// poll: a func(*AgentJob) for AgentJobs.Wait, and so on. A callback of
// another type fails the wait before any request.
func WithStatusCallback[T any](fn func(T)) WaitOption {
	return waitOptionFunc(func(w *waitSettings) { w.onStatus = fn })
}

// poller is one kind of wait: how to read the object, and which states
// end the wait.
type poller[T any] struct {
	what     string // "agent job 123", for errors
	read     func(context.Context) (T, error)
	terminal func(T) bool
}

// maxTransientErrors is how many reads in a row may fail transiently.
const maxTransientErrors = 3

// delay is the delay before the next poll, elapsed after the wait began:
// initial + elapsed/10 up to max, jittered down by up to 5%, so a finished
// job is noticed at most initial + 10% of its run time late.
func (w waitSettings) delay(elapsed time.Duration) time.Duration {
	d := min(w.initial+elapsed/10, w.max)
	return d - rand.N(d/20+1)
}

// poll is the one waiting loop (WaitOption's rules): it reads p's object
// on the schedule, on the client's clock, until p.terminal holds; else it
// returns the last object read with an error naming p.what.
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

// retryAfter is the wait a refusal asked for (0: none).
func retryAfter(err error) time.Duration {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.RetryAfter
	}
	return 0
}

// isTransient reports whether a failed request may succeed later: a 429,
// a 5xx but 501, or no answer (not a malformed one).
func isTransient(err error) bool {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode == http.StatusTooManyRequests || transport.ServerFailedTransiently(apiErr.StatusCode)
	}
	return !IsValidation(err) && !IsMalformedResponse(err) && !errors.Is(err, ErrNotConfigured)
}
