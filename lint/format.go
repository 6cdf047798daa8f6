package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/internal/pattern"
	"github.com/robotskit/robots/syntax"
)

// Format returns src in the canonical layout of the fixer: the
// leading comments, then the groups — the "*" group after the named ones,
// and a group that names a token before any group whose token contains it
// (FX18) — each with its User-agent lines, Robot-version, its rules from
// the longest pattern to the shortest with Allow first on a tie (FX30),
// then its other lines; then Host and Clean-param; then every Sitemap.
// Groups are separated by one blank line, keys of exact directives take
// their canonical spelling, values and comments are kept, lines end with
// LF and the file with a newline. Comment lines travel with the line they
// precede, except the comments at the top of the file, which stay there.
//
// Lines whose reading differs between robots (missing colons, misspelt
// keys, lines cut at 16,664 bytes) are kept as written: Format changes
// layout, not meaning. It checks that with Equivalent and returns src and
// an error if the layout would change a google or rfc9309 verdict, or
// would move a line into or out of the first 500 KiB of a longer file,
// the part Google and RFC 9309 robots read (robots.MaxBytes).
func Format(src []byte) ([]byte, error) {
	p := newPass(syntax.Parse("", src), nil)
	first := len(p.lines) // the first line that is not a comment or blank
	for i := range p.lines {
		if k := p.lines[i].Kind; k != syntax.BlankLine && k != syntax.CommentLine {
			first = i
			break
		}
	}
	if first == len(p.lines) {
		first = 0 // only comments: they are the trailer
	}
	p.attachComments(first)

	// The sections of the output, in order.
	var nonGroup, sitemaps, before []int
	inGroup := make([]bool, len(p.lines))
	var sections [][]int
	for _, gi := range p.groupOrder() {
		ls := p.groupLines(gi)
		for _, i := range ls {
			inGroup[i] = true
		}
		sections = append(sections, ls)
	}
	for i := first; i < len(p.lines); i++ {
		l := &p.lines[i]
		switch {
		case l.Kind == syntax.BlankLine || l.Kind == syntax.CommentLine:
		case l.is(dSitemap):
			sitemaps = append(sitemaps, i)
		case l.is(dHost) || l.is(dCleanParam):
			nonGroup = append(nonGroup, i)
		case !inGroup[i]:
			before = append(before, i)
		}
	}
	sections = append([][]int{before}, append(sections, nonGroup, sitemaps)...)

	// The header: the comments above the first line of the input, and
	// those of the first line of the output, which a second run would
	// read as header too. The layout keeps the leading comment block at
	// the top, whatever moves.
	var header []string
	for i := 0; i < first; i++ {
		if l := &p.lines[i]; l.Kind == syntax.CommentLine {
			header = append(header, strings.TrimSpace(p.src[l.Span.Start.Offset:l.Span.End.Offset]))
		}
	}
	for _, sec := range sections {
		if len(sec) > 0 {
			header = append(header, p.leading[sec[0]]...)
			delete(p.leading, sec[0])
			break
		}
	}

	// A line of the output, and the input line it lays out (-1 for a
	// comment).
	type outLine struct {
		text string
		from int
	}
	var b strings.Builder
	ends := make([]int, len(p.lines)) // where each input line ends in the output
	block := func(lines []outLine) {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		for _, l := range lines {
			b.WriteString(l.text + "\n")
			if l.from >= 0 {
				ends[l.from] = b.Len()
			}
		}
	}
	comments := func(cs []string) []outLine {
		out := make([]outLine, len(cs))
		for i, c := range cs {
			out[i] = outLine{c, -1}
		}
		return out
	}
	block(comments(header))
	for _, sec := range sections {
		if len(sec) == 0 {
			continue
		}
		var out []outLine
		for _, i := range sec {
			out = append(append(out, comments(p.leading[i])...), outLine{p.canonical(&p.lines[i]), i})
		}
		block(out)
	}
	if t := p.trailing(); len(t) > 0 {
		block(comments(t))
	}
	out := []byte(b.String())
	if len(out) > 0 && out[0] == 0xEF {
		// Robots would skip the first octets as a byte order mark (or a
		// prefix of one); a whole mark in front keeps them.
		out = append([]byte("\xEF\xBB\xBF"), out...)
		for i := range ends {
			if ends[i] > 0 {
				ends[i] += 3
			}
		}
	}
	if err := p.layoutCut(out, ends); err != nil {
		return src, err
	}
	if d := change.Equivalent(src, out); d != nil {
		return src, fmt.Errorf("the layout would change %s's verdict for %s under %v; file left as it is", d.Agent, d.URL, d.Profile)
	}
	return out, nil
}

// layoutCut returns an error when the layout out moves a line that is not
// a comment or blank into or out of the part of the file robots read,
// its first 500 KiB (readEnd): Google would read a rule it ignored, or
// ignore one it read. ends holds where each input line ends in out, 0
// for the lines out does not hold.
func (p *pass) layoutCut(out []byte, ends []int) error {
	if len(p.src) <= robots.MaxBytes && len(out) <= robots.MaxBytes {
		return nil
	}
	inEnd, outEnd := readEnd(p.src), readEnd(string(out))
	for i := range p.lines {
		l := &p.lines[i]
		if l.Kind == syntax.BlankLine || l.Kind == syntax.CommentLine || ends[i] == 0 {
			continue
		}
		was, is := l.Span.End.Offset+l.EOL <= inEnd, ends[i] <= outEnd
		if was == is {
			continue
		}
		how := "out of"
		if is {
			how = "into"
		}
		text := strings.TrimSpace(p.src[l.Span.Start.Offset:l.Span.End.Offset])
		if len(text) > 60 {
			text = text[:57] + "..."
		}
		return fmt.Errorf("the layout would move line %d (%q) %s the first 500 KiB, the part of the file Google and RFC 9309 robots read; file left as it is", i+1, text, how)
	}
	return nil
}

// attachComments records, for every line from the line from on that is
// not a comment or blank, the comment lines right above it (blank lines
// between them allowed).
func (p *pass) attachComments(from int) {
	p.leading = make(map[int][]string)
	var run []string
	for i := from; i < len(p.lines); i++ {
		l := &p.lines[i]
		switch l.Kind {
		case syntax.CommentLine:
			run = append(run, strings.TrimSpace(p.src[l.Span.Start.Offset:l.Span.End.Offset]))
		case syntax.BlankLine:
		default:
			if len(run) > 0 {
				p.leading[i] = run
				run = nil
			}
		}
	}
}

// trailing returns the comment lines after the last line that is not a
// comment or blank.
func (p *pass) trailing() []string {
	var out []string
	for i := len(p.lines) - 1; i >= 0; i-- {
		l := &p.lines[i]
		if l.Kind == syntax.CommentLine {
			out = append([]string{strings.TrimSpace(p.src[l.Span.Start.Offset:l.Span.End.Offset])}, out...)
		} else if l.Kind != syntax.BlankLine {
			break
		}
	}
	return out
}

// groupLines returns the lines of group gi in canonical order: User-agent
// lines, Robot-version, rules sorted by FX30, the other members in the
// canonical order, then the other lines that stood in the group's span (unknown
// keys, invalid lines), in file order. Sitemap, Host and Clean-param are
// left to the sections after the groups.
func (p *pass) groupLines(gi int) []int {
	g := &p.groups[gi]
	end := len(p.lines)
	if gi+1 < len(p.groups) {
		end = p.groups[gi+1].first()
	}
	var agents, version, rules, others, rest []int
	for i := g.first(); i < end; i++ {
		l := &p.lines[i]
		switch {
		case l.Kind == syntax.BlankLine || l.Kind == syntax.CommentLine:
		case l.is(dUserAgent):
			agents = append(agents, i)
		case l.is(dRobotVersion):
			version = append(version, i)
		case l.dir.rule():
			rules = append(rules, i)
		case l.dir.nonGroup():
		case l.dir.member():
			others = append(others, i)
		default:
			rest = append(rest, i)
		}
	}
	sort.SliceStable(rules, func(a, b int) bool {
		la, lb := &p.lines[rules[a]], &p.lines[rules[b]]
		na, nb := len(pattern.AppendGoogle(nil, la.value)), len(pattern.AppendGoogle(nil, lb.value))
		if na != nb {
			return na > nb
		}
		return la.is(dAllow) && !lb.is(dAllow)
	})
	sort.SliceStable(others, func(a, b int) bool { return p.lines[others[a]].dir < p.lines[others[b]].dir })
	return append(append(append(append(agents, version...), rules...), others...), rest...)
}

// groupOrder returns the order of the groups in the output (FX18): a group
// goes after every group that names a token containing one of its tokens,
// the "*" groups after the named ones, and a group without rules — which
// can only be the last, since a User-agent line after it would join it —
// stays last. Otherwise the file's order is kept.
func (p *pass) groupOrder() []int {
	rank := func(gi int) int {
		g := &p.groups[gi]
		switch {
		case len(g.rules) == 0:
			return 2
		case g.global:
			return 1
		}
		return 0
	}
	left := make([]int, len(p.groups))
	for i := range left {
		left[i] = i
	}
	sort.SliceStable(left, func(a, b int) bool { return rank(left[a]) < rank(left[b]) })
	var out []int
	for len(left) > 0 {
		pick := 0
	find:
		for k, gi := range left {
			for _, hj := range left {
				if hj != gi && rank(hj) == rank(gi) && p.contains(hj, gi) {
					continue find
				}
			}
			pick = k
			break
		}
		out = append(out, left[pick])
		left = append(left[:pick], left[pick+1:]...)
	}
	return out
}

// contains reports whether a token of group h contains a different token
// of group g: h must come first.
func (p *pass) contains(h, g int) bool {
	for _, i := range p.groups[h].agents {
		hk := p.lines[i].agent
		for _, j := range p.groups[g].agents {
			gk := p.lines[j].agent
			if gk != "" && gk != "*" && hk != gk && strings.Contains(hk, gk) {
				return true
			}
		}
	}
	return false
}

// canonical returns line l in canonical form: "Key: value # comment" for
// a directive whose key is exact; the trimmed text otherwise.
func (p *pass) canonical(l *line) string {
	text := strings.TrimRight(p.src[l.Span.Start.Offset:l.Span.End.Offset], " \t")
	if l.Kind != syntax.DirectiveLine || l.match != keyExact || l.Flags&(syntax.MissingColon|syntax.TooLong|syntax.NUL) != 0 {
		return strings.TrimLeft(text, " \t")
	}
	s := directiveNames[l.dir] + ": " + l.value
	if l.Comment.IsValid() {
		s += " " + strings.TrimRight(p.src[l.Comment.Start.Offset:l.Comment.End.Offset], " \t")
	}
	return strings.TrimRight(s, " ")
}
