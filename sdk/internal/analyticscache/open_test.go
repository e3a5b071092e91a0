package analyticscache

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func TestProblems_keepTheFirst(t *testing.T) {
	var p Problems
	if p.First() != nil {
		t.Fatal("a new log holds a problem")
	}
	first, second := errors.New("first"), errors.New("second")
	var wg sync.WaitGroup
	p.Note(first)
	for range 4 {
		wg.Go(func() { p.Note(second) })
	}
	wg.Wait()
	if !errors.Is(p.First(), first) {
		t.Errorf("got %v, want the first problem", p.First())
	}
}

func TestOpen_theBucketElseTheDirectory(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	bucket := newMemStore()
	var p Problems
	c := Open(func() (Store, error) { return bucket, nil }, t.TempDir(), 1<<20, 0, "key", &p)
	if c == nil || p.First() != nil {
		t.Fatalf("the bucket was not opened: %v", p.First())
	}
	c.SaveSpent(ctx, "base", now, now.Add(time.Hour))
	if len(bucket.files) != 1 {
		t.Errorf("the record went elsewhere than the bucket: %v", bucket.files)
	}
	if until, ok := New(bucket, "key").SpentUntil(ctx, "base", now); !ok || !until.Equal(now.Add(time.Hour)) {
		t.Errorf("the record is not this key's: %v %v", until, ok)
	}

	// A bucket that cannot be opened: the directory, and why.
	refused := errors.New("no such bucket")
	dir := filepath.Join(t.TempDir(), "cache")
	p = Problems{}
	c = Open(func() (Store, error) { return nil, refused }, dir, 1<<20, 0, "key", &p)
	if c == nil || !errors.Is(p.First(), refused) {
		t.Fatalf("got %v, problem %v; want the directory and the bucket's problem", c, p.First())
	}
	c.SaveSpent(ctx, "base", now, now.Add(time.Hour))
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 1 {
		t.Errorf("the record is not in the directory: %v %v", entries, err)
	}

	// Neither: no cache, and why when there was a reason.
	p = Problems{}
	if c := Open(func() (Store, error) { return nil, refused }, "", 1<<20, 0, "key", &p); c != nil || !errors.Is(p.First(), refused) {
		t.Errorf("got %v, %v", c, p.First())
	}
	p = Problems{}
	if c := Open(nil, "", 1<<20, 0, "key", &p); c != nil || p.First() != nil {
		t.Errorf("got %v, %v", c, p.First())
	}
	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o777); err != nil || os.Chmod(open, 0o777) != nil {
		t.Fatal(err)
	}
	if c := Open(nil, open, 1<<20, 0, "key", &p); c != nil || p.First() == nil {
		t.Errorf("a directory others can write was used: %v, %v", c, p.First())
	}
}

func TestOpen_guardsTheStore(t *testing.T) {
	failing := newMemStore()
	failing.err = errors.New("down")
	var p Problems
	c := Open(func() (Store, error) { return failing, nil }, "", 1<<20, 0, "key", &p)
	c.Save(context.Background(), "x", Record{Kind: KindRead, Key: "k", At: time.Now()})
	if p.First() == nil {
		t.Error("a store that failed was not noted")
	}
}
