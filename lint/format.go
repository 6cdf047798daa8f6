package lint

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/internal/pattern"
	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/syntax"
)

// Format returns src in the canonical layout of the fixer, with the rules
// of each group in the order they are written: it is [FormatWith] with
// the zero [FormatOptions].
//
// The layout is: the leading comments, then the groups — the "*" group
// after the named ones, and a group that names a token before any group
// whose token contains it (FX18) — each with its User-agent lines,
// Robot-version, its Allow and Disallow rules, then its other lines; then
// Host and Clean-param; then every Sitemap. Groups are separated by one
// blank line, keys of exact directives take their canonical spelling,
// values and comments are kept, lines end with LF and the file with a
// newline. Comment lines travel with the line they precede, except the
// comments at the top of the file, which stay there.
//
// Format keeps the order of the rules inside a group: Google and RFC 9309
// robots take the longest matching pattern wherever it stands (RFC 9309
// §2.2.2), so the order the author chose changes none of their verdicts
// and is left as it is. With [FormatOptions].SortRules (robots fmt -sort)
// the rules are sorted longest pattern first, Allow first on a tie (FX30),
// so that robots that take the first rule that matches, as the 1996 draft
// does, read the file as Google does; that rewrites every group whose
// rules are in another order.
//
// Lines whose reading differs between robots (missing colons, misspelt
// keys, lines cut at 16,664 bytes) are kept as written: Format changes
// layout, not meaning. It checks that with change.Equivalent; when the
// canonical order of the groups would change a verdict (a group that
// RFC 9309 robots read without a rule, such as one whose only line lacks
// its colon, joins the group it is put before), the groups keep the
// order they are written in. It returns src and an error if the layout
// would still change a google or rfc9309 verdict, or
// would move a line into or out of the first 500 KiB of a longer file,
// the part Google and RFC 9309 robots read (robots.MaxBytes).
func Format(src []byte) ([]byte, error) {
	return FormatWith(src, FormatOptions{})
}

// FormatOptions are the choices of [FormatWith]; the zero value is
// [Format]'s layout.
type FormatOptions struct {
	// SortRules sorts the Allow and Disallow rules of each group from the
	// longest pattern to the shortest, Allow first on a tie (FX30): a
	// robot that takes the first rule that matches then reaches the
	// verdict of one that takes the longest match, as Google and RFC 9309
	// robots do (RFC 9309 §2.2.2). Their verdicts stay as they were.
	SortRules bool
}

// FormatWith returns src in the canonical layout of [Format], the rules
// sorted if opt.SortRules is set, under the same proof: src and an error
// when the layout would change a google or rfc9309 verdict or move a line
// across the first 500 KiB.
func FormatWith(src []byte, opt FormatOptions) ([]byte, error) {
	out, err := formatWith(src, opt, false)
	var moved *groupsMoved
	if errors.As(err, &moved) {
		// The canonical order of the groups changes a verdict (a group
		// that RFC 9309 robots read without a rule, put right before
		// another, joins it): the groups in the order they are written.
		if out, err2 := formatWith(src, opt, true); err2 == nil {
			return out, nil
		}
	}
	return out, err
}

// groupsMoved is the error of a layout that changes a verdict.
type groupsMoved struct{ msg string }

func (e *groupsMoved) Error() string { return e.msg }

// formatWith is FormatWith, with the groups in the canonical order or,
// when inFileOrder is set, in the order the file has them.
func formatWith(src []byte, opt FormatOptions, inFileOrder bool) ([]byte, error) {
	p := check.NewPass(context.Background(), syntax.Parse("", src), "", nil)
	first := len(p.Lines) // the first line that is not a comment or blank
	for i := range p.Lines {
		if k := p.Lines[i].Kind; k != syntax.BlankLine && k != syntax.CommentLine {
			first = i
			break
		}
	}
	if first == len(p.Lines) {
		first = 0 // only comments: they are the trailer
	}
	leading := attachComments(p, first)

	// The sections of the output, in order.
	var nonGroup, sitemaps, before []int
	inGroup := make([]bool, len(p.Lines))
	var sections [][]int
	order := groupOrder(p)
	if inFileOrder {
		slices.Sort(order)
	}
	for _, gi := range order {
		ls := groupLines(p, gi, opt.SortRules)
		for _, i := range ls {
			inGroup[i] = true
		}
		sections = append(sections, ls)
	}
	for i := first; i < len(p.Lines); i++ {
		l := &p.Lines[i]
		switch {
		case l.Kind == syntax.BlankLine || l.Kind == syntax.CommentLine:
		case l.Dir == check.Sitemap:
			sitemaps = append(sitemaps, i)
		case l.Dir == check.Host || l.Dir == check.CleanParam:
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
		if l := &p.Lines[i]; l.Kind == syntax.CommentLine {
			header = append(header, strings.TrimSpace(p.Src[l.Span.Start.Offset:l.Span.End.Offset]))
		}
	}
	for _, sec := range sections {
		if len(sec) > 0 {
			header = append(header, leading[sec[0]]...)
			delete(leading, sec[0])
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
	ends := make([]int, len(p.Lines)) // where each input line ends in the output
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
			out = append(append(out, comments(leading[i])...), outLine{canonical(p, &p.Lines[i]), i})
		}
		block(out)
	}
	if t := trailing(p); len(t) > 0 {
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
	if err := layoutCut(p, out, ends); err != nil {
		return src, err
	}
	if d := change.Equivalent(src, out); d != nil {
		return src, &groupsMoved{fmt.Sprintf("the layout would change %s's verdict for %s under %v; file left as it is", d.Agent, d.URL, d.Profile)}
	}
	return out, nil
}

// layoutCut returns an error when the layout out moves a line that is not
// a comment or blank into or out of the part of the file robots read,
// its first 500 KiB (readEnd): Google would read a rule it ignored, or
// ignore one it read. ends holds where each input line ends in out, 0
// for the lines out does not hold.
func layoutCut(p *check.Pass, out []byte, ends []int) error {
	if len(p.Src) <= robots.MaxBytes && len(out) <= robots.MaxBytes {
		return nil
	}
	inEnd, outEnd := readEnd(p.Src), readEnd(string(out))
	for i := range p.Lines {
		l := &p.Lines[i]
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
		text := strings.TrimSpace(p.Src[l.Span.Start.Offset:l.Span.End.Offset])
		if len(text) > 60 {
			text = text[:57] + "..."
		}
		return fmt.Errorf("the layout would move line %d (%q) %s the first 500 KiB, the part of the file Google and RFC 9309 robots read; file left as it is", i+1, text, how)
	}
	return nil
}

// attachComments returns, for every line from the line from on that is
// not a comment or blank, the comment lines right above it (blank lines
// between them allowed).
func attachComments(p *check.Pass, from int) map[int][]string {
	leading := make(map[int][]string)
	var run []string
	for i := from; i < len(p.Lines); i++ {
		l := &p.Lines[i]
		switch l.Kind {
		case syntax.CommentLine:
			run = append(run, strings.TrimSpace(p.Src[l.Span.Start.Offset:l.Span.End.Offset]))
		case syntax.BlankLine:
		default:
			if len(run) > 0 {
				leading[i] = run
				run = nil
			}
		}
	}
	return leading
}

// trailing returns the comment lines after the last line that is not a
// comment or blank.
func trailing(p *check.Pass) []string {
	var out []string
	for i := len(p.Lines) - 1; i >= 0; i-- {
		l := &p.Lines[i]
		if l.Kind == syntax.CommentLine {
			out = append([]string{strings.TrimSpace(p.Src[l.Span.Start.Offset:l.Span.End.Offset])}, out...)
		} else if l.Kind != syntax.BlankLine {
			break
		}
	}
	return out
}

// groupLines returns the lines of group gi in canonical order: User-agent
// lines, Robot-version, the rules (in file order, or sorted by FX30 with
// sortRules), the other members in the canonical order, then the other
// lines that stood in the group's span (unknown keys, invalid lines), in
// file order. Sitemap, Host and Clean-param are left to the sections
// after the groups.
func groupLines(p *check.Pass, gi int, sortRules bool) []int {
	g := &p.Groups[gi]
	end := len(p.Lines)
	if gi+1 < len(p.Groups) {
		end = p.Groups[gi+1].First()
	}
	var agents, version, rules, others, rest []int
	for i := g.First(); i < end; i++ {
		l := &p.Lines[i]
		switch {
		case l.Kind == syntax.BlankLine || l.Kind == syntax.CommentLine:
		case l.Dir == check.UserAgent:
			agents = append(agents, i)
		case l.Dir == check.RobotVersion:
			version = append(version, i)
		case l.Dir.Rule():
			rules = append(rules, i)
		case l.Dir.NonGroup():
		case l.Dir.Member():
			others = append(others, i)
		default:
			rest = append(rest, i)
		}
	}
	if sortRules {
		sort.SliceStable(rules, func(a, b int) bool {
			la, lb := &p.Lines[rules[a]], &p.Lines[rules[b]]
			na, nb := len(pattern.AppendGoogle(nil, la.ValueText)), len(pattern.AppendGoogle(nil, lb.ValueText))
			if na != nb {
				return na > nb
			}
			return la.Dir == check.Allow && lb.Dir != check.Allow
		})
	}
	sort.SliceStable(others, func(a, b int) bool { return p.Lines[others[a]].Dir < p.Lines[others[b]].Dir })
	return append(append(append(append(agents, version...), rules...), others...), rest...)
}

// groupOrder returns the order of the groups in the output (FX18): a group
// goes after every group that names a token containing one of its tokens,
// the "*" groups after the named ones, and a group without rules — which
// can only be the last, since a User-agent line after it would join it —
// stays last. Otherwise the file's order is kept.
func groupOrder(p *check.Pass) []int {
	rank := func(gi int) int {
		g := &p.Groups[gi]
		switch {
		case len(g.Rules) == 0:
			return 2
		case g.Global:
			return 1
		}
		return 0
	}
	left := make([]int, len(p.Groups))
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
				if hj != gi && rank(hj) == rank(gi) && contains(p, hj, gi) {
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
func contains(p *check.Pass, h, g int) bool {
	for _, i := range p.Groups[h].Agents {
		hk := p.Lines[i].Agent
		for _, j := range p.Groups[g].Agents {
			gk := p.Lines[j].Agent
			if gk != "" && gk != "*" && hk != gk && strings.Contains(hk, gk) {
				return true
			}
		}
	}
	return false
}

// canonical returns line l in canonical form: "Key: value # comment" for
// a directive whose key is exact; the trimmed text otherwise.
func canonical(p *check.Pass, l *check.Line) string {
	text := strings.TrimRight(p.Src[l.Span.Start.Offset:l.Span.End.Offset], " \t")
	if l.Kind != syntax.DirectiveLine || l.Match != check.KeyExact || l.Flags&(syntax.MissingColon|syntax.TooLong|syntax.NUL) != 0 {
		return strings.TrimLeft(text, " \t")
	}
	s := l.Dir.String() + ": " + l.ValueText
	if l.Comment.IsValid() {
		s += " " + strings.TrimRight(p.Src[l.Comment.Start.Offset:l.Comment.End.Offset], " \t")
	}
	return strings.TrimRight(s, " ")
}
