package sdk

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

func ptr[T any](v T) *T { return &v }

func TestCreateAgentJob_againstFake(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	job, err := c.CreateAgentJob(context.Background(), mintlifytest.DemoProjectID, "Document the new endpoint")
	if err != nil {
		t.Fatal(err)
	}
	want := &AgentJob{ID: job.ID, Status: JobStatusActive, Source: JobSource{Repository: "https://github.com/acme/demo-project", Ref: ptr("main")},
		Model: "claude-sonnet-4-5", CreatedAt: epoch}
	if diff := cmp.Diff(want, job); diff != "" {
		t.Errorf("job (-want +got):\n%s", diff)
	}
	if job.ID == "" || fs.Requests(mintlifytest.RouteCreateJob) != 1 {
		t.Errorf("id %q, %d POSTs", job.ID, fs.Requests(mintlifytest.RouteCreateJob))
	}
	got, err := c.GetAgentJob(context.Background(), mintlifytest.DemoProjectID, job.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(job, got); diff != "" {
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
		job, err := c.CreateAgentJob(ctx, mintlifytest.DemoProjectID, tt.prompt)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = job.ID
	}
	clk.Advance(time.Minute)
	for i, tt := range tests {
		got, err := c.GetAgentJob(ctx, mintlifytest.DemoProjectID, ids[i])
		if err != nil {
			t.Fatal(err)
		}
		want := tt.want(ids[i])
		want.Source, want.Model, want.CreatedAt = JobSource{"https://github.com/acme/demo-project", ptr("main")}, "claude-sonnet-4-5", epoch
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.prompt, diff)
		}
	}
	if n := fs.Requests(mintlifytest.RouteCreateJob); n != len(tests) {
		t.Errorf("POSTs = %d", n)
	}
}

func TestAgentJob_decoding(t *testing.T) {
	tests := map[string]struct {
		body string
		want AgentJob
	}{
		"nulls stay nil": {`{"id":"a","status":"active","source":{"repository":"r","ref":null},"model":"m","prLink":null,"createdAt":"2026-11-21T12:00:00.123Z","archivedAt":null}`,
			AgentJob{ID: "a", Status: "active", Source: JobSource{Repository: "r"}, Model: "m", CreatedAt: epoch.Add(123 * time.Millisecond)}},
		"empty strings stay empty": {`{"id":"a","status":"completed","source":{"repository":"","ref":""},"prLink":""}`,
			AgentJob{ID: "a", Status: "completed", Source: JobSource{Ref: ptr("")}, PRLink: ptr("")}},
		"absent fields": {`{"id":"a"}`, AgentJob{ID: "a"}},
		"unknown fields ignored": {`{"id":"a","status":"queued","future":{"x":[1,2]},"source":{"repository":"r","extra":true}}`,
			AgentJob{ID: "a", Status: "queued", Source: JobSource{Repository: "r"}}},
		"zone offsets and no zone": {`{"id":"a","createdAt":"2026-11-21T14:00:00+02:00","archivedAt":"2026-11-21T12:00:00"}`,
			AgentJob{ID: "a", CreatedAt: epoch, ArchivedAt: ptr(epoch)}},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			var got AgentJob
			if err := json.Unmarshal([]byte(tt.body), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			// What the SDK encodes, it decodes back the same.
			again, err := json.Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			var round AgentJob
			if err := json.Unmarshal(again, &round); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, round, cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
				t.Errorf("round trip (-first +second):\n%s", diff)
			}
		})
	}
	// Unreadable timestamps are left unset: the job's id must survive them.
	for _, body := range []string{`{"id":"a","createdAt":"yesterday"}`, `{"id":"a","archivedAt":"2026-13-01T00:00:00Z"}`, `{"id":"a","createdAt":""}`} {
		var j AgentJob
		if err := json.Unmarshal([]byte(body), &j); err != nil || j.ID != "a" || !j.CreatedAt.IsZero() || j.ArchivedAt != nil {
			t.Errorf("decoding %s: %+v, %v", body, j, err)
		}
	}
	for _, bad := range []string{`{"id":5}`, `[]`, `{"status":true}`} {
		var j AgentJob
		if err := json.Unmarshal([]byte(bad), &j); err == nil {
			t.Errorf("decoding %s succeeded", bad)
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
		"create empty project": {func() error { _, err := c.CreateAgentJob(ctx, "", "x"); return err }, "projectId must not be empty or only white space"},
		"create empty prompt":  {func() error { _, err := c.CreateAgentJob(ctx, "p", ""); return err }, "prompt must not be empty or only white space"},
		"create blank prompt":  {func() error { _, err := c.CreateAgentJob(ctx, "p", " \n\t"); return err }, "prompt must not be empty or only white space"},
		"get empty project":    {func() error { _, err := c.GetAgentJob(ctx, " ", "j"); return err }, "projectId must not be empty or only white space"},
		"get empty job":        {func() error { _, err := c.GetAgentJob(ctx, "p", ""); return err }, "jobId must not be empty or only white space"},
		"message empty project": {func() error { _, err := c.SendAgentJobMessage(ctx, "", "j", "x"); return err },
			"projectId must not be empty or only white space"},
		"message empty job":    {func() error { _, err := c.SendAgentJobMessage(ctx, "p", "", "x"); return err }, "jobId must not be empty or only white space"},
		"message empty prompt": {func() error { _, err := c.SendAgentJobMessage(ctx, "p", "j", ""); return err }, "prompt must not be empty or only white space"},
		"wait empty project":   {func() error { _, err := c.WaitForAgentJob(ctx, "", "j"); return err }, "projectId must not be empty or only white space"},
		"wait empty job":       {func() error { _, err := c.WaitForAgentJob(ctx, "p", ""); return err }, "jobId must not be empty or only white space"},
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

func TestAgentJobs_projectIDWithSpaceAndSlash(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{})
	fs.AddProject("acme docs/β", mintlifytest.DemoOrg, mintlifytest.Dataset{})
	ctx := context.Background()
	job, err := c.CreateAgentJob(ctx, "acme docs/β", "x")
	if err != nil {
		t.Fatal(err)
	}
	if ids := fs.JobIDs("acme docs/β"); len(ids) != 1 || ids[0] != job.ID {
		t.Fatalf("fake has jobs %v for the project", ids)
	}
	if _, err := c.GetAgentJob(ctx, "acme docs/β", job.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetAgentJob(ctx, "acme docs", job.ID); !IsNotFound(err) {
		t.Errorf("a prefix of the project id found the job: %v", err)
	}
}

func TestAgentJobs_errorsFromFake(t *testing.T) {
	fs, c, _ := newFake(t, mintlifytest.Config{JobBudget: 1})
	fs.AddKey("mint_readonly", mintlifytest.DemoOrg, true)
	ctx := context.Background()
	if _, err := c.GetAgentJob(ctx, mintlifytest.DemoProjectID, "missing"); !IsNotFound(err) {
		t.Errorf("unknown job: %v", err)
	}
	if _, err := c.CreateAgentJob(ctx, "no-such-project", "x"); !IsNotFound(err) {
		t.Errorf("unknown project: %v", err)
	}
	bad := newTestClient(t, c.BaseURL(), nil)
	bad.apiKey = "mint_wrong"
	if _, err := bad.GetAgentJob(ctx, mintlifytest.DemoProjectID, "x"); !IsUnauthorized(err) || strings.Contains(err.Error(), "mint_wrong") {
		t.Errorf("wrong key: %v", err)
	}
	ro := newTestClient(t, c.BaseURL(), nil)
	ro.apiKey = "mint_readonly"
	if _, err := ro.CreateAgentJob(ctx, mintlifytest.DemoProjectID, "x"); !IsForbidden(err) {
		t.Errorf("read-only key: %v", err)
	}
	if _, err := c.CreateAgentJob(ctx, mintlifytest.DemoProjectID, "first"); err != nil {
		t.Fatal(err)
	}
	// The hourly budget of 1 is spent: the 429 says to wait about an hour,
	// longer than the client waits, so it fails at once.
	_, err := c.CreateAgentJob(ctx, mintlifytest.DemoProjectID, "second")
	if !IsRateLimited(err) || !strings.Contains(err.Error(), "try again after 2026-11-21T13:00:00Z") {
		t.Errorf("over budget: %v", err)
	}
	if n := fs.Requests(mintlifytest.RouteCreateJob); n != 4 {
		t.Errorf("POSTs = %d, want 4 (unknown project, read-only, first, second)", n)
	}
}

func TestSendAgentJobMessage(t *testing.T) {
	fs, c, clk := newFake(t, mintlifytest.Config{})
	ctx := context.Background()
	job, err := c.CreateAgentJob(ctx, mintlifytest.DemoProjectID, "[fake:active=10s]")
	if err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Minute)
	again, err := c.SendAgentJobMessage(ctx, mintlifytest.DemoProjectID, job.ID, "Also fix the typo")
	if err != nil {
		t.Fatal(err)
	}
	if again.ID != job.ID || again.Status != JobStatusActive || again.PRLink == nil {
		t.Errorf("after message: %+v", again)
	}
	if _, err := c.SendAgentJobMessage(ctx, mintlifytest.DemoProjectID, "nope", "x"); !IsNotFound(err) {
		t.Errorf("unknown job: %v", err)
	}
	if n := fs.Requests(mintlifytest.RouteSendMessage); n != 2 {
		t.Errorf("message POSTs = %d", n)
	}
}

func TestCreateAgentJob_responseWithoutIDIsAnError(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(201, `{"status":"active"}`))
	c := newTestClient(t, ts.URL, nil)
	if job, err := c.CreateAgentJob(context.Background(), "p", "x"); job != nil || err == nil || !strings.Contains(err.Error(), "malformed response to POST /v2/agent/p/job: id: missing or empty") || !MayHaveTakenEffect(err) {
		t.Fatalf("err = %v", err)
	}
}
