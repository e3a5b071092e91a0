package provider

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

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
