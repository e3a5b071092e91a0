package analyticscache

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestDisk_readsWritesAndRefuses(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "made", "at the first write")
	d, err := OpenDisk(dir, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Get(ctx, "a.json", 100); !errors.Is(err, ErrNotFound) {
		t.Errorf("before the directory exists: %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a read made the directory: %v", err)
	}
	if err := d.Put(ctx, "a.json", []byte("one")); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Stat(dir); err != nil || (runtime.GOOS != "windows" && info.Mode().Perm() != 0o700) {
		t.Errorf("directory %v, %v", info, err)
	}
	if data, err := d.Get(ctx, "a.json", 3); err != nil || string(data) != "one" {
		t.Errorf("read back %q, %v", data, err)
	}
	if _, err := d.Get(ctx, "a.json", 2); !errors.Is(err, ErrRefused) {
		t.Errorf("past the limit: %v", err)
	}
	if ok, err := d.PutIfAbsent(ctx, "b.json", []byte("first")); !ok || err != nil {
		t.Errorf("first conditional write: %v, %v", ok, err)
	}
	if ok, err := d.PutIfAbsent(ctx, "b.json", []byte("second")); ok || err != nil {
		t.Errorf("second conditional write: %v, %v", ok, err)
	}
	if data, _ := d.Get(ctx, "b.json", 100); string(data) != "first" {
		t.Errorf("b holds %q", data)
	}
	if err := d.Remove(ctx, "b.json"); err != nil {
		t.Fatal(err)
	}
	if err := d.Remove(ctx, "b.json"); err != nil {
		t.Errorf("removing what is gone: %v", err)
	}
	if runtime.GOOS != "windows" {
		if err := os.Symlink(filepath.Join(dir, "a.json"), filepath.Join(dir, "link.json")); err != nil {
			t.Fatal(err)
		}
		if _, err := d.Get(ctx, "link.json", 100); !errors.Is(err, ErrRefused) {
			t.Errorf("a link: %v", err)
		}
	}
	if !strings.Contains(d.Where(), dir) {
		t.Errorf("where: %s", d.Where())
	}
}

func TestDisk_refusesWhatIsNotItsOwnDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenDisk(file, 1); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("a file: %v", err)
	}
	if runtime.GOOS == "windows" {
		return
	}
	open := t.TempDir()
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenDisk(open, 1); err == nil || !strings.Contains(err.Error(), "is refused") {
		t.Errorf("a directory others can write: %v", err)
	}
}

// Past its cap the disk removes the oldest of its own entries down to 90%
// of the cap; files not its own (named otherwise, or not starting with a
// cache header), and budget records, are never removed.
func TestDisk_evictsOnlyItsOwnOldestEntries(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	entry := func(i int) string { return fmt.Sprintf("%064x.json", i) }
	record := func(n int) []byte { return []byte(Magic + strings.Repeat("x", n-len(Magic))) }
	foreign := map[string][]byte{
		entry(100):                 []byte(strings.Repeat("y", 400)), // named like an entry, not one
		"notes.txt":                record(400),
		"budget-0123.json":         record(100),
		"lease-" + entry(101)[:10]: record(100),
	}
	for name, data := range foreign {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := filepath.Join(dir, entry(1))
	if err := os.WriteFile(old, append([]byte(OlderMagics[1]), strings.Repeat("z", 400-len(OlderMagics[1]))...), 0o600); err != nil {
		t.Fatal(err)
	}
	_ = os.Chtimes(old, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour))
	d, err := OpenDisk(dir, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i := 2; i <= 4; i++ {
		if err := d.Put(ctx, entry(i), record(300)); err != nil {
			t.Fatal(err)
		}
		_ = os.Chtimes(filepath.Join(dir, entry(i)), time.Now().Add(time.Duration(i)*time.Minute), time.Now().Add(time.Duration(i)*time.Minute))
		if _, err := os.Stat(old); i == 3 && (err != nil || d.size != 1000) {
			t.Errorf("at the cap (%d bytes), an entry was evicted: %v", d.size, err)
		}
	}
	// 1,300 bytes of entries (the older format's included) > 1,000:
	// the oldest go until at most 900 remain.
	for name := range foreign {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("%s was removed", name)
		}
	}
	var kept []string
	for i := 1; i <= 4; i++ {
		if _, err := os.Stat(filepath.Join(dir, entry(i))); err == nil {
			kept = append(kept, fmt.Sprint(i))
		}
	}
	if got := strings.Join(kept, ","); got != "2,3,4" {
		t.Errorf("entries kept: %s, want the oldest (of the first format) removed, the 900 bytes of the newest kept", got)
	}
	if d.size != 900 {
		t.Errorf("size %d after eviction", d.size)
	}
}

func TestBucket_errorsBecomeMisses(t *testing.T) {
	ctx := context.Background()
	for err, want := range map[error]error{
		fmt.Errorf("gone: %w", fs.ErrNotExist):  ErrNotFound,
		fmt.Errorf("a link: %w", fs.ErrInvalid): ErrRefused,
	} {
		m := newMemStore()
		m.err = err
		if _, got := Bucket(m).Get(ctx, "x", 1); !errors.Is(got, want) {
			t.Errorf("%v: %v, want %v", err, got, want)
		}
	}
	m := newMemStore()
	b := Bucket(m)
	if err := b.Put(ctx, "x", []byte("1")); err != nil {
		t.Fatal(err)
	}
	if data, err := b.Get(ctx, "x", 1); err != nil || string(data) != "1" || b.Where() != "memory" {
		t.Errorf("read through: %q, %v, %s", data, err, b.Where())
	}
}

// The guard turns a store off after its first failure (noting it once),
// only its writes after a refused write, only its leases when it has no
// conditional writes; misses and a caller that gave up are not failures.
func TestGuard_turnsOffWhatFailed(t *testing.T) {
	ctx := context.Background()
	guarded := func(err error) (*Guarded, *memStore, *[]error) {
		m := newMemStore()
		var notes []error
		g := Guard(m, 0, func(err error) { notes = append(notes, err) })
		m.err = err
		return g, m, &notes
	}

	g, m, notes := guarded(ErrNotFound)
	_, _ = g.Get(ctx, "x", 1)
	_ = g.Put(ctx, "x", nil)
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	m.err = errors.New("the caller gave up")
	_, _ = g.Get(canceled, "x", 1)
	if len(*notes) != 0 || !g.writable() {
		t.Errorf("a miss or a caller's end turned the store off: %v", *notes)
	}

	g, m, notes = guarded(errors.New("connection refused"))
	_, _ = g.Get(ctx, "x", 1)
	m.err = nil
	calls := m.calls
	if _, err := g.Get(ctx, "x", 1); !errors.Is(err, ErrNotFound) || m.calls != calls {
		t.Errorf("a broken store was asked again: %v", err)
	}
	if err := g.Put(ctx, "x", nil); !errors.Is(err, ErrStoreOff) {
		t.Errorf("a broken store was written: %v", err)
	}
	if _, err := g.PutIfAbsent(ctx, "x", nil); !errors.Is(err, ErrStoreOff) {
		t.Errorf("a broken store took a lease: %v", err)
	}
	if err := g.Remove(ctx, "x"); !errors.Is(err, ErrStoreOff) {
		t.Errorf("a broken store was removed from: %v", err)
	}
	if len(*notes) != 1 || !strings.Contains((*notes)[0].Error(), "failed, and is not used again") || !strings.Contains((*notes)[0].Error(), "memory") {
		t.Errorf("notes %v", *notes)
	}

	g, m, notes = guarded(fmt.Errorf("read-only: %w", fs.ErrPermission))
	_ = g.Put(ctx, "x", nil)
	_ = g.Remove(ctx, "x")
	m.err = nil
	m.files["x"] = []byte("1")
	if data, err := g.Get(ctx, "x", 1); err != nil || string(data) != "1" {
		t.Errorf("a read-only store is still read: %q, %v", data, err)
	}
	if err := g.Put(ctx, "y", nil); !errors.Is(err, ErrStoreOff) || len(*notes) != 1 || !strings.Contains((*notes)[0].Error(), "read but not written") {
		t.Errorf("a read-only store: %v, %v", err, *notes)
	}

	g, m, notes = guarded(fmt.Errorf("no preconditions: %w", errors.ErrUnsupported))
	_, _ = g.PutIfAbsent(ctx, "x", nil)
	_, _ = g.PutIfAbsent(ctx, "x", nil)
	m.err = nil
	if err := g.Put(ctx, "y", []byte("1")); err != nil {
		t.Errorf("a store without leases is still written: %v", err)
	}
	if _, err := g.PutIfAbsent(ctx, "z", nil); !errors.Is(err, ErrStoreOff) || len(*notes) != 1 || !strings.Contains((*notes)[0].Error(), "takes no leases") {
		t.Errorf("a store without leases: %v, %v", err, *notes)
	}
}

// slowStore is a memStore whose every call takes delay, unless its
// context ends first.
type slowStore struct {
	*memStore
	delay time.Duration
}

func (s slowStore) wait(ctx context.Context) error {
	select {
	case <-time.After(s.delay):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s slowStore) Get(ctx context.Context, name string, limit int64) ([]byte, error) {
	if err := s.wait(ctx); err != nil {
		return nil, err
	}
	return s.memStore.Get(ctx, name, limit)
}

func (s slowStore) Put(ctx context.Context, name string, data []byte) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.memStore.Put(ctx, name, data)
}

func (s slowStore) PutIfAbsent(ctx context.Context, name string, data []byte) (bool, error) {
	if err := s.wait(ctx); err != nil {
		return false, err
	}
	return s.memStore.PutIfAbsent(ctx, name, data)
}

func (s slowStore) Remove(ctx context.Context, name string) error {
	if err := s.wait(ctx); err != nil {
		return err
	}
	return s.memStore.Remove(ctx, name)
}

// The operations of one read share the guard's timeout: when they have
// used it up, the one running is cut short, the store is turned off (said
// once), and nothing more is sent. Operations outside a read (a lease's
// polls) are bounded one by one.
func TestGuard_boundsOneReadsOperationsTogether(t *testing.T) {
	for name, c := range map[string]struct {
		delay     time.Duration
		wantCalls int // sent to the store, the last cut short
	}{
		"each call just under the timeout": {delay: 290 * time.Millisecond, wantCalls: 2},
		"each call far past it":            {delay: time.Hour, wantCalls: 1},
	} {
		t.Run(name, func(t *testing.T) {
			m := newMemStore()
			var notes []error
			g := Guard(slowStore{m, c.delay}, 300*time.Millisecond, func(err error) { notes = append(notes, err) })
			read := ForRead(context.Background())
			began := time.Now()
			for range 3 {
				_, _ = g.Get(read, "entry", 10)
				_ = g.Put(read, "entry", []byte("1"))
			}
			took := time.Since(began)
			if took < 300*time.Millisecond || took > 900*time.Millisecond || m.calls != c.wantCalls-1 {
				t.Errorf("took %v, %d calls answered, want %d", took, m.calls, c.wantCalls-1)
			}
			if len(notes) != 1 || !strings.Contains(notes[0].Error(), "the analytics cache (memory) took more than 300ms over one read's operations, so the read went on without it, and it is not used again") {
				t.Errorf("notes %v", notes)
			}
			if err := g.Put(context.Background(), "x", nil); !errors.Is(err, ErrStoreOff) {
				t.Errorf("the store was written after: %v", err)
			}
		})
	}
	t.Run("outside a read", func(t *testing.T) {
		m := newMemStore()
		var notes []error
		g := Guard(slowStore{m, 40 * time.Millisecond}, 100*time.Millisecond, func(err error) { notes = append(notes, err) })
		polls := outsideRead(ForRead(context.Background()))
		for range 4 {
			if _, err := g.Get(polls, "lease", 10); !errors.Is(err, ErrNotFound) {
				t.Fatalf("a poll: %v", err)
			}
		}
		if m.calls != 4 || len(notes) != 0 {
			t.Errorf("%d calls, notes %v", m.calls, notes)
		}
	})
}
