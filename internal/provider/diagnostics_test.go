package provider

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// A request that never reached the API says what to check (the address,
// the proxy, the certificates) and where the guide is; the errors come
// from real connections, as the SDK wraps them.
func TestAddAPIError_networkAdvice(t *testing.T) {
	tlsServer := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsServer.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	tlsServer.StartTLS()                                   // its certificate is trusted by nobody
	defer tlsServer.Close()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedURL := "http://" + closed.Addr().String()
	closed.Close()

	for _, tc := range []struct {
		name, baseURL, want string
		client              *http.Client
	}{
		{"untrusted certificate", tlsServer.URL, "SSL_CERT_FILE", nil},
		{"connection refused", closedURL, "check base_url (or MINTLIFY_BASE_URL)", nil},
		{"proxy refused", "https://api.example.invalid", "check HTTPS_PROXY", &http.Client{Transport: &http.Transport{
			Proxy: func(*http.Request) (*url.URL, error) { return url.Parse(closedURL) },
		}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := []sdk.Option{sdk.WithBaseURL(tc.baseURL), sdk.WithMaxRetries(0)}
			if tc.client != nil {
				opts = append(opts, sdk.WithHTTPClient(tc.client))
			}
			client, err := sdk.NewClient("mint_test0123456789abcdef", opts...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = client.AgentJobs.Get(context.Background(), "project", "job")
			if err == nil {
				t.Fatal("no error")
			}
			var diags diag.Diagnostics
			addAPIError(&diags, "summary", err)
			d := diags[0].Detail()
			if !strings.HasPrefix(d, err.Error()) || !strings.Contains(d, tc.want) || !strings.HasSuffix(d, seeTroubleshooting) {
				t.Errorf("%v:\n%s", err, d)
			}
			t.Log(d)
		})
	}
}
