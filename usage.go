package robots

import (
	"strings"

	"github.com/robotskit/robots/internal/aipref"
	"github.com/robotskit/robots/internal/pattern"
	"github.com/robotskit/robots/syntax"
)

// Purpose is a use a robot may make of what it fetched: Search, AIInput
// (retrieval, grounding, answers) or AITrain. The names are those of
// Cloudflare's Content Signals ("search", "ai-input", "ai-train"), to
// which the labels of the IETF AIPREF vocabulary map (UsageVocabulary).
type Purpose = aipref.Purpose

// The purposes.
const (
	Search  = aipref.Search
	AIInput = aipref.AIInput
	AITrain = aipref.AITrain
	// NumPurposes counts them.
	NumPurposes = aipref.NumPurposes
)

// Preference is what a statement says of a purpose: Yes, No, or None (no
// preference stated).
type Preference = aipref.Value

// The preferences.
const (
	NoPreference = aipref.None
	Yes          = aipref.Yes
	No           = aipref.No
)

// UsageVocabulary names the IETF AIPREF vocabulary draft whose labels
// Content-Usage values are read with: train-ai is AITrain, ai-use is
// AIInput, search is Search; labels of earlier revisions are kept as
// unknown (§6.4: unknown labels are ignored).
const UsageVocabulary = aipref.Vocabulary

// A UsageStatement is one line of the file that states preferences for a
// robot and a path: a Content-Usage rule (draft-ietf-aipref-attach-05 §3)
// or a Content-Signal line (contentsignals.org).
type UsageStatement struct {
	// Field is syntax.ContentUsage or syntax.ContentSignal.
	Field syntax.Field
	// Line is the line's 1-based number.
	Line int
	// Path is a Content-Usage rule's path pattern, "" when it has none
	// (it then applies to every path); "" for Content-Signal.
	Path string
	// Value is the preferences as written: an AIPREF dictionary such as
	// "train-ai=n", or Content Signals such as "search=yes, ai-train=no".
	Value string
	// Prefs is what Value states, purpose by purpose.
	Prefs [NumPurposes]Preference
}

// A UsageVerdict is the preference that holds for one purpose, and the
// line it comes from (0 when none does).
type UsageVerdict struct {
	Value Preference
	// Field is the kind of line that decided: syntax.ContentUsage or
	// syntax.ContentSignal; syntax.Unknown when none did.
	Field syntax.Field
	Line  int
}

// Usage is what the file says a robot may do with what it fetches from a
// URL, purpose by purpose, beside whether it may fetch it.
type Usage struct {
	// Crawl is the crawl verdict. Usage preferences apply only to what
	// may be crawled: for a disallowed URL there is none
	// (draft-ietf-aipref-attach-05 §3.1), and every purpose is
	// NoPreference.
	Crawl Decision
	// Purposes holds a verdict for each purpose, indexed by Purpose.
	Purposes [NumPurposes]UsageVerdict
}

// UsageStatements returns the Content-Usage rules and Content-Signal lines
// of the groups that apply to a, in file order.
func (r *Rules) UsageStatements(a Agent) []UsageStatement {
	g, ok := r.Group(a)
	if !ok {
		return nil
	}
	var out []UsageStatement
	for _, e := range g.Extensions {
		switch e.Field {
		case syntax.ContentUsage:
			path, value := splitUsage(e.Value)
			u := aipref.ParseUsage(value)
			out = append(out, UsageStatement{Field: e.Field, Line: e.Line, Path: path, Value: value, Prefs: u.Prefs})
		case syntax.ContentSignal:
			s := aipref.ParseSignal(e.Value)
			out = append(out, UsageStatement{Field: e.Field, Line: e.Line, Value: e.Value, Prefs: s.Prefs})
		}
	}
	return out
}

// splitUsage splits a Content-Usage value into its path and its
// preferences: a value that starts with '/' has a path up to the first
// space or tab; any other value has none (draft-ietf-aipref-attach-05
// §3.2).
func splitUsage(v string) (path, prefs string) {
	if !strings.HasPrefix(v, "/") {
		return "", v
	}
	i := strings.IndexAny(v, " \t")
	if i < 0 {
		return v, ""
	}
	return v[:i], strings.TrimLeft(v[i:], " \t")
}

// Usage returns what the file says robot a may do with the URL, purpose
// by purpose. Preferences hold only where a may crawl. Of the group's
// Content-Usage rules, those with the longest path pattern that matches
// decide, a rule without a path matching every path with length 0, as
// Allow and Disallow match (draft-ietf-aipref-attach-05 §3.1, RFC 9309
// §2.2.2 and §2.2.3); rules of the same length combine. The group's
// Content-Signal lines apply to every path. Every statement that applies
// combines with the others: a No for a purpose wins over a Yes, a Yes
// over no preference (draft-ietf-aipref-vocab-08 §5.1), and the verdict
// names the first line that says what holds.
func (r *Rules) Usage(a Agent, url string) Usage {
	u := Usage{Crawl: r.Decide(a, url)}
	if !u.Crawl.Allowed {
		return u
	}
	st := r.UsageStatements(a)
	if len(st) == 0 {
		return u
	}
	path := string(pattern.AppendRFC(nil, PathOf(url), pattern.Path))
	best := -1
	for i := range st {
		if s := &st[i]; s.Field == syntax.ContentUsage && usageMatch(path, s.Path) {
			best = max(best, len(s.Path))
		}
	}
	for i := range st {
		s := &st[i]
		if s.Field == syntax.ContentUsage && (len(s.Path) != best || !usageMatch(path, s.Path)) {
			continue
		}
		for p := range NumPurposes {
			v := &u.Purposes[p]
			if s.Prefs[p] > v.Value { // No > Yes > NoPreference
				*v = UsageVerdict{Value: s.Prefs[p], Field: s.Field, Line: s.Line}
			}
		}
	}
	return u
}

// usageMatch reports whether a Content-Usage path pattern matches a URL
// path in RFC 9309's canonical form; an empty pattern matches every path.
func usageMatch(path, pat string) bool {
	if pat == "" {
		return true
	}
	return pattern.Match(path, string(pattern.AppendRFC(nil, pat, pattern.Rule)))
}

// Licenses returns the values of the file's License lines, in file
// order: URLs of the licences of the site's content (RSL 1.0,
// rslstandard.org, which lets a file name several).
func (r *Rules) Licenses() []string {
	var out []string
	for _, e := range r.Extensions() {
		if e.Field == syntax.License {
			out = append(out, e.Value)
		}
	}
	return out
}
