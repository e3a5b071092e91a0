package provider

import (
	"context"
	"net/http"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Ctrl-C makes Terraform stop the provider, which cancels the context of
// the running Create. The job must still come back in state, with an error
// that names it. Each interrupt comes at a known point of the run: the
// clock the SDK waits on calls back before each sleep.
func TestAgentJobCreate_interruptKeepsJobInState(t *testing.T) {
	// Before the first poll only the state saved right after the POST holds
	// the job; after some polls, the waiter's last view of it does too.
	t.Run("before the first poll", func(t *testing.T) {
		fs, url, clk := startFake(t, mintlifytest.Config{})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		clk.onSleep(func(context.Context) { cancel() })
		testInterrupt(ctx, t, fs, url, clk, 0)
	})
	t.Run("after three polls", func(t *testing.T) {
		fs, url, clk := startFake(t, mintlifytest.Config{})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		clk.onSleep(func(context.Context) {
			if fs.Requests(mintlifytest.RouteAgentJobsGet) == 3 {
				cancel()
			}
		})
		testInterrupt(ctx, t, fs, url, clk, 3)
	})
	// The POST is sent with the caller's context: when it ends with the
	// POST on the wire, the answer is still awaited (the SDK's grace), so
	// the job it created is not lost.
	t.Run("while the POST is on the wire", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		fs, url, clk := startHostile(t, func(r *http.Request, status int, body string) (int, string) {
			if isCreate(r) {
				cancel() // the job is created; its answer is not sent yet
			}
			return status, body
		})
		testInterrupt(ctx, t, fs, url, clk, 0)
	})
}

func testInterrupt(ctx context.Context, t *testing.T, fs *mintlifytest.Fake, url string, clk *testClock, wantPolls int) {
	t.Helper()
	client, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(url), sdk.WithClock(clk))
	if err != nil {
		t.Fatal(err)
	}
	r := &agentJobResource{data: &providerData{client: client}}
	var schemaResp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &schemaResp)
	objType, ok := schemaResp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatal("schema is not an object")
	}
	vals := map[string]tftypes.Value{}
	for name, typ := range objType.AttributeTypes {
		vals[name] = tftypes.NewValue(typ, tftypes.UnknownValue)
	}
	vals["project_id"] = tftypes.NewValue(tftypes.String, mintlifytest.DemoProjectID)
	vals["prompt"] = tftypes.NewValue(tftypes.String, "[fake:never] Take forever")
	vals["timeouts"] = tftypes.NewValue(objType.AttributeTypes["timeouts"], nil)
	vals["triggers"] = tftypes.NewValue(objType.AttributeTypes["triggers"], nil)
	vals["wait_for_completion"] = tftypes.NewValue(tftypes.Bool, true)
	req := resource.CreateRequest{Plan: tfsdk.Plan{Schema: schemaResp.Schema, Raw: tftypes.NewValue(objType, vals)}}
	resp := &resource.CreateResponse{State: tfsdk.State{Schema: schemaResp.Schema, Raw: tftypes.NewValue(objType, nil)}}

	r.Create(ctx, req, resp)

	ids := fs.JobIDs(mintlifytest.DemoProjectID)
	if len(ids) != 1 || fs.Requests(mintlifytest.RouteAgentJobsCreate) != 1 {
		t.Fatalf("server has jobs %v", ids)
	}
	wantRequests(t, fs, mintlifytest.RouteAgentJobsGet, wantPolls, "polls")
	var id, status types.String
	resp.State.GetAttribute(context.Background(), path.Root("id"), &id)
	resp.State.GetAttribute(context.Background(), path.Root("status"), &status)
	if id.ValueString() != ids[0] || status.ValueString() != "active" {
		t.Errorf("state holds id %v, status %v; the server's job is %s", id, status, ids[0])
	}
	want := "Interrupted while waiting for the agent job: Agent job " + ids[0] + " was created and is saved in state (tainted, " +
		"so the next apply starts a new job; run `terraform untaint` to keep this one instead). It was still active when " +
		"Terraform stopped waiting. To wait longer next time, raise timeouts.create.\n"
	if got := diagText(resp.Diagnostics, diag.SeverityError); got != want || len(resp.Diagnostics) != 1 {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
}
