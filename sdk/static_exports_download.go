package sdk

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// downloadBufferSize is the one buffer a download reads through: memory
// stays flat whatever the bundle's size.
const downloadBufferSize = 256 << 10

// ErrNotAnArchive is wrapped by DownloadBundle's error when the answer is
// not a gzip archive (a bundle is a .tar.gz): an HTML or XML page answered
// 200 by a proxy, a captive portal or a misconfigured store, a JSON
// error. It is refused before anything is written.
var ErrNotAnArchive = errors.New("the answer is not a gzip archive")

// gzipMagic is how every gzip stream begins.
var gzipMagic = []byte{0x1f, 0x8b}

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

// DownloadProgress is how far a download has got.
type DownloadProgress struct {
	// Written is how many bytes of the bundle were written.
	Written int64
	// Total is the bundle's size, -1 until a server or WithExpectedSize
	// says.
	Total int64
	// Resumes is how many times the download was resumed after a broken
	// connection.
	Resumes int
}

// DownloadBundle streams the bundle at bundleURL (StaticExportBundle.URL)
// into w and returns how many bytes it wrote.
//
// The link is presigned: the request carries no Authorization header and
// no key (it goes to an object store, not to the API), and the link's
// query (its signature) never appears in an error, a RequestInfo or a
// log. Plain http is refused except to a loopback host.
//
// Nothing is written unless the answer is a gzip archive (its first
// bytes, and a Content-Type that is not a page's: HTML, XML, JSON or
// text), else the error wraps ErrNotAnArchive; and unless its size is
// known: from WithExpectedSize (pass the API's StaticExportBundle.SizeBytes)
// or the download server's Content-Length, else the error wraps a
// *LimitError (LimitUnknownSize), since an endless body cannot be told
// from a large one. No more than that size is ever written.
//
// Memory stays flat whatever the size: one 256 KiB buffer. A connection
// that breaks, or stalls (sends less than MinDownloadRate bytes a second
// over the request timeout, WithRequestTimeout), mid-body is resumed up
// to the client's retry count (WithMaxRetries), after a backoff: with a Range request when the
// server supports them (206 with the matching Content-Range), else by
// reading the bundle again from its start and skipping what w already
// has, so w is only ever appended to and any io.Writer works. Either way
// the server must serve the same bundle (the same ETag, when it sends
// one, and the same size), or the download fails rather than join two
// versions. The bytes written are checked against the size the server
// announced (Content-Length, or a Content-Range's total) and against
// WithExpectedSize's; a short or long body is an error.
//
// A link that has expired or was altered answers 403: create a new
// bundle. When the download fails, w holds a prefix of the bundle (n
// bytes): write to a temporary file and rename it once the call returns
// without error.
func (s *StaticExportsService) DownloadBundle(ctx context.Context, bundleURL string, w io.Writer, opts ...DownloadOption) (int64, error) {
	k, err := ready(s.core)
	if err != nil {
		return 0, err
	}
	u, err := parseBundleURL(bundleURL)
	if err != nil {
		return 0, err
	}
	if w == nil {
		return 0, &ValidationError{Field: "w", Rule: "is required: the writer the bundle goes to"}
	}
	// The link's secrets join the client's: whatever repeats them (an
	// error body, a header) is scrubbed, now and in later calls.
	k.learn(linkSecrets(u))
	d := &download{k: k, u: u, shown: withoutQuery(u), w: w, buf: make([]byte, downloadBufferSize), total: -1}
	for _, opt := range opts {
		if opt != nil {
			opt.applyDownload(&d.downloadSettings)
		}
	}
	if d.expected > 0 {
		d.total = d.expected
	}
	err = d.run(ctx)
	if err != nil {
		err = scrubLink(fmt.Errorf("downloading the bundle: %w", err), k.secretList())
	}
	return d.written, err
}

// download is one DownloadBundle call's state.
type download struct {
	downloadSettings
	k     *core
	u     *url.URL
	shown string // the link without its query: what errors name
	w     io.Writer
	buf   []byte

	written int64
	total   int64  // -1: not known yet
	etag    string // the first answer's ETag, when it had one
	resumes int
	// ranges is false once the server has ignored a Range request: later
	// resumes read from the start without asking for one.
	noRanges bool
}

// run downloads until the bundle is whole or a failure is final.
func (d *download) run(ctx context.Context) error {
	for {
		resp, err := d.open(ctx)
		if err != nil {
			return err
		}
		skip, err := d.accept(resp)
		if err != nil {
			_ = resp.Body.Close()
			return err
		}
		broke := d.copy(resp.Body, resp.Header.Get("Content-Type"), skip)
		_ = resp.Body.Close()
		var final *finalError
		switch {
		case errors.As(broke, &final):
			return final.err
		case ctx.Err() != nil:
			return &RequestError{Method: http.MethodGet, Path: d.shown, Attempts: d.resumes + 1, Sent: true,
				Err: fmt.Errorf("%w after %d of %s bytes", ctx.Err(), d.written, d.totalText())}
		case broke == nil:
			return d.finish()
		}
		if d.resumes >= d.k.maxRetries {
			return &RequestError{Method: http.MethodGet, Path: d.shown, Attempts: d.resumes + 1, Sent: true,
				Err: fmt.Errorf("the download broke after %d of %s bytes, and again after each of %d resumes (the client's retry limit): %w",
					d.written, d.totalText(), d.resumes, broke)}
		}
		d.resumes++
		if err := d.k.clock.Sleep(ctx, d.k.backoff(d.resumes)); err != nil {
			return &RequestError{Method: http.MethodGet, Path: d.shown, Attempts: d.resumes, Sent: true, Err: err}
		}
	}
}

// open sends the GET: from where the download stands, with a Range
// request once something was written (If-Range: the same bundle, or all
// of it). The request layer retries a 5xx, a 429 or a connection that
// broke before the headers, as for any GET.
func (d *download) open(ctx context.Context) (*http.Response, error) {
	h := http.Header{}
	// No transparent decompression: the archive is written byte for byte,
	// and ranges count the stored bytes.
	h.Set("Accept-Encoding", "identity")
	if d.written > 0 && !d.noRanges {
		h.Set("Range", "bytes="+strconv.FormatInt(d.written, 10)+"-")
		if d.etag != "" && !strings.HasPrefix(d.etag, "W/") {
			h.Set("If-Range", d.etag)
		}
	}
	resp, _, err := d.k.stream(ctx, call{method: http.MethodGet, path: d.shown, target: d.u, header: h})
	if err != nil {
		if IsForbidden(err) {
			return nil, fmt.Errorf("%w (a presigned link is refused once it has expired or when it was altered: create a new bundle)", err)
		}
		return nil, err
	}
	return resp, nil
}

// accept checks that an answer continues the bundle written so far, and
// returns how many of its first bytes w already has.
func (d *download) accept(resp *http.Response) (skip int64, err error) {
	mismatch := func(format string, args ...any) error {
		return &MalformedResponseError{Method: http.MethodGet, Path: d.shown, Problems: []string{fmt.Sprintf(format, args...)}}
	}
	etag := resp.Header.Get("ETag")
	if d.etag != "" && etag != "" && etag != d.etag {
		return 0, mismatch("the bundle changed while it was downloaded (ETag %s, then %s): download it again", DisplayLine(clip(d.etag, 80)), DisplayLine(clip(etag, 80)))
	}
	var size int64
	switch resp.StatusCode {
	case http.StatusPartialContent:
		start, total, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != d.written || d.written == 0 {
			return 0, mismatch("asked for the bytes from %d, the server sent Content-Range %q", d.written, clip(resp.Header.Get("Content-Range"), 80))
		}
		size = total
	case http.StatusOK:
		// The whole bundle again (the server ignored the Range, or this is
		// the first request): skip what w has.
		if d.written > 0 {
			d.noRanges = true
		}
		skip = d.written
		size = resp.ContentLength
	default:
		return 0, mismatch("status %d is not a download", resp.StatusCode)
	}
	if d.etag == "" && d.written == 0 {
		d.etag = etag
	}
	switch {
	case size < 0 && d.total < 0:
		// Nobody said how large the bundle is: an endless body would be
		// written until the disk is full.
		return 0, fmt.Errorf("GET %s: %w", d.shown, &LimitError{Limit: LimitUnknownSize, Option: "WithExpectedSize"})
	case size < 0:
	case d.total < 0:
		d.total = size
	case size != d.total && d.expected > 0 && d.written == 0:
		return 0, mismatch("the download server announced %d bytes, the API %d (sizeBytes)", size, d.expected)
	case size != d.total:
		return 0, mismatch("the bundle changed while it was downloaded (%d bytes, then %d): download it again", d.total, size)
	}
	return skip, nil
}

// finalError ends a download at once: w refused a write, or the server
// sent more than it announced. Another attempt would not do better.
type finalError struct{ err error }

func (e *finalError) Error() string { return e.err.Error() }

// copy writes body to w, first skipping skip bytes. It returns nil at the
// body's end, a *finalError when w fails or the body is too long, or why
// the body broke. A body that sends less than MinDownloadRate bytes a
// second over a request timeout is closed: a stalled (or trickling)
// connection is resumed like a broken one.
func (d *download) copy(body io.ReadCloser, contentType string, skip int64) error {
	bounded := newBoundedBody(body, bodyBounds{idle: d.k.requestTimeout, minRate: MinDownloadRate})
	defer bounded.stop()
	var r io.Reader = bounded
	if d.written == 0 && skip == 0 {
		br := bufio.NewReaderSize(bounded, 512)
		if err := d.checkArchive(br, contentType); err != nil {
			return err
		}
		r = br
	}
	for {
		n, err := r.Read(d.buf)
		chunk := d.buf[:n]
		if skip > 0 {
			drop := min(skip, int64(n))
			chunk, skip = chunk[drop:], skip-drop
		}
		var tooLong error
		if d.total >= 0 && d.written+int64(len(chunk)) > d.total {
			chunk = chunk[:d.total-d.written]
			tooLong = &finalError{&MalformedResponseError{Method: http.MethodGet, Path: d.shown,
				Problems: []string{fmt.Sprintf("the server sent more than the %d bytes announced", d.total)}}}
		}
		if len(chunk) > 0 {
			m, werr := d.w.Write(chunk)
			d.written += int64(m)
			if werr == nil && m < len(chunk) {
				werr = io.ErrShortWrite
			}
			if werr != nil {
				return &finalError{fmt.Errorf("writing the bundle after %d bytes: %w", d.written, werr)}
			}
			if d.progress != nil {
				d.progress(DownloadProgress{Written: d.written, Total: d.total, Resumes: d.resumes})
			}
		}
		if tooLong != nil {
			return tooLong
		}
		switch {
		case err == io.EOF: //nolint:errorlint // Read returns io.EOF itself
			if skip > 0 {
				return io.ErrUnexpectedEOF
			}
			return nil
		case err != nil:
			return err
		}
	}
}

// checkArchive refuses a body that is not a gzip archive, before a byte
// of it is written: a Content-Type an error page comes as, or first bytes
// that are not gzip's. A body that breaks before its first bytes is
// resumed like any other.
func (d *download) checkArchive(br *bufio.Reader, contentType string) error {
	mediaType, _, _ := mime.ParseMediaType(contentType)
	switch {
	case strings.HasPrefix(mediaType, "text/"), strings.HasSuffix(mediaType, "html"), strings.HasSuffix(mediaType, "xml"),
		strings.HasSuffix(mediaType, "json"):
	default:
		head, err := br.Peek(len(gzipMagic))
		if err != nil && len(head) < len(gzipMagic) && !errors.Is(err, io.EOF) {
			return err // broke before the first bytes: resumed
		}
		if bytes.Equal(head, gzipMagic) {
			return nil
		}
	}
	start, _ := br.Peek(256)
	return &finalError{fmt.Errorf("GET %s: %w (Content-Type %q, body starts %q): nothing was written",
		d.shown, ErrNotAnArchive, clip(contentType, 80), d.k.snippet(start))}
}

// finish checks the bundle's size once the body has ended.
func (d *download) finish() error {
	switch {
	case d.total >= 0 && d.written != d.total:
		return &MalformedResponseError{Method: http.MethodGet, Path: d.shown,
			Problems: []string{fmt.Sprintf("the download ended after %d of the %d bytes announced", d.written, d.total)}}
	case d.expected > 0 && d.written != d.expected:
		return &MalformedResponseError{Method: http.MethodGet, Path: d.shown,
			Problems: []string{fmt.Sprintf("downloaded %d bytes, the API announced %d (sizeBytes)", d.written, d.expected)}}
	}
	return nil
}

func (d *download) totalText() string {
	if d.total < 0 {
		return "an unknown number of"
	}
	return strconv.FormatInt(d.total, 10)
}

// parseContentRange reads "bytes START-END/TOTAL" (TOTAL may be *: -1).
func parseContentRange(v string) (start, total int64, ok bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(v), "bytes ")
	if !ok {
		return 0, 0, false
	}
	span, size, ok := strings.Cut(rest, "/")
	if !ok {
		return 0, 0, false
	}
	first, last, ok := strings.Cut(span, "-")
	if !ok {
		return 0, 0, false
	}
	start, err1 := strconv.ParseInt(first, 10, 64)
	end, err2 := strconv.ParseInt(last, 10, 64)
	if err1 != nil || err2 != nil || start < 0 || end < start {
		return 0, 0, false
	}
	if size == "*" {
		return start, -1, true
	}
	total, err := strconv.ParseInt(size, 10, 64)
	if err != nil || total <= end {
		return 0, 0, false
	}
	return start, total, true
}

// scrubLink removes a link's secrets from err: from the API errors it
// holds (in place), and from its text whatever its kind.
func scrubLink(err error, secrets []string) error {
	var apiErr *APIError
	if errors.As(err, &apiErr) {
		redactStrings(apiErr, secrets)
	}
	var m *MalformedResponseError
	if errors.As(err, &m) {
		redactStrings(m, secrets)
	}
	return &linkError{err: err, secrets: secrets}
}

// linkError is an error whose text is shown without a link's secrets.
type linkError struct {
	err     error
	secrets []string
}

func (e *linkError) Error() string {
	s, _ := scrub(e.err.Error(), e.secrets)
	return s
}

func (e *linkError) Unwrap() error { return e.err }
