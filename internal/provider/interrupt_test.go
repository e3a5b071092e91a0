package provider

import (
	"context"
	"strings"
	"testing"
	"time"

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
// that names it.
func TestAgentJobCreate_interruptKeepsJobInState(t *testing.T) {
	// Before the first poll only the state saved right after the POST holds
	// the job; after some polls, the waiter's last view of it does too.
	t.Run("before the first poll", func(t *testing.T) {
		testInterrupt(t, 10*time.Second, func(fs *mintlifytest.Server) bool { return fs.Requests(mintlifytest.RouteCreateJob) >= 1 })
	})
	t.Run("after three polls", func(t *testing.T) {
		testInterrupt(t, 10*time.Millisecond, func(fs *mintlifytest.Server) bool { return fs.Requests(mintlifytest.RouteGetJob) >= 3 })
	})
}

func testInterrupt(t *testing.T, pollEvery time.Duration, interruptWhen func(*mintlifytest.Server) bool) {
	fs := mintlifytest.NewServer(mintlifytest.Config{})
	defer fs.Close()
	client, err := sdk.NewClient(mintlifytest.DemoAPIKey, sdk.WithBaseURL(fs.URL))
	if err != nil {
		t.Fatal(err)
	}
	r := &agentJobResource{data: &providerData{client: client, waitOptions: []sdk.WaitOption{sdk.WithPollInterval(pollEvery, pollEvery)}}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
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

	go func() {
		for !interruptWhen(fs) {
			time.Sleep(time.Millisecond)
		}
		cancel() // what Terraform's StopProvider does on Ctrl-C
	}()
	r.Create(ctx, req, resp)

	ids := fs.JobIDs(mintlifytest.DemoProjectID)
	if len(ids) != 1 {
		t.Fatalf("server has jobs %v", ids)
	}
	var id, status types.String
	resp.State.GetAttribute(context.Background(), path.Root("id"), &id)
	resp.State.GetAttribute(context.Background(), path.Root("status"), &status)
	if id.ValueString() != ids[0] || status.ValueString() != "active" {
		t.Errorf("state holds id %v, status %v; the server's job is %s", id, status, ids[0])
	}
	if !resp.Diagnostics.HasError() {
		t.Fatal("no error diagnostic")
	}
	detail := resp.Diagnostics.Errors()[0].Summary() + " " + resp.Diagnostics.Errors()[0].Detail()
	for _, want := range []string{"Interrupted while waiting for the agent job", ids[0], "timeouts.create"} {
		if !strings.Contains(detail, want) {
			t.Errorf("diagnostic %q does not mention %q", detail, want)
		}
	}
}
