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
	// ctx ends the run; err is its error once Stopped has seen it end;
	// polls counts the calls of Stopped.
	ctx   context.Context
	err   error
	polls uint
	// prover compares the file with edited copies (equivalentTo), made
	// when first needed.
	prover *change.Prover
	// groupKeys holds each group's agent keys (GroupKeys), made when
	// first needed.
	groupKeys [][]string
}

// NewPass reads f into the model, for checks that stop when ctx ends.
// url is the robots.txt URL of the file ("" when unknown) and fetch how
// it was fetched (nil for a file from disk).
func NewPass(ctx context.Context, f *syntax.File, url string, fetch *Fetch) *Pass {
	p := &Pass{File: f, Src: f.String(), URL: url, Fetch: fetch, ctx: ctx}
	p.model()
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

// Run runs c over the pass; what it finds joins Diagnostics. It returns
// the context's error when the context ended during the run (Stopped).
func (p *Pass) Run(c *Check) error {
	p.check = c
	c.Run(p)
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

// Stopped reports whether the run's context has ended, looking at it on
// every 16th call; once it has, every call reports it, and Run returns
// the context's error. A check calls it in its loops whose cost grows
// faster than the file, and gives up.
func (p *Pass) Stopped() bool {
	if p.err != nil {
		return true
	}
	p.polls++
	if p.polls%16 != 0 {
		return false
	}
	p.err = p.ctx.Err()
	return p.err != nil
}

// equivalentTo is change.Prover.Against for the pass's text and b, under
// the pass's context: the first failure stays in p.err. The pass's text
// is read once, however many fixes its checks try.
func (p *Pass) equivalentTo(b string) (*change.Difference, error) {
	if err := p.ctx.Err(); err != nil {
		if p.err == nil {
			p.err = err
		}
		return nil, err
	}
	if p.prover == nil {
		p.prover = change.NewProver([]byte(p.Src), p.File)
	}
	// A view of b, not a copy: the prover only reads it, and keeps
	// nothing of it (robots.Parse and syntax.Parse copy what they keep).
	d, err := p.prover.Against(p.ctx, unsafe.Slice(unsafe.StringData(b), len(b)))
	if err != nil && p.err == nil {
		p.err = err
	}
	return d, err
}

// ReportFile records a finding of the whole file or its fetch.
func (p *Pass) ReportFile(format string, args ...any) *Diagnostic {
	d := &Diagnostic{Check: p.check, Offset: -1, Message: fmt.Sprintf(format, args...)}
	p.diags = append(p.diags, d)
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
