package lines

import (
	"strings"
	"unicode/utf8"

	"github.com/robotskit/robots/internal/octets"
)

// BOM returns the length of the UTF-8 byte order mark (EF BB BF), or of the
// prefix of one, that src starts with: the bytes Google's parser skips
// before the first line.
func BOM(src string) int {
	n := 0
	for n < 3 && n < len(src) && src[n] == "\xEF\xBB\xBF"[n] {
		n++
	}
	return n
}

// EOLLen returns the length of the line terminator at end, the offset
// where a line's text ends: 0 at the end of text, 2 for CRLF, else 1 (LF or
// CR).
func EOLLen(text string, end int) int {
	if end >= len(text) {
		return 0
	}
	if text[end] == '\r' && end+1 < len(text) && text[end+1] == '\n' {
		return 2
	}
	return 1
}

// IsSpace reports whether c is white space as C's isspace sees it in the C
// locale, which is what Google's parser trims: ' ', '\t', '\n', '\v', '\f'
// and '\r', as bits of one constant.
func IsSpace(c byte) bool {
	return c <= ' ' && (1<<' '|1<<'\t'|1<<'\n'|1<<'\v'|1<<'\f'|1<<'\r')>>c&1 != 0
}

// A Scanner reads a robots.txt body line by line. Its lines are those of
// syntax.Parse, in offsets, except that [InvalidUTF8] is never set
// (checking it costs time a compiler does not need).
//
// The zero Scanner is empty; call [Scanner.Init] before use.
type Scanner struct {
	src string
	off int // start of the next line
}

// Init makes s read src from its start. It skips a UTF-8 byte order mark
// (EF BB BF) or a prefix of one, as Google's parser does (see [BOM]), and
// returns the skipped bytes.
func (s *Scanner) Init(src string) (bom string) {
	n := BOM(src)
	*s = Scanner{src: src, off: n}
	return src[:n]
}

// Scan reads the next line into l, with offsets in the text given to Init,
// and reports whether there was one.
func (s *Scanner) Scan(l *Line) bool {
	start := s.off
	if start >= len(s.src) {
		return false
	}
	end, stop, colon := indexLine(s.src, start)
	eol := EOLLen(s.src, end)
	s.off = end + eol
	tokenize(s.src, start, end, stop, colon, l)
	l.EOL = eol
	return true
}

// ParseLine reads one line as a [Scanner] reads each line of a body, and
// also sets [InvalidUTF8]. The line ends at its first '\n' or '\r', if
// any: the terminator and what follows are not read, and EOL is 0.
// Offsets are relative to line.
func ParseLine(line string) Line {
	end := octets.IndexEOL(line, 0)
	line = line[:end]
	var l Line
	end, stop, colon := indexLine(line, 0)
	tokenize(line, 0, end, stop, colon, &l)
	l.EOL = 0
	if !utf8.ValidString(line) {
		l.Flags |= InvalidUTF8
	}
	return l
}

// indexLine reads the line that starts at from in one pass, eight octets
// at a time. It returns the offset of the line's terminator (the first '\n'
// or '\r', or len(src)), of the first NUL or '#' before it (or end), and
// of the first ':' before that (or -1).
func indexLine(src string, from int) (end, stop, colon int) {
	colon = -1
	n := len(src)
	if n-from < 8 {
		return indexLineShort(src, from)
	}
	for i := from; ; i += 8 {
		if i+8 > n {
			// The last eight octets overlap octets already read, which
			// hold no mark and, if colon < 0, no ':'.
			i = n - 8
		}
		v := octets.Load(src, i)
		var c uint64 // the ':' of this word, until one is found
		if colon < 0 {
			c = octets.Eq(v, ':')
		}
		// Most words hold no mark: one test for octets below 0x0E (NUL,
		// '\n', '\r' and rarer controls) or a '#' passes over them.
		if octets.AnyBelow(v, 0x0E) || octets.Eq(v, '#') != 0 {
			// Masks of the first terminator (e), of the first NUL or '#'
			// before it (m), and of the first ':' before both (c).
			e := octets.Eq(v, '\n') | octets.Eq(v, '\r')
			if m := (octets.Eq(v, 0) | octets.Eq(v, '#')) & octets.Below(e); m|e != 0 {
				if c &= octets.Below(e) & octets.Below(m); c != 0 {
					colon = i + octets.First(c)
				}
				end, stop = lineEnd(src, i, e, m)
				return end, stop, colon
			}
		}
		if c != 0 {
			colon = i + octets.First(c)
		}
		if i+8 == n {
			return n, n, colon
		}
	}
}

// indexLineShort is indexLine for fewer than eight octets.
func indexLineShort(src string, from int) (end, stop, colon int) {
	colon = -1
	for i := from; i < len(src); i++ {
		switch src[i] {
		case '\n', '\r':
			return i, i, colon
		case 0, '#':
			return octets.IndexEOL(src, i), i, colon
		case ':':
			if colon < 0 {
				colon = i
			}
		}
	}
	return len(src), len(src), colon
}

// lineEnd returns indexLine's end and stop for a word at i that marks a
// terminator (e) or a stop (m), as lineMarks makes them.
func lineEnd(src string, i int, e, m uint64) (end, stop int) {
	if m == 0 {
		end = i + octets.First(e)
		return end, end
	}
	stop = i + octets.First(m)
	if e != 0 {
		return i + octets.First(e), stop
	}
	return octets.IndexEOL(src, i+8), stop
}

// tokenize fills l for the line src[start:end] (terminator excluded).
// stop and colon are indexLine's: the first NUL or '#' of the line (or
// end) and the first ':' before it (or -1).
func tokenize(src string, start, end, stop, colon int, l *Line) {
	// Every field of *l but EOL (Scan's) is written once on each way out,
	// rather than the whole Line zeroed first and then written again.
	// Ranges are set field by field: a Range value would be built on the
	// stack with 8-byte stores and copied with 16-byte loads, which cannot
	// take their data from those stores and wait for them.
	l.Span.Start, l.Span.End = start, end
	var flags Flags

	// Only the first MaxLen bytes are read, and only up to a NUL.
	read := end
	if read-start > MaxLen {
		read = start + MaxLen
		flags |= TooLong
		stop = min(stop, read)
		if colon >= read {
			colon = -1
		}
	}
	// The line is read up to a NUL; its body ends at the first '#' before
	// that, which starts the comment.
	body := stop
	comment := false
	if body < read && src[body] == 0 {
		read = body
		flags |= NUL
	} else if body < read {
		if i := strings.IndexByte(src[body:read], 0); i >= 0 { // a NUL ends the comment too
			read = body + i
			flags |= NUL
		}
		l.Comment.Start, l.Comment.End = body, read
		comment = true
	}
	if !comment {
		l.Comment = Range{}
	}
	a, b := start, body
	for a < b && IsSpace(src[a]) {
		a++
	}
	for b > a && IsSpace(src[b-1]) {
		b--
	}
	if a == b {
		kind := BlankLine
		if comment {
			kind = CommentLine
		}
		l.other(kind, flags)
		return
	}

	// <key>[ \t]*:[ \t]*<value>, or Google's <key>[ \t]+<value> when the
	// line holds exactly two words.
	var ke, vs int
	if colon >= 0 {
		ke, vs = colon, colon+1
	} else {
		i := strings.IndexAny(src[a:b], " \t")
		if i < 0 {
			l.other(InvalidLine, flags|NoSeparator)
			return
		}
		ke, vs = a+i, a+i
		for vs < b && (src[vs] == ' ' || src[vs] == '\t') {
			vs++
		}
		if strings.ContainsAny(src[vs:b], " \t") {
			l.other(InvalidLine, flags|NoSeparator)
			return
		}
		flags |= MissingColon
	}
	for ke > a && IsSpace(src[ke-1]) {
		ke--
	}
	if ke == a {
		l.other(InvalidLine, flags|EmptyKey)
		return
	}
	for vs < b && IsSpace(src[vs]) {
		vs++
	}
	l.Key.Start, l.Key.End = a, ke
	l.Value.Start, l.Value.End = vs, b
	f, lenient := classify(src[a:ke])
	if lenient {
		flags |= Lenient
	}
	l.Kind, l.Field, l.Flags = DirectiveLine, f, flags
}

// other finishes a line that is not a directive: no field, key or value.
func (l *Line) other(kind Kind, flags Flags) {
	l.Kind, l.Field, l.Flags = kind, Unknown, flags
	l.Key, l.Value = Range{}, Range{}
}

// classify returns the field a key names and whether only Google's lenient
// reading gets there.
func classify(k string) (Field, bool) {
	if f := exactField(k); f != Unknown {
		return f, false
	}
	// Google's parser recognises its four keys by prefix and accepts a few
	// frequent misspellings (google/robotstxt, ParsedRobotsKey; the list is
	// also in google-java-cases).
	switch {
	case hasPrefixFold(k, "user-agent"), hasPrefixFold(k, "useragent"), hasPrefixFold(k, "user agent"):
		return UserAgent, true
	case hasPrefixFold(k, "allow"):
		return Allow, true
	case hasPrefixFold(k, "disallow"), hasPrefixFold(k, "dissallow"), hasPrefixFold(k, "dissalow"),
		hasPrefixFold(k, "disalow"), hasPrefixFold(k, "diasllow"), hasPrefixFold(k, "disallaw"):
		return Disallow, true
	case hasPrefixFold(k, "sitemap"), hasPrefixFold(k, "site-map"):
		return Sitemap, true
	}
	return Unknown, false
}

// LookupField returns the field whose canonical name equals key, ignoring
// ASCII case, and Unknown when there is none. It accepts no misspelling.
func LookupField(key string) Field { return exactField(key) }

// exactField is LookupField, with a switch on length first: it runs once
// per directive line.
func exactField(k string) Field {
	var f Field
	switch len(k) {
	case 4:
		f = Host
	case 5:
		f = Allow
	case 7:
		switch lower(k[0]) {
		case 'c':
			f = Comment
		case 'l':
			f = License
		default:
			f = Sitemap
		}
	case 8:
		f = Disallow
	case 10:
		if lower(k[0]) == 'u' {
			f = UserAgent
		} else {
			f = VisitTime
		}
	case 11:
		if lower(k[1]) == 'r' {
			f = CrawlDelay
		} else {
			f = CleanParam
		}
	case 12:
		f = RequestRate
	case 13:
		if lower(k[0]) == 'c' {
			f = ContentUsage
		} else {
			f = RobotVersion
		}
	case 14:
		f = ContentSignal
	default:
		return Unknown
	}
	if equalLower(k, lowerNames[f]) {
		return f
	}
	return Unknown
}

// lowerNames holds fieldNames in lower case.
var lowerNames = func() (l [NumFields]string) {
	for i, n := range fieldNames {
		l[i] = strings.ToLower(n)
	}
	return l
}()

// equalLower reports whether k equals name ignoring the case of k's ASCII
// letters, where name is lower case and holds only letters, '-' and ' '.
// In such a name, bit 6 marks the letters: k's octet at a letter may
// differ from it in bit 5 (the case bit) only; elsewhere it must be equal.
// It compares eight octets at a time where it can.
func equalLower(k, name string) bool {
	n := len(name)
	if len(k) != n {
		return false
	}
	if n >= 8 {
		return octets.EqualFold(octets.Load(k, 0), octets.Load(name, 0)) &&
			octets.EqualFold(octets.Load(k, n-8), octets.Load(name, n-8))
	}
	for i := 0; i < n; i++ {
		if k[i]|name[i]&0x40>>1 != name[i] {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && equalLower(s[:len(prefix)], prefix)
}
