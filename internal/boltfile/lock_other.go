//go:build windows || plan9 || solaris || aix || android

package boltfile

import (
	"os"
	"runtime"
	"time"
)

// Lock does nothing here: bbolt locks the file itself (with fcntl or
// LockFileEx) right after, and the check before it reads the file
// without the lock.
func Lock(f *os.File, timeout time.Duration) error { return nil }

// LockShared does nothing here, as Lock.
func LockShared(f *os.File, timeout time.Duration) error { return nil }

// RenameWhileOpen: Windows cannot rename an open file, so a corrupt file
// is closed before it is moved aside.
const RenameWhileOpen = runtime.GOOS != "windows"
