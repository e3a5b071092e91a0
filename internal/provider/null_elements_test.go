package provider

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/ephemeral"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// Null elements in every list and set attribute, below Terraform: a sweep
// over every schema the provider serves (actions and list resources
// included), one request per attribute through the protocol-6 server,
// where the CLI would need a configuration, an init and a plan each.

// everySchema is every schema the provider serves, by name: each walks
// its attributes (a map of the framework's internal attribute type, which
// the walk reads through reflection and interfaces of its own).
func everySchema(t *testing.T) map[string]func(walk func(at string, attrs any)) {
	t.Helper()
	ctx := context.Background()
	p := New("test")().(*mintlifyProvider) //nolint:forcetypeassert // the provider's own type
	out := map[string]func(walk func(string, any)){}
	add := func(name string, attrs any) { out[name] = func(walk func(string, any)) { walk("", attrs) } }
	var ps provider.SchemaResponse
	p.Schema(ctx, provider.SchemaRequest{}, &ps)
	add("the provider", ps.Schema.GetAttributes())
	for _, r := range p.Resources(ctx) {
		var m resource.MetadataResponse
		r().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "mintlify"}, &m)
		var s resource.SchemaResponse
		r().Schema(ctx, resource.SchemaRequest{}, &s)
		add("resource "+m.TypeName, s.Schema.GetAttributes())
	}
	for _, d := range p.DataSources(ctx) {
		var m datasource.MetadataResponse
		d().Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "mintlify"}, &m)
		var s datasource.SchemaResponse
		d().Schema(ctx, datasource.SchemaRequest{}, &s)
		add("data source "+m.TypeName, s.Schema.GetAttributes())
	}
	for _, e := range p.EphemeralResources(ctx) {
		var m ephemeral.MetadataResponse
		e().Metadata(ctx, ephemeral.MetadataRequest{ProviderTypeName: "mintlify"}, &m)
		var s ephemeral.SchemaResponse
		e().Schema(ctx, ephemeral.SchemaRequest{}, &s)
		add("ephemeral resource "+m.TypeName, s.Schema.GetAttributes())
	}
	for _, a := range p.Actions(ctx) {
		var m action.MetadataResponse
		a().Metadata(ctx, action.MetadataRequest{ProviderTypeName: "mintlify"}, &m)
		var s action.SchemaResponse
		a().Schema(ctx, action.SchemaRequest{}, &s)
		add("action "+m.TypeName, s.Schema.GetAttributes())
	}
	for _, l := range p.ListResources(ctx) {
		var m resource.MetadataResponse
		l().Metadata(ctx, resource.MetadataRequest{ProviderTypeName: "mintlify"}, &m)
		var s list.ListResourceSchemaResponse
		l().ListResourceConfigSchema(ctx, list.ListResourceSchemaRequest{}, &s)
		add("list resource "+m.TypeName, s.Schema.GetAttributes())
	}
	return out
}

// configurableCollection is what the walk needs of an attribute: whether
// configuration sets it.
type configurableCollection interface {
	IsOptional() bool
	IsRequired() bool
}

// Every list and set attribute a configuration sets refuses null elements
// at plan: `[null]` gave the framework's "always an error in the
// provider", or passed plan and failed at apply. New attributes are held
// to it here, nested ones included.
func TestSchemas_everyConfigurableListOrSetRefusesNullElements(t *testing.T) {
	ctx := context.Background()
	noNullList := listvalidator.NoNullValues().Description(ctx)
	noNullSet := setvalidator.NoNullValues().Description(ctx)
	var checked, missing []string
	for name, schema := range everySchema(t) {
		var walk func(at string, attrs any)
		walk = func(at string, attrs any) {
			it := reflect.ValueOf(attrs).MapRange()
			for it.Next() {
				path := at + it.Key().String()
				a := it.Value().Interface()
				c, ok := a.(configurableCollection)
				configured := ok && (c.IsOptional() || c.IsRequired())
				var has func() bool
				switch v := a.(type) {
				case interface{ ListValidators() []validator.List }:
					has = func() bool { return hasDescription(ctx, v.ListValidators(), noNullList) }
				case interface{ SetValidators() []validator.Set }:
					has = func() bool { return hasDescription(ctx, v.SetValidators(), noNullSet) }
				}
				if has != nil && configured {
					checked = append(checked, name+": "+path)
					if !has() {
						missing = append(missing, name+": "+path)
					}
				}
				// Nested attributes: GetNestedObject().GetAttributes().
				if m := reflect.ValueOf(a).MethodByName("GetNestedObject"); m.IsValid() {
					obj := m.Call(nil)[0]
					walk(path+".", obj.MethodByName("GetAttributes").Call(nil)[0].Interface())
				}
			}
		}
		schema(walk)
	}
	sort.Strings(missing)
	for _, m := range missing {
		t.Errorf("%s: a list or set that configuration sets has no NoNullValues validator", m)
	}
	if len(checked) < 7 {
		t.Errorf("only %d configurable lists and sets found: the walk missed some (%v)", len(checked), checked)
	}
}

func hasDescription[V interface{ Description(context.Context) string }](ctx context.Context, vs []V, want string) bool {
	for _, v := range vs {
		if v.Description(ctx) == want {
			return true
		}
	}
	return false
}

// [null] in each list or set attribute fails at plan, naming the
// attribute, with no request.
func TestNullElements_failAtPlanWithNoRequest(t *testing.T) {
	h := newProtoHarness(t, mintlifytest.Config{}, true)
	nullString := tftypes.NewValue(tftypes.String, nil)
	nullList := tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str("active"), nullString})
	nullSet := tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{nullString})
	ctx := context.Background()
	for _, tt := range []struct {
		where string
		diags func() []*tfprotov6.Diagnostic
	}{
		{"mintlify_agent_jobs.statuses", func() []*tfprotov6.Diagnostic {
			_, d := h.readData("mintlify_agent_jobs", map[string]tftypes.Value{"statuses": nullList})
			return d
		}},
		{"mintlify_search.groups", func() []*tfprotov6.Diagnostic {
			_, d := h.readData("mintlify_search", map[string]tftypes.Value{"query": str("x"), "domain": str("acme"), "groups": nullList})
			return d
		}},
		{"mintlify_page.groups", func() []*tfprotov6.Diagnostic {
			_, d := h.readData("mintlify_page", map[string]tftypes.Value{"path": str("index"), "domain": str("acme"), "groups": nullList})
			return d
		}},
		{"list mintlify_agent_job.statuses", func() []*tfprotov6.Diagnostic {
			_, d := h.query(map[string]tftypes.Value{"statuses": nullList}, false, 10)
			return d
		}},
		{"action mintlify_static_export.paths", func() []*tfprotov6.Diagnostic {
			return h.check("mintlify_static_export", map[string]tftypes.Value{"domain": str("docs.example.com"), "paths": nullSet})
		}},
		{"resource mintlify_static_export.paths", func() []*tfprotov6.Diagnostic {
			s := h.schema.ResourceSchemas["mintlify_static_export"]
			v, err := h.srv.ValidateResourceConfig(ctx, &tfprotov6.ValidateResourceConfigRequest{TypeName: "mintlify_static_export",
				Config: h.dynamic(s, map[string]tftypes.Value{"domain": str("docs.example.com"), "paths": nullSet})})
			if err != nil {
				t.Fatal(err)
			}
			return v.Diagnostics
		}},
	} {
		text := diagsText(tt.diags())
		if !strings.HasPrefix(text, "error: Null") && !strings.Contains(text, "must be configured") || strings.Contains(text, "always an error in the provider") {
			t.Errorf("%s = [null]: %q", tt.where, text)
		}
	}
	wantNoRequests(t, h.fs, "for null elements")
}
