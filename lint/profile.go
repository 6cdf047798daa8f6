package lint

import "github.com/robotskit/robots"

// profileFamilies maps each profile of package robots to the family of
// robots that read robots.txt that way: Google's crawlers, the RFC 9309
// longest-match crawlers, Bingbot, Yandex's robots, the first-match robots
// of the 1996 draft and the strict 1994 standard.
var profileFamilies = map[robots.Profile]Family{
	robots.Google: FamilyGoogle, robots.RFC9309: FamilyRFC, robots.Bing: FamilyBing,
	robots.Yandex: FamilyYandex, robots.Draft1996: FamilyFirstMatch, robots.Strict1994: FamilyStrict1994,
}

// ProfileFamily returns the family whose findings concern robots that read
// robots.txt as profile p does, or "" for a profile it does not know. The
// families of the profiles of first-match robots and of the 1994 standard
// are not Major: their findings are reported only with Config.AllRobots.
func ProfileFamily(p robots.Profile) Family { return profileFamilies[p] }

// ForProfile keeps, in order, the diagnostics that affect robots of profile
// p: those whose families (Diagnostic.Families) include ProfileFamily(p) or
// FamilyAll. It returns nil when none does.
func ForProfile(ds []Diagnostic, p robots.Profile) []Diagnostic {
	fam := profileFamilies[p]
	var out []Diagnostic
	for i := range ds {
		for _, a := range ds[i].Families() {
			if a == fam || a == FamilyAll {
				out = append(out, ds[i])
				break
			}
		}
	}
	return out
}
