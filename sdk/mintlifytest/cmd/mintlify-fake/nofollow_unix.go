//go:build unix

package main

import "syscall"

// noFollow makes opening a link in the log's place fail, and opening a
// FIFO not block: the Lstat before it cannot rule out a swap.
const noFollow = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
