package sdk

import (
	"context"
	"errors"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/analyticscache"
)

// CacheBucket is an object store the analytics cache shares between
// machines; sdk/cachebucket opens one through gocloud.dev/blob. It is an
// interface literal so that sdk/cachebucket need not import the SDK.
type CacheBucket = interface {
	// Get returns the object name, at most limit bytes: an error wrapping
	// fs.ErrNotExist when there is none, fs.ErrInvalid for anything but a
	// regular object of at most limit bytes.
	Get(ctx context.Context, name string, limit int64) ([]byte, error)
	// Put writes the object whole: a reader sees the old one or the new.
	// A write the store refuses for good (no such bucket, a credential
	// that may only read) is an error wrapping fs.ErrPermission: the
	// cache then goes on reading the bucket but writes nothing to it.
	Put(ctx context.Context, name string, data []byte) error
	// PutIfAbsent writes the object only when there is none, atomically,
	// and says whether it wrote; it fails like Put, or with
	// errors.ErrUnsupported when the store cannot (no leases then).
	PutIfAbsent(ctx context.Context, name string, data []byte) (bool, error)
	// Remove deletes the object; a missing one is not an error.
	Remove(ctx context.Context, name string) error
	// Where names the store in messages, never with credentials.
	Where() string
}

// openBucketStore opens o.URL with o.OpenBucket, as the cache's store.
func openBucketStore(ctx context.Context, o CacheOptions) (analyticscache.Store, error) {
	if o.OpenBucket == nil {
		return nil, errors.New("the analytics cache bucket cannot be opened, so the cache directory is used instead: " +
			"CacheOptions.OpenBucket is not set (pass cachebucket.Open from package sdk/cachebucket)")
	}
	b, err := o.OpenBucket(ctx, o.URL)
	if err != nil {
		return nil, err
	}
	return analyticscache.Bucket(b), nil
}
