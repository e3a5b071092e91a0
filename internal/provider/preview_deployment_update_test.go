package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// A redeploy whose wait is interrupted (Ctrl-C cancels the Update's
// context) or times out keeps the redeploy's new id in state with the
// triggers it had before, so that the next apply redeploys again; one
// that fails does too. Each redeploy is sent once.
func TestPreviewUpdate_aRedeployCutShortOrFailedKeepsTheOldTriggers(t *testing.T) {
	for name, c := range map[string]struct {
		timeout   string
		interrupt bool
		fail      bool
		want      string
	}{
		"interrupted": {interrupt: true, want: "Interrupted while waiting for the preview deployment"},
		"timed out":   {timeout: "10s", want: "Timed out waiting for the preview deployment"},
		"failed":      {fail: true, want: "Preview deployment failed"},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			fs, url, clk := startDeployFake(t, mintlifytest.Config{})
			client, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(url), sdk.WithClock(clk))
			if err != nil {
				t.Fatal(err)
			}
			r := &previewDeploymentResource{data: &providerData{client: client}}
			var sr resource.SchemaResponse
			r.Schema(ctx, resource.SchemaRequest{}, &sr)
			objType, _ := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
			model := func(commit, timeout string) previewDeploymentModel {
				to := types.ObjectNull(map[string]attr.Type{"create": types.StringType})
				if timeout != "" {
					to = types.ObjectValueMust(map[string]attr.Type{"create": types.StringType}, map[string]attr.Value{"create": types.StringValue(timeout)})
				}
				m := previewDeploymentModel{Branch: types.StringValue("feature/x"), PreviewURL: types.StringUnknown()}
				m.ID, m.ProjectID, m.WaitForCompletion = types.StringUnknown(), types.StringValue(mintlifytest.DemoProjectID), types.BoolValue(true)
				m.Triggers = types.MapValueMust(types.StringType, map[string]attr.Value{"commit": types.StringValue(commit)})
				for _, v := range m.byName() {
					*v = types.StringUnknown()
				}
				m.Timeouts = timeouts.Value{Object: to}
				return m
			}
			newState := func() tfsdk.State { return tfsdk.State{Schema: sr.Schema, Raw: tftypes.NewValue(objType, nil)} }
			plan := tfsdk.Plan{Schema: sr.Schema, Raw: tftypes.NewValue(objType, nil)}
			first := model("a1", "")
			plan.Set(ctx, &first)
			created := resource.CreateResponse{State: newState()}
			r.Create(ctx, resource.CreateRequest{Plan: plan}, &created)
			if created.Diagnostics.HasError() {
				t.Fatal(created.Diagnostics)
			}

			if c.fail {
				fs.SetDefaultDeployment(failingDeployment)
			}
			again := model("b2", c.timeout)
			plan.Set(ctx, &again)
			updateCtx, cancel := context.WithCancel(ctx)
			defer cancel()
			if c.interrupt {
				clk.onSleep(func(context.Context) { cancel() })
			}
			updated := resource.UpdateResponse{State: newState()}
			r.Update(updateCtx, resource.UpdateRequest{Plan: plan, State: created.State}, &updated)

			rec, _ := fs.Preview(mintlifytest.DemoProjectID, "feature/x")
			var got previewDeploymentModel
			updated.State.Get(ctx, &got)
			commit := got.Triggers.Elements()["commit"]
			if len(rec.StatusIDs) != 2 || got.ID.ValueString() != rec.StatusIDs[1] || commit == nil || commit.String() != `"a1"` {
				t.Errorf("state holds id %s, triggers %s; the fake: %+v", got.ID, got.Triggers, rec)
			}
			if text := diagText(updated.Diagnostics, diag.SeverityError); !strings.Contains(text, c.want) {
				t.Errorf("errors %q, want %q", text, c.want)
			}
			wantRequests(t, fs, mintlifytest.RouteDeploymentsPreview, 2, "the first preview and the redeploy, once")
		})
	}
}
