package check

import (
	"context"
	"fmt"
	"unsafe"

	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/internal/arena"
	"github.com/robotskit/robots/internal/sniff"
	"github.com/robotskit/robots/syntax"
)

// A Pass is one run of the checks over one file: the file as the model
// reads it, where it came from, and the findings so far. The model's
// fields are for the checks to read, not to change.
type Pass struct {
	// File is the file checked and Src its text.
	File *syntax.File
	Src  string
	// URL is the robots.txt URL the file came from, "" when unknown;
	// Fetch is how it was fetched, nil for a file read from disk.
	URL   string
	Fetch *Fetch
	// Lines holds every line of the file, in order; Groups the canonical
	// groups, in order.
	Lines  []Line
	Groups []Group
	// Arena holds the strings the checks build in numbers (candidate
	// URLs, agent keys).
	Arena arena.Arena

	check *Check // the check running
	diags []*Diagnostic
	// skipContent is set when the body is not a robots.txt at all (RB204,
	// RB205) or the fetch gave no body to read (RB1xx): the checks
	// RB3xx–RB7xx do not run. text is set when the body is text, neither
	// UTF-16/32 nor binary.
	skipContent, text bool
	// ctx ends the run; err is its error, or ErrBudget, once Spend has
	// seen the run stop. work counts the units charged (Spend), budget
	// bounds them (0: no bound); nextPoll is the count at which Spend
	// looks at ctx next.
	ctx          context.Context
	err          error
	work, budget int64
	nextPoll     int64
	// prover compares the file with edited copies (equivalentTo), made
	// when first needed; proverAgents is the agents it compares
	// (agentPolls), 0 until counted.
	prover       *change.Prover
	proverAgents int
	// groupKeys holds each group's agent keys (GroupKeys), made when
	// first needed.
	groupKeys [][]string
	// ignores are the robots:ignore comments (readIgnores), ignoreAt the
	// indexes of those that silence each line, by line number; codeOf and
	// judged are SetIgnoreLookup's.
	ignores  []Ignore
	ignoreAt map[int][]int
	codeOf   func(string) string
	judged   func(string) bool
}

// NewPass reads f into the model, for checks that stop when ctx ends.
// url is the robots.txt URL of the file ("" when unknown) and fetch how
// it was fetched (nil for a file from disk).
func NewPass(ctx context.Context, f *syntax.File, url string, fetch *Fetch) *Pass {
	p := &Pass{File: f, Src: f.String(), URL: url, Fetch: fetch, ctx: ctx}
	p.model()
	p.work = int64(p.fileCost())
	p.nextPoll = p.work + pollEvery
	if h := fetch.Final(); fetch != nil && (h.Status < 200 || h.Status > 299) {
		p.skipContent = true
	}
	binary := sniff.Wide(p.Src) != "" || sniff.Binary(p.Src) != ""
	p.text = !binary
	if binary || sniff.HTML(p.Src) {
		p.skipContent = true
	}
	return p
}

// Run runs c over the pass; what it finds joins Diagnostics. A check
// costs one read of the whole file, charged first, and what its loops
// charge (Spend). Run returns ErrBudget when the work ran past the
// pass's budget, and the context's error when the context ended (the
// check may then have given up half-way); c does not run when the pass
// has stopped before it. A finding that a robots:ignore comment silences
// is dropped as soon as c returns (see Ignores).
func (p *Pass) Run(c *Check) error {
	p.check = c
	start := len(p.diags)
	if !p.Spend(checkUnits + p.fileCost()) {
		c.Run(p)
	}
	p.silence(start)
	return p.err
}

// Diagnostics returns the findings of the checks run so far, in the
// order they were reported.
func (p *Pass) Diagnostics() []*Diagnostic { return p.diags }

// SkipContent reports whether the checks of the content (RB3xx–RB7xx)
// have nothing to read: the fetch ended without a 2xx status, or the body
// is not a robots.txt at all (UTF-16/32, binary or HTML).
func (p *Pass) SkipContent() bool { return p.skipContent }

// Text reports whether the body is text: neither UTF-16/32 (RB202) nor
// binary (RB204). The kind of the body is read once, when the pass is
// made.
func (p *Pass) Text() bool { return p.text }

// equivalentTo is change.Prover.Against for the pass's text and b, under
// the pass's context and budget: the first failure stays in p.err. The
// pass's text is read once, however many fixes its checks try. A proof
// costs what compiling the texts does (the pass's text under both
// profiles, once; b under both, each time) and each look of the prover at
// its context (meter).
func (p *Pass) equivalentTo(b string) (*change.Difference, error) {
	cost := len(b) * proofByteUnits
	if p.prover == nil {
		cost += len(p.Src) * proofByteUnits
	}
	if p.Spend(cost) {
		return nil, p.err
	}
	if err := p.ctx.Err(); err != nil {
		p.err = err
		return nil, err
	}
	if p.prover == nil {
		p.prover = change.NewProver([]byte(p.Src), p.File)
	}
	// A view of b, not a copy: the prover only reads it, and keeps
	// nothing of it (robots.Parse and syntax.Parse copy what they keep).
	m := &meter{Context: p.ctx, p: p, agentPolls: p.agentPolls()}
	d, err := p.prover.Against(m, unsafe.Slice(unsafe.StringData(b), len(b)))
	if err != nil && p.err == nil {
		p.err = err
	}
	return d, err
}

// ReportFile records a finding of the whole file or its fetch.
func (p *Pass) ReportFile(format string, args ...any) *Diagnostic {
	d := &Diagnostic{Check: p.check, Offset: -1, Message: fmt.Sprintf(format, args...)}
	p.diags = append(p.diags, d)
	p.Spend(reportUnits)
	return d
}

// ReportAt records a finding at byte offset off of line l.
func (p *Pass) ReportAt(l *Line, off int, format string, args ...any) *Diagnostic {
	d := &Diagnostic{
		Check:   p.check,
		Line:    l.Num,
		Column:  p.column(l, off),
		Offset:  off,
		Message: fmt.Sprintf(format, args...),
		Group:   l.Group,
	}
	p.diags = append(p.diags, d)
	p.Spend(reportUnits)
	return d
}

// Report records a finding at the start of line l's text (column 1, or
// the key when there is one).
func (p *Pass) Report(l *Line, format string, args ...any) *Diagnostic {
	off := l.Span.Start.Offset
	if l.Key.IsValid() {
		off = l.Key.Start.Offset
	}
	return p.ReportAt(l, off, format, args...)
}

// ReportValue records a finding at the start of line l's value.
func (p *Pass) ReportValue(l *Line, format string, args ...any) *Diagnostic {
	off := l.Span.Start.Offset
	if l.Value.IsValid() {
		off = l.Value.Start.Offset
	}
	return p.ReportAt(l, off, format, args...)
}

// EachRule calls fn for every Allow and Disallow line, orphans included,
// until the run stops (Stopped): several checks compare each rule with
// the others.
func (p *Pass) EachRule(fn func(l *Line)) {
	for i := range p.Lines {
		if l := &p.Lines[i]; l.Dir.Rule() {
			if p.Stopped() {
				return
			}
			fn(l)
		}
	}
}
