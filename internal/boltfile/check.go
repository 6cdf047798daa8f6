package boltfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"time"
)

// The layout of a bbolt file, from bbolt's source (internal/common:
// page.go, meta.go, types.go): pages of PageSize bytes; pages 0 and 1
// are the two meta pages, written in turn; every page starts with a
// 16-byte header (id uint64, flags uint16, count uint16, overflow
// uint32), in the machine's byte order; a meta page's header is followed
// by the meta: magic, version, page size and flags (uint32 each), the
// root bucket (root page id, sequence), the freelist's page id, the high
// water mark (pages in use), the transaction id and an FNV-64a checksum
// of the fields before it.
const (
	boltMagic        = 0xED0CDAED
	boltVersion      = 2
	boltHeaderSize   = 16
	boltMetaSize     = 64
	boltBranchPage   = 0x01
	boltLeafPage     = 0x02
	boltMetaPage     = 0x04
	boltFreelistPage = 0x10
	boltNoFreelist   = ^uint64(0)
)

// A boltMeta is the part of a meta page that Check reads.
type boltMeta struct {
	pageSize       uint32
	root, freelist uint64
	pgid, txid     uint64
}

// ErrNotBolt is the reason Check gives for a file that is not a bbolt
// file at all.
var ErrNotBolt = errors.New("not a bbolt file")

// parseBoltMeta decodes the meta page at the start of p, or says why it
// is not one.
func parseBoltMeta(p []byte) (boltMeta, error) {
	if len(p) < boltHeaderSize+boltMetaSize {
		return boltMeta{}, ErrNotBolt
	}
	le := binary.NativeEndian
	m := p[boltHeaderSize : boltHeaderSize+boltMetaSize]
	if le.Uint32(m[0:]) != boltMagic {
		return boltMeta{}, ErrNotBolt
	}
	if v := le.Uint32(m[4:]); v != boltVersion {
		return boltMeta{}, fmt.Errorf("bbolt version %d, want %d", v, boltVersion)
	}
	h := fnv.New64a()
	h.Write(m[:56])
	if le.Uint64(m[56:]) != h.Sum64() {
		return boltMeta{}, errors.New("meta page checksum mismatch")
	}
	return boltMeta{
		pageSize: le.Uint32(m[8:]),
		root:     le.Uint64(m[16:]),
		freelist: le.Uint64(m[32:]),
		pgid:     le.Uint64(m[40:]),
		txid:     le.Uint64(m[48:]),
	}, nil
}

// Check checks, with reads only, that f holds a bbolt file that
// bbolt can map without reading past its end: bbolt maps more than the
// file holds, and a page it reads beyond the end of the file kills the
// process with SIGBUS (a truncated file did). It checks the size (a
// multiple of the page size, at least four pages), both meta pages
// (magic, version, checksum), that the meta page bbolt will use counts
// no more pages than the file holds, and the headers of the freelist
// page and of the root page it names, and every page id on the
// freelist. An empty file passes: bbolt writes a new one.
//
// It cannot vouch for the pages below the root: a user of the file
// recovers from the panics and faults that a corrupt one causes (with
// runtime/debug.SetPanicOnFault and recover). A file written with
// bbolt's NoFreelistSync fails: its users do not write such files.
//
// Lock the file first (see Lock), so that no other process writes it
// while it is read.
func Check(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	if size == 0 {
		return nil
	}
	first := make([]byte, min(size, 4096))
	if _, err := f.ReadAt(first, 0); err != nil {
		return err
	}
	m0, err0 := parseBoltMeta(first)
	pageSize := int64(0)
	if err0 == nil {
		pageSize = int64(m0.pageSize)
	} else {
		// As bbolt does: the second meta page is at the page size, which
		// the first did not tell.
		for ps := int64(1024); ps <= 1<<16 && ps+boltHeaderSize+boltMetaSize <= size; ps *= 2 {
			buf := make([]byte, boltHeaderSize+boltMetaSize)
			if _, err := f.ReadAt(buf, ps); err != nil {
				return err
			}
			if m, err := parseBoltMeta(buf); err == nil && int64(m.pageSize) == ps {
				pageSize = ps
				break
			}
		}
	}
	if pageSize == 0 {
		if errors.Is(err0, ErrNotBolt) {
			return ErrNotBolt
		}
		return fmt.Errorf("no valid meta page: %v", err0)
	}
	if pageSize < 1024 || pageSize > 1<<16 || pageSize&(pageSize-1) != 0 {
		return fmt.Errorf("page size %d", pageSize)
	}
	if size%pageSize != 0 {
		return fmt.Errorf("size %d is not a multiple of the page size %d (truncated?)", size, pageSize)
	}
	if size < 4*pageSize {
		return fmt.Errorf("size %d is under four pages of %d bytes (truncated?)", size, pageSize)
	}
	page := func(id uint64, n int64) ([]byte, error) {
		buf := make([]byte, n)
		_, err := f.ReadAt(buf, int64(id)*pageSize)
		if err == io.EOF {
			err = fmt.Errorf("page %d is past the end", id)
		}
		return buf, err
	}
	p1, err := page(1, boltHeaderSize+boltMetaSize)
	if err != nil {
		return err
	}
	m1, err1 := parseBoltMeta(p1)
	if err0 == nil && err1 == nil && m0.pageSize != m1.pageSize {
		return fmt.Errorf("meta pages disagree on the page size: %d and %d", m0.pageSize, m1.pageSize)
	}
	// bbolt uses the valid meta page of the higher transaction id.
	m := m0
	switch {
	case err0 != nil && err1 != nil:
		return fmt.Errorf("no valid meta page: %v", err0)
	case err0 != nil, err1 == nil && m1.txid > m0.txid:
		m = m1
	}
	if int64(m.pageSize) != pageSize {
		return fmt.Errorf("meta page says page size %d, the file %d", m.pageSize, pageSize)
	}
	pages := uint64(size / pageSize)
	if m.pgid < 4 || m.pgid > pages {
		return fmt.Errorf("the meta page counts %d pages, the file holds %d (truncated?)", m.pgid, pages)
	}
	if m.freelist == boltNoFreelist {
		return errors.New("no freelist on disk (NoFreelistSync)")
	}
	// header reads the header of page id and checks that it and its
	// overflow pages are below the high water mark.
	header := func(id uint64, what string, flags uint16) (count uint16, overflow uint32, err error) {
		if id < 2 || id >= m.pgid {
			return 0, 0, fmt.Errorf("%s page %d out of range [2, %d)", what, id, m.pgid)
		}
		h, err := page(id, boltHeaderSize)
		if err != nil {
			return 0, 0, err
		}
		le := binary.NativeEndian
		if got := le.Uint64(h); got != id {
			return 0, 0, fmt.Errorf("%s page %d says it is page %d", what, id, got)
		}
		if f := le.Uint16(h[8:]); f&flags == 0 || f&^flags != 0 {
			return 0, 0, fmt.Errorf("%s page %d has flags %#x", what, id, f)
		}
		count, overflow = le.Uint16(h[10:]), le.Uint32(h[12:])
		if id+uint64(overflow) >= m.pgid {
			return 0, 0, fmt.Errorf("%s page %d runs %d pages past the high water mark %d", what, id, overflow, m.pgid)
		}
		return count, overflow, nil
	}
	if _, _, err := header(m.root, "root", boltBranchPage|boltLeafPage); err != nil {
		return err
	}
	count, overflow, err := header(m.freelist, "freelist", boltFreelistPage)
	if err != nil {
		return err
	}
	span := (int64(overflow) + 1) * pageSize
	if span > 64<<20 {
		return fmt.Errorf("freelist of %d bytes", span)
	}
	fl, err := page(m.freelist, span)
	if err != nil {
		return err
	}
	ids := fl[boltHeaderSize:]
	n := uint64(count)
	if count == 0xFFFF {
		// The count did not fit: it is the first element.
		n = binary.NativeEndian.Uint64(ids)
		ids = ids[8:]
	}
	if n > uint64(len(ids)/8) {
		return fmt.Errorf("freelist of %d ids in %d bytes", n, len(ids))
	}
	for i := range n {
		if id := binary.NativeEndian.Uint64(ids[8*i:]); id < 2 || id >= m.pgid {
			return fmt.Errorf("free page %d out of range [2, %d)", id, m.pgid)
		}
	}
	return nil
}

// AsideName returns the name a corrupt file at path is moved to,
// PATH.corrupt-TIME (TIME in UTC, to the second), with a number after it
// if that is taken.
func AsideName(path string, now time.Time) string {
	base := path + ".corrupt-" + now.UTC().Format("20060102T150405Z")
	name := base
	for i := 2; ; i++ {
		if _, err := os.Lstat(name); errors.Is(err, os.ErrNotExist) || i > 1000 {
			return name
		}
		name = fmt.Sprintf("%s-%d", base, i)
	}
}
