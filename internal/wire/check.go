package wire

import (
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/lint"
)

// CheckResponse is the JSON of `robots check -format json` and of
// POST /api/v1/check (docs/schema/check.schema.json).
type CheckResponse struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
	// Fixed is the corrected file; only the API sends it.
	Fixed *string `json:"fixed,omitempty"`
	// Fetch is the fetch trace, for a URL.
	Fetch any `json:"fetch,omitempty"`
	// Robots is the fetched file as text, for a URL, so that a client can
	// show the findings at their lines; only the API sends it.
	Robots *string `json:"robots,omitempty"`
	// Unfixed lists the findings the corrected file still has, each with
	// why the fixer left it; only the API sends it.
	Unfixed []Unfixed `json:"unfixed,omitempty"`
	// Changes are the verdicts that the enabled intent fixes change, per
	// robot family, when the request enabled some; only the API sends it.
	Changes *change.Report `json:"changes,omitempty"`
}

// Unfixed is a finding of the corrected file and why the fixer left it.
type Unfixed struct {
	Diagnostic
	Why string `json:"why"`
}

// Leftovers converts lint's leftovers.
func Leftovers(us []lint.Unfixed) []Unfixed {
	out := make([]Unfixed, 0, len(us))
	for _, u := range us {
		d := Diagnostics([]lint.Diagnostic{u.Diagnostic})[0]
		out = append(out, Unfixed{Diagnostic: d, Why: u.Why})
	}
	return out
}

// Diagnostic is one finding: a check's code, severity, position, message,
// explanation, affected families and fix.
type Diagnostic struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	// Line and Column are 1-based (Column in code points); 0 for the
	// whole file or its fetch. For a problem found on several lines of
	// one group, they are the first place's, and Lines lists every line,
	// Line first.
	Line        int       `json:"line"`
	Column      int       `json:"column"`
	Lines       []int     `json:"lines,omitempty"`
	Message     string    `json:"message"`
	Affects     []string  `json:"affects"`
	Explanation string    `json:"explanation,omitempty"`
	Related     []Related `json:"related,omitempty"`
	// Fix and FixClass name the fixer transformation that resolves the
	// finding and its class (P, PG or I).
	Fix      string `json:"fix,omitempty"`
	FixClass string `json:"fixClass,omitempty"`
}

// Related is another line a diagnostic refers to.
type Related struct {
	Line int    `json:"line"`
	Note string `json:"note"`
}

// Diagnostics converts the checker's diagnostics; the result is never nil,
// so that an empty list is written as [].
func Diagnostics(ds []lint.Diagnostic) []Diagnostic {
	out := make([]Diagnostic, 0, len(ds))
	for _, d := range ds {
		w := Diagnostic{
			Code:        d.Check.Code,
			Name:        d.Check.Name,
			Severity:    d.Check.Severity.String(),
			Line:        d.Line,
			Column:      d.Column,
			Lines:       d.Lines,
			Message:     d.Message,
			Affects:     families(d.Families()),
			Explanation: d.Check.Doc,
		}
		for _, r := range d.Related {
			w.Related = append(w.Related, Related(r))
		}
		if d.Fix != nil {
			w.Fix, w.FixClass = d.Fix.ID, d.Fix.Class.String()
		}
		out = append(out, w)
	}
	return out
}

func families(fs []lint.Family) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
}
