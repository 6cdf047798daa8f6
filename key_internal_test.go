package robots

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/robotskit/robots/syntax"
)

// foldKey lower-cases eight octets at once; compare it with the obvious
// octet-by-octet version for every octet in every position.
func TestFoldKey(t *testing.T) {
	slow := func(s string) uint64 {
		var k uint64
		for i := 0; i < 8; i++ {
			k <<= 8
			if i < len(s) {
				c := s[i]
				if 'A' <= c && c <= 'Z' {
					c += 'a' - 'A'
				}
				k |= uint64(c)
			}
		}
		return k
	}
	for c := 0; c < 256; c++ {
		for pos := 0; pos < 9; pos++ {
			for _, base := range []string{"GoogleBot-Image", "ab", "", "ZZZZZZZZ"} {
				b := []byte(base + strings.Repeat("Q", 9))[:max(len(base), pos+1)]
				b[pos] = byte(c)
				s := string(b)
				if got, want := foldKey(s), slow(s); got != want {
					t.Fatalf("foldKey(%q) = %#x, want %#x", s, got, want)
				}
			}
		}
	}
}

// load8 and headMask: the first k octets of a string, whatever its length.
func TestLoad8(t *testing.T) {
	s := "/abcdefghij"
	for n := 0; n <= len(s); n++ {
		v := load8(s[:n])
		for k := 0; k <= 8; k++ {
			want := uint64(0)
			for i := min(k, n) - 1; i >= 0; i-- {
				want = want<<8 | uint64(s[i])
			}
			if got := v & headMask[k]; got != want {
				t.Errorf("load8(%q)&headMask[%d] = %#x, want %#x", s[:n], k, got, want)
			}
		}
	}
}

// indexDelim and indexEnd scan eight octets at a time; compare them with
// octet-by-octet scans for every octet value at every position and offset.
func TestIndexScans(t *testing.T) {
	slowDelim := func(s string, from int) int {
		for i := from; i < len(s); i++ {
			if strings.IndexByte("/?;#", s[i]) >= 0 {
				return i
			}
		}
		return -1
	}
	slowEnd := func(s string, from int, nul bool) int {
		for i := from; i < len(s); i++ {
			if s[i] == '#' || nul && s[i] == 0 {
				return i
			}
		}
		return len(s)
	}
	// The second base has runs of '+', which delims marks too, before
	// octets that its borrow may mark.
	for _, base := range [][]byte{[]byte("abcdefghijklmnopqrstuvwxyz0123"), []byte("a+.b+*c++:d+>e+++++++++++f+.g")} {
		testIndexScans(t, base, slowDelim, slowEnd)
	}
}

func testIndexScans(t *testing.T, base []byte, slowDelim func(string, int) int, slowEnd func(string, int, bool) int) {
	for c := 0; c < 256; c++ {
		for pos := 0; pos < len(base); pos++ {
			b := append([]byte(nil), base...)
			b[pos] = byte(c)
			if pos+3 < len(b) {
				b[pos+3] = '#' // a later match must not win
			}
			s := string(b)
			for from := 0; from < 10; from++ {
				for n := from; n <= len(s); n++ {
					if got, want := indexDelim(s[:n], from), slowDelim(s[:n], from); got != want {
						t.Fatalf("indexDelim(%q, %d) = %d, want %d", s[:n], from, got, want)
					}
					for _, nul := range []bool{false, true} {
						if got, want := indexEnd(s[:n], from, nul), slowEnd(s[:n], from, nul); got != want {
							t.Fatalf("indexEnd(%q, %d, %v) = %d, want %d", s[:n], from, nul, got, want)
						}
					}
				}
			}
		}
	}
}

// pathIndex skips an "http://" or "https://" with one compare; compare it
// with the general reading of the scheme, octet by octet, on every prefix
// of URLs with and without those schemes.
func TestPathIndexSchemes(t *testing.T) {
	delim := func(s string, from int) int {
		for i := from; i < len(s); i++ {
			if strings.IndexByte("/?;#", s[i]) >= 0 {
				return i
			}
		}
		return -1
	}
	slow := func(url string) int {
		start := 0
		if strings.HasPrefix(url, "//") {
			start = 2
		}
		i := delim(url, start)
		if i > start && url[i] == '/' && url[i-1] == ':' && i+1 < len(url) && url[i+1] == '/' {
			i = delim(url, i+2)
		}
		if i < 0 || url[i] == '#' {
			return -1
		}
		return i
	}
	for _, scheme := range []string{"", "http://", "https://", "http:/", "https:", "HTTP://", "//", "ftp://", "http:///", "httpx://"} {
		for _, rest := range []string{"", "a", "a/b", "a?b", "a#b/c", "a;b/c", "?q", "#/x", "example.com", "example.com/x#y", "host.example.org:8080/p?q"} {
			url := scheme + rest
			for n := 0; n <= len(url); n++ {
				if got, want := pathIndex(url[:n]), slow(url[:n]); got != want {
					t.Errorf("pathIndex(%q) = %d, want %d", url[:n], got, want)
				}
			}
		}
	}
}

// A wildcard rule stores its literal prefix length capped at ruleLitMax;
// the cap only shortens a filter, so paths that differ past it must still
// be told apart by the full match.
func TestLongLiteralPrefix(t *testing.T) {
	long := "/" + strings.Repeat("a", ruleLitMax+100)
	r := Parse([]byte("User-agent: *\nDisallow: "+long+"*b\n"), Google)
	for _, c := range []struct {
		path string
		want bool
	}{
		{long + "xb", false},
		{long + "x", true},
		{long[:ruleLitMax+50] + "c" + long[ruleLitMax+51:] + "xb", true},
		{long[:ruleLitMax] + "b", true},
	} {
		if got := r.Allowed("bot", c.path); got != c.want {
			t.Errorf("Allowed(%.20q…, %d octets) = %v, want %v", c.path, len(c.path), got, c.want)
		}
	}
	var ru rule
	ru, _ = newRule(long+"*b", 0, 1, false)
	if ru.lit() != ruleLitMax || ru.n != uint16(len(long)+2) {
		t.Errorf("lit() = %d, n = %d; want %d, %d", ru.lit(), ru.n, ruleLitMax, len(long)+2)
	}
	if unsafe.Sizeof(rule{}) != 24 {
		t.Errorf("rule is %d bytes, want 24", unsafe.Sizeof(rule{}))
	}
}

// Allowed matches the rest of a URL from its path's start only while no
// pattern holds a '#' or NUL; Compile of a hand-edited File can make one.
func TestOpenPathEditedFile(t *testing.T) {
	f := syntax.Parse("", []byte("User-agent: *\nDisallow: /a#b\n"))
	l := &f.Lines[1]
	l.Value.End = l.Comment.End // the value is now "/a#b"
	r := Compile(f, Google)
	if r.openPath {
		t.Fatal("openPath set for a pattern that holds '#'")
	}
	for _, u := range []string{"http://x/a#b", "/a#b", "/a#bc"} {
		if got, want := r.Allowed("x", u), r.Decide(Token("x"), u).Allowed; got != want {
			t.Errorf("Allowed(%q) = %v, Decide says %v", u, got, want)
		}
	}
	if !Parse([]byte("User-agent: *\nDisallow: /a#b\n"), Google).openPath {
		t.Error("openPath not set by Parse under Google")
	}
}

// fillSet must order a ruleset's rules as a stable sort by bucket, then
// longest pattern, then Allow first, would, and record its buckets, on the
// counting-sort path (file order, narrow ranks) and on the fallbacks
// (short sets, wide ranks, groups out of file order, first-match profiles).
func TestFillSet(t *testing.T) {
	defer func(m int) { subMin = m }(subMin)
	subMin = 1 << 30 // no hashed buckets: they reorder literal rules
	rng := rand.New(rand.NewPCG(3, 4))
	const alphabet = "/ab*$cz"
	for n := 0; n < 3000; n++ {
		b := newBuilder(Google)
		if n%13 == 0 {
			b = newBuilder(Draft1996) // firstMatch: file order decides
		}
		groups := 1 + rng.IntN(4)
		for range groups {
			g := group{ruleLo: uint32(len(b.raw))}
			for range rng.IntN(80) {
				var p []byte
				if rng.IntN(8) != 0 {
					p = append(p, '/')
				}
				size := rng.IntN(12)
				if n%7 == 0 && rng.IntN(4) == 0 {
					size = rng.IntN(3000) // ranks too wide for counting
				}
				for range size {
					p = append(p, alphabet[rng.IntN(len(alphabet))])
				}
				ru, _ := newRule(string(p), len(b.arena), int32(len(b.raw)+1), rng.IntN(2) == 0)
				if ru.never() {
					continue // the builder drops it
				}
				b.arena = append(b.arena, p...)
				b.raw = append(b.raw, ru)
			}
			g.ruleHi = uint32(len(b.raw))
			b.groups = append(b.groups, g)
		}
		gs := make([]int32, groups)
		for i := range gs {
			gs[i] = int32(i)
		}
		if n%5 == 0 {
			rng.Shuffle(len(gs), func(i, j int) { gs[i], gs[j] = gs[j], gs[i] })
		}
		var order []uint32 // indexes in b.raw, in file order of the groups given
		for _, gi := range gs {
			for i := b.groups[gi].ruleLo; i < b.groups[gi].ruleHi; i++ {
				order = append(order, i)
			}
		}
		index := len(order) >= indexMin && !b.sem.firstMatch
		bucket := func(i uint32) uint64 {
			if index {
				return bucketOf(string(b.arena[b.raw[i].off : b.raw[i].off+uint32(b.raw[i].n)]))
			}
			return 0
		}
		want := slices.Clone(order)
		slices.SortStableFunc(want, func(x, y uint32) int {
			if c := cmp.Compare(bucket(x), bucket(y)); c != 0 {
				return c
			}
			rx, ry := &b.raw[x], &b.raw[y]
			if b.sem.firstMatch {
				return cmp.Compare(x, y) // file order decides
			}
			if rx.n != ry.n {
				return cmp.Compare(ry.n, rx.n)
			}
			if ax, ay := rx.flags&ruleAllow, ry.flags&ruleAllow; ax != ay {
				return cmp.Compare(ay, ax)
			}
			return cmp.Compare(x, y)
		})
		lo := uint32(rng.IntN(5))
		dst := make([]rule, len(order))
		set := b.fillSet(dst, lo, gs)
		for k, i := range want {
			if dst[k] != b.raw[i] {
				g := slices.Index(b.raw, dst[k])
				t.Fatalf("case %d: rule %d of %d is raw %d %q %+v, want raw %d %q %+v", n, k, len(want), g, b.arena[b.raw[g].off:b.raw[g].off+uint32(b.raw[g].n)], b.raw[g], i, b.arena[b.raw[i].off:b.raw[i].off+uint32(b.raw[i].n)], b.raw[i])
			}
		}
		// The buckets: a start in offs for each, then the set's end.
		var offs []uint32
		var bits [4]uint64
		wild := lo + uint32(len(want))
		last := uint64(0)
		for k, i := range want {
			if c := bucket(i); c != last {
				if last == 0 {
					wild = lo + uint32(k)
				}
				bits[(c-1)>>6] |= 1 << ((c - 1) & 63)
				offs = append(offs, lo+uint32(k))
				last = c
			}
		}
		if last != 0 {
			offs = append(offs, lo+uint32(len(want)))
		}
		if set.lo != lo || set.hi != lo+uint32(len(want)) || set.wild != wild || set.bits != bits ||
			!slices.Equal(b.offs[set.offs:], offs) {
			t.Fatalf("case %d: set %+v, offs %v; want wild %d, bits %v, offs %v", n, set, b.offs[set.offs:], wild, bits, offs)
		}
		b.release()
	}
}

// matchHead must pass a path exactly when the path starts with the first
// eight octets (at most) of the rule's literal prefix; every path starts
// with '/'.
func TestMatchHead(t *testing.T) {
	pats := []string{"", "*", "$", "*a", "/", "/$", "/*", "/a", "/a$", "/a*", "/ab", "/abcdefg", "/abcdefgh",
		"/abcdefghi", "/abcdefghij*", "/abcdefgh$", "/abc*def", "/ab/cd?e=f"}
	paths := []string{"/", "/a", "/b", "/ab", "/abc", "/abcdefg", "/abcdefgh", "/abcdefgi", "/abcdefghi",
		"/abcdefghz", "/ab/cd?e=f", "/ab/cd?e=g", "/A", "//a", "/a\x00"}
	for _, p := range pats {
		ru, _ := newRule(p, 0, 1, false)
		lit := ru.lit()
		for _, path := range paths {
			want := strings.HasPrefix(path, p[:min(lit, 8)])
			if got := ru.matchHead(load8(path[:min(len(path), 8)])); got != want {
				t.Errorf("rule %q, path %q: matchHead %v, want %v", p, path, got, want)
			}
		}
	}
}

// newRule reads a pattern eight octets at a time; compare its kind, literal
// prefix, head and raw report with an octet-by-octet reading.
func TestNewRuleScan(t *testing.T) {
	special := []byte{'*', '%', '$', 0x80, 0xFF, 'a'}
	base := "/abcdefghijklmnopq"
	for _, c1 := range special {
		for _, c2 := range special {
			for p1 := 0; p1 < len(base); p1++ {
				for p2 := p1; p2 < len(base); p2++ {
					b := []byte(base)
					b[p1], b[p2] = c1, c2
					for n := 0; n <= len(b); n++ {
						p := string(b[:n])
						m := len(p)
						if m > 0 && p[m-1] == '$' {
							m--
						}
						star := strings.IndexByte(p[:m], '*')
						raw := strings.ContainsAny(p[:m], "%") || strings.IndexFunc(p[:m], func(r rune) bool { return r >= 0x80 }) >= 0
						lit := n
						switch {
						case star >= 0:
							lit = star
						case m < n:
							lit = m
						}
						ru, gotRaw := newRule(p, 0, 1, false)
						head := load8(p[:min(lit, 8)])
						if lit == 0 {
							head = '/' // see rule.head
						}
						if gotRaw != raw || ru.lit() != lit || ru.head != head {
							t.Fatalf("newRule(%q): raw %v lit %d head %#x, want raw %v lit %d", p, gotRaw, ru.lit(), ru.head, raw, lit)
						}
					}
				}
			}
		}
	}
}

// sortTokens must order tokens as a full sort by tokCompare does, also
// when many share their first six octets or are equal.
func TestSortTokens(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	words := []string{"googlebot", "googlebot-image", "googlebot-news", "googleb", "google", "go", "g", "",
		"mediapartners-google", "mediapartners", "bingbot", "bing", "ahrefsbot", "ahrefs", "a-b_c"}
	for n := 0; n < 500; n++ {
		b := newBuilder(Google)
		for i := range rng.IntN(300) {
			w := words[rng.IntN(len(words))]
			if rng.IntN(4) == 0 {
				w += string(rune('a' + rng.IntN(3)))
			}
			tok := b.str(w)
			b.tg = append(b.tg, tokGroup{key: foldKey(w), tok: tok, group: int32(i / 3)})
		}
		want := slices.Clone(b.tg)
		slices.SortFunc(want, b.tokCompare)
		b.sortTokens()
		if !slices.Equal(b.tg, want) {
			t.Fatalf("case %d: sortTokens of %d tokens differs from a sort by tokCompare", n, len(want))
		}
		b.release()
	}
}

// release drops only the scratch slices that grew too large to keep.
func TestReleaseDropsOnlyLargeScratch(t *testing.T) {
	b := newBuilder(Google)
	b.arena = make([]byte, 0, 2<<20)
	b.raw = make([]rule, 0, 16)
	b.keys = make([]uint64, 0, 1<<17)
	b.release()
	if cap(b.arena) != 0 || cap(b.keys) != 0 || cap(b.tmp) != 0 {
		t.Errorf("release kept arena %d, keys %d, tmp %d", cap(b.arena), cap(b.keys), cap(b.tmp))
	}
	if cap(b.raw) != 16 {
		t.Errorf("release dropped raw of %d", cap(b.raw))
	}
}
