package groups

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/robotskit/robots/internal/spell"
	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/lint/internal/tokens"
)

// How the group checks read User-agent values (RB410, RB412–RB414).

// versioned matches "Name/1.2": a product token, "/" and a version
// with no space, parenthesis or semicolon. It returns the name.
func versioned(v string) (string, bool) {
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

// fullUA reports whether a User-agent value carries a version or a
// whole user-agent string (RB412): "(", ";" or "/" and a
// digit.
func fullUA(v string) bool {
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

// rfcToken reports whether s is an RFC 9309 product token:
// letters, '-' and '_'.
func rfcToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '_') {
			return false
		}
	}
	return s != ""
}

// agentNote says which of RB410, RB412 and RB413 fires for a
// User-agent line (at most one; RB313 silences all three): 410, 412, 413
// or 0.
func agentNote(p *check.Pass, l *check.Line) int {
	v := l.ValueText
	if v == "" || v == "*" {
		return 0
	}
	if off, _ := p.SecondKey(l); off >= 0 {
		return 0
	}
	switch {
	case strings.Contains(v, "*"):
		return 410
	case fullUA(v):
		return 412
	case !strings.ContainsAny(v, " \t") && !rfcToken(v):
		return 413
	}
	return 0
}

// knownIn returns the first word of a full user-agent string that
// is a known crawler token, in its operator's spelling, or "".
func knownIn(v string) string {
	words := strings.FieldsFunc(v, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_')
	})
	for _, w := range words {
		if name, ok := tokens.Spelling(strings.ToLower(w)); ok {
			return name
		}
	}
	return ""
}

// The units of work (check.Pass.Spend) of comparing an agent name with
// one known token: by substring (partOfKnown), by distance (nearest).
const (
	containUnits  = 8
	distanceUnits = 24
)

// partOfKnown reports whether k, of three letters or more, is part
// of a known token's name without being one (the case RB705 reports).
func partOfKnown(k string) bool {
	if len(k) < 3 {
		return false
	}
	for _, t := range tokens.Known() {
		if t != k && strings.Contains(t, k) {
			return true
		}
	}
	return false
}

// nearest returns the known token of at least six letters nearest
// to k by Damerau-Levenshtein distance, when that distance is at most 2;
// ties go to the first in sorted order. Distance 2 counts only for tokens
// of nine letters or more: most tokens end in "bot", and two edits in the
// few letters before it turn one real robot into another ("NPBot" is not
// a misspelt "GPTBot", nor "Zealbot" a misspelt "PetalBot").
//
// The answer depends only on k and the registry, and the same unknown
// names recur from file to file: answers are kept for the process, up to
// nearestKept names.
func nearest(k string) string {
	if v, ok := nearestMemo.Load(k); ok {
		return v.(string)
	}
	v := nearestOf(k)
	if nearestN.Add(1) <= nearestKept {
		nearestMemo.Store(strings.Clone(k), v)
	}
	return v
}

// nearestKept bounds the names nearest remembers.
const nearestKept = 1 << 14

var (
	nearestMemo sync.Map // agent key → nearestOf(key)
	nearestN    atomic.Int64
)

// nearestOf is nearest without the memory.
func nearestOf(k string) string {
	best, bestDist := "", 3
	for _, t := range tokens.Known() {
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
	name, _ := tokens.Spelling(best)
	return name
}
