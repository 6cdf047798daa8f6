package main

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// Output formats of writeTable.
const (
	formatText     = "text"
	formatMarkdown = "markdown"
)

// writeTable writes res as an aligned text table or a Markdown table,
// followed by its notes.
func writeTable(w io.Writer, res *results, format string) error {
	if format != formatText && format != formatMarkdown {
		return fmt.Errorf("unknown format %q (want %s or %s)", format, formatText, formatMarkdown)
	}
	header := []string{"workload"}
	header = append(header, res.impls...)
	var ratioOf []string
	if slices.Contains(res.impls, nameTemoto) {
		for _, name := range res.impls {
			if name != nameTemoto {
				ratioOf = append(ratioOf, name)
				header = append(header, name+"/"+nameTemoto)
			}
		}
	}
	cells := [][]string{header}
	for _, rw := range res.rows {
		line := []string{rw.label}
		for _, name := range res.impls {
			if v, ok := rw.value[name]; ok {
				line = append(line, rw.format(v))
			} else {
				line = append(line, "-")
			}
		}
		for _, name := range ratioOf {
			if v, ok := rw.ratio[name]; ok {
				line = append(line, fmtRatio(v))
			} else {
				line = append(line, "")
			}
		}
		cells = append(cells, line)
	}

	bw := bufio.NewWriter(w)
	if format == formatMarkdown {
		writeMarkdown(bw, cells)
		bw.WriteString("\n")
		for _, n := range res.notes {
			bw.WriteString("- " + n + "\n")
		}
	} else {
		writeText(bw, cells)
		bw.WriteString("\n")
		for _, n := range res.notes {
			bw.WriteString("* " + n + "\n")
		}
	}
	return bw.Flush()
}

// writeText writes cells as columns, the first left-aligned and the others
// right-aligned.
func writeText(w *bufio.Writer, cells [][]string) {
	width := make([]int, len(cells[0]))
	for _, line := range cells {
		for i, c := range line {
			width[i] = max(width[i], utf8.RuneCountInString(c))
		}
	}
	for _, line := range cells {
		var b strings.Builder
		for i, c := range line {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(c))
			if i == 0 {
				b.WriteString(c + pad)
			} else {
				b.WriteString("   " + pad + c)
			}
		}
		w.WriteString(strings.TrimRight(b.String(), " ") + "\n")
	}
}

// writeMarkdown writes cells as a Markdown table with right-aligned figures.
func writeMarkdown(w *bufio.Writer, cells [][]string) {
	for n, line := range cells {
		w.WriteString("| " + strings.Join(line, " | ") + " |\n")
		if n == 0 {
			w.WriteString("|---")
			for range line[1:] {
				w.WriteString("|--:")
			}
			w.WriteString("|\n")
		}
	}
}

// fmtSI formats x with three significant digits and a k/M/G suffix.
func fmtSI(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return fmtFixed(0)(x)
	}
	suffix := ""
	for _, s := range []string{"k", "M", "G"} {
		if math.Abs(x) < 999.5 {
			break
		}
		x /= 1000
		suffix = s
	}
	switch {
	case math.Abs(x) >= 99.95:
		return fmt.Sprintf("%.0f%s", x, suffix)
	case math.Abs(x) >= 9.995:
		return fmt.Sprintf("%.1f%s", x, suffix)
	}
	return fmt.Sprintf("%.2f%s", x, suffix)
}

// fmtFixed returns a formatter with the given number of decimals.
func fmtFixed(decimals int) func(float64) string {
	return func(x float64) string {
		switch {
		case math.IsNaN(x):
			return "n/a"
		case math.IsInf(x, 0):
			return "inf"
		}
		return fmt.Sprintf("%.*f", decimals, x)
	}
}

// fmtRatio formats a factor against temoto.
func fmtRatio(x float64) string {
	switch {
	case math.IsNaN(x):
		return "n/a"
	case math.IsInf(x, 1):
		return "∞" // the implementation's cost is zero
	case x < 0.1:
		return fmt.Sprintf("%.2gx", x)
	}
	return fmt.Sprintf("%.2fx", x)
}
