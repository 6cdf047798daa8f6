package lines

import "github.com/robotskit/robots/lint/internal/check"

// rb314 is check RB314: see its Doc.
var rb314 = &check.Check{
	Code: "RB314", Name: "malformed-ignore", Title: "robots:ignore comment without a reason or with an unknown check",
	Severity: check.Warning, Meta: true,
	Doc: "A comment \"# robots:ignore RB520 reason\" on a line of its own tells the " +
		"checker to leave the findings of those checks on the next line that is " +
		"neither blank nor a comment. This one silences nothing, because it gives " +
		"no reason after its codes, names no check or one that does not exist, or " +
		"ends a directive line instead of standing above it. Robots read it as a " +
		"comment. Name the checks by code (RB520) or name, separated by commas " +
		"without spaces, and say why the finding is wrong or accepted, so that the " +
		"next reader knows.",
	Before: "User-agent: *\n# robots:ignore RB520\nDisallow: /\n",
	After:  "User-agent: *\n# robots:ignore RB520 staging server: no robot may crawl it\nDisallow: /\n",
	Run: func(p *check.Pass) {
		for _, ig := range p.Ignores() {
			if ig.Problem != "" {
				p.ReportAt(ig.Line, ig.ProblemOff, "%s", ig.Problem)
			}
		}
	},
}

// rb315 is check RB315: see its Doc.
var rb315 = &check.Check{
	Code: "RB315", Name: "unused-ignore", Title: "robots:ignore comment that silences nothing",
	Severity: check.Warning, Meta: true,
	Doc: "A robots:ignore comment names a check that finds nothing on the line " +
		"below it: the line was fixed or moved, or the comment was put above the " +
		"wrong line. A stale ignore would hide the next problem of that kind on " +
		"that line, so remove it, or move it right above the line it is about. It " +
		"is reported only when the check it names runs: not for a check turned " +
		"off, nor for a thorough check without -thorough.",
	Before: "User-agent: *\n# robots:ignore RB520 staging server: no robot may crawl it\nDisallow: /private/\n",
	After:  "User-agent: *\nDisallow: /private/\n",
	Run: func(p *check.Pass) {
		for _, ig := range p.Ignores() {
			if ig.Problem != "" {
				continue
			}
			for _, c := range ig.Codes {
				if c.Used || !p.Judged(c.Code) {
					continue
				}
				if ig.Target == nil {
					p.ReportAt(ig.Line, c.Off, "robots:ignore %s silences nothing: no line follows it", c.Text)
				} else {
					p.ReportAt(ig.Line, c.Off, "robots:ignore %s silenced nothing: %s finds nothing on line %d", c.Text, c.Code, ig.Target.Num)
				}
			}
		}
	},
}
