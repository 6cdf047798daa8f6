// Package termtext makes text that came from the network or a file safe
// to print on a terminal. It is the one escaping of the command line:
// robots check's source lines and messages, robots fetch, page, test,
// diff and compare all print remote text through Escape.
package termtext

import (
	"strings"
	"unicode/utf8"
)

// Escape writes the characters of s that would act on a terminal or on
// the order of what the user reads as Go escapes, and keeps the rest,
// valid printable UTF-8, as it is:
//
//   - the C0 controls and DEL as \xNN (ESC is \x1b), a tab as \t, as
//     strconv.Quote writes a control byte: ECMA-48 (ISO/IEC 6429) makes
//     them control functions, and ESC starts the sequences that move the
//     cursor, set colours or retitle the window;
//   - the C1 controls U+0080–U+009F, control functions of ECMA-48 too
//     (U+009B is CSI, ESC [ in one character), as \xNN;
//   - the bidirectional formatting characters of Unicode Standard Annex
//     #9 (the marks U+061C, U+200E, U+200F; the embeddings, overrides
//     and isolates U+202A–U+202E, U+2066–U+2069) as \uNNNN: they reorder
//     the text around them, the "Trojan Source" trick of CVE-2021-42574;
//   - each byte that is not UTF-8 as \xNN, as strconv.Quote does.
//
// A backslash is kept: Escape(Escape(s)) == Escape(s).
func Escape(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafe(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	const hex = "0123456789abcdef"
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			b.WriteString(`\x`)
			b.WriteByte(hex[s[i]>>4])
			b.WriteByte(hex[s[i]&0xF])
		case r == '\t':
			b.WriteString(`\t`)
		case unsafe(r, n) && r < 0x100:
			b.WriteString(`\x`)
			b.WriteByte(hex[r>>4])
			b.WriteByte(hex[r&0xF])
		case unsafe(r, n):
			b.WriteString(`\u`)
			for shift := 12; shift >= 0; shift -= 4 {
				b.WriteByte(hex[r>>shift&0xF])
			}
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// unsafe reports whether the rune r, n bytes long, is one Escape writes
// as an escape.
func unsafe(r rune, n int) bool {
	switch {
	case r == utf8.RuneError && n == 1:
		return true
	case r < 0x20, r == 0x7f, 0x80 <= r && r < 0xa0:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, 0x202a <= r && r <= 0x202e, 0x2066 <= r && r <= 0x2069:
		return true
	}
	return false
}
