package rules

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"unicode"
)

// maxHostnameLength and maxLabelLength are DNS's limits.
const (
	maxHostnameLength = 253
	maxLabelLength    = 63
)

// StaticExport checks an export's domain, version and page paths, each
// path named paths[i] and listed once.
func StaticExport(domain, version string, paths []string) *Broken {
	if b := ExportDomain(domain); b != nil {
		return b
	}
	if b := ExportVersion(version); b != nil {
		return b
	}
	seen := make(map[string]int, len(paths))
	for i, p := range paths {
		if b := ExportPath(p); b != nil {
			b.Field = fmt.Sprintf("paths[%d]", i)
			return b
		}
		if j, dup := seen[p]; dup {
			return &Broken{Field: fmt.Sprintf("paths[%d]", i), Value: p, Rule: fmt.Sprintf("repeats paths[%d]: list each page once", j)}
		}
		seen[p] = i
	}
	return nil
}

// ExportDomain checks the domain of an export: a bare hostname of at
// least two labels, each 1 to 63 letters, digits or hyphens, not starting
// or ending with a hyphen. A URL is refused with the hostname to write.
func ExportDomain(domain string) *Broken {
	fail := func(rule string) *Broken { return &Broken{Field: "domain", Value: domain, Rule: rule} }
	if strings.TrimSpace(domain) == "" {
		return &Broken{Field: "domain", Rule: "is required: the deployment's hostname, such as docs.example.com or acme.mintlify.app"}
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

// isLDH reports whether r may be in a DNS label: a letter, a digit or a
// hyphen.
func isLDH(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-'
}

// hostOf is the hostname in a value written as a URL or host:port ("" when
// none can be found): what the user most likely meant.
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

// ExportVersion checks an export's version label: "" (the latest
// published version), or a label not only white space, without control
// characters.
func ExportVersion(version string) *Broken {
	if version == "" {
		return nil
	}
	if strings.TrimSpace(version) == "" {
		return &Broken{Field: "version", Value: version, Rule: "must not be only white space: leave it out to export the latest published version"}
	}
	if strings.ContainsFunc(version, unicode.IsControl) {
		return &Broken{Field: "version", Value: version, Rule: "must not contain control characters"}
	}
	return nil
}

// ExportPath checks one page path of an export, written as the docs'
// navigation writes it: no leading or trailing slash, scheme, host, query,
// fragment, empty, "." or ".." segment, surrounding white space or
// control character.
func ExportPath(p string) *Broken {
	fail := func(rule string) *Broken { return &Broken{Field: "path", Value: p, Rule: rule} }
	clean := strings.Trim(p, "/")
	switch {
	case strings.TrimSpace(p) == "":
		return &Broken{Field: "path", Value: p, Rule: "must not be empty: write a page path such as guides/getting-started"}
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

// Branch checks a Git branch name by Git's own rules (git
// check-ref-format --branch).
func Branch(branch string) *Broken {
	if branch == "" {
		return &Broken{Field: "branch", Rule: "is required"}
	}
	refuse := func(rule string) *Broken { return &Broken{Field: "branch", Value: branch, Rule: rule} }
	for _, r := range branch {
		switch {
		case r == ' ' || r == '\t' || r == '\n' || r == '\r':
			return refuse("contains white space (often a trailing newline): a branch name cannot")
		case r < ' ' || r == 0x7f:
			return refuse("contains a control character: a branch name cannot")
		case strings.ContainsRune(`~^:?*[\`, r):
			return refuse(`contains one of ~ ^ : ? * [ \: a branch name cannot`)
		}
	}
	switch {
	case branch == "@":
		return refuse(`is "@", which Git does not allow as a branch name`)
	case strings.Contains(branch, ".."), strings.Contains(branch, "@{"), strings.Contains(branch, "//"):
		return refuse(`contains "..", "@{" or "//": a branch name cannot`)
	case strings.HasPrefix(branch, "-"), strings.HasPrefix(branch, "/"), strings.HasSuffix(branch, "/"):
		return refuse(`starts with "-" or "/", or ends with "/": a branch name cannot`)
	case strings.HasSuffix(branch, "."), strings.HasSuffix(branch, ".lock"):
		return refuse(`ends with "." or ".lock": a branch name cannot`)
	}
	for _, part := range strings.Split(branch, "/") {
		if strings.HasPrefix(part, ".") {
			return refuse(`has a part starting with ".": a branch name cannot`)
		}
	}
	return nil
}

// SiteDomain checks a documentation site's domain identifier by the rule
// of an id; a URL or a path is refused with what to write instead.
func SiteDomain(domain string) *Broken {
	b := ID("domain", domain)
	if b != nil && strings.Contains(domain, "/") {
		b.Rule = "is a URL or a path: write the domain identifier alone, as acme for acme.mintlify.site " +
			"(the end of the dashboard's URL, app.mintlify.com/<organization>/<domain>)"
		if id := siteID(domain); id != "" {
			b.Rule += fmt.Sprintf(": write %q", id)
		}
	}
	return b
}

// siteID is the domain identifier in a URL of a Mintlify-hosted site
// (acme in https://acme.mintlify.site/docs), or "".
func siteID(s string) string {
	_, rest, ok := strings.Cut(s, "://")
	if !ok {
		rest = s
	}
	host, _, _ := strings.Cut(rest, "/")
	for _, suffix := range []string{".mintlify.site", ".mintlify.app"} {
		if id, ok := strings.CutSuffix(host, suffix); ok && id != "" && ID("domain", id) == nil {
			return id
		}
	}
	return ""
}
