// Package hostname says which values of a Yandex Host line name a host:
// the one definition read by the root package's Rules.Host and by the
// checker's Host checks.
package hostname

import (
	"strconv"
	"strings"
)

// Valid reports whether v, the value of a Host line, names a host as
// Yandex read it: "hostname[:port]" after an optional "http://" or
// "https://" (Yandex documented "https://host" for an HTTPS main mirror),
// where the host name is ASCII labels of letters, digits and inner
// hyphens, not an IP address, and the port a number from 1 to 65535.
// Yandex's robots.txt help listed values such as "www.myhost-.com",
// "www.my_host.com", "213.180.194.129" and "www.myhost.com:8080/" among
// the Host lines it ignores, and used the first valid one
// (https://yandex.com/support/webmaster/controlling-robot/robots-txt.html,
// the Host section, withdrawn in 2018).
func Valid(v string) bool {
	lv := strings.ToLower(v)
	for _, s := range []string{"http://", "https://"} {
		if strings.HasPrefix(lv, s) {
			v = v[len(s):]
			break
		}
	}
	return validHost(v)
}

// validHost reports whether h is "hostname[:port]".
func validHost(h string) bool {
	if h == "" || len(h) > 260 {
		return false
	}
	if i := strings.LastIndexByte(h, ':'); i >= 0 {
		port := h[i+1:]
		n, err := strconv.Atoi(port)
		if err != nil || n < 1 || n > 65535 || port[0] == '+' {
			return false
		}
		h = h[:i]
	}
	h = strings.TrimSuffix(h, ".")
	if h == "" || len(h) > 253 {
		return false
	}
	numeric := true
	for lb := range strings.SplitSeq(h, ".") {
		if lb == "" || len(lb) > 63 || lb[0] == '-' || lb[len(lb)-1] == '-' {
			return false
		}
		for j := 0; j < len(lb); j++ {
			c := lb[j]
			switch {
			case c >= '0' && c <= '9':
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-':
				numeric = false
			default:
				return false
			}
		}
	}
	// An all-numeric name is an IPv4 address (or a mangled one).
	return !numeric
}
