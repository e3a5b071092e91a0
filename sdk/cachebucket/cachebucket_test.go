package cachebucket

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// CheckObjects holds b to what the cache needs of a store: a miss, a
// conditional write that the store refuses (S3's and GCS's 412, Azure's
// 409) as "someone else holds the lease", exactly one winner among ten
// writers at once, size limits, overwrites and removals. Exported for the
// stores' tests (TestStores, in package cachebucket_test).
func CheckObjects(t *testing.T, b Store) {
	t.Helper()
	ctx := context.Background()
	if _, err := b.Get(ctx, "missing", 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing object: %v, want fs.ErrNotExist", err)
	}
	if err := b.Remove(ctx, "missing"); err != nil {
		t.Errorf("removing a missing object: %v", err)
	}
	if ok, err := b.PutIfAbsent(ctx, "lease", []byte("one")); !ok || err != nil {
		t.Fatalf("the first conditional write: %v %v", ok, err)
	}
	if ok, err := b.PutIfAbsent(ctx, "lease", []byte("two")); ok || err != nil {
		t.Errorf("a conditional write over an object: %v %v, want not written and no error (the store's refusal is someone else's lease)", ok, err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	won, errs := 0, []error{}
	for i := range 10 {
		wg.Go(func() {
			ok, err := b.PutIfAbsent(ctx, "race", fmt.Appendf(nil, "writer %d", i))
			mu.Lock()
			defer mu.Unlock()
			if ok {
				won++
			}
			if err != nil {
				errs = append(errs, err)
			}
		})
	}
	wg.Wait()
	if won != 1 || len(errs) != 0 {
		t.Errorf("ten conditional writes at once: %d won, errors %v; want one winner, no error", won, errs)
	}
	if got, err := b.Get(ctx, "lease", 3); string(got) != "one" || err != nil {
		t.Errorf("an object at the limit: %q %v", got, err)
	}
	if _, err := b.Get(ctx, "lease", 2); !errors.Is(err, fs.ErrInvalid) {
		t.Errorf("an object over the limit: %v, want fs.ErrInvalid", err)
	}
	if err := b.Put(ctx, "lease", []byte("three")); err != nil {
		t.Fatal(err)
	}
	if got, _ := b.Get(ctx, "lease", 10); string(got) != "three" {
		t.Errorf("after Put: %q", got)
	}
	for _, name := range []string{"lease", "race"} {
		if err := b.Remove(ctx, name); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Get(ctx, name, 10); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("a removed object: %v", err)
		}
	}
}

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
	CheckObjects(t, b)
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

// openFileBucket opens dir as a file:// bucket, its URL as a user writes it (no
// query).
func openFileBucket(t *testing.T, dir string) Store {
	t.Helper()
	b, err := Open(context.Background(), "file://"+filepath.ToSlash(dir))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// otherFileSystem returns a new directory on another file system than
// dir's, or skips: a shared mount (NFS, EFS) and $TMPDIR are usually two.
func otherFileSystem(t *testing.T, dir string) string {
	t.Helper()
	var here syscall.Stat_t
	if err := syscall.Stat(dir, &here); err != nil {
		t.Fatal(err)
	}
	for _, base := range []string{"/dev/shm", os.Getenv("XDG_RUNTIME_DIR"), "/run/user/" + strconv.Itoa(os.Getuid())} {
		var there syscall.Stat_t
		if base == "" || syscall.Stat(base, &there) != nil || there.Dev == here.Dev {
			continue
		}
		other, err := os.MkdirTemp(base, "cachebucket-test-") //nolint:usetesting // on that file system, not $TMPDIR's
		if err != nil {
			continue
		}
		t.Cleanup(func() { _ = os.RemoveAll(other) })
		return other
	}
	t.Skipf("no writable directory on another file system than %s (tried /dev/shm, $XDG_RUNTIME_DIR, /run/user/UID)", dir)
	return ""
}

// A file:// bucket on another file system than $TMPDIR (the NFS or EFS
// mount runners share) stores its objects: gocloud's driver wrote each
// in $TMPDIR, then renamed it across devices, which fails (EXDEV), so such
// a bucket stored nothing and every runner spent the budget.
func TestBucket_aDirectoryOnAnotherFileSystemThanTMPDIRStoresObjects(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	t.Setenv("TMPDIR", otherFileSystem(t, dir))
	b := openFileBucket(t, dir)
	if err := b.Put(ctx, "entry", []byte("one")); err != nil {
		t.Errorf("Put: %v", err)
	}
	if ok, err := b.PutIfAbsent(ctx, "lease", []byte("two")); !ok || err != nil {
		t.Errorf("PutIfAbsent: %v %v", ok, err)
	}
	for name, want := range map[string]string{"entry": "one", "lease": "two"} {
		if got, err := b.Get(ctx, name, 10); string(got) != want || err != nil {
			t.Errorf("%s: %q %v", name, got, err)
		}
	}
	if left, _ := os.ReadDir(os.TempDir()); len(left) != 0 {
		t.Errorf("temporary files left in $TMPDIR: %v", left)
	}
	if all, _ := os.ReadDir(dir); len(all) != 2 {
		t.Errorf("the bucket holds %v, want its two objects alone (no temporaries, no sidecars)", all)
	}
}

// gocloud's file:// driver reads a sidecar (NAME.attrs) before each
// object, whatever its metadata option says, and outside the checks an
// object gets: a FIFO there hung every read (and every plan) for good, a
// 300 MiB one was decoded whole, and junk failed the read (and turned the
// cache off). The bucket never reads them, and writes none.
func TestBucket_sidecarsAreNeitherReadNorWritten(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	b := openFileBucket(t, dir)
	if err := b.Put(ctx, "entry", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if ok, err := b.PutIfAbsent(ctx, "lease", []byte("two")); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if sidecars, _ := filepath.Glob(filepath.Join(dir, "*.attrs")); len(sidecars) != 0 {
		t.Errorf("sidecars written: %v", sidecars)
	}
	sidecar := filepath.Join(dir, "entry.attrs")
	_ = os.Remove(sidecar)
	if err := syscall.Mkfifo(sidecar, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if got, err := b.Get(ctx, "entry", 10); string(got) != "one" || err != nil {
			t.Errorf("beside a FIFO sidecar: %q %v", got, err)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		// Let the stuck read go: a writer on the FIFO ends its open.
		if f, err := os.OpenFile(sidecar, os.O_WRONLY, 0); err == nil {
			_ = f.Close()
		}
		<-done
		t.Fatal("Get blocked on a FIFO in the object's sidecar")
	}
	for what, junk := range map[string][]byte{"junk": []byte("not json"), "a large sidecar": []byte(`{"Metadata":{"a":"` + strings.Repeat("x", 8<<20) + `"}}`)} {
		_ = os.Remove(sidecar)
		if err := os.WriteFile(sidecar, junk, 0o600); err != nil {
			t.Fatal(err)
		}
		if got, err := b.Get(ctx, "entry", 10); string(got) != "one" || err != nil {
			t.Errorf("beside %s: %q %v", what, got, err)
		}
	}
	// Removing an object removes a sidecar left from before.
	if err := b.Remove(ctx, "entry"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(sidecar); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("sidecar left: %v", err)
	}
}

// A file:// bucket's parameters are gocloud's: prefix (a folder, or the
// start of each name), create_dir and dir_file_mode; metadata and
// no_tmp_dir change nothing. Names never leave the directory.
func TestOpen_fileBucketParameters(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	base := "file://" + filepath.ToSlash(dir)
	for query, want := range map[string]string{
		"?prefix=runners/":                   "runners/lease",
		"?prefix=mint-":                      "mint-lease",
		"?prefix=a/b/&metadata=skip":         "a/b/lease",
		"?no_tmp_dir=1":                      "lease",
		"?prefix=m/&dir_file_mode=0750":      "m/lease",
		"/new/nested?create_dir=1&prefix=x/": "new/nested/x/lease",
	} {
		b, err := Open(ctx, base+query)
		if err != nil {
			t.Errorf("%s: %v", query, err)
			continue
		}
		if ok, err := b.PutIfAbsent(ctx, "lease", []byte(query)); !ok || err != nil {
			t.Errorf("%s: %v %v", query, ok, err)
		}
		if got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(want))); string(got) != query || err != nil {
			t.Errorf("%s: %s holds %q, %v", query, want, got, err)
		}
		if got, err := b.Get(ctx, "lease", 100); string(got) != query || err != nil {
			t.Errorf("%s: Get %q %v", query, got, err)
		}
		if err := b.Remove(ctx, "lease"); err != nil {
			t.Errorf("%s: Remove %v", query, err)
		}
	}
	if info, err := os.Stat(filepath.Join(dir, "m")); err != nil || info.Mode().Perm() != 0o750 {
		t.Errorf("the prefix's folder, made with dir_file_mode=0750: %v %v", info.Mode(), err)
	}
	for query, want := range map[string]string{
		"?prefix=../out/":             "must be a relative path",
		"?prefix=/abs/":               "must be a relative path",
		"?region=us-east-1":           `"region" is not one of a file:// bucket's`,
		"?dir_file_mode=rwx":          "is not a permission",
		"/missing":                    "no such file or directory",
		"/missing?secret=do-not-show": `"secret" is not one of`,
	} {
		_, err := Open(ctx, base+query)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "could not be opened, so the cache directory is used instead") || strings.Contains(err.Error(), "do-not-show") {
			t.Errorf("%s: %v, want %q", query, err, want)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, base+"/file"); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("a file as the bucket: %v", err)
	}
	b := openFileBucket(t, dir)
	for _, name := range []string{"../escape", "a//b", "", "x.attrs", "/abs"} {
		if _, err := b.Get(ctx, name, 10); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Get %q: %v", name, err)
		}
		if err := b.Put(ctx, name, nil); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Put %q: %v", name, err)
		}
		if _, err := b.PutIfAbsent(ctx, name, nil); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("PutIfAbsent %q: %v", name, err)
		}
		if err := b.Remove(ctx, name); !errors.Is(err, fs.ErrInvalid) {
			t.Errorf("Remove %q: %v", name, err)
		}
	}
}

// responseError and googleError carry their status in a field, as
// Azure's and Google's libraries do.
type responseError struct{ StatusCode int }

func (e *responseError) Error() string {
	return "PUT https://acct.blob.core.windows.net/c/lease\n----------\nRESPONSE 403: 403 This request is not authorized to perform this operation using this permission.\nERROR CODE: AuthorizationPermissionMismatch\n----------\n<?xml version=\"1.0\"?>\n<Error><Code>AuthorizationPermissionMismatch</Code></Error>\n----------"
}

type googleError struct{ Code int }

func (e *googleError) Error() string { return "googleapi: Error " + strconv.Itoa(e.Code) }

type httpStatusError int

func (e httpStatusError) Error() string       { return "status " + strconv.Itoa(int(e)) }
func (e httpStatusError) HTTPStatusCode() int { return int(e) }

type apiCodeError string

func (e apiCodeError) Error() string     { return "api error " + string(e) }
func (e apiCodeError) ErrorCode() string { return string(e) }

// What a store's refusal means for the cache: a write refused for good
// (fs.ErrPermission), a store without conditional writes
// (errors.ErrUnsupported), or anything else, passed on as it is. The
// stores' own answers are in make test-stores.
func TestErrors_classified(t *testing.T) {
	if got := refusedWrite(io.EOF); refusedWrite(nil) != nil || !errors.Is(got, io.EOF) || errors.Is(got, fs.ErrPermission) || got.Error() != "EOF" {
		t.Errorf("refusedWrite changed an error it does not classify: %v", got)
	}
	for _, err := range []error{fs.ErrPermission, &fs.PathError{Op: "open", Path: "/x", Err: syscall.EACCES},
		fmt.Errorf("put: %w", &responseError{StatusCode: 403}), &googleError{Code: 404}, httpStatusError(401)} {
		got := refusedWrite(err)
		if !errors.Is(got, fs.ErrPermission) || !errors.Is(got, err) || !strings.HasPrefix(got.Error(), "the bucket cannot be written: it does not exist, or these credentials may not write to it: ") {
			t.Errorf("%v: %v", err, got)
		}
	}
	for err, want := range map[error]bool{
		httpStatusError(501): true, fmt.Errorf("put: %w", httpStatusError(501)): true, apiCodeError("NotImplemented"): true,
		httpStatusError(500): false, apiCodeError("AccessDenied"): false, io.EOF: false,
	} {
		if notImplemented(err) != want {
			t.Errorf("notImplemented(%v) = %v", err, !want)
		}
	}
	// A store's error of many lines (Azure prints the whole exchange) is
	// said in one, without the store's XML body.
	want := "the bucket cannot be written: it does not exist, or these credentials may not write to it: PUT https://acct.blob.core.windows.net/c/lease; " +
		"RESPONSE 403: 403 This request is not authorized to perform this operation using this permission.; ERROR CODE: AuthorizationPermissionMismatch"
	if got := refusedWrite(&responseError{StatusCode: 403}).Error(); got != want {
		t.Errorf("one line:\n%s\nwant\n%s", got, want)
	}
	if httpStatus(&responseError{StatusCode: 200000}) != 0 || httpStatus(io.EOF) != 0 || httpStatus(errors.Join(io.EOF, &googleError{Code: 412})) != 412 {
		t.Error("httpStatus read a status where there is none, or missed a joined one")
	}
}
