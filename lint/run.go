package lint

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/internal/arena"
	"github.com/robotskit/robots/internal/sniff"
	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/syntax"
)

// Run checks f and returns what it finds, sorted by line, column and code:
// one diagnostic for each place, which Fold makes one for each problem.
// c may be nil for the zero Config. Run never fails; a file that is not a
// robots.txt at all (HTML, binary) gets the diagnostics that say so and
// none of the line checks. Unless c.AllRobots is set, Run keeps only the
// diagnostics that affect a major family (Family.Major).
func Run(f *syntax.File, c *Config) []Diagnostic {
	ds, _ := RunContext(context.Background(), f, c)
	return ds
}

// RunContext is Run that stops when ctx ends: it looks at ctx between
// checks, every few lines in the checks whose cost grows faster than the
// file (those that compare each rule with the others, or prove a fix with
// Equivalent), and in Equivalent's probe loop. When ctx ends it returns
// no diagnostics and ctx's error; otherwise what Run returns and nil.
func RunContext(ctx context.Context, f *syntax.File, c *Config) ([]Diagnostic, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p := newPass(f, c)
	p.ctx = ctx
	for _, ch := range Checks() {
		if ch.Thorough && !p.cfg.Thorough || ch.run == nil {
			continue
		}
		if p.skipContent && ch.Section() > 'B' {
			continue
		}
		// A diagnostic affects some of its check's families at most.
		if !p.cfg.AllRobots && !anyMajor(ch.Affects) {
			continue
		}
		p.check = ch
		ch.run(p)
		if p.err != nil {
			return nil, p.err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	ds := make([]Diagnostic, 0, len(p.diags))
	for _, d := range p.diags {
		if p.cfg.AllRobots || anyMajor(d.Families()) {
			ds = append(ds, *d)
		}
	}
	sortDiagnostics(ds)
	return ds, nil
}

// Fold returns the diagnostics of ds, as Run returned them, with one
// diagnostic for each problem: the diagnostics of one check in one group
// that have the same families and the same kind of fix become the first
// of them, with the lines of all (Diagnostic.Lines) and the edits of all.
// A group is a User-agent group and the lines that follow it up to the
// next; the lines before the first User-agent line are one group too.
// Diagnostics of the whole file or its fetch stay apart: each says
// something different and has no line to list. ds is not modified.
//
// Fix works on what Run returns, so that it can refuse the edit of one
// place and apply the others.
func Fold(ds []Diagnostic) []Diagnostic {
	type key struct {
		code     string
		group    int
		fix      string
		families string
	}
	first := map[key]int{} // index in out
	out := make([]Diagnostic, 0, len(ds))
	for _, d := range ds {
		if d.Line <= 0 {
			out = append(out, d)
			continue
		}
		k := key{code: d.Check.Code, group: d.group}
		if d.Fix != nil {
			k.fix = d.Fix.ID + " " + d.Fix.Class.String()
		}
		for _, f := range d.Affects {
			k.families += string(f) + " "
		}
		i, ok := first[k]
		if !ok {
			first[k] = len(out)
			out = append(out, d)
			continue
		}
		out[i].absorb(&d)
	}
	for i := range out {
		if len(out[i].Lines) == 1 {
			out[i].Lines = nil // several findings on one line
		}
	}
	return out
}

// absorb adds the place of o, a later diagnostic of the same check in the
// same group, to d: its line, and the edits of its fix. When one of o's
// edits would touch bytes that an edit of d touches differently, none of
// o's edits is added (as Fix would apply them in a later round).
func (d *Diagnostic) absorb(o *Diagnostic) {
	if d.Lines == nil {
		d.Lines = []int{d.Line}
		if d.Fix != nil {
			fx := *d.Fix
			fx.Edits = append([]Edit(nil), fx.Edits...)
			d.Fix = &fx
		}
	}
	if d.Lines[len(d.Lines)-1] != o.Line {
		d.Lines = append(d.Lines, o.Line)
	}
	if d.Fix == nil || o.Fix == nil {
		return
	}
	var add []Edit
	for _, e := range o.Fix.Edits {
		dup := false
		for _, t := range d.Fix.Edits {
			if e == t {
				dup = true
				break
			}
			if editsConflict(e, t) {
				return
			}
		}
		if !dup {
			add = append(add, e)
		}
	}
	d.Fix.Edits = append(d.Fix.Edits, add...)
}

// editsConflict reports whether a and b cannot both apply: they touch the
// same bytes, or start at one offset where one of them replaces text (as
// Fix decides which fixes fit together).
func editsConflict(a, b Edit) bool {
	return textedit.Overlap(textedit.Edit(a), textedit.Edit(b)) || a.Start == b.Start && (a.Start != a.End || b.Start != b.End)
}

// pass is the state of one run: the file as the parse model reads it, and
// the diagnostics found so far.
type pass struct {
	cfg    Config
	file   *syntax.File
	src    string
	lines  []line
	groups []group
	check  *Check // the check running
	diags  []*Diagnostic
	// leading holds the comment lines above each line, for Format.
	leading map[int][]string
	// skipContent is set when the body is not a robots.txt at all
	// (RB204, RB205) or the fetch gave no body to read (RB1xx): the
	// checks RB3xx–RB7xx do not run.
	skipContent bool
	// ctx ends the run (RunContext); nil for Run. err is its error once
	// stopped has seen it end; polls counts the calls of stopped.
	ctx   context.Context
	err   error
	polls uint
	// prover compares the file with edited copies (equivalentTo), made
	// when first needed.
	prover *change.Prover
	// groupKeys holds each group's agent keys (groupsKeys), made when
	// first needed.
	groupKeys [][]string
	// arena holds the strings the checks build in numbers.
	arena arena.Arena
	// text is 1 when the body is text (formatText), 2 when it is wide
	// or binary, 0 until known.
	text uint8
}

// equivalentTo is EquivalentContext for the pass's text and b, under the
// pass's context: the first failure stays in p.err. The pass's text is
// read once, however many fixes its checks try.
func (p *pass) equivalentTo(b string) (*change.Difference, error) {
	ctx := p.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		if p.err == nil {
			p.err = err
		}
		return nil, err
	}
	if p.prover == nil {
		p.prover = change.NewProver([]byte(p.src), p.file)
	}
	// A view of b, not a copy: the prover only reads it, and keeps
	// nothing of it (robots.Parse and syntax.Parse copy what they keep).
	d, err := p.prover.Against(ctx, unsafe.Slice(unsafe.StringData(b), len(b)))
	if err != nil && p.err == nil {
		p.err = err
	}
	return d, err
}

// stopped reports whether the run's context has ended, looking at it on
// every 16th call; once it has, every call reports it, and RunContext
// returns the context's error after the check that saw it. A check calls
// it in its loops whose cost grows faster than the file, and gives up.
func (p *pass) stopped() bool {
	if p.err != nil {
		return true
	}
	if p.ctx == nil {
		return false
	}
	p.polls++
	if p.polls%16 != 0 {
		return false
	}
	p.err = p.ctx.Err()
	return p.err != nil
}

func newPass(f *syntax.File, c *Config) *pass {
	p := &pass{file: f, src: f.String()}
	if c != nil {
		p.cfg = *c
	}
	p.model()
	if h := p.cfg.Fetch.Final(); p.cfg.Fetch != nil && (h.Status < 200 || h.Status > 299) {
		p.skipContent = true
	}
	if isBinary(p.src) || sniff.HTML(p.src) {
		p.skipContent = true
	}
	return p
}

// reportFile records a diagnostic of the whole file or its fetch.
func (p *pass) reportFile(format string, args ...any) *Diagnostic {
	d := &Diagnostic{Check: p.check, Offset: -1, Message: fmt.Sprintf(format, args...)}
	p.diags = append(p.diags, d)
	return d
}

// reportAt records a diagnostic at byte offset off of line l.
func (p *pass) reportAt(l *line, off int, format string, args ...any) *Diagnostic {
	d := &Diagnostic{
		Check:   p.check,
		Line:    l.num,
		Column:  p.column(l, off),
		Offset:  off,
		Message: fmt.Sprintf(format, args...),
		group:   l.group,
	}
	p.diags = append(p.diags, d)
	return d
}

// report records a diagnostic at the start of line l's text (column 1, or
// the key when there is one).
func (p *pass) report(l *line, format string, args ...any) *Diagnostic {
	off := l.Span.Start.Offset
	if l.Key.IsValid() {
		off = l.Key.Start.Offset
	}
	return p.reportAt(l, off, format, args...)
}

// reportValue records a diagnostic at the start of line l's value.
func (p *pass) reportValue(l *line, format string, args ...any) *Diagnostic {
	off := l.Span.Start.Offset
	if l.Value.IsValid() {
		off = l.Value.Start.Offset
	}
	return p.reportAt(l, off, format, args...)
}

// related adds a related line to d.
func (d *Diagnostic) related(line int, note string) *Diagnostic {
	d.Related = append(d.Related, Related{Line: line, Note: note})
	return d
}

// only narrows the families d affects to fs, some of its check's: the
// case at hand spares the others.
func (d *Diagnostic) only(fs ...Family) *Diagnostic {
	d.Affects = fs
	return d
}

// suggest attaches a fix to d.
func (d *Diagnostic) suggest(id string, class Class, msg string, edits ...Edit) *Diagnostic {
	d.Fix = &SuggestedFix{ID: id, Class: class, Message: msg, Edits: edits}
	return d
}

// eol returns the line terminator to use for text inserted near line l:
// l's own, or "\n" when it has none.
func (p *pass) eol(l *line) string {
	if l.EOL == 2 {
		return "\r\n"
	}
	if l.EOL == 1 {
		end := l.Span.End.Offset
		return p.src[end : end+1]
	}
	return "\n"
}

// replaceLine is an edit that replaces the text of line l (not its
// terminator) with s.
func replaceLine(l *line, s string) Edit {
	return Edit{Start: l.Span.Start.Offset, End: l.Span.End.Offset, New: s}
}

// deleteLine is an edit that removes line l and its terminator. The last
// line of a file without a final terminator takes the preceding
// terminator with it, so no empty line is left behind.
func (p *pass) deleteLine(l *line) Edit {
	start, end := l.Span.Start.Offset, l.Span.End.Offset+l.EOL
	if l.EOL == 0 && l.num > 1 {
		prev := &p.lines[l.num-2]
		start = prev.Span.End.Offset
	}
	return Edit{Start: start, End: end}
}

// insertBefore is an edit that inserts the line s before line l.
func (p *pass) insertBefore(l *line, s string) Edit {
	return Edit{Start: l.Span.Start.Offset, End: l.Span.Start.Offset, New: s + p.eol(l)}
}

// insertAfter is an edit that inserts the line s after line l.
func (p *pass) insertAfter(l *line, s string) Edit {
	end := l.Span.End.Offset + l.EOL
	if l.EOL == 0 {
		return Edit{Start: end, End: end, New: p.eol(l) + s}
	}
	return Edit{Start: end, End: end, New: s + p.eol(l)}
}

// commentOut is an edit that turns line l into a comment.
func commentOut(l *line) Edit {
	return Edit{Start: l.Span.Start.Offset, End: l.Span.Start.Offset, New: "# "}
}
