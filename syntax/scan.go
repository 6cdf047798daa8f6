package syntax

import "strings"

// A Scanner reads a robots.txt body line by line without building a tree.
// It is what [Parse] uses, exposed so that a compiler can read a body
// without allocating; its lines are the same as those of [Parse], except
// that [InvalidUTF8] is never set (checking it costs time the matcher does
// not need).
//
// The zero Scanner is empty; call [Scanner.Init] before use.
type Scanner struct {
	src    string
	off    int // start of the next line
	line   int // number of the last line returned
	bom    int // length of the skipped byte order mark
	nextLF int // offset of the next '\n' at or after off, or len(src)
	nextCR int // offset of the next '\r' at or after off, or len(src)
}

// Init makes s read src from its start. It skips a UTF-8 byte order mark
// (EF BB BF) or a prefix of one, as Google's parser does, and returns the
// skipped bytes.
func (s *Scanner) Init(src string) (bom string) {
	n := 0
	for n < 3 && n < len(src) && src[n] == "\xEF\xBB\xBF"[n] {
		n++
	}
	*s = Scanner{src: src, off: n, bom: n, nextLF: -1, nextCR: -1}
	return src[:n]
}

// Scan reads the next line into l and reports whether there was one.
func (s *Scanner) Scan(l *Line) bool {
	start := s.off
	if start >= len(s.src) {
		return false
	}
	if s.nextLF < start {
		s.nextLF = next(s.src, start, '\n')
	}
	if s.nextCR < start {
		s.nextCR = next(s.src, start, '\r')
	}
	end, eol := s.nextLF, 1
	switch {
	case s.nextCR < end:
		end = s.nextCR
		if end+1 < len(s.src) && s.src[end+1] == '\n' {
			eol = 2
		}
	case end == len(s.src):
		eol = 0
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

func next(src string, from int, c byte) int {
	if i := strings.IndexByte(src[from:], c); i >= 0 {
		return from + i
	}
	return len(src)
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
	pos := func(off int) Pos { return Pos{Offset: off, Line: line, Col: off - lineStart + 1} }
	span := func(a, b int) Span { return Span{pos(a), pos(b)} }
	l.Span = span(start, end)

	// Only the first MaxLineLen bytes are read, and only up to a NUL.
	read := end
	if read-start > MaxLineLen {
		read = start + MaxLineLen
		l.Flags |= TooLong
	}
	if i := strings.IndexByte(src[start:read], 0); i >= 0 {
		read = start + i
		l.Flags |= NUL
	}
	body := read
	if i := strings.IndexByte(src[start:read], '#'); i >= 0 {
		body = start + i
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
	if i := strings.IndexByte(src[a:b], ':'); i >= 0 {
		ke, vs = a+i, a+i+1
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
	if equalFold(k, fieldNames[f]) {
		return f
	}
	return Unknown
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + ('a' - 'A')
	}
	return c
}

// equalFold reports whether s and t are equal under ASCII case folding.
func equalFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lower(s[i]) != lower(t[i]) {
			return false
		}
	}
	return true
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && equalFold(s[:len(prefix)], prefix)
}
