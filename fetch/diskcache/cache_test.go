package diskcache

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/fetch/internal/cachetest"
	bolt "go.etcd.io/bbolt"
)

// cacheTestDisk opens a Cache in a new file, closed when t ends.
func cacheTestDisk(t *testing.T) *Cache {
	t.Helper()
	d, err := Open(filepath.Join(t.TempDir(), "robots.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := d.Close(); err != nil {
			t.Error(err)
		}
	})
	return d
}

// TestCacheBehaviour runs the checks every fetch.Cache must pass (see
// internal/cachetest) against a Cache, alone and behind a MemoryCache.
func TestCacheBehaviour(t *testing.T) {
	for _, impl := range []struct {
		name string
		open func(t *testing.T) fetch.Cache
	}{
		{"disk", func(t *testing.T) fetch.Cache { return cacheTestDisk(t) }},
		{"layered/memory+disk", func(t *testing.T) fetch.Cache {
			return fetch.Layered(fetch.NewMemoryCache(0), cacheTestDisk(t))
		}},
	} {
		t.Run(impl.name, func(t *testing.T) { cachetest.Run(t, impl.open(t)) })
	}
}

// diskChildEnv, when set to a file's path, makes TestDiskCacheRestart
// play the second process.
const diskChildEnv = "ROBOTS_TEST_DISK_CHILD"

// TestDiskCacheRestart: what one process writes, another reads after it
// has exited. This process writes an entry and closes the file; a child
// process (this test binary again) reads it, writes a second entry,
// flushes it and exits without closing; this process opens the file
// again and reads both.
func TestDiskCacheRestart(t *testing.T) {
	if path := os.Getenv(diskChildEnv); path != "" {
		diskChild(t, path)
		return
	}
	path := filepath.Join(t.TempDir(), "robots.db")
	ctx := context.Background()
	a := cachetest.Entries()[1].E
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Put(ctx, "google https://a.example", a); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestDiskCacheRestart$", "-test.v")
	cmd.Env = append(os.Environ(), diskChildEnv+"="+path)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child process: %v\n%s", err, out)
	}

	d, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for key, want := range map[string]*fetch.Entry{
		"google https://a.example": a,
		"google https://b.example": diskChildEntry(a),
	} {
		got, err := d.Get(ctx, key)
		if err != nil {
			t.Fatal(err)
		}
		if d := cachetest.Diff(got, want); d != "" {
			t.Errorf("%s after a restart: %s", key, d)
		}
	}
}

// diskChild is the second process of TestDiskCacheRestart.
func diskChild(t *testing.T, path string) {
	ctx := context.Background()
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	// Not closed: the process exits with the file open.
	a, err := d.Get(ctx, "google https://a.example")
	if err != nil || a == nil {
		t.Fatalf("child: Get = %v, %v", a, err)
	}
	if a.URL != "https://example.com/robots.txt" || string(a.Body) != cachetest.Body {
		t.Fatalf("child: read %+v", a)
	}
	if err := d.Put(ctx, "google https://b.example", diskChildEntry(a)); err != nil {
		t.Fatal(err)
	}
	// Put only queues the entry: Flush waits until it is in the file.
	if err := d.Flush(); err != nil {
		t.Fatal(err)
	}
}

// diskChildEntry is the entry the child writes: a, at another URL.
func diskChildEntry(a *fetch.Entry) *fetch.Entry {
	return &fetch.Entry{
		URL: "https://b.example/robots.txt", Outcome: a.Outcome, Status: a.Status,
		Fetched: a.Fetched, Expires: a.Expires, ErrorSince: a.ErrorSince,
		Good: a.Good, GoodAt: a.GoodAt, Body: a.Body,
	}
}

// TestDiskCacheRetention: an entry fetched longer ago than Retain reads as
// missing and is deleted from the file.
func TestDiskCacheRetention(t *testing.T) {
	now := time.Now()
	day := 24 * time.Hour
	for _, tc := range []struct {
		name    string
		retain  time.Duration
		fetched time.Time
		kept    bool
	}{
		{"young", time.Hour, now.Add(-30 * time.Minute), true},
		{"old", time.Hour, now.Add(-2 * time.Hour), false},
		{"never fetched", time.Hour, time.Time{}, true},
		{"in the future", time.Hour, now.Add(time.Hour), true},
		{"default, 59 days", 0, now.Add(-59 * day), true},
		{"default, 61 days", 0, now.Add(-61 * day), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := cacheTestDisk(t)
			d.Retain = tc.retain
			ctx := context.Background()
			e := &fetch.Entry{URL: "https://example.com/robots.txt", Outcome: fetch.Success, Fetched: tc.fetched, Body: []byte(cachetest.Body)}
			if err := d.Put(ctx, "k", e); err != nil {
				t.Fatal(err)
			}
			got, err := d.Get(ctx, "k")
			if err != nil {
				t.Fatal(err)
			}
			if (got != nil) != tc.kept {
				t.Fatalf("Get = %v, want kept %v", got, tc.kept)
			}
			// The deletion is queued for the writer.
			if err := d.Flush(); err != nil {
				t.Fatal(err)
			}
			var stored bool
			_ = d.db.View(func(tx *bolt.Tx) error {
				stored = tx.Bucket(diskBucket).Get([]byte("k")) != nil
				return nil
			})
			if stored != tc.kept {
				t.Errorf("still in the file: %v, want %v", stored, tc.kept)
			}
		})
	}
}

// TestDiskCacheLocked: a second open of a file in use fails after the
// lock timeout instead of hanging (flock locks conflict between two
// opens in one process as between two processes). The wait is timed on
// synctest's fake clock, which only the lock's polls move, so that a
// loaded machine cannot stretch it.
func TestDiskCacheLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var took time.Duration
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		d2, err2 := Open(path)
		took = time.Since(start)
		if err2 == nil {
			d2.Close()
		}
		err = err2
	})
	if err == nil {
		t.Fatal("second Open of a locked file succeeded")
	}
	if !errors.Is(err, bolt.ErrTimeout) {
		t.Errorf("error %v, want bolt.ErrTimeout", err)
	}
	want := "disk cache " + path + " is in use by another process (bbolt lock); use another path or stop the other process"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %q, want it to say %q", err, want)
	}
	if _, err := os.Stat(path); err != nil || len(diskAside(t, path)) != 0 {
		t.Errorf("the file in use was moved: %v, %v", err, diskAside(t, path))
	}
	if took < diskLockTimeout || took > diskLockTimeout+100*time.Millisecond {
		t.Errorf("failed after %v, want %v and a poll of the lock", took, diskLockTimeout)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d, err = Open(path)
	if err != nil {
		t.Fatalf("open after Close: %v", err)
	}
	d.Close()
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, %v; want 0600", fi.Mode(), err)
	}
}

// TestDiskCacheErrors: a corrupt value, a closed file, a cancelled
// context and a bad path are errors, not panics.
func TestDiskCacheErrors(t *testing.T) {
	ctx := context.Background()
	d := cacheTestDisk(t)
	_ = d.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(diskBucket).Put([]byte("bad"), []byte{1, 0xff})
	})
	if e, err := d.Get(ctx, "bad"); err == nil {
		t.Errorf("Get of a corrupt value = %v, nil", e)
	}
	if err := d.Put(ctx, "", &fetch.Entry{}); err == nil {
		t.Error("Put of an empty key succeeded")
	}
	if err := d.Put(ctx, "k", nil); err == nil {
		t.Error("Put of a nil entry succeeded")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := d.Get(cancelled, "k"); !errors.Is(err, context.Canceled) {
		t.Errorf("Get with a cancelled context: %v", err)
	}
	if err := d.Put(cancelled, "k", &fetch.Entry{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Put with a cancelled context: %v", err)
	}

	d2, err := Open(filepath.Join(t.TempDir(), "closed.db"))
	if err != nil {
		t.Fatal(err)
	}
	d2.Close()
	if _, err := d2.Get(ctx, "k"); err == nil {
		t.Error("Get after Close succeeded")
	}
	if err := d2.Put(ctx, "k", &fetch.Entry{}); err == nil {
		t.Error("Put after Close succeeded")
	}

	if _, err := Open(filepath.Join(t.TempDir(), "no", "such", "dir", "x.db")); err == nil {
		t.Error("Open in a missing directory succeeded")
	}
}
