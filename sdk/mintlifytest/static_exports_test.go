package mintlifytest

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// startExport starts an export and returns its id.
func (h *harness) startExport(body string) string {
	h.t.Helper()
	status, _, got := h.call("POST", "/v1/static-export/jobs", body)
	if status != http.StatusAccepted {
		h.t.Fatalf("start: %d %v", status, got)
	}
	return got["jobId"].(string) //nolint:forcetypeassert // a 202 carries the id
}

// bundle makes a completed export's bundle and returns its link.
func (h *harness) bundle(id string) (link string, size int64) {
	h.t.Helper()
	status, _, got := h.call("POST", "/v1/static-export/jobs/"+id+"/bundle", "")
	if status != http.StatusOK {
		h.t.Fatalf("bundle: %d %v", status, got)
	}
	return got["bundleUrl"].(string), int64(got["sizeBytes"].(float64)) //nolint:forcetypeassert // the 200's shape
}

// completedBundle starts an export with body, lets it complete (a minute
// on the clock) and makes its bundle: the export's id, its link and size.
func (h *harness) completedBundle(body string) (id, link string, size int64) {
	h.t.Helper()
	id = h.startExport(body)
	h.clk.Advance(time.Minute)
	link, size = h.bundle(id)
	return id, link, size
}

// fetch GETs a link with no key, with the given headers (name, value, ...).
func fetch(t *testing.T, link string, headers ...string) (*http.Response, []byte, error) {
	t.Helper()
	req, _ := http.NewRequest("GET", link, nil)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return resp, data, err
}

func archiveOf(t *testing.T, f *Fake, id string) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := f.WriteStaticExportArchive(id, &buf)
	if err != nil || n != int64(buf.Len()) {
		t.Fatalf("%d bytes, %d written: %v", n, buf.Len(), err)
	}
	return buf.Bytes()
}

func TestStaticExport_lifecycleOnTheClock(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.startExport(`{"domain":"docs.example.com"}`)
	if !strings.HasPrefix(id, "se_") || len(id) != 19 {
		t.Errorf("job id %q", id)
	}
	at := func(d time.Duration) map[string]any {
		t.Helper()
		h.clk.Advance(d)
		status, _, got := h.call("GET", "/v1/static-export/jobs/"+id, "")
		if status != 200 {
			t.Fatalf("%d %v", status, got)
		}
		return got
	}
	created := "2026-11-21T12:00:00.000Z"
	for _, step := range []struct {
		after time.Duration
		want  map[string]any
	}{
		{0, map[string]any{"jobId": id, "status": "queued", "progress": 0.0, "pageCount": 0.0, "createdAt": created, "updatedAt": created, "error": nil}},
		{time.Second, map[string]any{"jobId": id, "status": "running", "progress": 0.0, "pageCount": 0.0, "createdAt": created, "updatedAt": "2026-11-21T12:00:01.000Z", "error": nil}},
		{1500 * time.Millisecond, map[string]any{"jobId": id, "status": "running", "progress": 37.5, "pageCount": 9.0, "createdAt": created, "updatedAt": "2026-11-21T12:00:02.500Z", "error": nil}},
		{time.Hour, map[string]any{"jobId": id, "status": "completed", "progress": 100.0, "pageCount": 24.0, "createdAt": created, "updatedAt": "2026-11-21T12:00:05.000Z", "error": nil}},
	} {
		if diff := cmp.Diff(step.want, at(step.after)); diff != "" {
			t.Errorf("after %s (-want +got):\n%s", step.after, diff)
		}
	}
	raw, ok := h.srv.StaticExport(id)
	var got map[string]any
	if !ok || json.Unmarshal(raw, &got) != nil || got["status"] != "completed" {
		t.Errorf("StaticExport: %s %v", raw, ok)
	}
	if ids := h.srv.StaticExportIDs(); !slices.Equal(ids, []string{id}) {
		t.Errorf("ids %v", ids)
	}
}

func TestStaticExport_scripts(t *testing.T) {
	h := newHarness(t, Config{StaticExports: StaticExportConfig{Default: ExportScript{QueuedFor: time.Second, RunFor: 10 * time.Second, Pages: 10}}})
	failed := h.startExport(`{"domain":"docs.example.com","version":"v1 [fake:failed]"}`)
	never := h.startExport(`{"domain":"docs.example.com","version":"[fake:never] [fake:queued=0s]"}`)
	long := h.startExport(`{"domain":"docs.example.com","version":"[fake:running=1h] [fake:pages=500]"}`)
	picked := h.startExport(`{"domain":"docs.example.com","paths":["index","guides/a","guides/b"]}`)
	h.clk.Advance(30 * time.Minute)
	get := func(id string) map[string]any {
		_, _, got := h.call("GET", "/v1/static-export/jobs/"+id, "")
		return got
	}
	f := get(failed)
	if f["status"] != "failed" || f["progress"] != 60.0 || f["pageCount"] != 6.0 || f["updatedAt"] != "2026-11-21T12:00:07.000Z" ||
		f["error"] != "Rendering page guides/page-005 failed: the page's MDX could not be compiled." {
		t.Errorf("failed: %v", f)
	}
	if n := get(never); n["status"] != "running" || n["progress"] != 99.0 || n["error"] != nil {
		t.Errorf("never: %v", n)
	}
	if l := get(long); l["status"] != "running" || l["progress"] != 49.9 || l["pageCount"] != 249.0 {
		t.Errorf("long: %v", l)
	}
	if p := get(picked); p["status"] != "completed" || p["pageCount"] != 3.0 {
		t.Errorf("paths: %v", p)
	}
	tr := tar.NewReader(mustGunzip(t, archiveOf(t, h.srv, picked)))
	var names []string
	for {
		hd, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, hd.Name)
	}
	want := []string{"index.html", "index.txt", "guides/a.html", "guides/a.txt", "guides/b.html", "guides/b.txt", "_next/static/css/app.css", "_next/static/chunks/main.js"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("archive (-want +got):\n%s", diff)
	}
}

func mustGunzip(t *testing.T, data []byte) io.Reader {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return zr
}

func TestStartStaticExport_refusals(t *testing.T) {
	h := newHarness(t, Config{})
	h.srv.AddKey("mint_readonly_0123456789", DemoOrg, true)
	for _, tt := range []struct {
		body   string
		key    string
		status int
		want   string
	}{
		{`{"domain":"https://docs.example.com"}`, "", 400, "domain must be the hostname only"},
		{`{"domain":"docs.example.com/docs"}`, "", 400, "no protocol, port, trailing slash or path prefix"},
		{`{"domain":"docs.example.com:443"}`, "", 400, "domain must be the hostname only"},
		{`{"domain":"docs.example.invalid"}`, "", 400, "domain is not a reachable hostname"},
		{`{"domain":"localhost"}`, "", 400, "domain is not a reachable hostname"},
		{`{"domain":""}`, "", 400, "domain is required"},
		{`{"version":"v1"}`, "", 400, "domain is required"},
		{`{"domain":"docs.example.com","paths":["/guides/a"]}`, "", 400, `is not a valid page path: write it without a leading or trailing slash`},
		{`{"domain":"docs.example.com","paths":"index"}`, "", 400, "paths must be a list of page paths"},
		{`{"domain":"docs.example.com","paths":[""]}`, "", 400, "paths entries must not be empty"},
		{`not json`, "", 400, "Invalid request body"},
		{`{"domain":"docs.example.com"}`, "mint_unknown_000000000", 401, "Unauthorized"},
		{`{"domain":"docs.example.com"}`, "mint_readonly_0123456789", 403, "this API key is read-only"},
	} {
		var key []string
		if tt.key != "" {
			key = []string{tt.key}
		}
		status, _, got := h.call("POST", "/v1/static-export/jobs", tt.body, key...)
		if text, _ := json.Marshal(got); status != tt.status || !strings.Contains(string(text), tt.want) {
			t.Errorf("%s: %d %s, want %d %q", tt.body, status, text, tt.status, tt.want)
		}
	}
	h.srv.SetStaticExportsEnabled(false)
	status, _, got := h.call("POST", "/v1/static-export/jobs", `{"domain":"docs.example.com"}`)
	if status != 403 || got["error"] != "Static export is not enabled for this organization. Contact sales to enable it on an Enterprise plan." {
		t.Errorf("disabled: %d %v", status, got)
	}
	h.srv.SetStaticExportsEnabled(true)
	h.startExport(`{"domain":"docs.example.com"}`)
	if n := len(h.srv.StaticExportIDs()); n != 1 {
		t.Errorf("%d exports after the refusals and one start", n)
	}
	off := newHarness(t, Config{StaticExports: StaticExportConfig{Disabled: true}})
	if status, _, _ := off.call("POST", "/v1/static-export/jobs", `{"domain":"docs.example.com"}`); status != 403 {
		t.Errorf("Config.StaticExports.Disabled: %d", status)
	}
}

func TestStaticExport_unknownOrAnotherOrganizationsJobIs404(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.startExport(`{"domain":"docs.example.com"}`)
	h.srv.AddKey("mint_other_0123456789", "other-org", false)
	for _, path := range []string{"/v1/static-export/jobs/se_0000000000000000", "/v1/static-export/jobs/se_0000000000000000/bundle"} {
		method := map[bool]string{true: "POST", false: "GET"}[strings.HasSuffix(path, "bundle")]
		if status, _, got := h.call(method, path, ""); status != 404 || got["error"] != "No job exists with the provided ID." {
			t.Errorf("%s %s: %d %v", method, path, status, got)
		}
	}
	if status, _, _ := h.call("GET", "/v1/static-export/jobs/"+id, "", "mint_other_0123456789"); status != 404 {
		t.Errorf("another organization's job: %d", status)
	}
}

func TestCreateBundle_conflictUntilCompleted(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.startExport(`{"domain":"docs.example.com"}`)
	failed := h.startExport(`{"domain":"docs.example.com","version":"[fake:failed]"}`)
	for _, after := range []time.Duration{0, 2 * time.Second} {
		h.clk.Advance(after)
		status, _, got := h.call("POST", "/v1/static-export/jobs/"+id+"/bundle", "")
		if status != 409 || got["error"] != "The job has not finished yet, so a bundle cannot be generated." {
			t.Errorf("after %s: %d %v", after, status, got)
		}
	}
	h.clk.Advance(time.Minute)
	if status, _, got := h.call("POST", "/v1/static-export/jobs/"+failed+"/bundle", ""); status != 409 || got["error"] != "The job failed, so a bundle cannot be generated." {
		t.Errorf("failed: %d %v", status, got)
	}
	status, _, got := h.call("POST", "/v1/static-export/jobs/"+id+"/bundle", "")
	if status != 200 || got["jobId"] != id || got["expiresAt"] != "2026-11-21T12:16:02.000Z" || got["sizeBytes"].(float64) <= 0 { //nolint:forcetypeassert // checked by the comparison
		t.Fatalf("%d %v", status, got)
	}
	link, err := url.Parse(got["bundleUrl"].(string)) //nolint:forcetypeassert // as above
	if err != nil || link.Host != strings.TrimPrefix(h.ts.URL, "http://") || link.Path != "/_bundles/"+id+"/bundle.tar.gz" ||
		link.Query().Get("X-Amz-Expires") != "900" || len(link.Query().Get("X-Amz-Signature")) != 64 || link.Query().Get("X-Amz-Date") != "20261121T120102Z" {
		t.Errorf("link %v: %v", link, err)
	}
	if links := h.srv.BundleLinks(); len(links) != 1 || links[0] != got["bundleUrl"] {
		t.Errorf("BundleLinks %v", links)
	}
}

func TestBundleDownload_servesTheArchiveWithoutAKey(t *testing.T) {
	h := newHarness(t, Config{})
	id, link, size := h.completedBundle(`{"domain":"docs.example.com","version":"v1"}`)
	resp, data, err := fetch(t, link)
	if err != nil || resp.StatusCode != 200 || int64(len(data)) != size || resp.ContentLength != size {
		t.Fatalf("%d, %d bytes of %d: %v", resp.StatusCode, len(data), size, err)
	}
	if !bytes.Equal(data, archiveOf(t, h.srv, id)) {
		t.Error("the download is not the archive")
	}
	for name, want := range map[string]string{"Content-Type": "application/gzip", "Accept-Ranges": "bytes", "Last-Modified": "Sat, 21 Nov 2026 12:00:00 GMT"} {
		if got := resp.Header.Get(name); got != want {
			t.Errorf("%s: %q", name, got)
		}
	}
	if etag := resp.Header.Get("ETag"); len(etag) != 34 || etag[0] != '"' {
		t.Errorf("ETag %q", etag)
	}
	// A second link to the same export serves the same bytes, and so does
	// another fake for the same export: tests can compare checksums.
	h.clk.Advance(time.Second)
	again, _ := h.bundle(id)
	if _, data2, _ := fetch(t, again); again == link || !bytes.Equal(data, data2) {
		t.Error("a second link serves other bytes")
	}
	other := newHarness(t, Config{})
	otherID := other.startExport(`{"domain":"docs.example.com","version":"v1"}`)
	if otherID != id || !bytes.Equal(archiveOf(t, other.srv, otherID), data) {
		t.Error("the same export on another fake has other bytes")
	}
	log := h.srv.RequestsTo(RouteStaticExportsDownloadBundle)
	if len(log) != 2 || log[0].Org != "" || log[0].Status != 200 {
		t.Errorf("log %+v", log)
	}
	if tarBin, err := exec.LookPath("tar"); err == nil {
		cmd := exec.Command(tarBin, "-tzf", "-") //nolint:gosec // the system's tar, reading the archive
		cmd.Stdin = bytes.NewReader(data)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "guides/page-010.html") || !strings.Contains(string(out), "index.txt") {
			t.Errorf("tar -tzf: %v\n%s", err, out)
		}
	}
}

func TestBundleDownload_expiredOrAlteredLinksAre403AsFromS3(t *testing.T) {
	h := newHarness(t, Config{StaticExports: StaticExportConfig{LinkTTL: time.Hour}})
	id, link, _ := h.completedBundle(`{"domain":"docs.example.com"}`)
	u, _ := url.Parse(link)
	sig := u.Query().Get("X-Amz-Signature")
	alter := func(key, value string) string {
		v := u.Query()
		v.Set(key, value)
		c := *u
		c.RawQuery = v.Encode()
		return c.String()
	}
	otherPath := strings.Replace(link, id, "se_0000000000000000", 1)
	var s3 struct {
		Code, Message, SignatureProvided, Expires, ServerTime, RequestID string `xml:",any"`
	}
	for _, tt := range []struct {
		link, code, message string
	}{
		{alter("X-Amz-Signature", strings.Repeat("0", 64)), "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided."},
		{alter("X-Amz-Expires", "604800"), "SignatureDoesNotMatch", "does not match"},
		{alter("X-Amz-Signature", ""), "SignatureDoesNotMatch", "does not match"},
		{otherPath, "SignatureDoesNotMatch", "does not match"},
	} {
		resp, data, _ := fetch(t, tt.link)
		if resp.StatusCode != 403 || resp.Header.Get("Content-Type") != "application/xml" || !strings.Contains(string(data), "<Code>"+tt.code+"</Code>") ||
			!strings.Contains(string(data), tt.message) || !strings.HasPrefix(string(data), "<?xml") {
			t.Errorf("%d %s", resp.StatusCode, data)
		}
	}
	_, data, _ := fetch(t, alter("X-Amz-Signature", "abc123"))
	if !strings.Contains(string(data), "<SignatureProvided>abc123</SignatureProvided>") {
		t.Errorf("S3 echoes the signature it was given: %s", data)
	}
	h.clk.Advance(time.Hour - time.Second)
	if resp, _, _ := fetch(t, link); resp.StatusCode != 200 {
		t.Errorf("a second before it expires: %d", resp.StatusCode)
	}
	h.clk.Advance(time.Second)
	resp, data, _ := fetch(t, link)
	if err := xml.Unmarshal(data, &s3); err != nil || resp.StatusCode != 403 || !strings.Contains(string(data), "<Code>AccessDenied</Code><Message>Request has expired</Message>") ||
		!strings.Contains(string(data), "<Expires>2026-11-21T13:01:00Z</Expires><ServerTime>2026-11-21T13:01:00Z</ServerTime>") {
		t.Errorf("expired: %d %s %v", resp.StatusCode, data, err)
	}
	if sig == "" {
		t.Error("no signature")
	}
}

func TestBundleDownload_ranges(t *testing.T) {
	h := newHarness(t, Config{})
	id, link, size := h.completedBundle(`{"domain":"docs.example.com","version":"[fake:bundle=300KiB]"}`)
	whole := archiveOf(t, h.srv, id)
	resp, _, _ := fetch(t, link)
	etag := resp.Header.Get("ETag")
	s := strconv.FormatInt(size, 10)
	for _, tt := range []struct {
		headers      []string
		status       int
		from, to     int64
		contentRange string
	}{
		{[]string{"Range", "bytes=10-19"}, 206, 10, 20, "bytes 10-19/" + s},
		{[]string{"Range", "bytes=70000-"}, 206, 70000, size, "bytes 70000-" + strconv.FormatInt(size-1, 10) + "/" + s},
		{[]string{"Range", "bytes=-5"}, 206, size - 5, size, "bytes " + strconv.FormatInt(size-5, 10) + "-" + strconv.FormatInt(size-1, 10) + "/" + s},
		{[]string{"Range", "bytes=100-", "If-Range", etag}, 206, 100, size, "bytes 100-" + strconv.FormatInt(size-1, 10) + "/" + s},
		{[]string{"Range", "bytes=100-", "If-Range", `"another version"`}, 200, 0, size, ""},
		{[]string{"Range", "bytes=0-1,5-6"}, 200, 0, size, ""},
		{[]string{"Range", "bytes=" + s + "-"}, 416, 0, 0, "bytes */" + s},
		{[]string{"Range", "bytes=9-2"}, 416, 0, 0, "bytes */" + s},
	} {
		resp, data, err := fetch(t, link, tt.headers...)
		if err != nil || resp.StatusCode != tt.status || resp.Header.Get("Content-Range") != tt.contentRange {
			t.Errorf("%v: %d %q %v", tt.headers, resp.StatusCode, resp.Header.Get("Content-Range"), err)
			continue
		}
		if tt.status != 416 && !bytes.Equal(data, whole[tt.from:tt.to]) {
			t.Errorf("%v: not the bytes [%d, %d)", tt.headers, tt.from, tt.to)
		}
	}
}

func TestBundleDownload_resetCutsTheDownloadMidway(t *testing.T) {
	h := newHarness(t, Config{Faults: []Fault{{Route: RouteStaticExportsDownloadBundle, Kind: FaultReset, Requests: []int{1, 2}}}})
	id, link, size := h.completedBundle(`{"domain":"docs.example.com","version":"[fake:bundle=1MiB]"}`)
	whole := archiveOf(t, h.srv, id)
	resp, data, err := fetch(t, link)
	if !errors.Is(err, io.ErrUnexpectedEOF) || resp.ContentLength != size || int64(len(data)) != size/2 || !bytes.Equal(data, whole[:size/2]) {
		t.Fatalf("first: %d of %d bytes: %v", len(data), size, err)
	}
	resp, data, err = fetch(t, link, "Range", "bytes=1000-")
	if !errors.Is(err, io.ErrUnexpectedEOF) || resp.StatusCode != 206 || int64(len(data)) != (size-1000)/2 || !bytes.Equal(data, whole[1000:1000+len(data)]) {
		t.Fatalf("second: %d bytes: %v", len(data), err)
	}
	if _, data, err = fetch(t, link); err != nil || !bytes.Equal(data, whole) {
		t.Fatalf("third: %v", err)
	}
	if log := h.srv.RequestsTo(RouteStaticExportsDownloadBundle); len(log) != 3 || log[0].Fault != FaultReset || log[2].Fault != "" {
		t.Errorf("log %+v", log)
	}
}

func TestBundle_largeArchivesStreamWithFlatMemory(t *testing.T) {
	h := newHarness(t, Config{})
	id, link, size := h.completedBundle(`{"domain":"docs.example.com","version":"[fake:bundle=256MiB]"}`)
	if size < 256<<20 || size > 256<<20+64<<10 {
		t.Errorf("size %d for 256 MiB", size)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	resp, err := http.Get(link) //nolint:gosec,noctx // the test's own link
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.New()
	n, err := io.Copy(sum, resp.Body)
	resp.Body.Close()
	runtime.ReadMemStats(&after)
	if err != nil || n != size {
		t.Fatalf("%d of %d bytes: %v", n, size, err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("serving %d MiB allocated %d MiB", size>>20, alloc>>20)
	}
	again := sha256.New()
	if _, err := h.srv.WriteStaticExportArchive(id, again); err != nil || !bytes.Equal(sum.Sum(nil), again.Sum(nil)) {
		t.Errorf("the archive is not deterministic: %v", err)
	}
}
