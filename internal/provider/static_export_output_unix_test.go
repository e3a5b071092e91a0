//go:build unix

package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// The careless user's and the hostile machine's output_path, below
// Terraform: a FIFO, a device or a link where the archive goes, made or
// swapped at a chosen point (at plan, between plan and apply, while the
// export runs). The protocol harness puts each swap at an exact RPC or
// poll, which a CLI run has no hook for; the plan-time refusal stays
// beside them, sharing their special files.

// invokeUnchecked runs the action without planning it first: what was
// planned may have changed since (a file replaced between plan and apply).
func (h *actionHarness) invokeUnchecked(ctx context.Context, action string, vals map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	h.t.Helper()
	stream, err := h.srv.InvokeAction(ctx, &tfprotov6.InvokeActionRequest{ActionType: action, Config: h.config(action, vals)})
	if err != nil {
		h.t.Fatal(err)
	}
	var diags []*tfprotov6.Diagnostic
	for ev := range stream.Events {
		if c, ok := ev.Type.(tfprotov6.CompletedInvokeActionEventType); ok {
			diags = c.Diagnostics
		}
	}
	return diags
}

// specialFiles makes, in dir, each kind of file output_path must never
// replace, and says how the refusal names it.
func specialFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	target := filepath.Join(dir, "target.tar.gz")
	if err := os.WriteFile(target, []byte("someone else's file"), 0o600); err != nil {
		t.Fatal(err)
	}
	made := map[string]string{
		filepath.Join(dir, "fifo"):     "is a named pipe (FIFO)",
		filepath.Join(dir, "link"):     "is a symbolic link",
		filepath.Join(dir, "dangling"): "is a symbolic link",
		filepath.Join(dir, "dirlink"):  "is a symbolic link",
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A character device of the test's own (the null device's numbers on
	// Linux), never a real one such as /dev/null: a provider that replaced
	// it (as it did, run as root) must break nothing but the test. Making
	// one takes root: elsewhere, the devices go untested.
	if err := syscall.Mknod(filepath.Join(dir, "device"), syscall.S_IFCHR|0o600, 1<<8|3); err == nil {
		made[filepath.Join(dir, "device")] = "is a device"
	} else {
		t.Logf("no device made (%v): devices not tested", err)
	}
	for link, to := range map[string]string{"link": target, "dangling": filepath.Join(dir, "missing"), "dirlink": dir} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	return made
}

// output_path names a FIFO, a device or a symbolic link: refused at plan,
// with no request; before, each was replaced by a regular file (as root,
// /dev/null would have been).
func TestStaticExportAction_outputPathThatIsNotARegularFileFailsAtPlan(t *testing.T) {
	h := newExportHarness(t, mintlifytest.Config{})
	dir := t.TempDir()
	for p, want := range specialFiles(t, dir) {
		text := diagsText(h.check("mintlify_static_export", exportVals("docs.example.com", "output_path", p)))
		contains(t, p, text, "Invalid output_path", "output_path "+`"`+p+`" `+want, "only to a regular file")
	}
	wantNoRequests(t, h.fs, "for an output_path that is not a regular file")
	// A regular file, or none, is fine.
	for _, p := range []string{filepath.Join(dir, "target.tar.gz"), filepath.Join(dir, "new.tar.gz")} {
		if d := h.check("mintlify_static_export", exportVals("docs.example.com", "output_path", p)); len(d) > 0 {
			t.Errorf("%s: %s", p, diagsText(d))
		}
	}
}

// Between plan and apply, output_path became a FIFO or a link: no export
// starts. While the export ran, it became one: the archive is not renamed
// over it, the temporary file is removed, and the FIFO or link is left
// as it was.
func TestStaticExportAction_outputPathReplacedAfterPlanIsNeverWritten(t *testing.T) {
	t.Run("before the export starts", func(t *testing.T) {
		h := newExportHarness(t, mintlifytest.Config{})
		dir := t.TempDir()
		for p, want := range specialFiles(t, dir) {
			text := diagsText(h.invokeUnchecked(context.Background(), "mintlify_static_export", exportVals("docs.example.com", "output_path", p)))
			contains(t, p, text, "Cannot write output_path", want, "No export was started")
		}
		wantNoRequests(t, h.fs, "for an output_path that is not a regular file")
	})
	for _, kind := range []string{"fifo", "symlink"} {
		t.Run("while the export runs: "+kind, func(t *testing.T) {
			h := newExportHarness(t, mintlifytest.Config{})
			dir := t.TempDir()
			out := filepath.Join(dir, "docs.tar.gz")
			victim := filepath.Join(dir, "victim")
			if err := os.WriteFile(victim, []byte("keep me"), 0o600); err != nil {
				t.Fatal(err)
			}
			vals := exportVals("docs.example.com", "version", "[fake:running=2m]", "output_path", out)
			if d := h.check("mintlify_static_export", vals); len(d) > 0 {
				t.Fatal(diagsText(d))
			}
			h.clk.onSleep(func(context.Context) {
				if _, err := os.Lstat(out); err == nil {
					return
				}
				var err error
				if kind == "fifo" {
					err = syscall.Mkfifo(out, 0o600)
				} else {
					err = os.Symlink(victim, out)
				}
				if err != nil {
					t.Error(err)
				}
			})
			text := diagsText(h.invokeUnchecked(context.Background(), "mintlify_static_export", vals))
			contains(t, "diagnostics", text, "Could not download the archive of static export", "output_path "+`"`+out+`" `, "only to a regular file",
				"Nothing was written to "+out)
			st, err := os.Lstat(out)
			switch {
			case err != nil:
				t.Fatal(err)
			case kind == "fifo" && st.Mode()&os.ModeNamedPipe == 0, kind == "symlink" && st.Mode()&os.ModeSymlink == 0:
				t.Errorf("output_path is now %v", st.Mode())
			}
			if data, _ := os.ReadFile(victim); string(data) != "keep me" { //nolint:gosec // the test's own file
				t.Errorf("the link's target now holds %d bytes", len(data))
			}
			if names := dirEntries(t, dir); len(names) != 2 || strings.Contains(strings.Join(names, " "), "partial") {
				t.Errorf("the directory holds %v", names)
			}
		})
	}
}
