//go:build windows || plan9 || solaris || aix || android

package diskcache

import (
	"os"
	"runtime"
	"time"
)

// lockFile does nothing here: bbolt locks the file itself (with fcntl or
// LockFileEx) right after, and the check before it reads the file
// without the lock.
func lockFile(f *os.File, timeout time.Duration) error { return nil }

// renameWhileOpen: Windows cannot rename an open file, so a corrupt file
// is closed before it is moved aside.
const renameWhileOpen = runtime.GOOS != "windows"
