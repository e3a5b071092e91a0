package download

import (
	"strings"
	"testing"
)

func TestParseLink(t *testing.T) {
	const sig = "5ec2e7deadbeef"
	for raw, want := range map[string]string{
		"https://storage.example.com/b?X-Amz-Signature=" + sig:           "",
		"https://storage.example.com/b?X-Amz-Signature=" + sig + "#frag": "",
		"http://127.0.0.1:9000/b?sig=" + sig:                             "",
		"http://localhost/b":                                             "",
		"http://[::1]/b":                                                 "",
		"":                                                               "is required",
		" \t\n":                                                          "is required",
		"http://storage.example.com/b?X-Amz-Signature=" + sig: "must use https",
		"https://u:" + sig + "@storage.example.com/b":         "must not carry credentials",
		"https://u@storage.example.com/b":                     "must not carry credentials",
		"storage.example.com/b?X-Amz-Signature=" + sig:        "must be an absolute https URL",
		"/b?X-Amz-Signature=" + sig:                           "must be an absolute https URL",
		"ftp://storage.example.com/b":                         "must be an absolute https URL",
		"https://storage.example.com/%zz?sig=" + sig:          "must be an absolute https URL",
		"https:///b": "must be an absolute https URL",
	} {
		u, rule := ParseLink(raw)
		switch {
		case want == "" && (rule != "" || u == nil || u.Fragment != "" || u.String() != strings.TrimSuffix(raw, "#frag")):
			t.Errorf("%q: %v, %q; want it kept, without its fragment", raw, u, rule)
		case want != "" && (u != nil || !strings.HasPrefix(rule, want) || strings.Contains(rule, sig)):
			t.Errorf("%q: %v, %q; want a rule starting %q that never quotes the link", raw, u, rule, want)
		}
	}
}
