package robots_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/robotskit/robots"
)

// TestExtensions reads the extended directives (Crawl-delay of Bing and
// Yandex; Request-rate, Visit-time and Robot-version of Sean Conner's
// extended standard) per group, and Yandex's file-wide Host and
// Clean-param.
func TestExtensions(t *testing.T) {
	const src = `Sitemap: https://example.com/a.xml
User-agent: *
Disallow: /private
Crawl-delay: 2.5
Request-rate: 1/30
Visit-time: 2300-0430
Robot-version: 2.0

User-agent: Yandex
Disallow: /y
Crawl-delay: nonsense
Request-rate: 10/1m 0600-0845
Clean-param: ref&utm_source /forum/
Host: www.example.com

User-agent: yandex
Crawl-delay: 4
Host: second.example.com
Clean-param: bad&&param
Sitemap: https://example.com/b.xml
`
	r := robots.Parse([]byte(src), robots.Google)

	g, ok := r.Group(robots.Token("ExampleBot"))
	if !ok || !g.Global || !reflect.DeepEqual(g.Lines, []int{2}) {
		t.Fatalf("Group(ExampleBot) = %+v, %v; want the * group at line 2", g, ok)
	}
	if d, ok := g.CrawlDelay(); d != 2500*time.Millisecond || !ok {
		t.Errorf("CrawlDelay = %v, %v; want 2.5s", d, ok)
	}
	if rr, ok := g.RequestRate(); !ok || rr.Requests != 1 || rr.Per != 30*time.Second || !rr.Window.IsZero() {
		t.Errorf("RequestRate = %+v, %v; want 1 per 30s", rr, ok)
	}
	vt, ok := g.VisitTime()
	if !ok || vt.From != 23*time.Hour || vt.To != 4*time.Hour+30*time.Minute {
		t.Errorf("VisitTime = %+v, %v; want 23:00-04:30", vt, ok)
	}
	for _, c := range []struct {
		at   string
		want bool
	}{{"23:30", true}, {"02:00", true}, {"04:30", false}, {"12:00", false}} {
		tm, _ := time.Parse("15:04", c.at)
		if got := vt.Contains(tm); got != c.want {
			t.Errorf("VisitTime.Contains(%s) = %v, want %v", c.at, got, c.want)
		}
	}
	if v, ok := g.RobotVersion(); v != "2.0" || !ok {
		t.Errorf("RobotVersion = %q, %v", v, ok)
	}

	// Two groups name Yandex: merged (RFC 9309 §2.2.1); the first
	// Crawl-delay line is "nonsense", which does not parse.
	y, ok := r.Group(robots.Token("YANDEX"))
	if !ok || y.Global || !reflect.DeepEqual(y.Lines, []int{9, 16}) || !reflect.DeepEqual(y.Agents, []string{"Yandex", "yandex"}) {
		t.Fatalf("Group(YANDEX) = %+v, %v", y, ok)
	}
	if d, ok := y.CrawlDelay(); ok {
		t.Errorf("CrawlDelay = %v, want none (first value does not parse)", d)
	}
	rr, ok := y.RequestRate()
	if !ok || rr.Requests != 10 || rr.Per != time.Minute || rr.Window.From != 6*time.Hour || rr.Window.To != 8*time.Hour+45*time.Minute {
		t.Errorf("RequestRate = %+v, %v; want 10/1m 0600-0845", rr, ok)
	}

	if got, want := r.Sitemaps(), []string{"https://example.com/a.xml", "https://example.com/b.xml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Sitemaps = %q, want %q", got, want)
	}
	if h, ok := r.Host(); h != "www.example.com" || !ok {
		t.Errorf("Host = %q, %v; want the first one", h, ok)
	}
	want := []robots.CleanParam{{Params: []string{"ref", "utm_source"}, Path: "/forum/"}}
	if got := r.CleanParams(); !reflect.DeepEqual(got, want) {
		t.Errorf("CleanParams = %+v, want %+v", got, want)
	}
	if n := len(r.Extensions()); n != 13 {
		t.Errorf("%d extension lines, want 13", n)
	}
}

// TestHostFirstValid: Yandex ignored Host lines that name no host and used
// the first valid one (Yandex's robots.txt help, "Host directives that
// will be ignored").
func TestHostFirstValid(t *testing.T) {
	for _, tt := range []struct{ body, want string }{
		{"Host: www.myhost-.com\nHost: 213.180.194.129\nHost: myhost.com\nHost: other.com\n", "myhost.com"},
		{"User-agent: Yandex\nDisallow:\nHost: https://www.myhost.com\n", "https://www.myhost.com"},
		{"Host: www.my_host.com\n", ""},
	} {
		for _, p := range robots.Profiles() {
			h, ok := robots.Parse([]byte(tt.body), p).Host()
			if h != tt.want || ok != (tt.want != "") {
				t.Errorf("[%v] %q: Host = %q, %v; want %q", p, tt.body, h, ok, tt.want)
			}
		}
	}
}

func TestExtensionValues(t *testing.T) {
	delays := []struct {
		v    string
		want time.Duration
		ok   bool
	}{
		{"10", 10 * time.Second, true},
		{"0.5", 500 * time.Millisecond, true},
		{"0", 0, true},
		{"-1", 0, false},
		{"NaN", 0, false},
		{"1e9", 0, false},
		{"", 0, false},
		{"5s", 0, false},
	}
	for _, c := range delays {
		r := robots.Parse([]byte("User-agent: *\nCrawl-delay: "+c.v+"\n"), robots.Google)
		g, _ := r.Group(robots.Token("x"))
		if d, ok := g.CrawlDelay(); d != c.want || ok != c.ok {
			t.Errorf("Crawl-delay: %q = %v, %v; want %v, %v", c.v, d, ok, c.want, c.ok)
		}
	}
	rates := []struct {
		v  string
		ok bool
	}{{"1/5", true}, {"3/2h", true}, {"1/10s 0000-2400", true}, {"0/5", false}, {"1/0", false}, {"1", false}, {"1/5 2500-0100", false}, {"1/5 a b", false}}
	for _, c := range rates {
		r := robots.Parse([]byte("User-agent: *\nRequest-rate: "+c.v+"\n"), robots.Google)
		g, _ := r.Group(robots.Token("x"))
		if _, ok := g.RequestRate(); ok != c.ok {
			t.Errorf("Request-rate: %q ok = %v, want %v", c.v, ok, c.ok)
		}
	}
}

// The zero Rules and a nil *Rules allow everything and hold nothing, as the
// Rules doc comment promises.
func TestZeroRules(t *testing.T) {
	for name, r := range map[string]*robots.Rules{"zero": new(robots.Rules), "nil": nil} {
		if !r.Allowed("Googlebot", "https://example.com/x") {
			t.Errorf("%s: Allowed = false", name)
		}
		if d := r.Decide(robots.Token("Googlebot"), "/x"); !d.Allowed || d.Reason != robots.NoGroup {
			t.Errorf("%s: Decide = %+v, want allowed, no-group", name, d)
		}
		if _, ok := r.Group(robots.Token("Googlebot")); ok {
			t.Errorf("%s: Group found", name)
		}
		if len(r.Sitemaps()) != 0 || len(r.Extensions()) != 0 || len(r.CleanParams()) != 0 {
			t.Errorf("%s: extensions in empty rules", name)
		}
		if _, ok := r.Host(); ok {
			t.Errorf("%s: Host found", name)
		}
	}
}
