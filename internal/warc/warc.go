// Package warc reads WARC files (ISO 28500, WARC/1.0 and WARC/1.1) as a
// stream of records, with bounded memory, and parses the HTTP responses
// they hold.
//
// A WARC file is a concatenation of records: a version line, named
// fields, an empty line, a block of Content-Length octets and two CRLFs
// (WARC/1.1 §4, "File and record model",
// https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/#file-and-record-model).
// A Reader takes the file plain or gzip-compressed, one member per record
// as Common Crawl writes it (WARC/1.1 annex A, record-at-time compression)
// or one member for all. It keeps at most a set number of bytes of each
// block and skips the rest unread, reports each record's offset in the
// input, and goes on after a corrupt or truncated record from the next
// record it can find.
package warc

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// DefaultBlockLimit is how many bytes of a block a Reader keeps unless
// told otherwise (SetBlockLimit).
const DefaultBlockLimit = 1 << 20

// maxHeader bounds a record's header (version line and named fields).
const maxHeader = 256 << 10

// Errors a Reader reports, wrapped in an *Error.
var (
	// ErrNotRecord: no WARC version line where a record should start.
	ErrNotRecord = errors.New("warc: no record here")
	// ErrHeader: the record's header is not made of named fields, is
	// longer than 256 KiB, or has no valid Content-Length.
	ErrHeader = errors.New("warc: malformed record header")
	// ErrTruncated: the input, or the gzip member, ends within the record.
	ErrTruncated = errors.New("warc: record truncated")
	// ErrLength: the block is not followed by CRLF CRLF and the next
	// record: its Content-Length is wrong.
	ErrLength = errors.New("warc: Content-Length does not match the record")
	// ErrGzip: a gzip member is corrupt; the error also wraps the gzip
	// package's error.
	ErrGzip = errors.New("warc: corrupt gzip member")
)

// An Error is a record, or a stretch of the input, that could not be read.
// Offset is where the record starts: the offset of its "WARC/" in a plain
// input, of its gzip member in a compressed one.
type Error struct {
	Offset int64
	Err    error
}

// Error returns the offset and the cause.
func (e *Error) Error() string { return fmt.Sprintf("offset %d: %v", e.Offset, e.Err) }

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

// A Field is one named field of a record header.
type Field struct {
	Name, Value string
}

// A Header holds a record's named fields in the order written; names
// compare without regard to case (WARC/1.1 §4).
type Header []Field

// Get returns the value of the first field named name, or "".
func (h Header) Get(name string) string {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Values returns the values of every field named name (WARC-Concurrent-To
// may repeat, WARC/1.1 §5.7).
func (h Header) Values(name string) []string {
	var vs []string
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			vs = append(vs, f.Value)
		}
	}
	return vs
}

// A Record is one WARC record.
type Record struct {
	// Version is the version of the record's version line: "1.0", "1.1".
	Version string
	// Type is the WARC-Type field: "warcinfo", "response", "request",
	// "metadata", "revisit", "resource", "conversion", "continuation".
	Type   string
	Header Header
	// Offset is where the record starts in the input: the offset of its
	// "WARC/" in a plain input, the offset of the gzip member that holds
	// its start in a compressed one.
	Offset int64
	// Length is the block's length as declared (Content-Length).
	Length int64
	// Block holds the first bytes of the block, at most the Reader's
	// block limit: all of it when len(Block) == Length. It is valid until
	// the next call to Next.
	Block []byte
}

// A Reader reads the records of a WARC file.
type Reader struct {
	in      io.Reader
	s       stream
	begun   bool
	limit   int
	types   []string // the record types Next returns; nil: all
	done    bool
	recover bool // the last record failed: look for the next one first

	// The record being read: where it starts, in the stream and in the
	// input, and what it consumed, which is all kept (in hdr, block and
	// tail) unless kept is false.
	at, off int64
	hdr     []byte
	block   []byte
	bn      int
	tail    [4]byte
	tn      int
	kept    bool
}

// NewReader returns a Reader of the WARC file r, plain or gzip-compressed
// (it looks for the gzip magic itself).
func NewReader(r io.Reader) *Reader {
	return &Reader{in: r, limit: DefaultBlockLimit}
}

// SetBlockLimit sets how many bytes of each block Next keeps; the rest is
// skipped unread. Call it before the first Next.
func (r *Reader) SetBlockLimit(n int) {
	r.limit = max(n, 0)
}

// SetTypes makes Next return only the records whose WARC-Type (WARC/1.1
// §5.5) is one of types, as written; nil, the default, returns every
// record. The records of other types are read and checked as the others
// are — a record that cannot be read is still an error — but their
// header is not parsed into a Header, nor a Record made. Call it before
// the first Next.
func (r *Reader) SetTypes(types ...string) {
	r.types = types
}

func (r *Reader) begin() {
	r.begun = true
	var p [2]byte
	n, err := io.ReadFull(r.in, p[:])
	if n == 2 && p[0] == 0x1f && p[1] == 0x8b {
		gz := newMembers(r.in, p[:])
		r.s = stream{src: gz, gz: gz, buf: make([]byte, bufSize)}
		return
	}
	r.s = stream{src: r.in, buf: make([]byte, bufSize)}
	r.s.w = copy(r.s.buf, p[:n])
	switch err {
	case nil:
	case io.EOF, io.ErrUnexpectedEOF:
		r.s.err = io.EOF
	default:
		r.s.err, r.s.fatal = err, err
	}
}

// Next returns the next record, io.EOF at the end of the input, or an
// *Error for a record that could not be read; after such an error, Next
// goes on with the next record it can find, unless the input itself
// failed (then the next call returns io.EOF).
func (r *Reader) Next() (*Record, error) {
	if r.done {
		return nil, io.EOF
	}
	if !r.begun {
		r.begin()
	}
	if r.recover {
		r.recover = false
		if err := r.resync(); err != nil {
			if err == io.EOF {
				r.done = true
				return nil, io.EOF
			}
			r.off = r.offsetAt(r.s.pos)
			return nil, r.failed(err)
		}
	}
	for {
		rec, err := r.read()
		if err == io.EOF && rec == nil && r.s.fatal == nil {
			r.done = true
			return nil, io.EOF
		}
		if err != nil {
			return nil, r.failed(err)
		}
		if rec != nil {
			return rec, nil
		}
		// A record of a type not asked for (SetTypes): on to the next.
	}
}

func (r *Reader) offsetAt(pos int64) int64 {
	if r.s.gz != nil {
		return r.s.gz.offset(pos)
	}
	return pos
}

// resync moves to the next record after a failed one: it searches what
// the failed record consumed, after its first byte, then the input.
func (r *Reader) resync() error {
	if r.kept && r.s.pos > r.at && len(r.hdr) > 0 {
		r.s.unread(r.hdr[1:], r.block[:r.bn], r.tail[:r.tn])
	}
	r.kept = false
	return r.s.seekRecord()
}

// failed returns the error to report for err, met while reading the
// record at r.off, and prepares the next call.
func (r *Reader) failed(err error) error {
	s := &r.s
	var me *memberError
	switch {
	case s.fatal != nil:
		r.done = true
		return &Error{Offset: r.off, Err: s.fatal}
	case errors.As(err, &me):
		s.dropBuffered()
		return &Error{Offset: me.off, Err: fmt.Errorf("%w: %w", ErrGzip, me.err)}
	case err == errFence:
		s.toFence()
		return &Error{Offset: r.off, Err: ErrTruncated}
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		err = ErrTruncated
	case err == errLong:
		err = fmt.Errorf("%w: longer than %d bytes", ErrHeader, maxHeader)
	}
	r.recover = true
	return &Error{Offset: r.off, Err: err}
}

// read reads the record at the current position. It returns io.EOF alone
// at the end of the input.
func (r *Reader) read() (*Record, error) {
	s := &r.s
	// Tolerate blank lines between records.
	for {
		s.start = s.pos
		if err := s.need(1); err != nil {
			return nil, err
		}
		if c := s.buf[s.r]; c != '\r' && c != '\n' {
			break
		}
		s.advance(1)
	}
	r.at, r.off = s.pos, s.pos
	if s.gz != nil {
		s.gz.prune(r.at)
		r.off = s.gz.offset(r.at)
	}
	r.hdr, r.bn, r.tn, r.kept = r.hdr[:0], 0, 0, true
	rec, err := r.record()
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		err = ErrTruncated
	}
	return rec, err
}

// record reads the record that starts at the current position.
func (r *Reader) record() (*Record, error) {
	s := &r.s
	if err := s.need(5); err != nil {
		if err == io.EOF {
			s.advance(1) // a few stray bytes at the end
			return nil, ErrNotRecord
		}
		return nil, err
	}
	if !bytes.HasPrefix(s.buf[s.r:s.w], []byte("WARC/")) {
		s.advance(1)
		return nil, ErrNotRecord
	}

	// The header: lines up to an empty one.
	for {
		ls := len(r.hdr)
		var err error
		if r.hdr, err = s.readLine(r.hdr, maxHeader); err != nil {
			return nil, err
		}
		line := r.hdr[ls:]
		if len(line) == 1 || len(line) == 2 && line[0] == '\r' {
			break
		}
		if ls > 0 && endsWithVersion(line) {
			// The record was cut within its header, where another one
			// starts: "WARC-Type: resWARC/1.0".
			return nil, ErrTruncated
		}
	}
	var (
		version string
		fields  Header
		length  int64
		skip    bool
		err     error
	)
	if r.types != nil {
		if typ, n, ok := peekHeader(r.hdr); ok && !r.wanted(typ) {
			skip, length = true, n
		}
	}
	if !skip {
		if version, fields, err = parseHeader(string(r.hdr)); err != nil {
			return nil, err
		}
		if length, err = contentLength(fields); err != nil {
			return nil, err
		}
		skip = r.types != nil && !slices.Contains(r.types, fields.Get("WARC-Type"))
	}

	// The block: keep up to the limit, skip the rest.
	n := int(min(length, int64(r.limit)))
	if cap(r.block) < n {
		r.block = make([]byte, n)
	}
	r.block = r.block[:n]
	r.bn, err = s.readFull(r.block)
	if err != nil {
		return nil, err
	}
	if length > int64(n) {
		skipped, err := s.discard(length - int64(n))
		if skipped > 0 {
			r.kept = false
		}
		if err != nil {
			return nil, err
		}
	}

	// Two CRLFs end the record; tolerate fewer when the next record, the
	// next member or the end of the input follows.
	for r.tn < len(r.tail) && s.need(1) == nil {
		c := s.buf[s.r]
		if c != '\r' && c != '\n' {
			break
		}
		r.tail[r.tn] = c
		r.tn++
		s.advance(1)
	}
	// Looking ahead also makes a gzip input finish the record's member,
	// whose CRC-32 and size (RFC 1952 §2.2) vouch for the record: a record
	// of a member that fails them is not returned.
	next := s.need(5)
	if next != nil && next != io.EOF && next != errFence {
		var me *memberError // declared here: it escapes, and errors are rare
		if errors.As(next, &me) && me.off == r.off {
			return nil, next
		}
	}
	if s.fatal == nil && string(r.tail[:r.tn]) != "\r\n\r\n" {
		switch {
		case next == nil && !bytes.HasPrefix(s.buf[s.r:s.w], []byte("WARC/")):
			return nil, ErrLength
		case next == io.EOF && s.r < s.w:
			return nil, ErrLength
		}
	}
	if skip {
		return nil, nil
	}
	return &Record{
		Version: version,
		Type:    fields.Get("WARC-Type"),
		Header:  fields,
		Offset:  r.off,
		Length:  length,
		Block:   r.block,
	}, nil
}

// wanted reports whether Next returns the records of type typ.
func (r *Reader) wanted(typ []byte) bool {
	for _, t := range r.types {
		if string(typ) == t {
			return true
		}
	}
	return false
}

// peekHeader returns what Next needs of a record header h (its lines, the
// empty one included) to pass over the record, without parsing it into a
// Header: the value of its WARC-Type field, as Header.Get returns it, and
// its Content-Length. ok is false when h is not a header that parseHeader
// and contentLength accept, or when either field is continued on another
// line: the header is then parsed in full, which tells why.
func peekHeader(h []byte) (typ []byte, length int64, ok bool) {
	line, rest := cutLineBytes(h)
	v, found := bytes.CutPrefix(line, []byte("WARC/"))
	if !found {
		return nil, 0, false
	}
	major, minor, found := bytes.Cut(v, []byte("."))
	if !found || !isDigits(major) || !isDigits(minor) {
		return nil, 0, false
	}
	const (
		other = iota + 1
		typeField
		lengthField
	)
	var size []byte
	haveType, haveSize, last := false, false, 0
	for len(rest) > 0 {
		line, rest = cutLineBytes(rest)
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			if last != other {
				return nil, 0, false // first, or continuing a field kept
			}
			continue
		}
		name, value, found := bytes.Cut(line, []byte(":"))
		name = bytes.TrimRight(name, " \t")
		if !found || !isToken(name) {
			return nil, 0, false
		}
		last = other
		switch {
		case !haveType && bytes.EqualFold(name, []byte("WARC-Type")):
			typ, haveType, last = bytes.Trim(value, " \t"), true, typeField
		case !haveSize && bytes.EqualFold(name, []byte("Content-Length")):
			size, haveSize, last = bytes.Trim(value, " \t"), true, lengthField
		}
	}
	if len(size) == 0 || len(size) > 18 {
		return nil, 0, false
	}
	for _, c := range size {
		if c < '0' || c > '9' {
			return nil, 0, false
		}
		length = length*10 + int64(c-'0')
	}
	return typ, length, true
}

// cutLineBytes is cutLine for bytes.
func cutLineBytes(b []byte) (line, rest []byte) {
	line, rest, _ = bytes.Cut(b, []byte("\n"))
	return bytes.TrimSuffix(line, []byte("\r")), rest
}

// endsWithVersion reports whether line (LF included) ends with a WARC/1.x
// version line.
func endsWithVersion(line []byte) bool {
	line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	digits := 0
	for n := len(line); digits < n && digits <= 3 && '0' <= line[n-1-digits] && line[n-1-digits] <= '9'; {
		digits++
	}
	return digits >= 1 && digits <= 3 && bytes.HasSuffix(line[:len(line)-digits], versionPrefix)
}

// parseHeader parses a record header: the version line, then named fields
// ("name: value", continued on lines that start with a space or a tab),
// then an empty line (WARC/1.1 §4).
func parseHeader(h string) (string, Header, error) {
	line, rest := cutLine(h)
	version, ok := strings.CutPrefix(line, "WARC/")
	if !ok || !isVersion(version) {
		return "", nil, fmt.Errorf("%w: version line %q", ErrHeader, clip(line))
	}
	fields := make(Header, 0, 16)
	for rest != "" {
		line, rest = cutLine(rest)
		if line == "" {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(fields) == 0 {
				return "", nil, fmt.Errorf("%w: continuation line first", ErrHeader)
			}
			f := &fields[len(fields)-1]
			if v := strings.Trim(line, " \t"); v != "" {
				if f.Value == "" {
					f.Value = v
				} else {
					f.Value += " " + v
				}
			}
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimRight(name, " \t")
		if !ok || !isToken(name) {
			return "", nil, fmt.Errorf("%w: line %q", ErrHeader, clip(line))
		}
		fields = append(fields, Field{Name: name, Value: strings.Trim(value, " \t")})
	}
	return version, fields, nil
}

// contentLength returns the block length, which every record declares
// (WARC/1.1 §5.3: Content-Length = 1*DIGIT).
func contentLength(h Header) (int64, error) {
	v := h.Get("Content-Length")
	if v == "" || len(v) > 18 {
		return 0, fmt.Errorf("%w: Content-Length %q", ErrHeader, clip(v))
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, fmt.Errorf("%w: Content-Length %q", ErrHeader, clip(v))
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: Content-Length %q", ErrHeader, clip(v))
	}
	return n, nil
}

// cutLine returns the text up to the first LF, without it and without a
// CR before it, and the text after it.
func cutLine(s string) (line, rest string) {
	line, rest, _ = strings.Cut(s, "\n")
	return strings.TrimSuffix(line, "\r"), rest
}

// isVersion reports whether v is a version number: digits, a dot, digits.
func isVersion(v string) bool {
	major, minor, ok := strings.Cut(v, ".")
	return ok && isDigits(major) && isDigits(minor)
}

func isDigits[T string | []byte](s T) bool {
	if len(s) == 0 || len(s) > 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isToken reports whether s is a token: one or more US-ASCII characters
// other than controls and separators (WARC/1.1 §4, after RFC 2616 §2.2).
func isToken[T string | []byte](s T) bool {
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !tokenChar[s[i]] {
			return false
		}
	}
	return true
}

// tokenChar holds the characters of a token: US-ASCII other than the
// controls (0-31, 127), space and the separators of RFC 2616 §2.2.
var tokenChar = func() (t [256]bool) {
	for c := '!'; c < 0x7f; c++ {
		t[c] = !strings.ContainsRune("()<>@,;:\\\"/[]?={}", c)
	}
	return t
}()

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 64 {
		return s[:64] + "…"
	}
	return s
}
