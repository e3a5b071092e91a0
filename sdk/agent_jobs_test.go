package sdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func ptr[T any](v T) *T { return &v }

func TestCreateAgentJob_againstFake(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	job, err := c.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "Document the new endpoint")
	if err != nil {
		t.Fatal(err)
	}
	want := &AgentJob{ID: job.ID, Status: JobStatusActive, Source: JobSource{Repository: "https://github.com/acme/demo-project", Ref: ptr("main")},
		Model: "claude-sonnet-4-5", CreatedAt: epoch}
	if diff := cmp.Diff(want, job, ignoreInfo); diff != "" {
		t.Errorf("job (-want +got):\n%s", diff)
	}
	if job.ID == "" || fs.Requests(mintlifytest.RouteAgentJobsCreate) != 1 {
		t.Errorf("id %q, %d POSTs", job.ID, fs.Requests(mintlifytest.RouteAgentJobsCreate))
	}
	if job.Attempts != 1 || job.Pages != 1 || job.Cache.Hit {
		t.Errorf("response info %+v, want one attempt, one answer", job.ResponseInfo)
	}
	got, err := c.AgentJobs.Get(context.Background(), mintlifytest.DemoProjectID, job.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(job, got, ignoreInfo); diff != "" {
		t.Errorf("get differs from create (-create +get):\n%s", diff)
	}
}

func TestGetAgentJob_terminalShapes(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{})
	ctx := context.Background()
	tests := []struct {
		prompt string
		want   func(id string) *AgentJob
	}{
		{"[fake:completed] [fake:active=5s]", func(id string) *AgentJob {
			return &AgentJob{ID: id, Status: JobStatusCompleted, PRLink: ptr("https://github.com/acme/demo-project/pull/101")}
		}},
		{"[fake:nochange] [fake:active=5s]", func(id string) *AgentJob { return &AgentJob{ID: id, Status: JobStatusCompleted} }},
		{"[fake:failed] [fake:active=5s]", func(id string) *AgentJob { return &AgentJob{ID: id, Status: JobStatusFailed} }},
		{"[fake:archived] [fake:active=5s]", func(id string) *AgentJob {
			return &AgentJob{ID: id, Status: JobStatusArchived, ArchivedAt: ptr(epoch.Add(5 * time.Second))}
		}},
		{"[fake:never]", func(id string) *AgentJob { return &AgentJob{ID: id, Status: JobStatusActive} }},
	}
	ids := make([]string, len(tests))
	for i, tt := range tests {
		job, err := c.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, tt.prompt)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = job.ID
	}
	clk.Advance(time.Minute)
	for i, tt := range tests {
		got, err := c.AgentJobs.Get(ctx, mintlifytest.DemoProjectID, ids[i])
		if err != nil {
			t.Fatal(err)
		}
		want := tt.want(ids[i])
		want.Source, want.Model, want.CreatedAt = JobSource{"https://github.com/acme/demo-project", ptr("main")}, "claude-sonnet-4-5", epoch
		if diff := cmp.Diff(want, got, ignoreInfo); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.prompt, diff)
		}
	}
	if n := fs.Requests(mintlifytest.RouteAgentJobsCreate); n != len(tests) {
		t.Errorf("POSTs = %d", n)
	}
}

// decodeJob reads a job's answer as Get does (fetch), for a client with
// no secret: nil and an error when it is not a job.
func decodeJob(data []byte) (*AgentJob, error) {
	k, job := &core{}, &AgentJob{}
	if err := (decoding{echo: k.echo}).decode(data, job); err != nil {
		return nil, k.malformed(call{}, data, err)
	}
	return job, nil
}

func TestAgentJob_decoding(t *testing.T) {
	const noStatus = "status: missing or empty"
	tests := map[string]struct {
		body string
		want AgentJob
	}{
		"nulls stay nil": {`{"id":"a","status":"active","source":{"repository":"r","ref":null},"model":"m","prLink":null,"createdAt":"2026-11-21T12:00:00.123Z","archivedAt":null}`,
			AgentJob{ID: "a", Status: "active", Source: JobSource{Repository: "r"}, Model: "m", CreatedAt: epoch.Add(123 * time.Millisecond)}},
		// An empty link is not a web address: it is dropped, and said.
		"empty strings stay empty": {`{"id":"a","status":"completed","source":{"repository":"","ref":""},"prLink":""}`,
			AgentJob{ID: "a", Status: "completed", Source: JobSource{Ref: ptr("")}, Problems: []string{`prLink: "" is not an absolute http(s) URL: ignored`}}},
		"absent fields": {`{"id":"a"}`, AgentJob{ID: "a", Problems: []string{noStatus}}},
		"unknown fields ignored": {`{"id":"a","status":"queued","future":{"x":[1,2]},"source":{"repository":"r","extra":true}}`,
			AgentJob{ID: "a", Status: "queued", Source: JobSource{Repository: "r"}}},
		"zone offsets and no zone": {`{"id":"a","status":"active","createdAt":"2026-11-21T14:00:00+02:00","archivedAt":"2026-11-21T12:00:00"}`,
			AgentJob{ID: "a", Status: "active", CreatedAt: epoch, ArchivedAt: ptr(epoch)}},
		"space instead of T": {`{"id":"a","status":"active","createdAt":"2026-11-21 12:00:00Z"}`, AgentJob{ID: "a", Status: "active", CreatedAt: epoch}},
		"web links kept": {`{"id":"a","status":"completed","prLink":"http://git.example/pr/1"}`,
			AgentJob{ID: "a", Status: "completed", PRLink: ptr("http://git.example/pr/1")}},
		"status of the wrong kind": {`{"id":"a","status":3}`, AgentJob{ID: "a", Problems: []string{"status: want a string, got a number"}}},
		"id of the wrong kind":     {`{"id":5,"status":"active"}`, AgentJob{Status: "active", Problems: []string{"id: want a string, got a number"}}},
		"every problem named": {`{"id":"a","status":"","model":true,"source":{"repository":1,"ref":[]},"prLink":{},"createdAt":1,"archivedAt":"soon"}`,
			AgentJob{ID: "a", Problems: []string{
				"source.repository: want a string, got a number", "source.ref: want a string, got a list",
				"model: want a string, got true or false", "prLink: want a string, got an object", "createdAt: want a string, got a number",
				`archivedAt: "soon" is not an ISO 8601 timestamp`, noStatus}}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := decodeJob([]byte(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(&tt.want, got, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// Unreadable timestamps are left unset and named: the job's id must
	// survive them.
	for body, want := range map[string]string{
		`{"id":"a","status":"active","createdAt":"yesterday"}`:                        `createdAt: "yesterday" is not an ISO 8601 timestamp`,
		`{"id":"a","status":"active","archivedAt":"2026-13-01T00:00:00Z"}`:            `archivedAt: "2026-13-01T00:00:00Z" is not an ISO 8601 timestamp`,
		`{"id":"a","status":"active","createdAt":""}`:                                 `createdAt: "" is not an ISO 8601 timestamp`,
		`{"id":"a","status":"active","createdAt":"` + strings.Repeat("9", 150) + `"}`: `createdAt: "` + strings.Repeat("9", 100) + `…" is not an ISO 8601 timestamp`,
	} {
		j, err := decodeJob([]byte(body))
		if err != nil || j.ID != "a" || !j.CreatedAt.IsZero() || j.ArchivedAt != nil || !slices.Equal(j.Problems, []string{want}) {
			t.Errorf("decoding %s: %+v, %v; want the problem %q", body, j, err, want)
		}
	}
	// Only a body that is not a JSON object is an error of decoding.
	for bad, want := range map[string]string{`[]`: "answer: want an object, got a list", `null`: "answer: want an object, got null",
		`"job"`: "answer: want an object, got a string", `<html>`: "invalid character"} {
		if j, err := decodeJob([]byte(bad)); j != nil || err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("decoding %s: %+v, %v; want %q", bad, j, err, want)
		}
	}
}

// A PR link is handed on only when it is an absolute web address without
// credentials: dashboards render it.
func TestAgentJob_prLinkMustBeAWebAddress(t *testing.T) {
	for link, keep := range map[string]bool{
		"https://github.com/acme/docs/pull/1": true, "http://git.example/1": true, "HTTPS://github.com/x": true,
		"javascript:alert(1)": false, "/acme/docs/pull/1": false, "github.com/acme/docs/pull/1": false, "ftp://x/y": false,
		"https://user:pw@github.com/x": false, "https://user@github.com/x": false, "https:///x": false, "https://": false,
		"https://exa mple.com/%zz": false, "file:///etc/passwd": false, "mailto:a@b.c": false,
	} {
		body, _ := json.Marshal(map[string]string{"id": "a", "status": "completed", "prLink": link})
		j, err := decodeJob(body)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case keep && (j.PRLink == nil || *j.PRLink != link || j.Problems != nil):
			t.Errorf("%q: link %v, problems %q; want it kept", link, j.PRLink, j.Problems)
		case !keep && (j.PRLink != nil || len(j.Problems) != 1 || j.Problems[0] != fmt.Sprintf("prLink: %q is not an absolute http(s) URL: ignored", link)):
			t.Errorf("%q: link %v, problems %q; want it dropped and named", link, j.PRLink, j.Problems)
		}
	}
}

func TestJobStatus_terminal(t *testing.T) {
	for s, want := range map[JobStatus]bool{"active": false, "completed": true, "archived": true, "failed": true, "": false, "queued": false, "COMPLETED": false} {
		if got := s.Terminal(); got != want {
			t.Errorf("%q.Terminal() = %v", s, got)
		}
	}
}

func TestAgentJobs_validateBeforeSending(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	ctx := context.Background()
	tests := map[string]struct {
		call func() error
		want string
	}{
		"create empty project": {func() error { _, err := c.AgentJobs.Create(ctx, "", "x"); return err }, "projectId must not be empty or only white space"},
		"create empty prompt":  {func() error { _, err := c.AgentJobs.Create(ctx, "p", ""); return err }, "prompt must not be empty or only white space"},
		"create blank prompt":  {func() error { _, err := c.AgentJobs.Create(ctx, "p", " \n\t"); return err }, "prompt must not be empty or only white space"},
		"get empty project":    {func() error { _, err := c.AgentJobs.Get(ctx, " ", "j"); return err }, "projectId must not be empty or only white space"},
		"get empty job":        {func() error { _, err := c.AgentJobs.Get(ctx, "p", ""); return err }, "jobId must not be empty or only white space"},
		"message empty project": {func() error { _, err := c.AgentJobs.SendMessage(ctx, "", "j", "x"); return err },
			"projectId must not be empty or only white space"},
		"message empty job":    {func() error { _, err := c.AgentJobs.SendMessage(ctx, "p", "", "x"); return err }, "jobId must not be empty or only white space"},
		"message empty prompt": {func() error { _, err := c.AgentJobs.SendMessage(ctx, "p", "j", ""); return err }, "prompt must not be empty or only white space"},
		"wait empty project":   {func() error { _, err := c.AgentJobs.Wait(ctx, "", "j"); return err }, "projectId must not be empty or only white space"},
		"wait empty job":       {func() error { _, err := c.AgentJobs.Wait(ctx, "p", ""); return err }, "jobId must not be empty or only white space"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			err := tt.call()
			if err == nil || err.Error() != tt.want || !IsValidation(err) {
				t.Fatalf("err = %v, want %q", err, tt.want)
			}
		})
	}
	if n := fs.TotalRequests(); n != 0 {
		t.Errorf("%d requests sent for invalid input", n)
	}
}

// An id with a slash, white space or anything past ASCII letters, digits
// and - _ . ~ : is refused before sending: it would change the request's
// path, or cannot be an id.
func TestAgentJobs_projectIDWithSpaceAndSlashIsRefused(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	ctx := context.Background()
	const rule = "may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character)"
	for _, id := range []string{"acme docs/β", "acme/docs", "acme docs", "acme\tdocs", "acme\x00", "acme\x7f", "béta", "a?b", "a#b", "a%2Fb", "a+b", "a@b", "a;b"} {
		for name, err := range map[string]error{"create": second(c.AgentJobs.Create(ctx, id, "x")),
			"get":      second(c.AgentJobs.Get(ctx, id, "j")),
			"visitors": second(c.Analytics.Visitors.Page(ctx, id, VisitorsQuery{})),
		} {
			var v *ValidationError
			if !errors.As(err, &v) || v.Field != "projectId" || v.Value != id || v.Rule != rule {
				t.Errorf("%s %q: %v", name, id, err)
			}
		}
		var v *ValidationError
		if err := second(c.AgentJobs.Get(ctx, "p", id)); !errors.As(err, &v) || v.Field != "jobId" || err.Error() != fmt.Sprintf("jobId %q %s", id, rule) {
			t.Errorf("job id %q: %v", id, err)
		}
	}
	if n := fs.TotalRequests(); n != 0 {
		t.Errorf("%d requests sent for ids that are not ids", n)
	}
}

// second returns the error of a call that also returns a value.
func second[T any](_ T, err error) error { return err }

// A legal id with every punctuation mark allowed reaches the server as one
// path segment, as it was given.
func TestAgentJobs_legalIDReachesTheServerAsOneSegment(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	const id = "a:b~c_d-e.f"
	fs.AddProject(id, mintlifytest.DemoOrg, mintlifytest.Dataset{})
	ctx := context.Background()
	job, err := c.AgentJobs.Create(ctx, id, "x")
	if err != nil {
		t.Fatal(err)
	}
	if ids := fs.JobIDs(id); len(ids) != 1 || ids[0] != job.ID {
		t.Fatalf("fake has jobs %v for the project", ids)
	}
	if _, err := c.AgentJobs.Get(ctx, id, job.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AgentJobs.Get(ctx, "a:b~c", job.ID); !IsNotFound(err) {
		t.Errorf("a prefix of the project id found the job: %v", err)
	}
	rec, ts := newRecorder(t, jsonResponse(200, jobJSONFor("x:y~z")))
	if _, err := newTestClient(t, ts.URL, nil).AgentJobs.Get(ctx, "a:b~c", "x:y~z"); err != nil {
		t.Fatal(err)
	}
	if got := rec.requests[0].URL.EscapedPath(); got != "/v2/agent/a:b~c/job/x:y~z" {
		t.Errorf("path %q", got)
	}
}

func TestValidateID_lengthAndCharacters(t *testing.T) {
	long := strings.Repeat("a", 256)
	for _, ok := range []string{"a", "Z", "0", "9", "-", "_", "~", ":", "...", "a.b", long, "AZaz09-_.~:"} {
		if err := ValidateProjectID(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
		if err := ValidateJobID(ok); err != nil {
			t.Errorf("job %q: %v", ok, err)
		}
	}
	err := ValidateProjectID(long + "a")
	if err == nil || err.Error() != `projectId "`+strings.Repeat("a", 100)+`…" is longer than 256 characters: it cannot be an id` {
		t.Errorf("257 characters: %v", err)
	}
	for _, bad := range []string{"a/b", "a b", "a\tb", "a\nb", "\x00", "é", "a\x7fb", "a!b", "a,b", "a=b", "a*b", "a'b", "`", "[", "{", "@", "/"} {
		if err := ValidateJobID(bad); !IsValidation(err) || !strings.Contains(err.Error(), "may hold only ASCII letters") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	for _, empty := range []string{"", " ", "\t\n"} {
		if err := ValidateJobID(empty); err == nil || err.Error() != "jobId must not be empty or only white space" {
			t.Errorf("%q: %v", empty, err)
		}
	}
}

func TestAgentJobs_errorsFromFake(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{JobBudget: 1})
	fs.AddKey("mint_readonly", mintlifytest.DemoOrg, true)
	ctx := context.Background()
	if _, err := c.AgentJobs.Get(ctx, mintlifytest.DemoProjectID, "missing"); !IsNotFound(err) {
		t.Errorf("unknown job: %v", err)
	}
	if _, err := c.AgentJobs.Create(ctx, "no-such-project", "x"); !IsNotFound(err) {
		t.Errorf("unknown project: %v", err)
	}
	bad := newKeyedClient(t, "mint_wrong", c.BaseURL(), nil)
	if _, err := bad.AgentJobs.Get(ctx, mintlifytest.DemoProjectID, "x"); !IsUnauthorized(err) || strings.Contains(err.Error(), "mint_wrong") {
		t.Errorf("wrong key: %v", err)
	}
	ro := newKeyedClient(t, "mint_readonly", c.BaseURL(), nil)
	if _, err := ro.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "x"); !IsForbidden(err) {
		t.Errorf("read-only key: %v", err)
	}
	if _, err := c.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "first"); err != nil {
		t.Fatal(err)
	}
	// The hourly budget of 1 is spent: the 429 says to wait about an hour,
	// longer than the client waits, so it fails at once.
	_, err := c.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "second")
	if !IsRateLimited(err) || !strings.Contains(err.Error(), "try again after 2026-11-21T13:00:00Z") || strings.Contains(err.Error(), "attempts") {
		t.Errorf("over budget: %v", err)
	}
	if n := fs.Requests(mintlifytest.RouteAgentJobsCreate); n != 4 {
		t.Errorf("POSTs = %d, want 4 (unknown project, read-only, first, second)", n)
	}
}

func TestSendAgentJobMessage(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{})
	ctx := context.Background()
	job, err := c.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "[fake:active=10s]")
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	again, err := c.AgentJobs.SendMessage(ctx, mintlifytest.DemoProjectID, job.ID, "Also fix the typo")
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != job.ID || again.Status != JobStatusActive || again.PRLink == nil {
		t.Errorf("after message: %+v", again)
	}
	if _, err := c.AgentJobs.SendMessage(ctx, mintlifytest.DemoProjectID, "nope", "x"); !IsNotFound(err) {
		t.Errorf("unknown job: %v", err)
	}
	if n := fs.Requests(mintlifytest.RouteAgentJobsSendMessage); n != 2 {
		t.Errorf("message POSTs = %d", n)
	}
}

func TestCreateAgentJob_responseWithoutIDIsAnError(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(201, `{"status":"active"}`))
	c := newTestClient(t, ts.URL, nil)
	if job, err := c.AgentJobs.Create(context.Background(), "p", "x"); job != nil || err == nil || err.Error() != "creating agent job: malformed response to POST /v2/agent/p/job: id: missing or empty" || !MayHaveTakenEffect(err) {
		t.Fatalf("err = %v", err)
	}
}

func TestGetAgentJob_refusesAnAnswerForAnotherJob(t *testing.T) {
	for name, tt := range map[string]struct{ body, want string }{
		"another job's id": {jobJSONFor("someone-elses"), `id: the answer is for job "someone-elses", not job "j"`},
		"empty id":         {jobJSONFor(""), "id: missing or empty"},
		"missing id":       {`{"status":"active"}`, "id: missing or empty"},
		"empty object":     {`{}`, "id: missing or empty; status: missing or empty"},
		"id as a number":   {`{"id":7,"status":"active"}`, "id: want a string, got a number"},
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
		`{"id":"j","status":4}`:    "status: want a string, got a number",
		`{"id":"j","status":[]}`:   "status: want a string, got a list",
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

// A created job whose answer has odd fields is still created: it comes
// back with no error, each odd field named in its Problems.
func TestCreateAgentJob_malformedMinorFieldKeepsTheID(t *testing.T) {
	for name, tt := range map[string]struct{ body, want string }{
		"createdAt as a number":  {`{"id":"new-1","status":"active","createdAt":1732190400}`, "createdAt: want a string, got a number"},
		"createdAt unreadable":   {`{"id":"new-1","status":"active","createdAt":"21/11/2026"}`, `createdAt: "21/11/2026" is not an ISO 8601 timestamp`},
		"prLink as an object":    {`{"id":"new-1","status":"active","prLink":{"url":"x"}}`, "prLink: want a string, got an object"},
		"prLink not a web link":  {`{"id":"new-1","status":"active","prLink":"javascript:alert(1)"}`, `prLink: "javascript:alert(1)" is not an absolute http(s) URL: ignored`},
		"source as a string":     {`{"id":"new-1","status":"active","source":"acme/docs"}`, "source: want an object, got a string"},
		"model as true":          {`{"id":"new-1","status":"active","model":true}`, "model: want a string, got true or false"},
		"ref as a list":          {`{"id":"new-1","status":"active","source":{"repository":"r","ref":[]}}`, "source.ref: want a string, got a list"},
		"archivedAt as a number": {`{"id":"new-1","status":"active","archivedAt":5}`, "archivedAt: want a string, got a number"},
		"status as a number":     {`{"id":"new-1","status":1}`, "status: want a string, got a number"},
		"no status either":       {`{"id":"new-1","createdAt":5}`, "createdAt: want a string, got a number; status: missing or empty"},
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
	want := &AgentJob{ID: "new-2", Status: JobStatusActive, Model: "m", Source: JobSource{"r", ptr("main")}, Problems: []string{"createdAt: want a string, got a number"}}
	if diff := cmp.Diff(want, job, ignoreInfo); diff != "" || err != nil {
		t.Errorf("partial job, %v (-want +got):\n%s", err, diff)
	}
	// Only an answer without the id is an error: the job may exist.
	_, ts = newRecorder(t, jsonResponse(201, `{"status":"active","createdAt":5}`))
	job, err = newTestClient(t, ts.URL, nil).AgentJobs.Create(context.Background(), "p", "x")
	if job != nil || !MayHaveTakenEffect(err) || err.Error() != "creating agent job: malformed response to POST /v2/agent/p/job: id: missing or empty; createdAt: want a string, got a number" {
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

func TestCreateAgentJob_contextEndedBeforeSendingTookNoEffect(t *testing.T) {
	_, c, _ := newFake(t, mintlifytest.Config{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.AgentJobs.Create(ctx, mintlifytest.DemoProjectID, "x"); MayHaveTakenEffect(err) || !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
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
