//go:build !windows && !plan9 && !solaris && !aix && !android

package boltfile

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// Lock takes the exclusive flock that bbolt takes on its file (the
// build constraint is bbolt's, for its flock), so that the file can be
// checked, and moved aside, before bbolt maps it and while no other
// process uses it. bbolt's own flock on the same descriptor then
// succeeds at once. It gives up with ErrLocked after timeout.
func Lock(f *os.File, timeout time.Duration) error {
	return flock(f, syscall.LOCK_EX, timeout)
}

// LockShared takes the shared flock that bbolt takes on a file it opens
// read-only: other readers may hold it too, a writer may not. It gives
// up with ErrLocked after timeout.
func LockShared(f *os.File, timeout time.Duration) error {
	return flock(f, syscall.LOCK_SH, timeout)
}

func flock(f *os.File, how int, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case !errors.Is(err, syscall.EWOULDBLOCK):
			return err
		case time.Now().After(deadline):
			return ErrLocked
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// RenameWhileOpen: a file can be renamed while it is open, and so while
// this process holds its lock.
const RenameWhileOpen = true
