package accesslog

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"slices"
)

// Limits of ParseRanges: Google's largest list is a few hundred prefixes.
const (
	maxRangesBytes    = 1 << 20
	maxRangesPrefixes = 100_000
)

// Ranges is a list of IP address prefixes, as a crawler's operator
// publishes the addresses its crawler uses: Google's googlebot.json and
// special-crawlers.json
// (https://developers.google.com/search/docs/crawling-indexing/verifying-googlebot),
// Bing's bingbot.json, OpenAI's gptbot.json. The zero Ranges contains no
// address.
type Ranges struct {
	v4 []span4 // sorted, disjoint
	v6 []span6 // sorted, disjoint
	n  int
}

type span4 struct{ lo, hi uint32 }
type span6 struct{ lo, hi netip.Addr }

// ParseRanges reads a list of prefixes in the shape those files share:
//
//	{"creationTime": "…", "prefixes": [{"ipv4Prefix": "66.249.64.0/27"}, {"ipv6Prefix": "2001:4860:4801:10::/64"}]}
//
// It refuses more than 1 MiB of input or 100,000 prefixes, a document
// without a "prefixes" list, and a prefix that is not one of its family
// (an error names it). Host bits set in a prefix are ignored.
func ParseRanges(data []byte) (*Ranges, error) {
	if len(data) > maxRangesBytes {
		return nil, fmt.Errorf("accesslog: IP ranges: %d bytes, more than the %d allowed", len(data), maxRangesBytes)
	}
	var doc struct {
		Prefixes []struct {
			IPv4 *string `json:"ipv4Prefix"`
			IPv6 *string `json:"ipv6Prefix"`
		} `json:"prefixes"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("accesslog: IP ranges: %w", err)
	}
	if doc.Prefixes == nil {
		return nil, errors.New(`accesslog: IP ranges: no "prefixes" list`)
	}
	if len(doc.Prefixes) > maxRangesPrefixes {
		return nil, fmt.Errorf("accesslog: IP ranges: %d prefixes, more than the %d allowed", len(doc.Prefixes), maxRangesPrefixes)
	}
	r := &Ranges{}
	for i, p := range doc.Prefixes {
		if p.IPv4 == nil && p.IPv6 == nil {
			return nil, fmt.Errorf("accesslog: IP ranges: prefix %d has neither ipv4Prefix nor ipv6Prefix", i)
		}
		if p.IPv4 != nil {
			pf, err := netip.ParsePrefix(*p.IPv4)
			if err != nil || !pf.Addr().Is4() {
				return nil, fmt.Errorf("accesslog: IP ranges: prefix %d: bad ipv4Prefix %q", i, *p.IPv4)
			}
			r.add(pf)
		}
		if p.IPv6 != nil {
			pf, err := netip.ParsePrefix(*p.IPv6)
			if err != nil || !pf.Addr().Is6() || pf.Addr().Zone() != "" {
				return nil, fmt.Errorf("accesslog: IP ranges: prefix %d: bad ipv6Prefix %q", i, *p.IPv6)
			}
			if a := pf.Addr(); a.Is4In6() && pf.Bits() >= 96 {
				pf = netip.PrefixFrom(a.Unmap(), pf.Bits()-96)
			}
			r.add(pf)
		}
	}
	r.v4 = merge(r.v4, func(a, b span4) int { return cmpU32(a.lo, b.lo) },
		func(last *span4, s span4) bool {
			if last.hi == ^uint32(0) || s.lo > last.hi+1 {
				return false
			}
			last.hi = max(last.hi, s.hi)
			return true
		})
	r.v6 = merge(r.v6, func(a, b span6) int { return a.lo.Compare(b.lo) },
		func(last *span6, s span6) bool {
			if s.lo.Compare(last.hi) > 0 && s.lo != last.hi.Next() {
				return false
			}
			if s.hi.Compare(last.hi) > 0 {
				last.hi = s.hi
			}
			return true
		})
	return r, nil
}

func cmpU32(a, b uint32) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// merge sorts spans and joins those that overlap or touch.
func merge[S any](spans []S, cmp func(a, b S) int, join func(last *S, s S) bool) []S {
	slices.SortFunc(spans, cmp)
	out := spans[:0]
	for _, s := range spans {
		if len(out) > 0 && join(&out[len(out)-1], s) {
			continue
		}
		out = append(out, s)
	}
	return slices.Clip(out)
}

// add adds the addresses of p.
func (r *Ranges) add(p netip.Prefix) {
	r.n++
	p = p.Masked()
	if p.Addr().Is4() {
		b := p.Addr().As4()
		lo := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
		hi := lo | uint32(uint64(1)<<(32-p.Bits())-1)
		r.v4 = append(r.v4, span4{lo, hi})
		return
	}
	hi := p.Addr().As16()
	for bit := p.Bits(); bit < 128; bit++ {
		hi[bit/8] |= 0x80 >> (bit % 8)
	}
	r.v6 = append(r.v6, span6{p.Addr(), netip.AddrFrom16(hi)})
}

// Contains reports whether a is in one of the prefixes. An IPv4-mapped
// IPv6 address (::ffff:66.249.66.1) is looked up as the IPv4 address it
// maps; a zone is ignored.
func (r *Ranges) Contains(a netip.Addr) bool {
	if r == nil || !a.IsValid() {
		return false
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		b := a.As4()
		x := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
		i, _ := slices.BinarySearchFunc(r.v4, x, func(s span4, x uint32) int { return cmpU32(s.lo, x) })
		// r.v4[i-1] is the last span starting at or before x, unless
		// r.v4[i] starts at x.
		if i < len(r.v4) && r.v4[i].lo == x {
			return true
		}
		return i > 0 && x <= r.v4[i-1].hi
	}
	i, _ := slices.BinarySearchFunc(r.v6, a, func(s span6, x netip.Addr) int { return s.lo.Compare(x) })
	if i < len(r.v6) && r.v6[i].lo == a {
		return true
	}
	return i > 0 && a.Compare(r.v6[i-1].hi) <= 0
}

// Len returns the number of prefixes ParseRanges read, before any that
// overlap are joined.
func (r *Ranges) Len() int {
	if r == nil {
		return 0
	}
	return r.n
}
