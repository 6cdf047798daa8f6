// Package wire holds the JSON shapes that the CLI's -format json and the
// web API share, and the SARIF report of the checker.
package wire

import (
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
}

// Diagnostic is one finding: a check's code, severity, position, message,
// explanation, affected families and fix.
type Diagnostic struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Severity string `json:"severity"`
	// Line and Column are 1-based (Column in code points); 0 for the
	// whole file or its fetch.
	Line        int       `json:"line"`
	Column      int       `json:"column"`
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
			Message:     d.Message,
			Affects:     families(d.Check.Affects),
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
