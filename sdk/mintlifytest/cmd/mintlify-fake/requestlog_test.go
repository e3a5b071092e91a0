package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// send sends a request with the demo key, and a body when it is not "".
func send(t *testing.T, method, link, body string) int {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, link, r)
	req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAPIKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	return resp.StatusCode
}

// readLog waits for n lines in the log file and decodes them.
func readLog(t *testing.T, name string, n int) []logLine {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		data, _ := os.ReadFile(name)
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		if len(data) > 0 && len(lines) >= n {
			out := make([]logLine, len(lines))
			for i, l := range lines {
				dec := json.NewDecoder(strings.NewReader(l))
				dec.DisallowUnknownFields()
				if err := dec.Decode(&out[i]); err != nil {
					t.Fatalf("line %d %q: %v", i, l, err)
				}
			}
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d lines of %d: %q", len(lines), n, data)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// -log writes one JSON line per request: what was asked, how it was
// answered, the body of a POST; never a key or a link's signature.
func TestLog_oneJSONLinePerRequest(t *testing.T) {
	name := filepath.Join(t.TempDir(), "requests.jsonl")
	o := defaults()
	o.logFile = name
	o.faults = faultFlags{{Route: mintlifytest.RouteAgentJobsGet, Kind: mintlifytest.FaultServerError, Status: 503}}
	env, _ := startRun(t, o)
	base := strings.TrimPrefix(strings.Split(env, "\n")[0], "MINTLIFY_BASE_URL=")
	prompt := `{"prompt":"Document the key ` + mintlifytest.DemoAPIKey + ` and mint_dsc_other_key"}`
	if s := send(t, "POST", base+"/v2/agent/demo-project/job", prompt); s != 201 {
		t.Fatalf("create: %d", s)
	}
	send(t, "GET", base+"/v2/agent/demo-project/job/x", "")
	send(t, "GET", base+"/v1/analytics/demo-project/visitors?limit=5&dateFrom=2026-10-01", "")
	send(t, "GET", base+"/_bundles/se_1/bundle.tar.gz?X-Amz-Signature=0123456789abcdef0123&X-Amz-Expires=900", "")
	lines := readLog(t, name, 4)
	if len(lines) != 4 {
		t.Fatalf("%d lines: %+v", len(lines), lines)
	}
	create, get, visitors, bundle := lines[0], lines[1], lines[2], lines[3]
	if create.Method != "POST" || create.Path != "/v2/agent/demo-project/job" || create.Route != mintlifytest.RouteAgentJobsCreate || create.Status != 201 ||
		create.RequestID != "req_0000001" || create.Body != `{"prompt":"Document the key [REDACTED] and [REDACTED]"}` {
		t.Errorf("create %+v", create)
	}
	if _, err := time.Parse(time.RFC3339Nano, create.Time); err != nil {
		t.Errorf("time %q: %v", create.Time, err)
	}
	if get.Status != 503 || get.Fault != mintlifytest.FaultServerError || get.Body != "" || get.RequestID != "req_0000002" {
		t.Errorf("get %+v", get)
	}
	if visitors.Query != "limit=5&dateFrom=2026-10-01" || visitors.Route != mintlifytest.RouteAnalyticsVisitors || visitors.Status != 200 {
		t.Errorf("visitors %+v", visitors)
	}
	if bundle.Query != "X-Amz-Signature=[REDACTED]&X-Amz-Expires=900" || bundle.Status != 403 {
		t.Errorf("bundle %+v", bundle)
	}
	data, _ := os.ReadFile(name)
	for _, secret := range []string{mintlifytest.DemoAPIKey, "mint_dsc_other_key", "0123456789abcdef0123", "Authorization", "Bearer"} {
		if strings.Contains(string(data), secret) {
			t.Errorf("the log holds %q:\n%s", secret, data)
		}
	}
	if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v: %v", fi.Mode(), err)
	}
}

// -log - writes to stderr.
func TestLog_toStderr(t *testing.T) {
	o := defaults()
	o.logFile = "-"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	envR, envW := io.Pipe()
	infoR, infoW := io.Pipe()
	go func() { _ = run(ctx, o, envW, infoW) }()
	env, _ := bufio.NewReader(envR).ReadString('\n')
	base := strings.TrimSpace(strings.TrimPrefix(env, "MINTLIFY_BASE_URL="))
	go func() { _, _ = io.Copy(io.Discard, envR) }()
	lines := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(infoR)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	if first := <-lines; !strings.HasPrefix(first, "mintlify-fake: ") {
		t.Fatalf("%q", first)
	}
	send(t, "GET", base+"/v2/agent/demo-project/job/x", "")
	line := <-lines
	var got logLine
	if err := json.Unmarshal([]byte(line), &got); err != nil || got.Status != 404 || got.Route != mintlifytest.RouteAgentJobsGet {
		t.Errorf("%q: %v", line, err)
	}
}

// -log writes only a regular file: a link, a FIFO or a directory in its
// place is refused before the fake starts.
func TestLog_onlyARegularFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	link := filepath.Join(dir, "link")
	fifo := filepath.Join(dir, "fifo")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{link, fifo, dir} {
		o := defaults()
		o.logFile = name
		err := run(context.Background(), o, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := os.Lstat(target); err == nil {
		t.Error("the link's target was created")
	}
	// An existing log is appended to.
	existing := filepath.Join(dir, "old.jsonl")
	if err := os.WriteFile(existing, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w, closeLog, err := openLog(existing, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	(&requestLog{w: w}).write(mintlifytest.LoggedRequest{Method: "GET", Path: "/x", Status: 200})
	_ = closeLog()
	if data, _ := os.ReadFile(existing); !strings.HasPrefix(string(data), "{}\n{\"time\"") {
		t.Errorf("%q", data)
	}
}

// logOf starts the command with -log and returns its base URL and the
// log's path.
func logOf(t *testing.T) (base, name string) {
	t.Helper()
	name = filepath.Join(t.TempDir(), "requests.jsonl")
	o := defaults()
	o.logFile = name
	o.export = mintlifytest.ExportScript{RunFor: time.Millisecond, Pages: 1}
	env, _ := startRun(t, o)
	return strings.TrimPrefix(strings.Split(env, "\n")[0], "MINTLIFY_BASE_URL="), name
}

// bundleLink starts an export, waits for it and returns its bundle link
// and the link's signature.
func bundleLink(t *testing.T, base string) (link, sig string) {
	t.Helper()
	id, _ := callJSON(t, "POST", base+"/v1/static-export/jobs", `{"domain":"docs.example.com"}`)["jobId"].(string)
	time.Sleep(20 * time.Millisecond)
	link, _ = callJSON(t, "POST", base+"/v1/static-export/jobs/"+id+"/bundle", "")["bundleUrl"].(string)
	u, err := url.Parse(link)
	if err != nil || u.Query().Get("X-Amz-Signature") == "" {
		t.Fatalf("bundle link %q: %v", link, err)
	}
	return link, u.Query().Get("X-Amz-Signature")
}

// A bundle link whose query also holds a pair the server cannot read (a
// bad escape, a semicolon) still works: the fake skips the pair. Its
// signature is never written, whatever else the query holds.
func TestLog_neverALinksSignatureBesideAnUnreadablePair(t *testing.T) {
	base, name := logOf(t)
	link, sig := bundleLink(t, base)
	for _, tail := range []string{"&x=%zz", "&a=1;b=2", "&a=%"} { // &x=%zz: the log fell back to keys alone
		if got := send(t, "GET", link+tail, ""); got != 200 {
			t.Errorf("%s: %d, want 200: the fake skips the pair", tail, got)
		}
	}
	// The signature's own pair unreadable: refused, and not written.
	send(t, "GET", strings.Replace(link, "X-Amz-Signature=", "a=1;X-Amz-Signature=", 1), "")
	send(t, "GET", strings.Replace(link, "X-Amz-Signature=", "X-Amz-Signature=%zz", 1), "")
	lines := readLog(t, name, 7)
	data, _ := os.ReadFile(name)
	if strings.Contains(string(data), sig) {
		t.Errorf("the log holds the signature %s:\n%s", sig, data)
	}
	if q := lines[2].Query; !strings.Contains(q, "&X-Amz-Signature=[REDACTED]&") || !strings.HasSuffix(q, "&x=%zz") {
		t.Errorf("query %q: want the signature redacted and the pair the server skipped as sent", q)
	}
}

// A key written with an escaped character (%5F for its _, in a path or a
// query; \u005f in a JSON body) is a key all the same: the server reads
// it decoded. The log never writes it.
func TestLog_neverAnEscapedKey(t *testing.T) {
	base, name := logOf(t)
	const tail = "7f3a9c2e5b1d4e6f"
	send(t, "GET", base+"/v2/agent/mint%5Fleak_"+tail+"/job/x", "")
	send(t, "GET", base+"/v1/analytics/demo-project/visitors?dateFrom=2026-10-01&note=mint%5Fleak_"+tail, "")
	send(t, "POST", base+"/v2/agent/demo-project/job", `{"prompt":"use mint\u005fleak_`+tail+` please"}`)
	lines := readLog(t, name, 3)
	data, _ := os.ReadFile(name)
	if strings.Contains(string(data), tail) {
		t.Errorf("the log holds the key:\n%s", data)
	}
	if lines[2].Body != `{"prompt":"use [REDACTED] please"}` || lines[2].Status != 201 {
		t.Errorf("body %q (%d): want the prompt, its key redacted", lines[2].Body, lines[2].Status)
	}
}

// The log holds against other spellings: a key escaped twice or in lower
// case hex, in a header, in a JSON key, beside a duplicate key or after
// the JSON; a link's signature in a prompt, under an escaped name or
// after a # (sent raw: clients strip fragments).
func TestLog_neverASecretHowever(t *testing.T) {
	base, name := logOf(t)
	link, sig := bundleLink(t, base)
	const tail = "7f3a9c2e5b1d4e6f"
	key := "mint_leak_" + tail
	requests := []struct{ method, target, body string }{
		{"GET", "/v2/agent/mint%255Fleak_" + tail + "/job/x", ""},                         // escaped twice
		{"GET", "/v1/analytics/demo-project/visitors?note=mint%5fleak_" + tail, ""},       // lower case hex
		{"GET", "/v1/analytics/demo-project/visitors?note=mint%255fleak%255F" + tail, ""}, // twice, both cases
		{"GET", "/v1/analytics/demo-project/visitors?a=mint&b=_leak_" + tail, ""},         // split: the server reads no key
		{"POST", "/v2/agent/demo-project/job", `{"prompt":"x","mint\u005fleak_` + tail + `":1}`},
		{"POST", "/v2/agent/demo-project/job", `{"prompt":"mint\u005fleak_` + tail + `","prompt":"x"}`},
		{"POST", "/v2/agent/demo-project/job", `{"prompt":"x"} mint\u005fleak_` + tail},
		{"POST", "/v2/agent/demo-project/job", `{"prompt":"see https://x.test/?k=mint%255Fleak_` + tail + `"}`},
		{"POST", "/v2/agent/demo-project/job", `{"prompt":"fetch ` + link + `"}`},
		{"GET", strings.TrimPrefix(strings.Replace(link, "X-Amz-Signature=", "X-Amz-Signatur%65=", 1), base), ""},
		{"GET", strings.TrimPrefix(strings.Replace(link, "&X-Amz-Signature=", "#X-Amz-Signature=", 1), base), ""},
	}
	for _, r := range requests {
		if strings.Contains(r.target, "#") {
			sendRaw(t, base, r.method+" "+r.target+" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
			continue
		}
		req, _ := http.NewRequest(r.method, base+r.target, strings.NewReader(r.body))
		req.Header.Set("Authorization", "Bearer "+mintlifytest.DemoAPIKey)
		req.Header.Set("User-Agent", "agent "+key)
		req.Header.Set("X-Api-Key", key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
	}
	lines := readLog(t, name, 2+len(requests))
	for i, l := range lines {
		raw, _ := json.Marshal(l)
		if strings.HasPrefix(l.Query, "a=mint") { // split: no key to the server, written as sent
			if l.Query != "a=mint&b=_leak_"+tail {
				t.Errorf("split: %q", l.Query)
			}
			continue
		}
		for _, secret := range []string{tail, sig} {
			if strings.Contains(string(raw), secret) {
				t.Errorf("line %d holds %s: %s", i, secret, raw)
			}
		}
	}
}

// sendRaw writes a request as it is, for what clients will not send.
func sendRaw(t *testing.T, base, request string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, request); err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, conn)
}
