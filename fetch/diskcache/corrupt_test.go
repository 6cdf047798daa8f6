package diskcache

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/robotskit/robots/fetch"
	bolt "go.etcd.io/bbolt"
)

// diskTestEntry is entry i of the corruption and bound tests: a body of
// about size bytes that holds the marker MARKi, fetched at fetched.
func diskTestEntry(i, size int, fetched time.Time) *fetch.Entry {
	body := fmt.Appendf(nil, "User-agent: *\nDisallow: /MARK%05d/\n", i)
	for len(body) < size {
		body = fmt.Appendf(body, "Disallow: /p%d/%d/\n", i, len(body))
	}
	return &fetch.Entry{URL: fmt.Sprintf("https://h%05d.example/robots.txt", i), Outcome: fetch.Success, Status: 200,
		Fetched: fetched, Expires: fetched.Add(24 * time.Hour), Good: fetch.Success, GoodAt: fetched, Body: body}
}

func diskTestKey(i int) string { return fmt.Sprintf("google https://h%05d.example", i) }

// diskFill writes n entries of about size bytes into a new cache file at
// path and closes it.
func diskFill(t testing.TB, path string, n, size int) {
	t.Helper()
	d, err := OpenWith(path, Options{MaxBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i := range n {
		if err := d.Put(context.Background(), diskTestKey(i), diskTestEntry(i, size, now)); err != nil {
			t.Fatal(err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
}

// diskAside returns the files that path was moved aside to.
func diskAside(t testing.TB, path string) []string {
	t.Helper()
	m, err := filepath.Glob(path + ".corrupt-*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// syncBuffer is a bytes.Buffer for a logger that the writer goroutine
// uses too.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// diskOpenLogged opens path with a logger into the returned buffer, and
// closes the cache at the end of the test.
func diskOpenLogged(t *testing.T, path string) (*Cache, *syncBuffer) {
	t.Helper()
	log := new(syncBuffer)
	d, err := OpenWith(path, Options{Logger: slog.New(slog.NewTextHandler(log, nil))})
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d, log
}

// diskWorks checks that d stores and returns a new entry, and survives a
// Flush.
func diskWorks(t *testing.T, d *Cache) {
	t.Helper()
	ctx := context.Background()
	e := diskTestEntry(99999, 100, time.Now())
	if err := d.Put(ctx, "new", e); err != nil {
		t.Fatalf("Put: %v", err)
	}
	if err := d.Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	got, err := d.Get(ctx, "new")
	if err != nil || got == nil || got.URL != e.URL {
		t.Fatalf("Get after Put = %v, %v", got, err)
	}
}

// TestDiskCacheCorruptFile: a file that is truncated, corrupt or not a
// Cache's is moved aside at open, logged and counted, and the cache
// starts empty; never a crash (a truncated file used to kill the process
// with SIGBUS when bbolt read past its end, and a garbled one to panic).
func TestDiskCacheCorruptFile(t *testing.T) {
	pageSize := int64(os.Getpagesize())
	template := filepath.Join(t.TempDir(), "template.db")
	diskFill(t, template, 200, 600)
	good, err := os.ReadFile(template)
	if err != nil {
		t.Fatal(err)
	}
	garbage := make([]byte, 2*pageSize)
	rand.NewChaCha8([32]byte{1}).Read(garbage)
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, path string)
		reason string // in the log
	}{
		{"truncated to 8192 bytes", func(t *testing.T, p string) { os.Truncate(p, 8192) }, "truncated"},
		{"truncated to 16000 bytes", func(t *testing.T, p string) { os.Truncate(p, 16000) }, "not a multiple of the page size"},
		{"truncated to 100 bytes", func(t *testing.T, p string) { os.Truncate(p, 100) }, "reason="},
		{"truncated to half", func(t *testing.T, p string) { os.Truncate(p, int64(len(good))/2/pageSize*pageSize) }, "truncated"},
		{"meta pages garbage", func(t *testing.T, p string) { overwrite(t, p, 0, garbage) }, "not a bbolt file"},
		{"meta pages zeroed", func(t *testing.T, p string) { overwrite(t, p, 0, make([]byte, 2*pageSize)) }, "not a bbolt file"},
		{"text file", func(t *testing.T, p string) {
			os.WriteFile(p, []byte("User-agent: *\nDisallow: /\n"), 0o600)
		}, "reason="},
		{"large text file", func(t *testing.T, p string) {
			os.WriteFile(p, bytes.Repeat([]byte("Disallow: /x\n"), 4000), 0o600)
		}, "not a bbolt file"},
		{"bbolt file of another program", func(t *testing.T, p string) {
			os.Remove(p)
			db, err := bolt.Open(p, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			db.Update(func(tx *bolt.Tx) error {
				b, err := tx.CreateBucket([]byte("accounts"))
				if err != nil {
					return err
				}
				return b.Put([]byte("alice"), []byte("42"))
			})
			db.Close()
		}, `bucket \"accounts\"`},
		{"every page header zeroed", func(t *testing.T, p string) {
			// The root and freelist pages among them.
			for pg := int64(2); pg*pageSize < int64(len(good)); pg++ {
				overwrite(t, p, pg*pageSize, make([]byte, 16))
			}
		}, "reason="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "robots.db")
			if err := os.WriteFile(path, good, 0o600); err != nil {
				t.Fatal(err)
			}
			tc.damage(t, path)
			before, _ := os.ReadFile(path)
			// On synctest's fake clock, which only waits move, an open
			// that never waits (for a lock, say) takes no time, however
			// slow the disk.
			synctest.Test(t, func(t *testing.T) {
				start := time.Now()
				d, log := diskOpenLogged(t, path)
				if took := time.Since(start); took != 0 {
					t.Errorf("open waited %v", took)
				}
				if s := d.Stats(); s.MovedAside != 1 {
					t.Errorf("MovedAside = %d, want 1 (%+v)", s.MovedAside, s)
				}
				aside := diskAside(t, path)
				if len(aside) != 1 {
					t.Fatalf("moved aside to %v, want one file", aside)
				}
				if kept, _ := os.ReadFile(aside[0]); !bytes.Equal(kept, before) {
					t.Error("the file moved aside is not the damaged file as it was")
				}
				if l := log.String(); !strings.Contains(l, "moved aside") || !strings.Contains(l, tc.reason) {
					t.Errorf("log %q, want it to say the file was moved aside and %q", l, tc.reason)
				}
				if e, err := d.Get(context.Background(), diskTestKey(1)); e != nil || err != nil {
					t.Errorf("Get from the new file = %v, %v; want a miss", e, err)
				}
				diskWorks(t, d)
			})
		})
	}
}

// TestDiskCacheFileKept: files that are fine are not moved aside: an
// empty file (bbolt writes a new one in it), a file with one meta page
// damaged (bbolt uses the other, as after a torn write), and a file of an
// earlier version (the entries bucket alone).
func TestDiskCacheFileKept(t *testing.T) {
	pageSize := int64(os.Getpagesize())
	now := time.Now()
	for _, tc := range []struct {
		name   string
		make   func(t *testing.T, path string)
		filled string // the entries are still there: "yes", "no", "" (may be)
	}{
		{"empty", func(t *testing.T, p string) { os.WriteFile(p, nil, 0o600) }, "no"},
		// bbolt then reads the file as of the transaction before the last
		// (the one that wrote the other meta page), which may have been
		// the one that wrote all the entries.
		{"first meta page damaged", func(t *testing.T, p string) {
			diskFill(t, p, 50, 300)
			overwrite(t, p, 16, []byte("garbage garbage garbage"))
		}, ""},
		{"second meta page damaged", func(t *testing.T, p string) {
			diskFill(t, p, 50, 300)
			overwrite(t, p, pageSize+16, []byte("garbage garbage garbage"))
		}, ""},
		{"earlier version", func(t *testing.T, p string) {
			db, err := bolt.Open(p, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			db.Update(func(tx *bolt.Tx) error {
				b, err := tx.CreateBucket(diskBucket)
				if err != nil {
					return err
				}
				for i := range 50 {
					v, _ := diskTestEntry(i, 300, now).MarshalBinary()
					if err := b.Put([]byte(diskTestKey(i)), v); err != nil {
						return err
					}
				}
				return nil
			})
			db.Close()
		}, "yes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "robots.db")
			tc.make(t, path)
			d, log := diskOpenLogged(t, path)
			if s := d.Stats(); s.MovedAside != 0 || len(diskAside(t, path)) != 0 {
				t.Errorf("moved aside: %+v; log %s", s, log)
			}
			e, err := d.Get(context.Background(), diskTestKey(7))
			if err != nil || (tc.filled == "yes" && e == nil) || (tc.filled == "no" && e != nil) {
				t.Errorf("Get = %v, %v; want an entry: %q", e, err, tc.filled)
			}
			diskWorks(t, d)
		})
	}
}

// TestDiskCacheCorruptPage: a data page garbled after the file was
// opened (or in a way the checks at open cannot see) makes bbolt panic
// in a Get. The Get fails; the file is moved aside, counted and logged;
// the cache goes on, empty.
func TestDiskCacheCorruptPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "robots.db")
	diskFill(t, path, 300, 600)
	// Zero every page that holds entry 150: its leaf page, and the old
	// copies of it that bbolt has freed.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pageSize := os.Getpagesize()
	marker := []byte("MARK00150/")
	zeroed := 0
	for off := 0; ; {
		i := bytes.Index(data[off:], marker)
		if i < 0 {
			break
		}
		pg := (off + i) / pageSize
		overwrite(t, path, int64(pg*pageSize), make([]byte, pageSize))
		zeroed++
		off = (pg + 1) * pageSize
	}
	if zeroed == 0 {
		t.Fatal("entry 150 not found in the file")
	}

	d, log := diskOpenLogged(t, path)
	ctx := context.Background()
	if s := d.Stats(); s.MovedAside != 0 {
		t.Fatalf("moved aside at open (%+v); the test wants the damage found by Get", s)
	}
	if e, err := d.Get(ctx, diskTestKey(3)); err != nil || e == nil {
		t.Fatalf("Get of an entry on a sound page = %v, %v", e, err)
	}
	e, err := d.Get(ctx, diskTestKey(150))
	if err == nil {
		t.Fatalf("Get on the zeroed page = %v, no error", e)
	}
	t.Logf("Get on the zeroed page: %v", err)
	s := d.Stats()
	if s.MovedAside != 1 || s.Panics < 1 || s.Broken != nil {
		t.Errorf("stats %+v, want one file moved aside, a panic, not broken", s)
	}
	if len(diskAside(t, path)) != 1 {
		t.Errorf("moved aside to %v", diskAside(t, path))
	}
	if l := log.String(); !strings.Contains(l, "moved aside") {
		t.Errorf("log %q", l)
	}
	for _, i := range []int{150, 3} {
		if e, err := d.Get(ctx, diskTestKey(i)); e != nil || err != nil {
			t.Errorf("Get %d from the new file = %v, %v; want a miss", i, e, err)
		}
	}
	diskWorks(t, d)
}

// TestDiskCacheDamagedPages: the header of each page in turn, then random
// bytes at random places, damaged; open, read every entry, write. The
// process must survive each; what it reads is not checked.
func TestDiskCacheDamagedPages(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	dir := t.TempDir()
	template := filepath.Join(dir, "template.db")
	diskFill(t, template, 100, 700)
	good, err := os.ReadFile(template)
	if err != nil {
		t.Fatal(err)
	}
	pageSize := os.Getpagesize()
	pages := len(good) / pageSize
	src := rand.NewChaCha8([32]byte{3})
	rng := rand.New(src)
	type damage struct {
		off  int
		data []byte
	}
	var cases [][]damage
	for pg := 2; pg < pages; pg++ {
		b := []byte{0x00, 0xff}[pg%2]
		cases = append(cases, []damage{{pg * pageSize, bytes.Repeat([]byte{b}, 16)}})
	}
	for range 30 {
		var c []damage
		for range 1 + rng.IntN(3) {
			data := make([]byte, 1+rng.IntN(512))
			src.Read(data)
			c = append(c, damage{rng.IntN(len(good) - len(data)), data})
		}
		cases = append(cases, c)
	}
	ctx := context.Background()
	var moved, panics int64
	for i, c := range cases {
		path := filepath.Join(dir, fmt.Sprintf("case%d.db", i))
		buf := bytes.Clone(good)
		for _, d := range c {
			copy(buf[d.off:], d.data)
		}
		if err := os.WriteFile(path, buf, 0o600); err != nil {
			t.Fatal(err)
		}
		d, err := Open(path)
		if err != nil {
			t.Fatalf("case %d: open: %v", i, err)
		}
		for k := range 200 {
			d.Get(ctx, diskTestKey(k))
		}
		for k := range 20 {
			if err := d.Put(ctx, diskTestKey(k), diskTestEntry(k, 700, time.Now())); err != nil {
				t.Logf("case %d: Put: %v", i, err)
			}
		}
		if err := d.Close(); err != nil {
			t.Logf("case %d: Close: %v", i, err)
		}
		s := d.Stats()
		moved += s.MovedAside
		panics += s.Panics
	}
	t.Logf("%d damaged files: %d moved aside, %d panics recovered", len(cases), moved, panics)
}

// overwrite writes data into the file at path at off.
func overwrite(t *testing.T, path string, off int64, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(data, off); err != nil {
		t.Fatal(err)
	}
}

// TestDiskCacheFault: bbolt reading memory that is not there, a fault
// that would end the process: a page past the end of a file truncated
// while it is open (SIGBUS), and a branch page that points far beyond the
// map (SIGSEGV). guard makes the fault a panic; the Get fails and the
// file is moved aside.
func TestDiskCacheFault(t *testing.T) {
	pageSize := int64(os.Getpagesize())
	for _, tc := range []struct {
		name   string
		before func(t *testing.T, path string) // before the open
		after  func(t *testing.T, path string) // after it
	}{
		{"truncated while open", nil, func(t *testing.T, path string) {
			if err := os.Truncate(path, 4*pageSize); err != nil {
				t.Fatal(err)
			}
		}},
		{"page id far out", func(t *testing.T, path string) {
			// The root page of the entries bucket is a branch page: after
			// its 16-byte header, elements of 16 bytes (pos, ksize uint32;
			// pgid uint64). Point its last child far out.
			db, err := bolt.Open(path, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			var root uint64
			var count int
			db.View(func(tx *bolt.Tx) error {
				root = uint64(tx.Bucket(diskBucket).Root())
				info, err := tx.Page(int(root))
				if err != nil || info == nil || info.Type != "branch" {
					t.Fatalf("root page %d: %+v, %v", root, info, err)
				}
				count = info.Count
				return nil
			})
			db.Close()
			elem := int64(root)*pageSize + 16 + int64(count-1)*16
			overwrite(t, path, elem+8, binary.NativeEndian.AppendUint64(nil, 1<<34))
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "robots.db")
			diskFill(t, path, 300, 600)
			if tc.before != nil {
				tc.before(t, path)
			}
			d, _ := diskOpenLogged(t, path)
			if tc.after != nil {
				tc.after(t, path)
			}
			ctx := context.Background()
			var getErr error
			for i := 299; i >= 0 && getErr == nil; i-- {
				_, getErr = d.Get(ctx, diskTestKey(i))
			}
			if getErr == nil || !strings.Contains(getErr.Error(), "panicked") {
				t.Fatalf("no Get failed with a panic: %v", getErr)
			}
			t.Log(getErr)
			if s := d.Stats(); s.MovedAside != 1 || s.Panics < 1 {
				t.Errorf("stats %+v", s)
			}
			diskWorks(t, d)
		})
	}
}
