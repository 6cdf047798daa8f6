package meta

import (
	"io"
	"strings"
	"testing"
)

const page = `<!DOCTYPE html>
<html><head>
<title>  Hello
  world </title>
<meta name="ROBOTS" content="NoArchive">
<meta name="description" content="none of your business">
<meta name="googlebot" content="nosnippet, max-image-preview:none">
<meta name="viewport" content="width=device-width">
<meta name="robots" value="noindex" />
<link rel="canonical" href="https://example.com/hello">
<base href="https://example.com/">
</head>
<body>
<p>Visible   text,
here.</p>
<script>var hidden = "not text";</script>
<div data-nosnippet>secret <b>bits</b></div>
<p data-nosnippet>p is not honoured</p>
<a href="/a">First</a> <a href="/b" rel="NoFollow">Second</a>
<a href="/c" rel="ugc noopener">Third</a><a name="x">no href</a>
<meta name="bingbot" content="noindex">
<link rel="canonical" href="/late">
</body></html>`

func TestReadHTML(t *testing.T) {
	doc := readHTML(t, page)
	if doc.Title != "Hello world" {
		t.Errorf("title %q", doc.Title)
	}
	if doc.Canonical != "https://example.com/hello" || doc.Base != "https://example.com/" {
		t.Errorf("canonical %q base %q", doc.Canonical, doc.Base)
	}
	var got []string
	for _, d := range doc.Directives {
		got = append(got, d.Robot+"/"+d.Name)
	}
	want := "/noarchive googlebot/nosnippet googlebot/max-image-preview /noindex bingbot/noindex"
	if strings.Join(got, " ") != want {
		t.Errorf("directives %q, want %q", strings.Join(got, " "), want)
	}
	lines := []int{5, 7, 7, 9, 21}
	for i, d := range doc.Directives {
		if d.Line != lines[i] {
			t.Errorf("directive %d %q on line %d, want %d", i, d.Text, d.Line, lines[i])
		}
	}
	// The value="…" form some published examples use is read, with a note.
	if p := doc.Directives[3].Problem; !strings.Contains(p, "value attribute") {
		t.Errorf("value= problem %q", p)
	}
	// A robots meta in the body is noted.
	if p := doc.Directives[4].Problem; !strings.Contains(p, "outside <head>") {
		t.Errorf("body meta problem %q", p)
	}
	if doc.Text != "Visible text, here. p is not honoured First Second Third no href" {
		t.Errorf("text %q", doc.Text)
	}
	if len(doc.NoSnippet) != 2 || doc.NoSnippet[0].Text != "secret bits" || doc.NoSnippet[0].Ignored ||
		doc.NoSnippet[1].Tag != "p" || !doc.NoSnippet[1].Ignored || doc.NoSnippet[0].Line != 17 {
		t.Errorf("nosnippet regions %+v", doc.NoSnippet)
	}
	if len(doc.Links) != 3 || doc.LinkCount != 3 {
		t.Fatalf("links %+v", doc.Links)
	}
	if l := doc.Links[1]; l.Href != "/b" || !l.NoFollow || l.Rel != "nofollow" || l.Text != "Second" || l.Line != 19 {
		t.Errorf("link 2 %+v", l)
	}
	if l := doc.Links[2]; !l.NoFollow || l.Rel != "ugc noopener" {
		t.Errorf("link 3 %+v", l)
	}
	if doc.Links[0].NoFollow {
		t.Errorf("link 1 %+v", doc.Links[0])
	}
	if len(doc.Notes) != 1 || !strings.Contains(doc.Notes[0], "outside <head>") {
		t.Errorf("notes %q", doc.Notes)
	}
	g := For(doc.Directives, "Googlebot")
	if !g.NoIndex || !g.NoArchive || !g.NoSnippet || g.MaxImagePreview != PreviewNone {
		t.Errorf("Googlebot %+v", flagsOf(g))
	}
}

// TestHeadEndsEarly: an element that may not be in <head> ends it, as the
// HTML parser does; robots meta after it are outside the head.
func TestHeadEndsEarly(t *testing.T) {
	doc := readHTML(t, `<html><head><meta name="robots" content="nofollow"><img src=x.png><meta name="robots" content="noindex"></head></html>`)
	if len(doc.Directives) != 2 || doc.Directives[0].Problem != "" ||
		!strings.Contains(doc.Directives[1].Problem, "the head ended at <img>") {
		t.Errorf("%+v", doc.Directives)
	}
}

func TestMetaEdgeCases(t *testing.T) {
	tests := []struct {
		name, page string
		n          int
		problem    string
	}{
		{"empty content", `<meta name="robots" content="">`, 1, "empty content"},
		{"no content", `<meta name="robots">`, 0, ""},
		{"unknown in robots", `<meta name="robots" content="noai">`, 1, "unknown directive"},
		{"unrelated name", `<meta name="foo" content="bar">`, 0, ""},
		{"refresh", `<meta http-equiv="refresh" content="0; url=/x">`, 0, ""},
		{"duplicate attr", `<meta name="robots" content="noindex" content="all">`, 1, ""},
		{"entity", `<meta name="robots" content="no&#105;ndex">`, 1, ""},
		{"unquoted", `<meta name=robots content=noindex>`, 1, ""},
	}
	for _, tt := range tests {
		doc := readHTML(t, tt.page)
		if len(doc.Directives) != tt.n {
			t.Errorf("%s: %d directives %+v", tt.name, len(doc.Directives), doc.Directives)
			continue
		}
		if tt.n > 0 && !strings.Contains(doc.Directives[0].Problem, tt.problem) {
			t.Errorf("%s: problem %q", tt.name, doc.Directives[0].Problem)
		}
	}
	if doc := readHTML(t, `<meta http-equiv="Refresh" content="0; url=/x">`); doc.Refresh != "0; url=/x" {
		t.Errorf("refresh %q", doc.Refresh)
	}
	if doc := readHTML(t, `<meta name="robots" content="no&#105;ndex">`); !For(doc.Directives).NoIndex {
		t.Error("entity-encoded noindex not read")
	}
}

// TestReadHTMLBound: a page larger than the limit is read only to it, and
// a directive after the limit is not seen.
func TestReadHTMLBound(t *testing.T) {
	const limit = 64 << 10
	r := io.MultiReader(strings.NewReader("<html><head><title>big</title></head><body>"),
		&repeat{s: "<p>filler text</p>\n", n: 10 << 20},
		strings.NewReader(`<meta name="robots" content="noindex">`))
	doc, err := ReadHTML(r, limit)
	if err != nil {
		t.Fatal(err)
	}
	if !doc.Truncated || doc.Bytes != limit {
		t.Errorf("truncated %v bytes %d", doc.Truncated, doc.Bytes)
	}
	if len(doc.Directives) != 0 || doc.Title != "big" {
		t.Errorf("directives %+v title %q", doc.Directives, doc.Title)
	}
	if len(doc.Text) > maxText || doc.TextBytes == 0 {
		t.Errorf("text %d bytes kept, %d counted", len(doc.Text), doc.TextBytes)
	}
	// Exactly the limit is not truncated.
	doc, _ = ReadHTML(strings.NewReader(strings.Repeat("a", 100)), 100)
	if doc.Truncated || doc.Bytes != 100 {
		t.Errorf("exact: truncated %v bytes %d", doc.Truncated, doc.Bytes)
	}
}

// repeat yields s until n bytes have been given.
type repeat struct {
	s string
	n int
	i int
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, io.EOF
	}
	k := 0
	for k < len(p) && r.n > 0 {
		c := copy(p[k:], r.s[r.i:])
		r.i = (r.i + c) % len(r.s)
		k += c
		r.n -= c
	}
	return k, nil
}

func TestManyLinks(t *testing.T) {
	var b strings.Builder
	for range 1500 {
		b.WriteString(`<a href="/x" rel=nofollow>x</a>`)
	}
	doc := readHTML(t, b.String())
	if len(doc.Links) != maxLinks || doc.LinkCount != 1500 {
		t.Errorf("%d links kept, %d counted", len(doc.Links), doc.LinkCount)
	}
}

func FuzzReadHTML(f *testing.F) {
	f.Add(page)
	f.Add(`<meta name=robots content="unavailable_after: Monday, 25-Jun-35 15:00:00 GMT, max-snippet:3">`)
	f.Add(`<div data-nosnippet><div><a href=x>y</a></div></div><span data-nosnippet>`)
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := ReadHTML(strings.NewReader(s), 4096)
		if err != nil {
			t.Fatal(err)
		}
		v := For(doc.Directives, "Googlebot")
		if v.MaxSnippet < -1 || v.MaxVideoPreview < -1 {
			t.Fatalf("limits %+v", v)
		}
		if doc.Bytes > 4096 || len(doc.Text) > maxText || len(doc.Links) > maxLinks {
			t.Fatalf("bounds: %d bytes, %d text, %d links", doc.Bytes, len(doc.Text), len(doc.Links))
		}
	})
}

func FuzzHeader(f *testing.F) {
	f.Add("googlebot: noindex, unavailable_after: Monday, 25-Jun-2035 15:00:00 GMT")
	f.Add("*=noindex, nosnippet; ExampleBot=;")
	f.Fuzz(func(t *testing.T, s string) {
		ds := append(ParseXRobotsTag(s), ParseRobotsTag(s)...)
		for _, d := range ds {
			if d.Name != strings.ToLower(d.Name) || d.Robot != strings.ToLower(d.Robot) {
				t.Fatalf("not lower case: %+v", d)
			}
		}
		For(ds, "Googlebot", "examplebot")
	})
}
