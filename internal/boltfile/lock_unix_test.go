//go:build !windows && !plan9 && !solaris && !aix && !android

package boltfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestLock: shared locks coexist; an exclusive lock excludes both kinds
// until it is released. (flock locks belong to an open file, so two
// opens in one process conflict as two processes would.)
func TestLock(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.db")
	if err := os.WriteFile(p, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	open := func() *os.File {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	a, b, c := open(), open(), open()
	if err := LockShared(a, 0); err != nil {
		t.Fatal(err)
	}
	if err := LockShared(b, 0); err != nil {
		t.Fatalf("second shared lock: %v", err)
	}
	if err := Lock(c, 0); !errors.Is(err, ErrLocked) {
		t.Fatalf("exclusive lock beside shared ones = %v, want ErrLocked", err)
	}
	a.Close()
	b.Close()
	if err := Lock(c, 0); err != nil {
		t.Fatalf("exclusive lock once the others are closed: %v", err)
	}
	if err := LockShared(open(), 0); !errors.Is(err, ErrLocked) {
		t.Fatalf("shared lock beside an exclusive one = %v, want ErrLocked", err)
	}
}
