package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robotskit/robots"
)

// The second example of the TDMRep final report, #sec-tdm-file-example.
const tdmExample = `[
  {
  "location": "/directory-a/",
  "tdm-reservation": 1
  },
  {
  "location": "/directory-b/html/",
  "tdm-reservation": 1,
  "tdm-policy":"https://provider.com/policies/policy.json"
  },
  {
  "location": "/directory-b/images/*.jpg",
  "tdm-reservation": 0
  }
]`

// tdmFiles are the table of ParseTDMRep; the fuzz test starts from them.
var tdmFiles = []struct {
	name     string
	body     string
	rules    []TDMRule
	problems int
}{
	// #sec-tdm-file-example: "opt-out" for every file of the server.
	{name: "site-wide", body: `[{"location": "/", "tdm-reservation": 1}]`,
		rules: []TDMRule{{Location: "/", Reservation: 1}}},
	{name: "report example", body: tdmExample, rules: []TDMRule{
		{Location: "/directory-a/", Reservation: 1},
		{Location: "/directory-b/html/", Reservation: 1, Policy: "https://provider.com/policies/policy.json"},
		{Location: "/directory-b/images/*.jpg", Reservation: 0},
	}},
	{name: "empty array", body: "[]"},
	{name: "bom", body: "\xef\xbb\xbf[]", problems: 1},
	{name: "empty", body: " \n", problems: 1},
	{name: "html", body: "<!DOCTYPE html><html><body>Not found</body></html>", problems: 1},
	// "the brackets ... are mandatory even if you express only one rule".
	{name: "object", body: `{"location": "/", "tdm-reservation": 1}`, problems: 1},
	{name: "not json", body: "tdm-reservation: 1", problems: 1},
	{name: "string", body: `"x"`, problems: 1},
	// #sec-tdm-reservation: other values are protocol errors, unset.
	{name: "reservation string", body: `[{"location": "/", "tdm-reservation": "1"}]`,
		rules: []TDMRule{{Location: "/", Reservation: -1}}, problems: 1},
	{name: "reservation 2", body: `[{"location": "/", "tdm-reservation": 2}]`,
		rules: []TDMRule{{Location: "/", Reservation: -1}}, problems: 1},
	{name: "reservation 1.0", body: `[{"location": "/", "tdm-reservation": 1.0}]`,
		rules: []TDMRule{{Location: "/", Reservation: -1}}, problems: 1},
	{name: "reservation true", body: `[{"location": "/", "tdm-reservation": true}]`,
		rules: []TDMRule{{Location: "/", Reservation: -1}}, problems: 1},
	{name: "reservation missing", body: `[{"location": "/a"}, {"location": "/", "tdm-reservation": 0}]`,
		rules: []TDMRule{{Location: "/a", Reservation: -1}, {Location: "/", Reservation: 0}}, problems: 1},
	{name: "location missing", body: `[{"tdm-reservation": 1}, {"location": "/", "tdm-reservation": 0}]`,
		rules: []TDMRule{{Location: "/", Reservation: 0}}, problems: 1},
	{name: "location null", body: `[{"location": null, "tdm-reservation": 1}]`, problems: 1},
	{name: "location number", body: `[{"location": 7, "tdm-reservation": 1}]`, problems: 1},
	{name: "location relative", body: `[{"location": "images/", "tdm-reservation": 1}]`,
		rules: []TDMRule{{Location: "images/", Reservation: 1}}, problems: 1},
	{name: "policy number", body: `[{"location": "/", "tdm-reservation": 1, "tdm-policy": 3}]`,
		rules: []TDMRule{{Location: "/", Reservation: 1}}, problems: 1},
	{name: "policy null", body: `[{"location": "/", "tdm-reservation": 1, "tdm-policy": null}]`,
		rules: []TDMRule{{Location: "/", Reservation: 1}}},
	// An earlier Community Group draft named the properties TDM-a and
	// TDM-b.
	{name: "early names", body: `[{"location": "/", "TDM-a": 1, "TDM-b": "https://p.example/"}]`,
		rules: []TDMRule{{Location: "/", Reservation: -1}}, problems: 3},
	{name: "upper case", body: `[{"Location": "/", "tdm_reservation": 1}]`, problems: 3},
	{name: "not an object", body: `[1, "x", [], {"location": "/", "tdm-reservation": 1}]`,
		rules: []TDMRule{{Location: "/", Reservation: 1}}, problems: 3},
	{name: "unknown property", body: `[{"location": "/", "tdm-reservation": 1, "comment": "all"}]`,
		rules: []TDMRule{{Location: "/", Reservation: 1}}},
	// A body cut in the middle keeps the rules before the cut.
	{name: "cut", body: `[{"location": "/a", "tdm-reservation": 1}, {"location": "/b", "tdm-res`,
		rules: []TDMRule{{Location: "/a", Reservation: 1}}, problems: 1},
	{name: "unclosed", body: `[{"location": "/a", "tdm-reservation": 1}`,
		rules: []TDMRule{{Location: "/a", Reservation: 1}}, problems: 1},
	{name: "trailing data", body: `[] []`, problems: 1},
	{name: "bad element", body: `[{"location": "/a", "tdm-reservation": 1}, {"location" "/b"}]`,
		rules: []TDMRule{{Location: "/a", Reservation: 1}}, problems: 1},
}

func TestParseTDMRep(t *testing.T) {
	for _, tt := range tdmFiles {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseTDMRep([]byte(tt.body))
			if !reflect.DeepEqual(got.Rules, tt.rules) || len(got.Problems) != tt.problems {
				t.Errorf("ParseTDMRep(%q):\n rules %+v\n want %+v\n problems %q, want %d", tt.body, got.Rules, tt.rules, got.Problems, tt.problems)
			}
		})
	}
}

func TestParseTDMRepManyProblems(t *testing.T) {
	body := "[" + strings.Repeat(`{"tdm-reservation": 1},`, 200) + "{}]"
	got := ParseTDMRep([]byte(body))
	if len(got.Problems) != maxTDMProblems+1 || len(got.Rules) != 0 {
		t.Errorf("%d problems, %d rules", len(got.Problems), len(got.Rules))
	}
}

func TestTDMRepFor(t *testing.T) {
	for _, tt := range []struct {
		file  string
		path  string
		want  int // reservation; -2 for no match
		found string
	}{
		// #sec-tdm-file-example.
		{tdmExample, "/directory-a/report.pdf", 1, "/directory-a/"},
		{tdmExample, "/directory-b/html/page.html", 1, "/directory-b/html/"},
		{tdmExample, "/directory-b/images/photo.jpg", 0, "/directory-b/images/*.jpg"},
		{tdmExample, "/directory-b/images/photo.jpg?size=2", 0, "/directory-b/images/*.jpg"},
		{tdmExample, "/directory-b/images/sub/photo.jpg", 0, "/directory-b/images/*.jpg"},
		{tdmExample, "/directory-b/images/photo.png", -2, ""},
		{tdmExample, "/directory-a", -2, ""},
		{tdmExample, "/", -2, ""},
		{tdmExample, "", -2, ""},
		{tdmExample, "https://provider.com/directory-a/x?y=1", 1, "/directory-a/"},
		// "The matching SHOULD be case sensitive."
		{tdmExample, "/Directory-a/report.pdf", -2, ""},
		// "The most specific match is the first in sequence": not the
		// longest.
		{`[{"location": "/a", "tdm-reservation": 0}, {"location": "/a/b", "tdm-reservation": 1}]`, "/a/b/c", 0, "/a"},
		{`[{"location": "/a/b", "tdm-reservation": 1}, {"location": "/a", "tdm-reservation": 0}]`, "/a/b/c", 1, "/a/b"},
		// A rule whose reservation is unset still matches first.
		{`[{"location": "/a"}, {"location": "/", "tdm-reservation": 0}]`, "/a/x", -1, "/a"},
		// #sec-tdm-file-regexp: "$" ends the pattern, "*" any run.
		{`[{"location": "/this/path/exactly$", "tdm-reservation": 1}]`, "/this/path/exactly", 1, "/this/path/exactly$"},
		{`[{"location": "/this/path/exactly$", "tdm-reservation": 1}]`, "/this/path/exactly/more", -2, ""},
		{`[{"location": "/this/*/then", "tdm-reservation": 1}]`, "/this/x/y/then/z", 1, "/this/*/then"},
		{`[{"location": "/*.pdf$", "tdm-reservation": 1}]`, "/a.pdf.pdf", 1, "/*.pdf$"},
		{`[{"location": "/*.pdf$", "tdm-reservation": 1}]`, "/a.pdf?x", -2, ""},
		{`[{"location": "*", "tdm-reservation": 1}]`, "/anything", 1, "*"},
		{`[{"location": "/a$b", "tdm-reservation": 1}]`, "/a$b", 1, "/a$b"},
		// The report's example: "/path/foo-%24" matches ".../path/foo-$".
		{`[{"location": "/path/foo-%24", "tdm-reservation": 1}]`, "/path/foo-$", 1, "/path/foo-%24"},
		{`[{"location": "/path/foo-$", "tdm-reservation": 1}]`, "/path/foo-$", -2, ""},
		{`[{"location": "/a%2A", "tdm-reservation": 1}]`, "/a*", 1, "/a%2A"},
		// Unreserved characters are decoded on both sides; reserved ones
		// are not, and the case of escapes does not count.
		{`[{"location": "/%7Euser/", "tdm-reservation": 1}]`, "/~user/x", 1, "/%7Euser/"},
		{`[{"location": "/~user/", "tdm-reservation": 1}]`, "/%7euser/x", 1, "/~user/"},
		{`[{"location": "/a%2fb", "tdm-reservation": 1}]`, "/a%2Fb", 1, "/a%2fb"},
		{`[{"location": "/a%2Fb", "tdm-reservation": 1}]`, "/a/b", -2, ""},
		{`[{"location": "/café", "tdm-reservation": 1}]`, "/caf%C3%A9", 1, "/café"},
		{`[{"location": "/caf%c3%a9", "tdm-reservation": 1}]`, "/café", 1, "/caf%c3%a9"},
	} {
		f := ParseTDMRep([]byte(tt.file))
		r, ok := f.For(tt.path)
		switch {
		case tt.want == -2 && (ok || r.Reservation != -1):
			t.Errorf("For(%q) in %s = %+v, %v; want no match", tt.path, tt.file, r, ok)
		case tt.want != -2 && (!ok || r.Reservation != tt.want || r.Location != tt.found):
			t.Errorf("For(%q) in %s = %+v, %v; want %d from %q", tt.path, tt.file, r, ok, tt.want, tt.found)
		}
	}
	var zero TDMRep
	if r, ok := zero.For("/"); ok || r.Reservation != -1 {
		t.Errorf("zero TDMRep: %+v, %v", r, ok)
	}
}

// tdmServer starts a loopback server answering with h.
func tdmServer(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

func TestFetchTDMRep(t *testing.T) {
	var mu sync.Mutex
	var hits []string
	other := tdmServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`[{"location": "/", "tdm-reservation": 0}]`))
	})
	big := "[" + strings.Repeat(`{"location": "/x", "tdm-reservation": 1}, `, robots.MaxBytes/40) + `{"location": "/", "tdm-reservation": 0}]`
	s := tdmServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits = append(hits, r.URL.Path)
		mu.Unlock()
		if r.URL.Path != TDMRepPath {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(tdmExample))
	})
	kept := strings.Count(big[:robots.MaxBytes], "}")
	ctx := t.Context()

	got, err := FetchTDMRep(ctx, nil, s.URL+"/some/page?x=1")
	if err != nil || got == nil || len(got.Rules) != 3 || len(got.Problems) != 0 {
		t.Fatalf("200: %+v, %v", got, err)
	}
	if r, ok := got.For("/directory-a/x"); !ok || r.Reservation != 1 {
		t.Errorf("200: For = %+v, %v", r, ok)
	}

	// Each case is a server of its own.
	for _, tt := range []struct {
		name     string
		h        http.HandlerFunc
		nilFile  bool
		rules    int
		problems int
	}{
		{"404", http.NotFound, true, 0, 0},
		{"410", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(410) }, true, 0, 0},
		{"500", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) }, true, 0, 0},
		{"204", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) }, false, 0, 1},
		{"bad json", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`[{"location": "/"`)) }, false, 0, 1},
		{"soft 404", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><head><title>Not found</title></head></html>"))
		}, false, 0, 1},
		// The body is cut at robots.MaxBytes: the rules before the cut
		// stay, and the cut is a problem.
		{"oversized", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(big)) }, false, kept, 2},
		// Redirects: followed up to five.
		{"redirect", func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == TDMRepPath {
				http.Redirect(w, r, "/files/tdm.json", http.StatusMovedPermanently)
				return
			}
			w.Write([]byte(`[{"location": "/", "tdm-reservation": 1}]`))
		}, false, 1, 0},
		{"redirect to another origin", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/tdm.json", http.StatusFound)
		}, false, 1, 0},
		{"five redirects", redirects(5), false, 1, 0},
		{"six redirects", redirects(6), true, 0, 0},
		{"redirect loop", func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, r.URL.Path, http.StatusFound)
		}, true, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := tdmServer(t, tt.h)
			got, err := FetchTDMRep(ctx, s.Client(), s.URL)
			switch {
			case err != nil:
				t.Errorf("error %v", err)
			case tt.nilFile && got != nil:
				t.Errorf("%+v, want no file", got)
			case !tt.nilFile && (got == nil || len(got.Rules) != tt.rules || len(got.Problems) != tt.problems):
				if got == nil {
					t.Fatal("no file")
				}
				t.Errorf("%d rules, problems %q; want %d, %d", len(got.Rules), got.Problems, tt.rules, tt.problems)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if len(hits) != 1 || hits[0] != TDMRepPath {
		t.Errorf("requests %q", hits)
	}
}

// redirects answers the file after n redirects.
func redirects(n int) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		step := 0
		if s := strings.TrimPrefix(r.URL.Path, "/hop/"); s != r.URL.Path {
			step, _ = strconv.Atoi(s)
		}
		if step < n {
			http.Redirect(w, r, "/hop/"+strconv.Itoa(step+1), http.StatusFound)
			return
		}
		w.Write([]byte(`[{"location": "/", "tdm-reservation": 1}]`))
	}
}

func TestFetchTDMRepErrors(t *testing.T) {
	for _, origin := range []string{"ftp://example.com/", "/relative", "https://"} {
		if got, err := FetchTDMRep(t.Context(), nil, origin); err == nil || got != nil {
			t.Errorf("FetchTDMRep(%q) = %+v, %v; want an error", origin, got, err)
		}
	}
	// No server listens: the connection is refused.
	s := httptest.NewServer(http.NotFoundHandler())
	url := s.URL
	s.Close()
	if got, err := FetchTDMRep(t.Context(), nil, url); err == nil || got != nil {
		t.Errorf("closed server: %+v, %v", got, err)
	}
}

func TestFetchTDMRepTimeout(t *testing.T) {
	release := make(chan struct{})
	s := tdmServer(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	got, err := FetchTDMRep(ctx, s.Client(), s.URL)
	if err == nil || got != nil || !IsTimeout(err) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("%+v, %v; want a timeout", got, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}

	// A body that stalls after its first bytes times out too.
	s2 := tdmServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte(`[{"location": "/",`))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	ctx2, cancel2 := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel2()
	if got, err := FetchTDMRep(ctx2, s2.Client(), s2.URL); err == nil || got != nil || !IsTimeout(err) {
		t.Errorf("stalled body: %+v, %v; want a timeout", got, err)
	}
}

// tdmMatchSlow is the reference matcher: a table of which pieces of the
// normalised location match which suffixes of the path, "*" any run, a
// final "$" the end.
func tdmMatchSlow(location, p string) bool {
	anchored := strings.HasSuffix(location, "$")
	if anchored {
		location = location[:len(location)-1]
	}
	var pat []string // pieces: literal strings and "*"
	for i, seg := range strings.Split(location, "*") {
		if i > 0 {
			pat = append(pat, "*")
		}
		pat = append(pat, normPath(seg, false))
	}
	// ok[i] reports whether pat[pi:] matches p[i:], from the last piece
	// back to the first.
	ok := make([]bool, len(p)+1)
	for i := range ok {
		ok[i] = !anchored || i == len(p)
	}
	for pi := len(pat) - 1; pi >= 0; pi-- {
		next := make([]bool, len(p)+1)
		for i := len(p); i >= 0; i-- {
			if pat[pi] == "*" {
				next[i] = ok[i] || i < len(p) && next[i+1]
			} else {
				next[i] = strings.HasPrefix(p[i:], pat[pi]) && ok[i+len(pat[pi])]
			}
		}
		ok = next
	}
	return ok[0]
}

// FuzzParseTDMRep: ParseTDMRep never panics and keeps reservations to
// -1, 0 and 1; For agrees with a slow reference matcher.
func FuzzParseTDMRep(f *testing.F) {
	for _, tt := range tdmFiles {
		f.Add(tt.body, "/directory-b/images/a.jpg")
	}
	f.Add(`[{"location": "/a*b*c$", "tdm-reservation": 1}]`, "/abcbc")
	f.Add(`[{"location": "/%7E*%24", "tdm-reservation": 0}]`, "/~x$")
	f.Fuzz(func(t *testing.T, body, path string) {
		if len(path) > 64 {
			path = path[:64]
		}
		file := ParseTDMRep([]byte(body))
		if !reflect.DeepEqual(file, ParseTDMRep([]byte(body))) {
			t.Fatal("not deterministic")
		}
		for _, r := range file.Rules {
			if r.Reservation < -1 || r.Reservation > 1 {
				t.Fatalf("reservation %d", r.Reservation)
			}
		}
		r, ok := file.For(path)
		p := normPath(requestPath(path), true)
		for _, rule := range file.Rules {
			if tdmMatchSlow(rule.Location, p) {
				if !ok || r != rule {
					t.Fatalf("For(%q) = %+v, %v; the reference matches %+v first", path, r, ok, rule)
				}
				return
			}
		}
		if ok {
			t.Fatalf("For(%q) = %+v; the reference matches no rule", path, r)
		}
	})
}
