package diskcache

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// diskFileSize returns the size of the file at path.
func diskFileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// TestDiskCacheBound: written well past its bound, with small entries and
// with large ones (overflow pages, the hardest for a fragmented file),
// the file never grows past the bound; the oldest entries are evicted
// and the newest kept.
func TestDiskCacheBound(t *testing.T) {
	const bound = 1 << 20
	for _, tc := range []struct {
		name    string
		n, size int
	}{
		{"small entries", 4000, 1000}, // about 4.4 MB
		{"large entries", 60, 100000}, // about 6 MB
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "robots.db")
			d, err := OpenWith(path, Options{MaxBytes: bound})
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			ctx := context.Background()
			start := time.Now().Add(-time.Hour)
			biggest := int64(0)
			for i := range tc.n {
				// Fetched times increase with i: the oldest come first.
				if err := d.Put(ctx, diskTestKey(i), diskTestEntry(i, tc.size, start.Add(time.Duration(i)*time.Millisecond))); err != nil {
					t.Fatalf("Put %d: %v", i, err)
				}
				if i%(tc.n/20) == 0 {
					if err := d.Flush(); err != nil {
						t.Fatalf("Flush after %d: %v", i, err)
					}
					biggest = max(biggest, diskFileSize(t, path))
				}
			}
			if err := d.Flush(); err != nil {
				t.Fatal(err)
			}
			biggest = max(biggest, diskFileSize(t, path))
			s := d.Stats()
			t.Logf("largest file %d bytes, bound %d; %+v", biggest, bound, s)
			if biggest > bound {
				t.Errorf("the file reached %d bytes, over its bound of %d", biggest, bound)
			}
			if s.Evicted == 0 || s.WriteErrors != 0 {
				t.Errorf("stats %+v, want evictions and no write errors", s)
			}
			if e, err := d.Get(ctx, diskTestKey(tc.n-1)); e == nil || err != nil {
				t.Errorf("the newest entry: %v, %v", e, err)
			}
			if e, err := d.Get(ctx, diskTestKey(0)); e != nil || err != nil {
				t.Errorf("the oldest entry: %v, %v; want it evicted", e, err)
			}
		})
	}
}

// TestDiskCacheCompactAtOpen: a file made without a bound, opened with a
// smaller one, is brought under it soon after the open (evicted and
// compacted) with its newest entries.
func TestDiskCacheCompactAtOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	diskFill(t, path, 3000, 1000)
	before := diskFileSize(t, path)
	d, err := OpenWith(path, Options{MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	// The writer works in turn: its startup work first, then this Put.
	ctx := context.Background()
	if err := d.Put(ctx, "new", diskTestEntry(9999, 100, time.Now())); err != nil {
		t.Fatal(err)
	}
	if err := d.Flush(); err != nil {
		t.Fatal(err)
	}
	after := diskFileSize(t, path)
	s := d.Stats()
	t.Logf("%d bytes before, %d after; %+v", before, after, s)
	if before <= 1<<20 || after > 1<<20 || s.Compactions == 0 || s.Evicted == 0 {
		t.Errorf("file %d bytes before, %d after; %+v", before, after, s)
	}
	for _, k := range []string{"new", diskTestKey(2999)} {
		if e, err := d.Get(ctx, k); e == nil || err != nil {
			t.Errorf("Get %s = %v, %v", k, e, err)
		}
	}
}

// TestDiskCacheSweep: the daily sweep deletes the entries older than
// Retain, which bbolt keeps as free pages; with more than half the file
// free, it is compacted.
func TestDiskCacheSweep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	old := time.Now().Add(-90 * 24 * time.Hour)
	d, err := OpenWith(path, Options{MaxBytes: -1, Retain: 365 * 24 * time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i := range 6000 {
		if err := d.Put(ctx, diskTestKey(i), diskTestEntry(i, 1000, old)); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	// As if the last sweep were long ago.
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(diskMetaBucket).Put(diskSweptKey, binary.BigEndian.AppendUint64(nil, 0))
	})
	db.Close()
	before := diskFileSize(t, path)

	// Retain is the default, 60 days.
	d, err = OpenWith(path, Options{MaxBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if err := d.Put(ctx, "new", diskTestEntry(9999, 100, time.Now())); err != nil {
		t.Fatal(err)
	}
	if err := d.Flush(); err != nil {
		t.Fatal(err)
	}
	diskSettle(t, d)
	after := diskFileSize(t, path)
	s := d.Stats()
	t.Logf("%d bytes before, %d after; %+v", before, after, s)
	if s.Expired != 6000 || s.Compactions != 1 || after >= before/4 {
		t.Errorf("file %d bytes before, %d after; %+v", before, after, s)
	}
	if e, err := d.Get(ctx, "new"); e == nil || err != nil {
		t.Errorf("Get new = %v, %v", e, err)
	}
}

// diskSettle waits until the writer has done what follows the batch it
// last wrote (evictions, sweeps, compactions), after a Flush: it works
// in turn, so another Put and Flush do.
func diskSettle(t *testing.T, d *Cache) {
	t.Helper()
	if err := d.Put(context.Background(), "settle", diskTestEntry(0, 10, time.Now())); err != nil {
		t.Fatal(err)
	}
	if err := d.Flush(); err != nil {
		t.Fatal(err)
	}
}

// TestDiskCachePutNoWait: one goroutine's Puts do not wait for a sync to
// disk each (they did, about 10 ms each, 90 a second); Close writes them
// all, and a new open reads them.
func TestDiskCachePutNoWait(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	d, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	now := time.Now()
	const n = 3000
	start := time.Now()
	for i := range n {
		if err := d.Put(ctx, diskTestKey(i), diskTestEntry(i, 500, now)); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	t.Logf("%d Puts and Close in %v: %.0f/s", n, took, n/took.Seconds())
	// A Put that waited for its own sync took about 10 ms: 3,000 of them
	// 33 s. Without that wait they take a fraction of a second, a few
	// on a loaded machine with a busy disk.
	if took > 10*time.Second {
		t.Errorf("%d Puts took %v", n, took)
	}
	d, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for i := range n {
		if e, err := d.Get(ctx, diskTestKey(i)); e == nil || err != nil {
			t.Fatalf("after Close and a new open, Get %d = %v, %v", i, e, err)
		}
	}
}

// TestDiskCacheConcurrent: Puts, Gets and Flushes from many goroutines
// while the writer evicts and compacts under a small bound (run with
// -race). A Get sees the last Put of its own goroutine, queued or
// written.
func TestDiskCacheConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	d, err := OpenWith(path, Options{MaxBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 500 {
				k := g*1000 + i
				e := diskTestEntry(k, 1500, time.Now())
				if err := d.Put(ctx, diskTestKey(k), e); err != nil {
					t.Errorf("Put: %v", err)
					return
				}
				// The newest entry has not been evicted.
				if got, err := d.Get(ctx, diskTestKey(k)); err != nil || got == nil || got.URL != e.URL {
					t.Errorf("Get %d after its Put = %v, %v", k, got, err)
					return
				}
				if i%100 == 0 {
					if err := d.Flush(); err != nil {
						t.Errorf("Flush: %v", err)
					}
					d.Stats()
				}
			}
		})
	}
	wg.Wait()
	s := d.Stats()
	t.Logf("%+v", s)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if size := diskFileSize(t, path); size > 1<<20 || s.Evicted == 0 {
		t.Errorf("file %d bytes; %+v", size, s)
	}
	if err := d.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
}

// TestDiskCacheBoundOption: the bound's default, its minimum, and no
// bound.
func TestDiskCacheBoundOption(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		max, want int64
	}{
		{0, DefaultMaxBytes},
		{-1, 0},
		{5 << 20, 5 << 20},
	} {
		d, err := OpenWith(filepath.Join(dir, fmt.Sprint(tc.max)), Options{MaxBytes: tc.max})
		if err != nil {
			t.Fatal(err)
		}
		if d.maxBytes != tc.want {
			t.Errorf("MaxBytes %d: bound %d, want %d", tc.max, d.maxBytes, tc.want)
		}
		d.Close()
	}
	if _, err := OpenWith(filepath.Join(dir, "small"), Options{MaxBytes: 1000}); err == nil {
		t.Error("a bound of 1000 bytes was accepted")
	}
}
