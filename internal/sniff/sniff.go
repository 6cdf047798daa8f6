// Package sniff says what a body is, by its bytes: an HTML page served
// where a robots.txt should be, text in a wide encoding, or binary data.
// It is the one answer to those questions for the checker, the fetcher,
// the batch scanner and the page inspector, built on the sniffing
// algorithm of the WHATWG MIME Sniffing standard that
// net/http.DetectContentType implements.
package sniff

import (
	"mime"
	"net/http"
	"strings"
)

// window is how much of a body HTML looks at for an HTML tag anywhere:
// an error page shows its tags early.
const window = 64 << 10

// HTML reports whether body, served where a robots.txt should be, is an
// HTML document rather than a robots.txt (a soft 404, a login page):
//
//   - after a UTF-8 byte order mark, its first bytes are an HTML
//     signature of the MIME Sniffing standard ("<!DOCTYPE HTML", "<HTML",
//     "<HEAD", "<BODY", "<SCRIPT", "<!--", "<P" … followed by a space or
//     '>'), which net/http.DetectContentType reads as text/html
//     (https://mimesniff.spec.whatwg.org/#identifying-a-resource-with-an-unknown-mime-type),
//     or its first 64 KiB hold an "<!doctype html", "<html", "<head" or
//     "<body" tag, ignoring case;
//   - and no line of those 64 KiB starts with "User-agent", so that a
//     robots.txt that starts with an HTML comment or quotes a tag in a
//     comment is still a robots.txt.
//
// The declared Content-Type plays no part: a robots.txt served as
// text/html is still a robots.txt to the robots that read it.
func HTML[T string | []byte](body T) bool {
	b := body[:min(len(body), window)]
	if hasPrefix(b, "\xef\xbb\xbf") {
		b = b[3:]
	}
	// Every signature starts with '<' after white space: only such a
	// body is worth handing to the sniffer.
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	sig := i < len(b) && b[i] == '<' && strings.HasPrefix(http.DetectContentType([]byte(b[:min(len(b), 512)])), "text/html")
	return (sig || hasTag(b)) && !hasUserAgent(b)
}

// Page reports whether a page is HTML, which only an HTML page's <meta>
// tags can be read from: by its declared Content-Type, or by sniffing its
// body as net/http.DetectContentType does when it declares none (RFC 9110
// §8.3: a recipient may inspect the content when the type is missing).
func Page(contentType string, body []byte) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	if contentType == "" || err != nil {
		mt, _, _ = mime.ParseMediaType(http.DetectContentType(body))
	}
	return mt == "text/html" || mt == "application/xhtml+xml"
}

// hasTag reports whether b holds an "<!doctype html", "<html", "<head" or
// "<body" tag, ignoring case.
func hasTag[T string | []byte](b T) bool {
	for i := 0; i < len(b); i++ {
		if b[i] != '<' {
			continue
		}
		rest := b[i+1:]
		if hasPrefixFold(rest, "!doctype") {
			d := rest[len("!doctype"):]
			j := 0
			for j < len(d) && isSpace(d[j]) {
				j++
			}
			if j > 0 && hasPrefixFold(d[j:], "html") {
				return true
			}
			continue
		}
		for _, tag := range [...]string{"html", "head", "body"} {
			if len(rest) > len(tag) && hasPrefixFold(rest, tag) && (isSpace(rest[len(tag)]) || rest[len(tag)] == '>') {
				return true
			}
		}
	}
	return false
}

// hasUserAgent reports whether a line of b starts, after white space,
// with "user-agent", ignoring case.
func hasUserAgent[T string | []byte](b T) bool {
	start := true
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '\n' || c == '\r':
			start = true
		case start && (c == ' ' || c == '\t'):
		case start:
			if hasPrefixFold(b[i:], "user-agent") {
				return true
			}
			start = false
		}
	}
	return false
}

// Wide returns the name of the UTF-16 or UTF-32 encoding src is written
// in ("UTF-16LE"), or "" when it is not: a UTF-16/32 byte order mark, or
// NUL bytes on one side of the byte pairs (quads for UTF-32) in at least
// 30 % of the first 512 bytes, the pattern of ASCII text in a wide
// encoding.
func Wide[T string | []byte](src T) string {
	switch {
	case hasPrefix(src, "\xFF\xFE\x00\x00"):
		return "UTF-32LE"
	case hasPrefix(src, "\x00\x00\xFE\xFF"):
		return "UTF-32BE"
	case hasPrefix(src, "\xFF\xFE"):
		return "UTF-16LE"
	case hasPrefix(src, "\xFE\xFF"):
		return "UTF-16BE"
	}
	n := min(len(src), 512)
	n -= n % 4
	if n < 4 {
		return ""
	}
	var nul [4]int
	for i := 0; i < n; i++ {
		if src[i] == 0 {
			nul[i%4]++
		}
	}
	even, odd := nul[0]+nul[2], nul[1]+nul[3]
	limit := (n*3 + 9) / 10 // 30 %, rounded up
	quarter := n / 4
	high := func(c int) bool { return c*10 >= quarter*8 } // ≥ 80 % of a column
	low := func(c int) bool { return c*10 <= quarter*2 }  // ≤ 20 % of a column
	switch {
	case odd >= limit && even*4 <= odd:
		return "UTF-16LE"
	case even >= limit && odd*4 <= even:
		return "UTF-16BE"
	case low(nul[0]) && high(nul[1]) && high(nul[2]) && high(nul[3]):
		return "UTF-32LE"
	case high(nul[0]) && high(nul[1]) && high(nul[2]) && low(nul[3]):
		return "UTF-32BE"
	}
	return ""
}

// binaryKinds names the binary types net/http.DetectContentType
// recognises that robots.txt URLs serve by mistake: a gzip body without
// Content-Encoding above all.
var binaryKinds = map[string]string{
	"application/x-gzip": "gzip",
	"image/png":          "PNG image",
	"application/pdf":    "PDF",
	"application/zip":    "ZIP archive",
}

// Binary says what kind of binary body src is ("gzip", "NUL bytes" …),
// "" when it is text: a signature net/http.DetectContentType knows (gzip,
// PNG, PDF, ZIP), a NUL byte, or more than 10 % C0 controls other than
// TAB, CR and LF. Text in a wide encoding (Wide) is not binary.
func Binary[T string | []byte](src T) string {
	if len(src) >= 4 && strings.IndexByte("\x1F\x89%P", src[0]) >= 0 {
		if k, ok := binaryKinds[http.DetectContentType([]byte(src[:min(len(src), 512)]))]; ok {
			return k
		}
	}
	if Wide(src) != "" {
		return ""
	}
	ctl, nul := 0, false
	for i := 0; i < len(src); i++ {
		if c := src[i]; c < 0x20 && c != '\t' && c != '\r' && c != '\n' {
			ctl++
			nul = nul || c == 0
		}
	}
	switch {
	case nul:
		return "NUL bytes"
	case len(src) > 0 && ctl*10 > len(src):
		return "control characters"
	}
	return ""
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' }

func hasPrefix[T string | []byte](s T, p string) bool {
	return len(s) >= len(p) && string(s[:len(p)]) == p
}

// hasPrefixFold is hasPrefix ignoring ASCII case; p is lower case.
func hasPrefixFold[T string | []byte](s T, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != p[i] {
			return false
		}
	}
	return true
}
