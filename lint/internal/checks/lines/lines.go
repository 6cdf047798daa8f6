// Package lines holds the checks of line syntax (RB3xx, section C of
// docs/checks.md): lines that are no "name: value" pair, missing colons,
// unknown and misspelled keys, empty and multiple values, comments and
// layout, two directives on one line.
package lines

import (
	"strings"

	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/syntax"
)

// Checks are the checks of the section, in code order.
var Checks = []*check.Check{rb301, rb302, rb303, rb304, rb305, rb306, rb307, rb308, rb309, rb310, rb311, rb312, rb313, rb314, rb315}

// rb301 is check RB301: see its Doc.
var rb301 = &check.Check{
	Code: "RB301", Name: "unparseable-line", Title: "unparseable line",
	Severity: check.Error, Affects: []check.Family{check.All},
	Doc: "The line is neither blank, nor a comment, nor a \"name: value\" pair, so " +
		"every robot skips it: Google drops invalid lines, Lighthouse calls it " +
		"\"syntax not understood\" and Yandex a syntax error. It is usually a stray " +
		"word, a line broken in two, or HTML. Add the missing colon if it was meant " +
		"as a directive, or turn it into a comment.",
	Before: "User-agent: *\nDisallow: /private\nold rules below\n",
	After:  "User-agent: *\nDisallow: /private\n# old rules below\n",
	Fix:    "FX06",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			bad := l.Kind == syntax.InvalidLine ||
				l.Kind == syntax.DirectiveLine && l.Flags&syntax.MissingColon != 0 && l.Dir == check.None
			if !bad {
				continue
			}
			p.ReportAt(l, l.Span.Start.Offset, "Line is not \"name: value\" and is ignored").
				Suggest("FX06", check.Preserving, "comment out the line", check.CommentOut(l))
		}
	},
}

// rb302 is check RB302: see its Doc.
var rb302 = &check.Check{
	Code: "RB302", Name: "missing-colon", Title: "missing colon",
	Severity: check.Warning, Affects: []check.Family{check.RFC, check.FirstMatch, check.Strict1994, check.Yandex, check.Temoto},
	Doc: "A directive name and its value are separated by white space instead of a " +
		"colon. Google's parser and crawler-commons accept a line of exactly two " +
		"words this way, but RFC 9309's grammar requires the colon, and Yandex, " +
		"temoto/robotstxt and the older parsers skip the line. Write \"Name: value\".",
	Before: "User-agent: *\nDisallow /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX07",
	Run: func(p *check.Pass) {
		v := check.NewVerifier(p)
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Kind != syntax.DirectiveLine || l.Flags&syntax.MissingColon == 0 || l.Dir == check.None {
				continue
			}
			e := check.Edit{Start: l.Key.End.Offset, End: l.Key.End.Offset, New: ":"}
			p.Report(l, "Missing \":\" after %q", l.KeyText).
				Suggest("FX07", v.Class(check.PreservingGoogle, e), "insert the colon", e)
		}
	},
}

// rb303 is check RB303: see its Doc.
var rb303 = &check.Check{
	Code: "RB303", Name: "unknown-directive", Title: "unknown directive",
	Severity: check.Warning, Affects: []check.Family{check.All},
	Doc: "The line's name is no directive any robot documents, nor a likely " +
		"misspelling of one, so robots skip the line (Lighthouse reports an unknown " +
		"directive, Yandex a warning). Names such as X-Robots-Tag or Crawl-rate " +
		"belong elsewhere: in HTTP headers, meta tags or the search engine's " +
		"webmaster tools. Remove the line, or keep it as a comment.",
	Before: "User-agent: *\nX-Robots-Tag: noindex\nDisallow: /tmp\n",
	After:  "User-agent: *\nDisallow: /tmp\n",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Kind == syntax.DirectiveLine && l.Match == check.KeyUnknown {
				p.Report(l, "Unknown directive %q is ignored by robots", l.KeyText)
			}
		}
	},
}

// rb304 is check RB304: see its Doc.
var rb304 = &check.Check{
	Code: "RB304", Name: "misspelled-core-directive", Title: "misspelled core directive",
	Severity: check.Error, Affects: []check.Family{check.Google, check.Bing, check.Yandex, check.RFC, check.FirstMatch, check.Strict1994},
	Doc: "The name looks like User-agent, Allow, Disallow or Sitemap, but is not a " +
		"spelling Google tolerates, so Google, Bing, Yandex and every RFC 9309 or " +
		"older parser skip the line: the rule or the group it should start is " +
		"silently lost. Only crawler-commons' typo table rescues a few spellings. " +
		"Correct the name.",
	Before: "User-agent: *\nDsallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX09",
	Run:    func(p *check.Pass) { misspelled(p, true) },
}

// rb305 is check RB305: see its Doc.
var rb305 = &check.Check{
	Code: "RB305", Name: "lenient-directive-name", Title: "directive variant accepted only by typo-tolerant robots",
	Severity: check.Warning, Affects: []check.Family{check.RFC, check.Yandex, check.Bing, check.FirstMatch, check.Strict1994, check.Temoto},
	Doc: "Google reads this name as a directive because it matches keys by prefix " +
		"and knows a few common typos (\"Disalow\", \"Useragent\", \"Site-map\"), and " +
		"crawler-commons does much the same. RFC 9309 parsers, Yandex, Bing, " +
		"temoto/robotstxt and the old standards do not, so robots disagree about " +
		"the file. Write the canonical name.",
	Before: "User-agent: *\nDissallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX08",
	Run: func(p *check.Pass) {
		v := check.NewVerifier(p)
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Kind != syntax.DirectiveLine || l.Match != check.KeyAccepted {
				continue
			}
			d := p.Report(l, "%q is read as %q by Google but ignored by most other robots", l.KeyText, l.Dir.String())
			if strings.ContainsAny(l.KeyText, " \t") && !strings.EqualFold(l.KeyText, "user agent") {
				// "Sitemap https://…" splits at the URL's colon: Google
				// reads a mangled value, and renaming the key would keep
				// the mangling. Whoever fixes it must restore the URL.
				continue
			}
			e := check.Edit{Start: l.Key.Start.Offset, End: l.Key.End.Offset, New: l.Dir.String()}
			d.Suggest("FX08", v.Class(check.PreservingGoogle, e), "write the canonical name", e)
		}
	},
}

// rb306 is check RB306: see its Doc.
var rb306 = &check.Check{
	Code: "RB306", Name: "misspelled-extension-directive", Title: "misspelled extension directive",
	Severity: check.Warning, Affects: []check.Family{check.Bing, check.Yandex, check.CrawlerCommons, check.Extended},
	Doc: "The name is close to an extension directive (Crawl-delay, Clean-param, " +
		"Request-rate, Visit-time, Robot-version, …) but not spelt as one, so the " +
		"robots that support that extension miss it; only a few lenient parsers " +
		"(crawler-commons, temoto/robotstxt) accept some variants. Correct the name.",
	Before: "User-agent: *\nDisallow: /tmp\nCrawl delay: 10\n",
	After:  "User-agent: *\nDisallow: /tmp\nCrawl-delay: 10\n",
	Fix:    "FX09",
	Run:    func(p *check.Pass) { misspelled(p, false) },
}

// syntaxMisspelled reports misspelled keys: of the core directives
// (RB304) or of the extensions (RB306).
func misspelled(p *check.Pass, core bool) {
	for i := range p.Lines {
		l := &p.Lines[i]
		if l.Kind != syntax.DirectiveLine || l.Match != check.KeyMisspelled || l.Guess.Core() != core {
			continue
		}
		format := "%q is not recognised — did you mean %q?"
		if core {
			format = "%q is not a directive — did you mean %q?"
		}
		p.Report(l, format, l.KeyText, l.Guess.String()).
			Suggest("FX09", check.Intent, "correct the name",
				check.Edit{Start: l.Key.Start.Offset, End: l.Key.End.Offset, New: l.Guess.String()})
	}
}

// rb307 is check RB307: see its Doc.
var rb307 = &check.Check{
	Code: "RB307", Name: "empty-user-agent", Title: "empty User-agent",
	Severity: check.Error, Affects: []check.Family{check.All},
	Doc: "A User-agent line has no value. Google extracts an empty product token, " +
		"so the group matches no robot and its rules are dead, while old parsers " +
		"that test whether the value is a substring of their name find the empty " +
		"string in every name and obey the group: opposite outcomes. RFC 9309 " +
		"requires a product token; name the robot, or \"*\".",
	Before: "User-agent:\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			if l.Dir == check.UserAgent && l.ValueText == "" {
				p.ReportValue(l, "User-agent has no value; the group applies to no robot")
			}
		}
	},
}

// rb308 is check RB308: see its Doc.
var rb308 = &check.Check{
	Code: "RB308", Name: "empty-value", Title: "empty value for a directive that needs one",
	Severity: check.Warning, Affects: []check.Family{check.Bing, check.Yandex, check.CrawlerCommons, check.Extended, check.Temoto},
	Doc: "Sitemap, Host, Clean-param, Crawl-delay, Request-rate, Visit-time and " +
		"Robot-version mean nothing without a value, so the robots that support " +
		"them skip the line; temoto/robotstxt even rejects the whole file over an " +
		"empty Crawl-delay. Give the value or remove the line.",
	Before: "User-agent: *\nDisallow: /tmp\nCrawl-delay:\n",
	After:  "User-agent: *\nDisallow: /tmp\nCrawl-delay: 5\n",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			switch l.Dir {
			case check.Sitemap, check.Host, check.CleanParam, check.CrawlDelay, check.RequestRate, check.VisitTime, check.RobotVersion:
				if l.ValueText == "" {
					p.ReportValue(l, "%q has no value and is ignored", l.KeyText)
				}
			}
		}
	},
}

// rb309 is check RB309: see its Doc.
var rb309 = &check.Check{
	Code: "RB309", Name: "several-values", Title: "several values on one line",
	Severity: check.Warning, Affects: []check.Family{check.Google, check.CrawlerCommons, check.FirstMatch},
	Doc: "One line lists several robots, paths or sitemap URLs. Google takes only " +
		"the first product token of a User-agent value and reads \"/a /b\" as one " +
		"pattern with a space in it, which no URL contains; legacy crawler-commons " +
		"splits the list, and substring matchers see the whole text. The 1996 " +
		"draft's grammar and Moderatobot expect one value per line: write one " +
		"line per value.",
	Before: "User-agent: Googlebot Bingbot\nDisallow: /private\n",
	After:  "User-agent: Googlebot\nUser-agent: Bingbot\nDisallow: /private\n",
	Fix:    "FX11",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			parts := values(l)
			if len(parts) < 2 {
				continue
			}
			if off, _ := p.SecondKey(l); off >= 0 {
				continue // RB313 speaks for this line
			}
			prefix := p.Src[l.Span.Start.Offset:l.Value.Start.Offset]
			sep := p.NearEOL(l) + prefix
			p.ReportValue(l, "One %q line holds %d values; only one is allowed per line", l.KeyText, len(parts)).
				Suggest("FX11", check.Intent, "write one value per line",
					check.Edit{Start: l.Value.Start.Offset, End: l.Value.End.Offset, New: strings.Join(parts, sep)})
		}
	},
}

// values returns the values of a line that holds several
// (RB309), or nil.
func values(l *check.Line) []string {
	if !l.IsDirective() || l.Flags&syntax.MissingColon != 0 || !strings.ContainsAny(l.ValueText, " \t,") {
		return nil // one value: nothing to split
	}
	ws := func(r rune) bool { return r == ' ' || r == '\t' }
	wsComma := func(r rune) bool { return ws(r) || r == ',' }
	var parts []string
	ok := func(s string) bool { return false }
	switch {
	case l.Dir == check.UserAgent:
		parts = strings.FieldsFunc(l.ValueText, wsComma)
		ok = tokenLike
	case l.Dir.Rule():
		parts = strings.FieldsFunc(l.ValueText, wsComma)
		ok = func(s string) bool { return s[0] == '/' || s[0] == '*' }
	case l.Dir == check.Sitemap:
		parts = strings.FieldsFunc(l.ValueText, ws)
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

// tokenLike reports whether s looks like a product token: letters,
// digits, '-' and '_', with at least one letter (MJ12bot and 360Spider are
// real tokens, though not RFC 9309 ones).
func tokenLike(s string) bool {
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
var rb310 = &check.Check{
	Code: "RB310", Name: "end-of-line-comment", Title: "end-of-line comment",
	Severity: check.Info, Thorough: true, Affects: []check.Family{check.FirstMatch},
	Doc: "A directive line also carries a \"#\" comment. The 1994 standard, the 1996 " +
		"draft and RFC 9309 all allow it, but a naive parser that does not strip " +
		"comments reads \"/private # secret\" as the path. Moderatobot moves such " +
		"comments to a line of their own, above the directive; so does the fix.",
	Before: "User-agent: *\nDisallow: /private # staff only\n",
	After:  "User-agent: *\n# staff only\nDisallow: /private\n",
	Fix:    "FX05",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			if !l.IsDirective() || !l.Comment.IsValid() || l.Flags&(syntax.TooLong|syntax.NUL) != 0 {
				continue
			}
			start, cs := l.Span.Start.Offset, l.Comment.Start.Offset
			keep := strings.TrimRight(p.Src[start:cs], " \t")
			com := strings.TrimRight(p.Src[cs:l.Comment.End.Offset], " \t")
			p.ReportAt(l, cs, "Comment after a directive").
				Suggest("FX05", check.Preserving, "move the comment to its own line",
					p.InsertBefore(l, com),
					check.Edit{Start: start + len(keep), End: l.Span.End.Offset})
		}
	},
}

// rb311 is check RB311: see its Doc.
var rb311 = &check.Check{
	Code: "RB311", Name: "hash-in-value", Title: "\"#\" cuts the value short",
	Severity: check.Warning, Affects: []check.Family{check.All},
	Doc: "Every robot starts a comment at the first \"#\", even in the middle of a " +
		"value, so \"Disallow: /#!/admin\" blocks \"/\" — the whole site — and " +
		"\"/page#top\" means \"/page\". Browsers never send URL fragments to servers, " +
		"so a rule cannot target one anyway. Remove the \"#\" and what follows, or " +
		"write the path the rule should really cover.",
	Before: "User-agent: *\nDisallow: /page#top\n",
	After:  "User-agent: *\nDisallow: /page\n",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			if !l.IsDirective() || !l.Comment.IsValid() {
				continue
			}
			cs := l.Comment.Start.Offset
			if cs <= l.Span.Start.Offset || p.Src[cs-1] == ' ' || p.Src[cs-1] == '\t' {
				continue
			}
			p.ReportValue(l, "\"#\" starts a comment: robots read this value as %q", l.ValueText)
		}
	},
}

// rb312 is check RB312: see its Doc.
var rb312 = &check.Check{
	Code: "RB312", Name: "non-canonical-layout", Title: "non-canonical whitespace or layout",
	Severity: check.Info, Thorough: true, Affects: []check.Family{check.FirstMatch},
	Doc: "The line is valid but not written the canonical way \"Name: value\": it is " +
		"indented, has white space before the colon, tabs, no or several spaces " +
		"after the colon, trailing white space, or an unusual capitalisation of the " +
		"name. RFC 9309 allows all of this, but ad-hoc parsers (regular expressions " +
		"anchored at the line start) can miss such lines. The fix rewrites the line.",
	Before: "User-agent: *\n  disallow :/private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX04",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			if !l.IsDirective() || l.Flags&(syntax.MissingColon|syntax.TooLong|syntax.NUL) != 0 {
				continue
			}
			want := canonical(p, l)
			if p.LineText(l) == want {
				continue
			}
			p.ReportAt(l, l.Span.Start.Offset, "Non-canonical formatting").
				Suggest("FX04", check.Preserving, "rewrite the line canonically", check.ReplaceLine(l, want))
		}
	},
}

// syntaxCanonical returns line l as the canonical layout writes it
// (FX04): the name (canonical spelling when the key is exact), ": ", the
// value, and the comment with the spacing the author put before it.
func canonical(p *check.Pass, l *check.Line) string {
	key := l.KeyText
	if l.Match == check.KeyExact {
		key = l.Dir.String()
	}
	s := key + ":"
	if l.ValueText != "" {
		s += " " + l.ValueText
	}
	if l.Comment.IsValid() {
		com := strings.TrimRight(p.Src[l.Comment.Start.Offset:l.Comment.End.Offset], " \t")
		if l.ValueText != "" {
			s += p.Src[l.Value.End.Offset:l.Comment.Start.Offset] + com
		} else {
			s += " " + com
		}
	}
	return s
}

// rb313 is check RB313: see its Doc.
var rb313 = &check.Check{
	Code: "RB313", Name: "two-directives-one-line", Title: "two directives on one line",
	Severity: check.Error, Affects: []check.Family{check.All},
	Doc: "A value holds a second \"Name:\" directive, typically two lines joined " +
		"into one (\"User-agent: Googlebot Disallow: /nogooglebot/\", as an SEO " +
		"guide prints it). Google reads only the first product token, or \"*\" for " +
		"\"* Disallow: /\", and the embedded rule is lost for every robot. Put each " +
		"directive on its own line.",
	Before: "User-agent: Googlebot Disallow: /nogooglebot/\n",
	After:  "User-agent: Googlebot\nDisallow: /nogooglebot/\n",
	Fix:    "FX10",
	Run: func(p *check.Pass) {
		for i := range p.Lines {
			l := &p.Lines[i]
			off, key2 := p.SecondKey(l)
			if off < 0 {
				continue
			}
			first := strings.TrimRight(p.Src[l.Value.Start.Offset:off], " \t")
			p.ReportAt(l, off, "Two directives on one line; the second one (%q) is ignored", key2).
				Suggest("FX10", check.Intent, "put each directive on its own line",
					check.Edit{Start: l.Value.Start.Offset + len(first), End: off, New: p.NearEOL(l)})
		}
	},
}
