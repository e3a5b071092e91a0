package sdk

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Tests against a server that misbehaves: answers that lie, stall,
// redirect or echo the key.

func TestGetAgentJob_refusesAnAnswerForAnotherJob(t *testing.T) {
	for name, tt := range map[string]struct{ body, want string }{
		"another job's id": {jobJSONFor("someone-elses"), `id: the answer is for job "someone-elses", not job "j"`},
		"empty id":         {jobJSONFor(""), "id: missing or empty"},
		"missing id":       {`{"status":"active"}`, "id: missing or empty"},
		"empty object":     {`{}`, "id: missing or empty; status: missing or empty"},
		"missing status":   {`{"id":"j"}`, "status: missing or empty"},
		"empty status":     {`{"id":"j","status":""}`, "status: missing or empty"},
	} {
		t.Run(name, func(t *testing.T) {
			_, ts := newRecorder(t, jsonResponse(200, tt.body))
			c := newTestClient(t, ts.URL, nil)
			job, err := c.GetAgentJob(context.Background(), "p", "j")
			if job != nil || !IsMalformedResponse(err) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("job %+v, err = %v; want %q", job, err, tt.want)
			}
		})
	}
}

func TestSendAgentJobMessage_refusesAnAnswerForAnotherJob(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(200, jobJSONFor("other")))
	c := newTestClient(t, ts.URL, nil)
	job, err := c.SendAgentJobMessage(context.Background(), "p", "j", "x")
	if job != nil || !strings.Contains(err.Error(), `the answer is for job "other", not job "j"`) {
		t.Fatalf("job %+v, err = %v", job, err)
	}
}

func TestWaitForAgentJob_answerWithoutStatusEndsAtOnce(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, `{"id":"j"}`))
	c := newTestClient(t, ts.URL, &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)})
	job, err := c.WaitForAgentJob(context.Background(), "p", "j")
	if job != nil || !strings.Contains(err.Error(), "status: missing or empty") || rec.count() != 1 {
		t.Fatalf("job %+v, err = %v after %d polls; want a fast failure", job, err, rec.count())
	}
}

func TestWaitForAgentJob_unknownStatusKeepsPolling(t *testing.T) {
	rec, ts := newRecorder(t,
		jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"queued"`, 1)),
		jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"completed"`, 1)))
	c := newTestClient(t, ts.URL, &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)})
	var seen []JobStatus
	job, err := c.WaitForAgentJob(context.Background(), "p", "j", WithStatusCallback(func(j *AgentJob) { seen = append(seen, j.Status) }))
	if err != nil || job.Status != JobStatusCompleted || rec.count() != 2 {
		t.Fatalf("job %+v, err %v, %d polls", job, err, rec.count())
	}
	if diff := cmp.Diff([]JobStatus{"queued", "completed"}, seen); diff != "" || JobStatus("queued").Known() || !JobStatusActive.Known() || !JobStatusFailed.Known() {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
}

func TestCreateAgentJob_malformedMinorFieldKeepsTheID(t *testing.T) {
	for name, tt := range map[string]struct{ body, want string }{
		"createdAt as a number":  {`{"id":"new-1","status":"active","createdAt":1732190400}`, "createdAt: want a string or null, got a number"},
		"prLink as an object":    {`{"id":"new-1","status":"active","prLink":{"url":"x"}}`, "prLink: want a string or null, got an object"},
		"source as a string":     {`{"id":"new-1","status":"active","source":"acme/docs"}`, "source: want an object, got a string"},
		"model as true":          {`{"id":"new-1","status":"active","model":true}`, "model: want a string, got true or false"},
		"ref as a list":          {`{"id":"new-1","status":"active","source":{"repository":"r","ref":[]}}`, "source.ref: want a string or null, got a list"},
		"archivedAt as a number": {`{"id":"new-1","status":"active","archivedAt":5}`, "archivedAt: want a string or null, got a number"},
		"no status either":       {`{"id":"new-1","createdAt":5}`, "createdAt: want a string or null, got a number; status: missing or empty"},
	} {
		t.Run(name, func(t *testing.T) {
			rec, ts := newRecorder(t, jsonResponse(201, tt.body))
			c := newTestClient(t, ts.URL, nil)
			job, err := c.CreateAgentJob(context.Background(), "p", "x")
			if job == nil || job.ID != "new-1" {
				t.Fatalf("the created job's id was lost: job %+v, err %v", job, err)
			}
			if !IsMalformedResponse(err) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "job new-1") || !MayHaveTakenEffect(err) {
				t.Errorf("err = %v, want it to name %q", err, tt.want)
			}
			if rec.count() != 1 {
				t.Errorf("%d POSTs", rec.count())
			}
		})
	}
	// The fields that could be read are kept beside the problem.
	_, ts := newRecorder(t, jsonResponse(201, `{"id":"new-2","status":"active","model":"m","source":{"repository":"r","ref":"main"},"createdAt":7}`))
	job, _ := newTestClient(t, ts.URL, nil).CreateAgentJob(context.Background(), "p", "x")
	if want := (&AgentJob{ID: "new-2", Status: JobStatusActive, Model: "m", Source: JobSource{"r", ptr("main")}}); !cmp.Equal(want, job) {
		t.Errorf("partial job %+v", job)
	}
}

func TestCreateAgentJob_answerThatIsNotAnObjectLosesNothingItCouldKeep(t *testing.T) {
	_, ts := newRecorder(t, respond(201, "text/html", "<html>created</html>"))
	job, err := newTestClient(t, ts.URL, nil).CreateAgentJob(context.Background(), "p", "x")
	if job != nil || !IsMalformedResponse(err) || !MayHaveTakenEffect(err) || !strings.Contains(err.Error(), `body starts "created"`) {
		t.Fatalf("job %+v, err %v", job, err)
	}
}

func TestPOST_redirectIsNeverFollowed(t *testing.T) {
	for _, status := range []int{301, 302, 303, 307, 308} {
		var elsewhere int
		other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			elsewhere++
			jsonResponse(200, jobJSON)(w, r)
		}))
		rec, ts := newRecorder(t, respond(status, "", "", "Location", other.URL+"/v2/agent/p/job"))
		c := newTestClient(t, ts.URL, nil)
		job, err := c.CreateAgentJob(context.Background(), "p", "x")
		other.Close()
		if job != nil || err == nil || !strings.Contains(err.Error(), `redirected to "`+other.URL+`/v2/agent/p/job"`) {
			t.Errorf("%d: job %+v, err %v", status, job, err)
		}
		if elsewhere != 0 || rec.count() != 1 || MayHaveTakenEffect(err) {
			t.Errorf("%d: the redirect was followed (%d requests there, %d here)", status, elsewhere, rec.count())
		}
	}
}

func TestGET_redirectLoopIsFinal(t *testing.T) {
	rec, ts := newRecorder(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, r.URL.Path, http.StatusFound) })
	c := newTestClient(t, ts.URL, &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)})
	_, err := c.GetAgentJob(context.Background(), "p", "j")
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") || rec.count() != 10 {
		t.Fatalf("err = %v after %d requests; a redirect loop is not retried", err, rec.count())
	}
}

func TestPOST_sentRequestIsAwaitedOnlyForAShortGrace(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	c.sentGrace = 200 * time.Millisecond
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteCreateJob, Kind: mintlifytest.FaultLatency, Latency: 30 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	job, err := c.CreateAgentJob(ctx, mintlifytest.DemoProjectID, "x")
	took := time.Since(start)
	if job != nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer came within 200ms more") {
		t.Fatalf("job %+v, err %v", job, err)
	}
	if took < 240*time.Millisecond || took > 5*time.Second {
		t.Errorf("returned after %s; want the deadline plus the grace", took)
	}
	if !MayHaveTakenEffect(err) {
		t.Error("a POST that was sent and never answered may have created a job")
	}
	if DefaultSentRequestGrace != 10*time.Second || (&Client{}).sentGrace != 0 {
		t.Errorf("grace %s", DefaultSentRequestGrace)
	}
	c2, _ := NewClient("mint_x")
	if c2.sentGrace != DefaultSentRequestGrace || c2.requestTimeout != DefaultRequestTimeout || c2.maxPagesPerRead != DefaultMaxPagesPerRead {
		t.Errorf("defaults %+v", c2)
	}
}

func TestMayHaveTakenEffect_requestsThatNeverLeft(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String()
	ln.Close()
	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { t.Error("TLS server reached") }))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	tlsSrv.StartTLS()
	defer tlsSrv.Close()
	for name, tt := range map[string]struct {
		base string
		hc   *http.Client
	}{
		"connection refused":        {refused, nil},
		"name does not resolve":     {"https://no-such-host.invalid", nil},
		"TLS certificate not valid": {tlsSrv.URL, &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12}}}},
	} {
		t.Run(name, func(t *testing.T) {
			opts := []Option{WithBaseURL(tt.base), WithMaxRetries(1), WithRetryBackoff(time.Millisecond, time.Millisecond)}
			if tt.hc != nil {
				opts = append(opts, WithHTTPClient(tt.hc))
			}
			c, err := NewClient(mintlifytest.DemoAPIKey, opts...)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.CreateAgentJob(context.Background(), "p", "x")
			if err == nil || MayHaveTakenEffect(err) {
				t.Fatalf("err = %v; MayHaveTakenEffect = %v, want false", err, MayHaveTakenEffect(err))
			}
		})
	}
	// A dropped connection after sending, and a 502, may hide a created job.
	for _, h := range []http.HandlerFunc{dropConnection, respond(502, "text/html", "bad gateway")} {
		_, ts := newRecorder(t, h)
		if _, err := newTestClient(t, ts.URL, nil).CreateAgentJob(context.Background(), "p", "x"); !MayHaveTakenEffect(err) {
			t.Errorf("err = %v: want MayHaveTakenEffect", err)
		}
	}
	// Refusals and invalid input did nothing.
	for _, err := range []error{&APIError{StatusCode: 429}, &APIError{StatusCode: 400}, &ValidationError{}, nil,
		&notSentError{errors.New("x")}, &APIError{StatusCode: 499}} {
		if MayHaveTakenEffect(err) {
			t.Errorf("%v: MayHaveTakenEffect", err)
		}
	}
	for _, err := range []error{&APIError{StatusCode: 500}, errors.New("EOF"), &MalformedResponseError{}} {
		if !MayHaveTakenEffect(err) {
			t.Errorf("%v: !MayHaveTakenEffect", err)
		}
	}
}

func TestCreateAgentJob_contextEndedBeforeSendingTookNoEffect(t *testing.T) {
	_, c, _ := newFake(t, mintlifytest.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.CreateAgentJob(ctx, mintlifytest.DemoProjectID, "x"); MayHaveTakenEffect(err) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
}

func TestWaitForAgentJob_honorsRetryAfterOnAPoll(t *testing.T) {
	// The 429's Retry-After (120 s) is longer than the client waits inside
	// one request (60 s), so the waiter itself comes back when told.
	rec, ts := newRecorder(t,
		jsonResponse(429, `{"error":"slow down"}`, "Retry-After", "120"),
		jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"completed"`, 1)))
	clk := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}
	c := newTestClient(t, ts.URL, clk)
	job, err := c.WaitForAgentJob(context.Background(), "p", "j", WithPollInterval(time.Second, time.Second))
	if err != nil || job.Status != JobStatusCompleted || rec.count() != 2 {
		t.Fatalf("job %+v, err %v after %d requests", job, err, rec.count())
	}
	if s := clk.Sleeps(); len(s) != 2 || s[1] != 120*time.Second {
		t.Errorf("slept %v; want the poll delay, then the 120 s asked for", s)
	}
}

// A poll refused with 429 and no Retry-After keeps the poll schedule: it
// is not sent again at once.
func TestWaitForAgentJob_rateLimitWithoutRetryAfterKeepsTheSchedule(t *testing.T) {
	rec, ts := newRecorder(t,
		jsonResponse(429, `{"error":"slow down"}`),
		jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"completed"`, 1)))
	clk := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}
	c := newTestClient(t, ts.URL, clk, WithMaxRetries(0))
	job, err := c.WaitForAgentJob(context.Background(), "p", "j", WithPollInterval(time.Second, time.Second))
	if err != nil || job.Status != JobStatusCompleted || rec.count() != 2 {
		t.Fatalf("job %+v, err %v after %d requests", job, err, rec.count())
	}
	if s := clk.Sleeps(); len(s) != 2 || s[1] < 900*time.Millisecond {
		t.Errorf("slept %v; want the poll delay twice", s)
	}
}

func TestWaitForAgentJob_retryAfterPastTheDeadlineFailsAtOnce(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(429, `{"error":"slow down"}`, "Retry-After", "600"), jsonResponse(200, jobJSON))
	clk := &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)}
	c := newTestClient(t, ts.URL, clk)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := c.WaitForAgentJob(ctx, "p", "j")
	if !IsRateLimited(err) || !strings.Contains(err.Error(), "try again after 2026-11-21T12:10:") || rec.count() != 1 {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
}

func TestRequestTimeout_stalledReadIsRetriedAndEnds(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{}, WithRequestTimeout(100*time.Millisecond))
	job, err := c.CreateAgentJob(context.Background(), mintlifytest.DemoProjectID, "x")
	if err != nil {
		t.Fatal(err)
	}
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteGetJob, Kind: mintlifytest.FaultLatency, Latency: time.Hour, Requests: []int{1}})
	start := time.Now()
	if _, err := c.GetAgentJob(context.Background(), mintlifytest.DemoProjectID, job.ID); err != nil {
		t.Fatalf("the retry after a stalled attempt failed: %v", err)
	}
	if time.Since(start) > 5*time.Second || fs.Requests(mintlifytest.RouteGetJob) != 2 {
		t.Errorf("%s, %d requests", time.Since(start), fs.Requests(mintlifytest.RouteGetJob))
	}
	// Every attempt stalls: the read ends after its retries, saying why.
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteGetJob, Kind: mintlifytest.FaultLatency, Latency: time.Hour})
	c.maxRetries = 1
	if _, err := c.GetAgentJob(context.Background(), mintlifytest.DemoProjectID, job.ID); err == nil || !strings.Contains(err.Error(), "no response within 100ms (the request timeout)") {
		t.Fatalf("err = %v", err)
	}
	if _, err := NewClient("mint_x", WithRequestTimeout(-time.Second)); err == nil {
		t.Error("negative timeout accepted")
	}
	// 0 is documented as no bound: a request is sent and answered.
	_, unbounded, _ := newFake(t, mintlifytest.Config{}, WithRequestTimeout(0))
	if _, err := unbounded.CreateAgentJob(context.Background(), mintlifytest.DemoProjectID, "x"); err != nil {
		t.Errorf("WithRequestTimeout(0): %v", err)
	}
}

func TestRequestTimeout_stalledPOSTIsNotRetried(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{}, WithRequestTimeout(100*time.Millisecond))
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteCreateJob, Kind: mintlifytest.FaultLatency, Latency: time.Hour})
	_, err := c.CreateAgentJob(context.Background(), mintlifytest.DemoProjectID, "x")
	if err == nil || !MayHaveTakenEffect(err) || fs.Requests(mintlifytest.RouteCreateJob) != 1 {
		t.Fatalf("err = %v after %d POSTs", err, fs.Requests(mintlifytest.RouteCreateJob))
	}
}

func TestDecodedAnswersNeverHoldTheKey(t *testing.T) {
	key := mintlifytest.DemoAPIKey
	echo := strings.NewReplacer("acme/docs", "acme/"+key, `"model":"m"`, `"model":"`+key+`"`, `"ref":"main"`, `"ref":"\u006d`+key[1:]+`"`).Replace(jobJSON)
	_, ts := newRecorder(t, jsonResponse(200, echo))
	job, err := newTestClient(t, ts.URL, nil).GetAgentJob(context.Background(), "p", "j")
	if err != nil {
		t.Fatal(err)
	}
	if job.Source.Repository != "acme/[REDACTED]" || job.Model != "[REDACTED]" || *job.Source.Ref != "[REDACTED]" {
		t.Errorf("the key survived decoding: %+v (ref %q)", job, *job.Source.Ref)
	}
}

// A key the server wrote only with a JSON escape is not in the body's
// bytes as such: it must still not survive decoding.
func TestDecodedAnswersNeverHoldTheKey_evenOnlyEscaped(t *testing.T) {
	key := mintlifytest.DemoAPIKey
	escaped := `\u00` + fmt.Sprintf("%x", key[0]) + key[1:]
	echo := strings.Replace(jobJSON, `"model":"m"`, `"model":"`+escaped+`"`, 1)
	if strings.Contains(echo, key) {
		t.Fatal("the body holds the key as such")
	}
	_, ts := newRecorder(t, jsonResponse(200, echo))
	job, err := newTestClient(t, ts.URL, nil).GetAgentJob(context.Background(), "p", "j")
	if err != nil || job.Model != Redacted {
		t.Errorf("model %q, %v", job.Model, err)
	}
}

// redactStrings reaches every string an answer can hold, through
// pointers, lists, maps and interfaces.
func TestRedactStrings_everyKindOfPlace(t *testing.T) {
	const key = "mint_secret"
	leak := func() string { return "x" + key }
	p1, p2, p3 := leak(), leak(), leak()
	v := struct {
		Plain   string
		Pointer *string
		List    []string
		Map     map[string]string
		Any     any
		AnyMap  map[string]any
		Nested  []struct{ Inner *string }
		private string
		Number  any
	}{Plain: leak(), Pointer: &p1, List: []string{"ok", leak()}, Map: map[string]string{"k": leak()}, Any: leak(),
		AnyMap: map[string]any{"a": &p2}, Nested: []struct{ Inner *string }{{&p3}}, private: leak(), Number: 7}
	if !redactStrings(&v, key) {
		t.Fatal("found nothing")
	}
	want := "x" + Redacted
	if v.Plain != want || p1 != want || v.List[1] != want || v.List[0] != "ok" || v.Map["k"] != want ||
		v.Any != want || p2 != want || p3 != want || v.private != leak() || v.Number != 7 {
		t.Errorf("%+v (pointers: %q %q %q)", v, p1, p2, p3)
	}
	clean := struct{ A string }{"nothing here"}
	if redactStrings(&clean, key) || clean.A != "nothing here" {
		t.Errorf("a clean value: %+v", clean)
	}
}

func TestIDsThatWouldChangeThePathAreRefused(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	ctx := context.Background()
	for _, id := range []string{".", ".."} {
		calls := map[string]error{}
		_, calls["create"] = c.CreateAgentJob(ctx, id, "x")
		_, calls["get project"] = c.GetAgentJob(ctx, id, "j")
		_, calls["get job"] = c.GetAgentJob(ctx, "p", id)
		_, calls["message"] = c.SendAgentJobMessage(ctx, "p", id, "x")
		_, calls["wait"] = c.WaitForAgentJob(ctx, "p", id)
		_, calls["visitors"] = c.GetUniqueVisitors(ctx, id, VisitorsQuery{})
		for name, err := range calls {
			if !IsValidation(err) || !strings.Contains(err.Error(), `"`+id+`" is not allowed: it would change the request's path`) {
				t.Errorf("%s with %q: %v", name, id, err)
			}
		}
	}
	if n := fs.TotalRequests(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
	for _, ok := range []string{"...", "a.b", ".x", "x."} {
		if err := ValidateProjectID(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

func TestBaseURL_keepsTheUsersEncoding(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, jobJSON))
	c := newTestClient(t, ts.URL+"/proxy%2Fmintlify/", nil)
	if _, err := c.GetAgentJob(context.Background(), "p", "j"); err != nil {
		t.Fatal(err)
	}
	if got := rec.requests[0].URL.EscapedPath(); got != "/proxy%2Fmintlify/v2/agent/p/job/j" {
		t.Errorf("path = %q", got)
	}
	if c.BaseURL() != ts.URL+"/proxy%2Fmintlify" {
		t.Errorf("BaseURL() = %q", c.BaseURL())
	}
}
