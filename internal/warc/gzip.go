package warc

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"

	"github.com/klauspost/compress/gzip"
)

// A gzip WARC file is a series of gzip members (RFC 1952 §2.2), written
// one record per member ("record-at-time compression", WARC/1.1 annex A,
// https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/#record-at-time-compression)
// or, less usefully, as one member holding every record. members hands out
// the decompressed bytes of all members as one stream and notes, for each
// member, where it starts in the compressed input and in that stream.
//
// The members are inflated by github.com/klauspost/compress/gzip, the
// maintained, faster drop-in for compress/gzip: one gzip.Reader is reset
// for each member, which allocates nothing, and its inflater reads the
// bufio.Reader's buffer in place. Like compress/gzip over an
// io.ByteReader, it consumes no byte past a member's trailer, which pos
// relies on.
//
// When a member is corrupt, members reports it once (a *memberError) and
// then looks for the next member from the byte after the corrupt one's
// start: it scans for the gzip magic (1f 8b 08, RFC 1952 §2.3.1) and takes
// a candidate only when its data begins with a WARC version line, so that
// the bytes of a corrupt member rarely pass for a new one.

// gzipMagic starts every gzip member: ID1, ID2 and CM = 8 (deflate),
// RFC 1952 §2.3.1.
var gzipMagic = []byte{0x1f, 0x8b, 0x08}

// histCap is how much of the compressed input tap keeps behind its read
// position, so that a corrupt member can be searched again from its second
// byte. Common Crawl's members are a few KiB; a gzip header is at most
// about 64 KiB plus two strings.
const histCap = 1 << 20

// tap reads the compressed input, counts what it hands out, and keeps the
// last histCap bytes or more of it so that members can go back.
type tap struct {
	src      io.Reader
	pending  []byte // bytes to hand out again, before src
	next     int64  // input offset of the next byte Read hands out
	hist     []byte // bytes handed out; hist[0] is at input offset histBase
	histBuf  *[]byte
	histBase int64
	err      error // the first read error of src other than io.EOF
}

func (t *tap) Read(p []byte) (int, error) {
	var n int
	var err error
	if len(t.pending) > 0 {
		n = copy(p, t.pending)
		t.pending = t.pending[n:]
	} else {
		n, err = t.src.Read(p)
		if n < 0 || n > len(p) {
			n, err = 0, io.ErrNoProgress // a broken io.Reader
		}
		if err != nil && err != io.EOF && t.err == nil {
			t.err = err
		}
	}
	t.remember(p[:n])
	t.next += int64(n)
	return n, err
}

// histPool holds the histories of inputs read to their end: a reader of
// many inputs (or of a file's pieces) reuses them instead of growing a
// new one to 2*histCap for each.
var histPool = sync.Pool{New: func() any { b := make([]byte, 0, 2*histCap); return &b }}

// release gives the history back to histPool once the input is done.
func (t *tap) release() {
	if t.histBuf != nil {
		*t.histBuf = t.hist[:0]
		histPool.Put(t.histBuf)
		t.histBuf, t.hist = nil, nil
		t.histBase = t.next
	}
}

// remember appends b to the history, dropping its oldest bytes when it
// passes 2*histCap (so that each byte is moved at most once).
func (t *tap) remember(b []byte) {
	if t.histBuf == nil && len(b) > 0 {
		t.histBuf = histPool.Get().(*[]byte)
		t.hist = append((*t.histBuf)[:0], t.hist...)
	}
	if len(t.hist)+len(b) > 2*histCap {
		drop := len(t.hist) + len(b) - histCap
		if drop >= len(t.hist) {
			skip := drop - len(t.hist)
			t.histBase += int64(drop)
			t.hist = append(t.hist[:0], b[skip:]...)
			return
		}
		n := copy(t.hist, t.hist[drop:])
		t.hist = t.hist[:n]
		t.histBase += int64(drop)
	}
	t.hist = append(t.hist, b...)
}

// rewind makes the next Read start again at input offset to, which must
// still be in the history; it reports whether it could.
func (t *tap) rewind(to int64) bool {
	if to < t.histBase || to > t.next {
		return false
	}
	k := int(to - t.histBase)
	replay := make([]byte, 0, len(t.hist)-k+len(t.pending))
	replay = append(replay, t.hist[k:]...)
	replay = append(replay, t.pending...)
	t.pending = replay
	t.hist = t.hist[:k]
	t.next = to
	return true
}

// A mark is where a member starts: at offset off of the compressed input
// and at offset out of the decompressed stream. warc is set when its data
// begins with a WARC version line, that is when a record starts there.
type mark struct {
	out, off int64
	warc     bool
}

// A memberError is a corrupt gzip member.
type memberError struct {
	off int64
	err error
}

func (e *memberError) Error() string { return "gzip member: " + e.err.Error() }
func (e *memberError) Unwrap() error { return e.err }

// headLen is how much of a member's data members reads when it opens the
// member, to see whether a WARC record starts there.
const headLen = len("WARC/1.")

type members struct {
	in    tap
	br    *bufio.Reader // over in; the gzip reader reads through it
	zr    gzip.Reader
	open  bool
	cur   int64 // compressed offset of the open, or last failed, member
	out   int64 // decompressed bytes handed out
	head  [headLen]byte
	hn, h int  // head[h:hn] is still to hand out
	ended bool // the open member's data ended within head
	marks []mark
	// After a failure, scanning is set and resume is where the search for
	// the next member starts (-1: at the current position).
	scanning bool
	resume   int64
}

func newMembers(src io.Reader, prefix []byte) *members {
	m := &members{in: tap{src: src, pending: prefix}}
	m.br = bufio.NewReaderSize(&m.in, 32<<10)
	return m
}

// pos is the compressed offset of the next byte the gzip reader will read.
func (m *members) pos() int64 { return m.in.next - int64(m.br.Buffered()) }

// goBack repositions the reader at compressed offset to, if the history
// still holds it, and reports whether it did.
func (m *members) goBack(to int64) bool {
	if !m.in.rewind(to) {
		return false
	}
	m.br.Reset(&m.in)
	return true
}

func (m *members) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		if m.in.err != nil {
			return 0, m.in.err
		}
		if m.h < m.hn {
			n := copy(p, m.head[m.h:m.hn])
			m.h += n
			m.out += int64(n)
			return n, nil
		}
		if m.open {
			if m.ended {
				m.open = false
				continue
			}
			n, err := m.zr.Read(p)
			m.out += int64(n)
			switch {
			case err == io.EOF:
				m.open = false
				if n > 0 {
					return n, nil
				}
				continue
			case err != nil:
				// Hand out nothing more of a corrupt member.
				m.out -= int64(n)
				return 0, m.fail(err)
			}
			return n, nil
		}
		if m.scanning {
			if err := m.scan(); err != nil {
				return 0, err
			}
			continue
		}
		at := m.pos()
		if _, err := m.br.Peek(1); err != nil {
			if m.in.err != nil {
				return 0, m.in.err
			}
			m.in.release() // the input is done: nothing goes back any more
			return 0, io.EOF
		}
		if err := m.start(at); err != nil {
			m.cur = at
			return 0, m.fail(err)
		}
		m.marks = append(m.marks, mark{out: m.out, off: at, warc: m.isWARC()})
	}
}

// start opens the member at compressed offset at (the reader's position)
// and reads the head of its data.
func (m *members) start(at int64) error {
	if err := m.zr.Reset(m.br); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	m.zr.Multistream(false)
	m.cur, m.open, m.ended = at, true, false
	n, err := io.ReadFull(&m.zr, m.head[:])
	m.h, m.hn = 0, n
	switch err {
	case nil:
	case io.EOF, io.ErrUnexpectedEOF:
		m.ended = true // a member shorter than headLen: fine
	default:
		m.open = false
		return err
	}
	return nil
}

func (m *members) isWARC() bool {
	return m.hn == headLen && string(m.head[:]) == "WARC/1."
}

// fail notes that the member at m.cur is corrupt and returns the error to
// report; the next Read looks for the next member.
func (m *members) fail(err error) error {
	m.open, m.h, m.hn = false, 0, 0
	m.scanning = true
	m.resume = m.cur + 1
	if errors.Is(err, gzip.ErrChecksum) {
		// The member's data was whole but did not match its trailer: the
		// next member starts right here.
		m.resume = -1
	}
	if m.in.err != nil {
		return m.in.err
	}
	return &memberError{off: m.cur, err: err}
}

// scan looks for the next member that holds a WARC record, from m.resume.
// It returns nil with a member open, io.EOF at the end of the input, or
// the input's read error.
func (m *members) scan() error {
	if m.resume >= 0 {
		m.goBack(m.resume) // out of the history: go on from here
	}
	for {
		at, err := m.seekMagic()
		if err != nil {
			return err
		}
		if m.start(at) == nil && m.isWARC() {
			m.scanning = false
			m.marks = append(m.marks, mark{out: m.out, off: at, warc: true})
			return nil
		}
		m.open, m.h, m.hn = false, 0, 0
		if !m.goBack(at+1) && m.pos() <= at {
			m.br.Discard(1) // cannot go back and have not moved: step over
		}
	}
}

// seekMagic moves the reader to the next gzip magic and returns its
// compressed offset; io.EOF when there is none.
func (m *members) seekMagic() (int64, error) {
	for {
		buf, err := m.br.Peek(m.br.Size())
		if i := bytes.Index(buf, gzipMagic); i >= 0 {
			at := m.pos() + int64(i)
			m.br.Discard(i)
			return at, nil
		}
		if err != nil {
			// The input ends, or fails, within buf.
			m.br.Discard(len(buf))
			if m.in.err != nil {
				return 0, m.in.err
			}
			return 0, io.EOF
		}
		// Keep two bytes: the magic may straddle the refill.
		m.br.Discard(len(buf) - (len(gzipMagic) - 1))
	}
}

// offset returns the compressed offset of the member holding the byte at
// decompressed offset out.
func (m *members) offset(out int64) int64 {
	off := int64(0)
	for _, k := range m.marks {
		if k.out > out {
			break
		}
		off = k.off
	}
	return off
}

// fence returns the decompressed offset of the first member after
// decompressed offset after whose data starts a WARC record, if one is
// known yet.
func (m *members) fence(after int64) (int64, bool) {
	for _, k := range m.marks {
		if k.out > after && k.warc {
			return k.out, true
		}
	}
	return 0, false
}

// maxMarks bounds the list of member starts, for an input of many tiny
// members read inside one huge record.
const maxMarks = 4096

// prune forgets the member starts before the one holding decompressed
// offset out.
func (m *members) prune(out int64) {
	i := 0
	for i+1 < len(m.marks) && m.marks[i+1].out <= out {
		i++
	}
	if i > 0 {
		n := copy(m.marks, m.marks[i:])
		m.marks = m.marks[:n]
	}
	if len(m.marks) > maxMarks {
		n := copy(m.marks[1:], m.marks[len(m.marks)-maxMarks/2:])
		m.marks = m.marks[:1+n]
	}
}
