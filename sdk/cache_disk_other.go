//go:build !unix

package sdk

import "os"

// openNoFollow opens a file for reading. Callers have checked with Lstat
// that it is a regular file.
func openNoFollow(path string) (*os.File, error) { return os.Open(path) }

// unsafeDir has no permission bits to check on this system: a directory
// in the user's profile is the user's.
func unsafeDir(os.FileInfo) string { return "" }
