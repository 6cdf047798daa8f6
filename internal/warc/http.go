package warc

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/andybalholm/brotli"
	"github.com/klauspost/compress/zstd"
)

// ErrNotHTTP: the block does not start with an HTTP status line.
var ErrNotHTTP = errors.New("warc: block is not an HTTP response")

// ErrCoding: the response's Content-Encoding names a content coding that
// Response does not undo (compress, or a name no registry knows), or more
// than eight of them, or its decoder failed, so that its payload cannot
// be read; the error also names the coding.
var ErrCoding = errors.New("warc: cannot undo the content coding")

// A Response is the HTTP response a 'response' record holds (WARC/1.1
// §6.3.2: "the full HTTP response received over the network, including
// headers"), or the headers a 'revisit' record keeps of one.
type Response struct {
	// Proto is the status line's version, as written: "HTTP/1.1".
	Proto      string
	StatusCode int
	// Header holds the header fields, names in canonical form, as
	// recorded: Common Crawl renames the fields whose coding it undid
	// (X-Crawler-Content-Encoding, X-Crawler-Transfer-Encoding).
	Header http.Header
	// Body is the payload with its transfer coding (chunked) and content
	// codings (gzip, x-gzip, deflate, br, zstd) undone, cut to the maxBody
	// given.
	Body []byte
	// Size is the payload's length before the cut. When the record's
	// block was itself cut (by the Reader's block limit), Size is the
	// larger of what could be decoded and what the block declares after
	// the headers.
	Size int64
	// Cut is set when Body holds less than the payload recorded: cut to
	// maxBody, or the block was cut, or the decoded size passed 64 MiB.
	Cut bool
}

// maxFields bounds the header fields a Response keeps.
const maxFields = 1000

// maxDecoded bounds how many decoded bytes are counted for Size: a small
// compressed body may expand a thousandfold.
const maxDecoded = 64 << 20

// Response parses the record's block as an HTTP response message (RFC
// 9112 §2.1: status line, header fields, empty line, body) and decodes its
// payload, keeping at most maxBody bytes of it. It returns ErrNotHTTP for
// a block that is no HTTP response, and an error wrapping ErrCoding for a
// payload in a content coding it cannot undo.
func (rec *Record) Response(maxBody int) (*Response, error) {
	return parseResponse(rec.Block, rec.Length, max(maxBody, 0))
}

func parseResponse(block []byte, length int64, maxBody int) (*Response, error) {
	cut := length > int64(len(block))
	line, i, _ := nextLine(block, 0)
	proto, code, ok := statusLine(line)
	if !ok {
		return nil, ErrNotHTTP
	}
	resp := &Response{Proto: proto, StatusCode: code}

	// Header fields (RFC 9112 §5), up to the empty line. The section is
	// found first, then copied once: names and values are substrings of
	// that copy.
	start, end, lines, ended := i, i, 0, false
	for i < len(block) {
		line, next, whole := nextLine(block, i)
		if !whole && cut {
			break // the block was cut within this line
		}
		i = next
		if len(line) == 0 {
			ended = true
			break
		}
		end = i
		lines++
	}
	resp.Header = make(http.Header, min(lines, maxFields))
	vals := make([]string, 0, min(lines, maxFields))
	var last string
	fields := 0
	for rest := string(block[start:end]); rest != ""; {
		var line string
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			line, rest = strings.TrimSuffix(rest[:j], "\r"), rest[j+1:]
		} else {
			line, rest = rest, "" // the last line of a block, without LF
		}
		if line != "" && (line[0] == ' ' || line[0] == '\t') {
			// obs-fold (RFC 9112 §5.2): a continuation, replaced by a space.
			if vs := resp.Header[last]; len(vs) > 0 {
				if v := strings.Trim(line, " \t"); v != "" {
					vs[len(vs)-1] = strings.TrimSpace(vs[len(vs)-1] + " " + v)
				}
			}
			continue
		}
		name, value, ok := strings.Cut(line, ":")
		name = strings.TrimRight(name, " \t")
		if !ok || !isToken(name) || fields >= maxFields {
			last = ""
			continue // not a field line: ignore it, as a browser would
		}
		fields++
		last = http.CanonicalHeaderKey(name)
		value = strings.Trim(value, " \t")
		if vs, ok := resp.Header[last]; ok {
			resp.Header[last] = append(vs, value)
		} else {
			vals = append(vals, value)
			resp.Header[last] = vals[len(vals)-1 : len(vals) : len(vals)]
		}
	}
	if !ended {
		// A block of headers alone (a revisit record's), or cut before
		// their end: no payload to speak of.
		resp.Cut = cut
		return resp, nil
	}

	body := block[i:]
	declared := length - int64(i) // the body's length in the record
	payload := body
	if chunked(resp.Header) {
		// RFC 9112 §7.1; a body that does not start with a chunk size was
		// stored decoded under the recorded header and is taken as is.
		if d, ok := dechunk(body); ok {
			payload = d
		}
	}
	codings, err := contentCodings(resp.Header)
	if err != nil && len(payload) > 0 {
		return nil, err
	}
	if len(codings) == 0 || len(payload) == 0 {
		resp.Body = bytes.Clone(payload[:min(len(payload), maxBody)])
		resp.Size = int64(len(payload))
		if cut && len(payload) == len(body) {
			resp.Size = declared // exact: the body is not coded
		}
	} else {
		if resp.Body, resp.Size, resp.Cut, err = decode(payload, codings, maxBody); err != nil {
			return nil, err
		}
	}
	if cut {
		resp.Size = max(resp.Size, declared)
		resp.Cut = true
	}
	resp.Cut = resp.Cut || resp.Size > int64(len(resp.Body))
	return resp, nil
}

// nextLine returns the line of b that starts at i, without its LF or CRLF,
// the index after it, and whether an LF ended it.
func nextLine(b []byte, i int) (line []byte, next int, whole bool) {
	rest := b[i:]
	j := bytes.IndexByte(rest, '\n')
	if j < 0 {
		return rest, len(b), false
	}
	return bytes.TrimSuffix(rest[:j], []byte("\r")), i + j + 1, true
}

// statusLine parses "HTTP/1.1 200 OK" (RFC 9112 §4: HTTP-version SP
// status-code SP [reason-phrase]); it takes any version after "HTTP/"
// ("HTTP/1.x", "HTTP/2") and a missing reason.
func statusLine(line []byte) (string, int, bool) {
	proto, rest, _ := bytes.Cut(line, []byte(" "))
	if !bytes.HasPrefix(proto, []byte("HTTP/")) || len(proto) > 16 {
		return "", 0, false
	}
	rest = bytes.TrimLeft(rest, " ")
	if len(rest) < 3 || len(rest) > 3 && rest[3] != ' ' && rest[3] != '\t' {
		return "", 0, false
	}
	code := 0
	for _, c := range rest[:3] {
		if c < '0' || c > '9' {
			return "", 0, false
		}
		code = code*10 + int(c-'0')
	}
	return string(proto), code, true
}

// chunked reports whether chunked is the final transfer coding (RFC 9112
// §6.1). Common Crawl renames the field X-Crawler-Transfer-Encoding when
// it stored the body dechunked (https://github.com/commoncrawl/news-crawl/issues/30),
// so that field is left alone.
func chunked(h http.Header) bool {
	te := h.Values("Transfer-Encoding")
	if len(te) == 0 {
		return false
	}
	codings := strings.Split(te[len(te)-1], ",")
	return strings.EqualFold(strings.TrimSpace(codings[len(codings)-1]), "chunked")
}

// contentCodings returns the content codings in the order applied (RFC
// 9110 §8.4), "identity" left out, or an error wrapping ErrCoding for a
// coding that decode does not undo (RFC 9110 §8.4.1.1's compress among
// them) or for more than maxCodings. As with Transfer-Encoding, Common
// Crawl's X-Crawler-Content-Encoding names a coding already undone.
func contentCodings(h http.Header) ([]string, error) {
	var out []string
	for _, v := range h.Values("Content-Encoding") {
		for c := range strings.SplitSeq(v, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			switch {
			case c == "" || c == "identity":
			case !knownCoding(c):
				return nil, fmt.Errorf("%w %q", ErrCoding, clip(c))
			case len(out) == maxCodings:
				return nil, fmt.Errorf("%w: more than %d codings", ErrCoding, maxCodings)
			default:
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// maxCodings bounds the content codings of a payload that are undone.
const maxCodings = 8

// knownCoding reports whether decoder undoes the content coding c: the
// codings of the HTTP Content Coding Registry
// (https://www.iana.org/assignments/http-parameters/http-parameters.xhtml#content-coding)
// that servers send, except compress (LZW, RFC 9110 §8.4.1.1), which no
// browser reads either.
func knownCoding(c string) bool {
	switch c {
	case "gzip", "x-gzip", "deflate", "br", "zstd":
		return true
	}
	return false
}

// dechunk undoes the chunked transfer coding (RFC 9112 §7.1): chunk-size
// in hex, optional extensions after ';', CRLF, data, CRLF, up to a chunk
// of size 0 (trailer fields are dropped). A body cut short gives what it
// holds. ok is false when b does not start with a chunk-size line.
func dechunk(b []byte) ([]byte, bool) {
	out := make([]byte, 0, len(b))
	i := 0
	for first := true; ; first = false {
		line, next, whole := nextLine(b, i)
		size, ok := chunkSize(line)
		if !ok || !whole {
			return out, !first
		}
		i = next
		if size == 0 {
			return out, true
		}
		if int64(len(b)-i) < size {
			return append(out, b[i:]...), true
		}
		out = append(out, b[i:i+int(size)]...)
		i += int(size)
		// The CRLF after the data; tolerate a bare LF or none.
		if bytes.HasPrefix(b[i:], []byte("\r\n")) {
			i += 2
		} else if bytes.HasPrefix(b[i:], []byte("\n")) {
			i++
		}
	}
}

// chunkSize parses a chunk-size line: 1*HEXDIG, then optional whitespace
// and chunk extensions (RFC 9112 §7.1.1).
func chunkSize(line []byte) (int64, bool) {
	line, _, _ = bytes.Cut(line, []byte(";"))
	line = bytes.Trim(line, " \t")
	if len(line) == 0 || len(line) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range line {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		n = n<<4 | int64(d)
	}
	return n, true
}

// decode undoes the content codings of p, last applied first (RFC 9110
// §8.4: "listed in the order in which they were applied"), and returns up
// to maxBody bytes of the result, its size (counted up to maxDecoded, so
// that a decompression bomb is read no further) and whether the count
// stopped at that bound. Every coding must be known (contentCodings). A
// coding whose data is not so coded (a gzip body without the gzip magic,
// RFC 1952 §2.3.1) was undone by the recorder: the rest of p is taken as
// is. So is a body that fails to decode at its first byte (text stored
// decoded under "br", which has no magic number). A decoder of another
// package that panics on its input is an error wrapping ErrCoding, not a
// panic of Response.
func decode(p []byte, codings []string, maxBody int) (body []byte, size int64, bound bool, err error) {
	defer func() {
		if e := recover(); e != nil {
			body, size, bound = nil, 0, false
			err = fmt.Errorf("%w: decoding %q failed: %v", ErrCoding, strings.Join(codings, ", "), e)
		}
	}()
	var rd io.Reader = bytes.NewReader(p)
	applied := 0
	for i := len(codings) - 1; i >= 0; i-- {
		next, ok, closer := decoder(rd, codings[i])
		if closer != nil {
			defer closer()
		}
		rd = next
		if !ok {
			break
		}
		applied++
	}
	if applied == 0 {
		return bytes.Clone(p[:min(len(p), maxBody)]), int64(len(p)), false, nil
	}
	body, rerr := io.ReadAll(io.LimitReader(rd, int64(maxBody)))
	if len(body) == 0 && rerr != nil {
		// Not coded after all, at least not readably.
		return bytes.Clone(p[:min(len(p), maxBody)]), int64(len(p)), false, nil
	}
	size = int64(len(body))
	if rerr == nil && len(body) == maxBody {
		n, _ := io.CopyN(io.Discard, rd, maxDecoded-size+1)
		size += n
		if size > maxDecoded {
			size, bound = maxDecoded, true
		}
	}
	return body, size, bound, nil
}

// zstdMaxWindow is the largest window a zstd payload may use: RFC 9659
// §3 (https://www.rfc-editor.org/rfc/rfc9659#section-3) bounds the
// Window_Size of the "zstd" content coding to 8 MB, so that a decoder's
// memory is bounded.
const zstdMaxWindow = 8 << 20

// newBrotli returns a reader of the Brotli stream r; a variable, so that
// a test can make it fail.
var newBrotli = func(r io.Reader) io.Reader { return brotli.NewReader(r) }

// decoder returns a reader of r with the content coding c, which must be
// known (knownCoding), undone, and a function that frees the decoder when
// there is one to free; ok is false when r's data does not carry the
// coding (then the reader returned reads r's data unchanged).
//
// gzip and x-gzip are one coding (RFC 9110 §8.4.1.3); deflate is the zlib
// format (RFC 9110 §8.4.1.2, RFC 1950), but some servers send raw deflate
// data (RFC 1951) instead, which the note in that section mentions: both
// are read. br is Brotli (RFC 7932, its window at most 16 MiB, §9.1), and
// zstd Zstandard (RFC 8878 §3.1.1: frames start with the magic number
// 0xFD2FB528, skippable frames with 0x184D2A5?, §3.1.2).
func decoder(r io.Reader, c string) (next io.Reader, ok bool, free func()) {
	br := bufio.NewReaderSize(r, 512)
	head, _ := br.Peek(4)
	switch c {
	case "gzip", "x-gzip":
		if len(head) < 2 || head[0] != 0x1f || head[1] != 0x8b {
			return br, false, nil
		}
		zr, err := gzip.NewReader(br)
		if err != nil {
			return br, false, nil
		}
		return zr, true, nil
	case "deflate":
		if len(head) >= 2 && head[0]&0x0f == 8 && head[0]>>4 <= 7 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
			zr, err := zlib.NewReader(br)
			if err != nil {
				return br, false, nil
			}
			return zr, true, nil
		}
		return flate.NewReader(br), true, nil
	case "br":
		return newBrotli(br), true, nil
	case "zstd":
		frame := len(head) == 4 && (string(head) == "\x28\xb5\x2f\xfd" || head[0]&0xf0 == 0x50 && string(head[1:]) == "\x2a\x4d\x18")
		if !frame {
			return br, false, nil
		}
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(zstdMaxWindow), zstd.WithDecodeBuffersBelow(0))
		if err != nil {
			return br, false, nil
		}
		return zr, true, zr.Close
	}
	return br, false, nil
}
