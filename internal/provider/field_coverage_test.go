package provider

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/mintlify/terraform-provider-mintlify/sdk"
)

// Every field of what the SDK reads from the API is shown by the provider
// or left out on purpose, and the purpose is written here. The SDK's
// answers are found by reflection (every struct a method of a client's
// services returns, and the structs their fields hold), the provider's
// attributes by its schemas; a field is shown where one of its type's
// places has an attribute of its name, matched as flatten.go matches them.
// A new field of an answer thus fails this test until it is shown or
// listed in fieldsLeftOut (the job listing's todos were dropped silently
// until this test existed).

// fieldPlaces says where the provider shows each answer type: a schema
// ("data.NAME", "resource.NAME", "ephemeral.NAME") and the attributes down
// to the object that holds the type's fields (a list's elements are
// stepped into). A field matched there whose type is another answer
// struct places that struct at the attribute, so nested types need no
// entry of their own.
var fieldPlaces = map[string][]string{
	"AgentJob":           {"resource.mintlify_agent_job", "resource.mintlify_agent_job_message", "data.mintlify_agent_job"},
	"SessionsPage":       {"data.mintlify_agent_jobs"},
	"PathCountsPage":     {"data.mintlify_unique_visitors", "data.mintlify_page_views"},
	"SearchesPage":       {"data.mintlify_search_queries"},
	"FeedbackPage":       {"data.mintlify_feedback"},
	"FeedbackByPage":     {"data.mintlify_feedback_by_page"},
	"ConversationsPage":  {"data.mintlify_assistant_conversations"},
	"CallerStats":        {"data.mintlify_assistant_caller_stats"},
	"Deployment":         {"data.mintlify_deployment_status", "resource.mintlify_deployment", "resource.mintlify_preview_deployment"},
	"DeploymentStarted":  {"resource.mintlify_deployment"},
	"PreviewStarted":     {"resource.mintlify_preview_deployment"},
	"StaticExport":       {"resource.mintlify_static_export"},
	"StaticExportBundle": {"ephemeral.mintlify_static_export_bundle"},
	"SearchResults":      {"data.mintlify_search"},
	"PageContent":        {"data.mintlify_page"},
	"DailySeries":        {"data.mintlify_analytics_daily"},
}

// fieldsShownAs are fields the provider shows under other attribute
// names: "Type.Field" to the names, each at one of the type's places.
var fieldsShownAs = map[string][]string{
	"DeploymentStarted.StatusID": {"id"},
	"PreviewStarted.StatusID":    {"id"},
	"SessionsPage.Sessions":      {"jobs"},
	"PathCountsPage.Paths":       {"visitors", "views"},
}

// fieldsLeftOut are the answers' fields, and whole types, that the
// provider does not show: "Type.Field", "Type" (every field of it), or
// "*.Field" (that field of every type). Each says why.
var fieldsLeftOut = map[string]string{
	"ResponseInfo": "how the answer came (request id, attempts, rate limit, cache): logged, and said in diagnostics " +
		"when it matters (a stale copy), never state that would change on every read",
	"*.Problems":   "the fields the SDK could not read: said in a warning diagnostic, not kept in state",
	"*.NextCursor": "paging: the provider reads every page it needs (max_results) and keeps the rows",
	"*.HasMore":    "paging, as NextCursor (mintlify_feedback_by_page, one page, shows it as has_more)",

	"DailySeries.Left": "how many requests the missing days still need: said in the warning that lists them, " +
		"with the runs and hours it will take; state keeps the missing days themselves",
	"DailySeries.Kept":      "false only without a cache: said in a warning, as every other cache problem",
	"DailySeries.RateLimit": "the budget's refusal: said in a warning naming when it frees up, never state",

	"SessionsPage.Skipped": "jobs whose id no request can send: named in a warning, and left out of the list",

	"AutomationRun": "mintlify_automation_run is an action, which keeps no state: the run's instance and job ids " +
		"are said in its progress message and logged",
	"AssistantThread": "no data source reads a conversation's thread: one request per conversation against the " +
		"organization's analytics budget; mintlify_assistant_conversations shows each conversation's query, " +
		"answer and sources",
	"AssistantAnswer": "there is deliberately no data source for the assistant's answers: every message costs " +
		"credits, and a data source would ask again on every plan (the Go SDK has it)",
	"AssistantStream": "the assistant's answers, streamed: see AssistantAnswer",
	"IndexSearchResults": "the provider takes no Index key (mint_us_...): Mintlify Index searches the docs of " +
		"other publishers and the web, served by the Go SDK's IndexClient",
	"IndexContext":  "see IndexSearchResults",
	"IndexContents": "see IndexSearchResults",
}

// answerTypes are the struct types of package sdk that a client's calls
// return (roots, in the order met), and those their exported fields hold,
// each with where it was first met (for messages). Embedded structs are
// fields of their own (ResponseInfo), not promoted.
func answerTypes() (found map[reflect.Type]string, roots []reflect.Type) {
	sdkPkg := reflect.TypeFor[sdk.Client]().PkgPath()
	found = map[reflect.Type]string{}
	var addType func(t reflect.Type, from string, root bool)
	addType = func(t reflect.Type, from string, root bool) {
		t = elemStruct(t)
		switch {
		case t.Kind() == reflect.Func: // an iterator: what it yields
			for i := range t.NumIn() {
				addType(t.In(i), from, root)
			}
			for i := range t.NumOut() {
				addType(t.Out(i), from, root)
			}
			return
		case t.Kind() != reflect.Struct || t.PkgPath() != sdkPkg:
			return
		}
		if root && !slices.Contains(roots, t) {
			roots = append(roots, t)
		}
		if _, ok := found[t]; ok {
			return
		}
		found[t] = from
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				addType(f.Type, t.Name()+"."+f.Name, false)
			}
		}
	}
	var addService func(t reflect.Type, name string)
	addService = func(t reflect.Type, name string) {
		for i := range reflect.PointerTo(t).NumMethod() {
			m := reflect.PointerTo(t).Method(i)
			for j := range m.Type.NumOut() {
				addType(m.Type.Out(j), name+"."+m.Name, true)
			}
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if st := elemStruct(f.Type); f.IsExported() && st.Kind() == reflect.Struct && st.PkgPath() == sdkPkg {
				addService(st, name+"."+f.Name)
			}
		}
	}
	for _, c := range []reflect.Type{reflect.TypeFor[sdk.Client](), reflect.TypeFor[sdk.DiscoveryClient](), reflect.TypeFor[sdk.IndexClient]()} {
		addService(c, c.Name())
	}
	return found, roots
}

// elemStruct is what t holds: past pointers, slices, arrays and maps.
func elemStruct(t reflect.Type) reflect.Type {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		default:
			return t
		}
	}
}

// providerObjects are the provider's schemas as object types, by
// "data.NAME", "resource.NAME", "ephemeral.NAME".
func providerObjects(t *testing.T) map[string]tftypes.Object {
	t.Helper()
	resp, err := providerserver.NewProtocol6(New("test")())().GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("schema: %v %v", err, resp.Diagnostics)
	}
	out := map[string]tftypes.Object{}
	for kind, schemas := range map[string]map[string]*tfprotov6.Schema{
		"data": resp.DataSourceSchemas, "resource": resp.ResourceSchemas, "ephemeral": resp.EphemeralResourceSchemas,
	} {
		for name, s := range schemas {
			obj, ok := s.Block.ValueType().(tftypes.Object)
			if !ok {
				t.Fatalf("%s.%s: the schema is not an object", kind, name)
			}
			out[kind+"."+name] = obj
		}
	}
	return out
}

// objectAt is the object a place names, stepping into lists', sets' and
// maps' elements.
func objectAt(objects map[string]tftypes.Object, place string) (tftypes.Object, bool) {
	parts := strings.Split(place, ".")
	if len(parts) < 2 {
		return tftypes.Object{}, false
	}
	obj, ok := objects[parts[0]+"."+parts[1]]
	for _, name := range parts[2:] {
		if !ok {
			break
		}
		obj, ok = objectIn(obj.AttributeTypes[name])
	}
	return obj, ok
}

// objectIn is the object t is or holds.
func objectIn(t tftypes.Type) (tftypes.Object, bool) {
	switch t := t.(type) {
	case tftypes.Object:
		return t, true
	case tftypes.List:
		return objectIn(t.ElementType)
	case tftypes.Set:
		return objectIn(t.ElementType)
	case tftypes.Map:
		return objectIn(t.ElementType)
	}
	return tftypes.Object{}, false
}

// attributeFor is the attribute of obj that shows the field named name,
// as flatten.go matches them.
func attributeFor(obj tftypes.Object, name string) (string, bool) {
	for attr := range obj.AttributeTypes {
		if matchName(attr) == matchName(name) {
			return attr, true
		}
	}
	return "", false
}

// coverage is what the test works out: each answer type's places, and
// the entries of fieldsLeftOut that were needed.
type coverage struct {
	objects map[string]tftypes.Object
	types   map[reflect.Type]string
	places  map[reflect.Type][]string
	used    map[string]bool
}

// leftOut reports whether fieldsLeftOut says why field of typ is left
// out: by the type, the field, the field in every type, or the type the
// field holds.
func (c *coverage) leftOut(typ reflect.Type, field reflect.StructField) bool {
	for _, key := range []string{typ.Name(), typ.Name() + "." + field.Name, "*." + field.Name, elemStruct(field.Type).Name()} {
		if _, ok := fieldsLeftOut[key]; ok {
			c.used[key] = true
			return true
		}
	}
	return false
}

// place adds where a type is shown, and, through its fields matched
// there, where the types they hold are.
func (c *coverage) place(typ reflect.Type, place string) {
	if slices.Contains(c.places[typ], place) {
		return
	}
	c.places[typ] = append(c.places[typ], place)
	obj, ok := objectAt(c.objects, place)
	if !ok {
		return
	}
	for i := range typ.NumField() {
		f := typ.Field(i)
		held := elemStruct(f.Type)
		if _, answer := c.types[held]; !answer || !f.IsExported() {
			continue
		}
		if name, ok := attributeFor(obj, f.Name); ok {
			c.place(held, place+"."+name)
		}
		for _, name := range fieldsShownAs[typ.Name()+"."+f.Name] {
			if _, ok := obj.AttributeTypes[name]; ok {
				c.place(held, place+"."+name)
			}
		}
	}
}

// TestFieldCoverage_everyAnswerFieldIsShownOrLeftOutWithAReason fails when
// a field of an SDK answer is neither an attribute where the provider
// shows its type nor in fieldsLeftOut.
func TestFieldCoverage_everyAnswerFieldIsShownOrLeftOutWithAReason(t *testing.T) {
	types, roots := answerTypes()
	if len(roots) < 15 {
		t.Fatalf("found %d answer types; does answerTypes still walk the clients' services?", len(roots))
	}
	c := &coverage{objects: providerObjects(t), types: types, places: map[reflect.Type][]string{}, used: map[string]bool{}}
	byName := map[string]reflect.Type{}
	for typ := range types {
		byName[typ.Name()] = typ
	}
	for name, places := range fieldPlaces {
		typ, ok := byName[name]
		if !ok {
			t.Errorf("fieldPlaces names %s, which is not an answer type of the SDK", name)
			continue
		}
		for _, p := range places {
			if _, ok := objectAt(c.objects, p); !ok {
				t.Errorf("fieldPlaces: %s is shown at %s, which is no object of the provider's schemas", name, p)
			}
			c.place(typ, p)
		}
	}
	// The types to check: the calls' answers, and what their fields hold
	// unless the field (or its type) is left out.
	checked := map[reflect.Type]bool{}
	var check func(typ reflect.Type)
	check = func(typ reflect.Type) {
		if checked[typ] {
			return
		}
		checked[typ] = true
		for i := range typ.NumField() {
			f := typ.Field(i)
			if !f.IsExported() {
				continue
			}
			if c.shown(typ, f) {
				if held := elemStruct(f.Type); types[held] != "" {
					check(held)
				}
				continue
			}
			if c.leftOut(typ, f) {
				continue
			}
			t.Errorf("%s.%s (%s, from %s) is not shown by the provider: add an attribute for it where %s is shown (%s), "+
				"or say in fieldsLeftOut why it is left out",
				typ.Name(), f.Name, f.Type, types[typ], typ.Name(), placesOr(c.places[typ]))
		}
	}
	for _, typ := range roots {
		check(typ)
	}
	for key := range fieldsLeftOut {
		if !c.used[key] {
			t.Errorf("fieldsLeftOut has %q, which no answer field needs: remove it", key)
		}
	}
	for key, names := range fieldsShownAs {
		typName, field, _ := strings.Cut(key, ".")
		typ, ok := byName[typName]
		if _, has := typ.FieldByName(field); !ok || !has {
			t.Errorf("fieldsShownAs has %s, which is not a field of an answer type", key)
			continue
		}
		for _, name := range names {
			if !slices.ContainsFunc(c.places[typ], func(p string) bool { obj, _ := objectAt(c.objects, p); _, ok := obj.AttributeTypes[name]; return ok }) {
				t.Errorf("fieldsShownAs: %s is shown as %q, which no place of %s has (%s)", key, name, typName, placesOr(c.places[typ]))
			}
		}
	}
}

// shown reports whether some place of typ has an attribute for f, by its
// name or by one fieldsShownAs gives it.
func (c *coverage) shown(typ reflect.Type, f reflect.StructField) bool {
	for _, p := range c.places[typ] {
		obj, _ := objectAt(c.objects, p)
		if _, ok := attributeFor(obj, f.Name); ok {
			return true
		}
		for _, name := range fieldsShownAs[typ.Name()+"."+f.Name] {
			if _, ok := obj.AttributeTypes[name]; ok {
				return true
			}
		}
	}
	return false
}

func placesOr(places []string) string {
	if len(places) == 0 {
		return "nowhere yet: add it to fieldPlaces"
	}
	return strings.Join(places, ", ")
}

// TestFieldCoverage_findsAFieldNobodyShows: the test's own check, on a
// schema without one of the listing's attributes.
func TestFieldCoverage_findsAFieldNobodyShows(t *testing.T) {
	types, _ := answerTypes()
	objects := providerObjects(t)
	jobs, ok := objectAt(objects, "data.mintlify_agent_jobs.jobs")
	if !ok {
		t.Fatal("no data.mintlify_agent_jobs.jobs")
	}
	trimmed := tftypes.Object{AttributeTypes: map[string]tftypes.Type{}}
	for k, v := range jobs.AttributeTypes {
		if k != "title" {
			trimmed.AttributeTypes[k] = v
		}
	}
	objects["data.trimmed"] = tftypes.Object{AttributeTypes: map[string]tftypes.Type{"jobs": tftypes.List{ElementType: trimmed}}}
	c := &coverage{objects: objects, types: types, places: map[reflect.Type][]string{}, used: map[string]bool{}}
	session := reflect.TypeFor[sdk.AgentSession]()
	c.place(session, "data.trimmed.jobs")
	title, _ := session.FieldByName("Title")
	id, _ := session.FieldByName("ID")
	if c.shown(session, title) || !c.shown(session, id) {
		t.Errorf("title shown %v (want false), id shown %v (want true)", c.shown(session, title), c.shown(session, id))
	}
	if got := fmt.Sprint(c.places[session]); got != "[data.trimmed.jobs]" {
		t.Errorf("places %s", got)
	}
}
