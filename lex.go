package robots

import (
	"github.com/robotskit/robots/internal/lines"
	"github.com/robotskit/robots/internal/octets"
	"github.com/robotskit/robots/syntax"
)

// read compiles the lines of text, a whole robots.txt body, as
// Compile(syntax.Parse(text)) does, without building the tree.
//
// The lines most files are made of take a short way: an empty line, a
// comment line, and a line that starts with a field's exact name in any
// case ("User-agent", "Disallow", "Sitemap", …; syntax reads such a key
// with no flag), then ':' after optional spaces and tabs. Any other line,
// and one longer than lines.MaxLen, is read by lines.ParseLine, the
// reading syntax.Parse is made of. FuzzParseCompile holds the two ways to
// the same rules.
func (b *builder) read(text string) {
	off := lines.BOM(text) // a byte order mark, skipped as Parse skips it
	fastRules := !b.sem.noAllow && !b.sem.noWildcards && !b.sem.rfcEncoding
	line := int32(0)
	for off < len(text) {
		line++
		start := off
		switch text[start] {
		case '\n', '\r':
			// An empty line: blank.
			off = start + lines.EOLLen(text, start)
			if b.sem.blankEndsGroup {
				b.open = false
			}
			continue
		case '#':
			// A comment line.
			end := octets.IndexEOL(text, start)
			off = end + lines.EOLLen(text, end)
			continue
		}
		if f, vs := fastKey(text, start); f != syntax.Unknown {
			// The value starts after white space; the line's terminator,
			// which lines.IsSpace counts, ends it.
			for vs < len(text) && lines.IsSpace(text[vs]) && text[vs] != '\n' && text[vs] != '\r' {
				vs++
			}
			if (f == syntax.Allow || f == syntax.Disallow) && fastRules {
				if end := b.ruleLine(text, start, vs, line, f == syntax.Allow); end >= 0 {
					off = end + lines.EOLLen(text, end)
					continue
				}
			} else if end, stop := indexStop(text, vs); end-start <= lines.MaxLen {
				b.directive(f, 0, trimRight(text, vs, stop), line)
				off = end + lines.EOLLen(text, end)
				continue
			}
		}
		end := octets.IndexEOL(text, start)
		l := lines.ParseLine(text[start:end])
		b.scanned(text[start:end], &l, line)
		off = end + lines.EOLLen(text, end)
	}
}

// scanned reads a line that read reads the general way, as builder.line
// reads a line of a parsed file; text is the text l's offsets are in.
func (b *builder) scanned(text string, l *lines.Line, line int32) {
	if l.Kind != lines.DirectiveLine {
		if l.Kind == lines.BlankLine && b.sem.blankEndsGroup {
			b.open = false
		}
		return
	}
	b.directive(l.Field, l.Flags, text[l.Value.Start:l.Value.End], line)
}

// ruleLine reads an Allow or Disallow line whose value starts at vs, for a
// profile that reads patterns as Google does. It returns the offset of the
// line's terminator, or -1 when the line is longer than lines.MaxLen and
// must be read the general way.
//
// It reads the value eight octets at a time in one pass that also finds
// what rule.set looks for, and compiles a literal pattern without reading
// it again.
func (b *builder) ruleLine(text string, start, vs int, line int32, allow bool) int {
	end, stop, star, raw, w := scanValue(text, vs)
	if end < 0 {
		end = octets.IndexEOL(text, stop)
	}
	if end-start > lines.MaxLen {
		return -1
	}
	val := trimRight(text, vs, stop)
	if len(b.groups) == 0 || !b.open {
		return end // no group: the reference library ignores the rule
	}
	b.inRules = true
	g := &b.groups[len(b.groups)-1]
	g.ruleLines++
	if raw {
		// Octets that Google's normalisation may rewrite: the general
		// way.
		b.rule(val, line, allow)
		g.ruleHi = uint32(len(b.raw))
		return end
	}
	// A pattern already in Google's form: rule.set's reading of it, from
	// what the pass found. The rule is compiled in place and dropped again
	// if it can never match, as in builder.rule.
	if star >= 0 {
		star -= vs
	}
	off := len(b.arena)
	b.raw = append(b.raw, rule{})
	ru := &b.raw[len(b.raw)-1]
	ru.fill(val, off, line, allow, star, w)
	if ru.never() {
		b.raw = b.raw[:len(b.raw)-1]
		return end
	}
	b.put(val)
	if allow && b.sem.indexHTML {
		b.indexHTML(off, line)
	}
	g.ruleHi = uint32(len(b.raw))
	return end
}

// scanValue reads a rule's value, which starts at vs, eight octets at a
// time. It returns the offset of the line's terminator (end; -1 when the
// caller must find it after stop) and of the value's end (stop: the first
// NUL or '#' before end, or end), the offset of the value's first '*'
// (star, -1: none), whether the value holds a '%' or a non-ASCII octet
// (raw), and the value's first eight octets as load8 reads them, with what
// follows (w).
//
// It is apart from ruleLine, and calls nothing but scanTail, so that its
// loops keep their few values in registers.
func scanValue(text string, vs int) (end, stop, star int, raw bool, w uint64) {
	if vs+8 > len(text) {
		return scanTail(text, vs)
	}
	w = octets.Load(text, vs)
	star = -1
	var acc uint64 // high bits: a non-ASCII octet or a '%'
	for i := vs; ; i += 8 {
		// Most words of a path hold no octet that needs a look: none below
		// ','+1 (controls, which hold the terminators and NUL, and ' ' to
		// ',', which hold '#', '%' and '*') and none above 0x7F. A tight
		// loop passes over them, one test each.
		for i+8 <= len(text) && plainWord(octets.Load(text, i)) {
			i += 8
		}
		if i+8 > len(text) {
			return scanTail(text, vs)
		}
		v := octets.Load(text, i)
		// Most values end at their first octet below ','+1, which is then
		// a line terminator: the octets before it are none of those
		// looked for below.
		if low := (v - 0x2D*octets.Ones) &^ v & (0x80 * octets.Ones); low != 0 {
			p := i + octets.First(low)
			if c := text[p]; c == '\n' || c == '\r' {
				acc |= v & octets.Below(low)
				return p, p, star, acc&(0x80*octets.Ones) != 0, w
			}
		}
		keep := ^uint64(0) // the octets before the value's end
		e := octets.Eq(v, '\n') | octets.Eq(v, '\r')
		m := (octets.Eq(v, 0) | octets.Eq(v, '#')) & octets.Below(e)
		if m|e != 0 {
			// The mask of the octets before the first mark: its bit 7
			// is the lowest set bit of m|e (Eq marks no octet below
			// the first equal one).
			keep = octets.Below(m | e)
			stop = i + octets.First(m|e)
			switch {
			case m == 0:
				end = stop
			case e != 0:
				end = i + octets.First(e)
			default:
				end = -1
			}
		}
		// An Eq mask marks no octet below its first true one, so within
		// keep the marks are exact.
		acc |= (v | octets.Eq(v, '%')) & keep
		if s := octets.Eq(v, '*') & keep; s != 0 && star < 0 {
			star = i + octets.First(s)
		}
		if m|e != 0 {
			return end, stop, star, acc&(0x80*octets.Ones) != 0, w
		}
	}
}

// scanTail is scanValue for a value that reaches the last eight octets of
// text, which it reads zero-padded: the first padding octet reads as a NUL
// at len(text), which ends the value where the text ends.
func scanTail(text string, vs int) (end, stop, star int, raw bool, w uint64) {
	star, stop = -1, -1
	var acc uint64
	for i := vs; ; i += 8 {
		var v uint64
		if i+8 <= len(text) {
			v = octets.Load(text, i)
		} else {
			v = load8(text[i:])
		}
		if i == vs {
			w = v
		}
		keep := ^uint64(0)
		e := octets.Eq(v, '\n') | octets.Eq(v, '\r')
		if m := (octets.Eq(v, 0) | octets.Eq(v, '#')) & octets.Below(e); m|e != 0 {
			keep = octets.Below(m | e)
			stop = i + octets.First(m|e)
			switch {
			case stop >= len(text):
				stop, end = len(text), len(text)
			case m == 0:
				end = stop
			case e != 0:
				end = i + octets.First(e)
			default:
				end = -1
			}
		}
		acc |= (v | octets.Eq(v, '%')) & keep
		if s := octets.Eq(v, '*') & keep; s != 0 && star < 0 {
			star = i + octets.First(s)
		}
		if stop >= 0 {
			return end, stop, star, acc&(0x80*octets.Ones) != 0, w
		}
	}
}

// plainWord reports whether the eight octets of v hold none below ','+1 and
// none above 0x7F. An octet below 0x2D sets bit 7 of its difference (the
// lowest such octet does, a borrow may set others), one above 0x7F has it
// set; when there is neither, no octet borrows and no bit 7 is set.
func plainWord(v uint64) bool {
	return (v-0x2D*octets.Ones|v)&(0x80*octets.Ones) == 0
}

// fastKey reads the key of the line at start when the line starts with a
// key that names a field exactly, in any case, followed by spaces or tabs
// and a ':', which is then the line's first ':'. It returns the key's field
// and the offset after the ':', or syntax.Unknown when the line is not of
// that form, or its key is one only Google's lenient reading knows (such
// lines are read the general way).
//
// "User-agent", "Allow" and "Disallow", the keys of most lines, are
// compared eight octets at a time; other keys are looked up by
// lines.LookupField.
func fastKey(text string, start int) (syntax.Field, int) {
	var f syntax.Field
	var i int
	if len(text)-start >= 10 {
		w := octets.Load(text, start)
		switch {
		case octets.EqualFold(w, wordDisallow):
			f, i = syntax.Disallow, start+8
		case octets.EqualFold(w&0xFF_FFFF_FFFF, wordAllow):
			f, i = syntax.Allow, start+5
		case octets.EqualFold(w, wordUserAge) && text[start+8]|0x20 == 'n' && text[start+9]|0x20 == 't':
			f, i = syntax.UserAgent, start+10
		}
	}
	if f == syntax.Unknown {
		// Any other key: letters and '-', as every field's name is.
		i = start
		for i < len(text) && (text[i]|0x20-'a' < 26 || text[i] == '-') {
			i++
		}
		if f = lines.LookupField(text[start:i]); f == syntax.Unknown {
			return syntax.Unknown, 0
		}
	}
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if i == len(text) || text[i] != ':' {
		return syntax.Unknown, 0
	}
	return f, i + 1
}

// The keys fastKey reads, as octets.Load loads them, in lower case.
var (
	wordDisallow = octets.Load("disallow", 0)
	wordAllow    = octets.Load("allow\x00\x00\x00", 0)
	wordUserAge  = octets.Load("user-age", 0)
)

// indexStop returns the offset of the terminator of the line that goes on
// at from (its first '\n' or '\r', or len(text)), and of the first NUL or
// '#' before it (or end), where the line's value ends.
func indexStop(text string, from int) (end, stop int) {
	i := from
	for ; i+8 <= len(text); i += 8 {
		v := octets.Load(text, i)
		if !octets.AnyBelow(v, 0x0E) && octets.Eq(v, '#') == 0 {
			continue
		}
		e := octets.Eq(v, '\n') | octets.Eq(v, '\r')
		m := (octets.Eq(v, 0) | octets.Eq(v, '#')) & octets.Below(e)
		switch {
		case m != 0 && e != 0:
			return i + octets.First(e), i + octets.First(m)
		case m != 0:
			return octets.IndexEOL(text, i+8), i + octets.First(m)
		case e != 0:
			end = i + octets.First(e)
			return end, end
		}
	}
	for ; i < len(text); i++ {
		switch text[i] {
		case '\n', '\r':
			return i, i
		case 0, '#':
			return octets.IndexEOL(text, i), i
		}
	}
	return len(text), len(text)
}

// trimRight returns text[vs:stop] without trailing white space.
func trimRight(text string, vs, stop int) string {
	for stop > vs && lines.IsSpace(text[stop-1]) {
		stop--
	}
	return text[vs:stop]
}
