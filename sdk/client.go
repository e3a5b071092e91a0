// Package sdk is a Go client for Mintlify's platform API. It speaks HTTP
// and JSON only; it knows nothing of Terraform.
//
// A Client holds an admin API key. Its services, one per API area, hold
// the calls: AgentJobs (create, get, message, wait; Sessions lists them),
// Analytics (visitors, views, searches, feedback, conversations, threads,
// caller stats), StaticExports (start, wait, bundle, download),
// Deployments (publish, preview, status, wait) and Automations (run one
// now). A DiscoveryClient (an assistant key, mint_dsc_...) searches a
// documentation site, reads its pages and streams its assistant's
// answers; an IndexClient (an Index key, mint_us_...) searches Mintlify
// Index. Each key is sent only to its own API's host.
//
// A paged endpoint is a field of its service with five methods: Page,
// Pages (an iterator over pages), Rows (over rows), Each (a callback per
// page) and All (every page in one value). Other calls are named for what
// they do: AgentJobs.Create, Analytics.CallerStats.
//
// # Errors
//
// Inputs are checked before any request (*ValidationError). The API's
// refusals are *APIError; a request that got no answer is *RequestError;
// an answer the SDK will not trust is *MalformedResponseError; a server
// that does not page as documented ends a read with *PagingError.
// MayHaveTakenEffect tells whether a failed POST may still have been
// carried out.
//
// # Budgets
//
// Every request is precious (the API's limits: [AnalyticsLimit],
// [AgentJobLimit], ...). Paging uses the largest page and reads each page
// once; a POST is never sent twice once it may have reached the server;
// WithAnalyticsCache spends the analytics budget once per answer across
// processes. Once the API refuses for longer than the client waits, the
// client sends nothing on that budget until it frees up (IsNotSent), and
// neither do clients sharing its cache (CacheOptions.URL).
//
// # Testing
//
// Package mintlifytest is an in-process fake of the API. WithClock runs
// the client on a clock the test controls (mintlifytest.ManualClock), so
// waits, backoffs and Retry-After take no wall time.
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
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/transport"
)

// Version is the SDK's version, sent in the default User-Agent.
const Version = "0.1.0"

const (
	// DefaultBaseURL is the address of Mintlify's public API.
	DefaultBaseURL = "https://api.mintlify.com"
	// DefaultMaxRetries is how many times a retryable request is tried again.
	DefaultMaxRetries = 4
	// DefaultMaxRetryAfter is the longest Retry-After the client sleeps
	// through; a longer one fails at once (an analytics window is an hour).
	DefaultMaxRetryAfter = 60 * time.Second
	// DefaultMaxResponseBytes caps a response body (a 250-row analytics
	// page is tens of kilobytes).
	DefaultMaxResponseBytes = 16 << 20
	// DefaultRequestTimeout bounds one HTTP attempt, from sending to the
	// answer's last byte.
	DefaultRequestTimeout = time.Minute
	// DefaultSentRequestGrace is how long a POST already sent is awaited
	// after the caller's context ends, so a new job's id is not lost.
	DefaultSentRequestGrace = 10 * time.Second
	// DefaultMaxStreamParts caps the parts of one streamed answer, empty
	// ones included (a real answer has a few thousand at most).
	DefaultMaxStreamParts = 100_000
	// DefaultMaxStreamDuration bounds one streamed answer from its
	// headers to its end, so a trickle that never stalls still ends.
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
	AgentJobs     AgentJobsService
	Analytics     AnalyticsService
	StaticExports StaticExportsService
	Deployments   DeploymentsService
	Automations   AutomationsService

	core *core
}

// core is what every call of one client shares.
type core struct {
	settings
	apiKey    string
	docPrefix string // keyKind.docPrefix
	// secrets are the client's key and the links it was handed.
	secrets *redact.Secrets
	// cache is the analytics cache (nil: none); problems say why it is not
	// working as configured.
	cache    *analyticsCache
	problems *analyticscache.Problems
	// budget is the budget the client remembers (an admin client: the
	// analytics budget); messages the assistant's (discovery clients).
	budget   *budget.Budget
	messages *budget.Budget
}

// settings are what options set.
type settings struct {
	baseURL           *url.URL
	baseURLErr        error // a bad MINTLIFY_BASE_URL no option replaced
	httpClient        *http.Client
	userAgent         string
	maxRetries        int
	maxRetryAfter     time.Duration
	retryMinBackoff   time.Duration
	retryMaxBackoff   time.Duration
	maxResponseBytes  int64
	requestTimeout    time.Duration
	sentGrace         time.Duration
	maxPagesPerRead   int
	maxBytesPerRead   int64
	maxStreamParts    int
	maxStreamDuration time.Duration // 0: no bound
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

// WithBaseURL sets the API address: https, or plain http to a loopback
// host (tests, the fake).
func WithBaseURL(raw string) Option { return baseURLOption(raw, "") }

// baseURLOption sets the address raw. A bad one fails the option or, from
// the variable env, is an error a later WithBaseURL may replace.
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

// WithHTTPClient sets the HTTP client (transport, proxy, TLS). Its
// redirect policy is wrapped so the key never follows a redirect to
// another host.
func WithHTTPClient(hc *http.Client) Option {
	return optionFunc(func(s *settings) error {
		if hc == nil {
			return errors.New("sdk: WithHTTPClient: client is nil")
		}
		s.httpClient = hc
		return nil
	})
}

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option {
	return optionFunc(func(s *settings) error {
		if strings.TrimSpace(ua) == "" || strings.ContainsAny(ua, "\r\n") {
			return errors.New("sdk: WithUserAgent: user agent must be a non-empty single line")
		}
		s.userAgent = ua
		return nil
	})
}

// notNegative is the option of a count or duration for which 0 means
// none: a negative v fails, naming the option.
func notNegative[T int | time.Duration](option string, v T, set func(*settings)) Option {
	return optionFunc(func(s *settings) error {
		if v < 0 {
			return fmt.Errorf("sdk: %s: %v is negative", option, v)
		}
		set(s)
		return nil
	})
}

// atLeast is the option of a count or size with a floor, said floorText.
func atLeast[T int | int64](option string, v, floor T, floorText string, set func(*settings)) Option {
	return optionFunc(func(s *settings) error {
		if v < floor {
			return fmt.Errorf("sdk: %s: %d is below %s", option, v, floorText)
		}
		set(s)
		return nil
	})
}

// WithMaxRetries sets how many times a retryable request is tried again
// (0: never).
func WithMaxRetries(n int) Option {
	return notNegative("WithMaxRetries", n, func(s *settings) { s.maxRetries = n })
}

// WithMaxRetryAfter sets the longest Retry-After the client waits
// through; a longer one fails at once, its *APIError saying when to retry.
func WithMaxRetryAfter(d time.Duration) Option {
	return notNegative("WithMaxRetryAfter", d, func(s *settings) { s.maxRetryAfter = d })
}

// WithRetryBackoff sets the jittered exponential backoff between retries
// without a Retry-After: from about min, never above max.
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
	return atLeast("WithMaxResponseBytes", n, 1024, "1024", func(s *settings) { s.maxResponseBytes = n })
}

// WithRequestTimeout bounds each HTTP attempt, from sending to the
// answer's last byte (default DefaultRequestTimeout; 0: no bound). A GET
// that times out is retried; a POST is not, as it may have been carried
// out. A streamed answer is bounded until its headers, then by the same
// timeout between two reads (a download: MinDownloadRate over it): a
// stalled stream fails with a StreamError, a stalled download resumes.
func WithRequestTimeout(d time.Duration) Option {
	return notNegative("WithRequestTimeout", d, func(s *settings) { s.requestTimeout = d })
}

// WithSentRequestGrace sets how long a POST already sent is still awaited
// after the caller's context ends (default DefaultSentRequestGrace). 0
// stops at once, with an error for which MayHaveTakenEffect is true.
func WithSentRequestGrace(d time.Duration) Option {
	return notNegative("WithSentRequestGrace", d, func(s *settings) { s.sentGrace = d })
}

// WithMaxPagesPerRead caps the requests of one paging read (default
// DefaultMaxPagesPerRead): past it the read stops with a *PagingError.
func WithMaxPagesPerRead(n int) Option {
	return atLeast("WithMaxPagesPerRead", n, 1, "1", func(s *settings) { s.maxPagesPerRead = n })
}

// WithMaxBytesPerRead caps the answers' bytes of one paging read (default
// DefaultMaxBytesPerRead), and so what All holds in memory.
func WithMaxBytesPerRead(n int64) Option {
	return atLeast("WithMaxBytesPerRead", n, 1<<20, "1 MiB", func(s *settings) { s.maxBytesPerRead = n })
}

// WithMaxStreamParts caps the parts of one streamed answer, empty ones
// included (default DefaultMaxStreamParts): past it, the stream fails
// with a *StreamError (StreamTooLarge) wrapping a *LimitError.
func WithMaxStreamParts(n int) Option {
	return atLeast("WithMaxStreamParts", n, 1, "1", func(s *settings) { s.maxStreamParts = n })
}

// WithMaxStreamDuration bounds one streamed answer from its headers to
// its end (default DefaultMaxStreamDuration; 0: no bound): past it, the
// stream fails with a *StreamError (StreamTooLong) wrapping a *LimitError.
func WithMaxStreamDuration(d time.Duration) Option {
	return notNegative("WithMaxStreamDuration", d, func(s *settings) { s.maxStreamDuration = d })
}

// WithRequestHook registers fn, called with the request's context for
// every HTTP attempt, for logging and metrics: in order, once the call's
// attempts are over, before it returns.
func WithRequestHook(fn func(context.Context, RequestInfo)) Option {
	return optionFunc(func(s *settings) error {
		s.requestHook = fn
		return nil
	})
}

// Clock is the SDK's view of time (WithClock): waits (polling, backoff,
// Retry-After) go through Sleep; the times a client reasons with (when a
// rate limit ends, how old a cached answer is) come from Now.
// mintlifytest.ManualClock advances when slept on.
type Clock interface {
	Now() time.Time
	// Sleep waits for d or until ctx is done, and returns ctx.Err() when
	// ctx ended the wait.
	Sleep(ctx context.Context, d time.Duration) error
}

// WithClock runs the client's waits on clk instead of the wall clock, so
// a test's 30-minute job takes no wall time. The request timeout and the
// sent POST's grace stay on the wall clock: they bound real I/O.
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
		clock:             transport.WallClock{},
	}
}

// newCore checks key as kind's and applies opts over the defaults.
func newCore(kind keyKind, key, defaultBase string, opts []Option) (*core, error) {
	if err := kind.validate(key); err != nil {
		return nil, err
	}
	k := &core{settings: defaultSettings(defaultBase), apiKey: key, docPrefix: kind.docPrefix, secrets: redact.NewSecrets(key), problems: &analyticscache.Problems{},
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
// key. Only its form is checked here (ValidateAPIKey).
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
// when set, the address from MINTLIFY_BASE_URL; opts win over both.
func NewClientFromEnv(opts ...Option) (*Client, error) {
	key := os.Getenv(EnvAPIKey)
	if key == "" {
		return nil, &ValidationError{Field: "apiKey", Rule: "is required: set " + EnvAPIKey + " to an admin API key from the dashboard's API keys page"}
	}
	if base := os.Getenv(EnvBaseURL); base != "" {
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

// The budgets' names, as NotSent errors say them. The limits that set
// them are AnalyticsLimit, DiscoveryLimit, AssistantMessageLimit, and
// IndexSecondLimit with IndexDayLimit (limits.go).
const (
	analyticsBudgetName         = "the organization's analytics budget"
	discoveryBudgetName         = "the organization's discovery budget"
	assistantMessagesBudgetName = "the assistant's message budget"
	indexBudgetName             = "the Index's budget"
)

// keyKind is one kind of Mintlify key.
type keyKind struct {
	name   string // "an admin API key"
	field  string // "apiKey"
	prefix string
	// others are other kinds' prefixes and names: the longest prefix a
	// key has decides its kind (mint_dsc_ is not mint_).
	others [][2]string
	where  string // where to get one
	// budget names the budget the key's calls draw from;
	// budgetBesideCache records it beside the analytics cache.
	budget            string
	budgetBesideCache bool
	// docPrefix is the path of the API's server in its OpenAPI file:
	// errors and logs name paths below it, as the documentation does.
	docPrefix string
}

var adminKey = keyKind{
	name: "an admin API key", field: "apiKey", prefix: "mint_",
	others: [][2]string{{"mint_dsc_", "an assistant key (mint_dsc_...), for the discovery API"}, {"mint_us_", "a Mintlify Index key (mint_us_...)"}},
	where:  "the API keys page of the Mintlify dashboard",
	budget: analyticsBudgetName, budgetBesideCache: true,
}

// assistantKey and indexKey are the discovery API's keys and the Index's.
var (
	assistantKey = keyKind{
		name: "an assistant API key", field: "assistantKey", prefix: "mint_dsc_",
		others: [][2]string{{"mint_us_", "a Mintlify Index key (mint_us_...)"}, {"mint_", "an admin API key (mint_...), for the admin API"}},
		where:  "the API keys page of the Mintlify dashboard",
		budget: discoveryBudgetName, docPrefix: "/discovery",
	}
	indexKey = keyKind{
		name: "a Mintlify Index API key", field: "indexKey", prefix: "mint_us_",
		others: [][2]string{{"mint_dsc_", "an assistant key (mint_dsc_...), for the discovery API"}, {"mint_", "an admin API key (mint_...), for the admin API"}},
		where:  "the Mintlify Index settings of the dashboard",
		budget: indexBudgetName, docPrefix: "/api/universal-search",
	}
)

// ValidateAPIKey checks an admin API key's form: printable ASCII without
// white space, starting mint_ but not mint_dsc_ or mint_us_ (assistant
// and Index keys). The error never echoes the key.
func ValidateAPIKey(key string) error { return adminKey.validate(key) }

// validate checks a key's form: printable ASCII without white space, with
// the kind's prefix and not another kind's longer one.
func (k keyKind) validate(key string) error {
	refuse := func(rule string) error { return &ValidationError{Field: k.field, Rule: rule} }
	if key == "" {
		return refuse("is required")
	}
	for _, r := range key {
		switch {
		case r == '\n' || r == '\r':
			return refuse("contains a newline (often a trailing one, from a file or a secret store): remove it")
		case r == ' ' || r == '\t':
			return refuse("contains white space: remove it")
		case r < ' ' || r >= 0x7f:
			return refuse("must be printable ASCII")
		}
	}
	longest := ""
	if strings.HasPrefix(key, k.prefix) {
		longest = k.prefix
	}
	for _, o := range k.others {
		if strings.HasPrefix(key, o[0]) && len(o[0]) > len(longest) {
			return refuse(fmt.Sprintf("is %s, not %s (%s...): get one from %s", o[1], k.name, k.prefix, k.where))
		}
	}
	if longest == "" {
		return refuse(fmt.Sprintf("is not %s: those start %s (get one from %s)", k.name, k.prefix, k.where))
	}
	return nil
}

// ParseBaseURL parses an API address: an absolute https URL (or http to a
// loopback host) without credentials, query or fragment. Trailing slashes
// are cut, the user's encoding kept.
func ParseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, &ValidationError{Field: "baseURL", Value: raw, Rule: "must be an absolute http(s) URL such as " + DefaultBaseURL}
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, &ValidationError{Field: "baseURL", Value: u.Redacted(), Rule: "must not carry credentials, a query or a fragment"}
	}
	if u.Scheme == "http" && !transport.IsLoopbackHost(u.Hostname()) {
		return nil, &ValidationError{Field: "baseURL", Value: raw, Rule: "must use https (plain http is allowed only for loopback hosts)"}
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = strings.TrimRight(u.RawPath, "/")
	return u, nil
}
