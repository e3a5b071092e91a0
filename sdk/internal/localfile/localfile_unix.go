//go:build unix

package localfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// OpenNoFollow opens a file for reading without following a link in its
// place, and without blocking on a FIFO or a device.
func OpenNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0) //nolint:gosec // a name in the cache's own directory, opened without following links
}

// UnsafeDir says why a directory is not this user's alone, or "".
func UnsafeDir(info os.FileInfo) string {
	if perm := info.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Sprintf("others can write to it (mode %#o)", perm)
	}
	if st, ok := info.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Geteuid() {
		return fmt.Sprintf("it belongs to another user (uid %d)", st.Uid)
	}
	return ""
}

// noLinks reports whether a link failed because the file system has none.
func noLinks(err error) bool {
	return errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS)
}
