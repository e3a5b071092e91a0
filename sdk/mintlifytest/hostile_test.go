package mintlifytest

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// open sends a request through c with key and returns the response, its
// body unread (closed when the test ends).
func open(t *testing.T, c *http.Client, method, link, key, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequest(method, link, strings.NewReader(body))
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = resp.Body.Close() })
	return resp
}

const askBody = `{"fp":"anonymous","messages":[{"id":"m1","role":"user","content":"install","parts":[{"type":"text","text":"install"}]}]}`

// An endless event is data lines that never end the event: a reader that
// waits for the blank line waits for ever, and one that joins the lines
// grows without end. The message is not answered (no credits).
func TestFaultEndlessEvent_dataLinesWithoutEnd(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			f := New(Config{Faults: []Fault{{Route: RouteAssistantStream, Kind: FaultEndlessEvent}, {Route: RouteAssistantStreamV1, Kind: FaultEndlessEvent}}})
			base, c := tr.open(t, f)
			resp := open(t, c, "POST", base+"/discovery/v2/assistant/"+DemoDomain+"/message", DemoAssistantKey, askBody)
			if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
				t.Fatalf("%d %v", resp.StatusCode, resp.Header)
			}
			r := bufio.NewReader(resp.Body)
			for i := range 3000 { // 3 MiB: past any buffer
				line, err := r.ReadString('\n')
				if err != nil || line != "data: "+strings.Repeat("x", 1024)+"\n" {
					t.Fatalf("line %d: %q %v", i, clipped(line), err)
				}
			}
			v1 := open(t, c, "POST", base+"/discovery/v1/assistant/"+DemoDomain+"/message", DemoAssistantKey, askBody)
			head := make([]byte, 2<<20)
			if _, err := io.ReadFull(v1.Body, head); err != nil || !strings.HasPrefix(string(head), `0:"xxxx`) || strings.ContainsRune(string(head), '\n') {
				t.Fatalf("v1: %q %v", clipped(string(head)), err)
			}
			if n := len(f.AssistantAnswers()); n != 0 {
				t.Errorf("%d messages answered", n)
			}
		})
	}
}

// A flood of empty deltas is parts that carry nothing, without end; Body
// floods with another part.
func TestFaultEmptyDeltas_partsThatCarryNothing(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			f := New(Config{Faults: []Fault{{Route: RouteAssistantStream, Kind: FaultEmptyDeltas, Requests: []int{1}},
				{Route: RouteAssistantStream, Kind: FaultEmptyDeltas, Body: `{"type":"start-step"}`, Requests: []int{2}},
				{Route: RouteAssistantStreamV1, Kind: FaultEmptyDeltas}}})
			base, c := tr.open(t, f)
			for i, want := range []string{`{"type":"text-delta","id":"text_1","delta":""}`, `{"type":"start-step"}`} {
				resp := open(t, c, "POST", base+"/discovery/v2/assistant/"+DemoDomain+"/message", DemoAssistantKey, askBody)
				r := bufio.NewReader(resp.Body)
				lines := readLines(t, r, 20000)
				if lines[0] != `data: {"type":"start","messageId":"msg_flood"}` || lines[2] != `data: {"type":"text-start","id":"text_1"}` {
					t.Fatalf("%d: starts %q", i, lines[:4])
				}
				for j := 4; j < len(lines); j += 2 {
					if lines[j] != "data: "+want || lines[j+1] != "" {
						t.Fatalf("%d: line %d: %q %q", i, j, lines[j], lines[j+1])
					}
				}
			}
			v1 := open(t, c, "POST", base+"/discovery/v1/assistant/"+DemoDomain+"/message", DemoAssistantKey, askBody)
			lines := readLines(t, bufio.NewReader(v1.Body), 20000)
			if lines[0] != `f:{"messageId":"msg_flood"}` || lines[1] != `0:""` || lines[len(lines)-1] != `0:""` {
				t.Errorf("v1: %q ... %q", lines[:2], lines[len(lines)-1])
			}
			if n := len(f.AssistantAnswers()); n != 0 {
				t.Errorf("%d messages answered", n)
			}
		})
	}
}

func readLines(t *testing.T, r *bufio.Reader, n int) []string {
	t.Helper()
	out := make([]string, n)
	for i := range out {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		out[i] = strings.TrimSuffix(line, "\n")
	}
	return out
}

// An endless body announces no size and never ends; on the download route
// it looks like an archive. Stopping the server breaks it rather than end
// it cleanly.
func TestFaultEndlessBody_noSizeAndNoEnd(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			f := New(Config{Faults: []Fault{{Route: RouteStaticExportsDownloadBundle, Kind: FaultEndlessBody}, {Route: RouteAgentJobsGet, Kind: FaultEndlessBody}}})
			base, c := tr.open(t, f)
			resp := open(t, c, "GET", base+"/_bundles/se_1/bundle.tar.gz?X-Amz-Signature=x", "", "")
			if resp.StatusCode != 200 || resp.ContentLength != -1 || resp.Header.Get("Content-Type") != "application/gzip" {
				t.Fatalf("%d, length %d, %v", resp.StatusCode, resp.ContentLength, resp.Header)
			}
			head := make([]byte, 3<<20)
			if _, err := io.ReadFull(resp.Body, head); err != nil || string(head[:len(gzipHeader)]) != gzipHeader || strings.Trim(string(head[len(gzipHeader):]), "\x00") != "" {
				t.Fatalf("download %q: %v", clipped(string(head)), err)
			}
			job := open(t, c, "GET", base+"/v2/agent/"+DemoProjectID+"/job/x", DemoAPIKey, "")
			if _, err := io.ReadFull(job.Body, head); err != nil || !strings.HasPrefix(string(head), `{"data":"xxx`) || job.ContentLength != -1 {
				t.Fatalf("job %q: %v", clipped(string(head)), err)
			}
			f.Stop()
			if _, err := io.Copy(io.Discard, job.Body); err == nil {
				t.Error("an endless body a stopped server cut ended cleanly")
			}
		})
	}
}

// A trickle serves the request and sends its answer a byte at a time: the
// whole answer, slowly. Stopping the server cuts it.
func TestFaultTrickle_oneByteAtATime(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			const delay = time.Millisecond
			f := New(Config{Faults: []Fault{{Route: RouteAgentJobsCreate, Kind: FaultTrickle, Latency: delay}, {Route: RouteAssistantStream, Kind: FaultTrickle, Latency: delay}}})
			base, c := tr.open(t, f)
			start := time.Now()
			got := roundTrip(context.Background(), c, "POST", base+"/v2/agent/demo-project/job", `{"prompt":"x"}`)
			took := time.Since(start)
			whole, _ := f.Job(DemoProjectID, f.JobIDs(DemoProjectID)[0])
			if got.err != nil || got.readErr != nil || got.body != string(whole)+"\n" {
				t.Fatalf("%q %v %v", got.body, got.err, got.readErr)
			}
			if least := time.Duration(len(got.body)-1) * delay; took < least {
				t.Errorf("%d bytes in %s: faster than a byte per %s", len(got.body), took, delay)
			}
			// A stream trickles too, and stopping cuts it.
			resp := open(t, c, "POST", base+"/discovery/v2/assistant/"+DemoDomain+"/message", DemoAssistantKey, askBody)
			r := bufio.NewReader(resp.Body)
			if line, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(line, `data: {"type":"start"`) {
				t.Fatalf("%q %v", line, err)
			}
			f.Stop()
			if _, err := io.Copy(io.Discard, r); err == nil {
				t.Error("a trickle a stopped server cut ended cleanly")
			}
		})
	}
}

// Control text lands in the server text of a served answer: a failed
// deployment's summary and every log line, an export's error, a listed
// job's title and message, an error body's message.
func TestFaultControlText_inEveryServerText(t *testing.T) {
	h := newHarness(t, Config{DefaultDeployment: DeploymentScript{Outcome: DeployFailure}})
	h.srv.InjectFault(Fault{Kind: FaultControlText})
	id := h.srv.TriggerDeployment(DemoProjectID)
	h.clk.Advance(time.Hour)
	_, got := h.status(id)
	if !strings.HasSuffix(got["summary"].(string), DefaultControlText) { //nolint:forcetypeassert // a status has a summary
		t.Errorf("summary %q", got["summary"])
	}
	for _, l := range got["logs"].([]any) { //nolint:forcetypeassert // and logs
		if !strings.HasSuffix(l.(string), DefaultControlText) { //nolint:forcetypeassert // of strings
			t.Errorf("log line %q", l)
		}
	}
	if got["_id"] != id || strings.Contains(got["createdAt"].(string), "\x1b") { //nolint:forcetypeassert // a status has createdAt
		t.Errorf("data changed: %v", got)
	}
	h.srv.CreateJob(DemoProjectID, "Document the CLI")
	_, _, list := h.call("GET", "/v1/agent/"+DemoProjectID+"/jobs", "")
	row := list["allSessions"].([]any)[0].(map[string]any)             //nolint:forcetypeassert // the listing's shape
	if !strings.HasSuffix(row["title"].(string), DefaultControlText) { //nolint:forcetypeassert // a row has a title
		t.Errorf("title %q", row["title"])
	}
	_, _, missing := h.call("GET", "/v2/agent/"+DemoProjectID+"/job/nope", "")
	if !strings.HasSuffix(missing["error"].(string), DefaultControlText) { //nolint:forcetypeassert // an error body
		t.Errorf("error %q", missing["error"])
	}
	h.srv.ClearFaults()
	h.srv.InjectFault(Fault{Kind: FaultControlText, Text: "\r"})
	exportID := h.startExport(`{"domain":"docs.example.com","version":"[fake:failed]"}`)
	h.clk.Advance(time.Hour)
	_, _, export := h.call("GET", "/v1/static-export/jobs/"+exportID, "")
	if e, _ := export["error"].(string); !strings.HasSuffix(e, "\r") || e == "\r" {
		t.Errorf("export error %q", export["error"])
	}
}

// An unreadable id is answered for an object that was made: the fake has
// it under its own id.
func TestFaultUnreadableID_afterTheWorkIsDone(t *testing.T) {
	h := newHarness(t, Config{})
	for _, tt := range []struct {
		route, method, path, body, field string
		made                             func() int
	}{
		{RouteAgentJobsCreate, "POST", "/v2/agent/" + DemoProjectID + "/job", `{"prompt":"x"}`, "id", func() int { return len(h.srv.JobIDs(DemoProjectID)) }},
		{RouteDeploymentsTrigger, "POST", "/v1/project/update/" + DemoProjectID, "", "statusId", func() int { return len(h.srv.DeploymentIDs(DemoProjectID)) }},
		{RouteDeploymentsPreview, "POST", "/v1/project/preview/" + DemoProjectID, `{"branch":"docs/x"}`, "statusId", func() int { return len(h.srv.DeploymentIDs(DemoProjectID)) }},
		{RouteStaticExportsStart, "POST", "/v1/static-export/jobs", `{"domain":"docs.example.com"}`, "jobId", func() int { return len(h.srv.StaticExportIDs()) }},
	} {
		h.srv.ClearFaults()
		h.srv.InjectFault(Fault{Route: tt.route, Kind: FaultUnreadableID, Text: "st 1\u202e"})
		before := tt.made()
		status, _, got := h.call(tt.method, tt.path, tt.body)
		if status/100 != 2 || got[tt.field] != "st 1\u202e" || tt.made() != before+1 {
			t.Errorf("%s: %d %v, %d made", tt.route, status, got, tt.made()-before)
		}
	}
	h.srv.ClearFaults()
	h.srv.CreateJob(DemoProjectID, "another")
	h.srv.InjectFault(Fault{Route: RouteAgentJobsSessions, Kind: FaultUnreadableID})
	_, _, list := h.call("GET", "/v1/agent/"+DemoProjectID+"/jobs", "")
	rows := list["allSessions"].([]any)                                                                                               //nolint:forcetypeassert // the listing's shape
	if rows[0].(map[string]any)["sessionId"] != DefaultUnreadableID || rows[1].(map[string]any)["sessionId"] == DefaultUnreadableID { //nolint:forcetypeassert // rows are objects
		t.Errorf("rows %v", rows)
	}
	// Field names another id; an answer without it is unchanged.
	h.srv.ClearFaults()
	h.srv.InjectFault(Fault{Kind: FaultUnreadableID, Field: "nowhere"})
	if _, _, got := h.call("POST", "/v2/agent/"+DemoProjectID+"/job", `{"prompt":"x"}`); got["id"] == DefaultUnreadableID || got["nowhere"] != nil {
		t.Errorf("changed %v", got)
	}
}

// An echoed secret is the link's signature in a bundle answer, the
// request's key in any other.
func TestFaultEchoSecret_theExchangesOwnSecret(t *testing.T) {
	h := newHarness(t, Config{})
	id := h.startExport(`{"domain":"docs.example.com"}`)
	h.clk.Advance(time.Hour)
	h.srv.InjectFault(Fault{Kind: FaultEchoSecret})
	_, _, bundle := h.call("POST", "/v1/static-export/jobs/"+id+"/bundle", "")
	u, err := url.Parse(bundle["bundleUrl"].(string)) //nolint:forcetypeassert // a bundle has a link
	sig := u.Query().Get("X-Amz-Signature")
	if err != nil || len(sig) < 16 || !strings.HasSuffix(bundle["expiresAt"].(string), " "+sig) || bundle["jobId"] != id { //nolint:forcetypeassert // and expiresAt
		t.Errorf("bundle %v", bundle)
	}
	_, _, job := h.call("GET", "/v1/static-export/jobs/"+id, "")
	if !strings.HasSuffix(job["createdAt"].(string), " "+DemoAPIKey) { //nolint:forcetypeassert // an export has createdAt
		t.Errorf("export %v", job)
	}
	h.srv.ClearFaults()
	h.srv.InjectFault(Fault{Kind: FaultEchoSecret, Field: "jobId"})
	_, _, bundle = h.call("POST", "/v1/static-export/jobs/"+id+"/bundle", "")
	u, _ = url.Parse(bundle["bundleUrl"].(string)) //nolint:forcetypeassert // a bundle has a link
	if bundle["jobId"] != id+" "+u.Query().Get("X-Amz-Signature") {
		t.Errorf("bundle %v", bundle)
	}
	raw, _ := json.Marshal(bundle)
	if strings.Contains(string(raw), DemoAPIKey) {
		t.Errorf("a bundle answer echoed the key: %s", raw)
	}
}

// The endless faults end when the client hangs up: the fake frees the
// request (its handler returns) instead of writing for ever.
func TestHostileFaults_endWhenTheClientHangsUp(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			kinds := []FaultKind{FaultEndlessEvent, FaultEmptyDeltas, FaultEndlessBody, FaultTrickle}
			f := New(Config{})
			base, c := tr.open(t, f)
			for i, k := range kinds {
				f.ClearFaults()
				f.InjectFault(Fault{Kind: k, Route: RouteAssistantStream, Latency: time.Millisecond})
				ctx, cancel := context.WithCancel(context.Background())
				req, _ := http.NewRequestWithContext(ctx, "POST", base+"/discovery/v2/assistant/"+DemoDomain+"/message", strings.NewReader(askBody))
				req.Header.Set("Authorization", "Bearer "+DemoAssistantKey)
				resp, err := c.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				_, _ = resp.Body.Read(make([]byte, 64))
				cancel()
				_ = resp.Body.Close()
				deadline := time.Now().Add(10 * time.Second)
				for log := f.RequestLog(); ; log = f.RequestLog() {
					if len(log) == i+1 && log[i].Fault == k && log[i].Status == 200 && handlerDone(f, i) {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("%s: the handler still runs: %+v", k, log)
					}
					time.Sleep(time.Millisecond)
				}
			}
		})
	}
}

// handlerDone reports whether the i-th request's handler has returned.
func handlerDone(f *Fake, i int) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.log[i].done
}

func clipped(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
