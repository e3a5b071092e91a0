package sdk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// bundleHost is an object store for download tests: it serves content at
// any path, with Range support when ranges is set, and misbehaves on the
// requests (0-based) named in breaks and stalls.
type bundleHost struct {
	content []byte
	etag    string
	ranges  bool
	// breaks: request i sends that many bytes of its body, then the
	// connection breaks; stalls: it sends them, then nothing more.
	breaks map[int]int
	stalls map[int]int
	// etags: request i answers with this ETag instead; sizes: with the
	// content cut to this size; offsets: with its range moved by this many
	// bytes.
	etags   map[int]string
	sizes   map[int]int
	offsets map[int]int

	mu       sync.Mutex
	requests []*http.Request
	url      string
}

func newBundleHost(t *testing.T, h *bundleHost) *bundleHost {
	t.Helper()
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	h.url = ts.URL + "/se_1/bundle.tar.gz?X-Amz-Credential=AKIAEXAMPLE%2F20261121&X-Amz-Expires=900&X-Amz-Signature=5ec2e7deadbeef0123456789"
	return h
}

func (h *bundleHost) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.requests)
}

func (h *bundleHost) request(i int) *http.Request {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.requests[i]
}

func (h *bundleHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	i := len(h.requests)
	h.requests = append(h.requests, r.Clone(context.Background()))
	h.mu.Unlock()
	etag := h.etag
	if e, ok := h.etags[i]; ok {
		etag = e
	}
	if etag != "" {
		w.Header().Set("ETag", etag)
	}
	body := h.content
	if n, cut := h.sizes[i]; cut {
		body = body[:n]
	}
	start, ok := 0, false
	if rg := r.Header.Get("Range"); h.ranges && rg != "" && (r.Header.Get("If-Range") == "" || r.Header.Get("If-Range") == etag) {
		start, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(rg, "bytes="), "-"))
		start += h.offsets[i]
		ok = true
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(body)-start))
	if ok {
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", start, len(body)-1, len(body)))
		w.WriteHeader(http.StatusPartialContent)
	}
	body = body[start:]
	if n, broken := h.breaks[i]; broken {
		_, _ = w.Write(body[:n])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}
	if n, stalled := h.stalls[i]; stalled {
		_, _ = w.Write(body[:n])
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		return
	}
	_, _ = w.Write(body)
}

// gzipMagic is how every gzip stream begins.
const gzipMagic = "\x1f\x8b"

// pattern is n deterministic bytes, starting as a gzip archive does.
func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	copy(b, gzipMagic)
	return b
}

func TestDownloadBundle_sendsNoKeyAndWritesEveryByte(t *testing.T) {
	h := newBundleHost(t, &bundleHost{content: pattern(1 << 20), etag: `"v1"`, ranges: true})
	var logged []RequestInfo
	c := newTestClient(t, "http://127.0.0.1:1", newClock(), WithRequestHook(func(_ context.Context, ri RequestInfo) { logged = append(logged, ri) }))
	var buf bytes.Buffer
	var last DownloadProgress
	n, err := c.StaticExports.DownloadBundle(context.Background(), h.url, &buf, WithExpectedSize(1<<20), WithDownloadProgress(func(p DownloadProgress) { last = p }))
	if err != nil || n != 1<<20 || !bytes.Equal(buf.Bytes(), h.content) {
		t.Fatalf("n %d, err %v, equal %v", n, err, bytes.Equal(buf.Bytes(), h.content))
	}
	if last != (DownloadProgress{Written: 1 << 20, Total: 1 << 20}) {
		t.Errorf("last progress %+v", last)
	}
	r := h.request(0)
	for name, values := range r.Header {
		for _, v := range values {
			if strings.Contains(v, "mint_") || strings.EqualFold(name, "Authorization") {
				t.Errorf("the download carried %s: %s", name, v)
			}
		}
	}
	if r.Header.Get("Accept-Encoding") != "identity" || r.Header.Get("Range") != "" || !strings.HasPrefix(r.Header.Get("User-Agent"), "mintlify-go-sdk/") {
		t.Errorf("headers %v", r.Header)
	}
	if r.URL.Query().Get("X-Amz-Signature") != "5ec2e7deadbeef0123456789" {
		t.Errorf("the link was not sent as given: %s", r.URL)
	}
	if len(logged) != 1 || logged[0].Query != "" || strings.Contains(logged[0].Path, "?") || !strings.HasSuffix(logged[0].Path, "/se_1/bundle.tar.gz") || logged[0].StatusCode != 200 {
		t.Errorf("request hook saw %+v", logged)
	}
}

func TestDownloadBundle_resumesWithARangeRequest(t *testing.T) {
	h := newBundleHost(t, &bundleHost{content: pattern(3 << 20), etag: `"v1"`, ranges: true, breaks: map[int]int{0: 1 << 20, 1: 5}})
	clk := newClock()
	c := newTestClient(t, "http://127.0.0.1:1", clk)
	var buf bytes.Buffer
	var resumes []int
	n, err := c.StaticExports.DownloadBundle(context.Background(), h.url, &buf, WithDownloadProgress(func(p DownloadProgress) {
		if len(resumes) == 0 || resumes[len(resumes)-1] != p.Resumes {
			resumes = append(resumes, p.Resumes)
		}
	}))
	if err != nil || n != 3<<20 || !bytes.Equal(buf.Bytes(), h.content) {
		t.Fatalf("n %d, err %v", n, err)
	}
	if h.count() != 3 {
		t.Fatalf("%d requests", h.count())
	}
	for i, want := range []string{"", "bytes=1048576-", "bytes=1048581-"} {
		if r := h.request(i); r.Header.Get("Range") != want || (want != "" && r.Header.Get("If-Range") != `"v1"`) {
			t.Errorf("request %d: Range %q If-Range %q", i, r.Header.Get("Range"), r.Header.Get("If-Range"))
		}
	}
	if diff := cmp.Diff([]int{0, 1, 2}, resumes); diff != "" {
		t.Errorf("resumes (-want +got):\n%s", diff)
	}
	if len(clk.Sleeps()) != 2 {
		t.Errorf("slept %v between resumes, want a backoff each", clk.Sleeps())
	}
}

func TestDownloadBundle_withoutRangesReadsAgainAndSkipsWhatItHas(t *testing.T) {
	// The second answer breaks before reaching what w already has, the
	// third after: both must leave w exactly the bundle.
	h := newBundleHost(t, &bundleHost{content: pattern(2 << 20), breaks: map[int]int{0: 1 << 20, 1: 1000, 2: 1<<20 + 7}})
	c := newTestClient(t, "http://127.0.0.1:1", newClock())
	var buf bytes.Buffer
	n, err := c.StaticExports.DownloadBundle(context.Background(), h.url, &buf)
	if err != nil || n != 2<<20 || !bytes.Equal(buf.Bytes(), h.content) || h.count() != 4 {
		t.Fatalf("n %d, err %v, %d requests, equal %v", n, err, h.count(), bytes.Equal(buf.Bytes(), h.content))
	}
	if h.request(1).Header.Get("Range") == "" || h.request(2).Header.Get("Range") != "" {
		t.Error("a server that ignored a Range request is asked again for one")
	}
}

func TestDownloadBundle_neverJoinsTwoVersions(t *testing.T) {
	for name, tt := range map[string]struct {
		h    *bundleHost
		want string
	}{
		"another ETag": {&bundleHost{content: pattern(1 << 20), etag: `"v1"`, ranges: true, etags: map[int]string{1: `"v2"`}, breaks: map[int]int{0: 1000}},
			`the bundle changed while it was downloaded (ETag "v1", then "v2")`},
		"another size": {&bundleHost{content: pattern(1 << 20), sizes: map[int]int{1: 1<<20 - 1}, breaks: map[int]int{0: 1000}},
			"the bundle changed while it was downloaded (1048576 bytes, then 1048575)"},
		"a range that is not the one asked": {&bundleHost{content: pattern(1 << 20), ranges: true, offsets: map[int]int{1: -1}, breaks: map[int]int{0: 1000}},
			`asked for the bytes from 1000, the server sent Content-Range "bytes 999-1048575/1048576"`},
	} {
		t.Run(name, func(t *testing.T) {
			h := newBundleHost(t, tt.h)
			c := newTestClient(t, "http://127.0.0.1:1", newClock())
			var buf bytes.Buffer
			n, err := c.StaticExports.DownloadBundle(context.Background(), h.url, &buf)
			if !IsMalformedResponse(err) || !strings.Contains(err.Error(), tt.want) || n != 1000 || h.count() != 2 {
				t.Fatalf("n %d, %d requests: %v", n, h.count(), err)
			}
		})
	}
}

func TestDownloadBundle_sizeChecks(t *testing.T) {
	h := newBundleHost(t, &bundleHost{content: pattern(1000)})
	c := newTestClient(t, "http://127.0.0.1:1", newClock())
	var buf bytes.Buffer
	n, err := c.StaticExports.DownloadBundle(context.Background(), h.url, &buf, WithExpectedSize(2000))
	if !IsMalformedResponse(err) || n != 0 || !strings.Contains(err.Error(), "the download server announced 1000 bytes, the API 2000 (sizeBytes)") {
		t.Errorf("n %d: %v", n, err)
	}

	// A server that announces nothing is held to the API's size.
	chunked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write(pattern(100))
		w.(http.Flusher).Flush()
		_, _ = w.Write(pattern(100))
	}))
	defer chunked.Close()
	n, err = c.StaticExports.DownloadBundle(context.Background(), chunked.URL+"/b?sig=5ec2e7deadbeef0123", &buf, WithExpectedSize(300))
	if !IsMalformedResponse(err) || n != 200 || !strings.Contains(err.Error(), "the download ended after 200 of the 300 bytes announced") {
		t.Errorf("n %d: %v", n, err)
	}
	buf.Reset()
	n, err = c.StaticExports.DownloadBundle(context.Background(), chunked.URL+"/b?sig=5ec2e7deadbeef0123", &buf, WithExpectedSize(150))
	if !IsMalformedResponse(err) || n != 150 || !strings.Contains(err.Error(), "the server sent more than the 150 bytes announced") {
		t.Errorf("n %d: %v", n, err)
	}
}

// A resumed answer longer than the rest announced is cut at the size the
// first answer gave: the bytes beyond it are never written.
func TestDownloadBundle_aResumeLongerThanTheRestIsCut(t *testing.T) {
	content := pattern(100)
	var requests atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"v1"`)
		if requests.Add(1) == 1 {
			w.Header().Set("Content-Length", "100")
			_, _ = w.Write(content[:50])
			w.(http.Flusher).Flush()
			panic(http.ErrAbortHandler)
		}
		if r.Header.Get("Range") != "bytes=50-" {
			t.Errorf("resumed with Range %q", r.Header.Get("Range"))
		}
		long := append(append([]byte{}, content[50:]...), pattern(20)...)
		w.Header().Set("Content-Range", "bytes 50-99/100")
		w.Header().Set("Content-Length", strconv.Itoa(len(long)))
		w.WriteHeader(http.StatusPartialContent)
		_, _ = w.Write(long)
	}))
	defer ts.Close()
	c := newTestClient(t, "http://127.0.0.1:1", newClock())
	var buf bytes.Buffer
	n, err := c.StaticExports.DownloadBundle(context.Background(), ts.URL+"/b?sig=5ec2e7deadbeef0123", &buf)
	if !IsMalformedResponse(err) || n != 100 || !bytes.Equal(buf.Bytes(), content) || requests.Load() != 2 ||
		!strings.Contains(err.Error(), "the server sent more than the 100 bytes announced") {
		t.Errorf("n %d, %d requests, %d bytes kept: %v", n, requests.Load(), buf.Len(), err)
	}
}

// Without a request timeout (0), nothing watches the body: a pause in it
// (here, until the first half is written) is waited out, not taken for a
// stall.
func TestDownloadBundle_noRequestTimeoutWaitsOutAPause(t *testing.T) {
	content := pattern(1 << 16)
	firstHalfWritten := make(chan struct{})
	var requests atomic.Int32
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		w.Header().Set("Content-Length", strconv.Itoa(len(content)))
		_, _ = w.Write(content[:len(content)/2])
		w.(http.Flusher).Flush()
		select {
		case <-firstHalfWritten:
		case <-r.Context().Done():
			return
		}
		_, _ = w.Write(content[len(content)/2:])
	}))
	defer ts.Close()
	c := newTestClient(t, "http://127.0.0.1:1", newClock(), WithRequestTimeout(0), WithMaxRetries(0))
	var buf bytes.Buffer
	var once sync.Once
	n, err := c.StaticExports.DownloadBundle(context.Background(), ts.URL+"/b?sig=5ec2e7deadbeef0123", writerFunc(func(p []byte) (int, error) {
		n, err := buf.Write(p)
		if buf.Len() >= len(content)/2 {
			once.Do(func() { close(firstHalfWritten) })
		}
		return n, err
	}))
	if err != nil || n != int64(len(content)) || !bytes.Equal(buf.Bytes(), content) || requests.Load() != 1 {
		t.Errorf("n %d, %d requests: %v", n, requests.Load(), err)
	}
}

func TestDownloadBundle_retriesAreBounded(t *testing.T) {
	h := newBundleHost(t, &bundleHost{content: pattern(1 << 20), ranges: true, etag: `"v1"`, breaks: map[int]int{0: 10, 1: 10, 2: 10, 3: 10}})
	c := newTestClient(t, "http://127.0.0.1:1", newClock(), WithMaxRetries(2))
	var buf bytes.Buffer
	n, err := c.StaticExports.DownloadBundle(context.Background(), h.url, &buf)
	var reqErr *RequestError
	if !errors.As(err, &reqErr) || h.count() != 3 || n != 30 || !bytes.Equal(buf.Bytes(), h.content[:30]) {
		t.Fatalf("%d requests, n %d: %v", h.count(), n, err)
	}
	if !strings.Contains(err.Error(), "the download broke after 30 of 1048576 bytes, and again after each of 2 resumes (the client's retry limit): unexpected EOF (after 3 attempts)") {
		t.Errorf("%v", err)
	}
}

func TestDownloadBundle_stalledBodyIsResumed(t *testing.T) {
	h := newBundleHost(t, &bundleHost{content: pattern(1 << 20), ranges: true, etag: `"v1"`, stalls: map[int]int{0: 4096}})
	c := newTestClient(t, "http://127.0.0.1:1", newClock(), WithRequestTimeout(100*time.Millisecond))
	var buf bytes.Buffer
	n, err := c.StaticExports.DownloadBundle(context.Background(), h.url, &buf)
	if err != nil || n != 1<<20 || !bytes.Equal(buf.Bytes(), h.content) || h.request(1).Header.Get("Range") != "bytes=4096-" {
		t.Fatalf("n %d, %d requests: %v", n, h.count(), err)
	}
}

type failingWriter struct{ after int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if w.after <= 0 {
		return 0, errors.New("no space left on device")
	}
	n := min(len(p), w.after)
	w.after -= n
	if n < len(p) {
		return n, errors.New("no space left on device")
	}
	return n, nil
}

func TestDownloadBundle_aWriterThatFailsEndsIt(t *testing.T) {
	h := newBundleHost(t, &bundleHost{content: pattern(1 << 20), ranges: true})
	c := newTestClient(t, "http://127.0.0.1:1", newClock())
	n, err := c.StaticExports.DownloadBundle(context.Background(), h.url, &failingWriter{after: 300 << 10})
	if err == nil || n != 300<<10 || h.count() != 1 || !strings.Contains(err.Error(), "writing the bundle after 307200 bytes: no space left on device") {
		t.Errorf("n %d, %d requests: %v", n, h.count(), err)
	}
}

func TestDownloadBundle_interrupted(t *testing.T) {
	h := newBundleHost(t, &bundleHost{content: pattern(1 << 20), stalls: map[int]int{0: 100}})
	c := newTestClient(t, "http://127.0.0.1:1", newClock())
	ctx, cancel := context.WithCancel(context.Background())
	var buf bytes.Buffer
	_, err := c.StaticExports.DownloadBundle(ctx, h.url, writerFunc(func(p []byte) (int, error) { cancel(); return buf.Write(p) }))
	var re *RequestError
	if !errors.Is(err, context.Canceled) || h.count() != 1 || !strings.Contains(err.Error(), "after 100 of 1048576 bytes") ||
		!errors.As(err, &re) || re.Attempts != 1 || !re.Sent {
		t.Errorf("%d requests: %v (%+v)", h.count(), err, re)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestDownloadBundle_errorsNeverShowTheLink(t *testing.T) {
	const sig = "5ec2e7deadbeef0123456789"
	// An object store that echoes the signature in its error body and in
	// a header, as S3's SignatureDoesNotMatch does.
	var echoed string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		echoed = r.URL.String()
		w.Header().Set("X-Request-Id", r.URL.RawQuery)
		w.Header().Set("Content-Type", "application/xml")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired; signature %s</Message><SignatureProvided>%s</SignatureProvided></Error>`, sig, sig)
	}))
	defer ts.Close()
	c := newTestClient(t, "http://127.0.0.1:1", newClock())
	link := ts.URL + "/se_1/bundle.tar.gz?X-Amz-Credential=AKIAEXAMPLE%2F20261121%2Fus-east-1&X-Amz-Signature=" + sig
	_, err := c.StaticExports.DownloadBundle(context.Background(), link, io.Discard)
	if !IsForbidden(err) || echoed == "" {
		t.Fatalf("%v", err)
	}
	var apiErr *APIError
	errors.As(err, &apiErr)
	for _, text := range []string{err.Error(), fmt.Sprintf("%+v", apiErr), apiErr.Message, apiErr.RequestID, apiErr.Path} {
		if strings.Contains(text, sig) || strings.Contains(text, "AKIAEXAMPLE") || strings.Contains(text, "X-Amz") {
			t.Errorf("the link's secrets shown: %s", text)
		}
	}
	for _, want := range []string{"downloading the bundle: GET " + ts.URL + "/se_1/bundle.tar.gz: 403 Forbidden: AccessDenied: Request has expired",
		"create a new bundle"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v lacks %q", err, want)
		}
	}

	// Links refused before any request never quote the link either.
	for link, want := range map[string]string{
		"http://storage.example.com/b?X-Amz-Signature=" + sig: "bundleURL must use https",
		"https://u:" + sig + "@storage.example.com/b":         "bundleURL must not carry credentials",
		"storage.example.com/b?X-Amz-Signature=" + sig:        "bundleURL must be an absolute https URL",
		"": "bundleURL is required",
	} {
		_, err := c.StaticExports.DownloadBundle(context.Background(), link, io.Discard)
		if !IsValidation(err) || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), sig) {
			t.Errorf("%v, want %q", err, want)
		}
	}

	// No answer at all: the transport's error names the host, not the query.
	_, err = c.StaticExports.DownloadBundle(context.Background(), "http://127.0.0.1:1/b?X-Amz-Signature="+sig, io.Discard)
	if err == nil || strings.Contains(err.Error(), sig) || !strings.Contains(err.Error(), "127.0.0.1:1/b") {
		t.Errorf("%v", err)
	}
}

func TestDownloadBundle_memoryStaysFlat(t *testing.T) {
	const size = 64 << 20
	block := pattern(64 << 10)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(size))
		for range size / len(block) {
			if _, err := w.Write(block); err != nil {
				return
			}
		}
	}))
	defer ts.Close()
	c := newTestClient(t, "http://127.0.0.1:1", newClock())
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n, err := c.StaticExports.DownloadBundle(context.Background(), ts.URL+"/b?sig=5ec2e7deadbeef0123", io.Discard)
	runtime.ReadMemStats(&after)
	if err != nil || n != size {
		t.Fatalf("n %d: %v", n, err)
	}
	// Client and server together: a fixed amount, far below the size.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("downloading %d MiB allocated %d KiB", size>>20, alloc>>10)
	}
}

// A query value of 8 characters or more may be a signature and is kept
// out of messages; a shorter one (an expiry in seconds) is not.
func TestLinkSecrets_valuesOfEightOrMore(t *testing.T) {
	u, _ := url.Parse("https://b.test/x?sig=abcd%2F567&exp=3600&id=1234567")
	got := redact.LinkSecrets(u)
	want := []string{u.String(), u.RawQuery, "abcd/567", "abcd%2F567"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
