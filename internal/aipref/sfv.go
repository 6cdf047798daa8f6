package aipref

import (
	"encoding/base64"
	"strings"
	"unicode/utf8"
)

// This file parses the RFC 9651 (Structured Field Values for HTTP)
// Dictionary that draft-ietf-aipref-vocab-08 §6 builds on, with every
// bare item type, so that a value the RFC accepts is accepted and one it
// rejects is rejected; the items are kept only as far as §6.5 needs them.

// kind is the type of a bare item (RFC 9651 §3.3).
type kind uint8

const (
	kInteger kind = iota + 1
	kDecimal
	kString
	kToken
	kBytes
	kBoolean
	kDate
	kDisplay
	kInnerList
)

var kindNames = [...]string{"", "an Integer", "a Decimal", "a String", "a Token", "a Byte Sequence",
	"a Boolean", "a Date", "a Display String", "an Inner List"}

// item is a parsed member value or parameter value.
type item struct {
	kind kind
	// text is a Token's or a String's characters (unescaped), and "1" or
	// "0" for a Boolean.
	text string
	// raw is the item as written, off its offset in the input.
	raw string
	off int
}

// param is one parameter of a member (RFC 9651 §3.1.2).
type param struct {
	key string
	off int
	val item
}

// member is one member of a Dictionary: a key and its value.
type member struct {
	key    string
	off    int // offset of the key
	val    item
	bare   bool // no "=": the Boolean true (RFC 9651 §3.2)
	params []param
}

// parseError is where and why a Dictionary does not parse.
type parseError struct {
	off     int
	msg     string
	key     string
	suggest string
}

// dictParser parses s from i on.
type dictParser struct {
	s   string
	i   int
	err *parseError
}

func (p *dictParser) fail(off int, msg string) {
	if p.err == nil {
		p.err = &parseError{off: off, msg: msg}
	}
}

func (p *dictParser) eof() bool  { return p.i >= len(p.s) }
func (p *dictParser) peek() byte { return p.s[p.i] }

// parseDictionary parses s as an RFC 9651 Dictionary field value (§4.2,
// §4.2.2) and returns its members as written, in order, duplicates
// included: of a key given twice the last value counts (§4.2.2 "overwrite
// its value").
func parseDictionary(s string) ([]member, *parseError) {
	// §4.2: the field value is ASCII, else parsing fails.
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return nil, &parseError{off: i, msg: "the value has a byte that is not ASCII, which fails the whole field (RFC 9651 §4.2)"}
		}
	}
	p := &dictParser{s: s}
	// §4.2: discard leading SP characters.
	for !p.eof() && p.peek() == ' ' {
		p.i++
	}
	var members []member
	for !p.eof() {
		m, ok := p.member()
		if !ok {
			return nil, p.err
		}
		members = append(members, m)
		p.ows()
		if p.eof() {
			break
		}
		if c := p.peek(); c != ',' {
			p.afterMember(m, c)
			return nil, p.err
		}
		comma := p.i
		p.i++
		p.ows()
		if p.eof() {
			return nil, &parseError{off: comma, msg: "the value ends with a comma, which RFC 9651 §4.2.2 does not allow",
				suggest: strings.TrimRight(s[:comma], " \t")}
		}
	}
	return members, nil
}

// ows discards optional white space, SP and HTAB.
func (p *dictParser) ows() {
	for !p.eof() && (p.peek() == ' ' || p.peek() == '\t') {
		p.i++
	}
}

// afterMember explains the byte c that stands where a comma or the end
// should be, after member m.
func (p *dictParser) afterMember(m member, c byte) {
	at := p.i
	word := p.s[at+1:]
	word = strings.TrimLeft(word, " \t")
	word = word[:tokenLen(word)]
	fix := ""
	if v := yn(word); m.bare && v != "" {
		fix = m.key + "=" + v
	}
	switch {
	case m.bare && c == ':':
		p.err = &parseError{off: at, key: m.key, suggest: fix,
			msg: "a label and its value are joined by \"=\", not \":\" (draft-ietf-aipref-vocab-08 §6); the value does not parse as a Dictionary (RFC 9651 §4.2.2)"}
	case m.bare && c == '=':
		p.err = &parseError{off: at, key: m.key, suggest: fix,
			msg: "white space before \"=\" is not allowed (RFC 9651 §3.2); the value does not parse as a Dictionary"}
	case c == ';':
		p.err = &parseError{off: at, key: m.key,
			msg: "white space before \";\" is not allowed (RFC 9651 §3.1.2); the value does not parse as a Dictionary"}
	default:
		p.err = &parseError{off: at, key: m.key,
			msg: "members of the Dictionary are separated by commas (RFC 9651 §3.2); " + quoteByte(c) + " does not parse"}
	}
}

// member parses key[=item-or-inner-list][;parameters] (RFC 9651 §4.2.2).
func (p *dictParser) member() (member, bool) {
	off := p.i
	key, ok := p.key("a member")
	if !ok {
		return member{}, false
	}
	m := member{key: key, off: off}
	if !p.eof() && p.peek() == '=' {
		p.i++
		if p.eof() {
			p.fail(p.i, "\"=\" is followed by no value (RFC 9651 §4.2.2)")
			p.err.key = key
			return member{}, false
		}
		if c := p.peek(); c == ' ' || c == '\t' {
			p.fail(p.i, "white space after \"=\" is not allowed (RFC 9651 §3.2); the value does not parse as a Dictionary")
			p.err.key = key
			rest := strings.TrimLeft(p.s[p.i:], " \t")
			if v := yn(rest[:tokenLen(rest)]); v != "" {
				p.err.suggest = key + "=" + v
			}
			return member{}, false
		}
		var it item
		if p.peek() == '(' {
			it, ok = p.innerList()
		} else {
			it, ok = p.bareItem()
		}
		if !ok {
			p.err.key = key
			return member{}, false
		}
		m.val = it
	} else {
		m.bare = true
		m.val = item{kind: kBoolean, text: "1", off: p.i}
	}
	m.params, ok = p.parameters()
	if !ok {
		p.err.key = key
		return member{}, false
	}
	return m, true
}

// key parses a key (RFC 9651 §4.2.3.3): lcalpha or "*", then lcalpha,
// DIGIT, "_", "-", "." or "*".
func (p *dictParser) key(what string) (string, bool) {
	start := p.i
	if p.eof() {
		p.fail(p.i, "a key is missing (RFC 9651 §4.2.3.3)")
		return "", false
	}
	c := p.peek()
	if !(c >= 'a' && c <= 'z' || c == '*') {
		switch {
		case c >= 'A' && c <= 'Z':
			k := p.s[start : start+keyLenFold(p.s[start:])]
			p.fail(start, "labels are lower case: the format is case sensitive (draft-ietf-aipref-vocab-08 §6.5.1), and a key that starts with an upper-case letter fails the whole Dictionary (RFC 9651 §4.2.3.3)")
			p.err.key = k
			p.err.suggest = toLower(k)
		case c == ',':
			p.fail(start, "an empty member: two commas in a row, or a comma first (RFC 9651 §4.2.2)")
		default:
			p.fail(start, what+" must start with a lower-case letter or \"*\" (RFC 9651 §4.2.3.3), not "+quoteByte(c))
		}
		return "", false
	}
	p.i++
	for !p.eof() && isKeyChar(p.peek()) {
		p.i++
	}
	if !p.eof() && p.peek() >= 'A' && p.peek() <= 'Z' {
		k := p.s[start : p.i+keyLenFold(p.s[p.i:])]
		p.fail(p.i, "labels are lower case: the format is case sensitive (draft-ietf-aipref-vocab-08 §6.5.1), and an upper-case letter in a key fails the whole Dictionary (RFC 9651 §4.2.3.3)")
		p.err.key = k
		p.err.suggest = toLower(k)
		return "", false
	}
	return p.s[start:p.i], true
}

func isKeyChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c == '*'
}

// keyLenFold is the length of the key at the start of s, upper case
// allowed: for suggestions only.
func keyLenFold(s string) int {
	n := 0
	for n < len(s) && (isKeyChar(s[n]) || s[n] >= 'A' && s[n] <= 'Z') {
		n++
	}
	return n
}

// parameters parses *( ";" *SP key [ "=" bare-item ] ) (RFC 9651 §4.2.3.2).
func (p *dictParser) parameters() ([]param, bool) {
	var ps []param
	for !p.eof() && p.peek() == ';' {
		p.i++
		for !p.eof() && p.peek() == ' ' {
			p.i++
		}
		off := p.i
		k, ok := p.key("a parameter")
		if !ok {
			return nil, false
		}
		v := item{kind: kBoolean, text: "1", off: p.i}
		if !p.eof() && p.peek() == '=' {
			p.i++
			if v, ok = p.bareItem(); !ok {
				return nil, false
			}
		}
		replaced := false
		for j := range ps {
			if ps[j].key == k {
				ps[j].val = v
				replaced = true
			}
		}
		if !replaced {
			ps = append(ps, param{key: k, off: off, val: v})
		}
	}
	return ps, true
}

// innerList parses "(" *SP [ item *( 1*SP item ) *SP ] ")" parameters
// (RFC 9651 §4.2.1.2); the items are checked and dropped.
func (p *dictParser) innerList() (item, bool) {
	start := p.i
	p.i++ // "("
	for !p.eof() {
		for !p.eof() && p.peek() == ' ' {
			p.i++
		}
		if p.eof() {
			break
		}
		if p.peek() == ')' {
			p.i++
			if _, ok := p.parameters(); !ok {
				return item{}, false
			}
			return item{kind: kInnerList, raw: p.s[start:p.i], off: start}, true
		}
		if _, ok := p.bareItem(); !ok {
			return item{}, false
		}
		if _, ok := p.parameters(); !ok {
			return item{}, false
		}
		if !p.eof() && p.peek() != ' ' && p.peek() != ')' {
			p.fail(p.i, "items of an Inner List are separated by spaces (RFC 9651 §4.2.1.2), not "+quoteByte(p.peek()))
			return item{}, false
		}
	}
	p.fail(start, "an Inner List that is not closed by \")\" (RFC 9651 §4.2.1.2)")
	return item{}, false
}

// bareItem parses a bare item (RFC 9651 §4.2.3.1).
func (p *dictParser) bareItem() (item, bool) {
	start := p.i
	if p.eof() {
		p.fail(p.i, "a value is missing (RFC 9651 §4.2.3.1)")
		return item{}, false
	}
	var it item
	ok := false
	switch c := p.peek(); {
	case c == '-' || c >= '0' && c <= '9':
		it, ok = p.number()
	case c == '"':
		it, ok = p.str()
	case c == '*' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		it, ok = p.token()
	case c == ':':
		it, ok = p.bytes()
	case c == '?':
		it, ok = p.boolean()
	case c == '@':
		p.i++
		if p.eof() || p.peek() != '-' && (p.peek() < '0' || p.peek() > '9') {
			p.fail(p.i, "a Date is \"@\" and an Integer (RFC 9651 §4.2.9)")
			return item{}, false
		}
		it, ok = p.number()
		if ok && it.kind != kInteger {
			p.fail(start, "a Date is \"@\" and an Integer, not a Decimal (RFC 9651 §4.2.9)")
			return item{}, false
		}
		it.kind = kDate
	case c == '%':
		it, ok = p.display()
	default:
		p.fail(start, "a value cannot start with "+quoteByte(c)+" (RFC 9651 §4.2.3.1)")
	}
	if !ok {
		return item{}, false
	}
	it.raw, it.off = p.s[start:p.i], start
	return it, true
}

// number parses an Integer or a Decimal (RFC 9651 §4.2.4).
func (p *dictParser) number() (item, bool) {
	start := p.i
	if p.peek() == '-' {
		p.i++
	}
	if p.eof() || p.peek() < '0' || p.peek() > '9' {
		p.fail(p.i, "a number needs a digit after \"-\" (RFC 9651 §4.2.4)")
		return item{}, false
	}
	digits, decimal, dot := 0, false, 0
	for !p.eof() {
		c := p.peek()
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !decimal:
			if digits > 12 {
				p.fail(start, "a Decimal has at most 12 digits before \".\" (RFC 9651 §4.2.4)")
				return item{}, false
			}
			decimal, dot = true, digits
			digits++ // the "." counts among input_number's characters
		default:
			goto done
		}
		p.i++
		if !decimal && digits > 15 {
			p.fail(start, "an Integer has at most 15 digits (RFC 9651 §4.2.4)")
			return item{}, false
		}
		if decimal && digits > 16 {
			p.fail(start, "a Decimal has at most 16 characters (RFC 9651 §4.2.4)")
			return item{}, false
		}
	}
done:
	if !decimal {
		return item{kind: kInteger}, true
	}
	frac := digits - dot - 1
	if frac == 0 {
		p.fail(p.i-1, "a Decimal cannot end with \".\" (RFC 9651 §4.2.4)")
		return item{}, false
	}
	if frac > 3 {
		p.fail(start, "a Decimal has at most 3 digits after \".\" (RFC 9651 §4.2.4)")
		return item{}, false
	}
	return item{kind: kDecimal}, true
}

// str parses a String (RFC 9651 §4.2.5).
func (p *dictParser) str() (item, bool) {
	start := p.i
	p.i++
	var b strings.Builder
	for !p.eof() {
		c := p.peek()
		p.i++
		switch {
		case c == '\\':
			if p.eof() || p.peek() != '"' && p.peek() != '\\' {
				p.fail(p.i-1, "in a String, \"\\\" escapes only \"\\\"\" and \"\\\\\" (RFC 9651 §4.2.5)")
				return item{}, false
			}
			b.WriteByte(p.peek())
			p.i++
		case c == '"':
			return item{kind: kString, text: b.String()}, true
		case c < 0x20 || c >= 0x7f:
			p.fail(p.i-1, "a String holds only visible ASCII characters and spaces (RFC 9651 §4.2.5)")
			return item{}, false
		default:
			b.WriteByte(c)
		}
	}
	p.fail(start, "a String that is not closed by '\"' (RFC 9651 §4.2.5)")
	return item{}, false
}

// token parses a Token (RFC 9651 §4.2.6): ALPHA or "*", then tchar, ":"
// or "/".
func (p *dictParser) token() (item, bool) {
	start := p.i
	p.i++
	for !p.eof() && isTokenChar(p.peek()) {
		p.i++
	}
	return item{kind: kToken, text: p.s[start:p.i]}, true
}

// tokenLen is the length of the Token-like run at the start of s.
func tokenLen(s string) int {
	n := 0
	for n < len(s) && (isTokenChar(s[n]) || s[n] == '"') {
		n++
	}
	return n
}

func isTokenChar(c byte) bool {
	if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~:/", c) >= 0
}

// bytes parses a Byte Sequence (RFC 9651 §4.2.7).
func (p *dictParser) bytes() (item, bool) {
	start := p.i
	p.i++
	end := strings.IndexByte(p.s[p.i:], ':')
	if end < 0 {
		p.fail(start, "a Byte Sequence that is not closed by \":\" (RFC 9651 §4.2.7)")
		return item{}, false
	}
	b64 := p.s[p.i : p.i+end]
	for i := 0; i < len(b64); i++ {
		c := b64[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=') {
			p.fail(p.i+i, "a Byte Sequence holds base64 characters only (RFC 9651 §4.2.7)")
			return item{}, false
		}
	}
	// Padding may be left out (RFC 9651 §4.2.7 asks parsers not to fail
	// then); "=" anywhere else is an error of base64.
	if _, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(b64, "=")); err != nil {
		p.fail(p.i, "a Byte Sequence that is not valid base64 (RFC 9651 §4.2.7)")
		return item{}, false
	}
	p.i += end + 1
	return item{kind: kBytes}, true
}

// boolean parses a Boolean (RFC 9651 §4.2.8): "?1" or "?0".
func (p *dictParser) boolean() (item, bool) {
	p.i++
	if p.eof() || p.peek() != '0' && p.peek() != '1' {
		p.fail(p.i-1, "a Boolean is ?1 or ?0 (RFC 9651 §4.2.8)")
		return item{}, false
	}
	v := p.s[p.i : p.i+1]
	p.i++
	return item{kind: kBoolean, text: v}, true
}

// display parses a Display String (RFC 9651 §4.2.10).
func (p *dictParser) display() (item, bool) {
	start := p.i
	p.i++
	if p.eof() || p.peek() != '"' {
		p.fail(start, "a Display String is \"%\" and a quoted string (RFC 9651 §4.2.10)")
		return item{}, false
	}
	p.i++
	var b []byte
	for !p.eof() {
		c := p.peek()
		p.i++
		switch {
		case c < 0x20 || c >= 0x7f:
			p.fail(p.i-1, "a Display String holds only visible ASCII characters and spaces (RFC 9651 §4.2.10)")
			return item{}, false
		case c == '%':
			if len(p.s)-p.i < 2 || !isLowerHex(p.s[p.i]) || !isLowerHex(p.s[p.i+1]) {
				p.fail(p.i-1, "in a Display String, \"%\" is followed by two lower-case hex digits (RFC 9651 §4.2.10)")
				return item{}, false
			}
			b = append(b, unhex(p.s[p.i])<<4|unhex(p.s[p.i+1]))
			p.i += 2
		case c == '"':
			if !utf8.Valid(b) {
				p.fail(start, "a Display String that is not UTF-8 (RFC 9651 §4.2.10)")
				return item{}, false
			}
			return item{kind: kDisplay, text: string(b)}, true
		default:
			b = append(b, c)
		}
	}
	p.fail(start, "a Display String that is not closed by '\"' (RFC 9651 §4.2.10)")
	return item{}, false
}

func isLowerHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }

func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'a' + 10
}

// quoteByte names a byte for a message.
func quoteByte(c byte) string {
	switch {
	case c == ' ':
		return "a space"
	case c == '\t':
		return "a tab"
	case c == '"':
		return "'\"'"
	case c < 0x20 || c >= 0x7f:
		const hex = "0123456789ABCDEF"
		return "the byte 0x" + string([]byte{hex[c>>4], hex[c&15]})
	}
	return "\"" + string(c) + "\""
}
