package robots

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"
)

// sortTokens sorts b.tg by token, and equal tokens in file order (by group,
// then by offset in the arena, which grows in file order): what a stable
// sort by token gives (tokCompare). Most of the work compares integers:
// the first six octets of each key with the entry's index below them,
// sorted by slices.Sort; an insertion pass with tokCompare then orders the
// runs of keys that share those six octets, and checks the rest.
func (b *builder) sortTokens() {
	tg := b.tg
	n := len(tg)
	if n > 1<<tokIndexBits {
		slices.SortFunc(tg, b.tokCompare)
		return
	}
	keys := slices.Grow(b.keys[:0], n)[:n]
	for i := range tg {
		keys[i] = tg[i].key&^tokIndexMask | uint64(i)
	}
	slices.Sort(keys)
	sorted := slices.Grow(b.tg2[:0], n)[:n]
	for i, k := range keys {
		sorted[i] = tg[k&tokIndexMask]
	}
	for i := 1; i < n; i++ {
		for j := i; j > 0 && b.tokCompare(sorted[j-1], sorted[j]) > 0; j-- {
			sorted[j-1], sorted[j] = sorted[j], sorted[j-1]
		}
	}
	b.keys, b.tg, b.tg2 = keys, sorted, tg
}

// sortTokens' keys are an entry's key with its index in the low
// tokIndexBits bits, in place of the last two of the key's eight octets.
const (
	// tokIndexBits is the width of the index: sortTokens sorts at most
	// 1<<tokIndexBits entries so.
	tokIndexBits = 16
	// tokIndexMask keeps the index.
	tokIndexMask = 1<<tokIndexBits - 1
)

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

// The layout of fillSet's sort keys, which order the rules of a set as
// they go: by bucket, then by rank, then by index.
const (
	// keyIndexBits is the width of a key's low part: the rule's index in
	// builder.raw, which is file order (uint32(key) reads it).
	keyIndexBits = 32
	// keyRankShift is where the rank starts, above the index.
	keyRankShift = keyIndexBits
	// keyRankBits is the width of the rank: ruleMaxLen-n (16 bits),
	// longest first, above a bit set for a Disallow, Allow first on equal
	// length.
	keyRankBits = 16 + rankLenShift
	// keyRankMask keeps the rank, once shifted down.
	keyRankMask = 1<<keyRankBits - 1
	// keyBucketShift is where the bucket starts, above the rank: 1 + the
	// second octet of an indexed rule's pattern (rule.bucket), else 0.
	keyBucketShift = keyRankShift + keyRankBits
	// rankLenShift is where a rank's length part starts, above its
	// Disallow bit.
	rankLenShift = 1
	// numBuckets counts a key's buckets: 0, and 1 + each octet.
	numBuckets = 1 + 256
)

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
			rank = uint64(ruleMaxLen-ru.n)<<rankLenShift | uint64(ru.flags&ruleAllow^ruleAllow)/ruleAllow
			nor |= ru.n
		} // else file order decides (1996 draft §3.2.2).
		keys[k] = bucket<<keyBucketShift | rank<<keyRankShift | uint64(i)
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
		count[k>>keyRankShift&keyRankMask-rlo+1]++
	}
	for r := 1; r < len(count); r++ {
		count[r] += count[r-1]
	}
	b.counts = count
	if !index {
		for _, k := range keys {
			r := k>>keyRankShift&keyRankMask - rlo
			dst[count[r]] = b.raw[uint32(k)]
			count[r]++
		}
		return
	}
	tmp := slices.Grow(b.tmp[:0], len(keys))[:len(keys)]
	for _, k := range keys {
		r := k>>keyRankShift&keyRankMask - rlo
		tmp[count[r]] = k
		count[r]++
	}
	b.tmp = tmp
	// By bucket: start[c] counts bucket c, and used has bit c set for it,
	// then start[c] is where the next key of bucket c goes; each bucket's
	// start, once known, is the bucket's offset in Rules.offs.
	var start [numBuckets]uint32
	var used [(numBuckets + 63) / 64]uint64
	for _, k := range tmp {
		c := k >> keyBucketShift
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
		c := k >> keyBucketShift
		dst[start[c]] = b.raw[uint32(k)]
		start[c]++
	}
}
