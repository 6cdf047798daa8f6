//go:build !windows && !plan9 && !solaris && !aix && !android

package diskcache

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"
)

// TestDiskCacheLockedCorrupt: a file that another process holds is never
// checked, nor moved aside, however it looks: the open fails after the
// lock timeout with the plain message. The wait is timed on synctest's
// fake clock, as in TestDiskCacheLocked.
func TestDiskCacheLockedCorrupt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	if err := os.WriteFile(path, []byte("not a bbolt file, and locked"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := lockFile(f, 0); err != nil {
		t.Fatal(err)
	}
	var took time.Duration
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		d, err2 := Open(path)
		took = time.Since(start)
		if err2 == nil {
			d.Close()
		}
		err = err2
	})
	if err == nil {
		t.Fatal("opened a locked file")
	}
	var inUse *InUseError
	if !errors.As(err, &inUse) || inUse.Path != path {
		t.Errorf("error %v, want an InUseError", err)
	}
	if took < diskLockTimeout || took > diskLockTimeout+100*time.Millisecond {
		t.Errorf("failed after %v, want %v and a poll of the lock", took, diskLockTimeout)
	}
	if aside := diskAside(t, path); len(aside) != 0 {
		t.Errorf("a locked file was moved aside to %v", aside)
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
}
