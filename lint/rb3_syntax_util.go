package lint

import (
	"strings"

	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/syntax"
)

// Helpers shared by the syntax checks (RB3xx) and the group-structure
// checks (RB4xx).

// syntaxMaxVerify bounds how many fixes of one check in one pass are
// verified with Equivalent to pick their class; the rest are Intent, the
// cautious choice, so a huge file costs no more than a few compilations.
const syntaxMaxVerify = 8

// syntaxVerifier picks, fix by fix, the class of a PreservingGoogle fix
// that the rfc9309 profile may read differently: that profile ignores keys
// Google accepts only leniently and lines without a colon, so
// canonicalising such a line can give RFC robots a rule they ignored.
type syntaxVerifier struct {
	p     *pass
	calls int
}

// class returns want when the edits keep every google and rfc9309
// verdict, Intent otherwise (or when the budget is spent).
func (v *syntaxVerifier) class(want Class, edits ...Edit) Class {
	if v.calls >= syntaxMaxVerify || v.p.stopped() {
		return Intent
	}
	v.calls++
	es := make([]textedit.Edit, len(edits))
	for i, e := range edits {
		es[i] = textedit.Edit(e)
	}
	out, err := textedit.Apply(v.p.src, es)
	if err != nil {
		return Intent
	}
	d, err := v.p.equivalentTo(out)
	if err != nil || d != nil {
		return Intent
	}
	return want
}

// syntaxIsDirective reports whether l is a key/value line the parse model
// reads as one (a colon-less line counts only when its key is known).
func syntaxIsDirective(l *line) bool {
	return l.Kind == syntax.DirectiveLine && l.match != keyNone
}

// syntaxSecond finds a second directive inside the value of a User-agent,
// Allow, Disallow or Sitemap line (RB313): after a space or
// TAB, a known or Google-accepted name followed by ':'. It returns the
// byte offset of that name in the input and the name, or -1.
func (p *pass) syntaxSecond(l *line) (int, string) {
	if !(l.dir == dUserAgent || l.dir.rule() || l.dir == dSitemap) || l.Flags&syntax.MissingColon != 0 {
		return -1, ""
	}
	v := l.value
	for i := 1; i < len(v); i++ {
		if v[i-1] != ' ' && v[i-1] != '\t' || v[i] == ' ' || v[i] == '\t' {
			continue
		}
		// The longest name Google accepts, with a suffix, stays short;
		// looking only a little way ahead keeps this linear.
		c := strings.IndexByte(v[i:min(len(v), i+24)], ':')
		if c <= 0 {
			continue
		}
		key := strings.TrimRight(v[i:i+c], " \t")
		f := syntax.Parse("", []byte(key+": x"))
		if len(f.Lines) != 1 || f.Lines[0].Kind != syntax.DirectiveLine {
			continue
		}
		if d, _, _ := classifyKey(&f.Lines[0], key); d != dNone {
			return l.Value.Start.Offset + i, key
		}
	}
	return -1, ""
}

// syntaxLineText returns the text of line l, without its terminator.
func (p *pass) syntaxLineText(l *line) string {
	return p.src[l.Span.Start.Offset:l.Span.End.Offset]
}

// syntaxDeleteLines is an edit that removes the lines first..last
// (indexes of p.lines, inclusive) with their terminators; like deleteLine,
// a block that ends the file without a terminator takes the preceding one.
func (p *pass) syntaxDeleteLines(first, last int) Edit {
	a, b := &p.lines[first], &p.lines[last]
	start, end := a.Span.Start.Offset, b.Span.End.Offset+b.EOL
	if b.EOL == 0 && first > 0 {
		start = p.lines[first-1].Span.End.Offset
	}
	return Edit{Start: start, End: end}
}

// syntaxEOL returns the terminator for lines inserted near l: l's own,
// or for a last line without one, the previous line's (so a CRLF file
// stays CRLF).
func (p *pass) syntaxEOL(l *line) string {
	if l.EOL == 0 && l.num > 1 {
		return p.eol(&p.lines[l.num-2])
	}
	return p.eol(l)
}

// syntaxInsertBefore is an edit that inserts the line s before line l,
// ended as syntaxEOL says.
func (p *pass) syntaxInsertBefore(l *line, s string) Edit {
	return Edit{Start: l.Span.Start.Offset, End: l.Span.Start.Offset, New: s + p.syntaxEOL(l)}
}

// syntaxInsertAfter is an edit that inserts the lines ls after line l,
// each ended by l's terminator.
func (p *pass) syntaxInsertAfter(l *line, ls []string) Edit {
	eol := p.syntaxEOL(l)
	end := l.Span.End.Offset + l.EOL
	if l.EOL == 0 {
		return Edit{Start: end, End: end, New: eol + strings.Join(ls, eol)}
	}
	return Edit{Start: end, End: end, New: strings.Join(ls, eol) + eol}
}

// syntaxSignificant reports whether l is neither blank nor a comment line.
func syntaxSignificant(l *line) bool {
	return l.Kind != syntax.BlankLine && l.Kind != syntax.CommentLine
}
