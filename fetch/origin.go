package fetch

import (
	"errors"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// An Origin is the scope of one robots.txt file: a scheme, a host and a
// port. A robots.txt governs only URLs of its own origin (RFC 9309 §2.3,
// Google's robots.txt documentation): http and https differ,
// www.example.com and example.com differ, and so do ports, but an explicit
// default port (:80 for http, :443 for https) is the same origin as none.
type Origin struct {
	// Scheme is "http" or "https".
	Scheme string
	// Host is the host name in lower case, internationalised names in
	// their ASCII (punycode) form, or an IP address as written (an IPv6
	// address without brackets).
	Host string
	// Port is the port when it is not the scheme's default, else "".
	Port string
}

// ErrScheme is wrapped by the error ParseOrigin returns for a URL whose
// scheme is not http or https (RB136).
var ErrScheme = errors.New("robots.txt is fetched over http and https only")

// ParseOrigin returns the origin of an absolute http or https URL. The
// host is lower-cased and converted to its IDNA ASCII form (UTS #46, the
// lookup profile), which is the name a robot resolves and the one its
// robots.txt is requested from; user information and the path are
// dropped.
func ParseOrigin(rawURL string) (Origin, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return Origin{}, err
	}
	return originOf(u)
}

func originOf(u *url.URL) (Origin, error) {
	scheme := strings.ToLower(u.Scheme)
	if scheme == "" || u.Opaque != "" {
		return Origin{}, &url.Error{Op: "parse", URL: u.String(), Err: errors.New("not an absolute http or https URL")}
	}
	if scheme != "http" && scheme != "https" {
		return Origin{}, &url.Error{Op: "parse", URL: u.String(), Err: ErrScheme}
	}
	host, port := u.Hostname(), u.Port()
	if host == "" {
		return Origin{}, &url.Error{Op: "parse", URL: u.String(), Err: errors.New("missing host")}
	}
	if port != "" {
		// Leading zeros name the same port: ":0443" is ":443".
		p := strings.TrimLeft(port, "0")
		if p == "" {
			p = "0"
		}
		port = p
	}
	if (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if ip := net.ParseIP(host); ip != nil {
		return Origin{Scheme: scheme, Host: host, Port: port}, nil
	}
	ascii, err := asciiHost(host)
	if err != nil {
		return Origin{}, &url.Error{Op: "parse", URL: u.String(), Err: err}
	}
	return Origin{Scheme: scheme, Host: ascii, Port: port}, nil
}

// asciiHost lower-cases an ASCII host and converts any other to punycode;
// punycode labels are validated too, so that an invalid one is an error
// rather than an origin of its own.
func asciiHost(host string) (string, error) {
	ascii := true
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		host = strings.ToLower(host)
		if !strings.Contains(host, "xn--") {
			return host, nil
		}
	}
	h, err := idna.Lookup.ToASCII(host)
	if err != nil {
		return "", errors.New("invalid internationalised host name " + host + ": " + err.Error())
	}
	return h, nil
}

// String returns the origin as a URL without a path, such as
// "https://example.com" or "http://[::1]:8080".
func (o Origin) String() string {
	host := o.Host
	if strings.IndexByte(host, ':') >= 0 {
		host = "[" + host + "]"
	}
	if o.Port != "" {
		host += ":" + o.Port
	}
	return o.Scheme + "://" + host
}

// RobotsURL returns the URL of the origin's robots.txt.
func (o Origin) RobotsURL() string { return o.String() + "/robots.txt" }

// IsIP reports whether the host is an IP address: such a robots.txt
// governs the address used as a host name, not the domains served from it
// (Google's robots.txt documentation).
func (o Origin) IsIP() bool { return net.ParseIP(o.Host) != nil }

// Unicode returns the host in its Unicode form when it is an
// internationalised name, and the host unchanged otherwise.
func (o Origin) Unicode() string {
	if !strings.Contains(o.Host, "xn--") {
		return o.Host
	}
	u, err := idna.Lookup.ToUnicode(o.Host)
	if err != nil {
		return o.Host
	}
	return u
}

// robotsTarget returns the URL to request for rawURL and its origin: the
// origin's /robots.txt, or rawURL itself when its path already ends in
// /robots.txt (a file named on purpose, as `robots fetch` allows).
func robotsTarget(rawURL string, asIs bool) (string, Origin, error) {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil {
		return "", Origin{}, err
	}
	o, err := originOf(u)
	if err != nil {
		return "", Origin{}, err
	}
	if asIs && strings.HasSuffix(u.Path, "/robots.txt") {
		v := *u
		v.Fragment, v.RawFragment, v.User = "", "", nil
		v.Scheme = o.Scheme
		return v.String(), o, nil
	}
	return o.RobotsURL(), o, nil
}

// simpleOrigin is ParseOrigin for the common URL that needs no work: an
// http or https scheme in lower case, then a host of lower-case letters,
// digits, '-' and '.', with no user information, no explicit default port
// and no internationalised label. Its fields are substrings of rawURL, so
// it does not allocate; any other URL reports false.
func simpleOrigin(rawURL string) (Origin, bool) {
	var scheme string
	switch {
	case strings.HasPrefix(rawURL, "https://"):
		scheme = "https"
	case strings.HasPrefix(rawURL, "http://"):
		scheme = "http"
	default:
		return Origin{}, false
	}
	rest := rawURL[len(scheme)+3:]
	end := len(rest)
	colon := -1
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		switch {
		case c == '/' || c == '?' || c == '#':
			end = i
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.':
			continue
		case c == ':' && colon < 0:
			colon = i
			continue
		default:
			return Origin{}, false
		}
		break
	}
	host, port := rest[:end], ""
	if colon >= 0 && colon < end {
		host, port = rest[:colon], rest[colon+1:end]
		if port == "" || port[0] == '0' || (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
			return Origin{}, false
		}
		for i := 0; i < len(port); i++ {
			if port[i] < '0' || port[i] > '9' {
				return Origin{}, false
			}
		}
	}
	if host == "" || strings.Contains(host, "xn--") || host[0] == '.' || host[0] == '-' {
		return Origin{}, false
	}
	return Origin{Scheme: scheme, Host: host, Port: port}, true
}
