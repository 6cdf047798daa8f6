package fetch_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/fetch"
)

const classifyBody = "User-agent: *\nDisallow: /private\n"

// TestClassifyTable checks Classify against every row of the policy table
// in the package documentation that is about what a response means, with
// the row's sources. The columns are google, rfc9309, bing, yandex,
// draft1996 and mandelbot, the order of Policies.
func TestClassifyTable(t *testing.T) {
	const (
		rules  = fetch.Success
		nofile = fetch.Unavailable
		forbid = fetch.Forbidden
		outage = fetch.Unreachable
	)
	big := bytes.Repeat([]byte("Disallow: /x\n"), robots.MaxBytes/13+2)
	loc := func(v string) http.Header { return http.Header{"Location": {v}} }
	tests := []struct {
		row    string
		status int
		header http.Header
		body   []byte
		size   int64 // -1: len(body)
		want   [6]fetch.Outcome
		source string
	}{
		{"200", 200, nil, []byte(classifyBody), -1, [6]fetch.Outcome{rules, rules, rules, rules, rules, rules},
			"RFC 9309 §2.3.1.1; Google's robots.txt documentation: 2xx"},
		{"redirects: 5, then no file (301 not followed)", 301, loc("https://example.com/robots.txt"), nil, -1,
			[6]fetch.Outcome{nofile, nofile, nofile, nofile, nofile, nofile},
			"Google: a robots.txt not reached through redirects is a 404; RFC 9309 §2.3.1.2 MAY assume unavailable"},
		{"redirects: relative Location", 308, loc("/other/robots.txt"), nil, -1,
			[6]fetch.Outcome{nofile, nofile, nofile, nofile, nofile, nofile}, "RFC 9309 §2.3.1.2"},
		{"redirects: no Location is an invalid response", 302, nil, nil, -1,
			[6]fetch.Outcome{outage, outage, outage, nofile, outage, outage},
			"Google: other errors are server errors; RFC 9309 §2.3.1.4; Yandex: only 200"},
		{"redirects: Location not http(s)", 307, loc("ftp://example.com/robots.txt"), nil, -1,
			[6]fetch.Outcome{outage, outage, outage, nofile, outage, outage}, "Google: other errors"},
		{"2xx but not 200", 203, nil, []byte(classifyBody), -1, [6]fetch.Outcome{rules, rules, rules, nofile, rules, rules},
			"Yandex's robots.txt help: only 200 (RB110); Moderatobot"},
		{"2xx but not 200: 206", 206, nil, []byte(classifyBody), -1, [6]fetch.Outcome{rules, rules, rules, nofile, rules, rules},
			"Yandex's robots.txt help"},
		{"401", 401, nil, nil, -1, [6]fetch.Outcome{nofile, nofile, nofile, nofile, forbid, nofile},
			"RFC 9309 §2.3.1.3; 1996 draft §3.1; Mandelbot: even 401 and 403"},
		{"403", 403, nil, nil, -1, [6]fetch.Outcome{nofile, nofile, nofile, nofile, forbid, nofile},
			"RFC 9309 §2.3.1.3; 1996 draft §3.1; Mandelbot"},
		{"other 4xx: 404", 404, nil, []byte("Not Found"), -1, [6]fetch.Outcome{nofile, nofile, nofile, nofile, nofile, nofile},
			"RFC 9309 §2.3.1.3"},
		{"other 4xx: 410", 410, nil, nil, -1, [6]fetch.Outcome{nofile, nofile, nofile, nofile, nofile, nofile},
			"RFC 9309 §2.3.1.3"},
		{"429", 429, nil, nil, -1, [6]fetch.Outcome{outage, nofile, nofile, nofile, nofile, nofile},
			"Google: 429 with the 5xx; RFC 9309: a 4xx"},
		{"5xx", 500, nil, []byte("Internal Server Error"), -1, [6]fetch.Outcome{outage, outage, outage, nofile, outage, outage},
			"RFC 9309 §2.3.1.4; Google; Yandex's robots.txt help"},
		{"5xx: 503", 503, nil, nil, -1, [6]fetch.Outcome{outage, outage, outage, nofile, outage, outage},
			"RFC 9309 §2.3.1.4; Mandelbot"},
		{"network (no response)", 0, nil, nil, -1, [6]fetch.Outcome{outage, outage, outage, nofile, outage, outage},
			"RFC 9309 §2.3.1.4: unreachable; Yandex: no file"},
		{"invalid status 304", 304, nil, nil, -1, [6]fetch.Outcome{outage, outage, outage, nofile, outage, outage},
			"Google: other errors are server errors"},
		{`5xx "not found"`, 503, nil, []byte("<h1>404 Not Found</h1>"), -1, [6]fetch.Outcome{nofile, outage, outage, nofile, outage, nofile},
			"Google's robots.txt documentation; Mandelbot's robots.txt documentation"},
		{`5xx "does not exist"`, 500, nil, []byte("The file does not exist"), -1, [6]fetch.Outcome{nofile, outage, outage, nofile, outage, nofile},
			"Google's robots.txt documentation"},
		{`5xx "not found" past the 16 KiB a fetch reads`, 500, nil, append(bytes.Repeat([]byte(" "), 16<<10), "not found"...), -1,
			[6]fetch.Outcome{outage, outage, outage, nofile, outage, outage}, "the fetcher reads 16 KiB of an error page"},
		{"over 500 KiB", 200, nil, big[:robots.MaxBytes+1], int64(len(big)), [6]fetch.Outcome{rules, rules, rules, nofile, rules, rules},
			"Google: 500 KiB, the rest ignored; RFC 9309 §2.5; Yandex's robots.txt help (RB122)"},
		{"over 500 KiB, body already cut", 200, nil, big[:1000], int64(len(big)), [6]fetch.Outcome{rules, rules, rules, nofile, rules, rules},
			"Yandex's robots.txt help"},
		{"exactly 500 KiB", 200, nil, big[:robots.MaxBytes], -1, [6]fetch.Outcome{rules, rules, rules, rules, rules, rules},
			"RFC 9309 §2.5"},
	}
	for _, tt := range tests {
		size := tt.size
		if size < 0 {
			size = int64(len(tt.body))
		}
		for i, p := range fetch.Policies() {
			if got := p.Classify(tt.status, tt.header, tt.body, size); got != tt.want[i] {
				t.Errorf("%s (HTTP %d) under %s: %s, want %s (%s)", tt.row, tt.status, p, got, tt.want[i], tt.source)
			}
		}
	}
}

// TestClassifyTTLRows checks the table's "fresh for" and "max-age up to"
// rows, the other columns a recorded response carries (Google: 24 hours;
// RFC 9309 §2.4; the 1996 draft §3.4: 7 days; Mandelbot: 48 hours). The
// outage rows are a timeline over several fetches, not the reading of one
// response; Classify only says that a response starts one (Unreachable).
func TestClassifyTTLRows(t *testing.T) {
	day := 24 * time.Hour
	want := [6]time.Duration{day, day, day, day, 7 * day, 2 * day}
	for i, p := range fetch.Policies() {
		if ttl, max := p.TTL(); ttl != want[i] || max != want[i] {
			t.Errorf("%s: TTL %v, max %v; want %v", p, ttl, max, want[i])
		}
	}
}

// TestClassifyAgreesWithFetch serves each response over HTTP and checks
// that a fetch and Classify of the same response read it alike under
// every policy: Classify shares the fetcher's reading, it does not
// redo it.
func TestClassifyAgreesWithFetch(t *testing.T) {
	big := bytes.Repeat([]byte("Disallow: /x\n"), robots.MaxBytes/13+2)
	tests := []struct {
		status int
		header map[string]string
		body   []byte
	}{
		{200, nil, []byte(classifyBody)},
		{203, nil, []byte(classifyBody)},
		{200, nil, big},
		{302, nil, nil}, // no Location
		{401, nil, nil},
		{403, nil, nil},
		{404, nil, []byte("not found")},
		{429, nil, nil},
		{500, nil, nil},
		{503, nil, []byte("File not found")},
		{502, nil, []byte("no such file or directory")},
		{304, nil, nil},
	}
	for _, tt := range tests {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for k, v := range tt.header {
				w.Header().Set(k, v)
			}
			w.Header().Set("Content-Type", "text/plain")
			w.WriteHeader(tt.status)
			w.Write(tt.body)
		}))
		f := &fetch.Fetcher{}
		res, err := f.Fetch(context.Background(), s.URL+"/robots.txt")
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		for _, p := range fetch.Policies() {
			t.Run(fmt.Sprintf("%d/%s", tt.status, p), func(t *testing.T) {
				want := res.Under(p).Outcome
				if got := p.Classify(tt.status, h, tt.body, int64(len(tt.body))); got != want {
					t.Errorf("Classify = %s, a fetch reads %s", got, want)
				}
			})
		}
	}
}

func ExamplePolicy_Classify() {
	// A recorded 503 whose page says the file is not found: Google reads
	// it as a 404, RFC 9309 robots as an outage.
	body := []byte("<h1>robots.txt: Not Found</h1>")
	for _, p := range []fetch.Policy{fetch.Google, fetch.RFC9309, fetch.Yandex} {
		fmt.Println(p, p.Classify(503, nil, body, int64(len(body))))
	}
	// A recorded 301: its target is another record.
	h := http.Header{"Location": {"https://example.com/robots.txt"}}
	fmt.Println("301:", fetch.Google.Classify(301, h, nil, 0))
	fmt.Println("418:", fetch.Google.Classify(418, nil, nil, 0), "/ 500 KiB + 1:", fetch.Yandex.Classify(200, nil, nil, robots.MaxBytes+1))
	// Output:
	// google unavailable
	// rfc9309 unreachable
	// yandex unavailable
	// 301: unavailable
	// 418: unavailable / 500 KiB + 1: unavailable
}
