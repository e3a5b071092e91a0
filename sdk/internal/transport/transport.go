// Package transport sends one API call over HTTP until it has a final
// outcome: the attempt loop, and the policy it follows (which failures are
// retried, how long to wait, whether a request may have reached the
// server). It is separate from package sdk so the rules that protect the
// API's budgets and keep a POST from being sent twice are in one place,
// tested on their own; package sdk builds each request (path, key,
// headers), logs the attempts and turns a Result into its public errors.
package transport

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// Clock is the time the loop waits on (backoff, Retry-After) and reads
// (when a Retry-After date falls).
type Clock interface {
	Now() time.Time
	// Sleep waits for d or until ctx is done, and returns ctx.Err() when
	// ctx ended the wait.
	Sleep(ctx context.Context, d time.Duration) error
}

// Policy is how a client sends: its HTTP client and bounds.
type Policy struct {
	Client *http.Client
	Clock  Clock
	// MaxRetries is how many times a retryable attempt is tried again.
	MaxRetries int
	// MaxRetryAfter is the longest Retry-After waited through; a longer
	// one ends the call at once.
	MaxRetryAfter time.Duration
	// MinBackoff and MaxBackoff bound the jittered exponential backoff
	// between retries the server gave no Retry-After for.
	MinBackoff, MaxBackoff time.Duration
	// MaxResponseBytes caps a body read whole (0: no cap).
	MaxResponseBytes int64
	// RequestTimeout bounds one attempt, until its answer is read (a
	// stream: until its headers); 0: no bound.
	RequestTimeout time.Duration
	// SentGrace is how long a request that is not a GET or HEAD, once
	// sent, is awaited after the caller's context ends.
	SentGrace time.Duration
}

// Request is one call: what to send, the same on every attempt.
type Request struct {
	Method string
	URL    string
	// Header is sent on every attempt.
	Header http.Header
	// Body is sent on every attempt (nil: none).
	Body []byte
	// Stream returns a 2xx answer with its body unread (Result.Response).
	Stream bool
	// SecretURL marks a URL whose query is a secret (a presigned link):
	// errors name it without its query.
	SecretURL bool
	// Attempted, when set, is called after each attempt, before the
	// loop decides whether to try again.
	Attempted func(Attempt)
}

// Attempt is one attempt, as Request.Attempted sees it.
type Attempt struct {
	Number   int // 1 for the first
	Status   int // 0 when no answer came
	Header   http.Header
	Body     []byte // the body, when read whole
	Err      error
	Duration time.Duration
}

// Result is a call's final outcome: an answer (Err nil: a 2xx, or the
// last refusal, Status not 2xx) or no answer (Err set).
type Result struct {
	// Attempts is how many attempts were made.
	Attempts int
	Status   int
	Header   http.Header
	// Body is the answer read whole; Response a 2xx stream, its body
	// unread: the caller closes it.
	Body     []byte
	Response *http.Response
	// RetryAfter is the wait a refusal asked for, and RetryAt when it
	// ends, both zero when it asked for none (or when the answer is not
	// a refusal).
	RetryAfter time.Duration
	RetryAt    time.Time
	// WaitErr is why the wait before retrying a refusal ended (the
	// caller's context): the call ends with the refusal.
	WaitErr error
	// Err is why no answer came (the transport's error, the caller's
	// context, an oversized body, a refused redirect).
	Err error
	// Sent is false only when the last attempt certainly never left this
	// machine (when Err is set); when in doubt it is true.
	Sent bool
}

// OK reports whether the result is a 2xx answer.
func (r Result) OK() bool { return r.Err == nil && r.Status/100 == 2 }

// Do sends req until it gets a 2xx answer or a final outcome.
//
// Retry policy: a 429 is retried on every method, because the server
// refused the request without acting on it. A 5xx (except 501), a broken
// connection or an attempt that timed out is retried only on GET: a POST
// that may have reached the server is never sent twice. A POST whose
// connection was never opened (dial error) did not reach the server and is
// retried. A wait the server asks for (Retry-After) that is longer than
// the policy's limit, or than the caller's deadline leaves, ends the call
// at once instead.
func Do(ctx context.Context, p Policy, req Request) Result {
	for attempt := 1; ; attempt++ {
		if ctxErr := ctx.Err(); ctxErr != nil {
			// Earlier attempts, if any, were refused (429) or never sent:
			// this call has not reached the server.
			return Result{Attempts: attempt - 1, Err: ctxErr}
		}
		start := time.Now()
		a := send(ctx, p, req)
		if req.Attempted != nil {
			req.Attempted(Attempt{Number: attempt, Status: a.status, Header: a.header, Body: a.data, Err: a.err, Duration: time.Since(start)})
		}
		retriesLeft := attempt <= p.MaxRetries
		if a.err != nil {
			r := Result{Attempts: attempt, Sent: a.sent, Err: a.err}
			if ctxErr := ctx.Err(); ctxErr != nil && req.Method == http.MethodGet {
				r.Err = ctxErr
				return r
			}
			if retriesLeft && retryableFailure(req.Method, a.err) {
				if sleepErr := p.Clock.Sleep(ctx, Backoff(attempt, p.MinBackoff, p.MaxBackoff)); sleepErr != nil {
					r.Err = fmt.Errorf("%w (after: %w)", sleepErr, a.err)
					return r
				}
				continue
			}
			return r
		}
		r := Result{Attempts: attempt, Status: a.status, Header: a.header, Body: a.data, Response: a.resp, Sent: true}
		if r.OK() {
			return r
		}
		now := p.Clock.Now() // one instant: an HTTP-date and RetryAt must agree
		if d, ok := ParseRetryAfter(a.header.Get("Retry-After"), now); ok {
			r.RetryAfter, r.RetryAt = d, now.Add(d)
		}
		retryable := a.status == http.StatusTooManyRequests || (req.Method == http.MethodGet && ServerFailedTransiently(a.status))
		if !retryable || !retriesLeft || r.RetryAfter > p.MaxRetryAfter || !FitsBeforeDeadline(ctx, r.RetryAfter) {
			return r
		}
		wait := r.RetryAfter
		if wait <= 0 {
			wait = Backoff(attempt, p.MinBackoff, p.MaxBackoff)
		}
		if sleepErr := p.Clock.Sleep(ctx, wait); sleepErr != nil {
			r.WaitErr = sleepErr
			return r
		}
	}
}
