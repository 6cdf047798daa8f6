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
	// and seed 003. It is the zero value.
	Google Profile = iota
	// RFC9309 reads a file as RFC 9309 is written, with no leniency.
	RFC9309
	numProfiles
)

var profileNames = [numProfiles]string{"google", "rfc9309"}

// String returns the profile's name as [ParseProfile] accepts it.
func (p Profile) String() string {
	if p < numProfiles {
		return profileNames[p]
	}
	return fmt.Sprintf("Profile(%d)", uint8(p))
}

// ParseProfile returns the profile with the given name ("google",
// "rfc9309"); "" and "default" name the zero value.
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
	// ParsedRobotsKey; seed 003 "Google-specific: typos").
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
}

var profileTable = [numProfiles]semantics{
	Google:  {lenientKeys: true, missingColon: true, indexHTML: true, cPath: true},
	RFC9309: {robotsTxtAllowed: true, rfcEncoding: true},
}

func (p Profile) semantics() *semantics {
	if p >= numProfiles {
		p = Google
	}
	return &profileTable[p]
}
