package download

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// bundle is n deterministic bytes, starting as a gzip archive does.
func bundle(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	copy(b, "\x1f\x8b")
	return b
}

var errBroken = errors.New("connection reset by peer")

// brokenReader yields r's bytes, then fails with err instead of io.EOF.
type brokenReader struct {
	r   io.Reader
	err error
}

func (b *brokenReader) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if errors.Is(err, io.EOF) {
		return n, b.err
	}
	return n, err
}

// answer is one response of a server: status, headers, a body that
// breaks after the bytes given when broken is set.
type answer struct {
	status  int
	header  map[string]string
	body    []byte
	length  int64 // Content-Length; -1 unknown
	broken  error
	openErr error
}

// whole is a 200 with the bundle and its length.
func whole(b []byte) answer { return answer{status: 200, body: b, length: int64(len(b))} }

// server answers Open with its answers in order (the last one again past
// the end), recording the headers and the bodies closed.
type server struct {
	answers []answer
	headers []http.Header
	closed  int
	sleeps  []time.Duration
	backoff []int
}

func (s *server) params() Params {
	return Params{
		Name: "https://store.test/b.tar.gz",
		Open: func(_ context.Context, h http.Header) (*http.Response, error) {
			a := s.answers[min(len(s.headers), len(s.answers)-1)]
			s.headers = append(s.headers, h)
			if a.openErr != nil {
				return nil, a.openErr
			}
			var body io.Reader = bytes.NewReader(a.body)
			if a.broken != nil {
				body = &brokenReader{r: body, err: a.broken}
			}
			resp := &http.Response{StatusCode: a.status, Header: http.Header{}, ContentLength: a.length, Body: io.NopCloser(body)}
			for k, v := range a.header {
				resp.Header.Set(k, v)
			}
			return resp, nil
		},
		Bound:   func(body io.ReadCloser) io.ReadCloser { return &closeCounter{ReadCloser: body, s: s} },
		Display: func(v string) string { return "«" + v + "»" },
		Snippet: func(b []byte) string { return strings.ToUpper(string(b)) },
		Resumes: 3,
		Backoff: func(n int) time.Duration { s.backoff = append(s.backoff, n); return time.Duration(n) * time.Second },
		Sleep: func(ctx context.Context, d time.Duration) error {
			s.sleeps = append(s.sleeps, d)
			return ctx.Err()
		},
	}
}

type closeCounter struct {
	io.ReadCloser
	s *server
}

func (c *closeCounter) Close() error { c.s.closed++; return c.ReadCloser.Close() }

func run(t *testing.T, s *server, change func(*Params)) (*bytes.Buffer, int64, error) {
	t.Helper()
	p := s.params()
	if change != nil {
		change(&p)
	}
	var buf bytes.Buffer
	n, err := Run(context.Background(), &buf, p)
	if n != int64(buf.Len()) {
		t.Errorf("Run said %d bytes, wrote %d", n, buf.Len())
	}
	return &buf, n, err
}

func mismatch(t *testing.T, err error, want string) {
	t.Helper()
	var m *MismatchError
	if !errors.As(err, &m) || m.Problem != want || err.Error() != want {
		t.Fatalf("err %v, want the mismatch %q", err, want)
	}
}

func TestRun_writesEveryByteAndReportsProgress(t *testing.T) {
	content := bundle(3*BufferSize + 100)
	s := &server{answers: []answer{whole(content)}}
	var progress []Progress
	buf, n, err := run(t, s, func(p *Params) { p.OnProgress = func(pr Progress) { progress = append(progress, pr) } })
	if err != nil || n != int64(len(content)) || !bytes.Equal(buf.Bytes(), content) {
		t.Fatalf("n %d: %v", n, err)
	}
	if len(progress) < 4 || progress[len(progress)-1] != (Progress{Written: n, Total: n}) || progress[0].Written > BufferSize {
		t.Errorf("progress %+v", progress)
	}
	if h := s.headers[0]; len(h) != 1 || h.Get("Accept-Encoding") != "identity" {
		t.Errorf("first request's headers %v", h)
	}
	if s.closed != 1 || len(s.sleeps) != 0 {
		t.Errorf("%d bodies closed, slept %v", s.closed, s.sleeps)
	}
}

func TestRun_resumesWithARangeRequest(t *testing.T) {
	content := bundle(1000)
	etag := map[string]string{"ETag": `"v1"`}
	s := &server{answers: []answer{
		{status: 200, header: etag, body: content[:300], length: 1000, broken: errBroken},
		{status: 206, header: map[string]string{"ETag": `"v1"`, "Content-Range": "bytes 300-999/1000"}, body: content[300:500], length: 700, broken: errBroken},
		{status: 206, header: map[string]string{"Content-Range": "bytes 500-999/1000"}, body: content[500:], length: 500},
	}}
	var resumes []int
	buf, _, err := run(t, s, func(p *Params) {
		p.OnProgress = func(pr Progress) {
			if len(resumes) == 0 || resumes[len(resumes)-1] != pr.Resumes {
				resumes = append(resumes, pr.Resumes)
			}
		}
	})
	if err != nil || !bytes.Equal(buf.Bytes(), content) {
		t.Fatalf("%d bytes: %v", buf.Len(), err)
	}
	for i, want := range []string{"", "bytes=300-", "bytes=500-"} {
		if h := s.headers[i]; h.Get("Range") != want || (want != "" && h.Get("If-Range") != `"v1"`) {
			t.Errorf("request %d: %v", i, h)
		}
	}
	if !slices.Equal(resumes, []int{0, 1, 2}) || !slices.Equal(s.backoff, []int{1, 2}) || !slices.Equal(s.sleeps, []time.Duration{time.Second, 2 * time.Second}) {
		t.Errorf("resumes %v, backoff %v, sleeps %v", resumes, s.backoff, s.sleeps)
	}
	if s.closed != 3 {
		t.Errorf("%d bodies closed", s.closed)
	}
}

func TestRun_aWeakOrMissingETagIsNotSentAsIfRange(t *testing.T) {
	for name, etag := range map[string]string{"weak": `W/"v1"`, "none": ""} {
		t.Run(name, func(t *testing.T) {
			content := bundle(100)
			h := map[string]string{}
			if etag != "" {
				h["ETag"] = etag
			}
			s := &server{answers: []answer{
				{status: 200, header: h, body: content[:10], length: 100, broken: errBroken},
				{status: 206, header: map[string]string{"Content-Range": "bytes 10-99/100"}, body: content[10:], length: 90},
			}}
			if buf, _, err := run(t, s, nil); err != nil || !bytes.Equal(buf.Bytes(), content) {
				t.Fatalf("%v", err)
			}
			if s.headers[1].Get("Range") != "bytes=10-" || s.headers[1].Get("If-Range") != "" {
				t.Errorf("resume's headers %v", s.headers[1])
			}
		})
	}
}

func TestRun_withoutRangesReadsAgainAndSkipsWhatItHas(t *testing.T) {
	content := bundle(1000)
	s := &server{answers: []answer{
		{status: 200, body: content[:600], length: 1000, broken: errBroken},
		{status: 200, body: content[:200], length: 1000, broken: errBroken}, // broke before what w has
		{status: 200, body: content[:700], length: 1000, broken: errBroken}, // after
		whole(content),
	}}
	var progress []int64
	buf, _, err := run(t, s, func(p *Params) { p.OnProgress = func(pr Progress) { progress = append(progress, pr.Written) } })
	if err != nil || !bytes.Equal(buf.Bytes(), content) || len(s.headers) != 4 {
		t.Fatalf("%d requests, %d bytes: %v", len(s.headers), buf.Len(), err)
	}
	// Bytes skipped are neither written nor reported.
	for i := 1; i < len(progress); i++ {
		if progress[i] <= progress[i-1] {
			t.Fatalf("progress went %v", progress)
		}
	}
	if s.headers[1].Get("Range") != "bytes=600-" || s.headers[2].Get("Range") != "" || s.headers[3].Get("Range") != "" {
		t.Error("a server that ignored a Range request is asked again for one")
	}
}

func TestRun_aBodyThatEndsWhileSkippingIsResumed(t *testing.T) {
	content := bundle(100)
	s := &server{answers: []answer{
		{status: 200, body: content[:60], length: 100, broken: errBroken},
		{status: 200, body: content[:30], length: 100}, // ends cleanly, short of what w has
		whole(content),
	}}
	buf, _, err := run(t, s, nil)
	if err != nil || !bytes.Equal(buf.Bytes(), content) || len(s.headers) != 3 {
		t.Fatalf("%d requests: %v", len(s.headers), err)
	}
}

func TestRun_neverJoinsTwoVersions(t *testing.T) {
	content := bundle(100)
	first := answer{status: 200, header: map[string]string{"ETag": `"v1"`}, body: content[:10], length: 100, broken: errBroken}
	for name, tt := range map[string]struct {
		second answer
		want   string
	}{
		"another ETag": {answer{status: 206, header: map[string]string{"ETag": `"v2"`, "Content-Range": "bytes 10-99/100"}, body: content[10:], length: 90},
			`the bundle changed while it was downloaded (ETag «"v1"», then «"v2"»): download it again`},
		"another size": {answer{status: 200, body: content[:99], length: 99},
			"the bundle changed while it was downloaded (100 bytes, then 99): download it again"},
		"another total": {answer{status: 206, header: map[string]string{"Content-Range": "bytes 10-100/101"}, body: content[10:], length: 91},
			"the bundle changed while it was downloaded (100 bytes, then 101): download it again"},
		"a range that is not the one asked": {answer{status: 206, header: map[string]string{"Content-Range": "bytes 9-99/100"}, body: content[9:], length: 91},
			`asked for the bytes from 10, the server sent Content-Range "bytes 9-99/100"`},
		"a range that cannot be read": {answer{status: 206, header: map[string]string{"Content-Range": "bytes 10-99"}, body: content[10:], length: 90},
			`asked for the bytes from 10, the server sent Content-Range "bytes 10-99"`},
		"no Content-Range": {answer{status: 206, body: content[10:], length: 90},
			`asked for the bytes from 10, the server sent Content-Range ""`},
		"a redirect": {answer{status: 302, length: 0}, "status 302 is not a download"},
	} {
		t.Run(name, func(t *testing.T) {
			s := &server{answers: []answer{first, tt.second}}
			buf, _, err := run(t, s, nil)
			mismatch(t, err, tt.want)
			if buf.Len() != 10 || len(s.headers) != 2 || s.closed != 1 {
				t.Errorf("%d bytes, %d requests, %d bodies closed", buf.Len(), len(s.headers), s.closed)
			}
		})
	}
}

func TestRun_aPartialAnswerToTheFirstRequestIsRefused(t *testing.T) {
	content := bundle(100)
	s := &server{answers: []answer{{status: 206, header: map[string]string{"Content-Range": "bytes 0-99/100"}, body: content, length: 100}}}
	_, n, err := run(t, s, nil)
	mismatch(t, err, `asked for the bytes from 0, the server sent Content-Range "bytes 0-99/100"`)
	if n != 0 {
		t.Errorf("%d bytes", n)
	}
}

func TestRun_aLongServerTextIsClipped(t *testing.T) {
	content := bundle(100)
	long := strings.Repeat("é", 200)
	s := &server{answers: []answer{
		{status: 200, header: map[string]string{"ETag": "a" + long}, body: content[:10], length: 100, broken: errBroken},
		{status: 206, header: map[string]string{"ETag": "b" + long, "Content-Range": "bytes 10-99/100 " + long}, body: content[10:], length: 90},
	}}
	_, _, err := run(t, s, nil)
	want := "(ETag «a" + strings.Repeat("é", 79) + "…», then «b" + strings.Repeat("é", 79) + "…»)"
	if !strings.Contains(err.Error(), want) {
		t.Errorf("%v, want %s", err, want)
	}
	s = &server{answers: []answer{
		{status: 200, body: content[:10], length: 100, broken: errBroken},
		{status: 206, header: map[string]string{"Content-Range": "bytes 11-99/100" + long}, body: content[10:], length: 90},
	}}
	_, _, err = run(t, s, nil)
	if want := fmt.Sprintf("%q", "bytes 11-99/100"+strings.Repeat("é", 65)+"…"); !strings.HasSuffix(err.Error(), want) {
		t.Errorf("%v, want it to end %s", err, want)
	}
}

func TestRun_theSizeMustBeKnown(t *testing.T) {
	content := bundle(100)
	// Nobody said: refused, nothing written, no resume.
	s := &server{answers: []answer{{status: 200, body: content, length: -1}}}
	_, n, err := run(t, s, nil)
	if err != ErrUnknownSize || n != 0 || len(s.headers) != 1 || s.closed != 0 { //nolint:errorlint,err113 // returned bare
		t.Fatalf("%d bytes, %d requests: %v", n, len(s.headers), err)
	}
	// The API's size is enough.
	s = &server{answers: []answer{{status: 200, body: content, length: -1}}}
	buf, _, err := run(t, s, func(p *Params) { p.Expected = 100 })
	if err != nil || !bytes.Equal(buf.Bytes(), content) {
		t.Fatalf("%v", err)
	}
	// So is a Content-Range's total, on a resume of a body whose length
	// the first answer gave.
	s = &server{answers: []answer{
		{status: 200, body: content[:10], length: 100, broken: errBroken},
		{status: 206, header: map[string]string{"Content-Range": "bytes 10-99/*"}, body: content[10:], length: -1},
	}}
	if buf, _, err := run(t, s, nil); err != nil || !bytes.Equal(buf.Bytes(), content) {
		t.Fatalf("%v", err)
	}
	// A negative expected size is none.
	s = &server{answers: []answer{{status: 200, body: content, length: -1}}}
	if _, _, err := run(t, s, func(p *Params) { p.Expected = -5 }); !errors.Is(err, ErrUnknownSize) {
		t.Fatalf("%v", err)
	}
}

func TestRun_sizeChecks(t *testing.T) {
	content := bundle(1000)
	// The server and the API disagree before anything is written.
	s := &server{answers: []answer{whole(content)}}
	_, n, err := run(t, s, func(p *Params) { p.Expected = 2000 })
	mismatch(t, err, "the download server announced 1000 bytes, the API 2000 (sizeBytes)")
	if n != 0 {
		t.Errorf("%d bytes", n)
	}
	// A body that ends short.
	s = &server{answers: []answer{{status: 200, body: content[:200], length: -1}}}
	_, n, err = run(t, s, func(p *Params) { p.Expected = 300 })
	mismatch(t, err, "the download ended after 200 of the 300 bytes announced")
	if n != 200 || len(s.headers) != 1 {
		t.Errorf("%d bytes, %d requests", n, len(s.headers))
	}
	// A body longer than announced is cut there, and not resumed.
	s = &server{answers: []answer{{status: 200, body: content, length: -1}}}
	buf, n, err := run(t, s, func(p *Params) { p.Expected = 150 })
	mismatch(t, err, "the server sent more than the 150 bytes announced")
	if n != 150 || !bytes.Equal(buf.Bytes(), content[:150]) || len(s.headers) != 1 {
		t.Errorf("%d bytes, %d requests", n, len(s.headers))
	}
	// A size of 0 announced is held to as well: nothing is written.
	s = &server{answers: []answer{{status: 200, body: content, length: 0}}}
	_, n, err = run(t, s, nil)
	mismatch(t, err, "the server sent more than the 0 bytes announced")
	if n != 0 {
		t.Errorf("%d bytes", n)
	}
	// Exactly the size announced is the bundle.
	s = &server{answers: []answer{{status: 200, body: content[:150], length: -1}}}
	if _, n, err = run(t, s, func(p *Params) { p.Expected = 150 }); err != nil || n != 150 {
		t.Errorf("%d bytes: %v", n, err)
	}
}

func TestRun_aResumeLongerThanTheRestIsCut(t *testing.T) {
	content := bundle(100)
	s := &server{answers: []answer{
		{status: 200, body: content[:50], length: 100, broken: errBroken},
		{status: 206, header: map[string]string{"Content-Range": "bytes 50-99/100"}, body: append(slices.Clone(content[50:]), "more"...), length: 54},
	}}
	buf, _, err := run(t, s, nil)
	mismatch(t, err, "the server sent more than the 100 bytes announced")
	if !bytes.Equal(buf.Bytes(), content) {
		t.Errorf("%d bytes", buf.Len())
	}
}

// A resume whose body runs past the range its Content-Range declares is
// written up to the range's end, then refused: the bytes past it are not
// the ones declared, whatever the bundle's size.
func TestRun_aResumeLongerThanItsRangeIsCut(t *testing.T) {
	content := bundle(100000)
	for name, length := range map[string]int64{"no Content-Length": -1, "a Content-Length past the range": 99990} {
		t.Run(name, func(t *testing.T) {
			s := &server{answers: []answer{
				{status: 200, body: content[:10], length: 100000, broken: errBroken},
				{status: 206, header: map[string]string{"Content-Range": "bytes 10-19/100000"}, body: content[10:], length: length},
			}}
			buf, _, err := run(t, s, nil)
			mismatch(t, err, "the server sent more than the bytes 10-19 its Content-Range declared")
			if !bytes.Equal(buf.Bytes(), content[:20]) || len(s.headers) != 2 {
				t.Errorf("%d bytes written, %d requests", buf.Len(), len(s.headers))
			}
		})
	}
	// A range whose end is the bundle's is cut at the bundle's size, as
	// any answer is; so is one declared past it with an unknown total,
	// up to the largest end a range can say.
	for _, cr := range []string{"bytes 50-99/100", "bytes 50-149/*", "bytes 50-9223372036854775807/*"} {
		small := content[:100]
		s := &server{answers: []answer{
			{status: 200, body: small[:50], length: 100, broken: errBroken},
			{status: 206, header: map[string]string{"Content-Range": cr}, body: content[50:150], length: -1},
		}}
		buf, _, err := run(t, s, nil)
		mismatch(t, err, "the server sent more than the 100 bytes announced")
		if !bytes.Equal(buf.Bytes(), small) {
			t.Errorf("%s: %d bytes written", cr, buf.Len())
		}
	}
}

func TestRun_onlyAnArchiveIsWritten(t *testing.T) {
	for name, tt := range map[string]struct{ contentType, body string }{
		"HTML":          {"text/html; charset=utf-8", "<html>sign in</html>"},
		"plain text":    {"text/plain", "\x1f\x8b but text"},
		"XHTML":         {"application/xhtml+xml", "\x1f\x8b"},
		"XML":           {"application/xml", "\x1f\x8b<Error/>"},
		"JSON":          {"application/json", "\x1f\x8b{}"},
		"problem JSON":  {"application/problem+json", "\x1f\x8b{}"},
		"gzipped HTML":  {"text/html", "\x1f\x8b\x08\x00 a page"},
		"unlabelled":    {"", "<html>sign in</html>"},
		"a zip":         {"application/octet-stream", "PK\x03\x04"},
		"half a magic":  {"application/gzip", "\x1f"},
		"nothing":       {"application/gzip", ""},
		"the other way": {"application/gzip", "\x8b\x1f"},
	} {
		t.Run(name, func(t *testing.T) {
			s := &server{answers: []answer{{status: 200, header: map[string]string{"Content-Type": tt.contentType}, body: []byte(tt.body), length: int64(len(tt.body))}}}
			_, n, err := run(t, s, nil)
			want := fmt.Sprintf("GET https://store.test/b.tar.gz: the answer is not a gzip archive (Content-Type %q, body starts %q): nothing was written", tt.contentType, strings.ToUpper(tt.body))
			if !errors.Is(err, ErrNotAnArchive) || err.Error() != want || n != 0 || len(s.headers) != 1 || s.closed != 1 {
				t.Fatalf("%d bytes, %d requests: %v\nwant %s", n, len(s.headers), err, want)
			}
		})
	}
	// What a refused body shows is its first 256 bytes at most.
	long := "<html>" + strings.Repeat("x", 1000)
	s := &server{answers: []answer{{status: 200, body: []byte(long), length: int64(len(long))}}}
	if _, _, err := run(t, s, nil); !strings.Contains(err.Error(), fmt.Sprintf("%q)", strings.ToUpper(long[:256]))) {
		t.Errorf("%v", err)
	}
	// A Content-Type with parameters an archive may come as is accepted.
	content := bundle(10)
	s = &server{answers: []answer{{status: 200, header: map[string]string{"Content-Type": "application/gzip; name=b.tar.gz"}, body: content, length: 10}}}
	if _, _, err := run(t, s, nil); err != nil {
		t.Errorf("%v", err)
	}
}

func TestRun_aBodyThatBreaksBeforeItsFirstBytesIsResumed(t *testing.T) {
	content := bundle(100)
	for name, first := range map[string][]byte{"no byte": nil, "one byte": content[:1]} {
		t.Run(name, func(t *testing.T) {
			s := &server{answers: []answer{{status: 200, body: first, length: 100, broken: errBroken}, whole(content)}}
			buf, _, err := run(t, s, nil)
			if err != nil || !bytes.Equal(buf.Bytes(), content) || len(s.headers) != 2 || s.headers[1].Get("Range") != "" {
				t.Fatalf("%d requests: %v", len(s.headers), err)
			}
		})
	}
}

func TestRun_resumesAreBounded(t *testing.T) {
	content := bundle(1000)
	s := &server{answers: []answer{
		{status: 200, body: content[:10], length: 1000, broken: errBroken},
		{status: 206, header: map[string]string{"Content-Range": "bytes 10-999/1000"}, body: content[10:20], length: 990, broken: errBroken},
		{status: 206, header: map[string]string{"Content-Range": "bytes 20-999/1000"}, body: content[20:30], length: 980, broken: errBroken},
	}}
	buf, _, err := run(t, s, func(p *Params) { p.Resumes = 2 })
	var e *Error
	if !errors.As(err, &e) || e.Attempts != 3 || !errors.Is(err, errBroken) || buf.Len() != 30 || len(s.headers) != 3 {
		t.Fatalf("%d requests, %d bytes: %v", len(s.headers), buf.Len(), err)
	}
	if want := "the download broke after 30 of 1000 bytes, and again after each of 2 resumes (the client's retry limit): connection reset by peer"; err.Error() != want {
		t.Errorf("err %q, want %q", err, want)
	}
	// No resume at all.
	s = &server{answers: []answer{{status: 200, body: content[:10], length: -1, broken: errBroken}}}
	_, _, err = run(t, s, func(p *Params) { p.Resumes, p.Expected = 0, 1000 })
	if !errors.As(err, &e) || e.Attempts != 1 || len(s.headers) != 1 || len(s.sleeps) != 0 ||
		err.Error() != "the download broke after 10 of 1000 bytes, and again after each of 0 resumes (the client's retry limit): connection reset by peer" {
		t.Fatalf("%d requests: %v", len(s.headers), err)
	}
}

func TestTotalText(t *testing.T) {
	d := &download{total: -1}
	if got := d.totalText(); got != "an unknown number of" {
		t.Errorf("%q", got)
	}
	d.total = 0
	if got := d.totalText(); got != "0" {
		t.Errorf("%q", got)
	}
}

func TestRun_aWriterThatFailsEndsIt(t *testing.T) {
	content := bundle(3 * BufferSize)
	s := &server{answers: []answer{whole(content)}}
	var written int
	p := s.params()
	p.Resumes = 5
	n, err := Run(context.Background(), writerFunc(func(b []byte) (int, error) {
		if written >= BufferSize {
			return 7, errors.New("no space left on device")
		}
		written += len(b)
		return len(b), nil
	}), p)
	if n != int64(written+7) || len(s.headers) != 1 || err.Error() != fmt.Sprintf("writing the bundle after %d bytes: no space left on device", written+7) {
		t.Fatalf("n %d, %d requests: %v", n, len(s.headers), err)
	}
	// A writer that takes less than it is given without saying why.
	s = &server{answers: []answer{whole(content)}}
	first := 0
	n, err = Run(context.Background(), writerFunc(func(b []byte) (int, error) { first = len(b); return len(b) - 1, nil }), s.params())
	if !errors.Is(err, io.ErrShortWrite) || n != int64(first-1) || first == 0 || len(s.headers) != 1 {
		t.Fatalf("n %d: %v", n, err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestRun_interrupted(t *testing.T) {
	content := bundle(100)
	s := &server{answers: []answer{{status: 200, body: content[:40], length: 100, broken: context.Canceled}}}
	ctx, cancel := context.WithCancel(context.Background())
	p := s.params()
	n, err := Run(ctx, writerFunc(func(b []byte) (int, error) { cancel(); return len(b), nil }), p)
	var e *Error
	if !errors.As(err, &e) || e.Attempts != 1 || !errors.Is(err, context.Canceled) || n != 40 || len(s.headers) != 1 ||
		err.Error() != "context canceled after 40 of 100 bytes" {
		t.Fatalf("n %d: %v", n, err)
	}
	// ctx ending during the backoff.
	s = &server{answers: []answer{{status: 200, body: content[:40], length: 100, broken: errBroken}}}
	p = s.params()
	p.Sleep = func(context.Context, time.Duration) error { return context.DeadlineExceeded }
	_, err = Run(context.Background(), io.Discard, p)
	if !errors.As(err, &e) || e.Attempts != 1 || err != e || !errors.Is(err, context.DeadlineExceeded) || len(s.headers) != 1 { //nolint:errorlint // the Error itself
		t.Fatalf("%v", err)
	}
}

func TestRun_openErrorsAreReturnedAsTheyAre(t *testing.T) {
	refused := errors.New("403 Forbidden")
	s := &server{answers: []answer{{openErr: refused}}}
	if _, n, err := run(t, s, nil); err != refused || n != 0 { //nolint:errorlint // returned as it is
		t.Fatalf("%v", err)
	}
	// Also on a resume, after bytes were written.
	content := bundle(100)
	s = &server{answers: []answer{{status: 200, body: content[:10], length: 100, broken: errBroken}, {openErr: refused}}}
	if _, n, err := run(t, s, nil); err != refused || n != 10 { //nolint:errorlint // returned as it is
		t.Fatalf("%v", err)
	}
}

func TestErrorTypes(t *testing.T) {
	e := &Error{Attempts: 2, Err: errBroken}
	if e.Error() != errBroken.Error() || !errors.Is(e, errBroken) {
		t.Errorf("%v", e)
	}
	if m := (&MismatchError{Problem: "p"}); m.Error() != "p" {
		t.Errorf("%v", m)
	}
	if f := (&finalError{err: errBroken}); f.Error() != errBroken.Error() {
		t.Errorf("%v", f)
	}
}

func TestParseContentRange(t *testing.T) {
	for v, want := range map[string][4]int64{
		"bytes 0-9/10":     {0, 9, 10, 1},
		"bytes 5-5/10":     {5, 5, 10, 1},
		"bytes 5-9/*":      {5, 9, -1, 1},
		"bytes 5-9/9":      {0, 0, 0, 0},
		"bytes 9-5/10":     {0, 0, 0, 0},
		"bytes */10":       {0, 0, 0, 0},
		"items 0-9/10":     {0, 0, 0, 0},
		"bytes 0-9":        {0, 0, 0, 0},
		"bytes 0/10":       {0, 0, 0, 0},
		"bytes -1-9/10":    {0, 0, 0, 0},
		"bytes 0-x/10":     {0, 0, 0, 0},
		"bytes 0-9/ten":    {0, 0, 0, 0},
		" bytes 10-19/20 ": {10, 19, 20, 1},
	} {
		start, end, total, ok := parseContentRange(v)
		if got := [4]int64{start, end, total, map[bool]int64{true: 1}[ok]}; got != want {
			t.Errorf("%q: %v, want %v", v, got, want)
		}
	}
}
