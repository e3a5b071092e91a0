package main

import (
	"os"
	"path/filepath"
	"testing"
)

// Whatever a file holds, specdiff reads it, or refuses it, without
// panicking, and compares what it read.
func FuzzLoadFile(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*/*/*.json")
	more, _ := filepath.Glob("testdata/static-export-two-step/*.json")
	for _, path := range append(seeds, more...) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "api.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := loadFile(path)
		if err != nil {
			return
		}
		set := map[string]*file{"api.json": f}
		calls := map[string]*usage{}
		for _, o := range f.ops {
			calls[useKey(o)] = &usage{sends: map[string]bool{"body": true}, reads: map[string]bool{"a": true}}
		}
		if got := compare(set, set, calls); len(got) != 0 {
			t.Errorf("a file compared with itself: %d sections", len(got))
		}
		compare(set, map[string]*file{}, calls)
		compare(map[string]*file{}, set, calls)
	})
}
