package sdk

import (
	"context"
	"testing"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/mintlifytest"
)

// slowBucket is a CacheBucket whose every operation takes delay, unless
// its context ends first.
type slowBucket struct {
	*scriptedBucket
	delay time.Duration
}

func (b slowBucket) wait(ctx context.Context) error {
	select {
	case <-time.After(b.delay):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (b slowBucket) Get(ctx context.Context, name string, limit int64) ([]byte, error) {
	if err := b.wait(ctx); err != nil {
		return nil, err
	}
	return b.scriptedBucket.Get(ctx, name, limit)
}

func (b slowBucket) Put(ctx context.Context, name string, data []byte) error {
	if err := b.wait(ctx); err != nil {
		return err
	}
	return b.scriptedBucket.Put(ctx, name, data)
}

func (b slowBucket) PutIfAbsent(ctx context.Context, name string, data []byte) (bool, error) {
	if err := b.wait(ctx); err != nil {
		return false, err
	}
	return b.scriptedBucket.PutIfAbsent(ctx, name, data)
}

func (b slowBucket) Remove(ctx context.Context, name string) error {
	if err := b.wait(ctx); err != nil {
		return err
	}
	return b.scriptedBucket.Remove(ctx, name)
}

// A bucket whose every operation takes just under the cache's Timeout
// costs a read at most that Timeout over all its operations: the read
// then goes to the API, the client says why, and no later read waits for
// the bucket. The Timeout defaults to DefaultCacheTimeout and cannot be
// negative.
func TestCacheBucket_aSlowBucketCostsAReadAtMostItsTimeout(t *testing.T) {
	const timeout = 400 * time.Millisecond
	b := &scriptedBucket{objects: map[string][]byte{}}
	o := scriptedOpts(b)
	o.OpenBucket = func(context.Context, string) (CacheBucket, error) {
		return slowBucket{b, timeout - 10*time.Millisecond}, nil
	}
	o.Timeout = timeout
	fake, c, _ := newFake(t, mintlifytest.Config{Analytics: mintlifytest.Dataset{Paths: 10}}, WithAnalyticsCache(o))
	ctx, p := context.Background(), mintlifytest.DemoProjectID
	for i := range 2 {
		began := time.Now()
		got, err := c.Analytics.Visitors.Page(ctx, p, VisitorsQuery{})
		took := time.Since(began)
		if err != nil || got.Cache.Hit || len(got.Paths) != 10 {
			t.Fatalf("read %d: %+v, %v", i, got, err)
		}
		// The first read: the bucket's timeout, then one API read (on
		// loopback); the second: the API read alone.
		if bound := map[int]time.Duration{0: timeout + time.Second, 1: time.Second}[i]; took > bound || (i == 0 && took < timeout) {
			t.Errorf("read %d took %v, want at most %v", i, took, bound)
		}
	}
	if n := fake.Requests(mintlifytest.RouteAnalyticsVisitors); n != 2 {
		t.Errorf("%d API reads, want 2", n)
	}
	if p := c.CacheProblem(); p == nil || p.Error() != "the analytics cache (bucket scripted://cache) took more than 400ms over one read's operations, so the read went on without it, and it is not used again by this program" {
		t.Errorf("problem: %v", p)
	}
	if len(b.objects) != 0 || b.writesSent() != 0 {
		t.Errorf("the bucket was written: %d objects, %d writes", len(b.objects), b.writesSent())
	}

	if _, err := NewClient("mint_x", WithAnalyticsCache(CacheOptions{Dir: "x", FreshFor: time.Minute, Timeout: -1})); err == nil {
		t.Error("a negative Timeout was accepted")
	}
	d, _ := NewClient("mint_x", WithAnalyticsCache(CacheOptions{Dir: t.TempDir(), FreshFor: time.Minute}))
	if d.core.cache == nil || d.core.cache.opts.Timeout != DefaultCacheTimeout || DefaultCacheTimeout != 5*time.Second {
		t.Errorf("defaults: %+v", d.core.cache)
	}
}
