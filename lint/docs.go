package lint

import (
	"fmt"
	"io"
	"strings"
)

// writeDocs writes docs/checks.md: every check of the registry, by
// section, with its explanation and examples, then the checks not
// implemented. TestDocs keeps the file current.
func writeDocs(w io.Writer) {
	fmt.Fprint(w, `# Checks

This file is generated from the registry of package lint by
`+"`go test ./lint -run TestDocs -update`"+`; do not edit it by hand. It is the
checker's catalogue: codes, severities, families and fixes. Families: GOOG
Google, BING Bing, YNDX Yandex, RFC other RFC 9309 robots, FM first-match
robots of the 1996 draft, S94 the 1994 standard, EXT the extended standard,
CC crawler-commons, GOT temoto/robotstxt, ALL every robot. Fix classes: P
keeps every robot's reading, PG keeps Google's and RFC 9309's reading and
brings the others to it, I restores the author's intent and changes a
verdict (applied only when enabled by name).

By default `+"`robots check`"+` reports only the findings that affect a major
family (GOOG, BING, YNDX, RFC or ALL), and `+"`robots fix`"+` applies only their
fixes; `+"`-robots all`"+` adds the others. The checks marked "-robots all only"
affect no major family. RB410 and RB412 leave Google out, and so are left
out by default, when Google reads the User-agent as the author meant it. A
problem that a check finds on several lines of one group is one finding
that lists its lines.

## Turning checks off

`+"`robots explain RBnnn`"+` prints a check's entry of this file. `+"`robots check`"+`
takes `+"`-disable LIST`"+` and `+"`-enable LIST`"+`, and package lint
`+"`Config.Disable`"+` and `+"`Config.Enable`"+`; an entry is a code (`+"`RB706`"+`, any
case), a check's name, a section (`+"`fetch`"+` A, `+"`file`"+` B, `+"`lines`"+` C,
`+"`groups`"+` D, `+"`rules`"+` E, `+"`ext`"+` F, `+"`cross`"+` G), a severity (`+"`error`"+`,
`+"`warning`"+`, `+"`info`"+`) or `+"`all`"+`. A check runs by default unless it is
thorough only; the most specific entry that names it decides otherwise (a
code or name beats a section, a section a severity, a severity `+"`all`"+`), so
`+"`-disable all -enable RB501`"+` runs RB501 alone. A check enabled by code or
name also runs when it is thorough only, and reports what affects no major
family.

`+"`robots check`"+` reads these settings from `+"`.robots.toml`"+` in the checked
file's directory or the nearest one above it (it looks no further than a
directory holding `+"`.git`"+`; for a URL or standard input, from the current
directory); `+"`-config FILE`"+` names another, `+"`-config none`"+` reads none, and
the flags override the file. Its keys:

| key | value |
|---|---|
| `+"`enable`"+`, `+"`disable`"+` | lists of entries, as above |
| `+"`fail-on`"+` | `+"`\"error\"`"+` (default), `+"`\"warning\"`"+` or `+"`\"info\"`"+`: the least severity that exits 1 |
| `+"`max-same`"+` | how many findings of one check the text shows (default 3, 0 for all) |
| `+"`robots`"+` | `+"`\"major\"`"+` (default) or `+"`\"all\"`"+`, as `+"`-robots`"+` |
| `+"`thorough`"+` | `+"`true`"+` runs the thorough checks, as `+"`-thorough`"+` |

An unknown key, or a value of the wrong kind, is an error naming the file
and the line.

A comment `+"`# robots:ignore RBnnn[,RBmmm] reason`"+` on a line of its own
silences those checks (codes or names, comma-separated) on the next line
that is neither blank nor a comment; `+"`robots:ignore`"+` is matched
case-sensitively right after `+"`#`"+` and spaces. It does not apply to the line
it ends: such a comment is reported. The reason is required. A comment
without a reason, naming no check or an unknown one silences nothing and is
reported (RB314); one that silences nothing is reported too (RB315), unless
the check it names did not run. Findings of the whole file or its fetch have
no line: turn them off with `+"`-disable`"+`. The fixer leaves a silenced
finding as it is.

`)
	titles := map[byte]string{
		'A': "Fetch and location", 'B': "Encoding and format", 'C': "Syntax",
		'D': "Group structure", 'E': "Rules", 'F': "Non-group and extended directives",
		'G': "Cross-robot differences",
	}
	var sec byte
	for _, c := range Checks() {
		if s := c.Section(); s != sec {
			sec = s
			fmt.Fprintf(w, "## %c. %s\n\n", s, titles[s])
		}
		fmt.Fprintf(w, "### %s %s\n\n", c.Code, c.Name)
		thorough := ""
		if c.Thorough {
			thorough = " · thorough only"
		}
		scope := ""
		switch {
		case c.impl != nil && c.impl.Meta:
			scope = " · of the checker's own comments, reported whatever the scope"
		case !anyMajor(c.Affects):
			scope = " · -robots all only"
		}
		fix := ""
		if c.Fix != "" {
			fix = " · fix " + c.Fix
		}
		fams := make([]string, len(c.Affects))
		for i, f := range c.Affects {
			fams[i] = string(f)
		}
		if len(fams) == 0 {
			fams = []string{"—"}
		}
		fmt.Fprintf(w, "**%s** · %s%s · affects %s%s%s\n\n", c.Title, c.Severity, thorough, strings.Join(fams, " "), scope, fix)
		fmt.Fprintf(w, "%s\n\n", c.Doc)
		if c.Before != "" {
			fmt.Fprintf(w, "Reported:\n\n```\n%s```\n\n", c.Before)
			fmt.Fprintf(w, "Not reported:\n\n```\n%s```\n\n", c.After)
		}
	}
}
