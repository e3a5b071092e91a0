package sdk

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// statusJSON is status "s1" of project "p", the one the tests ask for.
const statusJSON = `{"_id":"s1","projectId":"p","createdAt":"2026-11-21T12:00:00.000Z","endedAt":"2026-11-21T12:01:30.000Z",
"status":"success","summary":"Deployed","logs":["Cloning","Building 42 pages","Deployed"],"subdomain":"acme",
"screenshot":"https://shots.example/s1.png","screenshotLight":"https://shots.example/s1-light.png","screenshotDark":"https://shots.example/s1-dark.png",
"author":{"name":"Ada","avatarUrl":"https://avatars.example/ada.png","githubUserId":1234.0},
"commit":{"sha":"abc123","ref":"main","message":"Update the quickstart","filesChanged":{"added":["a.mdx"],"modified":["b.mdx","docs.json"],"removed":[]}},
"source":"api"}`

func TestDeployments_triggerSendsOnePOSTWithoutBody(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(202, `{"statusId":"s1"}`))
	c := newTestClient(t, ts.URL, nil)
	got, err := c.Deployments.Trigger(context.Background(), "acme-docs")
	if err != nil || got.StatusID != "s1" || got.Attempts != 1 {
		t.Fatalf("Trigger = %+v, %v", got, err)
	}
	r := rec.requests[0]
	if r.Method != http.MethodPost || r.URL.EscapedPath() != "/v1/project/update/acme-docs" || rec.bodies[0] != "" || r.Header.Get("Content-Type") != "" {
		t.Errorf("sent %s %s with body %q (Content-Type %q)", r.Method, r.URL.EscapedPath(), rec.bodies[0], r.Header.Get("Content-Type"))
	}
}

func TestDeployments_previewSendsTheBranch(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(202, `{"statusId":"s2","previewUrl":"https://acme-feature-x.mintlify.app"}`))
	c := newTestClient(t, ts.URL, nil)
	got, err := c.Deployments.Preview(context.Background(), "p", "feature/x")
	if err != nil || got.StatusID != "s2" || got.PreviewURL != "https://acme-feature-x.mintlify.app" || len(got.Problems) != 0 {
		t.Fatalf("Preview = %+v, %v", got, err)
	}
	r := rec.requests[0]
	if r.Method != http.MethodPost || r.URL.Path != "/v1/project/preview/p" || rec.bodies[0] != `{"branch":"feature/x"}` || r.Header.Get("Content-Type") != "application/json" {
		t.Errorf("sent %s %s %q", r.Method, r.URL.Path, rec.bodies[0])
	}
}

func TestDeployments_answersWithoutAStatusIDAreMalformed(t *testing.T) {
	for name, tt := range map[string]struct {
		body, want string
	}{
		"none":            {`{}`, "statusId: missing or empty"},
		"empty":           {`{"statusId":""}`, "statusId: missing or empty"},
		"a number":        {`{"statusId":7}`, "statusId: want a string, got a number"},
		"not an object":   {`[]`, "answer: want an object, got a list"},
		"not JSON at all": {`<html>`, "the body is not the API's JSON"},
	} {
		t.Run(name, func(t *testing.T) {
			_, ts := newRecorder(t, jsonResponse(202, tt.body))
			c := newTestClient(t, ts.URL, nil)
			for _, call := range []func() error{
				func() error { _, err := c.Deployments.Trigger(context.Background(), "p"); return err },
				func() error { _, err := c.Deployments.Preview(context.Background(), "p", "main"); return err },
			} {
				err := call()
				if !IsMalformedResponse(err) || !MayHaveTakenEffect(err) || !strings.Contains(err.Error(), tt.want) {
					t.Errorf("err = %v, want a malformed answer saying %q", err, tt.want)
				}
			}
		})
	}
}

func TestDeployments_previewURLProblemsKeepTheStatusID(t *testing.T) {
	for body, want := range map[string]string{
		`{"statusId":"s2"}`:                             "previewUrl: missing or empty",
		`{"statusId":"s2","previewUrl":"javascript:x"}`: `previewUrl: "javascript:x" is not an absolute http(s) URL: ignored`,
		`{"statusId":"s2","previewUrl":3}`:              "previewUrl: want a string, got a number",
	} {
		_, ts := newRecorder(t, jsonResponse(202, body))
		c := newTestClient(t, ts.URL, nil)
		got, err := c.Deployments.Preview(context.Background(), "p", "main")
		if err != nil || got.StatusID != "s2" || got.PreviewURL != "" || len(got.Problems) != 1 || got.Problems[0] != want {
			t.Errorf("%s: Preview = %+v, %v; want the problem %q", body, got, err, want)
		}
	}
}

func TestDeployments_shortRateLimitIsWaitedOutWithoutADuplicate(t *testing.T) {
	// 10 triggers per 10 s: a 429 was not acted on, so it is sent again
	// once the window frees up, on the client's clock.
	rec, ts := newRecorder(t,
		jsonResponse(429, `{"error":"Too many requests"}`, "Retry-After", "3"),
		jsonResponse(202, `{"statusId":"s1"}`))
	clk := newClock()
	c := newTestClient(t, ts.URL, clk)
	got, err := c.Deployments.Trigger(context.Background(), "p")
	if err != nil || got.StatusID != "s1" || got.Attempts != 2 || rec.count() != 2 {
		t.Fatalf("Trigger = %+v, %v after %d requests", got, err, rec.count())
	}
	if d := clk.Now().Sub(epoch); d != 3*time.Second {
		t.Errorf("waited %s, want the 3 s the server asked for", d)
	}
}

func TestDeployments_previewLimitOfAMinuteIsWaitedOut(t *testing.T) {
	rec, ts := newRecorder(t,
		jsonResponse(429, `{"error":"Too many requests"}`, "Retry-After", "60"),
		jsonResponse(202, `{"statusId":"s1","previewUrl":"https://p.example"}`))
	clk := newClock()
	c := newTestClient(t, ts.URL, clk)
	if got, err := c.Deployments.Preview(context.Background(), "p", "main"); err != nil || got.Attempts != 2 || rec.count() != 2 {
		t.Fatalf("Preview = %+v, %v", got, err)
	}
	if d := clk.Now().Sub(epoch); d != time.Minute {
		t.Errorf("waited %s", d)
	}
}

func TestDeployments_longRateLimitFailsAtOnceWithTheTimeToRetry(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(429, `{"error":"Too many requests"}`, "Retry-After", "600"))
	clk := newClock()
	c := newTestClient(t, ts.URL, clk)
	_, err := c.Deployments.Trigger(context.Background(), "p")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.StatusCode != 429 || !apiErr.RetryAt.Equal(epoch.Add(10*time.Minute)) || MayHaveTakenEffect(err) || rec.count() != 1 {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
	if !strings.Contains(err.Error(), "try again after 2026-11-21T12:10:00Z") {
		t.Errorf("err = %v", err)
	}
}

func TestDeployments_triggersAreNeverSentTwice(t *testing.T) {
	calls := map[string]func(*Client) error{
		"trigger":    func(c *Client) error { _, err := c.Deployments.Trigger(context.Background(), "p"); return err },
		"preview":    func(c *Client) error { _, err := c.Deployments.Preview(context.Background(), "p", "main"); return err },
		"automation": func(c *Client) error { _, err := c.Automations.Trigger(context.Background(), "p", "a"); return err },
	}
	for name, answer := range map[string]http.HandlerFunc{
		"a 502":         respond(502, "text/html", "<html>Bad gateway</html>"),
		"a dropped one": dropConnection,
	} {
		for what, call := range calls {
			rec, ts := newRecorder(t, answer, jsonResponse(202, `{"statusId":"s1","previewUrl":"https://p.example","instanceId":"i","schemaId":"a","jobId":"j"}`))
			err := call(newTestClient(t, ts.URL, newClock()))
			if err == nil || !MayHaveTakenEffect(err) || rec.count() != 1 {
				t.Errorf("%s after %s: err = %v after %d requests, want one request that may have taken effect", what, name, err, rec.count())
			}
		}
	}
}

func TestDeployments_statusDecodesEveryField(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, statusJSON))
	c := newTestClient(t, ts.URL, nil)
	got, err := c.Deployments.Status(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	if p := rec.requests[0].URL.Path; p != "/v1/project/update-status/s1" {
		t.Errorf("path %s", p)
	}
	ended := time.Date(2026, 11, 21, 12, 1, 30, 0, time.UTC)
	uid := int64(1234)
	want := &Deployment{
		ID: "s1", ProjectID: "p", Status: DeploymentSuccess, Summary: "Deployed",
		Logs: []string{"Cloning", "Building 42 pages", "Deployed"}, Subdomain: "acme",
		Screenshot: "https://shots.example/s1.png", ScreenshotLight: "https://shots.example/s1-light.png", ScreenshotDark: "https://shots.example/s1-dark.png",
		Author: &DeploymentAuthor{Name: "Ada", AvatarURL: "https://avatars.example/ada.png", GitHubUserID: &uid},
		Commit: &DeploymentCommit{SHA: "abc123", Ref: "main", Message: "Update the quickstart",
			FilesChanged: FilesChanged{Added: []string{"a.mdx"}, Modified: []string{"b.mdx", "docs.json"}, Removed: []string{}}},
		Source: DeploymentSourceAPI, CreatedAt: epoch, EndedAt: &ended,
	}
	if diff := cmp.Diff(want, got, ignoreInfo); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
	if got.Attempts != 1 || !got.Status.Terminal() || !got.Source.Known() {
		t.Errorf("info %+v", got.ResponseInfo)
	}
	if last := got.LastLogs(2); !slicesEqual(last, []string{"Building 42 pages", "Deployed"}) {
		t.Errorf("LastLogs(2) = %q", last)
	}
	if all := got.LastLogs(10); len(all) != 3 {
		t.Errorf("LastLogs(10) = %q", all)
	}
	if none := got.LastLogs(0); none != nil {
		t.Errorf("LastLogs(0) = %q", none)
	}
}

func slicesEqual(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00") && len(a) == len(b)
}

func TestDeployments_statusOfAQueuedDeploymentHasNoEnd(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(200, `{"_id":"s1","projectId":"p","createdAt":"2026-11-21T12:00:00Z","status":"queued","logs":[],"author":null}`))
	c := newTestClient(t, ts.URL, nil)
	got, err := c.Deployments.Status(context.Background(), "s1")
	if err != nil || got.Status != DeploymentQueued || got.EndedAt != nil || got.Author != nil || got.Commit != nil || len(got.Problems) != 0 || got.Status.Terminal() {
		t.Fatalf("Status = %+v, %v", got, err)
	}
}

// An author's GitHub user id is optional: absent or null is nil with no
// problem; a number is kept; any other kind is a problem, not a zero.
func TestDeployments_authorGitHubUserID(t *testing.T) {
	one := int64(1234)
	for author, want := range map[string]struct {
		id      *int64
		problem string
	}{
		`{"name":"Ada"}`:                       {},
		`{"name":"Ada","githubUserId":null}`:   {},
		`{"name":"Ada","githubUserId":1234}`:   {id: &one},
		`{"name":"Ada","githubUserId":"1234"}`: {problem: "author.githubUserId: want a number, got a string"},
		`{"name":"Ada","githubUserId":-3}`:     {problem: "author.githubUserId: -3 is negative"},
		`{"name":"Ada","githubUserId":[1234]}`: {problem: "author.githubUserId: want a number, got a list"},
	} {
		_, ts := newRecorder(t, jsonResponse(200, `{"_id":"s1","status":"queued","logs":[],"author":`+author+`}`))
		got, err := newTestClient(t, ts.URL, nil).Deployments.Status(context.Background(), "s1")
		if err != nil || got.Author == nil || got.Author.Name != "Ada" {
			t.Fatalf("%s: %+v, %v", author, got, err)
		}
		if !cmp.Equal(got.Author.GitHubUserID, want.id) {
			t.Errorf("%s: GitHubUserID %v, want %v", author, got.Author.GitHubUserID, want.id)
		}
		if problems := strings.Join(got.Problems, "\n"); want.problem == "" && problems != "" || !strings.Contains(problems, want.problem) {
			t.Errorf("%s: problems %q, want %q", author, got.Problems, want.problem)
		}
	}
}

func TestDeployments_oddFieldsAreProblemsNotErrors(t *testing.T) {
	body := `{"_id":"s1","status":"rolling_back","createdAt":12,"endedAt":"soon","logs":["ok",3,null],"summary":{},
"author":{"name":"Ada","githubUserId":1.5},"commit":{"sha":"abc","filesChanged":{"added":"a.mdx"}},"source":"carrier-pigeon"}`
	_, ts := newRecorder(t, jsonResponse(200, body))
	c := newTestClient(t, ts.URL, nil)
	got, err := c.Deployments.Status(context.Background(), "s1")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "s1" || got.Status != "rolling_back" || got.Status.Known() || got.Status.Terminal() || got.Source != "carrier-pigeon" || got.Source.Known() {
		t.Errorf("status %q source %q", got.Status, got.Source)
	}
	if !slicesEqual(got.Logs, []string{"ok"}) || got.Author.GitHubUserID != nil || got.Commit.SHA != "abc" {
		t.Errorf("got %+v", got)
	}
	for _, want := range []string{
		"commit.filesChanged.added: want a list, got a string",
		"summary: want a string, got an object",
		"logs[1]: want a string, got a number",
		"logs[2]: want a string, got null",
		"author.githubUserId: 1.5 is not a whole number",
		"createdAt: want a string, got a number",
		`endedAt: "soon" is not an ISO 8601 timestamp`,
	} {
		if !strings.Contains(strings.Join(got.Problems, "\n"), want) {
			t.Errorf("problems %q lack %q", got.Problems, want)
		}
	}
}

func TestDeployments_statusOfAnotherIDOrNoneIsMalformed(t *testing.T) {
	for body, want := range map[string]string{
		`{"status":"success"}`:            "_id: missing or empty",
		`{"_id":"s9","status":"success"}`: `_id: the answer is for status "s9", not "s1"`,
	} {
		_, ts := newRecorder(t, jsonResponse(200, body))
		c := newTestClient(t, ts.URL, nil)
		got, err := c.Deployments.Status(context.Background(), "s1")
		if got != nil || !IsMalformedResponse(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %+v, %v", body, got, err)
		}
	}
	// An id of the wrong kind is said once, by its own problem, as for a job.
	_, ts := newRecorder(t, jsonResponse(200, `{"_id":5,"status":"success"}`))
	_, err := newTestClient(t, ts.URL, nil).Deployments.Status(context.Background(), "s1")
	if !IsMalformedResponse(err) || !strings.Contains(err.Error(), ": _id: want a string, got a number") || strings.Contains(err.Error(), "missing or empty") {
		t.Errorf("an id of the wrong kind: %v", err)
	}
}

func TestDeployments_waitFollowsTheStatusesToTheEnd(t *testing.T) {
	queued := strings.Replace(statusJSON, `"status":"success"`, `"status":"queued"`, 1)
	building := strings.Replace(statusJSON, `"status":"success"`, `"status":"in_progress"`, 1)
	failed := strings.Replace(statusJSON, `"status":"success"`, `"status":"failure"`, 1)
	rec, ts := newRecorder(t, jsonResponse(200, queued), jsonResponse(200, building), jsonResponse(200, building), jsonResponse(200, failed))
	clk := newClock()
	c := newTestClient(t, ts.URL, clk)
	var seen []DeploymentStatus
	got, err := c.Deployments.Wait(context.Background(), "s1", WithStatusCallback(func(d *Deployment) { seen = append(seen, d.Status) }))
	if err != nil || got.Status != DeploymentFailure || rec.count() != 4 {
		t.Fatalf("Wait = %+v, %v after %d polls", got, err, rec.count())
	}
	if want := []DeploymentStatus{"queued", "in_progress", "in_progress", "failure"}; !cmp.Equal(seen, want) {
		t.Errorf("statuses %q", seen)
	}
}

func TestDeployments_waitTimeoutReturnsTheLastStatus(t *testing.T) {
	_, ts := newRecorder(t, jsonResponse(200, strings.Replace(statusJSON, `"status":"success"`, `"status":"in_progress"`, 1)))
	clk := newClock()
	c := newTestClient(t, ts.URL, clk)
	got, err := c.Deployments.Wait(context.Background(), "s1", WithWaitTimeout(time.Minute))
	if !errors.Is(err, ErrWaitTimeout) || got == nil || got.Status != DeploymentInProgress {
		t.Fatalf("Wait = %+v, %v", got, err)
	}
	if d := clk.Now().Sub(epoch); d != time.Minute {
		t.Errorf("waited %s", d)
	}
}

func TestDeployments_waitWithAWrongCallbackFailsBeforeAnyRequest(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(200, statusJSON))
	c := newTestClient(t, ts.URL, newClock())
	_, err := c.Deployments.Wait(context.Background(), "s1", WithStatusCallback(func(*AgentJob) {}))
	if !IsValidation(err) || rec.count() != 0 {
		t.Fatalf("err = %v after %d requests", err, rec.count())
	}
}

func TestDeployments_validateBeforeSending(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(202, `{}`))
	c := newTestClient(t, ts.URL, nil)
	ctx := context.Background()
	for name, tt := range map[string]struct {
		call  func() error
		field string
	}{
		"empty project":            {func() error { _, err := c.Deployments.Trigger(ctx, ""); return err }, "projectId"},
		"project with a slash":     {func() error { _, err := c.Deployments.Trigger(ctx, "a/b"); return err }, "projectId"},
		"preview of no project":    {func() error { _, err := c.Deployments.Preview(ctx, "..", "main"); return err }, "projectId"},
		"preview of no branch":     {func() error { _, err := c.Deployments.Preview(ctx, "p", ""); return err }, "branch"},
		"preview of a bad branch":  {func() error { _, err := c.Deployments.Preview(ctx, "p", "main\n"); return err }, "branch"},
		"empty status id":          {func() error { _, err := c.Deployments.Status(ctx, " "); return err }, "statusId"},
		"status id with a slash":   {func() error { _, err := c.Deployments.Status(ctx, "../x"); return err }, "statusId"},
		"wait for no status":       {func() error { _, err := c.Deployments.Wait(ctx, ""); return err }, "statusId"},
		"automation of no project": {func() error { _, err := c.Automations.Trigger(ctx, "", "a"); return err }, "projectId"},
		"empty automation":         {func() error { _, err := c.Automations.Trigger(ctx, "p", ""); return err }, "workflowSchemaId"},
		"automation with a slash":  {func() error { _, err := c.Automations.Trigger(ctx, "p", "a/trigger"); return err }, "workflowSchemaId"},
	} {
		err := tt.call()
		var ve *ValidationError
		if !errors.As(err, &ve) || ve.Field != tt.field || MayHaveTakenEffect(err) {
			t.Errorf("%s: err = %v, want a validation error of %s", name, err, tt.field)
		}
	}
	if rec.count() != 0 {
		t.Errorf("%d requests sent", rec.count())
	}
	var zero Client
	for _, err := range []error{
		func() error { _, err := zero.Deployments.Trigger(ctx, "p"); return err }(),
		func() error { _, err := zero.Deployments.Preview(ctx, "p", "main"); return err }(),
		func() error { _, err := zero.Deployments.Status(ctx, "s"); return err }(),
		func() error { _, err := zero.Deployments.Wait(ctx, "s"); return err }(),
		func() error { _, err := zero.Automations.Trigger(ctx, "p", "a"); return err }(),
	} {
		if !errors.Is(err, ErrNotConfigured) {
			t.Errorf("zero client: %v", err)
		}
	}
}

func TestValidateBranch_gitsRules(t *testing.T) {
	checkAccepted(t, ValidateBranch, "main", "feature/new-docs", "release-1.2", "user@host", "a.b/c_d", "ÉTÉ", "v1.0-rc.1")
	checkRefused(t, ValidateBranch, "branch", map[string]string{
		"":          "is required",
		"main ":     "white space",
		"a\tb":      "white space",
		"a\x01b":    "control character",
		"a~1":       "~ ^ :",
		"a^":        "~ ^ :",
		"a:b":       "~ ^ :",
		"a?":        "~ ^ :",
		"a*":        "~ ^ :",
		"a[b":       "~ ^ :",
		`a\b`:       "~ ^ :",
		"a..b":      `".."`,
		"a@{1}":     `"@{"`,
		"a//b":      `"//"`,
		"-x":        `starts with "-"`,
		"/x":        `starts with "-" or "/"`,
		"x/":        `ends with "/"`,
		"x.":        `ends with "."`,
		"x.lock":    `".lock"`,
		"a/.hidden": `part starting with "."`,
		".hidden":   `part starting with "."`,
		"@":         `"@"`,
		"a\x7fb":    "control character",
	})
}

func TestDeploymentStatus_terminalAndKnown(t *testing.T) {
	for s, want := range map[DeploymentStatus][2]bool{
		DeploymentQueued: {false, true}, DeploymentInProgress: {false, true}, DeploymentSuccess: {true, true},
		DeploymentFailure: {true, true}, "": {false, false}, "canceled": {false, false},
	} {
		if s.Terminal() != want[0] || s.Known() != want[1] {
			t.Errorf("%q: terminal %v known %v", s, s.Terminal(), s.Known())
		}
	}
	for _, s := range []DeploymentSource{"internal", "github-app-installation", "api", "github", "dashboard", "gitlab", "onboarding"} {
		if !s.Known() {
			t.Errorf("%q unknown", s)
		}
	}
	if DeploymentSource("cron").Known() {
		t.Error("cron known")
	}
}

func TestAutomations_triggerReportsTheRun(t *testing.T) {
	rec, ts := newRecorder(t, jsonResponse(202, `{"schemaId":"auto_1","instanceId":"inst_1","jobId":"job_1"}`))
	c := newTestClient(t, ts.URL, nil)
	got, err := c.Automations.Trigger(context.Background(), "acme", "auto_1")
	if err != nil || got.SchemaID != "auto_1" || got.InstanceID != "inst_1" || got.JobID != "job_1" || len(got.Problems) != 0 || got.Attempts != 1 {
		t.Fatalf("Trigger = %+v, %v", got, err)
	}
	if r := rec.requests[0]; r.Method != http.MethodPost || r.URL.Path != "/v1/workflow/acme/auto_1/trigger" || rec.bodies[0] != "" {
		t.Errorf("sent %s %s %q", r.Method, r.URL.Path, rec.bodies[0])
	}
}

func TestAutomations_answers(t *testing.T) {
	for body, want := range map[string]struct {
		malformed bool
		problem   string
	}{
		`{"schemaId":"a","instanceId":"i"}`:             {problem: "jobId: missing or empty"},
		`{"instanceId":"i","jobId":"j"}`:                {problem: "schemaId: missing or empty"},
		`{"schemaId":"a","jobId":"j"}`:                  {malformed: true, problem: "instanceId: missing or empty"},
		`{"schemaId":"b","instanceId":"i","jobId":"j"}`: {malformed: true, problem: `schemaId: the answer is for automation "b", not "a"`},
		`{"schemaId":"a","instanceId":5,"jobId":"j"}`:   {malformed: true, problem: "instanceId: want a string, got a number"},
	} {
		_, ts := newRecorder(t, jsonResponse(202, body))
		c := newTestClient(t, ts.URL, nil)
		got, err := c.Automations.Trigger(context.Background(), "p", "a")
		switch {
		case want.malformed:
			if got != nil || !IsMalformedResponse(err) || !MayHaveTakenEffect(err) || !strings.Contains(err.Error(), want.problem) {
				t.Errorf("%s: %+v, %v", body, got, err)
			}
		case err != nil || got.InstanceID != "i" || len(got.Problems) != 1 || got.Problems[0] != want.problem:
			t.Errorf("%s: %+v, %v", body, got, err)
		}
	}
}

func TestAutomations_refusalsAreAPIErrors(t *testing.T) {
	for status, is := range map[int]func(error) bool{400: IsBadRequest, 404: IsNotFound} {
		rec, ts := newRecorder(t, jsonResponse(status, `{"error":"Automation is not active"}`))
		c := newTestClient(t, ts.URL, nil)
		_, err := c.Automations.Trigger(context.Background(), "p", "a")
		if !is(err) || MayHaveTakenEffect(err) || rec.count() != 1 || !strings.Contains(err.Error(), "Automation is not active") {
			t.Errorf("%d: %v after %d requests", status, err, rec.count())
		}
	}
}

// A value a problem quotes is cut short, after the client's key is taken
// out of it: cut first, a key straddling the cut would leave its start.
func TestDeployments_problemsNeverQuoteAPieceOfTheKey(t *testing.T) {
	junk := strings.Repeat("x", 88) + mintlifytest.DemoAPIKey
	for name, tt := range map[string]struct {
		answer string
		call   func(*Client) []string
	}{
		"preview URL": {`{"statusId":"s2","previewUrl":"` + junk + `"}`, func(c *Client) []string {
			p, err := c.Deployments.Preview(context.Background(), "p", "main")
			if err != nil {
				t.Fatal(err)
			}
			return p.Problems
		}},
		"timestamp": {`{"_id":"s1","status":"queued","createdAt":"` + junk + `"}`, func(c *Client) []string {
			d, err := c.Deployments.Status(context.Background(), "s1")
			if err != nil {
				t.Fatal(err)
			}
			return d.Problems
		}},
		"another status's id": {`{"_id":"` + junk + `","status":"queued"}`, func(c *Client) []string {
			_, err := c.Deployments.Status(context.Background(), "s1")
			return []string{fmt.Sprint(err)}
		}},
		"another automation": {`{"schemaId":"` + junk + `","instanceId":"i","jobId":"j"}`, func(c *Client) []string {
			_, err := c.Automations.Trigger(context.Background(), "p", "a")
			return []string{fmt.Sprint(err)}
		}},
	} {
		_, ts := newRecorder(t, jsonResponse(200, tt.answer))
		got := strings.Join(tt.call(newTestClient(t, ts.URL, nil)), "\n")
		if strings.Contains(got, "mint_") || !strings.Contains(got, Redacted) {
			t.Errorf("%s: %s", name, got)
		}
	}
}
