package sdk

import (
	"bytes"
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
	// Message is the server's "error" field, or a cleaned snippet of a
	// non-JSON body (an HTML error page from a proxy, say).
	Message   string
	Details   []ErrorDetail
	RequestID string
	// RetryAfter is how long the server asked the client to wait (429, 503),
	// zero when it did not say. RetryAt is the moment that wait ends.
	RetryAfter time.Duration
	RetryAt    time.Time
	// Attempts is how many times the request was sent, retries included:
	// against a rate-limited budget, each one counted.
	Attempts int
	// NotSent is set on a 429 the client answered itself, sending nothing:
	// the budget the request would draw from (Budget) was known to be
	// spent until RetryAt (the API said so to this program or, for the
	// analytics budget, through the analytics cache to another one sharing
	// it). Attempts is 0.
	NotSent bool
	// Budget names the budget of a NotSent error, as its text says it:
	// "the organization's analytics budget", "the organization's discovery
	// budget", "the assistant's message budget" or "the Index's budget".
	Budget string
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
	if e.NotSent {
		budget := e.Budget
		if budget == "" {
			budget = "the budget"
		}
		fmt.Fprintf(&b, " (not sent: %s is known to be spent, as the API said when it refused an earlier request", budget)
		if !e.RetryAt.IsZero() {
			fmt.Fprintf(&b, "; try again after %s, in %s", e.RetryAt.UTC().Format(time.RFC3339), e.RetryAfter.Round(time.Second))
		}
		b.WriteString(")")
	} else if e.StatusCode == http.StatusTooManyRequests {
		b.WriteString(" (rate limited")
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

// maxErrorDetails bounds how many of an error body's details an APIError
// keeps: a server may send thousands. One more entry says how many were
// left out.
const maxErrorDetails = 10

// refusal is what the body of a refusal (a final answer that is not 2xx)
// says: the API's JSON error ({"error": ..., "message": ..., "details":
// [{"message": ...}]}), or an object store's XML one (S3's
// <Error><Code>AccessDenied</Code>..., which a presigned link answers).
// ok is false for any other body (a proxy's HTML page): the caller shows
// its start instead. show makes each of the server's texts fit to show
// (secrets removed, escaped, clipped).
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

// canonicalJSON writes a JSON value again as encoding/json writes it:
// its strings' escapes read, so that a key a server spelled mint\u005f...
// is found by redaction like any other; numbers as they came.
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

// objectStorageError reads an object store's XML error body (S3's
// <Error><Code>AccessDenied</Code><Message>Request has expired</Message>
// ...), which a presigned link answers with, as "AccessDenied: Request
// has expired". Only the code and message are kept: the rest may echo the
// request's signature.
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
// refused, dropped or timed out, or the body could not be read. Sent says
// whether the request may have reached the server; when it is false,
// nothing did.
type RequestError struct {
	Method string
	Path   string // escaped request path, without the query string
	// Attempts is how many times the request was tried, retries included.
	Attempts int
	// Sent is false only when the request certainly never left this
	// machine (a refused connection, a DNS or TLS failure, a context that
	// ended first). When in doubt it is true.
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

// maxEchoedValue bounds how much of a refused value an error repeats: a
// value may be any length.
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
// wrong kind or impossible (a negative count, another job's id). The
// request reached the server, so a POST may have taken effect; it is never
// retried.
type MalformedResponseError struct {
	Method string
	Path   string // escaped request path, without the query string
	// Problems name each field and what is wrong with it, such as
	// `createdAt: want a string, got a number`.
	Problems []string
	// BodyStart is the start of a body that is not JSON at all (an HTML
	// login page from a proxy, say), with secrets redacted; empty otherwise.
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
// agent job, a deployment or a preview, a static export) naming the new
// object by an id the SDK could not read it back by: the very rule its
// reads check (ValidateJobID, ValidateStatusID, ValidateStaticExportID)
// refuses it, so a program that stored it could never follow the work.
// It is refused before a caller can store it.
//
// The work may have been queued all the same (MayHaveTakenEffect is
// true): sending the request again may do it twice. Find it where Where
// says (the dashboard), not by this id.
type UnusableIDError struct {
	Method string
	Path   string // the request's path, as the API documents it
	// What names the work: "agent job", "deployment", "preview
	// deployment", "static export".
	What string
	// Field is the answer's field that held the id (id, statusId, jobId).
	Field string
	// ID is the id as the server sent it: server text, to show escaped
	// (%q, DisplayLine), never raw.
	ID string
	// Rule is the rule it breaks, as the validator words it.
	Rule string
	// Where says where to find the work instead.
	Where     string
	RequestID string
}

// Error says what may have happened, the id escaped, the rule and where to
// look.
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
	field string // the answer's field: "id", "_id", "jobId", "statusId"
	// kind is how a problem names an object of its kind ("job", "static
	// export"), twice when again: for job "a", not job "b".
	kind  string
	again bool
	// For an answer that starts work (checkNew): how UnusableIDError names
	// the work, where to find it instead, and the rule its reads check.
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

// findDeployment is where a deployment or preview whose status id cannot
// be read back may be found.
const findDeployment = "the Mintlify dashboard (the project's deployment history)"

// check refuses an answer that cannot be the object asked for (want; ""
// when the answer names a new one): without an id, or with another's.
// Writing it into Terraform state would lose the object, or point state at
// someone else's. answerProblems are the answer's own, said after.
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
// id (check), or naming the work by an id its reads refuse (validate), so
// that a caller could store it but never follow the work.
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

// The ways a server can fail to page, each of which would otherwise spend
// the rate-limited budget on a read that never ends or holds wrong rows.
const (
	// PagingEmptyWithMore: a page with no rows says there is more.
	PagingEmptyWithMore PagingProblem = "empty page with more"
	// PagingRepeatedRow: a row seen on an earlier page came again.
	PagingRepeatedRow PagingProblem = "repeated row"
	// PagingRepeatedCursor: a cursor given before came again.
	PagingRepeatedCursor PagingProblem = "repeated cursor"
	// PagingNoCursor: a page says there is more but gives no cursor.
	PagingNoCursor PagingProblem = "more without a cursor"
	// PagingUntrustedCursor: a cursor held a secret of this client (the
	// server echoed the key): following it would send the key in a URL.
	PagingUntrustedCursor PagingProblem = "untrusted cursor"
	// PagingRequestCap: the read reached the client's cap on requests
	// per read (WithMaxPagesPerRead).
	PagingRequestCap PagingProblem = "request cap"
	// PagingByteCap: the read's answers reached the client's cap on bytes
	// per read (WithMaxBytesPerRead).
	PagingByteCap PagingProblem = "byte cap"
)

// PagingError is a paging read the SDK stopped because the server was not
// paging as the API documents. The rows read before it are not returned
// by All: a read is whole or it fails.
type PagingError struct {
	// Endpoint names what was read ("unique visitors").
	Endpoint string
	Problem  PagingProblem
	// At names the page: "the first page", "the page at offset 500", ...
	At string
	// Requests is how many requests the read had made.
	Requests int
	// Detail says the rest in words.
	Detail string
}

// Error names the endpoint, the page, the problem and how many requests the read took.
func (e *PagingError) Error() string {
	unit := "requests"
	if e.Requests == 1 {
		unit = "request"
	}
	return fmt.Sprintf("getting %s: %s %s; stopped after %d %s", e.Endpoint, e.At, e.Detail, e.Requests, unit)
}

// ErrNotConfigured is returned by every call of a Client (or service) that
// was not made by its constructor: the zero value holds no key or address.
var ErrNotConfigured = errors.New("sdk: client not configured: create it with NewClient or NewClientFromEnv")

func statusOf(err error) int {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode
	}
	return 0
}

// IsNotFound reports whether err is a 404 from the API (an unknown project,
// job, deployment or export).
func IsNotFound(err error) bool { return statusOf(err) == http.StatusNotFound }

// IsUnauthorized reports whether err is a 401: the key is missing, invalid or expired.
func IsUnauthorized(err error) bool { return statusOf(err) == http.StatusUnauthorized }

// IsForbidden reports whether err is a 403: the key lacks the scope (a
// read-only key on a POST, say), the caller's IP is not allow-listed, or
// the feature is not on the organization's plan.
func IsForbidden(err error) bool { return statusOf(err) == http.StatusForbidden }

// IsRateLimited reports whether err is a 429.
func IsRateLimited(err error) bool { return statusOf(err) == http.StatusTooManyRequests }

// IsBadRequest reports whether err is a 400: the server refused the input.
func IsBadRequest(err error) bool { return statusOf(err) == http.StatusBadRequest }

// IsConflict reports whether err is a 409: the object is not in a state
// that allows the request yet (a bundle of an export still running).
func IsConflict(err error) bool { return statusOf(err) == http.StatusConflict }

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
// carried out by Mintlify, so that a retry could do it twice (a second
// agent job, message, deployment or export).
//
// It is true when the request was sent and no usable answer came back (a
// dropped connection, a timeout, a body the SDK could not read or trust)
// and when the answer was a server error: a gateway's 502 can hide an
// object the API created. It is false when the request never left the
// machine (invalid input, a refused connection, a DNS or TLS failure, a
// client not configured) and when the API refused it (a 4xx status, 429
// included, or a redirect the SDK does not follow for a POST).
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
	// LimitBytes: a body, or an answer gathered from a stream, grew past
	// its cap.
	LimitBytes BodyLimit = "bytes"
	// LimitLine: one line of a stream, or one event's data, grew past its
	// cap.
	LimitLine BodyLimit = "line"
	// LimitParts: a stream carried more parts than its cap.
	LimitParts BodyLimit = "parts"
	// LimitIdle: nothing (or, for a download, too little) arrived for the
	// request timeout: a stall.
	LimitIdle BodyLimit = "idle"
	// LimitDuration: the whole body took longer than its bound (a
	// trickle that never stalls).
	LimitDuration BodyLimit = "duration"
	// LimitUnknownSize: a download whose size nobody announced (neither
	// the API's sizeBytes nor the download server): it could be endless.
	LimitUnknownSize BodyLimit = "size"
)

// LimitError is a body from outside that broke one of its bounds (see
// BodyLimit). errors.Is(err, ErrResponseTooLarge) holds for the bounds of
// size: bytes, lines and parts.
//
// Every body from outside is read through one bounded reader (package
// bounded): an API's answer, an assistant's streamed answer, a
// bundle download. Each has bounds of bytes, of parts or events, and of
// time, each with a documented default; breaking any is a *LimitError:
//
//   - an answer read whole: WithMaxResponseBytes (16 MiB) and the request
//     timeout (1 minute), which bounds the attempt from sending to its
//     last byte;
//   - a streamed answer: a line, and an event's data, at most 4 MiB (or
//     WithMaxResponseBytes when smaller); WithMaxStreamParts parts
//     (100,000); no byte for the request timeout is a stall;
//     WithMaxStreamDuration for the whole answer (10 minutes); Collect
//     also gathers at most WithMaxResponseBytes;
//   - a download: the size announced (the API's sizeBytes, or the download
//     server's), a download with no size announced refused before a byte
//     is written; less than MinDownloadRate bytes a second over a request
//     timeout is a stall, resumed like a broken connection, at most
//     WithMaxRetries times.
//
// Lists an answer holds are bounded by what was asked for: a search keeps
// at most its page size, an Index search its NumResults, a paging read
// its page size; what a server sends past it is a problem, not kept.
type LimitError struct {
	Limit BodyLimit
	// Max is the bound of bytes or parts; After the bound of time.
	Max   int64
	After time.Duration
	// Option is the client option that sets the bound ("" when none
	// does).
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

// limitError is err as the SDK reports it: a broken bound a *LimitError
// (totalOption names the option of a bound on the whole body), anything
// else unchanged.
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
