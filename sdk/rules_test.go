package sdk

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"
	"time"
)

// ruleText is a rule's refusal as its ValidationError says it, the value not
// clipped ("" when the rule held), so each case states the whole error.
func ruleText(err error) string {
	var b *ValidationError
	switch {
	case err == nil:
		return ""
	case !errors.As(err, &b):
		return "not a ValidationError: " + err.Error()
	case b.Value != "":
		return fmt.Sprintf("%s %q %s", b.Field, b.Value, b.Rule)
	}
	return b.Field + " " + b.Rule
}

// cases runs a rule over inputs, each with the whole error it must give
// ("" when the input is accepted).
func cases(t *testing.T, rule func(string) error, want map[string]string) {
	t.Helper()
	for in, w := range want {
		if got := ruleText(rule(in)); got != w {
			t.Errorf("%q:\n got %s\nwant %s", in, got, w)
		}
	}
}

func TestNonEmpty(t *testing.T) {
	cases(t, func(s string) error { return nonEmpty("prompt", s) }, map[string]string{
		"":       "prompt must not be empty or only white space",
		" \t\n ": "prompt must not be empty or only white space",
		" x ":    "",
		"x":      "",
	})
}

func TestID(t *testing.T) {
	const chars = `projectId %q may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character)`
	want := map[string]string{
		"":                       "projectId must not be empty or only white space",
		"  ":                     "projectId must not be empty or only white space",
		".":                      `projectId "." is not allowed: it would change the request's path`,
		"..":                     `projectId ".." is not allowed: it would change the request's path`,
		"...":                    "",
		"azAZ09-_.~:":            "",
		strings.Repeat("a", 256): "",
		strings.Repeat("a", 257): fmt.Sprintf("projectId %q is longer than 256 characters: it cannot be an id", strings.Repeat("a", 257)),
		strings.Repeat("é", 128): "projectId " + fmt.Sprintf("%q", strings.Repeat("é", 128)) + chars[len("projectId %q"):],
		strings.Repeat("é", 129): fmt.Sprintf("projectId %q is longer than 256 characters: it cannot be an id", strings.Repeat("é", 129)),
	}
	// The characters just outside each range, and the punctuation an id
	// must not hold.
	for _, r := range "`{@[/ \t\n\x00\x7f!#$%&'()*+,;<=>?\\]^|\"" {
		want["a"+string(r)+"b"] = fmt.Sprintf(chars, "a"+string(r)+"b")
	}
	for _, r := range "azAZ09-_.~:" {
		want[string(r)+"x"] = ""
	}
	cases(t, func(s string) error { return validateID("projectId", s) }, want)
}

func TestOneOf(t *testing.T) {
	allowed := []string{"active", "failed"}
	for in, want := range map[string]string{
		"active":  "",
		"failed":  "",
		"":        "status must be one of active, failed",
		"Active":  `status "Active" must be one of active, failed`,
		"failed ": `status "failed " must be one of active, failed`,
	} {
		if got := ruleText(oneOf("status", in, allowed)); got != want {
			t.Errorf("%q: got %s, want %s", in, got, want)
		}
	}
	if got := ruleText(oneOf[string]("status", "x", nil)); got != `status "x" must be one of ` {
		t.Errorf("none allowed: %s", got)
	}
}

func TestGroups(t *testing.T) {
	for _, tt := range []struct {
		groups []string
		want   string
	}{
		{nil, ""},
		{[]string{"admins", "beta"}, ""},
		{[]string{"admins", " "}, "filter.groups[1] must not be empty or only white space"},
		{[]string{"", ""}, "filter.groups[0] must not be empty or only white space"},
	} {
		if got := ruleText(validateGroups("filter.groups", tt.groups)); got != tt.want {
			t.Errorf("%q: got %s, want %s", tt.groups, got, tt.want)
		}
	}
}

func TestUpTo_and_noCut(t *testing.T) {
	for n, want := range map[int]string{
		-1: `pageSize "-1" must be between 1 and 50`,
		0:  "",
		1:  "",
		50: "",
		51: `pageSize "51" must be between 1 and 50`,
	} {
		if got := ruleText(upTo("pageSize", n, 50)); got != want {
			t.Errorf("%d: got %s, want %s", n, got, want)
		}
	}
	for n, want := range map[int]string{-1: `maxCharacters "-1" must be 1 or more (0: no cut)`, 0: "", 1: ""} {
		if got := ruleText(noCut("maxCharacters", n)); got != want {
			t.Errorf("%d: got %s, want %s", n, got, want)
		}
	}
}

func TestScore(t *testing.T) {
	for _, tt := range []struct {
		v    float64
		want string
	}{
		{0, ""}, {0.5, ""}, {1, ""},
		{-0.001, `scoreThreshold "-0.001" must be between 0 and 1`},
		{1.001, `scoreThreshold "1.001" must be between 0 and 1`},
		{math.NaN(), `scoreThreshold "NaN" must be between 0 and 1`},
		{math.Inf(1), `scoreThreshold "+Inf" must be between 0 and 1`},
	} {
		if got := ruleText(ValidateScoreThreshold(tt.v)); got != tt.want {
			t.Errorf("%v: got %s, want %s", tt.v, got, tt.want)
		}
	}
}

func TestULID(t *testing.T) {
	const rule = " must be a ULID (26 characters of Crockford base32, such as 01JD8X3Q6V3XK8M4Y2Z9T0B1CD)"
	want := map[string]string{
		"":                           "cursor" + rule,
		"01JD8X3Q6V3XK8M4Y2Z9T0B1CD": "",
		"7ZZZZZZZZZZZZZZZZZZZZZZZZZ": "",
		"01jd8x3q6v3xk8m4y2z9t0b1cd": "",
		"00000000000000000000000000": "",
	}
	for _, bad := range []string{
		"8ZZZZZZZZZZZZZZZZZZZZZZZZZ",  // past 128 bits
		"01JD8X3Q6V3XK8M4Y2Z9T0B1C",   // 25
		"01JD8X3Q6V3XK8M4Y2Z9T0B1CDE", // 27
		"01JD8X3Q6V3XK8M4Y2Z9T0B1CU",  // U is not Crockford's
		"01JD8X3Q6V3XK8M4Y2Z9T0B1CI", "01JD8X3Q6V3XK8M4Y2Z9T0B1CL", "01JD8X3Q6V3XK8M4Y2Z9T0B1CO",
		"01JD8X3Q6V3XK8M4Y2Z9T0B1C-",
	} {
		want[bad] = fmt.Sprintf("cursor %q%s", bad, rule)
	}
	cases(t, func(s string) error { return validateULID("cursor", s) }, want)
}

func TestDate(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	for _, tt := range []struct {
		in          string
		at          string
		instant, ok bool
	}{
		{"2026-10-01", "2026-10-01T00:00:00Z", true, true},
		{"2026-10-01T09:30:00Z", "2026-10-01T09:30:00Z", true, true},
		{"2026-10-01T09:30:00.5+02:00", "2026-10-01T07:30:00.5Z", true, true},
		{"2026-10-01T09:30:00+0200", "2026-10-01T07:30:00Z", true, true},
		{"2026-10-01T09:30:00-02", "2026-10-01T11:30:00Z", true, true},
		{"2026-10-01T09:30:00", "2026-10-01T09:30:00Z", false, true},
		{"2026-10-01T09:30Z", "2026-10-01T09:30:00Z", true, true},
		{"2026-10-01T09:30+01:00", "2026-10-01T08:30:00Z", true, true},
		{"2026-10-01T09:30+0100", "2026-10-01T08:30:00Z", true, true},
		{"2026-10-01T09:30+01", "2026-10-01T08:30:00Z", true, true},
		{"2026-10-01T09:30", "2026-10-01T09:30:00Z", false, true},
		{"", "", false, false},
		{"2026-13-01", "", false, false},
		{"2026-10-1", "", false, false},
		{"2026-10-01 09:30", "", false, false},
		{"2026-10-01T", "", false, false},
		{"2026-10-01T9:30", "2026-10-01T09:30:00Z", false, true}, // time.Parse takes a one-digit hour
		{"yesterday", "", false, false},
		{"20261001T0930", "", false, false},
	} {
		got, instant, ok := parseDate(tt.in)
		if ok != tt.ok || instant != tt.instant {
			t.Errorf("%q: instant %v ok %v, want %v %v", tt.in, instant, ok, tt.instant, tt.ok)
		}
		if tt.ok && !got.Equal(utc(tt.at)) {
			t.Errorf("%q: %v, want %s", tt.in, got, tt.at)
		}
		if !tt.ok && !got.IsZero() {
			t.Errorf("%q: %v, want the zero time", tt.in, got)
		}
	}
}

func TestDateRange(t *testing.T) {
	for _, tt := range []struct {
		from, to, want string
	}{
		{"", "", ""},
		{"2026-10-01", "", ""},
		{"", "2026-10-01", ""},
		{"2026-10-01", "2026-10-02", ""},
		{"2026-10-01", "2026-10-01", `dateFrom "2026-10-01" must be before dateTo "2026-10-01" (dateTo is exclusive)`},
		{"2026-10-02", "2026-10-01", `dateFrom "2026-10-02" must be before dateTo "2026-10-01" (dateTo is exclusive)`},
		{"x", "", `dateFrom "x" is not a date (use ` + DateFormats + `)`},
		{"x", "y", `dateFrom "x" is not a date (use ` + DateFormats + `)`},
		{"", "y", `dateTo "y" is not a date (use ` + DateFormats + `)`},
		{"2026-10-01", "y", `dateTo "y" is not a date (use ` + DateFormats + `)`},
		// Both instants: no slack.
		{"2026-10-01T10:00:00Z", "2026-10-01T10:00:01Z", ""},
		{"2026-10-01T10:00:00Z", "2026-10-01T10:00:00Z", `dateFrom "2026-10-01T10:00:00Z" must be before dateTo "2026-10-01T10:00:00Z" (dateTo is exclusive)`},
		// Neither names an instant: both in the server's zone, no slack.
		{"2026-10-01T10:00", "2026-10-01T10:01", ""},
		{"2026-10-01T10:00", "2026-10-01T10:00", `dateFrom "2026-10-01T10:00" must be before dateTo "2026-10-01T10:00" (dateTo is exclusive)`},
		// From without a zone: it may be up to 14 hours earlier than in UTC.
		{"2026-10-01T13:59", "2026-10-01T00:00:00Z", ""},
		{"2026-10-01T14:00", "2026-10-01T00:00:00Z", `dateFrom "2026-10-01T14:00" must be before dateTo "2026-10-01T00:00:00Z" (dateTo is exclusive)`},
		// To without a zone: it may be up to 12 hours later than in UTC.
		{"2026-10-01T11:59:00Z", "2026-10-01T00:00", ""},
		{"2026-10-01T12:00:00Z", "2026-10-01T00:00", `dateFrom "2026-10-01T12:00:00Z" must be before dateTo "2026-10-01T00:00" (dateTo is exclusive)`},
	} {
		if got := ruleText(ValidateDateRange(tt.from, tt.to)); got != tt.want {
			t.Errorf("%q..%q:\n got %s\nwant %s", tt.from, tt.to, got, tt.want)
		}
	}
}

var (
	admin     = keyKind{name: adminKey.name, field: adminKey.field, prefix: adminKey.prefix, others: adminKey.others, where: "the dashboard"}
	assistant = keyKind{name: assistantKey.name, field: assistantKey.field, prefix: assistantKey.prefix, others: assistantKey.others, where: "the dashboard"}
)

func TestKeyKind_validate(t *testing.T) {
	for _, tt := range []struct {
		kind keyKind
		key  string
		want string
	}{
		{admin, "mint_abc", ""},
		{admin, "mint_", ""},
		{admin, "mint_~!#", ""},
		{admin, "mint_ds", ""},
		{assistant, "mint_dsc_abc", ""},
		{admin, "", "apiKey is required"},
		{admin, "mint_abc\n", "apiKey contains a newline (often a trailing one, from a file or a secret store): remove it"},
		{admin, "mint_abc\r", "apiKey contains a newline (often a trailing one, from a file or a secret store): remove it"},
		{admin, "mint_a c", "apiKey contains white space: remove it"},
		{admin, "mint_a\tc", "apiKey contains white space: remove it"},
		{admin, "mint_a\x1fc", "apiKey must be printable ASCII"},
		{admin, "mint_a\x00c", "apiKey must be printable ASCII"},
		{admin, "mint_a\x7fc", "apiKey must be printable ASCII"},
		{admin, "mint_aéc", "apiKey must be printable ASCII"},
		{admin, "mint_dsc_abc", "apiKey is an assistant key (mint_dsc_...), for the discovery API, not an admin API key (mint_...): get one from the dashboard"},
		{admin, "mint_us_abc", "apiKey is a Mintlify Index key (mint_us_...), not an admin API key (mint_...): get one from the dashboard"},
		{admin, "sk-123", "apiKey is not an admin API key: those start mint_ (get one from the dashboard)"},
		{admin, "MINT_abc", "apiKey is not an admin API key: those start mint_ (get one from the dashboard)"},
		{assistant, "mint_abc", "assistantKey is an admin API key (mint_...), for the admin API, not an assistant API key (mint_dsc_...): get one from the dashboard"},
		{assistant, "mint_us_abc", "assistantKey is a Mintlify Index key (mint_us_...), not an assistant API key (mint_dsc_...): get one from the dashboard"},
		{assistant, "dsc_abc", "assistantKey is not an assistant API key: those start mint_dsc_ (get one from the dashboard)"},
		// A prefix of another kind as long as the kind's own does not
		// outrank it: only a longer one does.
		{keyKind{name: "a key", field: "k", prefix: "ab_", others: [][2]string{{"ab_", "a twin"}}}, "ab_x", ""},
	} {
		b := tt.kind.validate(tt.key)
		if got := ruleText(b); got != tt.want {
			t.Errorf("%s %q:\n got %s\nwant %s", tt.kind.field, tt.key, got, tt.want)
		}
		if ve := (*ValidationError)(nil); errors.As(b, &ve) && ve.Value != "" {
			t.Errorf("%q: the key is echoed", tt.key)
		}
	}
}

func TestParseBaseURL(t *testing.T) {
	const abs = " must be an absolute http(s) URL such as " + DefaultBaseURL
	for _, tt := range []struct {
		raw, want, url string
	}{
		{"https://api.example.com", "", "https://api.example.com"},
		{" https://api.example.com/v1/// ", "", "https://api.example.com/v1"},
		{"https://proxy.example.com/a%2Fb/", "", "https://proxy.example.com/a%2Fb"},
		{"http://127.0.0.1:8080/", "", "http://127.0.0.1:8080"},
		{"http://localhost", "", "http://localhost"},
		{"", `baseURL` + abs, ""},
		{"api.example.com", `baseURL "api.example.com"` + abs, ""},
		{"ftp://api.example.com", `baseURL "ftp://api.example.com"` + abs, ""},
		{"https://", `baseURL "https://"` + abs, ""},
		{"https://a b.com:x", `baseURL "https://a b.com:x"` + abs, ""},
		{"https://u:secret@api.example.com", `baseURL "https://u:xxxxx@api.example.com" must not carry credentials, a query or a fragment`, ""},
		{"https://api.example.com?x=1", `baseURL "https://api.example.com?x=1" must not carry credentials, a query or a fragment`, ""},
		{"https://api.example.com#x", `baseURL "https://api.example.com#x" must not carry credentials, a query or a fragment`, ""},
		{"http://api.example.com", `baseURL "http://api.example.com" must use https (plain http is allowed only for loopback hosts)`, ""},
	} {
		u, b := ParseBaseURL(tt.raw)
		if got := ruleText(b); got != tt.want {
			t.Errorf("%q:\n got %s\nwant %s", tt.raw, got, tt.want)
		}
		if got := urlString(u); got != tt.url {
			t.Errorf("%q: url %q, want %q", tt.raw, got, tt.url)
		}
	}
}

func urlString(u *url.URL) string {
	if u == nil {
		return ""
	}
	return u.String()
}

func TestValidateStaticExportDomain_rules(t *testing.T) {
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
	cases(t, ValidateStaticExportDomain, want)
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

func TestValidateStaticExportVersion(t *testing.T) {
	cases(t, ValidateStaticExportVersion, map[string]string{
		"":       "",
		"v2":     "",
		" v2 ":   "",
		"   ":    `version "   " must not be only white space: leave it out to export the latest published version`,
		"v2\x00": `version "v2\x00" must not contain control characters`,
		"v2\x7f": `version "v2\x7f" must not contain control characters`,
		"v2\n":   `version "v2\n" must not contain control characters`,
	})
}

func TestValidateStaticExportPath_rules(t *testing.T) {
	p := func(v, rule string) string { return fmt.Sprintf("path %q %s", v, rule) }
	cases(t, ValidateStaticExportPath, map[string]string{
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

func TestStaticExportRequest_Validate(t *testing.T) {
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
		if got := ruleText(StaticExportRequest{Domain: tt.domain, Version: tt.version, Paths: tt.paths}.Validate()); got != tt.want {
			t.Errorf("%q %q %q:\n got %s\nwant %s", tt.domain, tt.version, tt.paths, got, tt.want)
		}
	}
}

func TestValidateBranch(t *testing.T) {
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
	cases(t, ValidateBranch, want)
}

func TestValidateDomain(t *testing.T) {
	const url = "is a URL or a path: write the domain identifier alone, as acme for acme.mintlify.site " +
		"(the end of the dashboard's URL, app.mintlify.com/<organization>/<domain>)"
	s := func(v, rule string) string { return fmt.Sprintf("domain %q %s", v, rule) }
	cases(t, ValidateDomain, map[string]string{
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

func TestSearchRequest_Validate(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tt := range []struct {
		query     string
		size      int
		threshold *float64
		groups    []string
		want      string
	}{
		{"q", 0, nil, nil, ""},
		{"q", 50, f(0), []string{"a"}, ""},
		{"q", 1, f(1), nil, ""},
		{" ", 0, nil, nil, "query must not be empty or only white space"},
		{"q", 51, nil, nil, `pageSize "51" must be between 1 and 50`},
		{"q", -1, nil, nil, `pageSize "-1" must be between 1 and 50`},
		{"q", 0, f(1.5), nil, `scoreThreshold "1.5" must be between 0 and 1`},
		{"q", 0, nil, []string{"a", ""}, "filter.groups[1] must not be empty or only white space"},
	} {
		if got := ruleText(SearchRequest{Query: tt.query, PageSize: tt.size, ScoreThreshold: tt.threshold, Filter: SearchFilter{Groups: tt.groups}}.Validate()); got != tt.want {
			t.Errorf("%+v:\n got %s\nwant %s", tt, got, tt.want)
		}
	}
}

func TestIndexSearchRequest_Validate(t *testing.T) {
	for _, tt := range []struct {
		query            string
		n, cut           int
		include, exclude []string
		want             string
	}{
		{"q", 0, 0, nil, nil, ""},
		{"q", 20, 1, []string{"a.com"}, []string{"b.com"}, ""},
		{"", 0, 0, nil, nil, "query must not be empty or only white space"},
		{"q", 21, 0, nil, nil, `numResults "21" must be between 1 and 20`},
		{"q", -1, 0, nil, nil, `numResults "-1" must be between 1 and 20`},
		{"q", 0, -1, nil, nil, `text.maxCharacters "-1" must be 1 or more (0: no cut)`},
		{"q", 0, 0, []string{"a.com", " "}, nil, "includeDomains[1] must not be empty or only white space"},
		{"q", 0, 0, nil, []string{""}, "excludeDomains[0] must not be empty or only white space"},
		{"q", 0, 0, []string{""}, []string{""}, "includeDomains[0] must not be empty or only white space"},
	} {
		if got := ruleText(IndexSearchRequest{Query: tt.query, NumResults: tt.n, MaxCharacters: tt.cut, Domains: Domains{Include: tt.include, Exclude: tt.exclude}}.Validate()); got != tt.want {
			t.Errorf("%+v:\n got %s\nwant %s", tt, got, tt.want)
		}
	}
}

func TestIndexContextRequest_Validate(t *testing.T) {
	for _, tt := range []struct {
		query, product, format string
		budget                 int
		exclude                []string
		want                   string
	}{
		{"q", "", "", 0, nil, ""},
		{"q", "Acme", "txt", 6000, nil, ""},
		{"q", "", "json", 1, nil, ""},
		{"\t", "", "", 0, nil, "query must not be empty or only white space"},
		{"q", " ", "", 0, nil, "product must not be empty or only white space"},
		{"q", "", "xml", 0, nil, `format "xml" must be "txt" or "json"`},
		{"q", "", "TXT", 0, nil, `format "TXT" must be "txt" or "json"`},
		{"q", "", "", 6001, nil, `tokenBudget "6001" must be between 1 and 6000`},
		{"q", "", "", -1, nil, `tokenBudget "-1" must be between 1 and 6000`},
		{"q", "", "", 0, []string{" "}, "excludeDomains[0] must not be empty or only white space"},
	} {
		if got := ruleText(IndexContextRequest{Query: tt.query, Product: tt.product, Format: ContextFormat(tt.format), TokenBudget: tt.budget, Domains: Domains{Exclude: tt.exclude}}.Validate()); got != tt.want {
			t.Errorf("%+v:\n got %s\nwant %s", tt, got, tt.want)
		}
	}
}

func TestIndexContentsRequest_Validate(t *testing.T) {
	ids := func(n int) []string { return strings.Split(strings.Repeat("x,", n)[:2*n-1], ",") }
	for _, tt := range []struct {
		ids, urls []string
		cut       int
		query     string
		want      string
	}{
		{[]string{"a"}, nil, 0, "", ""},
		{nil, []string{"https://a.com/x"}, 1, "q", ""},
		{ids(19), []string{"http://a.com"}, 0, "", ""},
		{nil, nil, 0, "", "ids or urls is required: name at least one result"},
		{ids(20), []string{"http://a.com"}, 0, "", `ids "21" and urls name 21 items together; the API takes at most 20`},
		{[]string{"a", " "}, nil, 0, "", "ids[1] must not be empty or only white space"},
		{nil, []string{"https://a.com", "ftp://a.com"}, 0, "", `urls[1] "ftp://a.com" is not an absolute http(s) URL`},
		{nil, []string{"a.com/x"}, 0, "", `urls[0] "a.com/x" is not an absolute http(s) URL`},
		{[]string{"a"}, nil, -1, "", `maxCharacters "-1" must be 1 or more (0: no cut)`},
		{[]string{"a"}, nil, 0, " ", "query must not be empty or only white space"},
	} {
		if got := ruleText(IndexContentsRequest{IDs: tt.ids, URLs: tt.urls, MaxCharacters: tt.cut, Query: tt.query}.Validate()); got != tt.want {
			t.Errorf("%d ids %q:\n got %s\nwant %s", len(tt.ids), tt.urls, got, tt.want)
		}
	}
}

func TestAssistantRequest_Validate(t *testing.T) {
	ok := AssistantRequest{Question: "How?"}
	limit := strings.Repeat("é", MaxCurrentPathLength)
	with := func(edit func(*AssistantRequest)) AssistantRequest { r := ok; edit(&r); return r }
	for name, tt := range map[string]struct {
		req  AssistantRequest
		want string
	}{
		"question": {ok, ""},
		"v2":       {with(func(r *AssistantRequest) { r.Protocol = AssistantV2; r.Filter.Groups = []string{"a"} }), ""},
		"v1":       {with(func(r *AssistantRequest) { r.Protocol = AssistantV1 }), ""},
		"messages only": {with(func(r *AssistantRequest) {
			r.Question = ""
			r.Messages = []AssistantMessage{{Role: "user", Text: "hi"}}
		}), ""},
		"every role": {with(func(r *AssistantRequest) {
			r.Messages = []AssistantMessage{{Role: "user", Text: "a"}, {Role: "assistant", Text: "b"}, {Role: "system", Text: "c"}}
		}), ""},
		"path at limit": {with(func(r *AssistantRequest) { r.CurrentPath = limit }), ""},
		"page size 1":   {with(func(r *AssistantRequest) { r.RetrievalPageSize = 1 }), ""},
		"contexts": {with(func(r *AssistantRequest) {
			r.Context = []AssistantContext{{Type: "code", Value: "x"}, {Type: "textSelection", Value: "y"}}
		}), ""},
		"protocol": {with(func(r *AssistantRequest) { r.Protocol = "v3" }), `protocol "v3" must be "v2" or "v1"`},
		"nothing":  {with(func(r *AssistantRequest) { r.Question = " " }), "question is required: set Question (or Messages) to what the user asks"},
		"blank question": {with(func(r *AssistantRequest) {
			r.Question = " "
			r.Messages = []AssistantMessage{{Role: "user", Text: "hi"}}
		}), "question must not be empty or only white space"},
		"role": {with(func(r *AssistantRequest) {
			r.Messages = []AssistantMessage{{Role: "user", Text: "a"}, {Role: "bot", Text: "b"}}
		}), `messages[1].role "bot" must be "user", "assistant" or "system"`},
		"no role": {with(func(r *AssistantRequest) { r.Messages = []AssistantMessage{{Role: "", Text: "a"}} }), `messages[0].role must be "user", "assistant" or "system"`},
		"message text": {with(func(r *AssistantRequest) {
			r.Messages = []AssistantMessage{{Role: "user", Text: "a"}, {Role: "user", Text: "\n"}}
		}), "messages[1].text must not be empty or only white space"},
		"page size":   {with(func(r *AssistantRequest) { r.RetrievalPageSize = -1 }), `retrievalPageSize "-1" must be 1 or more (0: the API's default, 5)`},
		"v1 groups":   {with(func(r *AssistantRequest) { r.Protocol = AssistantV1; r.Filter.Groups = []string{"a"} }), "filter.groups is not supported by the v1 endpoint: use AssistantV2"},
		"empty group": {with(func(r *AssistantRequest) { r.Filter.Groups = []string{"a", ""} }), "filter.groups[1] must not be empty or only white space"},
		"context type": {with(func(r *AssistantRequest) {
			r.Context = []AssistantContext{{Type: "code", Value: "x"}, {Type: "image", Value: "y"}}
		}), `context[1].type "image" must be "code" or "textSelection"`},
		"context value": {with(func(r *AssistantRequest) {
			r.Context = []AssistantContext{{Type: "code", Value: "x"}, {Type: "textSelection", Value: ""}}
		}), "context[1].value must not be empty"},
		"path past limit": {with(func(r *AssistantRequest) { r.CurrentPath = limit + "é" }), fmt.Sprintf("currentPath %q is %d characters long; the API takes at most %d", limit+"é", MaxCurrentPathLength+1, MaxCurrentPathLength)},
	} {
		if got := ruleText(tt.req.Validate()); got != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, tt.want)
		}
	}
}
