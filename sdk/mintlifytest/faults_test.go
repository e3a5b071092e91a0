package mintlifytest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// transports are the two ways a test reaches the fake: a loopback socket,
// and the in-process client. Every fault must look the same through both.
var transports = []struct {
	name string
	open func(t *testing.T, f *Fake) (base string, c *http.Client)
}{
	{"socket", func(t *testing.T, f *Fake) (string, *http.Client) {
		ts := httptest.NewServer(f)
		t.Cleanup(func() { f.Stop(); ts.Close() })
		return ts.URL, &http.Client{Transport: &http.Transport{}}
	}},
	{"in-process", func(_ *testing.T, f *Fake) (string, *http.Client) {
		return "http://mintlify.test", f.Client()
	}},
}

// exchange is one request's outcome as a client sees it.
type exchange struct {
	status  int
	header  http.Header
	body    string
	err     error // from the round trip
	readErr error // from reading the body
}

func roundTrip(ctx context.Context, c *http.Client, method, url, body string) exchange {
	req, _ := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+DemoAPIKey)
	resp, err := c.Do(req)
	if err != nil {
		return exchange{err: err}
	}
	defer resp.Body.Close()
	data, readErr := io.ReadAll(resp.Body)
	return exchange{status: resp.StatusCode, header: resp.Header, body: string(data), readErr: readErr}
}

func TestFaults_everyKindAsAClientSeesIt(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			tests := []struct {
				name       string
				fault      Fault
				wantStatus int
				wantBody   string // exact, "" to skip
				wantType   string
				wantErr    error // from the round trip
				wantRead   error // from the body
				served     bool  // the job was created
			}{
				{name: "server error 503 says Service Unavailable", fault: Fault{Kind: FaultServerError, Status: 503}, wantStatus: 503,
					wantBody: "<html>\n<head><title>503 Service Unavailable</title></head>\n<body>\n<center><h1>503 Service Unavailable</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n",
					wantType: "text/html"},
				{name: "server error default is 502 Bad Gateway", fault: Fault{Kind: FaultServerError}, wantStatus: 502, wantType: "text/html",
					wantBody: "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>\n<center><h1>502 Bad Gateway</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n"},
				{name: "server error without a reason phrase", fault: Fault{Kind: FaultServerError, Status: 599}, wantStatus: 599, wantType: "text/html",
					wantBody: "<html>\n<head><title>599 Server Error</title></head>\n<body>\n<center><h1>599 Server Error</h1></center>\n<hr><center>nginx</center>\n</body>\n</html>\n"},
				{name: "client error default is 400 Bad Request", fault: Fault{Kind: FaultClientError}, wantStatus: 400,
					wantBody: `{"error":"Bad Request"}` + "\n", wantType: "application/json"},
				{name: "client error 409 with its status text", fault: Fault{Kind: FaultClientError, Status: 409}, wantStatus: 409,
					wantBody: `{"error":"Conflict"}` + "\n", wantType: "application/json"},
				{name: "client error 499 names its class", fault: Fault{Kind: FaultClientError, Status: 499}, wantStatus: 499,
					wantBody: `{"error":"Client Error"}` + "\n", wantType: "application/json"},
				{name: "client error with message and details", fault: Fault{Kind: FaultClientError, Status: 422, Message: "Invalid body", Details: []string{"prompt: too long", "x"}},
					wantStatus: 422, wantBody: `{"error":"Invalid body","details":[{"message":"prompt: too long"},{"message":"x"}]}` + "\n", wantType: "application/json"},
				{name: "malformed default", fault: Fault{Kind: FaultMalformed}, wantStatus: 200, wantBody: malformedBody, wantType: "application/json"},
				{name: "malformed with status and body", fault: Fault{Kind: FaultMalformed, Status: 201, Body: `{"id":7}`}, wantStatus: 201, wantBody: `{"id":7}`, wantType: "application/json"},
				{name: "rate limit", fault: Fault{Kind: FaultRateLimit, RetryAfter: 90 * time.Second}, wantStatus: 429,
					wantBody: `{"error":"Too many requests","details":[{"message":"rate limit exceeded"}]}` + "\n", wantType: "application/json"},
				{name: "drop", fault: Fault{Kind: FaultDropConnection}, wantErr: io.EOF},
				{name: "reset after the headers", fault: Fault{Kind: FaultReset}, wantStatus: 201, wantType: "application/json", wantRead: io.ErrUnexpectedEOF, served: true},
				{name: "odd field: served, createdAt a number", fault: Fault{Kind: FaultOddField}, wantStatus: 201, wantType: "application/json", served: true},
				{name: "latency then served", fault: Fault{Kind: FaultLatency, Latency: time.Millisecond}, wantStatus: 201, wantType: "application/json", served: true},
			}
			for _, tt := range tests {
				t.Run(tt.name, func(t *testing.T) {
					tt.fault.Route = RouteAgentJobsCreate
					f := New(Config{Clock: NewManualClock(t0), Faults: []Fault{tt.fault}})
					base, c := tr.open(t, f)
					got := roundTrip(context.Background(), c, "POST", base+"/v2/agent/demo-project/job", `{"prompt":"Document it"}`)
					if tt.wantErr != nil {
						if got.err == nil || (tr.name == "in-process" && !errors.Is(got.err, tt.wantErr)) {
							t.Fatalf("round trip: %v, want an error (%v)", got.err, tt.wantErr)
						}
					} else if got.err != nil {
						t.Fatalf("round trip: %v", got.err)
					}
					if got.status != tt.wantStatus || (tt.wantBody != "" && got.body != tt.wantBody) {
						t.Errorf("answer %d %q, want %d %q", got.status, got.body, tt.wantStatus, tt.wantBody)
					}
					if ct := got.header.Get("Content-Type"); !strings.HasPrefix(ct, tt.wantType) || (tt.wantType == "") != (ct == "") {
						t.Errorf("Content-Type %q, want %q", ct, tt.wantType)
					}
					if tt.wantRead != nil {
						if got.readErr == nil || (tr.name == "in-process" && !errors.Is(got.readErr, tt.wantRead)) {
							t.Errorf("reading the body: %v, want %v", got.readErr, tt.wantRead)
						}
					} else if got.readErr != nil {
						t.Errorf("reading the body: %v", got.readErr)
					}
					if jobs := len(f.JobIDs(DemoProjectID)); (jobs == 1) != tt.served || jobs > 1 {
						t.Errorf("%d jobs created, served %v", jobs, tt.served)
					}
					log := f.RequestLog()
					if len(log) != 1 || log[0].Fault != tt.fault.Kind || log[0].Status != tt.wantStatus {
						t.Fatalf("log %+v, want fault %s status %d", log, tt.fault.Kind, tt.wantStatus)
					}
					if tt.wantErr == nil && got.header.Get("X-Request-Id") != "req_0000001" {
						t.Errorf("X-Request-Id %q", got.header.Get("X-Request-Id"))
					}
				})
			}
		})
	}
}

// An odd field is the real answer with that one field a number: the id is
// the job created, every other field as sent.
func TestFaultOddField_mistypesOneFieldOfTheRealAnswer(t *testing.T) {
	for _, field := range []string{"", "status", "nowhere"} {
		t.Run(field, func(t *testing.T) {
			f := New(Config{Clock: NewManualClock(t0), Faults: []Fault{{Route: RouteAgentJobsCreate, Kind: FaultOddField, Field: field}}})
			base, c := transports[0].open(t, f)
			got := roundTrip(context.Background(), c, "POST", base+"/v2/agent/demo-project/job", `{"prompt":"x"}`)
			whole, _ := f.Job(DemoProjectID, f.JobIDs(DemoProjectID)[0])
			var want, answer map[string]any
			if err := json.Unmarshal(whole, &want); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(got.body), &answer); err != nil {
				t.Fatalf("answer %q: %v", got.body, err)
			}
			if field == "" {
				field = "createdAt"
			}
			if _, ok := want[field]; ok {
				want[field] = float64(12345)
			}
			if diff := cmp.Diff(want, answer); diff != "" {
				t.Errorf("answer (-want +got):\n%s", diff)
			}
		})
	}
	// Not JSON, or not an object: unchanged.
	for _, body := range []string{`OK`, `[1,2]`, `{"createdAt":"x"`} {
		if got := string(oddField([]byte(body), "")); got != body {
			t.Errorf("oddField(%q) = %q", body, got)
		}
	}
}

// A reset sends the real answer's status, headers and first half, so a
// client that reads what it can sees a prefix of the job it created.
func TestFaultReset_sendsHalfTheRealAnswer(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			f := New(Config{Clock: NewManualClock(t0), Faults: []Fault{{Route: RouteAgentJobsCreate, Kind: FaultReset}}})
			base, c := tr.open(t, f)
			got := roundTrip(context.Background(), c, "POST", base+"/v2/agent/demo-project/job", `{"prompt":"x"}`)
			whole, _ := f.Job(DemoProjectID, f.JobIDs(DemoProjectID)[0])
			full := string(whole) + "\n"
			if got.header.Get("Content-Length") != strconv.Itoa(len(full)) || got.body != full[:len(full)/2] {
				t.Errorf("Content-Length %s, body %q; want %d and the first half of %q", got.header.Get("Content-Length"), got.body, len(full), full)
			}
		})
	}
}

func TestFaultStall_holdsUntilTheClientGivesUpOrTheServerStops(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			f := New(Config{Clock: NewManualClock(t0), Faults: []Fault{{Route: RouteAgentJobsCreate, Kind: FaultStall}}})
			base, c := tr.open(t, f)
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			defer cancel()
			got := roundTrip(ctx, c, "POST", base+"/v2/agent/demo-project/job", `{"prompt":"x"}`)
			if !errors.Is(got.err, context.DeadlineExceeded) {
				t.Errorf("stalled request: %v, want the deadline", got.err)
			}
			done := make(chan exchange)
			go func() {
				done <- roundTrip(context.Background(), c, "POST", base+"/v2/agent/demo-project/job", `{"prompt":"x"}`)
			}()
			for f.Requests(RouteAgentJobsCreate) < 2 {
				time.Sleep(time.Millisecond)
			}
			f.Stop()
			if got := <-done; got.err == nil {
				t.Errorf("a stall the server stopped answered %d", got.status)
			}
			if n := len(f.JobIDs(DemoProjectID)); n != 0 {
				t.Errorf("a stalled request created %d jobs", n)
			}
			for _, e := range f.RequestLog() {
				if e.Status != 0 || e.Fault != FaultStall {
					t.Errorf("logged %+v", e)
				}
			}
		})
	}
}

func TestFaultLatency_stopEndsItWithoutAnAnswer(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			f := New(Config{Faults: []Fault{{Kind: FaultLatency, Latency: time.Hour}}})
			base, c := tr.open(t, f)
			done := make(chan exchange)
			go func() { done <- roundTrip(context.Background(), c, "GET", base+"/v2/agent/demo-project/job/x", "") }()
			for f.TotalRequests() < 1 {
				time.Sleep(time.Millisecond)
			}
			f.Stop()
			if got := <-done; got.err == nil {
				t.Errorf("latency cut by Stop answered %d %q", got.status, got.body)
			}
		})
	}
}

// A fault of one's own: Respond answers the requests its rule hits, with
// the route's own answer to call or not, and the log names it by Kind.
// Once the fake stops, an answer still going ends and its connection
// breaks.
func TestFault_respondOfYourOwn(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			held := make(chan struct{})
			f := New(Config{Faults: []Fault{
				{Route: RouteAgentJobsCreate, Kind: "teapot", Respond: func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
					http.Error(w, "short and stout", http.StatusTeapot)
				}},
				{Route: RouteAgentJobsGet, Kind: "seen", Respond: func(w http.ResponseWriter, r *http.Request, serve http.Handler) {
					w.Header().Set("X-Seen", r.Pattern)
					serve.ServeHTTP(w, r)
				}},
				{Route: RouteAgentJobsSessions, Kind: "held", Respond: func(w http.ResponseWriter, r *http.Request, _ http.Handler) {
					w.WriteHeader(http.StatusOK)
					_, _ = io.WriteString(w, `{"allSessions":[`)
					_ = http.NewResponseController(w).Flush()
					close(held)
					<-r.Context().Done()
				}},
			}})
			base, c := tr.open(t, f)
			ctx := context.Background()
			if got := roundTrip(ctx, c, "POST", base+"/v2/agent/demo-project/job", `{"prompt":"x"}`); got.status != http.StatusTeapot || len(f.JobIDs(DemoProjectID)) != 0 {
				t.Errorf("create: %d %q, %d jobs", got.status, got.body, len(f.JobIDs(DemoProjectID)))
			}
			id := f.CreateJob(DemoProjectID, "x")
			whole, _ := f.Job(DemoProjectID, id)
			if got := roundTrip(ctx, c, "GET", base+"/v2/agent/demo-project/job/"+id, ""); got.status != 200 || got.body != string(whole)+"\n" || got.header.Get("X-Seen") != RouteAgentJobsGet {
				t.Errorf("get: %d %q %v", got.status, got.body, got.header)
			}
			if log := f.RequestLog(); len(log) != 2 || log[0].Fault != "teapot" || log[0].Status != http.StatusTeapot || log[1].Fault != "seen" {
				t.Errorf("log %+v", log)
			}
			done := make(chan exchange)
			go func() { done <- roundTrip(ctx, c, "GET", base+"/v1/agent/demo-project/jobs", "") }()
			<-held
			f.Stop()
			if got := <-done; got.err == nil && got.readErr == nil {
				t.Errorf("an answer the stop cut ended cleanly: %d %q", got.status, got.body)
			}
		})
	}
}
