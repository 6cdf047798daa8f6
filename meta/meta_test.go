package meta

import (
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// flags is a Verdict's booleans and limits in a comparable form.
type flags struct {
	NoIndex, NoFollow, NoArchive, NoSnippet, NoTranslate, NoImageIndex, IndexIfEmbedded bool
	MaxSnippet, MaxVideo                                                                int
	Image                                                                               Preview
	Until                                                                               string
}

func flagsOf(v Verdict) flags {
	f := flags{v.NoIndex, v.NoFollow, v.NoArchive, v.NoSnippet, v.NoTranslate, v.NoImageIndex, v.IndexIfEmbedded,
		v.MaxSnippet, v.MaxVideoPreview, v.MaxImagePreview, ""}
	if !v.UnavailableAfter.IsZero() {
		f.Until = v.UnavailableAfter.Format(time.RFC3339)
	}
	return f
}

// none is a Verdict with nothing restricted.
var open0 = flags{MaxSnippet: -1, MaxVideo: -1}

func with(mod func(*flags)) flags {
	f := open0
	mod(&f)
	return f
}

// TestGoogleTable has one case per row of the "Valid indexing & serving
// directives" table of Google's robots meta tag documentation (as older
// guides quote it), read from a robots <meta> content, plus the
// directives Google documents beyond it.
func TestGoogleTable(t *testing.T) {
	tests := []struct {
		content string
		want    flags
		problem bool // the directive is noted (obsolete, ignored)
	}{
		// "all: There are no restrictions … has no effect if explicitly listed."
		{"all", open0, false},
		// "noindex: Do not show this page in search results …"
		{"noindex", with(func(f *flags) { f.NoIndex = true }), false},
		// "nofollow: Do not follow the links on this page"
		{"nofollow", with(func(f *flags) { f.NoFollow = true }), false},
		// "none: Equivalent to noindex, nofollow"
		{"none", with(func(f *flags) { f.NoIndex, f.NoFollow = true, true }), false},
		// "noarchive: Do not show a "Cached" link …"
		{"noarchive", with(func(f *flags) { f.NoArchive = true }), false},
		// "nosnippet: Do not show a snippet …"
		{"nosnippet", with(func(f *flags) { f.NoSnippet = true }), false},
		// "noodp": the Open Directory closed; known, no effect.
		{"noodp", open0, true},
		// "notranslate: Do not offer translation …"
		{"notranslate", with(func(f *flags) { f.NoTranslate = true }), false},
		// "noimageindex: Do not index images on this page."
		{"noimageindex", with(func(f *flags) { f.NoImageIndex = true }), false},
		// "unavailable_after: [RFC-850 date/time]"
		{"unavailable_after: Monday, 25-Jun-35 15:00:00 GMT", with(func(f *flags) { f.Until = "2035-06-25T15:00:00Z" }), false},
		// Beyond that table: Bing's nocache = noarchive; Yahoo's noydir;
		// Google's limits and indexifembedded.
		{"nocache", with(func(f *flags) { f.NoArchive = true }), false},
		{"noydir", open0, true},
		{"max-snippet:50", with(func(f *flags) { f.MaxSnippet = 50 }), false},
		{"max-snippet:0", with(func(f *flags) { f.MaxSnippet = 0; f.NoSnippet = true }), false},
		{"max-snippet:-1", open0, false},
		{"max-image-preview:standard", with(func(f *flags) { f.Image = PreviewStandard }), false},
		{"max-video-preview:0", with(func(f *flags) { f.MaxVideo = 0 }), false},
		{"noindex, indexifembedded", with(func(f *flags) { f.NoIndex, f.IndexIfEmbedded = true, true }), false},
	}
	for _, tt := range tests {
		doc := readHTML(t, `<html><head><meta name="robots" content="`+tt.content+`"></head><body>x</body></html>`)
		v := For(doc.Directives, "Googlebot")
		if got := flagsOf(v); got != tt.want {
			t.Errorf("%q: got %+v, want %+v", tt.content, got, tt.want)
		}
		noted := false
		for _, d := range doc.Directives {
			noted = noted || d.Problem != ""
			if !d.Known() {
				t.Errorf("%q: directive %q not known", tt.content, d.Name)
			}
		}
		if noted != tt.problem {
			t.Errorf("%q: problem noted = %v, want %v (%+v)", tt.content, noted, tt.problem, doc.Directives)
		}
	}
}

// TestGoogleCombined is "Handling combined indexing and serving
// directives" of Google's robots meta tag documentation: a comma list, and
// the per-robot example where Googlebot reads "noindex, nofollow" and
// every other robot "nofollow".
func TestGoogleCombined(t *testing.T) {
	doc := readHTML(t, `<meta name="robots" content="noindex, nofollow">`)
	if got := flagsOf(For(doc.Directives, "AnyBot")); got != with(func(f *flags) { f.NoIndex, f.NoFollow = true, true }) {
		t.Errorf("combined list: %+v", got)
	}
	doc = readHTML(t, `<meta name="robots" content="nofollow">
<meta name="googlebot" content="noindex">`)
	if got := flagsOf(For(doc.Directives, "Googlebot")); got != with(func(f *flags) { f.NoIndex, f.NoFollow = true, true }) {
		t.Errorf("Googlebot: %+v, want noindex, nofollow", got)
	}
	if got := flagsOf(For(doc.Directives, "bingbot")); got != with(func(f *flags) { f.NoFollow = true }) {
		t.Errorf("bingbot: %+v, want nofollow only", got)
	}
	// A robot reads the tags of every token of its chain.
	if got := flagsOf(For(doc.Directives, "Googlebot-News", "Googlebot")); !got.NoIndex {
		t.Errorf("Googlebot-News → Googlebot chain: %+v, want noindex", got)
	}
}

func TestCombination(t *testing.T) {
	tests := []struct {
		name    string
		content string
		want    flags
		note    string
	}{
		{"case", "NoIndex, NOFOLLOW", with(func(f *flags) { f.NoIndex, f.NoFollow = true, true }), ""},
		{"spaces", "  noindex ,\tnofollow  ,,", with(func(f *flags) { f.NoIndex, f.NoFollow = true, true }), ""},
		{"duplicates", "noindex, noindex", with(func(f *flags) { f.NoIndex = true }), ""},
		{"index loses", "index, noindex", with(func(f *flags) { f.NoIndex = true }), "index and noindex"},
		{"follow loses", "nofollow, follow", with(func(f *flags) { f.NoFollow = true }), "follow and nofollow"},
		{"all lifts nothing", "all, nosnippet", with(func(f *flags) { f.NoSnippet = true }), `"all" lifts nothing`},
		{"smaller snippet", "max-snippet:50, max-snippet:20", with(func(f *flags) { f.MaxSnippet = 20 }), ""},
		{"no limit loses", "max-snippet:-1, max-snippet:30", with(func(f *flags) { f.MaxSnippet = 30 }), ""},
		{"nosnippet beats max-snippet", "max-snippet:50, nosnippet", with(func(f *flags) { f.MaxSnippet = 50; f.NoSnippet = true }), "nosnippet and max-snippet"},
		{"smaller preview", "max-image-preview:large, max-image-preview:none", with(func(f *flags) { f.Image = PreviewNone }), ""},
		{"earlier date", "unavailable_after: 2040-01-01, unavailable_after: 2035-01-01", with(func(f *flags) { f.Until = "2035-01-01T00:00:00Z" }), ""},
		{"indexifembedded alone", "indexifembedded", with(func(f *flags) { f.IndexIfEmbedded = true }), "only together with noindex"},
		{"spaced value", "max-snippet : 12", with(func(f *flags) { f.MaxSnippet = 12 }), ""},
	}
	for _, tt := range tests {
		ds := ParseXRobotsTag(tt.content)
		v := For(ds, "Googlebot")
		if got := flagsOf(v); got != tt.want {
			t.Errorf("%s: %q: got %+v, want %+v", tt.name, tt.content, got, tt.want)
		}
		notes := strings.Join(v.Notes, "|")
		if tt.note == "" && notes != "" || !strings.Contains(notes, tt.note) {
			t.Errorf("%s: notes %q, want %q", tt.name, notes, tt.note)
		}
	}
}

func TestMalformed(t *testing.T) {
	tests := []struct {
		in      string
		problem string
	}{
		{"max-snippet:abc", "whole number"},
		{"max-snippet:-5", "whole number"},
		{"max-snippet", "needs a value"},
		{"max-image-preview:huge", "none, standard or large"},
		{"unavailable_after: next tuesday", "unreadable date"},
		{"unavailable_after: 2035-13-45", "unreadable date"},
		{"unavailable_after:", "needs a value"},
		{"noindex: yes", "takes no value"},
		{"noai", "unknown directive"},
	}
	for _, tt := range tests {
		ds := ParseXRobotsTag(tt.in)
		if len(ds) != 1 {
			t.Fatalf("%q: %d directives", tt.in, len(ds))
		}
		if !strings.Contains(ds[0].Problem, tt.problem) {
			t.Errorf("%q: problem %q, want %q", tt.in, ds[0].Problem, tt.problem)
		}
		if ds[0].Known() {
			t.Errorf("%q: Known() = true for an ignored directive", tt.in)
		}
		if got := flagsOf(For(ds, "Googlebot")); got != open0 {
			t.Errorf("%q: an ignored directive took effect: %+v", tt.in, got)
		}
	}
}

func TestDates(t *testing.T) {
	tests := []struct{ in, want, note string }{
		{"Monday, 25-Jun-35 15:00:00 GMT", "2035-06-25T15:00:00Z", ""},   // RFC 850, as Google's older guides ask
		{"Monday, 25-Jun-2035 15:00:00 GMT", "2035-06-25T15:00:00Z", ""}, // four-digit year
		{"Mon, 25 Jun 2035 15:00:00 GMT", "2035-06-25T15:00:00Z", ""},    // RFC 1123
		{"Mon, 25 Jun 35 15:00 EST", "2035-06-25T20:00:00Z", ""},         // RFC 822
		{"25 Jun 2010 15:00:00 PST", "2010-06-25T23:00:00Z", ""},         // Google's own example
		{"25-Jun-2010 15:00:00 EDT", "2010-06-25T19:00:00Z", ""},
		{"2035-06-25", "2035-06-25T00:00:00Z", "no time zone"}, // ISO 8601
		{"2035-06-25T15:00:00Z", "2035-06-25T15:00:00Z", ""},
		{"2035-06-25T15:00:00+02:00", "2035-06-25T13:00:00Z", ""},
		{"2035-06-25T15:00:00.5Z", "2035-06-25T15:00:00.5Z", ""},
		{"Mon Jun 25 15:00:00 2035", "2035-06-25T15:00:00Z", "no time zone"}, // asctime
		{"Monday, 25-Jun-2035 15:00:00", "2035-06-25T15:00:00Z", "no time zone"},
		{"25 Jun 2035 15:00:00 IST", "2035-06-25T15:00:00Z", "unknown time zone"},
		{"monday, 25-jun-2035 15:00:00 gmt", "2035-06-25T15:00:00Z", ""},
		{"  25   Jun 2035  15:00:00   GMT ", "2035-06-25T15:00:00Z", ""},
	}
	for _, tt := range tests {
		got, note, ok := parseDate(tt.in)
		if !ok {
			t.Errorf("%q: not read", tt.in)
			continue
		}
		if s := got.Format(time.RFC3339Nano); s != tt.want {
			t.Errorf("%q: %s, want %s", tt.in, s, tt.want)
		}
		if tt.note == "" && note != "" || !strings.Contains(note, tt.note) {
			t.Errorf("%q: note %q, want %q", tt.in, note, tt.note)
		}
	}
	for _, bad := range []string{"", "soon", "32-Jun-2035 10:00:00 GMT", "2035/06/25", strings.Repeat("9", 100)} {
		if _, _, ok := parseDate(bad); ok {
			t.Errorf("%q: read as a date", bad)
		}
	}
}

func TestXRobotsTag(t *testing.T) {
	h := http.Header{}
	h.Add("X-Robots-Tag", "googlebot: noindex, nofollow")
	h.Add("X-Robots-Tag", "otherbot: noarchive")
	h.Add("x-robots-tag", "nosnippet")
	h.Add("X-Robots-Tag", "unavailable_after: Monday, 25-Jun-2035 15:00:00 GMT")
	h.Add("X-Robots-Tag", "BingBot: unavailable_after: 1 Jan 2030 00:00:00 GMT, max-snippet: 10")
	ds := FromHeader(h)
	if len(ds) != 7 {
		t.Fatalf("%d directives: %+v", len(ds), ds)
	}
	var robots []string
	for _, d := range ds {
		robots = append(robots, d.Robot+"/"+d.Name)
	}
	want := []string{"googlebot/noindex", "googlebot/nofollow", "otherbot/noarchive", "/nosnippet",
		"/unavailable_after", "bingbot/unavailable_after", "bingbot/max-snippet"}
	if !reflect.DeepEqual(robots, want) {
		t.Errorf("robots/names:\n got %q\nwant %q", robots, want)
	}
	g := flagsOf(For(ds, "Googlebot"))
	if !g.NoIndex || !g.NoFollow || g.NoArchive || !g.NoSnippet || g.Until != "2035-06-25T15:00:00Z" || g.MaxSnippet != -1 {
		t.Errorf("Googlebot: %+v", g)
	}
	b := flagsOf(For(ds, "bingbot"))
	if b.NoIndex || b.NoFollow || !b.NoSnippet || b.Until != "2030-01-01T00:00:00Z" || b.MaxSnippet != 10 {
		t.Errorf("bingbot: %+v", b)
	}
	o := flagsOf(For(ds, "OtherBot"))
	if o.NoIndex || !o.NoArchive {
		t.Errorf("OtherBot: %+v", o)
	}
	// The prefix of a valued directive is never a robot.
	for _, d := range ParseXRobotsTag("max-snippet: 20", "max-image-preview:large") {
		if d.Robot != "" || !d.Known() {
			t.Errorf("%q read as robot %q", d.Text, d.Robot)
		}
	}
}

// TestRobotsTag follows draft-illyes-repext-00 §2.1.1's two examples.
func TestRobotsTag(t *testing.T) {
	for _, v := range []string{"*=noindex, nosnippet; ExampleBot=;", "noindex, nosnippet; ExampleBot=;"} {
		ds := ParseRobotsTag(v)
		if got := flagsOf(For(ds, "OtherBot")); !got.NoIndex || !got.NoSnippet {
			t.Errorf("%q: OtherBot %+v, want noindex, nosnippet", v, got)
		}
		if got := flagsOf(For(ds, "examplebot")); got != open0 {
			t.Errorf("%q: ExampleBot %+v, want no rules", v, got)
		}
	}
	ds := ParseRobotsTag("*=noindex; ExampleBot=nosnippet; ExampleBot=nofollow")
	got := flagsOf(For(ds, "ExampleBot"))
	if got.NoIndex || !got.NoSnippet || !got.NoFollow {
		t.Errorf("merged ExampleBot entries: %+v", got)
	}
	// A Robots-Tag naming a robot does not cancel another source's rules.
	ds = append(ParseXRobotsTag("noindex"), ParseRobotsTag("ExampleBot=")...)
	if got := flagsOf(For(ds, "ExampleBot")); !got.NoIndex {
		t.Errorf("X-Robots-Tag noindex lost to Robots-Tag: %+v", got)
	}
}

func TestHeaderBounds(t *testing.T) {
	long := strings.Repeat("noindex, ", MaxHeaderValue/9+100)
	ds := ParseXRobotsTag(long)
	if n := len(ds); n == 0 || n > MaxHeaderValue/8 {
		t.Fatalf("%d directives from a %d-byte value", n, len(long))
	}
	if !strings.Contains(ds[len(ds)-1].Problem, "cut after 16 KiB") {
		t.Errorf("last directive: %+v", ds[len(ds)-1])
	}
	many := make([]string, 1000)
	for i := range many {
		many[i] = "nofollow"
	}
	if n := len(ParseXRobotsTag(many...)); n != MaxHeaderFields {
		t.Errorf("%d directives from 1000 fields, want %d", n, MaxHeaderFields)
	}
}

func readHTML(t *testing.T, page string) *Document {
	t.Helper()
	doc, err := ReadHTML(strings.NewReader(page), DefaultMaxBytes)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}
