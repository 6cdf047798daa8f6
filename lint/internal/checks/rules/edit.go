package rules

import "github.com/robotskit/robots/lint/internal/check"

// drop is the edit that removes rule line l. A comment on the line is
// kept on its own. When l is the only rule of a group that another group
// follows, removing it would join the two groups' agents (a User-agent
// line after a rule starts a new group), so it becomes "Disallow:"
// instead, which allows everything for every robot.
func drop(p *check.Pass, l *check.Line) check.Edit {
	if !l.Orphan && l.Group >= 0 && l.Group < len(p.Groups)-1 && len(p.Groups[l.Group].Rules) == 1 {
		if l.Comment.IsValid() {
			return check.ReplaceLine(l, "Disallow: "+p.Src[l.Comment.Start.Offset:l.Comment.End.Offset])
		}
		return check.ReplaceLine(l, "Disallow:")
	}
	if l.Comment.IsValid() {
		return check.ReplaceLine(l, p.Src[l.Comment.Start.Offset:l.Comment.End.Offset])
	}
	return p.DeleteLine(l)
}

// valueEdit is the edit that replaces line l's value with v.
func valueEdit(l *check.Line, v string) check.Edit {
	return check.Edit{Start: l.Value.Start.Offset, End: l.Value.End.Offset, New: v}
}

// hasUpper reports whether v has an ASCII upper-case letter.
func hasUpper(v string) bool {
	for i := 0; i < len(v); i++ {
		if 'A' <= v[i] && v[i] <= 'Z' {
			return true
		}
	}
	return false
}

// foldHash is the 64-bit FNV-1a hash of v in ASCII lower case: equal for
// values that differ only in the case of ASCII letters.
func foldHash(v string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(v); i++ {
		c := v[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}
