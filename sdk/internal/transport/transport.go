// Package transport sends one API call over HTTP until it has a final
// outcome (Do): which failures are retried, how long to wait, whether a
// request may have reached the server, a sent POST's grace. The redirect
// guard is redirect.go.
package transport

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// Clock is the time the loop waits on and reads (sdk.Clock).
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// WallClock is the real time: the clock of a client given none.
type WallClock struct{}

// Now is time.Now.
func (WallClock) Now() time.Time { return time.Now() }

// Sleep waits for d (not at all when d is not positive) or until ctx is
// done, and returns ctx.Err() when ctx ended the wait.
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

// Policy is how a client sends (the sdk options of the same names; zero
// MaxResponseBytes and RequestTimeout: no bound).
type Policy struct {
	Client                 *http.Client
	Clock                  Clock
	MaxRetries             int
	MaxRetryAfter          time.Duration
	MinBackoff, MaxBackoff time.Duration
	MaxResponseBytes       int64
	// RequestTimeout bounds one attempt until its answer is read (a
	// stream: its headers).
	RequestTimeout time.Duration
	// SentGrace is how long a sent request that is not a GET or HEAD is
	// awaited after the caller's context ends.
	SentGrace time.Duration
}

// Request is one call, the same on every attempt.
type Request struct {
	Method string
	URL    string
	Header http.Header
	Body   []byte // nil: none
	// Stream returns a 2xx answer with its body unread (Response).
	Stream bool
	// SecretURL: the URL's query is a secret, never named in errors.
	SecretURL bool
}

// Attempt is one attempt of a call: an answer (Err nil), or why none came.
type Attempt struct {
	Status int // 0 when no answer came
	Header http.Header
	// Body is the answer read whole; Response a 2xx stream, its body
	// unread, for the caller to close.
	Body     []byte
	Response *http.Response
	Err      error
	// Sent is false only when the attempt certainly never left this
	// machine.
	Sent     bool
	Duration time.Duration
}

// OK reports whether the attempt got a 2xx answer.
func (a Attempt) OK() bool { return a.Err == nil && a.Status/100 == 2 }

// Result is a call's outcome: its last attempt (a 2xx answer, the last
// refusal, or none), what a refusal asked for, and every attempt made.
type Result struct {
	Attempt
	// Tries are the attempts made, in order, without bodies.
	Tries []Attempt
	// RetryAfter is the wait a refusal asked for, RetryAt when it ends.
	RetryAfter time.Duration
	RetryAt    time.Time
	// WaitErr is why the wait before a retry ended: the call ends with
	// the refusal.
	WaitErr error
}

// Do sends req until it gets a 2xx answer or a final outcome. A 429 is
// retried on every method (the server did not act on it); a 5xx but 501,
// a broken connection or a timeout only on GET, so a POST that may have
// reached the server is never sent twice; a connection never opened
// always. A Retry-After past the policy's limit, or the caller's
// deadline, ends the call at once.
func Do(ctx context.Context, p Policy, req Request) Result {
	var r Result
	for attempt := 1; ; attempt++ {
		if ctxErr := ctx.Err(); ctxErr != nil {
			// Earlier attempts, if any, were refused or never sent.
			r.Attempt = Attempt{Err: ctxErr}
			return r
		}
		start := time.Now()
		r.RetryAfter, r.RetryAt = 0, time.Time{}
		r.Attempt = send(ctx, p, req)
		r.Duration = time.Since(start)
		logged := r.Attempt
		logged.Body, logged.Response = nil, nil
		r.Tries = append(r.Tries, logged)
		retriesLeft := attempt <= p.MaxRetries
		if r.Err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil && req.Method == http.MethodGet {
				r.Err = ctxErr
				return r
			}
			if retriesLeft && retryableFailure(req.Method, r.Err) {
				if sleepErr := p.Clock.Sleep(ctx, Backoff(attempt, p.MinBackoff, p.MaxBackoff)); sleepErr != nil {
					r.Err = fmt.Errorf("%w (after: %w)", sleepErr, r.Err)
					return r
				}
				continue
			}
			return r
		}
		if r.OK() {
			return r
		}
		now := p.Clock.Now() // one instant: an HTTP-date and RetryAt must agree
		if d, ok := ParseRetryAfter(r.Header.Get("Retry-After"), now); ok {
			r.RetryAfter, r.RetryAt = d, now.Add(d)
		}
		retryable := r.Status == http.StatusTooManyRequests || (req.Method == http.MethodGet && ServerFailedTransiently(r.Status))
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

// send makes one attempt, bounded by the request timeout. A request that
// is not a GET or HEAD, once sent, may create an object: its answer is
// awaited for Policy.SentGrace even after ctx ends, so the caller still
// learns the new object's id.
func send(ctx context.Context, p Policy, req Request) Attempt {
	var attemptCtx context.Context
	var cancel context.CancelFunc
	var graceOver, headersIn atomic.Bool
	stopWatch := func() bool { return true }
	if req.Method == http.MethodGet || req.Method == http.MethodHead {
		attemptCtx, cancel = context.WithCancel(ctx)
	} else {
		attemptCtx, cancel = context.WithCancel(context.WithoutCancel(ctx))
		stopWatch = context.AfterFunc(ctx, func() {
			if headersIn.Load() || p.SentGrace == 0 {
				graceOver.Store(!headersIn.Load())
				cancel()
				return
			}
			t := time.NewTimer(p.SentGrace)
			defer t.Stop()
			select {
			case <-t.C:
				graceOver.Store(true)
				cancel()
			case <-attemptCtx.Done():
			}
		})
	}
	var timedOut atomic.Bool
	var timer *time.Timer
	if p.RequestTimeout > 0 {
		timer = time.AfterFunc(p.RequestTimeout, func() { timedOut.Store(true); cancel() })
	}
	release := sync.OnceFunc(func() {
		if timer != nil {
			timer.Stop()
		}
		stopWatch()
		cancel()
	})
	a := sendWith(attemptCtx, p, req, &headersIn, timer)
	if a.Response == nil {
		release()
	} else {
		a.Response.Body = &releasingBody{ReadCloser: a.Response.Body, release: release}
	}
	var bound *bounded.Error
	if a.Err != nil && !errors.As(a.Err, &bound) { // a broken bound says itself
		switch {
		case timedOut.Load() && ctx.Err() == nil:
			a.Err = fmt.Errorf("no response within %s (the request timeout): %w", p.RequestTimeout, a.Err)
		case graceOver.Load():
			a.Err = fmt.Errorf("the caller stopped waiting (%w) and no answer came within %s more: %w", ctx.Err(), p.SentGrace, a.Err)
		}
	}
	return a
}

// releasingBody frees an attempt's timer and context on Close.
type releasingBody struct {
	io.ReadCloser
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.release()
	return err
}

// sendWith performs the attempt on ctx.
func sendWith(ctx context.Context, p Policy, r Request, headersIn *atomic.Bool, timer *time.Timer) Attempt {
	// The trace tells a request that never left from one that may have.
	var gotConn, wroteHeaders atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GetConn:      func(string) { gotConn.Store(true) },
		WroteHeaders: func() { wroteHeaders.Store(true) },
	})
	var body io.Reader
	if r.Body != nil {
		body = bytes.NewReader(r.Body)
	}
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL, body)
	if err != nil {
		if r.SecretURL {
			err = redact.URLError(err)
		}
		return Attempt{Err: err}
	}
	req.Header = r.Header.Clone()
	if req.Header == nil {
		req.Header = http.Header{}
	}
	resp, err := p.Client.Do(req)
	if err != nil {
		// Without the trace (a custom transport), only pre-send errors
		// prove it never left.
		sent := wroteHeaders.Load() || (!gotConn.Load() && !isPreSendError(err))
		if r.SecretURL {
			err = redact.URLError(err)
		}
		return Attempt{Err: err, Sent: sent}
	}
	if r.Stream && resp.StatusCode >= 200 && resp.StatusCode < 300 {
		headersIn.Store(true)
		if timer != nil {
			timer.Stop()
		}
		return Attempt{Status: resp.StatusCode, Response: resp, Header: resp.Header, Sent: true}
	}
	// The attempt's timer bounds the body's time: a trickle ends with it.
	defer resp.Body.Close()
	data, err := io.ReadAll(bounded.NewReader(resp.Body, bounded.Bounds{MaxBytes: p.MaxResponseBytes}))
	var tooLarge *bounded.Error
	switch {
	case errors.As(err, &tooLarge):
		return Attempt{Status: resp.StatusCode, Header: resp.Header, Sent: true, Err: tooLarge}
	case err != nil:
		// The connection broke mid-body: treat it like a dropped connection.
		return Attempt{Err: fmt.Errorf("reading response (status %d): %w", resp.StatusCode, err), Sent: true}
	}
	return Attempt{Status: resp.StatusCode, Body: data, Header: resp.Header, Sent: true}
}

// FitsBeforeDeadline reports whether waiting d ends before ctx's deadline.
func FitsBeforeDeadline(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return !ok || d < time.Until(deadline)
}

// ServerFailedTransiently reports whether a status is a server failure
// that may not repeat: any 5xx but 501.
func ServerFailedTransiently(status int) bool {
	return status >= 500 && status != http.StatusNotImplemented
}

// retryableFailure reports whether an attempt without an answer may be
// tried again: a GET, or a request whose connection never opened; not an
// oversized body or a refused redirect, which would repeat.
func retryableFailure(method string, err error) bool {
	var redirect *redirectError
	var bound *bounded.Error
	if errors.As(err, &bound) || errors.As(err, &redirect) {
		return false
	}
	return method == http.MethodGet || isDialError(err)
}

func isDialError(err error) bool {
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}

// isPreSendError reports whether err can only happen before a request is
// written: no connection, no name, a failed TLS handshake.
func isPreSendError(err error) bool {
	var (
		dnsErr    *net.DNSError
		verifyErr *tls.CertificateVerificationError
		recordErr tls.RecordHeaderError
		unknownCA x509.UnknownAuthorityError
		hostErr   x509.HostnameError
	)
	return isDialError(err) || errors.As(err, &dnsErr) || errors.As(err, &verifyErr) ||
		errors.As(err, &recordErr) || errors.As(err, &unknownCA) || errors.As(err, &hostErr)
}

// Backoff is the delay before retry number attempt (from 1):
// minDelay·2^(attempt-1), capped at maxDelay, jittered into [d/2, d].
func Backoff(attempt int, minDelay, maxDelay time.Duration) time.Duration {
	d := minDelay
	for i := 1; i < attempt && d < maxDelay; i++ {
		d *= 2
	}
	d = min(d, maxDelay)
	return d/2 + rand.N(d/2+1)
}

// ParseRetryAfter reads a Retry-After header: seconds or an HTTP-date (a
// date past is no wait); false for none or one it cannot read.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		const maxSecs = int64(1<<63-1) / int64(time.Second)
		return time.Duration(min(secs, maxSecs)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
