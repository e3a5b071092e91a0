package sdk

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Tests at the exact edges of the SDK's rules: one step either side changes
// the outcome.

func TestBoundary_status300IsNotSuccess(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(300, jobJSON))
	c := newTestClient(t, ts.URL, nil)
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); statusOf(err) != 300 {
		t.Fatalf("err = %v", err)
	}
	_, ts = newRecorder(t, jsonResponse(299, jobJSON))
	c = newTestClient(t, ts.URL, nil)
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); err != nil {
		t.Fatalf("299: %v", err)
	}
}

func TestBoundary_retryAfterZeroFallsBackToBackoff(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(429, `{}`, "Retry-After", "0"), jsonResponse(200, jobJSON))
	clk := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}
	c := newTestClient(t, ts.URL, clk, WithRetryBackoff(time.Second, time.Second))
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); err != nil {
		t.Fatal(err)
	}
	if s := clk.Sleeps(); len(s) != 1 || s[0] < 500*time.Millisecond {
		t.Errorf("slept %v, want one backoff of at least 500ms", s)
	}
}

func TestBoundary_bodyExactlyAtTheCapIsRead(t *testing.T) {
	model := strings.Repeat("x", 2048-len(`{"id":"j","status":"active","model":""}`))
	body := `{"id":"j","status":"active","model":"` + model + `"}`
	if len(body) != 2048 {
		t.Fatalf("body is %d bytes", len(body))
	}
	_, ts := newRecorder(t, jsonResponse(200, body))
	c := newTestClient(t, ts.URL, nil, WithMaxResponseBytes(2048))
	if job, err := c.AgentJobs.Get(context.Background(), "p", "j"); err != nil || job.Model != model {
		t.Fatalf("err = %v", err)
	}
	// One byte more is too large.
	_, ts = newRecorder(t, jsonResponse(200, body+" "))
	c = newTestClient(t, ts.URL, nil, WithMaxResponseBytes(2048))
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); !errors.Is(err, ErrResponseTooLarge) {
		t.Fatalf("2049 bytes: %v", err)
	}
}

func TestBoundary_jsonWithoutErrorFieldsKeepsTheBody(t *testing.T) {
	for _, body := range []string{`{"status":"down"}`, `{}`, `{"details":[]}`} {
		_, ts := newRecorder(t, jsonResponse(404, body))
		c := newTestClient(t, ts.URL, nil)
		_, err := c.AgentJobs.Get(context.Background(), "p", "j")
		if err == nil || !strings.HasSuffix(err.Error(), "404 Not Found: "+body) {
			t.Errorf("%s: err = %v", body, err)
		}
	}
	_, ts := newRecorder(t, jsonResponse(404, `{"details":[{"message":"only details"}]}`))
	c := newTestClient(t, ts.URL, nil)
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); err == nil || !strings.HasSuffix(err.Error(), "404 Not Found; only details") {
		t.Errorf("details only: %v", err)
	}
}

func TestBoundary_snippetOfExactlyTheLimitIsNotCut(t *testing.T) {
	k := &core{}
	s := strings.Repeat("é", snippetLen)
	if got := k.snippet([]byte(s)); got != s {
		t.Errorf("a %d-rune body was cut to %q", snippetLen, got)
	}
	if got := k.snippet([]byte(s + "z")); got != s+"…" {
		t.Errorf("a %d-rune body was not cut: %q", snippetLen+1, got)
	}
}

func TestBoundary_keyCharacters(t *testing.T) {
	for _, bad := range []string{"mint_\x7f", "mint_ ", "mint_\x1f", " ", "x", "mint", "Mint_x", "MINT_x", "mint_dsc_ABC-123.456", "mint_us_x", "mint_dsc_", "mint_us_"} {
		if err := ValidateAPIKey(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, good := range []string{"mint_!~", "mint_", "mint_x", "mint_dsc", "mint_dscx", "mint_us", "mint_usx", "mint_u_s_x", "mint_x_mint_dsc_y", "mint_\x7e"} {
		if err := ValidateAPIKey(good); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
}

func TestBoundary_maxResponseBytesMinimum(t *testing.T) {
	if _, err := NewClient("mint_x", WithMaxResponseBytes(1024)); err != nil {
		t.Errorf("1024: %v", err)
	}
	if _, err := NewClient("mint_x", WithMaxResponseBytes(1023)); err == nil {
		t.Error("1023 accepted")
	}
}

func TestBoundary_redirectLoopStopsAfterTen(t *testing.T) {
	rec, ts := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
	})
	c := newTestClient(t, ts.URL, nil, WithMaxRetries(0))
	_, err := c.AgentJobs.Get(context.Background(), "p", "j")
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") || rec.count() != 10 {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
}

func TestBoundary_pollIntervalOptionIgnoresNonPositive(t *testing.T) {
	w := waitSettings{initial: DefaultPollInitial, max: DefaultPollMax}
	WithPollInterval(0, 0).applyWait(&w)
	if w.initial != DefaultPollInitial || w.max != DefaultPollMax {
		t.Errorf("zero option changed the schedule: %+v", w)
	}
	WithPollInterval(-time.Second, -time.Second).applyWait(&w)
	if w.initial != DefaultPollInitial || w.max != DefaultPollMax {
		t.Errorf("negative option changed the schedule: %+v", w)
	}
	WithPollInterval(time.Nanosecond, 0).applyWait(&w)
	if w.initial != time.Nanosecond || w.max != DefaultPollMax {
		t.Errorf("the smallest start refused, or a zero cap taken: %+v", w)
	}
	WithPollInterval(2*time.Second, time.Second).applyWait(&w)
	if w.initial != 2*time.Second || w.max != DefaultPollMax {
		t.Errorf("a cap below the start was taken: %+v", w)
	}
	WithPollInterval(time.Second, time.Second).applyWait(&w)
	if w.initial != time.Second || w.max != time.Second {
		t.Errorf("equal start and cap refused: %+v", w)
	}
}

func TestBoundary_zeroRetryAfterLimitMeansNeverWait(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(429, `{}`, "Retry-After", "1"), jsonResponse(200, jobJSON))
	c := newTestClient(t, ts.URL, &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}, WithMaxRetryAfter(0))
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); !IsRateLimited(err) || rec.count() != 1 {
		t.Fatalf("err = %v after %d requests; a zero limit waits for nothing", err, rec.count())
	}
	// A Retry-After exactly at the limit is waited; one second more is not.
	rec, ts = newRecorder(t, jsonResponse(429, `{}`, "Retry-After", "5"), jsonResponse(200, jobJSON))
	clk := newClock()
	if _, err := newTestClient(t, ts.URL, clk, WithMaxRetryAfter(5*time.Second)).AgentJobs.Get(context.Background(), "p", "j"); err != nil || rec.count() != 2 || clk.Now() != epoch.Add(5*time.Second) {
		t.Errorf("at the limit: %v after %d requests, clock %s", err, rec.count(), clk.Now())
	}
	rec, ts = newRecorder(t, jsonResponse(429, `{}`, "Retry-After", "6"), jsonResponse(200, jobJSON))
	if _, err := newTestClient(t, ts.URL, newClock(), WithMaxRetryAfter(5*time.Second)).AgentJobs.Get(context.Background(), "p", "j"); !IsRateLimited(err) || rec.count() != 1 {
		t.Errorf("past the limit: %v after %d requests", err, rec.count())
	}
}
