package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// What a plan asks of Mintlify, and what a destroy says, for the managed
// resources: a plan reads only what can still change, and a destroy the
// API cannot carry out is routine, not a warning.
//
//   - A finished deployment or preview (success or failure) and a finished
//     static export (completed or failed) are records that never change: a
//     refresh keeps state as it is and sends nothing (keepFinished). An
//     import reads the object once (its status is null until then); a
//     status not yet final is read on every refresh until it is.
//   - An agent job is read on every refresh, whatever its status: a
//     follow-up message takes a completed or failed job up again, and the
//     API does not say that an archived job stays archived.
//   - Destroying an object the API cannot delete is what the resource's
//     documentation says it does: logged (removedFromStateOnly), not a
//     warning, so that a release that replaces everything prints none.

// keepFinished is the start of the Read of a resource whose object, once
// finished, is a record that never changes. When final (the status in
// state is one the object cannot leave), the state, private state and
// identity stay as the request holds them, and no request is sent; it
// also gives an identity to state from before identities. It reports
// whether the Read is done. noun and id name the object in the log.
func keepFinished(ctx context.Context, final bool, noun, id string, identity resourceIdentity, req resource.ReadRequest, resp *resource.ReadResponse) bool {
	if !final {
		return false
	}
	tflog.Debug(ctx, noun+" has finished: state kept as it is, nothing read", map[string]any{"id": id})
	identity.fromState(ctx, req.State, resp.Identity, &resp.Diagnostics)
	return true
}

// removedFromStateOnly is the Delete of a resource whose object the API
// cannot delete ("Agent job", what): detail says what remains at
// Mintlify. It is the documented behavior, so it is logged (at Info),
// not a warning.
func removedFromStateOnly(ctx context.Context, what, detail string, fields map[string]any) {
	tflog.Info(ctx, what+" removed from state only: "+detail, fields)
}
