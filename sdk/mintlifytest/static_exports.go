package mintlifytest

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest/internal/bundle"
)

// Static exports (static-export-openapi.json): an export job runs on the
// fake's clock (queued, then running with its progress and page count
// growing, then completed or failed); a completed job's bundle is served
// by the fake itself, at a presigned-style link (an HMAC signature and an
// expiry in the query, as S3's) that answers 403 with S3's XML error once
// it has expired or when it was altered.

// ExportScript is the lifecycle of a static export: queued for QueuedFor,
// running for RunFor (progress growing evenly), then Outcome (see
// OutcomeCompleted, OutcomeFailed and OutcomeNever). Pages is the
// page count when the request names no paths (with paths, their number).
// BundleSize, when set, fills the archive up to about that many bytes (one
// asset of pseudo-random bytes), for downloads of a realistic size;
// otherwise the archive holds the pages alone.
//
// A version label picks its own script with markers: "[fake:failed]",
// "[fake:never]", "[fake:completed]", "[fake:queued=5s]",
// "[fake:running=30s]" (any Go duration), "[fake:pages=500]" and
// "[fake:bundle=1GiB]" (bytes, or with a KiB, MiB, GiB, KB, MB or GB
// suffix).
type ExportScript struct {
	QueuedFor  time.Duration
	RunFor     time.Duration
	Pages      int
	Outcome    Outcome
	BundleSize int64
}

// StaticExportConfig sets up the static export area.
type StaticExportConfig struct {
	// Disabled refuses every export with 403, as the API does for an
	// organization without the feature (see also SetStaticExportsEnabled).
	Disabled bool
	// Default is the script of exports whose version has no marker (zero
	// value: queued 1 s, running 4 s, completed, 24 pages).
	Default ExportScript
	// LinkTTL is how long a bundle link works (0: 15 minutes).
	LinkTTL time.Duration
}

// defaultBundleLinkTTL is how long a bundle link works unless configured.
const defaultBundleLinkTTL = 15 * time.Minute

var defaultExportScript = ExportScript{QueuedFor: time.Second, RunFor: 4 * time.Second, Pages: 24, Outcome: OutcomeCompleted}

var exportMarkerRE = regexp.MustCompile(`\[fake:([a-z]+)(?:=([0-9A-Za-z.]+))?\]`)

func (e ExportScript) withMarkers(version string) ExportScript {
	for _, m := range exportMarkerRE.FindAllStringSubmatch(version, -1) {
		switch m[1] {
		case "queued", "running":
			if d, err := time.ParseDuration(m[2]); err == nil && d >= 0 {
				if m[1] == "queued" {
					e.QueuedFor = d
				} else {
					e.RunFor = d
				}
			}
		case "pages":
			if n, err := strconv.Atoi(m[2]); err == nil && n >= 0 {
				e.Pages = n
			}
		case "bundle":
			if n, err := bundle.ParseSize(m[2]); err == nil {
				e.BundleSize = n
			}
		case string(OutcomeCompleted), string(OutcomeFailed), string(OutcomeNever):
			e.Outcome = Outcome(m[1])
		}
	}
	return e
}

// exportState is what the fake knows of static exports.
type exportState struct {
	disabled bool
	script   ExportScript
	linkTTL  time.Duration
	secret   []byte // signs bundle links
	seq      uint64
	jobs     map[string]*staticExport
	order    []string
	links    []string // every link issued
}

func newExportState(cfg StaticExportConfig) *exportState {
	st := &exportState{disabled: cfg.Disabled, script: cfg.Default, linkTTL: cfg.LinkTTL, jobs: map[string]*staticExport{}}
	if st.script == (ExportScript{}) {
		st.script = defaultExportScript
	}
	if st.script.Outcome == "" {
		st.script.Outcome = OutcomeCompleted
	}
	if st.linkTTL <= 0 {
		st.linkTTL = defaultBundleLinkTTL
	}
	st.secret = make([]byte, 32)
	_, _ = rand.Read(st.secret)
	return st
}

// staticExport is one export job.
type staticExport struct {
	id, org, domain, version string
	paths                    []string
	script                   ExportScript
	createdAt                time.Time
	archive                  *bundle.Archive // made when first asked for
}

// exportObject is the wire shape of a static export job.
type exportObject struct {
	JobID     string  `json:"jobId"`
	Status    string  `json:"status"`
	Progress  float64 `json:"progress"`
	PageCount int     `json:"pageCount"`
	CreatedAt string  `json:"createdAt"`
	UpdatedAt string  `json:"updatedAt"`
	Error     *string `json:"error"`
}

// pageCount is how many pages the export makes in all.
func (e *staticExport) pageCount() int {
	if len(e.paths) > 0 {
		return len(e.paths)
	}
	return e.script.Pages
}

// failsAt is how far through its run a failing export fails.
const failsAt = 0.6

// render is the job as the API answers at now.
func (e *staticExport) render(now time.Time) exportObject {
	o := exportObject{JobID: e.id, Status: "queued", CreatedAt: e.createdAt.UTC().Format(timeLayout), UpdatedAt: e.createdAt.UTC().Format(timeLayout)}
	started := e.createdAt.Add(e.script.QueuedFor)
	if now.Before(started) {
		return o
	}
	run := e.script.RunFor
	frac := 1.0
	if run > 0 {
		frac = float64(now.Sub(started)) / float64(run)
	}
	updated := now
	switch {
	case e.script.Outcome == OutcomeNever:
		frac = min(frac, 0.99)
	case e.script.Outcome == OutcomeFailed && frac >= failsAt:
		frac, updated = failsAt, started.Add(time.Duration(float64(run)*failsAt))
		o.Status = "failed"
		page := "index"
		if n := int(float64(e.pageCount()) * failsAt); n < len(e.pagePaths()) {
			page = e.pagePaths()[n]
		}
		msg := fmt.Sprintf("Rendering page %s failed: the page's MDX could not be compiled.", page)
		o.Error = &msg
	case frac >= 1:
		frac, updated = 1, started.Add(run)
		o.Status = "completed"
	}
	if o.Status == "queued" {
		o.Status = "running"
	}
	o.Progress = math.Floor(frac*1000) / 10 // one decimal: the API's progress is a number
	o.PageCount = int(frac * float64(e.pageCount()))
	o.UpdatedAt = updated.UTC().Format(timeLayout)
	return o
}

// pagePaths are the export's page paths: those asked for, or generated.
func (e *staticExport) pagePaths() []string {
	if len(e.paths) > 0 {
		return e.paths
	}
	out := make([]string, e.script.Pages)
	for i := range out {
		switch i {
		case 0:
			out[i] = "index"
		case 1:
			out[i] = "quickstart"
		default:
			out[i] = fmt.Sprintf("guides/page-%03d", i-1)
		}
	}
	return out
}

// ensureArchive makes the job's archive description (not its bytes).
func (e *staticExport) ensureArchive() (*bundle.Archive, error) {
	if e.archive != nil {
		return e.archive, nil
	}
	h := fnv.New64a()
	_, _ = h.Write([]byte(e.id))
	seed := h.Sum64()
	var files []bundle.File
	var total int64
	for i, p := range e.pagePaths() {
		html := fmt.Sprintf("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%s · %s</title>"+
			"<link rel=\"stylesheet\" href=\"/_next/static/css/app.css\"></head>\n<body><main><h1>%s</h1>\n"+
			"<p>Page %d of the static export %s of %s, version %q.</p>\n</main><script src=\"/_next/static/chunks/main.js\"></script></body></html>\n",
			p, e.domain, p, i+1, e.id, e.domain, e.version)
		rsc := fmt.Sprintf("0:[\"$\",\"main\",null,{\"children\":[\"$\",\"h1\",null,{\"children\":%q}]}]\n", p)
		files = append(files, bundle.File{Name: p + ".html", Data: []byte(html)}, bundle.File{Name: p + ".txt", Data: []byte(rsc)})
		total += int64(len(html) + len(rsc) + 1024)
	}
	files = append(files,
		bundle.File{Name: "_next/static/css/app.css", Data: []byte("body{font-family:system-ui,sans-serif;margin:0 auto;max-width:48rem}\n")},
		bundle.File{Name: "_next/static/chunks/main.js", Data: []byte("document.documentElement.dataset.export=" + strconv.Quote(e.id) + ";\n")})
	if fill := e.script.BundleSize - total - 4096; fill > 0 {
		files = append(files, bundle.File{Name: "_next/static/media/fill.bin", Fill: fill})
	}
	a, err := bundle.New(files, e.createdAt, seed)
	if err != nil {
		return nil, err
	}
	e.archive = a
	return a, nil
}

// startExportBody is the request body as the spec defines it, read
// leniently to answer a wrong one with 400.
type startExportBody struct {
	Domain  *string         `json:"domain"`
	Version *string         `json:"version"`
	Paths   json.RawMessage `json:"paths"`
}

// checkExportDomain applies the spec's rule: the hostname only, without
// protocol, trailing slash or path prefix. A domain under .invalid (RFC
// 2606) stands for one that does not resolve.
func checkExportDomain(d string) string {
	switch {
	case strings.TrimSpace(d) == "":
		return "domain is required"
	case strings.Contains(d, "://"), strings.Contains(d, "/"), strings.ContainsAny(d, ":?#@ \t"):
		return "domain must be the hostname only, such as docs.example.com: no protocol, port, trailing slash or path prefix"
	case !strings.Contains(d, "."):
		return "domain is not a reachable hostname"
	case strings.HasSuffix(strings.ToLower(d), ".invalid"):
		return "domain is not a reachable hostname: " + d + " does not resolve"
	}
	return ""
}

func checkExportPath(p string) string {
	switch {
	case strings.TrimSpace(p) == "":
		return "paths entries must not be empty"
	case strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/"):
		return fmt.Sprintf("paths entry %q is not a valid page path: write it without a leading or trailing slash", p)
	case strings.ContainsAny(p, "?#") || strings.Contains(p, "..") || strings.Contains(p, "//"):
		return fmt.Sprintf("paths entry %q is not a valid page path", p)
	}
	return ""
}

const exportsNotEnabled = "Static export is not enabled for this organization. Contact sales to enable it on an Enterprise plan."

func (s *Fake) startStaticExport(w http.ResponseWriter, r *http.Request, org string, _ *project) {
	st := s.exports
	if st.disabled {
		writeError(w, http.StatusForbidden, exportsNotEnabled)
		return
	}
	data, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	var body startExportBody
	if err != nil || json.Unmarshal(data, &body) != nil {
		writeError(w, http.StatusBadRequest, "Invalid request body", "the body must be a JSON object with a domain")
		return
	}
	if body.Domain == nil {
		writeError(w, http.StatusBadRequest, "Invalid request body", "domain is required")
		return
	}
	if msg := checkExportDomain(*body.Domain); msg != "" {
		writeError(w, http.StatusBadRequest, "Invalid request body", msg)
		return
	}
	var paths []string
	if len(body.Paths) > 0 && string(body.Paths) != "null" {
		if json.Unmarshal(body.Paths, &paths) != nil {
			writeError(w, http.StatusBadRequest, "Invalid request body", "paths must be a list of page paths")
			return
		}
		for _, p := range paths {
			if msg := checkExportPath(p); msg != "" {
				writeError(w, http.StatusBadRequest, "Invalid request body", msg)
				return
			}
		}
	}
	version := ""
	if body.Version != nil {
		version = *body.Version
	}
	st.seq++
	sum := sha256.Sum256([]byte(fmt.Sprintf("static-export %d", st.seq)))
	e := &staticExport{id: "se_" + hex.EncodeToString(sum[:8]), org: org, domain: *body.Domain, version: version, paths: paths,
		script: st.script.withMarkers(version), createdAt: s.clock.Now()}
	st.jobs[e.id] = e
	st.order = append(st.order, e.id)
	writeJSON(w, http.StatusAccepted, e.render(e.createdAt))
}

// exportOf finds a job of the key's organization, or answers 404.
func (s *Fake) exportOf(w http.ResponseWriter, r *http.Request, org string) *staticExport {
	e := s.exports.jobs[r.PathValue("jobId")]
	if e == nil || e.org != org {
		writeError(w, http.StatusNotFound, "No job exists with the provided ID.")
		return nil
	}
	return e
}

func (s *Fake) getStaticExport(w http.ResponseWriter, r *http.Request, org string, _ *project) {
	if e := s.exportOf(w, r, org); e != nil {
		writeJSON(w, http.StatusOK, e.render(s.clock.Now()))
	}
}

// bundleObject is the wire shape of a bundle.
type bundleObject struct {
	JobID     string `json:"jobId"`
	BundleURL string `json:"bundleUrl"`
	SizeBytes int64  `json:"sizeBytes"`
	ExpiresAt string `json:"expiresAt"`
}

func (s *Fake) createBundle(w http.ResponseWriter, r *http.Request, org string, _ *project) {
	e := s.exportOf(w, r, org)
	if e == nil {
		return
	}
	now := s.clock.Now()
	switch e.render(now).Status {
	case "completed":
	case "failed":
		writeError(w, http.StatusConflict, "The job failed, so a bundle cannot be generated.")
		return
	default:
		writeError(w, http.StatusConflict, "The job has not finished yet, so a bundle cannot be generated.")
		return
	}
	a, err := e.ensureArchive()
	if err != nil {
		writeError(w, http.StatusInternalServerError, "Internal error", err.Error())
		return
	}
	// Signed to the second, as S3's X-Amz-Date: the link expires ttl
	// after that, which expiresAt says.
	signed := now.UTC().Truncate(time.Second)
	link := s.exports.sign(requestOrigin(r), e.id, signed, s.exports.linkTTL)
	s.exports.links = append(s.exports.links, link)
	writeJSON(w, http.StatusOK, bundleObject{JobID: e.id, BundleURL: link, SizeBytes: a.Size(),
		ExpiresAt: signed.Add(s.exports.linkTTL).Format(timeLayout)})
}

// requestOrigin is the scheme and host the request came to: links point
// back at the fake wherever it listens.
func requestOrigin(r *http.Request) string {
	scheme := "http"
	switch {
	case r.URL.Scheme != "": // an in-process client's request
		scheme = r.URL.Scheme
	case r.TLS != nil:
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// The query parameters of a bundle link, named as S3's presigned links.
const (
	amzDate      = "X-Amz-Date"
	amzExpires   = "X-Amz-Expires"
	amzSignature = "X-Amz-Signature"
	amzDateForm  = "20060102T150405Z"
)

// bundlePath is where a job's bundle is served.
func bundlePath(jobID string) string { return "/_bundles/" + jobID + "/bundle.tar.gz" }

// sign makes a link to a job's bundle, valid ttl from at.
func (st *exportState) sign(origin, jobID string, at time.Time, ttl time.Duration) string {
	q := url.Values{}
	q.Set("X-Amz-Algorithm", "AWS4-HMAC-SHA256")
	q.Set("X-Amz-Credential", "MINTLIFYFAKEKEY/"+at.Format("20060102")+"/us-east-1/s3/aws4_request")
	q.Set(amzDate, at.Format(amzDateForm))
	q.Set(amzExpires, strconv.Itoa(int(ttl/time.Second)))
	q.Set("X-Amz-SignedHeaders", "host")
	q.Set(amzSignature, st.signature(jobID, q))
	return origin + bundlePath(jobID) + "?" + q.Encode()
}

// signature is the HMAC of what a link grants: the object and every
// parameter but the signature.
func (st *exportState) signature(jobID string, q url.Values) string {
	m := hmac.New(sha256.New, st.secret)
	m.Write([]byte("GET\n" + bundlePath(jobID) + "\n"))
	unsigned := url.Values{}
	for k, v := range q {
		if k != amzSignature {
			unsigned[k] = v
		}
	}
	m.Write([]byte(unsigned.Encode()))
	return hex.EncodeToString(m.Sum(nil))
}

// s3Error is object storage's error body.
type s3Error struct {
	XMLName           xml.Name `xml:"Error"`
	Code              string   `xml:"Code"`
	Message           string   `xml:"Message"`
	Expires           string   `xml:"Expires,omitempty"`
	ServerTime        string   `xml:"ServerTime,omitempty"`
	SignatureProvided string   `xml:"SignatureProvided,omitempty"`
	Resource          string   `xml:"Resource,omitempty"`
	RequestID         string   `xml:"RequestId"`
}

func writeS3Error(w http.ResponseWriter, status int, e s3Error) {
	e.RequestID = w.Header().Get("X-Request-Id")
	w.Header().Set("Content-Type", "application/xml")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, xml.Header)
	_ = xml.NewEncoder(w).Encode(e)
}

// errBadRange is a Range header the fake will not serve.
var errBadRange = errors.New("bad range")

// parseRange reads a single byte range of an object of size bytes: "bytes=a-b",
// "bytes=a-" or "bytes=-n". ok is false when there is none to honor.
func parseRange(h string, size int64) (from, to int64, ok bool, err error) {
	spec, found := strings.CutPrefix(h, "bytes=")
	if h == "" || !found || strings.Contains(spec, ",") {
		return 0, size, false, nil // none, another unit, or several ranges: the whole object
	}
	first, last, found := strings.Cut(spec, "-")
	if !found {
		return 0, size, false, nil
	}
	switch first {
	case "":
		n, perr := strconv.ParseInt(last, 10, 64)
		if perr != nil || n <= 0 {
			return 0, 0, false, errBadRange
		}
		return max(size-n, 0), size, true, nil
	default:
		a, perr := strconv.ParseInt(first, 10, 64)
		if perr != nil || a < 0 || a >= size {
			return 0, 0, false, errBadRange
		}
		b := size - 1
		if last != "" {
			if b, perr = strconv.ParseInt(last, 10, 64); perr != nil || b < a {
				return 0, 0, false, errBadRange
			}
			b = min(b, size-1)
		}
		return a, b + 1, true, nil
	}
}

// downloadBundle serves a bundle link, as object storage does: no key, the
// link's signature and expiry checked, a single Range honored (with
// If-Range), the archive made as it is sent.
func (s *Fake) downloadBundle(w http.ResponseWriter, r *http.Request, _ string, _ *project) {
	s.mu.Lock()
	st := s.exports
	jobID := r.PathValue("jobId")
	e := st.jobs[jobID]
	now := s.clock.Now()
	q := r.URL.Query()
	want := st.signature(jobID, q)
	var a *bundle.Archive
	var err error
	if e != nil {
		a, err = e.ensureArchive()
	}
	// A reset sends half of what was asked, then the connection breaks
	// (serveRoute breaks it): a download cut mid-way.
	entry, _ := r.Context().Value(entryKey{}).(*logEntry)
	reset := entry != nil && entry.Fault == FaultReset
	s.mu.Unlock()
	given := q.Get(amzSignature)
	if given == "" || !hmac.Equal([]byte(given), []byte(want)) {
		writeS3Error(w, http.StatusForbidden, s3Error{Code: "SignatureDoesNotMatch",
			Message:           "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
			SignatureProvided: given})
		return
	}
	signed, perr := time.Parse(amzDateForm, q.Get(amzDate))
	ttl, terr := strconv.Atoi(q.Get(amzExpires))
	if perr != nil || terr != nil {
		writeS3Error(w, http.StatusForbidden, s3Error{Code: "AccessDenied", Message: "Query-string authentication requires the X-Amz-Date and X-Amz-Expires parameters"})
		return
	}
	if expires := signed.Add(time.Duration(ttl) * time.Second); !now.Before(expires) {
		writeS3Error(w, http.StatusForbidden, s3Error{Code: "AccessDenied", Message: "Request has expired",
			Expires: expires.UTC().Format(time.RFC3339), ServerTime: now.UTC().Format(time.RFC3339)})
		return
	}
	if e == nil || err != nil {
		writeS3Error(w, http.StatusNotFound, s3Error{Code: "NoSuchKey", Message: "The specified key does not exist.", Resource: bundlePath(jobID)})
		return
	}
	size := a.Size()
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s %d %s", e.id, size, e.version)))
	etag := `"` + hex.EncodeToString(sum[:16]) + `"`
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Accept-Ranges", "bytes")
	h.Set("Content-Type", "application/gzip")
	h.Set("Last-Modified", e.createdAt.UTC().Format(http.TimeFormat))
	rangeHeader := r.Header.Get("Range")
	if ir := r.Header.Get("If-Range"); ir != "" && ir != etag {
		rangeHeader = "" // the object changed: all of it
	}
	from, to, partial, rerr := parseRange(rangeHeader, size)
	if rerr != nil {
		h.Del("ETag")
		h.Set("Content-Range", fmt.Sprintf("bytes */%d", size))
		writeS3Error(w, http.StatusRequestedRangeNotSatisfiable, s3Error{Code: "InvalidRange", Message: "The requested range is not satisfiable"})
		return
	}
	h.Set("Content-Length", strconv.FormatInt(to-from, 10))
	status := http.StatusOK
	if partial {
		h.Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", from, to-1, size))
		status = http.StatusPartialContent
	}
	w.WriteHeader(status)
	if r.Method == http.MethodHead {
		return
	}
	if reset {
		to = from + (to-from)/2
	}
	_ = a.WriteRange(w, from, to)
}

// StaticExportIDs returns every static export's job id, in the order they
// were started.
func (s *Fake) StaticExportIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.exports.order...)
}

// StaticExport returns the export job as the API would answer now, and
// whether it exists.
func (s *Fake) StaticExport(jobID string) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.exports.jobs[jobID]
	if e == nil {
		return nil, false
	}
	b, _ := json.Marshal(e.render(s.clock.Now()))
	return b, true
}

// WriteStaticExportArchive writes a job's archive (the bytes its bundle
// link serves, whatever its status) to w, and returns its size. Tests
// compare its checksum with a download's.
func (s *Fake) WriteStaticExportArchive(jobID string, w io.Writer) (int64, error) {
	s.mu.Lock()
	e := s.exports.jobs[jobID]
	var a *bundle.Archive
	var err error
	if e != nil {
		a, err = e.ensureArchive()
	}
	s.mu.Unlock()
	if e == nil {
		return 0, fmt.Errorf("mintlifytest: no static export %q", jobID)
	}
	if err != nil {
		return 0, err
	}
	return a.Size(), a.WriteRange(w, 0, a.Size())
}

// BundleLinks returns every bundle link the fake has issued, in order:
// tests check that none reaches a log, an error or Terraform state.
func (s *Fake) BundleLinks() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.exports.links...)
}

// SetStaticExportsEnabled turns the static export feature on or off for
// every organization: off, starting an export answers 403.
func (s *Fake) SetStaticExportsEnabled(on bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exports.disabled = !on
}
