package parquet

import "unicode/utf8"

// appendValid appends s to b as valid UTF-8: each byte that does not
// start a valid UTF-8 sequence (utf8.DecodeRuneInString returns
// utf8.RuneError of width 1) becomes U+FFFD, the replacement character,
// and the rest is copied as it is. It is what encoding/json writes for a
// string (https://pkg.go.dev/encoding/json#Marshal: "String values encode
// as JSON strings coerced to valid UTF-8, replacing invalid bytes with the
// Unicode replacement rune"; its appendString writes `\ufffd` where
// "c == utf8.RuneError && size == 1"), so that
// a Parquet part holds the strings of the JSON lines of the same rows,
// and what scan.Summary counts them under. A STRING column must hold
// UTF-8 (LogicalTypes.md, "STRING",
// https://github.com/apache/parquet-format/blob/master/LogicalTypes.md#string),
// and readers check it: DuckDB refuses a part with "Invalid string
// encoding found in Parquet file".
//
// An ill-formed sequence of several bytes gives one U+FFFD per byte
// ("\xe2\x82" gives two), as encoding/json does, not one per maximal
// subpart as the WHATWG Encoding Standard's UTF-8 decoder would
// (https://encoding.spec.whatwg.org/#utf-8-decoder).
func appendValid(b []byte, s string) []byte {
	if utf8.ValidString(s) {
		return append(b, s...)
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return b
}

// valid returns s as valid UTF-8 (appendValid): s itself when it is.
func valid(s string) string {
	if isASCII(s) || utf8.ValidString(s) {
		return s
	}
	return string(appendValid(nil, s))
}

// validAs returns valid(s), and, without looking at its bytes, prev when
// s is prev, a string known to be valid.
func validAs(s, prev string) string {
	if s == prev {
		return prev
	}
	return valid(s)
}

// isASCII reports whether s is ASCII, by a loop that costs less than
// utf8.ValidString's on the short strings of a row (tokens, states).
func isASCII(s string) bool {
	var or byte
	for i := range len(s) {
		or |= s[i]
	}
	return or < utf8.RuneSelf
}
