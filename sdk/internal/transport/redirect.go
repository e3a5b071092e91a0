package transport

import (
	"net"
	"net/http"
	"strings"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/redact"
)

// redirectError is a redirect the client refuses to follow: final.
type redirectError struct{ msg string }

func (e *redirectError) Error() string { return e.msg }

// IsLoopbackHost reports whether host is localhost or a loopback IP
// address: the only hosts plain http may reach.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// GuardRedirects returns a copy of hc whose redirect policy follows no
// redirect of a request other than GET or HEAD (its answer comes back as
// it is), drops Authorization whenever a redirect leaves the original
// host (subdomains and ports too), and refuses plain http off loopback;
// hc's own policy, if any, has the last word.
func GuardRedirects(hc *http.Client) *http.Client {
	clone := *hc
	next := hc.CheckRedirect
	clone.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if m := via[0].Method; m != http.MethodGet && m != http.MethodHead {
			return http.ErrUseLastResponse
		}
		if len(via) >= 10 {
			return &redirectError{"stopped after 10 redirects"}
		}
		if req.URL.Scheme != "https" && !IsLoopbackHost(req.URL.Hostname()) {
			return &redirectError{"refusing redirect to insecure URL " + redact.WithoutQuery(req.URL)}
		}
		if req.URL.Host != via[0].URL.Host {
			req.Header.Del("Authorization")
		}
		if next != nil {
			return next(req, via)
		}
		return nil
	}
	return &clone
}
