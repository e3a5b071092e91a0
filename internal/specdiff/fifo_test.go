//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A FIFO among the files is refused, not read: nothing would ever end it.
func TestRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "openapi.json"), 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	_, stderr, exit := runSpecdiff(t, "-calls", "testdata/sdk-calls.txt", vendored, dir)
	if exit != 2 || !strings.Contains(stderr, "openapi.json: not a regular file") {
		t.Errorf("exit status %d, stderr %q; want 2, not a regular file", exit, stderr)
	}
}
