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
	"slices"
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
		"id as a number":   {`{"id":7,"status":"active"}`, "id: want a string or null, got a number"},
		"long foreign id":  {jobJSONFor(strings.Repeat("x", 120)), `id: the answer is for job "` + strings.Repeat("x", 100) + `…", not job "j"`},
	} {
		t.Run(name, func(t *testing.T) {
			_, ts := newRecorder(t, jsonResponse(200, tt.body))
			c := newTestClient(t, ts.URL, nil)
			job, err := c.AgentJobs.Get(context.Background(), "p", "j")
			if job != nil || !IsMalformedResponse(err) || err.Error() != "getting agent job j: malformed response to GET /v2/agent/p/job/j: "+tt.want {
				t.Fatalf("job %+v, err = %v; want %q", job, err, tt.want)
			}
		})
	}
}

// A job whose id is right but whose status is missing, empty or of another
// kind is still the job: it comes back, with the problem named.
func TestGetAgentJob_oddStatusIsAProblemNotAnError(t *testing.T) {
	for body, want := range map[string]string{
		`{"id":"j"}`:               "status: missing or empty",
		`{"id":"j","status":""}`:   "status: missing or empty",
		`{"id":"j","status":4}`:    "status: want a string or null, got a number",
		`{"id":"j","status":[]}`:   "status: want a string or null, got a list",
		`{"id":"j","status":null}`: "status: missing or empty",
	} {
		_, ts := newRecorder(t, jsonResponse(200, body))
		job, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
		if err != nil || job.ID != "j" || job.Status != "" || job.Status.Terminal() || !slices.Equal(job.Problems, []string{want}) {
			t.Errorf("%s: job %+v, err %v; want the problem %q", body, job, err, want)
		}
	}
}

// A 2xx to a message means the message was accepted: whatever the body,
// the call succeeds with the job's id, and says what was odd.
func TestSendAgentJobMessage_acceptedWhateverTheBody(t *testing.T) {
	const accepted = "the API accepted the message, but its answer is not this job: malformed response to POST /v2/agent/p/job/j/message: "
	for name, tt := range map[string]struct{ body, want string }{
		"another job's id": {jobJSONFor("other"), accepted + `id: the answer is for job "other", not job "j"`},
		"no id":            {`{"status":"active"}`, accepted + "id: missing or empty"},
		"not JSON":         {"<html>ok</html>", accepted + `the body is not the API's JSON: invalid character '<' looking for beginning of value (body starts "ok")`},
		"a list":           {"[]", accepted + "answer: want an object, got a list"},
		"empty":            {"", accepted + `the body is not the API's JSON: unexpected end of JSON input`},
	} {
		t.Run(name, func(t *testing.T) {
			rec, ts := newRecorder(t, jsonResponse(200, tt.body, "X-Request-Id", "msg-1"))
			job, err := newTestClient(t, ts.URL, nil).AgentJobs.SendMessage(context.Background(), "p", "j", "x")
			if err != nil {
				t.Fatalf("err = %v; a 2xx is never an error", err)
			}
			want := &AgentJob{ID: "j", Problems: []string{tt.want}}
			if diff := cmp.Diff(want, job, ignoreInfo); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if job.RequestID != "msg-1" || job.Attempts != 1 || rec.count() != 1 {
				t.Errorf("info %+v after %d POSTs", job.ResponseInfo, rec.count())
			}
		})
	}
	// An answer that is this job, with an odd field, keeps what it says.
	_, ts := newRecorder(t, jsonResponse(200, `{"id":"j","status":"active","createdAt":"later"}`))
	job, err := newTestClient(t, ts.URL, nil).AgentJobs.SendMessage(context.Background(), "p", "j", "x")
	if err != nil || job.Status != JobStatusActive || !slices.Equal(job.Problems, []string{`createdAt: "later" is not an ISO 8601 timestamp`}) {
		t.Errorf("job %+v, %v", job, err)
	}
}

// A job read without a status is not terminal: the wait goes on, and the
// callback sees the problem.
func TestWaitForAgentJob_answerWithoutStatusKeepsPollingAndReportsTheProblem(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, `{"id":"j"}`), jsonResponse(200, `{"id":"j","status":7}`), jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"completed"`, 1)))
	c := newTestClient(t, ts.URL, newClock())
	var problems [][]string
	job, err := c.AgentJobs.Wait(context.Background(), "p", "j", WithStatusCallback(func(j *AgentJob) { problems = append(problems, j.Problems) }))
	if err != nil || job.Status != JobStatusCompleted || job.Problems != nil || rec.count() != 3 {
		t.Fatalf("job %+v, err = %v after %d polls; want to poll on to the end", job, err, rec.count())
	}
	want := [][]string{{"status: missing or empty"}, {"status: want a string or null, got a number"}, nil}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems seen (-want +got):\n%s", diff)
	}
}

func TestWaitForAgentJob_unknownStatusKeepsPolling(t *testing.T) {
	rec, ts := newRecorder(t,
		jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"queued"`, 1)),
		jsonResponse(200, strings.Replace(jobJSON, `"active"`, `"completed"`, 1)))
	c := newTestClient(t, ts.URL, &fakeClock{ManualClock: mintlifytest.NewManualClock(epoch)})
	var seen []JobStatus
	job, err := c.AgentJobs.Wait(context.Background(), "p", "j", WithStatusCallback(func(j *AgentJob) { seen = append(seen, j.Status) }))
	if err != nil || job.Status != JobStatusCompleted || rec.count() != 2 {
		t.Fatalf("job %+v, err %v, %d polls", job, err, rec.count())
	}
	if diff := cmp.Diff([]JobStatus{"queued", "completed"}, seen); diff != "" || JobStatus("queued").Known() || !JobStatusActive.Known() || !JobStatusFailed.Known() {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
}

// A created job whose answer has odd fields is still created: it comes
// back with no error, each odd field named in its Problems.
func TestCreateAgentJob_malformedMinorFieldKeepsTheID(t *testing.T) {
	for name, tt := range map[string]struct{ body, want string }{
		"createdAt as a number":  {`{"id":"new-1","status":"active","createdAt":1732190400}`, "createdAt: want a string or null, got a number"},
		"createdAt unreadable":   {`{"id":"new-1","status":"active","createdAt":"21/11/2026"}`, `createdAt: "21/11/2026" is not an ISO 8601 timestamp`},
		"prLink as an object":    {`{"id":"new-1","status":"active","prLink":{"url":"x"}}`, "prLink: want a string or null, got an object"},
		"prLink not a web link":  {`{"id":"new-1","status":"active","prLink":"javascript:alert(1)"}`, `prLink: "javascript:alert(1)" is not an absolute http(s) URL: ignored`},
		"source as a string":     {`{"id":"new-1","status":"active","source":"acme/docs"}`, "source: want an object, got a string"},
		"model as true":          {`{"id":"new-1","status":"active","model":true}`, "model: want a string or null, got true or false"},
		"ref as a list":          {`{"id":"new-1","status":"active","source":{"repository":"r","ref":[]}}`, "source.ref: want a string or null, got a list"},
		"archivedAt as a number": {`{"id":"new-1","status":"active","archivedAt":5}`, "archivedAt: want a string or null, got a number"},
		"status as a number":     {`{"id":"new-1","status":1}`, "status: want a string or null, got a number"},
		"no status either":       {`{"id":"new-1","createdAt":5}`, "status: missing or empty; createdAt: want a string or null, got a number"},
	} {
		t.Run(name, func(t *testing.T) {
			rec, ts := newRecorder(t, jsonResponse(201, tt.body))
			c := newTestClient(t, ts.URL, nil)
			job, err := c.AgentJobs.Create(context.Background(), "p", "x")
			if err != nil || job == nil || job.ID != "new-1" {
				t.Fatalf("the created job was lost: job %+v, err %v", job, err)
			}
			if got := strings.Join(job.Problems, "; "); got != tt.want {
				t.Errorf("problems %q, want %q", got, tt.want)
			}
			if job.PRLink != nil {
				t.Errorf("link %q kept", *job.PRLink)
			}
			if rec.count() != 1 {
				t.Errorf("%d POSTs", rec.count())
			}
		})
	}
	// The fields that could be read are kept beside the problem.
	_, ts := newRecorder(t, jsonResponse(201, `{"id":"new-2","status":"active","model":"m","source":{"repository":"r","ref":"main"},"createdAt":7}`))
	job, err := newTestClient(t, ts.URL, nil).AgentJobs.Create(context.Background(), "p", "x")
	want := &AgentJob{ID: "new-2", Status: JobStatusActive, Model: "m", Source: JobSource{"r", ptr("main")}, Problems: []string{"createdAt: want a string or null, got a number"}}
	if diff := cmp.Diff(want, job, ignoreInfo); diff != "" || err != nil {
		t.Errorf("partial job, %v (-want +got):\n%s", err, diff)
	}
	// Only an answer without the id is an error: the job may exist.
	_, ts = newRecorder(t, jsonResponse(201, `{"status":"active","createdAt":5}`))
	job, err = newTestClient(t, ts.URL, nil).AgentJobs.Create(context.Background(), "p", "x")
	if job != nil || !MayHaveTakenEffect(err) || err.Error() != "creating agent job: malformed response to POST /v2/agent/p/job: id: missing or empty; createdAt: want a string or null, got a number" {
		t.Errorf("job %+v, err %v", job, err)
	}
}

func TestCreateAgentJob_answerThatIsNotAnObjectLosesNothingItCouldKeep(t *testing.T) {
	_, ts := newRecorder(t, respond(201, "text/html", "<html>created</html>"))
	job, err := newTestClient(t, ts.URL, nil).AgentJobs.Create(context.Background(), "p", "x")
	if job != nil || !IsMalformedResponse(err) || !MayHaveTakenEffect(err) ||
		err.Error() != `creating agent job: malformed response to POST /v2/agent/p/job: the body is not the API's JSON: invalid character '<' looking for beginning of value (body starts "created")` {
		t.Fatalf("job %+v, err %v", job, err)
	}
}

func TestPOST_redirectIsNeverFollowed(t *testing.T) {
	for _, status := range []int{300, 301, 302, 303, 307, 308} {
		var elsewhere int
		other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			elsewhere++
			jsonResponse(200, jobJSON)(w, r)
		}))
		rec, ts := newRecorder(t, respond(status, "", "", "Location", other.URL+"/v2/agent/p/job"))
		c := newTestClient(t, ts.URL, nil)
		job, err := c.AgentJobs.Create(context.Background(), "p", "x")
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
	_, err := c.AgentJobs.Get(context.Background(), "p", "j")
	if err == nil || !strings.Contains(err.Error(), "stopped after 10 redirects") || rec.count() != 10 {
		t.Fatalf("err = %v after %d requests; a redirect loop is not retried", err, rec.count())
	}
}

func TestPOST_sentRequestIsAwaitedOnlyForAShortGrace(t *testing.T) {
	_, job, took, err := createWithStalledPOST(t, 200*time.Millisecond)
	if job != nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer came within 200ms more") {
		t.Fatalf("job %+v, err %v", job, err)
	}
	if took < 240*time.Millisecond || took > 5*time.Second {
		t.Errorf("returned after %s; want the deadline plus the grace", took)
	}
	var reqErr *RequestError
	if !MayHaveTakenEffect(err) || !errors.As(err, &reqErr) || !reqErr.Sent || reqErr.Attempts != 1 {
		t.Errorf("a POST that was sent and never answered may have created a job: %#v", reqErr)
	}
	if DefaultSentRequestGrace != 10*time.Second {
		t.Errorf("grace %s", DefaultSentRequestGrace)
	}
	c2, _ := NewClient("mint_x")
	if c2.core.sentGrace != DefaultSentRequestGrace || c2.core.requestTimeout != DefaultRequestTimeout || c2.core.maxPagesPerRead != DefaultMaxPagesPerRead {
		t.Errorf("defaults %+v", c2.core.settings)
	}
	if _, err := NewClient("mint_x", WithSentRequestGrace(-time.Nanosecond)); err == nil || err.Error() != "sdk: WithSentRequestGrace: -1ns is negative" {
		t.Errorf("negative grace: %v", err)
	}
	if c3, err := NewClient("mint_x", WithSentRequestGrace(0)); err != nil || c3.core.sentGrace != 0 {
		t.Errorf("zero grace: %v", err)
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
			_, err = c.AgentJobs.Create(context.Background(), "p", "x")
			if err == nil || MayHaveTakenEffect(err) {
				t.Fatalf("err = %v; MayHaveTakenEffect = %v, want false", err, MayHaveTakenEffect(err))
			}
		})
	}
	// A dropped connection after sending, and a 502, may hide a created job.
	for _, h := range []http.HandlerFunc{dropConnection, respond(502, "text/html", "bad gateway")} {
		_, ts := newRecorder(t, h)
		if _, err := newTestClient(t, ts.URL, nil).AgentJobs.Create(context.Background(), "p", "x"); !MayHaveTakenEffect(err) {
			t.Errorf("err = %v: want MayHaveTakenEffect", err)
		}
	}
	// Refusals and invalid input did nothing.
	for _, err := range []error{&APIError{StatusCode: 429}, &APIError{StatusCode: 400}, &ValidationError{}, nil,
		&RequestError{Err: errors.New("x")}, &APIError{StatusCode: 499}, ErrNotConfigured, fmt.Errorf("wrapped: %w", ErrNotConfigured),
		fmt.Errorf("wrapped: %w", &RequestError{Sent: false, Err: errors.New("refused")})} {
		if MayHaveTakenEffect(err) {
			t.Errorf("%v: MayHaveTakenEffect", err)
		}
	}
	for _, err := range []error{&APIError{StatusCode: 500}, errors.New("EOF"), &MalformedResponseError{}, &RequestError{Sent: true, Err: errors.New("EOF")},
		fmt.Errorf("wrapped: %w", &RequestError{Sent: true, Err: errors.New("EOF")}), &APIError{StatusCode: 502}} {
		if !MayHaveTakenEffect(err) {
			t.Errorf("%v: !MayHaveTakenEffect", err)
		}
	}
}

func TestCreateAgentJob_contextEndedBeforeSendingTookNoEffect(t *testing.T) {
	_, c, _ := newFake(t, mintlifytest.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "x"); MayHaveTakenEffect(err) || !errors.Is(err, context.Canceled) {
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
	job, err := c.AgentJobs.Wait(context.Background(), "p", "j", WithPollInterval(time.Second, time.Second))
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
	job, err := c.AgentJobs.Wait(context.Background(), "p", "j", WithPollInterval(time.Second, time.Second))
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
	_, err := c.AgentJobs.Wait(ctx, "p", "j")
	if !IsRateLimited(err) || !strings.Contains(err.Error(), "try again after 2026-11-21T12:10:") || rec.count() != 1 {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
}

func TestRequestTimeout_stalledReadIsRetriedAndEnds(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{}, WithRequestTimeout(100*time.Millisecond))
	job, err := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "x")
	if err != nil {
		t.Fatal(err)
	}
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultLatency, Latency: time.Hour, Requests: []int{1}})
	start := time.Now()
	if _, err := c.AgentJobs.Get(context.Background(), mintlifytest.DemoProjectID, job.ID); err != nil {
		t.Fatalf("the retry after a stalled attempt failed: %v", err)
	}
	if time.Since(start) > 5*time.Second || fs.Requests(mintlifytest.RouteAgentJobsGet) != 2 {
		t.Errorf("%s, %d requests", time.Since(start), fs.Requests(mintlifytest.RouteAgentJobsGet))
	}
	// Every attempt stalls: the read ends after its retries, saying why.
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultLatency, Latency: time.Hour})
	c = newTestClient(t, c.BaseURL(), newClock(), WithRequestTimeout(100*time.Millisecond), WithMaxRetries(1))
	_, err = c.AgentJobs.Get(context.Background(), mintlifytest.DemoProjectID, job.ID)
	var reqErr *RequestError
	if err == nil || !strings.Contains(err.Error(), "no response within 100ms (the request timeout)") || !strings.HasSuffix(err.Error(), "(after 2 attempts)") ||
		!errors.As(err, &reqErr) || reqErr.Attempts != 2 || !reqErr.Sent {
		t.Fatalf("err = %v", err)
	}
	if _, err := NewClient("mint_x", WithRequestTimeout(-time.Second)); err == nil {
		t.Error("negative timeout accepted")
	}
	// 0 is documented as no bound: a request is sent and answered.
	_, unbounded, _ := newFake(t, mintlifytest.Config{}, WithRequestTimeout(0))
	if _, err := unbounded.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "x"); err != nil {
		t.Errorf("WithRequestTimeout(0): %v", err)
	}
}

func TestRequestTimeout_stalledPOSTIsNotRetried(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{}, WithRequestTimeout(100*time.Millisecond))
	fs.InjectFault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsCreate, Kind: mintlifytest.FaultLatency, Latency: time.Hour})
	_, err := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "x")
	if err == nil || !MayHaveTakenEffect(err) || fs.Requests(mintlifytest.RouteAgentJobsCreate) != 1 {
		t.Fatalf("err = %v after %d POSTs", err, fs.Requests(mintlifytest.RouteAgentJobsCreate))
	}
}

func TestDecodedAnswersNeverHoldTheKey(t *testing.T) {
	key := mintlifytest.DemoAPIKey
	echo := strings.NewReplacer("acme/docs", "acme/"+key, `"model":"m"`, `"model":"`+key+`"`, `"ref":"main"`, `"ref":"\u006d`+key[1:]+`"`).Replace(jobJSON)
	_, ts := newRecorder(t, jsonResponse(200, echo))
	job, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
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
	job, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
	if err != nil || job.Model != Redacted {
		t.Errorf("model %q, %v", job.Model, err)
	}
}

// redactStrings reaches every string an answer can hold, through
// pointers, lists, maps and interfaces.
func TestRedactStrings_everyKindOfPlace(t *testing.T) {
	const key = "mint_secret"
	leak := func() string { return "x" + key }
	p1, p2, p3, p4 := leak(), leak(), leak(), leak()
	v := struct {
		Plain   string
		Pointer *string
		List    []string
		Map     map[string]string
		Any     any
		AnyMap  map[string]any
		PtrMap  map[string]*string
		Nested  []struct{ Inner *string }
		private string
		Number  any
	}{Plain: leak(), Pointer: &p1, List: []string{"ok", leak()}, Map: map[string]string{"k": leak()}, Any: leak(),
		AnyMap: map[string]any{"a": &p2}, PtrMap: map[string]*string{"p": &p4}, Nested: []struct{ Inner *string }{{&p3}}, private: leak(), Number: 7}
	if !redactStrings(&v, []string{key}) {
		t.Fatal("found nothing")
	}
	want := "x" + Redacted
	if v.Plain != want || p1 != want || v.List[1] != want || v.List[0] != "ok" || v.Map["k"] != want ||
		v.Any != want || p2 != want || p3 != want || p4 != want || v.private != leak() || v.Number != 7 {
		t.Errorf("%+v (pointers: %q %q %q %q)", v, p1, p2, p3, p4)
	}
	clean := struct{ A string }{"nothing here"}
	if redactStrings(&clean, []string{key}) || clean.A != "nothing here" {
		t.Errorf("a clean value: %+v", clean)
	}
}

func TestIDsThatWouldChangeThePathAreRefused(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	ctx := context.Background()
	for _, id := range []string{".", ".."} {
		calls := map[string]error{}
		_, calls["create"] = c.AgentJobs.Create(ctx, id, "x")
		_, calls["get project"] = c.AgentJobs.Get(ctx, id, "j")
		_, calls["get job"] = c.AgentJobs.Get(ctx, "p", id)
		_, calls["message"] = c.AgentJobs.SendMessage(ctx, "p", id, "x")
		_, calls["wait"] = c.AgentJobs.Wait(ctx, "p", id)
		_, calls["visitors"] = c.Analytics.Visitors.Page(ctx, id, VisitorsQuery{})
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
	if _, err := c.AgentJobs.Get(context.Background(), "p", "j"); err != nil {
		t.Fatal(err)
	}
	if got := rec.requests[0].URL.EscapedPath(); got != "/proxy%2Fmintlify/v2/agent/p/job/j" {
		t.Errorf("path = %q", got)
	}
	if c.BaseURL() != ts.URL+"/proxy%2Fmintlify" {
		t.Errorf("BaseURL() = %q", c.BaseURL())
	}
}

// A job's problems echo the odd values they name: a key in one, wherever
// the value is cut, is redacted whole.
func TestAgentJob_problemsNeverHoldPartOfTheKey(t *testing.T) {
	key := mintlifytest.DemoAPIKey
	prefix := key[:len(key)/2]
	for pad := maxEchoedValue - len(key) - 12; pad < maxEchoedValue; pad += 4 {
		value := "javascript:" + strings.Repeat("a", pad) + key
		for _, body := range []string{
			`{"id":"j","status":"completed","prLink":"` + value + `"}`,
			`{"id":"j","status":"completed","createdAt":"` + value + `"}`,
			`{"id":"j","status":"completed","archivedAt":"` + value + `"}`,
		} {
			_, ts := newRecorder(t, jsonResponse(200, body))
			job, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(context.Background(), "p", "j")
			if err != nil || len(job.Problems) != 1 || strings.Contains(job.Problems[0], prefix) {
				t.Errorf("key at %d: %q, %v", pad, job.Problems, err)
			}
		}
	}
}
