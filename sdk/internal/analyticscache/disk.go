package analyticscache

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"sync"
	"time"

	"github.com/mintlify/terraform-provider-mintlify/sdk/internal/localfile"
)

// Disk keeps the cache's records as files in one directory, this user's
// alone (one others can write is refused). Safe across processes: records
// are written whole and renamed into place. Only regular files of bounded
// size are read, never through a link or a FIFO; eviction removes only
// files named like entries and starting with the cache's header.
type Disk struct {
	dir      string
	maxBytes int64

	mu       sync.Mutex
	verified bool  // the directory exists and is safe
	size     int64 // bytes of entries as last counted, plus what was written since
	known    bool  // size has been counted
}

// OpenDisk returns the store of dir, or why dir cannot be one. A
// directory that does not exist yet is created (0700) at the first write.
func OpenDisk(dir string, maxBytes int64) (*Disk, error) {
	d := &Disk{dir: dir, maxBytes: maxBytes}
	if err := d.verify(false); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return d, nil
}

// Where names the directory in messages.
func (d *Disk) Where() string { return "directory " + d.dir }

// verify checks the directory once: it must be a directory that only this
// user can write. create makes it first when it is missing.
func (d *Disk) verify(create bool) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.verified {
		return nil
	}
	if create {
		if err := os.MkdirAll(d.dir, 0o700); err != nil {
			return err
		}
	}
	info, err := os.Stat(d.dir)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("the analytics cache directory %s is not a directory; going on without a cache", d.dir)
	}
	if why := localfile.UnsafeDir(info); why != "" {
		return fmt.Errorf("the analytics cache directory %s is refused: %s, who could plant answers in it; going on without a cache (make it the user's own, for example chmod go-w, or set another cache_dir)", d.dir, why)
	}
	d.verified = true
	return nil
}

// Get reads a record: a regular file, never through a link.
func (d *Disk) Get(_ context.Context, name string, limit int64) ([]byte, error) {
	if err := d.verify(false); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, ErrNotFound
		}
		return nil, err
	}
	return fromLocal(localfile.Read(filepath.Join(d.dir, name), limit))
}

// fromLocal is a localfile read in the words of a Store.
func fromLocal(data []byte, err error) ([]byte, error) {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, ErrNotFound
	case errors.Is(err, localfile.ErrRefused):
		return nil, ErrRefused
	}
	return data, err
}

// Put writes a record atomically, then keeps the cache under its cap.
func (d *Disk) Put(_ context.Context, name string, data []byte) error {
	if err := d.verify(true); err != nil {
		return err
	}
	if err := localfile.Replace(filepath.Join(d.dir, name), data, 0o600); err != nil {
		return err
	}
	if entryNameRE.MatchString(name) {
		d.grew(int64(len(data)))
	}
	return nil
}

// PutIfAbsent links a new file into place: the link fails, atomically,
// when the name exists.
func (d *Disk) PutIfAbsent(_ context.Context, name string, data []byte) (bool, error) {
	if err := d.verify(true); err != nil {
		return false, err
	}
	return localfile.CreateExclusive(filepath.Join(d.dir, name), data, 0o600)
}

// Remove deletes a record; a missing one is fine.
func (d *Disk) Remove(_ context.Context, name string) error {
	if err := os.Remove(filepath.Join(d.dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// grew counts bytes just written and evicts past the cap.
func (d *Disk) grew(n int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.known {
		d.size, d.known = d.count(), true
	} else {
		d.size += n
	}
	if d.size > d.maxBytes {
		d.size = d.evict()
	}
}

// entryNameRE is the name of an entry (or of a lease on one). Budget
// records are few and tiny: they are never evicted.
var entryNameRE = regexp.MustCompile(`^(lease-)?[0-9a-f]{64}\.json$`)

// count returns the bytes the cache's entries take.
func (d *Disk) count() int64 {
	var total int64
	for _, e := range d.entries() {
		total += e.size
	}
	return total
}

type entryFile struct {
	path    string
	size    int64
	modTime time.Time
}

// entries lists the files the cache wrote: named like its entries, regular
// files (not links), that start with its header (or the first format's).
func (d *Disk) entries() []entryFile {
	dirents, err := os.ReadDir(d.dir)
	if err != nil {
		return nil
	}
	var out []entryFile
	for _, de := range dirents {
		if !entryNameRE.MatchString(de.Name()) || !de.Type().IsRegular() {
			continue
		}
		path := filepath.Join(d.dir, de.Name())
		info, err := de.Info()
		if err != nil || !isCacheFile(path) {
			continue
		}
		out = append(out, entryFile{path, info.Size(), info.ModTime()})
	}
	return out
}

// isCacheFile reports whether a file starts with the header of the cache's
// files.
func isCacheFile(path string) bool {
	f, err := localfile.OpenNoFollow(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return false
	}
	head := make([]byte, 64)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	for _, magic := range append([]string{Magic}, OlderMagics...) {
		if bytes.HasPrefix(head, []byte(magic)) {
			return true
		}
	}
	return false
}

// evict removes the oldest of the cache's files until they take at most
// 90% of its cap, and returns their new size. Other processes may evict at
// the same time: a file already gone is fine.
func (d *Disk) evict() int64 {
	files := d.entries()
	sort.Slice(files, func(i, j int) bool { return files[i].modTime.Before(files[j].modTime) })
	var total int64
	for _, f := range files {
		total += f.size
	}
	for _, f := range files {
		if total <= d.maxBytes*9/10 {
			break
		}
		if err := os.Remove(f.path); err == nil || errors.Is(err, fs.ErrNotExist) {
			total -= f.size
		}
	}
	return total
}
