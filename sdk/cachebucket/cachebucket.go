// Package cachebucket opens the shared bucket of the SDK's analytics cache:
// S3, GCS or Azure Blob through gocloud.dev/blob, or a directory (file://)
// that many machines mount.
//
// It is a package of its own so that programs without a shared cache do
// not link gocloud and its dependencies. A program that wants one passes
// Open as sdk.CacheOptions.OpenBucket and imports the drivers it needs:
//
//	import (
//		_ "gocloud.dev/blob/s3blob"
//
//		"github.com/mintlify/terraform-provider-mintlify/sdk"
//		"github.com/mintlify/terraform-provider-mintlify/sdk/cachebucket"
//	)
//
//	sdk.WithAnalyticsCache(sdk.CacheOptions{URL: "s3://bucket?region=us-east-1", OpenBucket: cachebucket.Open, FreshFor: 10 * time.Minute})
//
// A file:// bucket needs no driver: this package reads and writes its
// files itself, as the cache directory's are (see Open).
package cachebucket

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/localfile"
)

// Store is sdk.CacheBucket, spelled out so that this package needs nothing
// of the SDK (whose tests use it).
type Store = interface {
	Get(ctx context.Context, name string, limit int64) ([]byte, error)
	Put(ctx context.Context, name string, data []byte) error
	PutIfAbsent(ctx context.Context, name string, data []byte) (bool, error)
	Remove(ctx context.Context, name string) error
	Where() string
}

// Bucket keeps the cache's records as objects of a bucket that many
// machines share. Objects are written whole by every store, so a reader
// sees an old record or a new one. It implements sdk.CacheBucket.
type Bucket struct {
	b    *blob.Bucket // S3, GCS, Azure
	name string       // the URL without its query, for messages
	// A file:// bucket: its directory and the names' prefix.
	dir, prefix string
	dirMode     fs.FileMode
}

// Open opens the bucket a cache URL names, as a *Bucket. Opening sends
// nothing for S3 and Azure; GCS looks up its default credentials.
//
// A file:// URL names a directory (which must exist, unless create_dir is
// set), with gocloud's parameters prefix, create_dir and dir_file_mode;
// metadata and no_tmp_dir are accepted and change nothing. Its files are
// read and written here rather than by gocloud's driver, which followed
// links, blocked on FIFOs, read a sidecar file (NAME.attrs) before each
// object outside any check, wrote each object in $TMPDIR and renamed it
// across file systems (which fails when the directory is another mount),
// and checked then renamed for a conditional write. Here only regular
// files are read, never through a link nor in a way that can block; each
// object is written beside its name and renamed (or, for a conditional
// write, linked) into place; no sidecar is written or read.
func Open(ctx context.Context, raw string) (Store, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	shown := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
	if u.Scheme == "file" {
		s, err := openDir(u)
		if err != nil {
			return nil, fmt.Errorf("the analytics cache bucket %s could not be opened, so the cache directory is used instead: %w", shown.String(), err)
		}
		s.name = shown.String()
		return s, nil
	}
	b, err := blob.OpenBucket(ctx, raw)
	if err != nil {
		// gocloud's message repeats the URL whole: say it without its
		// query (parameters are the store's, and none is ours to show).
		why := strings.ReplaceAll(oneLine(err).Error(), raw, shown.String())
		return nil, fmt.Errorf("the analytics cache bucket %s could not be opened, so the cache directory is used instead: %s", shown.String(), why)
	}
	return &Bucket{b: b, name: shown.String()}, nil
}

// openDir opens a file:// bucket's directory.
func openDir(u *url.URL) (*Bucket, error) {
	s := &Bucket{dir: filepath.FromSlash(u.Path), dirMode: 0o777}
	q := u.Query()
	for k := range q {
		switch k {
		case "prefix", "create_dir", "dir_file_mode", "metadata", "no_tmp_dir":
		default:
			return nil, fmt.Errorf("the query parameter %q is not one of a file:// bucket's (prefix, create_dir, dir_file_mode)", k)
		}
	}
	if m := q.Get("dir_file_mode"); m != "" {
		mode, err := strconv.ParseUint(m, 0, 32)
		if err != nil || mode > 0o777 {
			return nil, fmt.Errorf("dir_file_mode %q is not a permission such as 0750", m)
		}
		s.dirMode = fs.FileMode(mode)
	}
	s.prefix = q.Get("prefix")
	if s.prefix != "" && !fs.ValidPath(strings.TrimSuffix(s.prefix, "/")) {
		return nil, fmt.Errorf("prefix %q must be a relative path without . or .. elements", s.prefix)
	}
	if q.Get("create_dir") != "" {
		if err := os.MkdirAll(s.dir, s.dirMode); err != nil { //nolint:gosec // the directory the user's cache_url names
			return nil, err
		}
	}
	info, err := os.Stat(s.dir) //nolint:gosec // the directory the user's cache_url names
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", s.dir)
	}
	return s, nil
}

// file is where a file:// bucket keeps the object name: its prefix, then
// its name, under its directory; an error wrapping fs.ErrInvalid for a
// name that would leave it.
func (s *Bucket) file(name string) (string, error) {
	key := s.prefix + name
	if !fs.ValidPath(key) || key == "." || strings.HasSuffix(key, ".attrs") {
		return "", fmt.Errorf("object name %q: %w", name, fs.ErrInvalid)
	}
	return filepath.Join(s.dir, filepath.FromSlash(key)), nil
}

// mkdirs makes the directories of a file:// object's name (a prefix
// ending in /).
func (s *Bucket) mkdirs(file string) error {
	if dir := filepath.Dir(file); dir != s.dir {
		return os.MkdirAll(dir, s.dirMode)
	}
	return nil
}

// Where names the bucket in messages, without its query.
func (s *Bucket) Where() string { return "bucket " + s.name }

// Get returns the object name, at most limit bytes: an error wrapping
// fs.ErrNotExist when there is none, fs.ErrInvalid for anything but a
// regular object of at most limit bytes.
func (s *Bucket) Get(ctx context.Context, name string, limit int64) ([]byte, error) {
	if s.b == nil {
		file, err := s.file(name)
		if err != nil {
			return nil, err
		}
		data, err := localfile.Read(file, limit)
		if errors.Is(err, localfile.ErrRefused) {
			return nil, fs.ErrInvalid
		}
		return data, err
	}
	r, err := s.b.NewReader(ctx, name, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, fs.ErrNotExist
	}
	if err != nil {
		return nil, oneLine(err)
	}
	defer r.Close()
	if r.Size() > limit {
		return nil, fs.ErrInvalid
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, oneLine(err)
	}
	if int64(len(data)) > limit {
		return nil, fs.ErrInvalid
	}
	return data, nil
}

// objectMode is a file:// object's mode, less the umask, as any file the
// user writes: the directory's own permissions say who reads the bucket.
const objectMode = 0o666

// Put writes the object name whole.
func (s *Bucket) Put(ctx context.Context, name string, data []byte) error {
	if s.b == nil {
		file, err := s.file(name)
		if err != nil {
			return err
		}
		if err := s.mkdirs(file); err != nil {
			return err
		}
		return refusedWrite(localfile.Replace(file, data, objectMode))
	}
	return refusedWrite(s.write(ctx, name, data, false))
}

// write uploads an object through the driver's Upload, not WriteAll:
// gocloud v0.47's Azure writer panics (a nil pipe closed) when the upload
// fails on WriteAll's path, as a conditional write does whenever another
// runner holds the lease.
func (s *Bucket) write(ctx context.Context, name string, data []byte, ifNotExist bool) error {
	return s.b.Upload(ctx, name, bytes.NewReader(data), &blob.WriterOptions{ContentType: "application/json", IfNotExist: ifNotExist})
}

// PutIfAbsent is a conditional write, atomic on every store: S3
// (If-None-Match: *), GCS (the generation precondition 0), Azure
// (If-None-Match: *) and, for file://, a link that fails when the name
// exists. A store's refusal because the object exists (412 Precondition
// Failed, Azure's 409 BlobAlreadyExists; gocloud's FailedPrecondition) is
// "not written", no error. A store that does not implement conditional
// writes (an S3-compatible store answering 501 NotImplemented) is an error
// wrapping errors.ErrUnsupported. It says whether it wrote.
func (s *Bucket) PutIfAbsent(ctx context.Context, name string, data []byte) (bool, error) {
	if s.b == nil {
		file, err := s.file(name)
		if err != nil {
			return false, err
		}
		if err := s.mkdirs(file); err != nil {
			return false, refusedWrite(err)
		}
		ok, err := localfile.CreateExclusive(file, data, objectMode)
		return ok, refusedWrite(err)
	}
	err := s.write(ctx, name, data, true)
	switch gcerrors.Code(err) {
	case gcerrors.OK:
		return true, nil
	case gcerrors.FailedPrecondition:
		return false, nil
	}
	if notImplemented(err) {
		return false, &classified{kind: errors.ErrUnsupported, why: "the store does not implement conditional writes (If-None-Match)", err: err}
	}
	return false, refusedWrite(err)
}

// notImplemented reports whether a store answered that it does not
// implement what the request asked: gocloud's Unimplemented, or an HTTP
// 501 (S3-compatible stores without If-None-Match).
func notImplemented(err error) bool {
	var coded interface{ ErrorCode() string }
	return gcerrors.Code(err) == gcerrors.Unimplemented || httpStatus(err) == http.StatusNotImplemented ||
		(errors.As(err, &coded) && coded.ErrorCode() == "NotImplemented")
}

// httpStatus is the HTTP status a store's error carries, or 0. Each
// store's library says it its own way, and this package links none of
// them: AWS's errors have a method (HTTPStatusCode), Azure's a field
// (azcore.ResponseError.StatusCode), Google's another (googleapi.Error's
// Code), each read here by name.
func httpStatus(err error) int {
	var method interface{ HTTPStatusCode() int }
	if errors.As(err, &method) {
		return method.HTTPStatusCode()
	}
	for e := range errorChain(err) {
		v := reflect.ValueOf(e)
		if v.Kind() == reflect.Pointer && !v.IsNil() {
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			continue
		}
		for _, field := range []string{"StatusCode", "Code"} {
			if f := v.FieldByName(field); f.IsValid() && f.CanInt() && f.Int() >= 100 && f.Int() < 600 {
				return int(f.Int())
			}
		}
	}
	return 0
}

// errorChain yields err and every error it wraps, depth first.
func errorChain(err error) iter.Seq[error] {
	return func(yield func(error) bool) {
		var walk func(error) bool
		walk = func(e error) bool {
			if e == nil {
				return true
			}
			if !yield(e) {
				return false
			}
			switch u := e.(type) { //nolint:errorlint // this walks the chain itself, each error in turn
			case interface{ Unwrap() error }:
				return walk(u.Unwrap())
			case interface{ Unwrap() []error }:
				for _, inner := range u.Unwrap() {
					if !walk(inner) {
						return false
					}
				}
			}
			return true
		}
		walk(err)
	}
}

// refusedWrite is a write's error, wrapping fs.ErrPermission when the
// store refused it for good: the bucket does not exist, or the
// credentials may not write to it (a 401, 403 or 404; gocloud calls GCS's
// 403 NotFound, and Azure's 403 for a token without the permission
// Unknown). nil stays nil.
func refusedWrite(err error) error {
	status := httpStatus(err)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, fs.ErrPermission), gcerrors.Code(err) == gcerrors.PermissionDenied, gcerrors.Code(err) == gcerrors.NotFound,
		status == http.StatusUnauthorized, status == http.StatusForbidden, status == http.StatusNotFound:
		return &classified{kind: fs.ErrPermission, why: "the bucket cannot be written: it does not exist, or these credentials may not write to it", err: err}
	}
	return oneLine(err)
}

// classified is a store's error, in one line, with what it means for the
// cache (kind: fs.ErrPermission, errors.ErrUnsupported; nil: nothing in
// particular) and why, in words.
type classified struct {
	kind error
	why  string
	err  error
}

func (e *classified) Error() string {
	var b strings.Builder
	if e.why != "" {
		b.WriteString(e.why + ": ")
	}
	// Azure's errors (and others') print the whole exchange over many
	// lines, the store's XML body included: one line of what it said.
	sep := ""
	for _, line := range strings.Split(e.err.Error(), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "<") {
			break
		}
		if line != "" && !strings.HasPrefix(line, "---") {
			b.WriteString(sep + line)
			sep = "; "
		}
	}
	return b.String()
}

func (e *classified) Unwrap() []error {
	if e.kind == nil {
		return []error{e.err}
	}
	return []error{e.kind, e.err}
}

// oneLine is a store's error as a classified one of no kind: its message
// in one line. nil stays nil.
func oneLine(err error) error {
	if err == nil {
		return nil
	}
	return &classified{err: err}
}

// Remove deletes the object name; a missing one is not an error. In a
// file:// bucket, the sidecar gocloud's driver wrote beside it goes too.
func (s *Bucket) Remove(ctx context.Context, name string) error {
	if s.b == nil {
		file, err := s.file(name)
		if err != nil {
			return err
		}
		for _, f := range []string{file, file + ".attrs"} {
			if err := os.Remove(f); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return refusedWrite(err)
			}
		}
		return nil
	}
	if err := s.b.Delete(ctx, name); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return refusedWrite(err)
	}
	return nil
}
