package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/bounded"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/download"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/transport"
)

// MinDownloadRate is the slowest a download may be, in bytes per second
// averaged over each request timeout (WithRequestTimeout): 1 KiB/s, 60
// KiB in the default minute. A download slower than that (a trickle) is
// stalled: it is resumed like a broken connection, at most WithMaxRetries
// times, then fails with a *LimitError (LimitIdle).
const MinDownloadRate = 1 << 10

// ErrNotAnArchive is wrapped by DownloadBundle's error when the answer is
// not a gzip archive (a bundle is a .tar.gz): an HTML or XML page answered
// 200 by a proxy, a captive portal or a misconfigured store, a JSON
// error. It is refused before anything is written.
var ErrNotAnArchive = download.ErrNotAnArchive

// DownloadOption configures DownloadBundle.
type DownloadOption interface{ applyDownload(*downloadSettings) }

type downloadOptionFunc func(*downloadSettings)

func (f downloadOptionFunc) applyDownload(d *downloadSettings) { f(d) }

type downloadSettings struct {
	expected int64 // 0: not known
	progress func(DownloadProgress)
}

// WithExpectedSize makes DownloadBundle check the bytes it receives
// against n, the size the API announced (StaticExportBundle.SizeBytes),
// besides what the download server announces. 0 checks nothing more.
func WithExpectedSize(n int64) DownloadOption {
	return downloadOptionFunc(func(d *downloadSettings) {
		if n > 0 {
			d.expected = n
		}
	})
}

// WithDownloadProgress registers fn, called as the download advances
// (after every buffer written, up to 256 KiB).
func WithDownloadProgress(fn func(DownloadProgress)) DownloadOption {
	return downloadOptionFunc(func(d *downloadSettings) { d.progress = fn })
}

// DownloadProgress is how far a download has got: the bytes Written, the
// bundle's Total size (-1 until a server or WithExpectedSize says), and
// how many times it Resumed after a broken connection.
type DownloadProgress = download.Progress

// DownloadBundle streams the bundle at bundleURL (StaticExportBundle.URL)
// into w and returns how many bytes it wrote.
//
// The link is presigned: no key or Authorization is sent, and its query
// (the signature) never appears in an error or a log. Plain http is
// refused except to a loopback host. Nothing is written unless the answer
// is a gzip archive (else ErrNotAnArchive) of a known size
// (WithExpectedSize, else Content-Length; else a *LimitError,
// LimitUnknownSize), and never more than that size.
//
// One 256 KiB buffer, whatever the size. A body that breaks or stalls
// (under MinDownloadRate over the request timeout) is resumed up to
// WithMaxRetries times: by a Range request when the server supports them,
// else read again from the start skipping what w has, so w is only
// appended to. The server must serve the same bundle (ETag, size), and
// a resume writes no byte past its Content-Range; a short or long body is
// an error. An expired or altered link answers 403: create a new bundle.
// On failure w holds a prefix (n bytes): write to a temporary file and
// rename it once the call succeeds.
func (s *StaticExportsService) DownloadBundle(ctx context.Context, bundleURL string, w io.Writer, opts ...DownloadOption) (int64, error) {
	k, err := checked(s.core)
	if err != nil {
		return 0, err
	}
	u, rule := download.ParseLink(bundleURL)
	if rule != "" {
		return 0, &ValidationError{Field: "bundleURL", Rule: rule} // never the link: it is a secret
	}
	if w == nil {
		return 0, &ValidationError{Field: "w", Rule: "is required: the writer the bundle goes to"}
	}
	// The link's secrets join the client's: whatever repeats them (an
	// error body, a header) is scrubbed, now and in later calls.
	k.secrets.Learn(redact.LinkSecrets(u))
	var settings downloadSettings
	for _, opt := range opts {
		if opt != nil {
			opt.applyDownload(&settings)
		}
	}
	shown := redact.WithoutQuery(u)
	p := download.Params{
		Name: shown,
		Open: func(ctx context.Context, h http.Header) (*http.Response, error) {
			resp, _, err := k.stream(ctx, call{method: http.MethodGet, path: shown, target: u, header: h})
			switch {
			case IsForbidden(err):
				return nil, fmt.Errorf("%w (a presigned link is refused once it has expired or when it was altered: create a new bundle)", err)
			case err != nil:
				return nil, err
			}
			return resp, nil
		},
		Bound: func(body io.ReadCloser) io.ReadCloser {
			return bounded.NewReader(body, bounded.Bounds{Idle: k.requestTimeout, MinRate: MinDownloadRate, Fail: func(e *bounded.Error) error { return limitError(e, "") }})
		},
		Display:    DisplayLine,
		Snippet:    k.secrets.Snippet,
		Resumes:    k.maxRetries,
		Backoff:    func(n int) time.Duration { return transport.Backoff(n, k.retryMinBackoff, k.retryMaxBackoff) },
		Sleep:      k.clock.Sleep,
		Expected:   settings.expected,
		OnProgress: settings.progress,
	}
	n, err := download.Run(ctx, w, p)
	if err != nil {
		err = scrubLink(fmt.Errorf("downloading the bundle: %w", downloadError(err, shown)), k.secrets.List())
	}
	return n, err
}

// downloadError turns the download engine's errors into the public ones:
// a download that broke or was interrupted after its GETs into a
// *RequestError, an answer that does not continue the bundle into a
// *MalformedResponseError, a refused size into a *LimitError
// (LimitUnknownSize).
// Others (the request layer's, the writer's, ErrNotAnArchive's) are
// returned as they are.
func downloadError(err error, shown string) error {
	var mismatch *download.MismatchError
	var failed *download.Error
	switch {
	case errors.As(err, &failed):
		return &RequestError{Method: http.MethodGet, Path: shown, Attempts: failed.Attempts, Sent: true, Err: failed.Err}
	case errors.As(err, &mismatch):
		return &MalformedResponseError{Method: http.MethodGet, Path: shown, Problems: []string{mismatch.Problem}}
	case errors.Is(err, download.ErrUnknownSize):
		return fmt.Errorf("GET %s: %w", shown, &LimitError{Limit: LimitUnknownSize, Option: "WithExpectedSize"})
	}
	return err
}

// scrubLink removes a link's secrets from err: from the API errors it
// holds (in place), and from its text whatever its kind.
func scrubLink(err error, secrets []string) error {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		redact.Strings(apiErr, secrets)
	}
	var m *MalformedResponseError
	if errors.As(err, &m) {
		redact.Strings(m, secrets)
	}
	return redact.Error(err, secrets)
}
