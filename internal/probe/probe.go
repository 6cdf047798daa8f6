// Package probe derives, from the rules of robots.txt files, the paths
// whose verdicts can tell two readings apart: each Allow and Disallow
// value with its wildcards read as nothing and as a segment, followed by
// nothing, one more octet or a further segment, and where a wildcard lets
// one rule reach another's path. The checker's proofs, robots diff and
// robots compare all probe with these paths.
package probe

import (
	"context"
	"sort"
	"strings"

	"github.com/robotskit/robots/internal/arena"
	"github.com/robotskit/robots/syntax"
)

// Max bounds the paths Paths returns; beyond it, an even sample of the
// sorted paths is taken, so the cost of trying them stays bounded on the
// largest files (a 500 KiB file has some 20,000 rules).
const Max = 1 << 15

// maxCross bounds the wildcard-by-rule pairs Paths crosses.
const maxCross = 1 << 17

// Origin is put before probe paths that start with "//", which alone
// would read as a network-path reference.
const Origin = "http://lint.invalid"

// poll is how many steps pass between looks at the context.
const poll = 256

// Paths returns the probe paths of the files, sorted and without
// duplicates, sampled down to Max. It stops when ctx ends, with its
// error: the crossings of long wildcard values cost far more than the
// files' size.
func Paths(ctx context.Context, files ...*syntax.File) ([]string, error) {
	set := map[string]bool{"/": true, "/robots.txt": true}
	var a arena.Arena
	add := Adder(set, &a)
	var values, wild []string
	for _, f := range files {
		for i := range f.Lines {
			if i%poll == poll-1 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			l := &f.Lines[i]
			if l.Kind != syntax.DirectiveLine || (l.Field != syntax.Allow && l.Field != syntax.Disallow) {
				continue
			}
			v := strings.TrimSuffix(f.Text(l.Value), "$")
			values = append(values, v)
			if strings.Contains(v, "*") {
				wild = append(wild, v)
			}
			Value(add, &a, v)
		}
	}
	// Where a wildcard lets one rule reach another's path: each value
	// followed by what a wildcard value has after its first "*"
	// ("/docs" and "/*.pdf" meet at "/docs.pdf", which the probes above
	// miss), while the pairs are few enough.
	if len(wild)*len(values) <= maxCross {
		n := 0
		for _, w := range wild {
			tail := a.ReplaceStars(w[strings.IndexByte(w, '*'):], "", "")
			for _, v := range values {
				if n++; n%poll == 0 {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
				}
				lit := a.ReplaceStars(v, "", "")
				add(a.Concat(lit, tail))
				add(a.Concat3(lit, "/x-probe", tail))
			}
		}
	}
	return Sample(set), nil
}

// Adder returns the function that adds a probe path to set: with a
// leading "/", and a host before a path that starts with "//".
// The paths are built in a, which may be nil.
func Adder(set map[string]bool, a *arena.Arena) func(string) {
	return func(s string) {
		if s == "" || s[0] != '/' {
			s = a.Concat("/", s)
		}
		if strings.HasPrefix(s, "//") {
			// Alone, "//x" is a network-path reference (host x): give
			// the path a host so that it is read as a path.
			s = a.Concat(Origin, s)
		}
		set[s] = true
	}
}

// Value adds the probes of the pattern v (its final "$" removed):
// v with each "*" read as nothing and as a marker segment, each followed
// by nothing, by one more octet and by "/x", and the directory of an
// index page.
// The paths are built in a, which may be nil.
func Value(add func(string), a *arena.Arena, v string) {
	for _, star := range []string{"", "/x-probe"} {
		p := a.ReplaceStars(v, star, "")
		add(p)
		add(a.Concat(p, "x"))
		add(a.Concat(p, "/x"))
		if d, ok := strings.CutSuffix(p, "index.html"); ok {
			add(d)
		} else if d, ok := strings.CutSuffix(p, "index.htm"); ok {
			add(d)
		}
	}
}

// Sample returns the paths of set, sorted, sampled evenly down to
// Max.
func Sample(set map[string]bool) []string {
	urls := make([]string, 0, len(set))
	for u := range set {
		urls = append(urls, u)
	}
	sort.Strings(urls)
	if len(urls) > Max {
		step := float64(len(urls)) / Max
		sample := make([]string, 0, Max)
		for i := 0; i < Max; i++ {
			sample = append(sample, urls[int(float64(i)*step)])
		}
		urls = sample
	}
	return urls
}

// Changed returns the probes, not in have, of the rules where a and
// b differ: every Allow and Disallow line that one of them has more often
// than the other, and every rule of a group (a run of User-agent lines and
// the lines up to the next such run) in which a User-agent line differs.
// The sample of Paths may leave out the probes of a rule a fix moved;
// these are the ones that can show it. At most Max, sampled evenly.
func Changed(a, b *syntax.File, have []string) []string {
	if len(have) < Max {
		return nil // Paths took every probe
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
	var ar arena.Arena
	add := Adder(set, &ar)
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
				Value(add, &ar, strings.TrimSuffix(e.value, "$"))
			}
		}
	}
	for _, u := range have {
		delete(set, u)
	}
	return Sample(set)
}
