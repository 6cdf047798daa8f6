package textedit

import (
	"fmt"
	"strings"
)

// Unified returns the unified diff (three lines of context) that turns a
// into b, with the headers "--- aName" and "+++ bName"; "" when they are
// equal. A final line without a newline is marked as diff(1) marks it.
func Unified(aName, bName, a, b string) string {
	if a == b {
		return ""
	}
	x, y := splitLines(a), splitLines(b)
	ops := diffLines(x, y)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", aName, bName)
	const ctx = 3
	for i := 0; i < len(ops); {
		// Find the next change, then extend the hunk while the gap between
		// changes is at most 2·ctx unchanged lines.
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(i-ctx, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			j := end
			for j < len(ops) && ops[j].kind == ' ' {
				j++
			}
			if j == len(ops) || j-end > 2*ctx {
				end = min(end+ctx, len(ops))
				break
			}
			end = j
		}
		writeHunk(&out, ops[start:end])
		i = end
	}
	return out.String()
}

type op struct {
	kind       byte // ' ', '-' or '+'
	line       string
	aPos, bPos int // 0-based index of the line in a and b (where it would be)
}

func writeHunk(out *strings.Builder, ops []op) {
	var na, nb int
	for _, o := range ops {
		if o.kind != '+' {
			na++
		}
		if o.kind != '-' {
			nb++
		}
	}
	as, bs := ops[0].aPos+1, ops[0].bPos+1
	if na == 0 {
		as--
	}
	if nb == 0 {
		bs--
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(as, na), hunkRange(bs, nb))
	for _, o := range ops {
		out.WriteByte(o.kind)
		if line, ok := strings.CutSuffix(o.line, "\n"); ok {
			out.WriteString(line)
			out.WriteByte('\n')
		} else {
			out.WriteString(o.line)
			out.WriteString("\n\\ No newline at end of file\n")
		}
	}
}

func hunkRange(start, n int) string {
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// splitLines splits s after every '\n'; the last element lacks it when s
// does not end with one.
func splitLines(s string) []string {
	var lines []string
	for s != "" {
		i := strings.IndexByte(s, '\n') + 1
		if i == 0 {
			i = len(s)
		}
		lines = append(lines, s[:i])
		s = s[i:]
	}
	return lines
}

// diffLines returns an edit script from x to y: a longest common
// subsequence by dynamic programming over the lines between the common
// prefix and suffix. Its cost is O(len(x)·len(y)) in the changed middle,
// which is bounded by the callers: robots.txt files are cut at 500 KiB,
// and beyond 4,000 × 4,000 changed lines the middle is shown as removed
// and added whole.
func diffLines(x, y []string) []op {
	var ops []op
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		ops = append(ops, op{' ', x[p], p, p})
		p++
	}
	s := 0
	for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
		s++
	}
	xm, ym := x[p:len(x)-s], y[p:len(y)-s]
	ops = append(ops, middle(xm, ym, p)...)
	for k := 0; k < s; k++ {
		i, j := len(x)-s+k, len(y)-s+k
		ops = append(ops, op{' ', x[i], i, j})
	}
	return ops
}

func middle(x, y []string, p int) []op {
	var ops []op
	if len(x)*len(y) > 4000*4000 || len(x) == 0 || len(y) == 0 {
		for i, l := range x {
			ops = append(ops, op{'-', l, p + i, p})
		}
		for j, l := range y {
			ops = append(ops, op{'+', l, p + len(x), p + j})
		}
		return ops
	}
	// lcs[i][j] is the length of the longest common subsequence of x[i:]
	// and y[j:], kept in one slice.
	w := len(y) + 1
	lcs := make([]int32, (len(x)+1)*w)
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, op{' ', x[i], p + i, p + j})
			i, j = i+1, j+1
		case j == len(y) || i < len(x) && lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			ops = append(ops, op{'-', x[i], p + i, p + j})
			i++
		default:
			ops = append(ops, op{'+', y[j], p + i, p + j})
			j++
		}
	}
	return ops
}
