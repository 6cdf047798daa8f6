// Package pattern implements robots.txt path patterns: the percent-encoding
// normalisation applied to rule values and URL paths, and the matcher for the
// two special characters `*` (any sequence of octets) and `$` (end of the
// path, only when it is the pattern's last octet).
//
// Two normalisations exist because robot families disagree:
//
//   - [AppendGoogle] is what Google's reference library does to a rule value
//     before matching: octets ≥ 0x80 become %XX and existing %xx escapes get
//     upper-case hex digits. The URL path is compared as given.
//   - [AppendRFC] is RFC 9309 §2.2.2 read as a canonical form applied to both
//     sides: escapes of unreserved characters are decoded, other escapes get
//     upper-case hex, octets outside US-ASCII and octets not allowed in a URI
//     are encoded, and — for URL paths only — a literal `*` or `$` is encoded
//     so that it can only be matched by a %2A or %24 in a rule (§2.2.3).
//
// [Match] finds every `*`-separated segment with a leftmost (greedy) search,
// which is exact for patterns whose only operator is `*` with an optional
// final `$`: a later segment can only gain from an earlier one ending as soon
// as possible. Each search starts where the previous match ended, so the work
// is bounded by O(len(path)·s) octet comparisons for s segments, and in
// practice is linear (strings.Index); a 16 KiB `/*a*a…*b` pattern against a
// 16 KiB path answers in microseconds. Match never allocates.
package pattern

import "strings"

const upperHex = "0123456789ABCDEF"

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	default:
		return c - 'a' + 10
	}
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// NeedsGoogle reports whether [AppendGoogle] would change v.
func NeedsGoogle(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == '%' && i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]) {
			if v[i+1] != upper(v[i+1]) || v[i+2] != upper(v[i+2]) {
				return true
			}
			i += 2
		} else if c >= 0x80 {
			return true
		}
	}
	return false
}

// AppendGoogle appends v to dst normalised as Google's parser normalises an
// Allow or Disallow value: every octet ≥ 0x80 is percent-encoded with
// upper-case hex digits and the hex digits of an existing %xx escape are
// upper-cased. Nothing is decoded. (google/robotstxt, MaybeEscapePattern.)
func AppendGoogle(dst []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '%' && i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]):
			dst = append(dst, '%', upper(v[i+1]), upper(v[i+2]))
			i += 2
		case c >= 0x80:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// Side says which side of a comparison [AppendRFC] normalises.
type Side uint8

const (
	// Rule is an Allow or Disallow value: `*` and `$` keep their meaning.
	Rule Side = iota + 1
	// Path is the path, parameters and query of a URL: `*` and `$` are
	// ordinary characters and are encoded.
	Path
)

// rfcClass describes how AppendRFC treats an ASCII octet.
const (
	keep      = 0 // copy as is
	encode    = 1 // not allowed raw in a URI: always %XX
	unres     = 2 // unreserved (RFC 3986 §2.3): decode %XX to it
	pcharOnly = 3 // ':' and '@': allowed raw in every path segment and query
	queryOnly = 4 // '/' and '?': allowed raw inside a query (RFC 3986 §3.4)
)

var rfcClass = func() (t [128]uint8) {
	for c := 0; c < 0x21; c++ {
		t[c] = encode
	}
	t[0x7f] = encode
	for _, c := range []byte("\"<>\\^`{|}") {
		t[c] = encode
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = unres
		t[c-'a'+'A'] = unres
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = unres
	}
	for _, c := range []byte("-._~") {
		t[c] = unres
	}
	t[':'], t['@'] = pcharOnly, pcharOnly
	t['/'], t['?'] = queryOnly, queryOnly
	return t
}()

// NeedsRFC reports whether [AppendRFC] would change s.
func NeedsRFC(s string, side Side) bool {
	query := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			if s[i+1] != upper(s[i+1]) || s[i+2] != upper(s[i+2]) {
				return true
			}
			if d := unhex(s[i+1])<<4 | unhex(s[i+2]); d < 0x80 {
				switch rfcClass[d] {
				case unres, pcharOnly:
					return true
				case queryOnly:
					if query {
						return true
					}
				}
			}
			i += 2
			continue
		}
		if c >= 0x80 || rfcClass[c] == encode || side == Path && (c == '*' || c == '$') ||
			c == '$' && i < len(s)-1 {
			return true
		}
		if c == '?' {
			query = true
		}
	}
	return false
}

// AppendRFC appends s to dst in the canonical form used to compare a rule
// with a URL under RFC 9309 §2.2.2 and §2.2.3:
//
//   - %xx escapes of unreserved characters (ALPHA, DIGIT, "-", ".", "_",
//     "~") are decoded, so /%62az and /baz are equal;
//   - %3A and %40 are decoded everywhere, and %2F and %3F inside the query:
//     there these characters are data, not delimiters (RFC 3986 §3.3, §3.4),
//     which is why the RFC's figure 4 treats /foo/bar?baz=https://foo.bar and
//     its encoded form as equal;
//   - every other escape keeps its meaning, with upper-case hex digits;
//   - octets ≥ 0x80, controls, space and characters RFC 3986 never allows raw
//     are encoded;
//   - on the [Path] side `*` and `$` are encoded, so only a rule's %2A or %24
//     matches them, while a rule's own `*` and final `$` stay operators;
//   - a `$` that is not last is an ordinary octet on either side (§2.2.3
//     gives `$` a meaning only at the end), so it is encoded too: the rule
//     /earn$* matches /earn$1 (Mandelbot's robots.txt documentation,
//     "Exotic Usage of Wildcards").
//
// A `%` not followed by two hex digits is kept as is.
func AppendRFC(dst []byte, s string, side Side) []byte {
	query := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			d := unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
			if d < 0x80 {
				switch rfcClass[d] {
				case unres, pcharOnly:
					dst = append(dst, d)
					continue
				case queryOnly:
					if query {
						dst = append(dst, d)
						continue
					}
				}
			}
			dst = append(dst, '%', upperHex[d>>4], upperHex[d&15])
			continue
		}
		switch {
		case c >= 0x80 || rfcClass[c] == encode || side == Path && (c == '*' || c == '$') ||
			c == '$' && i < len(s)-1:
			dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
		default:
			if c == '?' {
				query = true
			}
			dst = append(dst, c)
		}
	}
	return dst
}

// Match reports whether path matches pattern: the pattern must match a
// prefix of the path, `*` matches any sequence of octets (including none) and
// a `$` that is the pattern's last octet requires the match to end at the end
// of the path. A `$` anywhere else is an ordinary octet. The empty pattern
// matches every path. (RFC 9309 §2.2.3.)
func Match(path, pattern string) bool {
	star := strings.IndexByte(pattern, '*')
	if star < 0 {
		if n := len(pattern); n > 0 && pattern[n-1] == '$' {
			return path == pattern[:n-1]
		}
		return strings.HasPrefix(path, pattern)
	}
	if !strings.HasPrefix(path, pattern[:star]) {
		return false
	}
	return MatchStar(path[star:], pattern[star+1:])
}

// MatchStar reports whether path matches "*" followed by rest: it is
// Match for a pattern whose literal prefix, up to its first '*', a caller
// has already found at the start of the path, and path and rest are what
// follow that prefix and that '*'.
func MatchStar(path, rest string) bool {
	anchored := false
	if n := len(rest); n > 0 && rest[n-1] == '$' {
		anchored = true
		rest = rest[:n-1]
	}
	for {
		star := strings.IndexByte(rest, '*')
		if star < 0 {
			break
		}
		seg := rest[:star]
		rest = rest[star+1:]
		if seg == "" {
			continue
		}
		j := strings.Index(path, seg)
		if j < 0 {
			return false
		}
		path = path[j+len(seg):]
	}
	if anchored {
		return strings.HasSuffix(path, rest)
	}
	return strings.Contains(path, rest)
}
