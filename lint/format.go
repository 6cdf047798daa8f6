package lint

import "strings"

// Checks of the encoding and format of the body (checker-rules §B, RB2xx).
var formatChecks = []*Check{rb201}

var rb201 = &Check{
	Code: "RB201", Name: "utf8-bom", Title: "UTF-8 byte-order mark",
	Severity: Warning, Affects: []Family{FM},
	Doc: "The file starts with the bytes EF BB BF, a UTF-8 byte-order mark. Google " +
		"and crawler-commons skip it, but parsers that do not (older CPython among " +
		"them) read the first line as an unknown key such as \"\\ufeffUser-agent\" and " +
		"lose the group it starts. RFC 9309's grammar has no place for it. Save the " +
		"file as UTF-8 without a BOM.",
	Before: "\uFEFFUser-agent: *\nDisallow: /private\n",
	After:  "User-agent: *\nDisallow: /private\n",
	Fix:    "FX01",
	run: func(p *pass) {
		if p.file.BOM != "\xEF\xBB\xBF" || len(p.lines) == 0 {
			return
		}
		l := &p.lines[0]
		d := p.reportAt(l, 0, "File starts with a UTF-8 BOM")
		d.Column = 1 // the BOM itself, which columns do not count
		d.suggest("FX01", Preserving, "drop the byte-order mark", Edit{Start: 0, End: 3})
	},
}

// isHTML reports whether the body is an HTML document rather than a
// robots.txt: it holds a "<!doctype html", "<html", "<head" or "<body" tag
// (checker-rules RB205).
func isHTML(src string) bool {
	s := strings.ToLower(src[:min(len(src), 64<<10)])
	for _, tag := range []string{"<!doctype html", "<html", "<head", "<body"} {
		for i := 0; ; {
			j := strings.Index(s[i:], tag)
			if j < 0 {
				break
			}
			k := i + j + len(tag)
			if k == len(s) || s[k] == '>' || s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r' || s[k] == '\f' {
				return true
			}
			i = k
		}
	}
	return false
}

// isBinary reports whether the body is not text: a NUL byte, a known
// binary signature (gzip, PNG, PDF, ZIP), or more than 10 % C0 controls
// other than TAB, CR and LF (checker-rules RB204). UTF-16 and UTF-32
// text, NUL-interleaved, counts too: no robot reading it as UTF-8 finds a
// line in it.
func isBinary(src string) bool {
	for _, magic := range []string{"\x1F\x8B", "\x89PNG", "%PDF", "PK\x03\x04"} {
		if strings.HasPrefix(src, magic) {
			return true
		}
	}
	if strings.IndexByte(src, 0) >= 0 {
		return true
	}
	ctl := 0
	for i := 0; i < len(src); i++ {
		if c := src[i]; c < 0x20 && c != '\t' && c != '\r' && c != '\n' {
			ctl++
		}
	}
	return len(src) > 0 && ctl*10 > len(src)
}

// formatTodo lists the checks of this section not implemented, with the reason.
var formatTodo = map[string]string{
	"RB202": "not written yet",
	"RB203": "not written yet",
	"RB204": "not written yet",
	"RB205": "not written yet",
	"RB206": "not written yet",
	"RB207": "not written yet",
	"RB208": "not written yet",
	"RB209": "not written yet",
	"RB210": "not written yet",
	"RB211": "not written yet",
	"RB212": "not written yet",
	"RB213": "not written yet",
	"RB214": "not written yet",
}
