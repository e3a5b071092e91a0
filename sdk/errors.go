package sdk

import (
	"bytes"
	"cmp"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// APIError is a response the API answered with a non-success status.
// Use errors.As to reach it through wrapping, or the Is* helpers.
type APIError struct {
	StatusCode int
	Method     string
	Path       string // escaped request path, without the query string
	// Message is the server's "error" field, or the cleaned start of a
	// body that is not JSON (a proxy's HTML page).
	Message   string
	Details   []ErrorDetail
	RequestID string
	// RetryAfter is the wait the server asked for (429, 503), zero when
	// it did not say; RetryAt is when it ends.
	RetryAfter time.Duration
	RetryAt    time.Time
	// Attempts is how many times the request was sent, retries included.
	Attempts int
	// NotSent is set on a 429 the client answered itself, sending nothing
	// (Attempts is 0): the budget it would draw from was known to be
	// spent until RetryAt, by this program or, through the analytics
	// cache, another. Budget names it ("the organization's analytics
	// budget").
	NotSent bool
	Budget  string
}

// ErrorDetail is one entry of an error body's "details" list.
type ErrorDetail struct {
	Message string `json:"message"`
}

// Error says what was asked, the status, the API's message and the request id; never the key.
func (e *APIError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d %s", e.Method, e.Path, e.StatusCode, http.StatusText(e.StatusCode))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	for _, d := range e.Details {
		if d.Message != "" {
			b.WriteString("; ")
			b.WriteString(d.Message)
		}
	}
	if e.NotSent || e.StatusCode == http.StatusTooManyRequests {
		if e.NotSent {
			fmt.Fprintf(&b, " (not sent: %s is known to be spent, as the API said when it refused an earlier request", cmp.Or(e.Budget, "the budget"))
		} else {
			b.WriteString(" (rate limited")
		}
		if !e.RetryAt.IsZero() {
			fmt.Fprintf(&b, "; try again after %s, in %s", e.RetryAt.UTC().Format(time.RFC3339), e.RetryAfter.Round(time.Second))
		}
		b.WriteString(")")
	}
	writeAttempts(&b, e.Attempts)
	if e.RequestID != "" {
		fmt.Fprintf(&b, " [request id %s]", e.RequestID)
	}
	return b.String()
}

// maxErrorDetails bounds the details an APIError keeps; one more entry
// says how many were left out.
const maxErrorDetails = 10

// refusal is what a refusal's body (a final answer that is not 2xx) says:
// the API's JSON error ({"error", "message", "details": [{"message"}]}),
// or an object store's XML one (a presigned link's). ok is false for any
// other body. show makes each text fit to show (secrets removed,
// escaped, clipped).
func refusal(data []byte, show func(string) string) (message string, details []ErrorDetail, ok bool) {
	var eb struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Details []ErrorDetail   `json:"details"`
	}
	if !bounded.ItemsFit(data) || json.Unmarshal(data, &eb) != nil || len(eb.Error) == 0 && eb.Message == "" && len(eb.Details) == 0 {
		if msg, ok := objectStorageError(data); ok {
			return show(msg), nil, true
		}
		return "", nil, false
	}
	if len(eb.Error) > 0 && json.Unmarshal(eb.Error, &message) != nil {
		message = canonicalJSON(eb.Error) // an object or a number: shown as JSON
	}
	if message == "" {
		message = eb.Message
	}
	for i, d := range eb.Details {
		if i == maxErrorDetails {
			details = append(details, ErrorDetail{Message: fmt.Sprintf("and %d more", len(eb.Details)-i)})
			break
		}
		details = append(details, ErrorDetail{Message: show(d.Message)})
	}
	return show(message), details, true
}

// canonicalJSON writes a JSON value again with its strings' escapes read,
// so a key spelled mint\u005f... is found by redaction; numbers as they
// came.
func canonicalJSON(raw json.RawMessage) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	_ = dec.Decode(&v) // raw is JSON, read from an answer
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // what was decoded encodes again
	return strings.TrimSuffix(b.String(), "\n")
}

// objectStorageError reads an object store's XML error (S3's
// <Error><Code>AccessDenied</Code><Message>...) as "AccessDenied:
// message": only those two, as the rest may echo the link's signature.
func objectStorageError(data []byte) (string, bool) {
	trimmed := strings.TrimSpace(string(data[:min(len(data), 64)]))
	if !strings.HasPrefix(trimmed, "<?xml") && !strings.HasPrefix(trimmed, "<Error") {
		return "", false
	}
	var body struct {
		XMLName xml.Name `xml:"Error"`
		Code    string   `xml:"Code"`
		Message string   `xml:"Message"`
	}
	if xml.Unmarshal(data, &body) != nil || body.Code == "" {
		return "", false
	}
	if body.Message == "" {
		return body.Code, true
	}
	return body.Code + ": " + body.Message, true
}

// writeAttempts says how many requests a failure cost, when more than one.
func writeAttempts(b *strings.Builder, n int) {
	if n > 1 {
		fmt.Fprintf(b, " (after %d attempts)", n)
	}
}

// RequestError is a request that got no usable answer: the connection was
// refused, dropped or timed out, or the body could not be read.
type RequestError struct {
	Method string
	Path   string // escaped request path, without the query string
	// Attempts is how many times the request was tried, retries included.
	Attempts int
	// Sent is false only when the request certainly never left this
	// machine (a refused connection, a DNS or TLS failure, a context that
	// ended first).
	Sent bool
	Err  error
}

// Error says what was asked, why it failed and after how many attempts.
func (e *RequestError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %v", e.Method, e.Path, e.Err)
	writeAttempts(&b, e.Attempts)
	return b.String()
}

// Unwrap returns the transport's error, for errors.Is (context.Canceled, say).
func (e *RequestError) Unwrap() error { return e.Err }

// ValidationError is an input the SDK refused before sending any request.
// Field uses the API's name for the input (dateFrom, limit, projectId, ...).
type ValidationError struct {
	Field string
	Value string // empty for secrets and empty inputs
	Rule  string
}

// maxEchoedValue bounds how much of a value an error repeats.
const maxEchoedValue = 100

// Error names the field, the rule and the value given (clipped).
func (e *ValidationError) Error() string {
	if e.Value != "" {
		return fmt.Sprintf("%s %q %s", e.Field, redact.Clip(e.Value, maxEchoedValue), e.Rule)
	}
	return fmt.Sprintf("%s %s", e.Field, e.Rule)
}

// MalformedResponseError is a success answer (2xx) the SDK will not trust:
// its body is not the API's JSON, or a field it needs is missing, of the
// wrong kind or impossible (another job's id). A POST may have taken
// effect; it is never retried.
type MalformedResponseError struct {
	Method string
	Path   string // escaped request path, without the query string
	// Problems name each field and what is wrong with it, such as
	// `createdAt: want a string, got a number`.
	Problems []string
	// BodyStart is the start of a body that is not JSON at all, secrets
	// redacted.
	BodyStart string
}

// Error names the request and what in its answer could not be used.
func (e *MalformedResponseError) Error() string {
	msg := fmt.Sprintf("malformed response to %s %s: %s", e.Method, e.Path, strings.Join(e.Problems, "; "))
	if e.BodyStart != "" {
		msg += fmt.Sprintf(" (body starts %q)", e.BodyStart)
	}
	return msg
}

// UnusableIDError is a success answer to a request that starts work (an
// agent job, a deployment or preview, a static export) naming it by an id
// its reads refuse: a program that stored it could never follow the work.
// The work may have been queued (MayHaveTakenEffect): look for it where
// Where says, and do not send the request again.
type UnusableIDError struct {
	Method string
	Path   string
	// What names the work ("agent job"); Field the answer's field that
	// held the id.
	What  string
	Field string
	// ID is the id as the server sent it: server text, to show escaped
	// (%q, DisplayLine).
	ID string
	// Rule is the rule it breaks, as the validator words it.
	Rule      string
	Where     string
	RequestID string
}

// Error says what may have happened, the id, the rule and where to look.
func (e *UnusableIDError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: the API answered with %s %s %q, which cannot be read back (it %s): the %s may have been queued all the same; "+
		"do not send the request again before you have looked for it in %s", e.Method, e.Path, e.What, e.Field, redact.Clip(e.ID, maxEchoedValue), e.Rule, e.What, e.Where)
	if e.RequestID != "" {
		fmt.Fprintf(&b, " [request id %s]", e.RequestID)
	}
	return b.String()
}

// answerID is how an answer names the object it is about: by an id in
// field, which must be there, and be the one asked for.
type answerID struct {
	field string // "id", "_id", "jobId", "statusId"
	// kind is how a problem names an object ("job"), twice when again:
	// "for job "a", not job "b"".
	kind  string
	again bool
	// For an answer that starts work (checkNew): the UnusableIDError's
	// What and Where, and the rule its reads check.
	what, where string
	validate    func(string) error
}

// The ids of the answers that name work.
var (
	agentJobID     = answerID{field: "id", kind: "job", again: true, what: "agent job", where: "the Mintlify dashboard (the project's agent jobs)", validate: ValidateJobID}
	staticExportID = answerID{field: "jobId", kind: "static export", what: "static export", where: "the Mintlify dashboard (the organization's static exports)", validate: ValidateStaticExportID}
	deploymentID   = answerID{field: "_id", kind: "status"}
	triggeredID    = answerID{field: "statusId", what: "deployment", where: findDeployment, validate: ValidateStatusID}
	previewID      = answerID{field: "statusId", what: "preview deployment", where: findDeployment, validate: ValidateStatusID}
)

const findDeployment = "the Mintlify dashboard (the project's deployment history)"

// check refuses an answer that cannot be the object asked for (want; ""
// for a new one): without an id, or with another's, which state would
// lose or point at someone else's. answerProblems are said after.
func (a answerID) check(k *core, c call, id, want string, answerProblems []string) error {
	var p problems
	switch {
	case id == "" && problems(answerProblems).Names(a.field):
		// An id of the wrong kind: its problem already says so.
	case id == "":
		p.Add(a.field, "missing or empty")
	case want != "" && id != want:
		named := ""
		if a.again {
			named = a.kind + " "
		}
		p.Add(a.field, "the answer is for %s %q, not %s%q", a.kind, k.echo(id), named, want)
	}
	if len(p) == 0 && id != "" {
		return nil
	}
	return &MalformedResponseError{Method: c.method, Path: c.path, Problems: append(p, answerProblems...)}
}

// checkNew refuses the answer of a request that started work: without an
// id (check), or with one its reads refuse (validate).
func (a answerID) checkNew(k *core, c call, info ResponseInfo, id string, answerProblems []string) error {
	if err := a.check(k, c, id, "", answerProblems); err != nil {
		return err
	}
	var ve *ValidationError
	if err := a.validate(id); !errors.As(err, &ve) {
		return err
	}
	return &UnusableIDError{Method: c.method, Path: c.path, What: a.what, Field: a.field, ID: k.secrets.Redact(id), Rule: ve.Rule, Where: a.where, RequestID: info.RequestID}
}

// PagingProblem is why a paging read stopped before its last page.
type PagingProblem string

// The ways a read can fail to page, each of which would otherwise spend
// the budget on a read that never ends or holds wrong rows.
const (
	PagingEmptyWithMore  PagingProblem = "empty page with more"
	PagingRepeatedRow    PagingProblem = "repeated row"
	PagingRepeatedCursor PagingProblem = "repeated cursor"
	PagingNoCursor       PagingProblem = "more without a cursor"
	// PagingUntrustedCursor: a cursor held this client's key: following
	// it would send the key in a URL.
	PagingUntrustedCursor PagingProblem = "untrusted cursor"
	// PagingRequestCap and PagingByteCap: the read reached the client's
	// cap (WithMaxPagesPerRead, WithMaxBytesPerRead).
	PagingRequestCap PagingProblem = "request cap"
	PagingByteCap    PagingProblem = "byte cap"
)

// PagingError is a paging read the SDK stopped because the server was not
// paging as the API documents. All returns no rows with it.
type PagingError struct {
	Endpoint string // "unique visitors"
	Problem  PagingProblem
	At       string // "the first page", "the page at offset 500"
	Requests int    // the read's requests
	Detail   string
}

// Error names the endpoint, the page, the problem and how many requests the read took.
func (e *PagingError) Error() string {
	unit := "requests"
	if e.Requests == 1 {
		unit = "request"
	}
	return fmt.Sprintf("getting %s: %s %s; stopped after %d %s", e.Endpoint, e.At, e.Detail, e.Requests, unit)
}

// ErrNotConfigured is returned by every call of a client not made by its
// constructor.
var ErrNotConfigured = errors.New("sdk: client not configured: create it with NewClient or NewClientFromEnv")

func statusOf(err error) int {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode
	}
	return 0
}

// IsNotFound reports whether err is a 404 from the API.
func IsNotFound(err error) bool { return statusOf(err) == http.StatusNotFound }

// IsUnauthorized reports whether err is a 401: the key is missing, invalid or expired.
func IsUnauthorized(err error) bool { return statusOf(err) == http.StatusUnauthorized }

// IsForbidden reports whether err is a 403: the key lacks the scope, the
// IP is not allow-listed, or the plan lacks the feature.
func IsForbidden(err error) bool { return statusOf(err) == http.StatusForbidden }

// IsRateLimited reports whether err is a 429.
func IsRateLimited(err error) bool { return statusOf(err) == http.StatusTooManyRequests }

// IsBadRequest reports whether err is a 400: the server refused the input.
func IsBadRequest(err error) bool { return statusOf(err) == http.StatusBadRequest }

// IsConflict reports whether err is a 409: the object is not ready for
// the request yet (the bundle of an export still running).
func IsConflict(err error) bool { return statusOf(err) == http.StatusConflict }

// RateLimitedByAPI reports whether err is a rate limit the API answered
// (a 429 that was sent, unlike one with NotSent). Until APIError.RetryAt
// a later call on that budget fails at once with NotSent, unless a cached
// copy younger than MaxStale serves it (Each and All serve it whole
// instead of ending with this error).
func RateLimitedByAPI(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.StatusCode == http.StatusTooManyRequests && !apiErr.NotSent
}

// IsNotSent reports whether err is a rate limit the client answered
// itself, sending nothing, because the budget it would draw from was
// known to be spent (APIError.NotSent; APIError.Budget names it): the
// organization's analytics or discovery budget, the assistant's message
// budget, or the Index's.
func IsNotSent(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.NotSent
}

// IsValidation reports whether err is an input the SDK refused before sending.
func IsValidation(err error) bool {
	var v *ValidationError
	return errors.As(err, &v)
}

// IsMalformedResponse reports whether err is a success answer the SDK
// refused to trust (see MalformedResponseError and UnusableIDError).
func IsMalformedResponse(err error) bool {
	var m *MalformedResponseError
	var u *UnusableIDError
	return errors.As(err, &m) || errors.As(err, &u)
}

// MayHaveTakenEffect reports whether a failed call may still have been
// carried out, so that a retry could do it twice: true when the request
// was sent and no usable answer came, and on a 5xx (a gateway's 502 can
// hide a created object); false when it never left the machine or the API
// refused it (4xx, or a redirect of a POST).
func MayHaveTakenEffect(err error) bool {
	if err == nil || IsValidation(err) || errors.Is(err, ErrNotConfigured) {
		return false
	}
	var reqErr *RequestError
	if errors.As(err, &reqErr) {
		return reqErr.Sent
	}
	var pagingErr *PagingError
	if errors.As(err, &pagingErr) {
		return false // a read: nothing to take effect
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode >= 500
	}
	return true
}

// BodyLimit names a bound of a body from outside (see LimitError).
type BodyLimit string

// The bounds a body from outside can break.
const (
	LimitBytes BodyLimit = "bytes"
	// LimitLine: a stream's line, or an event's data.
	LimitLine  BodyLimit = "line"
	LimitParts BodyLimit = "parts"
	// LimitIdle: nothing (a download: too little) came for the request
	// timeout.
	LimitIdle BodyLimit = "idle"
	// LimitDuration: a whole body outlasted its bound (a trickle).
	LimitDuration BodyLimit = "duration"
	// LimitUnknownSize: a download whose size nobody announced.
	LimitUnknownSize BodyLimit = "size"
)

// LimitError is a body from outside that broke one of its bounds.
// errors.Is(err, ErrResponseTooLarge) holds for bytes, lines and parts.
//
// The bounds: an answer, WithMaxResponseBytes and the request timeout; a
// streamed answer, 4 MiB a line or event, WithMaxStreamParts, the request
// timeout without a byte, WithMaxStreamDuration in all (Collect keeps
// WithMaxResponseBytes); a download, its announced size and
// MinDownloadRate. Rows past what was asked for are a problem, not kept.
type LimitError struct {
	Limit BodyLimit
	// Max is the bound of bytes or parts; After the bound of time.
	Max   int64
	After time.Duration
	// Option is the client option that sets the bound, if one does.
	Option string
}

// Error says which bound, and how to raise it.
func (e *LimitError) Error() string {
	var s string
	switch e.Limit {
	case LimitBytes:
		s = fmt.Sprintf("%s: over %d bytes", ErrResponseTooLarge, e.Max)
	case LimitLine:
		s = fmt.Sprintf("a line (or an event's data) is longer than %d bytes", e.Max)
	case LimitParts:
		s = fmt.Sprintf("more than %d parts", e.Max)
	case LimitIdle:
		s = fmt.Sprintf("no data came for %s (the request timeout)", e.After)
		if e.Max > 0 {
			s = fmt.Sprintf("less than %d bytes came in %s (the request timeout): slower than %d bytes a second", e.Max, e.After, MinDownloadRate)
		}
	case LimitDuration:
		s = fmt.Sprintf("still unfinished after %s", e.After)
	case LimitUnknownSize:
		s = "no size was announced (the API's sizeBytes, or the download server's Content-Length): an endless body cannot be told from a large one"
	default:
		s = "a bound was broken: " + string(e.Limit)
	}
	if e.Option != "" {
		s += " (" + e.Option + ")"
	}
	return s
}

// Is makes errors.Is(err, ErrResponseTooLarge) hold for bounds of size.
func (e *LimitError) Is(target error) bool {
	return target == ErrResponseTooLarge && (e.Limit == LimitBytes || e.Limit == LimitLine || e.Limit == LimitParts) //nolint:errorlint,err113 // the sentinel itself
}

// limitError makes a broken bound a *LimitError (totalOption names the
// option of a bound on the whole body); other errors pass unchanged.
func limitError(err error, totalOption string) error {
	b, ok := err.(*bounded.Error) //nolint:errorlint // package bounded returns its errors unwrapped
	if !ok {
		return err
	}
	switch b.Bound {
	case bounded.Bytes:
		return &LimitError{Limit: LimitBytes, Max: b.Max, Option: "WithMaxResponseBytes"}
	case bounded.Idle:
		return &LimitError{Limit: LimitIdle, Max: b.Max, After: b.After}
	}
	return &LimitError{Limit: LimitDuration, After: b.After, Option: totalOption}
}
