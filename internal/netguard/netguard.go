// Package netguard keeps a service that fetches URLs for remote users off
// the networks behind it: the web service (robots serve) and the MCP
// server (robots mcp) refuse private, loopback, link-local and other
// special-purpose addresses unless started with -allow-private. One guard
// for both, so that the rule is one rule.
package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"syscall"
	"time"
)

// ErrPrivate marks a connection the guard refuses.
var ErrPrivate = errors.New("private target")

// Reason says why the server must not connect to ip, or "" when
// it may. It refuses every address a remote user could use to reach the
// server's own network or a service that is not on the public Internet:
// each block of the IANA IPv4 and IPv6 Special-Purpose Address Registries
// (https://www.iana.org/assignments/iana-ipv4-special-registry/ and
// https://www.iana.org/assignments/iana-ipv6-special-registry/) that is
// not globally reachable, IPv4 multicast, and IPv6 outside global unicast
// (2000::/3, RFC 4291), which covers unique-local, link-local, site-local
// and multicast addresses and the deprecated IPv4-compatible ::a.b.c.d.
// An IPv4-mapped ::ffff:a.b.c.d is judged as its IPv4 address.
//
// Two choices go beyond the registries. The anycast service addresses
// inside 192.0.0.0/24 and 2001::/23 that the registries mark globally
// reachable (Port Control Protocol, TURN, DNS-SD SRP: 192.0.0.9,
// 192.0.0.10, 2001:1::1 to 2001:1::3) are refused with their blocks: an
// anycast address reaches the nearest such server, often one run by the
// server's own network, and no web site lives there. And the deprecated
// 6to4 relay anycast block 192.88.99.0/24 (RFC 7526) is refused.
//
// The transition prefixes that carry an IPv4 address are judged by that
// address: 64:ff9b::/96 (NAT64, RFC 6052: the last 32 bits), 2002::/16
// (6to4, RFC 3056: bits 16 to 47) and 2001::/32 (Teredo, RFC 4380: the
// server in bits 32 to 63, the client in the last 32 bits inverted). A
// gateway that translates or tunnels them delivers to that IPv4 address,
// so one the guard refuses is refused inside them too; a public one is
// allowed, so that a server on an IPv6-only network behind DNS64 still
// reaches IPv4-only sites. The local-use NAT64 prefix 64:ff9b:1::/48 (RFC
// 8215) is refused whole, as the registry has it. A network-specific
// NAT64 prefix (RFC 6052 §2.3, taken from the network's own global
// addresses) looks like any public address: the guard cannot see the
// IPv4 address behind it.
func Reason(ip netip.Addr) string {
	if !ip.IsValid() {
		return "an invalid address"
	}
	// A zone (fe80::1%eth0) does not change what the address is, but a
	// zoned address matches no netip.Prefix.
	ip = ip.WithZone("")
	if ip.Is4In6() {
		return blockedReason4(ip.Unmap())
	}
	if ip.Is4() {
		return blockedReason4(ip)
	}
	return blockedReason6(ip)
}

// A special is a block of addresses the guard refuses, and why.
type special struct {
	prefix netip.Prefix
	why    string
}

func specials(pairs ...string) []special {
	out := make([]special, 0, len(pairs)/2)
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, special{netip.MustParsePrefix(pairs[i]), pairs[i+1]})
	}
	return out
}

// refused4 are the IPv4 blocks refused: those of the IANA IPv4
// Special-Purpose Address Registry that are not globally reachable (the
// more specific entries of 192.0.0.0/24 are within it), the deprecated
// 6to4 relay anycast block, and multicast. The first match names the
// reason.
var refused4 = specials(
	"0.0.0.0/8", `a "this network" address (0.0.0.0/8, RFC 791)`,
	"10.0.0.0/8", "a private address (10.0.0.0/8, RFC 1918)",
	"100.64.0.0/10", "a carrier-grade NAT address (100.64.0.0/10, RFC 6598)",
	"127.0.0.0/8", "a loopback address (127.0.0.0/8)",
	"169.254.0.0/16", "a link-local address (169.254.0.0/16, where cloud metadata services answer)",
	"172.16.0.0/12", "a private address (172.16.0.0/12, RFC 1918)",
	"192.0.0.0/24", "an IETF protocol assignment (192.0.0.0/24, RFC 6890: NAT64 discovery, DS-Lite, anycast services)",
	"192.0.2.0/24", "a documentation address (192.0.2.0/24, RFC 5737)",
	"192.88.99.0/24", "a 6to4 relay anycast address (192.88.99.0/24, deprecated by RFC 7526)",
	"192.168.0.0/16", "a private address (192.168.0.0/16, RFC 1918)",
	"198.18.0.0/15", "a benchmarking address (198.18.0.0/15, RFC 2544)",
	"198.51.100.0/24", "a documentation address (198.51.100.0/24, RFC 5737)",
	"203.0.113.0/24", "a documentation address (203.0.113.0/24, RFC 5737)",
	"224.0.0.0/4", "a multicast address (224.0.0.0/4)",
	"255.255.255.255/32", "the limited broadcast address",
	"240.0.0.0/4", "a reserved address (240.0.0.0/4, RFC 1112)",
)

// blockedReason4 is Reason for an IPv4 address.
func blockedReason4(ip netip.Addr) string {
	for _, s := range refused4 {
		if s.prefix.Contains(ip) {
			return s.why
		}
	}
	return ""
}

var (
	globalUnicast = netip.MustParsePrefix("2000::/3")
	ipv4Compat    = netip.MustParsePrefix("::/96")
	nat64         = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour     = netip.MustParsePrefix("2002::/16")
	teredo        = netip.MustParsePrefix("2001::/32")
)

// outside6 name the IPv6 blocks outside global unicast, all refused, for
// the message; the registry's entries first.
var outside6 = specials(
	"64:ff9b:1::/48", "a local-use NAT64 address (64:ff9b:1::/48, RFC 8215)",
	"100::/64", "a discard-only address (100::/64, RFC 6666)",
	"100:0:0:1::/64", "a dummy address (100:0:0:1::/64, RFC 9780)",
	"5f00::/16", "a segment routing identifier (5f00::/16, RFC 9602)",
	"fc00::/7", "a unique-local (private) address (fc00::/7, RFC 4193)",
	"fe80::/10", "a link-local address (fe80::/10)",
	"fec0::/10", "a site-local address (fec0::/10, deprecated by RFC 3879)",
	"ff00::/8", "a multicast address (ff00::/8)",
	"::ffff:0:0:0/96", "an IPv4-translated address (::ffff:0:0:0/96, RFC 2765)",
)

// global6 are the blocks inside 2001::/23 that the IPv6 registry marks
// globally reachable and that are networks, not anycast services: AMT
// (RFC 7450), AS112-v6 (RFC 7535), ORCHIDv2 (RFC 7343) and the drone
// entity tags (RFC 9374).
var global6 = []netip.Prefix{
	netip.MustParsePrefix("2001:3::/32"),
	netip.MustParsePrefix("2001:4:112::/48"),
	netip.MustParsePrefix("2001:20::/28"),
	netip.MustParsePrefix("2001:30::/28"),
}

// refused6 are the blocks inside global unicast that the IPv6 registry
// marks not globally reachable, most specific first.
var refused6 = specials(
	"2001:2::/48", "a benchmarking address (2001:2::/48, RFC 5180)",
	"2001:10::/28", "a deprecated ORCHID address (2001:10::/28, RFC 4843)",
	"2001::/23", "an IETF protocol assignment (2001::/23, RFC 2928)",
	"2001:db8::/32", "a documentation address (2001:db8::/32, RFC 3849)",
	"3fff::/20", "a documentation address (3fff::/20, RFC 9637)",
)

// blockedReason6 is Reason for an IPv6 address that is not
// IPv4-mapped.
func blockedReason6(ip netip.Addr) string {
	b := ip.As16()
	switch {
	case ip.IsUnspecified():
		return "an unspecified address"
	case ip.IsLoopback():
		return "a loopback address"
	case ipv4Compat.Contains(ip):
		return "an IPv4-compatible address (::/96, deprecated by RFC 4291)"
	case nat64.Contains(ip):
		return embedded("a NAT64 address (64:ff9b::/96, RFC 6052)", "", netip.AddrFrom4([4]byte(b[12:16])))
	case !globalUnicast.Contains(ip):
		for _, s := range outside6 {
			if s.prefix.Contains(ip) {
				return s.why
			}
		}
		return "an address outside IPv6 global unicast (2000::/3, RFC 4291)"
	case teredo.Contains(ip):
		const what = "a Teredo address (2001::/32, RFC 4380)"
		server := netip.AddrFrom4([4]byte(b[4:8]))
		client := netip.AddrFrom4([4]byte{^b[12], ^b[13], ^b[14], ^b[15]})
		if why := embedded(what, "client ", client); why != "" {
			return why
		}
		return embedded(what, "server ", server)
	case sixToFour.Contains(ip):
		return embedded("a 6to4 address (2002::/16, RFC 3056)", "", netip.AddrFrom4([4]byte(b[2:6])))
	}
	for _, p := range global6 {
		if p.Contains(ip) {
			return ""
		}
	}
	for _, s := range refused6 {
		if s.prefix.Contains(ip) {
			return s.why
		}
	}
	return ""
}

// embedded is the reason to refuse an IPv6 address of the kind what
// that carries the IPv4 address v4 (as its role), or "" when v4 is
// allowed.
func embedded(what, role string, v4 netip.Addr) string {
	why := blockedReason4(v4)
	if why == "" {
		return ""
	}
	return what + " of the " + role + "IPv4 address " + v4.String() + ", " + why
}

// A Guard decides which addresses a service's client may connect to.
type Guard struct {
	// AllowPrivate lifts the guard (-allow-private).
	AllowPrivate bool
	// Blocked, when not nil, replaces Reason (tests). It is read at each
	// connection, so that it may be set after Client.
	Blocked func(netip.AddrPort) string
}

func (g *Guard) reason(ap netip.AddrPort) string {
	if g.AllowPrivate {
		return ""
	}
	if g.Blocked != nil {
		return g.Blocked(ap)
	}
	return Reason(ap.Addr())
}

// Control runs after DNS resolution, before every connection (it is the
// net.Dialer's Control), so it covers every redirect hop and a name that
// resolves to a private address (DNS rebinding included): the address
// checked is the one connected to. A refusal wraps ErrPrivate.
func (g *Guard) Control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot read address %q", ErrPrivate, address)
	}
	if why := g.reason(ap); why != "" {
		return fmt.Errorf("%w: refusing to connect to %s, %s (start the server with -allow-private to allow it)", ErrPrivate, ap.Addr(), why)
	}
	return nil
}

// Client returns the HTTP client that fetches user-given URLs: every
// connection passes the guard, and no proxy from the environment is used
// (a proxy would connect on the service's behalf, unguarded).
func (g *Guard) Client(timeout time.Duration) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second, Control: g.Control}
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            d.DialContext,
		ForceAttemptHTTP2:      true,
		MaxIdleConns:           100,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        60 * time.Second,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  15 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{Transport: tr, Timeout: timeout}
}

// A TargetError is a user-given URL that CheckTarget refuses.
type TargetError struct {
	Kind TargetKind
	Msg  string
}

func (e *TargetError) Error() string { return e.Msg }

// TargetKind says why CheckTarget refused a URL.
type TargetKind int

const (
	// BadURL: not an absolute http or https URL.
	BadURL TargetKind = iota
	// Unresolved: its host name did not resolve.
	Unresolved
	// Forbidden: its host is, or resolves to, an address the guard
	// refuses.
	Forbidden
)

// CheckTarget refuses a user-given URL before any request: it must be an
// absolute http or https URL whose host resolves only to addresses the
// guard allows. The dialer (Control) checks again at connection time. The
// error is a *TargetError.
func (g *Guard) CheckTarget(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return &TargetError{BadURL, fmt.Sprintf("%q is not an absolute http or https URL", raw)}
	}
	if g.AllowPrivate {
		return nil
	}
	host := u.Hostname()
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{ip}
	} else {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		ips, err := net.DefaultResolver.LookupNetIP(rctx, "ip", host)
		if err != nil {
			return &TargetError{Unresolved, fmt.Sprintf("cannot resolve %s: %v", host, err)}
		}
		addrs = ips
	}
	p, _ := strconv.ParseUint(port, 10, 16)
	for _, ip := range addrs {
		ip = ip.Unmap()
		if why := g.reason(netip.AddrPortFrom(ip, uint16(p))); why != "" {
			target := host + " resolves to " + ip.String() + ","
			if ip.String() == host {
				target = host + " is"
			}
			return &TargetError{Forbidden, fmt.Sprintf("%s %s; this server does not fetch private targets (start it with -allow-private to allow them)", target, why)}
		}
	}
	return nil
}
