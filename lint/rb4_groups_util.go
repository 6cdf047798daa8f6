package lint

import (
	"github.com/robotskit/robots/internal/spell"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/syntax"
)

// Helpers of the group-structure checks (RB4xx).

// groupsLast returns the index of the last User-agent or member line of
// g: where the group's own lines end.
func groupsLast(g *group) int {
	last := g.agents[len(g.agents)-1]
	if n := len(g.members); n > 0 && g.members[n-1] > last {
		last = g.members[n-1]
	}
	return last
}

// groupsHasBlank reports whether a blank line stands between g's first
// User-agent line and its last own line.
func (p *pass) groupsHasBlank(g *group) bool {
	for i := g.first(); i <= groupsLast(g); i++ {
		if p.lines[i].Kind == syntax.BlankLine {
			return true
		}
	}
	return false
}

// groupsKeys returns the non-empty agent keys of g, sorted and without
// duplicates. The keys of every group are made on the first call, in one
// array shared by the pass.
func (p *pass) groupsKeys(g *group) []string {
	if p.groupKeys == nil {
		n := 0
		for gi := range p.groups {
			n += len(p.groups[gi].agents)
		}
		all := make([]string, 0, n)
		p.groupKeys = make([][]string, len(p.groups))
		for gi := range p.groups {
			start := len(all)
			for _, a := range p.groups[gi].agents {
				if k := p.lines[a].agent; k != "" {
					all = append(all, k)
				}
			}
			ks := all[start:]
			slices.Sort(ks)
			ks = slices.Compact(ks)
			all = all[:start+len(ks)]
			p.groupKeys[gi] = ks[:len(ks):len(ks)]
		}
	}
	return p.groupKeys[g.index]
}

// groupsSameKeys reports whether a and b name the same agent keys.
func groupsSameKeys(a, b []string) bool { return slices.Equal(a, b) }

// groupsAnchor returns the line after which text joins group g: its last
// rule, or its last User-agent line when it has no rule.
func (p *pass) groupsAnchor(g *group) *line {
	if n := len(g.rules); n > 0 {
		return &p.lines[g.rules[n-1]]
	}
	return &p.lines[g.agents[len(g.agents)-1]]
}

// groupsVersioned matches "Name/1.2": a product token, "/" and a version
// with no space, parenthesis or semicolon. It returns the name.
func groupsVersioned(v string) (string, bool) {
	name, ver, ok := strings.Cut(v, "/")
	if !ok || name == "" || ver == "" || ver[0] < '0' || ver[0] > '9' || strings.ContainsAny(ver, " \t(;") {
		return "", false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return "", false
		}
	}
	return name, true
}

// groupsFullUA reports whether a User-agent value carries a version or a
// whole user-agent string (RB412): "(", ";" or "/" and a
// digit.
func groupsFullUA(v string) bool {
	if strings.ContainsAny(v, "(;") {
		return true
	}
	for i := 0; i+1 < len(v); i++ {
		if v[i] == '/' && v[i+1] >= '0' && v[i+1] <= '9' {
			return true
		}
	}
	return false
}

// groupsRFCToken reports whether s is an RFC 9309 product token:
// letters, '-' and '_'.
func groupsRFCToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	return s != ""
}

// groupsAgentNote says which of RB410, RB412 and RB413 fires for a
// User-agent line (at most one; RB313 silences all three): 410, 412, 413
// or 0.
func (p *pass) groupsAgentNote(l *line) int {
	v := l.value
	if v == "" || v == "*" {
		return 0
	}
	if off, _ := p.syntaxSecond(l); off >= 0 {
		return 0
	}
	switch {
	case strings.Contains(v, "*"):
		return 410
	case groupsFullUA(v):
		return 412
	case !strings.ContainsAny(v, " \t") && !groupsRFCToken(v):
		return 413
	}
	return 0
}

// groupsTokenNames maps each known crawler token, lower-cased, to the
// spelling its operator uses.
var groupsTokenNames = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range agents.All() {
		m[strings.ToLower(r.Token)] = r.Token
	}
	for _, t := range specTokens {
		m[strings.ToLower(t)] = t
	}
	return m
})

// groupsKnownIn returns the first word of a full user-agent string that
// is a known crawler token, in its operator's spelling, or "".
func groupsKnownIn(v string) string {
	words := strings.FieldsFunc(v, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	})
	for _, w := range words {
		if name, ok := groupsTokenNames()[strings.ToLower(w)]; ok {
			return name
		}
	}
	return ""
}

// groupsPartOfKnown reports whether k, of three letters or more, is part
// of a known token's name without being one (the case RB705 reports).
func groupsPartOfKnown(k string) bool {
	if len(k) < 3 {
		return false
	}
	for _, t := range knownTokens() {
		if t != k && strings.Contains(t, k) {
			return true
		}
	}
	return false
}

// groupsNearest returns the known token of at least six letters nearest
// to k by Damerau-Levenshtein distance, when that distance is at most 2;
// ties go to the first in sorted order. Distance 2 counts only for tokens
// of nine letters or more: most tokens end in "bot", and two edits in the
// few letters before it turn one real robot into another ("NPBot" is not
// a misspelt "GPTBot", nor "Zealbot" a misspelt "PetalBot").
//
// The answer depends only on k and the registry, and the same unknown
// names recur from file to file: answers are kept for the process, up to
// groupsNearestKept names.
func groupsNearest(k string) string {
	if v, ok := groupsNearestMemo.Load(k); ok {
		return v.(string)
	}
	v := groupsNearestOf(k)
	if groupsNearestN.Add(1) <= groupsNearestKept {
		groupsNearestMemo.Store(strings.Clone(k), v)
	}
	return v
}

// groupsNearestKept bounds the names groupsNearest remembers.
const groupsNearestKept = 1 << 14

var (
	groupsNearestMemo sync.Map // agent key → groupsNearestOf(key)
	groupsNearestN    atomic.Int64
)

// groupsNearestOf is groupsNearest without the memory.
func groupsNearestOf(k string) string {
	best, bestDist := "", 3
	for _, t := range knownTokens() {
		if len(t) < 6 {
			continue
		}
		limit := min(bestDist, 2)
		if len(t) >= 9 {
			limit = min(bestDist, 3)
		}
		if d := spell.Distance(k, t, limit); d < limit {
			best, bestDist = t, d
		}
	}
	if best == "" {
		return ""
	}
	return groupsTokenNames()[best]
}

// groupsBlock returns the text of lines first..last, each with its own
// terminator, the last one with eol when it has none.
func (p *pass) groupsBlock(first, last int, eol string) string {
	var b strings.Builder
	for i := first; i <= last; i++ {
		l := &p.lines[i]
		b.WriteString(p.syntaxLineText(l))
		if l.EOL == 0 {
			b.WriteString(eol)
		} else {
			b.WriteString(p.src[l.Span.End.Offset : l.Span.End.Offset+l.EOL])
		}
	}
	return b.String()
}
