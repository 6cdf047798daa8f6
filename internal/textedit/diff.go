package textedit

import (
	udiff "github.com/aymanbagabas/go-udiff"
)

// contextLines is the number of unchanged lines shown around each change.
const contextLines = 3

// Unified returns the unified diff (three lines of context) that turns a
// into b, with the headers "--- aName" and "+++ bName"; "" when they are
// equal. A final line without a newline is marked as diff(1) marks it.
//
// The line edit script is Myers' algorithm as the Go tools (gopls) run it,
// through github.com/aymanbagabas/go-udiff: linear in the size of the texts
// when they differ in a few lines, whatever their length, and close to
// minimal otherwise.
func Unified(aName, bName, a, b string) string {
	if a == b {
		return ""
	}
	d, err := udiff.ToUnified(aName, bName, a, udiff.Lines(a, b), contextLines)
	if err != nil {
		// Unreachable: the edits of udiff.Lines fit a. Replacing the
		// whole text is still a correct diff.
		d, _ = udiff.ToUnified(aName, bName, a, []udiff.Edit{{Start: 0, End: len(a), New: b}}, contextLines)
	}
	return d
}
