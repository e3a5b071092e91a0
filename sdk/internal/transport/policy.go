package transport

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"math/rand/v2"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
)

// FitsBeforeDeadline reports whether waiting d still leaves time before
// ctx's deadline: a wait past it would only end in the deadline's error,
// hiding when the server said to come back.
func FitsBeforeDeadline(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return !ok || d < time.Until(deadline)
}

// ServerFailedTransiently reports whether a status is a server failure
// that may not repeat: any 5xx but 501, which says the request is never
// supported.
func ServerFailedTransiently(status int) bool {
	return status >= 500 && status != http.StatusNotImplemented
}

// retryableFailure reports whether an attempt that got no answer may be
// tried again: any GET (reads are safe), and a request whose connection
// never opened. An oversized body would be oversized again, and a refused
// redirect would be refused again: neither is worth a request.
func retryableFailure(method string, err error) bool {
	var redirect *redirectError
	var bound *bounded.Error
	if errors.As(err, &bound) || errors.As(err, &redirect) {
		return false
	}
	return method == http.MethodGet || isDialError(err)
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

// Backoff is the jittered exponential delay before retry number attempt
// (1-based): minDelay·2^(attempt-1), capped at maxDelay, then jittered
// into [d/2, d] so that many clients refused together do not return
// together.
func Backoff(attempt int, minDelay, maxDelay time.Duration) time.Duration {
	d := minDelay
	for i := 1; i < attempt && d < maxDelay; i++ {
		d *= 2
	}
	d = min(d, maxDelay)
	return d/2 + rand.N(d/2+1)
}

// ParseRetryAfter reads a Retry-After header: delay-seconds or an
// HTTP-date (a date past is no wait). It reports false for none, or one it
// cannot read.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
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
