package robots

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"
	"unsafe"

	"github.com/robotskit/robots/internal/lines"
	"github.com/robotskit/robots/internal/octets"
	"github.com/robotskit/robots/internal/pattern"
	"github.com/robotskit/robots/syntax"
)

// Rules is a compiled robots.txt file: what one profile reads in it.
//
// Rules is immutable and safe for concurrent use by many goroutines. Its
// zero value allows everything. Checking a URL with [Rules.Allowed] does not
// allocate unless the profile must rewrite the URL's path to compare it and
// the rewritten path is longer than 256 bytes. A path is rewritten when the
// URL has none but has a query or parameters ("https://example.com?q" is
// compared as "/?q") and, under the profiles with "rfc" %-encoding, when it
// is not in RFC 9309's canonical form (an escape to decode or to write in
// upper case, an octet to escape: non-ASCII, a control, a space, '*', '$'
// and the like); every other path is compared as given.
type Rules struct {
	profile     Profile
	sem         *semantics // nil in the zero Rules
	text        string     // every string the rules keep: patterns, tokens, values
	rules       []rule     // rulesets, each sorted for first-match
	sets        []ruleset
	offs        []uint32     // bucket starts of indexed rulesets, some with subFlag
	hashed      *hashed      // nil unless a bucket's literal rules are hashed
	agents      []agentEntry // sorted by lower-cased token; whole names in [len:cap] (wholes)
	global      int32        // 1 + ruleset of the "*" groups; 0: none
	globalGroup int32        // 1 + first "*" group; 0: none
	firstRecord bool         // sem.firstRecord: agents are found by record
	openPath    bool         // Allowed may match the rest of a URL (see first)
	groups      []groupInfo
	agentSpans  []span // User-agent values as written
	exts        []ext
}

// Profile returns the profile the rules were compiled for. A nil *Rules,
// like the zero Rules, allows everything and has the zero Profile,
// [Google].
func (r *Rules) Profile() Profile {
	if r == nil {
		return Google
	}
	return r.profile
}

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
	// Most files name no agent but "*": their ruleset needs no call.
	set := r.global - 1
	if r.firstRecord {
		set, _ = r.lookup(agent)
	} else if len(r.agents) != 0 {
		// lookup, written out: one call fewer.
		if e := r.find(agent); e != nil {
			set = e.set
		}
	}
	if set < 0 {
		return true
	}
	if r.openPath {
		// The path is compared as given (Google): find where it starts and
		// let the matcher find where it ends only if a rule needs to know.
		if rest, slash := pathStart(url); !slash {
			i := r.first(&r.sets[set], rest, true)
			return i < 0 || r.rules[i].allows()
		}
	}
	sem := r.sem
	path, slash := pathOf(url, sem.cPath)
	if slash || sem.rfcEncoding {
		return r.allowedBuf(set, url)
	}
	if sem.robotsTxtAllowed && isRobotsTxt(path) {
		return true
	}
	return r.allowedPath(set, path)
}

// allowedBuf is Allowed for a URL whose path may have to be built.
func (r *Rules) allowedBuf(set int32, url string) bool {
	var buf [pathBuf]byte
	path, ok := r.path(url, buf[:])
	return !ok || r.allowedPath(set, path)
}

func (r *Rules) allowedPath(set int32, path string) bool {
	i := r.first(&r.sets[set], path, false)
	return i < 0 || r.rules[i].allows()
}

// lookup returns the ruleset and first group for agent: those of the groups
// that name it, else those of the "*" groups, else -1.
func (r *Rules) lookup(agent string) (set, group int32) {
	// entry, written out.
	if !r.firstRecord {
		if e := r.find(agent); e != nil {
			return e.set, e.group
		}
	} else if set, group, ok := r.record(agent); ok {
		return set, group
	}
	return r.global - 1, r.globalGroup - 1
}

// entry returns the ruleset and first group of the groups that a robot
// whose product token is tok obeys, "*" aside.
func (r *Rules) entry(tok string) (set, group int32, ok bool) {
	if r.firstRecord {
		return r.record(tok)
	}
	if e := r.find(tok); e != nil {
		return e.set, e.group, true
	}
	return -1, -1, false
}

// wholeEntry is entry for a robot read by its whole name (see
// [Agent.WholeName]): the ruleset and first group of the groups one of
// whose User-agent values names it whole (see wholeName), merged as entry
// merges those that name a product token. An empty name names no group.
// The record profiles already compare whole values: there it is entry.
func (r *Rules) wholeEntry(name string) (set, group int32, ok bool) {
	if r.firstRecord {
		return r.record(name)
	}
	if name == "" {
		return -1, -1, false
	}
	ws := r.wholes()
	i, found := slices.BinarySearchFunc(ws, name, func(e agentEntry, name string) int {
		return -compareFold(name, r.text[e.off:e.off+e.n])
	})
	if !found {
		return -1, -1, false
	}
	return ws[i].set, ws[i].group, true
}

// wholes returns the entries of the whole names of the file's User-agent
// values that are not product tokens ("archive.org_bot", "MJ12bot"),
// lower-cased and sorted: they follow the product tokens' entries, in
// agents[len:cap], so that Rules is no larger for them.
func (r *Rules) wholes() []agentEntry { return r.agents[len(r.agents):cap(r.agents)] }

// record returns the first record that names the robot whose name token
// is name (see semantics.nameInValue), ignoring ASCII case. Records
// without rule lines have no ruleset and are skipped.
func (r *Rules) record(name string) (set, group int32, ok bool) {
	inValue := r.sem.nameInValue
	for gi := range r.groups {
		g := &r.groups[gi]
		if g.set < 0 {
			continue
		}
		for _, a := range r.agentSpans[g.agLo:g.agHi] {
			v := r.str(a)
			if v == "*" {
				continue
			}
			if inValue {
				if name != "" && containsFold(v, name) {
					return g.set, int32(gi), true
				}
				continue
			}
			if i := strings.IndexByte(v, '/'); i >= 0 {
				v = strings.TrimRight(v[:i], " \t")
			}
			if v != "" && containsFold(name, v) {
				return g.set, int32(gi), true
			}
		}
	}
	return -1, -1, false
}

// containsFold reports whether sub is within s, ignoring ASCII case. It
// takes O(len(s)·len(sub)) steps at worst: a robot's name times a
// User-agent value (at most a line, 16,663 bytes).
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for j < len(sub) && lower(s[i+j]) == lower(sub[j]) {
			j++
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// equalFold reports whether s and t are equal ignoring ASCII case (and
// only ASCII case, as every comparison of names in this package).
func equalFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lower(s[i]) != lower(t[i]) {
			return false
		}
	}
	return true
}

// find returns the entry of the token equal to agent ignoring ASCII case.
// Entries are sorted by token; their keys order them by the first 8 octets,
// so most steps of the search compare two integers.
func (r *Rules) find(agent string) *agentEntry {
	k := foldKey(agent)
	lo, hi := 0, len(r.agents)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		e := &r.agents[m]
		c := 0
		switch {
		case k < e.key:
			c = -1
		case k > e.key:
			c = 1
		default:
			// Equal keys: the first min(8, lengths) octets agree.
			t := r.text[e.off : e.off+e.n]
			p := min(8, len(agent), len(t))
			c = compareFold(agent[p:], t[p:])
		}
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

// foldKey returns the first 8 octets of s, lower-cased as ASCII, as a
// big-endian number: keys order strings as their first 8 octets do.
func foldKey(s string) uint64 {
	var k uint64
	if len(s) >= 8 {
		k = bits.ReverseBytes64(octets.Load(s, 0))
	} else {
		for i := 0; i < len(s); i++ {
			k |= uint64(s[i]) << (56 - 8*i)
		}
	}
	// Set bit 5 of every octet in 'A'..'Z', eight at a time: bit 7 of
	// low7+0x3F is set for octets >= 'A', of low7+0x25 for octets > 'Z'.
	const ones = octets.Ones
	low7 := k & (0x7F * ones)
	upper := (low7 + 0x3F*ones) &^ (low7 + 0x25*ones) &^ k & (0x80 * ones)
	return k | upper>>2
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
//
// With open, path may run on past the path's end: it is the rest of a URL
// from the path's start, and the path ends at its first '#' (or NUL, for
// profiles with cPath). Most URLs are decided by tests that give the same
// answer for that rest as for the path, so scan finds the end only when a
// test needs it. They agree because no pattern holds a '#' or a NUL (the
// tokenizer ends a line's value at both): the second octet picks the
// same bucket, since no bucket is keyed by '#' or NUL; a pattern's head or
// literal prefix is a prefix of the path exactly when it is one of the
// rest; and a prefix test cannot see past its pattern's length.
func (r *Rules) first(set *ruleset, path string, open bool) int {
	var ph uint64
	if len(path) >= 8 {
		ph = octets.Load(path, 0) // load8, without its call for most paths
	} else {
		ph = load8(path)
	}
	best := -1
	if set.lo < set.wild { // indexed sets often have no rule for every path
		best = r.scan(set.lo, set.wild, path, open, ph, nil)
	}
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
	lo, hi := r.offs[o], r.offs[o+1]&^subFlag
	if lo&subFlag != 0 {
		return r.firstHashed(lo&^subFlag, hi, path, open, ph, best)
	}
	var bound *rule
	if best >= 0 {
		bound = &r.rules[best]
	}
	if j := r.scan(lo, hi, path, open, ph, bound); j >= 0 {
		return j
	}
	return best
}

// firstHashed is first's search of a large bucket, rules[lo:hi], whose
// literal rules are hashed (see builder.hashLiterals): a scan of its other
// rules, then a lookup of path's prefix of each literal length, longest
// first. best is the best rule so far, or -1.
//
// With an open path (see first), a prefix of the rest of the URL equals a
// pattern only if it is a prefix of the path, as no pattern holds the
// octet that ends it.
func (r *Rules) firstHashed(lo, hi uint32, path string, open bool, ph uint64, best int) int {
	hs := r.hashed
	i, _ := slices.BinarySearchFunc(hs.subs, lo, func(s subIndex, lo uint32) int { return cmp.Compare(s.start, lo) })
	sub := &hs.subs[i]
	if best < 0 {
		best = r.scan(lo, sub.split, path, open, ph, nil)
	} else if j := r.scan(lo, sub.split, path, open, ph, &r.rules[best]); j >= 0 {
		best = j
	}
	tab := hs.tab[sub.tab : sub.tab+sub.mask+1]
	for _, n := range hs.lens[sub.lensLo:sub.lensHi] {
		if best >= 0 && uint32(r.rules[best].n) > n {
			break // a shorter match cannot decide over best
		}
		if uint32(len(path)) < n {
			continue
		}
		p := path[:n]
		for k := tab[litHash(p)&sub.mask]; k != 0; k = r.rules[k-1].sig {
			if ru := &r.rules[k-1]; uint32(ru.n) == n && r.text[ru.off:ru.off+n] == p {
				// The first in its chain decides among equal patterns,
				// and shorter ones cannot decide over it.
				if best < 0 || better(ru, &r.rules[best]) {
					best = int(k - 1)
				}
				return best
			}
		}
	}
	return best
}

// scan returns the index of the first rule of rules[lo:hi] that matches
// path, or -1. It stops early at a rule that does not decide over bound.
// Cheap tests reject most rules before text is read: the head of the
// rule's literal prefix against ph, the first octets of path (load8), and
// a wildcard rule's octet signature against the path's. With open, path
// may run on past its end (see first), and scan cuts it before any test
// that reads its length or its tail.
func (r *Rules) scan(lo, hi uint32, path string, open bool, ph uint64, bound *rule) int {
	rs := r.rules[lo:hi]
	// lack is the complement of the path's signature: the bits of the
	// octet classes the path lacks, so that a wildcard rule whose
	// signature shares a bit with it cannot match. It is computed when a
	// wildcard rule first needs it, and is 0 until then, which fails no
	// rule; bit 32, which no signature has, marks it computed even when the
	// path has every class. Only wildcard rules have a signature (scan never
	// sees the chain links of hashed literal rules: firstHashed scans a
	// bucket only up to them); for the others ru.sig is 0 and the test
	// always passes. With the signature test in the loop, most wildcard
	// rules are rejected without leaving it: those whose literal prefix is
	// just "/" ("/*.pdf$") pass every head test, and are the most common
	// rules to get past it.
	var lack uint64
	for i := 0; i < len(rs); i++ {
		// Most rules fail the head test or the signature test: a loop of
		// its own keeps them to loads and compares.
		for ; i < len(rs); i++ {
			if ru := &rs[i]; ru.matchHead(ph) && uint64(ru.sig)&lack == 0 {
				break
			}
		}
		if i == len(rs) {
			break
		}
		ru := &rs[i]
		// The rules are sorted best-first: once one does not decide over
		// bound, none after it does, so only rules that pass the head test
		// need the bound test.
		if bound != nil && !better(ru, bound) {
			return -1
		}
		n := int(ru.n)
		switch {
		case ru.flags&ruleLiteral != 0:
			if len(path) < n || n > 8 && path[8:n] != r.text[int(ru.off)+8:int(ru.off)+n] {
				continue
			}
		case ru.flags&ruleExact != 0:
			if open {
				path, open = path[:indexEnd(path, 0, r.sem.cPath)], false
			}
			if len(path) != n-1 || n > 9 && path[8:] != r.text[int(ru.off)+8:int(ru.off)+n-1] {
				continue
			}
		default:
			lit := ru.lit()
			if len(path) < lit || lit > 8 && path[8:lit] != r.text[int(ru.off)+8:int(ru.off)+lit] {
				continue
			}
			if lack == 0 {
				// Of the rest when open: it holds the path's octets, so
				// the filter stays sound.
				lack = 1<<32 | uint64(^signature(path))
				if uint64(ru.sig)&lack != 0 {
					continue
				}
			}
			if open {
				path, open = path[:indexEnd(path, 0, r.sem.cPath)], false
			}
			if !r.matchStar(ru, path) {
				continue
			}
		}
		return int(lo) + i
	}
	return -1
}

// matchStar reports whether the wildcard rule ru matches path, whose
// first ru.lit() octets equal the pattern's. Unless the stored length was
// capped, they are all the octets before the first '*', which need not be
// compared again.
func (r *Rules) matchStar(ru *rule, path string) bool {
	pat := r.text[ru.off : int(ru.off)+int(ru.n)]
	if lit := ru.lit(); lit < ruleLitMax {
		return pattern.MatchStar(path[lit:], pat[lit+1:])
	}
	return pattern.Match(path, pat)
}

// pathBuf is the size of the buffer allowedBuf gives path: a path that
// must be built takes no allocation when it fits (see Rules).
const pathBuf = 256

// path returns the part of url that rules are matched against, normalised
// as the profile wants. A path it must build, it builds in buf, at once in
// its final form, and allocates only when that does not fit. ok is false
// when the path is implicitly allowed.
func (r *Rules) path(url string, buf []byte) (path string, ok bool) {
	sem := r.sem
	p, slash := pathOf(url, sem.cPath)
	if !slash {
		if sem.robotsTxtAllowed && isRobotsTxt(p) {
			return "", false
		}
		if sem.rfcEncoding && pattern.NeedsRFC(p, pattern.Path) {
			b := pattern.AppendRFC(buf[:0], p, pattern.Path)
			return unsafe.String(unsafe.SliceData(b), len(b)), true // b is not changed while path lives
		}
		return p, true
	}
	// p starts with '?' or ';': "?q" stands for "/?q", which is never
	// "/robots.txt". Its normal form is "/" and that of p: the normalisation
	// keeps '/' and nothing after it reads as it does without it.
	var b []byte
	switch {
	case sem.rfcEncoding && pattern.NeedsRFC(p, pattern.Path):
		b = pattern.AppendRFC(append(buf[:0], '/'), p, pattern.Path)
	case len(p) < len(buf):
		buf[0] = '/'
		b = buf[:1+copy(buf[1:], p)]
	default:
		return "/" + p, true
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), true // b is not changed while path lives
}

// isRobotsTxt reports whether path, without its query, is /robots.txt.
func isRobotsTxt(path string) bool {
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path = path[:i]
	}
	return path == "/robots.txt"
}

// PathOf returns the path, parameters and query of url: what robots.txt
// rules are compared with. The scheme, authority and fragment are dropped
// and nothing is decoded or re-encoded; a URL without a path gives "/"
// (RFC 9309 §2.2.2; google/robotstxt GetPathParamsQuery). url may also be a
// path.
func PathOf(url string) string {
	p, slash := pathOf(url, false)
	if slash {
		return "/" + p
	}
	return p
}

// pathStart returns url from the start of its path, as pathOf finds it, up
// to the end of url: the path may end earlier, at a '#' or NUL. slash
// reports that the path needs a "/" in front; a URL without a path gives
// "/".
func pathStart(url string) (rest string, slash bool) {
	i := pathIndex(url)
	if i < 0 {
		return "/", false
	}
	return url[i:], url[i] != '/'
}

// pathOf is PathOf without building a string: slash reports that the
// result needs a "/" in front of p. With nul, the path also ends at a NUL
// octet.
func pathOf(url string, nul bool) (p string, slash bool) {
	i := pathIndex(url)
	if i < 0 {
		return "/", false
	}
	end := indexEnd(url, i, nul)
	return url[i:end], url[i] != '/'
}

// pathIndex returns the index of the first octet of url's path,
// parameters or query, or -1 when it has none.
func pathIndex(url string) int {
	if len(url) >= 8 {
		// Most URLs are absolute http or https URLs: one load and compare
		// skips their scheme, as the test for "://" below would.
		switch v := octets.Load(url, 0); {
		case v == https:
			return pathAt(url, indexDelim(url, 8))
		case v&(1<<56-1) == http:
			return pathAt(url, indexDelim(url, 7))
		}
	}
	start := 0
	if strings.HasPrefix(url, "//") {
		start = 2 // a network-path reference: the authority follows
	}
	// A "://" ends the scheme only if it comes before the first '/', '?'
	// or ';'; since it holds a '/', that first one is its own. A '#' before
	// the path starts the fragment: the path is empty.
	i := indexDelim(url, start)
	if i > start && url[i] == '/' && url[i-1] == ':' && i+1 < len(url) && url[i+1] == '/' {
		i = indexDelim(url, i+2)
	}
	return pathAt(url, i)
}

// The schemes that pathIndex recognises with one compare, as octets.Load
// reads them.
const (
	https = 0x2F2F3A7370747468 // "https://"
	http  = 0x2F2F3A70747468   // "http://"
)

// pathAt returns i, the index of the first delimiter after url's
// authority, or -1 when the URL has no path there: no delimiter, or a '#'
// that starts the fragment.
func pathAt(url string, i int) int {
	if i < 0 || url[i] == '#' {
		return -1
	}
	return i
}

// indexDelim returns the index of the first '/', '?', ';' or '#' of s at
// or after from, or -1.
func indexDelim(s string, from int) int {
	// delims also marks a '+', rare before a URL's path: scan on after it.
retry:
	i := from
	for ; i+8 <= len(s); i += 8 {
		v := octets.Load(s, i)
		if m := delims(v); m != 0 {
			j := i + octets.First(m)
			if s[j] != '+' {
				return j
			}
			from = j + 1
			goto retry
		}
	}
	if i < len(s) && len(s)-from >= 8 {
		// The last eight octets overlap those already read, which hold
		// none of the four, nor a '+': one more load instead of a loop of
		// up to seven unpredictable steps.
		v := octets.Load(s, len(s)-8)
		if m := delims(v); m != 0 {
			j := len(s) - 8 + octets.First(m)
			if s[j] != '+' {
				return j
			}
			from = j + 1
			goto retry
		}
		return -1
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '?' || c == ';' || c == '#' {
			return i
		}
	}
	return -1
}

// delims marks the first '/', '?', ';', '#' or '+' of v as octets.Eq marks
// an octet. '/' (0x2F), ';' (0x3B) and '?' (0x3F) differ only in bits 2
// and 4: setting both in every octet finds the three with one test, and
// '+' (0x2B), the only other octet that becomes 0x3F, with them. The two
// tests share the last mask: octets.Eq(v, c) is (x-Ones)&^x&0x80…, and
// each of them marks its first octet exactly, so their union does.
func delims(v uint64) uint64 {
	const ones = octets.Ones
	x := v | 0x14*ones ^ '?'*ones
	y := v ^ '#'*ones
	return ((x-ones)&^x | (y-ones)&^y) & (0x80 * ones)
}

// indexEnd returns the index of the first '#' of s at or after from, or of
// the first NUL if that comes first and nul is set, or len(s).
func indexEnd(s string, from int, nul bool) int {
	var z uint64 // all ones when not looking for NUL: no octet of v|z is 0
	if !nul {
		z = ^uint64(0)
	}
	i := from
	for ; i+8 <= len(s); i += 8 {
		v := octets.Load(s, i)
		if m := octets.Eq(v, '#') | octets.Eq(v|z, 0); m != 0 {
			return i + octets.First(m)
		}
	}
	if i < len(s) && len(s)-from >= 8 {
		// As in indexDelim: the overlapped octets hold no match.
		v := octets.Load(s, len(s)-8)
		if m := octets.Eq(v, '#') | octets.Eq(v|z, 0); m != 0 {
			return len(s) - 8 + octets.First(m)
		}
		return len(s)
	}
	for ; i < len(s); i++ {
		if c := s[i]; c == '#' || c == 0 && nul {
			return i
		}
	}
	return len(s)
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

// An Agent is how a robot finds the groups it obeys: the product tokens it
// answers to, and whether the "*" groups count. Package agents knows the
// agents of real robots.
type Agent struct {
	// Tokens are product tokens, most specific first: the first that has
	// a group of its own wins (Googlebot-News falls back to Googlebot,
	// YandexBot to Yandex).
	Tokens []string
	// IgnoreGlobal is set for robots that obey only groups that name them
	// and never the "*" groups, such as Google's AdsBot-Google.
	IgnoreGlobal bool
	// WholeName reads the robot by its whole name, for robots whose names
	// are not product tokens. RFC 9309 §2.2.1 allows only [A-Za-z_-]+ in a
	// product token, and its parsers, Google's among them, compare only the
	// leading run of those characters of a User-agent value: "User-agent:
	// archive.org_bot" names "archive", "User-agent: MJ12bot" names "MJ".
	// Yet those crawlers document such lines as naming them
	// (https://archive.org/details/archive.org_bot, https://mj12bot.com/).
	// With WholeName, each token of Tokens that is not a product token
	// names the groups one of whose User-agent values, cut at its first '/'
	// or white space, equals it ignoring ASCII case ("MJ12bot" and
	// "mj12bot/v1.4" both name MJ12bot), merged as a product token's groups
	// are. Tokens that are product tokens are compared as without it, so
	// it changes nothing for Google's robots; an empty token names no
	// group. The profiles that obey one record (Draft1996, Strict1994)
	// compare whole values anyway.
	WholeName bool
}

// Token returns the Agent of a robot that answers to the product token t
// and, when t has no group of its own, to each of fallbacks in turn
// before the "*" groups: Token("Googlebot-News", "Googlebot").
func Token(t string, fallbacks ...string) Agent {
	return Agent{Tokens: append([]string{t}, fallbacks...)}
}

// isProductToken reports whether t is a product token as RFC 9309 §2.2.1
// defines it: one or more of [A-Za-z_-].
func isProductToken(t string) bool {
	return t != "" && len(lines.ProductToken(t)) == len(t)
}

// agentSet returns the ruleset and first group that the robot a obeys:
// those of the first of its tokens that has groups of its own, else those
// of the "*" groups unless a ignores them; -1 when none applies. via says
// which of these it is.
func (r *Rules) agentSet(a Agent) (set, group int32, via Via) {
	for i, t := range a.Tokens {
		var ok bool
		if a.WholeName && !isProductToken(t) {
			set, group, ok = r.wholeEntry(t)
		} else {
			set, group, ok = r.entry(t)
		}
		if ok {
			if i > 0 {
				return set, group, ViaFallback
			}
			return set, group, ViaNamed
		}
	}
	if a.IgnoreGlobal || r.global == 0 {
		return -1, -1, ViaNone
	}
	return r.global - 1, r.globalGroup - 1, ViaStar
}

// Decide is [Rules.Allowed] with its reasons, for the robot a: which
// rule decided, in which group, and why.
func (r *Rules) Decide(a Agent, url string) Decision {
	if r == nil {
		return Decision{Allowed: true, Reason: NoGroup}
	}
	set, group, via := r.agentSet(a)
	if set < 0 {
		return Decision{Allowed: true, Reason: NoGroup}
	}
	d := Decision{Group: int(r.groups[group].line), Global: via == ViaStar}
	var buf [256]byte
	path, ok := r.path(url, buf[:])
	if !ok {
		d.Allowed, d.Reason = true, RobotsTxt
		return d
	}
	i := r.first(&r.sets[set], path, false)
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
	d.Pattern = r.text[ru.off : ru.off+uint32(ru.n)]
	d.Reason = Matched
	return d
}
