package provider

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
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
		// requests, when not 0, is how many requests the two runs take.
		requests int
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
				return []string{`Automation demo-automation of project "demo-project" queued: run ` + run.InstanceID + ", job " + run.JobID +
					". Follow it in the run history of the dashboard's Automations page (the API has no status for runs)."}
			},
			requests: 2, // the action does not poll
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
			if n := fs.TotalRequests(); tt.requests != 0 && n != tt.requests {
				t.Errorf("%d requests, want %d", n, tt.requests)
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
	archived := func(fs *mintlifytest.Fake, _ string) string {
		id, err := fs.SeedJob(mintlifytest.DemoProjectID, mintlifytest.JobSeed{Status: "archived", Prompt: "Shelved"})
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("    job_id = %q\n    prompt = \"Also the changelog\"", id)
	}
	for name, tt := range map[string]struct {
		typ  string
		body func(fs *mintlifytest.Fake, dir string) string
		cfg  mintlifytest.Config
		// want is the diagnostic's summary; warns, whether it is a warning;
		// detail, what its detail says, in order.
		want   string
		warns  bool
		detail []string
	}{
		"a job that times out": {typ: "mintlify_agent_job", want: "Timed out waiting for the agent job",
			body: func(*mintlifytest.Fake, string) string {
				return "    prompt  = \"[fake:never] Forever\"\n    timeout = \"1m\""
			}},
		"an archived job": {typ: "mintlify_agent_job", want: "Agent job archived", warns: true,
			body: func(*mintlifytest.Fake, string) string { return `    prompt = "[fake:archived] Shelve it"` }},
		"a job the API refuses": {typ: "mintlify_agent_job", want: "Could not create the agent job",
			body: func(*mintlifytest.Fake, string) string {
				return "    prompt     = \"x\"\n    project_id = \"no-such-project\""
			}},
		"a message to an archived job": {typ: "mintlify_agent_job_message", want: "Could not send the message to the agent job", body: archived},
		"a deployment that times out": {typ: "mintlify_deployment", want: "Timed out waiting for the deployment",
			cfg:  mintlifytest.Config{DefaultDeployment: mintlifytest.DeploymentScript{Outcome: mintlifytest.OutcomeNever}},
			body: func(*mintlifytest.Fake, string) string { return `    timeout = "1m"` }},
		"a deployment that fails": {typ: "mintlify_deployment", want: "Deployment failed", cfg: mintlifytest.Config{DefaultDeployment: failingDeployment},
			body:   func(*mintlifytest.Fake, string) string { return `    timeout = "10m"` },
			detail: []string{"broken link to /missing-page", "Invoke the action again to deploy again."}},
		"an automation run whose answer is lost": {typ: "mintlify_automation_run", want: "Could not run the automation",
			cfg: mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteAutomationsTrigger, Kind: mintlifytest.FaultDropConnection}}},
			body: func(*mintlifytest.Fake, string) string {
				return `    automation_id = "` + mintlifytest.DemoAutomationID + `"`
			},
			detail: []string{"the run may have been queued", "run history"}},
		"a preview that fails": {typ: "mintlify_preview_deployment", want: "Preview deployment failed",
			body: func(*mintlifytest.Fake, string) string { return `    branch = "docs/fake-failure"` }},
		"a paused automation": {typ: "mintlify_automation_run", want: "Could not run the automation",
			body: func(*mintlifytest.Fake, string) string {
				return `    automation_id = "` + mintlifytest.DemoPausedAutomationID + `"`
			}},
		"an export that fails": {typ: "mintlify_static_export", want: "Static export failed",
			body: func(*mintlifytest.Fake, string) string {
				return "    domain  = \"docs.example.com\"\n    version = \"[fake:failed]\""
			}},
		"exports not enabled": {typ: "mintlify_static_export", want: "Could not start the static export",
			cfg:    mintlifytest.Config{StaticExports: mintlifytest.StaticExportConfig{Disabled: true}},
			body:   func(*mintlifytest.Fake, string) string { return `    domain = "docs.example.com"` },
			detail: []string{"403 Forbidden", "Static export is not enabled for this organization", "Static export is an Enterprise feature"}},
		"a download that keeps breaking": {typ: "mintlify_static_export", want: "Could not download the archive of static export",
			cfg: mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteStaticExportsDownloadBundle, Kind: mintlifytest.FaultReset}}},
			body: func(_ *mintlifytest.Fake, dir string) string {
				return fmt.Sprintf("    domain      = \"docs.example.com\"\n    output_path = %q", filepath.Join(dir, "a.tgz"))
			}},
	} {
		t.Run(name, func(t *testing.T) {
			if tt.cfg.DefaultDeployment == (mintlifytest.DeploymentScript{}) {
				tt.cfg.DefaultDeployment = testDeployment
			}
			fs, url, clk := startAccFake(t, tt.cfg)
			dir := t.TempDir()
			c := newCLIDir(t, clk, cliActions, actionConfig(url, tt.typ, tt.body(fs, dir), "after_create", ""))
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
			wantOutput(t, "the error", flat(r.out[strings.Index(r.out, "Error: "):]), tt.detail...)
			if strings.Contains(r.out, "may have") != strings.Contains(strings.Join(tt.detail, " "), "may have") {
				t.Errorf("a refusal is not a maybe, a lost answer is:\n%s", r.out)
			}
			if names := dirEntries(t, dir); len(names) != 0 {
				t.Errorf("the failed action left files: %v", names)
			}
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

// invokeConfig is the provider for the fake at url and the action block
// of typ named "this" with body in its config block: for apply -invoke.
func invokeConfig(url, typ, body string) map[string]string {
	return map[string]string{"main.tf": providerBlock(url) + fmt.Sprintf(`
action %q "this" {
  config {
%s
  }
}
`, typ, body)}
}

// invoke runs terraform apply -invoke of the action of typ named "this",
// with body as its configuration, and returns the progress messages it
// printed, in order, and all it printed, flat (see flat), and its exit
// status.
func (c *cliDir) invoke(typ, body string) (progress []string, out string, code int) {
	c.t.Helper()
	c.write(invokeConfig(c.url, typ, body))
	r := c.run("apply", "-auto-approve", "-input=false", "-invoke=action."+typ+".this")
	prefix := "Action action." + typ + ".this (triggered by CLI): "
	for _, line := range strings.Split(r.out, "\n") {
		if msg, ok := strings.CutPrefix(line, prefix); ok {
			progress = append(progress, msg)
		}
	}
	return progress, flat(r.out), r.code
}

// flat is what the CLI printed, its lines trimmed and joined by one space:
// a diagnostic's words as the provider wrote them, which Terraform wraps
// at 80 columns.
func flat(out string) string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, " ")
}

// invokeDir is a working directory for apply -invoke against a fake with
// cfg (testDeployment unless cfg says).
func invokeDir(t *testing.T, cfg mintlifytest.Config) (*mintlifytest.Fake, *cliDir, *testClock) {
	t.Helper()
	if cfg.DefaultDeployment == (mintlifytest.DeploymentScript{}) {
		cfg.DefaultDeployment = testDeployment
	}
	fs, url, clk := startAccFake(t, cfg)
	c := newCLIDir(t, clk, cliActions, map[string]string{"main.tf": providerBlock(url)})
	c.url = url
	return fs, c, clk
}

// What the agent job actions report of each outcome, message by message,
// and their diagnostic: a failed job fails the command, an archived one
// warns (naming its pull request when it opened one). A job's wait takes
// its three minutes of the test's clock, and no wall time.
func TestAccAgentJobActions_reportEachOutcome(t *testing.T) {
	for name, tt := range map[string]struct {
		prompt       string
		message      bool // a follow-up to a job that finished, not a new job
		wantProgress []string
		wantCode     int
		wantDiag     []string
	}{
		"completed with a pull request": {prompt: "Document it", wantProgress: []string{created, nowDone, prOpened}},
		"completed, no change": {prompt: "[fake:nochange] Check it", wantProgress: []string{created, nowDone,
			"Agent job ID is completed and opened no pull request (the agent changed no files)."}},
		"failed": {prompt: "[fake:failed] Break it", wantProgress: []string{created, "Agent job ID is now failed (was active)."}, wantCode: 1,
			wantDiag: []string{"Error: Agent job failed with action.mintlify_agent_job.this,", `{ Agent job ID ended with status "failed". Invoke the ` +
				"action again to start a new job. See the job in the Mintlify dashboard for the agent's error."}},
		"archived": {prompt: "[fake:archived] Shelve it", wantProgress: []string{created, "Agent job ID is now archived (was active)."},
			wantDiag: []string{"Warning: Agent job archived with action.mintlify_agent_job.this,",
				"{ Agent job ID was archived before it completed; pr_link is null (the job opened no pull request)."}},
		"a message": {prompt: "[fake:active=10m] Also the changelog", message: true,
			wantProgress: []string{`Message sent to agent job ID in project "demo-project"; the job is active.`, nowDone, prOpened}},
		"a message, then archived": {prompt: "[fake:archived] Shelve it", message: true,
			wantProgress: []string{`Message sent to agent job ID in project "demo-project"; the job is active.`,
				"Agent job ID is now archived (was active).", "Agent job ID is archived: pull request https://github.com/acme/demo-project/pull/101"},
			wantDiag: []string{"Warning: Agent job archived with action.mintlify_agent_job_message.this,",
				"{ Agent job ID was archived before it completed; pr_link is https://github.com/acme/demo-project/pull/101."}},
	} {
		t.Run(name, func(t *testing.T) {
			fs, c, clk := invokeDir(t, mintlifytest.Config{})
			typ, body := "mintlify_agent_job", fmt.Sprintf("    prompt = %q", tt.prompt)
			var id string
			if tt.message {
				id = fs.CreateJob(mintlifytest.DemoProjectID, "[fake:active=1m] First round")
				clk.Advance(time.Minute)
				typ, body = "mintlify_agent_job_message", fmt.Sprintf("    job_id = %q\n    prompt = %q", id, tt.prompt)
			}
			start := clk.Now()
			progress, out, code := c.invoke(typ, body)
			if !tt.message {
				id = onlyJob(t, fs)
			}
			sameLines(t, "progress", progress, id, tt.wantProgress...)
			if code != tt.wantCode {
				t.Errorf("exit status %d, want %d", code, tt.wantCode)
			}
			for i := range tt.wantDiag {
				tt.wantDiag[i] = strings.ReplaceAll(tt.wantDiag[i], "ID", id)
			}
			wantOutput(t, "apply -invoke", out, tt.wantDiag...)
			if waited := clk.Now().Sub(start); !tt.message && (waited < 3*time.Minute || waited > 4*time.Minute) {
				t.Errorf("the wait lasted %s of the clock", waited)
			}
		})
	}
}

// onlyJob is the id of the one job of the demo project, after one POST.
func onlyJob(t *testing.T, fs *mintlifytest.Fake) string {
	t.Helper()
	ids := fs.JobIDs(mintlifytest.DemoProjectID)
	if len(ids) != 1 || fs.Requests(mintlifytest.RouteAgentJobsCreate) != 1 {
		t.Fatalf("jobs %v after %d POSTs", ids, fs.Requests(mintlifytest.RouteAgentJobsCreate))
	}
	return ids[0]
}

// wait_for_completion = false ends the action once the job, the deployment
// or the export is accepted: no poll, no time on the clock.
func TestAccActions_withoutWaitingPollNothing(t *testing.T) {
	for _, tt := range []struct {
		typ, body, route string
		cfg              mintlifytest.Config
	}{
		{"mintlify_agent_job", "    prompt              = \"[fake:never] Fire and forget\"\n    wait_for_completion = false", mintlifytest.RouteAgentJobsGet, mintlifytest.Config{}},
		{"mintlify_deployment", "    wait_for_completion = false", mintlifytest.RouteDeploymentsStatus,
			mintlifytest.Config{DefaultDeployment: mintlifytest.DeploymentScript{Outcome: mintlifytest.OutcomeNever}}},
		{"mintlify_static_export", "    domain              = \"docs.example.com\"\n    wait_for_completion = false", mintlifytest.RouteStaticExportsGet, mintlifytest.Config{}},
	} {
		t.Run(tt.typ, func(t *testing.T) {
			fs, c, clk := invokeDir(t, tt.cfg)
			progress, out, code := c.invoke(tt.typ, tt.body)
			if code != 0 || len(progress) != 1 {
				t.Errorf("exit status %d, progress %q:\n%s", code, progress, out)
			}
			if n := fs.Requests(tt.route); n != 0 || !clk.Now().Equal(epoch) {
				t.Errorf("%d polls, until %s, without waiting", n, clk.Now())
			}
		})
	}
	// An action without a config block at all: every attribute is optional.
	fs, c, _ := invokeDir(t, mintlifytest.Config{})
	c.write(map[string]string{"main.tf": providerBlock(c.url) + "\naction \"mintlify_deployment\" \"publish\" {}\n"})
	wantOutput(t, "an action without config", c.ok("apply", "-auto-approve", "-input=false", "-invoke=action.mintlify_deployment.publish"),
		"succeeded: Deployed 42 pages.", "Apply complete!")
	wantRequests(t, fs, mintlifytest.RouteDeploymentsTrigger, 1, "deployments")
}

// A timeout fails the action naming what goes on at Mintlify, after
// exactly the timeout (30m by default) of the test's clock.
func TestAccActions_timeoutNamesWhatGoesOn(t *testing.T) {
	for name, tt := range map[string]struct {
		typ, body string
		cfg       mintlifytest.Config
		waited    time.Duration
		want      func(fs *mintlifytest.Fake) string
	}{
		"a job": {typ: "mintlify_agent_job", body: "    prompt  = \"[fake:never] Forever\"\n    timeout = \"2m\"", waited: 2 * time.Minute,
			want: func(fs *mintlifytest.Fake) string {
				return "{ Agent job " + onlyJob(t, fs) + " goes on at Mintlify: an action keeps no state, so " +
					"follow it in the Mintlify dashboard. It was still active after 2m. This can take a while: raise the limit with timeout = \"60m\""
			}},
		"a job, by default": {typ: "mintlify_agent_job", body: `    prompt = "[fake:never] Forever"`, waited: DefaultCreateTimeout,
			want: func(*mintlifytest.Fake) string { return "It was still active after 30m." }},
		"a deployment": {typ: "mintlify_deployment", body: `    timeout = "2m"`, waited: 2 * time.Minute,
			cfg: mintlifytest.Config{DefaultDeployment: mintlifytest.DeploymentScript{Outcome: mintlifytest.OutcomeNever}},
			want: func(fs *mintlifytest.Fake) string {
				return "Deployment " + fs.DeploymentIDs(mintlifytest.DemoProjectID)[0] + " goes on at Mintlify: an action keeps no state, so follow it " +
					"with the data source mintlify_deployment_status or in the Mintlify dashboard. It was still in_progress after 2m."
			}},
		"an export": {typ: "mintlify_static_export", body: "    domain      = \"docs.example.com\"\n    version     = \"[fake:never]\"\n    timeout     = \"10m\"\n    output_path = \"a.tgz\"",
			waited: 10 * time.Minute, want: func(fs *mintlifytest.Fake) string {
				return "Static export " + fs.StaticExportIDs()[0] + " goes on at Mintlify"
			}},
	} {
		t.Run(name, func(t *testing.T) {
			fs, c, clk := invokeDir(t, tt.cfg)
			_, out, code := c.invoke(tt.typ, tt.body)
			if want := tt.want(fs); code != 1 || !strings.Contains(out, want) {
				t.Errorf("exit status %d; the output lacks %q:\n%s", code, want, out)
			}
			if waited := clk.Now().Sub(epoch); waited < tt.waited || waited > tt.waited+time.Minute {
				t.Errorf("the wait lasted %s of the clock, want %s", waited, tt.waited)
			}
			if _, err := os.Stat(filepath.Join(c.dir, "a.tgz")); !os.IsNotExist(err) {
				t.Errorf("output_path: %v", err)
			}
		})
	}
}

// A 404 names what was not found: the project of a new job, the job of a
// message; an automation the API refuses says why it may be.
func TestAccActions_refusalsSayWhatToCheck(t *testing.T) {
	fs, c, _ := invokeDir(t, mintlifytest.Config{})
	for _, tt := range []struct {
		typ, body string
		want      []string
	}{
		{"mintlify_agent_job", "    prompt     = \"x\"\n    project_id = \"no-such-project\"",
			[]string{"Error: Could not create the agent job", "404 Not Found: Project not found [request id req_", projectNotFound, seeTroubleshooting}},
		{"mintlify_agent_job_message", "    prompt = \"x\"\n    job_id = \"nope\"",
			[]string{"Error: Could not send the message to the agent job", "404 Not Found: Job not found [request id req_", jobNotFound, seeTroubleshooting}},
		{"mintlify_automation_run", `    automation_id = "` + mintlifytest.DemoPausedAutomationID + `"`,
			[]string{"Error: Could not run the automation", "400 Bad Request: Automation is not active", "Only an active automation on a custom schedule"}},
		{"mintlify_automation_run", `    automation_id = "` + mintlifytest.DemoDailyAutomationID + `"`, []string{"not configured with a custom schedule"}},
		{"mintlify_automation_run", `    automation_id = "no-such-automation"`,
			[]string{"404 Not Found", `Check automation_id: automation "no-such-automation" must belong to project "demo-project"`}},
	} {
		_, out, code := c.invoke(tt.typ, tt.body)
		if code != 1 {
			t.Errorf("%s: exit status %d", tt.typ, code)
		}
		wantOutput(t, tt.typ, out, tt.want...)
		if strings.Contains(out, "may have") {
			t.Errorf("%s: a refusal is not a maybe:\n%s", tt.typ, out)
		}
	}
	wantRequests(t, fs, mintlifytest.RouteAutomationsTrigger, 3, "automation runs asked")
}

// Invalid configuration fails terraform plan -invoke, naming the attribute
// and the rule, before any request; so does an action with no project
// when the provider has none.
func TestAccActions_invalidConfigFailsAtPlanWithNoRequest(t *testing.T) {
	fs, c, _ := invokeDir(t, mintlifytest.Config{})
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	const job, message, export = "mintlify_agent_job", "mintlify_agent_job_message", "mintlify_static_export"
	cases := []struct{ typ, body, want string }{
		{job, `prompt = "  "`, `prompt "  " must not be empty or only white space`},
		{job, `project_id = ".."`, `project_id ".." is not allowed`},
		{job, `project_id = "acme/docs"`, `project_id "acme/docs" may hold only ASCII letters, digits and - _ . ~ : (no slash, white space or control character).`},
		{message, `job_id = "."`, `job_id "." is not allowed`},
		{message, `job_id = "job 1"`, `job_id "job 1" may hold only ASCII letters`},
		{message, `prompt = ""`, `prompt "" must not be empty`},
		{"mintlify_deployment", `project_id = "a b"`, `project_id "a b" may hold only`},
		{"mintlify_preview_deployment", `branch = "feature/x.lock"`, `branch "feature/x.lock" ends with "." or ".lock"`},
		{"mintlify_automation_run", `automation_id = "a/b"`, `automation_id "a/b" may hold only`},
		{"mintlify_automation_run", `automation_id = " "`, `automation_id " " must not be empty`},
		{export, `domain = "https://docs.example.com/docs"`, `domain "https://docs.example.com/docs" must be a bare hostname, without a scheme, port, path or trailing slash: write "docs.example.com"`},
		{export, `domain = "docs"`, "must be a full hostname"},
		{export, `paths = ["index", "/guides/x"]`, `paths holds "/guides/x", which must not start or end with a slash: write "guides/x"`},
		{export, `paths = []`, "paths is empty: list at least one page path"},
		{export, `version = ""`, `version "" must not be empty: leave it out`},
		{export, `output_path = ""`, `output_path "" is empty`},
		{export, fmt.Sprintf("output_path = %q", dir+"/"), "names a directory"},
		{export, fmt.Sprintf("output_path = %q", dir), "is a directory: name the archive's file in it"},
		{export, fmt.Sprintf("output_path = %q", filepath.Join(dir, "missing", "a.tgz")), "does not exist; create it first"},
		{export, fmt.Sprintf("output_path = %q", filepath.Join(file, "a.tgz")), "is not a directory"},
		{export, fmt.Sprintf("output_path = %q\n    wait_for_completion = false", filepath.Join(dir, "a.tgz")), "wait_for_completion = false cannot be used with output_path"},
	}
	// One rule, one wording for a timeout, whatever is wrong with it, for
	// every action that waits; the bounds themselves are allowed.
	for _, timeout := range []string{"soon", "0s", "1ms", "59s", "100000h", "2d", "-5m", "1d", "24h1m"} {
		for _, typ := range []string{job, message, "mintlify_deployment", "mintlify_preview_deployment", export} {
			cases = append(cases, struct{ typ, body, want string }{typ, fmt.Sprintf("timeout = %q", timeout),
				fmt.Sprintf(`timeout %q must be a duration from 1m to 24h, such as "30m".`, timeout)})
		}
	}
	// required are the attributes each action needs, for a case to add
	// to what it does not set itself.
	required := map[string]map[string]string{job: {"prompt": `"x"`}, message: {"prompt": `"x"`, "job_id": `"j"`},
		"mintlify_preview_deployment": {"branch": `"x"`}, "mintlify_automation_run": {"automation_id": `"x"`}, export: {"domain": `"docs.example.com"`}}
	plan := func(typ, body string) (string, int) {
		for attr, v := range required[typ] {
			if !strings.Contains(body, attr+" ") {
				body += "\n    " + attr + " = " + v
			}
		}
		c.write(invokeConfig(c.url, typ, "    "+body))
		r := c.run("plan", "-input=false", "-invoke=action."+typ+".this")
		return flat(r.out), r.code
	}
	for _, tt := range cases {
		out, code := plan(tt.typ, tt.body)
		if code != 1 || strings.Count(out, "Error: ") != 1 {
			t.Errorf("%s { %s }: exit status %d, want 1 and one error:\n%s", tt.typ, tt.body, code, out)
		}
		wantOutput(t, tt.typ+" { "+tt.body+" }", out, tt.want)
	}
	for _, timeout := range []string{"1m", "24h", "1h30m"} {
		if out, code := plan(job, "timeout = \""+timeout+"\""); code != 0 {
			t.Errorf("timeout %s: exit status %d:\n%s", timeout, code, out)
		}
	}
	// Without a project on the action or the provider.
	c.write(map[string]string{"main.tf": adminProvider(mintlifytest.DemoAPIKey, c.url, "")})
	for _, typ := range []string{job, "mintlify_deployment", "mintlify_preview_deployment", "mintlify_automation_run"} {
		body := ""
		for attr, v := range required[typ] {
			body += "\n    " + attr + " = " + v
		}
		c.write(map[string]string{"action.tf": fmt.Sprintf("action %q \"this\" {\n  config {%s\n  }\n}\n", typ, body)})
		r := c.run("plan", "-input=false", "-invoke=action."+typ+".this")
		wantOutput(t, typ+" without a project", flat(r.out), "Error: Missing project_id")
	}
	if names := dirEntries(t, dir); len(names) != 1 {
		t.Errorf("planning wrote files: %v", names)
	}
	wantNoRequests(t, fs, "for invalid configuration")
}

// A rate-limited job creation: a short Retry-After is waited on the
// clock and the POST sent again, one job made; a long one (the hour's
// budget spent) fails at once, saying when to try again, with nothing
// waited and no "may exist".
func TestAccAgentJobAction_rateLimitedPOST(t *testing.T) {
	t.Run("a short Retry-After", func(t *testing.T) {
		fs, c, clk := invokeDir(t, mintlifytest.Config{Faults: []mintlifytest.Fault{{Route: mintlifytest.RouteAgentJobsCreate,
			Kind: mintlifytest.FaultRateLimit, RetryAfter: 40 * time.Second, Requests: []int{1}}}})
		if _, out, code := c.invoke("mintlify_agent_job", `    prompt = "Document it"`); code != 0 {
			t.Fatalf("exit status %d:\n%s", code, out)
		}
		if fs.Requests(mintlifytest.RouteAgentJobsCreate) != 2 || len(fs.JobIDs(mintlifytest.DemoProjectID)) != 1 {
			t.Errorf("%d POSTs, %d jobs", fs.Requests(mintlifytest.RouteAgentJobsCreate), len(fs.JobIDs(mintlifytest.DemoProjectID)))
		}
		if slept := clk.slept(); len(slept) == 0 || slept[0] != 40*time.Second {
			t.Errorf("sleeps %v: the first is not the Retry-After", slept)
		}
	})
	t.Run("the hour's budget spent", func(t *testing.T) {
		fs, c, clk := invokeDir(t, mintlifytest.Config{JobBudget: 1})
		client, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(c.url))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := client.AgentJobs.Create(context.Background(), mintlifytest.DemoProjectID, "first"); err != nil {
			t.Fatal(err)
		}
		_, out, code := c.invoke("mintlify_agent_job", `    prompt = "Document it"`)
		wantOutput(t, "apply -invoke", out, "Error: Could not create the agent job", "429 Too Many Requests",
			"try again after 2026-11-21T13:00:00Z, in 1h0m0s", "Try again after 2026-11-21 13:00:00 UTC.")
		if code != 1 || strings.Contains(out, "may exist") || fs.Requests(mintlifytest.RouteAgentJobsCreate) != 2 || len(clk.slept()) != 0 {
			t.Errorf("exit status %d, %d POSTs, sleeps %v:\n%s", code, fs.Requests(mintlifytest.RouteAgentJobsCreate), clk.slept(), out)
		}
	})
}

// Without output_path the export action waits for the export and says how
// to get its archive, asking for no bundle.
func TestAccStaticExportAction_withoutOutputPath(t *testing.T) {
	fs, c, _ := invokeDir(t, mintlifytest.Config{})
	progress, out, code := c.invoke("mintlify_static_export", `    domain = "docs.example.com"`)
	if code != 0 {
		t.Fatalf("exit status %d:\n%s", code, out)
	}
	wantOutput(t, "progress", strings.Join(progress, "\n"), "is now completed (24 pages).", "Set output_path to download its archive")
	wantRequests(t, fs, mintlifytest.RouteStaticExportsCreateBundle, 0, "bundles made without output_path")
}

// The output directory goes away between the plan and its apply: the
// action starts no export.
func TestAccStaticExportAction_unwritableOutputPathStartsNoExport(t *testing.T) {
	fs, c, _ := invokeDir(t, mintlifytest.Config{})
	dir := filepath.Join(t.TempDir(), "build")
	if err := os.Mkdir(dir, 0o750); err != nil {
		t.Fatal(err)
	}
	c.write(invokeConfig(c.url, "mintlify_static_export", fmt.Sprintf("    domain      = \"docs.example.com\"\n    output_path = %q", filepath.Join(dir, "a.tgz"))))
	c.ok("plan", "-input=false", "-invoke=action.mintlify_static_export.this", "-out=saved.tfplan")
	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	r := c.run("apply", "-input=false", "saved.tfplan")
	if r.code != 1 {
		t.Errorf("exit status %d", r.code)
	}
	wantOutput(t, "the apply", flat(r.out), "Error: Cannot write output_path", "No export was started")
	wantNoRequests(t, fs, "for an unwritable output path")
}

// on_failure on the other events: a failed before_create action under
// halt leaves the resource uncreated, and the next plan tries again;
// taint taints only what after_create made, so on after_update it is as
// halt: the update stays, untainted.
func TestAccAgentJobAction_onFailureOnOtherEvents(t *testing.T) {
	t.Run("before_create, halt", func(t *testing.T) {
		_, c := onFailureDir(t, onFailureCases[0], "before_create", "halt")
		if r := c.run("apply", "-auto-approve", "-input=false"); r.code != 1 || c.release() != nil {
			t.Fatalf("exit status %d, created %v:\n%s", r.code, c.release() != nil, r.out)
		}
		next := c.run("plan", "-detailed-exitcode", "-input=false")
		wantOutput(t, "the next plan", next.out, "Plan: 1 to add, 0 to change, 0 to destroy. Actions: 1 to invoke.")
	})
	t.Run("after_update, taint", func(t *testing.T) {
		fs, c := onFailureDir(t, onFailureCases[0], "after_update", "taint")
		c.ok("apply", "-auto-approve", "-input=false")
		if ids := fs.JobIDs(mintlifytest.DemoProjectID); len(ids) != 0 {
			t.Fatalf("jobs %v started by a create", ids)
		}
		r := c.run("apply", "-auto-approve", "-input=false", "-var=input=v2")
		release := c.release()
		if r.code != 1 || release == nil || release.Tainted || release.AttributeValues["input"] != "v2" {
			t.Errorf("exit status %d, release %+v:\n%s", r.code, release, r.out)
		}
		if next := c.run("plan", "-detailed-exitcode", "-input=false", "-var=input=v2"); next.code != 0 {
			t.Errorf("the next plan: exit status %d:\n%s", next.code, next.out)
		}
	})
}
