// Package cachebucket opens the shared bucket of the SDK's analytics cache
// through gocloud.dev/blob: S3, GCS, Azure Blob or a directory (file://).
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
package cachebucket

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
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
	b     *blob.Bucket
	name  string // the URL without its query, for messages
	local string // file:// buckets: the directory, to check objects before opening them
}

// Open opens the bucket a cache URL names, as a *Bucket. Opening sends
// nothing for S3 and Azure; GCS looks up its default credentials.
func Open(ctx context.Context, raw string) (Store, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	shown := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
	b, err := blob.OpenBucket(ctx, raw)
	if err != nil {
		// gocloud's message repeats the URL whole: say it without its
		// query (parameters are the store's, and none is ours to show).
		why := strings.ReplaceAll(err.Error(), raw, shown.String())
		return nil, fmt.Errorf("the analytics cache bucket %s could not be opened, so the cache directory is used instead: %s", shown.String(), why)
	}
	s := &Bucket{b: b, name: shown.String()}
	if u.Scheme == "file" {
		s.local = filepath.Join(filepath.FromSlash(u.Path), filepath.FromSlash(u.Query().Get("prefix")))
	}
	return s, nil
}

// Where names the bucket in messages, without its query.
func (s *Bucket) Where() string { return "bucket " + s.name }

// Get returns the object name, at most limit bytes: an error wrapping
// fs.ErrNotExist when there is none, fs.ErrInvalid for anything but a
// regular object of at most limit bytes.
func (s *Bucket) Get(ctx context.Context, name string, limit int64) ([]byte, error) {
	if s.local != "" {
		// gocloud's file:// driver follows links and would block on a
		// FIFO: look first.
		info, err := os.Lstat(filepath.Join(s.local, name))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fs.ErrNotExist
		}
		if err != nil || !info.Mode().IsRegular() || info.Size() > limit {
			return nil, fs.ErrInvalid
		}
	}
	r, err := s.b.NewReader(ctx, name, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, fs.ErrNotExist
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if r.Size() > limit {
		return nil, fs.ErrInvalid
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fs.ErrInvalid
	}
	return data, nil
}

// Put writes the object name whole.
func (s *Bucket) Put(ctx context.Context, name string, data []byte) error {
	return s.b.WriteAll(ctx, name, data, &blob.WriterOptions{ContentType: "application/json"})
}

// PutIfAbsent is a conditional write: S3 (If-None-Match), GCS and Azure
// make it atomic; gocloud's file:// driver checks, then renames. It says
// whether it wrote.
func (s *Bucket) PutIfAbsent(ctx context.Context, name string, data []byte) (bool, error) {
	err := s.b.WriteAll(ctx, name, data, &blob.WriterOptions{ContentType: "application/json", IfNotExist: true})
	switch gcerrors.Code(err) {
	case gcerrors.OK:
		return true, nil
	case gcerrors.FailedPrecondition:
		return false, nil
	}
	return false, err
}

// Remove deletes the object name; a missing one is not an error.
func (s *Bucket) Remove(ctx context.Context, name string) error {
	if err := s.b.Delete(ctx, name); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return err
	}
	return nil
}
