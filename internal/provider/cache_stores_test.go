package provider

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/mintlify/terraform-provider-mintlify/internal/teststores"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// cache_url against real protocol servers on loopback (make test-stores;
// see package teststores, and TestStores in sdk/cachebucket for what each
// credential makes the user see): S3, Azure Blob and GCS, with the
// store's credentials in its standard environment variables, as a CI
// runner has them. Two runners with empty cache directories read once
// between them; a bucket that does not exist leaves the read whole, with
// one warning that says so.
func TestAccStores(t *testing.T) {
	for _, name := range teststores.Names {
		t.Run(name, func(t *testing.T) {
			st := teststores.Start(t, name)
			clearEnv(t)
			t.Setenv(EnvCacheTTL, "10m")
			teststores.Setenv(t, st.Env())
			config := func(url, bucket string) string {
				return strings.Replace(visitorsConfig(url, ""), "provider \"mintlify\" {",
					fmt.Sprintf("provider \"mintlify\" {\n  cache_dir = %q\n  cache_url = %q", t.TempDir(), bucket), 1)
			}

			t.Run("runners share the bucket", func(t *testing.T) {
				fs, url, clk := startFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: cachePaths}})
				bucket := st.NewBucket(t)
				for runner := range 2 {
					rec := &diagRecorder{}
					resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: recordingProviders(clk, rec), Steps: []resource.TestStep{{
						Config: config(url, bucket), ConfigStateChecks: []statecheck.StateCheck{visitorsMatchServer(fs, "", "", 0)},
					}}})
					wantRequests(t, fs, mintlifytest.RouteAnalyticsVisitors, 5, fmt.Sprintf("runner %d: one read's 5 in all", runner))
					if got := rec.text(); got != "" {
						t.Errorf("runner %d: diagnostics %s", runner, got)
					}
				}
			})

			t.Run("a daily history kept across runners", func(t *testing.T) { dailyAcrossRunners(t, st.NewBucket(t)) })

			t.Run("a missing bucket", func(t *testing.T) {
				fs, url, clk := startFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: cachePaths}})
				rec := &diagRecorder{}
				resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: recordingProviders(clk, rec), Steps: []resource.TestStep{{
					Config: config(url, st.MissingBucket()), ConfigStateChecks: []statecheck.StateCheck{visitorsMatchServer(fs, "", "", 0)},
				}}})
				got := rec.text()
				for _, want := range []string{"Mintlify analytics cache not used as configured", "no-such-bucket",
					"the bucket cannot be written: it does not exist, or these credentials may not write to it", seeTroubleshooting} {
					if !strings.Contains(got, want) {
						t.Errorf("the warnings do not say %q:\n%s", want, got)
					}
				}
				if strings.Contains(got, "error: ") {
					t.Errorf("a missing bucket failed a read:\n%s", got)
				}
				t.Logf("what the user sees: %s", got)
			})
		})
	}
}
