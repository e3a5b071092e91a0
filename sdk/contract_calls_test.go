package sdk_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// What the SDK sends and reads, as the contract test sees it: `make
// spec-diff` (internal/specdiff) reads this record to tell a change of
// Mintlify's OpenAPI files that breaks a call the SDK makes from one that
// does not. It is derived, never written by hand: every exchange the SDK
// itself starts (its User-Agent) adds the operation, the query parameters
// and body fields it sent, and the fields of its 2xx answer that the SDK
// declares a field for (a `wire` or `json` tag in package sdk). When
// MINTLIFY_RECORD_CALLS names a file, the contract test writes the record
// there, one line each:
//
//	FILE METHOD PATH                      the SDK calls the operation
//	FILE METHOD PATH sends body [always]  sends a body (in every call)
//	FILE METHOD PATH sends body.a.b[].c [always]
//	FILE METHOD PATH sends query.take [always]
//	FILE METHOD PATH reads a.b[].c        reads that field of the answer
//
// PATH is the operation's path as the file writes it; a list's elements
// are under name[].

// sdkUserAgent starts the User-Agent of every request the SDK sends unless
// told otherwise; the raw requests of the tests have Go's.
const sdkUserAgent = "mintlify-go-sdk/"

type callRecord struct {
	mu   sync.Mutex
	tags map[string]bool // names the SDK's answer and request types declare
	ops  map[string]*opUse
}

type opUse struct {
	calls int
	sent  map[string]int // "body", "body.x", "query.y" -> calls that sent it
	reads map[string]bool
}

func newCallRecord(t *testing.T) *callRecord {
	return &callRecord{tags: sdkFieldNames(t), ops: map[string]*opUse{}}
}

// sdkFieldNames are the JSON names the SDK's types declare (the `wire` and
// `json` tags of package sdk's structs): what it can read of an answer.
func sdkFieldNames(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(file, func(n ast.Node) bool {
			if field, ok := n.(*ast.Field); ok && field.Tag != nil {
				tag, _ := strconv.Unquote(field.Tag.Value)
				for _, key := range []string{"wire", "json"} {
					if name, _, _ := strings.Cut(reflect.StructTag(tag).Get(key), ","); name != "" && name != "-" {
						names[name] = true
					}
				}
			}
			return true
		})
	}
	return names
}

// add records an exchange with the operation of file at path (as the file
// writes it) if the SDK started it: r with its body, and the answer.
func (c *callRecord) add(file, path string, r *http.Request, body []byte, answer *httptest.ResponseRecorder) {
	if c == nil || !strings.HasPrefix(r.UserAgent(), sdkUserAgent) {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	key := file + " " + r.Method + " " + path
	u := c.ops[key]
	if u == nil {
		u = &opUse{sent: map[string]int{}, reads: map[string]bool{}}
		c.ops[key] = u
	}
	u.calls++
	sent := map[string]bool{}
	for name := range r.URL.Query() {
		sent["query."+name] = true
	}
	var v any
	if len(body) > 0 && json.Unmarshal(body, &v) == nil {
		jsonPaths(v, "body", func(p string) { sent[p] = true })
	}
	for p := range sent {
		u.sent[p]++
	}
	if _, streamed := streamedAnswers[path]; answer.Code/100 == 2 && !streamed && json.Unmarshal(answer.Body.Bytes(), &v) == nil {
		jsonPaths(v, "", func(p string) {
			if c.tags[p[strings.LastIndexAny(p, ".]")+1:]] { // the field's own name
				u.reads[p] = true
			}
		})
	}
}

// jsonPaths calls f with the path of v's every field under at: "at.name",
// a list's elements' fields under "at.list[].name"; a list of scalars or
// lists is only its own name.
func jsonPaths(v any, at string, f func(string)) {
	if at != "" && !strings.HasSuffix(at, "[]") {
		f(at)
	}
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			jsonPaths(e, strings.TrimPrefix(at+"."+k, "."), f)
		}
	case []any:
		for _, e := range v {
			jsonPaths(e, at+"[]", f)
		}
	}
}

// check fails when the record cannot be what the SDK does: an operation
// of the specs (but a deprecated one the SDK does not use) that the SDK
// itself never called, or one whose JSON answer it read none of (the scan
// of the SDK's tags found none of its names).
func (c *callRecord) check(t *testing.T, specs []spec) {
	t.Helper()
	for _, s := range specs {
		for path, item := range s.doc.Paths.Map() {
			for method, op := range item.Operations() {
				_, used := deprecatedUsed[method+" "+path]
				if key := s.file + " " + method + " " + path; (!op.Deprecated || used) && c.ops[key] == nil {
					t.Errorf("record of the SDK's calls: no exchange with the SDK's User-Agent (%s) called %s", sdkUserAgent, key)
				}
			}
		}
	}
	for key, u := range c.ops {
		if _, streamed := streamedAnswers[strings.SplitN(key, " ", 3)[2]]; len(u.reads) == 0 && !streamed {
			t.Errorf("record of the SDK's calls: %s: the SDK read no field of its answers; sdkFieldNames found %d names in package sdk's tags", key, len(c.tags))
		}
	}
}

// write writes the record to the file MINTLIFY_RECORD_CALLS names, if any.
func (c *callRecord) write(t *testing.T) {
	t.Helper()
	out := os.Getenv("MINTLIFY_RECORD_CALLS")
	if out == "" {
		return
	}
	var lines []string
	for key, u := range c.ops {
		lines = append(lines, key)
		always := func(n int) string {
			if n == u.calls {
				return " always"
			}
			return ""
		}
		for p, n := range u.sent {
			lines = append(lines, key+" sends "+p+always(n))
		}
		for p := range u.reads {
			lines = append(lines, key+" reads "+p)
		}
	}
	slices.Sort(lines)
	head := "# What the SDK sends and reads, recorded by TestContract_fakeAndSDKFollowTheSpec (sdk/contract_calls_test.go).\n"
	if err := os.WriteFile(out, []byte(head+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("recorded %d operations the SDK calls in %s", len(c.ops), out)
}
