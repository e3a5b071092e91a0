package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/budget"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/transport"
)

// ErrResponseTooLarge is wrapped by the error of a body past its cap
// (WithMaxResponseBytes). It is not retried.
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
	// path is the escaped path as the API documents it, which errors and
	// logs name; less prefix (/discovery), it goes below the base URL.
	path   string
	prefix string
	query  url.Values
	body   any // encoded as JSON when not nil

	// target, when set, is an absolute URL sent to without the key (a
	// presigned link): its query is a secret, never named.
	target *url.URL
	header http.Header // extra headers (a download's Range)
	// secretsIn finds the secrets a 2xx answer hands the client (a
	// bundle's link), learned before the answer is logged or decoded.
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

// post is a POST of path, named under the client's documented prefix
// (POST /discovery/v1/search/acme).
func (k *core) post(path string, body any) call {
	return call{method: http.MethodPost, path: k.docPrefix + path, prefix: k.docPrefix, body: body}
}

// get is a GET of path (escapePath) with its query.
func get(path string, query url.Values) call {
	return call{method: http.MethodGet, path: path, query: query}
}

// roundTrip sends c until it gets a 2xx answer, whose whole (capped) body
// it returns, or a final error; on budgets when given (see exchange).
func (k *core) roundTrip(ctx context.Context, c call, budgets ...*budget.Budget) ([]byte, ResponseInfo, error) {
	r, info, err := k.exchange(ctx, c, false, budgets)
	return r.Body, info, err
}

// stream is roundTrip for an answer read as it arrives (an assistant's
// answer, a download): the 2xx response, its body unread, which the
// caller closes (ctx ending closes it too).
func (k *core) stream(ctx context.Context, c call, budgets ...*budget.Budget) (*http.Response, ResponseInfo, error) {
	r, info, err := k.exchange(ctx, c, true, budgets)
	return r.Response, info, err
}

// policy is the client's settings as the attempt loop takes them.
func (k *core) policy() transport.Policy {
	return transport.Policy{Client: k.httpClient, Clock: k.clock, MaxRetries: k.maxRetries, MaxRetryAfter: k.maxRetryAfter,
		MinBackoff: k.retryMinBackoff, MaxBackoff: k.retryMaxBackoff, MaxResponseBytes: k.maxResponseBytes,
		RequestTimeout: k.requestTimeout, SentGrace: k.sentGrace}
}

// header is what every attempt of c sends: the key and Accept only to the
// client's own API, the User-Agent, the call's headers, the body's type.
func (k *core) header(c call, hasBody bool) http.Header {
	h := http.Header{}
	if c.target == nil {
		h.Set("Authorization", "Bearer "+k.apiKey)
		h.Set("Accept", "application/json")
	}
	h.Set("User-Agent", k.userAgent)
	for name, values := range c.header {
		h[name] = values
	}
	if hasBody {
		h.Set("Content-Type", "application/json")
	}
	return h
}

// exchange sends c through the attempt loop (transport.Do) and returns
// its 2xx answer and how it arrived, or the SDK's error; the secrets an
// answer hands out are learned before anything of it is logged or
// decoded. It passes the first budget's gate (budget.Admit) and checks
// the others: a spent one fails at once with a NotSent 429; only a final
// refusal is remembered (a short rate limit is waited out inside).
func (k *core) exchange(ctx context.Context, c call, stream bool, budgets []*budget.Budget) (transport.Result, ResponseInfo, error) {
	if len(budgets) > 0 {
		admitted, spent, err := budgets[0].Admit(ctx, k.clock.Now, budgets[1:]...)
		switch {
		case spent != nil:
			return transport.Result{}, ResponseInfo{}, &APIError{StatusCode: http.StatusTooManyRequests, Method: c.method, Path: c.path,
				Budget: spent.Name, RetryAfter: spent.Left, RetryAt: spent.Until, NotSent: true}
		case err != nil:
			return transport.Result{}, ResponseInfo{}, &RequestError{Method: c.method, Path: c.path, Err: err}
		}
		r, info, err := k.exchange(ctx, c, stream, nil)
		answer := budget.Answer{Answered: err == nil}
		if apiErr := (*APIError)(nil); errors.As(err, &apiErr) {
			limited := apiErr.StatusCode == http.StatusTooManyRequests
			answer = budget.Answer{Answered: !limited, RateLimited: limited, RetryAt: apiErr.RetryAt}
		}
		admitted.Done(ctx, k.clock.Now(), answer)
		return r, info, err
	}
	var body []byte
	if c.body != nil {
		var err error
		if body, err = json.Marshal(c.body); err != nil {
			return transport.Result{}, ResponseInfo{}, fmt.Errorf("encoding %s %s request: %w", c.method, c.path, err)
		}
	}
	u := c.url(k.baseURL)
	r := transport.Do(ctx, k.policy(), transport.Request{Method: c.method, URL: u.String(), Header: k.header(c, body != nil), Body: body,
		Stream: stream, SecretURL: c.target != nil})
	if c.secretsIn != nil && r.OK() {
		k.secrets.Learn(c.secretsIn(r.Body))
	}
	if k.requestHook != nil {
		query := u.RawQuery
		if c.target != nil {
			query = "" // a presigned link's signature
		}
		for i, a := range r.Tries {
			k.requestHook(ctx, RequestInfo{Method: c.method, Path: c.path, Query: query, Attempt: i + 1,
				StatusCode: a.Status, RequestID: k.requestID(a.Header), Duration: a.Duration, Err: limitError(a.Err, "")})
		}
	}
	switch {
	case r.Err != nil:
		return transport.Result{}, ResponseInfo{}, &RequestError{Method: c.method, Path: c.path, Attempts: len(r.Tries), Sent: r.Sent, Err: limitError(r.Err, "")}
	case r.OK():
		return r, ResponseInfo{RequestID: k.requestID(r.Header), Attempts: len(r.Tries), Pages: 1, RateLimit: rateLimit(r.Header, k.clock.Now())}, nil
	}
	apiErr := k.newAPIError(c, r)
	if r.WaitErr != nil {
		return transport.Result{}, ResponseInfo{}, fmt.Errorf("%w (while waiting to retry: %w)", apiErr, r.WaitErr)
	}
	return transport.Result{}, ResponseInfo{}, apiErr
}

// requestIDHeaders are where APIs and gateways put a request's id.
var requestIDHeaders = []string{"X-Request-Id", "Request-Id", "X-Amzn-Requestid", "Cf-Ray"}

// requestID is the id the server or its gateway gave a request, fit to
// show.
func (k *core) requestID(h http.Header) string {
	for _, name := range requestIDHeaders {
		if v := h.Get(name); v != "" {
			return k.secrets.Line(v)
		}
	}
	return ""
}

// rateLimit reads an answer's rate-limit headers; now turns a Reset in
// seconds into a time.
func rateLimit(h http.Header, now time.Time) RateLimit {
	var rl RateLimit
	header := func(name string) string {
		if v := h.Get("X-RateLimit-" + name); v != "" {
			return v
		}
		return h.Get("RateLimit-" + name)
	}
	if n, err := strconv.Atoi(strings.TrimSpace(header("Limit"))); err == nil && n >= 0 {
		rl.Limit, rl.Known = n, true
	}
	if n, err := strconv.Atoi(strings.TrimSpace(header("Remaining"))); err == nil && n >= 0 {
		rl.Remaining, rl.Known = n, true
	}
	if n, err := strconv.ParseInt(strings.TrimSpace(header("Reset")), 10, 64); err == nil && n >= 0 {
		// Either seconds from now or a Unix time: a value past a year of
		// seconds can only be the latter.
		if n > 365*24*3600 {
			rl.Reset = time.Unix(n, 0).UTC()
		} else {
			rl.Reset = now.Add(time.Duration(n) * time.Second)
		}
		rl.Known = true
	}
	return rl
}

// fetch sends c (on budgets: see exchange) and reads its 2xx answer into
// out, a pointer to an answer type, with read (nil: as out's type), and
// sets out's ResponseInfo. Every string in out, even a partial answer's,
// is scrubbed of the client's secrets, so an echoed key never reaches
// state or output. It returns the answer's size, and whether it scrubbed.
func (k *core) fetch(ctx context.Context, c call, out any, read func(d decoding, data []byte) error, budgets ...*budget.Budget) (size int64, redacted bool, err error) {
	data, info, err := k.roundTrip(ctx, c, budgets...)
	if err != nil {
		return 0, false, err
	}
	if d := (decoding{echo: k.echo}); read == nil {
		err = d.decode(data, out)
	} else {
		err = read(d, data)
	}
	*infoOf(out) = info
	if k.secrets.MayHold(data) {
		redacted = redact.Strings(out, k.secrets.List())
	}
	if err != nil {
		return int64(len(data)), redacted, k.malformed(c, data, err)
	}
	return int64(len(data)), redacted, nil
}

// checked is k for a call whose inputs passed their checks, else the
// first failed check's error, or ErrNotConfigured.
func checked(k *core, checks ...error) (*core, error) {
	if k == nil {
		return nil, ErrNotConfigured
	}
	for _, err := range checks {
		if err != nil {
			return nil, err
		}
	}
	return k, nil
}

// answerTo reads the answer to c as a T (fetch); check, when set, refuses
// one that cannot be what was asked for (answerID).
func answerTo[T any](ctx context.Context, k *core, c call, check func(*T) error) (*T, error) {
	out := new(T)
	if _, _, err := k.fetch(ctx, c, out, nil); err != nil {
		return nil, err
	}
	if check != nil {
		if err := check(out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// echo is a value as a problem quotes it: secrets removed, then cut (a
// key cut in two would not be found).
func (k *core) echo(s string) string { return redact.Clip(k.secrets.Redact(s), maxEchoedValue) }

// malformed turns a decoder's complaint into the error callers see.
func (k *core) malformed(c call, data []byte, err error) *MalformedResponseError {
	m := &MalformedResponseError{Method: c.method, Path: c.path}
	var fields problems
	if errors.As(err, &fields) {
		m.Problems = make([]string, len(fields))
		for i, s := range fields {
			m.Problems[i] = k.secrets.Redact(s)
		}
		return m
	}
	m.Problems = []string{"the body is not the API's JSON: " + k.secrets.Redact(err.Error())}
	m.BodyStart = k.secrets.Snippet(data)
	return m
}

// newAPIError is the error of a refusal (a final answer that is not 2xx).
func (k *core) newAPIError(c call, r transport.Result) *APIError {
	e := &APIError{StatusCode: r.Status, Method: c.method, Path: c.path, RequestID: k.requestID(r.Header), Attempts: len(r.Tries)}
	if r.Status >= 300 && r.Status < 400 && c.method != http.MethodGet {
		// A GET's redirect was followed; a POST's never is.
		e.Message = fmt.Sprintf("redirected to %q; a POST is never followed to another address", redact.Clip(k.secrets.Redact(r.Header.Get("Location")), 200))
		return e
	}
	e.RetryAfter, e.RetryAt = r.RetryAfter, r.RetryAt
	var ok bool
	e.Message, e.Details, ok = refusal(r.Body, k.secrets.Line)
	if !ok {
		e.Message = k.secrets.Snippet(r.Body)
	}
	return e
}

// ResponseInfo is how an answer arrived. Every answer type embeds it (so
// page.RequestID reads it), rather than return it beside the answer as
// go-github does: each page of a range loop, or from the cache, carries
// its own.
type ResponseInfo struct {
	// RequestID is the id the API or its gateway gave the request ("" when
	// none was sent).
	RequestID string
	// Attempts is how many HTTP requests the answer took, retries included
	// (0 from the cache; All: the sum over its pages).
	Attempts int
	// Pages is 1 for one page or answer; All: the number of pages.
	Pages int
	// RateLimit is the budget the API reported with the answer.
	RateLimit RateLimit
	// Cache says whether an analytics answer came from the client's cache.
	Cache CacheStatus
}

// info is promoted to every type that embeds ResponseInfo.
func (r *ResponseInfo) info() *ResponseInfo { return r }

// infoOf is the ResponseInfo of p, a pointer to an answer type.
func infoOf(p any) *ResponseInfo {
	return p.(interface{ info() *ResponseInfo }).info() //nolint:forcetypeassert // every answer type embeds it
}

// combine merges the pages of one read: attempts and pages add up, the
// cache statuses combine, the newest request id and budget stand.
func (r ResponseInfo) combine(next ResponseInfo) ResponseInfo {
	if r.Pages == 0 { // nothing read yet: the first page stands for the read
		return next
	}
	out := next
	out.Attempts += r.Attempts
	out.Pages += r.Pages
	out.Cache = r.Cache.Combine(next.Cache)
	if out.RequestID == "" {
		out.RequestID = r.RequestID
	}
	if out.RateLimit == (RateLimit{}) {
		out.RateLimit = r.RateLimit
	}
	return out
}

// RateLimit is a budget as the API reported it in an answer's headers
// (X-RateLimit-Limit, -Remaining and -Reset, or RateLimit-*). Fields it
// did not carry are zero; Known says whether any did.
type RateLimit struct {
	Known     bool
	Limit     int
	Remaining int
	Reset     time.Time // when the budget refills
}
