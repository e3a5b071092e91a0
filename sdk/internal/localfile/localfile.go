// Package localfile reads and writes the analytics cache's files in a
// directory that other programs share (the cache directory, a file://
// bucket): only regular files are read, never through a link and never in
// a way that can block (a FIFO, a device); files are written whole beside
// their final name (a temporary renamed or linked into place, never one in
// $TMPDIR, which may be another file system).
package localfile

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrRefused is a name holding anything but a regular file of at most the
// limit: a link, a FIFO, a device, a directory, or too many bytes.
var ErrRefused = errors.New("not a regular file, or too large")

// Read returns the regular file at path, at most limit bytes: an error
// wrapping fs.ErrNotExist when there is none, ErrRefused for anything
// else, without blocking on it. Links are not followed and the file is
// opened non-blocking, so a FIFO or a device in its place can neither hang
// the read nor be read, even one swapped in after a look.
func Read(path string, limit int64) ([]byte, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() || info.Size() > limit {
		return nil, ErrRefused
	}
	f, err := OpenNoFollow(path)
	if err != nil {
		return nil, ErrRefused // replaced between the two calls by a link or worse
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() || info.Size() > limit {
		return nil, ErrRefused
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, ErrRefused
	}
	return data, nil
}

// Temp writes data to a new file beside path (same directory, so the same
// file system), created with perm (less the umask), and returns its name.
func Temp(path string, data []byte, perm fs.FileMode) (string, error) {
	var tmp *os.File
	var err error
	for range 10 {
		name := filepath.Join(filepath.Dir(path), ".tmp-"+rand.Text())
		tmp, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm) //nolint:gosec // a new name beside the cache's own file
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", err
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		_ = os.Remove(tmp.Name())
		return "", werr
	}
	return tmp.Name(), nil
}

// Replace writes data to path whole, as a new file of mode perm (less the
// umask): a reader sees the old file or the new one. A link in path's
// place is replaced, never followed.
func Replace(path string, data []byte, perm fs.FileMode) error {
	tmp, err := Temp(path, data, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	return nil
}

// CreateExclusive writes data to path, as a new file of mode perm (less
// the umask), only when nothing is there, and says whether it wrote: the
// file is written beside path, then linked into place, which fails
// atomically when the name exists (on NFS too). On a file system without
// hard links (exFAT, SMB without Unix extensions) it fails with an error
// wrapping errors.ErrUnsupported.
func CreateExclusive(path string, data []byte, perm fs.FileMode) (bool, error) {
	tmp, err := Temp(path, data, perm)
	if err != nil {
		return false, err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		if noLinks(err) {
			// The temporary was written: the directory is writable, so a
			// refusal here is the file system's, not a permission.
			// %v: the link's error (EPERM) must not read as a permission.
			return false, fmt.Errorf("%s cannot hold hard links (%v), which the conditional write needs: %w", filepath.Dir(path), err, errors.ErrUnsupported) //nolint:errorlint // see above
		}
		return false, err
	}
	return true, nil
}
