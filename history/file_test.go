package history

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/fetch/diskcache"
	bolt "go.etcd.io/bbolt"
)

func writeFile(path string, data []byte) error { return os.WriteFile(path, data, 0o600) }

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// asideFiles returns the files that path was moved aside to.
func asideFiles(t *testing.T, path string) []string {
	t.Helper()
	m, err := filepath.Glob(path + ".corrupt-*")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// syncBuffer is a bytes.Buffer safe for a logger.
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

// fill makes a store at path with n sites of a few versions each.
func fill(t *testing.T, path string, n int) {
	t.Helper()
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range n {
		for h := range 3 {
			v := fetched(hour(h), "success", 200, fmt.Appendf(nil, "User-agent: *\nDisallow: /MARK%05d/%d/\n%s", i, h, strings.Repeat("#", 300)))
			v.Site = fmt.Sprintf("https://s%05d.example", i)
			if _, _, err := s.Record(v); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// setFormat writes marker as the format of the bbolt file at path.
func setFormat(t *testing.T, path string, marker string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketMeta)
		if err != nil {
			return err
		}
		return b.Put(keyFormat, []byte(marker))
	}); err != nil {
		t.Fatal(err)
	}
}

// works checks that s records and reads a version, and holds nothing of
// what fill wrote.
func works(t *testing.T, s *Store) {
	t.Helper()
	if _, err := s.Versions("https://s00001.example"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Versions of an old site from the new store = %v", err)
	}
	if _, added, err := s.Record(fetched(hour(0), "success", 200, bodyA)); err != nil || !added {
		t.Fatalf("Record in the new store: %v, %v", added, err)
	}
	if v, ok, err := s.At(site, hour(1)); err != nil || !ok || !bytes.Equal(v.Body, bodyA) {
		t.Fatalf("At in the new store = %+v, %v, %v", v, ok, err)
	}
}

// TestDamagedFile: a file that is truncated, corrupt or not a history
// store is moved aside at Open, kept as it was, and logged; the store
// starts empty. Never a crash.
func TestDamagedFile(t *testing.T) {
	pageSize := int64(os.Getpagesize())
	template := filepath.Join(t.TempDir(), "template.db")
	fill(t, template, 60)
	good, err := os.ReadFile(template)
	if err != nil {
		t.Fatal(err)
	}
	if len(good) < 8*int(pageSize) {
		t.Fatalf("the template has %d bytes: too small for the test", len(good))
	}
	garbage := make([]byte, 3*pageSize)
	rand.NewChaCha8([32]byte{7}).Read(garbage)
	for _, tc := range []struct {
		name   string
		damage func(t *testing.T, path string)
		reason string // in the log
	}{
		{"truncated to half", func(t *testing.T, p string) { os.Truncate(p, int64(len(good))/2/pageSize*pageSize) }, "truncated"},
		{"truncated to 3 pages", func(t *testing.T, p string) { os.Truncate(p, 3*pageSize) }, "truncated"},
		{"truncated mid-page", func(t *testing.T, p string) { os.Truncate(p, int64(len(good))-1000) }, "not a multiple of the page size"},
		{"truncated to 100 bytes", func(t *testing.T, p string) { os.Truncate(p, 100) }, "reason="},
		{"random bytes", func(t *testing.T, p string) { writeFile(p, garbage) }, "not a bbolt file"},
		{"meta pages garbage", func(t *testing.T, p string) { overwrite(t, p, 0, garbage[:2*pageSize]) }, "not a bbolt file"},
		{"text file", func(t *testing.T, p string) { writeFile(p, []byte("User-agent: *\nDisallow: /\n")) }, "reason="},
		{"disk cache", func(t *testing.T, p string) {
			os.Remove(p)
			d, err := diskcache.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			e := &fetch.Entry{URL: "https://example.com/robots.txt", Outcome: fetch.Success, Status: 200, Fetched: time.Now(), Body: bodyA}
			if err := d.Put(context.Background(), "google https://example.com", e); err != nil {
				t.Fatal(err)
			}
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
		}, "a bbolt file with a bucket"},
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
		{"extra bucket", func(t *testing.T, p string) {
			db, err := bolt.Open(p, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			db.Update(func(tx *bolt.Tx) error { _, err := tx.CreateBucket([]byte("robots.entries")); return err })
			db.Close()
		}, `bucket \"robots.entries\"`},
		{"another format marker", func(t *testing.T, p string) { setFormat(t, p, "robotskit-disk-cache-1") }, "robotskit-disk-cache-1"},
		{"format version 0", func(t *testing.T, p string) { setFormat(t, p, "robots-history/0") }, "robots-history/0"},
		{"format version not a number", func(t *testing.T, p string) { setFormat(t, p, "robots-history/2b") }, "robots-history/2b"},
		{"no format marker", func(t *testing.T, p string) {
			db, err := bolt.Open(p, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketMeta).Delete(keyFormat) })
			db.Close()
		}, "format"},
		{"a bucket of the format missing", func(t *testing.T, p string) {
			db, err := bolt.Open(p, 0o600, nil)
			if err != nil {
				t.Fatal(err)
			}
			db.Update(func(tx *bolt.Tx) error { return tx.DeleteBucket(bucketChecked) })
			db.Close()
		}, "missing"},
		{"every page header zeroed", func(t *testing.T, p string) {
			for pg := int64(2); pg*pageSize < int64(len(good)); pg++ {
				overwrite(t, p, pg*pageSize, make([]byte, 16))
			}
		}, "reason="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "history.db")
			if err := writeFile(path, good); err != nil {
				t.Fatal(err)
			}
			tc.damage(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// A read-only open moves nothing.
			if r, err := Open(path, &Options{ReadOnly: true}); err == nil {
				r.Close()
				t.Error("read-only Open of the damaged file worked")
			} else if !strings.Contains(err.Error(), path) {
				t.Errorf("read-only Open = %v, want an error naming the file", err)
			}
			if aside := asideFiles(t, path); len(aside) != 0 {
				t.Fatalf("a read-only Open moved the file to %v", aside)
			}
			log := new(syncBuffer)
			s, err := Open(path, &Options{Logger: slog.New(slog.NewTextHandler(log, nil))})
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			defer s.Close()
			aside := asideFiles(t, path)
			if len(aside) != 1 || s.MovedAside() != aside[0] {
				t.Fatalf("MovedAside() = %q, files moved aside %v", s.MovedAside(), aside)
			}
			if kept, err := os.ReadFile(s.MovedAside()); err != nil || !bytes.Equal(kept, before) {
				t.Errorf("the file moved aside is not the damaged file as it was (%v)", err)
			}
			if l := log.String(); !strings.Contains(l, "moved aside") || !strings.Contains(l, tc.reason) || !strings.Contains(l, s.MovedAside()) {
				t.Errorf("log %q, want it to say the file was moved aside, where, and %q", l, tc.reason)
			}
			works(t, s)
			// Opened again, the new file stays.
			again, err := Open(path, nil)
			if err != nil || again.MovedAside() != "" {
				t.Fatalf("Open again: %v, moved to %q", err, again.MovedAside())
			}
			if vs, err := again.Versions(site); err != nil || len(vs) != 1 {
				t.Errorf("Versions after reopening = %d, %v", len(vs), err)
			}
		})
	}
}

// TestNewerFormat: a store of a newer format is an error, for a
// read-write Open and a read-only one, and the file is left as it is.
func TestNewerFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	fill(t, path, 3)
	setFormat(t, path, "robots-history/2")
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log := new(syncBuffer)
	for _, o := range []*Options{{Logger: slog.New(slog.NewTextHandler(log, nil))}, {ReadOnly: true}} {
		s, err := Open(path, o)
		if err == nil {
			s.Close()
			t.Fatalf("Open (%+v) of a newer store worked", o)
		}
		if msg := err.Error(); !strings.Contains(msg, "newer robots") || !strings.Contains(msg, path) || !strings.Contains(msg, "robots-history/2") {
			t.Errorf("Open = %q, want it to name the file and say a newer robots wrote it", msg)
		}
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, before) {
		t.Errorf("the file changed (%v)", err)
	}
	if aside := asideFiles(t, path); len(aside) != 0 {
		t.Errorf("moved aside to %v", aside)
	}
	if log.String() != "" {
		t.Errorf("logged %q", log)
	}
	// A store whose file was replaced by a newer one between calls.
	path2 := filepath.Join(t.TempDir(), "history.db")
	s, err := Open(path2, nil)
	if err != nil {
		t.Fatal(err)
	}
	setFormat(t, path2, "robots-history/3")
	if _, _, err := s.Record(fetched(hour(0), "success", 200, bodyA)); err == nil || !strings.Contains(err.Error(), "newer robots") {
		t.Errorf("Record into a file now newer = %v", err)
	}
	if _, err := s.Sites(); err == nil || !strings.Contains(err.Error(), "newer robots") {
		t.Errorf("Sites of a file now newer = %v", err)
	}
}

// TestDamagedBetweenCalls: a file damaged after Open fails the next call
// with an error that names it; nothing is moved aside until the next
// Open.
func TestDamagedBetweenCalls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	fill(t, path, 60)
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := os.Truncate(path, fileSize(t, path)/2/int64(os.Getpagesize())*int64(os.Getpagesize())); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Versions("https://s00003.example"); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("Versions of a truncated file = %v", err)
	}
	if _, _, err := s.Record(fetched(hour(9), "success", 200, bodyA)); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Record into a truncated file = %v", err)
	}
	if aside := asideFiles(t, path); len(aside) != 0 {
		t.Errorf("moved aside mid-run to %v", aside)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Record(fetched(hour(9), "success", 200, bodyA)); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Record once the file is gone = %v, want it not to make a file without its format", err)
	}
	again, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	works(t, again)
}

// TestCorruptPage: a page garbled in a way the checks at Open cannot see
// makes bbolt panic, or read garbage, in a call. The call fails with an
// error that names the file; the process goes on; nothing is moved aside.
func TestCorruptPage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// One site of many versions, so that its bucket spans pages.
	const n = 200
	for i := range n {
		v := Version{Site: site, Time: hour(i), URL: site + "/robots.txt", Outcome: []string{"unreachable", "unavailable"}[i%2],
			Err: fmt.Sprintf("MARK%05d %s", i, strings.Repeat("e", 200))}
		if _, _, err := s.Record(v); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	pageSize := os.Getpagesize()
	zeroed := 0
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte("MARK00100 "))
		if i < 0 {
			break
		}
		pg := (off + i) / pageSize
		overwrite(t, path, int64(pg*pageSize), make([]byte, pageSize))
		zeroed++
		off = (pg + 1) * pageSize
	}
	if zeroed == 0 {
		t.Fatal("version 100 not found in the file")
	}
	if v, ok, err := s.At(site, hour(3)); err != nil || !ok || v.Seq != 4 {
		t.Errorf("At on sound pages = %d, %v, %v", v.Seq, ok, err)
	}
	_, err = s.Versions(site)
	if err == nil {
		t.Fatal("Versions over the zeroed page: no error")
	}
	t.Logf("Versions over the zeroed page: %v", err)
	if !strings.Contains(err.Error(), path) {
		t.Errorf("the error does not name the file: %v", err)
	}
	if _, _, err := s.At(site, hour(100)); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("At on the zeroed page = %v", err)
	}
	if aside := asideFiles(t, path); len(aside) != 0 || s.MovedAside() != "" {
		t.Errorf("moved aside mid-run to %v", aside)
	}
}

// TestDamagedPages: page headers, then random bytes at random places,
// damaged; open, read every site, write. The process must survive each;
// what it reads is not checked.
func TestDamagedPages(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	dir := t.TempDir()
	template := filepath.Join(dir, "template.db")
	fill(t, template, 40)
	good, err := os.ReadFile(template)
	if err != nil {
		t.Fatal(err)
	}
	pageSize := os.Getpagesize()
	src := rand.NewChaCha8([32]byte{5})
	rng := rand.New(src)
	type damage struct {
		off  int
		data []byte
	}
	var cases [][]damage
	for pg := 2; pg < len(good)/pageSize; pg++ {
		cases = append(cases, []damage{{pg * pageSize, bytes.Repeat([]byte{[]byte{0x00, 0xff}[pg%2]}, 16)}})
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
	moved, failed := 0, 0
	for i, c := range cases {
		path := filepath.Join(dir, fmt.Sprintf("case%d.db", i))
		buf := bytes.Clone(good)
		for _, d := range c {
			copy(buf[d.off:], d.data)
		}
		if err := writeFile(path, buf); err != nil {
			t.Fatal(err)
		}
		s, err := Open(path, nil)
		if err != nil {
			t.Logf("case %d: Open: %v", i, err)
			continue
		}
		if s.MovedAside() != "" {
			moved++
		}
		if _, err := s.Sites(); err != nil {
			failed++
		}
		for k := range 40 {
			name := fmt.Sprintf("https://s%05d.example", k)
			if _, err := s.Versions(name); err != nil && !errors.Is(err, ErrNotFound) {
				failed++
			}
			s.At(name, hour(1))
		}
		v := fetched(hour(5), "success", 200, bodyB)
		v.Site = "https://s00001.example"
		if _, _, err := s.Record(v); err != nil {
			failed++
		}
		s.Close()
	}
	t.Logf("%d damaged files: %d moved aside at Open, %d calls failed", len(cases), moved, failed)
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

// TestTwoStores: two Stores on one file in one process, used in turn
// and then at once, see each other's versions.
func TestTwoStores(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	a, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	r, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	steps := []struct {
		s     *Store
		v     Version
		added bool
		seq   int
	}{
		{a, fetched(hour(0), "success", 200, bodyA), true, 1},
		{b, fetched(hour(1), "success", 200, bodyA), false, 1},
		{b, fetched(hour(2), "success", 200, bodyB), true, 2},
		{a, fetched(hour(3), "success", 200, bodyB), false, 2},
		{a, fetched(hour(4), "unreachable", 0, nil), true, 3},
		{b, fetched(hour(3), "success", 200, bodyA), false, 0}, // before a's version: refused
	}
	for i, st := range steps {
		v, added, err := st.s.Record(st.v)
		if st.seq == 0 {
			if err == nil {
				t.Errorf("step %d: Record = %+v, want an error", i, v)
			}
			continue
		}
		if err != nil || added != st.added || v.Seq != st.seq {
			t.Fatalf("step %d: Record = %d, %v, %v; want %d, %v", i, v.Seq, added, err, st.seq, st.added)
		}
		for _, other := range []*Store{a, b, r} {
			if got, ok, err := other.At(site, st.v.Time); err != nil || !ok || got.Seq != st.seq {
				t.Errorf("step %d: another store's At = %d, %v, %v", i, got.Seq, ok, err)
			}
		}
	}
	// At once: goroutines of both stores record sites of their own; a
	// reader reads meanwhile.
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for g := range 4 {
		s := []*Store{a, b}[g%2]
		wg.Go(func() {
			for i := range 5 {
				v := fetched(hour(i), "success", 200, fmt.Appendf(nil, "Disallow: /%d/%d", g, i))
				v.Site = fmt.Sprintf("https://g%d.example", g)
				if _, added, err := s.Record(v); err != nil || !added {
					errs <- fmt.Errorf("goroutine %d, record %d: %v, %v", g, i, added, err)
				}
				if _, err := r.Sites(); err != nil {
					errs <- err
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	sites, err := r.Sites()
	if err != nil || len(sites) != 5 {
		t.Fatalf("Sites = %+v, %v", sites, err)
	}
	for _, s := range sites {
		if s.Site != site && s.Versions != 5 {
			t.Errorf("%s: %d versions, want 5", s.Site, s.Versions)
		}
	}
}

// The second process of TestTwoProcesses: it opens the file named by
// childEnv with bbolt, for writing or, when childReadEnv is set, for
// reading, says "locked", waits for a line on its input, holds the file
// 300 ms more, says when it lets it go, and does.
const (
	childEnv     = "HISTORY_TEST_CHILD"
	childReadEnv = "HISTORY_TEST_CHILD_READ"
	childHold    = 300 * time.Millisecond
)

// TestMain runs the test binary as the second process of
// TestTwoProcesses when childEnv names a file, and the tests otherwise.
func TestMain(m *testing.M) {
	if path := os.Getenv(childEnv); path != "" {
		os.Exit(holdFile(path))
	}
	os.Exit(m.Run())
}

// holdFile is the second process: it opens path with bbolt and holds it
// as childEnv says.
func holdFile(path string) int {
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: os.Getenv(childReadEnv) != "", Timeout: time.Minute})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Println("locked")
	bufio.NewReader(os.Stdin).ReadString('\n')
	time.Sleep(childHold)
	fmt.Printf("released %d\n", time.Now().UnixNano())
	if err := db.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// TestTwoProcesses: another process holds the file, for writing or for
// reading. A call that cannot share its lock fails after a short
// LockTimeout, saying the file is in use; a read shares a read's lock;
// with a long LockTimeout, a call waits until the other process lets
// the file go, and succeeds.
func TestTwoProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	for _, mode := range []string{"write", "read"} {
		t.Run(mode, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "history.db")
			s, err := Open(path, &Options{LockTimeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if _, _, err := s.Record(fetched(hour(0), "success", 200, bodyA)); err != nil {
				t.Fatal(err)
			}
			quick, err := Open(path, &Options{LockTimeout: 100 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer quick.Close()
			reader, err := Open(path, &Options{LockTimeout: 100 * time.Millisecond, ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer reader.Close()

			cmd := exec.Command(os.Args[0])
			cmd.Env = append(os.Environ(), childEnv+"="+path)
			if mode == "read" {
				cmd.Env = append(cmd.Env, childReadEnv+"=1")
			}
			stdin, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			out := bufio.NewReader(stdout)
			if line, err := out.ReadString('\n'); line != "locked\n" {
				t.Fatalf("the second process said %q, %v; stderr %s", line, err, stderr.String())
			}

			// While the other process holds the file.
			_, _, err = quick.Record(fetched(hour(1), "success", 200, bodyB))
			if err == nil || !strings.Contains(err.Error(), "in use by another process") || !strings.Contains(err.Error(), path) || !errors.Is(err, bolt.ErrTimeout) {
				t.Errorf("Record with a short timeout = %v, want it to say %s is in use", err, path)
			}
			vs, err := reader.Versions(site)
			if mode == "read" && (err != nil || len(vs) != 1) {
				t.Errorf("a read beside another process's read = %d versions, %v", len(vs), err)
			}
			if mode == "write" && (err == nil || !strings.Contains(err.Error(), "in use")) {
				t.Errorf("a read beside another process's write = %v, want in use", err)
			}

			// Let it go in 300 ms; meanwhile Record waits.
			if _, err := io.WriteString(stdin, "go\n"); err != nil {
				t.Fatal(err)
			}
			v, added, err := s.Record(fetched(hour(1), "success", 200, bodyB))
			done := time.Now()
			if err != nil || !added || v.Seq != 2 {
				t.Fatalf("Record after waiting = %d, %v, %v", v.Seq, added, err)
			}
			rest, _ := io.ReadAll(out)
			if err := cmd.Wait(); err != nil {
				t.Fatalf("second process: %v; stderr %s", err, stderr.String())
			}
			f := strings.Fields(string(rest))
			if len(f) < 2 || f[0] != "released" {
				t.Fatalf("the second process said %q", rest)
			}
			ns, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			if released := time.Unix(0, ns); done.Before(released) {
				t.Errorf("Record returned at %v, before the other process let the file go at %v", done, released)
			}
			if vs, err := reader.Versions(site); err != nil || len(vs) != 2 {
				t.Errorf("Versions after = %d, %v", len(vs), err)
			}
		})
	}
}
