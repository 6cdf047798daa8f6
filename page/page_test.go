package page

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"
)

// now is the inspections' clock.
var now = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// site serves robotsTxt at /robots.txt (404 when "") and the handlers.
func site(t *testing.T, robotsTxt string, pages map[string]http.HandlerFunc) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		if robotsTxt == "" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, robotsTxt)
	})
	for p, h := range pages {
		mux.HandleFunc(p, h)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// html serves body as an HTML page with the given headers ("Name: value").
func html(body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for _, h := range headers {
			k, v, _ := strings.Cut(h, ": ")
			w.Header().Add(k, v)
		}
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
		}
		io.WriteString(w, body)
	}
}

func inspect(t *testing.T, u, robot string) *Report {
	t.Helper()
	in := &Inspector{Now: func() time.Time { return now }}
	rep, err := in.Inspect(context.Background(), u, RobotNamed(robot))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func hasWarning(rep *Report, s string) bool {
	for _, w := range rep.Warnings {
		if strings.Contains(w, s) {
			return true
		}
	}
	return false
}

type answers struct{ crawlable, indexable, follow, snippet bool }

func answersOf(r *Report) answers { return answers{r.Crawlable, r.Indexable, r.Follow, r.Snippet} }

// TestDisallowedNoindex is the note of Google's robots meta tag
// documentation: indexing rules are found only on a page the robot may
// crawl. A disallowed page's noindex is never seen.
func TestDisallowedNoindex(t *testing.T) {
	srv := site(t, "User-agent: *\nDisallow: /private/\n", map[string]http.HandlerFunc{
		"/private/": html(`<html><head><meta name="robots" content="noindex"></head><body>secret</body></html>`),
		"/public":   html(`<html><head><meta name="robots" content="noindex"></head><body>open</body></html>`),
	})
	rep := inspect(t, srv.URL+"/private/x", "Googlebot")
	if got := answersOf(rep); got != (answers{crawlable: false, indexable: true}) {
		t.Errorf("disallowed: %+v", got)
	}
	if rep.RobotsTxt.Allowed || rep.RobotsTxt.Line != 2 || rep.RobotsTxt.Rule != "Disallow: /private/" {
		t.Errorf("robots_txt %+v", rep.RobotsTxt)
	}
	if !hasWarning(rep, "noindex is invisible because robots.txt disallows this URL") {
		t.Errorf("warnings %q", rep.Warnings)
	}
	if !rep.Effective.NoIndex || len(rep.Directives) != 1 || !rep.Directives[0].Applies {
		t.Errorf("the page's own directives are still reported: %+v", rep.Directives)
	}
	// Allowed, the same noindex takes effect.
	rep = inspect(t, srv.URL+"/public", "Googlebot")
	if got := answersOf(rep); got != (answers{crawlable: true, indexable: false, follow: true}) {
		t.Errorf("allowed + noindex: %+v", got)
	}
	if hasWarning(rep, "invisible") {
		t.Errorf("warnings %q", rep.Warnings)
	}
}

// TestXRobotsTagPerRobot: "X-Robots-Tag: googlebot: noindex" binds
// Googlebot and not another robot.
func TestXRobotsTagPerRobot(t *testing.T) {
	srv := site(t, "", map[string]http.HandlerFunc{
		"/": html(`<html><body>hello</body></html>`, "X-Robots-Tag: googlebot: noindex", "X-Robots-Tag: otherbot: nofollow"),
	})
	g := inspect(t, srv.URL+"/", "Googlebot")
	if got := answersOf(g); got != (answers{crawlable: true, indexable: false, follow: true}) {
		t.Errorf("Googlebot: %+v", got)
	}
	if !hasWarning(g, `"nofollow" is addressed to otherbot, not to Googlebot`) {
		t.Errorf("Googlebot warnings %q", g.Warnings)
	}
	b := inspect(t, srv.URL+"/", "bingbot")
	if got := answersOf(b); got != (answers{true, true, true, true}) {
		t.Errorf("bingbot: %+v", got)
	}
	if !hasWarning(b, `x-robots-tag: "noindex" is addressed to googlebot, not to bingbot`) {
		t.Errorf("bingbot warnings %q", b.Warnings)
	}
	if !strings.Contains(b.UserAgent, "bingbot") || !strings.Contains(g.UserAgent, "Googlebot") {
		t.Errorf("user agents %q %q", g.UserAgent, b.UserAgent)
	}
	// Googlebot-News reads tags addressed to Googlebot (its fallback).
	n := inspect(t, srv.URL+"/", "Googlebot-News")
	if n.Indexable {
		t.Errorf("Googlebot-News indexable despite googlebot: noindex")
	}
}

func TestUnavailableAfter(t *testing.T) {
	srv := site(t, "", map[string]http.HandlerFunc{
		"/past":   html(`<html><body>x</body></html>`, "X-Robots-Tag: unavailable_after: Monday, 25-Jun-2018 15:00:00 GMT"),
		"/future": html(`<html><head><meta name="robots" content="unavailable_after: 2035-06-25T15:00:00Z"></head><body>x</body></html>`),
		"/bad":    html(`<html><head><meta name="robots" content="unavailable_after: someday"></head><body>x</body></html>`),
	})
	past := inspect(t, srv.URL+"/past", "Googlebot")
	if past.Indexable || !past.Expired || past.Expires == nil || !hasWarning(past, "unavailable_after is in the past") {
		t.Errorf("past: indexable %v expired %v warnings %q", past.Indexable, past.Expired, past.Warnings)
	}
	future := inspect(t, srv.URL+"/future", "Googlebot")
	if !future.Indexable || future.Expired || !hasWarning(future, "unavailable_after is in the future") {
		t.Errorf("future: indexable %v expired %v warnings %q", future.Indexable, future.Expired, future.Warnings)
	}
	bad := inspect(t, srv.URL+"/bad", "Googlebot")
	if !bad.Indexable || bad.Expires != nil || !hasWarning(bad, "unreadable date") {
		t.Errorf("bad date: indexable %v warnings %q", bad.Indexable, bad.Warnings)
	}
}

func TestNofollowLinks(t *testing.T) {
	srv := site(t, "User-agent: *\nDisallow: /cart\n", map[string]http.HandlerFunc{
		"/": html(`<html><head><title>Shop</title><meta name="robots" content="nofollow"></head><body>
<a href="/item">Item</a>
<a href="/cart?add=1" rel="nofollow">Add</a>
<a href="mailto:x@example.com">Mail</a>
<a href="#top">Top</a>
</body></html>`),
	})
	rep := inspect(t, srv.URL+"/", "Googlebot")
	if got := answersOf(rep); got != (answers{crawlable: true, indexable: true, follow: false, snippet: true}) {
		t.Errorf("answers %+v", got)
	}
	if rep.Title != "Shop" || rep.LinkCount != 4 || len(rep.Links) != 4 {
		t.Fatalf("title %q links %+v", rep.Title, rep.Links)
	}
	item, cart, mail, top := rep.Links[0], rep.Links[1], rep.Links[2], rep.Links[3]
	if item.URL != srv.URL+"/item" || item.Allowed == nil || !*item.Allowed || item.NoFollow {
		t.Errorf("item %+v", item)
	}
	if !cart.NoFollow || cart.Allowed == nil || *cart.Allowed || cart.RobotsLine != 2 {
		t.Errorf("cart %+v", cart)
	}
	if mail.URL != "" || mail.Allowed != nil {
		t.Errorf("mailto %+v", mail)
	}
	if top.URL != srv.URL+"/" || top.Allowed == nil {
		t.Errorf("fragment %+v", top)
	}
}

func TestRedirects(t *testing.T) {
	var srv *httptest.Server
	srv = site(t, "User-agent: *\nDisallow: /blocked\n", map[string]http.HandlerFunc{
		"/a":       func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/b", http.StatusMovedPermanently) },
		"/b":       func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, srv.URL+"/final", http.StatusFound) },
		"/final":   html(`<html><body>done</body></html>`),
		"/to-bad":  func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/blocked", http.StatusFound) },
		"/blocked": html(`<html><body>nope</body></html>`),
		"/loop":    func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop2", http.StatusFound) },
		"/loop2":   func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/loop", http.StatusFound) },
		"/chain/": func(w http.ResponseWriter, r *http.Request) {
			var n int
			fmt.Sscanf(r.URL.Path, "/chain/%d", &n)
			http.Redirect(w, r, fmt.Sprintf("/chain/%d", n+1), http.StatusFound)
		},
	})
	rep := inspect(t, srv.URL+"/a", "Googlebot")
	if rep.FinalURL != srv.URL+"/final" || rep.Status != 200 || len(rep.Redirects) != 3 {
		t.Fatalf("final %s status %d hops %+v", rep.FinalURL, rep.Status, rep.Redirects)
	}
	if rep.Redirects[0].Status != 301 || rep.Redirects[0].Location != "/b" || rep.Redirects[1].Status != 302 {
		t.Errorf("hops %+v", rep.Redirects)
	}
	if got := answersOf(rep); got != (answers{true, true, true, true}) {
		t.Errorf("answers %+v", got)
	}
	// A redirect to a disallowed URL: the robot does not follow it.
	rep = inspect(t, srv.URL+"/to-bad", "Googlebot")
	if rep.Crawlable || !rep.RobotsTxt.Allowed || rep.Redirects[1].Allowed || rep.Redirects[1].Line != 2 {
		t.Errorf("to-bad: crawlable %v robots %+v hops %+v", rep.Crawlable, rep.RobotsTxt, rep.Redirects)
	}
	if !hasWarning(rep, "the redirect target "+srv.URL+"/blocked is disallowed") {
		t.Errorf("warnings %q", rep.Warnings)
	}
	rep = inspect(t, srv.URL+"/loop", "Googlebot")
	if !strings.Contains(rep.Error, "redirect loop") || rep.Indexable {
		t.Errorf("loop: error %q indexable %v", rep.Error, rep.Indexable)
	}
	rep = inspect(t, srv.URL+"/chain/0", "Googlebot")
	if !strings.Contains(rep.Error, "more than 10 redirects") || len(rep.Redirects) != 11 {
		t.Errorf("chain: error %q, %d hops", rep.Error, len(rep.Redirects))
	}
}

// TestBigPage: a 10 MB page is read only to the robot's limit, in bounded
// memory, and a noindex after the limit is not seen.
func TestBigPage(t *testing.T) {
	const size = 10 << 20
	chunk := strings.Repeat("<p>lorem ipsum dolor sit amet</p>\n", 1000)
	srv := site(t, "", map[string]http.HandlerFunc{
		"/big": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Content-Length", fmt.Sprint(size))
			head := "<html><head><title>Big</title></head><body>"
			tail := `<meta name="robots" content="noindex"></body></html>`
			io.WriteString(w, head)
			n := len(head) + len(tail)
			for n+len(chunk) <= size {
				if _, err := io.WriteString(w, chunk); err != nil {
					return
				}
				n += len(chunk)
			}
			io.WriteString(w, strings.Repeat(" ", size-n))
			io.WriteString(w, tail)
		},
	})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rep := inspect(t, srv.URL+"/big", "Googlebot")
	runtime.ReadMemStats(&after)
	if !rep.Truncated || rep.Bytes != 2<<20 || rep.Size != size {
		t.Errorf("truncated %v bytes %d size %d", rep.Truncated, rep.Bytes, rep.Size)
	}
	if rep.Effective.NoIndex || !rep.Indexable || rep.Title != "Big" {
		t.Errorf("noindex past the limit was read: %+v", rep.Effective)
	}
	if !hasWarning(rep, "reads only the first 2097152 bytes") {
		t.Errorf("warnings %q", rep.Warnings)
	}
	// The 10 MB body is never held: allocations stay within a few times
	// the 2 MiB limit (the buffer, the decoded copy, the tokenizer).
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("allocated %.1f MiB to inspect a %d MiB page", float64(alloc)/(1<<20), size>>20)
	if alloc > 16<<20 {
		t.Errorf("allocated %d bytes for a %d-byte page read to 2 MiB", alloc, size)
	}
	// A smaller limit is obeyed.
	in := &Inspector{MaxBytes: 1000}
	small, err := in.Inspect(context.Background(), srv.URL+"/big", RobotNamed("Googlebot"))
	if err != nil || small.Bytes != 1000 || !small.Truncated {
		t.Errorf("MaxBytes 1000: %v %d %v", err, small.Bytes, small.Truncated)
	}
}

func TestStatusesAndTypes(t *testing.T) {
	srv := site(t, "", map[string]http.HandlerFunc{
		"/gone": func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotFound)
			io.WriteString(w, "<html><body>not here</body></html>")
		},
		"/doc.pdf": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/pdf")
			w.Header().Set("X-Robots-Tag", "noindex, nosnippet")
			io.WriteString(w, "%PDF-1.4 …")
		},
		"/latin1": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=iso-8859-1")
			io.WriteString(w, "<html><head><title>Caf\xe9</title><link rel=canonical href=/other></head><body>x</body></html>")
		},
		"/draft": html(`<html><body>x</body></html>`, "Robots-Tag: *=noindex; ExampleBot="),
	})
	rep := inspect(t, srv.URL+"/gone", "Googlebot")
	if rep.Status != 404 || rep.Indexable || rep.Follow || !hasWarning(rep, "status 404") {
		t.Errorf("404: %+v %q", answersOf(rep), rep.Warnings)
	}
	rep = inspect(t, srv.URL+"/doc.pdf", "Googlebot")
	if rep.HTML || rep.Indexable || rep.Snippet || !hasWarning(rep, "not HTML (application/pdf)") || len(rep.XRobotsTag) != 1 {
		t.Errorf("pdf: %+v %q", answersOf(rep), rep.Warnings)
	}
	rep = inspect(t, srv.URL+"/latin1", "Googlebot")
	if rep.Title != "Café" || rep.Canonical != srv.URL+"/other" || !hasWarning(rep, "canonical link points to") {
		t.Errorf("latin1: title %q canonical %q warnings %q", rep.Title, rep.Canonical, rep.Warnings)
	}
	if rep = inspect(t, srv.URL+"/draft", "Googlebot"); rep.Indexable {
		t.Error("Robots-Tag *=noindex ignored")
	}
	if rep = inspect(t, srv.URL+"/draft", "ExampleBot"); !rep.Indexable {
		t.Error("Robots-Tag ExampleBot= did not exempt ExampleBot")
	}
}

// TestRobotsTxtUnreachable: a 503 robots.txt bars Googlebot from the whole
// site (RFC 9309 §2.3.1.4), and the page report says so.
func TestRobotsTxtUnreachable(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) })
	mux.HandleFunc("/", html("<html><body>x</body></html>"))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	rep := inspect(t, srv.URL+"/", "Googlebot")
	if rep.Crawlable || rep.RobotsTxt.Access != "none" || rep.RobotsTxt.Status != 503 {
		t.Errorf("crawlable %v robots %+v", rep.Crawlable, rep.RobotsTxt)
	}
}

func TestBadInput(t *testing.T) {
	in := &Inspector{}
	for _, u := range []string{"", "example.com/x", "ftp://example.com/", "http://", "://x"} {
		if _, err := in.Inspect(context.Background(), u, RobotNamed("")); err == nil {
			t.Errorf("%q: no error", u)
		}
	}
	// Nothing listening: a report with an error, not a failure.
	rep, err := (&Inspector{Timeout: 2 * time.Second}).Inspect(context.Background(), "http://127.0.0.1:1/x", RobotNamed(""))
	if err != nil || rep.Error == "" || rep.Status != 0 {
		t.Errorf("unreachable: %v %+v", err, rep)
	}
}

func TestRobotNamed(t *testing.T) {
	g := RobotNamed("")
	if g.Name != "Googlebot" || !strings.Contains(g.UserAgent, "Googlebot/2.1") || g.MetaNames[len(g.MetaNames)-1] != "google" {
		t.Errorf("default robot %+v", g)
	}
	x := RobotNamed("MyCrawler")
	if x.Name != "MyCrawler" || x.UserAgent != "MyCrawler" || len(x.MetaNames) != 1 || x.MetaNames[0] != "mycrawler" {
		t.Errorf("plain token %+v", x)
	}
	if n := RobotNamed("googlebot-news"); n.Name != "Googlebot-News" || len(n.Agent.Tokens) != 2 {
		t.Errorf("Googlebot-News %+v", n)
	}
}
