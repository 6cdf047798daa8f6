package lint

import (
	"strings"

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
	// Changed lists, for the Intent fixes applied, a URL whose verdict
	// they changed, when there is one; nil when the output reads as the
	// input does.
	Changed *Difference
}

// A Refusal is a fix the fixer did not apply because it would change a
// verdict.
type Refusal struct {
	Diagnostic
	Difference Difference
}

// maxRounds bounds the fix-and-recheck loop: each round applies every fix
// that does not overlap another and checks the result again.
const maxRounds = 10

// Fix corrects src. Each round checks the text and
// applies the fixes found, those of one class at a time: first the fixes
// that keep the reading of Google and RFC 9309 robots, verified with
// Equivalent — a set that changes a verdict is split until the fixes that
// do are found and refused — then, once none is left, the Intent fixes
// that opt.Enable names. It stops when a round finds nothing to apply.
func Fix(src []byte, opt *FixOptions) *FixResult {
	if opt == nil {
		opt = &FixOptions{}
	}
	res := &FixResult{}
	refused := map[string]bool{}
	cur := string(src)
	for round := 0; round < maxRounds; round++ {
		f := syntax.Parse("", []byte(cur))
		ds := Run(f, &opt.Config)
		var safe, intent []Diagnostic
		res.Skipped = res.Skipped[:0]
		for _, d := range ds {
			switch {
			case d.Fix == nil || refused[fixKey(cur, &d)]:
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
			next, applied = applySafe(cur, disjoint(safe), func(d Diagnostic, diff *Difference) {
				refused[fixKey(cur, &d)] = true
				res.Refused = append(res.Refused, Refusal{Diagnostic: d, Difference: *diff})
			})
		case len(intent) > 0:
			applied = disjoint(intent)
			next = mustApply(cur, applied)
			if res.Changed == nil {
				res.Changed = Equivalent([]byte(cur), []byte(next))
			}
		}
		if len(applied) == 0 {
			if len(safe) > 0 {
				continue // all refused: look again without them
			}
			break
		}
		res.Applied = append(res.Applied, applied...)
		cur = next
	}
	res.Output = []byte(cur)
	return res
}

// applySafe applies the fixes ds to cur, keeping only those that leave
// the reading of Google and RFC 9309 robots unchanged: when the whole set
// changes a verdict, it is halved until the fixes at fault are alone, and
// refuse is told about each. It returns the new text and the fixes
// applied.
func applySafe(cur string, ds []Diagnostic, refuse func(Diagnostic, *Difference)) (string, []Diagnostic) {
	var accept func(ds []Diagnostic) []Diagnostic
	accept = func(ds []Diagnostic) []Diagnostic {
		if len(ds) == 0 {
			return nil
		}
		diff := Equivalent([]byte(cur), []byte(mustApply(cur, ds)))
		if diff == nil {
			return ds
		}
		if len(ds) == 1 {
			refuse(ds[0], diff)
			return nil
		}
		l := accept(ds[:len(ds)/2])
		r := accept(ds[len(ds)/2:])
		both := append(append([]Diagnostic(nil), l...), r...)
		if len(l) > 0 && len(r) > 0 && Equivalent([]byte(cur), []byte(mustApply(cur, both))) != nil {
			return l // together they change a verdict: the rest waits a round
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
