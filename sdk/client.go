// Package sdk is a Go client for Mintlify's platform API.
//
// A Client holds an admin API key and speaks to api.mintlify.com. Its
// services, one per API area, hold the calls:
//
//   - AgentJobs: background agent jobs (create, get, follow-up message,
//     wait until done, and the project's jobs listed: Sessions).
//   - Analytics: the analytics export (visitors, page views, searches,
//     feedback, assistant conversations, threads and caller stats).
//   - StaticExports: static exports of the docs (start, wait, bundle,
//     download).
//   - Deployments: publish the docs, preview a branch, read a deployment's
//     status and wait until it ends.
//   - Automations: run a scheduled automation now.
//
// Two more APIs take keys of their own, each sent only to its own host: a
// DiscoveryClient (NewDiscoveryClient, an assistant key mint_dsc_...)
// searches a documentation site, reads its pages and streams the
// assistant's answers; an IndexClient (NewIndexClient, a Mintlify Index
// key mint_us_...) searches Mintlify Index and assembles context from it.
//
// # One naming scheme
//
// A paged endpoint is a field of its service with five methods: Page (one
// page), Pages (an iterator over pages), Rows (an iterator over rows), Each
// (a callback per page) and All (every page read into one value of the
// page type). Other calls are
// methods named for what they do or return: AgentJobs.Create,
// AgentJobs.Get, Analytics.CallerStats.
//
// # Errors
//
// Inputs are checked before any request (*ValidationError). The API's
// refusals are *APIError; a request that got no answer is *RequestError;
// an answer the SDK will not trust is *MalformedResponseError; a server
// that does not page as documented ends a read with *PagingError. Errors
// say how many attempts a request took. MayHaveTakenEffect tells whether a
// failed POST may still have been carried out.
//
// # Budgets
//
// Every request is precious: the analytics budget is [AnalyticsLimit],
// job creations and messages [AgentJobLimit] (the API's limits are in
// limits.go). Paging
// uses the largest page and never reads a page twice; POSTs are never sent
// twice once they may have reached the server; WithAnalyticsCache spends
// the analytics budget once per answer across processes. Once the API
// refuses for longer than the client waits, the analytics, discovery and
// Index clients remember until when their budget is spent and send
// nothing on it until then (IsNotSent). The analytics client records that
// time beside its cache, and every client of the same API key sharing the
// cache (CacheOptions.URL: a fleet of runners) believes it, for up to 24
// hours ahead: a record further ahead is not believed.
//
// # Testing
//
// The package mintlifytest is an in-process fake of the API. WithClock runs
// the client on a clock the test controls (mintlifytest.ManualClock is
// one), so waits, backoffs and Retry-After take no wall time.
//
// The package speaks HTTP and JSON only; it knows nothing of Terraform.
package sdk

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/go-cleanhttp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/budget"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/optcheck"
	pollpkg "github.com/mintlify/terraform-provider-mintlify/sdk/internal/poll"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/rules"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/transport"
)

// Version is the SDK's version, sent in the default User-Agent.
const Version = "0.1.0"

const (
	// DefaultBaseURL is the address of Mintlify's public API.
	DefaultBaseURL = "https://api.mintlify.com"
	// DefaultMaxRetries is how many times a retryable request is tried again.
	DefaultMaxRetries = 4
	// DefaultMaxRetryAfter is the longest Retry-After the client sleeps through.
	// Analytics rate-limit windows are long (see [AnalyticsLimit]): waiting out
	// one of those inside a terraform apply helps nobody, so longer waits fail
	// at once.
	DefaultMaxRetryAfter = 60 * time.Second
	// DefaultMaxResponseBytes caps how much of a response body is read. A full
	// 250-row analytics page is tens of kilobytes.
	DefaultMaxResponseBytes = 16 << 20
	// DefaultRequestTimeout bounds one HTTP attempt, from sending to the
	// last byte of the answer: a server that stalls fails the attempt (a
	// read is then retried) instead of hanging a terraform run.
	DefaultRequestTimeout = time.Minute
	// DefaultSentRequestGrace is how long a POST already on the wire is
	// awaited after the caller's context ends (an interrupt, a timeout):
	// long enough for a normal answer to arrive, so the id of a job just
	// created is not lost.
	DefaultSentRequestGrace = 10 * time.Second
	// DefaultMaxStreamParts caps the parts of one streamed answer (an
	// assistant message): every part counts, those that carry nothing
	// (empty deltas, step markers, keep-alives) included. A real answer
	// has hundreds to a few thousand.
	DefaultMaxStreamParts = 100_000
	// DefaultMaxStreamDuration bounds one streamed answer from its
	// headers to its end: a stream that trickles a byte at a time never
	// stalls, and must still end.
	DefaultMaxStreamDuration = 10 * time.Minute

	defaultRetryMinBackoff = 500 * time.Millisecond
	defaultRetryMaxBackoff = 8 * time.Second
)

// Environment variables NewClientFromEnv reads.
const (
	EnvAPIKey  = "MINTLIFY_API_KEY" //nolint:gosec // the variable's name, not a credential
	EnvBaseURL = "MINTLIFY_BASE_URL"
)

// Client talks to Mintlify's admin API with an admin key. It is safe for
// concurrent use. The zero value is not usable: every call on it returns
// ErrNotConfigured.
type Client struct {
	// AgentJobs creates, reads, messages and waits for agent jobs.
	AgentJobs AgentJobsService
	// Analytics reads the analytics export.
	Analytics AnalyticsService
	// StaticExports starts static exports of the docs, waits for them and
	// downloads their bundles.
	StaticExports StaticExportsService
	// Deployments publishes the docs, puts up previews of branches, and
	// waits for either.
	Deployments DeploymentsService
	// Automations runs scheduled automations now.
	Automations AutomationsService

	core *core
}

// core is what every call of one client shares: where to send, with which
// key, and how.
type core struct {
	settings
	apiKey string
	// docPrefix is the API's documented path prefix (keyKind.docPrefix).
	docPrefix string
	// secrets are the client's own secrets (its key); learned, what it
	// came to know since (see secretList).
	secrets []string
	learned redact.Memory
	// cache is the analytics cache (nil: none); problems why it is not
	// working as configured.
	cache    *analyticsCache
	problems *analyticscache.Problems
	// budget is what the client knows of its API's budget (the
	// organization's analytics budget for an admin client: the admin
	// API's other calls draw from budgets of their own, not remembered);
	// messages of the assistant's message budget (discovery clients only).
	budget   *budget.Budget
	messages *budget.Budget
}

// settings are what options set.
type settings struct {
	baseURL          *url.URL
	baseURLErr       error // a bad MINTLIFY_BASE_URL no option replaced
	httpClient       *http.Client
	userAgent        string
	maxRetries       int
	maxRetryAfter    time.Duration
	retryMinBackoff  time.Duration
	retryMaxBackoff  time.Duration
	maxResponseBytes int64
	requestTimeout   time.Duration
	sentGrace        time.Duration
	maxPagesPerRead  int
	maxBytesPerRead  int64
	maxStreamParts   int
	// maxStreamDuration bounds a streamed answer (0: no bound).
	maxStreamDuration time.Duration
	cacheOptions      *CacheOptions
	requestHook       func(context.Context, RequestInfo)
	clock             Clock
}

// RequestInfo describes one HTTP attempt, for logging. It never holds the
// API key or any header.
type RequestInfo struct {
	Method     string
	Path       string // escaped path, without the query string
	Query      string
	Attempt    int // 1 for the first try
	StatusCode int // 0 when no response arrived
	RequestID  string
	Duration   time.Duration
	Err        error // transport error, if any
}

// Option configures a client.
type Option interface{ apply(*settings) error }

type optionFunc func(*settings) error

func (f optionFunc) apply(s *settings) error { return f(s) }

// WithBaseURL sets the API address. It must be https, except for loopback
// hosts (tests, the fake server) where plain http is allowed.
func WithBaseURL(raw string) Option { return baseURLOption(raw, "") }

// baseURLOption sets the address raw. A bad one fails the option, or,
// when it came from the variable env, is kept as the error a later
// WithBaseURL replaces.
func baseURLOption(raw, env string) Option {
	return optionFunc(func(s *settings) error {
		u, err := ParseBaseURL(raw)
		switch {
		case err == nil:
			s.baseURL, s.baseURLErr = u, nil
		case env == "":
			return err
		default:
			s.baseURLErr = fmt.Errorf("%s: %w", env, err)
		}
		return nil
	})
}

// WithHTTPClient sets the HTTP client (its transport, proxy and TLS
// settings). The SDK wraps its redirect policy so the API key is never
// forwarded to another host.
func WithHTTPClient(hc *http.Client) Option {
	return optionFunc(func(s *settings) error {
		if hc == nil {
			return errors.New("sdk: WithHTTPClient: client is nil")
		}
		s.httpClient = hc
		return nil
	})
}

// WithUserAgent sets the User-Agent header. Callers such as the Terraform
// provider put their own name and version first.
func WithUserAgent(ua string) Option {
	return optionFunc(func(s *settings) error {
		if strings.TrimSpace(ua) == "" || strings.ContainsAny(ua, "\r\n") {
			return errors.New("sdk: WithUserAgent: user agent must be a non-empty single line")
		}
		s.userAgent = ua
		return nil
	})
}

// WithMaxRetries sets how many times a retryable request is tried again
// (0 disables retries).
func WithMaxRetries(n int) Option {
	return optionFunc(optcheck.NotNegative("WithMaxRetries", n, func(s *settings) { s.maxRetries = n }))
}

// WithMaxRetryAfter sets the longest Retry-After the client waits through.
// A rate-limited response asking for a longer wait fails at once with an
// *APIError that says when to try again.
func WithMaxRetryAfter(d time.Duration) Option {
	return optionFunc(optcheck.NotNegative("WithMaxRetryAfter", d, func(s *settings) { s.maxRetryAfter = d }))
}

// WithRetryBackoff sets the jittered exponential backoff between retries
// that carry no Retry-After: it starts near min and never exceeds max.
func WithRetryBackoff(minDelay, maxDelay time.Duration) Option {
	return optionFunc(func(s *settings) error {
		if minDelay <= 0 || maxDelay < minDelay {
			return fmt.Errorf("sdk: WithRetryBackoff: need 0 < min <= max, got %s and %s", minDelay, maxDelay)
		}
		s.retryMinBackoff, s.retryMaxBackoff = minDelay, maxDelay
		return nil
	})
}

// WithMaxResponseBytes caps how much of a response body is read.
func WithMaxResponseBytes(n int64) Option {
	return optionFunc(optcheck.AtLeast("WithMaxResponseBytes", n, 1024, "1024", func(s *settings) { s.maxResponseBytes = n }))
}

// WithRequestTimeout bounds each HTTP attempt, from sending the request to
// reading the last byte of the answer (default DefaultRequestTimeout; 0
// means no bound). A read that times out is retried like a dropped
// connection; a POST that times out is not, since it may have been
// carried out. A streamed answer (an assistant message, a download) is
// bounded until its headers arrive; then its body by the caller's context,
// and by the same timeout between two reads (a download: for
// MinDownloadRate bytes a second over it): a stream that stalls fails
// with a StreamError instead of hanging, a download is resumed.
func WithRequestTimeout(d time.Duration) Option {
	return optionFunc(optcheck.NotNegative("WithRequestTimeout", d, func(s *settings) { s.requestTimeout = d }))
}

// WithSentRequestGrace sets how long a POST already sent is still awaited
// after the caller's context ends (default DefaultSentRequestGrace), so
// that the id of an object just created is not lost. 0 stops waiting at
// once: the call then fails with an error for which MayHaveTakenEffect is
// true.
func WithSentRequestGrace(d time.Duration) Option {
	return optionFunc(optcheck.NotNegative("WithSentRequestGrace", d, func(s *settings) { s.sentGrace = d }))
}

// WithMaxPagesPerRead caps the requests one paging read (an iterator or an
// All call) may make before it stops with a *PagingError (default
// DefaultMaxPagesPerRead). It guards the analytics budget ([AnalyticsLimit])
// against a server that never stops saying there is more.
func WithMaxPagesPerRead(n int) Option {
	return optionFunc(optcheck.AtLeast("WithMaxPagesPerRead", n, 1, "1", func(s *settings) { s.maxPagesPerRead = n }))
}

// WithMaxBytesPerRead caps the bytes of the answers of one paging read
// (default DefaultMaxBytesPerRead). All keeps every row of a read in
// memory: this bounds it, whatever a server sends.
func WithMaxBytesPerRead(n int64) Option {
	return optionFunc(optcheck.AtLeast("WithMaxBytesPerRead", n, 1<<20, "1 MiB", func(s *settings) { s.maxBytesPerRead = n }))
}

// WithMaxStreamParts caps the parts of one streamed answer (default
// DefaultMaxStreamParts): past it, the stream fails with a *StreamError
// (StreamTooLarge) wrapping a *LimitError. Every part counts, those that
// carry nothing included: a server flooding empty deltas must not keep a
// program reading (or Collect gathering) for ever.
func WithMaxStreamParts(n int) Option {
	return optionFunc(optcheck.AtLeast("WithMaxStreamParts", n, 1, "1", func(s *settings) { s.maxStreamParts = n }))
}

// WithMaxStreamDuration bounds one streamed answer, from its headers to
// its end (default DefaultMaxStreamDuration; 0 means no bound): past it,
// the stream fails with a *StreamError (StreamTooLong) wrapping a
// *LimitError. The request timeout bounds a stall; this bounds a trickle
// that sends a byte before each stall would fire.
func WithMaxStreamDuration(d time.Duration) Option {
	return optionFunc(optcheck.NotNegative("WithMaxStreamDuration", d, func(s *settings) { s.maxStreamDuration = d }))
}

// WithRequestHook registers a function called after every HTTP attempt,
// with the request's context, for logging and metrics.
func WithRequestHook(fn func(context.Context, RequestInfo)) Option {
	return optionFunc(func(s *settings) error {
		s.requestHook = fn
		return nil
	})
}

// WithClock runs the client's waits (polling, backoff, Retry-After) on clk
// instead of the wall clock. Tests pass a clock that advances when slept
// on, such as mintlifytest.ManualClock, so that a 30-minute job with rate
// limits takes no wall time. The per-attempt request timeout and the sent
// POST's grace stay on the wall clock: they bound real I/O.
func WithClock(clk Clock) Option {
	return optionFunc(func(s *settings) error {
		if clk == nil {
			return errors.New("sdk: WithClock: clock is nil")
		}
		s.clock = clk
		return nil
	})
}

// defaultSettings are a new client's settings before options.
func defaultSettings(baseURL string) settings {
	base, _ := url.Parse(baseURL)
	return settings{
		baseURL:           base,
		httpClient:        cleanhttp.DefaultPooledClient(),
		userAgent:         "mintlify-go-sdk/" + Version,
		maxRetries:        DefaultMaxRetries,
		maxRetryAfter:     DefaultMaxRetryAfter,
		retryMinBackoff:   defaultRetryMinBackoff,
		retryMaxBackoff:   defaultRetryMaxBackoff,
		maxResponseBytes:  DefaultMaxResponseBytes,
		requestTimeout:    DefaultRequestTimeout,
		sentGrace:         DefaultSentRequestGrace,
		maxPagesPerRead:   DefaultMaxPagesPerRead,
		maxBytesPerRead:   DefaultMaxBytesPerRead,
		maxStreamParts:    DefaultMaxStreamParts,
		maxStreamDuration: DefaultMaxStreamDuration,
		clock:             pollpkg.WallClock{},
	}
}

// newCore checks key as kind's, applies opts over the defaults, and
// returns what a client of that kind shares between its calls.
func newCore(kind keyKind, key, defaultBase string, opts []Option) (*core, error) {
	if err := kind.validate(key); err != nil {
		return nil, err
	}
	k := &core{settings: defaultSettings(defaultBase), apiKey: key, docPrefix: kind.docPrefix, secrets: []string{key}, problems: &analyticscache.Problems{},
		budget: &budget.Budget{Name: kind.budget}}
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt.apply(&k.settings); err != nil {
			return nil, err
		}
	}
	if k.baseURLErr != nil {
		return nil, k.baseURLErr
	}
	// The key never follows a redirect to another host, nor a POST a
	// redirect at all (transport.GuardRedirects).
	k.httpClient = transport.GuardRedirects(k.httpClient)
	if o := k.cacheOptions; o != nil {
		k.cache = newAnalyticsCache(*o, key, k.problems)
	}
	if k.cache != nil && kind.budgetBesideCache {
		k.budget.Shared, k.budget.Base = k.cache.Cache, k.baseURL.String()
	}
	return k, nil
}

// NewClient returns a client that authenticates with apiKey, an admin API
// key from the dashboard's API keys page. Only the key's form is checked
// here (see ValidateAPIKey); the server decides whether it is valid.
func NewClient(apiKey string, opts ...Option) (*Client, error) {
	k, err := newCore(adminKey, apiKey, DefaultBaseURL, opts)
	if err != nil {
		return nil, err
	}
	return &Client{
		AgentJobs:     newAgentJobsService(k),
		Analytics:     newAnalyticsService(k),
		Deployments:   DeploymentsService{core: k},
		Automations:   AutomationsService{core: k},
		StaticExports: StaticExportsService{core: k},
		core:          k,
	}, nil
}

// NewClientFromEnv is NewClient with the key from MINTLIFY_API_KEY and,
// when set, the address from MINTLIFY_BASE_URL; opts come after, so they
// win.
func NewClientFromEnv(opts ...Option) (*Client, error) {
	key := os.Getenv(EnvAPIKey)
	if key == "" {
		return nil, &ValidationError{Field: "apiKey", Rule: "is required: set " + EnvAPIKey + " to an admin API key from the dashboard's API keys page"}
	}
	if base := os.Getenv(EnvBaseURL); base != "" {
		// A WithBaseURL given after it replaces it, a bad value included;
		// otherwise a bad value is an error naming the variable.
		opts = append([]Option{baseURLOption(base, EnvBaseURL)}, opts...)
	}
	return NewClient(key, opts...)
}

// BaseURL returns the API address the client sends requests to ("" for a
// zero Client).
func (c *Client) BaseURL() string {
	if c == nil || c.core == nil {
		return ""
	}
	return c.core.baseURL.String()
}

// keyKind is one kind of Mintlify key: which prefix it has, and which
// other kinds' prefixes it must not have.
type keyKind struct {
	rules.Key // its form: name, field, prefix, the other kinds' prefixes, where to get one
	// budget names the budget the key's calls draw from, as errors say
	// it; budgetBesideCache records it beside the analytics cache.
	budget            string
	budgetBesideCache bool
	// docPrefix is the path of the API's server in its documentation
	// (the OpenAPI file's servers): errors and logs name each path below
	// it, as the documentation does.
	docPrefix string
}

var adminKey = keyKind{
	Key: rules.Key{Name: "an admin API key", Field: "apiKey", Prefix: "mint_",
		Others: [][2]string{{"mint_dsc_", "an assistant key (mint_dsc_...), for the discovery API"}, {"mint_us_", "a Mintlify Index key (mint_us_...)"}},
		Where:  "the API keys page of the Mintlify dashboard"},
	budget: analyticsBudgetName, budgetBesideCache: true,
}

// assistantKey and indexKey are the keys of the discovery API (search,
// page content, the assistant) and of Mintlify Index: each client takes
// its own kind only, so a key is only ever sent to its own API's host.
var (
	assistantKey = keyKind{
		Key: rules.Key{Name: "an assistant API key", Field: "assistantKey", Prefix: "mint_dsc_",
			Others: [][2]string{{"mint_us_", "a Mintlify Index key (mint_us_...)"}, {"mint_", "an admin API key (mint_...), for the admin API"}},
			Where:  "the API keys page of the Mintlify dashboard"},
		budget: discoveryBudgetName, docPrefix: "/discovery",
	}
	indexKey = keyKind{
		Key: rules.Key{Name: "a Mintlify Index API key", Field: "indexKey", Prefix: "mint_us_",
			Others: [][2]string{{"mint_dsc_", "an assistant key (mint_dsc_...), for the discovery API"}, {"mint_", "an admin API key (mint_...), for the admin API"}},
			Where:  "the Mintlify Index settings of the dashboard"},
		budget: indexBudgetName, docPrefix: "/api/universal-search",
	}
)

// ValidateAPIKey checks an admin API key's form: printable ASCII without
// white space, starting mint_ but not mint_dsc_ or mint_us_ (the prefixes
// of assistant and Index keys, which the admin API refuses). The prefix
// cannot prove a key is an admin key; the server is the judge of that.
// The value is never echoed in the error: it is a secret.
func ValidateAPIKey(key string) error { return adminKey.validate(key) }

func (k keyKind) validate(key string) error { return validationError(k.Check(key)) }

// ParseBaseURL parses an API address. It refuses plain http except to a
// loopback host, so a key is never sent in clear over a network.
func ParseBaseURL(raw string) (*url.URL, error) {
	u, b := rules.BaseURL(raw, DefaultBaseURL, IsLoopbackHost)
	if b != nil {
		return nil, validationError(b)
	}
	return u, nil
}

// IsLoopbackHost reports whether host is localhost or a loopback IP address.
func IsLoopbackHost(host string) bool { return transport.IsLoopbackHost(host) }
