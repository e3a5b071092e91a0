// Package sdk is a Go client for Mintlify's platform API: background agent
// jobs (create, get, follow-up message, wait until terminal) and the whole
// analytics export (unique visitors, page views, searches, feedback,
// feedback by page, assistant conversations, threads and caller stats),
// one page at a time, as iterators over pages and rows, or all at once.
//
// Inputs are checked before any request (*ValidationError); the API's
// refusals are *APIError; an answer the SDK will not trust is a
// *MalformedResponseError. WithAnalyticsCache spends the hourly analytics
// budget once per answer across processes. The package mintlifytest is an
// in-process fake of the API for testing code that uses this one.
//
// The package speaks HTTP and JSON only; it knows nothing of Terraform.
package sdk

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/go-cleanhttp"
)

// Version is the SDK's version, sent in the default User-Agent.
const Version = "0.1.0"

const (
	// DefaultBaseURL is the address of Mintlify's public API.
	DefaultBaseURL = "https://api.mintlify.com"
	// DefaultMaxRetries is how many times a retryable request is tried again.
	DefaultMaxRetries = 4
	// DefaultMaxRetryAfter is the longest Retry-After the client sleeps through.
	// Analytics rate-limit windows are an hour long: waiting out one of those
	// inside a terraform apply helps nobody, so longer waits fail at once.
	DefaultMaxRetryAfter = 60 * time.Second
	// DefaultMaxResponseBytes caps how much of a response body is read. A full
	// 250-row analytics page is tens of kilobytes.
	DefaultMaxResponseBytes = 16 << 20
	// DefaultRequestTimeout bounds one HTTP attempt, from sending to the
	// last byte of the answer: a server that stalls fails the attempt (a
	// read is then retried) instead of hanging a terraform run.
	DefaultRequestTimeout = time.Minute

	defaultRetryMinBackoff = 500 * time.Millisecond
	defaultRetryMaxBackoff = 8 * time.Second
)

// Client talks to the API. It is safe for concurrent use.
type Client struct {
	baseURL          *url.URL
	apiKey           string
	httpClient       *http.Client
	userAgent        string
	maxRetries       int
	maxRetryAfter    time.Duration
	retryMinBackoff  time.Duration
	retryMaxBackoff  time.Duration
	maxResponseBytes int64
	requestTimeout   time.Duration
	sentGrace        time.Duration // see DefaultSentRequestGrace; shortened in tests
	maxPagesPerRead  int
	cache            *diskCache // nil: no analytics cache
	requestHook      func(context.Context, RequestInfo)

	// clock is swapped in tests so waits and backoffs run on a fake clock.
	clock clock
}

// RequestInfo describes one HTTP attempt, for logging. It never holds the
// API key or any header.
type RequestInfo struct {
	Method     string
	Path       string // escaped path, without the query string
	Query      string
	Attempt    int // 1 for the first try
	StatusCode int // 0 when no response arrived
	Duration   time.Duration
	Err        error // transport error, if any
}

// Option configures a Client.
type Option func(*Client) error

// WithBaseURL sets the API address. It must be https, except for loopback
// hosts (tests, the fake server) where plain http is allowed.
func WithBaseURL(raw string) Option {
	return func(c *Client) error {
		u, err := ParseBaseURL(raw)
		if err != nil {
			return err
		}
		c.baseURL = u
		return nil
	}
}

// WithHTTPClient sets the HTTP client. The SDK wraps its redirect policy so
// the API key is never forwarded to another host.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) error {
		if hc == nil {
			return errors.New("sdk: WithHTTPClient: client is nil")
		}
		c.httpClient = hc
		return nil
	}
}

// WithUserAgent sets the User-Agent header. Callers such as the Terraform
// provider put their own name and version first.
func WithUserAgent(ua string) Option {
	return func(c *Client) error {
		if strings.TrimSpace(ua) == "" || strings.ContainsAny(ua, "\r\n") {
			return errors.New("sdk: WithUserAgent: user agent must be a non-empty single line")
		}
		c.userAgent = ua
		return nil
	}
}

// WithMaxRetries sets how many times a retryable request is tried again
// (0 disables retries).
func WithMaxRetries(n int) Option {
	return func(c *Client) error {
		if n < 0 {
			return fmt.Errorf("sdk: WithMaxRetries: %d is negative", n)
		}
		c.maxRetries = n
		return nil
	}
}

// WithMaxRetryAfter sets the longest Retry-After the client waits through.
// A rate-limited response asking for a longer wait fails at once with an
// *APIError that says when to try again.
func WithMaxRetryAfter(d time.Duration) Option {
	return func(c *Client) error {
		if d < 0 {
			return fmt.Errorf("sdk: WithMaxRetryAfter: %s is negative", d)
		}
		c.maxRetryAfter = d
		return nil
	}
}

// WithRetryBackoff sets the jittered exponential backoff between retries
// that carry no Retry-After: it starts near min and never exceeds max.
func WithRetryBackoff(minDelay, maxDelay time.Duration) Option {
	return func(c *Client) error {
		if minDelay <= 0 || maxDelay < minDelay {
			return fmt.Errorf("sdk: WithRetryBackoff: need 0 < min <= max, got %s and %s", minDelay, maxDelay)
		}
		c.retryMinBackoff, c.retryMaxBackoff = minDelay, maxDelay
		return nil
	}
}

// WithMaxResponseBytes caps how much of a response body is read.
func WithMaxResponseBytes(n int64) Option {
	return func(c *Client) error {
		if n < 1024 {
			return fmt.Errorf("sdk: WithMaxResponseBytes: %d is below 1024", n)
		}
		c.maxResponseBytes = n
		return nil
	}
}

// WithRequestTimeout bounds each HTTP attempt, from sending the request to
// reading the last byte of the answer (default DefaultRequestTimeout; 0
// means no bound). A read that times out is retried like a dropped
// connection; a POST that times out is not, since it may have been
// carried out.
func WithRequestTimeout(d time.Duration) Option {
	return func(c *Client) error {
		if d < 0 {
			return fmt.Errorf("sdk: WithRequestTimeout: %s is negative", d)
		}
		c.requestTimeout = d
		return nil
	}
}

// WithMaxPagesPerRead caps the requests one paging read (an iterator or a
// ListAll call) may make before it stops with an error (default
// DefaultMaxPagesPerRead). It guards the hourly analytics budget against a
// server that never stops saying there is more.
func WithMaxPagesPerRead(n int) Option {
	return func(c *Client) error {
		if n < 1 {
			return fmt.Errorf("sdk: WithMaxPagesPerRead: %d is below 1", n)
		}
		c.maxPagesPerRead = n
		return nil
	}
}

// WithRequestHook registers a function called after every HTTP attempt,
// with the request's context, for logging and metrics.
func WithRequestHook(fn func(context.Context, RequestInfo)) Option {
	return func(c *Client) error {
		c.requestHook = fn
		return nil
	}
}

// NewClient returns a client that authenticates with apiKey, an admin API key
// from the dashboard. Only the key's shape is checked here; the server decides
// whether it is valid.
func NewClient(apiKey string, opts ...Option) (*Client, error) {
	if err := ValidateAPIKey(apiKey); err != nil {
		return nil, err
	}
	base, _ := url.Parse(DefaultBaseURL)
	c := &Client{
		baseURL:          base,
		apiKey:           apiKey,
		httpClient:       cleanhttp.DefaultPooledClient(),
		userAgent:        "mintlify-go-sdk/" + Version,
		maxRetries:       DefaultMaxRetries,
		maxRetryAfter:    DefaultMaxRetryAfter,
		retryMinBackoff:  defaultRetryMinBackoff,
		retryMaxBackoff:  defaultRetryMaxBackoff,
		maxResponseBytes: DefaultMaxResponseBytes,
		requestTimeout:   DefaultRequestTimeout,
		sentGrace:        DefaultSentRequestGrace,
		maxPagesPerRead:  DefaultMaxPagesPerRead,
		clock:            realClock{},
	}
	for _, opt := range opts {
		if err := opt(c); err != nil {
			return nil, err
		}
	}
	c.httpClient = withSafeRedirects(c.httpClient)
	return c, nil
}

// BaseURL returns the API address the client sends requests to.
func (c *Client) BaseURL() string { return c.baseURL.String() }

// ValidateAPIKey checks the key's shape: non-empty, printable ASCII, no
// white space. Mintlify issues several kinds of mint_ keys, so the prefix
// cannot prove a key is an admin key; the server is the judge of that.
// The value is never echoed in the error: it is a secret.
func ValidateAPIKey(key string) error {
	if key == "" {
		return &ValidationError{Field: "apiKey", Rule: "is required"}
	}
	for _, r := range key {
		switch {
		case r == '\n' || r == '\r':
			return &ValidationError{Field: "apiKey", Rule: "contains a newline (often a trailing one, from a file or a secret store): remove it"}
		case r == ' ' || r == '\t':
			return &ValidationError{Field: "apiKey", Rule: "contains white space: remove it"}
		case r < ' ' || r >= 0x7f:
			return &ValidationError{Field: "apiKey", Rule: "must be printable ASCII"}
		}
	}
	return nil
}

// ParseBaseURL parses an API address. It refuses plain http except to a
// loopback host, so a key is never sent in clear over a network.
func ParseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, &ValidationError{Field: "baseURL", Value: raw, Rule: "must be an absolute http(s) URL such as " + DefaultBaseURL}
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, &ValidationError{Field: "baseURL", Value: u.Redacted(), Rule: "must not carry credentials, a query or a fragment"}
	}
	if u.Scheme == "http" && !IsLoopbackHost(u.Hostname()) {
		return nil, &ValidationError{Field: "baseURL", Value: raw, Rule: "must use https (plain http is allowed only for loopback hosts)"}
	}
	// Keep the user's encoding (a proxy path with %2F stays one segment).
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = strings.TrimRight(u.RawPath, "/")
	return u, nil
}

// IsLoopbackHost reports whether host is localhost or a loopback IP address.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// redirectError is a redirect the client refuses to follow. It is final:
// the same request would be redirected the same way again.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

// withSafeRedirects returns a copy of hc whose redirect policy follows no
// redirect of a POST (the answer comes back as an error naming the
// location: following it would turn the POST into a GET of something
// nobody created, or re-send the prompt to another host), drops the
// Authorization header whenever a redirect leaves the original host, and
// refuses a downgrade to plain http off loopback. Go already strips the
// header for unrelated domains; this also covers subdomains and other ports.
func withSafeRedirects(hc *http.Client) *http.Client {
	clone := *hc
	next := hc.CheckRedirect
	clone.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if m := via[0].Method; m != http.MethodGet && m != http.MethodHead {
			return http.ErrUseLastResponse
		}
		if len(via) >= 10 {
			return &redirectError{"stopped after 10 redirects"}
		}
		if req.URL.Scheme != "https" && !IsLoopbackHost(req.URL.Hostname()) {
			return &redirectError{"refusing redirect to insecure URL " + req.URL.Redacted()}
		}
		if req.URL.Host != via[0].URL.Host {
			req.Header.Del("Authorization")
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	return &clone
}
