package warc

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"net/http"
	"strings"
)

// ErrNotHTTP: the block does not start with an HTTP status line.
var ErrNotHTTP = errors.New("warc: block is not an HTTP response")

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
	// codings (gzip, x-gzip, deflate) undone, cut to the maxBody given.
	Body []byte
	// Size is the payload's length before the cut. When the record's
	// block was itself cut (by the Reader's block limit), Size is the
	// larger of what could be decoded and what the block declares after
	// the headers.
	Size int64
	// Cut is set when Body holds less than the payload recorded: cut to
	// maxBody, or the block was cut, or the decoded size passed 64 MiB.
	Cut bool
	// Encoding names the content codings left undone (other than gzip,
	// x-gzip and deflate, such as br), "" when none: Body then holds the
	// payload still so coded.
	Encoding string
}

// maxFields bounds the header fields a Response keeps.
const maxFields = 1000

// maxDecoded bounds how many decoded bytes are counted for Size: a small
// compressed body may expand a thousandfold.
const maxDecoded = 64 << 20

// Response parses the record's block as an HTTP response message (RFC
// 9112 §2.1: status line, header fields, empty line, body) and decodes its
// payload, keeping at most maxBody bytes of it.
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
	resp := &Response{Proto: proto, StatusCode: code, Header: make(http.Header)}

	// Header fields (RFC 9112 §5), up to the empty line.
	var last string
	fields, ended := 0, false
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
		if line[0] == ' ' || line[0] == '\t' {
			// obs-fold (RFC 9112 §5.2): a continuation, replaced by a space.
			if vs := resp.Header[last]; len(vs) > 0 {
				if v := strings.Trim(string(line), " \t"); v != "" {
					vs[len(vs)-1] = strings.TrimSpace(vs[len(vs)-1] + " " + v)
				}
			}
			continue
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		name = bytes.TrimRight(name, " \t")
		if !ok || !isToken(string(name)) || fields >= maxFields {
			last = ""
			continue // not a field line: ignore it, as a browser would
		}
		fields++
		last = http.CanonicalHeaderKey(string(name))
		resp.Header[last] = append(resp.Header[last], string(bytes.Trim(value, " \t")))
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
	codings := contentCodings(resp.Header)
	if len(codings) == 0 {
		resp.Body = bytes.Clone(payload[:min(len(payload), maxBody)])
		resp.Size = int64(len(payload))
		if cut && len(payload) == len(body) {
			resp.Size = declared // exact: the body is not coded
		}
	} else {
		resp.Body, resp.Size, resp.Encoding, resp.Cut = decode(payload, codings, maxBody)
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
// 9110 §8.4), "identity" left out. As with Transfer-Encoding, Common
// Crawl's X-Crawler-Content-Encoding names a coding already undone.
func contentCodings(h http.Header) []string {
	var out []string
	for _, v := range h.Values("Content-Encoding") {
		for c := range strings.SplitSeq(v, ",") {
			c = strings.ToLower(strings.TrimSpace(c))
			if c != "" && c != "identity" && len(out) < 8 {
				out = append(out, c)
			}
		}
	}
	return out
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

// decode undoes the content codings of p, last applied first, and returns
// up to maxBody bytes of the result, its size (counted up to maxDecoded),
// the codings it could not undo, and whether the count stopped at the
// bound. A coding whose data is not so coded (a gzip body without the gzip
// magic, RFC 1952 §2.3.1) was undone by the recorder: the rest of p is
// taken as is. So is a body that fails to decode at its first byte.
func decode(p []byte, codings []string, maxBody int) (body []byte, size int64, left string, bound bool) {
	var rd io.Reader = bytes.NewReader(p)
	applied := 0
	for i := len(codings) - 1; i >= 0; i-- {
		next, ok, known := decoder(rd, codings[i])
		if !known {
			left = strings.Join(codings[:i+1], ", ")
			rd = next
			break
		}
		rd = next
		if !ok {
			break
		}
		applied++
	}
	if applied == 0 {
		size = int64(len(p))
		return bytes.Clone(p[:min(len(p), maxBody)]), size, left, false
	}
	body, err := io.ReadAll(io.LimitReader(rd, int64(maxBody)))
	if len(body) == 0 && err != nil {
		// Not coded after all, at least not readably.
		return bytes.Clone(p[:min(len(p), maxBody)]), int64(len(p)), left, false
	}
	size = int64(len(body))
	if err == nil && len(body) == maxBody {
		n, _ := io.CopyN(io.Discard, rd, maxDecoded-size+1)
		size += n
		if size > maxDecoded {
			size, bound = maxDecoded, true
		}
	}
	return body, size, left, bound
}

// decoder returns a reader of r with the content coding c undone; ok is
// false when r's data does not carry the coding (then the reader returned
// reads r's data unchanged), and known is false for a coding it does not
// undo. gzip and x-gzip are one coding (RFC 9110 §8.4.1.3); deflate is the
// zlib format (RFC 9110 §8.4.1.2, RFC 1950), but some servers send raw
// deflate data (RFC 1951) instead, which the note in that section
// mentions: both are read.
func decoder(r io.Reader, c string) (next io.Reader, ok, known bool) {
	br := bufio.NewReaderSize(r, 512)
	head, _ := br.Peek(2)
	switch c {
	case "gzip", "x-gzip":
		if len(head) < 2 || head[0] != 0x1f || head[1] != 0x8b {
			return br, false, true
		}
		zr, err := gzip.NewReader(br)
		if err != nil {
			return br, false, true
		}
		return zr, true, true
	case "deflate":
		if len(head) == 2 && head[0]&0x0f == 8 && head[0]>>4 <= 7 && (uint16(head[0])<<8|uint16(head[1]))%31 == 0 {
			zr, err := zlib.NewReader(br)
			if err != nil {
				return br, false, true
			}
			return zr, true, true
		}
		return flate.NewReader(br), true, true
	}
	return br, false, false
}
