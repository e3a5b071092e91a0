package sdk

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
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
}

// ErrorDetail is one entry of an error body's "details" list.
type ErrorDetail struct {
	Message string `json:"message"`
}

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
	if e.StatusCode == http.StatusTooManyRequests {
		b.WriteString(" (rate limited")
		if !e.RetryAt.IsZero() {
			fmt.Fprintf(&b, "; try again after %s, in %s", e.RetryAt.UTC().Format(time.RFC3339), e.RetryAfter.Round(time.Second))
		}
		b.WriteString(")")
	}
	if e.RequestID != "" {
		fmt.Fprintf(&b, " [request id %s]", e.RequestID)
	}
	return b.String()
}

// ValidationError is an input the SDK refused before sending any request.
// Field uses the API's name for the input (dateFrom, limit, projectId, ...).
type ValidationError struct {
	Field string
	Value string // empty for secrets and empty inputs
	Rule  string
}

func (e *ValidationError) Error() string {
	if e.Value != "" {
		return fmt.Sprintf("%s %q %s", e.Field, e.Value, e.Rule)
	}
	return fmt.Sprintf("%s %s", e.Field, e.Rule)
}

func statusOf(err error) int {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode
	}
	return 0
}

// IsNotFound reports whether err is a 404 from the API (unknown project or job).
func IsNotFound(err error) bool { return statusOf(err) == http.StatusNotFound }

// IsUnauthorized reports whether err is a 401: the key is missing, invalid or expired.
func IsUnauthorized(err error) bool { return statusOf(err) == http.StatusUnauthorized }

// IsForbidden reports whether err is a 403: the key lacks the scope (a
// read-only key on a POST, say) or the caller's IP is not allow-listed.
func IsForbidden(err error) bool { return statusOf(err) == http.StatusForbidden }

// IsRateLimited reports whether err is a 429.
func IsRateLimited(err error) bool { return statusOf(err) == http.StatusTooManyRequests }

// IsBadRequest reports whether err is a 400: the server refused the input.
func IsBadRequest(err error) bool { return statusOf(err) == http.StatusBadRequest }

// IsValidation reports whether err is an input the SDK refused before sending.
func IsValidation(err error) bool {
	var v *ValidationError
	return errors.As(err, &v)
}

// MalformedResponseError is a success answer (2xx) the SDK will not trust:
// its body is not the API's JSON, or a field is missing, of the wrong kind
// or impossible (a negative count, another job's id). The request reached
// the server, so a POST may have taken effect; it is never retried.
type MalformedResponseError struct {
	Method string
	Path   string // escaped request path, without the query string
	// Problems name each field and what is wrong with it, such as
	// `createdAt: want a string, got number`.
	Problems []string
	// BodyStart is the start of a body that is not JSON at all (an HTML
	// login page from a proxy, say), with the key redacted; empty otherwise.
	BodyStart string
}

func (e *MalformedResponseError) Error() string {
	if e.BodyStart != "" || len(e.Problems) == 0 {
		return fmt.Sprintf("decoding response of %s %s: %s (body starts %q)", e.Method, e.Path, strings.Join(e.Problems, "; "), e.BodyStart)
	}
	return fmt.Sprintf("malformed response to %s %s: %s", e.Method, e.Path, strings.Join(e.Problems, "; "))
}

// IsMalformedResponse reports whether err is a success answer the SDK
// refused to trust (see MalformedResponseError).
func IsMalformedResponse(err error) bool {
	var m *MalformedResponseError
	return errors.As(err, &m)
}

// notSentError marks a request that never left this machine: the
// connection was refused, the name did not resolve, TLS failed, or the
// caller's context ended before sending. Nothing reached the server.
type notSentError struct{ err error }

func (e *notSentError) Error() string { return e.err.Error() }
func (e *notSentError) Unwrap() error { return e.err }

// MayHaveTakenEffect reports whether a failed call may still have been
// carried out by Mintlify, so that a retry could do it twice (a second
// agent job, a second follow-up message).
//
// It is true when the request was sent and no usable answer came back (a
// dropped connection, a timeout, a body the SDK could not read) and when
// the answer was a server error: a gateway's 502 can hide a job the API
// created. It is false when the request never left the machine (invalid
// input, a refused connection, a DNS or TLS failure) and when the API
// refused it (a 4xx status, 429 included, or a redirect the SDK does not
// follow for a POST).
func MayHaveTakenEffect(err error) bool {
	if err == nil || IsValidation(err) {
		return false
	}
	var notSent *notSentError
	if errors.As(err, &notSent) {
		return false
	}
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		return apiErr.StatusCode >= 500
	}
	return true
}
