// Package probe derives, from the rules of robots.txt files, the paths
// whose verdicts can tell two readings apart: each Allow and Disallow
// value with its wildcards read as nothing and as one letter, followed by
// nothing, one more letter or a further segment, and where a wildcard lets
// one rule reach another's path. The checker's proofs and robots diff
// probe with these paths; they are evidence, shown to users only on
// request, so they read as paths a site could have ("/shop/x", "/x.pdf"):
// no marker text, and no "//" that the rules did not write.
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

// Origin is put before probe paths that start with "//" (from a rule
// that starts so), which alone would read as a network-path reference;
// Shown takes it off again.
const Origin = "http://robots.invalid"

// Shown returns the path a probe stands for: u without Origin.
func Shown(u string) string {
	if p, ok := strings.CutPrefix(u, Origin); ok && strings.HasPrefix(p, "/") {
		return p
	}
	return u
}

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
	// followed by what a wildcard value has after its first "*", directly
	// and one segment down ("/docs" and "/*.pdf" meet at "/docs.pdf" and
	// "/docs/x.pdf", which the probes above miss), while the pairs are
	// few enough.
	if len(wild)*len(values) <= maxCross {
		n := 0
		for _, w := range wild {
			tail := fill(&a, w[strings.IndexByte(w, '*'):], "")
			for _, v := range values {
				if n++; n%poll == 0 {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
				}
				lit := fill(&a, v, "")
				add(a.Concat(lit, tail))
				if strings.HasSuffix(lit, "/") {
					add(a.Concat3(lit, "x", tail))
				} else {
					add(a.Concat3(lit, "/x", tail))
				}
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

// Value adds the probes of the pattern v (its final "$" removed): v with
// each "*" read as nothing and as the letter "x", each followed by
// nothing, by "x" and by "/x" (by "x" alone after a '/'), and the
// directory of an index page. A "*" between two '/' is read as "x" even
// where it is read as nothing, so that no probe holds a "//" its rule
// did not.
// The paths are built in a, which may be nil.
func Value(add func(string), a *arena.Arena, v string) {
	for _, star := range [...]string{"", "x"} {
		p := fill(a, v, star)
		add(p)
		add(a.Concat(p, "x"))
		if !strings.HasSuffix(p, "/") {
			add(a.Concat(p, "/x"))
		}
		if d, ok := strings.CutSuffix(p, "index.html"); ok {
			add(d)
		} else if d, ok := strings.CutSuffix(p, "index.htm"); ok {
			add(d)
		}
		if !strings.Contains(v, "*") {
			return // both readings are the same
		}
	}
}

// Plain returns the path a pattern plainly stands for: its final "$"
// removed, its "*" read as nothing (as "x" between two '/'), with a
// leading '/' when it has none, and Origin before a path that starts with
// "//". It is the first of the probes of Value.
func Plain(v string) string {
	p := fill(nil, strings.TrimSuffix(v, "$"), "")
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	if strings.HasPrefix(p, "//") {
		p = Origin + p
	}
	return p
}

// fill returns v with each "*" replaced by star, or by "x" where star is
// empty and the "*" stands alone between two '/' (or at the start,
// before one), so that the reading makes no "//" of its own.
func fill(a *arena.Arena, v, star string) string {
	if !strings.Contains(v, "*") {
		return v
	}
	if star == "" && !strings.Contains(v, "*/") {
		return a.ReplaceStars(v, "", "")
	}
	b := make([]byte, 0, len(v)+8)
	for i := 0; i < len(v); i++ {
		if v[i] != '*' {
			b = append(b, v[i])
			continue
		}
		s := star
		if s == "" {
			// The run of '*' it starts, and what is around the run.
			j := i
			for j < len(v) && v[j] == '*' {
				j++
			}
			if (len(b) == 0 || b[len(b)-1] == '/') && j < len(v) && v[j] == '/' {
				s = "x"
			}
			i = j - 1
		}
		b = append(b, s...)
	}
	return string(b)
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
