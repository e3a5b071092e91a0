package provider

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// CONTRIBUTING.md's table of the README's promises names, for each, the tests that hold it:
// every name must be a test of this repository, and every promise must
// have one, so the table cannot rot into names of tests long gone.
func TestContributing_everyPromiseNamesTestsThatExist(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "CONTRIBUTING.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(readme), "## Promises and the tests that hold them")
	if !ok {
		t.Fatal("CONTRIBUTING.md has no section \"Promises and the tests that hold them\"")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	defined := map[string]bool{}
	funcName := regexp.MustCompile(`(?m)^func (Test\w+)\(`)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".tools" || d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path) //nolint:gosec // the repository's own files
		if err != nil {
			return err
		}
		for _, m := range funcName.FindAllStringSubmatch(string(src), -1) {
			defined[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile("`(Test\\w+)`")
	promises := 0
	for _, line := range strings.Split(table, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 4 || strings.TrimSpace(cells[1]) == "promise" || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
			continue
		}
		promises++
		tests := named.FindAllStringSubmatch(cells[2], -1)
		if len(tests) == 0 {
			t.Errorf("promise %q names no test", strings.TrimSpace(cells[1]))
		}
		for _, m := range tests {
			if !defined[m[1]] {
				t.Errorf("promise %q names %s, which is not a test of this repository", strings.TrimSpace(cells[1]), m[1])
			}
		}
	}
	if promises < 5 {
		t.Errorf("found %d promises in the table; is it still a table of | promise | tests |?", promises)
	}
}
