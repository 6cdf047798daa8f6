package server

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

// errPrivate marks a target the guard refuses.
var errPrivate = errors.New("private target")

// blockedReason says why the server must not connect to ip, or "" when
// it may. It refuses every address a remote user could use to reach the
// server's own network: loopback, RFC 1918 and RFC 4193 private ranges,
// link-local (cloud metadata at 169.254.169.254 among them), multicast,
// unspecified, carrier-grade NAT (RFC 6598), and IPv4 inside IPv6.
func blockedReason(ip netip.Addr) string {
	ip = ip.Unmap()
	switch {
	case !ip.IsValid():
		return "an invalid address"
	case ip.IsLoopback():
		return "a loopback address"
	case ip.IsPrivate():
		return "a private address"
	case ip.IsLinkLocalUnicast(), ip.IsLinkLocalMulticast():
		return "a link-local address"
	case ip.IsMulticast(), ip.IsInterfaceLocalMulticast():
		return "a multicast address"
	case ip.IsUnspecified():
		return "an unspecified address"
	case cgnat.Contains(ip):
		return "a carrier-grade NAT address"
	case ip.Is4() && ip.As4()[0] == 0, ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "a reserved address"
	case ip.Is6() && (nat64.Contains(ip) || sixToFour.Contains(ip)):
		return "an IPv6 address that embeds an IPv4 one"
	}
	return ""
}

var (
	cgnat     = netip.MustParsePrefix("100.64.0.0/10")
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// guard decides which addresses the server's client may connect to.
type guard struct {
	allowPrivate bool
	// blocked overrides blockedReason in tests.
	blocked func(netip.AddrPort) string
}

func (g *guard) reason(ap netip.AddrPort) string {
	if g.allowPrivate {
		return ""
	}
	if g.blocked != nil {
		return g.blocked(ap)
	}
	return blockedReason(ap.Addr())
}

// control runs after DNS resolution, before every connection, so it covers
// every redirect hop and a name that resolves to a private address (DNS
// rebinding included): the address checked is the one connected to.
func (g *guard) control(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("%w: cannot read address %q", errPrivate, address)
	}
	if why := g.reason(ap); why != "" {
		return fmt.Errorf("%w: refusing to connect to %s, %s (start the server with -allow-private to allow it)", errPrivate, ap.Addr(), why)
	}
	return nil
}

// client returns the HTTP client the server fetches user-given URLs with:
// every connection passes the guard, and no proxy from the environment is
// used (a proxy would connect on the server's behalf, unguarded).
func (g *guard) client(timeout time.Duration) *http.Client {
	d := &net.Dialer{Timeout: 10 * time.Second, Control: g.control}
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

// checkTarget refuses a user-given URL before any request: it must be an
// absolute http or https URL whose host resolves only to addresses the
// guard allows. The dialer checks again at connection time.
func (g *guard) checkTarget(ctx context.Context, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		return badRequest("bad_url", fmt.Sprintf("%q is not an absolute http or https URL", raw))
	}
	if g.allowPrivate {
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
			return &apiError{status: http.StatusBadGateway, code: "dns_error", msg: fmt.Sprintf("cannot resolve %s: %v", host, err)}
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
			return &apiError{status: http.StatusForbidden, code: "forbidden_target",
				msg: fmt.Sprintf("%s %s; this server does not fetch private targets (start it with -allow-private to allow them)", target, why)}
		}
	}
	return nil
}
