package syntax

import (
	"strings"

	"github.com/robotskit/robots/internal/octets"
)

// A Scanner reads a robots.txt body line by line without building a tree.
// It is what [Parse] uses, exposed so that a compiler can read a body
// without allocating; its lines are the same as those of [Parse], except
// that [InvalidUTF8] is never set (checking it costs time the matcher does
// not need).
//
// The zero Scanner is empty; call [Scanner.Init] before use.
type Scanner struct {
	src  string
	off  int // start of the next line
	line int // number of the last line returned
	bom  int // length of the skipped byte order mark
}

// Init makes s read src from its start. It skips a UTF-8 byte order mark
// (EF BB BF) or a prefix of one, as Google's parser does, and returns the
// skipped bytes.
func (s *Scanner) Init(src string) (bom string) {
	n := 0
	for n < 3 && n < len(src) && src[n] == "\xEF\xBB\xBF"[n] {
		n++
	}
	*s = Scanner{src: src, off: n, bom: n}
	return src[:n]
}

// Scan reads the next line into l and reports whether there was one.
func (s *Scanner) Scan(l *Line) bool {
	start := s.off
	if start >= len(s.src) {
		return false
	}
	end, eol := indexEOL(s.src, start), 0
	if end < len(s.src) {
		eol = 1
		if s.src[end] == '\r' && end+1 < len(s.src) && s.src[end+1] == '\n' {
			eol = 2
		}
	}
	s.line++
	s.off = end + eol
	lineStart := start
	if s.line == 1 {
		lineStart = s.bom
	}
	tokenize(s.src, start, end, s.line, lineStart, l)
	l.EOL = eol
	return true
}

// indexEOL returns the offset of the first '\n' or '\r' of src at or
// after from, or len(src).
func indexEOL(src string, from int) int {
	i := from
	for ; i+8 <= len(src); i += 8 {
		v := octets.Load(src, i)
		if m := octets.Eq(v, '\n') | octets.Eq(v, '\r'); m != 0 {
			return i + octets.First(m)
		}
	}
	for ; i < len(src); i++ {
		if c := src[i]; c == '\n' || c == '\r' {
			return i
		}
	}
	return len(src)
}

// indexMarks returns the offset of the first NUL or '#' of src[from:to]
// (or to), and of the first ':' before it (or -1).
func indexMarks(src string, from, to int) (stop, colon int) {
	colon = -1
	i := from
	for ; i+8 <= to; i += 8 {
		v := octets.Load(src, i)
		m := octets.Eq(v, 0) | octets.Eq(v, '#')
		if colon < 0 {
			// Only a ':' before the stop counts; the masks mark their
			// first octets exactly.
			if c := octets.Eq(v, ':'); c != 0 && (m == 0 || octets.First(c) < octets.First(m)) {
				colon = i + octets.First(c)
			}
		}
		if m != 0 {
			return i + octets.First(m), colon
		}
	}
	for ; i < to; i++ {
		switch src[i] {
		case 0, '#':
			return i, colon
		case ':':
			if colon < 0 {
				colon = i
			}
		}
	}
	return to, colon
}

// isSpace reports whether c is white space as C's isspace sees it in the C
// locale, which is what Google's parser trims.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n'
}

// tokenize fills l for the line src[start:end] (terminator excluded), where
// lineStart is the offset of column 1.
func tokenize(src string, start, end, line, lineStart int, l *Line) {
	*l = Line{}
	// Positions on this line: column = offset - col0.
	col0 := lineStart - 1
	span := func(a, b int) Span {
		return Span{Pos{Offset: a, Line: line, Col: a - col0}, Pos{Offset: b, Line: line, Col: b - col0}}
	}
	l.Span = span(start, end)

	// Only the first MaxLineLen bytes are read, and only up to a NUL.
	read := end
	if read-start > MaxLineLen {
		read = start + MaxLineLen
		l.Flags |= TooLong
	}
	// The line is read up to a NUL; its body ends at the first '#' before
	// that, which starts the comment.
	body, colon := indexMarks(src, start, read)
	if body < read && src[body] == 0 {
		read = body
		l.Flags |= NUL
	} else if body < read {
		if i := strings.IndexByte(src[body:read], 0); i >= 0 { // a NUL ends the comment too
			read = body + i
			l.Flags |= NUL
		}
		l.Comment = span(body, read)
	}
	a, b := start, body
	for a < b && isSpace(src[a]) {
		a++
	}
	for b > a && isSpace(src[b-1]) {
		b--
	}
	if a == b {
		if l.Comment.IsValid() {
			l.Kind = CommentLine
		} else {
			l.Kind = BlankLine
		}
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
			l.Kind, l.Flags = InvalidLine, l.Flags|NoSeparator
			return
		}
		ke, vs = a+i, a+i
		for vs < b && (src[vs] == ' ' || src[vs] == '\t') {
			vs++
		}
		if strings.ContainsAny(src[vs:b], " \t") {
			l.Kind, l.Flags = InvalidLine, l.Flags|NoSeparator
			return
		}
		l.Flags |= MissingColon
	}
	for ke > a && isSpace(src[ke-1]) {
		ke--
	}
	if ke == a {
		l.Kind, l.Flags = InvalidLine, l.Flags|EmptyKey
		return
	}
	for vs < b && isSpace(src[vs]) {
		vs++
	}
	l.Kind = DirectiveLine
	l.Key = span(a, ke)
	l.Value = span(vs, b)
	f, lenient := classify(src[a:ke])
	l.Field = f
	if lenient {
		l.Flags |= Lenient
	}
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
		if lower(k[0]) == 'c' {
			f = Comment
		} else {
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
		f = RobotVersion
	default:
		return Unknown
	}
	if equalLower(k, lowerNames[f]) {
		return f
	}
	return Unknown
}

// lowerNames holds fieldNames in lower case.
var lowerNames = func() (l [numFields]string) {
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
		return foldWord(octets.Load(k, 0), octets.Load(name, 0)) &&
			foldWord(octets.Load(k, n-8), octets.Load(name, n-8))
	}
	for i := 0; i < n; i++ {
		if k[i]|name[i]&0x40>>1 != name[i] {
			return false
		}
	}
	return true
}

func foldWord(k, name uint64) bool {
	return k|name&(0x40*octets.Ones)>>1 == name
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
