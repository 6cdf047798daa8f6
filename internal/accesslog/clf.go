package accesslog

import (
	"bytes"
	"net/netip"
	"strings"
	"time"
)

// parseCLF reads a Combined, Common or vhost_combined line into e, or
// sets r.reason and returns false.
//
//	[%v:%p ]%h %l %u [%t] "%r" %>s %b[ "%{Referer}i" "%{User-agent}i"[ …]]
func (r *Reader) parseCLF(line []byte, e *Entry) bool {
	// The time is the first "[" after a space: a vhost may be "[::1]:80".
	lb := -1
	for from := 0; ; {
		i := bytes.IndexByte(line[from:], '[')
		if i < 0 {
			break
		}
		if i += from; i > 0 && line[i-1] == ' ' {
			lb = i
			break
		}
		from = i + 1
	}
	if lb < 0 {
		return r.no("no [time]")
	}
	head := line[:lb-1]
	sp := bytes.IndexByte(head, ' ')
	if sp < 0 || bytes.Count(head, sp1) < 2 {
		return r.no("too few fields before [time]")
	}
	host, remote := []byte(nil), head[:sp]
	if bytes.Count(head, sp1) >= 3 && isVhost(remote) {
		host = remote[:bytes.LastIndexByte(remote, ':')]
		rest := head[sp+1:]
		remote = rest[:bytes.IndexByte(rest, ' ')]
	}

	rb := bytes.IndexByte(line[lb:], ']')
	if rb < 0 {
		return r.no("bad time")
	}
	rb += lb
	t, ok := r.clfTime(line[lb+1 : rb])
	if !ok {
		return r.no("bad time")
	}

	rest := line[rb+1:]
	if len(rest) < 2 || rest[0] != ' ' || rest[1] != '"' {
		return r.no("no quoted request")
	}
	req, n, ok := r.quoted(rest[1:])
	if !ok {
		return r.no("unterminated quoted request")
	}
	rest = rest[1+n:]
	method, target, ok := splitRequest(req)
	if !ok {
		if len(req) == 0 || len(req) == 1 && req[0] == '-' {
			return r.no("no request")
		}
		return r.no("malformed request")
	}
	// Convert now: the User-Agent may reuse r.scratch.
	e.Method = internMethod(method)
	e.Target = string(target)

	// " %>s %b"
	status, rest, ok := field(rest)
	if !ok {
		return r.no("no status")
	}
	if e.Status, ok = parseStatus(status); !ok {
		return r.no("bad status")
	}
	size, rest, ok := field(rest)
	if !ok {
		return r.no("no size")
	}
	if !isSize(size) {
		return r.no("bad size")
	}

	// ` "%{Referer}i" "%{User-agent}i"`, both optional; more may follow.
	var ua []byte
	if len(rest) > 0 {
		if len(rest) < 2 || rest[0] != ' ' || rest[1] != '"' {
			return r.no("bad referer")
		}
		_, n, ok := r.quoted(rest[1:])
		if !ok {
			return r.no("unterminated quoted referer")
		}
		rest = rest[1+n:]
		if len(rest) > 0 {
			if len(rest) < 2 || rest[0] != ' ' || rest[1] != '"' {
				return r.no("bad user agent")
			}
			if ua, _, ok = r.quoted(rest[1:]); !ok {
				return r.no("unterminated quoted user agent")
			}
		}
	}

	e.Time = t
	e.UserAgent = r.userAgent(ua)
	e.Remote = r.addr(remote)
	if host != nil {
		e.Host = r.host(host)
	} else {
		e.Host = targetHost(e.Target) // target may be in r.scratch, overwritten
	}
	return true
}

var sp1 = []byte{' '}

// no sets why the line is bad and returns false.
func (r *Reader) no(reason string) bool {
	r.reason = reason
	return false
}

// isVhost reports whether f, the first field of a line, is vhost_combined's
// "%v:%p" rather than a client address.
func isVhost(f []byte) bool {
	c := bytes.LastIndexByte(f, ':')
	if c <= 0 || c == len(f)-1 {
		return false
	}
	for _, b := range f[c+1:] {
		if b < '0' || b > '9' {
			return false
		}
	}
	if f[0] == '[' {
		return true
	}
	if bytes.IndexByte(f[:c], ':') >= 0 { // an IPv6 address, "::1"
		_, err := netip.ParseAddr(string(f))
		return err != nil
	}
	return true
}

// field reads " value" from the start of b, the value running to the next
// space or the end.
func field(b []byte) (v, rest []byte, ok bool) {
	if len(b) < 2 || b[0] != ' ' {
		return nil, b, false
	}
	b = b[1:]
	i := bytes.IndexByte(b, ' ')
	if i < 0 {
		i = len(b)
	}
	if i == 0 {
		return nil, b, false
	}
	return b[:i], b[i:], true
}

// parseStatus reads a status code of one to three digits, or "-" as 0.
func parseStatus(b []byte) (int, bool) {
	if len(b) == 1 && b[0] == '-' {
		return 0, true
	}
	if len(b) > 3 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// isSize reports whether b is a %b: digits, or "-" for none.
func isSize(b []byte) bool {
	if len(b) == 1 && b[0] == '-' {
		return true
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return len(b) > 0
}

// quoted reads the quoted field at the start of b (b[0] == '"'): its
// unescaped content, which may be in r.scratch until the next call, and
// the length of the field with its quotes.
func (r *Reader) quoted(b []byte) (v []byte, n int, ok bool) {
	for from := 1; ; {
		i := bytes.IndexByte(b[from:], '"')
		if i < 0 {
			return nil, 0, false
		}
		i += from
		k := i // an odd run of backslashes before it escapes it
		for k > 1 && b[k-1] == '\\' {
			k--
		}
		if (i-k)%2 == 1 {
			from = i + 1
			continue
		}
		v = b[1:i]
		if bytes.IndexByte(v, '\\') >= 0 {
			v = r.unescape(v)
		}
		return v, i + 1, true
	}
}

// unescape undoes the escaping Apache's and nginx's logs apply to quoted
// fields, into r.scratch. An unknown escape stays as written.
func (r *Reader) unescape(b []byte) []byte {
	out := r.scratch[:0]
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 == len(b) {
			out = append(out, c)
			continue
		}
		i++
		switch d := b[i]; d {
		case '"', '\\':
			out = append(out, d)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'v':
			out = append(out, '\v')
		case 'x':
			if i+2 < len(b) {
				if h, ok := unhex(b[i+1]); ok {
					if l, ok := unhex(b[i+2]); ok {
						out = append(out, h<<4|l)
						i += 2
						continue
					}
				}
			}
			out = append(out, '\\', d)
		default:
			out = append(out, '\\', d)
		}
	}
	r.scratch = out
	return out
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// splitRequest reads a request line, "METHOD target" with an optional
// " HTTP/x", as RFC 9112 §3 writes it.
func splitRequest(req []byte) (method, target []byte, ok bool) {
	sp := bytes.IndexByte(req, ' ')
	if sp <= 0 || sp > 32 {
		return nil, nil, false
	}
	method, target = req[:sp], req[sp+1:]
	for _, c := range method {
		if !isTchar(c) {
			return nil, nil, false
		}
	}
	if sp := bytes.IndexByte(target, ' '); sp >= 0 {
		proto := target[sp+1:]
		target = target[:sp]
		if len(proto) < 5 || !bytes.EqualFold(proto[:5], []byte("HTTP/")) || bytes.IndexByte(proto, ' ') >= 0 {
			return nil, nil, false
		}
	}
	if len(target) == 0 {
		return nil, nil, false
	}
	for _, c := range target {
		if c <= ' ' || c == 0x7f {
			return nil, nil, false
		}
	}
	return method, target, true
}

// isTchar reports whether c may be in a token (RFC 9110 §5.6.2), such as
// a method.
func isTchar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

// internMethod returns the common methods without allocating.
func internMethod(m []byte) string {
	switch string(m) {
	case "GET":
		return "GET"
	case "HEAD":
		return "HEAD"
	case "POST":
		return "POST"
	case "PUT":
		return "PUT"
	case "DELETE":
		return "DELETE"
	case "OPTIONS":
		return "OPTIONS"
	case "PATCH":
		return "PATCH"
	case "CONNECT":
		return "CONNECT"
	case "PROPFIND":
		return "PROPFIND"
	}
	return string(m)
}

// targetHost returns the authority of an absolute-form http or https
// target, without user information, or "".
func targetHost(t string) string {
	var rest string
	switch {
	case len(t) > 7 && strings.EqualFold(t[:7], "http://"):
		rest = t[7:]
	case len(t) > 8 && strings.EqualFold(t[:8], "https://"):
		rest = t[8:]
	default:
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	if i := strings.LastIndexByte(rest, '@'); i >= 0 {
		rest = rest[i+1:]
	}
	return rest
}

// userAgent returns ua as a string, the previous line's when equal.
func (r *Reader) userAgent(ua []byte) string {
	if string(ua) != r.prevUA {
		r.prevUA = string(ua)
	}
	return r.prevUA
}

// host returns h as a string, the previous line's when equal.
func (r *Reader) host(h []byte) string {
	if string(h) != r.prevHost {
		r.prevHost = string(h)
	}
	return r.prevHost
}

// addr reads a client address, reusing the previous line's when equal.
func (r *Reader) addr(b []byte) netip.Addr {
	if bytes.Equal(b, r.prevRemote) && r.prevRemote != nil {
		return r.prevAddr
	}
	a, ok := parseIPv4(b)
	if !ok {
		var err error
		if a, err = netip.ParseAddr(string(b)); err != nil {
			if ap, err := netip.ParseAddrPort(string(b)); err == nil {
				a = ap.Addr()
			} else {
				a = netip.Addr{}
			}
		}
	}
	r.prevRemote = append(r.prevRemote[:0], b...)
	r.prevAddr = a
	return a
}

// parseIPv4 reads a dotted-decimal IPv4 address as netip.ParseAddr does,
// without allocating.
func parseIPv4(b []byte) (netip.Addr, bool) {
	var ip [4]byte
	k := 0
	for i := 0; i < 4; i++ {
		if i > 0 {
			if k >= len(b) || b[k] != '.' {
				return netip.Addr{}, false
			}
			k++
		}
		start, n := k, 0
		for k < len(b) && b[k] >= '0' && b[k] <= '9' {
			n = n*10 + int(b[k]-'0')
			k++
			if n > 255 {
				return netip.Addr{}, false
			}
		}
		if k == start || k-start > 1 && b[start] == '0' {
			return netip.Addr{}, false
		}
		ip[i] = byte(n)
	}
	if k != len(b) {
		return netip.Addr{}, false
	}
	return netip.AddrFrom4(ip), true
}

// clfTime reads a CLF time, "10/Oct/2025:13:55:36 -0700". The hour of the
// previous line is remembered: logs are in time order.
func (r *Reader) clfTime(b []byte) (time.Time, bool) {
	if len(b) != 26 || b[2] != '/' || b[6] != '/' || b[11] != ':' || b[14] != ':' || b[17] != ':' || b[20] != ' ' {
		return time.Time{}, false
	}
	mi, ok1 := two(b[15:17])
	s, ok2 := two(b[18:20])
	if !ok1 || !ok2 || mi > 59 || s > 59 {
		return time.Time{}, false
	}
	if r.tok && string(b[:14]) == string(r.tkey[:14]) && string(b[20:]) == string(r.tkey[20:]) {
		return r.tbase.Add(time.Duration(mi*60+s) * time.Second), true
	}
	d, ok1 := two(b[0:2])
	h, ok2 := two(b[12:14])
	y1, ok3 := two(b[7:9])
	y2, ok4 := two(b[9:11])
	zh, ok5 := two(b[22:24])
	zm, ok6 := two(b[24:26])
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || h > 23 || zh > 23 || zm > 59 {
		return time.Time{}, false
	}
	m := month(b[3:6])
	y := y1*100 + y2
	if m == 0 || d < 1 || d > daysIn(m, y) {
		return time.Time{}, false
	}
	off := (zh*60 + zm) * 60
	switch b[21] {
	case '-':
		off = -off
	case '+':
	default:
		return time.Time{}, false
	}
	if off != r.zoff || r.zloc == nil {
		r.zoff = off
		if off == 0 {
			r.zloc = time.UTC
		} else {
			r.zloc = time.FixedZone("", off)
		}
	}
	r.tbase = time.Date(y, m, d, h, 0, 0, 0, r.zloc)
	copy(r.tkey[:], b)
	r.tok = true
	return r.tbase.Add(time.Duration(mi*60+s) * time.Second), true
}

func two(b []byte) (int, bool) {
	if b[0] < '0' || b[0] > '9' || b[1] < '0' || b[1] > '9' {
		return 0, false
	}
	return int(b[0]-'0')*10 + int(b[1]-'0'), true
}

func month(b []byte) time.Month {
	switch string(b) {
	case "Jan":
		return time.January
	case "Feb":
		return time.February
	case "Mar":
		return time.March
	case "Apr":
		return time.April
	case "May":
		return time.May
	case "Jun":
		return time.June
	case "Jul":
		return time.July
	case "Aug":
		return time.August
	case "Sep":
		return time.September
	case "Oct":
		return time.October
	case "Nov":
		return time.November
	case "Dec":
		return time.December
	}
	return 0
}

func daysIn(m time.Month, y int) int {
	switch m {
	case time.February:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}
