//go:build !unix

package localfile

import (
	"errors"
	"os"
)

// OpenNoFollow opens a file for reading. Callers have checked with Lstat
// that it is a regular file.
func OpenNoFollow(path string) (*os.File, error) { return os.Open(path) }

// UnsafeDir has no permission bits to check on this system: a directory
// in the user's profile is the user's.
func UnsafeDir(os.FileInfo) string { return "" }

// noLinks reports whether a link failed because the file system has none.
func noLinks(err error) bool { return errors.Is(err, errors.ErrUnsupported) }
