package sdk

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/wire"
)

// ErrResponseTooLarge is returned when a response body exceeds the client's
// cap (WithMaxResponseBytes). It is not retried.
var ErrResponseTooLarge = errors.New("response body too large")

// escapePath joins path segments, escaping each one so that a project id
// such as "acme docs/β" stays a single segment.
func escapePath(segments ...string) string {
	var b strings.Builder
	for _, s := range segments {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(s))
	}
	return b.String()
}

// call is one API call: what to send and where.
type call struct {
	method string
	// path is the escaped path as the API documents it (what errors and
	// logs name): below the client's base URL once prefix, the base
	// URL's own path in the API's documentation (/discovery, ...), is
	// taken off.
	path   string
	prefix string
	query  url.Values
	body   any // encoded as JSON when not nil

	// target, when set, is an absolute URL sent to instead of base + path,
	// without the API key (a presigned download link on another host).
	// Its query is a secret: only path is named in errors and logs.
	target *url.URL
	// header holds extra request headers (a download's Range).
	header http.Header
	// secretsIn, when set, finds the secrets a 2xx answer hands the
	// client (a bundle's link): they are learned before the answer is
	// logged or decoded.
	secretsIn func(body []byte) []string
}

// url is where the call goes.
func (c call) url(base *url.URL) *url.URL {
	if c.target != nil {
		return c.target
	}
	u := *base
	u.RawPath = base.EscapedPath() + strings.TrimPrefix(c.path, c.prefix)
	u.Path, _ = url.PathUnescape(u.RawPath) // both parts are valid escaped paths
	u.RawQuery = c.query.Encode()
	return &u
}

// post is a POST of the client's API: path (escaped, below the base
// URL) named as the API documents it, under the client's documented
// prefix (POST /discovery/v1/search/acme, not POST /v1/search/acme).
func (k *core) post(path string, body any) call {
	return call{method: http.MethodPost, path: k.docPrefix + path, prefix: k.docPrefix, body: body}
}

// loggedQuery is the query string shown in logs: none for a presigned link.
func (c call) loggedQuery(u *url.URL) string {
	if c.target != nil {
		return ""
	}
	return u.RawQuery
}

// roundTrip sends the call until it gets a 2xx answer, whose whole
// (capped) body it returns, or a final error.
func (k *core) roundTrip(ctx context.Context, c call) ([]byte, ResponseInfo, error) {
	a, info, err := k.exchange(ctx, c, false)
	return a.data, info, err
}

// stream sends the call like roundTrip but returns the 2xx response with
// its body unread, for answers read as they arrive (an assistant's
// streamed answer, a download). The caller closes the body; ctx ending
// closes it too. The request timeout bounds the wait for the headers.
func (k *core) stream(ctx context.Context, c call) (*http.Response, ResponseInfo, error) {
	a, info, err := k.exchange(ctx, c, true)
	return a.resp, info, err
}

// exchange is the retry loop every call goes through.
//
// Retry policy: a 429 is retried on every method, because the server refused
// the request without acting on it. A 5xx (except 501), a broken connection
// or an attempt that timed out is retried only on GET: a POST that may have
// reached the server is never sent twice, since a duplicate agent job costs
// money and one of the project's hourly creations. A POST whose connection
// was never opened (dial error) did not reach the server and is retried.
// A wait the server asks for (Retry-After) that is longer than the client's
// limit, or than the caller's deadline leaves, fails at once instead.
func (k *core) exchange(ctx context.Context, c call, stream bool) (attemptResult, ResponseInfo, error) {
	var body []byte
	if c.body != nil {
		var err error
		if body, err = json.Marshal(c.body); err != nil {
			return attemptResult{}, ResponseInfo{}, fmt.Errorf("encoding %s %s request: %w", c.method, c.path, err)
		}
	}
	u := c.url(k.baseURL)
	for attempt := 1; ; attempt++ {
		if ctxErr := ctx.Err(); ctxErr != nil {
			// Earlier attempts, if any, were refused (429) or never sent:
			// this call has not reached the server.
			return attemptResult{}, ResponseInfo{}, &RequestError{Method: c.method, Path: c.path, Attempts: attempt - 1, Err: ctxErr}
		}
		start := time.Now()
		a := k.send(ctx, c, u, body, stream)
		if c.secretsIn != nil && a.err == nil && a.status/100 == 2 {
			k.learn(c.secretsIn(a.data))
		}
		if k.requestHook != nil {
			k.requestHook(ctx, RequestInfo{Method: c.method, Path: c.path, Query: c.loggedQuery(u), Attempt: attempt,
				StatusCode: a.status, RequestID: k.requestID(a.header), Duration: time.Since(start), Err: a.err})
		}
		retriesLeft := attempt <= k.maxRetries
		if a.err != nil {
			reqErr := &RequestError{Method: c.method, Path: c.path, Attempts: attempt, Sent: a.sent, Err: a.err}
			if ctxErr := ctx.Err(); ctxErr != nil && c.method == http.MethodGet {
				reqErr.Err = ctxErr
				return attemptResult{}, ResponseInfo{}, reqErr
			}
			if retriesLeft && retryableFailure(c.method, a.err) {
				if sleepErr := k.clock.Sleep(ctx, k.backoff(attempt)); sleepErr != nil {
					reqErr.Err = fmt.Errorf("%w (after: %w)", sleepErr, a.err)
					return attemptResult{}, ResponseInfo{}, reqErr
				}
				continue
			}
			return attemptResult{}, ResponseInfo{}, reqErr
		}
		if a.status >= 200 && a.status < 300 {
			now := k.clock.Now()
			return a, ResponseInfo{RequestID: k.requestID(a.header), Attempts: attempt, Pages: 1, RateLimit: parseRateLimit(a.header, now)}, nil
		}

		apiErr := k.newAPIError(c, a.status, a.header, a.data)
		apiErr.Attempts = attempt
		retryable := a.status == http.StatusTooManyRequests || (c.method == http.MethodGet && serverFailedTransiently(a.status))
		if !retryable || !retriesLeft || apiErr.RetryAfter > k.maxRetryAfter || !fitsBeforeDeadline(ctx, apiErr.RetryAfter) {
			return attemptResult{}, ResponseInfo{}, apiErr
		}
		wait := apiErr.RetryAfter
		if wait <= 0 {
			wait = k.backoff(attempt)
		}
		if sleepErr := k.clock.Sleep(ctx, wait); sleepErr != nil {
			return attemptResult{}, ResponseInfo{}, fmt.Errorf("%w (while waiting to retry: %w)", apiErr, sleepErr)
		}
	}
}

// fitsBeforeDeadline reports whether waiting d still leaves time before
// ctx's deadline: a wait past it would only end in the deadline's error,
// hiding when the server said to come back.
func fitsBeforeDeadline(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return !ok || d < time.Until(deadline)
}

// retryableFailure reports whether an attempt that got no answer may be
// tried again: any GET (reads are safe), and a POST whose connection never
// opened. An oversized body would be oversized again, and a refused
// redirect would be refused again: neither is worth a request.
func retryableFailure(method string, err error) bool {
	var redirect *redirectError
	if errors.Is(err, ErrResponseTooLarge) || errors.As(err, &redirect) {
		return false
	}
	return method == http.MethodGet || isDialError(err)
}

// attemptResult is the outcome of one HTTP exchange.
type attemptResult struct {
	status int
	data   []byte         // the body, when read whole
	resp   *http.Response // a 2xx stream, its body unread
	header http.Header
	err    error
	// sent is false only when the request certainly never left this
	// machine; when in doubt it is true.
	sent bool
}

// send makes one attempt. The request timeout bounds it until the answer
// is read (a stream: until its headers). A POST, once on the wire, may
// create an object: until its answer's headers arrive, it is awaited for a
// short grace (WithSentRequestGrace) even after ctx ends, so the caller
// still learns the new object's id and can record it.
func (k *core) send(ctx context.Context, c call, u *url.URL, body []byte, stream bool) attemptResult {
	var attemptCtx context.Context
	var cancel context.CancelFunc
	var graceOver, headersIn atomic.Bool
	stopWatch := func() bool { return true }
	if c.method == http.MethodGet || c.method == http.MethodHead {
		attemptCtx, cancel = context.WithCancel(ctx)
	} else {
		attemptCtx, cancel = context.WithCancel(context.WithoutCancel(ctx))
		stopWatch = context.AfterFunc(ctx, func() {
			if headersIn.Load() || k.sentGrace == 0 {
				graceOver.Store(!headersIn.Load())
				cancel()
				return
			}
			t := time.NewTimer(k.sentGrace)
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
	if k.requestTimeout > 0 {
		timer = time.AfterFunc(k.requestTimeout, func() { timedOut.Store(true); cancel() })
	}
	release := sync.OnceFunc(func() {
		if timer != nil {
			timer.Stop()
		}
		stopWatch()
		cancel()
	})
	a := k.sendWith(attemptCtx, c, u, body, stream, &headersIn, timer)
	if a.resp == nil {
		release()
	} else {
		a.resp.Body = &releasingBody{ReadCloser: a.resp.Body, release: release}
	}
	if a.err != nil {
		switch {
		case timedOut.Load() && ctx.Err() == nil:
			a.err = fmt.Errorf("no response within %s (the request timeout): %w", k.requestTimeout, a.err)
		case graceOver.Load():
			a.err = fmt.Errorf("the caller stopped waiting (%w) and no answer came within %s more: %w", ctx.Err(), k.sentGrace, a.err)
		}
	}
	return a
}

// releasingBody frees an attempt's timer and context when the caller
// closes a streamed body.
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
func (k *core) sendWith(ctx context.Context, c call, u *url.URL, body []byte, stream bool, headersIn *atomic.Bool, timer *time.Timer) attemptResult {
	// The trace tells a request that never left (no headers written) from
	// one that may have reached the server.
	var gotConn, wroteHeaders atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		GetConn:      func(string) { gotConn.Store(true) },
		WroteHeaders: func() { wroteHeaders.Store(true) },
	})
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, c.method, u.String(), reader)
	if err != nil {
		return attemptResult{err: err}
	}
	if c.target == nil {
		req.Header.Set("Authorization", "Bearer "+k.apiKey)
		req.Header.Set("Accept", "application/json")
	}
	req.Header.Set("User-Agent", k.userAgent)
	for name, values := range c.header {
		req.Header[name] = values
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := k.httpClient.Do(req)
	if err != nil {
		// Without the trace (a custom transport) only errors that cannot
		// happen after sending prove the request never left.
		sent := wroteHeaders.Load() || (!gotConn.Load() && !isPreSendError(err))
		if c.target != nil {
			err = redactURLError(err)
		}
		return attemptResult{err: err, sent: sent}
	}
	if stream && resp.StatusCode >= 200 && resp.StatusCode < 300 {
		headersIn.Store(true)
		if timer != nil {
			timer.Stop()
		}
		return attemptResult{status: resp.StatusCode, resp: resp, header: resp.Header, sent: true}
	}
	// The attempt's timer bounds the body's time: a trickle ends with it.
	defer resp.Body.Close()
	data, err := io.ReadAll(newBoundedBody(resp.Body, bodyBounds{maxBytes: k.maxResponseBytes}))
	var tooLarge *LimitError
	switch {
	case errors.As(err, &tooLarge):
		return attemptResult{status: resp.StatusCode, header: resp.Header, sent: true, err: tooLarge}
	case err != nil:
		// The connection broke mid-body: treat it like a dropped connection.
		return attemptResult{err: fmt.Errorf("reading response (status %d): %w", resp.StatusCode, err), sent: true}
	}
	return attemptResult{status: resp.StatusCode, data: data, header: resp.Header, sent: true}
}

// decodeWith reads a 2xx body into out with read, and removes the client's
// secrets from every string in out: a server or proxy echoing the
// request's headers must not put the key into Terraform state or a
// program's output. It reports whether it had to.
func (k *core) decodeWith(c call, data []byte, out any, read func([]byte) error) (redacted bool, err error) {
	err = read(data)
	// A partial decode (a job whose id arrived beside a malformed field)
	// still reaches the caller, so it is redacted too.
	if k.mayHoldSecret(data) {
		redacted = redactStrings(out, k.secretList())
	}
	if err == nil {
		return redacted, nil
	}
	return redacted, k.malformed(c, data, err)
}

// malformed turns a decoder's complaint into the error callers see.
func (k *core) malformed(c call, data []byte, err error) *MalformedResponseError {
	m := &MalformedResponseError{Method: c.method, Path: c.path}
	var fields wire.Problems
	if errors.As(err, &fields) {
		m.Problems = make([]string, len(fields))
		for i, s := range fields {
			m.Problems[i] = k.redact(s)
		}
		return m
	}
	m.Problems = []string{"the body is not the API's JSON: " + k.redact(err.Error())}
	m.BodyStart = k.snippet(data)
	return m
}

// serverFailedTransiently reports whether a status is a server failure that
// may not repeat: any 5xx but 501, which says the request is never supported.
func serverFailedTransiently(status int) bool {
	return status >= 500 && status != http.StatusNotImplemented
}

func isDialError(err error) bool {
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "dial"
}

// isPreSendError reports whether err can only happen before a request is
// written: the connection was not opened, the name did not resolve, or the
// TLS handshake failed.
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

// backoff is the jittered exponential delay before retry number attempt
// (1-based): min·2^(attempt-1), capped at max, then jittered into [d/2, d]
// so that many clients refused together do not return together.
func (k *core) backoff(attempt int) time.Duration {
	d := k.retryMinBackoff
	for i := 1; i < attempt && d < k.retryMaxBackoff; i++ {
		d *= 2
	}
	d = min(d, k.retryMaxBackoff)
	return d/2 + rand.N(d/2+1)
}

// requestID is the id the server gave a request, redacted.
func (k *core) requestID(h http.Header) string {
	for _, name := range requestIDHeaders {
		if v := h.Get(name); v != "" {
			return DisplayLine(k.redact(v))
		}
	}
	return ""
}

type errorBody struct {
	Error   json.RawMessage `json:"error"`
	Message string          `json:"message"`
	Details []ErrorDetail   `json:"details"`
}

func (k *core) newAPIError(c call, status int, header http.Header, data []byte) *APIError {
	e := &APIError{StatusCode: status, Method: c.method, Path: c.path, RequestID: k.requestID(header)}
	if status >= 300 && status < 400 && c.method != http.MethodGet {
		// The SDK follows no redirect for a POST, which would re-send a
		// prompt or turn into a GET. (A GET's redirect is followed; one
		// that reaches here had nowhere to go, and is said as it came.)
		e.Message = fmt.Sprintf("redirected to %q; a POST is never followed to another address", clip(k.redact(header.Get("Location")), 200))
		return e
	}
	now := k.clock.Now() // one instant: an HTTP-date and RetryAt must agree
	if d, ok := parseRetryAfter(header.Get("Retry-After"), now); ok {
		e.RetryAfter, e.RetryAt = d, now.Add(d)
	}
	var eb errorBody
	if wire.CheckLists(data) == nil && json.Unmarshal(data, &eb) == nil && (len(eb.Error) > 0 || eb.Message != "" || len(eb.Details) > 0) {
		var msg string
		if json.Unmarshal(eb.Error, &msg) != nil {
			msg = clip(string(eb.Error), MaxDisplayLine) // an object or number: keep its start verbatim
		}
		if msg == "" || msg == "null" {
			msg = eb.Message
		}
		e.Message = DisplayLine(k.redact(msg))
		for i, d := range eb.Details {
			if i == maxErrorDetails {
				e.Details = append(e.Details, ErrorDetail{Message: fmt.Sprintf("and %d more", len(eb.Details)-i)})
				break
			}
			e.Details = append(e.Details, ErrorDetail{Message: DisplayLine(k.redact(d.Message))})
		}
		return e
	}
	if msg, ok := objectStorageError(data); ok {
		e.Message = DisplayLine(k.redact(msg))
		return e
	}
	e.Message = k.snippet(data)
	return e
}

// maxErrorDetails bounds how many of an error body's details an error
// keeps: a server may send thousands.
const maxErrorDetails = 10

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP-date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
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
