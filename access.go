package robots

import (
	"fmt"
	"strings"
)

// Access is what a file does to one robot as a whole: whether it keeps the
// robot out of the whole site, out of part of it or out of nothing, how the
// robot found the groups it obeys, and the line that decides "/". It is
// the one answer to "what does this file do to robot X" that every report
// of this module gives; [Rules.Access] computes it.
//
// Its JSON form is {"state", "via", "line", "group"}, with the words of
// [State] and [Via].
type Access struct {
	// State is Open, Partly or Blocked.
	State State `json:"state"`
	// Via says how the robot found its groups: by its own token, by a
	// fallback token, through the "*" groups, or not at all.
	Via Via `json:"via"`
	// Line is the line of the rule that decides "/" (see [Decision]); 0
	// when no rule does.
	Line int `json:"line"`
	// Group is the line of the first User-agent line of the groups that
	// apply to the robot; 0 when none does.
	Group int `json:"group"`
}

// State says how much of a site a file keeps a robot out of.
type State uint8

const (
	_ State = iota
	// Open: no path is disallowed to the robot.
	Open
	// Partly: some path is allowed to the robot and some path is
	// disallowed.
	Partly
	// Blocked: "/" is disallowed to the robot and no rule of its groups
	// allows any path.
	//
	// The path /robots.txt counts for none of the three: RFC 9309 §2.2.2
	// always allows it, and every robot fetches it to read the rules, so
	// "Allow: /robots.txt" beside "Disallow: /" leaves a robot blocked.
	Blocked
)

var stateNames = []string{"", "open", "partly", "blocked"}

// String returns "open", "partly" or "blocked".
func (s State) String() string { return enumString(stateNames, s, "State") }

// MarshalText implements encoding.TextMarshaler. The zero State, of an
// Access not worked out, is written as "".
func (s State) MarshalText() ([]byte, error) { return enumText(stateNames, s) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (s *State) UnmarshalText(b []byte) error {
	return enumParse(stateNames, b, s, "state", "open, partly or blocked")
}

// Via says how a robot found the groups it obeys.
type Via uint8

const (
	_ Via = iota
	// ViaNamed: a group names the robot's own token (its first).
	ViaNamed
	// ViaFallback: no group names its own token, and a group names one
	// of its fallback tokens (Googlebot-News obeys Googlebot's group).
	ViaFallback
	// ViaStar: no group names any of its tokens and it obeys the "*"
	// groups.
	ViaStar
	// ViaNone: no group applies to it: robots.txt restricts it in
	// nothing (RFC 9309 §2.2.1).
	ViaNone
)

var viaNames = []string{"", "named", "fallback", "star", "none"}

// String returns "named", "fallback", "star" or "none".
func (v Via) String() string { return enumString(viaNames, v, "Via") }

// MarshalText implements encoding.TextMarshaler. The zero Via, of an
// Access not worked out, is written as "".
func (v Via) MarshalText() ([]byte, error) { return enumText(viaNames, v) }

// UnmarshalText implements encoding.TextUnmarshaler.
func (v *Via) UnmarshalText(b []byte) error {
	return enumParse(viaNames, b, v, "via", "named, fallback, star or none")
}

// enumString returns the name of v, or type(v) for a value with none.
func enumString[T ~uint8](names []string, v T, typ string) string {
	if v != 0 && int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%s(%d)", typ, uint8(v))
}

// enumText returns the name of v, "" for the zero value.
func enumText[T ~uint8](names []string, v T) ([]byte, error) {
	if int(v) >= len(names) {
		return nil, fmt.Errorf("robots: no name for %d", uint8(v))
	}
	return []byte(names[v]), nil
}

// enumParse sets *v to the value named b ("" for the zero value).
func enumParse[T ~uint8](names []string, b []byte, v *T, what, want string) error {
	for i, n := range names {
		if n == string(b) {
			*v = T(i)
			return nil
		}
	}
	return fmt.Errorf("robots: unknown %s %q (want %s)", what, b, want)
}

// Access returns what the file does to the robot a as a whole.
//
// The state is decided by the verdicts of [Rules.Decide] on "/" and on
// witness paths made from the patterns of the rules that apply to the robot
// (their wildcards read as nothing and as an octet that no pattern of those
// rules holds, then that octet added at the end): "/" alone when it is disallowed and no rule allows, and only
// as many witnesses as it takes to find a path of each verdict. A path
// whose verdict differs from that of "/" is found among them whenever one
// rule can decide a path that no competing rule of equal or greater length
// also matches; a file built so that only other paths escape those
// competitors can mislead it, and no known real file is such.
func (r *Rules) Access(a Agent) Access {
	if r == nil {
		return Access{State: Open, Via: ViaNone}
	}
	set, group, via := r.agentSet(a)
	if set < 0 {
		return Access{State: Open, Via: ViaNone}
	}
	acc := Access{Via: via, Group: int(r.groups[group].line)}
	root, line := r.verdict(set, "/")
	if line > 0 {
		acc.Line = int(line)
	}
	switch {
	case root == verdictAllowed && !r.witness(set, verdictDisallowed):
		acc.State = Open
	case root == verdictDisallowed && !r.witness(set, verdictAllowed):
		acc.State = Blocked
	default:
		acc.State = Partly
	}
	return acc
}

// The verdicts of a path for Access: allowed by a rule or by no rule
// matching, disallowed, or /robots.txt, which counts as neither (see
// Blocked).
const (
	verdictAllowed = iota
	verdictDisallowed
	verdictImplicit
)

// verdict returns the verdict of path under ruleset set and the line of
// the rule that decided it (0 when none did).
func (r *Rules) verdict(set int32, path string) (v int, line int32) {
	if path == "" || path[0] != '/' {
		// A pattern that does not start with '/' ("*", "*.pdf"), read
		// as a path.
		path = "/" + path
	}
	if isRobotsTxt(path) {
		return verdictImplicit, 0
	}
	var buf [pathBuf]byte
	p, ok := r.path(path, buf[:])
	if !ok {
		return verdictImplicit, 0
	}
	i := r.first(&r.sets[set], p, false)
	if i < 0 {
		return verdictAllowed, 0
	}
	ru := &r.rules[i]
	if ru.allows() {
		return verdictAllowed, ru.line
	}
	return verdictDisallowed, ru.line
}

// witness reports whether some witness path of the rules of set has the
// verdict want. A disallowed path is decided by a Disallow rule, so only
// theirs are tried for it; an allowed path may be one that no rule
// matches, so every rule's are tried for it, Allow rules first.
func (r *Rules) witness(set int32, want int) bool {
	s := &r.sets[set]
	rules := r.rules[s.lo:s.hi]
	// The plain reading of each pattern first: it decides nearly every
	// real file at its first rule.
	for pass := 0; pass < 2; pass++ {
		for i := range rules {
			ru := &rules[i]
			if ru.n == 0 || !r.tries(ru, want, pass) {
				continue
			}
			if v, _ := r.verdict(set, r.plain(ru)); v == want {
				return true
			}
		}
	}
	fill := r.absent(rules)
	var b strings.Builder
	for pass := 0; pass < 2; pass++ {
		for i := range rules {
			ru := &rules[i]
			if ru.n == 0 || !r.tries(ru, want, pass) {
				continue
			}
			pat, _ := r.shape(ru)
			wild := !r.sem.noWildcards && strings.Contains(pat, "*")
			for _, star := range [2]string{"", fill} {
				for _, end := range [2]string{"", fill} {
					// The plain reading was tried above, and a fill of a
					// pattern without wildcards changes nothing. An end
					// after a final '$' makes a path the rule does not
					// match: one that another rule, or none, decides.
					if star == "" && end == "" || star != "" && !wild {
						continue
					}
					b.Reset()
					r.fillStars(&b, pat, star)
					b.WriteString(end)
					if v, _ := r.verdict(set, b.String()); v == want {
						return true
					}
				}
			}
		}
	}
	return false
}

// tries reports whether witness looks at the rule ru in pass 0 (Allow
// rules when an allowed path is wanted, Disallow rules otherwise) or pass
// 1 (Disallow rules when an allowed path is wanted).
func (r *Rules) tries(ru *rule, want, pass int) bool {
	allow := ru.flags&ruleAllow != 0
	if want == verdictDisallowed {
		return pass == 0 && !allow
	}
	return allow == (pass == 0)
}

// shape returns ru's pattern without its final '$', and whether it had
// one; under the profiles without wildcards, '*' and '$' are octets.
func (r *Rules) shape(ru *rule) (pat string, anchored bool) {
	pat = r.text[ru.off : ru.off+uint32(ru.n)]
	if r.sem.noWildcards {
		return pat, false
	}
	if p, ok := strings.CutSuffix(pat, "$"); ok {
		return p, true
	}
	return pat, false
}

// plain returns ru's pattern with its wildcards read as nothing.
func (r *Rules) plain(ru *rule) string {
	pat, _ := r.shape(ru)
	if r.sem.noWildcards || !strings.Contains(pat, "*") {
		return pat
	}
	return strings.ReplaceAll(pat, "*", "")
}

// fillStars writes pat with each '*' replaced by star (none under the
// profiles without wildcards).
func (r *Rules) fillStars(b *strings.Builder, pat, star string) {
	if r.sem.noWildcards {
		b.WriteString(pat)
		return
	}
	for {
		i := strings.IndexByte(pat, '*')
		if i < 0 {
			b.WriteString(pat)
			return
		}
		b.WriteString(pat[:i])
		b.WriteString(star)
		pat = pat[i+1:]
	}
}

// absent returns an octet, as a string, that no pattern of rules holds,
// so that a path made with it escapes every pattern that needs another
// octet at that place; "x" when every candidate is taken.
func (r *Rules) absent(rules []rule) string {
	const candidates = "xqzjkvw0123456789-_~"
	var seen [256]bool
	for i := range rules {
		ru := &rules[i]
		for _, c := range []byte(r.text[ru.off : ru.off+uint32(ru.n)]) {
			seen[c] = true
		}
	}
	for i := 0; i < len(candidates); i++ {
		c := candidates[i]
		if !seen[c] {
			return candidates[i : i+1]
		}
	}
	return "x"
}
