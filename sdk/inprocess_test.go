package sdk

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// inProcessTransport serves requests straight from a handler, with no
// sockets: benchmarks that make thousands of fake-clock polls stay fast.
type inProcessTransport struct{ h http.Handler }

func (t inProcessTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

func mustInProcessClient(tb testing.TB, fs *mintlifytest.Fake, clk *fakeClock) *Client {
	tb.Helper()
	c, err := NewClient(mintlifytest.DemoAPIKey, WithBaseURL("http://127.0.0.1"), WithHTTPClient(&http.Client{Transport: inProcessTransport{fs}}), WithClock(clk))
	if err != nil {
		tb.Fatal(err)
	}
	return c
}
