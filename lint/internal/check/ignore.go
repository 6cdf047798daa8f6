package check

import (
	"strconv"
	"strings"

	"github.com/robotskit/robots/syntax"
)

// IgnorePrefix is what a comment says, right after its '#' and any spaces
// or tabs, to be a robots:ignore comment (case-sensitive).
const IgnorePrefix = "robots:ignore"

// An Ignore is a comment "# robots:ignore CODE[,CODE…] reason" on a line
// of its own: it silences the findings of those checks on the next line
// that is neither blank nor a comment (Target).
type Ignore struct {
	// Line is the comment's line; Target the line it silences, nil when
	// no such line follows.
	Line, Target *Line
	// Codes are the checks it names, in order.
	Codes []IgnoredCode
	// Reason is the text after the codes, white space trimmed.
	Reason string
	// Problem says what is wrong with the comment, "" when nothing is: it
	// gives no reason, names no check or a check that does not exist, or
	// ends a directive line instead of standing on its own. A comment with
	// a problem silences nothing. ProblemOff is the byte offset it points
	// at.
	Problem    string
	ProblemOff int
}

// An IgnoredCode is one check named by an Ignore.
type IgnoredCode struct {
	// Code is the check's code ("RB501"); Text is how the comment names
	// it (a code in any case, or the check's name).
	Code, Text string
	// Off is the byte offset of Text in the file.
	Off int
	// Used reports that it silenced a finding.
	Used bool
}

// ParseIgnore reads comment, a comment from its '#' to the end of its
// line, as a robots:ignore comment: "#", spaces or tabs, "robots:ignore"
// (case-sensitive), then, after spaces or tabs, a comma-separated list of
// checks and a reason. ok is false when comment is no robots:ignore
// comment ("# robots:ignored" is not one). names are the items of the
// list as written, some maybe empty, and offs their byte offsets in
// comment; reason is the rest, spaces and tabs trimmed. ParseIgnore
// never fails: the caller judges the names and the reason.
func ParseIgnore(comment string) (names []string, offs []int, reason string, ok bool) {
	if !strings.HasPrefix(comment, "#") {
		return nil, nil, "", false
	}
	i := 1
	for i < len(comment) && isBlank(comment[i]) {
		i++
	}
	if !strings.HasPrefix(comment[i:], IgnorePrefix) {
		return nil, nil, "", false
	}
	i += len(IgnorePrefix)
	if i < len(comment) && !isBlank(comment[i]) {
		return nil, nil, "", false
	}
	for i < len(comment) && isBlank(comment[i]) {
		i++
	}
	start := i
	for i < len(comment) && !isBlank(comment[i]) {
		i++
	}
	if list := comment[start:i]; list != "" {
		off := start
		for _, n := range strings.Split(list, ",") {
			names = append(names, n)
			offs = append(offs, off)
			off += len(n) + 1
		}
	}
	reason = strings.Trim(comment[i:], " \t")
	return names, offs, reason, true
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// SetIgnoreLookup says how the pass reads the checks that robots:ignore
// comments name, before any check runs: codeOf returns the code of the
// check a name or code names ("" for none), and judged reports whether
// the check of a code runs in this pass, so that an ignore of it that
// silenced nothing can be told apart from one of a check that did not
// look (RB315). Without it, a code is "RB" and three digits, and every
// check is judged.
func (p *Pass) SetIgnoreLookup(codeOf func(string) string, judged func(code string) bool) {
	p.codeOf, p.judged = codeOf, judged
	p.ignores, p.ignoreAt = nil, nil
}

// Judged reports whether the check of code runs in this pass (see
// SetIgnoreLookup).
func (p *Pass) Judged(code string) bool { return p.judged == nil || p.judged(code) }

// Ignores returns the robots:ignore comments of the file, in order,
// with what they silenced so far.
func (p *Pass) Ignores() []Ignore {
	p.readIgnores()
	return p.ignores
}

// readIgnores finds the robots:ignore comments, once.
func (p *Pass) readIgnores() {
	if p.ignoreAt != nil {
		return
	}
	p.ignoreAt = map[int][]int{}
	for i := range p.Lines {
		l := &p.Lines[i]
		if !l.Comment.IsValid() {
			continue
		}
		text := p.File.Text(l.Comment)
		names, offs, reason, ok := ParseIgnore(text)
		if !ok {
			continue
		}
		base := l.Comment.Start.Offset
		ig := Ignore{Line: l, Reason: reason, ProblemOff: base}
		for j, n := range names {
			code := p.codeOfName(n)
			ig.Codes = append(ig.Codes, IgnoredCode{Code: code, Text: n, Off: base + offs[j]})
			if ig.Problem != "" {
				continue
			}
			switch {
			case n == "":
				ig.Problem, ig.ProblemOff = "robots:ignore has an empty item in its list of checks", base+offs[j]
			case code == "":
				ig.Problem, ig.ProblemOff = "robots:ignore names "+quote(n)+", which is no check's code or name", base+offs[j]
			}
		}
		switch {
		case l.Kind != syntax.CommentLine:
			ig.Problem = "robots:ignore silences the next line: put it on a line of its own, above the line it silences"
			ig.ProblemOff = base
		case ig.Problem != "":
		case len(names) == 0:
			ig.Problem = "robots:ignore names no check: write \"# robots:ignore RBnnn reason\""
		case reason == "":
			ig.Problem = "robots:ignore gives no reason: say after the codes why the finding is wrong or accepted"
			ig.ProblemOff = ig.Codes[len(ig.Codes)-1].Off + len(ig.Codes[len(ig.Codes)-1].Text)
		}
		for j := i + 1; j < len(p.Lines); j++ {
			if p.Lines[j].Significant() {
				ig.Target = &p.Lines[j]
				break
			}
		}
		p.ignores = append(p.ignores, ig)
		if ig.Problem == "" && ig.Target != nil {
			p.ignoreAt[ig.Target.Num] = append(p.ignoreAt[ig.Target.Num], len(p.ignores)-1)
		}
	}
}

// codeOfName returns the code a robots:ignore comment's item names.
func (p *Pass) codeOfName(n string) string {
	if n == "" {
		return ""
	}
	if p.codeOf != nil {
		return p.codeOf(n)
	}
	if len(n) == 5 && strings.EqualFold(n[:2], "RB") && strings.Trim(n[2:], "0123456789") == "" {
		return strings.ToUpper(n)
	}
	return ""
}

// quote quotes s as Go does, for a message.
func quote(s string) string { return strconv.Quote(s) }

// silence drops the findings from index start on that a robots:ignore
// comment silences, and marks what each comment silenced. The findings
// of the checks of the comments themselves (Meta) are never silenced.
func (p *Pass) silence(start int) {
	if p.check.Meta || start == len(p.diags) {
		return
	}
	p.readIgnores()
	if len(p.ignoreAt) == 0 {
		return
	}
	kept := p.diags[:start]
	for _, d := range p.diags[start:] {
		if !p.silenced(d) {
			kept = append(kept, d)
		}
	}
	clear(p.diags[len(kept):])
	p.diags = kept
}

// silenced reports whether an ignore silences d, and marks it used.
func (p *Pass) silenced(d *Diagnostic) bool {
	if d.Line <= 0 {
		return false
	}
	hit := false
	for _, i := range p.ignoreAt[d.Line] {
		for k := range p.ignores[i].Codes {
			if c := &p.ignores[i].Codes[k]; c.Code == d.Check.Code {
				c.Used, hit = true, true
			}
		}
	}
	return hit
}
