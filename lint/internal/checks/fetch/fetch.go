// Package fetch holds the checks of how robots.txt was fetched and of
// where it lives (RB1xx, section A of docs/checks.md). They read the
// pass's Fetch and URL; all of them report at line 0 (the fetch or the
// whole file) except RB122, which points at the line Google's 500 KiB
// limit cuts.
package fetch

import (
	"fmt"
	"mime"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/robotskit/robots/lint/internal/charset"
	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/syntax"
)

// Checks are the checks of the section, in code order.
var Checks = []*check.Check{
	rb101, rb102, rb103, rb104, rb105, rb106, rb107, rb108, rb109, rb110,
	rb111, rb112, rb113, rb114, rb115, rb120, rb121, rb122, rb123, rb124,
	rb130, rb131, rb132, rb133, rb134, rb135, rb136, rb137,
}

// The limits of the fetch checks: Moderatobot's defaults (its "Checking
// robots.txt theory"), which the fetcher mirrors.
const (
	slow       = 5 * time.Second  // RB102
	timeout    = 10 * time.Second // RB103
	hopsGoogle = 5                // RB111: Google follows five redirects
	hopsMax    = 10               // RB112: the checker follows ten
	maxBody    = 512000           // RB122: Google's 500 KiB
	cacheMax   = 24 * time.Hour   // RB137: RFC 9309 §2.4
)

var rb101 = &check.Check{
	Code: "RB101", Name: "fetch-unreachable",
	Title:    "robots.txt unreachable (DNS, connect, TLS handshake or reset before any status)",
	Severity: check.Error, Affects: []check.Family{check.Google, check.RFC, check.CrawlerCommons, check.Yandex, check.FirstMatch},
	Doc: "The request for robots.txt, or for a redirect target, failed before any HTTP " +
		"status arrived: the name did not resolve, the connection or the TLS handshake " +
		"failed, or the server reset it. Google, RFC 9309 robots (§2.3.1.4) and " +
		"crawler-commons then treat the whole site as disallowed until the file can be " +
		"fetched again, while Yandex crawls as if there were no file. Fix the server, " +
		"DNS or certificate so that robots.txt answers.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if f == nil || f.TimedOut || f.Final().Status != 0 {
			return
		}
		reason := f.Err
		if reason == "" {
			reason = "no response"
		}
		p.ReportFile("robots.txt could not be fetched: %s", reason)
	},
}

var rb102 = &check.Check{
	Code: "RB102", Name: "fetch-slow", Title: "slow response",
	Severity: check.Warning, Affects: []check.Family{check.All},
	Doc: "The whole response took more than 5 seconds. Robots have timeouts they do " +
		"not publish, and Google treats a robots.txt that does not arrive like a server " +
		"error, which stops crawling of the whole site. Serve robots.txt as a small " +
		"static file, close to the edge of the network.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if f == nil || f.TimedOut || f.Elapsed <= slow || f.Elapsed > timeout {
			return
		}
		p.ReportFile("robots.txt took %s s to download (more than 5 s)", strconv.FormatFloat(f.Elapsed.Seconds(), 'f', 1, 64))
	},
}

var rb103 = &check.Check{
	Code: "RB103", Name: "fetch-timeout", Title: "timeout",
	Severity: check.Error, Affects: []check.Family{check.Google, check.RFC, check.CrawlerCommons, check.Yandex},
	Doc: "No complete response arrived within 10 seconds and the checker gave up. " +
		"Google, RFC 9309 robots and crawler-commons read an unreachable robots.txt as " +
		"\"disallow everything for now\", so the site drops out of their crawl while it " +
		"lasts; Yandex crawls as if there were no file. Make robots.txt answer quickly.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if f == nil || !f.TimedOut && f.Elapsed <= timeout {
			return
		}
		p.ReportFile("robots.txt did not arrive within 10 s")
	},
}

var rb104 = &check.Check{
	Code: "RB104", Name: "no-robots-txt", Title: "no robots.txt (404/410)",
	Severity: check.Info, Affects: []check.Family{check.All},
	Doc: "The server answered 404 or 410. Every robot reads that as \"no robots.txt\" " +
		"and crawls the whole site (RFC 9309 §2.3.1.3). That is fine when intended; " +
		"otherwise publish the file at /robots.txt.",
	Run: func(p *check.Pass) {
		if s := status(p); s == 404 || s == 410 {
			p.ReportFile("No robots.txt (HTTP %d): all robots may crawl everything", s)
		}
	},
}

var rb105 = &check.Check{
	Code: "RB105", Name: "fetch-forbidden", Title: "401/403 on robots.txt",
	Severity: check.Error, Affects: []check.Family{check.FirstMatch, check.CrawlerCommons, check.Google, check.Bing, check.Yandex, check.RFC, check.Temoto},
	Doc: "robots.txt answered 401 or 403. Google, Bing, Yandex, RFC 9309 robots and " +
		"most libraries then crawl everything, but robots following the 1996 draft " +
		"(old Python robotparser, reppy) treat the whole site as forbidden, so the " +
		"same site is open to some robots and closed to others. A firewall that blocks " +
		"robot user agents is the usual cause: let every client read robots.txt.",
	Run: func(p *check.Pass) {
		if s := status(p); s == 401 || s == 403 {
			p.ReportFile("robots.txt answered HTTP %d: some robots crawl everything, others nothing", s)
		}
	},
}

var rb106 = &check.Check{
	Code: "RB106", Name: "fetch-too-many-requests", Title: "429 Too Many Requests",
	Severity: check.Warning, Affects: []check.Family{check.Google, check.RFC, check.CrawlerCommons, check.Yandex, check.Temoto},
	Doc: "robots.txt answered 429. Google treats it like a server error and stops " +
		"crawling while it lasts, whereas RFC 9309 robots, crawler-commons, Yandex and " +
		"temoto/robotstxt read any 4xx as \"no restrictions\". Exempt robots.txt from " +
		"rate limiting.",
	Run: func(p *check.Pass) {
		if status(p) == 429 {
			p.ReportFile("robots.txt answered 429: Google stops crawling, most other robots crawl freely")
		}
	},
}

var rb107 = &check.Check{
	Code: "RB107", Name: "fetch-client-error", Title: "other 4xx",
	Severity: check.Warning, Affects: []check.Family{check.All},
	Doc: "robots.txt answered a 4xx status other than 401, 403, 404, 410 and 429, " +
		"such as 400, 405, 406 or 451. Robots read it as \"no robots.txt\" and crawl " +
		"everything (RFC 9309 §2.3.1.3), which is seldom what the server meant: " +
		"content negotiation or bot filtering has gone wrong. Serve the file with 200 " +
		"to any client.",
	Run: func(p *check.Pass) {
		s := status(p)
		switch {
		case s < 400 || s > 499, s == 401, s == 403, s == 404, s == 410, s == 429:
			return
		}
		p.ReportFile("robots.txt answered HTTP %d; robots will treat the site as unrestricted", s)
	},
}

var rb108 = &check.Check{
	Code: "RB108", Name: "fetch-server-error", Title: "5xx",
	Severity: check.Error, Affects: []check.Family{check.Google, check.RFC, check.CrawlerCommons, check.Temoto, check.FirstMatch, check.Yandex},
	Doc: "robots.txt answered a 5xx status. Google stops crawling the site and retries " +
		"(after 30 days it falls back to its last copy or to no restrictions), RFC 9309 " +
		"§2.3.1.4 requires robots to assume complete disallow, crawler-commons and " +
		"temoto/robotstxt disallow everything, while Yandex crawls freely. Make " +
		"robots.txt answer 200 (or 404 when there is none).",
	Run: func(p *check.Pass) {
		if s := status(p); s >= 500 && s <= 599 {
			p.ReportFile("robots.txt answered HTTP %d: Google will not crawl the site while this persists", s)
		}
	},
}

var rb109 = &check.Check{
	Code: "RB109", Name: "fetch-unexpected-status", Title: "unexpected status",
	Severity: check.Error, Affects: []check.Family{check.All, check.Temoto, check.CrawlerCommons},
	Doc: "The final status is one robots have no rule for: below 100 or from 600 up, " +
		"an informational 1xx, 304 Not Modified to a request that was not conditional, " +
		"or a redirect without a usable Location. What robots do is undefined: " +
		"temoto/robotstxt returns an error, crawler-commons allows everything and tries " +
		"again later. Serve robots.txt with 200.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		s := status(p)
		switch {
		case s == 0:
			return
		case s < 200 || s > 599, s == 304:
		case s >= 300 && s <= 399:
			// A redirect the chain ends on: RB112 and RB113 say why when
			// the checker stopped following; otherwise the Location was
			// missing or unusable.
			if f.TooManyRedirects || f.Loop || location(f.Final()) != nil {
				return
			}
		default:
			return
		}
		p.ReportFile("robots.txt answered unexpected HTTP %d", s)
	},
}

var rb110 = &check.Check{
	Code: "RB110", Name: "fetch-not-200", Title: "2xx other than 200",
	Severity: check.Warning, Affects: []check.Family{check.Yandex},
	Doc: "robots.txt answered a success status other than 200, such as 203 or 206. " +
		"Yandex uses the file only when it is served with 200 OK and otherwise crawls " +
		"as if there were none; 204 and 205 also mean an empty body. Serve the file " +
		"with 200.",
	Run: func(p *check.Pass) {
		if s := status(p); s > 200 && s <= 299 {
			p.ReportFile("robots.txt answered HTTP %d; some robots only accept 200", s)
		}
	},
}

var rb111 = &check.Check{
	Code: "RB111", Name: "long-redirect-chain", Title: "long redirect chain (6\u201310 hops)",
	Severity: check.Warning, Affects: []check.Family{check.Google, check.RFC, check.CrawlerCommons},
	Doc: "robots.txt was reached after more than five redirects. Google follows five " +
		"and then acts as if the file were missing (no restrictions); RFC 9309 " +
		"§2.3.1.2 lets robots give up after five as well, and crawler-commons defers " +
		"the site when its limit is passed. Redirect /robots.txt to its final URL in " +
		"one step.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if f == nil || f.TooManyRedirects || f.Loop {
			return
		}
		if n := redirects(f); n > hopsGoogle && n <= hopsMax {
			p.ReportFile("robots.txt reached after %d redirects; Google gives up after 5", n)
		}
	},
}

var rb112 = &check.Check{
	Code: "RB112", Name: "too-many-redirects", Title: "too many redirects (>10)",
	Severity: check.Error, Affects: []check.Family{check.All},
	Doc: "The checker stopped after ten redirects without reaching a robots.txt. " +
		"Robots give up sooner (Google after five) and then act as if there were no " +
		"file, or, like crawler-commons, defer the whole site. Redirect /robots.txt " +
		"to its final URL in one step.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if f == nil || f.Loop && !f.TooManyRedirects {
			return
		}
		n := redirects(f)
		if f.TooManyRedirects || n > hopsMax {
			p.ReportFile("Gave up after %d redirects", n)
		}
	},
}

var rb113 = &check.Check{
	Code: "RB113", Name: "redirect-loop", Title: "redirect loop",
	Severity: check.Error, Affects: []check.Family{check.All},
	Doc: "A redirect of robots.txt leads back to a URL already visited, so the chain " +
		"never ends. Google gives up after five hops and crawls as if there were no " +
		"file; crawler-commons disallows the site. Break the loop so that /robots.txt " +
		"ends at a 200 response.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if f == nil {
			return
		}
		u := loopURL(f)
		if u == "" && !f.Loop {
			return
		}
		if u == "" {
			u = f.Final().Location
		}
		// The chain's hops are all redirects: the last one, which
		// leads back, was not followed.
		if n := len(f.Hops); n == 1 {
			p.ReportFile("Redirect loop: %s redirects to itself", u)
		} else {
			p.ReportFile("Redirect loop after %d redirects: %s was already visited", n, u)
		}
	},
}

var rb114 = &check.Check{
	Code: "RB114", Name: "cross-origin-redirect", Title: "redirect to another origin",
	Severity: check.Info, Affects: []check.Family{check.RFC, check.Google, check.Yandex},
	Doc: "A redirect of robots.txt changes the scheme, host or port, as an http to " +
		"https or a bare domain to www move does. Google and RFC 9309 robots " +
		"(§2.3.1.2) apply the rules they find to the origin they asked, Yandex follows " +
		"the move to the other site, and some simple robots do not follow it at all. " +
		"Fine when intended; make sure the target file is meant for both origins.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if f == nil || len(f.Hops) < 2 {
			return
		}
		from := origin(f.Hops[0].URL)
		if from == "" {
			return
		}
		to := origin(f.Final().URL)
		if to == from || to == "" {
			to = ""
			for _, h := range f.Hops[1:] {
				if o := origin(h.URL); o != "" && o != from {
					to = o
					break
				}
			}
		}
		if to != "" {
			p.ReportFile("robots.txt for %s is served from %s", from, to)
		}
	},
}

var rb115 = &check.Check{
	Code: "RB115", Name: "redirect-not-robots-txt", Title: "redirect ends outside /robots.txt",
	Severity: check.Warning, Affects: []check.Family{check.All},
	Doc: "The redirects of robots.txt end at a URL whose path is not a robots.txt, " +
		"such as the home page or a login or error page. What comes back is usually " +
		"an HTML page with no usable rules, so robots crawl as if there were no file. " +
		"Redirect to a robots.txt, or serve it in place.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if f == nil || len(f.Hops) < 2 {
			return
		}
		u, err := url.Parse(f.Final().URL)
		if err != nil {
			return
		}
		// Letter case does not matter here: the target is a robots.txt
		// either way (RB131 is about the name robots ask for).
		if path := u.EscapedPath(); !strings.HasSuffix(strings.ToLower(path), "/robots.txt") {
			if path == "" {
				path = "/"
			}
			p.ReportFile("Redirect ends at %s, not at a robots.txt", path)
		}
	},
}

var rb120 = &check.Check{
	Code: "RB120", Name: "content-type", Title: "Content-Type not text/plain",
	Severity: check.Warning, Affects: []check.Family{check.RFC, check.CrawlerCommons},
	Doc: "The Content-Type of robots.txt is missing or is not text/plain, which RFC " +
		"9309 §2.3 and the 1996 draft require. crawler-commons switches to its HTML " +
		"heuristics for text/html; Google ignores the header. Serve the file as " +
		"text/plain; charset=utf-8.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if !f.OK() {
			return
		}
		mt := mediaType(f.ContentType)
		if mt != "text/plain" {
			p.ReportFile("Content-Type is %q, expected text/plain", mt)
		}
	},
}

var rb121 = &check.Check{
	Code: "RB121", Name: "charset-not-utf8", Title: "charset not UTF-8",
	Severity: check.Warning, Affects: []check.Family{check.Google, check.RFC},
	Doc: "The Content-Type declares a charset other than UTF-8 (or its subset " +
		"US-ASCII). Google and RFC 9309 robots read robots.txt as UTF-8 whatever the " +
		"header says, so paths written with non-ASCII letters in another encoding never " +
		"match the URLs robots crawl. Save the file as UTF-8 and declare " +
		"charset=utf-8; the intent fix transcodes it from the declared charset.",
	Fix: "FX02",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if !f.OK() {
			return
		}
		cs := declaredCharset(f.ContentType)
		switch strings.ToLower(cs) {
		case "", "utf-8", "utf8", "us-ascii":
			return
		}
		d := p.ReportFile("Declared charset %s; robots read robots.txt as UTF-8", cs)
		if out, ok := charset.FromDeclared(p.Src, cs); ok {
			d.Suggest("FX02", check.Intent, "transcode from "+cs+" to UTF-8", check.Edit{Start: 0, End: len(p.Src), New: out})
		}
	},
}

var rb122 = &check.Check{
	Code: "RB122", Name: "file-too-large", Title: "larger than 500 KiB",
	Severity: check.Error, Affects: []check.Family{check.Google, check.Yandex, check.RFC},
	Doc: "robots.txt is larger than 500 KiB (512,000 bytes). Google ignores whatever " +
		"follows that limit, which may cut a rule in half, RFC 9309 §2.5 only asks " +
		"robots to read that much, and Yandex ignores a larger file entirely. Shrink " +
		"the file: merge rules with wildcards or by directory.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if f != nil && !f.OK() {
			return
		}
		size := int64(len(p.Src))
		if f != nil {
			size = max(size, f.Size)
		}
		if size <= maxBody {
			return
		}
		msg := fmt.Sprintf("robots.txt is %s bytes; content after 500 KiB is ignored by Google", check.Thousands(size))
		// The line holding byte 512,001 is where Google stops; a body
		// without line breaks, or one the fetch did not read that far,
		// has no such line to point at.
		if len(p.Src) > maxBody && len(p.Lines) > 1 {
			for i := range p.Lines {
				l := &p.Lines[i]
				if l.Span.End.Offset+l.EOL > maxBody {
					d := p.ReportAt(l, l.Span.Start.Offset, "%s", msg)
					d.Column = 1
					return
				}
			}
		}
		p.ReportFile("%s", msg)
	},
}

var rb123 = &check.Check{
	Code: "RB123", Name: "empty-file", Title: "empty robots.txt",
	Severity: check.Info, Affects: []check.Family{check.All},
	Doc: "robots.txt is empty or holds only blank and comment lines. Every robot then " +
		"crawls everything, exactly as with no file (the 1994 standard says so). Fine " +
		"when intended.",
	Run: func(p *check.Pass) {
		if f := p.Fetch; f != nil && !f.OK() {
			return
		}
		for i := range p.Lines {
			if k := p.Lines[i].Kind; k != syntax.BlankLine && k != syntax.CommentLine {
				return
			}
		}
		p.ReportFile("robots.txt has no directives: everything may be crawled")
	},
}

var rb124 = &check.Check{
	Code: "RB124", Name: "broken-body", Title: "body broken off or undecodable",
	Severity: check.Error, Affects: []check.Family{check.Google, check.RFC, check.Yandex, check.FirstMatch},
	Doc: "A status arrived but the body did not arrive whole: the server reset or " +
		"closed the connection early, sent fewer bytes than its Content-Length " +
		"announced, or sent a gzip or deflate body that does not decode. Robots get no " +
		"file, whatever the status: Google treats invalid responses and reset or " +
		"interrupted connections as a server error and stops crawling the site while " +
		"it lasts (Google's robots.txt documentation), RFC 9309 robots and those of the " +
		"1996 draft assume complete disallow for an unreachable file (RFC 9309 " +
		"§2.3.1.4), and Yandex crawls as if there were none. Serve robots.txt as a small static file, with a correct " +
		"Content-Length and Content-Encoding.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if f == nil || f.Broken == "" {
			return
		}
		verdict := "robots read robots.txt as unreachable"
		if f.Reason != "" && f.Policy != "" {
			verdict = f.Policy + " robots: " + f.Reason
		}
		p.ReportFile("The body of the HTTP %d answer is broken (%s); %s", f.Final().Status, f.Broken, verdict)
	},
}

var rb130 = &check.Check{
	Code: "RB130", Name: "wrong-location", Title: "wrong location",
	Severity: check.Error, Affects: []check.Family{check.All},
	Doc: "The URL checked is not /robots.txt at the root of its host: robots never " +
		"request /blog/robots.txt, /robots.txt/ or /robots.txt?x=1 (RFC 9309 §2.3). A " +
		"file anywhere else has no effect. Put it at /robots.txt of every scheme, host " +
		"and port it should govern.",
	Run: func(p *check.Pass) {
		raw := robotsURL(p)
		if raw == "" {
			return
		}
		u, err := url.Parse(raw)
		if err != nil || u.Opaque != "" || u.EscapedPath() != "/robots.txt" || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
			p.ReportFile("Robots only read /robots.txt at the root of scheme://host:port")
		}
	},
}

var rb131 = &check.Check{
	Code: "RB131", Name: "file-name-case", Title: "file name case",
	Severity: check.Error, Affects: []check.Family{check.All},
	Doc: "/robots.txt is missing but an upper- or mixed-case name such as " +
		"/ROBOTS.TXT or /Robots.txt answers. URL paths are case-sensitive: robots ask " +
		"for the lower-case name only (RFC 9309 §2.3, Google's documentation), so the " +
		"file is never read. Rename it to robots.txt.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if f == nil || f.CaseVariant == "" || status(p) != 404 {
			return
		}
		v := f.CaseVariant
		if u, err := url.Parse(v); err == nil && u.Path != "" {
			v = u.EscapedPath()
		}
		p.ReportFile("Only %s exists; robots request the lower-case /robots.txt", v)
	},
}

var rb132 = &check.Check{
	Code: "RB132", Name: "sibling-differs", Title: "sibling origins differ",
	Severity: check.Warning, Thorough: true, Affects: []check.Family{check.All},
	Doc: "The http or https sibling of the origin, or its www or bare-domain twin, " +
		"serves a different robots.txt or status. Each scheme, host and port has its " +
		"own robots.txt (RFC 9309 §2.3), and a leftover file after an HTTPS or www move " +
		"keeps governing the old origin. Serve the same file, or redirect one origin's " +
		"robots.txt to the other's.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if f == nil || f.Final().Status == 0 {
			return
		}
		st := f.Final().Status
		for _, s := range f.Siblings {
			if s.Status != st || check.OKStatus(st) && s.Body != p.Src {
				p.ReportFile("%s serves a different robots.txt", s.URL)
			}
		}
	},
}

var rb133 = &check.Check{
	Code: "RB133", Name: "ip-host", Title: "IP-address host",
	Severity: check.Info, Affects: []check.Family{check.All},
	Doc: "The host of the robots.txt URL is an IP address. The file governs only URLs " +
		"that use that address as their host, not the domain names served from it " +
		"(Google's documentation says so). Check the robots.txt of each domain name " +
		"too.",
	Run: func(p *check.Pass) {
		u := parsedURL(p)
		if u == nil {
			return
		}
		if ip, err := netip.ParseAddr(u.Hostname()); err == nil {
			p.ReportFile("This robots.txt only governs crawling of %s as a host name", ip)
		}
	},
}

var rb134 = &check.Check{
	Code: "RB134", Name: "idn-host", Title: "internationalised host",
	Severity: check.Info, Affects: []check.Family{check.All},
	Doc: "The host name has non-ASCII letters, or is the punycode (xn--) form of such " +
		"a name. Both spellings name one host, and robots fetch robots.txt through the " +
		"punycode form. Nothing to change unless the name cannot be converted, which " +
		"the message then says.",
	Run: func(p *check.Pass) {
		u := parsedURL(p)
		if u == nil {
			return
		}
		host := strings.TrimSuffix(u.Hostname(), ".")
		ascii := true
		for i := 0; i < len(host); i++ {
			if host[i] >= utf8.RuneSelf {
				ascii = false
				break
			}
		}
		switch {
		case !ascii:
			a, err := idna.Lookup.ToASCII(host)
			if err != nil {
				p.ReportFile("%s is not a valid internationalised host name: %v", host, err)
				return
			}
			p.ReportFile("%s and %s are the same host; robots fetch the punycode form", host, a)
		case strings.HasPrefix(strings.ToLower(host), "xn--") || strings.Contains(strings.ToLower(host), ".xn--"):
			uni, err := idna.Lookup.ToUnicode(host)
			if err != nil {
				p.ReportFile("%s is not a valid internationalised host name: %v", host, err)
				return
			}
			if uni != strings.ToLower(host) {
				p.ReportFile("%s and %s are the same host; robots fetch the punycode form", uni, host)
			}
		}
	},
}

var rb135 = &check.Check{
	Code: "RB135", Name: "explicit-port", Title: "port and scope",
	Severity: check.Info, Affects: []check.Family{check.All},
	Doc: "The robots.txt URL names a port. A robots.txt governs only its own scheme, " +
		"host and port (RFC 9309 §2.3): the file on a non-default port says nothing " +
		"about the site on the usual port, while :80 for http and :443 for https are " +
		"the same as no port at all.",
	Run: func(p *check.Pass) {
		u := parsedURL(p)
		if u == nil || u.Port() == "" {
			return
		}
		scheme, port := strings.ToLower(u.Scheme), u.Port()
		host := u.Hostname()
		if strings.Contains(host, ":") {
			host = "[" + host + "]"
		}
		if defaultPort[scheme] == port {
			p.ReportFile("robots.txt on port %s governs %s://%s/, the same as without a port", port, scheme, host)
			return
		}
		p.ReportFile("robots.txt on port %s governs only %s://%s:%s/", port, scheme, host, port)
	},
}

var rb136 = &check.Check{
	Code: "RB136", Name: "unsupported-scheme", Title: "unsupported scheme",
	Severity: check.Error, Affects: []check.Family{check.All},
	Doc: "The robots.txt URL uses a scheme other than http, https or ftp. Robots " +
		"fetch robots.txt over those only (Google also over ftp); RFC 9309 allows any " +
		"scheme in principle, but no robot asks for it. Serve the site and its " +
		"robots.txt over http or https.",
	Run: func(p *check.Pass) {
		u := parsedURL(p)
		if u == nil || u.Scheme == "" {
			return
		}
		if _, ok := defaultPort[strings.ToLower(u.Scheme)]; !ok {
			p.ReportFile("Robots do not fetch robots.txt over %s", u.Scheme)
		}
	},
}

var rb137 = &check.Check{
	Code: "RB137", Name: "cache-headers", Title: "caching headers",
	Severity: check.Info, Thorough: true, Affects: []check.Family{check.Google, check.RFC},
	Doc: "The response lets robots cache robots.txt for more than a day " +
		"(Cache-Control max-age or Expires), or forbids caching with no-store. RFC " +
		"9309 §2.4 tells robots not to use a copy older than 24 hours, and Google " +
		"caches for up to a day and honours max-age; the 1996 draft assumed a week. " +
		"Send max-age=86400 or less so that changes reach robots within a day.",
	Run: func(p *check.Pass) {
		f := p.Fetch
		if f == nil || f.Final().Status == 0 {
			return
		}
		cc := strings.ToLower(f.CacheControl)
		age, hasAge := maxAge(cc)
		switch {
		case hasDirective(cc, "no-store"):
			p.ReportFile("robots.txt forbids caching (no-store); RFC 9309 lets robots cache it for up to 24 h")
		case hasAge:
			if age > cacheMax {
				p.ReportFile("robots.txt may be cached for %s; RFC 9309 caps caching at 24 h", span(age))
			}
		case f.Expires != "" && !f.Date.IsZero():
			// HTTP ignores Expires when max-age is present.
			t, ok := httpTime(f.Expires)
			if !ok {
				return
			}
			if d := t.Sub(f.Date); d > cacheMax {
				p.ReportFile("robots.txt may be cached for %s; RFC 9309 caps caching at 24 h", span(d))
			}
		}
	},
}

// defaultPort holds the schemes robots fetch robots.txt over, with
// their default ports.
var defaultPort = map[string]string{"http": "80", "https": "443", "ftp": "21"}

// status returns the final HTTP status of the fetch, 0 without one
// and for a response whose body broke off, which robots read as a network
// error whatever its status (RB124 reports it).
func status(p *check.Pass) int {
	if p.Fetch == nil || p.Fetch.Broken != "" {
		return 0
	}
	return p.Fetch.Final().Status
}

// robotsURL returns the URL of the robots.txt checked: the pass's URL, or the
// first request of the fetch.
func robotsURL(p *check.Pass) string {
	if p.URL != "" {
		return p.URL
	}
	if f := p.Fetch; f != nil && len(f.Hops) > 0 {
		return f.Hops[0].URL
	}
	return ""
}

// parsedURL returns the URL checked, parsed, for the location checks
// that run only on a fetch (RB133–RB136); nil for a file from disk or a
// URL that does not parse.
func parsedURL(p *check.Pass) *url.URL {
	if p.Fetch == nil {
		return nil
	}
	u, err := url.Parse(robotsURL(p))
	if err != nil || u.Host == "" {
		return nil
	}
	return u
}

// origin returns scheme://host[:port] of raw, lower-cased and
// without a default port, or "" when raw does not parse.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	scheme, host, port := strings.ToLower(u.Scheme), strings.ToLower(u.Hostname()), u.Port()
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port == "" || defaultPort[scheme] == port {
		return scheme + "://" + host
	}
	return scheme + "://" + host + ":" + port
}

// location returns the target of hop h's redirect, resolved against
// its URL, or nil when the Location is missing or unusable.
func location(h check.Hop) *url.URL {
	if strings.TrimSpace(h.Location) == "" {
		return nil
	}
	base, err := url.Parse(h.URL)
	if err != nil {
		return nil
	}
	loc, err := url.Parse(strings.TrimSpace(h.Location))
	if err != nil {
		return nil
	}
	u := base.ResolveReference(loc)
	if s := strings.ToLower(u.Scheme); u.Host == "" || s != "http" && s != "https" {
		return nil
	}
	return u
}

// redirects returns the number of redirects the fetch followed.
func redirects(f *check.Fetch) int {
	n := 0
	for i, h := range f.Hops {
		if h.Status >= 300 && h.Status <= 399 && i+1 < len(f.Hops) {
			n++
		}
	}
	return n
}

// loopURL returns the first URL of the chain that a hop, or the last
// hop's Location, visits again; "" when none does.
func loopURL(f *check.Fetch) string {
	seen := map[string]bool{}
	for _, h := range f.Hops {
		if seen[h.URL] {
			return h.URL
		}
		seen[h.URL] = true
	}
	if h := f.Final(); h.Status >= 300 && h.Status <= 399 {
		if u := location(h); u != nil && seen[u.String()] {
			return u.String()
		}
	}
	return ""
}

// mediaType returns the media type of a Content-Type header, lower
// case and without parameters; "" when there is none.
func mediaType(ct string) string {
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// declaredCharset returns the charset parameter of a Content-Type header,
// "" when there is none.
func declaredCharset(ct string) string {
	if _, params, err := mime.ParseMediaType(ct); err == nil {
		return params["charset"]
	}
	// A header mime rejects may still name a charset robots would see.
	for _, part := range strings.Split(ct, ";")[1:] {
		k, v, ok := strings.Cut(part, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "charset") {
			return strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return ""
}

// hasDirective reports whether the lower-case Cache-Control value cc
// holds the directive name.
func hasDirective(cc, name string) bool {
	for _, part := range strings.Split(cc, ",") {
		k, _, _ := strings.Cut(strings.TrimSpace(part), "=")
		if strings.TrimSpace(k) == name {
			return true
		}
	}
	return false
}

// maxAge returns the max-age of the lower-case Cache-Control value
// cc, and whether it has a valid one.
func maxAge(cc string) (time.Duration, bool) {
	for _, part := range strings.Split(cc, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok || strings.TrimSpace(k) != "max-age" {
			continue
		}
		n, err := strconv.ParseInt(strings.Trim(strings.TrimSpace(v), `"`), 10, 64)
		if err != nil || n < 0 {
			return 0, false
		}
		n = min(n, int64(1<<62)/int64(time.Second)) // no overflow
		return time.Duration(n) * time.Second, true
	}
	return 0, false
}

// httpTime parses an HTTP date in any of the three formats HTTP/1.1
// accepts (RFC 9110 §5.6.7).
func httpTime(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC1123, time.RFC850, time.ANSIC} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// span writes a caching time in the largest whole unit that fits:
// "7 days", "36 h".
func span(d time.Duration) string {
	switch {
	case d%(24*time.Hour) == 0:
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	case d >= 72*time.Hour:
		return fmt.Sprintf("%.1f days", d.Hours()/24)
	default:
		return fmt.Sprintf("%.0f h", d.Hours())
	}
}
