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
