package robots

import (
	"math/bits"
	"strings"
	"unsafe"

	"github.com/robotskit/robots/internal/pattern"
	"github.com/robotskit/robots/syntax"
)

// Rules is a compiled robots.txt file: what one profile reads in it.
//
// Rules is immutable and safe for concurrent use by many goroutines. Its
// zero value allows everything. Checking a URL with [Rules.Allowed] does not
// allocate when the URL's path is ASCII.
type Rules struct {
	profile     Profile
	text        string // every string the rules keep: patterns, tokens, values
	rules       []rule // rulesets, each sorted for first-match
	sets        []ruleset
	offs        []uint32     // bucket starts of indexed rulesets
	agents      []agentEntry // sorted by lower-cased token
	global      int32        // ruleset of the "*" groups, or -1
	globalGroup int32        // first "*" group, or -1
	groups      []groupInfo
	agentSpans  []span // User-agent values as written
	exts        []ext
}

// Profile returns the profile the rules were compiled for.
func (r *Rules) Profile() Profile { return r.profile }

func (r *Rules) str(s span) string { return r.text[s.off : s.off+s.n] }

// Allowed reports whether the robot whose product token is agent may fetch
// url. agent is compared with the product tokens of the file's User-agent
// lines ignoring ASCII case, as given: pass "Googlebot", not a full
// User-Agent header. url is an absolute URL or a path; only its path,
// parameters and query are compared.
func (r *Rules) Allowed(agent, url string) bool {
	if r == nil {
		return true
	}
	set, _ := r.lookup(agent)
	if set < 0 {
		return true
	}
	var buf [256]byte
	path, ok := r.path(url, buf[:])
	if !ok {
		return true
	}
	i := r.first(&r.sets[set], path)
	if i < 0 {
		return true
	}
	return r.rules[i].allows()
}

// lookup returns the ruleset and first group for agent: those of the groups
// that name it, else those of the "*" groups, else -1.
func (r *Rules) lookup(agent string) (set, group int32) {
	if e := r.find(agent); e != nil {
		return e.set, e.group
	}
	return r.global, r.globalGroup
}

// find returns the entry of the token equal to agent ignoring ASCII case.
func (r *Rules) find(agent string) *agentEntry {
	lo, hi := 0, len(r.agents)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		e := &r.agents[m]
		c := compareFold(agent, r.text[e.off:e.off+e.n])
		if c == 0 {
			return e
		}
		if c > 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return nil
}

// compareFold compares s, lower-cased as ASCII, with t (already lower case).
func compareFold(s, t string) int {
	n := min(len(s), len(t))
	for i := 0; i < n; i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != t[i] {
			if c < t[i] {
				return -1
			}
			return 1
		}
	}
	switch {
	case len(s) < len(t):
		return -1
	case len(s) > len(t):
		return 1
	}
	return 0
}

// first returns the index of the rule of set that decides for path, or -1
// when none matches: the better of the first match among the rules that may
// match any path and the first match in the bucket of path's second octet.
func (r *Rules) first(set *ruleset, path string) int {
	best := r.scan(set.lo, set.wild, path, nil)
	if set.wild == set.hi || len(path) < 2 || path[0] != '/' {
		return best
	}
	c := path[1]
	w := set.bits[c>>6]
	if w&(1<<(c&63)) == 0 {
		return best
	}
	k := bits.OnesCount64(w & (1<<(c&63) - 1))
	for i := 0; i < int(c>>6); i++ {
		k += bits.OnesCount64(set.bits[i])
	}
	o := int(set.offs) + k
	var bound *rule
	if best >= 0 {
		bound = &r.rules[best]
	}
	if j := r.scan(r.offs[o], r.offs[o+1], path, bound); j >= 0 {
		return j
	}
	return best
}

// scan returns the index of the first rule of rules[lo:hi] that matches
// path, or -1. It stops early at a rule that does not decide over bound.
// Cheap tests reject most rules before a full comparison: a literal rule's
// last octet, a wildcard rule's literal prefix and octet signature.
func (r *Rules) scan(lo, hi uint32, path string, bound *rule) int {
	var sig uint32
	sigDone := false
	for i := lo; i < hi; i++ {
		ru := &r.rules[i]
		if bound != nil && !better(ru, bound) {
			return -1
		}
		p := r.text[ru.off : ru.off+ru.n]
		var ok bool
		switch {
		case ru.flags&ruleLiteral != 0:
			ok = len(path) >= len(p) && (len(p) == 0 || path[len(p)-1] == p[len(p)-1]) && path[:len(p)] == p
		case ru.flags&ruleExact != 0:
			ok = path == p[:len(p)-1]
		default:
			lit := p[:ru.lit]
			if len(path) < len(lit) || path[:len(lit)] != lit {
				continue
			}
			if !sigDone {
				sig, sigDone = signature(path), true
			}
			ok = ru.sig&^sig == 0 && pattern.Match(path, p)
		}
		if ok {
			return int(i)
		}
	}
	return -1
}

// path returns the part of url that rules are matched against, normalised
// as the profile wants, using buf when it has to build it. ok is false when
// the path is implicitly allowed.
func (r *Rules) path(url string, buf []byte) (path string, ok bool) {
	sem := r.profile.semantics()
	path, slash := pathOf(url)
	if slash {
		// "?q" stands for "/?q": build it in buf when it fits.
		if len(path) < len(buf) {
			buf[0] = '/'
			n := copy(buf[1:], path)
			path = unsafe.String(&buf[0], n+1)
			buf = buf[n+1:]
		} else {
			path = "/" + path
		}
	}
	if sem.cPath {
		if i := strings.IndexByte(path, 0); i >= 0 {
			path = path[:i]
		}
	}
	if sem.robotsTxtAllowed {
		p := path
		if i := strings.IndexByte(p, '?'); i >= 0 {
			p = p[:i]
		}
		if p == "/robots.txt" {
			return "", false
		}
	}
	if sem.rfcEncoding && pattern.NeedsRFC(path, pattern.Path) {
		b := pattern.AppendRFC(buf[:0], path, pattern.Path)
		path = unsafe.String(unsafe.SliceData(b), len(b)) // b is not changed while path lives
	}
	return path, true
}

// PathOf returns the path, parameters and query of url: what robots.txt
// rules are compared with. The scheme, authority and fragment are dropped
// and nothing is decoded or re-encoded; a URL without a path gives "/"
// (RFC 9309 §2.2.2; google/robotstxt GetPathParamsQuery). url may also be a
// path.
func PathOf(url string) string {
	p, slash := pathOf(url)
	if slash {
		return "/" + p
	}
	return p
}

// pathOf is PathOf without building a string: slash reports that the
// result needs a "/" in front of p.
func pathOf(url string) (p string, slash bool) {
	start := 0
	if strings.HasPrefix(url, "//") {
		start = 2 // a network-path reference: the authority follows
	}
	// A "://" ends the scheme only if it comes before the first '/', '?'
	// or ';'; since it holds a '/', that first one is its own.
	proto := start
	if e := indexPathStart(url, start); e > start && url[e] == '/' && url[e-1] == ':' && e+1 < len(url) && url[e+1] == '/' {
		proto = e + 2
	}
	i := indexPathStart(url, proto)
	if i < 0 {
		return "/", false
	}
	end := len(url)
	if h := strings.IndexByte(url[start:], '#'); h >= 0 {
		h += start
		if h < i {
			return "/", false
		}
		end = h
	}
	return url[i:end], url[i] != '/'
}

// indexPathStart returns the index of the first '/', '?' or ';' of s at or
// after from, or -1.
func indexPathStart(s string, from int) int {
	for i := from; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '?' || c == ';' {
			return i
		}
	}
	return -1
}

// Decision explains a verdict: which rule decided and which group it came
// from.
type Decision struct {
	// Allowed is the verdict, as [Rules.Allowed] returns it.
	Allowed bool
	// Line is the 1-based line of the deciding rule; 0 when no rule matched.
	// An empty "Disallow:" matches everything with no length; when it is
	// the best match, Line is its line and Allowed is true, as in the
	// reference library.
	Line int
	// Rule is syntax.Allow or syntax.Disallow for the deciding rule, and
	// syntax.Unknown when no rule matched.
	Rule syntax.Field
	// Pattern is the deciding rule's pattern, normalised as the profile
	// compares it ("/d/$" for Google's index.html variant of an Allow).
	Pattern string
	// Group is the line of the first User-agent line of the group that
	// applies to the agent (the first of several merged groups); 0 when no
	// group applies.
	Group int
	// Global is true when the agent has no group of its own and the "*"
	// groups apply.
	Global bool
	// Reason says why, in a word.
	Reason Reason
}

// Reason says how a decision was reached.
type Reason uint8

const (
	_ Reason = iota
	// Matched: a rule matched the path and decided.
	Matched
	// NoMatch: groups apply to the agent but none of their rules matched.
	NoMatch
	// NoGroup: no group names the agent and there is no "*" group.
	NoGroup
	// RobotsTxt: the path is /robots.txt, which RFC 9309 §2.2.2 always
	// allows.
	RobotsTxt
)

var reasonNames = [...]string{"", "matched", "no-match", "no-group", "robots-txt"}

func (r Reason) String() string {
	if int(r) < len(reasonNames) && r != 0 {
		return reasonNames[r]
	}
	return "Reason(?)"
}

// Decide is [Rules.Allowed] with its reasons.
func (r *Rules) Decide(agent, url string) Decision {
	return r.DecideChain([]string{agent}, url)
}

// DecideChain decides for a robot that obeys the first of several product
// tokens that has a group of its own (as Googlebot-News falls back to
// Googlebot), and the "*" groups when none has.
func (r *Rules) DecideChain(agents []string, url string) Decision {
	if r == nil {
		return Decision{Allowed: true, Reason: NoGroup}
	}
	set, group := r.global, r.globalGroup
	global := true
	for _, a := range agents {
		if e := r.find(a); e != nil {
			set, group, global = e.set, e.group, false
			break
		}
	}
	if set < 0 {
		return Decision{Allowed: true, Reason: NoGroup}
	}
	d := Decision{Group: int(r.groups[group].line), Global: global}
	var buf [256]byte
	path, ok := r.path(url, buf[:])
	if !ok {
		d.Allowed, d.Reason = true, RobotsTxt
		return d
	}
	i := r.first(&r.sets[set], path)
	if i < 0 {
		d.Allowed, d.Reason = true, NoMatch
		return d
	}
	ru := &r.rules[i]
	d.Allowed = ru.allows()
	d.Line = int(ru.line)
	d.Rule = syntax.Disallow
	if ru.flags&ruleAllow != 0 {
		d.Rule = syntax.Allow
	}
	d.Pattern = r.text[ru.off : ru.off+ru.n]
	d.Reason = Matched
	return d
}
