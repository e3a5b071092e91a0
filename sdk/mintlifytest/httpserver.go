package mintlifytest

import "net/http/httptest"

// Server is a Fake listening on a loopback port, for tests: like
// httptest.Server, NewServer starts it and Close stops it. Every method of
// the Fake (counters, faults, data) is available on it; so is Client, the
// in-process client, which skips the listener: to go through it, give URL
// to any other client.
type Server struct {
	*Fake
	// URL is the API's base URL, http://127.0.0.1:PORT with no trailing
	// slash: give it to the client as its base URL.
	URL string

	ts *httptest.Server
}

// NewServer starts a Fake configured by cfg on a loopback port.
func NewServer(cfg Config) *Server {
	f := New(cfg)
	ts := httptest.NewServer(f)
	return &Server{Fake: f, URL: ts.URL, ts: ts}
}

// Close stops the server and waits for the requests in flight to end
// (injected latency ends at once).
func (s *Server) Close() {
	s.Stop()
	s.ts.Close()
}
