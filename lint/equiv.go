package lint

import (
	"sort"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/syntax"
)

// A Difference is a URL that two versions of a file decide differently
// for one agent under one profile.
type Difference struct {
	Profile robots.Profile
	// Agent is the product token, or "*" for robots that no group names.
	Agent string
	URL   string
	// Before and After are the verdicts of the first and second file.
	Before, After bool
}

// otherBot is the probe agent that no file names: it reads the "*" groups.
const otherBot = "OtherBot-lint-probe"

// maxProbes bounds the URLs Equivalent tries; beyond it, an even sample of
// the derived URLs is taken, so the cost stays bounded on the largest
// files (a 500 KiB file has some 20,000 rules).
const maxProbes = 1 << 15

// probeOrigin is put before probe paths that start with "//".
const probeOrigin = "http://lint.invalid"

// maxCrossProbes bounds the wildcard-by-rule pairs probeURLs crosses.
const maxCrossProbes = 1 << 17

// equivProfiles are the profiles whose reading the fixer must keep:
// Google's and RFC 9309's.
var equivProfiles = []robots.Profile{robots.Google, robots.RFC9309}

// Equivalent reports whether robots of the google and rfc9309 profiles
// read a and b the same way: the same verdict for every probe agent and
// probe URL. The agents are every product token named in either file and
// one that neither names (it reads the "*" groups); the URLs are derived
// from every Allow and Disallow pattern of either file (the pattern with
// each "*" read as nothing and as a marker segment, then the same followed
// by a marker) plus "/" and "/robots.txt". For prefix rules this is exact:
// a verdict can only change at a pattern's end. It returns the first
// difference found, nil when there is none.
func Equivalent(a, b []byte) *Difference {
	fa, fb := syntax.Parse("", a), syntax.Parse("", b)
	agents := probeAgents(fa, fb)
	urls := probeURLs(fa, fb)
	for _, prof := range equivProfiles {
		ra, rb := robots.Compile(fa, prof), robots.Compile(fb, prof)
		for _, ag := range agents {
			for _, u := range urls {
				x, y := ra.Allowed(ag, u), rb.Allowed(ag, u)
				if x != y {
					if ag == otherBot {
						ag = "*" // the robots without a group of their own
					}
					return &Difference{Profile: prof, Agent: ag, URL: u, Before: x, After: y}
				}
			}
		}
	}
	return nil
}

// probeAgents returns the product tokens of the User-agent lines of both
// files, as Google extracts them, and otherBot.
func probeAgents(files ...*syntax.File) []string {
	seen := map[string]bool{}
	out := []string{otherBot}
	for _, f := range files {
		for i := range f.Lines {
			l := &f.Lines[i]
			if l.Kind != syntax.DirectiveLine || l.Field != syntax.UserAgent {
				continue
			}
			k := agentKey(f.Text(l.Value))
			if k == "" || k == "*" || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// probeURLs returns the probe paths of both files, sorted and without
// duplicates, sampled down to maxProbes.
func probeURLs(files ...*syntax.File) []string {
	set := map[string]bool{"/": true, "/robots.txt": true}
	add := func(s string) {
		if s == "" || s[0] != '/' {
			s = "/" + s
		}
		if strings.HasPrefix(s, "//") {
			// Alone, "//x" is a network-path reference (host x): give
			// the path a host so that it is read as a path.
			s = probeOrigin + s
		}
		set[s] = true
	}
	var values, wild []string
	for _, f := range files {
		for i := range f.Lines {
			l := &f.Lines[i]
			if l.Kind != syntax.DirectiveLine || (l.Field != syntax.Allow && l.Field != syntax.Disallow) {
				continue
			}
			v := f.Text(l.Value)
			v = strings.TrimSuffix(v, "$")
			values = append(values, v)
			if strings.Contains(v, "*") {
				wild = append(wild, v)
			}
			for _, star := range []string{"", "/x-probe"} {
				p := strings.ReplaceAll(v, "*", star)
				add(p)
				add(p + "x")
				add(p + "/x")
				if d, ok := strings.CutSuffix(p, "index.html"); ok {
					add(d)
				} else if d, ok := strings.CutSuffix(p, "index.htm"); ok {
					add(d)
				}
			}
		}
	}
	// Where a wildcard lets one rule reach another's path: each value
	// followed by what a wildcard value has after its first "*"
	// ("/docs" and "/*.pdf" meet at "/docs.pdf", which the probes above
	// miss), while the pairs are few enough.
	if len(wild)*len(values) <= maxCrossProbes {
		for _, w := range wild {
			tail := strings.ReplaceAll(w[strings.IndexByte(w, '*'):], "*", "")
			for _, v := range values {
				add(strings.ReplaceAll(v, "*", "") + tail)
				add(strings.ReplaceAll(v, "*", "") + "/x-probe" + tail)
			}
		}
	}
	urls := make([]string, 0, len(set))
	for u := range set {
		urls = append(urls, u)
	}
	sort.Strings(urls)
	if len(urls) > maxProbes {
		step := float64(len(urls)) / maxProbes
		sample := make([]string, 0, maxProbes)
		for i := 0; i < maxProbes; i++ {
			sample = append(sample, urls[int(float64(i)*step)])
		}
		urls = sample
	}
	return urls
}
