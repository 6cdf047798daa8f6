package aipref

import (
	"strconv"
	"strings"
)

// Usage is a parsed AIPREF usage-preference value: the value of a
// Content-Usage header field (draft-ietf-aipref-attach-05 §2) or the
// preference of a Content-Usage rule of robots.txt (§3.2, after its
// path). The zero value is the empty statement: every preference unknown.
type Usage struct {
	// Prefs are the preferences the value states (vocab-08 §6.5).
	Prefs Prefs
	// Stated reports, by purpose, that the Dictionary has the label, with
	// a usable value or not: a Stated purpose whose preference is None
	// has a Problem saying why.
	Stated [NumPurposes]bool
	// Unknown are the keys that are not labels of vocab-08, as written,
	// each once, in the order they first appear. Processing ignores them
	// (§6.4); those that look like a mistake also have a Problem.
	Unknown []string
	// Problems are what a publisher probably did not mean, in the order
	// of their offsets.
	Problems []Problem
	// Valid reports that the value parsed as an RFC 9651 Dictionary
	// (§4.2.2). When it did not, every preference is unknown (vocab-08
	// §6.5.1) and Problems says where parsing failed.
	Valid bool
}

// ParseUsage reads v as draft-ietf-aipref-vocab-08 §6.5 processes a
// usage-preference value: it parses v as an RFC 9651 Dictionary (§4.2.2)
// and, for each label of -08, the Token y is Yes and the Token n is No.
// Anything else leaves the preference None and is no error for §6.5:
//
//   - a value that fails to parse as a Dictionary leaves every preference
//     None (§6.5.1), keys with an upper-case letter included ("this format
//     is case sensitive");
//   - of a label given twice, only the last value counts (§6.5.1): in
//     "train-ai=y, train-ai, search=n, search=\"n\"" every preference is
//     None;
//   - a value that is not the Token y or n is None (§6.5): the Token no,
//     the String "n", the Boolean ?0, and a label alone ("train-ai"),
//     which is the Boolean true (RFC 9651 §3.2);
//   - parameters are ignored (§6.5.2), and unknown labels too (§6.4).
//
// ParseUsage reports each of those as a Problem, and an unknown label when
// it looks like a mistake: a label of an earlier revision (train-genai,
// bots), a Content Signals name (ai-train), a misspelling of a label of -08
// (train-al), or a label written as a parameter ("train-ai=n;search=y").
// Other unknown labels may be extensions (§4.4) and are only listed.
func ParseUsage(v string) Usage {
	members, perr := parseDictionary(v)
	if perr != nil {
		return Usage{Problems: []Problem{{Offset: perr.off, Key: perr.key, Suggest: perr.suggest,
			Msg: perr.msg + "; every preference is unknown (" + Vocabulary + " §6.5.1)"}}}
	}
	u := Usage{Valid: true}
	last := make(map[string]int, len(members))
	for i, m := range members {
		last[m.key] = i
	}
	seen := make(map[string]bool)
	for i, m := range members {
		p, current := currentLabel(m.key)
		counts := last[m.key] == i
		switch {
		case current && !counts:
			u.Problems = append(u.Problems, Problem{Offset: m.off, Key: m.key, Value: m.val.raw,
				Msg: m.key + " is given again later in the value, and only the last one counts (" + Vocabulary + " §6.5.1): this one is ignored"})
		case current:
			u.Stated[p] = true
			var prob *Problem
			u.Prefs[p], prob = valueOf(m)
			if prob != nil {
				u.Problems = append(u.Problems, *prob)
			}
		case !seen[m.key]:
			seen[m.key] = true
			u.Unknown = append(u.Unknown, m.key)
			if prob, ok := unknownLabel(m); ok {
				u.Problems = append(u.Problems, prob)
			}
		}
		if counts {
			u.Problems = append(u.Problems, paramProblems(m)...)
		}
	}
	return u
}

// valueOf reads the value of a label of -08 (vocab-08 §6.5): the Token y
// is Yes, the Token n is No, anything else is None with a Problem.
func valueOf(m member) (Value, *Problem) {
	if m.val.kind == kToken {
		switch m.val.text {
		case "y":
			return Yes, nil
		case "n":
			return No, nil
		}
	}
	prob := &Problem{Offset: m.val.off, Key: m.key, Value: m.val.raw}
	unknown := "; the preference is unknown (" + Vocabulary + " §6.5)"
	guess := ""
	switch m.val.kind {
	case kToken:
		guess = yn(m.val.text)
		prob.Msg = "the value of " + m.key + " is the Token y or n (" + Vocabulary + " §6.2), not " + strconv.Quote(m.val.text) + unknown
	case kBoolean:
		if m.bare {
			prob.Offset = m.off
			prob.Msg = m.key + " with no value is the Boolean true (RFC 9651 §3.2), not the Token y; write " + m.key + "=y or " + m.key + "=n" + unknown
			break
		}
		guess = yn(m.val.raw)
		prob.Msg = "the value of " + m.key + " is the Token y or n (" + Vocabulary + " §6.2), not the Boolean " + m.val.raw + unknown
	case kString:
		guess = yn(m.val.text)
		prob.Msg = "the value of " + m.key + " is the Token y or n (" + Vocabulary + " §6.2), not the String " + m.val.raw + unknown
	default:
		prob.Msg = "the value of " + m.key + " is the Token y or n (" + Vocabulary + " §6.2), not " + kindNames[m.val.kind] + unknown
	}
	if guess != "" {
		prob.Suggest = m.key + "=" + guess
	}
	return None, prob
}

// yn returns "y" or "n" for a word that most likely means allow or
// disallow, and "" for any other.
func yn(word string) string {
	switch toLower(strings.Trim(word, `"`)) {
	case "y", "yes", "true", "allow", "allowed", "?1":
		return "y"
	case "n", "no", "false", "disallow", "disallowed", "deny", "?0":
		return "n"
	}
	return ""
}

// signalNames are the Content Signals names of the purposes, which
// publishers mix into AIPREF values.
var signalNames = map[string]string{"ai-train": "train-ai", "ai-input": "ai-use"}

// unknownLabel reports an unknown label that looks like a mistake.
func unknownLabel(m member) (Problem, bool) {
	prob := Problem{Offset: m.off, Key: m.key, Value: m.val.raw}
	ignored := Vocabulary + " ignores unknown labels (§6.4)"
	if l, ok := LookupLabel(m.key); ok {
		prob.Suggest = replacement[m.key]
		prob.Msg = m.key + " is a label of draft-ietf-aipref-vocab" + l.Drafts + " only, and " + ignored + ": " + l.Note
		return prob, true
	}
	if label, ok := signalNames[m.key]; ok {
		prob.Suggest = label
		prob.Msg = m.key + " is a Content Signals name (Cloudflare); the AIPREF label of that use is " + label + ", and " + ignored
		return prob, true
	}
	if label := nearLabel(m.key); label != "" {
		prob.Suggest = label
		prob.Msg = m.key + " is not a label of " + Vocabulary + ", which ignores unknown labels (§6.4); did you mean " + label + "?"
		return prob, true
	}
	return Problem{}, false
}

// nearLabel returns the label of -08 within two edits of key, if any.
func nearLabel(key string) string {
	best, bestD := "", 3
	for p := range NumPurposes {
		l := labelOf(p)
		if d := distance(key, l, 3); d < bestD {
			best, bestD = l, d
		}
	}
	return best
}

// paramProblems reports the parameters of m that are labels of -08: a
// member written "train-ai=n;search=y" states nothing about search, since
// parameters are ignored (vocab-08 §6.5.2).
func paramProblems(m member) []Problem {
	var out []Problem
	for _, p := range m.params {
		if _, ok := currentLabel(p.key); !ok {
			continue
		}
		out = append(out, Problem{Offset: p.off, Key: p.key, Value: p.val.raw,
			Msg: p.key + " follows \";\", so it is a parameter of " + m.key + ", which preferences ignore (" + Vocabulary +
				" §6.5.2); members are separated by \",\"",
			Suggest: asMembers(m)})
	}
	return out
}

// asMembers writes m with its label parameters as members of their own.
func asMembers(m member) string {
	var b strings.Builder
	b.WriteString(m.key)
	if !m.bare {
		b.WriteString("=" + m.val.raw)
	}
	for _, p := range m.params {
		if _, ok := currentLabel(p.key); ok {
			b.WriteString(", ")
		} else {
			b.WriteString(";")
		}
		b.WriteString(p.key)
		if p.val.raw != "" {
			b.WriteString("=" + p.val.raw)
		}
	}
	return b.String()
}
