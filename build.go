package robots

import (
	"bytes"
	"slices"
	"sync"
	"unsafe"

	"github.com/robotskit/robots/internal/lines"
	"github.com/robotskit/robots/internal/pattern"
	"github.com/robotskit/robots/syntax"
)

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

// line reads a line of a parsed file; text is the text l's positions are
// in. (read reads its lines the general way with scanned, alike.)
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
	return len(v) > 0 && v[0] == '*' && (len(v) == 1 || lines.IsSpace(v[1]))
}

// LineToken returns the product token that the value of a User-agent
// line names: its leading run of [A-Za-z_-], as RFC 9309 §2.2.1 defines
// the token and as Google's parser compares it ("Googlebot/2.1" →
// "Googlebot", "MJ12bot" → "MJ", "360Spider" → ""). It reads a line of
// robots.txt, not a User-Agent header: package agents finds the robot a
// header names.
func LineToken(v string) string { return lines.ProductToken(v) }

// wholeName returns a User-agent value up to its first '/' or white
// space: the robot's name as written ("MJ12bot/v1.4" → "MJ12bot"), which
// robots read by whole name compare ([Agent.WholeName]).
func wholeName(v string) string {
	for i := 0; i < len(v); i++ {
		if v[i] == '/' || lines.IsSpace(v[i]) {
			return v[:i]
		}
	}
	return v
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

func lowerASCII(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}
