package sdk_test

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// The contract tests hold the fake and the SDK to Mintlify's published
// OpenAPI files: every request the SDK sends and every answer the fake
// gives must be what the files allow. The files are in the repository,
// unchanged, beside Mintlify's MIT notice (internal/openapi, embedded
// here: a clone with nothing beside it runs every contract test).
// MINTLIFY_SPEC_DIR, when set, names a folder of newer copies to read
// instead (internal/openapi/SOURCE.md says how to refresh them).

//go:embed internal/openapi/*.json
var embeddedSpecs embed.FS

// undeclaredStatuses are answers the fake gives that a spec file does not
// list for the operation. Each is documented on Mintlify's API reference
// pages (../shared/API.md) for every endpoint: 401 (missing or invalid
// key), 403 (read-only key, IP not allowed), 404 (unknown project), 429
// (rate limit). Their bodies must still be the spec's error object.
var undeclaredStatuses = []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound, http.StatusTooManyRequests}

// undeclaredDiscoveryStatuses are the same for discovery-openapi.json,
// which documents no error but the page's 404, plus 400 (a body its
// schema refuses): their bodies must be that 404's object, {"message"}.
var undeclaredDiscoveryStatuses = append([]int{http.StatusBadRequest}, undeclaredStatuses...)

// streamedAnswers are operations whose 200 the spec types as a JSON
// object while its description says the body is an AI SDK stream (the
// assistant messages): their 200s are checked as that stream, part by
// part, instead of against the schema.
var streamedAnswers = map[string]string{
	"/v2/assistant/{domain}/message": "v2", // AI SDK v5 UI message stream: SSE, one JSON part per data line
	"/v1/assistant/{domain}/message": "v1", // AI SDK v4 data stream: one CODE:JSON part per line
}

// neverAnswered are the response properties a spec file declares that no
// answer of the fake holds in the contract run ("METHOD /path status
// property", a list's elements written [], an entry covering what is
// inside the property), each with the reason: any other declared property
// the fake never sends is a violation.
var neverAnswered = map[string]string{
	"GET /v1/analytics/{projectId}/assistant/threads/{threadId} 404 details": "an unknown thread is not an " +
		"invalid request: nothing to detail (the analytics 400s send details)",
}

// deprecatedUsed are the deprecated operations the SDK calls on purpose,
// each for a reason: any other deprecated call is a violation.
var deprecatedUsed = map[string]string{
	// The v2 agent API has no listing: v1's is the only way to find jobs
	// started outside this client (AgentJobs.Sessions).
	"GET /v1/agent/{projectId}/jobs": "the API's only listing of agent jobs",
}

type spec struct {
	doc    *openapi3.T
	router routers.Router
	// errorSchema is the spec's error object, for undeclared statuses.
	errorSchema *openapi3.Schema
	// undeclared are the statuses answered beyond those the file lists.
	undeclared []int
	// host is the host of the file's server.
	host string
	file string
}

// specFiles are the OpenAPI files the contract covers, each with its
// error object: a component's name, or (discovery) the page's 404.
var specFiles = []struct{ file, errorSchema string }{
	{"admin-openapi.json", "Error"},
	{"analytics.openapi.json", "AnalyticsErrorResponse"},
	{"static-export-openapi.json", "Error"},
	{"openapi.json", ""}, // its error body is inline: plainErrorSchema
	{"discovery-openapi.json", "/v1/page/{domain} 404"},
	{"index-openapi.json", "Error"},
}

func loadSpecs(t *testing.T) []spec {
	t.Helper()
	files, err := fs.Sub(embeddedSpecs, "internal/openapi")
	if err != nil {
		t.Fatal(err)
	}
	where := "sdk/internal/openapi (embedded)"
	if dir := os.Getenv("MINTLIFY_SPEC_DIR"); dir != "" {
		files, where = os.DirFS(dir), "MINTLIFY_SPEC_DIR="+dir
		t.Logf("contract: the OpenAPI files of %s", where)
	}
	var out []spec
	for _, f := range specFiles {
		file, errName := f.file, f.errorSchema
		data, err := fs.ReadFile(files, file)
		if err != nil {
			t.Fatalf("the OpenAPI file %s of %s: %v", file, where, err)
		}
		loader := openapi3.NewLoader()
		doc, err := loader.LoadFromData(data)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if err := doc.Validate(loader.Context); err != nil {
			t.Fatalf("%s is not a valid OpenAPI document: %v", file, err)
		}
		router, err := gorillamux.NewRouter(doc)
		if err != nil {
			t.Fatal(err)
		}
		sp := spec{doc: doc, router: router, undeclared: undeclaredStatuses, file: file}
		switch path, ok := strings.CutSuffix(errName, " 404"); {
		case ok:
			sp.errorSchema = doc.Paths.Find(path).Post.Responses.Status(http.StatusNotFound).Value.Content.Get("application/json").Schema.Value
			sp.undeclared = undeclaredDiscoveryStatuses
		case errName == "":
			sp.errorSchema = plainErrorSchema // openapi.json declares its error body inline
		default:
			sp.errorSchema = doc.Components.Schemas[errName].Value
		}
		if u, err := url.Parse(doc.Servers[0].URL); err == nil {
			sp.host = u.Host
		}
		out = append(out, sp)
	}
	return out
}

// contractProxy serves the fake and validates each exchange on the way.
type contractProxy struct {
	specs []spec
	next  http.Handler

	mu         sync.Mutex
	violations []string
	seen       map[string]int // "METHOD /path/template status" -> exchanges
	calls      *callRecord    // what the SDK sends and reads; nil: not recorded
	// answers are, for each "METHOD /path/template status" whose answer
	// the spec declares, its schema and the property paths the answers
	// held (answerPaths).
	answers  map[string]*answerRecord
	declared int // the properties unanswered compared
}

// answerRecord is what the spec declares an answer holds, and what the
// answers held.
type answerRecord struct {
	schema *openapi3.Schema
	held   map[string]bool
}

// invalidRequestHeader marks a request deliberately outside the spec (to
// make the fake answer 400): only its answer is validated.
const invalidRequestHeader = "X-Contract-Invalid-Request"

func (p *contractProxy) fail(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.violations = append(p.violations, fmt.Sprintf(format, args...))
}

func (p *contractProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(body))
	// Route as the spec's server would see the request: the fake serves
	// every API on one host, each file's server has its own.
	var (
		sp      spec
		route   *routers.Route
		params  map[string]string
		specReq *http.Request
	)
	for _, s := range p.specs {
		specReq = r.Clone(context.Background())
		specReq.URL, _ = url.Parse("https://" + s.host + r.URL.RequestURI())
		specReq.Host = s.host
		specReq.Body = io.NopCloser(bytes.NewReader(body))
		if rt, pp, err := s.router.FindRoute(specReq); err == nil {
			sp, route, params = s, rt, pp
			break
		}
	}
	rec := httptest.NewRecorder()
	p.next.ServeHTTP(rec, r)
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())

	what := r.Method + " " + r.URL.Path
	if route == nil && strings.HasPrefix(r.URL.Path, "/_bundles/") {
		return // a bundle's download: object storage's, in no spec of the API
	}
	if route == nil {
		p.fail("%s: no operation in the spec files", what)
		return
	}
	if _, ok := deprecatedUsed[r.Method+" "+route.Path]; route.Operation.Deprecated && !ok {
		p.fail("%s: a deprecated operation was used", what)
	}
	opts := &openapi3filter.Options{
		AuthenticationFunc:      openapi3filter.NoopAuthenticationFunc,
		IncludeResponseStatus:   true,
		MultiError:              true,
		SchemaValidationOptions: []openapi3.SchemaValidationOption{openapi3.EnableFormatValidation()},
	}
	in := &openapi3filter.RequestValidationInput{Request: specReq, PathParams: params, Route: route, Options: opts}
	ctx := context.Background()
	if r.Header.Get(invalidRequestHeader) == "" {
		if err := openapi3filter.ValidateRequest(ctx, in); err != nil {
			p.fail("%s: request: %v", what, err)
		}
	}
	p.mu.Lock()
	p.seen[fmt.Sprintf("%s %s %d", r.Method, route.Path, rec.Code)]++
	p.mu.Unlock()
	p.calls.add(sp.file, route.Path, r, body, rec)
	if format, ok := streamedAnswers[route.Path]; ok && rec.Code == http.StatusOK {
		if err := checkStream(format, rec.Header().Get("Content-Type"), rec.Body.String()); err != nil {
			p.fail("%s: 200 stream: %v", what, err)
		}
		return
	}
	// A request deliberately outside the spec gets a 400 even where the
	// operation lists none (the v1 job listing): in the error object.
	invalid := r.Header.Get(invalidRequestHeader) != "" && rec.Code == http.StatusBadRequest
	if (invalid || slices.Contains(sp.undeclared, rec.Code)) && route.Operation.Responses.Status(rec.Code) == nil {
		var v any
		if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
			p.fail("%s: %d body is not JSON: %v", what, rec.Code, err)
		} else if err := sp.errorSchema.VisitJSON(v); err != nil {
			p.fail("%s: %d body is not the spec's error object: %v", what, rec.Code, err)
		}
		return
	}
	err := openapi3filter.ValidateResponse(ctx, &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in, Status: rec.Code, Header: rec.Header(),
		Body: io.NopCloser(bytes.NewReader(rec.Body.Bytes())), Options: opts,
	})
	if err != nil {
		p.fail("%s: %d answer: %v", what, rec.Code, err)
	}
	p.record(fmt.Sprintf("%s %s %d", r.Method, route.Path, rec.Code), route.Operation, rec.Code, rec.Body.Bytes())
}

// record notes the property paths a JSON answer held, beside its schema.
func (p *contractProxy) record(key string, op *openapi3.Operation, status int, body []byte) {
	resp := op.Responses.Status(status)
	if resp == nil || resp.Value == nil {
		return
	}
	media := resp.Value.Content.Get("application/json")
	var v any
	if media == nil || media.Schema == nil || json.Unmarshal(body, &v) != nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.answers == nil {
		p.answers = map[string]*answerRecord{}
	}
	a := p.answers[key]
	if a == nil {
		a = &answerRecord{schema: media.Schema.Value, held: map[string]bool{}}
		p.answers[key] = a
	}
	answerPaths(v, "", a.held)
}

// answerPaths adds the property paths v holds to out: "a", "a.b", and
// "list[].c" for a property of a list's elements.
func answerPaths(v any, prefix string, out map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			out[propertyPath(prefix, k)] = true
			answerPaths(e, propertyPath(prefix, k), out)
		}
	case []any:
		for _, e := range v {
			answerPaths(e, prefix+"[]", out)
		}
	}
}

// declaredPaths adds the property paths schema s declares to out, as
// answerPaths writes them: following its allOf, oneOf and anyOf (every
// branch) and its items. References are resolved by the loader.
func declaredPaths(s *openapi3.Schema, prefix string, out map[string]bool) {
	if s == nil || strings.Count(prefix, ".") > 10 { // a schema that holds itself
		return
	}
	for _, sub := range slices.Concat(s.AllOf, s.OneOf, s.AnyOf) {
		declaredPaths(sub.Value, prefix, out)
	}
	if s.Items != nil {
		declaredPaths(s.Items.Value, prefix+"[]", out)
	}
	for name, prop := range s.Properties {
		out[propertyPath(prefix, name)] = true
		declaredPaths(prop.Value, propertyPath(prefix, name), out)
	}
}

// neverAnsweredEntry is the entry of neverAnswered that explains path
// in the answer key: its own, or one of a property it is inside.
func neverAnsweredEntry(key, path string) (string, bool) {
	for p := path; p != ""; {
		if _, ok := neverAnswered[key+" "+p]; ok {
			return key + " " + p, true
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return "", false
}

func propertyPath(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// unanswered are the properties the spec declares for an answer that no
// answer of that operation and status held, "METHOD /path status
// property", less those neverAnswered explains; and the entries of
// neverAnswered no longer needed.
func (p *contractProxy) unanswered() (missing, stale []string) {
	explained := map[string]bool{}
	for key, a := range p.answers {
		declared := map[string]bool{}
		declaredPaths(a.schema, "", declared)
		p.declared += len(declared)
		for path := range declared {
			if a.held[path] {
				continue
			}
			if entry, ok := neverAnsweredEntry(key, path); ok {
				explained[entry] = true
				continue
			}
			missing = append(missing, key+" "+path)
		}
	}
	for k := range neverAnswered {
		if !explained[k] {
			stale = append(stale, k)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	return missing, stale
}

// checkStream checks a streamed answer: the content type of its format,
// every part JSON (a v2 part an object with a type), and the finish part
// last (v2: before [DONE]).
func checkStream(format, contentType, body string) error {
	var last string
	switch format {
	case "v2":
		if !strings.HasPrefix(contentType, "text/event-stream") {
			return fmt.Errorf("content type %q, want text/event-stream", contentType)
		}
		events := strings.Split(strings.TrimSuffix(body, "\n\n"), "\n\n")
		if len(events) < 2 || events[len(events)-1] != "data: [DONE]" {
			return fmt.Errorf("does not end with data: [DONE]: %q", body[max(0, len(body)-80):])
		}
		for _, ev := range events[:len(events)-1] {
			data, ok := strings.CutPrefix(ev, "data: ")
			var part struct {
				Type string `json:"type"`
			}
			if !ok || json.Unmarshal([]byte(data), &part) != nil || part.Type == "" {
				return fmt.Errorf("event %q is not a data line holding a part with a type", ev)
			}
			last = part.Type
		}
	case "v1":
		if !strings.HasPrefix(contentType, "text/plain") {
			return fmt.Errorf("content type %q, want text/plain", contentType)
		}
		for _, line := range strings.Split(strings.TrimSuffix(body, "\n"), "\n") {
			code, value, ok := strings.Cut(line, ":")
			if !ok || len(code) != 1 || !json.Valid([]byte(value)) {
				return fmt.Errorf("line %q is not CODE:JSON", line)
			}
			last = code
		}
		if last == "d" {
			last = "finish"
		}
	}
	if last != "finish" {
		return fmt.Errorf("the last part is %q, not the finish", last)
	}
	return nil
}

func (p *contractProxy) exercised(op string) bool {
	for k := range p.seen {
		if strings.HasPrefix(k, op+" ") {
			return true
		}
	}
	return false
}

func (p *contractProxy) total() int {
	n := 0
	for _, c := range p.seen {
		n += c
	}
	return n
}

func (p *contractProxy) report() string {
	keys := make([]string, 0, len(p.seen))
	for k := range p.seen {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  %4d  %s\n", p.seen[k], k)
	}
	return b.String()
}
