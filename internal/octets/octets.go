// Package octets finds octets in strings eight at a time, in plain Go
// (SWAR: SIMD within a register). For the short strings of robots.txt
// lines and URLs it beats a call per octet class to strings.IndexByte.
package octets

import "math/bits"

// Ones has every octet 0x01; c*Ones repeats octet c eight times.
const Ones = 0x0101010101010101

const high = 0x8080808080808080

// Load returns s[i:i+8] as a little-endian number: octet k of the string
// is octet k of the result.
func Load(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Eq returns a mask that has bit 7 set in the lowest octet of v equal to c.
// Octets above that one may be marked too, never octets below it, so
// First(Eq(v, c)) is the index of the first c in v. Masks of several
// octets may be or-ed: First then finds the first of any of them.
func Eq(v uint64, c byte) uint64 {
	x := v ^ uint64(c)*Ones
	return (x - Ones) &^ x & high
}

// AnyBelow reports whether some octet of v is below c, for c <= 0x80.
// Unlike Eq it says nothing of where: a borrow may mark octets above the
// first one below c.
func AnyBelow(v uint64, c byte) bool {
	return (v-uint64(c)*Ones)&^v&high != 0
}

// First returns the index of the lowest marked octet of a non-zero mask.
func First(m uint64) int { return bits.TrailingZeros64(m) >> 3 }

// Below returns the mask of the bits below the lowest set bit of m, or all
// bits when m is 0. For a mask of marks in bit 7 of octets, as Eq makes
// them, that covers the octets before the first marked one (and bits 0-6
// of that one).
func Below(m uint64) uint64 { return m&-m - 1 }

// EqualFold reports whether the octets of k equal those of name, a word of
// lower-case letters and other octets below 0x40 ('-', ' ', NUL),
// ignoring the case of k's letters: bit 6 marks name's letters, and at
// those k may differ in bit 5 (the case bit) only; elsewhere it must be
// equal.
func EqualFold(k, name uint64) bool {
	return k|name&(0x40*Ones)>>1 == name
}

// IndexEOL returns the offset of the first '\n' or '\r' of s at or after
// from, or len(s): where a line of robots.txt that goes on at from ends.
func IndexEOL(s string, from int) int {
	i := from
	for ; i+8 <= len(s); i += 8 {
		v := Load(s, i)
		if m := Eq(v, '\n') | Eq(v, '\r'); m != 0 {
			return i + First(m)
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '\n' || c == '\r' {
			return i
		}
	}
	return len(s)
}
