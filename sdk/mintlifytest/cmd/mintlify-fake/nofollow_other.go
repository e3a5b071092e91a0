//go:build !unix

package main

// noFollow is nothing here: the Lstat before the open checks the path.
const noFollow = 0
