package rules

import (
	"fmt"
	"net/url"
	"strings"
)

// Key is the form of one kind of Mintlify key: which prefix it has, and
// which other kinds' prefixes it must not have.
type Key struct {
	Name   string // "an admin API key"
	Field  string // "apiKey"
	Prefix string
	// Others are prefixes of other key kinds, each with its name. The
	// longest prefix a key has decides its kind (mint_dsc_ is not mint_).
	Others [][2]string
	Where  string // where to get one
}

// Check checks a key's form: printable ASCII without white space, with
// the kind's prefix and not a longer one of another kind. The value is
// never echoed: it is a secret.
func (k Key) Check(key string) *Broken {
	if key == "" {
		return &Broken{Field: k.Field, Rule: "is required"}
	}
	for _, r := range key {
		switch {
		case r == '\n' || r == '\r':
			return &Broken{Field: k.Field, Rule: "contains a newline (often a trailing one, from a file or a secret store): remove it"}
		case r == ' ' || r == '\t':
			return &Broken{Field: k.Field, Rule: "contains white space: remove it"}
		case r < ' ' || r >= 0x7f:
			return &Broken{Field: k.Field, Rule: "must be printable ASCII"}
		}
	}
	longest := ""
	if strings.HasPrefix(key, k.Prefix) {
		longest = k.Prefix
	}
	for _, o := range k.Others {
		if strings.HasPrefix(key, o[0]) && len(o[0]) > len(longest) {
			return &Broken{Field: k.Field, Rule: fmt.Sprintf("is %s, not %s (%s...): get one from %s", o[1], k.Name, k.Prefix, k.Where)}
		}
	}
	if longest == "" {
		return &Broken{Field: k.Field, Rule: fmt.Sprintf("is not %s: those start %s (get one from %s)", k.Name, k.Prefix, k.Where)}
	}
	return nil
}

// BaseURL parses an API address: an absolute http(s) URL (example is
// one, for the error) without credentials, query or fragment, over plain
// http only to a host loopback accepts. Trailing slashes are cut, the
// user's encoding kept.
func BaseURL(raw, example string, loopback func(host string) bool) (*url.URL, *Broken) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, &Broken{Field: "baseURL", Value: raw, Rule: "must be an absolute http(s) URL such as " + example}
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
		return nil, &Broken{Field: "baseURL", Value: u.Redacted(), Rule: "must not carry credentials, a query or a fragment"}
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) {
		return nil, &Broken{Field: "baseURL", Value: raw, Rule: "must use https (plain http is allowed only for loopback hosts)"}
	}
	// Keep the user's encoding (a proxy path with %2F stays one segment).
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = strings.TrimRight(u.RawPath, "/")
	return u, nil
}
