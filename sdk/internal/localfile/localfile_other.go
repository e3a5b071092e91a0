//go:build !unix

package localfile

import "os"

// OpenNoFollow opens a file for reading. Callers have checked with Lstat
// that it is a regular file.
func OpenNoFollow(path string) (*os.File, error) { return os.Open(path) }

// UnsafeDir has no permission bits to check on this system: a directory
// in the user's profile is the user's.
func UnsafeDir(os.FileInfo) string { return "" }
