package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
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
	if bundle.Query != "X-Amz-Expires=900&X-Amz-Signature=%5BREDACTED%5D" || bundle.Status != 403 {
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
