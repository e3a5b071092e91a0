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
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
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

// do sends one API call: it encodes in as the JSON body (when not nil),
// retries what is safe to retry, and decodes a 2xx body into out.
func (c *Client) do(ctx context.Context, method, escPath string, query url.Values, in, out any) error {
	data, err := c.roundTrip(ctx, method, escPath, query, in)
	if err != nil {
		return err
	}
	_, err = c.decode(method, escPath, data, out)
	return err
}

// roundTrip sends the call until it gets a 2xx answer, whose body it
// returns, or a final error.
//
// Retry policy: a 429 is retried on every method, because the server refused
// the request without acting on it. A 5xx (except 501), a broken connection
// or an attempt that timed out is retried only on GET: a POST that may have
// reached the server is never sent twice, since a duplicate agent job costs
// money and one of the project's hourly creations. A POST whose connection
// was never opened (dial error) did not reach the server and is retried.
// A wait the server asks for (Retry-After) that is longer than the client's
// limit, or than the caller's deadline leaves, fails at once instead.
func (c *Client) roundTrip(ctx context.Context, method, escPath string, query url.Values, in any) ([]byte, error) {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return nil, fmt.Errorf("encoding %s %s request: %w", method, escPath, err)
		}
	}
	u := *c.baseURL
	u.RawPath = c.baseURL.EscapedPath() + escPath
	u.Path, _ = url.PathUnescape(u.RawPath) // both parts are valid escaped paths
	u.RawQuery = query.Encode()

	for attempt := 1; ; attempt++ {
		if ctxErr := ctx.Err(); ctxErr != nil {
			// Earlier attempts, if any, were refused (429) or never sent:
			// this call has not reached the server.
			return nil, &notSentError{fmt.Errorf("%s %s: %w", method, escPath, ctxErr)}
		}
		start := c.clock.Now()
		a := c.sendOnce(ctx, method, &u, body)
		if c.requestHook != nil {
			c.requestHook(ctx, RequestInfo{Method: method, Path: escPath, Query: u.RawQuery, Attempt: attempt,
				StatusCode: a.status, Duration: c.clock.Now().Sub(start), Err: a.err})
		}
		retriesLeft := attempt <= c.maxRetries
		if a.err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil && method == http.MethodGet {
				return nil, fmt.Errorf("%s %s: %w", method, escPath, ctxErr)
			}
			err := fmt.Errorf("%s %s: %w", method, escPath, a.err)
			if !a.sent {
				err = &notSentError{err}
			}
			if retriesLeft && retryableFailure(method, a.err) {
				if sleepErr := c.clock.Sleep(ctx, c.backoff(attempt)); sleepErr != nil {
					return nil, fmt.Errorf("%s %s: %w (after: %w)", method, escPath, sleepErr, a.err)
				}
				continue
			}
			return nil, err
		}
		if a.status >= 200 && a.status < 300 {
			return a.data, nil
		}

		apiErr := c.newAPIError(method, escPath, a.status, a.header, a.data)
		retryable := a.status == http.StatusTooManyRequests || (method == http.MethodGet && serverFailedTransiently(a.status))
		if !retryable || !retriesLeft || apiErr.RetryAfter > c.maxRetryAfter || !fitsBeforeDeadline(ctx, apiErr.RetryAfter) {
			return nil, apiErr
		}
		wait := apiErr.RetryAfter
		if wait <= 0 {
			wait = c.backoff(attempt)
		}
		if sleepErr := c.clock.Sleep(ctx, wait); sleepErr != nil {
			return nil, fmt.Errorf("%w (while waiting to retry: %w)", apiErr, sleepErr)
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

// DefaultSentRequestGrace is how long a POST already on the wire is awaited
// after the caller's context ends (an interrupt, a timeout): long enough for
// a normal answer to arrive, so the id of a job just created is not lost.
const DefaultSentRequestGrace = 10 * time.Second

// attempt is the outcome of one HTTP exchange.
type attempt struct {
	status int
	data   []byte
	header http.Header
	err    error
	// sent is false only when the request certainly never left this
	// machine; when in doubt it is true.
	sent bool
}

// sendOnce sends one attempt. A POST, once on the wire, may create a job:
// its answer is awaited for a short grace (DefaultSentRequestGrace) even if
// ctx ends meanwhile, so the caller still learns the job's id and can
// record it.
func (c *Client) sendOnce(ctx context.Context, method string, u *url.URL, body []byte) attempt {
	if method == http.MethodGet {
		return c.send(ctx, method, u, body)
	}
	sendCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	var graceOver atomic.Bool
	stop := context.AfterFunc(ctx, func() {
		t := time.NewTimer(c.sentGrace)
		defer t.Stop()
		select {
		case <-t.C:
			graceOver.Store(true)
			cancel()
		case <-sendCtx.Done():
		}
	})
	defer stop()
	a := c.send(sendCtx, method, u, body)
	if a.err != nil && graceOver.Load() {
		a.err = fmt.Errorf("the caller stopped waiting (%w) and no answer came within %s more: %w", ctx.Err(), c.sentGrace, a.err)
	}
	return a
}

// send performs one HTTP attempt, bounded by the request timeout, and reads
// the whole (capped) body.
func (c *Client) send(ctx context.Context, method string, u *url.URL, body []byte) attempt {
	parent := ctx
	if c.requestTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.requestTimeout)
		defer cancel()
	}
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
	req, err := http.NewRequestWithContext(ctx, method, u.String(), reader)
	if err != nil {
		return attempt{err: err}
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	timedOut := func(err error) error {
		if ctx.Err() != nil && parent.Err() == nil {
			return fmt.Errorf("no response within %s (the request timeout): %w", c.requestTimeout, err)
		}
		return err
	}
	resp, err := c.httpClient.Do(req)
	if err != nil {
		// Without the trace (a custom transport) only errors that cannot
		// happen after sending prove the request never left.
		sent := wroteHeaders.Load() || (!gotConn.Load() && !isPreSendError(err))
		return attempt{err: timedOut(err), sent: sent}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxResponseBytes+1))
	if err != nil {
		// The connection broke mid-body: treat it like a dropped connection.
		return attempt{err: timedOut(fmt.Errorf("reading response (status %d): %w", resp.StatusCode, err)), sent: true}
	}
	if int64(len(data)) > c.maxResponseBytes {
		return attempt{status: resp.StatusCode, header: resp.Header, sent: true,
			err: fmt.Errorf("%w: over %d bytes", ErrResponseTooLarge, c.maxResponseBytes)}
	}
	return attempt{status: resp.StatusCode, data: data, header: resp.Header, sent: true}
}

// decode reads a 2xx body into out and removes the API key from every
// string in it: a server or proxy echoing the request's headers must not
// put the key into Terraform state or a program's output. It reports
// whether it had to.
func (c *Client) decode(method, escPath string, data []byte, out any) (redacted bool, err error) {
	if out == nil {
		return false, nil
	}
	if u, ok := out.(json.Unmarshaler); ok {
		// The SDK's own decoders check their input themselves: calling
		// them directly spares encoding/json's validating pass over the
		// whole body before it would call them anyway.
		err = u.UnmarshalJSON(data)
	} else {
		err = json.Unmarshal(data, out)
	}
	// A partial decode (a job whose id arrived beside a malformed field)
	// still reaches the caller, so it is redacted too.
	if c.apiKey != "" && (bytes.Contains(data, []byte(c.apiKey)) || bytes.IndexByte(data, '\\') >= 0) {
		// Only a body holding the key, or escapes that could spell it,
		// needs the walk.
		redacted = redactStrings(out, c.apiKey)
	}
	if err == nil {
		return redacted, nil
	}
	m := &MalformedResponseError{Method: method, Path: escPath}
	var fields fieldProblems
	if errors.As(err, &fields) {
		m.Problems = c.redactAll(fields)
	} else {
		m.Problems = []string{c.redact(err.Error())}
		m.BodyStart = c.snippet(data)
	}
	return redacted, m
}

func (c *Client) redactAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = c.redact(s)
	}
	return out
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
func (c *Client) backoff(attempt int) time.Duration {
	d := c.retryMinBackoff
	for i := 1; i < attempt && d < c.retryMaxBackoff; i++ {
		d *= 2
	}
	d = min(d, c.retryMaxBackoff)
	return d/2 + rand.N(d/2+1)
}

type errorBody struct {
	Error   json.RawMessage `json:"error"`
	Message string          `json:"message"`
	Details []ErrorDetail   `json:"details"`
}

func (c *Client) newAPIError(method, escPath string, status int, header http.Header, data []byte) *APIError {
	e := &APIError{StatusCode: status, Method: method, Path: escPath}
	for _, h := range []string{"X-Request-Id", "Request-Id", "X-Amzn-Requestid"} {
		if v := header.Get(h); v != "" {
			e.RequestID = c.redact(v)
			break
		}
	}
	if status >= 300 && status < 400 {
		// Only a POST's redirect reaches here: the SDK follows no redirect
		// for a POST, which would re-send a prompt or turn into a GET.
		e.Message = fmt.Sprintf("redirected to %q; a POST is never followed to another address", c.redact(header.Get("Location")))
		return e
	}
	now := c.clock.Now() // one instant: an HTTP-date and RetryAt must agree
	if d, ok := parseRetryAfter(header.Get("Retry-After"), now); ok {
		e.RetryAfter, e.RetryAt = d, now.Add(d)
	}
	var eb errorBody
	if json.Unmarshal(data, &eb) == nil && (len(eb.Error) > 0 || eb.Message != "" || len(eb.Details) > 0) {
		var msg string
		if json.Unmarshal(eb.Error, &msg) != nil {
			msg = string(eb.Error) // an object or number: keep it verbatim
		}
		if msg == "" || msg == "null" {
			msg = eb.Message
		}
		e.Message = c.redact(msg)
		for _, d := range eb.Details {
			e.Details = append(e.Details, ErrorDetail{Message: c.redact(d.Message)})
		}
		return e
	}
	e.Message = c.snippet(data)
	return e
}

var (
	htmlTagRE    = regexp.MustCompile(`(?s)<(script|style)\b.*?</(script|style)>|<[^>]*>`)
	whitespaceRE = regexp.MustCompile(`\s+`)
)

const snippetLen = 200

// snippet turns a body that is not the API's JSON (an HTML 502 page from a
// proxy, say) into one short readable line, with the key redacted.
func (c *Client) snippet(data []byte) string {
	s := string(data)
	if len(s) > 64<<10 {
		s = s[:64<<10]
	}
	s = htmlTagRE.ReplaceAllString(s, " ")
	s = strings.Map(func(r rune) rune {
		if r < ' ' && r != '\n' && r != '\t' {
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(whitespaceRE.ReplaceAllString(s, " "))
	s = c.redact(s)
	if r := []rune(s); len(r) > snippetLen {
		s = strings.TrimSpace(string(r[:snippetLen])) + "…"
	}
	return s
}

// redact removes the API key from text that came from the server, in case a
// proxy or a misbehaving server echoes the request's headers back.
func (c *Client) redact(s string) string {
	if c.apiKey == "" {
		return s
	}
	return strings.ReplaceAll(s, c.apiKey, Redacted)
}

// Redacted replaces the API key wherever a server's answer echoed it.
const Redacted = "[REDACTED]"

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
