package warc

import (
	"bytes"
	"errors"
	"io"
)

// bufSize is the size of the stream's buffer.
const bufSize = 64 << 10

// errFence reports that a record of a gzip input runs into a later member
// whose data starts with a WARC version line: the record was cut short and
// the next one starts there.
var errFence = errors.New("record runs into the next gzip member")

// errLong reports a line longer than its bound.
var errLong = errors.New("line too long")

// stream is the WARC byte stream: a plain input, or the decompressed data
// of a gzip input's members. It buffers it, counts offsets in it, takes
// back bytes it handed out (to search them again after a corrupt record),
// and, for a gzip input, stops a record at the next member that starts
// another record (the fence).
type stream struct {
	src  io.Reader
	gz   *members // nil for a plain input
	buf  []byte
	r, w int
	pos  int64 // stream offset of buf[r]
	// err ended the last fill; it is returned once the buffered bytes are
	// used up. fatal is set when it is a read error of the input itself.
	err   error
	fatal error
	// start is the stream offset of the record being read: the fence is
	// the first record-starting member after it.
	start int64
}

func (s *stream) advance(k int) {
	s.r += k
	s.pos += int64(k)
}

// fill reads more input into the buffer; it sets s.err when the input
// ends or fails.
func (s *stream) fill() {
	if s.err != nil {
		return
	}
	if s.r == s.w && len(s.buf) > bufSize {
		s.buf = make([]byte, bufSize) // done with a large unread: let it go
		s.r, s.w = 0, 0
	}
	if s.r > 0 {
		s.w = copy(s.buf, s.buf[s.r:s.w])
		s.r = 0
	}
	if s.w == len(s.buf) {
		return // full: the callers never need this much at once
	}
	for range 100 {
		n, err := s.src.Read(s.buf[s.w:])
		if n < 0 || n > len(s.buf)-s.w {
			n, err = 0, io.ErrNoProgress // a broken io.Reader
		}
		s.w += n
		if err != nil {
			s.err = err
			var me *memberError
			if err != io.EOF && !errors.As(err, &me) {
				s.fatal = err
			}
			return
		}
		if n > 0 {
			return
		}
	}
	s.err = io.ErrNoProgress
	s.fatal = s.err
}

// limit returns the end of the usable buffered bytes, and whether the
// fence is there.
func (s *stream) limit() (int, bool) {
	if s.gz != nil {
		if f, ok := s.gz.fence(s.start); ok {
			if d := f - s.pos; d <= int64(s.w-s.r) {
				return s.r + int(max(d, 0)), true
			}
		}
	}
	return s.w, false
}

// need makes n usable bytes buffered, or returns why it cannot.
func (s *stream) need(n int) error {
	for {
		end, fenced := s.limit()
		if end-s.r >= n {
			return nil
		}
		if fenced {
			return errFence
		}
		if s.err != nil {
			return s.err
		}
		s.fill()
	}
}

// readLine appends the next line, LF included, to dst; the bytes it
// consumed are exactly those it appended, even on error. It returns
// errLong when dst would pass max bytes.
func (s *stream) readLine(dst []byte, max int) ([]byte, error) {
	for {
		end, _ := s.limit()
		chunk := s.buf[s.r:end]
		i := bytes.IndexByte(chunk, '\n')
		if i >= 0 {
			chunk = chunk[:i+1]
		}
		if len(dst)+len(chunk) > max {
			return dst, errLong
		}
		dst = append(dst, chunk...)
		s.advance(len(chunk))
		if i >= 0 {
			return dst, nil
		}
		if err := s.need(1); err != nil {
			return dst, err
		}
	}
}

// readFull fills dst.
func (s *stream) readFull(dst []byte) (int, error) {
	n := 0
	for n < len(dst) {
		if err := s.need(1); err != nil {
			return n, err
		}
		end, _ := s.limit()
		k := copy(dst[n:], s.buf[s.r:end])
		s.advance(k)
		n += k
	}
	return n, nil
}

// discard skips n bytes without keeping them.
func (s *stream) discard(n int64) (int64, error) {
	var done int64
	for done < n {
		if err := s.need(1); err != nil {
			return done, err
		}
		end, _ := s.limit()
		k := min(int64(end-s.r), n-done)
		s.advance(int(k))
		done += k
	}
	return done, nil
}

// unread puts back the bytes of parts, which must be, in order, the bytes
// handed out just before the current position.
func (s *stream) unread(parts ...[]byte) {
	total := 0
	for _, p := range parts {
		total += len(p)
	}
	if total == 0 {
		return
	}
	rest := s.w - s.r
	nb := make([]byte, max(total+rest+bufSize/2, bufSize))
	k := 0
	for _, p := range parts {
		k += copy(nb[k:], p)
	}
	copy(nb[k:], s.buf[s.r:s.w])
	s.buf, s.r, s.w = nb, 0, total+rest
	s.pos -= int64(total)
}

// dropBuffered throws away what is buffered and the error that stopped
// the last fill (after a corrupt gzip member: its data is not to be read).
func (s *stream) dropBuffered() {
	s.advance(s.w - s.r)
	s.err = nil
}

// toFence moves to the fence, when it is buffered.
func (s *stream) toFence() {
	end, fenced := s.limit()
	if fenced {
		s.advance(end - s.r)
	}
}

// versionPrefix starts the version line of every WARC/1.x record.
var versionPrefix = []byte("WARC/1.")

// seekRecord moves to the next WARC/1.x version line, wherever it is (not
// only at a line start, so that a record cut in mid-line does not hide the
// next one). It ignores the fence.
func (s *stream) seekRecord() error {
	for {
		i := bytes.Index(s.buf[s.r:s.w], versionPrefix)
		if i >= 0 {
			s.advance(i)
			ok, short := versionLine(s.buf[s.r:s.w])
			if ok {
				return nil
			}
			if !short || s.err != nil {
				s.advance(1)
				continue
			}
		} else if keep := len(versionPrefix) - 1; s.w-s.r > keep {
			s.advance(s.w - s.r - keep)
		}
		if s.err != nil {
			s.advance(s.w - s.r)
			return s.err
		}
		s.fill()
	}
}

// versionLine reports whether b starts with a WARC/1.x version line
// ("WARC/1.0" or "WARC/1.1" then CRLF; LF alone is tolerated), or whether
// b is too short to tell (short).
func versionLine(b []byte) (ok, short bool) {
	if len(b) < len(versionPrefix) {
		return false, bytes.HasPrefix(versionPrefix, b)
	}
	if !bytes.HasPrefix(b, versionPrefix) {
		return false, false
	}
	i := len(versionPrefix)
	digits := 0
	for ; i < len(b) && digits <= 3 && '0' <= b[i] && b[i] <= '9'; i++ {
		digits++
	}
	switch {
	case i == len(b):
		return false, true
	case digits == 0 || digits > 3:
		return false, false
	case b[i] == '\n':
		return true, false
	case b[i] != '\r':
		return false, false
	case i+1 == len(b):
		return false, true
	}
	return b[i+1] == '\n', false
}
