package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
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
//
// Retry policy: a 429 is retried on every method, because the server refused
// the request without acting on it. A 5xx (except 501) or a broken connection
// is retried only on GET: a POST that may have reached the server is never
// sent twice, since a duplicate agent job costs money and one of the
// project's hourly creations. A POST whose connection was never opened
// (dial error) did not reach the server and is retried.
func (c *Client) do(ctx context.Context, method, escPath string, query url.Values, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return fmt.Errorf("encoding %s %s request: %w", method, escPath, err)
		}
	}
	u := *c.baseURL
	u.RawPath = c.baseURL.EscapedPath() + escPath
	u.Path, _ = url.PathUnescape(u.RawPath) // escPath comes from escapePath: always valid
	u.RawQuery = query.Encode()

	for attempt := 1; ; attempt++ {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return fmt.Errorf("%s %s: %w", method, escPath, ctxErr)
		}
		start := c.clock.Now()
		status, data, header, err := c.sendOnce(ctx, method, &u, body)
		if c.requestHook != nil {
			c.requestHook(ctx, RequestInfo{Method: method, Path: escPath, Query: u.RawQuery, Attempt: attempt,
				StatusCode: status, Duration: c.clock.Now().Sub(start), Err: err})
		}
		retriesLeft := attempt <= c.maxRetries
		if err != nil {
			if ctxErr := ctx.Err(); ctxErr != nil {
				return fmt.Errorf("%s %s: %w", method, escPath, ctxErr)
			}
			// An oversized body would be oversized again: never worth a request.
			if retriesLeft && !errors.Is(err, ErrResponseTooLarge) && (method == http.MethodGet || isDialError(err)) {
				if sleepErr := c.clock.Sleep(ctx, c.backoff(attempt)); sleepErr != nil {
					return fmt.Errorf("%s %s: %w (after: %w)", method, escPath, sleepErr, err)
				}
				continue
			}
			return fmt.Errorf("%s %s: %w", method, escPath, err)
		}
		if status >= 200 && status < 300 {
			if out == nil {
				return nil
			}
			if err := json.Unmarshal(data, out); err != nil {
				return fmt.Errorf("decoding response of %s %s: %w (body starts %q)", method, escPath, err, c.snippet(data))
			}
			return nil
		}

		apiErr := c.newAPIError(method, escPath, status, header, data)
		retryable := status == http.StatusTooManyRequests || (method == http.MethodGet && serverFailedTransiently(status))
		if !retryable || !retriesLeft || apiErr.RetryAfter > c.maxRetryAfter {
			return apiErr
		}
		wait := apiErr.RetryAfter
		if wait <= 0 {
			wait = c.backoff(attempt)
		}
		if sleepErr := c.clock.Sleep(ctx, wait); sleepErr != nil {
			return fmt.Errorf("%w (while waiting to retry: %w)", apiErr, sleepErr)
		}
	}
}

// maxPOSTAnswerWait bounds how long a POST already sent waits for its
// answer after the caller's context has ended.
const maxPOSTAnswerWait = 2 * time.Minute

// sendOnce sends one attempt. A POST, once on the wire, may create a job:
// its answer is awaited even if ctx ends meanwhile (Ctrl-C, a timeout), so
// the caller still learns the job's id and can record it. The wait is
// bounded by maxPOSTAnswerWait.
func (c *Client) sendOnce(ctx context.Context, method string, u *url.URL, body []byte) (int, []byte, http.Header, error) {
	if method == http.MethodGet {
		return c.send(ctx, method, u, body)
	}
	detached, cancel := context.WithTimeout(context.WithoutCancel(ctx), maxPOSTAnswerWait)
	defer cancel()
	return c.send(detached, method, u, body)
}

// send performs one HTTP attempt and reads the whole (capped) body.
func (c *Client) send(ctx context.Context, method string, u *url.URL, body []byte) (int, []byte, http.Header, error) {
	var reader io.Reader
	if body != nil {
		reader = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), reader)
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.apiKey)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", c.userAgent)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, c.maxResponseBytes+1))
	if err != nil {
		// The connection broke mid-body: treat it like a dropped connection.
		return 0, nil, nil, fmt.Errorf("reading response (status %d): %w", resp.StatusCode, err)
	}
	if int64(len(data)) > c.maxResponseBytes {
		return resp.StatusCode, nil, resp.Header, fmt.Errorf("%w: over %d bytes", ErrResponseTooLarge, c.maxResponseBytes)
	}
	return resp.StatusCode, data, resp.Header, nil
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
	return strings.ReplaceAll(s, c.apiKey, "[REDACTED]")
}

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
