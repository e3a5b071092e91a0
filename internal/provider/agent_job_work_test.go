package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// promptOf is the prompt a POST sent ("" for other requests).
func promptOf(r *http.Request) string {
	var body struct {
		Prompt string `json:"prompt"`
	}
	if r.Method == http.MethodPost {
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &body)
	}
	return body.Prompt
}

var oddMarker = regexp.MustCompile(`\[odd:([a-zA-Z]+)\]`)

// oddAnswers rewrite the fake's answer to a POST the way a misbehaving API
// might, each picked by the marker [odd:NAME] in the POST's prompt.
var oddAnswers = map[string]func(body string) string{
	"createdAt": func(b string) string {
		return regexp.MustCompile(`"createdAt":"[^"]*"`).ReplaceAllString(b, `"createdAt":12345`)
	},
	"statusnum": func(b string) string { return strings.Replace(b, `"status":"active"`, `"status":7`, 1) },
	"nostatus":  func(b string) string { return strings.Replace(b, `"status":"active",`, ``, 1) },
	"empty":     func(string) string { return `{}` },
	"text":      func(string) string { return `OK` },
	"html":      func(string) string { return `<html><body><h1>Accepted</h1></body></html>` },
	"otherjob": func(b string) string {
		return regexp.MustCompile(`"id":"[^"]*"`).ReplaceAllString(b, `"id":"someone-elses-job"`)
	},
}

// oddProblems is what the provider says of each odd answer, as the SDK
// words it; JOB stands for the job's id.
var oddProblems = map[string]string{
	"createdAt": `createdAt: want a string, got a number`,
	"statusnum": `status: want a string, got a number`,
	"nostatus":  `status: missing or empty`,
	"empty": `the API accepted the message, but its answer is not this job: malformed response to POST ` +
		`/v2/agent/demo-project/job/JOB/message: id: missing or empty; status: missing or empty`,
	"text": `the API accepted the message, but its answer is not this job: malformed response to POST ` +
		`/v2/agent/demo-project/job/JOB/message: the body is not the API's JSON`,
	"html": `the API accepted the message, but its answer is not this job: malformed response to POST ` +
		`/v2/agent/demo-project/job/JOB/message: the body is not the API's JSON`,
	"otherjob": `the API accepted the message, but its answer is not this job: malformed response to POST ` +
		`/v2/agent/demo-project/job/JOB/message: id: the answer is for job "someone-elses-job", not job "JOB"`,
}

// rewriteOdd answers a 2xx POST whose prompt carries [odd:NAME] as
// oddAnswers[NAME] says; everything else passes unchanged.
func rewriteOdd(r *http.Request, status int, body string) (int, string) {
	if m := oddMarker.FindStringSubmatch(promptOf(r)); m != nil && status/100 == 2 {
		body = oddAnswers[m[1]](body)
	}
	return status, body
}

// unexpectedAnswer is the warning the provider gives about odd fields in
// the answers about job id.
func unexpectedAnswer(id, problems string) string {
	return "warning: Unexpected answer from Mintlify: Mintlify's answers about agent job " + id + " had fields the provider " +
		"could not use: " + problems + ". The agent job is kept as it is and nothing is run again because of it; the " +
		"attributes that could not be read are empty.\n"
}

// runOddAnswers applies cfg, whose instances addr[i] meet the odd answer
// odd[i], and checks each instance in state with checkOne (given the
// warnings so far); the provider must warn once per instance and give no
// error. The same cfg again then plans nothing: no odd answer is retried.
func runOddAnswers(t *testing.T, clk *testClock, cfg, addr string, odd []string, checkOne func(addr, key string, vals map[string]any, warnings string) error) {
	t.Helper()
	rec := &diagRecorder{}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: recordingProviders(clk, rec),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{checkState(func(s *tfjson.State) error {
					warnings := rec.text()
					for i, key := range odd {
						instance := fmt.Sprintf("%s[%d]", addr, i)
						vals, ok := resourceValues(s.Values.RootModule, instance)
						if !ok {
							return fmt.Errorf("%s not in state", instance)
						}
						if err := checkOne(instance, key, vals, warnings); err != nil {
							return err
						}
					}
					if n := rec.count("ApplyResourceChange", "Unexpected answer from Mintlify"); n != len(odd) || strings.Contains(warnings, "error:") {
						return fmt.Errorf("%d warnings, want %d:\n%s", n, len(odd), warnings)
					}
					return nil
				})},
			},
			{
				Config:           cfg,
				ConfigPlanChecks: plansNothing(),
			},
		},
	})
}

func TestJobWork_aRequestThatNeverLeftDoesNotClaimAJob(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String()
	ln.Close()
	data := clientFor(t, closed)
	var diags diag.Diagnostics
	w := jobWork(data, "p", func(ctx context.Context) (*sdk.AgentJob, error) { return data.client.AgentJobs.Create(ctx, "p", "x") })
	w.doWait, w.timeout, w.words = true, time.Minute, createWords
	w.record = func(*sdk.AgentJob) { t.Error("no job") }
	job := w.run(t.Context(), &diags)
	text := diagText(diags, diag.SeverityError)
	if job != nil || len(diags) != 1 || !strings.HasPrefix(text, "Could not create the agent job: ") || !strings.Contains(text, "connection refused") {
		t.Fatalf("%v: %s", job, text)
	}
	if strings.Contains(text, "may exist") || strings.Contains(text, "may have reached") {
		t.Errorf("a refused connection claims a job may exist: %s", text)
	}
}
