package sdk

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func TestValidateStaticExportDomain(t *testing.T) {
	checkAccepted(t, ValidateStaticExportDomain, "docs.example.com", "acme.mintlify.app", "DOCS.Example.com", "a-b.c1.io", "xn--bcher-kva.example", strings.Repeat("a", 63)+".io",
		"az.AZ.09.example", // each end of each range of characters
		strings.Repeat(strings.Repeat("a", 63)+".", 3)+strings.Repeat("b", 61)) // 253 characters
	checkRefused(t, ValidateStaticExportDomain, "domain", map[string]string{
		"":                                     "domain is required: the deployment's hostname",
		"   ":                                  "domain is required",
		"https://docs.example.com":             `must be a bare hostname, without a scheme, port, path or trailing slash: write "docs.example.com"`,
		"https://docs.example.com/docs/":       `write "docs.example.com"`,
		"docs.example.com/":                    `write "docs.example.com"`,
		"docs.example.com/docs":                `write "docs.example.com"`,
		"docs.example.com:443":                 `write "docs.example.com"`,
		"docs.example.com.":                    `write "docs.example.com"`,
		"docs.example.com?x=1":                 `write "docs.example.com"`,
		"docs example.com":                     "must not contain white space",
		"docs.\x00example.com":                 "must not contain control characters",
		"docs.bücher.de":                       "must be ASCII: write an internationalized domain in its xn-- (punycode) form",
		"docs_x.example.com":                   "letters, digits, hyphens and dots only",
		"user@docs.example.com":                "letters, digits, hyphens and dots only",
		".docs.example.com":                    "has an empty label",
		"docs..example.com":                    "has an empty label",
		"-docs.example.com":                    "starts or ends with a hyphen",
		"docs-.example.com":                    "starts or ends with a hyphen",
		strings.Repeat("a", 64) + ".io":        "has a label longer than 63 characters",
		strings.Repeat("abc.", 64) + "io":      "is longer than 253 characters",
		"localhost":                            "must be a full hostname, such as docs.example.com",
		"https://":                             "letters, digits, hyphens and dots only",
		"docs.example.com:notaport/landing":    `write "docs.example.com"`,
		"https://user@docs.example.com:8443/x": `write "docs.example.com"`,
		"://docs.example.com":                  `write "docs.example.com"`,
		"https:///docs":                        "letters, digits, hyphens and dots only", // no host to suggest
	})
}

func TestValidateStaticExportPath(t *testing.T) {
	checkAccepted(t, ValidateStaticExportPath, "index", "guides/getting-started", "api-reference/introduction", "a.b/c", "v2/api/users.list")
	checkRefused(t, ValidateStaticExportPath, "", map[string]string{
		"":                     "must not be empty",
		" ":                    "must not be empty",
		"/guides/x":            `must not start or end with a slash: write "guides/x"`,
		"guides/x/":            `write "guides/x"`,
		"/":                    "must be a page path such as index",
		"guides//x":            "empty segment",
		"guides/../x":          "must not hold a . or .. segment",
		"./x":                  "must not hold a . or .. segment",
		" guides/x":            "must not start or end with white space",
		"guides/x\n":           "control characters",
		"https://docs.x.io/a":  "not a URL",
		"guides/x?tab=1":       "without a query or fragment",
		"guides/x#section-two": "without a query or fragment",
	})
}

func TestStaticExportRequest_validate(t *testing.T) {
	for _, tt := range []struct {
		req  StaticExportRequest
		want string // "" valid
	}{
		{StaticExportRequest{Domain: "docs.example.com"}, ""},
		{StaticExportRequest{Domain: "docs.example.com", Version: "v2", Paths: []string{"index", "a/b"}}, ""},
		{StaticExportRequest{Domain: "docs.example.com", Version: " "}, `version " " must not be only white space`},
		{StaticExportRequest{Domain: "docs.example.com", Version: "v\t2"}, "version \"v\\t2\" must not contain control characters"},
		{StaticExportRequest{Domain: "docs.example.com", Paths: []string{"index", "/a"}}, `paths[1] "/a" must not start or end with a slash`},
		{StaticExportRequest{Domain: "docs.example.com", Paths: []string{"a", "b", "a"}}, `paths[2] "a" repeats paths[0]`},
		{StaticExportRequest{Domain: "http://docs.example.com"}, `domain "http://docs.example.com" must be a bare hostname`},
	} {
		err := tt.req.Validate()
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%+v: %v, want %q", tt.req, err, tt.want)
		}
	}
}

func TestStaticExports_invalidInputSendsNothing(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(202, exportJSON("se_1", "queued")))
	c := newTestClient(t, ts.URL, newClock())
	ctx := context.Background()
	for name, call := range map[string]func() error{
		"start": func() error {
			_, err := c.StaticExports.Start(ctx, StaticExportRequest{Domain: "https://docs.example.com"})
			return err
		},
		"get":    func() error { _, err := c.StaticExports.Get(ctx, "../x"); return err },
		"wait":   func() error { _, err := c.StaticExports.Wait(ctx, ""); return err },
		"bundle": func() error { _, err := c.StaticExports.CreateBundle(ctx, "a/b"); return err },
		"when":   func() error { _, err := c.StaticExports.CreateBundleWhenReady(ctx, ".."); return err },
		"download": func() error {
			_, err := c.StaticExports.DownloadBundle(ctx, "ftp://x.example.com/b?sig=0123456789", nil)
			return err
		},
	} {
		if err := call(); !IsValidation(err) {
			t.Errorf("%s: %v, want a validation error", name, err)
		}
	}
	if rec.count() != 0 {
		t.Errorf("%d requests for invalid input", rec.count())
	}
	var zero Client
	if _, err := zero.StaticExports.Start(ctx, StaticExportRequest{Domain: "docs.example.com"}); !errors.Is(err, ErrNotConfigured) {
		t.Errorf("zero client: %v", err)
	}
	if _, err := zero.StaticExports.DownloadBundle(ctx, "https://x.example.com/b", nil); !errors.Is(err, ErrNotConfigured) {
		t.Errorf("zero client download: %v", err)
	}
}

// exportJSON is a well-formed export job answer.
func exportJSON(id, status string) string {
	return fmt.Sprintf(`{"jobId":%q,"status":%q,"progress":42.5,"pageCount":128,"createdAt":"2026-11-21T12:00:00Z","updatedAt":"2026-11-21T12:00:30.5Z","error":null}`, id, status)
}

func TestStartStaticExport_sendsTheRequestAndReadsTheJob(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(202, exportJSON("se_1", "queued")))
	c := newTestClient(t, ts.URL, newClock())
	e, err := c.StaticExports.Start(context.Background(), StaticExportRequest{Domain: "docs.example.com"})
	if err != nil {
		t.Fatal(err)
	}
	want := &StaticExport{ID: "se_1", Status: StaticExportStatusQueued, Progress: 42.5, PageCount: 128,
		CreatedAt: epoch, UpdatedAt: epoch.Add(30*time.Second + 500*time.Millisecond)}
	if diff := cmp.Diff(want, e, ignoreInfo); diff != "" {
		t.Errorf("export (-want +got):\n%s", diff)
	}
	r := rec.requests[0]
	if r.Method != http.MethodPost || r.URL.Path != "/v1/static-export/jobs" || r.Header.Get("Authorization") != "Bearer mint_demo_0123456789abcdef" {
		t.Errorf("sent %s %s with %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
	}
	if rec.bodies[0] != `{"domain":"docs.example.com"}` {
		t.Errorf("body %s: version and paths must be left out when not set", rec.bodies[0])
	}

	_, err = c.StaticExports.Start(context.Background(), StaticExportRequest{Domain: "docs.example.com", Version: "2026-06-01", Paths: []string{"index", "guides/x"}})
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal([]byte(rec.bodies[1]), &body); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]any{"domain": "docs.example.com", "version": "2026-06-01", "paths": []any{"index", "guides/x"}}, body); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
}

func TestStartStaticExport_isNeverSentTwice(t *testing.T) {
	for name, h := range map[string]http.HandlerFunc{
		"502":     respond(502, "text/html", "<html>bad gateway</html>"),
		"dropped": dropConnection,
	} {
		t.Run(name, func(t *testing.T) {
			rec, ts := newRecorder(t, h)
			c := newTestClient(t, ts.URL, newClock())
			_, err := c.StaticExports.Start(context.Background(), StaticExportRequest{Domain: "docs.example.com"})
			if err == nil || !MayHaveTakenEffect(err) || rec.count() != 1 {
				t.Errorf("%d requests, err %v (may have taken effect: %v)", rec.count(), err, MayHaveTakenEffect(err))
			}
		})
	}
}

func TestStartStaticExport_refusals(t *testing.T) {
	for _, tt := range []struct {
		status int
		is     func(error) bool
		want   string
	}{
		{403, IsForbidden, "Static export is not enabled for this organization"},
		{400, IsBadRequest, "domain is not a reachable hostname"},
		{401, IsUnauthorized, "401 Unauthorized"},
	} {
		msg := map[int]string{403: "Static export is not enabled for this organization", 400: "domain is not a reachable hostname", 401: "bad key"}[tt.status]
		_, ts := newRecorder(t, jsonResponse(tt.status, fmt.Sprintf(`{"error":%q}`, msg)))
		c := newTestClient(t, ts.URL, newClock())
		_, err := c.StaticExports.Start(context.Background(), StaticExportRequest{Domain: "docs.example.com"})
		if !tt.is(err) || MayHaveTakenEffect(err) || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "starting static export of docs.example.com") {
			t.Errorf("%d: %v", tt.status, err)
		}
	}
}

func TestGetStaticExport_oddFieldsAreProblemsTheIDIsKept(t *testing.T) {
	for _, tt := range []struct {
		body     string
		want     *StaticExport
		problems []string
	}{
		{`{"jobId":"se_1","status":"running","progress":"half","pageCount":-3,"createdAt":12,"updatedAt":"yesterday"}`,
			&StaticExport{ID: "se_1", Status: StaticExportStatusRunning},
			[]string{`progress: want a number, got a string`, `pageCount: -3 is negative`, `createdAt: want a string or null, got a number`, `updatedAt: "yesterday" is not an ISO 8601 timestamp`}},
		{`{"jobId":"se_1","progress":101,"pageCount":1.5,"error":"boom"}`,
			&StaticExport{ID: "se_1", Error: ptr("boom")},
			[]string{`status: missing`, `progress: 101 is above 100`, `pageCount: 1.5 is not a whole number`, `createdAt: missing`, `updatedAt: missing`}},
		{`{"jobId":"se_1","status":"","progress":0,"pageCount":0,"createdAt":"2026-11-21T12:00:00Z","updatedAt":null,"error":7,"extra":true}`,
			&StaticExport{ID: "se_1", CreatedAt: epoch},
			[]string{`updatedAt: missing`, `error: want a string or null, got a number`, `status: empty`}},
	} {
		_, ts := newRecorder(t, jsonResponse(200, tt.body))
		c := newTestClient(t, ts.URL, newClock())
		e, err := c.StaticExports.Get(context.Background(), "se_1")
		if err != nil {
			t.Fatalf("%s: %v", tt.body, err)
		}
		tt.want.Problems = tt.problems
		if diff := cmp.Diff(tt.want, e, ignoreInfo); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.body, diff)
		}
	}
}

func TestGetStaticExport_answerWithoutItsIDIsMalformed(t *testing.T) {
	for body, want := range map[string]string{
		`{"status":"running"}`:                "jobId: missing or empty",
		`{"jobId":"se_2","status":"running"}`: `jobId: the answer is for static export "se_2", not "se_1"`,
		`<html>login</html>`:                  "the body is not the API's JSON",
	} {
		_, ts := newRecorder(t, jsonResponse(200, body))
		c := newTestClient(t, ts.URL, newClock())
		_, err := c.StaticExports.Get(context.Background(), "se_1")
		if !IsMalformedResponse(err) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "getting static export se_1") {
			t.Errorf("%s: %v", body, err)
		}
	}
	// An id of the wrong kind is said once, by its own problem, as for a job.
	_, ts := newRecorder(t, jsonResponse(200, `{"jobId":5,"status":"running"}`))
	_, err := newTestClient(t, ts.URL, newClock()).StaticExports.Get(context.Background(), "se_1")
	if !IsMalformedResponse(err) || !strings.Contains(err.Error(), ": jobId: want a string or null, got a number") || strings.Contains(err.Error(), "missing or empty") {
		t.Errorf("an id of the wrong kind: %v", err)
	}
}

func TestWaitForStaticExport_reportsProgressUntilTheEnd(t *testing.T) {
	rec, ts := newRecorder(t,
		jsonResponse(200, strings.Replace(exportJSON("se_1", "queued"), `"progress":42.5`, `"progress":0`, 1)),
		jsonResponse(200, exportJSON("se_1", "running")),
		jsonResponse(200, strings.Replace(exportJSON("se_1", "completed"), `"progress":42.5`, `"progress":100`, 1)),
	)
	clk := newClock()
	c := newTestClient(t, ts.URL, clk)
	var seen []string
	e, err := c.StaticExports.Wait(context.Background(), "se_1", WithStatusCallback(func(e *StaticExport) {
		seen = append(seen, fmt.Sprintf("%s %v", e.Status, e.Progress))
	}))
	if err != nil || e.Status != StaticExportStatusCompleted {
		t.Fatalf("%+v, %v", e, err)
	}
	if diff := cmp.Diff([]string{"queued 0", "running 42.5", "completed 100"}, seen); diff != "" || rec.count() != 3 {
		t.Errorf("%d polls, seen (-want +got):\n%s", rec.count(), diff)
	}
	if rec.requests[0].URL.Path != "/v1/static-export/jobs/se_1" || rec.requests[0].Method != http.MethodGet {
		t.Errorf("polled %s %s", rec.requests[0].Method, rec.requests[0].URL.Path)
	}

	_, err = c.StaticExports.Wait(context.Background(), "se_1", WithStatusCallback(func(*AgentJob) {}))
	if !IsValidation(err) {
		t.Errorf("a callback of another type: %v", err)
	}
}

func TestWaitForStaticExport_failedIsTerminal(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(200, strings.Replace(exportJSON("se_1", "failed"), `"error":null`, `"error":"page guides/x failed to render"`, 1)))
	c := newTestClient(t, ts.URL, newClock())
	e, err := c.StaticExports.Wait(context.Background(), "se_1")
	if err != nil || e.Status != StaticExportStatusFailed || e.Error == nil || *e.Error != "page guides/x failed to render" {
		t.Fatalf("%+v, %v", e, err)
	}
	if !StaticExportStatusQueued.Known() || StaticExportStatusQueued.Terminal() || StaticExportStatus("paused").Known() || StaticExportStatus("paused").Terminal() {
		t.Error("status predicates")
	}
}

// bundleJSON is a bundle answer for job se_1 whose link is link.
func bundleJSON(link string) string {
	return fmt.Sprintf(`{"jobId":"se_1","bundleUrl":%q,"sizeBytes":18432000,"expiresAt":"2026-11-21T13:00:00Z"}`, link)
}

const testLink = "https://mintlify-static-exports.s3.amazonaws.com/se_1/bundle.tar.gz?X-Amz-Expires=900&X-Amz-Signature=5ec2e7deadbeef0123456789"

func TestCreateBundle_readsTheLinkAndNeverShowsIt(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, bundleJSON(testLink)))
	c := newTestClient(t, ts.URL, newClock())
	b, err := c.StaticExports.CreateBundle(context.Background(), "se_1")
	if err != nil {
		t.Fatal(err)
	}
	want := &StaticExportBundle{JobID: "se_1", URL: testLink, SizeBytes: 18432000, ExpiresAt: epoch.Add(time.Hour)}
	if diff := cmp.Diff(want, b, ignoreInfo); diff != "" {
		t.Errorf("bundle (-want +got):\n%s", diff)
	}
	if r := rec.requests[0]; r.Method != http.MethodPost || r.URL.Path != "/v1/static-export/jobs/se_1/bundle" {
		t.Errorf("sent %s %s", r.Method, r.URL.Path)
	}
	for _, shown := range []string{fmt.Sprint(b), fmt.Sprintf("%v", *b), fmt.Sprintf("%+v", b), fmt.Sprintf("%#v", b), b.String(), b.RedactedURL()} {
		if strings.Contains(shown, "Signature") || strings.Contains(shown, "5ec2e7") {
			t.Errorf("the bundle shows its link: %s", shown)
		}
	}
	if want := "bundle of static export se_1 (18432000 bytes) at https://mintlify-static-exports.s3.amazonaws.com/se_1/bundle.tar.gz?[REDACTED], expires 2026-11-21T13:00:00Z"; b.String() != want {
		t.Errorf("String() = %s", b)
	}
}

func TestCreateBundle_answersItWillNotUse(t *testing.T) {
	for body, want := range map[string]string{
		bundleJSON("http://storage.example.com/b?X-Amz-Signature=5ec2e7deadbeef"):   "bundleUrl: not a link the SDK will download: must use https",
		bundleJSON("https://user:pw@storage.example.com/b?sig=5ec2e7deadbeef"):      "bundleUrl: not a link the SDK will download: must not carry credentials",
		bundleJSON("/relative/b?X-Amz-Signature=5ec2e7deadbeef"):                    "bundleUrl: not a link the SDK will download: must be an absolute https URL",
		`{"jobId":"se_1","bundleUrl":5}`:                                            "bundleUrl: want a string, got a number",
		`{"jobId":"se_1"}`:                                                          "bundleUrl: missing",
		`{"jobId":"se_9","bundleUrl":"https://s.example.com/b?sig=5ec2e7deadbeef"}`: `jobId: the answer is for static export "se_9", not "se_1"`,
	} {
		_, ts := newRecorder(t, jsonResponse(200, body))
		c := newTestClient(t, ts.URL, newClock())
		_, err := c.StaticExports.CreateBundle(context.Background(), "se_1")
		if !IsMalformedResponse(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", body, err, want)
		}
		if err != nil && strings.Contains(err.Error(), "5ec2e7") {
			t.Errorf("the error quotes the link: %v", err)
		}
	}
	// Minor fields: the link is kept, the problems named.
	_, ts := newRecorder(t, jsonResponse(200, `{"jobId":"se_1","bundleUrl":"https://s.example.com/b?sig=5ec2e7deadbeef","sizeBytes":"big"}`))
	c := newTestClient(t, ts.URL, newClock())
	b, err := c.StaticExports.CreateBundle(context.Background(), "se_1")
	if err != nil || b.URL == "" || b.SizeBytes != 0 || !b.ExpiresAt.IsZero() {
		t.Fatalf("%v, %v", b, err)
	}
	if diff := cmp.Diff([]string{"sizeBytes: want a number, got a string", "expiresAt: missing"}, b.Problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

func TestCreateBundle_conflictUntilCompleted(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(409, `{"error":"The job has not finished yet"}`))
	c := newTestClient(t, ts.URL, newClock())
	_, err := c.StaticExports.CreateBundle(context.Background(), "se_1")
	if !IsConflict(err) || rec.count() != 1 || !strings.Contains(err.Error(), "creating the bundle of static export se_1") {
		t.Errorf("%d requests: %v", rec.count(), err)
	}
}

func TestCreateBundleWhenReady(t *testing.T) {
	conflict := jsonResponse(409, `{"error":"The job has not finished yet"}`)
	t.Run("completed at once: one request", func(t *testing.T) {
		rec, ts := newRecorder(t, jsonResponse(200, bundleJSON(testLink)))
		c := newTestClient(t, ts.URL, newClock())
		b, err := c.StaticExports.CreateBundleWhenReady(context.Background(), "se_1")
		if err != nil || b.URL != testLink || rec.count() != 1 {
			t.Errorf("%d requests: %v, %v", rec.count(), b, err)
		}
	})
	t.Run("409: waits for the export, then asks again", func(t *testing.T) {
		rec, ts := newRecorder(t, conflict, jsonResponse(200, exportJSON("se_1", "running")),
			jsonResponse(200, exportJSON("se_1", "completed")), conflict, // the bundle lags behind the status
			jsonResponse(200, exportJSON("se_1", "completed")), jsonResponse(200, bundleJSON(testLink)))
		c := newTestClient(t, ts.URL, newClock())
		var polls int
		b, err := c.StaticExports.CreateBundleWhenReady(context.Background(), "se_1", WithStatusCallback(func(*StaticExport) { polls++ }))
		if err != nil || b.URL != testLink {
			t.Fatalf("%v, %v", b, err)
		}
		var sent []string
		for _, r := range rec.requests {
			sent = append(sent, r.Method)
		}
		if diff := cmp.Diff([]string{"POST", "GET", "GET", "POST", "GET", "POST"}, sent); diff != "" || polls != 3 {
			t.Errorf("%d polls; requests (-want +got):\n%s", polls, diff)
		}
	})
	t.Run("failed: no bundle, the API's reason", func(t *testing.T) {
		rec, ts := newRecorder(t, conflict, jsonResponse(200, strings.Replace(exportJSON("se_1", "failed"), `"error":null`, `"error":"render failed"`, 1)))
		c := newTestClient(t, ts.URL, newClock())
		_, err := c.StaticExports.CreateBundleWhenReady(context.Background(), "se_1")
		if !errors.Is(err, ErrStaticExportFailed) || !strings.Contains(err.Error(), "static export se_1: the static export failed: render failed") || rec.count() != 2 {
			t.Errorf("%d requests: %v", rec.count(), err)
		}
	})
	t.Run("timeout", func(t *testing.T) {
		_, ts := newRecorder(t, conflict, jsonResponse(200, exportJSON("se_1", "running")))
		c := newTestClient(t, ts.URL, newClock())
		_, err := c.StaticExports.CreateBundleWhenReady(context.Background(), "se_1", WithWaitTimeout(time.Minute))
		if !errors.Is(err, ErrWaitTimeout) {
			t.Errorf("%v", err)
		}
	})
	t.Run("other refusals end it at once", func(t *testing.T) {
		rec, ts := newRecorder(t, jsonResponse(404, `{"error":"No job exists with the provided ID."}`))
		c := newTestClient(t, ts.URL, newClock())
		_, err := c.StaticExports.CreateBundleWhenReady(context.Background(), "se_1")
		if !IsNotFound(err) || rec.count() != 1 {
			t.Errorf("%d requests: %v", rec.count(), err)
		}
	})
}

func TestStaticExports_againstTheFake(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{Faults: []mintlifytest.Fault{
		{Route: mintlifytest.RouteStaticExportsDownloadBundle, Kind: mintlifytest.FaultReset, Requests: []int{1, 2}}}})
	ctx := context.Background()
	e, err := c.StaticExports.Start(ctx, StaticExportRequest{Domain: "docs.example.com", Version: "v1 [fake:bundle=2MiB] [fake:running=10m]"})
	if err != nil {
		t.Fatal(err)
	}
	var progress []float64
	b, err := c.StaticExports.CreateBundleWhenReady(ctx, e.ID, WithStatusCallback(func(x *StaticExport) { progress = append(progress, x.Progress) }))
	if err != nil {
		t.Fatal(err)
	}
	if len(progress) < 5 || progress[len(progress)-1] != 100 || clk.Now().Sub(epoch) < 10*time.Minute {
		t.Errorf("progress %v by %s", progress, clk.Now().Sub(epoch))
	}
	var want bytes.Buffer
	if _, err := fs.WriteStaticExportArchive(e.ID, &want); err != nil {
		t.Fatal(err)
	}
	// Two downloads break half-way: the third request finishes the bundle
	// from where the second stopped.
	var got bytes.Buffer
	n, err := c.StaticExports.DownloadBundle(ctx, b.URL, &got, WithExpectedSize(b.SizeBytes))
	if err != nil || n != b.SizeBytes || !bytes.Equal(got.Bytes(), want.Bytes()) {
		t.Fatalf("%d of %d bytes: %v", n, b.SizeBytes, err)
	}
	log := fs.RequestsTo(mintlifytest.RouteStaticExportsDownloadBundle)
	if len(log) != 3 || log[0].Status != 200 || log[1].Status != 206 || log[2].Status != 206 {
		t.Errorf("downloads %+v", log)
	}

	// Expired, then altered: 403s that never show the link.
	clk.Advance(15 * time.Minute) // a link works 15 minutes unless configured
	_, err = c.StaticExports.DownloadBundle(ctx, b.URL, io.Discard)
	if !IsForbidden(err) || !strings.Contains(err.Error(), "AccessDenied: Request has expired") || !strings.Contains(err.Error(), "create a new bundle") {
		t.Errorf("expired: %v", err)
	}
	fresh, err := c.StaticExports.CreateBundle(ctx, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	altered := strings.Replace(fresh.URL, "X-Amz-Expires=900", "X-Amz-Expires=604800", 1)
	_, err = c.StaticExports.DownloadBundle(ctx, altered, io.Discard)
	if !IsForbidden(err) || !strings.Contains(err.Error(), "SignatureDoesNotMatch") {
		t.Errorf("altered: %v", err)
	}
	for _, link := range fs.BundleLinks() {
		u, _ := url.Parse(link)
		if sig := u.Query().Get("X-Amz-Signature"); strings.Contains(fmt.Sprint(err), sig) {
			t.Errorf("the error shows a signature: %v", err)
		}
	}
}

func TestStaticExportBundle_secrets(t *testing.T) {
	b := StaticExportBundle{URL: "https://s.example.com/b?X-Amz-Expires=900&X-Amz-Credential=AKIA%2F2026&X-Amz-Signature=5ec2e7deadbeef"}
	want := []string{b.URL, "X-Amz-Expires=900&X-Amz-Credential=AKIA%2F2026&X-Amz-Signature=5ec2e7deadbeef", "AKIA/2026", "AKIA%2F2026", "5ec2e7deadbeef", "5ec2e7deadbeef"}
	got := b.Secrets()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("Secrets() %q lacks %q", got, w)
		}
	}
	if slices.Contains(got, "900") {
		t.Errorf("a short value (an expiry in seconds) is no secret: %q", got)
	}
}
