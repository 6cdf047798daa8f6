// Package target reads what a user names as the site or the page to
// fetch, one way for the command line (robots fetch, page, check, test
// -url …) and the web checker's forms: an absolute http or https URL as
// it is, or a bare host ("example.com", "example.com/x",
// "127.0.0.1:8080") as https://, with a note that says how it was read.
// Search consoles take a site so too: a Domain property of Google Search
// Console is named without a protocol, "example.com"
// (https://support.google.com/webmasters/answer/10431861).
package target

import (
	"errors"
	"fmt"
	"net/netip"
	neturl "net/url"
	"strconv"
	"strings"
)

// Read reads arg, a site or page to fetch. An absolute http or https URL
// (the scheme in any case, RFC 3986 §3.1) is kept as it is, with bare
// false; a bare host (BareHost) is read as https://, with bare true, and
// the caller says so (Note). Anything else is an error that says what to
// give.
func Read(arg string) (u string, bare bool, err error) {
	switch {
	case arg == "":
		return "", false, errors.New("empty URL")
	case IsURL(arg):
		p, err := neturl.Parse(arg)
		if err != nil || p.Host == "" {
			return "", false, fmt.Errorf("%q is not a URL: %s", arg, Problem(err))
		}
		return arg, false, nil
	}
	if u, ok := BareHost(arg); ok {
		return u, true, nil
	}
	if i := strings.Index(arg, "://"); i > 0 {
		return "", false, fmt.Errorf("%q: robots fetch only http and https URLs", arg)
	}
	return "", false, fmt.Errorf("%q is not a URL: give one such as https://example.com/", arg)
}

// IsURL reports whether s starts with http:// or https://, in any case.
func IsURL(s string) bool {
	return hasPrefixFold(s, "http://") || hasPrefixFold(s, "https://")
}

func hasPrefixFold(s, p string) bool { return len(s) >= len(p) && strings.EqualFold(s[:len(p)], p) }

// Note says how Read read a bare host arg as u: `reading "example.com"
// as https://example.com`, and for a local address how to reach a
// server without TLS (Hint).
func Note(arg, u string) string {
	return fmt.Sprintf("reading %q as %s", arg, u) + Hint(u)
}

// Hint is, for an https URL of a local address (IsLocal), which a test
// server often serves without TLS, " (a local server without TLS: give
// http://…)"; "" otherwise.
func Hint(u string) string {
	p, err := neturl.Parse(u)
	if err != nil || p.Scheme != "https" || !IsLocal(p.Hostname()) {
		return ""
	}
	return " (a local server without TLS: give http://" + strings.TrimPrefix(u, "https://") + ")"
}

// IsLocal reports whether host is localhost or an IP address.
func IsLocal(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	_, err := netip.ParseAddr(host)
	return err == nil
}

// Problem says what is wrong with a URL in words, without Go's parse
// "…": prefix: err is net/url.Parse's, nil for a URL without a host.
func Problem(err error) string {
	var ue *neturl.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if err == nil {
		return "no host"
	}
	return strings.TrimPrefix(err.Error(), "net/url: ")
}

// BareHost reads s, a host with an optional port and path but no scheme,
// as an https URL. Only something that looks like a host name (with a
// dot, or localhost) or an IP address qualifies, so that file names and
// paths do not: "robots.txt" and "nogoogle/a" are not hosts.
func BareHost(s string) (string, bool) {
	if s == "" || strings.ContainsAny(s, " \t\\") || strings.HasPrefix(s, "/") || strings.HasPrefix(s, ".") {
		return "", false
	}
	host := s
	if i := strings.IndexAny(host, "/?#"); i >= 0 {
		host = host[:i]
	}
	name := host
	if h, port, ok := strings.Cut(host, ":"); ok {
		if _, err := strconv.ParseUint(port, 10, 16); err != nil {
			return "", false
		}
		name = h
	}
	if !(strings.Contains(name, ".") || strings.EqualFold(name, "localhost")) || strings.HasSuffix(name, ".") && !strings.Contains(strings.TrimSuffix(name, "."), ".") {
		return "", false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c == '.' || c == '-' || c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80) {
			return "", false
		}
	}
	// The last label of a name is a top-level domain, not a file
	// extension such as .txt: a file named "robots.txt" is not a host.
	labels := strings.Split(strings.TrimSuffix(name, "."), ".")
	last := strings.ToLower(labels[len(labels)-1])
	if len(labels) > 1 && fileExtensions[last] {
		return "", false
	}
	u := "https://" + s
	if p, err := neturl.Parse(u); err != nil || p.Host == "" {
		return "", false
	}
	return u, true
}

// fileExtensions are endings that make a name a file rather than a host.
var fileExtensions = map[string]bool{"txt": true, "text": true, "json": true, "jsonl": true, "html": true, "htm": true, "gz": true, "log": true, "md": true, "bak": true, "orig": true, "old": true, "tmp": true, "xml": true, "csv": true}
