// Package accesslog reads web-server access logs, one request a line, for
// the robots logs command: when each request was made, for which host and
// target, with what status and by which User-Agent from which address.
//
// It reads three shapes of line, telling them apart line by line unless
// the caller fixes the format:
//
//   - the Combined Log Format of Apache's mod_log_config,
//     "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-agent}i\""
//     (https://httpd.apache.org/docs/current/mod/mod_log_config.html),
//     which is also nginx's predefined "combined" log_format
//     (http://nginx.org/en/docs/http/ngx_http_log_module.html#log_format);
//     the Common Log Format, the same without the referer and the
//     User-Agent; and Apache's "vhost_combined", the same after "%v:%p ".
//     Quoted fields are unescaped as those servers escape them: \" and \\,
//     \xHH for other bytes, and Apache's \b \f \n \r \t \v;
//   - JSON lines, one object a line: the keys "time", "host", "path",
//     "status" and "user_agent", and the names nginx's variables
//     (http://nginx.org/en/docs/http/ngx_http_core_module.html#variables)
//     give them in a log_format with escape=json ("time_local",
//     "time_iso8601", "http_host", "server_name", "request_uri",
//     "request", "http_user_agent", "remote_addr", "request_method"), other
//     common spellings ("timestamp", "@timestamp", "uri", "url", "ua",
//     "userAgent", "ip", "client_ip"), and Caddy's structured access log
//     (https://caddyserver.com/docs/caddyfile/directives/log and
//     https://caddyserver.com/docs/logging), whose "request" object holds
//     "host", "uri", "method", "client_ip", "remote_ip" and the
//     "headers" with "User-Agent";
//   - either of those compressed with gzip (RFC 1952), one member or
//     several as concatenating .gz files makes them.
//
// A JSON line's keys match as encoding/json matches them, ignoring case.
// When a line has several keys for one thing, the first present and not
// null wins: for the time "time", "timestamp", "ts", "time_local",
// "time_iso8601", "@timestamp"; for the host "host", "http_host",
// "server_name", Caddy's request host; for the target "path",
// "request_uri", the target of a "request" line, "uri", "url", Caddy's
// request uri; for the method "method", "request_method", the request
// line's, Caddy's; for the User-Agent "user_agent", "http_user_agent",
// "ua", "userAgent", Caddy's first User-Agent header; for the client
// "remote_addr", "client_ip", "ip", "remote_ip", then Caddy's client_ip
// and remote_ip. A time is an RFC 3339 string, a CLF time, or a Unix time
// as a number or a string: seconds, with or without a fraction, or
// milliseconds above 1e12, microseconds above 1e15, nanoseconds above
// 1e18. A JSON line needs a time and a target; the status, a number or a
// string, is 0 when absent. nginx's default escaping (escape=default),
// which writes \xHH in strings, is not JSON: such lines are bad lines.
//
// A line that cannot be read as a request is a bad line: the Reader counts
// it, remembers why the first one was bad, and goes on. Memory stays
// bounded whatever the input: lines are read through a fixed buffer, and a
// line longer than MaxLine is discarded piece by piece.
//
// The package also reads the published IP ranges of crawlers (Ranges), to
// tell a real Googlebot from a User-Agent that only says so.
package accesslog

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"strings"
	"time"
)

// MaxLine is the longest line the Reader reads, in bytes, without its line
// end: a longer line is a bad line, skipped without being held in memory
// whole.
const MaxLine = 64 << 10

// bufSize is the size of the Reader's line buffer: MaxLine and a CR LF.
const bufSize = MaxLine + 2

// Format is the shape of the lines of a log.
type Format uint8

const (
	// Auto reads a line whose first byte other than a space or tab is "{"
	// as JSON, and any other line as Combined.
	Auto Format = iota
	// Combined reads every line as the Combined Log Format, the Common
	// Log Format or vhost_combined.
	Combined
	// JSON reads every line as a JSON object.
	JSON
)

var formatNames = [...]string{Auto: "auto", Combined: "combined", JSON: "json"}

// String returns the name ParseFormat reads: "auto", "combined" or "json".
func (f Format) String() string {
	if int(f) < len(formatNames) {
		return formatNames[f]
	}
	return fmt.Sprintf("Format(%d)", uint8(f))
}

// ParseFormat reads a format's name as String writes it, ignoring case,
// as a command-line flag gives it.
func ParseFormat(s string) (Format, error) {
	for f, name := range formatNames {
		if strings.EqualFold(s, name) {
			return Format(f), nil
		}
	}
	return Auto, fmt.Errorf("accesslog: unknown log format %q (want auto, combined or json)", s)
}

// An Entry is one request of a log.
type Entry struct {
	// Line is the 1-based number of the line in the (decompressed) input.
	Line int64
	// Time is when the request was made, in the zone the log wrote
	// (UTC for a Unix time).
	Time time.Time
	// Host is the host the request was for, as the log writes it, or ""
	// when the line names none: vhost_combined's server name without its
	// port, a JSON line's host (which may carry a port), or else the
	// authority of an absolute-form target, without user information.
	Host string
	// Method is the request method ("GET"), or "" when a JSON line has
	// none.
	Method string
	// Target is the request target as written: origin-form ("/a?b") or
	// absolute-form ("http://h/a"), unescaped from the log's quoting.
	Target string
	// Status is the HTTP status code of the response, 0 when the log
	// wrote "-" or a JSON line has none.
	Status int
	// UserAgent is the User-Agent header, "" when the line has none (the
	// Common Log Format) and "-" as the log writes an absent header.
	UserAgent string
	// Remote is the client's address, the zero Addr when the line has none
	// or it is not an IP address (a host name, with HostnameLookups on).
	Remote netip.Addr
}

// Stats counts what a Reader has read so far.
type Stats struct {
	// Lines is the number of lines read, empty ones included.
	Lines int64
	// Entries is the number of entries Next returned.
	Entries int64
	// Bad is the number of lines skipped as unreadable. Empty lines are
	// neither entries nor bad.
	Bad int64
	// FirstBad says which line was the first bad one and why, as
	// "line 7: no quoted request"; "" when no line was bad.
	FirstBad string
	// Bytes is how many bytes have been read from the input, compressed
	// ones when it is gzip, for a progress report. The Reader reads ahead
	// of the lines it has returned.
	Bytes int64
}

// A Reader reads the entries of an access log. It is not safe for
// concurrent use.
type Reader struct {
	format Format
	in     counter
	br     *bufio.Reader // the lines, of the input or of gzip
	err    error         // sticky: the error Next returns from now on
	stats  Stats
	line   int64

	scratch []byte   // unescaped quoted fields
	js      jsonLine // reused by the JSON reader
	jsReq   caddyRequest

	// Reused strings: logs repeat their User-Agents, hosts and clients.
	prevUA, prevHost string
	prevRemote       []byte
	prevAddr         netip.Addr

	// The CLF time of the previous line to the hour, and its zone.
	tkey   [26]byte
	tbase  time.Time
	tok    bool
	zoff   int
	zloc   *time.Location
	reason string // why the line being read is bad
}

// counter counts the bytes read from the input.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// NewReader returns a Reader of the log r in format f. When r starts with
// the gzip magic bytes (1f 8b), the Reader decompresses it; NewReader
// fails only when the gzip header that follows is broken.
func NewReader(r io.Reader, f Format) (*Reader, error) {
	if f > JSON {
		return nil, fmt.Errorf("accesslog: unknown format %d", f)
	}
	lr := &Reader{format: f, in: counter{r: r}}
	lr.br = bufio.NewReaderSize(&lr.in, bufSize)
	magic, err := lr.br.Peek(2)
	if err != nil && err != io.EOF {
		lr.err = fmt.Errorf("accesslog: %w", err)
		return lr, nil
	}
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(lr.br) // reads lr.br's buffer in place
		if err != nil {
			return nil, fmt.Errorf("accesslog: gzip: %w", err)
		}
		lr.br = bufio.NewReaderSize(zr, bufSize)
	}
	return lr, nil
}

// Stats returns the counts of what r has read so far.
func (r *Reader) Stats() Stats {
	s := r.stats
	s.Bytes = r.in.n
	return s
}

// Next reads the next entry into e, skipping empty and bad lines. It
// returns io.EOF at the end of the input, and an error wrapping the cause
// when the input cannot be read (a read error, corrupt gzip data); it
// returns the same error from then on. e is written only when Next
// returns nil.
func (r *Reader) Next(e *Entry) error {
	if r.err != nil {
		return r.err
	}
	for {
		line, err := r.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			r.line++
			r.stats.Lines++
			for err == bufio.ErrBufferFull {
				_, err = r.br.ReadSlice('\n')
			}
			r.bad(fmt.Sprintf("longer than %d bytes", MaxLine))
			if err != nil && err != io.EOF {
				return r.fail(err)
			}
			continue
		}
		if err != nil && (err != io.EOF || len(line) == 0) {
			return r.fail(err)
		}
		r.line++
		r.stats.Lines++
		line = trimEOL(line)
		if len(line) > MaxLine {
			r.bad(fmt.Sprintf("longer than %d bytes", MaxLine))
			continue
		}
		line = trimSpace(line)
		if len(line) == 0 {
			continue
		}
		var ok bool
		switch {
		case r.format == JSON || r.format == Auto && line[0] == '{':
			ok = r.parseJSON(line, e)
		default:
			ok = r.parseCLF(line, e)
		}
		if !ok {
			r.bad(r.reason)
			continue
		}
		e.Line = r.line
		r.stats.Entries++
		return nil
	}
}

// fail makes err, met reading the input, the sticky error of r.
func (r *Reader) fail(err error) error {
	if err == io.EOF {
		r.err = io.EOF
	} else if errors.Is(err, io.ErrUnexpectedEOF) {
		r.err = fmt.Errorf("accesslog: after line %d: truncated input: %w", r.line, err)
	} else {
		r.err = fmt.Errorf("accesslog: after line %d: %w", r.line, err)
	}
	return r.err
}

// bad counts the current line as bad, for reason.
func (r *Reader) bad(reason string) {
	r.stats.Bad++
	if r.stats.FirstBad == "" {
		r.stats.FirstBad = fmt.Sprintf("line %d: %s", r.line, reason)
	}
}

// trimEOL cuts a line's LF or CR LF.
func trimEOL(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		b = b[:n-1]
		if n := len(b); n > 0 && b[n-1] == '\r' {
			b = b[:n-1]
		}
	}
	return b
}

// trimSpace cuts the spaces and tabs around b (and a lone CR at its end).
func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t') {
		b = b[1:]
	}
	for n := len(b); n > 0 && (b[n-1] == ' ' || b[n-1] == '\t' || b[n-1] == '\r'); n = len(b) {
		b = b[:n-1]
	}
	return b
}
