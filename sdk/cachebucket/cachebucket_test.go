package cachebucket

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	_ "gocloud.dev/blob/fileblob"
)

func TestBucket_objectsAtTheirEdges(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b, err := Open(ctx, "file://"+filepath.ToSlash(dir)+"?metadata=skip")
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Where(); got != "bucket file://"+filepath.ToSlash(dir) {
		t.Errorf("Where() = %q: no query, the store named", got)
	}
	if _, err := b.Get(ctx, "missing", 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing object: %v, want fs.ErrNotExist", err)
	}
	if err := b.Remove(ctx, "missing"); err != nil {
		t.Errorf("removing a missing object: %v", err)
	}
	if ok, err := b.PutIfAbsent(ctx, "lease", []byte("one")); !ok || err != nil {
		t.Fatalf("first conditional write: %v %v", ok, err)
	}
	if ok, err := b.PutIfAbsent(ctx, "lease", []byte("two")); ok || err != nil {
		t.Errorf("second conditional write: %v %v, want not written", ok, err)
	}
	if got, err := b.Get(ctx, "lease", 3); string(got) != "one" || err != nil {
		t.Errorf("Get at the limit: %q %v", got, err)
	}
	if _, err := b.Get(ctx, "lease", 2); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("object over the limit: %v, want fs.ErrInvalid", err)
	}
	if err := b.Put(ctx, "lease", []byte("three")); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.Get(ctx, "lease", 10); string(got) != "three" {
		t.Errorf("after Put: %q", got)
	}
	if err := b.Remove(ctx, "lease"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Get(ctx, "lease", 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("removed object: %v", err)
	}
	// A link or a FIFO in a file:// bucket is refused without opening it
	// (gocloud's driver would follow the link, or block on the FIFO).
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"link", "fifo"} {
		if _, err := b.Get(ctx, name, 1<<20); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("%s: %v, want fs.ErrInvalid", name, err)
		}
	}
}

func TestOpen_aBucketThatCannotBeOpenedSaysWhichWithoutItsQuery(t *testing.T) {
	_, err := Open(context.Background(), "nosuch://bucket/path?secret=x")
	if err == nil || !strings.Contains(err.Error(), "bucket nosuch://bucket/path could not be opened") || strings.Contains(err.Error(), "secret") {
		t.Errorf("error: %v", err)
	}
}
