package download

import (
	"net/url"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/transport"
)

// ParseLink checks a bundle's presigned link: absolute https (http only
// to a loopback host, where the fake serves it), without credentials. It
// returns the link without its fragment, or the rule the link breaks,
// worded so that it never quotes the link: it is a secret.
func ParseLink(raw string) (u *url.URL, rule string) {
	if strings.TrimSpace(raw) == "" {
		return nil, "is required: the link CreateBundle returned"
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return nil, "must be an absolute https URL (the link CreateBundle returned)"
	case u.User != nil:
		return nil, "must not carry credentials"
	case u.Scheme == "http" && !transport.IsLoopbackHost(u.Hostname()):
		return nil, "must use https (plain http is allowed only for loopback hosts): a presigned link sent in clear can be copied"
	}
	u.Fragment, u.RawFragment = "", ""
	return u, ""
}
