package fakehostile

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// transports reach a fake through a socket and in process: each hostile
// answer must look the same through both.
var transports = []struct {
	name string
	open func(t *testing.T, f *mintlifytest.Fake) (base string, c *http.Client)
}{
	{"socket", func(t *testing.T, f *mintlifytest.Fake) (string, *http.Client) {
		ts := httptest.NewServer(f)
		t.Cleanup(func() { f.Stop(); ts.Close() })
		return ts.URL, &http.Client{Transport: &http.Transport{}}
	}},
	{"in-process", func(_ *testing.T, f *mintlifytest.Fake) (string, *http.Client) {
		return "http://mintlify.test", f.Client()
	}},
}

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

// call sends a request with the demo key to the fake, in process, and
// decodes its JSON answer.
func call(t *testing.T, f *mintlifytest.Fake, method, path, body string) (int, map[string]any) {
	t.Helper()
	resp := open(t, f.Client(), method, "http://mintlify.test"+path, mintlifytest.DemoAPIKey, body)
	var got map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&got)
	return resp.StatusCode, got
}

// clocked is a fake on a manual clock.
func clocked(cfg mintlifytest.Config) (*mintlifytest.Fake, *mintlifytest.ManualClock) {
	clk := mintlifytest.NewManualClock(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC))
	cfg.Clock = clk
	return mintlifytest.New(cfg), clk
}

const askBody = `{"fp":"anonymous","messages":[{"id":"m1","role":"user","content":"install","parts":[{"type":"text","text":"install"}]}]}`

const (
	askPath   = "/discovery/v2/assistant/" + mintlifytest.DemoDomain + "/message"
	askPathV1 = "/discovery/v1/assistant/" + mintlifytest.DemoDomain + "/message"
)

// An endless event is data lines that never end the event: a reader that
// waits for the blank line waits for ever, and one that joins the lines
// grows without end. The message is not answered (no credits).
func TestEndlessEvent_dataLinesWithoutEnd(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			f := mintlifytest.New(mintlifytest.Config{Faults: []mintlifytest.Fault{
				Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStream, Kind: EndlessEvent}),
				Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStreamV1, Kind: EndlessEvent})}})
			base, c := tr.open(t, f)
			resp := open(t, c, "POST", base+askPath, mintlifytest.DemoAssistantKey, askBody)
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
			v1 := open(t, c, "POST", base+askPathV1, mintlifytest.DemoAssistantKey, askBody)
			head := make([]byte, 2<<20)
			if _, err := io.ReadFull(v1.Body, head); err != nil || !strings.HasPrefix(string(head), `0:"xxxx`) || strings.ContainsRune(string(head), '\n') {
				t.Fatalf("v1: %q %v", clipped(string(head)), err)
			}
			if n := len(f.AssistantAnswers()); n != 0 {
				t.Errorf("%d messages answered", n)
			}
			if log := f.RequestLog(); log[0].Fault != EndlessEvent {
				t.Errorf("logged as %q", log[0].Fault)
			}
		})
	}
}

// A flood of empty deltas is parts that carry nothing, without end; Body
// floods with another part.
func TestEmptyDeltas_partsThatCarryNothing(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			f := mintlifytest.New(mintlifytest.Config{Faults: []mintlifytest.Fault{
				Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStream, Kind: EmptyDeltas, Requests: []int{1}}),
				Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStream, Kind: EmptyDeltas, Body: `{"type":"start-step"}`, Requests: []int{2}}),
				Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStreamV1, Kind: EmptyDeltas})}})
			base, c := tr.open(t, f)
			for i, want := range []string{`{"type":"text-delta","id":"text_1","delta":""}`, `{"type":"start-step"}`} {
				resp := open(t, c, "POST", base+askPath, mintlifytest.DemoAssistantKey, askBody)
				lines := readLines(t, bufio.NewReader(resp.Body), 20000)
				if lines[0] != `data: {"type":"start","messageId":"msg_flood"}` || lines[2] != `data: {"type":"text-start","id":"text_1"}` {
					t.Fatalf("%d: starts %q", i, lines[:4])
				}
				for j := 4; j < len(lines); j += 2 {
					if lines[j] != "data: "+want || lines[j+1] != "" {
						t.Fatalf("%d: line %d: %q %q", i, j, lines[j], lines[j+1])
					}
				}
			}
			v1 := open(t, c, "POST", base+askPathV1, mintlifytest.DemoAssistantKey, askBody)
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
// it looks like an archive. Stopping the fake breaks it rather than end
// it cleanly.
func TestEndlessBody_noSizeAndNoEnd(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			f := mintlifytest.New(mintlifytest.Config{Faults: []mintlifytest.Fault{
				Fault(mintlifytest.Fault{Route: mintlifytest.RouteStaticExportsDownloadBundle, Kind: EndlessBody}),
				Fault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: EndlessBody})}})
			base, c := tr.open(t, f)
			resp := open(t, c, "GET", base+"/_bundles/se_1/bundle.tar.gz?X-Amz-Signature=x", "", "")
			if resp.StatusCode != 200 || resp.ContentLength != -1 || resp.Header.Get("Content-Type") != "application/gzip" {
				t.Fatalf("%d, length %d, %v", resp.StatusCode, resp.ContentLength, resp.Header)
			}
			head := make([]byte, 3<<20)
			if _, err := io.ReadFull(resp.Body, head); err != nil || string(head[:len(gzipHeader)]) != gzipHeader || strings.Trim(string(head[len(gzipHeader):]), "\x00") != "" {
				t.Fatalf("download %q: %v", clipped(string(head)), err)
			}
			job := open(t, c, "GET", base+"/v2/agent/"+mintlifytest.DemoProjectID+"/job/x", mintlifytest.DemoAPIKey, "")
			if _, err := io.ReadFull(job.Body, head); err != nil || !strings.HasPrefix(string(head), `{"data":"xxx`) || job.ContentLength != -1 {
				t.Fatalf("job %q: %v", clipped(string(head)), err)
			}
			f.Stop()
			if _, err := io.Copy(io.Discard, job.Body); err == nil {
				t.Error("an endless body a stopped fake cut ended cleanly")
			}
		})
	}
}

// A trickle serves the request and sends its answer a byte at a time: the
// whole answer, slowly. Stopping the fake cuts it.
func TestTrickle_oneByteAtATime(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			const delay = time.Millisecond
			f := mintlifytest.New(mintlifytest.Config{Faults: []mintlifytest.Fault{
				Fault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsCreate, Kind: Trickle, Latency: delay}),
				Fault(mintlifytest.Fault{Route: mintlifytest.RouteAssistantStream, Kind: Trickle, Latency: delay})}})
			base, c := tr.open(t, f)
			start := time.Now()
			resp := open(t, c, "POST", base+"/v2/agent/"+mintlifytest.DemoProjectID+"/job", mintlifytest.DemoAPIKey, `{"prompt":"x"}`)
			got, err := io.ReadAll(resp.Body)
			took := time.Since(start)
			whole, _ := f.Job(mintlifytest.DemoProjectID, f.JobIDs(mintlifytest.DemoProjectID)[0])
			if err != nil || string(got) != string(whole)+"\n" || resp.ContentLength != int64(len(got)) {
				t.Fatalf("%q (length %d) %v", got, resp.ContentLength, err)
			}
			if least := time.Duration(len(got)-1) * delay; took < least {
				t.Errorf("%d bytes in %s: faster than a byte per %s", len(got), took, delay)
			}
			// The first byte comes at once, whatever the delay.
			slow := mintlifytest.New(mintlifytest.Config{Faults: []mintlifytest.Fault{
				Fault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsGet, Kind: Trickle, Latency: time.Hour})}})
			slowBase, slowClient := tr.open(t, slow)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "GET", slowBase+"/v2/agent/"+mintlifytest.DemoProjectID+"/job/x", nil)
			req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAPIKey)
			if resp, err := slowClient.Do(req); err != nil {
				t.Errorf("no headers before the first delay: %v", err)
			} else if first := make([]byte, 1); resp.ContentLength <= 1 {
				t.Errorf("length %d", resp.ContentLength)
			} else if _, err := io.ReadFull(resp.Body, first); err != nil || first[0] != '{' {
				t.Errorf("first byte %q: %v", first, err)
			}
			cancel()
			// A stream trickles too, and stopping cuts it.
			stream := open(t, c, "POST", base+askPath, mintlifytest.DemoAssistantKey, askBody)
			r := bufio.NewReader(stream.Body)
			if line, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(line, `data: {"type":"start"`) {
				t.Fatalf("%q %v", line, err)
			}
			f.Stop()
			if _, err := io.Copy(io.Discard, r); err == nil {
				t.Error("a trickle a stopped fake cut ended cleanly")
			}
		})
	}
}

// Control text lands in the server text of a served answer: a failed
// deployment's summary and every log line, an export's error, a listed
// job's title, an error body's message.
func TestControlText_inEveryServerText(t *testing.T) {
	f, clk := clocked(mintlifytest.Config{DefaultDeployment: mintlifytest.DeploymentScript{Outcome: mintlifytest.OutcomeFailed}})
	f.InjectFault(Fault(mintlifytest.Fault{Kind: ControlText}))
	id := f.TriggerDeployment(mintlifytest.DemoProjectID)
	clk.Advance(time.Hour)
	_, got := call(t, f, "GET", "/v1/project/update-status/"+id, "")
	if s, _ := got["summary"].(string); !strings.HasSuffix(s, DefaultControlText) {
		t.Errorf("summary %q", got["summary"])
	}
	logs, _ := got["logs"].([]any)
	for _, l := range logs {
		if s, _ := l.(string); !strings.HasSuffix(s, DefaultControlText) {
			t.Errorf("log line %q", l)
		}
	}
	if created, _ := got["createdAt"].(string); len(logs) == 0 || got["_id"] != id || strings.Contains(created, "\x1b") {
		t.Errorf("data changed: %v", got)
	}
	f.CreateJob(mintlifytest.DemoProjectID, "Document the CLI")
	_, list := call(t, f, "GET", "/v1/agent/"+mintlifytest.DemoProjectID+"/jobs", "")
	rows, _ := list["allSessions"].([]any)
	if row, _ := rows[0].(map[string]any); !strings.HasSuffix(row["title"].(string), DefaultControlText) { //nolint:forcetypeassert // a row has a title
		t.Errorf("title %q", row["title"])
	}
	if _, missing := call(t, f, "GET", "/v2/agent/"+mintlifytest.DemoProjectID+"/job/nope", ""); !strings.HasSuffix(missing["error"].(string), DefaultControlText) { //nolint:forcetypeassert // an error body
		t.Errorf("error %q", missing["error"])
	}
	f.ClearFaults()
	f.InjectFault(Fault(mintlifytest.Fault{Kind: ControlText, Text: "\r"}))
	_, export := call(t, f, "POST", "/v1/static-export/jobs", `{"domain":"docs.example.com","version":"[fake:failed]"}`)
	exportID, _ := export["jobId"].(string)
	clk.Advance(time.Hour)
	_, export = call(t, f, "GET", "/v1/static-export/jobs/"+exportID, "")
	if e, _ := export["error"].(string); !strings.HasSuffix(e, "\r") || e == "\r" {
		t.Errorf("export error %q", export["error"])
	}
	// An answer that is not JSON passes as it is: an archive.
	link := bundleOf(t, f, clk)
	f.ClearFaults()
	f.InjectFault(Fault(mintlifytest.Fault{Kind: ControlText}))
	resp := open(t, f.Client(), "GET", link, "", "")
	if body, err := io.ReadAll(resp.Body); err != nil || resp.StatusCode != 200 || int64(len(body)) != resp.ContentLength || strings.Contains(string(body), DefaultControlText) {
		t.Errorf("archive: %d, %d of %d bytes, %v", resp.StatusCode, len(body), resp.ContentLength, err)
	}
}

// bundleOf makes an export, waits for it on the clock and returns its
// bundle link.
func bundleOf(t *testing.T, f *mintlifytest.Fake, clk *mintlifytest.ManualClock) string {
	t.Helper()
	_, export := call(t, f, "POST", "/v1/static-export/jobs", `{"domain":"docs.example.com"}`)
	id, _ := export["jobId"].(string)
	clk.Advance(time.Hour)
	_, bundle := call(t, f, "POST", "/v1/static-export/jobs/"+id+"/bundle", "")
	link, _ := bundle["bundleUrl"].(string)
	return link
}

// An unreadable id is answered for an object that was made: the fake has
// it under its own id.
func TestUnreadableID_afterTheWorkIsDone(t *testing.T) {
	f := mintlifytest.New(mintlifytest.Config{})
	for _, tt := range []struct {
		route, method, path, body, field string
		made                             func() int
	}{
		{mintlifytest.RouteAgentJobsCreate, "POST", "/v2/agent/" + mintlifytest.DemoProjectID + "/job", `{"prompt":"x"}`, "id",
			func() int { return len(f.JobIDs(mintlifytest.DemoProjectID)) }},
		{mintlifytest.RouteDeploymentsTrigger, "POST", "/v1/project/update/" + mintlifytest.DemoProjectID, "", "statusId",
			func() int { return len(f.DeploymentIDs(mintlifytest.DemoProjectID)) }},
		{mintlifytest.RouteDeploymentsPreview, "POST", "/v1/project/preview/" + mintlifytest.DemoProjectID, `{"branch":"docs/x"}`, "statusId",
			func() int { return len(f.DeploymentIDs(mintlifytest.DemoProjectID)) }},
		{mintlifytest.RouteStaticExportsStart, "POST", "/v1/static-export/jobs", `{"domain":"docs.example.com"}`, "jobId",
			func() int { return len(f.StaticExportIDs()) }},
	} {
		f.ClearFaults()
		f.InjectFault(Fault(mintlifytest.Fault{Route: tt.route, Kind: UnreadableID, Text: "st 1\u202e"}))
		before := tt.made()
		status, got := call(t, f, tt.method, tt.path, tt.body)
		if status/100 != 2 || got[tt.field] != "st 1\u202e" || tt.made() != before+1 {
			t.Errorf("%s: %d %v, %d made", tt.route, status, got, tt.made()-before)
		}
	}
	f.ClearFaults()
	f.CreateJob(mintlifytest.DemoProjectID, "another")
	f.InjectFault(Fault(mintlifytest.Fault{Route: mintlifytest.RouteAgentJobsSessions, Kind: UnreadableID}))
	_, list := call(t, f, "GET", "/v1/agent/"+mintlifytest.DemoProjectID+"/jobs", "")
	var rows []struct{ SessionID string }
	raw, _ := json.Marshal(list["allSessions"])
	if json.Unmarshal(raw, &rows) != nil || len(rows) < 2 || rows[0].SessionID != DefaultUnreadableID || rows[1].SessionID == DefaultUnreadableID {
		t.Errorf("rows %v", list["allSessions"])
	}
	// Field names another id; an answer without it is unchanged, and so
	// is a refusal.
	f.ClearFaults()
	f.InjectFault(Fault(mintlifytest.Fault{Kind: UnreadableID, Field: "nowhere"}))
	if _, got := call(t, f, "POST", "/v2/agent/"+mintlifytest.DemoProjectID+"/job", `{"prompt":"x"}`); got["id"] == DefaultUnreadableID || got["nowhere"] != nil {
		t.Errorf("changed %v", got)
	}
	f.ClearFaults()
	f.InjectFault(Fault(mintlifytest.Fault{Kind: UnreadableID, Field: "error"}))
	if status, got := call(t, f, "POST", "/v2/agent/"+mintlifytest.DemoProjectID+"/job", `{}`); status != 400 || got["error"] == DefaultUnreadableID {
		t.Errorf("a refusal changed: %d %v", status, got)
	}
}

// An echoed secret is the link's signature in a bundle answer, the
// request's key in any other.
func TestEchoSecret_theExchangesOwnSecret(t *testing.T) {
	f, clk := clocked(mintlifytest.Config{})
	_, export := call(t, f, "POST", "/v1/static-export/jobs", `{"domain":"docs.example.com"}`)
	id, _ := export["jobId"].(string)
	clk.Advance(time.Hour)
	f.InjectFault(Fault(mintlifytest.Fault{Kind: EchoSecret}))
	_, bundle := call(t, f, "POST", "/v1/static-export/jobs/"+id+"/bundle", "")
	link, _ := bundle["bundleUrl"].(string)
	u, err := url.Parse(link)
	sig := u.Query().Get("X-Amz-Signature")
	if expires, _ := bundle["expiresAt"].(string); err != nil || len(sig) < 16 || !strings.HasSuffix(expires, " "+sig) || bundle["jobId"] != id {
		t.Errorf("bundle %v", bundle)
	}
	if _, job := call(t, f, "GET", "/v1/static-export/jobs/"+id, ""); !strings.HasSuffix(job["createdAt"].(string), " "+mintlifytest.DemoAPIKey) { //nolint:forcetypeassert // an export has createdAt
		t.Errorf("export %v", job)
	}
	f.ClearFaults()
	f.InjectFault(Fault(mintlifytest.Fault{Kind: EchoSecret, Field: "jobId"}))
	_, bundle = call(t, f, "POST", "/v1/static-export/jobs/"+id+"/bundle", "")
	link, _ = bundle["bundleUrl"].(string)
	u, _ = url.Parse(link)
	if bundle["jobId"] != id+" "+u.Query().Get("X-Amz-Signature") {
		t.Errorf("bundle %v", bundle)
	}
	raw, _ := json.Marshal(bundle)
	if strings.Contains(string(raw), mintlifytest.DemoAPIKey) {
		t.Errorf("a bundle answer echoed the key: %s", raw)
	}
}

// The endless faults end when the client hangs up: the fake frees the
// request (its handler returns) instead of writing for ever.
func TestHostile_endsWhenTheClientHangsUp(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr.name, func(t *testing.T) {
			ended := make(chan mintlifytest.LoggedRequest, 1)
			f := mintlifytest.New(mintlifytest.Config{OnRequest: func(r mintlifytest.LoggedRequest) { ended <- r }})
			base, c := tr.open(t, f)
			for _, k := range []mintlifytest.FaultKind{EndlessEvent, EmptyDeltas, EndlessBody, Trickle} {
				f.ClearFaults()
				f.InjectFault(Fault(mintlifytest.Fault{Kind: k, Route: mintlifytest.RouteAssistantStream, Latency: time.Millisecond}))
				ctx, cancel := context.WithCancel(context.Background())
				req, _ := http.NewRequestWithContext(ctx, "POST", base+askPath, strings.NewReader(askBody))
				req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAssistantKey)
				resp, err := c.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				_, _ = resp.Body.Read(make([]byte, 64))
				cancel()
				_ = resp.Body.Close()
				select {
				case r := <-ended:
					if r.Fault != k || r.Status != 200 {
						t.Errorf("%s: ended as %+v", k, r)
					}
				case <-time.After(10 * time.Second):
					t.Fatalf("%s: the handler still runs", k)
				}
			}
		})
	}
}

// Fault refuses a kind it does not play.
func TestFault_onlyHostileKinds(t *testing.T) {
	if Plays(mintlifytest.FaultRateLimit) || !Plays(Trickle) {
		t.Error("Plays is wrong")
	}
	defer func() {
		if recover() == nil {
			t.Error("no panic for a rate limit")
		}
	}()
	Fault(mintlifytest.Fault{Kind: mintlifytest.FaultRateLimit})
}

func clipped(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
