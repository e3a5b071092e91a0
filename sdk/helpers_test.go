package sdk

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// fakeClock is the SDK's clock driven by the fake server's manual clock: a
// Sleep advances time at once, so a 5-minute wait takes no wall time.
type fakeClock struct {
	*mintlifytest.ManualClock
	mu     sync.Mutex
	sleeps []time.Duration
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.sleeps = append(c.sleeps, d)
	c.mu.Unlock()
	c.Advance(d)
	return ctx.Err()
}

func (c *fakeClock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

var epoch = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// newFake starts the fake API on loopback with a manual clock, and a client
// for it whose waits run on the same clock.
func newFake(t *testing.T, cfg mintlifytest.Config, opts ...Option) (*mintlifytest.Fake, *Client, *fakeClock) {
	t.Helper()
	srv, c, clk := startFakeFor(t, cfg, NewClient, mintlifytest.DemoAPIKey, "", opts)
	return srv.Fake, c, clk
}

// startFakeFor starts the fake on loopback with a manual clock, and a
// client of the API served under prefix, made by newClient with key.
func startFakeFor[C any](t *testing.T, cfg mintlifytest.Config, newClient func(string, ...Option) (C, error), key, prefix string, opts []Option) (*mintlifytest.Server, C, *fakeClock) {
	t.Helper()
	clk := newClock()
	cfg.Clock = clk
	srv := mintlifytest.NewServer(cfg)
	t.Cleanup(srv.Close)
	c, err := newClient(key, append([]Option{WithBaseURL(srv.URL + prefix), WithClock(clk)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return srv, c, clk
}

func newTestClient(t *testing.T, url string, clk *fakeClock, opts ...Option) *Client {
	t.Helper()
	return newKeyedClient(t, mintlifytest.DemoAPIKey, url, clk, opts...)
}

// newKeyedClient is newTestClient with another key.
func newKeyedClient(t *testing.T, key, url string, clk *fakeClock, opts ...Option) *Client {
	t.Helper()
	all := []Option{WithBaseURL(url)}
	if clk != nil { // a nil *fakeClock is not a nil Clock
		all = append(all, WithClock(clk))
	}
	c, err := NewClient(key, append(all, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// checkAccepted checks that validate accepts each value.
func checkAccepted(t *testing.T, validate func(string) error, values ...string) {
	t.Helper()
	for _, v := range values {
		if err := validate(v); err != nil {
			t.Errorf("%q refused: %v", v, err)
		}
	}
}

// checkRefused checks that validate refuses each value of refusals with a
// *ValidationError naming field (any field when "") whose text holds the
// value's phrase.
func checkRefused(t *testing.T, validate func(string) error, field string, refusals map[string]string) {
	t.Helper()
	for in, want := range refusals {
		err := validate(in)
		var ve *ValidationError
		if !errors.As(err, &ve) || field != "" && ve.Field != field || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want a %s error containing %q", in, err, field, want)
		}
	}
}

// newClock is a fake clock at epoch.
func newClock() *fakeClock { return &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)} }

// ignoreInfo leaves how an answer arrived out of comparisons of what it
// says; tests that care assert ResponseInfo's fields themselves.
var ignoreInfo = cmpopts.IgnoreTypes(ResponseInfo{})

// recorder is an httptest server that answers with the scripted responses
// in turn (the last one repeats) and records every request.
type recorder struct {
	mu        sync.Mutex
	requests  []*http.Request
	bodies    []string
	responses []http.HandlerFunc
}

func newRecorder(t *testing.T, responses ...http.HandlerFunc) (*recorder, *httptest.Server) {
	t.Helper()
	rec := &recorder{responses: responses}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec.mu.Lock()
		buf := make([]byte, 1<<16)
		n, _ := r.Body.Read(buf)
		rec.requests = append(rec.requests, r.Clone(context.Background()))
		rec.bodies = append(rec.bodies, string(buf[:n]))
		i := min(len(rec.requests), len(rec.responses)) - 1
		rec.mu.Unlock()
		rec.responses[i](w, r)
	}))
	t.Cleanup(ts.Close)
	return rec, ts
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.requests)
}

func respond(status int, contentType, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		if contentType != "" {
			w.Header().Set("Content-Type", contentType)
		}
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

func jsonResponse(status int, body string, headers ...string) http.HandlerFunc {
	return respond(status, "application/json", body, headers...)
}

func dropConnection(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		_ = conn.Close()
	}
}

// jobJSON is job "j", the id the tests ask for.
const jobJSON = `{"id":"j","status":"active","source":{"repository":"acme/docs","ref":"main"},"model":"m","prLink":null,"createdAt":"2026-11-21T12:00:00Z","archivedAt":null}`

// jobJSONFor is jobJSON for another job id.
func jobJSONFor(id string) string {
	return strings.Replace(jobJSON, `"id":"j"`, `"id":"`+id+`"`, 1)
}

// visitorsPageJSON is a well-formed visitors page holding the given paths.
func visitorsPageJSON(hasMore bool, paths ...string) string {
	rows := make([]string, len(paths))
	for i, p := range paths {
		rows[i] = fmt.Sprintf(`{"path":%q,"human":%d,"ai":1,"total":%d}`, p, 10+i, 10+i)
	}
	return fmt.Sprintf(`{"totals":{"human":9,"ai":2,"total":10},"visitors":[%s],"hasMore":%v}`, strings.Join(rows, ","), hasMore)
}
