package check

import "github.com/robotskit/robots/internal/textedit"

// maxVerify bounds how many fixes of one check in one pass a Verifier
// proves to pick their class; the rest are Intent, the cautious choice,
// so a huge file costs no more than a few compilations.
const maxVerify = 8

// A Verifier picks, fix by fix, the class of a PreservingGoogle fix that
// the rfc9309 profile may read differently: that profile ignores keys
// Google accepts only leniently and lines without a colon, so
// canonicalising such a line can give RFC robots a rule they ignored.
// A check makes one for its run.
type Verifier struct {
	p     *Pass
	calls int
}

// NewVerifier returns a verifier for one run of a check over p.
func NewVerifier(p *Pass) *Verifier { return &Verifier{p: p} }

// Class returns want when the edits keep every google and rfc9309
// verdict (change.Prover), Intent otherwise (or when the budget is
// spent, or the run has stopped).
func (v *Verifier) Class(want FixClass, edits ...Edit) FixClass {
	if v.calls >= maxVerify || v.p.Stopped() {
		return Intent
	}
	v.calls++
	out, err := textedit.Apply(v.p.Src, edits)
	if err != nil {
		return Intent
	}
	d, err := v.p.equivalentTo(out)
	if err != nil || d != nil {
		return Intent
	}
	return want
}
