package history

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/robotskit/robots/internal/boltfile"
	bolt "go.etcd.io/bbolt"
)

// errForeign: a bbolt file that is not a history store.
var errForeign = errors.New("not a history store")

// errCorrupt is what the OpenFile hook returns for a file that failed
// boltfile.Check, to stop bbolt from mapping it; errEmpty, for an empty
// file opened for reading (bbolt would try to write a new one in it).
var (
	errCorrupt = errors.New("corrupt")
	errEmpty   = errors.New("empty file")
)

// A damagedError is a file found damaged during a call, or by a
// read-only Open.
type damagedError struct {
	path   string
	reason error
}

func (e *damagedError) Error() string {
	return fmt.Sprintf("history: %s is damaged: %v", e.path, e.reason)
}

func (e *damagedError) Unwrap() error { return e.reason }

// A foreignError is a file that is not a history store (errForeign), or
// a store of a newer format (newer).
type foreignError struct {
	path   string
	reason error
	newer  string // the newer format, when it is one
}

func (e *foreignError) Error() string {
	if e.newer != "" {
		return fmt.Sprintf("history: %s was written by a newer robots (format %q; this one reads %q): upgrade robots, or use another file", e.path, e.newer, formatMarker)
	}
	return fmt.Sprintf("history: %s: %v", e.path, e.reason)
}

func (e *foreignError) Unwrap() error { return e.reason }

func (s *Store) damaged(reason error) error { return &damagedError{s.path, reason} }
func (s *Store) foreign(reason error) error { return &foreignError{path: s.path, reason: reason} }

// isNewer reports whether err is a store of a newer format.
func isNewer(err error) bool {
	var f *foreignError
	return errors.As(err, &f) && f.newer != ""
}

// checkFormat checks the format marker: this format, or a newer version
// of it (an error that says so), or another (errForeign).
func (s *Store) checkFormat(m []byte) error {
	if bytes.Equal(m, formatMarker) {
		return nil
	}
	if v, ok := bytes.CutPrefix(m, []byte(formatName+"/")); ok && len(v) <= 9 {
		if n, err := strconv.Atoi(string(v)); err == nil && n > formatVersion && string(v) == strconv.Itoa(n) {
			return &foreignError{path: s.path, reason: errForeign, newer: string(m)}
		}
	}
	return s.foreign(fmt.Errorf("%w: format %q, want %q", errForeign, trim(m), formatMarker))
}

// A panicError is a panic or memory fault of bbolt, recovered by guard.
type panicError struct{ v any }

func (p *panicError) Error() string { return fmt.Sprintf("bbolt panicked: %v", p.v) }

// guard runs fn, turning a panic, or a fault on the file's memory map (a
// page past the end of a truncated file, SIGBUS; a page id far out of
// range, SIGSEGV), into a *panicError. runtime/debug.SetPanicOnFault
// makes such a fault a panic rather than the end of the process; it is
// set for this goroutine while fn runs.
func guard(fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{v}
		}
	}()
	return fn()
}

// openDB opens the file with bbolt, for writing or for reading, locked
// and checked before bbolt maps it; create lets bbolt create a missing
// file. held is the file, open and locked, when bbolt does not have it
// although it was opened: bad says why boltfile.Check rejected it (err is
// then errCorrupt), or bbolt panicked (a *panicError). err is errEmpty
// for an empty file opened for reading.
func (s *Store) openDB(write, create bool) (db *bolt.DB, held *os.File, bad, err error) {
	var given *os.File
	opts := &bolt.Options{
		Timeout:  s.timeout,
		ReadOnly: !write,
		OpenFile: func(name string, flag int, perm os.FileMode) (*os.File, error) {
			if !create {
				flag &^= os.O_CREATE
			}
			fh, err := os.OpenFile(name, flag, perm)
			if err != nil {
				return nil, err
			}
			lock := boltfile.Lock
			if !write {
				lock = boltfile.LockShared
			}
			if err := lock(fh, s.timeout); err != nil {
				fh.Close()
				return nil, err
			}
			if bad = boltfile.Check(fh); bad != nil {
				held = fh
				return nil, errCorrupt
			}
			if !write {
				if fi, err := fh.Stat(); err != nil || fi.Size() == 0 {
					fh.Close()
					if err != nil {
						return nil, err
					}
					return nil, errEmpty
				}
			}
			given = fh
			return fh, nil
		},
	}
	err = guard(func() (err error) {
		db, err = bolt.Open(s.path, 0o600, opts)
		return err
	})
	if p := (*panicError)(nil); errors.As(err, &p) {
		// bbolt panicked inside Open and never closed the file (nor
		// unmapped it: a few pages of address space are lost).
		db, held = nil, given
	}
	return db, held, bad, err
}

// openError is the error of an open that failed for a reason other than
// the file's content.
func (s *Store) openError(err error) error {
	if errors.Is(err, boltfile.ErrLocked) || errors.Is(err, bolt.ErrTimeout) {
		return fmt.Errorf("history: %s is in use by another process (waited %v for its lock): %w", s.path, s.timeout, bolt.ErrTimeout)
	}
	return fmt.Errorf("history: open %s: %w", s.path, err)
}

// invalid reports whether bbolt found the file invalid at open.
func invalid(err error) bool {
	return errors.Is(err, bolt.ErrInvalid) || errors.Is(err, bolt.ErrVersionMismatch) || errors.Is(err, bolt.ErrChecksum)
}

// openWrite is Open for writing: it makes the file a history store,
// moving a damaged or foreign one aside first.
func (s *Store) openWrite() error {
	moved, err := s.openOnce()
	if err == nil && moved {
		moved, err = s.openOnce()
		if err == nil && moved {
			err = fmt.Errorf("history: %s: a new file is damaged too", s.path)
		}
	}
	return err
}

// openOnce opens the file once, checks it and writes the format into a
// new one. A file that fails the checks is moved aside (moved is true):
// the next call makes a new one.
func (s *Store) openOnce() (moved bool, err error) {
	db, held, bad, err := s.openDB(true, true)
	var p *panicError
	switch {
	case bad != nil:
		return true, s.moveAside(held, nil, bad)
	case errors.As(err, &p):
		return true, s.moveAside(held, nil, err)
	case invalid(err):
		// bbolt has closed the file.
		return true, s.moveAside(nil, nil, err)
	case err != nil:
		return false, s.openError(err)
	}
	// The first transactions read the root page and the buckets': a
	// corrupt one panics here rather than in a later call.
	err = guard(func() error { return s.ensureFormat(db, true) })
	switch {
	case err == nil:
		if err := closeDB(db); err != nil {
			return false, fmt.Errorf("history: close %s: %w", s.path, err)
		}
		return false, nil
	case isNewer(err):
	case errors.As(err, &p), errors.Is(err, errForeign), errors.As(err, new(*damagedError)):
		return true, s.moveAside(nil, db, err)
	default:
		err = fmt.Errorf("history: open %s: %w", s.path, err)
	}
	closeDB(db)
	return false, err
}

// openReadOnly is Open for reading: it checks the file and moves
// nothing.
func (s *Store) openReadOnly() error {
	db, held, bad, err := s.openDB(false, false)
	if held != nil {
		held.Close()
	}
	var p *panicError
	switch {
	case errors.Is(err, errEmpty):
		return nil
	case bad != nil:
		return s.damaged(fmt.Errorf("%v (a read-only open does not move it aside)", bad))
	case errors.As(err, &p), invalid(err):
		return s.damaged(fmt.Errorf("%v (a read-only open does not move it aside)", err))
	case err != nil:
		return s.openError(err)
	}
	err = guard(func() error { return s.ensureFormat(db, false) })
	closeDB(db)
	if errors.As(err, &p) {
		return s.damaged(err)
	}
	return err
}

// ensureFormat checks that db holds a history store: the buckets of the
// format and nothing else, and the format marker; or no bucket at all (a
// new file), in which case, when write is set, it makes them.
func (s *Store) ensureFormat(db *bolt.DB, write bool) error {
	empty := false
	err := db.View(func(tx *bolt.Tx) error {
		err := tx.ForEach(func(name []byte, _ *bolt.Bucket) error {
			switch {
			case bytes.Equal(name, bucketMeta), bytes.Equal(name, bucketSites),
				bytes.Equal(name, bucketChecked), bytes.Equal(name, bucketBodies):
				return nil
			}
			return s.foreign(fmt.Errorf("%w: a bbolt file with a bucket %q", errForeign, trim(name)))
		})
		if err != nil {
			return err
		}
		t, err := s.layout(tx)
		if err != nil {
			return err
		}
		if t == nil {
			empty = true
			return nil
		}
		// Read the buckets' root pages now.
		for _, b := range []*bolt.Bucket{t.sites, t.checked, t.bodies} {
			b.Cursor().First()
		}
		return nil
	})
	if err != nil || !empty || !write {
		return err
	}
	return db.Update(func(tx *bolt.Tx) error {
		_, err := create(tx)
		return err
	})
}

// run runs fn in one transaction on the file, opened for it and closed
// after: for writing (an exclusive lock) or reading (a shared one). A
// read of an empty file runs fn with a nil tx. A file found damaged
// fails the call and is left where it is: the next Open checks it again.
func (s *Store) run(write bool, fn func(tx *bolt.Tx) error) error {
	db, held, bad, err := s.openDB(write, false)
	if held != nil {
		held.Close()
	}
	var p *panicError
	switch {
	case errors.Is(err, errEmpty):
		return fn(nil)
	case bad != nil:
		return s.damaged(bad)
	case errors.As(err, &p), invalid(err):
		return s.damaged(err)
	case err != nil:
		return s.openError(err)
	}
	err = guard(func() error {
		if write {
			return db.Update(fn)
		}
		return db.View(fn)
	})
	cerr := closeDB(db)
	if errors.As(err, &p) {
		return s.damaged(err)
	}
	if err == nil && cerr != nil {
		err = fmt.Errorf("history: close %s: %w", s.path, cerr)
	}
	return err
}

// moveAside renames the file to PATH.corrupt-TIME, closing f or db (the
// file open and locked), or, when both are nil, locking it again first,
// so that a file another process has just opened is never moved.
func (s *Store) moveAside(f *os.File, db *bolt.DB, reason error) error {
	if f == nil && db == nil {
		fh, err := os.OpenFile(s.path, os.O_RDWR, 0)
		if err != nil {
			return fmt.Errorf("history: %s is unusable (%v) and cannot be opened to move it aside: %w", s.path, reason, err)
		}
		if err := boltfile.Lock(fh, s.timeout); err != nil {
			fh.Close()
			return s.openError(err)
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
	to := boltfile.AsideName(s.path, time.Now())
	if !boltfile.RenameWhileOpen {
		release()
	}
	err := os.Rename(s.path, to)
	if boltfile.RenameWhileOpen {
		release()
	}
	if err != nil {
		s.log.Error("history: store file is unusable and cannot be moved aside", "path", s.path, "reason", reason.Error(), "error", err.Error())
		return fmt.Errorf("history: %s is unusable (%v) and cannot be moved aside: %w", s.path, reason, err)
	}
	s.aside = to
	s.log.Warn("history: store file moved aside; starting an empty store", "path", s.path, "to", to, "reason", reason.Error())
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
		return errors.New("closing bbolt timed out")
	}
}
