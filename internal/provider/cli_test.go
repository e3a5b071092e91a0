package provider

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-version"
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
	// Actions and list resources (`terraform query`) are tested below the
	// CLI, through the provider's protocol server: no test asks the CLI
	// for them yet. These say what a CLI test of them would need.
	cliActions = cliFeature{"actions", tfversion.Version1_14_0, nil}
	cliQuery   = cliFeature{"terraform query", tfversion.Version1_14_0, nil}
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
