package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/want/*.txt from what specdiff prints")

// vendored is the set the SDK is tested against; the fixture sets beside
// it link to its files but the one they change. testdata/sdk-calls.txt is
// a copy of the record the contract test writes (make spec-diff writes a
// fresh one each time): the input of these tests only.
const vendored = "../../sdk/internal/openapi"

// TestRun runs specdiff on each fixture: its exit status, what it says on
// stderr, and all it prints (testdata/want/NAME.txt; go test -update
// rewrites them).
func TestRun(t *testing.T) {
	const sdkCalls = "testdata/sdk-calls.txt"
	for _, tt := range []struct {
		name, calls, old, new string
		exit                  int
		stderr                string // a part of it; "" when it must say nothing
	}{
		{"identical", sdkCalls, vendored, vendored, 0, ""},
		{"static-export-two-step", sdkCalls, vendored, "testdata/static-export-two-step", 1, ""},
		{"additive", sdkCalls, vendored, "testdata/additive", 0, ""},
		{"missing-file", sdkCalls, vendored, "testdata/missing-file", 1, ""},
		{"fields", "testdata/fields/calls.txt", "testdata/fields/old", "testdata/fields/new", 1, ""},
		{"ref-cycle", "testdata/ref-cycle/calls.txt", "testdata/ref-cycle/old", "testdata/ref-cycle/new", 1, ""},
		{"server", "testdata/server/calls.txt", "testdata/server/old", "testdata/server/new", 1, ""},
		{"shapes", "testdata/shapes/calls.txt", "testdata/shapes/old", "testdata/shapes/new", 1, ""},
		{"invalid-json", sdkCalls, vendored, "testdata/invalid-json", 2, "testdata/invalid-json/api.json: not a JSON object: unexpected end of JSON input"},
		{"ref-chain", sdkCalls, "testdata/ref-chain", vendored, 2, "GET /a: 200 answer: $ref #/components/schemas/A: a chain of references that does not end"},
		{"no-record", "testdata/no-such-record.txt", vendored, vendored, 2, "no-such-record.txt: no such file"},
		{"not-a-record", "testdata/invalid-json/api.json", vendored, vendored, 2, `want FILE METHOD PATH`},
		{"no-folder", sdkCalls, vendored, "testdata/no-such-folder", 2, "no-such-folder: no such file"},
		{"no-files", sdkCalls, vendored, "testdata/want", 2, "testdata/want holds no *.json file"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, exit := runSpecdiff(t, "-calls", tt.calls, tt.old, tt.new)
			if exit != tt.exit {
				t.Errorf("exit status %d, want %d; stderr: %s", exit, tt.exit, stderr)
			}
			if tt.stderr == "" && stderr != "" || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("stderr %q, want %q", stderr, tt.stderr)
			}
			want := ""
			if tt.exit < 2 && tt.name != "identical" {
				want = golden(t, tt.name, stdout)
			}
			if stdout != want {
				t.Errorf("printed:\n%s\nwant:\n%s", stdout, want)
			}
		})
	}
}

func runSpecdiff(t *testing.T, args ...string) (stdout, stderr string, exit int) {
	t.Helper()
	var out, errs bytes.Buffer
	exit = run(args, &out, &errs)
	return out.String(), errs.String(), exit
}

// golden is the content of testdata/want/name.txt, first written with got
// under -update.
func golden(t *testing.T, name, got string) string {
	t.Helper()
	path := filepath.Join("testdata", "want", name+".txt")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(want)
}

// The static export fixture says what a maintainer must act on: the moved
// paths, the body gone with its fields, the new 409 and 429, each break.
func TestStaticExportTwoStep(t *testing.T) {
	stdout, _, exit := runSpecdiff(t, "-calls", "testdata/sdk-calls.txt", vendored, "testdata/static-export-two-step")
	for _, line := range []string{
		"breaks  moved to POST /v1/static-export/{projectId}/start: the SDK calls POST /v1/static-export/jobs",
		"breaks  moved to GET /v1/static-export/{projectId}/jobs/{id}: the SDK calls GET /v1/static-export/jobs/{jobId}",
		"breaks  removed: the SDK calls it", // the bundle's operation
		"breaks  request body removed: the SDK sends one",
		"breaks  request field domain removed (string, required): the SDK sends it",
		"breaks  202 answer: field progress removed (number, required): the SDK reads it",
		"breaks  200 answer: field pageCount removed (integer, required): the SDK reads it",
		"        409 answer added",
		"        429 answer added",
	} {
		if !strings.Contains(stdout, line) {
			t.Errorf("no line %q in:\n%s", line, stdout)
		}
	}
	if exit != 1 {
		t.Errorf("exit status %d, want 1", exit)
	}
}

// Hostile sets, made here: each is refused (status 2) with a reason, in
// bounded time, rather than compared in part or never.
func TestRefusesWhatItCannotCompare(t *testing.T) {
	huge := func(dir string) error {
		f, err := os.Create(filepath.Join(dir, "huge.json"))
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Truncate(maxFileBytes + 1)
	}
	for _, tt := range []struct {
		name  string
		write func(dir string) error
		want  string
	}{
		{"a file past the size limit", huge, "more than the 33554432 an OpenAPI file"},
		// S0 holds ten S1, each ten S2, ...: 10^20 fields through references.
		{"references fanning out", schemas(func(i int) string {
			return fmt.Sprintf(`{"type":"object","properties":{%s}}`, repeat(10, func(j int) string { return fmt.Sprintf(`"p%d":{"$ref":"#/components/schemas/S%d"}`, j, i+1) }))
		}), "more than 20000 fields in one schema"},
		// S0 is one of ten S1, each one of ten S2, ...: no field, 10^20 schemas.
		{"alternatives fanning out", schemas(func(i int) string {
			return fmt.Sprintf(`{"oneOf":[%s]}`, repeat(10, func(int) string { return fmt.Sprintf(`{"$ref":"#/components/schemas/S%d"}`, i+1) }))
		}), "more than 100000 schemas to read in one file"},
		{"nesting past the limit", func(dir string) error {
			schema := strings.Repeat(`{"type":"object","properties":{"a":`, 100) + "{}" + strings.Repeat("}}", 100)
			return os.WriteFile(filepath.Join(dir, "deep.json"), []byte(answering(schema, "")), 0o644)
		}, "nested deeper than 64 levels"},
		{"a $ref to nothing", func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "dangling.json"), []byte(answering(`{"$ref":"#/components/schemas/Gone"}`, "")), 0o644)
		}, "$ref #/components/schemas/Gone names nothing"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := tt.write(dir); err != nil {
				t.Fatal(err)
			}
			_, stderr, exit := runSpecdiff(t, "-calls", "testdata/sdk-calls.txt", vendored, dir)
			if exit != 2 || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit status %d, stderr %q; want 2 and %q", exit, stderr, tt.want)
			}
		})
	}
}

// schemas writes a file whose answer is S0 of twenty schemas S0..S19,
// schema(i) each; S20 is a string.
func schemas(schema func(i int) string) func(dir string) error {
	return func(dir string) error {
		components := repeat(20, func(i int) string { return fmt.Sprintf(`"S%d":%s`, i, schema(i)) }) + `,"S20":{"type":"string"}`
		return os.WriteFile(filepath.Join(dir, "fan.json"), []byte(answering(`{"$ref":"#/components/schemas/S0"}`, components)), 0o644)
	}
}

// answering is a document with one operation answering schema.
func answering(schema, components string) string {
	return fmt.Sprintf(`{"openapi":"3.0.1","paths":{"/x":{"get":{"responses":{"200":{"description":"x","content":{"application/json":{"schema":%s}}}}}}},"components":{"schemas":{%s}}}`, schema, components)
}

func repeat(n int, f func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = f(i)
	}
	return strings.Join(parts, ",")
}

// A record naming an operation OLD lacks is said, not trusted silently:
// the record and OLD are not of the same contract.
func TestSaysWhenTheRecordIsNotOld(t *testing.T) {
	record := filepath.Join(t.TempDir(), "calls.txt")
	if err := os.WriteFile(record, []byte("api.json GET /ping\napi.json GET /gone reads x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, _ := runSpecdiff(t, "-calls", record, "testdata/server/old", "testdata/server/old")
	if want := "the SDK calls api.json GET /gone, which OLD (testdata/server/old) does not have"; !strings.Contains(stderr, want) || strings.Contains(stderr, "/ping") {
		t.Errorf("stderr %q, want only %q", stderr, want)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"-calls", "x"}, {vendored, vendored}, {"-calls", "x", vendored, vendored, vendored}, {"-bogus"}} {
		if _, stderr, exit := runSpecdiff(t, args...); exit != 2 || !strings.Contains(strings.ToLower(stderr), "usage") {
			t.Errorf("%q: exit status %d, stderr %q; want 2 and the usage", args, exit, stderr)
		}
	}
}

func TestRecordLines(t *testing.T) {
	for _, line := range []string{"api.json GET", "api.json GET /x sends", "api.json GET /x sends body sometimes", "api.json GET /x reads a b", "api.json GET /x keeps a"} {
		record := filepath.Join(t.TempDir(), "calls.txt")
		if err := os.WriteFile(record, []byte("# a record\n\n"+line+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := readCalls(record); err == nil || !strings.Contains(err.Error(), "calls.txt:3: ") {
			t.Errorf("%q: err = %v, want one naming line 3", line, err)
		}
	}
	empty := filepath.Join(t.TempDir(), "calls.txt")
	if err := os.WriteFile(empty, []byte("# nothing recorded\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, exit := runSpecdiff(t, "-calls", empty, vendored, vendored); exit != 2 || !strings.Contains(stderr, "names no call of the SDK's") {
		t.Errorf("an empty record: exit status %d, stderr %q", exit, stderr)
	}
	calls, err := readCalls("testdata/sdk-calls.txt")
	if err != nil {
		t.Fatal(err)
	}
	u := calls["static-export-openapi.json POST /static-export/jobs"]
	if !u.always("body.domain") || u.always("body.paths") || !u.sent("body.paths") || u.sent("body.jobId") || !u.read("progress") {
		t.Errorf("the record of starting an export reads as %+v", u)
	}
}

func TestMatches(t *testing.T) {
	for _, tt := range []struct {
		path, name string
		want       bool
	}{
		{"a.b", "a.b", true},
		{"a.b", "a.bc", false},
		{"a.*", "a.k", true},
		{"a.*", "a.k.deeper", true}, // a * at the end stands for the rest
		{"a.*.c", "a.k.c", true},
		{"a.*.c", "a.k.d", false},
		{"a.*.c", "a.k", false},
		{"a.*[].c", "a.k[].c", true},
		{"[].m.*", "[].m.title", true},
		{"x[]*", "x[].y", true},
		{"x[]*", "xy", false},
	} {
		if got := matches(tt.path, tt.name); got != tt.want {
			t.Errorf("matches(%q, %q) = %v, want %v", tt.path, tt.name, got, tt.want)
		}
	}
}

// A path parameter renamed is the same operation: not removed and added.
func TestRenamedPathParameter(t *testing.T) {
	old, newer := &file{name: "api.json"}, &file{name: "api.json"}
	for _, f := range []struct {
		f    *file
		path string
	}{{old, "/jobs/{id}"}, {newer, "/jobs/{jobId}"}} {
		param := strings.Trim(f.path[len("/jobs/"):], "{}")
		f.f.ops = []*op{{file: "api.json", method: "GET", path: f.path, full: f.path, pathParams: []string{param},
			params: map[string]field{"path." + param: {typ: "string", required: true}}, answers: map[string]*content{}}}
	}
	calls := map[string]*usage{"api.json GET /jobs/{id}": {}}
	sections := compare(map[string]*file{"api.json": old}, map[string]*file{"api.json": newer}, calls)
	if len(sections) != 1 || len(sections[0].changes) != 1 || sections[0].changes[0] != (change{what: "path parameter {id} renamed {jobId}"}) {
		t.Errorf("sections: %+v", sections)
	}
}

// Names from the files are printed printable: a property named with a line
// break cannot start a line (a CI runner's ::error:: command, say), nor
// a bidirectional override reorder what a reader sees.
func TestPrintsNamesPrintable(t *testing.T) {
	old, newer := t.TempDir(), t.TempDir()
	evil := `{"type":"object","properties":{"ok":{"type":"string"},"x\n::error::forged\u202e":{"type":"string"}}}`
	for dir, schema := range map[string]string{old: `{"type":"object","properties":{"ok":{"type":"string"}}}`, newer: evil} {
		if err := os.WriteFile(filepath.Join(dir, "api.json"), []byte(answering(schema, "")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	record := filepath.Join(t.TempDir(), "calls.txt")
	if err := os.WriteFile(record, []byte("api.json GET /x\napi.json GET /x reads ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, _, _ := runSpecdiff(t, "-calls", record, old, newer)
	if want := `200 answer: field x\u{a}::error::forged\u{202e} added (string)`; !strings.Contains(stdout, want) {
		t.Errorf("printed:\n%s\nwant a line with %s", stdout, want)
	}
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") || strings.ContainsRune(line, '\u202e') {
			t.Errorf("line %q", line)
		}
	}
}

// Alternatives of one type with different formats give both, in one
// order: a file compared with itself shows no change.
func TestFormatsOfAlternatives(t *testing.T) {
	path := filepath.Join(t.TempDir(), "api.json")
	schema := `{"type":"object","properties":{"when":{"oneOf":[{"type":"string","format":"date-time"},{"type":"string","format":"date"},{"type":"integer"}]}}}`
	if err := os.WriteFile(path, []byte(answering(schema, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	for range 20 {
		f, err := loadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := f.ops[0].answers["200"].fields["when"].typ; got != "integer|string(date|date-time)" {
			t.Fatalf("when: %q, want integer|string(date|date-time)", got)
		}
	}
}
