package sdk

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/download"
	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// StaticExportsService pre-renders a deployment's documentation into a
// static copy and packages it into one archive: Start, Wait, CreateBundle
// (or CreateBundleWhenReady for both), DownloadBundle. It is an Enterprise
// feature: elsewhere Start is refused with 403 (IsForbidden).
type StaticExportsService struct {
	core *core
}

// StaticExportStatus is a static export job's status.
type StaticExportStatus string

// The statuses the API documents: queued, running, then completed or
// failed.
const (
	StaticExportStatusQueued    StaticExportStatus = "queued"
	StaticExportStatusRunning   StaticExportStatus = "running"
	StaticExportStatusCompleted StaticExportStatus = "completed"
	StaticExportStatusFailed    StaticExportStatus = "failed"
)

// Terminal reports whether the export has stopped changing: completed or
// failed (an unknown status is not).
func (s StaticExportStatus) Terminal() bool {
	return s == StaticExportStatusCompleted || s == StaticExportStatusFailed
}

// Known reports whether the status is one the API documents.
func (s StaticExportStatus) Known() bool {
	return s == StaticExportStatusQueued || s == StaticExportStatusRunning || s.Terminal()
}

// StaticExport is a static export job.
type StaticExport struct {
	ID string `json:"jobId"`
	// Status is "" when the answer had none the SDK could read: not
	// terminal, so a wait goes on.
	Status    StaticExportStatus `json:"status"`
	Progress  float64            `json:"progress"`  // percent, 0 to 100
	PageCount int64              `json:"pageCount"` // pages exported so far
	CreatedAt time.Time          `json:"createdAt"`
	UpdatedAt time.Time          `json:"updatedAt"`
	// Error is the API's explanation of a failed export.
	Error *string `json:"error"`
	// Problems name the fields the SDK could not read or trust. The
	// export is still the export: do not start it again because of them.
	Problems []string `json:"-"`
	ResponseInfo
}

// check is what an export needs beyond its id (staticExportID).
func (e *StaticExport) check(c *checker) {
	c.need("status", "progress", "pageCount", "createdAt", "updatedAt")
	if e.Status == "" && !c.named("status") {
		c.add("status", "empty")
	}
	c.nonNegative("progress", &e.Progress)
	if e.Progress > 100 {
		c.add("progress", "%v is above 100", e.Progress)
		e.Progress = 0
	}
}

// StaticExportRequest is what Start sends.
type StaticExportRequest struct {
	// Domain is the deployment's primary domain, a bare hostname
	// (docs.example.com, acme.mintlify.app).
	Domain string
	// Version tags the export ("": the latest published version).
	Version string
	// Paths are the pages to export, as the navigation writes them
	// ("guides/getting-started"; none: every published page).
	Paths []string
}

// Validate checks the request by ValidateStaticExportDomain,
// ValidateStaticExportVersion and ValidateStaticExportPath, each path
// once.
func (r StaticExportRequest) Validate() error {
	if err := ValidateStaticExportDomain(r.Domain); err != nil {
		return err
	}
	if err := ValidateStaticExportVersion(r.Version); err != nil {
		return err
	}
	seen := make(map[string]int, len(r.Paths))
	for i, p := range r.Paths {
		if err := exportPath(fmt.Sprintf("paths[%d]", i), p); err != nil {
			return err
		}
		if j, dup := seen[p]; dup {
			return &ValidationError{Field: fmt.Sprintf("paths[%d]", i), Value: p, Rule: fmt.Sprintf("repeats paths[%d]: list each page once", j)}
		}
		seen[p] = i
	}
	return nil
}

// ValidateStaticExportDomain checks an export's domain: a bare hostname
// (no scheme, port, path or trailing slash) of at least two labels, each
// 1 to 63 ASCII letters, digits or inner hyphens (an internationalized
// domain in its xn-- form). For a URL, the error says which hostname to
// write.
func ValidateStaticExportDomain(domain string) error {
	fail := func(rule string) error { return &ValidationError{Field: "domain", Value: domain, Rule: rule} }
	if strings.TrimSpace(domain) == "" {
		return &ValidationError{Field: "domain", Rule: "is required: the deployment's hostname, such as docs.example.com or acme.mintlify.app"}
	}
	if host := hostOf(domain); host != domain && host != "" {
		return fail(fmt.Sprintf("must be a bare hostname, without a scheme, port, path or trailing slash: write %q", host))
	}
	for _, r := range domain {
		switch {
		case unicode.IsSpace(r):
			return fail("must not contain white space")
		case r < ' ' || r == 0x7f:
			return fail("must not contain control characters")
		case r >= 0x80:
			return fail("must be ASCII: write an internationalized domain in its xn-- (punycode) form")
		case !isLDH(r) && r != '.':
			return fail("must be a bare hostname: letters, digits, hyphens and dots only")
		}
	}
	if len(domain) > maxHostnameLength {
		return fail(fmt.Sprintf("is longer than %d characters: it cannot be a hostname", maxHostnameLength))
	}
	labels := strings.Split(domain, ".")
	for _, l := range labels {
		switch {
		case l == "":
			return fail("has an empty label (a leading, trailing or doubled dot)")
		case len(l) > maxLabelLength:
			return fail(fmt.Sprintf("has a label longer than %d characters", maxLabelLength))
		case l[0] == '-' || l[len(l)-1] == '-':
			return fail("has a label that starts or ends with a hyphen")
		}
	}
	if len(labels) < 2 {
		return fail("must be a full hostname, such as docs.example.com or acme.mintlify.app")
	}
	return nil
}

// ValidateStaticExportVersion checks an export's version label: "", or
// more than white space without control characters.
func ValidateStaticExportVersion(version string) error {
	if version == "" {
		return nil
	}
	if strings.TrimSpace(version) == "" {
		return &ValidationError{Field: "version", Value: version, Rule: "must not be only white space: leave it out to export the latest published version"}
	}
	if strings.ContainsFunc(version, unicode.IsControl) {
		return &ValidationError{Field: "version", Value: version, Rule: "must not contain control characters"}
	}
	return nil
}

// ValidateStaticExportPath checks a page path of an export, as the
// navigation writes it ("guides/getting-started"): no leading or trailing
// slash or white space, no URL, query or fragment, no empty, "." or ".."
// segment, no control character.
func ValidateStaticExportPath(p string) error { return exportPath("path", p) }

// exportPath checks page path p, named field.
func exportPath(field, p string) error {
	fail := func(rule string) error { return &ValidationError{Field: field, Value: p, Rule: rule} }
	clean := strings.Trim(p, "/")
	switch {
	case strings.TrimSpace(p) == "":
		return &ValidationError{Field: field, Value: p, Rule: "must not be empty: write a page path such as guides/getting-started"}
	case strings.ContainsFunc(p, unicode.IsControl):
		return fail("must not contain control characters")
	case strings.TrimSpace(p) != p:
		return fail("must not start or end with white space")
	case strings.Contains(p, "://"):
		return fail("must be a page path such as guides/getting-started, not a URL")
	case strings.ContainsAny(p, "?#"):
		return fail("must be a page path without a query or fragment (? or #)")
	case strings.HasPrefix(p, "/") || strings.HasSuffix(p, "/"):
		if clean == "" {
			return fail("must be a page path such as index or guides/getting-started")
		}
		return fail(fmt.Sprintf("must not start or end with a slash: write %q, as the docs' navigation does", clean))
	}
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "":
			return fail("has an empty segment (a doubled slash)")
		case ".", "..":
			return fail("must not hold a . or .. segment")
		}
	}
	return nil
}

// maxHostnameLength and maxLabelLength are DNS's limits.
const (
	maxHostnameLength = 253
	maxLabelLength    = 63
)

// isLDH reports whether r may be in a DNS label.
func isLDH(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-'
}

// hostOf is the hostname in a URL or host:port, or "".
func hostOf(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, "://"); i >= 0 {
		if u, err := url.Parse(s); err == nil && u.Hostname() != "" {
			return u.Hostname()
		}
		s = s[i+3:]
	}
	if i := strings.IndexAny(s, "/?#"); i >= 0 {
		s = s[:i]
	}
	if h, _, err := net.SplitHostPort(s); err == nil {
		s = h
	}
	return strings.TrimSuffix(s, ".")
}

type startExportBody struct {
	Domain  string   `json:"domain"`
	Version string   `json:"version,omitempty"`
	Paths   []string `json:"paths,omitempty"`
}

// exportCall reads the export job answering c: wantID's, or (wantID "")
// a new one Get can ask for.
func exportCall(ctx context.Context, k *core, c call, wantID string) (*StaticExport, error) {
	return answerTo(ctx, k, c, func(e *StaticExport) error {
		if wantID == "" {
			return staticExportID.checkNew(k, c, e.ResponseInfo, e.ID, e.Problems)
		}
		return staticExportID.check(k, c, e.ID, wantID, e.Problems)
	})
}

// Start starts a static export of the deployment at req.Domain and returns
// the job, queued; follow it with Get or Wait. Like AgentJobs.Create, it
// is never sent twice, and a job id Get could not read back is an
// *UnusableIDError. A 403 (IsForbidden): not enabled for the organization,
// or the key may not start one.
func (s *StaticExportsService) Start(ctx context.Context, req StaticExportRequest) (*StaticExport, error) {
	k, err := checked(s.core, req.Validate())
	if err != nil {
		return nil, err
	}
	c := call{method: http.MethodPost, path: escapePath("v1", "static-export", "jobs"),
		body: startExportBody(req)}
	e, err := exportCall(ctx, k, c, "")
	if err != nil {
		return nil, fmt.Errorf("starting static export of %s: %w", req.Domain, err)
	}
	return e, nil
}

// ValidateStaticExportID checks a static export job id (ValidateJobID).
func ValidateStaticExportID(jobID string) error { return validateID("jobId", jobID) }

// Get reads a static export job. An unknown job is a 404 (IsNotFound); an
// answer without an id, or another's, is a *MalformedResponseError.
func (s *StaticExportsService) Get(ctx context.Context, jobID string) (*StaticExport, error) {
	k, err := checked(s.core, ValidateStaticExportID(jobID))
	if err != nil {
		return nil, err
	}
	e, err := exportCall(ctx, k, get(escapePath("v1", "static-export", "jobs", jobID), nil), jobID)
	if err != nil {
		return nil, fmt.Errorf("getting static export %s: %w", jobID, err)
	}
	return e, nil
}

// Wait polls the export until it is completed or failed, and returns it
// (WaitOption's rules; WithStatusCallback takes a func(*StaticExport)).
// When ctx ends, it returns the last export seen with the error.
func (s *StaticExportsService) Wait(ctx context.Context, jobID string, opts ...WaitOption) (*StaticExport, error) {
	if _, err := checked(s.core, ValidateStaticExportID(jobID)); err != nil {
		return nil, err
	}
	return poll(ctx, s.core, poller[*StaticExport]{
		what:     "static export " + jobID,
		read:     func(ctx context.Context) (*StaticExport, error) { return s.Get(ctx, jobID) },
		terminal: func(e *StaticExport) bool { return e.Status.Terminal() },
	}, opts)
}

// StaticExportBundle is the archive of a completed export: a presigned
// link to download before ExpiresAt.
//
// URL is a bearer secret until it expires: do not log, print or store it.
// String and GoString leave its query (the signature) out, and
// RedactedURL gives the link without it.
type StaticExportBundle struct {
	JobID string `json:"jobId"`
	// URL is the presigned link (https, or http to a loopback host).
	URL string `json:"bundleUrl"`
	// SizeBytes and ExpiresAt are zero when the answer did not say.
	SizeBytes int64     `json:"sizeBytes"`
	ExpiresAt time.Time `json:"expiresAt"`
	Problems  []string  `json:"-"` // what could not be read
	ResponseInfo
}

// check is what a bundle needs beyond its job's id and link (bundleCall).
func (b *StaticExportBundle) check(c *checker) { c.need("bundleUrl", "sizeBytes", "expiresAt") }

// RedactedURL is the link without its query (the signature): safe to show.
func (b StaticExportBundle) RedactedURL() string {
	u, err := url.Parse(b.URL)
	if err != nil {
		return "(link)"
	}
	return redact.WithoutQuery(u) + "?" + Redacted
}

// String describes the bundle without its link's signature.
func (b StaticExportBundle) String() string {
	return fmt.Sprintf("bundle of static export %s (%d bytes) at %s, expires %s", b.JobID, b.SizeBytes, b.RedactedURL(), b.ExpiresAt.UTC().Format(time.RFC3339))
}

// GoString is String: %#v must not print the link either.
func (b StaticExportBundle) GoString() string { return b.String() }

// Secrets are the strings of the link to keep out of what a program
// writes (a logger's masks): the link, its query, and each query value
// that may be a signature or a token.
func (b StaticExportBundle) Secrets() []string {
	u, err := url.Parse(b.URL)
	if err != nil {
		return []string{b.URL}
	}
	return redact.LinkSecrets(u)
}

// CreateBundle packages a completed export into one archive and returns
// its presigned link (a secret). The API answers 409 (IsConflict) until
// the export is completed; CreateBundleWhenReady waits instead. Each call
// makes a new link. An answer without a link the SDK will download, or
// for another job, is a *MalformedResponseError that never quotes the
// link.
func (s *StaticExportsService) CreateBundle(ctx context.Context, jobID string) (*StaticExportBundle, error) {
	k, err := checked(s.core, ValidateStaticExportID(jobID))
	if err != nil {
		return nil, err
	}
	c := call{method: http.MethodPost, path: escapePath("v1", "static-export", "jobs", jobID, "bundle")}
	b, err := bundleCall(ctx, k, c, jobID)
	if err != nil {
		return nil, fmt.Errorf("creating the bundle of static export %s: %w", jobID, err)
	}
	return b, nil
}

// bundleCall reads a bundle's answer. The link's secrets are learned as
// it arrives (call.secretsIn), so wherever the server repeats them they
// are removed; every field is scrubbed but the link, set aside meanwhile.
func bundleCall(ctx context.Context, k *core, c call, jobID string) (*StaticExportBundle, error) {
	c.secretsIn = redact.BundleLinkSecrets
	b := &StaticExportBundle{}
	var link string
	if _, _, err := k.fetch(ctx, c, b, func(d decoding, data []byte) error {
		err := d.decode(data, b)
		link, b.URL = b.URL, ""
		return err
	}); err != nil {
		return nil, err
	}
	p := (*problems)(&b.Problems)
	_, rule := download.ParseLink(link)
	_, holdsKey := redact.Scrub(link, []string{k.apiKey})
	switch {
	case p.Names("bundleUrl"):
	case rule != "":
		p.Add("bundleUrl", "not a link the SDK will download: %s", rule)
		link = ""
	case holdsKey:
		p.Add("bundleUrl", "holds this client's key: not used")
		link = ""
	}
	if err := staticExportID.check(k, c, b.JobID, jobID, nil); err != nil {
		return nil, err
	}
	if link == "" {
		return nil, &MalformedResponseError{Method: c.method, Path: c.path, Problems: b.Problems}
	}
	b.URL = link
	return b, nil
}

// ErrStaticExportFailed is wrapped by the error of CreateBundleWhenReady
// when the export failed: it has no bundle.
var ErrStaticExportFailed = errors.New("the static export failed")

// CreateBundleWhenReady is CreateBundle that, on a 409, waits for the
// export (Wait's rules and options) and asks again once it is completed.
// A failed export ends it with an error wrapping ErrStaticExportFailed,
// with the API's explanation.
func (s *StaticExportsService) CreateBundleWhenReady(ctx context.Context, jobID string, opts ...WaitOption) (*StaticExportBundle, error) {
	b, err := s.CreateBundle(ctx, jobID)
	if !IsConflict(err) {
		return b, err
	}
	var bundle *StaticExportBundle
	last, err := poll(ctx, s.core, poller[*StaticExport]{
		what: "static export " + jobID,
		read: func(ctx context.Context) (*StaticExport, error) {
			e, err := s.Get(ctx, jobID)
			if err != nil || e.Status != StaticExportStatusCompleted {
				return e, err
			}
			// Completed: a 409 now is the bundle lagging; poll again.
			b, err := s.CreateBundle(ctx, jobID)
			if IsConflict(err) {
				return e, nil
			}
			bundle = b
			return e, err
		},
		terminal: func(e *StaticExport) bool { return e.Status == StaticExportStatusFailed || bundle != nil },
	}, opts)
	switch {
	case err != nil:
		return nil, fmt.Errorf("creating the bundle of static export %s: %w", jobID, err)
	case bundle == nil: // failed
		why := "the API gave no reason"
		if last.Error != nil && *last.Error != "" {
			why = DisplayLine(*last.Error) // server text: escaped, clipped
		}
		return nil, fmt.Errorf("creating the bundle of static export %s: %w: %s", jobID, ErrStaticExportFailed, why)
	}
	return bundle, nil
}
