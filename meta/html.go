package meta

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// DefaultMaxBytes is how much of a page ReadHTML callers usually read:
// Googlebot for Google Search reads the first 2 MB of an HTML file (Google
// Search Central, "Googlebot", file size limits, updated February 2026).
const DefaultMaxBytes = 2 << 20

// Bounds on what a Document keeps.
const (
	maxLinks     = 1000 // links kept; the rest are counted
	maxMetas     = 256  // robots <meta> elements read
	maxText      = 600  // bytes of visible text kept as the excerpt
	maxTitle     = 512
	maxLinkText  = 120
	maxRegions   = 100
	maxDepth     = 1024 // open elements tracked
	maxNotes     = 50
	maxAttrValue = 4096 // bytes of a content attribute read
)

// A Document is what ReadHTML found in a page.
type Document struct {
	// Directives are those of the robots <meta> elements, in page order.
	Directives []Directive
	// Title is the text of the first <title>, whitespace collapsed.
	Title string
	// Canonical is the href of the first <link rel="canonical"> in the
	// head, as written; Base the href of <base>.
	Canonical, Base string
	// Refresh is the content of a <meta http-equiv="refresh">, which
	// Google follows as a redirect.
	Refresh string
	// TDMReservation and TDMPolicy are the contents of the first
	// <meta name="tdm-reservation"> and <meta name="tdm-policy"> (TDMRep,
	// #sec-tdm-html), as written; TDM reads them as a statement.
	TDMReservation, TDMPolicy string
	// Links are the <a href> elements, up to 1,000; LinkCount counts all.
	Links     []Link
	LinkCount int
	// Text is the start of the visible text a snippet may use: outside
	// script, style and data-nosnippet regions, whitespace collapsed.
	// TextBytes counts all of it, white space included.
	Text      string
	TextBytes int
	// NoSnippet are the data-nosnippet regions.
	NoSnippet []Region
	// Notes are problems with the page's robots markup: robots <meta>
	// outside the head, several canonical links, and so on.
	Notes []string
	// Bytes is how many bytes were read; Truncated is set when the page
	// had more than the limit.
	Bytes     int64
	Truncated bool
}

// A Link is an <a href> element.
type Link struct {
	Href string `json:"href"`
	// Rel is the rel attribute, lower-cased.
	Rel string `json:"rel,omitempty"`
	// NoFollow is set when rel has nofollow, ugc or sponsored: Google reads
	// all three as "do not follow" hints.
	NoFollow bool   `json:"nofollow"`
	Text     string `json:"text,omitempty"`
	Line     int    `json:"line"`
}

// A Region is an element with the data-nosnippet attribute.
type Region struct {
	Line int    `json:"line"`
	Tag  string `json:"tag"`
	// Text is the start of the text the region hides from snippets.
	Text string `json:"text,omitempty"`
	// Ignored is set when the element is not one Google honours the
	// attribute on (span, div, section).
	Ignored bool `json:"ignored,omitempty"`
}

// headElements may appear in <head>; any other start tag, or text that is
// not white space, ends the head as the HTML parsing algorithm does ("in
// head" insertion mode), and Google stops reading head elements there.
var headElements = map[string]bool{
	"html": true, "head": true, "meta": true, "link": true, "title": true, "base": true,
	"script": true, "style": true, "noscript": true, "template": true,
	"basefont": true, "bgsound": true, "noframes": true,
}

// voidElements have no end tag.
var voidElements = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true,
	"basefont": true, "bgsound": true, "keygen": true, "param": true, "frame": true,
}

// hiddenText are elements whose text is not visible.
var hiddenText = map[string]bool{"script": true, "style": true, "noscript": true, "template": true, "title": true, "head": true}

// notRobotNames are <meta> names that are never a robot's.
var notRobotNames = map[string]bool{
	"description": true, "keywords": true, "viewport": true, "author": true, "generator": true,
	"theme-color": true, "referrer": true, "application-name": true, "color-scheme": true,
	"format-detection": true, "copyright": true, "rating": true, "publisher": true,
	"google-site-verification": true, "msvalidate.01": true, "yandex-verification": true,
}

// ReadHTML reads at most limit bytes of an HTML page (UTF-8, or decoded to
// it by the caller) and returns its robots <meta> directives and what a
// robot sees of it. It never fails on bad HTML; the error is a read error.
func ReadHTML(r io.Reader, limit int64) (*Document, error) {
	cr := &countingReader{r: io.LimitReader(r, limit+1), limit: limit}
	z := html.NewTokenizer(cr)
	z.SetMaxBuf(int(min(limit+1, 64<<20)))
	s := scanner{doc: &Document{}, z: z, line: 1, inHead: true}
	err := s.run()
	s.doc.Bytes = min(cr.n, limit)
	s.doc.Truncated = cr.n > limit
	if err == io.EOF || err == html.ErrBufferExceeded {
		err = nil
	}
	return s.doc, err
}

// countingReader counts what it passes on and stops at limit bytes, while
// still reading one byte more to tell a truncated page.
type countingReader struct {
	r     io.Reader
	n     int64
	limit int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	if c.n >= c.limit {
		var one [1]byte
		n, err := c.r.Read(one[:])
		c.n += int64(n)
		if err == nil {
			err = io.EOF
		}
		return 0, err
	}
	if rest := c.limit - c.n; int64(len(p)) > rest {
		p = p[:rest]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// open is an element on the scanner's stack.
type open struct {
	name      string
	nosnippet int // index+1 of the region it opens, 0 if none
}

type scanner struct {
	doc    *Document
	z      *html.Tokenizer
	line   int
	inHead bool
	stack  []open
	// Current region, link and title being read.
	region  int // index+1 into doc.NoSnippet, 0 when outside
	link    int // index+1 into doc.Links of an open <a>, 0 when none
	inTitle bool
	// headEndedBy is the start tag that ended the head early, if any.
	headEndedBy string
	metas       int
	text        strings.Builder
	space       bool // a space is pending before the next visible text
}

func (s *scanner) run() error {
	for {
		tt := s.z.Next()
		startLine := s.line
		raw := s.z.Raw()
		s.line += bytes.Count(raw, []byte{'\n'})
		switch tt {
		case html.ErrorToken:
			s.finish()
			return s.z.Err()
		case html.TextToken:
			s.textToken(s.z.Text())
		case html.StartTagToken, html.SelfClosingTagToken:
			s.startTag(tt, startLine)
		case html.EndTagToken:
			name, _ := s.z.TagName()
			s.endTag(string(name))
		}
	}
}

func (s *scanner) finish() {
	s.doc.Text = s.text.String()
}

func (s *scanner) note(msg string) {
	if len(s.doc.Notes) < maxNotes {
		s.doc.Notes = append(s.doc.Notes, msg)
	}
}

func (s *scanner) hidden() bool {
	for i := len(s.stack) - 1; i >= 0; i-- {
		if hiddenText[s.stack[i].name] {
			return true
		}
	}
	return false
}

func (s *scanner) textToken(t []byte) {
	if s.inTitle {
		if len(s.doc.Title) < maxTitle {
			s.doc.Title = collapse(s.doc.Title + " " + string(t))
			s.doc.Title = clip(s.doc.Title, maxTitle)
		}
		return
	}
	if s.hidden() {
		return
	}
	if s.inHead && len(bytes.TrimSpace(t)) > 0 {
		s.inHead = false
	}
	if s.link > 0 {
		l := &s.doc.Links[s.link-1]
		if len(l.Text) < maxLinkText {
			l.Text = clip(collapse(l.Text+" "+string(t)), maxLinkText)
		}
	}
	if s.region > 0 {
		r := &s.doc.NoSnippet[s.region-1]
		if len(r.Text) < maxLinkText {
			r.Text = clip(collapse(r.Text+" "+string(t)), maxLinkText)
		}
		return
	}
	s.doc.TextBytes += len(t)
	if s.text.Len() >= maxText {
		return // counted; nothing more is kept
	}
	for _, f := range bytes.Fields(t) {
		if s.text.Len() >= maxText {
			break
		}
		if s.text.Len() > 0 {
			s.text.WriteByte(' ')
		}
		s.text.WriteString(clip(string(f), maxText-s.text.Len()))
	}
}

// attrs reads the attributes of the current tag that the scanner uses.
func (s *scanner) attrs(hasAttr bool) map[string]string {
	if !hasAttr {
		return nil
	}
	m := make(map[string]string, 4)
	for more := true; more; {
		var k, v []byte
		k, v, more = s.z.TagAttr()
		key := string(k)
		switch key {
		case "name", "content", "value", "http-equiv", "rel", "href", "data-nosnippet":
			if _, dup := m[key]; !dup {
				if len(v) > maxAttrValue {
					v = v[:maxAttrValue]
				}
				m[key] = string(v)
			}
		}
	}
	return m
}

func (s *scanner) startTag(tt html.TokenType, line int) {
	nameB, hasAttr := s.z.TagName()
	name := string(nameB)
	a := s.attrs(hasAttr)
	if s.inHead && !headElements[name] {
		s.inHead = false
		if name != "body" {
			s.headEndedBy = name
		}
	}
	switch name {
	case "body":
		s.inHead = false
	case "meta":
		s.meta(a, line)
	case "title":
		if s.doc.Title == "" && tt == html.StartTagToken {
			s.inTitle = true
		}
	case "base":
		if s.doc.Base == "" {
			s.doc.Base = strings.TrimSpace(a["href"])
		}
	case "link":
		if hasRel(a["rel"], "canonical") {
			switch {
			case !s.inHead:
				s.note("line " + strconv.Itoa(line) + ": rel=canonical outside <head> is ignored by Google")
			case s.doc.Canonical == "":
				s.doc.Canonical = strings.TrimSpace(a["href"])
			default:
				s.note("line " + strconv.Itoa(line) + ": a second rel=canonical; Google may ignore both")
			}
		}
	case "a":
		if href, ok := a["href"]; ok {
			s.doc.LinkCount++
			if len(s.doc.Links) < maxLinks {
				rel := strings.ToLower(strings.Join(strings.Fields(a["rel"]), " "))
				s.doc.Links = append(s.doc.Links, Link{Href: strings.TrimSpace(href), Rel: rel, Line: line,
					NoFollow: hasRel(rel, "nofollow") || hasRel(rel, "ugc") || hasRel(rel, "sponsored")})
				if tt == html.StartTagToken {
					s.link = len(s.doc.Links)
				}
			}
		}
	}
	if tt == html.SelfClosingTagToken || voidElements[name] {
		return
	}
	o := open{name: name}
	if _, ok := a["data-nosnippet"]; ok && s.region == 0 && len(s.doc.NoSnippet) < maxRegions {
		// Google honours data-nosnippet on span, div and section only.
		ignored := name != "span" && name != "div" && name != "section"
		s.doc.NoSnippet = append(s.doc.NoSnippet, Region{Line: line, Tag: name, Ignored: ignored})
		if !ignored {
			s.region = len(s.doc.NoSnippet)
			o.nosnippet = s.region
		}
	}
	if len(s.stack) < maxDepth {
		s.stack = append(s.stack, o)
	}
}

func (s *scanner) endTag(name string) {
	switch name {
	case "head":
		s.inHead = false
	case "title":
		s.inTitle = false
	case "a":
		s.link = 0
	}
	for i := len(s.stack) - 1; i >= 0; i-- {
		if s.stack[i].name != name {
			continue
		}
		for _, o := range s.stack[i:] {
			if o.nosnippet > 0 && o.nosnippet == s.region {
				s.region = 0
			}
		}
		s.stack = s.stack[:i]
		return
	}
}

func (s *scanner) meta(a map[string]string, line int) {
	if strings.EqualFold(strings.TrimSpace(a["http-equiv"]), "refresh") && s.doc.Refresh == "" {
		s.doc.Refresh = strings.TrimSpace(a["content"])
		return
	}
	name := strings.ToLower(strings.TrimSpace(a["name"]))
	switch name {
	case "tdm-reservation":
		if s.doc.TDMReservation == "" {
			s.doc.TDMReservation = strings.TrimSpace(a["content"])
		}
		return
	case "tdm-policy":
		if s.doc.TDMPolicy == "" {
			s.doc.TDMPolicy = strings.TrimSpace(a["content"])
		}
		return
	}
	if name == "" || notRobotNames[name] || !isProductToken(name) {
		return
	}
	content, ok := a["content"]
	viaValue := false
	if !ok {
		if content, ok = a["value"]; !ok {
			return
		}
		viaValue = true
	}
	robot := name
	if name == "robots" {
		robot = ""
	}
	s.metas++
	ds := parseList(content, robot, Meta, s.metas, line, false)
	if robot != "" && !anyKnown(ds) {
		// <meta name="foo" content="bar">: not a robots meta at all.
		s.metas--
		return
	}
	if s.metas > maxMetas {
		return
	}
	if len(ds) == 0 {
		ds = []Directive{{Name: "", Robot: robot, Source: Meta, Field: s.metas, Line: line,
			Problem: "empty content: the tag says nothing", kind: kUnknown}}
	}
	for i := range ds {
		var extra []string
		if viaValue {
			extra = append(extra, "written in a value attribute; robots read content=\"…\"")
		}
		if !s.inHead {
			where := "outside <head>"
			if s.headEndedBy != "" {
				where += " (the head ended at <" + s.headEndedBy + ">, which may not appear there)"
			}
			extra = append(extra, where+": draft-illyes-repext-00 §4 tells robots to read only the head's meta elements, so some ignore it")
		}
		if len(extra) > 0 {
			p := strings.Join(extra, "; ")
			if ds[i].Problem != "" {
				p = ds[i].Problem + "; " + p
			}
			ds[i].Problem = p
		}
	}
	s.doc.Directives = append(s.doc.Directives, ds...)
}

func anyKnown(ds []Directive) bool {
	for _, d := range ds {
		if d.kind != kUnknown {
			return true
		}
	}
	return false
}

// hasRel reports whether the space-separated rel list has v.
func hasRel(rel, v string) bool {
	for f := range strings.FieldsSeq(rel) {
		if strings.EqualFold(f, v) {
			return true
		}
	}
	return false
}

// collapse trims s and turns every run of white space into one space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip cuts s to at most n bytes at a character boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
