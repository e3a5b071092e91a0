//go:build unix

package localfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Only a regular file of at most the limit is read: never through a link,
// never blocking on a FIFO, whatever stands at the name.
func TestRead_onlyRegularFilesOfTheLimit(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := Read(file, 5); string(got) != "12345" || err != nil {
		t.Errorf("at the limit: %q %v", got, err)
	}
	if _, err := Read(file, 4); !errors.Is(err, ErrRefused) {
		t.Errorf("over the limit: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "missing"), 5); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if err := os.Symlink(file, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for _, name := range []string{"link", "fifo", "dir"} {
			if _, err := Read(filepath.Join(dir, name), 1<<20); !errors.Is(err, ErrRefused) {
				t.Errorf("%s: %v, want ErrRefused", name, err)
			}
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Read blocked")
	}
}

// Files are written whole, beside their name, with the mode asked (less
// the umask); a conditional write says whether it wrote, and a link in the
// name's place is replaced, never followed.
func TestWrites(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "record")
	if ok, err := CreateExclusive(path, []byte("one"), 0o600); !ok || err != nil {
		t.Fatalf("first: %v %v", ok, err)
	}
	if ok, err := CreateExclusive(path, []byte("two"), 0o600); ok || err != nil {
		t.Errorf("second: %v %v, want not written", ok, err)
	}
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := Replace(link, []byte("new"), 0o640); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(target); string(got) != "keep" {
		t.Errorf("the link was followed: its target holds %q", got)
	}
	info, err := os.Lstat(link)
	if err != nil || !info.Mode().IsRegular() || info.Mode().Perm()&^0o640 != 0 {
		t.Errorf("replaced: %v %v", info.Mode(), err)
	}
	if got, _ := os.ReadFile(path); string(got) != "one" {
		t.Errorf("the conditional write's file holds %q", got)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*"))
	if len(left) != 0 {
		t.Errorf("temporaries left: %v", left)
	}
	for errno, want := range map[syscall.Errno]bool{syscall.EPERM: true, syscall.EOPNOTSUPP: true, syscall.ENOSYS: true, syscall.EACCES: false, syscall.EXDEV: false} {
		if noLinks(&os.LinkError{Op: "link", Err: errno}) != want {
			t.Errorf("noLinks(%v) = %v", errno, !want)
		}
	}
}
