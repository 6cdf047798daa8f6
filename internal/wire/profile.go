package wire

import (
	"github.com/robotskit/robots"
	"github.com/robotskit/robots/lint"
)

// profileFamilies maps a profile to the lint family whose findings concern
// it.
var profileFamilies = map[robots.Profile]lint.Family{
	robots.Google: lint.GOOG, robots.RFC9309: lint.RFC, robots.Bing: lint.BING,
	robots.Yandex: lint.YNDX, robots.Draft1996: lint.FM, robots.Strict1994: lint.S94,
}

// ProfileFamily returns the lint family whose findings concern robots of
// profile p.
func ProfileFamily(p robots.Profile) lint.Family { return profileFamilies[p] }

// ForProfile keeps the diagnostics that affect robots of profile p, or
// every robot.
func ForProfile(ds []lint.Diagnostic, p robots.Profile) []lint.Diagnostic {
	fam := profileFamilies[p]
	var out []lint.Diagnostic
	for _, d := range ds {
		for _, a := range d.Families() {
			if a == fam || a == lint.ALL {
				out = append(out, d)
				break
			}
		}
	}
	return out
}
