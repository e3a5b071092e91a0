package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// Resource identity (Terraform 1.12+): the few string attributes that name
// the object at Mintlify, kept by Terraform beside the state and given in
// an import block as `identity = { ... }` instead of an id string. Every
// resource that names an object at Mintlify declares one resourceIdentity
// and calls it in four places:
//
//	func (r *thing) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
//		resp.IdentitySchema = thingIdentity.schema()
//	}
//	// Create (when the id is known), Read and Update, after setting state:
//	thingIdentity.fromState(ctx, resp.State, resp.Identity, &resp.Diagnostics)
//	// ImportState: by id string (terraform import, import { id = ... }) or by identity.
//	thingIdentity.importState(ctx, r.data, req, resp, parseThingID)
//
// Each identity attribute is the state attribute of the same name, so
// nothing else maps them. Terraform before 1.12 sends no identity and
// ignores the one returned: import by id keeps working there.
//
// The identities: an agent job is (project_id, id); a deployment is
// (project_id, id), its project left out of an import as the API says it;
// a preview deployment is (project_id, id) too, the status id of its
// latest deployment, since a status id is all the API can read a preview
// by (finding a branch's preview would deploy it), and so its identity
// changes when a redeploy gives a new id (a mutable identity); a static
// export is (id): the export API knows no project.

// identityAttr is one attribute of a resource's identity.
type identityAttr struct {
	name        string // also the state attribute's name
	description string
	// check is the SDK's rule for the value (sdk.ValidateProjectID, ...).
	check func(string) error
	// projectDefault: an import block may leave it out; the provider's
	// project_id is used then.
	projectDefault bool
	// fromAPI: an import block may leave it out; the import's read takes
	// it from the API's answer (a deployment's project).
	fromAPI bool
}

// resourceIdentity is a resource's identity: its attributes, in order.
type resourceIdentity []identityAttr

// projectAttr is the identity attribute of the project an object is in.
var projectAttr = identityAttr{
	name:           "project_id",
	description:    "The project the object is in. May be left out of an import block when the provider sets `project_id`.",
	check:          sdk.ValidateProjectID,
	projectDefault: true,
}

// agentJobIdentity names an agent job: its project and its id.
var agentJobIdentity = resourceIdentity{
	projectAttr,
	{name: "id", description: "The job's id.", check: sdk.ValidateJobID},
}

// deploymentIdentity names a deployment (or a preview deployment): its
// status id, and its project as the API says it.
var deploymentIdentity = resourceIdentity{
	{name: "project_id", description: "The project the deployment is in. May be left out of an import block: the API's answer says it.",
		check: sdk.ValidateProjectID, fromAPI: true},
	{name: "id", description: "The deployment's status id (a preview's: that of its latest deployment, which a redeploy changes).",
		check: sdk.ValidateStatusID},
}

// staticExportIdentity names a static export: its job id (the export API
// has no project in its paths or answers).
var staticExportIdentity = resourceIdentity{
	{name: "id", description: "The export's job id.", check: sdk.ValidateStaticExportID},
}

// schema is the identity schema (version 0).
func (ri resourceIdentity) schema() identityschema.Schema {
	attrs := map[string]identityschema.Attribute{}
	for _, a := range ri {
		attrs[a.name] = identityschema.StringAttribute{
			Description:       a.description,
			RequiredForImport: !a.projectDefault && !a.fromAPI,
			OptionalForImport: a.projectDefault || a.fromAPI,
		}
	}
	return identityschema.Schema{Attributes: attrs}
}

// set writes the identity from values by attribute name; an attribute
// without a value is null (a deployment's project before the import's
// read). A nil identity (a caller that has none: a test calling a method
// directly) is skipped.
func (ri resourceIdentity) set(ctx context.Context, to *tfsdk.ResourceIdentity, values map[string]string, diags *diag.Diagnostics) {
	if to == nil {
		return
	}
	for _, a := range ri {
		v := types.StringNull()
		if s, ok := values[a.name]; ok {
			v = types.StringValue(s)
		}
		diags.Append(to.SetAttribute(ctx, path.Root(a.name), v)...)
	}
}

// fromState writes the identity from the state attributes of the same
// names. Create, Read and Update call it once state is set: Terraform
// refuses a resource without an identity after any of them.
func (ri resourceIdentity) fromState(ctx context.Context, state tfsdk.State, to *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if to == nil || state.Raw.IsNull() {
		return
	}
	values := map[string]string{}
	for _, a := range ri {
		var v types.String
		diags.Append(state.GetAttribute(ctx, path.Root(a.name), &v)...)
		if !v.IsNull() && !v.IsUnknown() {
			values[a.name] = v.ValueString()
		}
	}
	ri.set(ctx, to, values, diags)
}

// importState imports by an id string (terraform import, an import block's
// id; parseID reads it into attribute values) or, on Terraform 1.12+, by
// identity (an import block's identity). Either way every value is checked
// by the SDK's rule before any request, and both the state attributes and
// the identity are set (an attribute parseID or the identity leaves out
// stays null, for the Read to fill); the Read that follows fetches the
// object. It reports whether the import went on.
func (ri resourceIdentity) importState(ctx context.Context, data *providerData, req resource.ImportStateRequest, resp *resource.ImportStateResponse, parseID func(id, defaultProject string) (map[string]string, error)) bool {
	defaultProject := ""
	if data != nil {
		defaultProject = data.projectID
	}
	var values map[string]string
	if req.ID != "" || req.Identity == nil {
		var err error
		if values, err = parseID(req.ID, defaultProject); err != nil {
			resp.Diagnostics.AddError("Invalid import id", err.Error())
			return false
		}
	} else {
		var err error
		if values, err = ri.read(ctx, req.Identity, defaultProject, &resp.Diagnostics); err != nil {
			resp.Diagnostics.AddError("Invalid import identity", err.Error())
			return false
		}
	}
	for _, a := range ri {
		if v, ok := values[a.name]; ok {
			resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(a.name), v)...)
		}
	}
	ri.set(ctx, resp.Identity, values, &resp.Diagnostics)
	return !resp.Diagnostics.HasError()
}

// read takes an import block's identity: every attribute set and valid,
// the project defaulting to the provider's.
func (ri resourceIdentity) read(ctx context.Context, id *tfsdk.ResourceIdentity, defaultProject string, diags *diag.Diagnostics) (map[string]string, error) {
	values := map[string]string{}
	var problems []string
	for _, a := range ri {
		var v types.String
		diags.Append(id.GetAttribute(ctx, path.Root(a.name), &v)...)
		value := v.ValueString()
		switch {
		case value != "":
		case a.projectDefault && defaultProject != "":
			value = defaultProject
		case a.fromAPI:
			continue // the import's read fills it
		case a.projectDefault:
			problems = append(problems, fmt.Sprintf("identity.%s is not set, and neither is the provider's project_id (or %s): set one of them", a.name, EnvProjectID))
			continue
		default:
			problems = append(problems, fmt.Sprintf("identity.%s is required", a.name))
			continue
		}
		if err := a.check(value); err != nil {
			problems = append(problems, fmt.Sprintf("identity.%s %q %s", a.name, value, ruleOf(err)))
			continue
		}
		values[a.name] = value
	}
	if len(problems) > 0 {
		return nil, errors.New(strings.Join(problems, "; "))
	}
	return values, nil
}
