package lint

import (
	"context"
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
// probe URL. Each text is read as those robots read it: its first 500 KiB,
// cut as robots.Read cuts (Google reads no further, and RFC 9309 section
// 2.5 lets robots stop there), each line up to syntax.MaxLineLen bytes
// (Google's parser ignores the rest of a longer line). The agents are
// every product token named in either part read and one that neither
// names (it reads the "*" groups); the URLs are derived from every Allow
// and Disallow pattern of either part (the pattern with each "*" read as
// nothing and as a marker segment, then the same followed by a marker)
// plus "/" and "/robots.txt". For prefix rules this is exact: a verdict
// can only change at a pattern's end. When the patterns give more than
// maxProbes URLs, an even sample of them is tried, and all those of the
// rules that differ between the two texts and of the groups whose
// User-agent lines differ. It returns the first difference found, nil
// when there is none.
func Equivalent(a, b []byte) *Difference {
	d, _ := EquivalentContext(context.Background(), a, b)
	return d
}

// equivPoll is how many probes Equivalent and Diff decide between two
// looks at their context.
const equivPoll = 256

// EquivalentContext is Equivalent that stops when ctx ends: it looks at
// ctx before each step and every equivPoll probes, and returns ctx's error
// (and no difference) when it ended.
func EquivalentContext(ctx context.Context, a, b []byte) (*Difference, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	fa, fb := syntax.Parse("", readPart(a)), syntax.Parse("", readPart(b))
	agents := probeAgents(fa, fb)
	urls, err := probeURLsContext(ctx, fa, fb)
	if err != nil {
		return nil, err
	}
	urls = append(urls, changedProbes(fa, fb, urls)...)
	n := 0
	for _, prof := range equivProfiles {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ra, rb := robots.Compile(fa, prof), robots.Compile(fb, prof)
		for _, ag := range agents {
			for _, u := range urls {
				if n++; n%equivPoll == 0 {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
				}
				x, y := ra.Allowed(ag, u), rb.Allowed(ag, u)
				if x != y {
					if ag == otherBot {
						ag = "*" // the robots without a group of their own
					}
					return &Difference{Profile: prof, Agent: ag, URL: u, Before: x, After: y}, nil
				}
			}
		}
	}
	return nil, nil
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
	urls, _ := probeURLsContext(context.Background(), files...)
	return urls
}

// probeURLsContext is probeURLs that stops when ctx ends, with its
// error: the crossings of long wildcard values cost far more than the
// files' size.
func probeURLsContext(ctx context.Context, files ...*syntax.File) ([]string, error) {
	set := map[string]bool{"/": true, "/robots.txt": true}
	add := probeAdder(set)
	var values, wild []string
	for _, f := range files {
		for i := range f.Lines {
			l := &f.Lines[i]
			if l.Kind != syntax.DirectiveLine || (l.Field != syntax.Allow && l.Field != syntax.Disallow) {
				continue
			}
			v := strings.TrimSuffix(f.Text(l.Value), "$")
			values = append(values, v)
			if strings.Contains(v, "*") {
				wild = append(wild, v)
			}
			probeValue(add, v)
		}
	}
	// Where a wildcard lets one rule reach another's path: each value
	// followed by what a wildcard value has after its first "*"
	// ("/docs" and "/*.pdf" meet at "/docs.pdf", which the probes above
	// miss), while the pairs are few enough.
	if len(wild)*len(values) <= maxCrossProbes {
		n := 0
		for _, w := range wild {
			tail := strings.ReplaceAll(w[strings.IndexByte(w, '*'):], "*", "")
			for _, v := range values {
				if n++; n%equivPoll == 0 {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
				}
				add(strings.ReplaceAll(v, "*", "") + tail)
				add(strings.ReplaceAll(v, "*", "") + "/x-probe" + tail)
			}
		}
	}
	return probeSample(set), nil
}

// probeAdder returns the function that adds a probe path to set: with a
// leading "/", and a host before a path that starts with "//".
func probeAdder(set map[string]bool) func(string) {
	return func(s string) {
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
}

// probeValue adds the probes of the pattern v (its final "$" removed):
// v with each "*" read as nothing and as a marker segment, each followed
// by nothing, by one more octet and by "/x", and the directory of an
// index page.
func probeValue(add func(string), v string) {
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

// probeSample returns the paths of set, sorted, sampled evenly down to
// maxProbes.
func probeSample(set map[string]bool) []string {
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

// changedProbes returns the probes, not in have, of the rules where a and
// b differ: every Allow and Disallow line that one of them has more often
// than the other, and every rule of a group (a run of User-agent lines and
// the lines up to the next such run) in which a User-agent line differs.
// The sample of probeURLs may leave out the probes of a rule a fix moved;
// these are the ones that can show it. At most maxProbes, sampled evenly.
func changedProbes(a, b *syntax.File, have []string) []string {
	if len(have) < maxProbes {
		return nil // probeURLs took every probe
	}
	type entry struct {
		field syntax.Field
		value string
		group int
	}
	read := func(f *syntax.File) []entry {
		var out []entry
		group, inAgents := 0, false
		for i := range f.Lines {
			l := &f.Lines[i]
			if l.Kind != syntax.DirectiveLine {
				continue
			}
			switch l.Field {
			case syntax.UserAgent:
				if !inAgents {
					group++
				}
				inAgents = true
			case syntax.Allow, syntax.Disallow:
				inAgents = false
			default:
				inAgents = false
				continue
			}
			out = append(out, entry{l.Field, f.Text(l.Value), group})
		}
		return out
	}
	ea, eb := read(a), read(b)
	type lineKey struct {
		field syntax.Field
		value string
	}
	count := map[lineKey]int{}
	key := func(e *entry) lineKey { return lineKey{e.field, e.value} }
	for i := range ea {
		count[key(&ea[i])]++
	}
	for i := range eb {
		count[key(&eb[i])]--
	}
	set := map[string]bool{}
	add := probeAdder(set)
	for _, es := range [][]entry{ea, eb} {
		touched := map[int]bool{}
		for i := range es {
			if e := &es[i]; e.field == syntax.UserAgent && count[key(e)] != 0 {
				touched[e.group] = true
			}
		}
		for i := range es {
			e := &es[i]
			if e.field != syntax.UserAgent && (count[key(e)] != 0 || touched[e.group]) {
				probeValue(add, strings.TrimSuffix(e.value, "$"))
			}
		}
	}
	for _, u := range have {
		delete(set, u)
	}
	return probeSample(set)
}
