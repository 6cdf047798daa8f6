package robots

import "github.com/robotskit/robots/internal/octets"

// A rule's flags, 16 bits: the head test's shift (the low ruleShiftBits
// bits, see rule.head), three bits of kind, then the literal prefix's
// length, capped.
const (
	// ruleFlagBits is the width of rule.flags.
	ruleFlagBits = 16
	// ruleShiftBits is the width of the head test's shift, 0 to 56, at
	// the bottom of the flags.
	ruleShiftBits = 6
	// ruleShift masks the head test's shift (matchHead).
	ruleShift = 1<<ruleShiftBits - 1
	// ruleAllow, the first kind bit, marks an Allow rule.
	ruleAllow = 1 << ruleShiftBits
	// ruleLiteral marks a pattern with no '*' and no final '$': a prefix
	// test.
	ruleLiteral = ruleAllow << 1
	// ruleExact marks a pattern with no '*' and a final '$': an equality
	// test.
	ruleExact = ruleAllow << 2

	// ruleLitShift is where the literal prefix's length starts, above the
	// shift and the three kind bits (rule.lit).
	ruleLitShift = ruleShiftBits + 3
	// ruleLitMax caps the stored literal prefix length: the flags' bits
	// above ruleLitShift. Only wildcard rules use it, as a filter before
	// the full match, so a shorter prefix test is still correct.
	ruleLitMax = 1<<(ruleFlagBits-ruleLitShift) - 1

	// ruleMaxLen caps rule.n, a uint16. No pattern reaches it: a line is
	// cut at 16,663 bytes and escaping at most triples it.
	ruleMaxLen = 1<<16 - 1
)

// The layout of a rule's head: a word of the pattern's first octets,
// little-endian, octet k in bits 8k to 8k+7.
const (
	// headBits is the width of a head, and of the word of a path's first
	// octets it is compared with (load8).
	headBits = 64
	// octetBits is the width of one octet of a head.
	octetBits = 8
	// octetMask keeps one octet of a head, once shifted down.
	octetMask = 1<<octetBits - 1
	// headSecondShift brings down a head's second octet, which picks the
	// rule's bucket (rule.bucket, ruleset).
	headSecondShift = octetBits
)

// rule is one compiled Allow or Disallow, in 24 bytes. Its pattern is
// text[off:off+n]; its priority is n, the octets of the normalised pattern
// (RFC 9309 §2.2.2).
//
// head holds the first h octets of the pattern's literal prefix (the
// octets a matching path must start with), h = min(8, its length),
// little-endian, so that most rules are rejected without reading text: a
// path whose first eight octets are ph may match only if
// (ph^head)<<(64-8h) is 0 (matchHead). A pattern without a literal prefix
// ("*.pdf", "$", "") takes h = 1 and the head "/", which every path
// starts with (RFC 9309 §2.2.2; PathOf), so that the shift stays below 64.
type rule struct {
	head  uint64
	off   uint32
	n     uint16 // a line is cut at 16,663 bytes; escaping at most triples it
	flags uint16
	line  int32
	// sig is the signature of a wildcard pattern's literal octets; for a
	// literal rule of a large bucket's hash table (hashLiterals), 1 + the
	// index of the next rule of its chain; 0 for other rules.
	sig uint32
}

// lit returns the length of ru's literal prefix (before the first '*' or
// a final '$'), at most ruleLitMax.
func (ru *rule) lit() int { return int(ru.flags >> ruleLitShift) }

// matchHead reports whether a path whose first eight octets are ph (as
// load8 reads them) starts with ru's head.
func (ru *rule) matchHead(ph uint64) bool { return (ph^ru.head)<<(ru.flags&ruleShift) == 0 }

// headOf returns the head of a pattern whose literal prefix has lit octets
// and whose first eight octets are w (octets past the prefix may be
// anything), and the flags of its head test.
func headOf(w uint64, lit int) (head uint64, flags uint16) {
	if lit == 0 {
		return '/', headBits - octetBits
	}
	h := min(lit, 8)
	return w & headMask[h&15], uint16(headBits - octetBits*h)
}

// newRule compiles the pattern p into a new rule; see rule.set.
func newRule(p string, off int, line int32, allow bool) (ru rule, raw bool) {
	raw = ru.set(p, off, line, allow)
	return ru, raw
}

// set compiles the pattern p into ru in one pass: its kind, literal
// prefix, signature and head. raw reports whether p holds a '%' or a
// non-ASCII octet: octets that Google's normalisation may rewrite; a
// pattern without them is already in Google's form.
//
// It writes ru in place: a rule returned by value is spilled with narrow
// stores and copied with 16-byte loads, which stall store forwarding.
func (ru *rule) set(p string, off int, line int32, allow bool) (raw bool) {
	m := len(p) // octets before a final '$'
	exact := m > 0 && p[m-1] == '$'
	if exact {
		m--
	}
	// One pass, eight octets at a time, for the first '*', any '%' and
	// any non-ASCII octet. A pattern of at most eight octets is one
	// zero-padded word; a longer one ends with a word that overlaps octets
	// already read, which hold no '*' if star < 0.
	star := -1
	var or, pct uint64
	if m <= 8 {
		v := load8(p[:m])
		or, pct = v, octets.Eq(v, '%')
		if s := octets.Eq(v, '*'); s != 0 {
			star = octets.First(s)
		}
	} else {
		for i := 0; ; i += 8 {
			if i+8 > m {
				i = m - 8
			}
			v := octets.Load(p, i)
			or |= v
			pct |= octets.Eq(v, '%')
			if s := octets.Eq(v, '*'); s != 0 && star < 0 {
				star = i + octets.First(s)
			}
			if i+8 == m {
				break
			}
		}
	}
	ru.fill(p, off, line, allow, star, load8(p[:min(len(p), 8)]))
	return or&(0x80*octets.Ones) != 0 || pct != 0
}

// fill compiles the pattern p, whose first '*' is at star (-1: none) and
// whose first eight octets are w (as load8 reads them; octets past the end
// of p may be anything), into ru: everything set does once it has read p.
func (ru *rule) fill(p string, off int, line int32, allow bool, star int, w uint64) {
	m := len(p) // octets before a final '$'
	exact := m > 0 && p[m-1] == '$'
	if exact {
		m--
	}
	// Only wildcard patterns use a signature: of their literal octets, not
	// the '*' operators.
	var sig uint32
	lit, kind := len(p), uint16(ruleLiteral)
	switch {
	case star >= 0:
		for i := 0; i < m; i++ {
			if c := p[i]; c != '*' {
				sig |= 1 << (c & sigMask)
			}
		}
		lit, kind = star, 0
	case exact:
		lit, kind = m, ruleExact
	}
	if allow {
		kind |= ruleAllow
	}
	head, hf := headOf(w, lit)
	ru.head = head
	ru.off, ru.n, ru.line, ru.sig = uint32(off), uint16(min(len(p), ruleMaxLen)), line, sig
	ru.flags = hf | kind | uint16(min(lit, ruleLitMax))<<ruleLitShift
}

// setLiteral compiles p into ru as a prefix of octets: '*' and '$' have
// no meaning (the 1994 standard and the 1996 draft have no wildcards). It
// writes ru in place, as set does.
func (ru *rule) setLiteral(p string, off int, line int32, allow bool) {
	head, hf := headOf(load8(p[:min(len(p), 8)]), len(p))
	*ru = rule{off: uint32(off), n: uint16(min(len(p), ruleMaxLen)), line: line, head: head,
		flags: hf | ruleLiteral | uint16(min(len(p), ruleLitMax))<<ruleLitShift}
	if allow {
		ru.flags |= ruleAllow
	}
}

// load8 returns up to the first 8 octets of p, little-endian, zero-padded.
// It reads a shorter p without a loop: two 4-octet loads that may overlap,
// or for 1 to 3 octets the first, middle and last octet.
func load8(p string) uint64 {
	n := len(p)
	switch {
	case n >= 8:
		return octets.Load(p, 0)
	case n >= 4:
		return uint64(load4(p, 0)) | uint64(load4(p, n-4))<<(8*(n-4)&63)
	case n > 0:
		return uint64(p[0]) | uint64(p[n>>1])<<(8*(n>>1)) | uint64(p[n-1])<<(8*(n-1)&63)
	}
	return 0
}

// load4 returns s[i:i+4] as a little-endian number.
func load4(s string, i int) uint32 {
	s = s[i : i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// headMask[k] keeps the first k octets of a load8 value; k is at most 8,
// and the table has 16 entries so that rule.mask needs no bounds check.
var headMask = [16]uint64{0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0xFFFFFFFFFF,
	0xFFFFFFFFFFFF, 0xFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF}

// signature sets bit c&sigMask for every octet c of s: a path whose
// signature lacks a bit of a pattern's cannot contain all of the pattern's
// octets.
func signature(s string) uint32 {
	var sig uint32
	for i := 0; i < len(s); i++ {
		sig |= 1 << (s[i] & sigMask)
	}
	return sig
}

// sigMask picks an octet's bit of a signature, one of its 32 (rule.sig).
const sigMask = 32 - 1

// allows reports whether ru, as the deciding rule, allows: an Allow does,
// and so does a rule whose pattern is empty, since a match of length 0
// decides nothing (google/robotstxt disallow() compares priorities > 0).
func (ru *rule) allows() bool { return ru.flags&ruleAllow != 0 || ru.n == 0 }

// better reports whether a decides over b: longer pattern, then Allow,
// then earlier line.
func better(a, b *rule) bool {
	if a.n != b.n {
		return a.n > b.n
	}
	if a.flags&ruleAllow != b.flags&ruleAllow {
		return a.flags&ruleAllow != 0
	}
	return a.line < b.line
}

// bucketOf returns 1+c for a pattern "/c…" whose c is a literal octet, and
// 0 for a pattern that may match paths of any second octet.
func bucketOf(p string) uint64 {
	if len(p) < 2 || p[0] != '/' || p[1] == '*' || p[1] == '$' && len(p) == 2 {
		return 0
	}
	return 1 + uint64(p[1])
}

// bucket is bucketOf(ru's pattern), from its head: the pattern's second
// octet is a literal one when its literal prefix has two octets or more
// (not '*', nor the '$' of "/$"), and a rule that is kept and has a literal
// prefix starts with '/' (never).
func (ru *rule) bucket() uint64 {
	if ru.lit() < 2 {
		return 0
	}
	return 1 + ru.head>>headSecondShift&octetMask
}

// never reports whether ru can match no path: every path starts with '/'
// (RFC 9309 §2.2.2; PathOf), so a pattern whose literal prefix starts
// with another octet ("https://…", "page.html") never matches.
func (ru *rule) never() bool { return ru.lit() > 0 && byte(ru.head) != '/' }
