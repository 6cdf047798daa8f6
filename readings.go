package robots

import "github.com/robotskit/robots/syntax"

// Readings is one robots.txt file as every profile reads it, compiled from
// one syntax tree: what is needed to show many robots' verdicts on many
// URLs side by side without parsing the file again for each robot.
// Readings is immutable and safe for concurrent use.
type Readings struct {
	file  *syntax.File
	rules [numProfiles]*Rules
}

// CompileAll compiles f for every profile.
func CompileAll(f *syntax.File) *Readings {
	rs := &Readings{file: f}
	for p := range rs.rules {
		rs.rules[p] = Compile(f, Profile(p))
	}
	return rs
}

// File returns the syntax tree the readings were compiled from.
func (rs *Readings) File() *syntax.File { return rs.file }

// Rules returns the rules of profile p; an unknown profile reads as
// [Google], as everywhere in this package.
func (rs *Readings) Rules(p Profile) *Rules {
	if p >= numProfiles {
		p = Google
	}
	return rs.rules[p]
}

// Decide decides for the robot a reading the file as profile p.
func (rs *Readings) Decide(p Profile, a Agent, url string) Decision {
	return rs.Rules(p).Decide(a, url)
}
