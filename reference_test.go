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
//
// Under yandex a blank line ends the group, so the rules after it are in
// no group. The record profiles (draft1996, strict1994) have their own
// reference, refDecideRecords.
func refDecide(src []byte, p robots.Profile, agent, url string) (allowed bool, line int) {
	if p == robots.Draft1996 || p == robots.Strict1994 {
		return refDecideRecords(src, p, agent, url)
	}
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
		if l.Kind == syntax.BlankLine && p == robots.Yandex {
			specific, global, separator = false, false, false
		}
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
			ln := int(l.Span.Start.Line)
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

// refDecideRecords is the reference for the record profiles, read from the
// 1994 standard and the 1996 draft: records are runs of User-agent lines
// then rule lines, ended by a blank line or by a User-agent line after a
// rule; a record without rule lines does not count; the robot obeys the
// first record with a User-agent value that contains its name (draft1996)
// or, up to '/', is inside its name (strict1994), ignoring case, else the
// first "*" record; the first rule in file order
// that is a prefix of the path decides. Wildcards are octets. strict1994
// ignores Allow lines and empty Disallow values and compares octets as
// written; draft1996 normalises both sides as RFC 9309 does a path.
func refDecideRecords(src []byte, p robots.Profile, agent, url string) (allowed bool, line int) {
	strict := p == robots.Strict1994
	path := robots.PathOf(url)
	if strings.SplitN(path, "?", 2)[0] == "/robots.txt" {
		return true, 0
	}
	norm := func(s string) string {
		if strict {
			return s
		}
		return string(pattern.AppendRFC(nil, s, pattern.Path))
	}
	path = norm(path)
	type rule struct {
		allow bool
		pat   string
		line  int
	}
	type record struct {
		agents []string
		rules  []rule
		lines  int
	}
	var recs []*record
	var cur *record
	f := syntax.Parse("", src)
	for _, l := range f.Lines {
		if l.Kind == syntax.BlankLine {
			cur = nil
		}
		if l.Kind != syntax.DirectiveLine || l.Flags&(syntax.Lenient|syntax.MissingColon) != 0 {
			continue
		}
		val := f.Text(l.Value)
		switch {
		case l.Field == syntax.UserAgent:
			if cur == nil || cur.lines > 0 {
				cur = &record{}
				recs = append(recs, cur)
			}
			cur.agents = append(cur.agents, val)
		case l.Field == syntax.Disallow || l.Field == syntax.Allow && !strict:
			if cur == nil {
				continue
			}
			cur.lines++
			if strict && val == "" {
				continue
			}
			cur.rules = append(cur.rules, rule{l.Field == syntax.Allow, norm(val), int(l.Span.Start.Line)})
		}
	}
	var pick, star *record
	for _, rec := range recs {
		if rec.lines == 0 {
			continue
		}
		for _, a := range rec.agents {
			if a == "*" {
				if star == nil {
					star = rec
				}
				continue
			}
			if pick != nil {
				continue
			}
			if !strict {
				// 1996 draft §3.2.1: the value contains the robot's name.
				if agent != "" && strings.Contains(asciiLower(a), asciiLower(agent)) {
					pick = rec
				}
				continue
			}
			name, _, _ := strings.Cut(a, "/")
			name = strings.TrimRight(name, " \t")
			if name != "" && strings.Contains(asciiLower(agent), asciiLower(name)) {
				pick = rec
			}
		}
	}
	if pick == nil {
		pick = star
	}
	if pick == nil {
		return true, 0
	}
	for _, r := range pick.rules {
		if strings.HasPrefix(path, r.pat) {
			return r.allow || r.pat == "", r.line
		}
	}
	return true, 0
}

func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
