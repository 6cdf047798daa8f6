package lint

// Checks of Allow and Disallow rules (checker-rules §E, RB5xx).
var ruleChecks = []*Check{rb501}

var rb501 = &Check{
	Code: "RB501", Name: "path-without-slash", Title: `path does not start with "/"`,
	Severity: Error, Affects: []Family{GOOG, YNDX, RFC, GOT},
	Doc: "A rule's path starts with neither \"/\" nor \"*\". Google matches patterns " +
		"from the first octet of the URL path, which is always \"/\", so the rule never " +
		"matches; Yandex reports an error; temoto/robotstxt silently adds the \"/\", so " +
		"only its users obey the rule. Write the path from the root: \"/admin/\".",
	Before: "User-agent: *\nDisallow: admin/\n",
	After:  "User-agent: *\nDisallow: /admin/\n",
	Fix:    "FX25",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			if !l.dir.rule() || l.value == "" || l.value[0] == '/' || l.value[0] == '*' {
				continue
			}
			d := p.reportValue(l, "Rule path %q does not start with \"/\"; Google never matches it", l.value)
			if l.Value.IsValid() {
				d.suggest("FX25", Intent, "write the path from the root",
					Edit{Start: l.Value.Start.Offset, End: l.Value.Start.Offset, New: "/"})
			}
		}
	},
}
