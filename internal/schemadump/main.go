// Command schemadump writes the provider's schema in the form of
// `terraform providers schema -json`, read from the provider itself over
// its protocol-6 server: `make docs` feeds it to tfplugindocs
// (--providers-schema). Terraform 1.14, the first that knows actions, is
// not needed to document them, and the docs come from the very schema the
// binary serves.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/zclconf/go-cty/cty"

	"github.com/mintlify/terraform-provider-mintlify/internal/provider"
)

func main() {
	out := flag.String("out", "", "file to write (default: standard output)")
	flag.Parse()
	schemas, err := dump(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	data, err := json.MarshalIndent(schemas, "", "  ")
	if err != nil {
		log.Fatal(err)
	}
	if *out == "" {
		fmt.Println(string(data))
		return
	}
	if err := os.WriteFile(*out, append(data, '\n'), 0o600); err != nil {
		log.Fatal(err)
	}
}

// dump asks the provider for its schema and converts it. The key is the
// provider's short name, which tfplugindocs looks up.
func dump(ctx context.Context) (*tfjson.ProviderSchemas, error) {
	srv, err := providerserver.NewProtocol6WithError(provider.New("docs")())()
	if err != nil {
		return nil, err
	}
	resp, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		return nil, err
	}
	if len(resp.Diagnostics) > 0 {
		return nil, fmt.Errorf("schema: %s: %s", resp.Diagnostics[0].Summary, resp.Diagnostics[0].Detail)
	}
	ps := &tfjson.ProviderSchema{
		ResourceSchemas:   map[string]*tfjson.Schema{},
		DataSourceSchemas: map[string]*tfjson.Schema{},
		ActionSchemas:     map[string]*tfjson.ActionSchema{},

		EphemeralResourceSchemas: map[string]*tfjson.Schema{},
	}
	// List resources (terraform query) and resource identities have pages
	// and sections of their own.
	ps.ListResourceSchemas = map[string]*tfjson.Schema{}
	for name, s := range resp.ListResourceSchemas {
		if ps.ListResourceSchemas[name], err = schema(s); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	if ps.ResourceIdentitySchemas, err = identities(ctx, srv); err != nil {
		return nil, err
	}
	if ps.ConfigSchema, err = schema(resp.Provider); err != nil {
		return nil, err
	}
	for name, s := range resp.ResourceSchemas {
		if ps.ResourceSchemas[name], err = schema(s); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	for name, s := range resp.DataSourceSchemas {
		if ps.DataSourceSchemas[name], err = schema(s); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	for name, s := range resp.EphemeralResourceSchemas {
		if ps.EphemeralResourceSchemas[name], err = schema(s); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	for name, s := range resp.ActionSchemas {
		converted, err := schema(s.Schema)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		ps.ActionSchemas[name] = &tfjson.ActionSchema{Block: converted.Block}
	}
	return &tfjson.ProviderSchemas{FormatVersion: "1.0", Schemas: map[string]*tfjson.ProviderSchema{"mintlify": ps}}, nil
}

// identities are the resources' identity schemas.
func identities(ctx context.Context, srv tfprotov6.ProviderServer) (map[string]*tfjson.IdentitySchema, error) {
	resp, err := srv.GetResourceIdentitySchemas(ctx, &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		return nil, err
	}
	if len(resp.Diagnostics) > 0 {
		return nil, fmt.Errorf("identity schemas: %s: %s", resp.Diagnostics[0].Summary, resp.Diagnostics[0].Detail)
	}
	out := map[string]*tfjson.IdentitySchema{}
	for name, s := range resp.IdentitySchemas {
		is := &tfjson.IdentitySchema{Version: uint64(max(s.Version, 0)), Attributes: map[string]*tfjson.IdentityAttribute{}} //nolint:gosec // a schema version is not negative
		for _, a := range s.IdentityAttributes {
			t, err := ctyType(a.Type)
			if err != nil {
				return nil, fmt.Errorf("%s.%s: %w", name, a.Name, err)
			}
			is.Attributes[a.Name] = &tfjson.IdentityAttribute{IdentityType: t, Description: a.Description,
				RequiredForImport: a.RequiredForImport, OptionalForImport: a.OptionalForImport}
		}
		out[name] = is
	}
	return out, nil
}

func schema(s *tfprotov6.Schema) (*tfjson.Schema, error) {
	b, err := block(s.Block)
	return &tfjson.Schema{Version: uint64(max(s.Version, 0)), Block: b}, err //nolint:gosec // a schema version is not negative
}

func block(b *tfprotov6.SchemaBlock) (*tfjson.SchemaBlock, error) {
	out := &tfjson.SchemaBlock{
		Description: b.Description, DescriptionKind: descriptionKind(b.DescriptionKind), Deprecated: b.Deprecated,
	}
	for _, a := range b.Attributes {
		if out.Attributes == nil {
			out.Attributes = map[string]*tfjson.SchemaAttribute{}
		}
		converted, err := attribute(a)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", a.Name, err)
		}
		out.Attributes[a.Name] = converted
	}
	for _, nb := range b.BlockTypes {
		if out.NestedBlocks == nil {
			out.NestedBlocks = map[string]*tfjson.SchemaBlockType{}
		}
		inner, err := block(nb.Block)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", nb.TypeName, err)
		}
		out.NestedBlocks[nb.TypeName] = &tfjson.SchemaBlockType{NestingMode: blockNesting[nb.Nesting], Block: inner,
			MinItems: uint64(max(nb.MinItems, 0)), MaxItems: uint64(max(nb.MaxItems, 0))} //nolint:gosec // item counts are not negative
	}
	return out, nil
}

func attribute(a *tfprotov6.SchemaAttribute) (*tfjson.SchemaAttribute, error) {
	out := &tfjson.SchemaAttribute{
		Description: a.Description, DescriptionKind: descriptionKind(a.DescriptionKind), Deprecated: a.Deprecated,
		Required: a.Required, Optional: a.Optional, Computed: a.Computed, Sensitive: a.Sensitive, WriteOnly: a.WriteOnly,
	}
	if a.NestedType != nil {
		nested := &tfjson.SchemaNestedAttributeType{NestingMode: objectNesting[a.NestedType.Nesting], Attributes: map[string]*tfjson.SchemaAttribute{}}
		for _, inner := range a.NestedType.Attributes {
			converted, err := attribute(inner)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", inner.Name, err)
			}
			nested.Attributes[inner.Name] = converted
		}
		out.AttributeNestedType = nested
		return out, nil
	}
	t, err := ctyType(a.Type)
	out.AttributeType = t
	return out, err
}

// ctyType converts a type through the JSON form both packages share.
func ctyType(t tftypes.Type) (cty.Type, error) {
	data, err := t.MarshalJSON() //nolint:staticcheck // the documented way to serialize a type
	if err != nil {
		return cty.NilType, err
	}
	var out cty.Type
	return out, out.UnmarshalJSON(data)
}

func descriptionKind(k tfprotov6.StringKind) tfjson.SchemaDescriptionKind {
	if k == tfprotov6.StringKindMarkdown {
		return tfjson.SchemaDescriptionKindMarkdown
	}
	return tfjson.SchemaDescriptionKindPlain
}

var (
	blockNesting = map[tfprotov6.SchemaNestedBlockNestingMode]tfjson.SchemaNestingMode{
		tfprotov6.SchemaNestedBlockNestingModeSingle: tfjson.SchemaNestingModeSingle,
		tfprotov6.SchemaNestedBlockNestingModeGroup:  tfjson.SchemaNestingModeGroup,
		tfprotov6.SchemaNestedBlockNestingModeList:   tfjson.SchemaNestingModeList,
		tfprotov6.SchemaNestedBlockNestingModeSet:    tfjson.SchemaNestingModeSet,
		tfprotov6.SchemaNestedBlockNestingModeMap:    tfjson.SchemaNestingModeMap,
	}
	objectNesting = map[tfprotov6.SchemaObjectNestingMode]tfjson.SchemaNestingMode{
		tfprotov6.SchemaObjectNestingModeSingle: tfjson.SchemaNestingModeSingle,
		tfprotov6.SchemaObjectNestingModeList:   tfjson.SchemaNestingModeList,
		tfprotov6.SchemaObjectNestingModeSet:    tfjson.SchemaNestingModeSet,
		tfprotov6.SchemaObjectNestingModeMap:    tfjson.SchemaNestingModeMap,
	}
)
