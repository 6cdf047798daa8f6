package robots

import (
	"bytes"
	"cmp"
	"slices"
	"strings"
	"unsafe"

	"github.com/robotskit/robots/internal/pattern"
	"github.com/robotskit/robots/syntax"
)

// MaxBytes is how much of a robots.txt body a robot reads: Google reads
// 500 KiB and ignores what follows (seed 003), and RFC 9309 §2.5 asks every
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
	var b builder
	b.init(p, len(src))
	var s syntax.Scanner
	text := unsafe.String(unsafe.SliceData(src), len(src)) // read only during Parse
	s.Init(text)
	var l syntax.Line
	for s.Scan(&l) {
		b.line(text, &l)
	}
	return b.finish()
}

// Compile compiles a parsed file as profile p reads it. For the same input,
// Compile(syntax.Parse(name, src), p) and Parse(src, p) make the same rules.
func Compile(f *syntax.File, p Profile) *Rules {
	text := f.String()
	var b builder
	b.init(p, len(text))
	for i := range f.Lines {
		b.line(text, &f.Lines[i])
	}
	return b.finish()
}

// Rule flags.
const (
	ruleAllow   = 1 << iota
	ruleLiteral // no '*' and no final '$': a prefix test
	ruleExact   // no '*', final '$': an equality test
	ruleIndex   // made by Google's index.html rule
)

// rule is one compiled Allow or Disallow. Its pattern is text[off:off+n].
type rule struct {
	off, n uint32
	prio   int32 // octets of the normalised pattern (RFC 9309 §2.2.2)
	line   int32
	flags  uint8
}

// ruleset is a range of Rules.rules sorted so that the first rule that
// matches decides: longest pattern first, Allow before Disallow on equal
// length (RFC 9309 §2.2.2; google/robotstxt), then file order (the
// reference library keeps the first of equal matches).
type ruleset struct {
	lo, hi uint32
}

func sortRules(rs []rule) {
	slices.SortFunc(rs, func(a, b rule) int {
		if c := cmp.Compare(b.prio, a.prio); c != 0 {
			return c
		}
		if c := cmp.Compare(b.flags&ruleAllow, a.flags&ruleAllow); c != 0 {
			return c
		}
		return cmp.Compare(a.line, b.line)
	})
}

// agentEntry maps a lower-cased product token to the ruleset of the groups
// that name it.
type agentEntry struct {
	off, n uint32 // token in text
	set    int32
	group  int32 // first group that names the token
}

// group is a group being built: a run of User-agent lines and the lines up
// to the next User-agent line that follows a rule.
type group struct {
	line           int32  // line of the first User-agent line
	global         bool   // one of its User-agent lines is "*"
	agLo, agHi     uint32 // User-agent values in builder.agents
	ruleLo, ruleHi uint32 // rules in file order, in builder.raw
	extLo, extHi   uint32 // extension lines in builder.exts
}

// groupInfo is what Rules keep of a group.
type groupInfo struct {
	line         int32
	global       bool
	agLo, agHi   uint32
	extLo, extHi uint32
	rules        uint32 // number of rules, index.html variants included
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
}

func (b *builder) init(p Profile, n int) {
	b.profile = p
	b.sem = p.semantics()
	b.arena = make([]byte, 0, n/2+16)
}

func (b *builder) str(s string) span {
	off := len(b.arena)
	b.arena = append(b.arena, s...)
	return span{uint32(off), uint32(len(s))}
}

// view returns s as a string without copying; valid while the builder
// lives (the arena only grows, and a grown arena leaves old bytes intact).
func (b *builder) view(s span) string {
	return unsafe.String(unsafe.SliceData(b.arena[s.off:]), int(s.n))
}

func (b *builder) line(text string, l *syntax.Line) {
	if l.Kind != syntax.DirectiveLine {
		return
	}
	if l.Flags&syntax.MissingColon != 0 && !b.sem.missingColon {
		return
	}
	f := l.Field
	if l.Flags&syntax.Lenient != 0 && !b.sem.lenientKeys {
		f = syntax.Unknown
	}
	val := text[l.Value.Start.Offset:l.Value.End.Offset]
	line := int32(l.Span.Start.Line)
	switch f {
	case syntax.UserAgent:
		if len(b.groups) == 0 || b.inRules {
			b.groups = append(b.groups, group{line: line,
				agLo: uint32(len(b.agents)), agHi: uint32(len(b.agents)),
				ruleLo: uint32(len(b.raw)), ruleHi: uint32(len(b.raw)),
				extLo: uint32(len(b.exts)), extHi: uint32(len(b.exts))})
			b.inRules = false
		}
		g := &b.groups[len(b.groups)-1]
		if isGlobal(val) {
			g.global = true
		}
		b.agents = append(b.agents, b.str(val))
		g.agHi++
	case syntax.Allow, syntax.Disallow:
		if len(b.groups) == 0 {
			return // no group yet: the reference library ignores the rule
		}
		b.inRules = true
		b.rule(val, line, f == syntax.Allow)
		b.groups[len(b.groups)-1].ruleHi = uint32(len(b.raw))
	case syntax.Unknown:
	default:
		b.exts = append(b.exts, ext{field: f, line: line, val: b.str(val)})
		if len(b.groups) > 0 {
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

func isCSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' || c == '\n'
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

func isTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}

func (b *builder) rule(val string, line int32, allow bool) {
	off := len(b.arena)
	if b.sem.rfcEncoding {
		b.arena = pattern.AppendRFC(b.arena, val, pattern.Rule)
	} else {
		b.arena = pattern.AppendGoogle(b.arena, val)
	}
	pat := b.arena[off:]
	var flags uint8
	if allow {
		flags |= ruleAllow
	}
	b.raw = append(b.raw, rule{off: uint32(off), n: uint32(len(pat)), prio: int32(len(pat)), line: line, flags: flags | kindOf(pat)})
	if allow && b.sem.indexHTML {
		// google/robotstxt HandleAllow: "Allow: /d/index.html" also allows
		// "/d/" exactly, as the pattern "/d/$", with that pattern's length.
		if i := lastSlash(pat); i >= 0 && bytes.HasPrefix(pat[i:], indexHTM) {
			o2 := len(b.arena)
			b.arena = append(b.arena, b.arena[off:off+i+1]...)
			b.arena = append(b.arena, '$')
			n := i + 2
			b.raw = append(b.raw, rule{off: uint32(o2), n: uint32(n), prio: int32(n), line: line,
				flags: ruleAllow | ruleIndex | kindOf(b.arena[o2:])})
		}
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

func kindOf(p []byte) uint8 {
	for i, c := range p {
		if c == '*' {
			return 0
		}
		if c == '$' && i == len(p)-1 {
			return ruleExact
		}
	}
	return ruleLiteral
}

func (b *builder) finish() *Rules {
	r := &Rules{profile: b.profile, global: -1, globalGroup: -1}

	// Lower-cased product tokens, with the group that names each.
	type tokGroup struct {
		tok   span
		group int32
	}
	var tg []tokGroup
	for gi := range b.groups {
		g := &b.groups[gi]
		for _, a := range b.agents[g.agLo:g.agHi] {
			v := b.view(a)
			if isGlobal(v) {
				continue
			}
			t := b.str(productToken(v))
			lowerASCII(b.arena[t.off : t.off+t.n])
			tg = append(tg, tokGroup{t, int32(gi)})
		}
	}
	slices.SortStableFunc(tg, func(x, y tokGroup) int { return strings.Compare(b.view(x.tok), b.view(y.tok)) })

	// Rulesets: one per distinct token, merging every group that names it
	// (RFC 9309 §2.2.1), and one merging the "*" groups. A group named by a
	// single token keeps one ruleset however many tokens share it.
	var sorted []rule
	groupSet := make([]int32, len(b.groups))
	for i := range groupSet {
		groupSet[i] = -1
	}
	addSet := func(gs []int32) int32 {
		if len(gs) == 1 && groupSet[gs[0]] >= 0 {
			return groupSet[gs[0]]
		}
		lo := len(sorted)
		for _, gi := range gs {
			g := &b.groups[gi]
			sorted = append(sorted, b.raw[g.ruleLo:g.ruleHi]...)
		}
		sortRules(sorted[lo:])
		r.sets = append(r.sets, ruleset{uint32(lo), uint32(len(sorted))})
		id := int32(len(r.sets) - 1)
		if len(gs) == 1 {
			groupSet[gs[0]] = id
		}
		return id
	}
	var gs []int32
	for i := 0; i < len(tg); {
		gs = gs[:0]
		j := i
		for ; j < len(tg) && b.view(tg[j].tok) == b.view(tg[i].tok); j++ {
			if len(gs) == 0 || gs[len(gs)-1] != tg[j].group {
				gs = append(gs, tg[j].group)
			}
		}
		r.agents = append(r.agents, agentEntry{off: tg[i].tok.off, n: tg[i].tok.n, set: addSet(gs), group: gs[0]})
		i = j
	}
	gs = gs[:0]
	for gi := range b.groups {
		if b.groups[gi].global {
			gs = append(gs, int32(gi))
		}
	}
	if len(gs) > 0 {
		r.global = addSet(gs)
		r.globalGroup = gs[0]
	}

	r.rules = slices.Clip(sorted)
	r.groups = make([]groupInfo, len(b.groups))
	for i, g := range b.groups {
		r.groups[i] = groupInfo{line: g.line, global: g.global, agLo: g.agLo, agHi: g.agHi,
			extLo: g.extLo, extHi: g.extHi, rules: g.ruleHi - g.ruleLo}
	}
	r.agentSpans = slices.Clip(b.agents)
	r.exts = slices.Clip(b.exts)
	r.agents = slices.Clip(r.agents)
	r.sets = slices.Clip(r.sets)
	arena := slices.Clip(b.arena)
	r.text = unsafe.String(unsafe.SliceData(arena), len(arena))
	return r
}

func lowerASCII(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}
