package scan

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"path/filepath"
	"strings"
	"time"

	"github.com/robotskit/robots/internal/sniff"
	"github.com/robotskit/robots/internal/warc"
)

// An InputError is a record or a line of an input that could not be
// read, or a failure of the input itself. Offset is where the record or
// line starts: see Capture.Offset.
type InputError struct {
	Source string
	Offset int64
	Err    error
}

// Error returns the source, the offset and the cause.
func (e *InputError) Error() string {
	return fmt.Sprintf("%s: offset %d: %v", e.Source, e.Offset, e.Err)
}

// Unwrap returns e.Err.
func (e *InputError) Unwrap() error { return e.Err }

// A Reader reads the Captures of one input. The input is, judged by its
// first bytes once a gzip compression is undone, or else by its name:
//
//   - a WARC file ("WARC/", or a name ending in .warc or .warc.gz), plain
//     or gzip-compressed as Common Crawl's robots.txt WARC files are: each
//     response record becomes a Capture;
//   - JSON lines ("{" and a first line that is an object with a "url", or
//     a name ending in .jsonl or .ndjson, and .gz): one Capture per line
//     {"url", "status", "headers", "body" or "body_b64", "time"};
//   - text in any encoding (UTF-8, a legacy one, UTF-16 or UTF-32 with or
//     without a byte order mark): one robots.txt body, a file of a
//     directory whose files are named by their host, as in "example.com".
//
// Any other input is no capture: an ARC file (ErrARC) or binary data
// (ErrBinary), a PDF, an archive, an image, is one *InputError at offset 0
// and no Capture.
//
// Capture.Offset is the offset of the record's gzip member in a
// compressed WARC file, of its "WARC/" in a plain one, and of the line in
// the decompressed stream of JSON lines.
type Reader struct {
	name    string
	src     io.Reader
	br      *bufio.Reader
	kind    inputKind
	gzipped bool
	started bool
	done    bool

	warc *warc.Reader
	seen inputSeen
	// earlier, when set, finds a response of the part of the input
	// before this Reader's start (a piece of a file read apart, split.go)
	// that a revisit repeats, as a Reader of the whole input would have
	// remembered it.
	earlier func(digest, refersTo string, own *inputSeen) *inputSeenEntry

	lines   *bufio.Reader
	lineOff int64
	line    []byte
}

type inputKind int

const (
	inputRobots inputKind = iota
	inputWARC
	inputJSONL
)

// inputPeek is how much of an input NewReader looks at to tell its kind.
const inputPeek = 64 << 10

// inputBlockLimit is how much of a WARC record's block is kept: an HTTP
// response's headers and a body of MaxBody bytes.
const inputBlockLimit = MaxBody + 128<<10

// maxJSONLine bounds a line of JSON: a 500 KiB body, base64-coded, and
// headers.
const maxJSONLine = 2 << 20

// inputCountMax bounds how far a single robots.txt file is read to count
// its size.
const inputCountMax = 1 << 30

// NewReader returns a Reader of the input r; name is its path, which
// becomes Capture.Source and, for a single robots.txt file, names its host
// (by its base name).
func NewReader(name string, r io.Reader) *Reader {
	return &Reader{name: name, src: r}
}

// Next returns the next Capture, io.EOF at the end of the input, or an
// *InputError for a record or line that could not be read; after such an
// error the caller may call Next again, which goes on with the next record
// or line (or returns io.EOF when the input itself failed).
func (r *Reader) Next() (*Capture, error) {
	if r.done {
		return nil, io.EOF
	}
	if !r.started {
		r.started = true
		if err := r.start(); err != nil {
			r.done = true
			return nil, r.fail(0, err)
		}
	}
	switch r.kind {
	case inputWARC:
		return r.nextWARC()
	case inputJSONL:
		return r.nextJSONL()
	}
	r.done = true
	return r.robotsFile()
}

func (r *Reader) fail(off int64, err error) error {
	return &InputError{Source: r.name, Offset: off, Err: err}
}

// start tells the kind of the input from its first bytes.
func (r *Reader) start() error {
	r.br = bufio.NewReaderSize(r.src, 2*inputPeek)
	head, err := r.br.Peek(inputPeek)
	whole := err == io.EOF
	if err != nil && !whole && err != bufio.ErrBufferFull {
		return err
	}
	text := head
	// RFC 1952 §2.3.1: ID1 = 0x1f, ID2 = 0x8b.
	if r.gzipped = len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b; r.gzipped {
		rawWhole := whole
		text, whole = nil, false
		if zr, zerr := gzip.NewReader(bytes.NewReader(head)); zerr == nil {
			var rerr error
			text, rerr = io.ReadAll(io.LimitReader(zr, inputPeek))
			whole = rawWhole && rerr == nil && len(text) < inputPeek
		}
	}
	switch {
	case bytes.HasPrefix(bytes.TrimLeft(text, "\r\n"), []byte("WARC/")):
		r.kind = inputWARC
	case looksJSONL(text, whole):
		r.kind = inputJSONL
	case looksARC(text):
		return ErrARC
	case inputNamed(r.name, ".warc"):
		r.kind = inputWARC
	case inputNamed(r.name, ".jsonl", ".ndjson"):
		r.kind = inputJSONL
	default:
		if kind := binaryKind(text); kind != "" {
			return fmt.Errorf("%w: %s", ErrBinary, kind)
		}
	}
	switch r.kind {
	case inputWARC:
		r.warc = warc.NewReader(r.br)
		r.warc.SetBlockLimit(inputBlockLimit)
		// Only responses and revisits hold a recorded response: the
		// Reader checks the other records (warcinfo, request, metadata …)
		// and passes over them unparsed.
		r.warc.SetTypes("response", "revisit")
	case inputJSONL:
		r.lines = r.br
		if r.gzipped {
			zr, err := gzip.NewReader(r.br)
			if err != nil {
				return err
			}
			r.lines = bufio.NewReaderSize(zr, 64<<10)
		}
	}
	return nil
}

// inputNamed reports whether name ends with one of the extensions, or
// with one of them and ".gz": the kind a file's name gives when its first
// bytes do not (a corrupt first gzip member, a malformed first line).
func inputNamed(name string, exts ...string) bool {
	name = strings.TrimSuffix(strings.ToLower(name), ".gz")
	for _, ext := range exts {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// ErrARC is the error of an input that is an ARC file, the Internet
// Archive's format before WARC
// (https://archive.org/web/researcher/ArcFileFormat.php), plain or
// gzip-compressed: its records are not read.
var ErrARC = errors.New("an ARC file, the format before WARC: only WARC files are read")

// ErrBinary is the error of an input that is neither WARC, JSON lines nor
// text: the error wraps it with what the input looks like.
var ErrBinary = errors.New("binary data, not a robots.txt, WARC or JSON lines file")

// arcMagic starts an ARC file: the URL of its version block, "filedesc://"
// and the file's name (ARC v1 and v2 alike,
// https://archive.org/web/researcher/ArcFileFormat.php, "Version block").
var arcMagic = []byte("filedesc://")

// looksARC reports whether text starts an ARC file: with its version
// block, or, for a piece of one, with the header line of a URL record,
// "URL IP-address Archive-date Content-type Archive-length" (v1, five
// fields) or "URL IP-address Archive-date Content-type Result-code
// Checksum Location Offset Filename Archive-length" (v2, ten), the date
// being 14 digits (YYYYMMDDhhmmss) and the length a number. No robots.txt
// starts with such a line.
func looksARC(text []byte) bool {
	if bytes.HasPrefix(text, arcMagic) {
		return true
	}
	line, _, found := bytes.Cut(text[:min(len(text), 4096)], []byte("\n"))
	if !found {
		return false
	}
	f := strings.Split(string(line), " ")
	if len(f) != 5 && len(f) != 10 {
		return false
	}
	scheme, _, ok := strings.Cut(f[0], ":")
	_, ipErr := netip.ParseAddr(f[1])
	return ok && scheme != "" && ipErr == nil && len(f[2]) == 14 && inputDigits(f[2]) && inputDigits(f[len(f)-1])
}

// inputDigits reports whether s is one or more ASCII digits.
func inputDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// binaryKind returns what the first bytes of an input are when they are
// no text, "" when they are. Text is text in any encoding: UTF-16 and
// UTF-32, whose NUL bytes would read as binary, are told first
// (internal/sniff.Wide). Binary is
//
//   - a file whose first bytes match a signature of the WHATWG MIME
//     Sniffing Standard (https://mimesniff.spec.whatwg.org/#matching-a-mime-type-pattern:
//     images, audio, video, fonts, zip, gzip, rar, PDF, PostScript) and,
//     but for PDF and PostScript, whose first 512 bytes hold a binary data
//     byte (https://mimesniff.spec.whatwg.org/#binary-data-byte), so that a
//     text that happens to start with "BM" or "ID3" is not one;
//   - bytes of which more than one in 16 is a binary data byte (random
//     bytes: one in ten), NUL bytes at the end left out: a text padded with
//     NUL bytes is still text, while a stray control character or NUL does
//     not make a text binary.
func binaryKind(head []byte) string {
	if len(head) == 0 || sniff.Wide(head) != "" {
		return ""
	}
	first := head[:min(len(head), 512)]
	mt, _, _ := strings.Cut(http.DetectContentType(first), ";")
	switch {
	case mt == "application/pdf" || mt == "application/postscript":
		return mt
	case !strings.HasPrefix(mt, "text/") && mt != "application/octet-stream" && binaryBytes(first) > 0:
		return mt
	}
	text := bytes.TrimRight(head, "\x00")
	if len(text) == 0 {
		return "NUL bytes"
	}
	if binaryBytes(text)*16 > len(text) {
		return "control characters"
	}
	return ""
}

// binaryBytes counts the binary data bytes of b: 0x00-0x08, 0x0B,
// 0x0E-0x1A and 0x1C-0x1F, the controls that no text holds (tab, line
// feed, form feed, carriage return and escape, which ISO-2022 texts hold,
// are not among them), WHATWG MIME Sniffing §3
// (https://mimesniff.spec.whatwg.org/#binary-data-byte).
func binaryBytes(b []byte) int {
	n := 0
	for _, c := range b {
		if c < 0x20 && (c <= 0x08 || c == 0x0b || 0x0e <= c && c != 0x1b) {
			n++
		}
	}
	return n
}

// utf8BOM may start a text file.
var utf8BOM = []byte("\xef\xbb\xbf")

// looksJSONL reports whether text starts JSON lines: its first line is a
// JSON object with a "url" member. A robots.txt body that happens to start
// with "{" (a JSON error page) is not taken for one. A first line longer
// than text is taken for one when it starts with "{".
func looksJSONL(text []byte, whole bool) bool {
	text = bytes.TrimLeft(bytes.TrimPrefix(text, utf8BOM), " \t\r\n")
	if len(text) == 0 || text[0] != '{' {
		return false
	}
	line, _, found := bytes.Cut(text, []byte("\n"))
	if !found && !whole {
		return true
	}
	var probe struct {
		URL *string `json:"url"`
	}
	return json.Unmarshal(line, &probe) == nil && probe.URL != nil
}

// nextWARC returns the next response, or revisit, record as a Capture.
func (r *Reader) nextWARC() (*Capture, error) {
	for {
		rec, err := r.warc.Next()
		if err == io.EOF {
			r.done = true
			return nil, io.EOF
		}
		if err != nil {
			var we *warc.Error
			if errors.As(err, &we) {
				return nil, r.fail(we.Offset, we.Err)
			}
			return nil, r.fail(0, err)
		}
		var c *Capture
		switch rec.Type {
		case "response":
			c, err = r.response(rec)
		case "revisit":
			c = r.revisit(rec)
		}
		if err != nil || c != nil {
			return c, err
		}
	}
}

// isHTTPRecord reports whether rec records an HTTP exchange: a target of
// scheme http or https, and a block of type application/http (WARC/1.1
// §6.3.2) or message/http (annex C), when a type is given.
func isHTTPRecord(rec *warc.Record, uri string) bool {
	scheme, _, _ := strings.Cut(uri, ":")
	if !strings.EqualFold(scheme, "http") && !strings.EqualFold(scheme, "https") {
		return false
	}
	ct := strings.ToLower(rec.Header.Get("Content-Type"))
	return ct == "" || strings.HasPrefix(ct, "application/http") || strings.HasPrefix(ct, "message/http")
}

// targetURI returns the record's WARC-Target-URI, with or without the
// angle brackets of the uri rule of WARC/1.0 §4 (writers do both).
func targetURI(rec *warc.Record) string {
	u := strings.TrimSpace(rec.Header.Get("WARC-Target-URI"))
	if len(u) >= 2 && u[0] == '<' && u[len(u)-1] == '>' {
		u = u[1 : len(u)-1]
	}
	return u
}

// warcDate parses WARC-Date, a UTC time in the W3C profile of ISO 8601
// (https://www.w3.org/TR/NOTE-datetime): YYYY-MM-DDThh:mm:ssZ, to which
// WARC/1.1 §5.4 adds a fraction of a second and the coarser forms down to
// YYYY. It is zero when absent or malformed.
func warcDate(rec *warc.Record) time.Time {
	v := strings.TrimSpace(rec.Header.Get("WARC-Date"))
	for _, layout := range warcDateLayouts {
		if t, err := time.Parse(layout, v); err == nil {
			return t
		}
	}
	return time.Time{}
}

// warcDateLayouts are the forms of WARC-Date; time.RFC3339 also reads a
// fraction of a second.
var warcDateLayouts = [...]string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02", "2006-01", "2006"}

// response returns the Capture of a response record, nil for one that
// records no HTTP exchange.
func (r *Reader) response(rec *warc.Record) (*Capture, error) {
	uri := targetURI(rec)
	if !isHTTPRecord(rec, uri) {
		return nil, nil
	}
	resp, err := rec.Response(MaxBody)
	if err != nil {
		return nil, r.fail(rec.Offset, err)
	}
	c := &Capture{
		URL:    uri,
		Time:   warcDate(rec),
		Status: resp.StatusCode,
		Header: resp.Header,
		Body:   resp.Body,
		Size:   resp.Size,
		// WARC/1.1 §5, WARC-Truncated: the recorder cut the block
		// ("length", "time", "disconnect", "unspecified").
		Truncated: rec.Header.Get("WARC-Truncated") != "",
		Digest:    strings.TrimSpace(rec.Header.Get("WARC-Payload-Digest")),
		Source:    r.name,
		Offset:    rec.Offset,
	}
	r.seen.add(c, strings.TrimSpace(rec.Header.Get("WARC-Record-ID")))
	return c, nil
}

// revisit returns the Capture of a revisit record (WARC/1.1 §6.7) with
// the payload of the earlier response it repeats, found by its payload
// digest or the record it refers to; Revisit is set when that response is
// not among the last ones read. A revisit of a profile other than the two
// the standard defines is skipped: "a reader which does not recognize the
// profile URI shall not attempt to interpret the enclosing record".
func (r *Reader) revisit(rec *warc.Record) *Capture {
	profile := strings.TrimSpace(rec.Header.Get("WARC-Profile"))
	if !strings.HasSuffix(profile, "identical-payload-digest") && !strings.HasSuffix(profile, "server-not-modified") {
		return nil
	}
	uri := targetURI(rec)
	if !isHTTPRecord(rec, uri) {
		return nil
	}
	c := &Capture{
		URL:    uri,
		Time:   warcDate(rec),
		Digest: strings.TrimSpace(rec.Header.Get("WARC-Payload-Digest")),
		Source: r.name,
		Offset: rec.Offset,
	}
	// The block, when there is one, holds the response's headers; its
	// payload was left out (§6.7.2, §6.7.3).
	var resp *warc.Response
	if len(rec.Block) > 0 {
		resp, _ = rec.Response(0)
	}
	refersTo := strings.TrimSpace(rec.Header.Get("WARC-Refers-To"))
	e := r.seen.find(c.Digest, refersTo)
	if e == nil && r.earlier != nil {
		e = r.earlier(c.Digest, refersTo, &r.seen)
	}
	if e != nil {
		c.Status, c.Header, c.Body, c.Size, c.Truncated = e.status, e.header, e.body, e.size, e.truncated
		if resp != nil && resp.StatusCode != http.StatusNotModified {
			c.Status, c.Header = resp.StatusCode, resp.Header
		}
		if c.Digest == "" {
			c.Digest = e.digest
		}
		return c
	}
	c.Revisit = true
	if resp != nil {
		c.Status, c.Header = resp.StatusCode, resp.Header
	}
	return c
}

// inputSeen remembers the last responses of an input by payload digest and
// record ID, for the revisits that follow them: at most inputSeenKeys keys
// and about inputSeenBytes of bodies.
type inputSeen struct {
	byKey map[string]inputSeenRef
	order []inputSeenKey
	bytes int
	seq   uint64
	// full is set once a key was dropped: the keys added alone filled
	// the table, and nothing remembered before them is left.
	full bool
}

const (
	inputSeenKeys  = 2000 // two keys for each of 1,000 responses
	inputSeenBytes = 16 << 20
)

type inputSeenEntry struct {
	status    int
	header    http.Header
	body      []byte
	size      int64
	truncated bool
	digest    string
}

type inputSeenRef struct {
	e   *inputSeenEntry
	seq uint64
}

type inputSeenKey struct {
	key  string
	seq  uint64
	size int
	e    *inputSeenEntry
}

func (s *inputSeen) add(c *Capture, id string) {
	if c.Digest == "" && id == "" {
		return
	}
	if s.byKey == nil {
		s.byKey = make(map[string]inputSeenRef)
	}
	e := &inputSeenEntry{status: c.Status, header: c.Header, body: c.Body, size: c.Size, truncated: c.Truncated, digest: c.Digest}
	for _, k := range [...]string{"digest:" + c.Digest, "id:" + id} {
		if strings.HasSuffix(k, ":") {
			continue
		}
		s.seq++
		s.byKey[k] = inputSeenRef{e: e, seq: s.seq}
		s.order = append(s.order, inputSeenKey{key: k, seq: s.seq, size: len(c.Body), e: e})
		s.bytes += len(c.Body)
	}
	for len(s.order) > inputSeenKeys || s.bytes > inputSeenBytes && len(s.order) > 1 {
		old := s.order[0]
		s.order = s.order[1:]
		s.full = true
		s.bytes -= old.size
		if ref, ok := s.byKey[old.key]; ok && ref.seq == old.seq {
			delete(s.byKey, old.key)
		}
	}
}

// findBefore finds, in the tables of the pieces before (oldest first),
// what a table of the whole input would still hold when own holds the
// keys added since: the newest keys, as many as the limits of add let
// stay beside own's.
func findBefore(before []*inputSeen, own *inputSeen, digest, refersTo string) *inputSeenEntry {
	if own.full {
		return nil
	}
	for _, key := range [...]string{"digest:" + digest, "id:" + refersTo} {
		if strings.HasSuffix(key, ":") {
			continue
		}
		n, bytes := len(own.order), own.bytes
	pieces:
		for i := len(before) - 1; i >= 0; i-- {
			s := before[i]
			if s == nil {
				break // a piece that could not be read
			}
			for j := len(s.order) - 1; j >= 0; j-- {
				k := &s.order[j]
				n++
				bytes += k.size
				if n > inputSeenKeys || bytes > inputSeenBytes && n > 1 {
					break pieces
				}
				if k.key == key {
					return k.e
				}
			}
			if s.full {
				break // nothing before it was left
			}
		}
	}
	return nil
}

func (s *inputSeen) find(digest, refersTo string) *inputSeenEntry {
	if digest != "" {
		if ref, ok := s.byKey["digest:"+digest]; ok {
			return ref.e
		}
	}
	if refersTo != "" {
		if ref, ok := s.byKey["id:"+refersTo]; ok {
			return ref.e
		}
	}
	return nil
}

// errLineTooLong reports a line of JSON longer than maxJSONLine.
var errLineTooLong = fmt.Errorf("line longer than %d bytes", maxJSONLine)

// nextJSONL returns the Capture of the next non-empty line.
func (r *Reader) nextJSONL() (*Capture, error) {
	for {
		line, off, err := r.readLine()
		switch {
		case err == io.EOF:
			r.done = true
			return nil, io.EOF
		case err == errLineTooLong:
			return nil, r.fail(off, err)
		case err != nil:
			r.done = true // a read error, or a corrupt gzip stream
			return nil, r.fail(off, err)
		}
		if off == 0 {
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		if line = bytes.TrimSpace(line); len(line) == 0 {
			continue
		}
		c, err := parseJSONLine(line)
		if err != nil {
			return nil, r.fail(off, err)
		}
		c.Source, c.Offset = r.name, off
		return c, nil
	}
}

// readLine returns the next line and its offset; a line longer than
// maxJSONLine is skipped, unkept, and reported with errLineTooLong.
func (r *Reader) readLine() ([]byte, int64, error) {
	off := r.lineOff
	r.line = r.line[:0]
	long := false
	for {
		chunk, err := r.lines.ReadSlice('\n')
		r.lineOff += int64(len(chunk))
		if err == nil && len(r.line) == 0 && !long {
			return chunk, off, nil // the whole line in the buffer
		}
		if !long {
			if len(r.line)+len(chunk) > maxJSONLine {
				long, r.line = true, r.line[:0]
			} else {
				r.line = append(r.line, chunk...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err == io.EOF:
			if r.lineOff == off {
				return nil, off, io.EOF
			}
		case err != nil:
			return nil, off, err
		}
		if long {
			return nil, off, errLineTooLong
		}
		return r.line, off, nil
	}
}

// inputJSONLine is one line of JSON input.
type inputJSONLine struct {
	URL     *string                    `json:"url"`
	Status  int                        `json:"status"`
	Headers map[string]json.RawMessage `json:"headers"`
	Body    *string                    `json:"body"`
	BodyB64 *string                    `json:"body_b64"`
	Time    string                     `json:"time"`
}

// parseJSONLine turns a line of JSON into a Capture.
func parseJSONLine(line []byte) (*Capture, error) {
	var j inputJSONLine
	if err := json.Unmarshal(line, &j); err != nil {
		return nil, fmt.Errorf("JSON line: %w", err)
	}
	if j.URL == nil || *j.URL == "" {
		return nil, errors.New(`JSON line: no "url"`)
	}
	if j.Status < 0 || j.Status > 999 {
		return nil, fmt.Errorf(`JSON line: "status" %d`, j.Status)
	}
	c := &Capture{URL: *j.URL, Status: j.Status}
	if j.Time != "" {
		t, err := time.Parse(time.RFC3339, j.Time)
		if err != nil {
			return nil, fmt.Errorf(`JSON line: "time": %w`, err)
		}
		c.Time = t
	}
	if j.Headers != nil {
		c.Header = make(http.Header, len(j.Headers))
		for k, raw := range j.Headers {
			var one string
			var many []string
			switch {
			case json.Unmarshal(raw, &one) == nil:
				many = []string{one}
			case json.Unmarshal(raw, &many) == nil:
			default:
				return nil, fmt.Errorf(`JSON line: header %q is neither a string nor an array of strings`, k)
			}
			key := http.CanonicalHeaderKey(k)
			c.Header[key] = append(c.Header[key], many...)
		}
	}
	var body []byte
	switch {
	case j.Body != nil && j.BodyB64 != nil:
		return nil, errors.New(`JSON line: both "body" and "body_b64"`)
	case j.Body != nil:
		body = []byte(*j.Body)
	case j.BodyB64 != nil:
		// RFC 4648 §4, padded or not.
		var err error
		if body, err = base64.StdEncoding.DecodeString(*j.BodyB64); err != nil {
			if body, err = base64.RawStdEncoding.DecodeString(*j.BodyB64); err != nil {
				return nil, fmt.Errorf(`JSON line: "body_b64": %w`, err)
			}
		}
	}
	c.Size = int64(len(body))
	if len(body) > MaxBody {
		body = bytes.Clone(body[:MaxBody])
	}
	c.Body = body
	return c, nil
}

// robotsFile returns the Capture of an input that is one robots.txt body.
func (r *Reader) robotsFile() (*Capture, error) {
	var src io.Reader = r.br
	if r.gzipped {
		zr, err := gzip.NewReader(r.br)
		if err != nil {
			return nil, r.fail(0, err)
		}
		src = zr
	}
	body, err := io.ReadAll(io.LimitReader(src, MaxBody))
	if err != nil {
		return nil, r.fail(0, err)
	}
	size := int64(len(body))
	if len(body) == MaxBody {
		n, err := io.CopyN(io.Discard, src, inputCountMax-size)
		if err != nil && err != io.EOF {
			return nil, r.fail(0, err)
		}
		size += n
	}
	c := &Capture{Body: body, Size: size, Source: r.name}
	if host := inputHost(r.name, r.gzipped); host != "" {
		c.URL = "https://" + host + "/robots.txt"
	}
	return c, nil
}

// inputHost returns the host a robots.txt file is named by: its base
// name, without ".gz" when it was compressed.
func inputHost(name string, gzipped bool) string {
	host := filepath.Base(name)
	if gzipped {
		host = strings.TrimSuffix(host, ".gz")
	}
	switch host {
	case ".", "-", string(filepath.Separator):
		return ""
	}
	return host
}
