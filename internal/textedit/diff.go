package textedit

import (
	"strings"

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

// LineMap matches the lines of a and b that the line diff of Unified
// keeps: for each line of a (index 0 for line 1), the 1-based number of
// the same line in b, or 0 when the diff removes it; and the same from b
// to a. Lines end at '\n'; a final line without one counts.
func LineMap(a, b string) (aToB, bToA []int) {
	aToB, bToA = make([]int, lineCount(a)), make([]int, lineCount(b))
	i, j := 0, 0 // lines of a and b passed
	pos := 0     // byte offset in a
	keep := func(upTo int) {
		for pos < upTo && i < len(aToB) {
			aToB[i], bToA[j] = j+1, i+1
			i, j = i+1, j+1
			pos = nextLine(a, pos)
		}
	}
	for _, e := range udiff.Lines(a, b) {
		keep(e.Start)
		for pos < e.End && i < len(aToB) {
			i++
			pos = nextLine(a, pos)
		}
		j += lineCount(e.New)
	}
	keep(len(a))
	return aToB, bToA
}

// lineCount counts the lines of s: its '\n's, and a final line without one.
func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && s[len(s)-1] != '\n' {
		n++
	}
	return n
}

// nextLine returns the offset after the line of s that starts at pos.
func nextLine(s string, pos int) int {
	if k := strings.IndexByte(s[pos:], '\n'); k >= 0 {
		return pos + k + 1
	}
	return len(s)
}
