package lint

import (
	"fmt"
	"sort"
)

// A Diagnostic is one problem found by a check.
type Diagnostic struct {
	Check *Check
	// Line and Column are 1-based; Column counts Unicode code points from
	// the start of the line (a byte order mark on line 1 not counted), as
	// docs/schema/check.schema.json says. Both are 0 for problems of the
	// whole file or of its fetch.
	Line, Column int
	// Offset is the byte offset of the position in the input, -1 for
	// problems of the whole file or of its fetch.
	Offset int
	// Message says what is wrong, in one line.
	Message string
	// Related points at other lines that explain the problem.
	Related []Related
	// Lines are the lines of every place of the problem when Fold made
	// one diagnostic of the check's diagnostics in one group: Line first,
	// then the others in order, each once. Line, Column, Offset, Message
	// and Related are those of the first place. nil for a problem on one
	// line.
	Lines []int
	// Affects lists the families this diagnostic affects when they are
	// fewer than its check's, as Families returns; nil means the check's.
	Affects []Family
	// Fix is the edit that resolves the problem; nil when there is none.
	// When Fold made one diagnostic of several, it holds the edits of
	// every place but those that overlap an earlier place's.
	Fix *SuggestedFix

	// group is the canonical group of the line, for Fold.
	group int
}

// Severity returns the severity of d's check.
func (d *Diagnostic) Severity() Severity { return d.Check.Severity }

// Families returns the families d affects: its own Affects, or its
// check's.
func (d *Diagnostic) Families() []Family {
	if d.Affects != nil {
		return d.Affects
	}
	return d.Check.Affects
}

// String returns "line:col: severity CODE message".
func (d *Diagnostic) String() string {
	return fmt.Sprintf("%d:%d: %s %s %s", d.Line, d.Column, d.Check.Severity, d.Check.Code, d.Message)
}

// Related is another line that a diagnostic refers to.
type Related struct {
	Line int
	Note string
}

// A SuggestedFix is a transformation of the fixer (see Fix) applied at one
// place: byte-offset edits of the input.
type SuggestedFix struct {
	// ID is the transformation's identifier, "FX" and two digits.
	ID string
	// Class says what the edit may change; it can be stricter here than in
	// the catalogue (FX26 is Intent when it encodes a space).
	Class FixClass
	// Message says what the edit does, in a few words.
	Message string
	Edits   []Edit
}

// An Edit replaces the bytes [Start, End) of the input with New.
type Edit struct {
	Start, End int
	New        string
}

// sortDiagnostics orders diagnostics by position, then code.
func sortDiagnostics(ds []Diagnostic) {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := &ds[i], &ds[j]
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Check.Code < b.Check.Code
	})
}
