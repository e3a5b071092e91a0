package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Limits on what is read: the published files are tens of kilobytes, and a
// schema of theirs flattens to a few hundred fields. Past these a file is
// refused rather than compared in part.
const (
	maxFileBytes = 32 << 20
	maxFields    = 20000  // fields of one body or answer, nested ones included
	maxDepth     = 64     // nesting of one field
	maxSteps     = 100000 // schemas read (through references) in one file
)

// An op is one operation of a file, flattened for comparing.
type op struct {
	file, method, path string // path as the file writes it
	full               string // the server's path and path: what the SDK asks for
	id                 string // operationId
	deprecated         bool
	pathParams         []string         // in the order of the path
	params             map[string]field // "query.take", "path.id", "header.x"
	body               *content         // nil: the operation takes none
	answers            map[string]*content
}

// key names the operation whatever its path parameters are called.
func (o *op) key() string { return o.method + " " + paramName.ReplaceAllString(o.full, "{}") }

func (o *op) String() string { return o.method + " " + o.full }

var paramName = regexp.MustCompile(`\{[^}/]*\}`)

// content is a request body or an answer: its media type and its fields by
// JSON path ("" the body itself, "a.b", "list[].c").
type content struct {
	media    string
	required bool // a request body the operation requires
	fields   map[string]field
}

type field struct {
	typ      string // "string", "integer(int64)", "[]object", "boolean|object"
	nullable bool
	required bool // required in the object that holds it
	enum     []string
}

func (f field) String() string {
	s := f.typ
	if f.nullable {
		s += ", nullable"
	}
	if f.required {
		s += ", required"
	}
	return s
}

// A file is one OpenAPI document.
type file struct {
	name   string
	server string // its first server's URL
	ops    []*op
}

// loadSet reads every *.json file of dir.
func loadSet(dir string) (map[string]*file, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", dir)
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	set := map[string]*file{}
	for _, name := range names {
		f, err := loadFile(name)
		if err != nil {
			return nil, err
		}
		set[f.name] = f
	}
	return set, nil
}

func loadFile(path string) (*file, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() { // a FIFO would never end
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	if info.Size() > maxFileBytes {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d an OpenAPI file of Mintlify's may have here", path, info.Size(), maxFileBytes)
	}
	r, err := os.Open(path) //nolint:gosec // a file of a folder the developer names
	if err != nil {
		return nil, err
	}
	defer r.Close()
	data, err := io.ReadAll(io.LimitReader(r, maxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxFileBytes {
		return nil, fmt.Errorf("%s: more than %d bytes", path, maxFileBytes)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: not a JSON object: %w", path, err)
	}
	f := &file{name: filepath.Base(path)}
	if servers, _ := doc["servers"].([]any); len(servers) > 0 {
		f.server, _ = obj(servers[0])["url"].(string)
	}
	base := ""
	if u, err := url.Parse(f.server); err == nil {
		base = strings.TrimSuffix(u.Path, "/")
	}
	d := &document{root: doc, name: f.name}
	for p, item := range obj(doc["paths"]) {
		item, _, err := d.resolve(item)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", path, p, err)
		}
		for _, method := range []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"} {
			o, ok := item[method].(map[string]any)
			if !ok {
				continue
			}
			op, err := d.operation(item, o, strings.ToUpper(method), p, base)
			if err != nil {
				return nil, fmt.Errorf("%s: %s %s: %w", path, strings.ToUpper(method), p, err)
			}
			op.file = f.name
			f.ops = append(f.ops, op)
		}
	}
	sort.Slice(f.ops, func(i, j int) bool { return f.ops[i].path+f.ops[i].method < f.ops[j].path+f.ops[j].method })
	return f, nil
}

// obj is v as a JSON object; nil when it is none.
func obj(v any) map[string]any { m, _ := v.(map[string]any); return m }

var unescapePointer = strings.NewReplacer("~1", "/", "~0", "~")

type document struct {
	root  map[string]any
	name  string
	steps int // schemas read: see maxSteps
}

// resolve follows v's $ref (and the $ref of what that names) within the
// document; ref is the last one followed. A reference to another document
// is not followed: it comes back as ref with a nil object.
func (d *document) resolve(v any) (m map[string]any, ref string, err error) {
	m = obj(v)
	for hops := 0; m != nil; hops++ {
		r, ok := m["$ref"].(string)
		if !ok {
			return m, ref, nil
		}
		if hops == 32 {
			return nil, "", fmt.Errorf("$ref %s: a chain of references that does not end", r)
		}
		ref = r
		pointer, local := strings.CutPrefix(r, "#")
		if !local {
			return nil, ref, nil
		}
		var cur any = d.root
		for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
			tok, _ = url.PathUnescape(tok)
			tok = unescapePointer.Replace(tok)
			cur = obj(cur)[tok]
		}
		if m = obj(cur); m == nil {
			return nil, "", fmt.Errorf("$ref %s names nothing in %s", r, d.name)
		}
	}
	return nil, ref, nil
}

func (d *document) operation(item, o map[string]any, method, path, base string) (*op, error) {
	id, _ := o["operationId"].(string)
	dep, _ := o["deprecated"].(bool)
	out := &op{method: method, path: path, full: base + path, id: id, deprecated: dep,
		params: map[string]field{}, answers: map[string]*content{}}
	for _, m := range paramName.FindAllString(path, -1) {
		out.pathParams = append(out.pathParams, strings.Trim(m, "{}"))
	}
	// The path item's parameters, then the operation's, which override them.
	for _, list := range []any{item["parameters"], o["parameters"]} {
		list, _ := list.([]any)
		for _, p := range list {
			p, _, err := d.resolve(p)
			if err != nil {
				return nil, err
			}
			name, _ := p["name"].(string)
			in, _ := p["in"].(string)
			if p == nil || name == "" || in == "cookie" {
				continue
			}
			schema := p["schema"]
			for _, media := range obj(p["content"]) { // a parameter may give its schema this way
				schema = obj(media)["schema"]
			}
			fields, err := d.flatten(schema)
			if err != nil {
				return nil, fmt.Errorf("parameter %s: %w", name, err)
			}
			f := fields[""]
			f.required, _ = p["required"].(bool)
			out.params[in+"."+name] = f
		}
	}
	if rb, ok := o["requestBody"]; ok {
		rb, _, err := d.resolve(rb)
		if err != nil {
			return nil, err
		}
		if out.body, err = d.content(rb); err != nil {
			return nil, fmt.Errorf("request body: %w", err)
		}
		out.body.required, _ = rb["required"].(bool)
	}
	for status, r := range obj(o["responses"]) {
		r, _, err := d.resolve(r)
		if err != nil {
			return nil, err
		}
		if out.answers[status], err = d.content(r); err != nil {
			return nil, fmt.Errorf("%s answer: %w", status, err)
		}
	}
	return out, nil
}

// content flattens the schema of a request body's or an answer's JSON
// media type, or of the first one it lists when none is JSON.
func (d *document) content(c map[string]any) (*content, error) {
	media := obj(c["content"])
	types := slices.Sorted(maps.Keys(media))
	out := &content{fields: map[string]field{}}
	if len(types) == 0 {
		return out, nil
	}
	out.media = types[0]
	for _, t := range types {
		if t == "application/json" || strings.HasSuffix(t, "+json") {
			out.media = t
			break
		}
	}
	var err error
	out.fields, err = d.flatten(obj(media[out.media])["schema"])
	return out, err
}

// flatten lists the fields of schema by JSON path, "" the value itself,
// following $ref, allOf, oneOf and anyOf. A reference met again inside
// itself (a tree's node) ends the path there, with the field's type.
func (d *document) flatten(schema any) (map[string]field, error) {
	w := &walker{doc: d, out: map[string]field{}, steps: &d.steps}
	w.walk(schema, "", false, nil, true)
	return w.out, w.err
}

type walker struct {
	doc   *document
	out   map[string]field
	steps *int // the document's: many alternatives of one field add none to out
	err   error
}

// A view is what one schema says of a value, its allOf, oneOf and anyOf
// merged in: a field of any alternative is a field, required when every
// alternative requires it.
type view struct {
	types    map[string][]string // type -> its formats
	nullable bool
	enum     map[string]bool
	props    map[string][]any // name -> the schemas that declare it
	required map[string]bool
	items    []any
	more     []any    // additionalProperties
	refs     []string // the references followed
}

func newView() *view {
	return &view{types: map[string][]string{}, enum: map[string]bool{}, props: map[string][]any{}, required: map[string]bool{}}
}

// walk adds the field at path, unless it is a list's element (emit false:
// its type is in the list's), and the fields inside it.
func (w *walker) walk(schema any, path string, required bool, stack []string, emit bool) {
	if w.err != nil {
		return
	}
	if len(w.out) >= maxFields {
		w.err = fmt.Errorf("more than %d fields in one schema: refused rather than compared in part", maxFields)
		return
	}
	if strings.Count(path, ".")+strings.Count(path, "[]") >= maxDepth {
		w.err = fmt.Errorf("%s: nested deeper than %d levels", path, maxDepth)
		return
	}
	v := w.view(schema, stack)
	stack = append(slices.Clip(stack), v.refs...)
	if emit {
		f := field{typ: w.typeOf(v, stack), nullable: v.nullable, required: required, enum: slices.Sorted(maps.Keys(v.enum))}
		if seen, ok := w.out[path]; ok { // declared by another alternative too
			f.typ = strings.Join(union(strings.Split(seen.typ, "|"), strings.Split(f.typ, "|")), "|")
			f.nullable = f.nullable || seen.nullable
			f.enum = union(f.enum, seen.enum)
		}
		w.out[path] = f
	}
	for _, name := range slices.Sorted(maps.Keys(v.props)) {
		for _, s := range v.props[name] {
			w.walk(s, strings.TrimPrefix(path+"."+name, "."), v.required[name], stack, true)
		}
	}
	for _, s := range v.more {
		w.walk(s, strings.TrimPrefix(path+".*", "."), false, stack, true)
	}
	for _, s := range v.items {
		w.walk(s, path+"[]", false, stack, false)
	}
}

func union(a, b []string) []string {
	return slices.Compact(slices.Sorted(slices.Values(append(slices.Clip(a), b...))))
}

func (w *walker) view(schema any, stack []string) *view {
	v := newView()
	w.collect(schema, v, stack, false)
	return v
}

// collect merges schema into v. shallow takes only what the schema says of
// the value itself, not what it holds: a reference met inside itself.
func (w *walker) collect(schema any, v *view, stack []string, shallow bool) {
	if *w.steps++; *w.steps > maxSteps && w.err == nil {
		w.err = fmt.Errorf("more than %d schemas to read in one file: refused rather than compared in part", maxSteps)
	}
	if w.err != nil {
		return
	}
	m, ref, err := w.doc.resolve(schema)
	if err != nil {
		w.err = err
		return
	}
	if ref != "" {
		if m == nil { // another document's: compared by name
			v.types["$ref "+ref] = nil
			return
		}
		if slices.Contains(v.refs, ref) {
			return // already merged into v (an allOf naming its own schema)
		}
		shallow = shallow || slices.Contains(stack, ref)
		v.refs = append(v.refs, ref)
	}
	var formats []string
	if format, ok := m["format"].(string); ok {
		formats = []string{format}
	}
	switch t := m["type"].(type) {
	case string:
		v.types[t] = union(v.types[t], formats)
	case []any: // OpenAPI 3.1: ["string", "null"]
		for _, t := range t {
			if t, ok := t.(string); ok {
				v.types[t] = union(v.types[t], formats)
			}
		}
	}
	if _, ok := v.types["null"]; ok || m["nullable"] == true {
		v.nullable = true
		delete(v.types, "null")
	}
	if enum, ok := m["enum"].([]any); ok {
		for _, e := range enum {
			b, _ := json.Marshal(e)
			v.enum[string(b)] = true
		}
	}
	required, _ := m["required"].([]any)
	for _, r := range required {
		if r, ok := r.(string); ok {
			v.required[r] = true
		}
	}
	if !shallow {
		for name, p := range obj(m["properties"]) {
			v.props[name] = append(v.props[name], p)
		}
		if items, ok := m["items"]; ok {
			v.items = append(v.items, items)
		}
		if more := obj(m["additionalProperties"]); more != nil {
			v.more = append(v.more, more)
		}
	}
	all, _ := m["allOf"].([]any)
	for _, s := range all {
		w.collect(s, v, stack, shallow)
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		alts, _ := m[key].([]any)
		count := map[string]int{}
		before := slices.Clip(v.refs)
		for _, s := range alts {
			a := newView()
			a.refs = before
			w.collect(s, a, stack, shallow)
			for t, f := range a.types {
				v.types[t] = union(v.types[t], f)
			}
			v.nullable = v.nullable || a.nullable
			maps.Copy(v.enum, a.enum)
			for name, ps := range a.props {
				v.props[name] = append(v.props[name], ps...)
			}
			v.items = append(v.items, a.items...)
			v.more = append(v.more, a.more...)
			v.refs = append(v.refs, a.refs[len(before):]...)
			for r := range a.required {
				count[r]++
			}
		}
		for r, n := range count {
			if n == len(alts) {
				v.required[r] = true
			}
		}
	}
}

// typeOf names the types of v: "string(date-time)", "[]object",
// "boolean|object"; "any" when it says none.
func (w *walker) typeOf(v *view, stack []string) string {
	if len(v.types) == 0 {
		switch {
		case len(v.props) > 0 || len(v.more) > 0:
			return "object"
		case len(v.items) > 0:
			v.types["array"] = nil
		default:
			return "any"
		}
	}
	var names []string
	for t, formats := range v.types {
		switch {
		case t == "array":
			items := newView()
			for _, s := range v.items {
				w.collect(s, items, stack, false)
			}
			t = "[]" + w.typeOf(items, append(slices.Clip(stack), items.refs...))
		case len(formats) > 0:
			t += "(" + strings.Join(formats, "|") + ")"
		}
		names = append(names, t)
	}
	slices.Sort(names)
	return strings.Join(names, "|")
}
