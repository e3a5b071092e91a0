package sdk

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/internal/fakehostile"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// cappedWriter counts what it is given and refuses past max: a test's
// disk that an endless download must never fill.
type cappedWriter struct {
	n, max int64
}

func (w *cappedWriter) Write(p []byte) (int, error) {
	if w.n += int64(len(p)); w.n > w.max {
		return 0, fmt.Errorf("the test's writer took %d bytes: more than the %d it allows", w.n, w.max)
	}
	return len(p), nil
}

// completedBundle starts an export on the fake, lets it complete and
// makes its bundle.
func completedBundle(t *testing.T, c *Client) *StaticExportBundle {
	t.Helper()
	ctx := context.Background()
	e, err := c.StaticExports.Start(ctx, StaticExportRequest{Domain: "docs.example.com", Version: "v1 [fake:bundle=1MiB]"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.StaticExports.CreateBundleWhenReady(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A download whose size nobody announced (no sizeBytes, no
// Content-Length) is refused before a byte is written: an endless body
// cannot be told from a large one (before: 3 GiB written in 19 s). With
// the API's size it is cut there.
func TestDownloadBundle_anUnannouncedEndlessBodyIsRefused(t *testing.T) {
	fake, c, _ := newFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteStaticExportsDownloadBundle, Kind: fakehostile.EndlessBody})}})
	b := completedBundle(t, c)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	w := &cappedWriter{max: 64 << 20}
	n, err := c.StaticExports.DownloadBundle(ctx, b.URL, w)
	if le := wantLimit(t, err, LimitUnknownSize); le.Option != "WithExpectedSize" || n != 0 || w.n != 0 {
		t.Fatalf("%d bytes written: %v", w.n, err)
	}
	if !strings.Contains(err.Error(), "no size was announced") || MayHaveTakenEffect(err) && errors.Is(err, ErrResponseTooLarge) {
		t.Errorf("%v", err)
	}
	// The API's size bounds it: never more than announced.
	n, err = c.StaticExports.DownloadBundle(ctx, b.URL, w, WithExpectedSize(b.SizeBytes))
	if !IsMalformedResponse(err) || n != b.SizeBytes || !strings.Contains(err.Error(), fmt.Sprintf("more than the %d bytes announced", b.SizeBytes)) {
		t.Errorf("%d of %d bytes: %v", n, b.SizeBytes, err)
	}
	if got := len(fake.RequestsTo(mintlifytest.RouteStaticExportsDownloadBundle)); got != 2 {
		t.Errorf("%d requests", got)
	}
}

// Only an archive is written: an HTML or XML page answered 200, a JSON
// error, or bytes that are not gzip's are refused before anything is
// written (before: an 84-byte HTML page was saved as the archive).
func TestDownloadBundle_onlyAnArchiveIsWritten(t *testing.T) {
	page := "<html><head><title>Sign in</title></head><body>Sign in to the Wi-Fi</body></html>"
	for name, tt := range map[string]struct {
		contentType, body, says string
	}{
		"HTML":             {"text/html; charset=utf-8", page, `Content-Type "text/html; charset=utf-8", body starts "Sign in Sign in to the Wi-Fi"`},
		"HTML unlabelled":  {"", page, `body starts "Sign in Sign in to the Wi-Fi"`},
		"XML":              {"application/xml", `<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>`, `Content-Type "application/xml"`},
		"JSON":             {"application/json", `{"error":"nope"}`, `body starts "{\"error\":\"nope\"}"`},
		"gzipped HTML":     {"text/html", string(gzipMagic) + "\x08\x00 a gzipped page", `Content-Type "text/html"`},
		"octets":           {"application/octet-stream", "PK\x03\x04 a zip, not a tar.gz", `body starts "PK a zip, not a tar.gz"`},
		"one byte":         {"application/gzip", "\x1f", `body starts ""`},
		"nothing":          {"application/gzip", "", `body starts ""`},
		"control in title": {"text/html", "<title>\x1b[2Jpwned</title>", `body starts "[2Jpwned"`},
	} {
		t.Run(name, func(t *testing.T) {
			rec, srv := newRecorder(t, func(w http.ResponseWriter, _ *http.Request) {
				if tt.contentType != "" {
					w.Header().Set("Content-Type", tt.contentType)
				}
				w.Header().Set("Content-Length", fmt.Sprint(len(tt.body)))
				_, _ = w.Write([]byte(tt.body))
			})
			c := newTestClient(t, "http://127.0.0.1:1", newClock())
			var buf bytes.Buffer
			n, err := c.StaticExports.DownloadBundle(context.Background(), srv.URL+"/b.tar.gz?X-Amz-Signature=5ec2e7deadbeef01", &buf)
			if !errors.Is(err, ErrNotAnArchive) || n != 0 || buf.Len() != 0 || !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), "nothing was written") {
				t.Fatalf("%d bytes: %v, want %s", buf.Len(), err, tt.says)
			}
			if strings.Contains(err.Error(), "5ec2e7deadbeef01") || strings.ContainsRune(err.Error(), 0x1b) || rec.count() != 1 {
				t.Errorf("%v (%d requests)", err, rec.count())
			}
		})
	}
}

// A page served by the fake's download route in place of the archive is
// refused like any other.
func TestDownloadBundle_aPageFromTheFakeIsRefused(t *testing.T) {
	_, c, _ := newFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteStaticExportsDownloadBundle, Kind: mintlifytest.FaultMalformed, Body: "<html>Bad Gateway</html>"}}})
	b := completedBundle(t, c)
	var buf bytes.Buffer
	if _, err := c.StaticExports.DownloadBundle(context.Background(), b.URL, &buf); !errors.Is(err, ErrNotAnArchive) || buf.Len() != 0 {
		t.Errorf("%d bytes: %v", buf.Len(), err)
	}
}

// A trickle (a byte every few milliseconds) never goes silent for a
// request timeout, but is slower than MinDownloadRate: each attempt
// stalls, is resumed, and the download ends after the retries.
func TestDownloadBundle_aTrickleStallsAndEnds(t *testing.T) {
	_, c, _ := newFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{fakehostile.Fault(mintlifytest.Fault{Route: mintlifytest.RouteStaticExportsDownloadBundle, Kind: fakehostile.Trickle, Latency: 5 * time.Millisecond})}},
		WithRequestTimeout(200*time.Millisecond), WithMaxRetries(2))
	b := completedBundle(t, c)
	start := time.Now()
	var buf bytes.Buffer
	n, err := c.StaticExports.DownloadBundle(context.Background(), b.URL, &buf, WithExpectedSize(b.SizeBytes))
	if le := wantLimit(t, err, LimitIdle); le.Max != 204 || n >= b.SizeBytes || time.Since(start) > 10*time.Second {
		t.Fatalf("%d bytes in %s: %v", n, time.Since(start), err)
	}
	if !strings.Contains(err.Error(), "and again after each of 2 resumes") || !strings.Contains(err.Error(), "less than 204 bytes came in 200ms") {
		t.Errorf("%v", err)
	}
}
