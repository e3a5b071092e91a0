// Package download is the engine of a bundle download: it sends a GET
// through its caller, checks that each answer continues the bundle (its
// status, Content-Range, size and ETag), refuses an answer that is not a
// gzip archive or whose size nobody announced, writes the body to a
// writer through one buffer, and resumes a body that breaks or stalls
// (with a Range request when the server supports them).
//
// It is separate from package sdk because it is machinery: sending the
// request (retries, headers, the request hook), bounding a body's time
// and scrubbing secrets from errors are the caller's, passed in as
// functions, and the public errors are made from this package's by
// package sdk, in one place.
package download

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// BufferSize is the one buffer a download reads through: memory stays
// flat whatever the bundle's size.
const BufferSize = 256 << 10

// gzipMagic is how every gzip stream begins.
const gzipMagic = "\x1f\x8b"

// ErrNotAnArchive is wrapped by the error of a download whose answer is
// not a gzip archive (a bundle is a .tar.gz): an HTML or XML page answered
// 200 by a proxy, a captive portal or a misconfigured store, a JSON
// error. It is refused before anything is written.
var ErrNotAnArchive = errors.New("the answer is not a gzip archive")

// ErrUnknownSize is returned, bare, when neither the caller (Expected)
// nor the download server (Content-Length, Content-Range) said how large
// the bundle is: an endless body cannot be told from a large one, so
// nothing is written.
var ErrUnknownSize = errors.New("no size was announced for the download")

// MismatchError is an answer that does not continue the bundle written
// so far, or a body of the wrong size: the download failed and another
// attempt would not do better.
type MismatchError struct {
	// Problem says what was wrong, for a person.
	Problem string
}

func (e *MismatchError) Error() string { return e.Problem }

// Error is a download whose GETs were sent and failed: it broke on every
// resume the caller allowed, its context ended, or the sleep before a
// resume failed.
type Error struct {
	// Attempts is how many GETs were sent (or were about to be).
	Attempts int
	// Err is why the last one failed.
	Err error
}

func (e *Error) Error() string { return e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// Progress is how far a download has got.
type Progress struct {
	// Written is how many bytes of the bundle were written.
	Written int64
	// Total is the bundle's size, -1 until a server or Expected says.
	Total int64
	// Resumes is how many times the download was resumed.
	Resumes int
}

// Params is what a download needs from its caller.
type Params struct {
	// Name is the link without its secrets: errors name it.
	Name string
	// Open sends the GET with header (Accept-Encoding, and Range and
	// If-Range on a resume) and returns the answer, whatever its status.
	// Its error ends the download and is returned as it is.
	Open func(ctx context.Context, header http.Header) (*http.Response, error)
	// Bound wraps a body in its time bounds (a stalled or trickling body
	// fails its reads); the wrapper's Close closes the body.
	Bound func(body io.ReadCloser) io.ReadCloser
	// Display makes text a server sent (an ETag) safe to show.
	Display func(string) string
	// Snippet shows the first bytes of a body refused as not an archive.
	Snippet func([]byte) string
	// Resumes is how many times a body that broke may be resumed.
	Resumes int
	// Backoff is the wait before resume n (1, 2, ...).
	Backoff func(n int) time.Duration
	// Sleep waits d or until ctx ends, and returns ctx.Err() then.
	Sleep func(ctx context.Context, d time.Duration) error
	// Expected is the size the API announced (0: not known). The bytes
	// are checked against it besides what the download server announces.
	Expected int64
	// OnProgress, when set, is called after every buffer written.
	OnProgress func(Progress)
}

// Run downloads the bundle into w and returns how many bytes it wrote.
// w is only ever appended to; when Run fails it holds a prefix of the
// bundle. Its errors: Open's, as they are; ErrUnknownSize; a
// *MismatchError; an *Error; an error wrapping ErrNotAnArchive; or w's
// error, wrapped.
func Run(ctx context.Context, w io.Writer, p Params) (int64, error) {
	d := &download{Params: p, w: w, buf: make([]byte, BufferSize), total: -1}
	if d.Expected > 0 {
		d.total = d.Expected
	}
	err := d.run(ctx)
	return d.written, err
}

// download is one Run's state.
type download struct {
	Params
	w   io.Writer
	buf []byte

	written int64
	total   int64 // -1: not known yet
	// stop is where the answer being read must end (the bundle's size, or
	// the end of the range it declared), and past says so when it runs on.
	stop    int64
	past    string
	etag    string // the first answer's ETag, when it had one
	resumes int
	// noRanges is set once the server has ignored a Range request: later
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
		body := d.Bound(resp.Body)
		broke := d.copy(body, resp.Header.Get("Content-Type"), skip)
		_ = body.Close()
		var final *finalError
		switch {
		case errors.As(broke, &final):
			return final.err
		case ctx.Err() != nil:
			return &Error{Attempts: d.resumes + 1, Err: fmt.Errorf("%w after %d of %s bytes", ctx.Err(), d.written, d.totalText())}
		case broke == nil:
			return d.finish()
		}
		if d.resumes >= d.Resumes {
			return &Error{Attempts: d.resumes + 1,
				Err: fmt.Errorf("the download broke after %d of %s bytes, and again after each of %d resumes (the client's retry limit): %w",
					d.written, d.totalText(), d.resumes, broke)}
		}
		d.resumes++
		if err := d.Sleep(ctx, d.Backoff(d.resumes)); err != nil {
			return &Error{Attempts: d.resumes, Err: err}
		}
	}
}

// open sends the GET: from where the download stands, with a Range
// request once something was written (If-Range: the same bundle, or all
// of it).
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
	return d.Open(ctx, h)
}

// accept checks that an answer continues the bundle written so far, and
// returns how many of its first bytes w already has. It sets where the
// answer must end: the bundle's size, or a partial answer's declared
// range.
func (d *download) accept(resp *http.Response) (skip int64, err error) {
	mismatch := func(format string, args ...any) error {
		return &MismatchError{Problem: fmt.Sprintf(format, args...)}
	}
	etag := resp.Header.Get("ETag")
	if d.etag != "" && etag != "" && etag != d.etag {
		return 0, mismatch("the bundle changed while it was downloaded (ETag %s, then %s): download it again", d.Display(redact.Clip(d.etag, 80)), d.Display(redact.Clip(etag, 80)))
	}
	var size int64
	rangeEnd := int64(-1) // the last byte a partial answer declares
	switch resp.StatusCode {
	case http.StatusPartialContent:
		start, end, total, ok := parseContentRange(resp.Header.Get("Content-Range"))
		if !ok || start != d.written || d.written == 0 {
			return 0, mismatch("asked for the bytes from %d, the server sent Content-Range %q", d.written, redact.Clip(resp.Header.Get("Content-Range"), 80))
		}
		size, rangeEnd = total, end
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
		return 0, ErrUnknownSize
	case size < 0:
	case d.total < 0:
		d.total = size
	case size != d.total && d.Expected > 0 && d.written == 0:
		return 0, mismatch("the download server announced %d bytes, the API %d (sizeBytes)", size, d.Expected)
	case size != d.total:
		return 0, mismatch("the bundle changed while it was downloaded (%d bytes, then %d): download it again", d.total, size)
	}
	d.stop, d.past = d.total, fmt.Sprintf("the server sent more than the %d bytes announced", d.total)
	if rangeEnd >= 0 && rangeEnd < d.total-1 { // not rangeEnd+1: it may be math.MaxInt64
		d.stop, d.past = rangeEnd+1, fmt.Sprintf("the server sent more than the bytes %d-%d its Content-Range declared", d.written, rangeEnd)
	}
	return skip, nil
}

// finalError ends a download at once: w refused a write, the server sent
// more than it announced (the bundle's size, or a resume's range), or the
// answer is not an archive. Another
// attempt would not do better.
type finalError struct{ err error }

func (e *finalError) Error() string { return e.err.Error() }

// copy writes body to w, first skipping skip bytes. It returns nil at the
// body's end, a *finalError when w fails or the body is too long or not
// an archive, or why the body broke (a read that failed: a broken
// connection, or a time bound of Bound's).
func (d *download) copy(body io.Reader, contentType string, skip int64) error {
	r := body
	if d.written == 0 && skip == 0 {
		br := bufio.NewReaderSize(body, 512)
		if err := d.checkArchive(br, contentType); err != nil {
			return err
		}
		r = br
	}
	for {
		n, err := r.Read(d.buf)
		drop := min(skip, int64(n)) // what w already has
		chunk := d.buf[drop:n]
		skip -= drop
		var tooLong error
		if d.stop >= 0 && d.written+int64(len(chunk)) > d.stop {
			chunk = chunk[:d.stop-d.written]
			tooLong = &finalError{&MismatchError{Problem: d.past}}
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
			if d.OnProgress != nil {
				d.OnProgress(Progress{Written: d.written, Total: d.total, Resumes: d.resumes})
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
		if err != nil && !errors.Is(err, io.EOF) { // fewer bytes than asked
			return err // broke before the first bytes: resumed
		}
		if bytes.Equal(head, []byte(gzipMagic)) {
			return nil
		}
	}
	start, _ := br.Peek(256)
	return &finalError{fmt.Errorf("GET %s: %w (Content-Type %q, body starts %q): nothing was written",
		d.Name, ErrNotAnArchive, redact.Clip(contentType, 80), d.Snippet(start))}
}

// finish checks the bundle's size once the body has ended.
func (d *download) finish() error {
	switch {
	case d.total >= 0 && d.written != d.total:
		return &MismatchError{Problem: fmt.Sprintf("the download ended after %d of the %d bytes announced", d.written, d.total)}
	case d.Expected > 0 && d.written != d.Expected:
		return &MismatchError{Problem: fmt.Sprintf("downloaded %d bytes, the API announced %d (sizeBytes)", d.written, d.Expected)}
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
func parseContentRange(v string) (start, end, total int64, ok bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(v), "bytes ")
	if !ok {
		return 0, 0, 0, false
	}
	span, size, ok := strings.Cut(rest, "/")
	if !ok {
		return 0, 0, 0, false
	}
	first, last, ok := strings.Cut(span, "-")
	if !ok {
		return 0, 0, 0, false
	}
	start, err1 := strconv.ParseInt(first, 10, 64)
	end, err2 := strconv.ParseInt(last, 10, 64)
	if err1 != nil || err2 != nil || start < 0 || end < start {
		return 0, 0, 0, false
	}
	if size == "*" {
		return start, end, -1, true
	}
	total, err := strconv.ParseInt(size, 10, 64)
	if err != nil || total <= end {
		return 0, 0, 0, false
	}
	return start, end, total, true
}
