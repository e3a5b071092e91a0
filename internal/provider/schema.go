package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// Schema helpers every resource, data source and action shares.

// attributes merges attribute maps into one schema's (of any kind:
// resource, data source or action).
func attributes[A any](maps ...map[string]A) map[string]A {
	out := map[string]A{}
	for _, m := range maps {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// countAttributes is the schema of a totals object of a data source.
func countAttributes(human, ai, total string) map[string]dschema.Attribute {
	return map[string]dschema.Attribute{
		"human": dschema.Int64Attribute{MarkdownDescription: human, Computed: true},
		"ai":    dschema.Int64Attribute{MarkdownDescription: ai, Computed: true},
		"total": dschema.Int64Attribute{MarkdownDescription: total, Computed: true},
	}
}

func computedString(desc string) dschema.StringAttribute {
	return dschema.StringAttribute{MarkdownDescription: desc, Computed: true}
}

func computedInt(desc string) dschema.Int64Attribute {
	return dschema.Int64Attribute{MarkdownDescription: desc, Computed: true}
}

// listOf returns a list value of rows, empty (never null) when there are none.
func listOf(elem attr.Type, rows []attr.Value) types.List {
	if rows == nil {
		rows = []attr.Value{}
	}
	return basetypes.NewListValueMust(elem, rows)
}

// timeoutsBlock is the timeouts block of a resource that starts work at
// Mintlify and waits for it: what names the work ("the job").
func timeoutsBlock(ctx context.Context, what string) schema.Block {
	b := timeouts.Block(ctx, timeouts.Opts{
		Create: true,
		CreateDescription: fmt.Sprintf("How long to wait for %s to finish, as a duration from `%s` to `%s` such as "+
			"`45m` (default `%s`; only when `wait_for_completion` is true). When it runs out the resource stays in "+
			"state, tainted. A request already sent when it runs out (or on Ctrl-C) is still given %s to answer, so "+
			"that what it started is not lost.", what, shortDuration(minWaitTimeout), shortDuration(maxWaitTimeout),
			shortDuration(DefaultCreateTimeout), sdk.DefaultSentRequestGrace),
	})
	// The library's block has no description of its own; the registry
	// page would show none.
	if nested, ok := b.(schema.SingleNestedBlock); ok {
		nested.MarkdownDescription = "How long Terraform waits for " + what + " (`create`)."
		return nested
	}
	return b
}

// triggersAttribute is the schema of triggers; what says what a change
// does ("starts a new job"), and replaceIf decides when it does.
func triggersAttribute(what string, replaceIf stringMapReplaceFunc) schema.MapAttribute {
	return schema.MapAttribute{
		MarkdownDescription: "Arbitrary values (a commit SHA, a release tag) that, when any of them changes (a key added " +
			"or removed included), " + what + ". Unchanged values plan nothing, apply after apply. An empty map and no " +
			"triggers both mean none: switching between them only updates state.",
		ElementType: types.StringType,
		Optional:    true,
		PlanModifiers: []planmodifier.Map{mapplanmodifier.RequiresReplaceIf(mapplanmodifier.RequiresReplaceIfFunc(replaceIf),
			"A change of triggers "+what+".", "A change of triggers "+what+".")},
	}
}

type stringMapReplaceFunc func(context.Context, planmodifier.MapRequest, *mapplanmodifier.RequiresReplaceIfFuncResponse)

// waitAttribute is the schema of wait_for_completion: what names the
// work ("the job"), ends its terminal statuses ("`completed`, `archived`
// or `failed`").
func waitAttribute(what, ends string) schema.BoolAttribute {
	return schema.BoolAttribute{
		MarkdownDescription: "Whether apply waits until " + what + " is " + ends + " (default `true`). With " +
			"`false`, apply returns as soon as the API has accepted the request, with the status the API gave; later " +
			"refreshes record its progress. Changing it starts nothing.",
		Optional: true,
		Computed: true,
		Default:  booldefault.StaticBool(true),
	}
}
