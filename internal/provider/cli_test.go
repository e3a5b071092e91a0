package provider

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/go-version"
	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// The acceptance tests run on Terraform and on OpenTofu
// (TF_ACC_TERRAFORM_PATH; make testacc-tofu). terraform-plugin-testing
// sees only a version number, and the two CLIs' numbers do not line up
// feature for feature: OpenTofu 1.10 has no ephemeral resources, and no
// OpenTofu has actions or `terraform query`. A test of a feature of the
// CLI names it here, and skips, saying why, where the CLI lacks it.

// cliFeature is what a test needs of the CLI: the first Terraform and
// OpenTofu versions that have it (openTofu nil: none has).
type cliFeature struct {
	what                string
	terraform, openTofu *version.Version
}

var (
	cliEphemeral = cliFeature{"ephemeral resources", tfversion.Version1_10_0, version.Must(version.NewVersion("1.11.0"))}
	cliIdentity  = cliFeature{"resource identity", tfversion.Version1_12_0, version.Must(version.NewVersion("1.12.0"))}
	cliActions   = cliFeature{"actions", tfversion.Version1_14_0, nil}
	cliQuery     = cliFeature{"terraform query", tfversion.Version1_14_0, nil}
)

// runsOpenTofu reports whether TF_ACC_TERRAFORM_PATH is OpenTofu (its
// `version` says so), asking it once.
var runsOpenTofu = sync.OnceValue(func() bool {
	path := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if path == "" {
		return false
	}
	out, err := exec.Command(path, "version").Output() //nolint:gosec // the CLI the tests are told to run
	return err == nil && strings.HasPrefix(strings.TrimSpace(string(out)), "OpenTofu")
})

// CheckTerraformVersion skips a test on a CLI without the feature.
func (f cliFeature) CheckTerraformVersion(_ context.Context, req tfversion.CheckTerraformVersionRequest, resp *tfversion.CheckTerraformVersionResponse) {
	resp.Skip = f.skip(runsOpenTofu(), req.TerraformVersion)
}

// skip is why a test of the feature skips on the CLI (OpenTofu or not)
// at v, or "".
func (f cliFeature) skip(openTofu bool, v *version.Version) string {
	cli, first := "Terraform", f.terraform
	if openTofu {
		cli, first = "OpenTofu", f.openTofu
	}
	switch {
	case first == nil:
		return "this test needs " + f.what + ", which " + cli + " does not have"
	case v.LessThan(first):
		return "this test needs " + f.what + ", which " + cli + " has from " + first.String() + " on; this is " + v.String()
	}
	return ""
}

func TestCLIFeature_skipsWhereTheCLILacksIt(t *testing.T) {
	v := func(s string) *version.Version { return version.Must(version.NewVersion(s)) }
	for _, tt := range []struct {
		f        cliFeature
		openTofu bool
		at, want string
	}{
		{cliEphemeral, false, "1.10.0", ""},
		{cliEphemeral, false, "1.9.8", "this test needs ephemeral resources, which Terraform has from 1.10.0 on; this is 1.9.8"},
		{cliEphemeral, true, "1.10.5", "this test needs ephemeral resources, which OpenTofu has from 1.11.0 on; this is 1.10.5"},
		{cliEphemeral, true, "1.12.6", ""},
		{cliIdentity, true, "1.12.6", ""},
		{cliActions, false, "1.14.0", ""},
		{cliActions, true, "1.14.0", "this test needs actions, which OpenTofu does not have"},
		{cliQuery, true, "1.12.6", "this test needs terraform query, which OpenTofu does not have"},
		{cliQuery, false, "1.13.4", "this test needs terraform query, which Terraform has from 1.14.0 on; this is 1.13.4"},
	} {
		if got := tt.f.skip(tt.openTofu, v(tt.at)); got != tt.want {
			t.Errorf("%s on OpenTofu %v %s: %q, want %q", tt.f.what, tt.openTofu, tt.at, got, tt.want)
		}
	}
}

// cliVersion is the version TF_ACC_TERRAFORM_PATH says it is, asked once.
var cliVersion = sync.OnceValues(func() (*version.Version, error) {
	out, err := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "version", "-json").Output() //nolint:gosec // as runsOpenTofu
	if err != nil {
		return nil, fmt.Errorf("terraform version: %w", err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		return nil, fmt.Errorf("terraform version -json: %w", err)
	}
	return version.NewVersion(v.Version)
})

// cliDir is a working directory where a test runs the CLI of
// TF_ACC_TERRAFORM_PATH itself, with the provider served from the test's
// process on the test's clock, as terraform-plugin-testing serves it
// (Terraform's reattach): for what terraform-plugin-testing cannot ask of
// the CLI (apply -invoke, query -generate-config-out) and what it does not
// show (the progress messages and warnings an apply prints, its exit
// status, an interrupt).
type cliDir struct {
	t   *testing.T
	clk *testClock
	bin string
	dir string
	url string // the fake's, for configurations written later

	mu      sync.Mutex
	running *os.Process // the command under way, for interrupt
	out     *syncBuffer // what it has printed so far
}

// providerAddr is where the CLI looks for the provider that the
// configurations of cliDir require as "mintlify/mintlify": on its own
// registry (OpenTofu's is TF_ACC_PROVIDER_HOST; see the Makefile).
func providerAddr() string {
	return cmp.Or(os.Getenv("TF_ACC_PROVIDER_HOST"), "registry.terraform.io") + "/mintlify/mintlify"
}

// newCLIDir skips the test without TF_ACC or on a CLI that lacks f; else
// it writes files (name: content), and a required_providers block unless
// one of them has it, into a directory of the test's own, and runs
// terraform init there.
func newCLIDir(t *testing.T, clk *testClock, f cliFeature, files map[string]string) *cliDir {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("an acceptance test: set TF_ACC=1 (make testacc does)")
	}
	v, err := cliVersion()
	if err != nil {
		t.Fatalf("TF_ACC_TERRAFORM_PATH must name a terraform (make testacc sets it): %v", err)
	}
	if why := f.skip(runsOpenTofu(), v); why != "" {
		t.Skip(why)
	}
	c := &cliDir{t: t, clk: clk, bin: os.Getenv("TF_ACC_TERRAFORM_PATH"), dir: t.TempDir()}
	pinned := false
	for _, content := range files {
		pinned = pinned || strings.Contains(content, "required_providers")
	}
	if !pinned {
		files["versions.tf"] = `terraform {
  required_providers {
    mintlify = { source = "mintlify/mintlify" }
  }
}
`
	}
	c.write(files)
	c.ok("init", "-input=false")
	return c
}

// write puts files (name: content) in the directory, replacing any of the
// same name.
func (c *cliDir) write(files map[string]string) {
	c.t.Helper()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(c.dir, name), []byte(content), 0o600); err != nil {
			c.t.Fatal(err)
		}
	}
}

// cliResult is what a command printed (stdout and stderr, as they came)
// and its exit status.
type cliResult struct {
	out  string
	code int
}

// run runs terraform with args (-no-color added) in the directory, the
// provider served for that one command.
func (c *cliDir) run(args ...string) cliResult {
	c.t.Helper()
	reattach, stop := c.serve()
	defer stop()
	cmd := exec.Command(c.bin, append(args, "-no-color")...) //nolint:gosec // the CLI the tests are told to run
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "TF_REATTACH_PROVIDERS="+reattach, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		c.t.Fatal(err)
	}
	c.mu.Lock()
	c.running, c.out = cmd.Process, out
	c.mu.Unlock()
	err := cmd.Wait()
	c.mu.Lock()
	c.running = nil
	c.mu.Unlock()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		c.t.Fatal(err)
	}
	return cliResult{out: out.String(), code: cmd.ProcessState.ExitCode()}
}

// ok runs terraform with args and fails the test unless it succeeds.
func (c *cliDir) ok(args ...string) string {
	c.t.Helper()
	r := c.run(args...)
	if r.code != 0 {
		c.t.Fatalf("terraform %s: exit status %d:\n%s", strings.Join(args, " "), r.code, r.out)
	}
	return r.out
}

// interrupt sends the command under way an interrupt, as Ctrl-C does,
// once it has printed after: as a user presses Ctrl-C on seeing it.
func (c *cliDir) interrupt(after string) {
	c.mu.Lock()
	proc, out := c.running, c.out
	c.mu.Unlock()
	if proc == nil {
		c.t.Error("no command to interrupt")
		return
	}
	for deadline := time.Now().Add(time.Minute); !strings.Contains(out.String(), after); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			c.t.Errorf("the command did not print %q within a minute:\n%s", after, out.String())
			return
		}
	}
	if err := proc.Signal(os.Interrupt); err != nil {
		c.t.Error(err)
	}
}

// serve serves the provider, on the test's clock, until stop is called;
// reattach is TF_REATTACH_PROVIDERS for it.
func (c *cliDir) serve() (reattach string, stop func()) {
	c.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	configs := make(chan *plugin.ReattachConfig, 1)
	closed := make(chan struct{})
	served := make(chan error, 1)
	go func() {
		served <- tf6server.Serve(providerAddr(), providerserver.NewProtocol6(testProvider(c.clk)),
			tf6server.WithDebug(ctx, configs, closed), tf6server.WithGoPluginLogger(hclog.NewNullLogger()), tf6server.WithLoggingSink(c.t))
	}()
	var rc *plugin.ReattachConfig
	select {
	case rc = <-configs:
	case err := <-served:
		cancel()
		c.t.Fatalf("serving the provider: %v", err)
	}
	type addr struct{ Network, String string }
	data, err := json.Marshal(map[string]any{providerAddr(): map[string]any{
		"Protocol": rc.Protocol, "ProtocolVersion": rc.ProtocolVersion, "Pid": rc.Pid, "Test": true,
		"Addr": addr{rc.Addr.Network(), rc.Addr.String()},
	}})
	if err != nil {
		c.t.Fatal(err)
	}
	return string(data), func() {
		cancel()
		<-closed
	}
}

// state is the state the last command left, as terraform show -json has it.
func (c *cliDir) state() *tfjson.State {
	c.t.Helper()
	var s tfjson.State
	if err := json.Unmarshal([]byte(c.ok("show", "-json")), &s); err != nil {
		c.t.Fatal(err)
	}
	return &s
}
