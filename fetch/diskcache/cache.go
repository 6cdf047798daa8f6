package diskcache

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/boltfile"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// DefaultMaxBytes is the size a Cache's file may reach when
// Options.MaxBytes is 0: 256 MiB. An entry with a robots.txt of the
// median size (557 bytes) takes about 1.4 KiB of a bbolt file, and
// eviction keeps the entries between 60% and 80% of the bound: about
// 115,000 to 150,000 such entries. A crawler of more sites sets a larger
// bound.
const DefaultMaxBytes = 256 << 20

// diskMinBytes is the smallest bound a Cache accepts: 1 MiB.
const diskMinBytes = 1 << 20

// diskBucket is the bbolt bucket that holds the entries; diskMetaBucket
// holds the format marker and when expired entries were last swept.
var (
	diskBucket     = []byte("robots.entries")
	diskMetaBucket = []byte("robots.meta")
	diskFormatKey  = []byte("format")
	diskFormat     = []byte("robotskit-disk-cache-1")
	diskSweptKey   = []byte("swept")
)

// diskLockTimeout is how long Open waits for the file lock that
// another process holds, before failing rather than hanging.
const diskLockTimeout = time.Second

// diskMaxPending bounds the bytes of the Puts waiting for the writer: a
// Put beyond it waits until the writer takes them (see maxPending).
const diskMaxPending = 8 << 20

// Options are the settings of OpenWith.
type Options struct {
	// MaxBytes bounds the size of the file: 0 means DefaultMaxBytes
	// (256 MiB), a negative value no bound; a bound is at least 1 MiB.
	// The file never grows past it (bbolt's Options.MaxSize): when the
	// entries take more than 80% of it, the expired entries are deleted
	// and then the oldest (by their Fetched time, never-fetched ones
	// first) until they take 60%; when a write still does not fit, the
	// file is compacted too. An entry that still does not fit (bbolt
	// copies the pages it changes, and puts two entries at least in a
	// page, however large) is not stored, and the write reports an
	// error. A compaction needs room on the disk for a second copy of
	// the entries for a moment. A file that is larger when it is opened,
	// made under a larger bound, is brought under it soon after.
	MaxBytes int64
	// Retain sets Cache.Retain.
	Retain time.Duration
	// Logger, when not nil, is told of files moved aside, recovered
	// panics, failed writes, evictions and compactions. The cache logs
	// nothing otherwise; Stats counts the same events.
	Logger *slog.Logger
}

// A Cache is a fetch.Cache in a bbolt file, so that what a robot learned
// survives a restart: each entry is stored as its MarshalBinary bytes.
// Only one process at a time can open the file. Each Get decodes a new
// fetch.Entry, so put a fetch.MemoryCache in front of it (see
// fetch.Layered) to keep the compiled rules between calls. A Cache is
// safe for concurrent use.
//
// Put does not wait for the disk: it queues the entry, which Get sees at
// once, and one goroutine writes what has queued in one transaction and
// one sync to disk, again as soon as the last one is done. So one
// goroutine storing entries one by one is not held to one sync per Put.
// Close writes everything queued (Flush does too, without closing); a
// process that dies without Close loses the Puts of the last moments,
// the ones not yet written. The writes that reached the file are safe
// (bbolt syncs each transaction).
//
// Only cache is ever lost: the file is checked before bbolt maps it, and
// one that is truncated, corrupt, or not a Cache's (not a bbolt
// file, or a bbolt file with buckets of its own) is moved aside, renamed
// to PATH.corrupt-TIME, and a new file is made. (An empty file, or a
// bbolt file with no buckets, is simply used.) A panic or memory fault of
// bbolt on a corrupt page during a Get or a Put is recovered the same
// way: that call fails, the file is moved aside and the cache carries on
// empty. Stats counts these events and Options.Logger is told.
type Cache struct {
	// Retain is how long an entry is kept after its Fetched time; an
	// older entry is treated as missing, deleted when it is next read,
	// evicted first when the file nears its bound, and swept once a
	// day. An entry whose Fetched time is zero is kept. Zero means
	// fetch.DefaultRetain (60 days). Set it before using the cache.
	Retain time.Duration

	path     string
	maxBytes int64 // 0: no bound
	log      *slog.Logger
	// retain is Retain as last seen by Get or Put, for the writer.
	retain atomic.Int64

	// mu guards db and gen: held for reading while db is in use, for
	// writing while it is replaced (after a corruption, a compaction).
	mu     sync.RWMutex
	db     *bolt.DB
	gen    uint64
	broken atomic.Pointer[diskBroken] // set when no file could be made

	// pmu guards the queue. pending holds the Puts not yet taken by the
	// writer, flushing those it is writing; a nil value asks the writer
	// to delete the key if its entry is still expired. taken and written
	// count the batches taken and done; changed is closed and replaced
	// whenever either moves.
	pmu          sync.Mutex
	pending      map[string][]byte
	flushing     map[string][]byte
	pendingBytes int
	taken        uint64
	written      uint64
	changed      chan struct{}
	closed       bool
	werr         error // a write failure not yet reported

	kick      chan struct{}
	stop      chan struct{}
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error

	// writer-only state
	compactAfter time.Time // no compaction retried before
	sweepAfter   time.Time // no expiry sweep before

	n diskCounters
}

var _ fetch.Cache = (*Cache)(nil)

type diskBroken struct{ err error }

type diskCounters struct {
	movedAside, panics, evicted, expired, compactions, writeErrors atomic.Int64
}

// Stats are counts of what a Cache has done since it was opened, and its
// state.
type Stats struct {
	// MovedAside counts the files found truncated, corrupt or not a
	// Cache's and renamed to PATH.corrupt-TIME (at open, or after a
	// panic); Panics the panics and memory faults of bbolt recovered.
	MovedAside, Panics int64
	// Evicted counts the entries deleted to keep the file under its
	// bound, Expired those deleted for being older than Retain, and
	// Compactions the times the file was rewritten to give space back.
	Evicted, Expired, Compactions int64
	// WriteErrors counts the batches of Puts that could not be written.
	WriteErrors int64
	// Pending is the number of Puts not yet in the file; FileBytes the
	// size of the file.
	Pending   int
	FileBytes int64
	// Broken is why the cache stopped working (no new file could be
	// made after a corruption), or nil. A broken cache answers every Get
	// and Put with an error until it is opened again.
	Broken error
}

// errDiskClosed is the error of a Cache used after Close.
var errDiskClosed = errors.New("fetch: disk cache is closed")

// errDiskLocked: lockFile timed out.
var errDiskLocked = boltfile.ErrLocked

// lockFile takes the exclusive flock that bbolt takes on the file, so
// that it can be checked, and moved aside, before bbolt maps it and
// while no other process uses it (see boltfile.Lock).
func lockFile(f *os.File, timeout time.Duration) error { return boltfile.Lock(f, timeout) }

// errDiskCorrupt is what the OpenFile hook returns for a file that failed
// boltfile.Check, to stop bbolt from mapping it.
var errDiskCorrupt = errors.New("corrupt")

// errDiskForeign: a bbolt file that a Cache did not write.
var errDiskForeign = errors.New("not a disk cache")

// An InUseError is the error of opening a Cache whose file another
// process has open. It wraps bbolt's ErrTimeout.
type InUseError struct{ Path string }

func (e *InUseError) Error() string {
	return fmt.Sprintf("fetch: disk cache %s is in use by another process (bbolt lock); use another path or stop the other process", e.Path)
}

func (e *InUseError) Unwrap() error { return bolt.ErrTimeout }

// A diskPanic is a panic or memory fault of bbolt, recovered by guard.
type diskPanic struct{ v any }

func (p *diskPanic) Error() string { return fmt.Sprintf("bbolt panicked: %v", p.v) }

// guard runs fn, turning a panic, or a fault on the file's memory map (a
// page past the end of a truncated file, SIGBUS; a page id far out of
// range, SIGSEGV), into a *diskPanic error. runtime/debug.SetPanicOnFault
// makes such a fault a panic rather than the end of the process; it is
// set for this goroutine while fn runs.
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if v := recover(); v != nil {
			err = &diskPanic{v}
		}
	}()
	return fn()
}

// Open opens the cache file at path with the default options, creating
// it with mode 0600 if it does not exist; see OpenWith.
func Open(path string) (*Cache, error) {
	return OpenWith(path, Options{})
}

// OpenWith opens the cache file at path, creating it with mode 0600 if it
// does not exist. When another process has the file open, it fails after
// a second with an *InUseError. A file that is truncated, corrupt or not
// a Cache's is moved aside (see Cache) and a new one made: the error is
// nil then. Close the cache to write what is queued and release the
// file.
func OpenWith(path string, o Options) (*Cache, error) {
	maxBytes := o.MaxBytes
	switch {
	case maxBytes == 0:
		maxBytes = DefaultMaxBytes
	case maxBytes < 0:
		maxBytes = 0
	case maxBytes < diskMinBytes:
		return nil, fmt.Errorf("fetch: disk cache bound of %d bytes is under the minimum, 1 MiB", maxBytes)
	}
	c := &Cache{
		Retain:   o.Retain,
		path:     path,
		maxBytes: maxBytes,
		log:      o.Logger,
		pending:  make(map[string][]byte),
		changed:  make(chan struct{}),
		kick:     make(chan struct{}, 1),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	c.retain.Store(int64(o.Retain))
	db, err := c.open()
	if err != nil {
		return nil, err
	}
	c.db = db
	go c.writer()
	return c, nil
}

// open opens the file, moving it aside and making a new one when it is
// corrupt or not a Cache's.
func (c *Cache) open() (*bolt.DB, error) {
	db, moved, err := c.openOnce()
	if moved && err == nil {
		db, _, err = c.openOnce()
	}
	if err == nil && db == nil {
		err = fmt.Errorf("fetch: open disk cache %s: a new file is corrupt too", c.path)
	}
	return db, err
}

// openOnce opens the file once. A file that fails the checks is moved
// aside (moved is true): the next call makes a new one.
func (c *Cache) openOnce() (db *bolt.DB, moved bool, err error) {
	var (
		f   *os.File // the file bbolt opened, locked
		bad error    // why boltfile.Check rejected it
	)
	opts := &bolt.Options{
		Timeout: diskLockTimeout,
		MaxSize: int(c.maxBytes),
		// Lock and check the file before bbolt maps it.
		OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
			fh, err := os.OpenFile(name, flag, perm)
			if err != nil {
				return nil, err
			}
			if err := lockFile(fh, diskLockTimeout); err != nil {
				fh.Close()
				return nil, err
			}
			f = fh
			if bad = boltfile.Check(fh); bad != nil {
				return nil, errDiskCorrupt
			}
			return fh, nil
		},
	}
	err = guard(func() (err error) {
		db, err = bolt.Open(c.path, 0o600, opts)
		return err
	})
	var p *diskPanic
	switch {
	case errors.Is(err, errDiskLocked) || errors.Is(err, bolt.ErrTimeout):
		return nil, false, &InUseError{Path: c.path}
	case bad != nil:
		// f is open and locked: bbolt never had it.
		return nil, true, c.moveAside(f, nil, bad)
	case errors.As(err, &p):
		// bbolt panicked inside Open and never closed f (nor unmapped
		// it: the map is lost, a few pages of address space).
		c.n.panics.Add(1)
		return nil, true, c.moveAside(f, nil, err)
	case errors.Is(err, bolt.ErrInvalid) || errors.Is(err, bolt.ErrVersionMismatch) || errors.Is(err, bolt.ErrChecksum):
		// bbolt has closed the file.
		return nil, true, c.moveAside(nil, nil, err)
	case err != nil:
		return nil, false, fmt.Errorf("fetch: open disk cache %s: %w", c.path, err)
	}
	db.AllocSize = c.allocSize()
	// The first transactions read the root page and the bucket's: a
	// corrupt one panics here rather than in a Get.
	err = guard(func() error { return ensureFormat(db) })
	switch {
	case err == nil:
		return db, false, nil
	case errors.As(err, &p):
		c.n.panics.Add(1)
		fallthrough
	case errors.Is(err, errDiskForeign):
		return nil, true, c.moveAside(nil, db, err)
	}
	closeDB(db)
	return nil, false, fmt.Errorf("fetch: open disk cache %s: %w", c.path, err)
}

// diskAllocSize is bbolt's default AllocSize.
const diskAllocSize = 16 << 20

// allocSize is the DB.AllocSize of the cache's file. bbolt grows a file
// to the next power of two up to AllocSize (16 MiB), then by AllocSize
// at a time; under a bound, a smaller step, a sixteenth of the bound (at
// least 64 KiB), lets the file come closer to it.
func (c *Cache) allocSize() int {
	if c.maxBytes <= 0 {
		return diskAllocSize
	}
	pg := int64(os.Getpagesize())
	return int(max(64<<10, min(diskAllocSize, c.maxBytes/16)) / pg * pg)
}

// ensureFormat checks that db holds a Cache: its two buckets, or none
// (a new file), and the format marker; and makes what is missing. A file
// written by an earlier version has only the entries bucket.
func ensureFormat(db *bolt.DB) error {
	complete := false
	err := db.View(func(tx *bolt.Tx) error {
		err := tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
			if !bytes.Equal(name, diskBucket) && !bytes.Equal(name, diskMetaBucket) {
				return fmt.Errorf("%w: a bbolt file with a bucket %q", errDiskForeign, name)
			}
			return nil
		})
		if err != nil {
			return err
		}
		entries, meta := tx.Bucket(diskBucket), tx.Bucket(diskMetaBucket)
		if meta != nil {
			if f := meta.Get(diskFormatKey); !bytes.Equal(f, diskFormat) {
				return fmt.Errorf("%w: format %q, want %q", errDiskForeign, f, diskFormat)
			}
		}
		if entries != nil {
			// Read the bucket's root page now.
			entries.Cursor().First()
		}
		complete = entries != nil && meta != nil
		return nil
	})
	if err != nil || complete {
		return err
	}
	return db.Update(func(tx *bolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(diskBucket); err != nil {
			return err
		}
		meta, err := tx.CreateBucketIfNotExists(diskMetaBucket)
		if err != nil {
			return err
		}
		return meta.Put(diskFormatKey, diskFormat)
	})
}

// moveAside renames the file to PATH.corrupt-TIME, closing f or db (the
// file open and locked), or, when both are nil, locking it again first,
// so that a file another process has just opened is never moved.
func (c *Cache) moveAside(f *os.File, db *bolt.DB, reason error) error {
	if f == nil && db == nil {
		fh, err := os.OpenFile(c.path, os.O_RDWR, 0)
		if err != nil {
			return fmt.Errorf("fetch: disk cache %s is unusable (%v) and cannot be opened to move it aside: %w", c.path, reason, err)
		}
		if err := lockFile(fh, diskLockTimeout); err != nil {
			fh.Close()
			if errors.Is(err, errDiskLocked) {
				return &InUseError{Path: c.path}
			}
			return fmt.Errorf("fetch: disk cache %s: %w", c.path, err)
		}
		f = fh
	}
	release := func() {
		if f != nil {
			f.Close()
		}
		if db != nil {
			closeDB(db)
		}
	}
	to := boltfile.AsideName(c.path, time.Now())
	if !boltfile.RenameWhileOpen {
		release()
	}
	err := os.Rename(c.path, to)
	if boltfile.RenameWhileOpen {
		release()
	}
	if err != nil {
		c.log.Error("fetch: disk cache file is unusable and cannot be moved aside", "path", c.path, "reason", reason.Error(), "error", err.Error())
		return fmt.Errorf("fetch: disk cache %s is unusable (%v) and cannot be moved aside: %w", c.path, reason, err)
	}
	c.n.movedAside.Add(1)
	c.log.Warn("fetch: disk cache file moved aside; starting an empty cache", "path", c.path, "to", to, "reason", reason.Error())
	return nil
}

// closeDB closes db, giving up after a few seconds: after a panic inside
// bbolt, its locks might not all have been released.
func closeDB(db *bolt.DB) error {
	done := make(chan error, 1)
	go func() { done <- guard(db.Close) }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		return errors.New("fetch: disk cache: closing bbolt timed out")
	}
}

// view and update run fn on the current file. A panic is recovered: the
// file is moved aside and replaced (see reset), and the call fails.
func (c *Cache) view(fn func(*bolt.Tx) error) error {
	return c.run(false, fn)
}

func (c *Cache) update(fn func(*bolt.Tx) error) error {
	return c.run(true, fn)
}

func (c *Cache) run(write bool, fn func(*bolt.Tx) error) error {
	c.mu.RLock()
	db, gen := c.db, c.gen
	if db == nil {
		c.mu.RUnlock()
		return c.brokenErr()
	}
	err := guard(func() error {
		if write {
			return db.Update(fn)
		}
		return db.View(fn)
	})
	c.mu.RUnlock()
	if p := (*diskPanic)(nil); errors.As(err, &p) {
		c.reset(gen, err)
	}
	return err
}

// reset replaces the file of generation gen, which has just panicked,
// with a new one, and moves it aside. When no new file can be made the
// cache is broken.
func (c *Cache) reset(gen uint64, cause error) {
	c.n.panics.Add(1)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || c.db == nil {
		return // done already
	}
	old := c.db
	c.db = nil
	c.gen++
	err := c.moveAside(nil, old, cause)
	var db *bolt.DB
	if err == nil {
		db, err = c.open()
	}
	if err != nil {
		c.broken.Store(&diskBroken{err})
		c.log.Error("fetch: disk cache broken", "path", c.path, "error", err.Error())
		return
	}
	c.db = db
}

func (c *Cache) brokenErr() error {
	if b := c.broken.Load(); b != nil {
		return b.err
	}
	return errDiskClosed
}

// Close writes what is queued and closes the file. The cache cannot be
// used afterwards. It returns the error of a write that failed and was
// not reported yet.
func (c *Cache) Close() error {
	c.closeOnce.Do(func() {
		c.pmu.Lock()
		c.closed = true
		c.pmu.Unlock()
		close(c.stop)
		<-c.done
		c.mu.Lock()
		db := c.db
		c.db = nil
		c.mu.Unlock()
		c.pmu.Lock()
		err := c.werr
		c.werr = nil
		c.pmu.Unlock()
		if db != nil {
			err = errors.Join(err, closeDB(db))
		}
		c.closeErr = err
	})
	return c.closeErr
}

// Flush waits until every Put made before it is in the file, synced to
// disk. It returns the error of a write that failed and was not reported
// yet.
func (c *Cache) Flush() error {
	c.pmu.Lock()
	defer c.pmu.Unlock()
	if c.closed {
		return errDiskClosed
	}
	target := c.taken
	if len(c.pending) > 0 {
		target++
	}
	for c.written < target {
		ch := c.changed
		c.pmu.Unlock()
		c.kickWriter()
		<-ch
		c.pmu.Lock()
	}
	err := c.werr
	c.werr = nil
	return err
}

// Stats returns what the cache has done since it was opened.
func (c *Cache) Stats() Stats {
	s := Stats{
		MovedAside:  c.n.movedAside.Load(),
		Panics:      c.n.panics.Load(),
		Evicted:     c.n.evicted.Load(),
		Expired:     c.n.expired.Load(),
		Compactions: c.n.compactions.Load(),
		WriteErrors: c.n.writeErrors.Load(),
	}
	c.pmu.Lock()
	s.Pending = len(c.pending) + len(c.flushing)
	c.pmu.Unlock()
	if fi, err := os.Stat(c.path); err == nil {
		s.FileBytes = fi.Size()
	}
	if b := c.broken.Load(); b != nil {
		s.Broken = b.err
	}
	return s
}

// Get returns the entry stored under key, or nil when there is none or
// it is older than Retain. An entry that cannot be decoded is an error;
// so is a corrupt file, which is then replaced by an empty one.
func (c *Cache) Get(ctx context.Context, key string) (*fetch.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	retain := c.Retain
	c.retain.Store(int64(retain))
	c.pmu.Lock()
	if c.closed {
		c.pmu.Unlock()
		return nil, errDiskClosed
	}
	v, queued := c.pending[key]
	if !queued {
		v, queued = c.flushing[key]
	}
	c.pmu.Unlock()
	e := new(fetch.Entry)
	if queued {
		// v is immutable once queued.
		if v == nil {
			return nil, nil // queued for deletion
		}
		if err := e.UnmarshalBinary(v); err != nil {
			return nil, fmt.Errorf("fetch: disk cache get %q: %w", key, err)
		}
		if expired(e, retain, time.Now()) {
			c.enqueue(context.Background(), key, nil, v)
			return nil, nil
		}
		return e, nil
	}
	found := false
	err := c.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(diskBucket)
		if b == nil {
			return errors.New("no bucket")
		}
		v := b.Get([]byte(key))
		if v == nil {
			return nil
		}
		found = true
		// v lives only as long as tx; UnmarshalBinary copies.
		return e.UnmarshalBinary(v)
	})
	if err != nil {
		return nil, fmt.Errorf("fetch: disk cache get %q: %w", key, err)
	}
	if !found {
		return nil, nil
	}
	if expired(e, retain, time.Now()) {
		// The writer deletes it if it is still expired then; it reads
		// as missing either way.
		c.enqueue(context.Background(), key, nil, nil)
		return nil, nil
	}
	return e, nil
}

// Put queues e to be stored under key; Get sees it at once, and the file
// soon after (see Cache). Put waits only when 8 MiB of entries (or a
// sixteenth of the bound, if less) are already queued, until the writer
// takes them, or ctx is done. It returns the error of an earlier write
// that failed and was not reported yet.
func (c *Cache) Put(ctx context.Context, key string, e *fetch.Entry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.retain.Store(int64(c.Retain))
	switch {
	case key == "":
		return fmt.Errorf("fetch: disk cache put: %w", bolt.ErrKeyRequired)
	case len(key) > bolt.MaxKeySize:
		return fmt.Errorf("fetch: disk cache put: %w", bolt.ErrKeyTooLarge)
	}
	v, err := e.MarshalBinary()
	if err != nil {
		return err
	}
	if err := c.enqueue(ctx, key, v, nil); err != nil {
		return fmt.Errorf("fetch: disk cache put %q: %w", key, err)
	}
	return nil
}

// enqueue queues v under key for the writer. A nil v asks for the
// deletion of the entry if it is expired then; it replaces a queued Put
// only if that is seen, the expired value Get found queued.
func (c *Cache) enqueue(ctx context.Context, key string, v, seen []byte) error {
	c.pmu.Lock()
	for {
		if c.closed {
			c.pmu.Unlock()
			return errDiskClosed
		}
		if b := c.broken.Load(); b != nil {
			c.pmu.Unlock()
			return b.err
		}
		if v == nil {
			// A deletion never waits, and never undoes a newer Put.
			if cur, ok := c.pending[key]; ok && (len(cur) == 0 || len(seen) == 0 || &cur[0] != &seen[0]) {
				c.pmu.Unlock()
				return nil
			}
			break
		}
		if len(c.pending) == 0 || c.pendingBytes+len(key)+len(v) <= c.maxPending() {
			break
		}
		ch := c.changed
		c.pmu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		c.pmu.Lock()
	}
	if old, ok := c.pending[key]; ok {
		c.pendingBytes -= len(key) + len(old)
	}
	c.pending[key] = v
	c.pendingBytes += len(key) + len(v)
	var werr error
	if v != nil {
		// Reported to a Put, not to the Get that queued a deletion.
		werr, c.werr = c.werr, nil
	}
	c.pmu.Unlock()
	c.kickWriter()
	return werr
}

// maxPending bounds the bytes queued, and so the size of a batch: 8 MiB,
// or a sixteenth of the bound if that is less, so that a batch always
// fits in the file with room to spare.
func (c *Cache) maxPending() int {
	if c.maxBytes > 0 {
		return int(min(diskMaxPending, c.maxBytes/16))
	}
	return diskMaxPending
}

func (c *Cache) kickWriter() {
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// signal wakes those waiting on changed; pmu is held.
func (c *Cache) signal() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// writer is the goroutine that writes the queue to the file, one batch
// at a time, and keeps the file under its bound.
func (c *Cache) writer() {
	defer close(c.done)
	c.maintain(true)
	for {
		stopping := false
		select {
		case <-c.kick:
		case <-c.stop:
			stopping = true
		}
		for c.writeBatch() {
			// Each batch may bring the file to its bound.
			c.maintain(false)
		}
		if stopping {
			return
		}
	}
}

// writeBatch writes what is queued in one transaction, and reports
// whether there was anything.
func (c *Cache) writeBatch() bool {
	c.pmu.Lock()
	if len(c.pending) == 0 {
		c.pmu.Unlock()
		return false
	}
	batch := c.pending
	c.flushing = batch
	c.pending = make(map[string][]byte, len(batch))
	c.pendingBytes = 0
	c.taken++
	c.signal()
	c.pmu.Unlock()

	err := c.write(batch)

	c.pmu.Lock()
	c.flushing = nil
	c.written++
	if err != nil && c.werr == nil {
		c.werr = err
	}
	c.signal()
	c.pmu.Unlock()
	return true
}

// write stores batch. A panic has made a new file: the batch is written
// there. A batch that would grow the file past its bound makes room
// first, and is then written entry by entry if it still does not fit.
func (c *Cache) write(batch map[string][]byte) error {
	keys := make([]string, 0, len(batch))
	size := 0
	for k, v := range batch {
		keys = append(keys, k)
		size += len(k) + len(v)
	}
	// In key order, bbolt writes fewer pages.
	slices.Sort(keys)
	err := c.writeKeys(batch, keys)
	if p := (*diskPanic)(nil); errors.As(err, &p) && c.broken.Load() == nil {
		err = c.writeKeys(batch, keys)
	}
	if errors.Is(err, berrors.ErrMaxSizeReached) {
		c.makeRoom(size)
		err = c.writeKeys(batch, keys)
		if errors.Is(err, berrors.ErrMaxSizeReached) {
			failed := 0
			for _, k := range keys {
				if c.writeKeys(batch, []string{k}) != nil {
					failed++
				}
			}
			err = nil
			if failed > 0 {
				err = fmt.Errorf("%d of %d entries do not fit under the bound of %d bytes: %w", failed, len(keys), c.maxBytes, berrors.ErrMaxSizeReached)
			}
		}
	}
	if err != nil {
		c.n.writeErrors.Add(1)
		c.log.Error("fetch: disk cache write failed", "path", c.path, "entries", len(keys), "bytes", size, "error", err.Error())
		return fmt.Errorf("fetch: disk cache %s: writing %d entries: %w", c.path, len(keys), err)
	}
	return nil
}

// writeKeys stores the entries of batch under keys in one transaction.
func (c *Cache) writeKeys(batch map[string][]byte, keys []string) error {
	retain := time.Duration(c.retain.Load())
	now := time.Now()
	var deleted int64
	err := c.update(func(tx *bolt.Tx) error {
		deleted = 0
		b := tx.Bucket(diskBucket)
		if b == nil {
			return errors.New("no bucket")
		}
		for _, k := range keys {
			v := batch[k]
			if v != nil {
				if err := b.Put([]byte(k), v); err != nil {
					return err
				}
				continue
			}
			// Deleted only if still expired: it may have been replaced
			// since the Get that found it expired.
			if old := b.Get([]byte(k)); old != nil {
				if t, ok := fetch.EncodedFetched(old); !ok || expiredAt(t, retain, now) {
					if err := b.Delete([]byte(k)); err != nil {
						return err
					}
					deleted++
				}
			}
		}
		return nil
	})
	if err == nil {
		c.n.expired.Add(deleted)
	}
	return err
}

// expired reports whether e is older than retain (fetch.DefaultRetain
// when 0) at now. An entry that was never fetched has no age and is kept.
func expired(e *fetch.Entry, retain time.Duration, now time.Time) bool {
	return expiredAt(e.Fetched, retain, now)
}

// expiredAt is expired for an entry fetched at fetched.
func expiredAt(fetched time.Time, retain time.Duration, now time.Time) bool {
	if retain <= 0 {
		retain = fetch.DefaultRetain
	}
	return !fetched.IsZero() && now.Sub(fetched) > retain
}
