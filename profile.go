package robots

import "fmt"

// A Profile names a robot family's reading of robots.txt: which lines it
// honours, how it picks groups, how it compares paths. The zero value is
// [Google]. The table in the package documentation lists what each profile
// does and where that comes from.
//
// Profile implements flag.Value and encoding.TextMarshaler, so it can be a
// command-line flag or a JSON field directly.
type Profile uint8

const (
	// Google reads a file as Google's crawlers do: RFC 9309 plus Google's
	// leniencies, decided by google/robotstxt (the C++ reference library)
	// and Google's robots.txt documentation. It is the zero value.
	Google Profile = iota
	// RFC9309 reads a file as RFC 9309 is written, with no leniency.
	RFC9309
	// Bing reads a file as Bingbot does: RFC 9309's reading, and a robot
	// with a group of its own still keeps the "*" groups' Crawl-delay.
	Bing
	// Yandex reads a file as Yandex's robots do: RFC 9309's matching, but
	// a blank line ends a group, so rules after it belong to none.
	Yandex
	// Draft1996 reads a file as "A Method for Web Robots Control" (the
	// 1996 draft) describes: records separated by blank lines, the first
	// record whose User-agent value contains the robot's name, the first
	// matching rule in file order, no wildcards.
	Draft1996
	// Strict1994 reads a file as "A Standard for Robot Exclusion" (1994)
	// describes: Disallow only, prefix matches of the octets as written,
	// no wildcards, records separated by blank lines, the first record
	// whose User-agent value (without version) is part of the robot's
	// name.
	Strict1994
	numProfiles
)

var profileNames = [numProfiles]string{"google", "rfc9309", "bing", "yandex", "draft1996", "strict1994"}

// String returns the profile's name as [ParseProfile] accepts it.
func (p Profile) String() string {
	if p < numProfiles {
		return profileNames[p]
	}
	return fmt.Sprintf("Profile(%d)", uint8(p))
}

// ParseProfile returns the profile with the given name ("google",
// "rfc9309", "bing", "yandex", "draft1996", "strict1994"); "" and "default"
// name the zero value.
func ParseProfile(name string) (Profile, error) {
	switch name {
	case "", "default":
		return Google, nil
	}
	for p, n := range profileNames {
		if n == name {
			return Profile(p), nil
		}
	}
	return 0, fmt.Errorf("robots: unknown profile %q (known: %s)", name, profileList())
}

func profileList() string {
	s := ""
	for i, n := range profileNames {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

// Profiles returns every profile, the default first.
func Profiles() []Profile {
	ps := make([]Profile, numProfiles)
	for i := range ps {
		ps[i] = Profile(i)
	}
	return ps
}

// Set implements flag.Value.
func (p *Profile) Set(name string) error {
	q, err := ParseProfile(name)
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// MarshalText implements encoding.TextMarshaler.
func (p Profile) MarshalText() ([]byte, error) {
	if p >= numProfiles {
		return nil, fmt.Errorf("robots: invalid profile %d", uint8(p))
	}
	return []byte(p.String()), nil
}

// UnmarshalText implements encoding.TextUnmarshaler.
func (p *Profile) UnmarshalText(b []byte) error { return p.Set(string(b)) }

// semantics is the private table behind a profile. Each field cites where
// the behaviour comes from; doc.go renders the same table for people.
type semantics struct {
	// lenientKeys: Google reads user-agent, allow, disallow and sitemap by
	// prefix and accepts frequent misspellings (google/robotstxt,
	// ParsedRobotsKey).
	lenientKeys bool
	// missingColon: Google accepts "Disallow /x" when the line holds exactly
	// two words (google/robotstxt, GetKeyAndValueFrom). RFC 9309 §2.2 requires
	// the colon.
	missingColon bool
	// indexHTML: an Allow ending in /index.htm[l] also allows the directory
	// itself (google/robotstxt, HandleAllow). Not in RFC 9309.
	indexHTML bool
	// robotsTxtAllowed: "/robots.txt" is implicitly allowed (RFC 9309
	// §2.2.2). Google's matcher leaves that to its caller.
	robotsTxtAllowed bool
	// rfcEncoding: compare in RFC 9309 §2.2.2's canonical form (decode
	// unreserved escapes on both sides); otherwise Google's (escape non-ASCII
	// and upper-case hex in rules only, URL as given).
	rfcEncoding bool
	// cPath: the URL's path ends at a NUL byte, as the reference library
	// reads it as a C string.
	cPath bool
	// rawEncoding: compare the octets as written on both sides, with no
	// normalisation (the 1994 standard predates it). Overrides rfcEncoding.
	rawEncoding bool
	// blankEndsGroup: a blank line ends the group; rules and extensions
	// after it belong to no group until the next User-agent line. The 1994
	// standard and the 1996 draft separate records by blank lines; Yandex
	// forbids blank lines inside a group and reports the rules after one as
	// rules before any User-agent (Yandex's robots.txt help). RFC 9309 §2.2
	// and Google ignore blank lines.
	blankEndsGroup bool
	// firstRecord: a robot obeys the first record that names it, else the
	// first "*" record; records are never merged, and a record without
	// rule lines is no record (the grammar of both old texts requires a
	// rule line; Moderatobot: "only the first group"). How a record names a
	// robot: see nameInValue.
	firstRecord bool
	// nameInValue: under firstRecord, a record names the robot when one of
	// its User-agent values contains the robot's name token, ignoring case
	// (1996 draft §3.2.1: "the first record … whose value contains the name
	// token of the robot as a substring"; Moderatobot says the same). When
	// false, when the value up to a '/' is part of the robot's name (1994
	// standard: "a case insensitive substring match of the name without
	// version information is recommended", which CPython's old
	// robotparser reads this way; checks RB703 and RB705 of package lint).
	nameInValue bool
	// firstMatch: the first matching rule in file order decides (1996
	// draft §3.2.2); otherwise the longest match does (RFC 9309 §2.2.2).
	firstMatch bool
	// noAllow: Allow lines are unknown lines (1994 standard: the record
	// holds User-agent and Disallow lines), so the first matching Disallow
	// decides and an empty Disallow matches nothing.
	noAllow bool
	// noWildcards: '*' and '$' are octets like any other (neither the 1994
	// standard nor the 1996 draft has them).
	noWildcards bool
	// globalCrawlDelay: a robot with a group of its own still obeys the "*"
	// groups' Crawl-delay when its groups set none (Bing's webmaster
	// guidance; RB707 of package lint).
	globalCrawlDelay bool
}

// profileTable is the table of doc.go: each row's sources are cited there
// and on the fields above.
var profileTable = [numProfiles]semantics{
	Google:     {lenientKeys: true, missingColon: true, indexHTML: true, cPath: true},
	RFC9309:    {robotsTxtAllowed: true, rfcEncoding: true},
	Bing:       {robotsTxtAllowed: true, rfcEncoding: true, globalCrawlDelay: true},
	Yandex:     {robotsTxtAllowed: true, rfcEncoding: true, blankEndsGroup: true},
	Draft1996:  {robotsTxtAllowed: true, rfcEncoding: true, blankEndsGroup: true, firstRecord: true, nameInValue: true, firstMatch: true, noWildcards: true},
	Strict1994: {robotsTxtAllowed: true, rawEncoding: true, blankEndsGroup: true, firstRecord: true, firstMatch: true, noAllow: true, noWildcards: true},
}

// openPath reports whether Rules.Allowed may match the rest of a URL from
// its path's start instead of the path (see Rules.first): the path is
// compared as given, and whether it is /robots.txt does not matter.
func (s *semantics) openPath() bool { return !s.rfcEncoding && !s.robotsTxtAllowed }

func (p Profile) semantics() *semantics {
	if p >= numProfiles {
		p = Google
	}
	return &profileTable[p]
}
