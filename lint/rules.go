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

// ruleTodo lists the checks of this section not implemented, with the reason.
var ruleTodo = map[string]string{
	"RB502": "not written yet",
	"RB503": "not written yet",
	"RB504": "not written yet",
	"RB505": "not written yet",
	"RB506": "not written yet",
	"RB507": "not written yet",
	"RB508": "not written yet",
	"RB509": "not written yet",
	"RB510": "not written yet",
	"RB511": "not written yet",
	"RB512": "not written yet",
	"RB513": "not written yet",
	"RB514": "not written yet",
	"RB515": "not written yet",
	"RB516": "not written yet",
	"RB517": "not written yet",
	"RB518": "not written yet",
	"RB519": "not written yet",
	"RB520": "not written yet",
	"RB521": "not written yet",
	"RB522": "not written yet",
	"RB523": "not written yet",
}
