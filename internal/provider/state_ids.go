package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// Ids in state that no read can send. Before the runner and the SDK
// checked the ids the API answered with, an answer such as "a/b", "..",
// 300 characters or a newline went into state as it came; every refresh
// of it then failed ("may hold only ..."), and with it every plan,
// forever. A resource whose state holds one is not refreshed: it stays as
// it is, with a warning that names the id and the way out, and no request
// is sent. Removing it instead would make the next plan start the work
// again without being asked, which is the one thing a resource here never
// does by itself.

// readIDs are the state attributes a resource's refresh sends in its
// request's path, each with the SDK's rule for it.
type readIDs struct {
	typeName string // "mintlify_agent_job"
	noun     string // "agent job"
	// again says what -replace does ("start a new job").
	again string
	ids   []readID
	// identity is the resource's identity (nil: none), kept with the state.
	identity resourceIdentity
}

type readID struct {
	name  string
	check func(string) error
}

// The ids each resource's refresh sends.
var (
	agentJobReadIDs = readIDs{typeName: "mintlify_agent_job", noun: "agent job", again: "start a new job",
		ids: []readID{{"project_id", sdk.ValidateProjectID}, {"id", sdk.ValidateJobID}}, identity: agentJobIdentity}
	agentJobMessageReadIDs = readIDs{typeName: "mintlify_agent_job_message", noun: "agent job", again: "send the message again",
		ids: []readID{{"project_id", sdk.ValidateProjectID}, {"job_id", sdk.ValidateJobID}}}
	deploymentReadIDs = readIDs{typeName: "mintlify_deployment", noun: "deployment", again: "deploy again",
		ids: []readID{{"id", sdk.ValidateStatusID}}, identity: deploymentIdentity}
	previewReadIDs = readIDs{typeName: "mintlify_preview_deployment", noun: "preview deployment", again: "deploy the preview again",
		ids: []readID{{"id", sdk.ValidateStatusID}}, identity: deploymentIdentity}
	staticExportReadIDs = readIDs{typeName: "mintlify_static_export", noun: "static export", again: "start a new export",
		ids: []readID{{"id", sdk.ValidateStaticExportID}}, identity: staticExportIdentity}
)

// deploymentReadIDsOf is the ids of the deployment resource typeName
// (mintlify_deployment or mintlify_preview_deployment).
func deploymentReadIDsOf(typeName string) readIDs {
	if typeName == previewReadIDs.typeName {
		return previewReadIDs
	}
	return deploymentReadIDs
}

// unreadable is the start of a resource's Read: when its state holds an
// id that no read can send, it keeps the state as it is (and its
// identity), warns, and reports true: the Read ends there, with no
// request sent.
func (r readIDs) unreadable(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) bool {
	var bad []string
	for _, id := range r.ids {
		var v types.String
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(id.name), &v)...)
		if v.IsNull() || v.IsUnknown() {
			continue
		}
		if err := id.check(v.ValueString()); err != nil {
			bad = append(bad, fmt.Sprintf("%s %s, which %s", id.name, quoted(v.ValueString()), ruleOf(err)))
		}
	}
	if len(bad) == 0 || resp.Diagnostics.HasError() {
		return false
	}
	addr := r.typeName + ".<name>"
	resp.Diagnostics.AddWarning("Unreadable id in state",
		fmt.Sprintf("The %s resource's state holds %s: no request can send it (an earlier version of the provider "+
			"saved it as Mintlify's answer gave it), so the provider cannot read the %s. It stays in state unchanged and "+
			"is not refreshed, so that nothing runs again by itself. Find the %s in the Mintlify dashboard, then either "+
			"run `terraform state rm %s` to forget it (and import it by its real id to keep it in Terraform), or "+
			"`terraform apply -replace=%s` to %s.", r.typeName, strings.Join(bad, "; "), r.noun, r.noun, addr, addr, r.again))
	tflog.Warn(ctx, r.noun+" not refreshed: its state holds an id no request can send", map[string]any{"problems": strings.Join(bad, "; ")})
	if r.identity != nil {
		// State from before identities gets one, as on any refresh.
		r.identity.fromState(ctx, req.State, resp.Identity, &resp.Diagnostics)
	}
	return true
}
