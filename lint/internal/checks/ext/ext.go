// Package ext holds the checks of the lines outside groups and of the
// extensions (RB6xx, section F of docs/checks.md): Sitemap, Host,
// Clean-param, Crawl-delay, the extended standard's Request-rate,
// Visit-time and Robot-version, the indexing directives robots.txt cannot
// carry, and Content-Signal.
package ext

import (
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/robotskit/robots/internal/aipref"
	"github.com/robotskit/robots/internal/hostname"
	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/lint/internal/tokens"
	"github.com/robotskit/robots/syntax"
)

// Checks are the checks of the section, in code order; those of usage
// preferences (RB673–RB680) are in usage.go.
var Checks = []*check.Check{
	rb601, rb602, rb603, rb604, rb605, rb606, rb607, rb608,
	rb620, rb621, rb622, rb623, rb624,
	rb630, rb631, rb632, rb633, rb634,
	rb640, rb641, rb642, rb643, rb644, rb645, rb646,
	rb650, rb651, rb655, rb656, rb657, rb660, rb661, rb662,
	rb670, rb671, rb672,
	rb673, rb674, rb675, rb676, rb677, rb678, rb679, rb680,
}

// --- Sitemap (RB601–RB608) ---

// rb601 is check RB601 (sitemap-not-absolute).
var rb601 = &check.Check{
	Code: "RB601", Name: "sitemap-not-absolute", Title: "Sitemap URL not absolute",
	Severity: check.Error, Affects: []check.Family{check.Google, check.Bing, check.Yandex, check.CrawlerCommons},
	Doc: "A Sitemap line names a relative URL or one without a scheme. Google, Bing and " +
		"the sitemaps.org protocol only accept full URLs, Yandex reports the line as an " +
		"invalid sitemap URL and crawler-commons drops it, so the sitemap is never found. " +
		"Write the whole URL with scheme and host; when the robots.txt URL is known, the " +
		"intent fix resolves the value against it.",
	Before: "User-agent: *\nDisallow: /private\n\nSitemap: /sitemap.xml\n",
	After:  "User-agent: *\nDisallow: /private\n\nSitemap: https://example.com/sitemap.xml\n",
	Fix:    "FX31",
	Run: func(p *check.Pass) {
		each(p, check.Sitemap, func(l *check.Line) {
			if schemeLen(l.ValueText) > 0 {
				return
			}
			d := p.ReportValue(l, "Sitemap must be an absolute URL (\"https://host/…\"), not %q", l.ValueText)
			if abs, ok := resolveSitemap(p.URL, l.ValueText); ok && l.Value.IsValid() {
				d.Suggest("FX31", check.Intent, "resolve the Sitemap URL against the robots.txt URL",
					check.Edit{Start: l.Value.Start.Offset, End: l.Value.End.Offset, New: abs})
			}
		})
	},
}

// rb602 is check RB602 (sitemap-scheme).
var rb602 = &check.Check{
	Code: "RB602", Name: "sitemap-scheme", Title: "Sitemap scheme not http/https",
	Severity: check.Warning, Affects: []check.Family{check.All},
	Doc: "The Sitemap URL uses a scheme other than http or https, such as ftp: or file:. " +
		"Search engines fetch sitemaps over HTTP(S) only, so such a sitemap is not read " +
		"(a file: URL points at the author's own disk). Publish the sitemap on the web " +
		"server and list its https URL.",
	Before: "User-agent: *\nDisallow:\n\nSitemap: ftp://example.com/sitemap.xml\n",
	After:  "User-agent: *\nDisallow:\n\nSitemap: https://example.com/sitemap.xml\n",
	Run: func(p *check.Pass) {
		each(p, check.Sitemap, func(l *check.Line) {
			n := schemeLen(l.ValueText)
			if n == 0 {
				return
			}
			scheme := strings.ToLower(l.ValueText[:n-3])
			if scheme != "http" && scheme != "https" {
				p.ReportValue(l, "Sitemap URL uses %s:", scheme)
			}
		})
	},
}

// rb603 is check RB603 (sitemap-directory).
var rb603 = &check.Check{
	Code: "RB603", Name: "sitemap-directory", Title: `Sitemap URL ends with "/"`,
	Severity: check.Warning, Affects: []check.Family{check.All},
	Doc: "The Sitemap URL's path ends with a slash, so it names a directory or a home " +
		"page rather than a sitemap document. Sitemap consumers fetch it and find HTML or " +
		"nothing they can use. List the URL of the sitemap file itself, such as " +
		"/sitemap.xml.",
	Before: "User-agent: *\nDisallow:\n\nSitemap: https://example.com/sitemaps/\n",
	After:  "User-agent: *\nDisallow:\n\nSitemap: https://example.com/sitemaps/index.xml\n",
	Run: func(p *check.Pass) {
		each(p, check.Sitemap, func(l *check.Line) {
			if strings.HasSuffix(urlPath(l.ValueText), "/") {
				p.ReportValue(l, "Sitemap URL ends with \"/\": it names a directory, not a sitemap file")
			}
		})
	},
}

// rb604 is check RB604 (sitemap-extension).
var rb604 = &check.Check{
	Code: "RB604", Name: "sitemap-extension", Title: "Sitemap file extension",
	Severity: check.Info, Thorough: true, Affects: []check.Family{check.All},
	Doc: "The Sitemap URL's path does not end in .xml or .xml.gz. Moderatobot recommends " +
		"those extensions, but the sitemaps.org protocol also allows plain-text, RSS and " +
		"Atom sitemaps, so this is only a hint for thorough checks. Make sure the URL " +
		"really serves a sitemap.",
	Before: "User-agent: *\nDisallow:\n\nSitemap: https://example.com/sitemap.php\n",
	After:  "User-agent: *\nDisallow:\n\nSitemap: https://example.com/sitemap.xml\n",
	Run: func(p *check.Pass) {
		each(p, check.Sitemap, func(l *check.Line) {
			path := strings.ToLower(urlPath(l.ValueText))
			if !strings.HasSuffix(path, ".xml") && !strings.HasSuffix(path, ".xml.gz") {
				p.ReportValue(l, "Sitemap %q is not .xml or .xml.gz", l.ValueText)
			}
		})
	},
}

// rb605 is check RB605 (sitemap-in-group).
var rb605 = &check.Check{
	Code: "RB605", Name: "sitemap-in-group", Title: "Sitemap inside a group",
	Severity: check.Info, Affects: []check.Family{check.FirstMatch},
	Doc: "A Sitemap line stands between a group's User-agent line and later rules of the " +
		"same group. Sitemap belongs to no group and applies wherever it is (RFC 9309 " +
		"section 2.2.4 says it must not end a group), but older and home-grown parsers end " +
		"the group there and lose the rules below it. Put Sitemap lines outside the groups; " +
		"the fix moves them to the end of the file.",
	Before: "User-agent: *\nSitemap: https://example.com/sitemap.xml\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n\nSitemap: https://example.com/sitemap.xml\n",
	Fix:    "FX31",
	Run: func(p *check.Pass) {
		if len(p.Lines) == 0 {
			return
		}
		last := &p.Lines[len(p.Lines)-1]
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Dir != check.Sitemap || l.Group < 0 {
				continue
			}
			g := &p.Groups[l.Group]
			if n := len(g.Rules); n == 0 || g.Rules[n-1] < i || g.First() > i {
				continue
			}
			p.ReportAt(l, lineStart(l), "Sitemap is not part of any group; place it outside the groups").
				Suggest("FX31", check.Preserving, "move the Sitemap line to the end of the file",
					moveAfter(p, l, last)...)
		}
	},
}

// rb606 is check RB606 (duplicate-sitemap).
var rb606 = &check.Check{
	Code: "RB606", Name: "duplicate-sitemap", Title: "duplicate Sitemap",
	Severity: check.Info,
	Doc: "The same sitemap URL is listed more than once. Robots fetch it once anyway, so " +
		"the repetition only adds noise and hides which list is current. Keep one line per " +
		"sitemap; the fix removes the later copies.",
	Before: "Sitemap: https://example.com/sitemap.xml\nSitemap: https://example.com/sitemap.xml\n",
	After:  "Sitemap: https://example.com/sitemap.xml\n",
	Fix:    "FX31",
	Run: func(p *check.Pass) {
		seen := map[string]int{}
		each(p, check.Sitemap, func(l *check.Line) {
			first, dup := seen[l.ValueText]
			if !dup {
				seen[l.ValueText] = l.Num
				return
			}
			p.ReportAt(l, lineStart(l), "Sitemap already listed at line %d", first).
				Relate(first, "first listed here").
				Suggest("FX31", check.Preserving, "remove the duplicate Sitemap line", p.DeleteLine(l))
		})
	},
}

// rb607 is check RB607 (sitemap-other-origin).
var rb607 = &check.Check{
	Code: "RB607", Name: "sitemap-other-origin", Title: "Sitemap on another origin",
	Severity: check.Info, Thorough: true, Affects: []check.Family{check.All},
	Doc: "The sitemap lives on a different scheme or host than the robots.txt. That is " +
		"allowed — listing it in robots.txt is how sitemaps.org lets a site submit sitemaps " +
		"hosted elsewhere, and Google accepts it — but an http sitemap on an https site is " +
		"usually a stale entry. Check that the URL is the current one.",
	Before: "User-agent: *\nDisallow:\n\nSitemap: http://example.com/sitemap.xml\n",
	After:  "User-agent: *\nDisallow:\n\nSitemap: https://example.com/sitemap.xml\n",
	Run: func(p *check.Pass) {
		base, err := url.Parse(p.URL)
		if p.URL == "" || err != nil {
			return
		}
		origin, ok := originOf(base)
		if !ok {
			return
		}
		each(p, check.Sitemap, func(l *check.Line) {
			if schemeLen(l.ValueText) == 0 {
				return
			}
			u, err := url.Parse(l.ValueText)
			if err != nil {
				return
			}
			if o, ok := originOf(u); ok && o != origin {
				p.ReportValue(l, "Sitemap is on %s", o)
			}
		})
	},
}

// rb608 is check RB608 (sitemap-malformed).
var rb608 = &check.Check{
	Code: "RB608", Name: "sitemap-malformed", Title: "malformed Sitemap URL",
	Severity: check.Warning, Affects: []check.Family{check.All},
	Doc: "The Sitemap value has a scheme and host but is not a valid URL: it holds raw " +
		"spaces or non-ASCII characters, or does not parse under RFC 3986. Sitemap " +
		"consumers reject or mangle such URLs. Percent-encode the offending characters " +
		"(a space is %20).",
	Before: "User-agent: *\nDisallow:\n\nSitemap: https://example.com/my sitemap.xml\n",
	After:  "User-agent: *\nDisallow:\n\nSitemap: https://example.com/my%20sitemap.xml\n",
	Run: func(p *check.Pass) {
		each(p, check.Sitemap, func(l *check.Line) {
			v := l.ValueText
			if schemeLen(v) == 0 || severalURLs(v) {
				return
			}
			bad := strings.ContainsAny(v, " \t")
			for i := 0; i < len(v) && !bad; i++ {
				bad = v[i] >= 0x80 || v[i] < 0x20 || v[i] == 0x7F
			}
			if !bad {
				_, err := url.Parse(v)
				bad = err != nil
			}
			if bad {
				p.ReportValue(l, "Sitemap URL %q is not a valid URL", v)
			}
		})
	},
}

// --- Host (RB620–RB624) ---

// rb620 is check RB620 (host-directive).
var rb620 = &check.Check{
	Code: "RB620", Name: "host-directive", Title: "Host directive",
	Severity: check.Info, Affects: []check.Family{check.Yandex},
	Doc: "Host told Yandex which mirror of a site is the main one; Yandex stopped reading " +
		"it in March 2018 and asks for a 301 redirect to the main mirror instead. Google, " +
		"Bing and RFC 9309 robots never used it. Yandex documented \"https://host\" as the " +
		"way to name an HTTPS mirror, so that form is not an error. Replace Host with a " +
		"redirect and remove the line.",
	Before: "User-agent: *\nDisallow:\n\nHost: example.com\n",
	After:  "User-agent: *\nDisallow:\n",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			if l := &p.Lines[i]; l.Dir == check.Host {
				p.Report(l, "Host is only for Yandex, which stopped using it in 2018; use a 301 redirect to the main mirror")
			}
		}
	},
}

// rb621 is check RB621 (several-hosts).
var rb621 = &check.Check{
	Code: "RB621", Name: "several-hosts", Title: "several Host directives",
	Severity: check.Warning, Affects: []check.Family{check.Yandex},
	Doc: "The file has more than one Host line. Yandex used only the first valid one " +
		"(RB623 says which are invalid), so the others never had any effect and may contradict it. Keep a single Host line (or " +
		"none: Yandex no longer reads it); the fix removes the later ones.",
	Before: "User-agent: *\nDisallow:\n\nHost: example.com\nHost: www.example.com\n",
	After:  "User-agent: *\nDisallow:\n\nHost: example.com\n",
	Fix:    "FX32",
	Run: func(p *check.Pass) {
		used := usedHost(p)
		if used == nil {
			return // RB623 reports every Host line
		}
		each(p, check.Host, func(l *check.Line) {
			if l == used {
				return
			}
			p.ReportAt(l, lineStart(l), "Yandex uses only the first valid Host, line %d (%q)", used.Num, used.ValueText).
				Relate(used.Num, "the Host Yandex used").
				Suggest("FX32", check.Preserving, "remove the extra Host line", p.DeleteLine(l))
		})
	},
}

// rb622 is check RB622 (host-scheme).
var rb622 = &check.Check{
	Code: "RB622", Name: "host-scheme", Title: "Host with a scheme",
	Severity: check.Warning, Affects: []check.Family{check.Yandex},
	Doc: "The Host value starts with a scheme such as http://. Yandex expected a bare host " +
		"name (with https:// allowed to mark an HTTPS mirror) and ignored other forms; " +
		"Moderatobot advises against a protocol too. Write the host name alone; the fix " +
		"strips a leading http://.",
	Before: "Host: http://example.com\n",
	After:  "Host: example.com\n",
	Fix:    "FX32",
	Run: func(p *check.Pass) {
		each(p, check.Host, func(l *check.Line) {
			if strings.Index(l.ValueText, "://") <= 0 {
				return
			}
			lv := strings.ToLower(l.ValueText)
			if strings.HasPrefix(lv, "https://") {
				return
			}
			d := p.ReportValue(l, "Host should be a bare host name (optionally https://), not %q", l.ValueText)
			if strings.HasPrefix(lv, "http://") && len(l.ValueText) > len("http://") && l.Value.IsValid() {
				d.Suggest("FX32", check.Preserving, `strip "http://"`,
					check.Edit{Start: l.Value.Start.Offset, End: l.Value.Start.Offset + len("http://")})
			}
		})
	},
}

// rb623 is check RB623 (host-invalid).
var rb623 = &check.Check{
	Code: "RB623", Name: "host-invalid", Title: "invalid Host value",
	Severity: check.Error, Affects: []check.Family{check.Yandex},
	Doc: "The Host value, once a leading http:// or https:// is removed, is not a host " +
		"name with an optional port: it has a path, a query, spaces, underscores, an IP " +
		"address or malformed labels. Yandex ignored such a Host. Write just the domain " +
		"(in Punycode for internationalised names), e.g. \"www.example.com\". The message " +
		"names the first valid Host, the one Yandex used.",
	Before: "Host: example.com/index.html\n",
	After:  "Host: example.com\n",
	Run: func(p *check.Pass) {
		used := usedHost(p)
		each(p, check.Host, func(l *check.Line) {
			if hostname.Valid(l.ValueText) {
				return
			}
			if used == nil {
				p.ReportValue(l, "Host %q is not a valid host name: Yandex ignores it, and no Host line of the file is valid", l.ValueText)
				return
			}
			p.ReportValue(l, "Host %q is not a valid host name: Yandex ignores it and uses line %d (%q)", l.ValueText, used.Num, used.ValueText).
				Relate(used.Num, "the Host Yandex used")
		})
	},
}

// rb624 is check RB624 (host-outside-yandex).
var rb624 = &check.Check{
	Code: "RB624", Name: "host-outside-yandex", Title: "Host outside a Yandex group",
	Severity: check.Info, Thorough: true, Affects: []check.Family{check.Yandex},
	Doc: "A Host line stands outside any group for Yandex. Only Yandex ever read Host, " +
		"and Moderatobot moves it into a \"User-agent: Yandex\" group so that other robots " +
		"do not see a directive they do not know. Put it after the Yandex group's rules, " +
		"or remove it since Yandex no longer uses it.",
	Before: "User-agent: *\nDisallow:\n\nHost: example.com\n",
	After:  "User-agent: *\nDisallow:\n\nUser-agent: Yandex\nDisallow:\nHost: example.com\n",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			if l := &p.Lines[i]; l.Dir == check.Host && !yandexGroup(p, l.Group) {
				p.Report(l, "Host is read only by Yandex; Moderatobot would move it to a \"User-agent: Yandex\" group")
			}
		}
	},
}

// --- Clean-param (RB630–RB634) ---

// rb630 is check RB630 (clean-param-outside-yandex).
var rb630 = &check.Check{
	Code: "RB630", Name: "clean-param-outside-yandex", Title: "Clean-param outside a Yandex group",
	Severity: check.Info, Affects: []check.Family{check.Yandex},
	Doc: "Clean-param tells Yandex which URL parameters do not change a page, and only " +
		"Yandex reads it (Google lists it as a tag it ignores). Yandex reads it wherever it " +
		"stands, but keeping it in a Yandex group keeps non-standard lines away from other " +
		"robots. When the file has a Yandex group, the fix moves the line there; it never " +
		"creates one.",
	Before: "User-agent: *\nDisallow:\nClean-param: ref\n\nUser-agent: Yandex\nDisallow:\n",
	After:  "User-agent: *\nDisallow:\n\nUser-agent: Yandex\nDisallow:\nClean-param: ref\n",
	Fix:    "FX33",
	Run: func(p *check.Pass) {
		target := -1
		for gi := range p.Groups {
			if yandexGroup(p, gi) {
				target = gi
				break
			}
		}
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Dir != check.CleanParam || yandexGroup(p, l.Group) {
				continue
			}
			d := p.Report(l, "Clean-param is understood only by Yandex")
			if target >= 0 {
				end := &p.Lines[p.Groups[target].Last()]
				d.Suggest("FX33", check.Preserving, "move Clean-param into the Yandex group",
					moveAfter(p, l, end)...)
			}
		}
	},
}

// rb631 is check RB631 (clean-param-malformed).
var rb631 = &check.Check{
	Code: "RB631", Name: "clean-param-malformed", Title: "malformed Clean-param",
	Severity: check.Error, Affects: []check.Family{check.Yandex},
	Doc: "The Clean-param value is not \"param1&param2 /path-prefix\": it has more than " +
		"two fields, an empty parameter, a parameter with characters other than letters, " +
		"digits and _ . ~ -, or a second field that is not a path. Yandex reports an " +
		"invalid Clean-param and ignores the line. Join the parameter names with \"&\" and " +
		"give the path prefix, if any, as the second field.",
	Before: "Clean-param: utm_source=google /news/\n",
	After:  "Clean-param: utm_source /news/\n",
	Run: func(p *check.Pass) {
		each(p, check.CleanParam, func(l *check.Line) {
			f := strings.Fields(l.ValueText)
			if len(f) == 0 {
				return // only Unicode spaces: RB212's business
			}
			bad := len(f) > 2 || !paramList(f[0])
			if len(f) == 2 && !bad && f[1][0] != '/' && f[1][0] != '*' && !paramName(f[1]) {
				bad = true
			}
			if bad {
				p.ReportValue(l, "Clean-param must be \"param1&param2 /path-prefix\"")
			}
		})
	},
}

// rb632 is check RB632 (clean-param-spaces).
var rb632 = &check.Check{
	Code: "RB632", Name: "clean-param-spaces", Title: "parameters separated by spaces",
	Severity: check.Warning, Affects: []check.Family{check.Yandex},
	Doc: "Clean-param has two fields and the second looks like another parameter name. " +
		"Yandex reads the second field as the path prefix, which then matches no URL, so " +
		"the first parameter is never cleaned either. Separate parameters with \"&\"; the " +
		"intent fix joins the two fields.",
	Before: "Clean-param: utm_source utm_medium\n",
	After:  "Clean-param: utm_source&utm_medium\n",
	Fix:    "FX33",
	Run: func(p *check.Pass) {
		each(p, check.CleanParam, func(l *check.Line) {
			f := strings.Fields(l.ValueText)
			if len(f) != 2 || !paramName(f[1]) {
				return
			}
			joined := f[0] + "&" + f[1]
			d := p.ReportValue(l, "Separate parameters with \"&\": %q; the second field is the path prefix", joined)
			if l.Value.IsValid() {
				d.Suggest("FX33", check.Intent, `join the parameters with "&"`,
					check.Edit{Start: l.Value.Start.Offset, End: l.Value.End.Offset, New: joined})
			}
		})
	},
}

// rb633 is check RB633 (clean-param-too-long).
var rb633 = &check.Check{
	Code: "RB633", Name: "clean-param-too-long", Title: "Clean-param longer than 500 characters",
	Severity: check.Error, Affects: []check.Family{check.Yandex},
	Doc: "The Clean-param value is longer than 500 characters, the limit Yandex documents " +
		"(Moderatobot checks the same). Yandex ignores the whole line. Split the " +
		"parameters over several Clean-param lines, grouped by path prefix.",
	Before: "Clean-param: " + strings.Repeat("p", 501) + "\n",
	After:  "Clean-param: " + strings.Repeat("p", 250) + "\nClean-param: " + strings.Repeat("q", 250) + "\n",
	Run: func(p *check.Pass) {
		each(p, check.CleanParam, func(l *check.Line) {
			if utf8.RuneCountInString(l.ValueText) > 500 {
				p.ReportValue(l, "Clean-param rule exceeds 500 characters")
			}
		})
	},
}

// rb634 is check RB634 (clean-param-path-chars).
var rb634 = &check.Check{
	Code: "RB634", Name: "clean-param-path-chars", Title: "Clean-param path prefix with unsupported characters",
	Severity: check.Warning, Affects: []check.Family{check.Yandex},
	Doc: "The path prefix of a Clean-param line contains characters Yandex does not " +
		"accept there, such as ?, $ or %. Yandex allows only letters, digits and . - / * _ " +
		"in that field. Shorten the prefix to the part before the first such character.",
	Before: "Clean-param: ref /catalog?page\n",
	After:  "Clean-param: ref /catalog\n",
	Run: func(p *check.Pass) {
		each(p, check.CleanParam, func(l *check.Line) {
			f := strings.Fields(l.ValueText)
			if len(f) != 2 || f[1][0] != '/' && f[1][0] != '*' || cleanPathOK(f[1]) {
				return
			}
			off := l.Span.Start.Offset
			if l.Value.IsValid() {
				off = l.Value.Start.Offset + strings.LastIndex(l.ValueText, f[1])
			}
			p.ReportAt(l, off, "Clean-param path may only use A-Z a-z 0-9 . - / * _")
		})
	},
}

// --- Crawl-delay (RB640–RB646) ---

// rb640 is check RB640 (crawl-delay-not-number).
var rb640 = &check.Check{
	Code: "RB640", Name: "crawl-delay-not-number", Title: "Crawl-delay is not a number",
	Severity: check.Error, Affects: []check.Family{check.Temoto, check.Bing, check.Yandex, check.CrawlerCommons},
	Doc: "The Crawl-delay value is not a decimal number (\"5s\", \"five\", \"1,5\"). Bing, " +
		"Yandex, crawler-commons and first-match parsers skip the line, and " +
		"temoto/robotstxt fails to parse the whole file, so its users crawl everything or " +
		"nothing. Write the number of seconds only: \"Crawl-delay: 5\".",
	Before: "User-agent: *\nDisallow:\nCrawl-delay: 5s\n",
	After:  "User-agent: *\nDisallow:\nCrawl-delay: 5\n",
	Run: func(p *check.Pass) {
		each(p, check.CrawlDelay, func(l *check.Line) {
			if _, ok := number(l.ValueText); !ok {
				p.ReportValue(l, "Crawl-delay %q is not a number", l.ValueText)
			}
		})
	},
}

// eachDelay calls fn for each Crawl-delay line whose value is a number.
func eachDelay(p *check.Pass, fn func(l *check.Line, v float64)) {
	each(p, check.CrawlDelay, func(l *check.Line) {
		if v, ok := number(l.ValueText); ok {
			fn(l, v)
		}
	})
}

// rb641 is check RB641 (crawl-delay-not-positive).
var rb641 = &check.Check{
	Code: "RB641", Name: "crawl-delay-not-positive", Title: "Crawl-delay not positive",
	Severity: check.Warning, Affects: []check.Family{check.Bing, check.Yandex, check.CrawlerCommons},
	Doc: "The Crawl-delay is zero or negative. Robots that honour Crawl-delay then do not " +
		"slow down at all, which is rarely what the line was written for. Give a positive " +
		"number of seconds, or remove the line.",
	Before: "User-agent: *\nDisallow:\nCrawl-delay: 0\n",
	After:  "User-agent: *\nDisallow:\nCrawl-delay: 1\n",
	Run: func(p *check.Pass) {
		eachDelay(p, func(l *check.Line, v float64) {
			if v <= 0 {
				p.ReportValue(l, "Crawl-delay must be positive")
			}
		})
	},
}

// rb642 is check RB642 (crawl-delay-fraction).
var rb642 = &check.Check{
	Code: "RB642", Name: "crawl-delay-fraction", Title: "fractional Crawl-delay",
	Severity: check.Info, Affects: []check.Family{check.FirstMatch, check.Bing},
	Doc: "The Crawl-delay has a decimal point. Yandex documented fractions and " +
		"crawler-commons and temoto/robotstxt accept them, but Bing documents whole " +
		"seconds and older CPython ignores anything but digits; Moderatobot notes that most " +
		"robots take only positive whole numbers. Use a whole number if those robots " +
		"matter; there is no automatic fix, since rounding changes the rate.",
	Before: "User-agent: *\nDisallow:\nCrawl-delay: 0.5\n",
	After:  "User-agent: *\nDisallow:\nCrawl-delay: 1\n",
	Run: func(p *check.Pass) {
		eachDelay(p, func(l *check.Line, v float64) {
			if v > 0 && strings.Contains(l.ValueText, ".") {
				p.ReportValue(l, "Fractional Crawl-delay: Bing documents whole seconds, and older parsers ignore it")
			}
		})
	},
}

// rb643 is check RB643 (crawl-delay-above-30).
var rb643 = &check.Check{
	Code: "RB643", Name: "crawl-delay-above-30", Title: "Crawl-delay above 30",
	Severity: check.Warning, Affects: []check.Family{check.Bing},
	Doc: "The Crawl-delay is more than 30 seconds. Bing documents a window of 1 to 30 " +
		"seconds and Moderatobot notes that some robots limit the value to that range; " +
		"robots that do honour a longer delay crawl the site very slowly. Use a value of " +
		"30 or less unless that slowness is intended.",
	Before: "User-agent: *\nDisallow:\nCrawl-delay: 60\n",
	After:  "User-agent: *\nDisallow:\nCrawl-delay: 10\n",
	Run: func(p *check.Pass) {
		eachDelay(p, func(l *check.Line, v float64) {
			if v > 30 && v <= 300 {
				p.ReportValue(l, "Crawl-delay %s s is above the 1–30 s range Bing documents", l.ValueText)
			}
		})
	},
}

// rb644 is check RB644 (crawl-delay-above-300).
var rb644 = &check.Check{
	Code: "RB644", Name: "crawl-delay-above-300", Title: "Crawl-delay above 300",
	Severity: check.Error, Affects: []check.Family{check.CrawlerCommons},
	Doc: "The Crawl-delay is more than 300 seconds. crawler-commons, used by Nutch and " +
		"StormCrawler, treats a delay above its 300-second maximum as \"disallow " +
		"everything\", and other robots that honour it crawl next to nothing. Use a much " +
		"smaller value, or Disallow what should not be crawled.",
	Before: "User-agent: *\nDisallow:\nCrawl-delay: 3600\n",
	After:  "User-agent: *\nDisallow:\nCrawl-delay: 10\n",
	Run: func(p *check.Pass) {
		eachDelay(p, func(l *check.Line, v float64) {
			if v > 300 {
				p.ReportValue(l, "Crawl-delay %s s: Nutch/StormCrawler-type crawlers will not crawl at all", l.ValueText)
			}
		})
	},
}

// rb645 is check RB645 (crawl-delay-google).
var rb645 = &check.Check{
	Code: "RB645", Name: "crawl-delay-google", Title: "Crawl-delay for Google only",
	Severity: check.Info, Affects: []check.Family{check.Google},
	Doc: "A Crawl-delay stands in a group whose agents are all Google crawlers, and Google " +
		"ignores Crawl-delay: it adapts its crawl rate by itself and slows down on 429 and " +
		"503 responses. The line has no effect. Remove it, and answer with 429/503 when the " +
		"server is overloaded.",
	Before: "User-agent: Googlebot\nDisallow:\nCrawl-delay: 10\n",
	After:  "User-agent: Googlebot\nDisallow:\n",
	Run: func(p *check.Pass) {
		for gi := range p.Groups {
			g := &p.Groups[gi]
			google := true
			for _, a := range g.Agents {
				google = google && tokens.GoogleOnly(p.Lines[a].Agent)
			}
			if !google {
				continue
			}
			for _, m := range g.Members {
				if l := &p.Lines[m]; l.Dir == check.CrawlDelay {
					p.Report(l, "Google ignores Crawl-delay")
				}
			}
		}
	},
}

// repeated reports, with the message format (which takes the line of
// the first), every line of directive d after the first in the same
// canonical group (RB646, RB657, RB662).
func repeated(p *check.Pass, d check.Directive, format, note string) {
	for gi := range p.Groups {
		first := 0
		for _, m := range p.Groups[gi].Members {
			l := &p.Lines[m]
			if l.Dir != d {
				continue
			}
			if first == 0 {
				first = l.Num
				continue
			}
			p.Report(l, format, first).Relate(first, note)
		}
	}
}

// rb646 is check RB646 (several-crawl-delays).
var rb646 = &check.Check{
	Code: "RB646", Name: "several-crawl-delays", Title: "several Crawl-delay lines in one group",
	Severity: check.Warning, Affects: []check.Family{check.Bing, check.Yandex, check.CrawlerCommons, check.Temoto, check.FirstMatch},
	Doc: "A group sets Crawl-delay more than once. Some parsers keep the first value and " +
		"others (older CPython, crawler-commons, temoto/robotstxt) the last, so robots " +
		"crawl at different rates. Keep one Crawl-delay per group.",
	Before: "User-agent: *\nDisallow:\nCrawl-delay: 5\nCrawl-delay: 10\n",
	After:  "User-agent: *\nDisallow:\nCrawl-delay: 5\n",
	Run: func(p *check.Pass) {
		repeated(p, check.CrawlDelay, "Crawl-delay already set at line %d", "first Crawl-delay")
	},
}

// --- Extended standard 2.0 (RB650–RB662) ---

// rb650 is check RB650 (request-rate-malformed).
var rb650 = &check.Check{
	Code: "RB650", Name: "request-rate-malformed", Title: "malformed Request-rate",
	Severity: check.Error, Affects: []check.Family{check.Extended},
	Doc: "The Request-rate value is not \"n/m\" with an optional unit s, m or h and an " +
		"optional GMT window \"HHMM-HHMM\", as Sean Conner's extended standard defines it " +
		"(n and m positive whole numbers). Robots of that standard ignore the line. Write " +
		"it as \"1/10s\" or \"10/1m 1800-0600\".",
	Before: "User-agent: *\nDisallow:\nRequest-rate: one per minute\n",
	After:  "User-agent: *\nDisallow:\nRequest-rate: 1/1m\n",
	Run: func(p *check.Pass) {
		each(p, check.RequestRate, func(l *check.Line) {
			if !requestRate(l.ValueText) {
				p.ReportValue(l, "Request-rate must look like \"1/10s\" or \"10/1m 1800-0600\"")
			}
		})
	},
}

// rb651 is check RB651 (extended-directive).
var rb651 = &check.Check{
	Code: "RB651", Name: "extended-directive", Title: "extended-standard directive",
	Severity: check.Info, Affects: []check.Family{check.Extended},
	Doc: "Request-rate, Visit-time, Robot-version and Comment come from Sean Conner's " +
		"extended standard (2.0). Google, Bing and Yandex ignore them; SeznamBot supports " +
		"part of it and older CPython reads only a whole-number Request-rate. Comment is a " +
		"message to the robot's operator, not a \"#\" comment. Use these lines only in " +
		"groups for robots known to read them.",
	Before: "User-agent: *\nDisallow:\nRequest-rate: 1/10s\n",
	After:  "User-agent: *\nDisallow:\nCrawl-delay: 10\n",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			switch l.Dir {
			case check.RequestRate, check.VisitTime, check.RobotVersion, check.Comment:
				p.Report(l, "%q belongs to the extended (2.0) standard and is understood by few robots", l.Dir.String())
			}
		}
	},
}

// rb655 is check RB655 (visit-time-malformed).
var rb655 = &check.Check{
	Code: "RB655", Name: "visit-time-malformed", Title: "malformed Visit-time",
	Severity: check.Error, Affects: []check.Family{check.Extended},
	Doc: "The Visit-time value is not a GMT window \"HHMM-HHMM\" with hours 00–23 and " +
		"minutes 00–59, as the extended standard requires. Robots that read Visit-time " +
		"ignore the line. Write e.g. \"Visit-time: 0100-0600\".",
	Before: "User-agent: *\nDisallow:\nVisit-time: 1am-6am\n",
	After:  "User-agent: *\nDisallow:\nVisit-time: 0100-0600\n",
	Run: func(p *check.Pass) {
		each(p, check.VisitTime, func(l *check.Line) {
			v, _ := visitSpaces(l.ValueText)
			if !timeWindow(v) {
				p.ReportValue(l, "Visit-time must be \"HHMM-HHMM\" (GMT)")
			}
		})
	},
}

// rb656 is check RB656 (visit-time-spaces).
var rb656 = &check.Check{
	Code: "RB656", Name: "visit-time-spaces", Title: "spaces in Visit-time",
	Severity: check.Warning, Affects: []check.Family{check.Extended},
	Doc: "The Visit-time window has spaces around its \"-\" (\"0100 - 0800\"). The extended " +
		"standard writes it without them and strict parsers reject the spaced form. Remove " +
		"the spaces; the intent fix does it.",
	Before: "User-agent: *\nDisallow:\nVisit-time: 0100 - 0800\n",
	After:  "User-agent: *\nDisallow:\nVisit-time: 0100-0800\n",
	Fix:    "FX34",
	Run: func(p *check.Pass) {
		each(p, check.VisitTime, func(l *check.Line) {
			v, ok := visitSpaces(l.ValueText)
			if !ok {
				return
			}
			d := p.ReportValue(l, "Remove the spaces around \"-\"")
			if l.Value.IsValid() {
				d.Suggest("FX34", check.Intent, `remove the spaces around "-"`,
					check.Edit{Start: l.Value.Start.Offset, End: l.Value.End.Offset, New: v})
			}
		})
	},
}

// rb657 is check RB657 (several-visit-times).
var rb657 = &check.Check{
	Code: "RB657", Name: "several-visit-times", Title: "several Visit-time lines in one group",
	Severity: check.Warning, Affects: []check.Family{check.Extended},
	Doc: "A group has more than one Visit-time line, while the extended standard allows " +
		"one per rule set. Robots disagree on which window applies. Keep a single window.",
	Before: "User-agent: *\nDisallow:\nVisit-time: 0100-0400\nVisit-time: 2200-2300\n",
	After:  "User-agent: *\nDisallow:\nVisit-time: 0100-0400\n",
	Run: func(p *check.Pass) {
		repeated(p, check.VisitTime, "Visit-time already set at line %d", "first Visit-time")
	},
}

// rb660 is check RB660 (robot-version-value).
var rb660 = &check.Check{
	Code: "RB660", Name: "robot-version-value", Title: "Robot-version value",
	Severity: check.Warning, Affects: []check.Family{check.Extended},
	Doc: "Robot-version is neither 1.0 nor 2.0, the versions Moderatobot accepts. Values " +
		"like \"2\" or \"3.0\" name no version, and even \"2.0.0\", used in Sean Conner's own " +
		"examples, is rejected by some parsers. Write \"Robot-version: 2.0\" (or 1.0).",
	Before: "User-agent: *\nRobot-version: 2.0.0\nDisallow:\n",
	After:  "User-agent: *\nRobot-version: 2.0\nDisallow:\n",
	Run: func(p *check.Pass) {
		each(p, check.RobotVersion, func(l *check.Line) {
			if l.ValueText != "1.0" && l.ValueText != "2.0" {
				p.ReportValue(l, "Robot-version should be 1.0 or 2.0")
			}
		})
	},
}

// rb661 is check RB661 (robot-version-position).
var rb661 = &check.Check{
	Code: "RB661", Name: "robot-version-position", Title: "Robot-version not right after the User-agent lines",
	Severity: check.Info, Affects: []check.Family{check.Extended},
	Doc: "Robot-version is not directly after the group's last User-agent line. The " +
		"extended standard declares the version before the group's other lines, and " +
		"Moderatobot moves it there. The fix does the same; Google and RFC 9309 robots " +
		"ignore the line, so their reading does not change.",
	Before: "User-agent: *\nDisallow: /tmp\nRobot-version: 2.0\n",
	After:  "User-agent: *\nRobot-version: 2.0\nDisallow: /tmp\n",
	Fix:    "FX35",
	Run: func(p *check.Pass) {
		for gi := range p.Groups {
			g := &p.Groups[gi]
			lastUA := g.Agents[len(g.Agents)-1]
			for _, m := range g.Members {
				l := &p.Lines[m]
				if l.Dir != check.RobotVersion || afterAgents(p, m, lastUA) {
					continue
				}
				p.Report(l, "Robot-version belongs directly after the last User-agent line").
					Relate(p.Lines[lastUA].Num, "last User-agent line").
					Suggest("FX35", check.Preserving, "move Robot-version after the last User-agent line",
						moveAfter(p, l, &p.Lines[lastUA])...)
			}
		}
	},
}

// afterAgents reports whether line i follows line ua with only comment
// lines and other Robot-version lines between them; counting those keeps
// FX35 from moving one Robot-version in front of another forever.
func afterAgents(p *check.Pass, i, ua int) bool {
	if i < ua {
		return false
	}
	for j := i - 1; j > ua; j-- {
		if p.Lines[j].Kind != syntax.CommentLine && p.Lines[j].Dir != check.RobotVersion {
			return false
		}
	}
	return true
}

// rb662 is check RB662 (several-robot-versions).
var rb662 = &check.Check{
	Code: "RB662", Name: "several-robot-versions", Title: "several Robot-version lines in one group",
	Severity: check.Warning, Affects: []check.Family{check.Extended},
	Doc: "A group declares Robot-version more than once. A group follows one version of " +
		"the standard, so the extra lines are at best redundant and at worst contradict " +
		"each other. Keep one Robot-version line per group.",
	Before: "User-agent: *\nRobot-version: 2.0\nRobot-version: 1.0\nDisallow:\n",
	After:  "User-agent: *\nRobot-version: 2.0\nDisallow:\n",
	Run: func(p *check.Pass) {
		repeated(p, check.RobotVersion, "Robot-version already declared at line %d", "first Robot-version")
	},
}

// --- Indexing directives and unused fields (RB670–RB672) ---

// rb670 is check RB670 (noindex-in-robots).
var rb670 = &check.Check{
	Code: "RB670", Name: "noindex-in-robots", Title: "Noindex / Nofollow / Noarchive in robots.txt",
	Severity: check.Warning, Affects: []check.Family{check.Google},
	Doc: "Noindex, Nofollow and Noarchive are page-level indexing instructions that " +
		"robots.txt cannot carry: Google never officially supported them and stopped " +
		"reading them on 2019-09-01, and no other major robot does. Use a robots meta tag " +
		"or an X-Robots-Tag header, and leave the page crawlable so that robots can see it. " +
		"The fix, which comments the line out, is opt-in (enable FX37).",
	Before: "User-agent: *\nDisallow:\nNoindex: /tmp/\n",
	After:  "User-agent: *\nDisallow:\n",
	Fix:    "FX37",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			switch l.Dir {
			case check.Noindex, check.Nofollow, check.Noarchive:
				// FX37 changes no robot's reading but is opt-in: Intent keeps
				// it out of the default fix.
				p.Report(l, "%q in robots.txt is not supported (Google dropped it on 2019-09-01); use a robots meta tag or X-Robots-Tag", l.Dir.String()).
					Suggest("FX37", check.Intent, "comment out the line",
						check.ReplaceLine(l, "# "+trimmedText(p, l)+"  (unsupported; use X-Robots-Tag)"))
			}
		}
	},
}

// rb671 is check RB671 (unused-field).
var rb671 = &check.Check{
	Code: "RB671", Name: "unused-field", Title: "recognised field nobody major uses",
	Severity: check.Info, Affects: []check.Family{check.Google},
	Doc: "The line uses a field such as Revisit-after, Domain, Cache-delay " +
		"or an ACAP- field. Google's robots.txt library recognises these names but does " +
		"nothing with them, and neither do other major robots. Remove the line unless a " +
		"specific robot you care about reads it.",
	Before: "User-agent: *\nDisallow:\nRevisit-after: 7 days\n",
	After:  "User-agent: *\nDisallow:\n",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			if l := &p.Lines[i]; l.Match == check.KeyUnused {
				p.Report(l, "%q is ignored by Google and most robots", l.KeyText)
			}
		}
	},
}

// rb672 is check RB672 (content-signal-malformed).
var rb672 = &check.Check{
	Code: "RB672", Name: "content-signal-malformed", Title: "malformed Content-Signal",
	Severity: check.Warning,
	Doc: "The Content-Signal line does not follow Cloudflare's Content Signals Policy " +
		"(contentsignals.org): comma-separated entries search, ai-input and ai-train, each " +
		"set to yes or no, and use set to immediate, reference or full. Values seen in the " +
		"wild such as allow, disallow, true or false, keys such as ai-training or ai_input, " +
		"AIPREF labels such as train-ai, an entry without a value and entries separated by " +
		"\";\" leave the signal unsaid, and an unknown key is ignored. The line states how " +
		"content may be used, not what may be crawled, and Google ignores it. The message " +
		"names what to write; when that is only another value for the same key, the " +
		"intent fix writes it.",
	Before: "User-agent: *\nContent-Signal: ai-train=false\nDisallow:\n",
	After:  "User-agent: *\nContent-Signal: ai-train=no\nDisallow:\n",
	Fix:    "FX41",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Dir != check.ContentSignal {
				continue
			}
			if l.ValueText == "" {
				p.ReportValue(l, "Content-Signal has no value: it gives no signal")
				continue
			}
			s := aipref.ParseSignal(l.ValueText)
			reportProblems(p, l, 0, l.ValueText, s.Problems, s.Unknown, "FX41", func(v string) bool {
				return len(aipref.ParseSignal(v).Problems) < len(s.Problems)
			}, "is not a Content Signals key (search, ai-input, ai-train, use): robots ignore it")
		}
	},
}
