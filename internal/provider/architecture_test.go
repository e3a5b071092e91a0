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

// ARCHITECTURE.md is kept true by this test: it names every Go file a
// newcomer may look for, and the layers import only what it says they may.

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

// describedFileByFile are the packages whose every file ARCHITECTURE.md
// names: they are where a newcomer looks for how something works.
var describedFileByFile = []string{"sdk", "internal/provider", "sdk/mintlifytest"}

// TestArchitecture_namesEveryFile fails when a non-test Go file is not
// named in ARCHITECTURE.md: by its path, by its name, or by a `glob` in
// backquotes that matches its path.
func TestArchitecture_namesEveryFile(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(repoRoot, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	var globs []string
	for _, m := range regexp.MustCompile("`([^`\\s]*[*?][^`\\s]*)`").FindAllStringSubmatch(text, -1) {
		globs = append(globs, m[1])
	}
	named := func(file string) bool {
		if strings.Contains(text, file) || strings.Contains(text, "`"+path.Base(file)+"`") {
			return true
		}
		// A small package may be described whole, by its folder and a
		// slash; the three large ones are described file by file.
		if dir := path.Dir(file); !slices.Contains(describedFileByFile, dir) && strings.Contains(text, "`"+dir+"/`") {
			return true
		}
		return slices.ContainsFunc(globs, func(g string) bool { ok, _ := path.Match(g, file); return ok })
	}
	for _, f := range goFiles(t) {
		if !strings.HasSuffix(f, "_test.go") && !named(f) {
			t.Errorf("ARCHITECTURE.md does not name %s: say in its table what the file holds", f)
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
		never: []string{"github.com/hashicorp/terraform-plugin-", module + "/internal", module + "/sdk/mintlifytest"}},
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
