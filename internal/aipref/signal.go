package aipref

import "strings"

// Signal is a parsed Cloudflare Content-Signal value, as a robots.txt line
// or a response header carries it:
//
//	Content-Signal: search=yes, ai-train=no, use=reference
//
// Sources: Cloudflare's managed robots.txt documentation
// (https://developers.cloudflare.com/bots/additional-configurations/managed-robots-txt/),
// https://contentsignals.org, and for use= Cloudflare's changelog of 31
// August 2026
// (https://developers.cloudflare.com/changelog/post/2026-08-31-crawl-content-use/).
// The zero value states nothing.
type Signal struct {
	// Prefs are the signals given: yes is Yes, no is No, and an omitted
	// signal "neither grants nor restricts permission" (the policy's
	// text), None.
	Prefs Prefs
	// Use is the use= value in lower case: "immediate", "reference" or
	// "full", from the least permissive to the most; "" when not given
	// or not one of those. It is how AI systems may consume the content,
	// not a purpose.
	Use string
	// Unknown are the other keys, as written, each once, in the order they
	// first appear.
	Unknown []string
	// Problems are what the publisher probably did not mean, in the
	// order of their offsets.
	Problems []Problem
}

// The keys of a Content-Signal value that are not purposes.
const signalUse = "use"

// useRank orders the use= values from the least permissive: store nothing
// (immediate), index, excerpt and link back (reference), summarize and
// reproduce (full).
var useRank = map[string]int{"immediate": 1, "reference": 2, "full": 3}

// ParseSignal reads a Content-Signal value: comma-separated key=value
// entries with optional white space, keys and values compared ignoring
// ASCII case. The keys search, ai-input and ai-train take yes or no; use
// takes immediate, reference or full.
//
// Values seen in the wild that the policy does not define (allow and
// disallow, y and n, true and false) leave the signal None, with a
// Problem that suggests yes or no. A key given twice keeps the most
// restrictive of its values, as draft-ietf-aipref-vocab-08 §5.1 combines
// statements, with a Problem. Unknown keys are kept, with a Problem when
// they look like a known key written wrong (ai-training, ai_input) or an
// AIPREF label (train-ai, ai-use).
func ParseSignal(v string) Signal {
	var s Signal
	var given [NumPurposes + 1]bool // the last is use=
	seen := map[string]bool{}
	off := 0
	for off <= len(v) {
		end := strings.IndexByte(v[off:], ',')
		if end < 0 {
			end = len(v)
		} else {
			end += off
		}
		s.entry(v, off, end, &given, seen)
		off = end + 1
	}
	return s
}

// entry reads the entry v[start:end].
func (s *Signal) entry(v string, start, end int, given *[NumPurposes + 1]bool, seen map[string]bool) {
	el := v[start:end]
	lead := len(el) - len(strings.TrimLeft(el, " \t"))
	el = strings.Trim(el, " \t")
	at := start + lead
	if el == "" {
		if strings.Trim(v, " \t") != "" {
			s.problem(Problem{Offset: at, Msg: "an empty entry: two commas in a row, or a comma first or last"})
		}
		return
	}
	rawKey, val, hasVal := strings.Cut(el, "=")
	rawKey = strings.TrimRight(rawKey, " \t")
	key := toLower(rawKey)
	valOff := at + len(el) - len(val)
	lead = len(val) - len(strings.TrimLeft(val, " \t"))
	val = strings.Trim(val, " \t")
	valOff += lead
	p, purpose := ParsePurpose(key)
	switch {
	case !purpose && key != signalUse:
		if !seen[key] {
			seen[key] = true
			s.Unknown = append(s.Unknown, rawKey)
			if near := nearSignal(key); near != "" {
				s.problem(Problem{Offset: at, Key: rawKey, Value: val, Suggest: near,
					Msg: rawKey + " is not a Content Signals key, which are search, ai-input, ai-train and use; did you mean " + near + "?"})
			}
		}
	case !hasVal:
		s.problem(Problem{Offset: at, Key: rawKey,
			Msg: rawKey + " has no value: write " + key + "=" + signalValues(key)})
	case key == signalUse:
		u := toLower(val)
		if useRank[u] == 0 {
			s.problem(Problem{Offset: valOff, Key: rawKey, Value: val,
				Msg: "use takes immediate, reference or full, not " + quoteWord(val)})
			return
		}
		if given[NumPurposes] {
			s.problem(Problem{Offset: at, Key: rawKey, Value: val,
				Msg: "use is given twice; the least permissive value counts"})
			if s.Use != "" && useRank[s.Use] < useRank[u] {
				return
			}
		}
		given[NumPurposes] = true
		s.Use = u
	default:
		var got Value
		switch toLower(val) {
		case "yes":
			got = Yes
		case "no":
			got = No
		default:
			prob := Problem{Offset: valOff, Key: rawKey, Value: val,
				Msg: key + " takes yes or no, not " + quoteWord(val) + "; the signal is not given"}
			switch yn(val) {
			case "y":
				prob.Suggest = key + "=yes"
			case "n":
				prob.Suggest = key + "=no"
			}
			if strings.ContainsAny(val, "; ") {
				prob.Msg += "; entries are separated by commas"
			}
			s.problem(prob)
			return
		}
		if given[p] {
			s.problem(Problem{Offset: at, Key: rawKey, Value: val,
				Msg: key + " is given twice; the most restrictive value counts (as " + Vocabulary + " §5.1 combines statements)"})
			if s.Prefs[p] == No {
				got = No
			}
		}
		given[p] = true
		s.Prefs[p] = got
	}
}

func (s *Signal) problem(p Problem) { s.Problems = append(s.Problems, p) }

func signalValues(key string) string {
	if key == signalUse {
		return "immediate, reference or full"
	}
	return "yes or " + key + "=no"
}

func quoteWord(s string) string {
	if s == "" {
		return "nothing"
	}
	return "\"" + s + "\""
}

// signalAliases are the AIPREF labels of the Content Signals keys.
var signalAliases = map[string]string{"train-ai": "ai-train", "ai-use": "ai-input"}

// nearSignal returns the Content Signals key that key, lower-cased, most
// likely means: an AIPREF label's counterpart, a key written with "_" or a
// space for "-", one within two edits (one for the short use), or one
// with a short ending added (ai-training).
func nearSignal(key string) string {
	if k, ok := signalAliases[key]; ok {
		return k
	}
	norm := strings.NewReplacer("_", "-", " ", "-").Replace(key)
	if k, ok := signalAliases[norm]; ok {
		return k
	}
	best, bestD := "", 3
	for _, k := range [...]string{"search", "ai-input", "ai-train", signalUse} {
		if norm == k {
			return k
		}
		limit := 3
		if len(k) < 5 {
			limit = 2
		}
		if d := distance(norm, k, limit); d < limit && d < bestD {
			best, bestD = k, d
		}
		if len(k) >= 5 && strings.HasPrefix(norm, k) && len(norm)-len(k) <= 3 && best == "" {
			best, bestD = k, 2
		}
	}
	return best
}
