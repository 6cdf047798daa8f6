package ext

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/robotskit/robots/internal/hostname"
	"github.com/robotskit/robots/lint/internal/check"
)

// How the checks of this section find their lines and read their values:
// URLs, Host names, Clean-param lists, numbers and time windows, and the
// edit that moves a line.

// each calls fn for every line whose directive is d and whose value is
// not empty: empty values are RB307's and RB308's, so the value checks
// of RB6xx skip them.
func each(p *check.Pass, d check.Directive, fn func(l *check.Line)) {
	for i := range p.Lines {
		if l := &p.Lines[i]; l.Dir == d && l.ValueText != "" {
			fn(l)
		}
	}
}

// trimmedText returns the text of line l without its terminator and without
// leading white space.
func trimmedText(p *check.Pass, l *check.Line) string {
	return strings.TrimLeft(p.Src[l.Span.Start.Offset:l.Span.End.Offset], " \t")
}

// lineStart returns the byte offset of line l's first character, where
// the diagnostics of whole lines point (column 1).
func lineStart(l *check.Line) int { return l.Span.Start.Offset }

// schemeLen returns the length of v's "scheme://" prefix followed by a
// non-empty host, or 0 when v does not start with one (RB601: an absolute
// URL has a scheme and a host; RB602 reports file: URLs, whose host is
// empty).
func schemeLen(v string) int {
	i := 0
	for i < len(v) {
		c := v[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			i++
			continue
		}
		break
	}
	if i == 0 || !strings.HasPrefix(v[i:], "://") {
		return 0
	}
	// file: URLs name the local host with an empty one ("file:///x").
	rest := v[i+3:]
	if !strings.EqualFold(v[:i], "file") && (rest == "" || strings.IndexAny(rest[:1], "/?#") == 0) {
		return 0
	}
	return i + 3
}

// urlPath returns the path part of a Sitemap value: after the scheme
// and host when it is absolute, up to the query or fragment.
func urlPath(v string) string {
	if n := schemeLen(v); n > 0 {
		v = v[n:]
		if i := strings.IndexByte(v, '/'); i >= 0 {
			v = v[i:]
		} else {
			v = ""
		}
	}
	if i := strings.IndexAny(v, "?#"); i >= 0 {
		v = v[:i]
	}
	return v
}

// severalURLs reports whether a Sitemap value holds several
// white-space separated http(s) URLs, which RB309 reports instead of
// RB608.
func severalURLs(v string) bool {
	n := 0
	for _, f := range strings.Fields(v) {
		lf := strings.ToLower(f)
		if strings.HasPrefix(lf, "http://") || strings.HasPrefix(lf, "https://") {
			n++
		}
	}
	return n >= 2
}

// originOf returns the lower-cased "scheme://host[:port]" of u, with the
// default port of http and https left out, and false when u is not an
// absolute URL.
func originOf(u *url.URL) (string, bool) {
	if u == nil || u.Scheme == "" || u.Host == "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	host := strings.ToLower(u.Hostname())
	port := u.Port()
	if scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		port = ""
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, true
}

// resolveSitemap returns the absolute URL a relative Sitemap value v
// stands for on the site of the robots.txt at base, and false when it
// cannot tell: no base, or a value whose first segment looks like a host
// name other than the base's (FX31 does not guess a scheme for another
// site).
func resolveSitemap(base, v string) (string, bool) {
	b, err := url.Parse(base)
	if err != nil || b.Scheme == "" || b.Host == "" {
		return "", false
	}
	if strings.ContainsAny(v, " \t") || strings.Contains(v, "://") {
		return "", false
	}
	if !strings.HasPrefix(v, "/") {
		// "www.example.com/sitemap.xml": a host without a scheme. Only
		// the robots.txt's own host can be completed safely.
		if seg, _, ok := strings.Cut(v, "/"); ok && strings.Contains(seg, ".") {
			if !strings.EqualFold(seg, b.Host) {
				return "", false
			}
			return b.Scheme + "://" + v, true
		}
	}
	r, err := url.Parse(v)
	if err != nil {
		return "", false
	}
	out := b.ResolveReference(r).String()
	if schemeLen(out) == 0 {
		return "", false
	}
	return out, true
}

// usedHost returns the Host line Yandex used: the first whose value
// is valid (hostname.Valid, the predicate of robots.Rules.Host), or nil.
func usedHost(p *check.Pass) *check.Line {
	for i := range p.Lines {
		if l := &p.Lines[i]; l.Dir == check.Host && hostname.Valid(l.ValueText) {
			return l
		}
	}
	return nil
}

// paramName reports whether s is a Clean-param parameter name: one or
// more of [A-Za-z0-9_.~-] (RB631).
func paramName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '~' || c == '-') {
			return false
		}
	}
	return true
}

// paramList reports whether s is a Clean-param parameter list:
// parameter names joined by "&", none empty.
func paramList(s string) bool {
	for _, p := range strings.Split(s, "&") {
		if !paramName(p) {
			return false
		}
	}
	return true
}

// cleanPathOK reports whether the path prefix of a Clean-param uses
// only the characters Yandex allows there (RB634).
func cleanPathOK(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(".-/*_", c) >= 0) {
			return false
		}
	}
	return true
}

// number parses a Crawl-delay value as a decimal number: optional
// sign, digits, optional fraction ("5", "0.5", ".5", "-1").
func number(v string) (float64, bool) {
	s := strings.TrimLeft(v, "+-")
	if len(v)-len(s) > 1 || s == "" || s == "." {
		return 0, false
	}
	dot := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return 0, false
	}
	return f, true
}

// digits reports whether s is all ASCII digits and n long.
func digits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// hhmm reports whether s is a time "HHMM" with HH 00–23 and MM 00–59.
func hhmm(s string) bool {
	if !digits(s, 4) {
		return false
	}
	h, m := (s[0]-'0')*10+s[1]-'0', (s[2]-'0')*10+s[3]-'0'
	return h < 24 && m < 60
}

// timeWindow reports whether s is "HHMM-HHMM" with valid times; the
// window may wrap midnight.
func timeWindow(s string) bool {
	a, b, ok := strings.Cut(s, "-")
	return ok && hhmm(a) && hhmm(b)
}

// requestRate reports whether v is a Request-rate of the extended
// standard: "n/m" with an optional unit s, m or h, then optionally white
// space and a time window (RB650).
func requestRate(v string) bool {
	fields := strings.Fields(v)
	if len(fields) == 0 || len(fields) > 2 || len(fields) == 2 && !timeWindow(fields[1]) {
		return false
	}
	n, m, ok := strings.Cut(fields[0], "/")
	if !ok {
		return false
	}
	if k := len(m); k > 0 && strings.IndexByte("smhSMH", m[k-1]) >= 0 {
		m = m[:k-1]
	}
	return positive(n) && positive(m)
}

// positive reports whether s is a positive decimal integer.
func positive(s string) bool {
	if s == "" || len(s) > 18 {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n > 0
}

// visitSpaces returns the Visit-time value v with the white space
// around its "-" removed, and whether v is "HHMM - HHMM" with such space
// (RB656).
func visitSpaces(v string) (string, bool) {
	a, b, ok := strings.Cut(v, "-")
	if !ok {
		return v, false
	}
	ta, tb := strings.TrimRight(a, " \t"), strings.TrimLeft(b, " \t")
	if !digits(ta, 4) || !digits(tb, 4) || len(ta) == len(a) && len(tb) == len(b) {
		return v, false
	}
	return ta + "-" + tb, true
}

// yandexGroup reports whether group gi has an agent whose key contains
// "yandex" (RB624, RB630).
func yandexGroup(p *check.Pass, gi int) bool {
	if gi < 0 || gi >= len(p.Groups) {
		return false
	}
	for _, a := range p.Groups[gi].Agents {
		if strings.Contains(p.Lines[a].Agent, "yandex") {
			return true
		}
	}
	return false
}

// moveAfter returns the edits that move line l to just after line
// target: l is deleted and its text inserted with l's own line terminator
// (target's when l has none), so a CRLF file stays CRLF even when one of
// the two is a last line without a terminator.
func moveAfter(p *check.Pass, l, target *check.Line) []check.Edit {
	nl := p.EOL(l)
	if l.EOL == 0 {
		nl = p.EOL(target)
	}
	end := target.Span.End.Offset + target.EOL
	ins := check.Edit{Start: end, End: end, New: trimmedText(p, l) + nl}
	if target.EOL == 0 {
		ins.New = nl + trimmedText(p, l)
	}
	return []check.Edit{p.DeleteLine(l), ins}
}
