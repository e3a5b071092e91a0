package provider

import (
	"cmp"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The actions through the real CLI (Terraform 1.14+; cliDir): each one
// triggered by a resource's lifecycle during terraform apply and invoked
// with terraform apply -invoke, and what on_failure = halt | continue |
// taint makes of a failure. What the CLI prints is asserted: the progress
// messages and a warning are in no state or plan for
// terraform-plugin-testing to check.

// actionConfig is the provider for the fake at url, an action block of
// typ named "this" whose config block holds body, and a terraform_data
// resource "release" (input "v1") whose lifecycle runs the action on
// events, with on_failure unless it is "".
func actionConfig(url, typ, body, events, onFailure string) map[string]string {
	failure := ""
	if onFailure != "" {
		failure = "\n      on_failure = " + onFailure
	}
	return map[string]string{"main.tf": providerBlock(url) + fmt.Sprintf(`
variable "input" {
  default = "v1"
}

action %[1]q "this" {
  config {
%[2]s
  }
}

resource "terraform_data" "release" {
  input = var.input

  lifecycle {
    action_trigger {
      events  = [%[3]s]
      actions = [action.%[1]s.this]%[4]s
    }
  }
}
`, typ, body, events, failure)}
}

// wantOutput fails the test unless out holds each of wants, in order.
func wantOutput(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	rest := out
	for _, w := range wants {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Errorf("%s lacks %q (or has it out of order):\n%s", what, w, out)
			return
		}
		rest = rest[i+len(w):]
	}
}

// Every action, run by a resource's after_create trigger and then by
// apply -invoke: one object started each time, the action's progress
// printed, no resource planned by -invoke, and nothing run again by a
// later plan.
func TestAccActions_triggeredAndInvoked(t *testing.T) {
	exportPath := filepath.Join(t.TempDir(), "docs.tar.gz")
	for _, tt := range []struct {
		typ  string
		body func(t *testing.T, fs *mintlifytest.Fake) string
		// started is how many objects the fake holds of what the action
		// starts; progress what the action said of the nth.
		started  func(fs *mintlifytest.Fake) int
		progress func(t *testing.T, fs *mintlifytest.Fake, n int) []string
	}{
		{
			typ:     "mintlify_agent_job",
			body:    func(*testing.T, *mintlifytest.Fake) string { return `    prompt = "Document it"` },
			started: func(fs *mintlifytest.Fake) int { return len(fs.JobIDs(mintlifytest.DemoProjectID)) },
			progress: func(_ *testing.T, fs *mintlifytest.Fake, n int) []string {
				id := fs.JobIDs(mintlifytest.DemoProjectID)[n-1]
				return []string{"Agent job " + id + ` created in project "demo-project"; it is active.`,
					"Agent job " + id + " is now completed (was active).", "Agent job " + id + " is completed: pull request https://github.com/acme/demo-project/pull/"}
			},
		},
		{
			typ: "mintlify_agent_job_message",
			body: func(_ *testing.T, fs *mintlifytest.Fake) string {
				return fmt.Sprintf("    job_id = %q\n    prompt = \"Also the changelog\"", fs.CreateJob(mintlifytest.DemoProjectID, "[fake:completed] First round"))
			},
			started: func(fs *mintlifytest.Fake) int { return fs.Requests(mintlifytest.RouteAgentJobsSendMessage) },
			progress: func(_ *testing.T, fs *mintlifytest.Fake, _ int) []string {
				id := fs.JobIDs(mintlifytest.DemoProjectID)[0]
				return []string{"Message sent to agent job " + id + ` in project "demo-project"; the job is active.`,
					"Agent job " + id + " is now completed (was active).", "Agent job " + id + " is completed: pull request"}
			},
		},
		{
			typ:     "mintlify_deployment",
			body:    func(*testing.T, *mintlifytest.Fake) string { return `    timeout = "10m"` },
			started: func(fs *mintlifytest.Fake) int { return len(fs.DeploymentIDs(mintlifytest.DemoProjectID)) },
			progress: func(_ *testing.T, fs *mintlifytest.Fake, n int) []string {
				id := fs.DeploymentIDs(mintlifytest.DemoProjectID)[n-1]
				return []string{"Deployment " + id + ` of project "demo-project" queued.`, "Deployment " + id + " is now in_progress (was queued).",
					"Deployment " + id + " is now success (was in_progress).", "Deployment " + id + " succeeded: Deployed 42 pages."}
			},
		},
		{
			typ:  "mintlify_preview_deployment",
			body: func(*testing.T, *mintlifytest.Fake) string { return `    branch = "feature/x"` },
			started: func(fs *mintlifytest.Fake) int {
				rec, _ := fs.Preview(mintlifytest.DemoProjectID, "feature/x")
				return len(rec.StatusIDs)
			},
			progress: func(_ *testing.T, fs *mintlifytest.Fake, n int) []string {
				rec, _ := fs.Preview(mintlifytest.DemoProjectID, "feature/x")
				id := rec.StatusIDs[n-1]
				return []string{"Preview deployment " + id + ` of branch "feature/x" of project "demo-project" queued at https://demo-project-feature-x.mintlify.app.`,
					"Preview deployment " + id + " is now success", `The preview of branch "feature/x" is live at https://demo-project-feature-x.mintlify.app: Deployed 42 pages.`}
			},
		},
		{
			typ: "mintlify_automation_run",
			body: func(*testing.T, *mintlifytest.Fake) string {
				return `    automation_id = "` + mintlifytest.DemoAutomationID + `"`
			},
			started: func(fs *mintlifytest.Fake) int { return len(fs.AutomationRuns(mintlifytest.DemoProjectID)) },
			progress: func(_ *testing.T, fs *mintlifytest.Fake, n int) []string {
				run := fs.AutomationRuns(mintlifytest.DemoProjectID)[n-1]
				return []string{`Automation demo-automation of project "demo-project" queued: run ` + run.InstanceID + ", job " + run.JobID}
			},
		},
		{
			typ: "mintlify_static_export",
			body: func(*testing.T, *mintlifytest.Fake) string {
				return fmt.Sprintf("    domain      = \"docs.example.com\"\n    version     = \"v2 [fake:pages=40]\"\n    output_path = %q", exportPath)
			},
			started: func(fs *mintlifytest.Fake) int { return len(fs.StaticExportIDs()) },
			progress: func(t *testing.T, fs *mintlifytest.Fake, n int) []string {
				id := fs.StaticExportIDs()[n-1]
				sum, size := archiveSHA256(t, fs, id)
				if got := fileSHA256(t, exportPath); got != sum {
					t.Errorf("the file's SHA-256 is %s, the fake's archive's %s", got, sum)
				}
				return []string{"Static export " + id + " of docs.example.com started; it is queued (0 pages).",
					"Static export " + id + " is now completed (40 pages).",
					fmt.Sprintf("Saved the archive of static export %s to %s: %d bytes, SHA-256 %s.", id, exportPath, size, sum)}
			},
		},
	} {
		t.Run(tt.typ, func(t *testing.T) {
			fs, url, clk := startAccFake(t, mintlifytest.Config{DefaultDeployment: testDeployment})
			c := newCLIDir(t, clk, cliActions, actionConfig(url, tt.typ, tt.body(t, fs), "after_create", ""))
			addr := "action." + tt.typ + ".this"

			out := c.ok("apply", "-auto-approve", "-input=false")
			if n := tt.started(fs); n != 1 {
				t.Fatalf("%d started by the trigger, want 1:\n%s", n, out)
			}
			prefix := "Action " + addr + " (triggered by terraform_data.release): "
			wantOutput(t, "the triggered apply", out, append(append([]string{"Plan: 1 to add, 0 to change, 0 to destroy. Actions: 1 to invoke.",
				"Action started: " + addr + " (triggered by terraform_data.release)"}, prefixed(prefix, tt.progress(t, fs, 1))...),
				"Action complete: "+addr+" (triggered by terraform_data.release)", "Apply complete! Resources: 1 added, 0 changed, 0 destroyed. Actions: 1 invoked.")...)

			out = c.ok("apply", "-auto-approve", "-input=false", "-invoke="+addr)
			if n := tt.started(fs); n != 2 {
				t.Fatalf("%d started after -invoke, want 2:\n%s", n, out)
			}
			prefix = "Action " + addr + " (triggered by CLI): "
			wantOutput(t, "apply -invoke", out, append(append([]string{"Plan: 0 to add, 0 to change, 0 to destroy. Actions: 1 to invoke.",
				"Action started: " + addr + " (triggered by CLI)"}, prefixed(prefix, tt.progress(t, fs, 2))...),
				"Action complete: "+addr+" (triggered by CLI)", "Apply complete! Resources: 0 added, 0 changed, 0 destroyed. Actions: 1 invoked.")...)

			if r := c.run("plan", "-detailed-exitcode", "-input=false"); r.code != 0 || !strings.Contains(r.out, "No changes.") {
				t.Errorf("a plan after both: exit status %d:\n%s", r.code, r.out)
			}
			if n := tt.started(fs); n != 2 {
				t.Errorf("%d started after a plan, want 2", n)
			}
		})
	}
}

// prefixed is each of lines with prefix before it.
func prefixed(prefix string, lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = prefix + l
	}
	return out
}

// onFailureCase is an action whose run fails, as a trigger runs it: what
// its failure is called (the diagnostic's summary), the fake that makes
// it fail, and how many objects the fake holds of what it starts.
type onFailureCase struct {
	typ, body, summary string
	cfg                mintlifytest.Config
	started            func(fs *mintlifytest.Fake) int
}

var onFailureCases = []onFailureCase{
	{typ: "mintlify_agent_job", body: `    prompt = var.prompt`, summary: "Agent job failed",
		started: func(fs *mintlifytest.Fake) int { return len(fs.JobIDs(mintlifytest.DemoProjectID)) }},
	{typ: "mintlify_deployment", body: `    timeout = "10m"`, summary: "Deployment failed", cfg: mintlifytest.Config{DefaultDeployment: failingDeployment},
		started: func(fs *mintlifytest.Fake) int { return len(fs.DeploymentIDs(mintlifytest.DemoProjectID)) }},
}

// failingPrompt fails the agent job it starts; var.prompt is it unless
// told otherwise.
const failingPrompt = "[fake:failed] Break it"

// onFailureDir is the working directory of an action's after_create
// trigger with on_failure (none when ""), and var.prompt.
func onFailureDir(t *testing.T, tt onFailureCase, events, onFailure string) (*mintlifytest.Fake, *cliDir) {
	t.Helper()
	fs, url, clk := startAccFake(t, tt.cfg)
	files := actionConfig(url, tt.typ, tt.body, events, onFailure)
	files["prompt.tf"] = fmt.Sprintf("variable \"prompt\" {\n  default = %q\n}\n", failingPrompt)
	return fs, newCLIDir(t, clk, cliActions, files)
}

// release is terraform_data.release in state, or nil.
func (c *cliDir) release() *tfjson.StateResource {
	c.t.Helper()
	s := c.state()
	if s.Values == nil {
		return nil
	}
	for _, r := range s.Values.RootModule.Resources {
		if r.Address == "terraform_data.release" {
			return r
		}
	}
	return nil
}

// What each on_failure makes of an action's failure in the trigger after
// the resource is created (Terraform 1.16): halt (the default) fails the
// apply and keeps the resource as it is, so the next plan runs nothing;
// continue makes the error a warning and completes the apply; taint fails
// the apply and taints the resource, so the next apply replaces it and
// runs the action again.
func TestAccActions_onFailure(t *testing.T) {
	for _, tt := range onFailureCases {
		for _, onFailure := range []string{"", "halt", "continue", "taint"} {
			t.Run(tt.typ+"/"+cmp.Or(onFailure, "default"), func(t *testing.T) {
				fs, c := onFailureDir(t, tt, "after_create", onFailure)
				r := c.run("apply", "-auto-approve", "-input=false")
				if n := tt.started(fs); n != 1 {
					t.Fatalf("%d started, want 1:\n%s", n, r.out)
				}
				release := c.release()
				if release == nil {
					t.Fatalf("terraform_data.release is not in state: it was created before the action ran:\n%s", r.out)
				}
				failed := "Action failed: action." + tt.typ + ".this (triggered by terraform_data.release) - " + tt.summary + ": "
				next := c.run("plan", "-detailed-exitcode", "-input=false")
				switch onFailure {
				case "", "halt":
					if r.code != 1 || release.Tainted || next.code != 0 {
						t.Errorf("apply: exit status %d, tainted %v; next plan: exit status %d:\n%s\n%s", r.code, release.Tainted, next.code, r.out, next.out)
					}
					wantOutput(t, "apply", r.out, failed, "Error: "+tt.summary)
				case "continue":
					if r.code != 0 || release.Tainted || next.code != 0 {
						t.Errorf("apply: exit status %d, tainted %v; next plan: exit status %d:\n%s\n%s", r.code, release.Tainted, next.code, r.out, next.out)
					}
					wantOutput(t, "apply", r.out, failed, "Warning: "+tt.summary, "Apply complete! Resources: 1 added, 0 changed, 0 destroyed. Actions: 1 invoked, 1 failed.")
				case "taint":
					if r.code != 1 || !release.Tainted || next.code != 2 {
						t.Errorf("apply: exit status %d, tainted %v; next plan: exit status %d:\n%s\n%s", r.code, release.Tainted, next.code, r.out, next.out)
					}
					wantOutput(t, "apply", r.out, failed, "Error: "+tt.summary)
					wantOutput(t, "the next plan", next.out, "terraform_data.release is tainted, so must be replaced",
						"Plan: 1 to add, 0 to change, 1 to destroy. Actions: 1 to invoke.")
				}
				if strings.Contains(r.out, "Warning: "+tt.summary) == (onFailure != "continue") {
					t.Errorf("on_failure = %q: the failure is a warning only with continue:\n%s", onFailure, r.out)
				}
				if n := tt.started(fs); n != 1 {
					t.Errorf("%d started after the next plan, want 1", n)
				}
			})
		}
	}
}

// A tainted resource is replaced by the next apply, which runs the action
// again: with a prompt that now succeeds, the apply completes, and the
// resource is no longer tainted.
func TestAccAgentJobAction_taintRetriesOnTheNextApply(t *testing.T) {
	fs, c := onFailureDir(t, onFailureCases[0], "after_create", "taint")
	if r := c.run("apply", "-auto-approve", "-input=false"); r.code != 1 {
		t.Fatalf("apply: exit status %d:\n%s", r.code, r.out)
	}
	out := c.ok("apply", "-auto-approve", "-input=false", "-var=prompt=Document it")
	wantOutput(t, "the second apply", out, "terraform_data.release: Destroying...", "terraform_data.release: Creating...",
		"is completed: pull request", "Apply complete! Resources: 1 added, 0 changed, 1 destroyed. Actions: 1 invoked.")
	if ids := fs.JobIDs(mintlifytest.DemoProjectID); len(ids) != 2 {
		t.Errorf("jobs %v, want the failed one and the new one", ids)
	}
	if release := c.release(); release == nil || release.Tainted {
		t.Errorf("terraform_data.release: %+v", release)
	}
}

// What fails a trigger, action by action: each case fails the apply with
// its error under on_failure's default (halt), but for an archived job,
// which warns and lets the apply complete. The docs' on_failure tables
// (templates/actions) say the same. Terraform 1.16 shows an action's
// warning after apply -invoke, but drops it when a trigger ran the action
// (its invokeActions keeps the diagnostics only when one is an error):
// there the progress message is all that says so.
func TestAccActions_whatFailsATrigger(t *testing.T) {
	archived := func(fs *mintlifytest.Fake) string {
		id, err := fs.SeedJob(mintlifytest.DemoProjectID, mintlifytest.JobSeed{Status: mintlifytest.JobArchived, Prompt: "Shelved"})
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("    job_id = %q\n    prompt = \"Also the changelog\"", id)
	}
	for name, tt := range map[string]struct {
		typ  string
		body func(fs *mintlifytest.Fake) string
		cfg  mintlifytest.Config
		// want is the diagnostic's summary; warns, whether it is a warning.
		want  string
		warns bool
	}{
		"a job that times out": {typ: "mintlify_agent_job", want: "Timed out waiting for the agent job",
			body: func(*mintlifytest.Fake) string { return "    prompt  = \"[fake:never] Forever\"\n    timeout = \"1m\"" }},
		"an archived job": {typ: "mintlify_agent_job", want: "Agent job archived", warns: true,
			body: func(*mintlifytest.Fake) string { return `    prompt = "[fake:archived] Shelve it"` }},
		"a job the API refuses": {typ: "mintlify_agent_job", want: "Could not create the agent job",
			body: func(*mintlifytest.Fake) string { return "    prompt     = \"x\"\n    project_id = \"no-such-project\"" }},
		"a message to an archived job": {typ: "mintlify_agent_job_message", want: "Could not send the message to the agent job", body: archived},
		"a deployment that times out": {typ: "mintlify_deployment", want: "Timed out waiting for the deployment",
			cfg:  mintlifytest.Config{DefaultDeployment: mintlifytest.DeploymentScript{Outcome: mintlifytest.DeployNever}},
			body: func(*mintlifytest.Fake) string { return `    timeout = "1m"` }},
		"a preview that fails": {typ: "mintlify_preview_deployment", want: "Preview deployment failed",
			body: func(*mintlifytest.Fake) string { return `    branch = "docs/fake-failure"` }},
		"a paused automation": {typ: "mintlify_automation_run", want: "Could not run the automation",
			body: func(*mintlifytest.Fake) string {
				return `    automation_id = "` + mintlifytest.DemoPausedAutomationID + `"`
			}},
		"an export that fails": {typ: "mintlify_static_export", want: "Static export failed",
			body: func(*mintlifytest.Fake) string {
				return "    domain  = \"docs.example.com\"\n    version = \"[fake:failed]\""
			}},
		"exports not enabled": {typ: "mintlify_static_export", want: "Could not start the static export",
			cfg:  mintlifytest.Config{StaticExports: mintlifytest.StaticExportConfig{Disabled: true}},
			body: func(*mintlifytest.Fake) string { return `    domain = "docs.example.com"` }},
		"a download that keeps breaking": {typ: "mintlify_static_export", want: "Could not download the archive of static export",
			cfg: mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteStaticExportsDownloadBundle, Kind: mintlifytest.FaultReset}}},
			body: func(*mintlifytest.Fake) string {
				return fmt.Sprintf("    domain      = \"docs.example.com\"\n    output_path = %q", filepath.Join(t.TempDir(), "docs.tar.gz"))
			}},
	} {
		t.Run(name, func(t *testing.T) {
			if tt.cfg.DefaultDeployment == (mintlifytest.DeploymentScript{}) {
				tt.cfg.DefaultDeployment = testDeployment
			}
			fs, url, clk := startAccFake(t, tt.cfg)
			c := newCLIDir(t, clk, cliActions, actionConfig(url, tt.typ, tt.body(fs), "after_create", ""))
			r := c.run("apply", "-auto-approve", "-input=false")
			if tt.warns {
				if r.code != 0 {
					t.Errorf("exit status %d, want 0", r.code)
				}
				wantOutput(t, "apply", r.out, "is now archived (was active).", "Apply complete!")
				wantOutput(t, "apply -invoke", c.ok("apply", "-auto-approve", "-input=false", "-invoke=action."+tt.typ+".this"),
					"is now archived (was active).", "Warning: "+tt.want, "Apply complete!")
				return
			}
			if r.code != 1 || strings.Contains(r.out, "Apply complete!") {
				t.Errorf("exit status %d, want 1", r.code)
			}
			wantOutput(t, "apply", r.out, "Action failed: action."+tt.typ+".this (triggered by terraform_data.release) - "+tt.want, "Error: "+tt.want)
		})
	}
}

// serviceConfig is a service whose removal the agent documents: a
// terraform_data resource that exists while var.enabled, with an agent job
// action on events (before_destroy, after_destroy) and on_failure.
func serviceConfig(url, events, onFailure string) map[string]string {
	return map[string]string{"main.tf": providerBlock(url) + fmt.Sprintf(`
variable "enabled" {
  default = true
}

variable "prompt" {
  default = "Document the removal of the payments service"
}

action "mintlify_agent_job" "removal" {
  config {
    prompt = var.prompt
  }
}

resource "terraform_data" "service" {
  count = var.enabled ? 1 : 0
  input = "payments"

  lifecycle {
    action_trigger {
      events     = [%s]
      actions    = [action.mintlify_agent_job.removal]
      on_failure = %s
    }
  }
}
`, events, onFailure)}
}

// Destroy-time triggers (Terraform 1.16): the job starts once, when the
// service is destroyed, not when it is created. A terraform destroy is
// never blocked by a trigger: its failure is a warning whatever on_failure
// says. An apply that removes the service (count = 0) follows on_failure:
// under halt (and taint, which only taints what after_create made) a
// failed before_destroy job keeps the service, under continue the service
// goes with a warning; a failed after_destroy job fails the apply once the
// service is gone.
func TestAccAgentJobAction_destroyTriggers(t *testing.T) {
	const failVar = "-var=prompt=" + failingPrompt
	for _, tt := range []struct {
		name, events, onFailure string
		// args destroy the service; code is their exit status.
		args []string
		code int
		// kept: whether the service is in state after; want: what the
		// command prints, in order.
		kept bool
		want []string
	}{
		{name: "terraform destroy", events: "before_destroy", onFailure: "halt", args: []string{"destroy"},
			want: []string{"terraform_data.service[0]: Destroying...", "Action started: action.mintlify_agent_job.removal (triggered by terraform_data.service[0])",
				"is completed: pull request", "Destroy complete! Resources: 1 destroyed. Actions: 1 invoked."}},
		{name: "terraform destroy, the job fails", events: "before_destroy", onFailure: "halt", args: []string{"destroy", failVar},
			want: []string{"Warning: Agent job failed", "Destroy complete! Resources: 1 destroyed. Actions: 1 invoked, 1 failed."}},
		{name: "count = 0, the job fails, halt", events: "before_destroy", onFailure: "halt", args: []string{"apply", "-var=enabled=false", failVar},
			code: 1, kept: true, want: []string{"Error: Agent job failed"}},
		{name: "count = 0, the job fails, taint", events: "before_destroy", onFailure: "taint", args: []string{"apply", "-var=enabled=false", failVar},
			code: 1, kept: true, want: []string{"Error: Agent job failed"}},
		{name: "count = 0, the job fails, continue", events: "before_destroy", onFailure: "continue", args: []string{"apply", "-var=enabled=false", failVar},
			want: []string{"Warning: Agent job failed", "Apply complete! Resources: 0 added, 0 changed, 1 destroyed. Actions: 1 invoked, 1 failed."}},
		{name: "count = 0, after_destroy, the job fails, halt", events: "after_destroy", onFailure: "halt", args: []string{"apply", "-var=enabled=false", failVar},
			code: 1, want: []string{"terraform_data.service[0]: Destroying...", "Action failed: action.mintlify_agent_job.removal", "Error: Agent job failed"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs, url, clk := startAccFake(t, mintlifytest.Config{})
			c := newCLIDir(t, clk, cliActions, serviceConfig(url, tt.events, tt.onFailure))
			wantOutput(t, "the create", c.ok("apply", "-auto-approve", "-input=false"), "Apply complete! Resources: 1 added, 0 changed, 0 destroyed.")
			if ids := fs.JobIDs(mintlifytest.DemoProjectID); len(ids) != 0 {
				t.Fatalf("jobs %v started by the create", ids)
			}
			r := c.run(append(tt.args, "-auto-approve", "-input=false")...)
			if r.code != tt.code {
				t.Errorf("exit status %d, want %d:\n%s", r.code, tt.code, r.out)
			}
			wantOutput(t, tt.args[0], r.out, tt.want...)
			ids := fs.JobIDs(mintlifytest.DemoProjectID)
			if len(ids) != 1 {
				t.Fatalf("jobs %v, want one", ids)
			}
			if rec, _ := fs.JobRecord(mintlifytest.DemoProjectID, ids[0]); !strings.HasSuffix(rec.Prompt, "payments service") && !strings.HasPrefix(rec.Prompt, "[fake:failed]") {
				t.Errorf("the job's prompt is %q", rec.Prompt)
			}
			s := c.state()
			kept := s.Values != nil && len(s.Values.RootModule.Resources) == 1
			if kept != tt.kept {
				t.Errorf("the service is in state: %v, want %v", kept, tt.kept)
			}
		})
	}
}

// interruptAtSecondPoll makes the test's clock interrupt the command under
// way in c at the action's second poll (Ctrl-C), and wait there until the
// provider is told to stop.
func interruptAtSecondPoll(t *testing.T, c *cliDir, clk *testClock, fs *mintlifytest.Fake) {
	clk.onSleep(func(ctx context.Context) {
		if fs.Requests(mintlifytest.RouteAgentJobsGet) != 2 {
			return
		}
		c.interrupt("it is active.")
		select {
		case <-ctx.Done():
		case <-time.After(time.Minute):
			t.Error("Terraform did not stop the provider within a minute of the interrupt")
		}
	})
}

// Ctrl-C while an action waits for its job: the provider stops waiting at
// once and sends nothing more; the job goes on at Mintlify. What
// Terraform 1.16 then reports depends on timing, apply -invoke and a
// trigger alike: either the action's error ("Interrupted while waiting
// for the agent job", naming it) with exit status 1, or, when the stop
// reached its graph walk first, no error of the action at all: "Apply
// complete!" with exit status 0 after -invoke, "execution halted" with
// status 1 after a trigger (the resource created). The docs (the action
// pages, troubleshooting) say so.
func TestAccAgentJobAction_interrupted(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		// dropped is what Terraform prints when it drops the action's
		// error, and its exit status.
		dropped string
		code    int
	}{
		{"apply -invoke", []string{"-invoke=action.mintlify_agent_job.this"}, "Apply complete! Resources: 0 added, 0 changed, 0 destroyed.", 0},
		{"a trigger", nil, "Error: execution halted", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs, url, clk := startAccFake(t, mintlifytest.Config{})
			c := newCLIDir(t, clk, cliActions, actionConfig(url, "mintlify_agent_job", `    prompt = "[fake:never] Forever"`, "after_create", ""))
			interruptAtSecondPoll(t, c, clk, fs)
			r := c.run(append([]string{"apply", "-auto-approve", "-input=false"}, tt.args...)...)
			wantRequests(t, fs, mintlifytest.RouteAgentJobsCreate, 1, "jobs started")
			wantRequests(t, fs, mintlifytest.RouteAgentJobsGet, 2, "polls: none after the interrupt")
			id := fs.JobIDs(mintlifytest.DemoProjectID)[0]
			wantOutput(t, "apply", r.out, "Interrupt received.")
			switch {
			case strings.Contains(r.out, "Error: Interrupted while waiting for the agent job"):
				wantOutput(t, "apply", r.out, "Error: Interrupted while waiting for the agent job", "Agent job "+id+" goes on at Mintlify")
				if r.code != 1 {
					t.Errorf("exit status %d after the action's error", r.code)
				}
				t.Logf("Terraform reported the action's error, exit status %d", r.code)
			case strings.Contains(r.out, tt.dropped) && r.code == tt.code:
				t.Logf("Terraform dropped the action's error: %q, exit status %d", tt.dropped, r.code)
			default:
				t.Errorf("exit status %d: neither the action's error nor %q:\n%s", r.code, tt.dropped, r.out)
			}
			if tt.args == nil && c.release() == nil {
				t.Error("terraform_data.release is not in state: it was created before the action ran")
			}
		})
	}
}
