package netguard

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// ianaSpecial lists every entry of the IANA IPv4 and IPv6 Special-Purpose
// Address Registries (https://www.iana.org/assignments/iana-ipv4-special-registry/,
// https://www.iana.org/assignments/iana-ipv6-special-registry/), and the
// blocks outside them that the guard refuses too, with what the guard
// does with the block and with the addresses just outside it.
var ianaSpecial = []struct {
	block string
	name  string
	// refused: the guard refuses the block's first and last addresses.
	refused bool
	// below, above: the guard allows the address just below the block,
	// just above it (false when a neighbouring block is refused too, or
	// there is no such address).
	below, above bool
	// embeds: the block carries an IPv4 address and is judged by it
	// (TestBlockedEmbedded).
	embeds bool
}{
	// IPv4 registry.
	{"0.0.0.0/8", `"this network"`, true, false, true, false},
	{"0.0.0.0/32", `"this host on this network"`, true, false, false, false},
	{"10.0.0.0/8", "private-use", true, true, true, false},
	{"100.64.0.0/10", "shared address space", true, true, true, false},
	{"127.0.0.0/8", "loopback", true, true, true, false},
	{"169.254.0.0/16", "link local", true, true, true, false},
	{"172.16.0.0/12", "private-use", true, true, true, false},
	{"192.0.0.0/24", "IETF protocol assignments", true, true, true, false},
	{"192.0.0.0/29", "IPv4 service continuity prefix", true, true, false, false},
	{"192.0.0.8/32", "IPv4 dummy address", true, false, false, false},
	// Globally reachable anycast services, refused with their block.
	{"192.0.0.9/32", "port control protocol anycast", true, false, false, false},
	{"192.0.0.10/32", "TURN anycast", true, false, false, false},
	{"192.0.0.170/32", "NAT64/DNS64 discovery", true, false, false, false},
	{"192.0.0.171/32", "NAT64/DNS64 discovery", true, false, false, false},
	{"192.0.2.0/24", "documentation (TEST-NET-1)", true, true, true, false},
	{"192.31.196.0/24", "AS112-v4 (globally reachable)", false, true, true, false},
	{"192.52.193.0/24", "AMT (globally reachable)", false, true, true, false},
	{"192.88.99.0/24", "deprecated 6to4 relay anycast", true, true, true, false},
	{"192.88.99.2/32", "6a44 relay anycast", true, false, false, false},
	{"192.168.0.0/16", "private-use", true, true, true, false},
	{"192.175.48.0/24", "direct delegation AS112 service (globally reachable)", false, true, true, false},
	{"198.18.0.0/15", "benchmarking", true, true, true, false},
	{"198.51.100.0/24", "documentation (TEST-NET-2)", true, true, true, false},
	{"203.0.113.0/24", "documentation (TEST-NET-3)", true, true, true, false},
	{"240.0.0.0/4", "reserved (below: multicast)", true, false, false, false},
	{"255.255.255.255/32", "limited broadcast", true, false, false, false},
	// IPv4 multicast, not in the registry.
	{"224.0.0.0/4", "multicast", true, true, false, false},

	// IPv6 registry. Outside 2000::/3 every neighbour is refused too.
	{"::1/128", "loopback", true, false, false, false},
	{"::/128", "unspecified", true, false, false, false},
	// ::ffff:0:0/96 (IPv4-mapped) is judged as IPv4: TestBlockedMapped.
	{"64:ff9b::/96", "IPv4-IPv6 translation (NAT64)", false, false, false, true},
	{"64:ff9b:1::/48", "local-use IPv4/IPv6 translation", true, false, false, false},
	{"100::/64", "discard-only", true, false, false, false},
	{"100:0:0:1::/64", "dummy IPv6 prefix", true, false, false, false},
	{"2001::/23", "IETF protocol assignments", true, true, true, false},
	{"2001::/32", "Teredo", false, true, false, true},
	// Globally reachable anycast services, refused with their block.
	{"2001:1::1/128", "port control protocol anycast", true, false, false, false},
	{"2001:1::2/128", "TURN anycast", true, false, false, false},
	{"2001:1::3/128", "DNS-SD service registration protocol anycast", true, false, false, false},
	{"2001:2::/48", "benchmarking", true, false, false, false},
	{"2001:3::/32", "AMT (globally reachable)", false, false, false, false},
	{"2001:4:112::/48", "AS112-v6 (globally reachable)", false, false, false, false},
	{"2001:10::/28", "deprecated ORCHID (above: ORCHIDv2)", true, false, true, false},
	{"2001:20::/28", "ORCHIDv2 (globally reachable; above: drone entity tags)", false, false, true, false},
	{"2001:30::/28", "drone remote ID entity tags (globally reachable; below: ORCHIDv2)", false, true, false, false},
	{"2001:db8::/32", "documentation", true, true, true, false},
	{"2002::/16", "6to4", false, true, true, true},
	{"2620:4f:8000::/48", "direct delegation AS112 service (globally reachable)", false, true, true, false},
	{"3fff::/20", "documentation", true, true, true, false},
	{"5f00::/16", "segment routing (SRv6) SIDs", true, false, false, false},
	{"fc00::/7", "unique-local", true, false, false, false},
	{"fe80::/10", "link-local unicast", true, false, false, false},
	// Outside the registry: the rest of the IPv6 space that is not
	// global unicast (IANA's IPv6 address space registry).
	{"::/96", "IPv4-compatible (deprecated)", true, false, false, false},
	{"::ffff:0:0:0/96", "IPv4-translated", true, false, false, false},
	{"fec0::/10", "site-local (deprecated)", true, false, false, false},
	{"ff00::/8", "multicast", true, false, false, false},
	{"4000::/3", "reserved by the IETF (below: the end of 2000::/3)", true, true, false, false},
	{"::1:0:0/96", "reserved by the IETF, next to IPv4-compatible", true, false, false, false},
}

// lastAddr returns the last address of p.
func lastAddr(p netip.Prefix) netip.Addr {
	b := p.Masked().Addr().AsSlice()
	for i := p.Bits(); i < len(b)*8; i++ {
		b[i/8] |= 0x80 >> (i % 8)
	}
	a, _ := netip.AddrFromSlice(b)
	return a
}

// embeddings returns the IPv4-mapped, NAT64, 6to4 and Teredo (as client
// and as server) forms of the IPv4 address a.
func embeddings(a netip.Addr) map[string]netip.Addr {
	v := a.As4()
	form := func(prefix [12]byte, v4 [4]byte) netip.Addr {
		var b [16]byte
		copy(b[:], prefix[:])
		copy(b[12:], v4[:])
		return netip.AddrFrom16(b)
	}
	// A Teredo address with a public server (192.88.98.1 is not special)
	// and the client a, and one with the server a and a public client
	// (8.8.8.8); the client is written inverted.
	pub := [4]byte{192, 88, 98, 1}
	inv := func(v [4]byte) [4]byte { return [4]byte{^v[0], ^v[1], ^v[2], ^v[3]} }
	teredoClient := form([12]byte{0x20, 0x01, 0, 0, pub[0], pub[1], pub[2], pub[3], 0x80, 0, 0xfb, 0xff}, inv(v))
	teredoServer := form([12]byte{0x20, 0x01, 0, 0, v[0], v[1], v[2], v[3], 0x80, 0, 0xfb, 0xff}, inv([4]byte{8, 8, 8, 8}))
	var sixToFour [16]byte
	sixToFour[0], sixToFour[1] = 0x20, 0x02
	copy(sixToFour[2:6], v[:])
	sixToFour[15] = 1
	return map[string]netip.Addr{
		"mapped":        netip.AddrFrom16(a.As16()),
		"NAT64":         form([12]byte{0, 0x64, 0xff, 0x9b}, v),
		"6to4":          netip.AddrFrom16(sixToFour),
		"Teredo client": teredoClient,
		"Teredo server": teredoServer,
	}
}

// TestBlockedSpecialRanges: every special-purpose block is refused (or
// allowed, where the registry marks it globally reachable), first and last
// address, and the addresses just outside it are allowed unless a
// neighbouring block is refused; an IPv4 block is judged the same in its
// IPv4-mapped form and inside NAT64, 6to4 and Teredo, and always refused
// in its IPv4-compatible form.
func TestBlockedSpecialRanges(t *testing.T) {
	check := func(a netip.Addr, wantRefused bool, what string) {
		t.Helper()
		why := Reason(a)
		if (why != "") != wantRefused {
			if wantRefused {
				t.Errorf("%s %s: allowed, want refused", what, a)
			} else {
				t.Errorf("%s %s: refused (%s), want allowed", what, a, why)
			}
		}
	}
	for _, r := range ianaSpecial {
		p := netip.MustParsePrefix(r.block)
		what := r.block + " (" + r.name + ")"
		first, last := p.Masked().Addr(), lastAddr(p)
		below, above := first.Prev(), last.Next()
		if !r.embeds {
			check(first, r.refused, what+" first")
			check(last, r.refused, what+" last")
		}
		if below.IsValid() {
			check(below, !r.below, what+" below")
		} else if r.below {
			t.Errorf("%s: no address below", what)
		}
		if above.IsValid() {
			check(above, !r.above, what+" above")
		} else if r.above {
			t.Errorf("%s: no address above", what)
		}
		if !p.Addr().Is4() {
			continue
		}
		for _, a := range []struct {
			a       netip.Addr
			refused bool
			where   string
		}{{first, r.refused, "first"}, {last, r.refused, "last"}, {below, !r.below, "below"}, {above, !r.above, "above"}} {
			if !a.a.IsValid() {
				continue
			}
			for form, e := range embeddings(a.a) {
				check(e, a.refused, what+" "+a.where+" as "+form)
			}
			check(netip.AddrFrom16([16]byte{12: a.a.As4()[0], 13: a.a.As4()[1], 14: a.a.As4()[2], 15: a.a.As4()[3]}),
				true, what+" "+a.where+" IPv4-compatible")
		}
	}
}

// TestBlockedAddresses: the addresses of the issue and of the existing
// refusals, one by one, and public neighbours.
func TestBlockedAddresses(t *testing.T) {
	for _, tc := range []struct {
		addr    string
		refused bool
	}{
		{"198.17.255.255", false}, {"198.18.0.1", true}, {"198.19.255.255", true}, {"198.20.0.0", false},
		{"239.255.255.255", true}, {"240.0.0.1", true}, {"223.255.255.255", false},
		{"192.0.0.1", true}, {"192.0.0.9", true}, {"191.255.255.255", false}, {"192.0.1.0", false},
		{"::127.0.0.1", true}, {"::8.8.8.8", true}, {"::ffff:127.0.0.1", true}, {"::ffff:8.8.8.8", false},
		{"::ffff:198.18.0.1", true}, {"::ffff:198.17.255.255", false},
		{"fec0::1", true}, {"fe80::1%lo", true}, {"fe80::1", true}, {"fd12::1", true}, {"ff02::1", true},
		// Teredo: server 65.54.227.120, client 10.0.0.1 (inverted: f5ff:fffe) or 8.8.8.8 (f7f7:f7f7).
		{"2001:0:4136:e378:8000:63bf:f5ff:fffe", true},
		{"2001:0:4136:e378:8000:63bf:f7f7:f7f7", false},
		// Teredo server 10.0.0.1, public client.
		{"2001:0:a00:1:8000:63bf:f7f7:f7f7", true},
		// 6to4 of 10.0.0.1, 127.0.0.1, 192.88.99.1 (the relay), and 8.8.8.8.
		{"2002:a00:1::1", true}, {"2002:7f00:1::", true}, {"2002:c058:6301::1", true}, {"2002:808:808::1", false},
		// NAT64 of 10.0.0.1, 127.0.0.1, 169.254.169.254, and 8.8.8.8; the local-use prefix.
		{"64:ff9b::a00:1", true}, {"64:ff9b::7f00:1", true}, {"64:ff9b::a9fe:a9fe", true}, {"64:ff9b::808:808", false},
		{"64:ff9b:1::a00:1", true}, {"64:ff9b:1::808:808", true},
		// Global unicast.
		{"8.8.8.8", false}, {"1.1.1.1", false}, {"2001:4860:4860::8888", false}, {"2606:4700::1111", false},
		{"2001:200::1", false}, {"1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", true}, {"4000::1", true},
	} {
		a := netip.MustParseAddr(tc.addr)
		why := Reason(a)
		if (why != "") != tc.refused {
			t.Errorf("%s: reason %q, want refused %v", tc.addr, why, tc.refused)
		}
	}
}

// TestBlockedReasonWords: the reason names the block, and for an address
// that embeds IPv4, the IPv4 address and its own block.
func TestBlockedReasonWords(t *testing.T) {
	for _, tc := range []struct{ addr, want string }{
		{"198.18.0.1", "a benchmarking address (198.18.0.0/15, RFC 2544)"},
		{"::ffff:127.0.0.1", "a loopback address (127.0.0.0/8)"},
		{"64:ff9b::a00:1", "a NAT64 address (64:ff9b::/96, RFC 6052) of the IPv4 address 10.0.0.1, a private address (10.0.0.0/8, RFC 1918)"},
		{"2001:0:4136:e378:8000:63bf:f5ff:fffe", "a Teredo address (2001::/32, RFC 4380) of the client IPv4 address 10.0.0.1, a private address"},
		{"2002:a9fe:a9fe::1", "a 6to4 address (2002::/16, RFC 3056) of the IPv4 address 169.254.169.254, a link-local address"},
		{"::7f00:1", "an IPv4-compatible address (::/96, deprecated by RFC 4291)"},
		{"fe80::1%eth0", "a link-local address (fe80::/10)"},
		{"4000::1", "an address outside IPv6 global unicast (2000::/3, RFC 4291)"},
	} {
		if got := Reason(netip.MustParseAddr(tc.addr)); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s: %q, want it to start with %q", tc.addr, got, tc.want)
		}
	}
}

// TestGuardEmbedded: the URL check and the dialer's hook both refuse an
// address that embeds a refused IPv4 one, and -allow-private lets it
// through.
func TestGuardEmbedded(t *testing.T) {
	g := &Guard{}
	for _, host := range []string{"[64:ff9b::a00:1]", "[2002:7f00:1::1]", "[::ffff:198.18.0.1]", "[::127.0.0.1]", "192.0.0.170", "240.0.0.1"} {
		err := g.CheckTarget(context.Background(), "http://"+host+"/")
		var te *TargetError
		if !errors.As(err, &te) || te.Kind != Forbidden {
			t.Errorf("CheckTarget(%s): %v, want Forbidden", host, err)
		}
		if err := g.Control("tcp6", host+":80", nil); !errors.Is(err, ErrPrivate) {
			t.Errorf("Control(%s:80): %v, want ErrPrivate", host, err)
		}
	}
	if err := g.Control("tcp6", "[64:ff9b::808:808]:443", nil); err != nil {
		t.Errorf("control of NAT64 of 8.8.8.8: %v", err)
	}
	open := &Guard{AllowPrivate: true}
	for _, addr := range []string{"[64:ff9b::a00:1]:80", "198.18.0.1:80", "[::1]:80", "127.0.0.1:80"} {
		if err := open.Control("tcp", addr, nil); err != nil {
			t.Errorf("-allow-private: Control(%s): %v", addr, err)
		}
	}
	if err := open.CheckTarget(context.Background(), "http://[64:ff9b::a00:1]/"); err != nil {
		t.Errorf("-allow-private: CheckTarget: %v", err)
	}
}
