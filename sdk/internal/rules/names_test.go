package rules

import (
	"fmt"
	"strings"
	"testing"
)

func TestExportDomain(t *testing.T) {
	label63 := strings.Repeat("a", 63)
	host253 := label63 + "." + label63 + "." + label63 + "." + strings.Repeat("b", 61)
	d := func(v, rule string) string { return fmt.Sprintf("domain %q %s", v, rule) }
	const bare = "must be a bare hostname: letters, digits, hyphens and dots only"
	want := map[string]string{
		"":                         "domain is required: the deployment's hostname, such as docs.example.com or acme.mintlify.app",
		"  ":                       "domain is required: the deployment's hostname, such as docs.example.com or acme.mintlify.app",
		"docs.example.com":         "",
		"acme.mintlify.app":        "",
		"a.b":                      "",
		"xn--bcher-kva.example":    "",
		"AZ09-az.example":          "",
		label63 + ".com":           "",
		host253:                    "",
		host253 + "b":              d(host253+"b", "is longer than 253 characters: it cannot be a hostname"),
		"a" + label63 + ".com":     d("a"+label63+".com", "has a label longer than 63 characters"),
		"localhost":                d("localhost", "must be a full hostname, such as docs.example.com or acme.mintlify.app"),
		"docs..example.com":        d("docs..example.com", "has an empty label (a leading, trailing or doubled dot)"),
		".example.com":             d(".example.com", "has an empty label (a leading, trailing or doubled dot)"),
		"-docs.example.com":        d("-docs.example.com", "has a label that starts or ends with a hyphen"),
		"docs-.example.com":        d("docs-.example.com", "has a label that starts or ends with a hyphen"),
		"docs.example.com.":        d("docs.example.com.", `must be a bare hostname, without a scheme, port, path or trailing slash: write "docs.example.com"`),
		"https://docs.example.com": d("https://docs.example.com", `must be a bare hostname, without a scheme, port, path or trailing slash: write "docs.example.com"`),
		"docs.example.com/":        d("docs.example.com/", `must be a bare hostname, without a scheme, port, path or trailing slash: write "docs.example.com"`),
		"docs.example.com:443":     d("docs.example.com:443", `must be a bare hostname, without a scheme, port, path or trailing slash: write "docs.example.com"`),
		"docs.example.com?x":       d("docs.example.com?x", `must be a bare hostname, without a scheme, port, path or trailing slash: write "docs.example.com"`),
		"docs.example.com#x":       d("docs.example.com#x", `must be a bare hostname, without a scheme, port, path or trailing slash: write "docs.example.com"`),
		"docs example.com":         d("docs example.com", "must not contain white space"),
		"docs\u0085x.example.com":  d("docs\u0085x.example.com", "must not contain white space"),
		"docs\x1f.example.com":     d("docs\x1f.example.com", "must not contain control characters"),
		"docs\x7f.example.com":     d("docs\x7f.example.com", "must not contain control characters"),
		"docs\u0080.example.com":   d("docs\u0080.example.com", "must be ASCII: write an internationalized domain in its xn-- (punycode) form"),
		"bücher.example":           d("bücher.example", "must be ASCII: write an internationalized domain in its xn-- (punycode) form"),
		"docs_x.example.com":       d("docs_x.example.com", bare),
		"docs~.example.com":        d("docs~.example.com", bare),
		"://":                      d("://", bare),
	}
	// The characters just outside each range of a label.
	for _, r := range "`{@[/!*" {
		v := "a" + string(r) + "b.example.com"
		if _, ok := want[v]; !ok && r != '/' {
			want[v] = d(v, bare)
		}
	}
	for _, r := range "azAZ09" {
		want[string(r)+".example.com"] = ""
	}
	cases(t, ExportDomain, want)
}

func TestHostOf(t *testing.T) {
	for in, want := range map[string]string{
		"https://docs.example.com/guides?x#y": "docs.example.com",
		"  http://docs.example.com:8080  ":    "docs.example.com",
		"docs.example.com:443":                "docs.example.com",
		"docs.example.com.":                   "docs.example.com",
		"docs.example.com/a":                  "docs.example.com",
		"docs.example.com?a":                  "docs.example.com",
		"docs.example.com#a":                  "docs.example.com",
		"://docs.example.com/a":               "docs.example.com",
		"https://":                            "",
		"https://user@docs.example.com/":      "docs.example.com",
		"/docs.example.com":                   "",
		"[::1]:80":                            "::1",
		"docs.example.com":                    "docs.example.com",
	} {
		if got := hostOf(in); got != want {
			t.Errorf("hostOf(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestExportVersion(t *testing.T) {
	cases(t, ExportVersion, map[string]string{
		"":       "",
		"v2":     "",
		" v2 ":   "",
		"   ":    `version "   " must not be only white space: leave it out to export the latest published version`,
		"v2\x00": `version "v2\x00" must not contain control characters`,
		"v2\x7f": `version "v2\x7f" must not contain control characters`,
		"v2\n":   `version "v2\n" must not contain control characters`,
	})
}

func TestExportPath(t *testing.T) {
	p := func(v, rule string) string { return fmt.Sprintf("path %q %s", v, rule) }
	cases(t, ExportPath, map[string]string{
		"index":                  "",
		"guides/getting-started": "",
		"a/b/c":                  "",
		"a..b":                   "",
		"":                       "path must not be empty: write a page path such as guides/getting-started",
		" ":                      `path " " must not be empty: write a page path such as guides/getting-started`,
		"a\x00":                  p("a\x00", "must not contain control characters"),
		"a\x7f":                  p("a\x7f", "must not contain control characters"),
		" index":                 p(" index", "must not start or end with white space"),
		"index ":                 p("index ", "must not start or end with white space"),
		"https://x/index":        p("https://x/index", "must be a page path such as guides/getting-started, not a URL"),
		"index?x":                p("index?x", "must be a page path without a query or fragment (? or #)"),
		"index#x":                p("index#x", "must be a page path without a query or fragment (? or #)"),
		"/index":                 p("/index", `must not start or end with a slash: write "index", as the docs' navigation does`),
		"guides/":                p("guides/", `must not start or end with a slash: write "guides", as the docs' navigation does`),
		"/":                      p("/", "must be a page path such as index or guides/getting-started"),
		"//":                     p("//", "must be a page path such as index or guides/getting-started"),
		"a//b":                   p("a//b", "has an empty segment (a doubled slash)"),
		"a/./b":                  p("a/./b", "must not hold a . or .. segment"),
		"a/..":                   p("a/..", "must not hold a . or .. segment"),
		".":                      p(".", "must not hold a . or .. segment"),
	})
}

func TestStaticExport(t *testing.T) {
	for _, tt := range []struct {
		domain, version string
		paths           []string
		want            string
	}{
		{"docs.example.com", "", nil, ""},
		{"docs.example.com", "v2", []string{"index", "guides/a"}, ""},
		{"", "v2", []string{"/"}, "domain is required: the deployment's hostname, such as docs.example.com or acme.mintlify.app"},
		{"docs.example.com", " ", []string{"/"}, `version " " must not be only white space: leave it out to export the latest published version`},
		{"docs.example.com", "", []string{"index", "/a"}, `paths[1] "/a" must not start or end with a slash: write "a", as the docs' navigation does`},
		{"docs.example.com", "", []string{"index", "a", "index"}, `paths[2] "index" repeats paths[0]: list each page once`},
		{"docs.example.com", "", []string{"b", "a", "a"}, `paths[2] "a" repeats paths[1]: list each page once`},
	} {
		if got := text(StaticExport(tt.domain, tt.version, tt.paths)); got != tt.want {
			t.Errorf("%q %q %q:\n got %s\nwant %s", tt.domain, tt.version, tt.paths, got, tt.want)
		}
	}
}

func TestBranch(t *testing.T) {
	b := func(v, rule string) string { return fmt.Sprintf("branch %q %s", v, rule) }
	const ws = "contains white space (often a trailing newline): a branch name cannot"
	const ctl = "contains a control character: a branch name cannot"
	const punct = `contains one of ~ ^ : ? * [ \: a branch name cannot`
	want := map[string]string{
		"":                "branch is required",
		"main":            "",
		"feature/x-1_y.z": "",
		"a.lock.b":        "",
		"a@b":             "",
		"v1.2":            "",
		"@":               b("@", `is "@", which Git does not allow as a branch name`),
		"a..b":            b("a..b", `contains "..", "@{" or "//": a branch name cannot`),
		"a@{b":            b("a@{b", `contains "..", "@{" or "//": a branch name cannot`),
		"a//b":            b("a//b", `contains "..", "@{" or "//": a branch name cannot`),
		"-a":              b("-a", `starts with "-" or "/", or ends with "/": a branch name cannot`),
		"/a":              b("/a", `starts with "-" or "/", or ends with "/": a branch name cannot`),
		"a/":              b("a/", `starts with "-" or "/", or ends with "/": a branch name cannot`),
		"a.":              b("a.", `ends with "." or ".lock": a branch name cannot`),
		"a.lock":          b("a.lock", `ends with "." or ".lock": a branch name cannot`),
		".a":              b(".a", `has a part starting with ".": a branch name cannot`),
		"a/.b":            b("a/.b", `has a part starting with ".": a branch name cannot`),
		"a\x7f":           b("a\x7f", ctl),
		"a\x1f":           b("a\x1f", ctl),
		"a\x00":           b("a\x00", ctl),
		"é-ok":            "",
	}
	for _, r := range " \t\n\r" {
		want["a"+string(r)] = b("a"+string(r), ws)
	}
	for _, r := range `~^:?*[\` {
		want["a"+string(r)] = b("a"+string(r), punct)
	}
	cases(t, Branch, want)
}

func TestSiteDomain(t *testing.T) {
	const url = "is a URL or a path: write the domain identifier alone, as acme for acme.mintlify.site " +
		"(the end of the dashboard's URL, app.mintlify.com/<organization>/<domain>)"
	s := func(v, rule string) string { return fmt.Sprintf("domain %q %s", v, rule) }
	cases(t, SiteDomain, map[string]string{
		"acme":                            "",
		"":                                "domain must not be empty or only white space",
		"..":                              s("..", "is not allowed: it would change the request's path"),
		"a b":                             s("a b", "may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character)"),
		"https://acme.mintlify.site/docs": s("https://acme.mintlify.site/docs", url+`: write "acme"`),
		"acme.mintlify.app/x":             s("acme.mintlify.app/x", url+`: write "acme"`),
		"https://docs.example.com/x":      s("https://docs.example.com/x", url),
		"https://.mintlify.site/":         s("https://.mintlify.site/", url),
		"https://a b.mintlify.site/":      s("https://a b.mintlify.site/", url),
		"a/b":                             s("a/b", url),
	})
	if got := siteID("acme.mintlify.site"); got != "acme" {
		t.Errorf("siteID without a scheme or path = %q", got)
	}
}
