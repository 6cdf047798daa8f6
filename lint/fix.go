package lint

import (
	"context"
	"strings"
	"unsafe"

	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/internal/textedit"
	"github.com/robotskit/robots/syntax"
)

// FixOptions says how to fix a file.
type FixOptions struct {
	// Config is how the file is checked; its Fetch is not used.
	Config Config
	// Enable names the Intent fixes to apply, each by fix ID ("FX25"),
	// check code ("RB501") or check name ("path-without-slash"), or "all".
	// The fixes that keep Google's and RFC 9309's reading are always
	// applied.
	Enable []string
}

// FixResult is what Fix did.
type FixResult struct {
	// Output is the corrected file.
	Output []byte
	// Applied lists the diagnostics whose fixes were applied, in the
	// order of the rounds that applied them; positions are those of the
	// text each round read.
	Applied []Diagnostic
	// Refused lists default fixes that would have changed how Google or
	// RFC 9309 robots read the file, with the URL that shows it. They
	// were not applied.
	Refused []Refusal
	// Skipped lists Intent fixes that were not enabled.
	Skipped []Diagnostic
	// Deferred lists the layout fixes left out because Config.AllRobots
	// is false: they reorder or merge groups, sort a group's rules or move
	// a line for first-match robots and the canonical layout, and Google
	// and RFC 9309 robots read the file the same either way (see
	// LayoutFix).
	Deferred []Diagnostic
	// Changed lists, for the Intent fixes applied, a URL whose verdict
	// they changed, when there is one; nil when the output reads as the
	// input does.
	Changed *change.Difference

	// findings are the checks' findings on Output under findingsCfg,
	// when the fixer's last round read Output (Leftovers).
	findings    []Diagnostic
	findingsCfg Config
}

// A Refusal is a fix the fixer did not apply because it would change a
// verdict, or move lines across the part of the file robots read.
type Refusal struct {
	Diagnostic
	// Difference is a URL whose verdict the fix changes; its URL is ""
	// when the fix was refused for Reason alone.
	Difference change.Difference
	// Reason says why the fix was refused when that is more than a
	// changed verdict: "" or CutReason.
	Reason string
}

// CutReason is the Reason of a fix refused because it would move lines
// across the end of what robots read: Google reads the first 500 KiB of a
// robots.txt and RFC 9309 section 2.5 lets robots stop there
// (robots.MaxBytes, robots.Read), so a line that crosses that point starts
// or stops counting.
const CutReason = "it would move lines across the first 500 KiB, the part of the file Google and RFC 9309 robots read"

// maxShownCut bounds the fixes refused for the cut whose changed verdict
// Fix looks for, to show in the refusal: each costs a proof.
const maxShownCut = 8

// maxRounds bounds the fix-and-recheck loop: each round applies every fix
// that does not overlap another and checks the result again.
const maxRounds = 10

// Fix corrects src. Each round checks the text and
// applies the fixes found, those of one class at a time: first the fixes
// that keep the reading of Google and RFC 9309 robots, verified with
// change.Prover — a set that changes a verdict is split until the fixes that
// do are found and refused — then, once none is left, the Intent fixes
// that opt.Enable names. It stops when a round finds nothing to apply.
//
// A fix changes the lines its finding names and inserts the lines it
// must; a comment line right above a line that a fix moves goes with it.
// Unless opt.Config.AllRobots is set, the fixes that reorder or merge
// groups, sort rules or move lines only for first-match robots and the
// canonical layout (LayoutFix) are left out (FixResult.Deferred). In a
// file longer than the 500 KiB that robots read, a fix that would move a
// line into or out of that part is refused (CutReason). Fix has no error
// to return: it ignores opt.Config.MaxWork.
func Fix(src []byte, opt *FixOptions) *FixResult {
	var o FixOptions
	if opt != nil {
		o = *opt
	}
	o.Config.MaxWork = 0
	res, _ := fixContext(context.Background(), src, &o)
	return res
}

// FixContext is Fix that stops when ctx ends: it looks at ctx before each
// round, in the checks of each round (RunContext) and in the proofs of the
// fixes (change.Prover, every few hundred probes). When ctx ends it
// returns no result and ctx's error; when the check of a round runs past
// opt.Config.MaxWork (the fixer's own proofs are not counted), no result
// and ErrBudget; when opt.Config selects no check it knows (Validate),
// no result and that error; otherwise what Fix returns and nil.
func FixContext(ctx context.Context, src []byte, opt *FixOptions) (*FixResult, error) {
	if opt == nil {
		opt = &FixOptions{}
	}
	if err := opt.Config.Validate(); err != nil {
		return nil, err
	}
	return fixContext(ctx, src, opt)
}

// fixContext is FixContext for a Config whose selection may name
// nothing.
func fixContext(ctx context.Context, src []byte, opt *FixOptions) (*FixResult, error) {
	if opt == nil {
		opt = &FixOptions{}
	}
	res := &FixResult{}
	refused := map[string]bool{}
	cur := string(src)
	// equivalent is change.Equivalent under ctx; the first error it meets stops
	// the fix. Every proof of a round compares that round's text with an
	// edited copy: the round's text is read once (pr, from the round's
	// parse f), and the copies are read in place.
	var (
		stop error
		f    *syntax.File
		pr   *change.Prover
		// The findings of the last round, and the text they are of.
		lastDs []Diagnostic
		lastOf string
	)
	equivalent := func(a, b string) *change.Difference {
		if stop != nil {
			return nil
		}
		p := pr
		switch {
		case a != cur: // not so today; proved the long way
			p = change.NewProver([]byte(a), nil)
		case pr == nil:
			pr = change.NewProver([]byte(cur), f)
			p = pr
		}
		d, err := p.Against(ctx, unsafe.Slice(unsafe.StringData(b), len(b)))
		if err != nil {
			stop = err
		}
		return d
	}
	for round := 0; round < maxRounds; round++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		f, pr = syntax.Parse("", []byte(cur)), nil
		ds, _, err := runChecks(ctx, f, &opt.Config)
		if err != nil {
			return nil, err
		}
		lastDs, lastOf = ds, cur
		var safe, intent []Diagnostic
		res.Skipped = res.Skipped[:0]
		res.Deferred = res.Deferred[:0]
		cut := newCutGuard(f)
		for i, d := range ds {
			if i%16 == 15 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if d.Fix == nil || refused[fixKey(cur, &d)] {
				continue
			}
			if !opt.Config.AllRobots && LayoutFix(&d) {
				res.Deferred = append(res.Deferred, d)
				continue
			}
			d.Fix = carryComments(ctx, f, d.Fix)
			if cut.moves(d.Fix.Edits) {
				refused[fixKey(cur, &d)] = true
				r := Refusal{Diagnostic: d, Reason: CutReason}
				if len(res.Refused) < maxShownCut {
					if diff := equivalent(cur, mustApply(cur, []Diagnostic{d})); diff != nil {
						r.Difference = *diff
					}
				}
				res.Refused = append(res.Refused, r)
				continue
			}
			switch {
			case d.Fix.Class != Intent:
				safe = append(safe, d)
			case enabled(opt.Enable, &d):
				intent = append(intent, d)
			default:
				res.Skipped = append(res.Skipped, d)
			}
		}
		var next string
		var applied []Diagnostic
		switch {
		case len(safe) > 0:
			next, applied = applySafe(cur, disjoint(safe), equivalent, func(r Refusal) {
				refused[fixKey(cur, &r.Diagnostic)] = true
				res.Refused = append(res.Refused, r)
			})
		case len(intent) > 0:
			applied = disjoint(intent)
			for len(applied) > 0 {
				next = mustApply(cur, applied)
				if cut.keeps(next, applied) {
					break
				}
				// Together they push lines across the cut: the first
				// half is tried, and one that does alone is refused.
				if len(applied) == 1 {
					refused[fixKey(cur, &applied[0])] = true
					res.Refused = append(res.Refused, Refusal{Diagnostic: applied[0], Reason: CutReason})
				}
				applied = applied[:len(applied)/2]
			}
			if len(applied) > 0 && res.Changed == nil {
				res.Changed = equivalent(cur, next)
			}
		}
		if stop == nil {
			stop = ctx.Err()
		}
		if stop != nil {
			return nil, stop // what the proofs decided is not to be trusted
		}
		if len(applied) == 0 {
			if len(safe) > 0 || len(intent) > 0 {
				continue // all refused: look again without them
			}
			break
		}
		res.Applied = append(res.Applied, applied...)
		cur = next
	}
	res.Output = []byte(cur)
	if lastOf == cur && opt.Config.Fetch == nil {
		// The last round read the output: Leftovers need not read it
		// again.
		res.findings, res.findingsCfg = lastDs, opt.Config
	}
	return res, nil
}

// LayoutFix reports whether d's fix is one that Fix applies only with
// Config.AllRobots: it merges the groups of one robot (FX15), which
// Google, Bing, Yandex and RFC 9309 robots merge anyway, reorders the
// groups (FX18), sorts a group's rules by length (FX30), or moves a line
// for first-match robots and the canonical layout (FX31 moving a Sitemap
// out of a group, FX35, FX36). The major robots read the file the same
// either way; these fixes serve first-match robots and the 1994 standard,
// and rewrite whole groups. robots fmt lays out the whole file.
func LayoutFix(d *Diagnostic) bool {
	if d.Fix == nil {
		return false
	}
	switch d.Fix.ID {
	case "FX15", "FX18", "FX30", "FX35", "FX36":
		return true
	case "FX31":
		return d.Check.Code == "RB605"
	}
	return false
}

// applySafe applies the fixes ds to cur, keeping only those that leave
// the reading of Google and RFC 9309 robots unchanged and move no line
// across the part of the file they read: when the whole set fails, it is
// halved until the fixes at fault are alone, and refuse is told about
// each. equivalent is change.Equivalent (under FixContext's context). It returns
// the new text and the fixes applied.
func applySafe(cur string, ds []Diagnostic, equivalent func(a, b string) *change.Difference, refuse func(Refusal)) (string, []Diagnostic) {
	cut := &cutGuard{src: cur, end: readEnd(cur)} // parsed when the text is long
	// verify returns nil when ds keep the reading, else the refusal.
	verify := func(ds []Diagnostic) *Refusal {
		next := mustApply(cur, ds)
		if !cut.keeps(next, ds) {
			r := &Refusal{Reason: CutReason}
			if diff := equivalent(cur, next); diff != nil {
				r.Difference = *diff
			}
			return r
		}
		if diff := equivalent(cur, next); diff != nil {
			return &Refusal{Difference: *diff}
		}
		return nil
	}
	var accept func(ds []Diagnostic) []Diagnostic
	accept = func(ds []Diagnostic) []Diagnostic {
		if len(ds) == 0 {
			return nil
		}
		r := verify(ds)
		if r == nil {
			return ds
		}
		if len(ds) == 1 {
			r.Diagnostic = ds[0]
			refuse(*r)
			return nil
		}
		l := accept(ds[:len(ds)/2])
		rr := accept(ds[len(ds)/2:])
		both := append(append([]Diagnostic(nil), l...), rr...)
		if len(l) > 0 && len(rr) > 0 && verify(both) != nil {
			return l // together they fail: the rest waits a round
		}
		return both
	}
	ok := accept(ds)
	return mustApply(cur, ok), ok
}

// disjoint returns the fixes of ds, in order, that touch no bytes an
// earlier one touches.
func disjoint(ds []Diagnostic) []Diagnostic {
	var out []Diagnostic
	var taken []Edit
next:
	for _, d := range ds {
		for _, e := range d.Fix.Edits {
			for _, t := range taken {
				// Two edits at one offset conflict unless both insert:
				// two fixes would rewrite the same line.
				if textedit.Overlap(textedit.Edit(e), textedit.Edit(t)) || e.Start == t.Start && (e.Start != e.End || t.Start != t.End) {
					continue next
				}
			}
		}
		taken = append(taken, d.Fix.Edits...)
		out = append(out, d)
	}
	return out
}

// mustApply applies the fixes of ds to cur; disjoint made sure they fit.
func mustApply(cur string, ds []Diagnostic) string {
	var edits []textedit.Edit
	for _, d := range ds {
		for _, e := range d.Fix.Edits {
			edits = append(edits, textedit.Edit(e))
		}
	}
	out, err := textedit.Apply(cur, edits)
	if err != nil {
		return cur // unreachable: the edits come from disjoint
	}
	return out
}

// fixKey identifies a fix across rounds, whose offsets differ: its ID, its
// check and the text of its line.
func fixKey(src string, d *Diagnostic) string {
	text := ""
	if d.Offset >= 0 {
		start := strings.LastIndexAny(src[:d.Offset], "\r\n") + 1
		end := strings.IndexAny(src[d.Offset:], "\r\n")
		if end < 0 {
			end = len(src) - d.Offset
		}
		text = src[start : d.Offset+end]
	}
	return d.Fix.ID + " " + d.Check.Code + " " + d.Message + "\x00" + text
}

// enabled reports whether names enables d's Intent fix.
func enabled(names []string, d *Diagnostic) bool {
	for _, n := range names {
		if n == "all" || strings.EqualFold(n, d.Fix.ID) || strings.EqualFold(n, d.Check.Code) || n == d.Check.Name {
			return true
		}
	}
	return false
}
