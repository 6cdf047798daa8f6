package lint

// Checks of group structure (checker-rules §D, RB4xx), on the canonical
// grouping of §0.4 step 6 unless a check says otherwise.
var groupChecks = []*Check{rb401}

var rb401 = &Check{
	Code: "RB401", Name: "orphan-member", Title: "rule or group directive before any User-agent",
	Severity: Error, Affects: []Family{ALL, GOT},
	Doc: "A group member (Allow, Disallow, Crawl-delay, …) comes before the first " +
		"User-agent line, so it belongs to no group. Every robot ignores it (RFC 9309 " +
		"says it SHOULD), and temoto/robotstxt rejects the whole file. Put a " +
		"User-agent line above it, or remove it.",
	Before: "Disallow: /tmp\nUser-agent: *\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /tmp\nDisallow: /private\n",
	Fix:    "FX14",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			if !l.orphan {
				continue
			}
			p.report(l, "%q appears before any User-agent line and belongs to no group", l.key).
				suggest("FX14", Preserving, "comment out the orphan line", commentOut(l))
		}
	},
}

// groupTodo lists the checks of this section not implemented, with the reason.
var groupTodo = map[string]string{
	"RB402": "not written yet",
	"RB403": "not written yet",
	"RB404": "not written yet",
	"RB405": "not written yet",
	"RB406": "not written yet",
	"RB407": "not written yet",
	"RB408": "not written yet",
	"RB409": "not written yet",
	"RB410": "not written yet",
	"RB411": "not written yet",
	"RB412": "not written yet",
	"RB413": "not written yet",
	"RB414": "not written yet",
	"RB415": "not written yet",
	"RB416": "not written yet",
}
