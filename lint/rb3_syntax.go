package lint

import (
	"strings"

	"github.com/robotskit/robots/syntax"
)

// Checks of line syntax (RB3xx).
var syntaxChecks = []*Check{rb301, rb302, rb303, rb304, rb305, rb306, rb307, rb308, rb309, rb310, rb311, rb312, rb313}

// rb301 is check RB301: see its Doc.
var rb301 = &Check{
	Code: "RB301", Name: "unparseable-line", Title: "unparseable line",
	Severity: Error, Affects: []Family{ALL},
	Doc: "The line is neither blank, nor a comment, nor a \"name: value\" pair, so " +
		"every robot skips it: Google drops invalid lines, Lighthouse calls it " +
		"\"syntax not understood\" and Yandex a syntax error. It is usually a stray " +
		"word, a line broken in two, or HTML. Add the missing colon if it was meant " +
		"as a directive, or turn it into a comment.",
	Before: "User-agent: *\nDisallow: /private\nold rules below\n",
	After:  "User-agent: *\nDisallow: /private\n# old rules below\n",
	Fix:    "FX06",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			bad := l.Kind == syntax.InvalidLine ||
				l.Kind == syntax.DirectiveLine && l.Flags&syntax.MissingColon != 0 && l.dir == dNone
			if !bad {
				continue
			}
			p.reportAt(l, l.Span.Start.Offset, "Line is not \"name: value\" and is ignored").
				suggest("FX06", Preserving, "comment out the line", commentOut(l))
		}
	},
}

// rb302 is check RB302: see its Doc.
var rb302 = &Check{
	Code: "RB302", Name: "missing-colon", Title: "missing colon",
	Severity: Warning, Affects: []Family{RFC, FM, S94, YNDX, GOT},
	Doc: "A directive name and its value are separated by white space instead of a " +
		"colon. Google's parser and crawler-commons accept a line of exactly two " +
		"words this way, but RFC 9309's grammar requires the colon, and Yandex, " +
		"temoto/robotstxt and the older parsers skip the line. Write \"Name: value\".",
	Before: "User-agent: *\nDisallow /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX07",
	run: func(p *pass) {
		v := syntaxVerifier{p: p}
		for i := range p.lines {
			l := &p.lines[i]
			if l.Kind != syntax.DirectiveLine || l.Flags&syntax.MissingColon == 0 || l.dir == dNone {
				continue
			}
			e := Edit{Start: l.Key.End.Offset, End: l.Key.End.Offset, New: ":"}
			p.report(l, "Missing \":\" after %q", l.key).
				suggest("FX07", v.class(PreservingGoogle, e), "insert the colon", e)
		}
	},
}

// rb303 is check RB303: see its Doc.
var rb303 = &Check{
	Code: "RB303", Name: "unknown-directive", Title: "unknown directive",
	Severity: Warning, Affects: []Family{ALL},
	Doc: "The line's name is no directive any robot documents, nor a likely " +
		"misspelling of one, so robots skip the line (Lighthouse reports an unknown " +
		"directive, Yandex a warning). Names such as X-Robots-Tag or Crawl-rate " +
		"belong elsewhere: in HTTP headers, meta tags or the search engine's " +
		"webmaster tools. Remove the line, or keep it as a comment.",
	Before: "User-agent: *\nX-Robots-Tag: noindex\nDisallow: /tmp\n",
	After:  "User-agent: *\nDisallow: /tmp\n",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			if l.Kind == syntax.DirectiveLine && l.match == keyUnknown {
				p.report(l, "Unknown directive %q is ignored by robots", l.key)
			}
		}
	},
}

// rb304 is check RB304: see its Doc.
var rb304 = &Check{
	Code: "RB304", Name: "misspelled-core-directive", Title: "misspelled core directive",
	Severity: Error, Affects: []Family{GOOG, BING, YNDX, RFC, FM, S94},
	Doc: "The name looks like User-agent, Allow, Disallow or Sitemap, but is not a " +
		"spelling Google tolerates, so Google, Bing, Yandex and every RFC 9309 or " +
		"older parser skip the line: the rule or the group it should start is " +
		"silently lost. Only crawler-commons' typo table rescues a few spellings. " +
		"Correct the name.",
	Before: "User-agent: *\nDsallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX09",
	run:    func(p *pass) { p.syntaxMisspelled(true) },
}

// rb305 is check RB305: see its Doc.
var rb305 = &Check{
	Code: "RB305", Name: "lenient-directive-name", Title: "directive variant accepted only by typo-tolerant robots",
	Severity: Warning, Affects: []Family{RFC, YNDX, BING, FM, S94, GOT},
	Doc: "Google reads this name as a directive because it matches keys by prefix " +
		"and knows a few common typos (\"Disalow\", \"Useragent\", \"Site-map\"), and " +
		"crawler-commons does much the same. RFC 9309 parsers, Yandex, Bing, " +
		"temoto/robotstxt and the old standards do not, so robots disagree about " +
		"the file. Write the canonical name.",
	Before: "User-agent: *\nDissallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX08",
	run: func(p *pass) {
		v := syntaxVerifier{p: p}
		for i := range p.lines {
			l := &p.lines[i]
			if l.Kind != syntax.DirectiveLine || l.match != keyAccepted {
				continue
			}
			d := p.report(l, "%q is read as %q by Google but ignored by most other robots", l.key, l.dir.String())
			if strings.ContainsAny(l.key, " \t") && !strings.EqualFold(l.key, "user agent") {
				// "Sitemap https://…" splits at the URL's colon: Google
				// reads a mangled value, and renaming the key would keep
				// the mangling. Whoever fixes it must restore the URL.
				continue
			}
			e := Edit{Start: l.Key.Start.Offset, End: l.Key.End.Offset, New: l.dir.String()}
			d.suggest("FX08", v.class(PreservingGoogle, e), "write the canonical name", e)
		}
	},
}

// rb306 is check RB306: see its Doc.
var rb306 = &Check{
	Code: "RB306", Name: "misspelled-extension-directive", Title: "misspelled extension directive",
	Severity: Warning, Affects: []Family{BING, YNDX, CC, EXT},
	Doc: "The name is close to an extension directive (Crawl-delay, Clean-param, " +
		"Request-rate, Visit-time, Robot-version, …) but not spelt as one, so the " +
		"robots that support that extension miss it; only a few lenient parsers " +
		"(crawler-commons, temoto/robotstxt) accept some variants. Correct the name.",
	Before: "User-agent: *\nDisallow: /tmp\nCrawl delay: 10\n",
	After:  "User-agent: *\nDisallow: /tmp\nCrawl-delay: 10\n",
	Fix:    "FX09",
	run:    func(p *pass) { p.syntaxMisspelled(false) },
}

// syntaxMisspelled reports misspelled keys: of the core directives
// (RB304) or of the extensions (RB306).
func (p *pass) syntaxMisspelled(core bool) {
	for i := range p.lines {
		l := &p.lines[i]
		if l.Kind != syntax.DirectiveLine || l.match != keyMisspelled || l.guess.core() != core {
			continue
		}
		format := "%q is not recognised — did you mean %q?"
		if core {
			format = "%q is not a directive — did you mean %q?"
		}
		p.report(l, format, l.key, l.guess.String()).
			suggest("FX09", Intent, "correct the name",
				Edit{Start: l.Key.Start.Offset, End: l.Key.End.Offset, New: l.guess.String()})
	}
}

// rb307 is check RB307: see its Doc.
var rb307 = &Check{
	Code: "RB307", Name: "empty-user-agent", Title: "empty User-agent",
	Severity: Error, Affects: []Family{ALL},
	Doc: "A User-agent line has no value. Google extracts an empty product token, " +
		"so the group matches no robot and its rules are dead, while old parsers " +
		"that test whether the value is a substring of their name find the empty " +
		"string in every name and obey the group: opposite outcomes. RFC 9309 " +
		"requires a product token; name the robot, or \"*\".",
	Before: "User-agent:\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			if l.dir == dUserAgent && l.value == "" {
				p.reportValue(l, "User-agent has no value; the group applies to no robot")
			}
		}
	},
}

// rb308 is check RB308: see its Doc.
var rb308 = &Check{
	Code: "RB308", Name: "empty-value", Title: "empty value for a directive that needs one",
	Severity: Warning, Affects: []Family{BING, YNDX, CC, EXT, GOT},
	Doc: "Sitemap, Host, Clean-param, Crawl-delay, Request-rate, Visit-time and " +
		"Robot-version mean nothing without a value, so the robots that support " +
		"them skip the line; temoto/robotstxt even rejects the whole file over an " +
		"empty Crawl-delay. Give the value or remove the line.",
	Before: "User-agent: *\nDisallow: /tmp\nCrawl-delay:\n",
	After:  "User-agent: *\nDisallow: /tmp\nCrawl-delay: 5\n",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			switch l.dir {
			case dSitemap, dHost, dCleanParam, dCrawlDelay, dRequestRate, dVisitTime, dRobotVersion:
				if l.value == "" {
					p.reportValue(l, "%q has no value and is ignored", l.key)
				}
			}
		}
	},
}

// rb309 is check RB309: see its Doc.
var rb309 = &Check{
	Code: "RB309", Name: "several-values", Title: "several values on one line",
	Severity: Warning, Affects: []Family{GOOG, CC, FM},
	Doc: "One line lists several robots, paths or sitemap URLs. Google takes only " +
		"the first product token of a User-agent value and reads \"/a /b\" as one " +
		"pattern with a space in it, which no URL contains; legacy crawler-commons " +
		"splits the list, and substring matchers see the whole text. The 1996 " +
		"draft's grammar and Moderatobot expect one value per line: write one " +
		"line per value.",
	Before: "User-agent: Googlebot Bingbot\nDisallow: /private\n",
	After:  "User-agent: Googlebot\nUser-agent: Bingbot\nDisallow: /private\n",
	Fix:    "FX11",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			parts := syntaxValues(l)
			if len(parts) < 2 {
				continue
			}
			if off, _ := p.syntaxSecond(l); off >= 0 {
				continue // RB313 speaks for this line
			}
			prefix := p.src[l.Span.Start.Offset:l.Value.Start.Offset]
			sep := p.syntaxEOL(l) + prefix
			p.reportValue(l, "One %q line holds %d values; only one is allowed per line", l.key, len(parts)).
				suggest("FX11", Intent, "write one value per line",
					Edit{Start: l.Value.Start.Offset, End: l.Value.End.Offset, New: strings.Join(parts, sep)})
		}
	},
}

// syntaxValues returns the values of a line that holds several
// (RB309), or nil.
func syntaxValues(l *line) []string {
	if !syntaxIsDirective(l) || l.Flags&syntax.MissingColon != 0 || !strings.ContainsAny(l.value, " \t,") {
		return nil // one value: nothing to split
	}
	ws := func(r rune) bool { return r == ' ' || r == '\t' }
	wsComma := func(r rune) bool { return ws(r) || r == ',' }
	var parts []string
	ok := func(s string) bool { return false }
	switch {
	case l.dir == dUserAgent:
		parts = strings.FieldsFunc(l.value, wsComma)
		ok = syntaxTokenLike
	case l.dir.rule():
		parts = strings.FieldsFunc(l.value, wsComma)
		ok = func(s string) bool { return s[0] == '/' || s[0] == '*' }
	case l.dir == dSitemap:
		parts = strings.FieldsFunc(l.value, ws)
		ok = func(s string) bool {
			s = strings.ToLower(s)
			return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
		}
	}
	if len(parts) < 2 {
		return nil
	}
	for _, s := range parts {
		if !ok(s) {
			return nil
		}
	}
	return parts
}

// syntaxTokenLike reports whether s looks like a product token: letters,
// digits, '-' and '_', with at least one letter (MJ12bot and 360Spider are
// real tokens, though not RFC 9309 ones).
func syntaxTokenLike(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9' || c == '-' || c == '_':
		default:
			return false
		}
	}
	return letter
}

// rb310 is check RB310: see its Doc.
var rb310 = &Check{
	Code: "RB310", Name: "end-of-line-comment", Title: "end-of-line comment",
	Severity: Info, Thorough: true, Affects: []Family{FM},
	Doc: "A directive line also carries a \"#\" comment. The 1994 standard, the 1996 " +
		"draft and RFC 9309 all allow it, but a naive parser that does not strip " +
		"comments reads \"/private # secret\" as the path. Moderatobot moves such " +
		"comments to a line of their own, above the directive; so does the fix.",
	Before: "User-agent: *\nDisallow: /private # staff only\n",
	After:  "User-agent: *\n# staff only\nDisallow: /private\n",
	Fix:    "FX05",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			if !syntaxIsDirective(l) || !l.Comment.IsValid() || l.Flags&(syntax.TooLong|syntax.NUL) != 0 {
				continue
			}
			start, cs := l.Span.Start.Offset, l.Comment.Start.Offset
			keep := strings.TrimRight(p.src[start:cs], " \t")
			com := strings.TrimRight(p.src[cs:l.Comment.End.Offset], " \t")
			p.reportAt(l, cs, "Comment after a directive").
				suggest("FX05", Preserving, "move the comment to its own line",
					p.syntaxInsertBefore(l, com),
					Edit{Start: start + len(keep), End: l.Span.End.Offset})
		}
	},
}

// rb311 is check RB311: see its Doc.
var rb311 = &Check{
	Code: "RB311", Name: "hash-in-value", Title: "\"#\" cuts the value short",
	Severity: Warning, Affects: []Family{ALL},
	Doc: "Every robot starts a comment at the first \"#\", even in the middle of a " +
		"value, so \"Disallow: /#!/admin\" blocks \"/\" — the whole site — and " +
		"\"/page#top\" means \"/page\". Browsers never send URL fragments to servers, " +
		"so a rule cannot target one anyway. Remove the \"#\" and what follows, or " +
		"write the path the rule should really cover.",
	Before: "User-agent: *\nDisallow: /page#top\n",
	After:  "User-agent: *\nDisallow: /page\n",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			if !syntaxIsDirective(l) || !l.Comment.IsValid() {
				continue
			}
			cs := l.Comment.Start.Offset
			if cs <= l.Span.Start.Offset || p.src[cs-1] == ' ' || p.src[cs-1] == '\t' {
				continue
			}
			p.reportValue(l, "\"#\" starts a comment: robots read this value as %q", l.value)
		}
	},
}

// rb312 is check RB312: see its Doc.
var rb312 = &Check{
	Code: "RB312", Name: "non-canonical-layout", Title: "non-canonical whitespace or layout",
	Severity: Info, Thorough: true, Affects: []Family{FM},
	Doc: "The line is valid but not written the canonical way \"Name: value\": it is " +
		"indented, has white space before the colon, tabs, no or several spaces " +
		"after the colon, trailing white space, or an unusual capitalisation of the " +
		"name. RFC 9309 allows all of this, but ad-hoc parsers (regular expressions " +
		"anchored at the line start) can miss such lines. The fix rewrites the line.",
	Before: "User-agent: *\n  disallow :/private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX04",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			if !syntaxIsDirective(l) || l.Flags&(syntax.MissingColon|syntax.TooLong|syntax.NUL) != 0 {
				continue
			}
			want := p.syntaxCanonical(l)
			if p.syntaxLineText(l) == want {
				continue
			}
			p.reportAt(l, l.Span.Start.Offset, "Non-canonical formatting").
				suggest("FX04", Preserving, "rewrite the line canonically", replaceLine(l, want))
		}
	},
}

// syntaxCanonical returns line l as the canonical layout writes it
// (FX04): the name (canonical spelling when the key is exact), ": ", the
// value, and the comment with the spacing the author put before it.
func (p *pass) syntaxCanonical(l *line) string {
	key := l.key
	if l.match == keyExact {
		key = l.dir.String()
	}
	s := key + ":"
	if l.value != "" {
		s += " " + l.value
	}
	if l.Comment.IsValid() {
		com := strings.TrimRight(p.src[l.Comment.Start.Offset:l.Comment.End.Offset], " \t")
		if l.value != "" {
			s += p.src[l.Value.End.Offset:l.Comment.Start.Offset] + com
		} else {
			s += " " + com
		}
	}
	return s
}

// rb313 is check RB313: see its Doc.
var rb313 = &Check{
	Code: "RB313", Name: "two-directives-one-line", Title: "two directives on one line",
	Severity: Error, Affects: []Family{ALL},
	Doc: "A value holds a second \"Name:\" directive, typically two lines joined " +
		"into one (\"User-agent: Googlebot Disallow: /nogooglebot/\", as an SEO " +
		"guide prints it). Google reads only the first product token, or \"*\" for " +
		"\"* Disallow: /\", and the embedded rule is lost for every robot. Put each " +
		"directive on its own line.",
	Before: "User-agent: Googlebot Disallow: /nogooglebot/\n",
	After:  "User-agent: Googlebot\nDisallow: /nogooglebot/\n",
	Fix:    "FX10",
	run: func(p *pass) {
		for i := range p.lines {
			l := &p.lines[i]
			off, key2 := p.syntaxSecond(l)
			if off < 0 {
				continue
			}
			first := strings.TrimRight(p.src[l.Value.Start.Offset:off], " \t")
			p.reportAt(l, off, "Two directives on one line; the second one (%q) is ignored", key2).
				suggest("FX10", Intent, "put each directive on its own line",
					Edit{Start: l.Value.Start.Offset + len(first), End: off, New: p.syntaxEOL(l)})
		}
	},
}
