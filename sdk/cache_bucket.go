package sdk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"

	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"
)

// bucketStore keeps the cache's records as objects of a bucket that many
// machines share, through gocloud.dev/blob: S3, GCS, Azure Blob or a
// directory (file://). Objects are written whole by every store, so a
// reader sees an old record or a new one.
type bucketStore struct {
	b     *blob.Bucket
	name  string // the URL without its query, for messages
	local string // file:// buckets: the directory, to check objects before opening them
}

// openBucketStore opens the bucket a cache URL names. Opening sends
// nothing for S3 and Azure; GCS looks up its default credentials.
func openBucketStore(ctx context.Context, raw string) (*bucketStore, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	shown := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}
	b, err := blob.OpenBucket(ctx, raw)
	if err != nil {
		return nil, fmt.Errorf("the analytics cache bucket %s could not be opened, so the cache directory is used instead: %w", shown.String(), err)
	}
	s := &bucketStore{b: b, name: shown.String()}
	if u.Scheme == "file" {
		s.local = filepath.Join(filepath.FromSlash(u.Path), filepath.FromSlash(u.Query().Get("prefix")))
	}
	return s, nil
}

func (s *bucketStore) where() string { return "bucket " + s.name }

func (s *bucketStore) get(ctx context.Context, name string, limit int64) ([]byte, error) {
	if s.local != "" {
		// gocloud's file:// driver follows links and would block on a
		// FIFO: look first.
		info, err := os.Lstat(filepath.Join(s.local, name))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errNotFound
		}
		if err != nil || !info.Mode().IsRegular() || info.Size() > limit {
			return nil, errRefused
		}
	}
	r, err := s.b.NewReader(ctx, name, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, errNotFound
	}
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if r.Size() > limit {
		return nil, errRefused
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, errRefused
	}
	return data, nil
}

func (s *bucketStore) put(ctx context.Context, name string, data []byte) error {
	return s.b.WriteAll(ctx, name, data, &blob.WriterOptions{ContentType: "application/json"})
}

// putIfAbsent is a conditional write: S3 (If-None-Match), GCS and Azure
// make it atomic; gocloud's file:// driver checks, then renames.
func (s *bucketStore) putIfAbsent(ctx context.Context, name string, data []byte) (bool, error) {
	err := s.b.WriteAll(ctx, name, data, &blob.WriterOptions{ContentType: "application/json", IfNotExist: true})
	switch gcerrors.Code(err) {
	case gcerrors.OK:
		return true, nil
	case gcerrors.FailedPrecondition:
		return false, nil
	}
	return false, err
}

func (s *bucketStore) remove(ctx context.Context, name string) error {
	if err := s.b.Delete(ctx, name); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return err
	}
	return nil
}
