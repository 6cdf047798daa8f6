package lint

import (
	"fmt"
	"io"
	"strings"
)

// notImplemented names the checks of checker-rules.md that the registry
// does not implement, with the reason; docs/checks.md lists them.
var notImplemented = map[string]string{
	"RB101": "not written yet",
	"RB102": "not written yet",
	"RB103": "not written yet",
	"RB104": "not written yet",
	"RB105": "not written yet",
	"RB106": "not written yet",
	"RB107": "not written yet",
	"RB108": "not written yet",
	"RB109": "not written yet",
	"RB110": "not written yet",
	"RB111": "not written yet",
	"RB112": "not written yet",
	"RB113": "not written yet",
	"RB114": "not written yet",
	"RB115": "not written yet",
	"RB120": "not written yet",
	"RB121": "not written yet",
	"RB122": "not written yet",
	"RB123": "not written yet",
	"RB130": "not written yet",
	"RB131": "not written yet",
	"RB132": "not written yet",
	"RB133": "not written yet",
	"RB134": "not written yet",
	"RB135": "not written yet",
	"RB136": "not written yet",
	"RB137": "not written yet",
	"RB202": "not written yet",
	"RB203": "not written yet",
	"RB204": "not written yet",
	"RB205": "not written yet",
	"RB206": "not written yet",
	"RB207": "not written yet",
	"RB208": "not written yet",
	"RB209": "not written yet",
	"RB210": "not written yet",
	"RB211": "not written yet",
	"RB212": "not written yet",
	"RB213": "not written yet",
	"RB214": "not written yet",
	"RB301": "not written yet",
	"RB302": "not written yet",
	"RB303": "not written yet",
	"RB304": "not written yet",
	"RB305": "not written yet",
	"RB306": "not written yet",
	"RB307": "not written yet",
	"RB308": "not written yet",
	"RB309": "not written yet",
	"RB310": "not written yet",
	"RB311": "not written yet",
	"RB312": "not written yet",
	"RB313": "not written yet",
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
	"RB601": "not written yet",
	"RB602": "not written yet",
	"RB603": "not written yet",
	"RB604": "not written yet",
	"RB605": "not written yet",
	"RB606": "not written yet",
	"RB607": "not written yet",
	"RB608": "not written yet",
	"RB620": "not written yet",
	"RB621": "not written yet",
	"RB622": "not written yet",
	"RB623": "not written yet",
	"RB624": "not written yet",
	"RB630": "not written yet",
	"RB631": "not written yet",
	"RB632": "not written yet",
	"RB633": "not written yet",
	"RB634": "not written yet",
	"RB640": "not written yet",
	"RB641": "not written yet",
	"RB642": "not written yet",
	"RB643": "not written yet",
	"RB644": "not written yet",
	"RB645": "not written yet",
	"RB646": "not written yet",
	"RB650": "not written yet",
	"RB651": "not written yet",
	"RB655": "not written yet",
	"RB656": "not written yet",
	"RB657": "not written yet",
	"RB660": "not written yet",
	"RB661": "not written yet",
	"RB662": "not written yet",
	"RB670": "not written yet",
	"RB671": "not written yet",
	"RB672": "not written yet",
	"RB701": "not written yet",
	"RB702": "not written yet",
	"RB703": "not written yet",
	"RB704": "not written yet",
	"RB705": "not written yet",
	"RB706": "not written yet",
	"RB707": "not written yet",
}

// writeDocs writes docs/checks.md: every check of the registry, by
// section, with its explanation and examples, then the checks not
// implemented. TestDocs keeps the file current.
func writeDocs(w io.Writer) {
	fmt.Fprint(w, `# Checks

This file is generated from the registry of package lint by
`+"`go test ./lint -run TestDocs -update`"+`; do not edit it by hand. The codes,
severities and families are those of the checker's catalogue
(checker-rules.md). Families: GOOG Google, BING Bing, YNDX Yandex, RFC other
RFC 9309 robots, FM first-match robots of the 1996 draft, S94 the 1994
standard, EXT the extended standard, CC crawler-commons, GOT temoto/robotstxt,
ALL every robot. Fix classes: P keeps every robot's reading, PG keeps Google's
and RFC 9309's reading and brings the others to it, I restores the author's
intent and changes a verdict (applied only when enabled by name).

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
		fix := ""
		if c.Fix != "" {
			fix = " · fix " + c.Fix
		}
		fams := make([]string, len(c.Affects))
		for i, f := range c.Affects {
			fams[i] = string(f)
		}
		fmt.Fprintf(w, "**%s** · %s%s · affects %s%s\n\n", c.Title, c.Severity, thorough, strings.Join(fams, " "), fix)
		fmt.Fprintf(w, "%s\n\n", c.Doc)
		if c.Before != "" {
			fmt.Fprintf(w, "Reported:\n\n```\n%s```\n\n", c.Before)
			fmt.Fprintf(w, "Not reported:\n\n```\n%s```\n\n", c.After)
		}
	}
	if len(notImplemented) > 0 {
		fmt.Fprint(w, "## Not implemented\n\n| Code | Why |\n|---|---|\n")
		for _, code := range sortedKeys(notImplemented) {
			fmt.Fprintf(w, "| %s | %s |\n", code, notImplemented[code])
		}
		fmt.Fprintln(w)
	}
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}
