package robots_test

import (
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/internal/pattern"
	"github.com/robotskit/robots/syntax"
)

// refDecide is a slow, obviously-correct matcher kept for tests. It re-reads
// the file for every query, line by line, keeping the best Allow and
// Disallow match for the agent's own groups and for the "*" groups, as RFC
// 9309 §2.2 describes the reading and as google/robotstxt implements it; it
// shares only the line tokenizer and URL path extraction with the package.
// Its pattern matcher tracks the set of path positions each pattern prefix
// can reach, which is exact by construction.
func refDecide(src []byte, p robots.Profile, agent, url string) (allowed bool, line int) {
	google := p == robots.Google
	path := robots.PathOf(url)
	if google {
		if i := strings.IndexByte(path, 0); i >= 0 {
			path = path[:i]
		}
	} else {
		if strings.SplitN(path, "?", 2)[0] == "/robots.txt" {
			return true, 0
		}
		path = string(pattern.AppendRFC(nil, path, pattern.Path))
	}

	type match struct{ prio, line int }
	none := match{-1, 0}
	var (
		allowSpec, disSpec, allowGlob, disGlob = none, none, none, none
		specific, global, separator, everSpec  bool
	)
	better := func(m *match, prio, line int) {
		if prio > m.prio {
			*m = match{prio, line}
		}
	}
	f := syntax.Parse("", src)
	for _, l := range f.Lines {
		if l.Kind != syntax.DirectiveLine {
			continue
		}
		if !google && l.Flags&(syntax.Lenient|syntax.MissingColon) != 0 {
			continue
		}
		val := f.Text(l.Value)
		switch l.Field {
		case syntax.UserAgent:
			if separator {
				specific, global, separator = false, false, false
			}
			if len(val) > 0 && val[0] == '*' && (len(val) == 1 || strings.ContainsRune(" \t\v\f", rune(val[1]))) {
				global = true
				continue
			}
			tok := val
			for i := 0; i < len(val); i++ {
				c := val[i] | 0x20
				if !(c >= 'a' && c <= 'z' || val[i] == '-' || val[i] == '_') {
					tok = val[:i]
					break
				}
			}
			if strings.EqualFold(tok, agent) && isASCIIString(agent) {
				specific, everSpec = true, true
			}
		case syntax.Allow, syntax.Disallow:
			if !specific && !global {
				continue
			}
			separator = true
			var pat string
			if google {
				pat = string(pattern.AppendGoogle(nil, val))
			} else {
				pat = string(pattern.AppendRFC(nil, val, pattern.Rule))
			}
			allow := l.Field == syntax.Allow
			m := &disGlob
			switch {
			case specific && allow:
				m = &allowSpec
			case specific:
				m = &disSpec
			case allow:
				m = &allowGlob
			}
			ln := l.Span.Start.Line
			if refMatch(path, pat) {
				better(m, len(pat), ln)
			} else if allow && google {
				// Google: an Allow of /d/index.htm[l] also allows /d/.
				if i := strings.LastIndexByte(pat, '/'); i >= 0 && strings.HasPrefix(pat[i:], "/index.htm") {
					alt := pat[:i+1] + "$"
					if refMatch(path, alt) {
						better(m, len(alt), ln)
					}
				}
			}
		}
	}
	decide := func(a, d match) (bool, int) {
		ln := a.line
		if d.prio > a.prio {
			ln = d.line
		}
		if a.prio > 0 || d.prio > 0 {
			return d.prio <= a.prio, ln
		}
		return true, ln
	}
	if everSpec {
		return decide(allowSpec, disSpec)
	}
	return decide(allowGlob, disGlob)
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// refMatch matches by keeping every path position that the pattern read so
// far can end at.
func refMatch(path, pat string) bool {
	pos := map[int]bool{0: true}
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		next := map[int]bool{}
		switch {
		case c == '$' && i == len(pat)-1:
			return pos[len(path)]
		case c == '*':
			lo := len(path) + 1
			for p := range pos {
				lo = min(lo, p)
			}
			for p := lo; p <= len(path); p++ {
				next[p] = true
			}
		default:
			for p := range pos {
				if p < len(path) && path[p] == c {
					next[p+1] = true
				}
			}
		}
		if len(next) == 0 {
			return false
		}
		pos = next
	}
	return true
}
