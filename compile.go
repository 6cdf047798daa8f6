package robots

import (
	"bytes"
	"cmp"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/robotskit/robots/internal/octets"
	"github.com/robotskit/robots/internal/pattern"
	"github.com/robotskit/robots/syntax"
)

// MaxBytes is how much of a robots.txt body a robot reads: Google reads
// 500 KiB and ignores what follows ("How Google interprets the robots.txt
// specification", file size limit), and RFC 9309 §2.5 asks every
// crawler to parse at least that much. Parse and Compile interpret all the
// bytes they are given, as the reference library does; whoever reads a body
// from a file or the network stops at MaxBytes (the fetcher and the command
// do), which also bounds the memory a hostile file can take.
const MaxBytes = 500 << 10

// Parse reads a robots.txt body as profile p reads it and compiles it into
// rules. It never fails: lines a profile does not honour are ignored, as
// that robot ignores them (the lint package reports them). Parse copies what
// it keeps of src; the rules hold no reference to it.
func Parse(src []byte, p Profile) *Rules {
	b := newBuilder(p)
	defer b.release()
	b.read(unsafe.String(unsafe.SliceData(src), len(src))) // read only during Parse
	r := b.finish()
	// A value ends at a '#' or NUL, so no pattern holds one.
	r.openPath = b.sem.openPath()
	return r
}

// Compile compiles a parsed file as profile p reads it. For the same input,
// Compile(syntax.Parse(name, src), p) and Parse(src, p) make the same rules.
// A nil f is an empty file: Compile(nil, p) returns the rules of profile p
// that allow everything, as Parse(nil, p) does.
func Compile(f *syntax.File, p Profile) *Rules {
	if f == nil {
		f = &syntax.File{}
	}
	text := f.String()
	b := newBuilder(p)
	defer b.release()
	for i := range f.Lines {
		l := &f.Lines[i]
		b.line(text, l, int32(l.Span.Start.Line))
	}
	r := b.finish()
	// Lines edited by hand may give a value that holds a '#' or a NUL.
	r.openPath = b.sem.openPath() && !strings.ContainsAny(b.tail(0), "#\x00")
	return r
}

// A rule's flags: the head test's shift (6 bits, see rule.head), three
// bits of kind, then the literal prefix's length, capped.
const (
	ruleShift   = 1<<6 - 1 // the bits of the shift
	ruleAllow   = 1 << 6
	ruleLiteral = 1 << 7 // no '*' and no final '$': a prefix test
	ruleExact   = 1 << 8 // no '*', final '$': an equality test

	ruleLitShift = 9
	// ruleLitMax caps the stored literal prefix length. Only wildcard rules
	// use it, as a filter before the full match, so a shorter prefix test
	// is still correct.
	ruleLitMax = 1<<(16-ruleLitShift) - 1
)

// rule is one compiled Allow or Disallow, in 24 bytes. Its pattern is
// text[off:off+n]; its priority is n, the octets of the normalised pattern
// (RFC 9309 §2.2.2).
//
// head holds the first h octets of the pattern's literal prefix (the
// octets a matching path must start with), h = min(8, its length),
// little-endian, so that most rules are rejected without reading text: a
// path whose first eight octets are ph may match only if
// (ph^head)<<(64-8h) is 0 (matchHead). A pattern without a literal prefix
// ("*.pdf", "$", "") takes h = 1 and the head "/", which every path
// starts with (RFC 9309 §2.2.2; PathOf), so that the shift stays below 64.
type rule struct {
	head  uint64
	off   uint32
	n     uint16 // a line is cut at 16,663 bytes; escaping at most triples it
	flags uint16
	line  int32
	// sig is the signature of a wildcard pattern's literal octets; for a
	// literal rule of a large bucket's hash table (hashLiterals), 1 + the
	// index of the next rule of its chain; 0 for other rules.
	sig uint32
}

// lit returns the length of ru's literal prefix (before the first '*' or
// a final '$'), at most ruleLitMax.
func (ru *rule) lit() int { return int(ru.flags >> ruleLitShift) }

// matchHead reports whether a path whose first eight octets are ph (as
// load8 reads them) starts with ru's head.
func (ru *rule) matchHead(ph uint64) bool { return (ph^ru.head)<<(ru.flags&ruleShift) == 0 }

// headOf returns the head of a pattern whose literal prefix has lit octets
// and whose first eight octets are w (octets past the prefix may be
// anything), and the flags of its head test.
func headOf(w uint64, lit int) (head uint64, flags uint16) {
	if lit == 0 {
		return '/', 64 - 8
	}
	h := min(lit, 8)
	return w & headMask[h&15], uint16(64 - 8*h)
}

// newRule compiles the pattern p into a new rule; see rule.set.
func newRule(p string, off int, line int32, allow bool) (ru rule, raw bool) {
	raw = ru.set(p, off, line, allow)
	return ru, raw
}

// set compiles the pattern p into ru in one pass: its kind, literal
// prefix, signature and head. raw reports whether p holds a '%' or a
// non-ASCII octet: octets that Google's normalisation may rewrite; a
// pattern without them is already in Google's form.
//
// It writes ru in place: a rule returned by value is spilled with narrow
// stores and copied with 16-byte loads, which stall store forwarding.
func (ru *rule) set(p string, off int, line int32, allow bool) (raw bool) {
	m := len(p) // octets before a final '$'
	exact := m > 0 && p[m-1] == '$'
	if exact {
		m--
	}
	// One pass, eight octets at a time, for the first '*', any '%' and
	// any non-ASCII octet. A pattern of at most eight octets is one
	// zero-padded word; a longer one ends with a word that overlaps octets
	// already read, which hold no '*' if star < 0.
	star := -1
	var or, pct uint64
	if m <= 8 {
		v := load8(p[:m])
		or, pct = v, octets.Eq(v, '%')
		if s := octets.Eq(v, '*'); s != 0 {
			star = octets.First(s)
		}
	} else {
		for i := 0; ; i += 8 {
			if i+8 > m {
				i = m - 8
			}
			v := octets.Load(p, i)
			or |= v
			pct |= octets.Eq(v, '%')
			if s := octets.Eq(v, '*'); s != 0 && star < 0 {
				star = i + octets.First(s)
			}
			if i+8 == m {
				break
			}
		}
	}
	ru.fill(p, off, line, allow, star, load8(p[:min(len(p), 8)]))
	return or&(0x80*octets.Ones) != 0 || pct != 0
}

// fill compiles the pattern p, whose first '*' is at star (-1: none) and
// whose first eight octets are w (as load8 reads them; octets past the end
// of p may be anything), into ru: everything set does once it has read p.
func (ru *rule) fill(p string, off int, line int32, allow bool, star int, w uint64) {
	m := len(p) // octets before a final '$'
	exact := m > 0 && p[m-1] == '$'
	if exact {
		m--
	}
	// Only wildcard patterns use a signature: of their literal octets, not
	// the '*' operators.
	var sig uint32
	lit, kind := len(p), uint16(ruleLiteral)
	switch {
	case star >= 0:
		for i := 0; i < m; i++ {
			if c := p[i]; c != '*' {
				sig |= 1 << (c & 31)
			}
		}
		lit, kind = star, 0
	case exact:
		lit, kind = m, ruleExact
	}
	if allow {
		kind |= ruleAllow
	}
	head, hf := headOf(w, lit)
	ru.head = head
	ru.off, ru.n, ru.line, ru.sig = uint32(off), uint16(min(len(p), 0xFFFF)), line, sig
	ru.flags = hf | kind | uint16(min(lit, ruleLitMax))<<ruleLitShift
}

// setLiteral compiles p into ru as a prefix of octets: '*' and '$' have
// no meaning (the 1994 standard and the 1996 draft have no wildcards). It
// writes ru in place, as set does.
func (ru *rule) setLiteral(p string, off int, line int32, allow bool) {
	head, hf := headOf(load8(p[:min(len(p), 8)]), len(p))
	*ru = rule{off: uint32(off), n: uint16(min(len(p), 0xFFFF)), line: line, head: head,
		flags: hf | ruleLiteral | uint16(min(len(p), ruleLitMax))<<ruleLitShift}
	if allow {
		ru.flags |= ruleAllow
	}
}

// load8 returns up to the first 8 octets of p, little-endian, zero-padded.
// It reads a shorter p without a loop: two 4-octet loads that may overlap,
// or for 1 to 3 octets the first, middle and last octet.
func load8(p string) uint64 {
	n := len(p)
	switch {
	case n >= 8:
		return octets.Load(p, 0)
	case n >= 4:
		return uint64(load4(p, 0)) | uint64(load4(p, n-4))<<(8*(n-4)&63)
	case n > 0:
		return uint64(p[0]) | uint64(p[n>>1])<<(8*(n>>1)) | uint64(p[n-1])<<(8*(n-1)&63)
	}
	return 0
}

// load4 returns s[i:i+4] as a little-endian number.
func load4(s string, i int) uint32 {
	s = s[i : i+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// headMask[k] keeps the first k octets of a load8 value; k is at most 8,
// and the table has 16 entries so that rule.mask needs no bounds check.
var headMask = [16]uint64{0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0xFFFFFFFFFF,
	0xFFFFFFFFFFFF, 0xFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF}

// signature sets bit c&31 for every octet c of s: a path whose signature
// lacks a bit of a pattern's cannot contain all of the pattern's octets.
func signature(s string) uint32 {
	var sig uint32
	for i := 0; i < len(s); i++ {
		sig |= 1 << (s[i] & 31)
	}
	return sig
}

// allows reports whether ru, as the deciding rule, allows: an Allow does,
// and so does a rule whose pattern is empty, since a match of length 0
// decides nothing (google/robotstxt disallow() compares priorities > 0).
func (ru *rule) allows() bool { return ru.flags&ruleAllow != 0 || ru.n == 0 }

// ruleset is the rules that apply to one agent, in Rules.rules[lo:hi].
//
// Each part of it is sorted in decision order: longest pattern first, Allow
// before Disallow on equal length (RFC 9309 §2.2.2; google/robotstxt), then
// file order (the reference library keeps the first of equal matches), so
// the first rule of a part that matches is that part's best. The parts:
// rules[lo:wild] may match any path; then come buckets of rules that begin
// with "/" and a literal octet c, which can only match paths whose second
// octet is c. bits has bit c set for each bucket, and the bucket of c is
// Rules.offs[offs+k : offs+k+2] where k counts the set bits below c. Small
// sets are not indexed: all their rules are in the first part.
type ruleset struct {
	lo, wild, hi uint32
	offs         uint32
	bits         [4]uint64
}

// indexMin is the smallest ruleset worth indexing by octet.
const indexMin = 8

// better reports whether a decides over b: longer pattern, then Allow,
// then earlier line.
func better(a, b *rule) bool {
	if a.n != b.n {
		return a.n > b.n
	}
	if a.flags&ruleAllow != b.flags&ruleAllow {
		return a.flags&ruleAllow != 0
	}
	return a.line < b.line
}

// bucketOf returns 1+c for a pattern "/c…" whose c is a literal octet, and
// 0 for a pattern that may match paths of any second octet.
func bucketOf(p string) uint64 {
	if len(p) < 2 || p[0] != '/' || p[1] == '*' || p[1] == '$' && len(p) == 2 {
		return 0
	}
	return 1 + uint64(p[1])
}

// bucket is bucketOf(ru's pattern), from its head: the pattern's second
// octet is a literal one when its literal prefix has two octets or more
// (not '*', nor the '$' of "/$"), and a rule that is kept and has a literal
// prefix starts with '/' (never).
func (ru *rule) bucket() uint64 {
	if ru.lit() < 2 {
		return 0
	}
	return 1 + ru.head>>8&0xFF
}

// agentEntry maps a lower-cased product token to the ruleset of the groups
// that name it.
type agentEntry struct {
	key    uint64 // foldKey of the token
	off, n uint32 // token in text
	set    int32
	group  int32 // first group that names the token
}

// group is a group being built: a run of User-agent lines and the lines up
// to the next User-agent line that follows a rule.
type group struct {
	line           int32  // line of the first User-agent line
	global         bool   // one of its User-agent lines is "*"
	ruleLines      int32  // Allow and Disallow lines the profile honours
	agLo, agHi     uint32 // User-agent values in builder.agents
	ruleLo, ruleHi uint32 // rules in file order, in builder.raw
	extLo, extHi   uint32 // extension lines in builder.exts
}

// groupInfo is what Rules keep of a group.
type groupInfo struct {
	line         int32
	global       bool
	set          int32 // own ruleset under firstRecord profiles, else -1
	agLo, agHi   uint32
	extLo, extHi uint32
}

// span is a string in Rules.text.
type span struct{ off, n uint32 }

// ext is an extension directive (Crawl-delay, Sitemap, …) as written.
type ext struct {
	field syntax.Field
	line  int32
	val   span
}

// builder turns lines into Rules. It mirrors the reference library's
// reading of groups: a User-agent line that follows a rule starts a new
// group; consecutive User-agent lines share one; rules before the first
// User-agent line belong to no group (RFC 9309 §2.1, §2.2.1).
type builder struct {
	sem     *semantics
	profile Profile
	arena   []byte
	raw     []rule // file order
	groups  []group
	agents  []span // raw tokens as written, per group (agLo:agHi)
	exts    []ext
	inRules bool // the current group has had a rule
	open    bool // a group is open: rules belong to it

	// scratch for finish
	tg     []tokGroup
	tg2    []tokGroup // scratch for sortTokens
	wg     []tokGroup // whole names that are not product tokens
	gs     []int32    // merged groups of the planned sets
	plans  []setPlan
	keys   []uint64
	tmp    []uint64
	counts []uint32
	offs   []uint32
	ents   []agentEntry
	wents  []agentEntry // of the whole names, wg
	gset   []int32
	subs   []subIndex
	tab    []uint32
	lens   []uint32
	litRs  []rule // scratch for hashLiterals
	sets   []ruleset
}

type tokGroup struct {
	key   uint64 // foldKey of the token: most comparisons end there
	tok   span
	group int32
}

// Builders are pooled: their slices are scratch space that Parse would
// otherwise grow again for every file.
var builderPool = sync.Pool{New: func() any { return new(builder) }}

func newBuilder(p Profile) *builder {
	b := builderPool.Get().(*builder)
	b.profile, b.sem, b.inRules, b.open = p, p.semantics(), false, false
	b.arena, b.raw, b.groups, b.agents, b.exts = b.arena[:0], b.raw[:0], b.groups[:0], b.agents[:0], b.exts[:0]
	b.tg, b.gs, b.plans, b.keys, b.tmp = b.tg[:0], b.gs[:0], b.plans[:0], b.keys[:0], b.tmp[:0]
	b.offs, b.ents, b.gset = b.offs[:0], b.ents[:0], b.gset[:0]
	b.wg, b.wents = b.wg[:0], b.wents[:0]
	b.subs, b.tab, b.lens = b.subs[:0], b.tab[:0], b.lens[:0]
	return b
}

// release returns b to the pool, without any scratch slice that grew too
// large to keep: a huge file should neither pin its scratch nor make the
// next file regrow all of it.
func (b *builder) release() {
	if cap(b.arena) > 1<<20 {
		b.arena = nil
	}
	if cap(b.raw) > 1<<16 {
		b.raw = nil
	}
	if cap(b.keys) > 1<<16 || cap(b.tmp) > 1<<16 {
		b.keys, b.tmp = nil, nil
	}
	builderPool.Put(b)
}

func (b *builder) str(s string) span {
	off := len(b.arena)
	b.put(s)
	return span{uint32(off), uint32(len(s))}
}

// put appends s to the arena. Unless the arena must grow, it stores only
// the arena's new length: append(b.arena, s...) stores its pointer too,
// which takes a write barrier while the garbage collector marks.
func (b *builder) put(s string) {
	n := len(b.arena)
	if cap(b.arena)-n < len(s) {
		b.arena = slices.Grow(b.arena, len(s))
	}
	b.arena = b.arena[:n+len(s)]
	copy(b.arena[n:], s)
}

// view returns s as a string without copying; valid while the builder
// lives (the arena only grows, and a grown arena leaves old bytes intact).
func (b *builder) view(s span) string {
	return unsafe.String(unsafe.SliceData(b.arena[s.off:]), int(s.n))
}

// tail returns the arena from off as a string, without copying; valid
// until the arena next grows.
func (b *builder) tail(off int) string {
	return unsafe.String(unsafe.SliceData(b.arena[off:]), len(b.arena)-off)
}

// line reads a line of a parsed file, or a line that read reads the
// general way; text is the text l's positions are in.
func (b *builder) line(text string, l *syntax.Line, line int32) {
	if l.Kind != syntax.DirectiveLine {
		if l.Kind == syntax.BlankLine && b.sem.blankEndsGroup {
			b.open = false
		}
		return
	}
	b.directive(l.Field, l.Flags, text[l.Value.Start.Offset:l.Value.End.Offset], line)
}

// directive reads a directive line.
func (b *builder) directive(f syntax.Field, flags syntax.Flags, val string, line int32) {
	if flags&syntax.MissingColon != 0 && !b.sem.missingColon {
		return
	}
	if flags&syntax.Lenient != 0 && !b.sem.lenientKeys {
		f = syntax.Unknown
	}
	switch f {
	case syntax.UserAgent:
		if len(b.groups) == 0 || b.inRules || !b.open {
			// Appended empty and filled in place: see rule.set.
			b.groups = append(b.groups, group{})
			g := &b.groups[len(b.groups)-1]
			g.line = line
			g.agLo, g.agHi = uint32(len(b.agents)), uint32(len(b.agents))
			g.ruleLo, g.ruleHi = uint32(len(b.raw)), uint32(len(b.raw))
			g.extLo, g.extHi = uint32(len(b.exts)), uint32(len(b.exts))
			b.inRules, b.open = false, true
		}
		g := &b.groups[len(b.groups)-1]
		if isGlobal(val) && (!b.sem.firstRecord || val == "*") {
			// The old standards know only "*" itself (1994 standard:
			// "If the value is '*', the record describes the default").
			g.global = true
		}
		b.agents = append(b.agents, b.str(val))
		g.agHi++
	case syntax.Allow, syntax.Disallow:
		if f == syntax.Allow && b.sem.noAllow {
			return // an unknown line to the 1994 standard
		}
		if len(b.groups) == 0 || !b.open {
			return // no group: the reference library ignores the rule
		}
		b.inRules = true
		g := &b.groups[len(b.groups)-1]
		g.ruleLines++
		b.rule(val, line, f == syntax.Allow)
		g.ruleHi = uint32(len(b.raw))
	case syntax.Unknown:
	default:
		b.exts = append(b.exts, ext{field: f, line: line, val: b.str(val)})
		if len(b.groups) > 0 && b.open {
			b.groups[len(b.groups)-1].extHi = uint32(len(b.exts))
		}
	}
}

// isGlobal reports whether a User-agent value names every robot: "*", or
// "*" followed by white space and anything (google/robotstxt,
// HandleUserAgent).
func isGlobal(v string) bool {
	return len(v) > 0 && v[0] == '*' && (len(v) == 1 || isCSpace(v[1]))
}

// isCSpace reports whether c is white space as C's isspace sees it in the
// C locale, which is what Google's parser trims: ' ', '\t', '\n', '\v',
// '\f' and '\r', as bits of one constant.
func isCSpace(c byte) bool {
	return c <= ' ' && (1<<' '|1<<'\t'|1<<'\n'|1<<'\v'|1<<'\f'|1<<'\r')>>c&1 != 0
}

// productToken returns the leading [A-Za-z_-] characters of a User-agent
// value: the product token as RFC 9309 §2.2.1 defines it and as the
// reference library extracts it ("Googlebot/2.1" → "Googlebot",
// "MJ12bot" → "MJ").
func productToken(v string) string {
	i := 0
	for i < len(v) && isTokenChar(v[i]) {
		i++
	}
	return v[:i]
}

// ProductToken returns the product token of a User-agent value or of a
// name given as an agent: its leading run of [A-Za-z_-], as RFC 9309
// §2.2.1 defines the token and as Google's parser compares it
// ("Googlebot/2.1" → "Googlebot", "MJ12bot" → "MJ", "360Spider" → "").
func ProductToken(v string) string { return productToken(v) }

// wholeName returns a User-agent value up to its first '/' or white
// space: the robot's name as written ("MJ12bot/v1.4" → "MJ12bot"), which
// robots read by whole name compare ([Agent.WholeName]).
func wholeName(v string) string {
	for i := 0; i < len(v); i++ {
		if v[i] == '/' || isCSpace(v[i]) {
			return v[:i]
		}
	}
	return v
}

func isTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}

func (b *builder) rule(val string, line int32, allow bool) {
	sem := b.sem
	if sem.noAllow && val == "" {
		// 1994 standard: an empty Disallow forbids nothing; the record
		// still counts (ruleLines), so the robot does not fall back to "*".
		return
	}
	off := len(b.arena)
	// The rule is compiled in place (see rule.set), and dropped again if
	// it can never match.
	b.raw = append(b.raw, rule{})
	ru := &b.raw[len(b.raw)-1]
	switch {
	case sem.noWildcards:
		if sem.rawEncoding {
			b.put(val)
		} else {
			// '*' and '$' are data, normalised as in a URL's path.
			b.arena = pattern.AppendRFC(b.arena, val, pattern.Path)
		}
		ru.setLiteral(b.tail(off), off, line, allow)
	case sem.rfcEncoding:
		b.arena = pattern.AppendRFC(b.arena, val, pattern.Rule)
		ru.set(b.tail(off), off, line, allow)
	default:
		if !ru.set(val, off, line, allow) {
			b.put(val) // already in Google's form
			break
		}
		b.arena = pattern.AppendGoogle(b.arena, val)
		ru.set(b.tail(off), off, line, allow)
	}
	if ru.never() {
		// Nor can its index.html variant, which starts with the same octet.
		b.arena = b.arena[:off]
		b.raw = b.raw[:len(b.raw)-1]
		return
	}
	if allow && b.sem.indexHTML {
		b.indexHTML(off, line)
	}
}

// indexHTML adds the rule google/robotstxt's HandleAllow adds for an Allow
// whose pattern, at off in the arena, ends in /index.htm[l]: it also
// allows "/d/" exactly, as the pattern "/d/$", with that pattern's length.
func (b *builder) indexHTML(off int, line int32) {
	pat := b.arena[off:]
	if i := lastSlash(pat); i >= 0 && bytes.HasPrefix(pat[i:], indexHTM) {
		o2 := len(b.arena)
		b.arena = append(b.arena, b.arena[off:off+i+1]...)
		b.arena = append(b.arena, '$')
		b.raw = append(b.raw, rule{})
		b.raw[len(b.raw)-1].set(b.tail(o2), o2, line, true)
	}
}

var indexHTM = []byte("/index.htm")

func lastSlash(p []byte) int {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return i
		}
	}
	return -1
}

func (b *builder) finish() *Rules {
	r := &Rules{profile: b.profile, sem: b.sem, firstRecord: b.sem.firstRecord}
	for range b.groups {
		b.gset = append(b.gset, -1)
	}
	if b.sem.firstRecord {
		b.planRecords(r)
	} else {
		b.planMerged(r)
	}
	total := 0
	for _, p := range b.plans {
		total += p.n
	}
	r.rules = make([]rule, total)
	b.sets = slices.Grow(b.sets[:0], len(b.plans))[:len(b.plans)]
	lo := 0
	for k, p := range b.plans {
		b.sets[k] = b.fillSet(r.rules[lo:lo+p.n], uint32(lo), b.gs[p.gsLo:p.gsHi])
		lo += p.n
	}

	// Copy out exactly sized slices, all carved from one allocation (the
	// rules aside, which fillSet wrote in place); the scratch goes back to
	// the pool. One allocation instead of nine is less work for Parse and
	// keeps what a check reads of a file close together: the rulesets,
	// agents, buckets and text.
	n := words[ruleset](len(b.sets)) + words[agentEntry](len(b.ents)+len(b.wents)) + words[uint32](len(b.offs)) +
		words[subIndex](len(b.subs)) + words[uint32](len(b.tab)) + words[uint32](len(b.lens)) +
		words[groupInfo](len(b.groups)) + words[span](len(b.agents)) + words[ext](len(b.exts)) +
		words[byte](len(b.arena))
	buf := make([]uint64, n)
	r.sets = carve[ruleset](&buf, len(b.sets))
	copy(r.sets, b.sets)
	// The whole names' entries follow the product tokens' (Rules.wholes).
	ents := carve[agentEntry](&buf, len(b.ents)+len(b.wents))
	copy(ents, b.ents)
	copy(ents[len(b.ents):], b.wents)
	r.agents = ents[:len(b.ents):len(ents)]
	r.offs = carve[uint32](&buf, len(b.offs))
	copy(r.offs, b.offs)
	if len(b.subs) > 0 {
		hs := &hashed{subs: carve[subIndex](&buf, len(b.subs)), tab: carve[uint32](&buf, len(b.tab)),
			lens: carve[uint32](&buf, len(b.lens))}
		copy(hs.subs, b.subs)
		copy(hs.tab, b.tab)
		copy(hs.lens, b.lens)
		r.hashed = hs
	}
	r.groups = carve[groupInfo](&buf, len(b.groups))
	for i := range b.groups {
		// Field by field: a groupInfo value would be copied through
		// stalled store forwarding (see rule.set).
		g, gi := &b.groups[i], &r.groups[i]
		gi.line, gi.global, gi.set = g.line, g.global, -1
		gi.agLo, gi.agHi, gi.extLo, gi.extHi = g.agLo, g.agHi, g.extLo, g.extHi
		if b.sem.firstRecord {
			gi.set = b.gset[i]
		}
	}
	r.agentSpans = carve[span](&buf, len(b.agents))
	copy(r.agentSpans, b.agents)
	r.exts = carve[ext](&buf, len(b.exts))
	copy(r.exts, b.exts)
	if text := carve[byte](&buf, len(b.arena)); len(text) > 0 {
		copy(text, b.arena)
		r.text = unsafe.String(&text[0], len(text)) // never written again
	}
	return r
}

// words returns how many 8-byte words n values of type T take, rounded up.
func words[T any](n int) int {
	var t T
	return (n*int(unsafe.Sizeof(t)) + 7) / 8
}

// carve returns the first n values of type T of *buf and moves *buf past
// them, rounded up to a word. T must hold no pointers, since the garbage
// collector does not scan a []uint64, and need no more than 8-byte
// alignment, which every word has on every architecture.
func carve[T any](buf *[]uint64, n int) []T {
	if n == 0 {
		return nil
	}
	s := unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(*buf))), n)
	*buf = (*buf)[words[T](n):]
	return s
}

// planMerged plans the rulesets of RFC 9309 §2.2.1: one per distinct
// product token, merging every group that names it, and one merging the
// "*" groups. A group named alone by several tokens gets one ruleset. The
// sets are planned first, so that their rules can be sorted straight into
// one exactly sized slice.
//
// A User-agent value whose whole name (wholeName) is not a product token,
// such as "MJ12bot", also gives that name a ruleset, merged the same way,
// for the robots read by whole name ([Agent.WholeName]); most files have
// no such value.
func (b *builder) planMerged(r *Rules) {
	// Lower-cased product tokens, with the group that names each.
	for gi := range b.groups {
		g := &b.groups[gi]
		for _, a := range b.agents[g.agLo:g.agHi] {
			v := b.view(a)
			if isGlobal(v) {
				continue
			}
			p := productToken(v)
			t := b.str(p)
			lowerASCII(b.arena[t.off : t.off+t.n])
			// Appended empty and filled in place: see rule.set.
			b.tg = append(b.tg, tokGroup{})
			tg := &b.tg[len(b.tg)-1]
			tg.key, tg.tok, tg.group = foldKey(b.view(t)), t, int32(gi)
			if n := len(p); n < len(v) && v[n] != '/' && !isCSpace(v[n]) {
				// v (a view of the arena as it was) is still intact.
				w := b.str(wholeName(v))
				lowerASCII(b.arena[w.off : w.off+w.n])
				b.wg = append(b.wg, tokGroup{key: foldKey(b.view(w)), tok: w, group: int32(gi)})
			}
		}
	}
	b.sortTokens()
	b.ents = b.planEntries(b.tg, b.ents)
	if len(b.wg) > 0 {
		slices.SortFunc(b.wg, b.tokCompare)
		b.wents = b.planEntries(b.wg, b.wents)
	}
	gsLo := len(b.gs)
	for gi := range b.groups {
		if b.groups[gi].global {
			b.gs = append(b.gs, int32(gi))
		}
	}
	if len(b.gs) > gsLo {
		r.global = b.planSet(gsLo) + 1
		r.globalGroup = b.gs[gsLo] + 1
	}
}

// planEntries plans a ruleset for each distinct token of tg, sorted as
// sortTokens sorts it, merging the groups that name it, and appends their
// entries to ents.
func (b *builder) planEntries(tg []tokGroup, ents []agentEntry) []agentEntry {
	for i := 0; i < len(tg); {
		gsLo := len(b.gs)
		j := i
		for ; j < len(tg) && b.view(tg[j].tok) == b.view(tg[i].tok); j++ {
			if len(b.gs) == gsLo || b.gs[len(b.gs)-1] != tg[j].group {
				b.gs = append(b.gs, tg[j].group)
			}
		}
		set := b.planSet(gsLo)
		ents = append(ents, agentEntry{})
		e, t := &ents[len(ents)-1], &tg[i]
		e.key, e.off, e.n, e.set, e.group = t.key, t.tok.off, t.tok.n, set, b.gs[gsLo]
		i = j
	}
	return ents
}

// sortTokens sorts b.tg by token, and equal tokens in file order (by group,
// then by offset in the arena, which grows in file order): what a stable
// sort by token gives (tokCompare). Most of the work compares integers:
// the first six octets of each key with the entry's index below them,
// sorted by slices.Sort; an insertion pass with tokCompare then orders the
// runs of keys that share those six octets, and checks the rest.
func (b *builder) sortTokens() {
	tg := b.tg
	n := len(tg)
	if n > 1<<16 {
		slices.SortFunc(tg, b.tokCompare)
		return
	}
	keys := slices.Grow(b.keys[:0], n)[:n]
	for i := range tg {
		keys[i] = tg[i].key&^0xFFFF | uint64(i)
	}
	slices.Sort(keys)
	sorted := slices.Grow(b.tg2[:0], n)[:n]
	for i, k := range keys {
		sorted[i] = tg[uint16(k)]
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0 && b.tokCompare(sorted[j-1], sorted[j]) > 0; j-- {
			sorted[j-1], sorted[j] = sorted[j], sorted[j-1]
		}
	}
	b.keys, b.tg, b.tg2 = keys, sorted, tg
}

// tokCompare orders tokGroups by token, then group, then offset.
func (b *builder) tokCompare(x, y tokGroup) int {
	if x.key != y.key {
		return cmp.Compare(x.key, y.key)
	}
	if c := strings.Compare(b.view(x.tok), b.view(y.tok)); c != 0 {
		return c
	}
	if x.group != y.group {
		return cmp.Compare(x.group, y.group)
	}
	return cmp.Compare(x.tok.off, y.tok.off)
}

// planRecords plans a ruleset per record for the profiles that obey one
// record and never merge (firstRecord). A record without rule lines is
// none; the first "*" record with rule lines is the default.
func (b *builder) planRecords(r *Rules) {
	for gi := range b.groups {
		if b.groups[gi].ruleLines == 0 {
			continue
		}
		gsLo := len(b.gs)
		b.gs = append(b.gs, int32(gi))
		set := b.planSet(gsLo)
		if b.groups[gi].global && r.global == 0 {
			r.global, r.globalGroup = set+1, int32(gi)+1
		}
	}
}

// setPlan is a ruleset to build: the merged groups b.gs[gsLo:gsHi], n rules.
type setPlan struct {
	gsLo, gsHi int
	n          int
}

// planSet plans the ruleset of the merged groups b.gs[gsLo:] and returns
// its index; a lone group that already has a ruleset keeps it.
func (b *builder) planSet(gsLo int) int32 {
	gs := b.gs[gsLo:]
	if len(gs) == 1 && b.gset[gs[0]] >= 0 {
		return b.gset[gs[0]]
	}
	n := 0
	for _, gi := range gs {
		n += int(b.groups[gi].ruleHi - b.groups[gi].ruleLo)
	}
	b.plans = append(b.plans, setPlan{gsLo: gsLo, gsHi: len(b.gs), n: n})
	id := int32(len(b.plans) - 1)
	if len(gs) == 1 {
		b.gset[gs[0]] = id
	}
	return id
}

// never reports whether ru can match no path: every path starts with '/'
// (RFC 9309 §2.2.2; PathOf), so a pattern whose literal prefix starts
// with another octet ("https://…", "page.html") never matches.
func (ru *rule) never() bool { return ru.lit() > 0 && byte(ru.head) != '/' }

// fillSet sorts the rules of the merged groups gs into dst, which starts at
// lo in Rules.rules, and returns their ruleset.
func (b *builder) fillSet(dst []rule, lo uint32, gs []int32) ruleset {
	n := len(dst)
	index := n >= indexMin && !b.sem.firstMatch
	// One sort puts every rule in place: bucket, then decision order. The
	// key is bucket (9 bits) | rank (17: longest first, then Allow first)
	// | index in b.raw, which is file order (32). Patterns are shorter than
	// 2^16 octets: a line is cut at 16,663 bytes and escaping at most
	// triples it. The loop also ors the patterns' lengths, a bound of
	// them that sizes the counting sort's table.
	// The keys are written by index into a slice of exactly n: an append
	// would load and store b.keys for every key.
	keys := slices.Grow(b.keys[:0], n)[:n]
	k := 0
	firstMatch := b.sem.firstMatch
	var nor uint16
	ascending, prev := true, int32(-1)
	for _, gi := range gs {
		ascending, prev = ascending && gi > prev, gi
		g := &b.groups[gi]
		nor |= sortKeys(keys[k:], b.raw[g.ruleLo:g.ruleHi], g.ruleLo, index, firstMatch)
		k += int(g.ruleHi - g.ruleLo)
	}
	b.keys = keys

	set := ruleset{lo: lo, wild: lo + uint32(n), hi: lo + uint32(n), offs: uint32(len(b.offs))}
	// The groups' rules come in file order when the groups do (planMerged
	// and planRecords list them so): the keys then ascend in their low 32
	// bits, and stable counting sorts order them in linear time, by rank
	// from (0xFFFF-nor)<<1 on.
	rlo, ranks := (0xFFFF-uint64(nor))<<1, 2*int(nor)+2
	if firstMatch {
		rlo, ranks = 0, 1
	}
	if n >= countMin && ascending && ranks <= 2*n+1024 {
		b.countSort(dst, &set, rlo, ranks, index)
	} else {
		slices.Sort(keys) // an insertion sort for n < 12
		last := uint64(0)
		for k, key := range keys {
			if bucket := key >> 49; bucket != last {
				if last == 0 {
					set.wild = lo + uint32(k)
				}
				c := bucket - 1
				set.bits[c>>6] |= 1 << (c & 63)
				b.offs = append(b.offs, lo+uint32(k))
				last = bucket
			}
			dst[k] = b.raw[uint32(key)]
		}
		if last != 0 {
			b.offs = append(b.offs, set.hi)
		}
	}
	if set.wild < set.hi {
		for o := int(set.offs); o+1 < len(b.offs); o++ {
			if start, end := b.offs[o], b.offs[o+1]; end-start >= uint32(subMin) && end < subFlag &&
				b.hashLiterals(dst[start-lo:end-lo], start) {
				b.offs[o] |= subFlag
			}
		}
	}
	return set
}

// sortKeys writes to keys the sort keys of rs, which start at index i in
// builder.raw, and returns the or of their lengths. A function of its own,
// its loop keeps its values in registers.
//
//go:noinline
func sortKeys(keys []uint64, rs []rule, i uint32, index, firstMatch bool) (nor uint16) {
	keys = keys[:len(rs)]
	for k := range rs {
		ru := &rs[k]
		var bucket, rank uint64
		if index {
			bucket = ru.bucket()
		}
		if !firstMatch {
			rank = uint64(0xFFFF-ru.n)<<1 | uint64(ru.flags&ruleAllow^ruleAllow)/ruleAllow
			nor |= ru.n
		} // else file order decides (1996 draft §3.2.2).
		keys[k] = bucket<<49 | rank<<32 | uint64(i)
		i++
	}
	return nor
}

// countMin is the smallest ruleset that fillSet sorts by counting.
const countMin = 16

// countSort sorts the rules of b.keys, which ascend in their low 32 bits
// (file order), into dst and records set's buckets, as slices.Sort of the
// keys would order them: two stable counting sorts, by rank (bits 32-48,
// ranks rlo to rlo+ranks-1), then, for an indexed set, by bucket (bits 49
// and up). The last one writes the rules themselves.
func (b *builder) countSort(dst []rule, set *ruleset, rlo uint64, ranks int, index bool) {
	keys := b.keys
	// By rank: count[r+1] counts rank rlo+r, then count[r] is where the
	// next key of that rank goes.
	count := slices.Grow(b.counts[:0], ranks+1)[:ranks+1]
	clear(count)
	for _, k := range keys {
		count[k>>32&(1<<17-1)-rlo+1]++
	}
	for r := 1; r < len(count); r++ {
		count[r] += count[r-1]
	}
	b.counts = count
	if !index {
		for _, k := range keys {
			r := k>>32&(1<<17-1) - rlo
			dst[count[r]] = b.raw[uint32(k)]
			count[r]++
		}
		return
	}
	tmp := slices.Grow(b.tmp[:0], len(keys))[:len(keys)]
	for _, k := range keys {
		r := k>>32&(1<<17-1) - rlo
		tmp[count[r]] = k
		count[r]++
	}
	b.tmp = tmp
	// By bucket: start[c] counts bucket c, and used has bit c set for it,
	// then start[c] is where the next key of bucket c goes; each bucket's
	// start, once known, is the bucket's offset in Rules.offs.
	var start [257]uint32
	var used [5]uint64
	for _, k := range tmp {
		c := k >> 49
		start[c]++
		used[c>>6] |= 1 << (c & 63)
	}
	pos := uint32(0)
	for w, u := range used {
		for ; u != 0; u &= u - 1 {
			c := w<<6 | bits.TrailingZeros64(u)
			m := start[c]
			start[c] = pos
			if c != 0 {
				if set.wild == set.hi {
					set.wild = set.lo + pos
				}
				set.bits[(c-1)>>6] |= 1 << ((c - 1) & 63)
				b.offs = append(b.offs, set.lo+pos)
			}
			pos += m
		}
	}
	if set.wild != set.hi {
		b.offs = append(b.offs, set.hi)
	}
	for _, k := range tmp {
		c := k >> 49
		dst[start[c]] = b.raw[uint32(k)]
		start[c]++
	}
}

// subMin is the smallest bucket whose literal rules are hashed
// (hashLiterals): below it, scanning the bucket's heads is as fast. A
// variable so that tests can lower it.
var subMin = 64

// subFlag marks, in Rules.offs, the start of a bucket with hashed literal
// rules; rule indexes stay below it.
const subFlag = 1 << 31

// hashed holds the hash tables of a Rules' large buckets (hashLiterals),
// apart: few files have one.
type hashed struct {
	subs []subIndex // by start
	tab  []uint32   // the tables
	lens []uint32   // the literal lengths
}

// subIndex is the hashed literal part of a large bucket.
type subIndex struct {
	start  uint32 // the bucket's first rule
	split  uint32 // its first literal rule, the end of the others
	tab    uint32 // its hash table, hashed.tab[tab : tab+mask+1]
	mask   uint32
	lensLo uint32 // the lengths of its literal patterns, longest first,
	lensHi uint32 // in hashed.lens[lensLo:lensHi]
}

// hashLiterals gives a large bucket, which starts at index start in
// Rules.rules and is in decision order, a hash table of its literal
// (prefix) rules, if they have few distinct lengths; it reports whether it
// did. The literal rules move to the end of the bucket, and the others,
// which are scanned as in any bucket, keep their order.
//
// A literal pattern of length n matches a path whose first n octets are
// the pattern, so Rules.firstHashed looks up the path's prefix of each
// length, longest first, instead of testing every rule. Rules of one
// length that match a path have equal patterns; the first of them in
// decision order decides. The table chains rules through sig (1 + index
// of the next; 0: none), with the better rules first.
func (b *builder) hashLiterals(rs []rule, start uint32) bool {
	// Decision order is longest first: the literal rules' lengths come
	// in runs.
	nlit, lens := 0, len(b.lens)
	mixed := false // a literal rule comes before another rule
	for i := range rs {
		ru := &rs[i]
		if ru.flags&ruleLiteral == 0 {
			mixed = mixed || nlit > 0
			continue
		}
		if nlit == 0 || uint32(ru.n) != b.lens[len(b.lens)-1] {
			b.lens = append(b.lens, uint32(ru.n))
		}
		nlit++
	}
	if distinct := len(b.lens) - lens; nlit == 0 || distinct > 4 && distinct*8 > nlit {
		b.lens = b.lens[:lens] // each length costs a lookup: scan instead
		return false
	}
	k := len(rs) - nlit
	if mixed {
		// The literal rules wait in b.litRs while the others move up.
		tmp := b.litRs[:0]
		j := 0
		for i := range rs {
			if rs[i].flags&ruleLiteral != 0 {
				tmp = append(tmp, rs[i])
				continue
			}
			rs[j] = rs[i] // j <= i: rs[i] is read before it is written
			j++
		}
		copy(rs[k:], tmp)
		b.litRs = tmp
	}
	size := 1
	for size*2 < nlit { // chains of two rules on average: half the memory
		size <<= 1
	}
	tab := len(b.tab)
	b.tab = slices.Grow(b.tab, size)[:tab+size]
	clear(b.tab[tab:])
	// Inserted worst first, at the heads of the chains: better rules come
	// first.
	for at := len(rs) - 1; at >= k; at-- {
		ru := &rs[at]
		h := tab + int(litHash(b.view(span{ru.off, uint32(ru.n)}))&uint32(size-1))
		ru.sig, b.tab[h] = b.tab[h], start+uint32(at)+1
	}
	b.subs = append(b.subs, subIndex{start: start, split: start + uint32(k), tab: uint32(tab),
		mask: uint32(size - 1), lensLo: uint32(lens), lensHi: uint32(len(b.lens))})
	return true
}

// litHash hashes a literal pattern, or the prefix of a path of the same
// length, eight octets at a time.
func litHash(s string) uint32 {
	const m = 0x9E3779B97F4A7C15
	h := uint64(len(s)) * m
	for ; len(s) >= 8; s = s[8:] {
		h = (h ^ octets.Load(s, 0)) * m
	}
	if len(s) > 0 {
		h = (h ^ load8(s)) * m
	}
	return uint32(h >> 32)
}

func lowerASCII(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}
