package robots

import (
	"slices"

	"github.com/robotskit/robots/internal/octets"
)

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
