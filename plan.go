package robots

import (
	"slices"
	"unsafe"

	"github.com/robotskit/robots/internal/lines"
)

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

// agentEntry maps a lower-cased product token to the ruleset of the groups
// that name it.
type agentEntry struct {
	key    uint64 // foldKey of the token
	off, n uint32 // token in text
	set    int32
	group  int32 // first group that names the token
}

// groupInfo is what Rules keep of a group.
type groupInfo struct {
	line         int32
	global       bool
	set          int32 // own ruleset under firstRecord profiles, else -1
	agLo, agHi   uint32
	extLo, extHi uint32
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
			p := lines.ProductToken(v)
			t := b.str(p)
			lowerASCII(b.arena[t.off : t.off+t.n])
			// Appended empty and filled in place: see rule.set.
			b.tg = append(b.tg, tokGroup{})
			tg := &b.tg[len(b.tg)-1]
			tg.key, tg.tok, tg.group = foldKey(b.view(t)), t, int32(gi)
			if n := len(p); n < len(v) && v[n] != '/' && !lines.IsSpace(v[n]) {
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
	// from (ruleMaxLen-nor)<<rankLenShift on.
	rlo, ranks := (ruleMaxLen-uint64(nor))<<rankLenShift, 2*int(nor)+2
	if firstMatch {
		rlo, ranks = 0, 1
	}
	if n >= countMin && ascending && ranks <= 2*n+1024 {
		b.countSort(dst, &set, rlo, ranks, index)
	} else {
		slices.Sort(keys) // an insertion sort for n < 12
		last := uint64(0)
		for k, key := range keys {
			if bucket := key >> keyBucketShift; bucket != last {
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
