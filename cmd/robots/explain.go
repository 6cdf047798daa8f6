package main

import (
	"fmt"
	"strings"

	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/lint"
)

var explainCmd = &command{
	name:  "explain",
	usage: "[-format text|json] CODE|NAME...",
	short: "print what a check finds, why it matters and how to fix it",
	long: `Each argument is a check's code (RB706) or name (path-without-slash),
as robots check prints them. For each check explain prints what it finds
and why it matters, its severity and the robot families it affects, a
robots.txt it reports and a corrected one, and its fix: proven (the fix
keeps what Google and RFC 9309 robots read, and robots fix applies it) or
an intent fix (it changes what some robots do, and robots fix applies it
only with -enable). The same text is in docs/checks.md.`,
}

func init() { explainCmd.run = runExplain }

func runExplain(e *env, args []string) error {
	fs := newFlags(e, explainCmd)
	format := fs.String("format", "text", "output `format`: text or json")
	if err := parseFlags(e, explainCmd, fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return &usageError{msg: "give a check's code or name, as robots check prints it: robots explain RB706"}
	}
	var checks []*lint.Check
	for _, a := range fs.Args() {
		for _, n := range strings.Split(a, ",") {
			if n = strings.TrimSpace(n); n == "" {
				continue
			}
			c := lint.Lookup(n)
			if c == nil {
				msg := fmt.Sprintf("no check %q", clean(n))
				if near := lint.Closest(n); len(near) > 0 {
					msg += "; did you mean " + strings.Join(near, " or ") + "?"
				}
				return fmt.Errorf("%s", msg)
			}
			checks = append(checks, c)
		}
	}
	if *format == "json" {
		out := wire.CheckDocs{Checks: []wire.CheckDoc{}}
		for _, c := range checks {
			out.Checks = append(out.Checks, wire.NewCheckDoc(c))
		}
		return writeJSON(e.stdout, out)
	}
	var b strings.Builder
	for i, c := range checks {
		if i > 0 {
			b.WriteString("\n")
		}
		writeExplain(&b, c)
	}
	_, err := fmt.Fprint(e.stdout, b.String())
	return err
}

// writeExplain writes the documentation of c.
func writeExplain(b *strings.Builder, c *lint.Check) {
	fmt.Fprintf(b, "%s %s: %s\n", c.Code, c.Name, c.Title)
	var when string
	switch {
	case c.Scope() == "always":
		when = "reported whatever -robots says"
	case c.Thorough && c.Scope() == "all":
		when = "runs with -thorough and reports with -robots all (or -enable " + c.Code + ")"
	case c.Thorough:
		when = "runs with -thorough (or -enable " + c.Code + ")"
	case c.Scope() == "all":
		when = "reported with -robots all (or -enable " + c.Code + ")"
	default:
		when = "reported by default"
	}
	fmt.Fprintf(b, "%s · section %s (%s) · %s\n", c.Severity, c.SectionName(), c.Code[:3]+"xx", when)
	if len(c.Affects) == 0 {
		b.WriteString("Affects: no robot reads the file differently\n")
	} else {
		var fams []string
		for _, f := range c.Affects {
			fams = append(fams, fmt.Sprintf("%s (%s)", f, f.Title()))
		}
		b.WriteString(wrap("Affects: "+strings.Join(fams, ", "), "  "))
	}
	b.WriteString("\n")
	b.WriteString(wrap(c.Doc, ""))
	if c.Before != "" {
		fmt.Fprintf(b, "\nReported:\n%s", indentLines(c.Before))
		fmt.Fprintf(b, "Not reported:\n%s", indentLines(c.After))
	}
	b.WriteString("\n")
	switch class := c.FixClass(); {
	case c.Fix == "":
		b.WriteString("Fix: none automatic; edit the line by hand.\n")
	case class == lint.Intent:
		b.WriteString(wrap("Fix: "+c.Fix+", an intent fix: it restores what the author evidently meant and changes what some robots do, so robots fix applies it only with -enable "+firstFix(c.Fix)+".", "  "))
	case class == lint.Preserving:
		b.WriteString(wrap("Fix: "+c.Fix+", proven: it changes what no robot does, and robots fix applies it.", "  "))
	case class == lint.PreservingGoogle:
		b.WriteString(wrap("Fix: "+c.Fix+", proven: it keeps what Google and RFC 9309 robots read and brings the others to it; robots fix applies it.", "  "))
	default:
		b.WriteString(wrap("Fix: "+c.Fix+": robots fix applies it where it is proven to keep what Google and RFC 9309 robots read, and as an intent fix (-enable "+firstFix(c.Fix)+") elsewhere.", "  "))
	}
	off := "Turn off: robots check -disable " + c.Code + ", or disable = [\"" + c.Code + "\"] in .robots.toml"
	if c.Scope() != "always" {
		off += ", or a comment \"# robots:ignore " + c.Code + " reason\" above the line"
	}
	b.WriteString(wrap(off+".", "  "))
}

// firstFix is the first fix ID of a check's Fix ("FX38, FX12").
func firstFix(s string) string {
	first, _, _ := strings.Cut(s, ",")
	return strings.TrimSpace(first)
}

// indentLines indents each line of an example by four spaces.
func indentLines(s string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString("    " + clean(strings.TrimSuffix(l, "\n")) + "\n")
		}
	}
	return b.String()
}

// wrap fills s to lines of at most 76 columns; lines after the first
// start with indent.
func wrap(s, indent string) string {
	var b strings.Builder
	col := 0
	for i, w := range strings.Fields(s) {
		switch {
		case i == 0:
		case col+1+len([]rune(w)) > 76:
			b.WriteString("\n" + indent)
			col = len(indent)
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len([]rune(w))
	}
	b.WriteString("\n")
	return b.String()
}
