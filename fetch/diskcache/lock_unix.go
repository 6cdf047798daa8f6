//go:build !windows && !plan9 && !solaris && !aix && !android

package diskcache

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// lockFile takes the exclusive flock that bbolt takes on its file (the
// build constraint is bbolt's, for its flock), so that the file can be
// checked, and moved aside, before bbolt maps it and while no other
// process uses it. bbolt's own flock on the same descriptor then
// succeeds at once. It gives up with errDiskLocked after timeout.
func lockFile(f *os.File, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case !errors.Is(err, syscall.EWOULDBLOCK):
			return err
		case time.Now().After(deadline):
			return errDiskLocked
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// renameWhileOpen: a file can be renamed while it is open, and so while
// this process holds its lock.
const renameWhileOpen = true
