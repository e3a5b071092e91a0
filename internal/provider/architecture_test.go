package provider

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// ARCHITECTURE.md is kept true by this test: it names every Go package,
// and the layers import only what it says they may.

const module = "github.com/mintlify/terraform-provider-mintlify"

// repoRoot is the repository's root, seen from this package's folder.
var repoRoot = filepath.Join("..", "..")

// goFiles lists the repository's Go files, by slash-separated path from
// the root, skipping tools, build output and fetched folders.
func goFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != repoRoot && (strings.HasPrefix(d.Name(), ".") || d.Name() == "dist" || d.Name() == "node_modules" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			rel, err := filepath.Rel(repoRoot, p)
			if err != nil {
				return err
			}
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// goPackages are the repository's Go packages: each folder holding a
// non-test Go file (whatever its build tags), by slash-separated path
// from the root ("." for the root).
func goPackages(t *testing.T) []string {
	t.Helper()
	var pkgs []string
	for _, f := range goFiles(t) {
		if dir := path.Dir(f); !strings.HasSuffix(f, "_test.go") && !slices.Contains(pkgs, dir) {
			pkgs = append(pkgs, dir)
		}
	}
	return pkgs
}

// TestArchitecture_namesEveryPackage fails when a Go package is not named
// in ARCHITECTURE.md by its path (the root's by `main.go`): the page is a
// map of the packages, not an inventory of their files.
func TestArchitecture_namesEveryPackage(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	pkgs := goPackages(t)
	for _, pkg := range []string{".", "sdk", "sdk/mintlifytest", "internal/provider"} {
		if !slices.Contains(pkgs, pkg) {
			t.Fatalf("no package %s among %v: does goPackages still walk the repository?", pkg, pkgs)
		}
	}
	for _, pkg := range pkgs {
		if !namesPackage(string(doc), pkg) {
			t.Errorf("ARCHITECTURE.md does not name the package %s: say in a paragraph what it owns", pkg)
		}
	}
}

// namesPackage reports whether text names the package at path pkg: the
// path whole, not a part of a longer one (sdk/internal/poll does not name
// internal/poll, nor sdk/internal/pollx sdk/internal/poll), or below it.
func namesPackage(text, pkg string) bool {
	if pkg == "." {
		pkg = "main.go"
	}
	return regexp.MustCompile(`(^|[^\w./-])` + regexp.QuoteMeta(pkg) + `(/|[^\w.-]|\.[^\w]|\.?$)`).MatchString(text)
}

func TestArchitecture_namesPackageOnlyWholePaths(t *testing.T) {
	for _, tc := range []struct {
		text, pkg string
		want      bool
	}{
		{"`sdk/internal/poll` waits", "sdk/internal/poll", true},
		{"in sdk/internal/poll/.", "sdk/internal/poll", true},
		{"the end: internal/provider.", "internal/provider", true},
		{"`sdk/internal/poll` waits", "internal/poll", false},
		{"`sdk/internal/pollx` waits", "sdk/internal/poll", false},
		{"`sdk/internal/poll.go`", "sdk/internal/poll", false},
		{"terraform ──> main.go ──> internal/provider", ".", true},
		{"domain.go", ".", false},
	} {
		if got := namesPackage(tc.text, tc.pkg); got != tc.want {
			t.Errorf("namesPackage(%q, %q) = %v", tc.text, tc.pkg, got)
		}
	}
}

// layerRule says what the non-test files under a folder must not import:
// an import path, or one below it ("net/http" forbids net/http/httptest),
// or, for a prefix ending in "-", any path starting with it; allow
// overrides never.
type layerRule struct {
	under, except string // except: a folder under it the rule does not cover
	never, allow  []string
	why           string
}

var layerRules = []layerRule{
	{under: "sdk/", except: "sdk/mintlifytest/", why: "the SDK knows HTTP and JSON, nothing of Terraform or of the fake",
		never: []string{"github.com/hashicorp/terraform", "github.com/hashicorp/terraform-", module + "/internal", module + "/sdk/mintlifytest"}},
	{under: "sdk/", except: "sdk/cachebucket/", why: "only sdk/cachebucket links object stores, so that SDK programs without a shared cache link none",
		never: []string{module + "/sdk/cachebucket", "gocloud.dev"}},
	{under: "sdk/internal/", why: "the SDK's machinery is below its API: package sdk imports it, never the reverse",
		never: []string{module + "/sdk"}, allow: []string{module + "/sdk/internal"}},
	{under: "sdk/mintlifytest/", why: "the fake is written from the spec, never from the SDK (mintlify-fake plays the hostile server too)",
		never: []string{module + "/sdk", module + "/internal"}, allow: []string{module + "/sdk/mintlifytest", module + "/internal/fakehostile"}},
	{under: "internal/fakehostile/", why: "the hostile server is the fake's faults, and knows no more of the SDK than the fake",
		never: []string{module + "/sdk", module + "/internal"}, allow: []string{module + "/sdk/mintlifytest", module + "/internal/fakehostile"}},
	{under: "internal/provider/", why: "the provider maps Terraform to SDK calls: no HTTP, no JSON, never the fake",
		never: []string{"net/http", "encoding/json", module + "/sdk/mintlifytest", module + "/internal/fakehostile"}},
}

// under reports whether import path p is prefix or below it.
func under(p, prefix string) bool {
	return p == prefix || strings.HasPrefix(p, prefix+"/") || strings.HasSuffix(prefix, "-") && strings.HasPrefix(p, prefix)
}

// TestArchitecture_layersImportOnlyDownward holds the layer rules
// ARCHITECTURE.md states.
func TestArchitecture_layersImportOnlyDownward(t *testing.T) {
	fset := token.NewFileSet()
	for _, f := range goFiles(t) {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, filepath.Join(repoRoot, f), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, rule := range layerRules {
			if !strings.HasPrefix(f, rule.under) || rule.except != "" && strings.HasPrefix(f, rule.except) {
				continue
			}
			for _, imp := range file.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				allowed := slices.ContainsFunc(rule.allow, func(a string) bool { return under(p, a) })
				if !allowed && slices.ContainsFunc(rule.never, func(n string) bool { return under(p, n) }) {
					t.Errorf("%s imports %s: %s (ARCHITECTURE.md)", f, p, rule.why)
				}
			}
		}
	}
}

func TestArchitecture_underMatchesPathsAndPrefixes(t *testing.T) {
	for _, tc := range []struct {
		p, prefix string
		want      bool
	}{
		{"net/http", "net/http", true},
		{"net/http/httptest", "net/http", true},
		{"net/httpx", "net/http", false},
		{"github.com/hashicorp/terraform-plugin-framework/types", "github.com/hashicorp/terraform-plugin-", true},
		{"github.com/hashicorp/terraform-exec", "github.com/hashicorp/terraform-plugin-", false},
	} {
		if got := under(tc.p, tc.prefix); got != tc.want {
			t.Errorf("under(%q, %q) = %v", tc.p, tc.prefix, got)
		}
	}
}
