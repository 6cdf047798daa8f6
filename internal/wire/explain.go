package wire

import "github.com/robotskit/robots/lint"

// CheckDoc is one check of the catalogue as `robots explain -format json`
// writes it, with the keys of a Diagnostic where they mean the same.
type CheckDoc struct {
	Code     string `json:"code"`
	Name     string `json:"name"`
	Title    string `json:"title"`
	Severity string `json:"severity"`
	// Section is the check's section, as -enable and -disable take it
	// ("rules").
	Section string `json:"section"`
	// Thorough checks run only with -thorough, or when enabled by code.
	Thorough bool `json:"thorough"`
	// Scope is lint.Check.Scope: "major" when the check reports by
	// default, "all" when only with -robots all, "always" for the checks
	// of robots:ignore comments.
	Scope       string   `json:"scope"`
	Affects     []string `json:"affects"`
	Explanation string   `json:"explanation"`
	// Before is a robots.txt the check reports, After a corrected one it
	// does not; absent for the checks of the fetch.
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
	// Fix and FixClass name the fixer transformation and its class (P,
	// PG or I) as the fixer gives it on Before; FixClass is absent when
	// it depends on the file.
	Fix      string `json:"fix,omitempty"`
	FixClass string `json:"fixClass,omitempty"`
}

// CheckDocs is the JSON of `robots explain -format json`.
type CheckDocs struct {
	Checks []CheckDoc `json:"checks"`
}

// NewCheckDoc describes c.
func NewCheckDoc(c *lint.Check) CheckDoc {
	d := CheckDoc{
		Code: c.Code, Name: c.Name, Title: c.Title, Severity: c.Severity.String(),
		Section: c.SectionName(), Thorough: c.Thorough, Scope: c.Scope(),
		Affects: families(c.Affects), Explanation: c.Doc,
		Before: c.Before, After: c.After, Fix: c.Fix,
	}
	if cl := c.FixClass(); cl != 0 {
		d.FixClass = cl.String()
	}
	return d
}
