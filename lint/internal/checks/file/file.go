// Package file holds the checks of the body as a whole (RB2xx, section B
// of docs/checks.md): its size, encoding, line endings and characters.
// Like the content checks, they read only a body that came with a 2xx
// status (or from disk). The line checks (RB203, RB206–RB213) stay quiet
// on a body that is not text at all (RB202, RB204): every line of it
// would be reported.
package file

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/robotskit/robots/internal/sniff"
	"github.com/robotskit/robots/lint/internal/charset"
	"github.com/robotskit/robots/lint/internal/check"
	"github.com/robotskit/robots/syntax"
)

// Checks are the checks of the section, in code order.
var Checks = []*check.Check{
	rb201, rb202, rb203, rb204, rb205, rb206, rb207, rb208, rb209, rb210,
	rb211, rb212, rb213, rb214,
}

var rb201 = &check.Check{
	Code: "RB201", Name: "utf8-bom", Title: "UTF-8 byte-order mark",
	Severity: check.Warning, Affects: []check.Family{check.FirstMatch},
	Doc: "The file starts with the bytes EF BB BF, a UTF-8 byte-order mark. Google " +
		"and crawler-commons skip it, but parsers that do not (older CPython among " +
		"them) read the first line as an unknown key such as \"\\ufeffUser-agent\" and " +
		"lose the group it starts. RFC 9309's grammar has no place for it. Save the " +
		"file as UTF-8 without a BOM.",
	Before: "\uFEFFUser-agent: *\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX01",
	Run: func(p *check.Pass) {
		if skip(p) || p.File.BOM != "\xEF\xBB\xBF" || len(p.Lines) == 0 {
			return
		}
		l := &p.Lines[0]
		d := p.ReportAt(l, 0, "File starts with a UTF-8 BOM")
		d.Column = 1 // the BOM itself, which columns do not count
		d.Suggest("FX01", check.Preserving, "drop the byte-order mark", check.Edit{Start: 0, End: 3})
	},
}

var rb202 = &check.Check{
	Code: "RB202", Name: "utf16-encoding", Title: "UTF-16/UTF-32 encoding",
	Severity: check.Error, Affects: []check.Family{check.Google, check.RFC, check.Yandex, check.FirstMatch, check.Temoto, check.CrawlerCommons},
	Doc: "The file is written in UTF-16 or UTF-32: it starts with their byte-order " +
		"mark, or NUL bytes sit between its ASCII letters. Google, RFC 9309 robots " +
		"(which read UTF-8, §2.3), Yandex and most libraries find no valid line in it " +
		"and crawl everything, while crawler-commons decodes UTF-16 with a BOM and " +
		"obeys it. Save the file as UTF-8; the intent fix transcodes it.",
	Before: "\xFF\xFEU\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00" +
		"D\x00i\x00s\x00a\x00l\x00l\x00o\x00w\x00:\x00 \x00/\x00\n\x00",
	After: "User-agent: *\nDisallow: /\n",
	Fix:   "FX02",
	Run: func(p *check.Pass) {
		if skip(p) {
			return
		}
		enc := sniff.Wide(p.Src)
		if enc == "" || sniff.Binary(p.Src) != "" {
			return
		}
		d := p.ReportFile("robots.txt is encoded as %s; robots expect UTF-8", enc)
		if out, ok := charset.DecodeWide(p.Src, enc); ok {
			d.Suggest("FX02", check.Intent, "transcode from "+enc+" to UTF-8", check.Edit{Start: 0, End: len(p.Src), New: out})
		}
	},
}

var rb203 = &check.Check{
	Code: "RB203", Name: "invalid-utf8", Title: "invalid UTF-8",
	Severity: check.Error, Affects: []check.Family{check.Google, check.RFC, check.Strict1994, check.FirstMatch},
	Doc: "The line holds bytes that are not UTF-8, typically text saved as " +
		"windows-1251, windows-1252 or Latin-1. Google percent-encodes those raw bytes, " +
		"which never equals the UTF-8 encoding crawlers use for the same URL, so the " +
		"rule never matches; RFC 9309 (§2.3) expects UTF-8 and first-match robots " +
		"compare raw bytes. Save the file as UTF-8; the intent fix transcodes the line " +
		"from the encoding the message guesses.",
	Before: "User-agent: *\nDisallow: /caf\xE9\n",
	After:  "User-agent: *\nDisallow: /caf\u00E9\n",
	Fix:    "FX02",
	Run: func(p *check.Pass) {
		if !isText(p) || utf8.ValidString(p.Src) {
			return
		}
		guess, cm := charset.Guess(p.Src)
		for i := range p.Lines {
			l := &p.Lines[i]
			start, end := l.Span.Start.Offset, l.Span.End.Offset
			text := p.Src[start:end]
			bad := invalidAt(text)
			if bad < 0 {
				continue
			}
			d := p.ReportAt(l, start+bad, "Line is not valid UTF-8 (looks like %s)", guess)
			if cm != nil {
				d.Suggest("FX02", check.Intent, "transcode the line from "+guess+" to UTF-8",
					check.Edit{Start: start, End: end, New: charset.Transcode(text, cm)})
			}
		}
	},
}

var rb204 = &check.Check{
	Code: "RB204", Name: "binary-body", Title: "binary content / NUL bytes",
	Severity: check.Error, Affects: []check.Family{check.All},
	Doc: "The body is not text: it starts with the signature of a gzip stream, an " +
		"image, a PDF or a ZIP archive, holds NUL bytes, or is full of control " +
		"characters. No robot finds a rule in it, so all crawl everything " +
		"(temoto/robotstxt may fail outright). The usual cause is a compressed body " +
		"sent without Content-Encoding; serve the plain text file.",
	Before: "User-agent: *\x00\nDisallow: /\n",
	After:  "User-agent: *\nDisallow: /\n",
	Run: func(p *check.Pass) {
		if skip(p) {
			return
		}
		if kind := sniff.Binary(p.Src); kind != "" {
			p.ReportFile("robots.txt is binary (%s); robots will find no rules", kind)
		}
	},
}

var rb205 = &check.Check{
	Code: "RB205", Name: "html-body", Title: "HTML page served as robots.txt",
	Severity: check.Error, Affects: []check.Family{check.Google, check.CrawlerCommons, check.All},
	Doc: "The body is an HTML document (a soft 404, an error or login page, a " +
		"single-page application's shell) instead of a robots.txt. Google keeps only " +
		"lines that read as directives, usually none, and crawler-commons allows " +
		"everything unless the page happens to contain \"user-agent:\"; no robot follows " +
		"a meta refresh or a script redirect in it. Serve a plain text robots.txt, or " +
		"404 when there is none.",
	Before: "<!DOCTYPE html>\n<html><head><title>Not found</title></head>\n<body>Page not found</body></html>\n",
	After:  "User-agent: *\nDisallow:\n",
	Run: func(p *check.Pass) {
		if skip(p) || !sniff.HTML(p.Src) {
			return
		}
		if logicalRedirect(p.Src) {
			p.ReportFile("robots.txt is an HTML document; its meta refresh or script redirect is not followed (robots ignore logical redirects)")
			return
		}
		p.ReportFile("robots.txt is an HTML document")
	},
}

var rb206 = &check.Check{
	Code: "RB206", Name: "mixed-line-endings", Title: "mixed line endings",
	Severity: check.Info, Affects: []check.Family{check.FirstMatch, check.Strict1994},
	Doc: "Lines end in more than one way: some with CRLF, some with LF, some with a " +
		"lone CR. Google, RFC 9309 robots and the common libraries accept all three, " +
		"but ad-hoc splitters that know only one of them merge or split lines. The fix " +
		"ends every line with LF.",
	Before: "User-agent: *\r\nDisallow: /a\nDisallow: /b\r\n",
	After:  "User-agent: *\nDisallow: /a\nDisallow: /b\n",
	Fix:    "FX03",
	Run: func(p *check.Pass) {
		if !isText(p) {
			return
		}
		var crlf, lf, cr int
		for i := range p.Lines {
			switch eolOf(p, &p.Lines[i]) {
			case "\r\n":
				crlf++
			case "\n":
				lf++
			case "\r":
				cr++
			}
		}
		var kinds []string
		for _, k := range []struct {
			n    int
			name string
		}{{crlf, "CRLF"}, {lf, "LF"}, {cr, "CR"}} {
			if k.n > 0 {
				kinds = append(kinds, fmt.Sprintf("%d %s", k.n, k.name))
			}
		}
		if len(kinds) < 2 {
			return
		}
		d := p.ReportFile("Mixed line endings (%s)", strings.Join(kinds, ", "))
		d.Suggest("FX03", check.Preserving, "end every line with LF", lfEdits(p)...)
	},
}

var rb207 = &check.Check{
	Code: "RB207", Name: "cr-line-endings", Title: "CR-only line endings",
	Severity: check.Warning, Affects: []check.Family{check.FirstMatch, check.Strict1994},
	Doc: "Lines end with a lone CR, as classic Mac OS wrote them, and the file has no " +
		"LF at all. Google, RFC 9309 robots and Python's robotparser split on CR, but " +
		"splitters that know only LF see one long line and read at most its first " +
		"directive. The fix ends every line with LF.",
	Before: "User-agent: *\rDisallow: /private\r",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX03",
	Run: func(p *check.Pass) {
		if !isText(p) || strings.IndexByte(p.Src, '\n') >= 0 || strings.IndexByte(p.Src, '\r') < 0 {
			return
		}
		d := p.ReportFile("Lines end with CR only (classic Mac)")
		d.Suggest("FX03", check.Preserving, "end every line with LF", lfEdits(p)...)
	},
}

// longLine is the longest line Google reads whole (RB208): the
// line buffer of google/robotstxt holds 2083×8 bytes.
const longLine = 2083 * 8

var rb208 = &check.Check{
	Code: "RB208", Name: "line-too-long", Title: "line longer than 16,664 bytes",
	Severity: check.Warning, Affects: []check.Family{check.Google},
	Doc: "The line is longer than 16,664 bytes (2083×8), the size of the line buffer " +
		"of Google's parser. Google reads only the start of it, so a long pattern " +
		"silently becomes a shorter one that may match far more or far less than " +
		"written. Split the line, or shorten the pattern with wildcards.",
	Before: "User-agent: *\nDisallow: /" + strings.Repeat("a", longLine) + "\n",
	After:  "User-agent: *\nDisallow: /" + strings.Repeat("a", 100) + "\n",
	Run: func(p *check.Pass) {
		if !isText(p) {
			return
		}
		for i := range p.Lines {
			l := &p.Lines[i]
			if n := l.Span.Len(); n > longLine {
				p.ReportAt(l, l.Span.Start.Offset, "Line is %s bytes; Google ignores everything after byte 16,664", check.Thousands(int64(n)))
			}
		}
	},
}

var rb209 = &check.Check{
	Code: "RB209", Name: "rule-too-long", Title: "rule longer than 1,024 characters",
	Severity: check.Warning, Affects: []check.Family{check.Yandex},
	Doc: "The Allow or Disallow value is longer than 1,024 characters. Yandex rejects " +
		"such a rule (\"Rule too long\") and ignores it, while Google obeys it. Shorten " +
		"the pattern, for instance with a \"*\" wildcard.",
	Before: "User-agent: *\nDisallow: /" + strings.Repeat("a", 1024) + "\n",
	After:  "User-agent: *\nDisallow: /" + strings.Repeat("a", 1023) + "\n",
	Run: func(p *check.Pass) {
		if !isText(p) {
			return
		}
		for i := range p.Lines {
			l := &p.Lines[i]
			if !l.Dir.Rule() || len(l.ValueText) <= 1024 {
				continue
			}
			if n := utf8.RuneCountInString(l.ValueText); n > 1024 {
				p.ReportValue(l, "Rule is %s characters; Yandex ignores rules longer than 1,024", check.Thousands(int64(n)))
			}
		}
	},
}

var rb210 = &check.Check{
	Code: "RB210", Name: "control-character", Title: "control characters",
	Severity: check.Warning, Affects: []check.Family{check.Google, check.RFC},
	Doc: "The line holds a control character: a C0 control other than TAB, DEL, or a " +
		"C1 control (U+0080–U+009F). RFC 9309's grammar (§2.2) leaves them out, and " +
		"Google keeps them inside the key or value, which then names no directive or " +
		"matches no URL. The fix removes them; that changes what Google reads when " +
		"they sit inside a value. VT, FF and U+0085 are RB211's.",
	Before: "User-agent: *\nDisallow: /private\x07\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX03",
	Run: func(p *check.Pass) {
		eachRune(p, indexControl, "Control character U+%04X in line", func(d *check.Diagnostic, l *check.Line, text string) {
			fixed := replace(text, func(r rune) (string, bool) { return "", isControl(r) })
			suggestLine(p, d, l, fixed, "remove control characters")
		})
	},
}

var rb211 = &check.Check{
	Code: "RB211", Name: "unicode-line-break", Title: "Unicode line separators, VT or FF",
	Severity: check.Warning, Affects: []check.Family{check.CrawlerCommons, check.Google, check.RFC},
	Doc: "The line holds U+0085, U+2028, U+2029, a vertical tab or a form feed. " +
		"crawler-commons and Python's robotparser end a line there, Google and RFC " +
		"9309 robots do not, so they read different directives. The intent fix puts a " +
		"real line break in its place (on a line of nothing else it just removes it).",
	Before: "User-agent: *\nDisallow: /a\u2028Disallow: /b\n",
	After:  "User-agent: *\nDisallow: /a\nDisallow: /b\n",
	Fix:    "FX03",
	Run: func(p *check.Pass) {
		eachRune(p, indexLineBreak, "U+%04X is a line break for some robots but not for others", func(d *check.Diagnostic, l *check.Line, text string) {
			blank := strings.TrimFunc(text, func(r rune) bool {
				return r == ' ' || r == '\t' || isLineBreak(r)
			}) == ""
			// Nothing but breaks and blanks: every robot sees blank lines,
			// and one is enough; otherwise each break becomes a real one.
			eol := ""
			if !blank {
				eol = p.EOL(l)
			}
			fixed := replace(text, func(r rune) (string, bool) { return eol, isLineBreak(r) })
			if blank {
				d.Suggest("FX03", check.PreservingGoogle, "remove the line separators", check.ReplaceLine(l, fixed))
				return
			}
			d.Suggest("FX03", check.Intent, "break the line at the separators", check.ReplaceLine(l, fixed))
		})
	},
}

// eachRune reports, on each line of a text body where index finds a rune
// of its class (the offset of the first, or -1), that rune, where it
// stands, with the message format (which takes the rune, as U+%04X), and
// calls fix with the finding, the line and its text (RB210, RB211).
func eachRune(p *check.Pass, index func(text string) int, format string, fix func(d *check.Diagnostic, l *check.Line, text string)) {
	if !isText(p) {
		return
	}
	for i := range p.Lines {
		l := &p.Lines[i]
		text := p.LineText(l)
		at := index(text)
		if at < 0 {
			continue
		}
		r, _ := utf8.DecodeRuneInString(text[at:])
		fix(p.ReportAt(l, l.Span.Start.Offset+at, format, r), l, text)
	}
}

// indexControl and indexLineBreak return the offset of the first rune of
// s of their class, -1 when there is none. Each is strings.IndexFunc with
// its class, which the compiler then calls directly for every rune.
func indexControl(s string) int   { return strings.IndexFunc(s, isControl) }
func indexLineBreak(s string) int { return strings.IndexFunc(s, isLineBreak) }

var rb212 = &check.Check{
	Code: "RB212", Name: "invisible-character", Title: "invisible or non-ASCII whitespace",
	Severity: check.Warning, Affects: []check.Family{check.Google, check.RFC, check.All},
	Doc: "A directive line holds a no-break, ideographic or other Unicode space, or a " +
		"zero-width character, outside its comment. Google trims only ASCII white " +
		"space: in a key the directive may become unknown, in a value the pattern gains " +
		"bytes such as %C2%A0 and never matches. They come from copying text out of web " +
		"pages and word processors. The fix turns the spaces into plain spaces and " +
		"drops the zero-width characters; inside a value that changes what Google reads.",
	Before: "User-agent: *\nDisallow:\u00A0/private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX03",
	Run: func(p *check.Pass) {
		if !isText(p) {
			return
		}
		for i := range p.Lines {
			l := &p.Lines[i]
			text, base := codeOf(p, l)
			at := -1
			for j, r := range text {
				if r < 0x80 {
					continue // every invisible character is outside ASCII
				}
				if _, ok := invisible[r]; ok && (r != '\uFEFF' || base+j != 0) {
					at = j
					break
				}
			}
			if at < 0 {
				continue
			}
			r, _ := utf8.DecodeRuneInString(text[at:])
			where := "key"
			if l.Value.IsValid() && base+at >= l.Value.Start.Offset || !l.Value.IsValid() && l.Key.IsValid() && base+at >= l.Key.End.Offset {
				where = "value"
			}
			d := p.ReportAt(l, base+at, "Invisible character U+%04X (%s) in %s", r, invisible[r], where)
			code := replace(text, func(r rune) (string, bool) {
				switch name, ok := invisible[r]; {
				case !ok:
					return "", false
				case strings.HasSuffix(name, "space") && !strings.HasPrefix(name, "zero"):
					return " ", true
				}
				return "", true
			})
			if base == 0 && strings.HasPrefix(text, "\uFEFF") {
				code = "\uFEFF" + code // a BOM is RB201's
			}
			start := l.Span.Start.Offset
			fixed := p.Src[start:base] + code + p.Src[base+len(text):l.Span.End.Offset]
			suggestLine(p, d, l, fixed, "replace invisible characters")
		}
	},
}

var rb213 = &check.Check{
	Code: "RB213", Name: "typographic-character", Title: "typographic characters",
	Severity: check.Info, Affects: []check.Family{check.All},
	Doc: "A directive line holds curly quotes, an en or em dash or an ellipsis outside " +
		"its comment. They are almost never meant in a path or a robot's name; a word " +
		"processor put them there (Google's robots.txt documentation warns against " +
		"editing robots.txt in one). " +
		"Write the line with plain ASCII characters.",
	Before: "User-agent: *\nDisallow: /search\u2026\n",
	After:  "User-agent: *\nDisallow: /search\n",
	Run: func(p *check.Pass) {
		if !isText(p) {
			return
		}
		for i := range p.Lines {
			l := &p.Lines[i]
			text, base := codeOf(p, l)
			if at := strings.IndexAny(text, "\u2018\u2019\u201C\u201D\u2013\u2014\u2026"); at >= 0 {
				r, _ := utf8.DecodeRuneInString(text[at:])
				p.ReportAt(l, base+at, "Typographic character %q — was this file edited in a word processor?", string(r))
			}
		}
	},
}

var rb214 = &check.Check{
	Code: "RB214", Name: "too-many-rules", Title: "more than 2,048 rules",
	Severity: check.Warning, Affects: []check.Family{check.Yandex},
	Doc: "The file has more than 2,048 Allow and Disallow lines. Yandex accepts at " +
		"most 2,048 and reports the file as too large; so many rules usually mean " +
		"that patterns (\"*\", \"$\", directories) would say the same in far fewer lines.",
	Before: "User-agent: *\n" + strings.Repeat("Disallow: /x\n", 2049),
	After:  "User-agent: *\n" + strings.Repeat("Disallow: /x\n", 2048),
	Run: func(p *check.Pass) {
		if !isText(p) {
			return
		}
		n := 0
		for i := range p.Lines {
			if p.Lines[i].Dir.Rule() {
				n++
			}
		}
		if n > 2048 {
			p.ReportFile("%s rules; Yandex accepts at most 2,048", check.Thousands(int64(n)))
		}
	},
}

// skip reports whether the body is not to be read at all: the fetch
// ended without a 2xx status (only the fetch checks, RB1xx, report).
func skip(p *check.Pass) bool { return p.Fetch != nil && !p.Fetch.OK() }

// isText reports whether the line checks of RB2xx read the body: a 2xx
// (or local) body that is text, neither UTF-16/32 (RB202) nor binary
// (RB204).
func isText(p *check.Pass) bool { return !skip(p) && p.Text() }

// invalidAt returns the offset of the first byte of s that is not
// valid UTF-8, -1 when there is none.
func invalidAt(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return -1
}

// replace returns s with every character for which f says so
// replaced by what f returns. Bytes that are not UTF-8 stay as they are
// (strings.Map would turn them into U+FFFD).
func replace(s string, f func(rune) (string, bool)) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if repl, ok := f(r); ok && !(r == utf8.RuneError && size == 1) {
			b.WriteString(repl)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// eolOf returns line l's terminator: "\r\n", "\n", "\r" or "".
func eolOf(p *check.Pass, l *check.Line) string {
	end := l.Span.End.Offset
	return p.Src[end : end+l.EOL]
}

// lfEdits returns the edits that end every line with LF (FX03).
func lfEdits(p *check.Pass) []check.Edit {
	var edits []check.Edit
	for i := range p.Lines {
		l := &p.Lines[i]
		if eol := eolOf(p, l); eol == "\r\n" || eol == "\r" {
			end := l.Span.End.Offset
			edits = append(edits, check.Edit{Start: end, End: end + l.EOL, New: "\n"})
		}
	}
	return edits
}

// isControl reports whether r is a control character of RB210: C0
// but TAB (and VT and FF, which RB211 reports), DEL, and C1 but U+0085
// (RB211's).
func isControl(r rune) bool {
	switch {
	case r == '\t' || r == '\v' || r == '\f' || r == '\u0085':
		return false
	case r < 0x20, r == 0x7F, r >= 0x80 && r <= 0x9F:
		return true
	}
	return false
}

// isLineBreak reports whether r is a line break for some robots but
// not for others (RB211): U+0085, U+2028, U+2029 (crawler-commons, and
// Python's str.splitlines), VT and FF (Python's str.splitlines).
func isLineBreak(r rune) bool {
	return r == '\u0085' || r == '\u2028' || r == '\u2029' || r == '\v' || r == '\f'
}

// invisible names the invisible and non-ASCII white-space characters
// of RB212. A name ending in "space" (but not "zero width …") is a space
// the fix turns into U+0020; the others are dropped.
var invisible = map[rune]string{
	'\u00A0': "no-break space",
	'\u1680': "ogham space mark",
	'\u2000': "en quad space",
	'\u2001': "em quad space",
	'\u2002': "en space",
	'\u2003': "em space",
	'\u2004': "three-per-em space",
	'\u2005': "four-per-em space",
	'\u2006': "six-per-em space",
	'\u2007': "figure space",
	'\u2008': "punctuation space",
	'\u2009': "thin space",
	'\u200A': "hair space",
	'\u200B': "zero width space",
	'\u200C': "zero width non-joiner",
	'\u200D': "zero width joiner",
	'\u202F': "narrow no-break space",
	'\u205F': "medium mathematical space",
	'\u2060': "word joiner",
	'\u3000': "ideographic space",
	'\uFEFF': "zero width no-break space",
}

// codeOf returns the part of line l before its comment, and its
// offset: the text RB212 and RB213 look at. Blank and comment lines have
// none.
func codeOf(p *check.Pass, l *check.Line) (string, int) {
	if l.Kind != syntax.DirectiveLine && l.Kind != syntax.InvalidLine {
		return "", l.Span.Start.Offset
	}
	start, end := l.Span.Start.Offset, l.Span.End.Offset
	if l.Comment.IsValid() {
		end = l.Comment.Start.Offset
	}
	return p.Src[start:end], start
}

// suggestLine attaches the FX03 edit that replaces line l's text with
// fixed, in the class the edit earns: P when it touches only the comment,
// PG when Google's and RFC 9309's reading of the line stays the same
// (a key they read by prefix, say), I otherwise.
func suggestLine(p *check.Pass, d *check.Diagnostic, l *check.Line, fixed, msg string) {
	start, end := l.Span.Start.Offset, l.Span.End.Offset
	text := p.Src[start:end]
	if fixed == text {
		return
	}
	class := check.Intent
	switch {
	case l.Comment.IsValid() && text[:l.Comment.Start.Offset-start] == fixed[:min(len(fixed), l.Comment.Start.Offset-start)] &&
		sameReading(text, fixed):
		class = check.Preserving
	case sameReading(text, fixed):
		class = check.PreservingGoogle
	}
	d.Suggest("FX03", class, msg, check.Edit{Start: start, End: end, New: fixed})
}

// sameReading reports whether the lines a and b read the same for
// Google and RFC 9309 robots: the same kind of line, field, leniency and
// value.
func sameReading(a, b string) bool {
	fa, fb := syntax.Parse("", []byte(a)), syntax.Parse("", []byte(b))
	if len(fa.Lines) != 1 || len(fb.Lines) != 1 {
		return false
	}
	la, lb := &fa.Lines[0], &fb.Lines[0]
	const reading = syntax.Lenient | syntax.MissingColon
	if la.Kind != lb.Kind || la.Field != lb.Field || la.Flags&reading != lb.Flags&reading {
		return false
	}
	if la.Kind != syntax.DirectiveLine {
		return true
	}
	if la.Field == syntax.Unknown {
		return true // nobody we keep reads an unknown line
	}
	return fa.Text(la.Value) == fb.Text(lb.Value)
}

// logicalRedirect reports whether an HTML body redirects with a
// meta refresh or a script (RB205): robots follow neither.
func logicalRedirect(src string) bool {
	s := strings.ToLower(src[:min(len(src), 64<<10)])
	s = strings.NewReplacer(`"`, "", "'", "", " ", "").Replace(s)
	for _, sign := range []string{"http-equiv=refresh", "location.href=", "location.replace(", "location.assign(", "window.location="} {
		if strings.Contains(s, sign) {
			return true
		}
	}
	return false
}
