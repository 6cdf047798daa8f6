package accesslog

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/netip"
	"runtime"
	"strings"
	"testing"
	"time"
)

const googlebot = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

// readAll reads every entry of in.
func readAll(t *testing.T, in string, f Format) ([]Entry, Stats, error) {
	t.Helper()
	r, err := NewReader(strings.NewReader(in), f)
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	var out []Entry
	for {
		var e Entry
		err := r.Next(&e)
		if err == io.EOF {
			return out, r.Stats(), nil
		}
		if err != nil {
			return out, r.Stats(), err
		}
		out = append(out, e)
	}
}

func clfTimeOf(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse("02/Jan/2006:15:04:05 -0700", s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

func addr(s string) netip.Addr {
	if s == "" {
		return netip.Addr{}
	}
	return netip.MustParseAddr(s)
}

func sameEntry(got, want Entry) bool {
	return got.Line == want.Line && got.Time.Equal(want.Time) && got.Host == want.Host &&
		got.Method == want.Method && got.Target == want.Target && got.Status == want.Status &&
		got.UserAgent == want.UserAgent && got.Remote == want.Remote
}

func TestCLF(t *testing.T) {
	t0 := "10/Oct/2025:13:55:36 -0700"
	for _, tt := range []struct {
		name, line string
		want       Entry
	}{
		{"combined", `66.249.66.1 - - [10/Oct/2025:13:55:36 -0700] "GET /private/x?a=1 HTTP/1.1" 200 2326 "-" "` + googlebot + `"`,
			Entry{Method: "GET", Target: "/private/x?a=1", Status: 200, UserAgent: googlebot, Remote: addr("66.249.66.1")}},
		{"common", `127.0.0.1 - frank [10/Oct/2025:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326`,
			Entry{Method: "GET", Target: "/apache_pb.gif", Status: 200, Remote: addr("127.0.0.1")}},
		{"size dash", `10.0.0.1 - - [10/Oct/2025:13:55:36 -0700] "HEAD / HTTP/1.1" 304 - "-" "curl/8.0"`,
			Entry{Method: "HEAD", Target: "/", Status: 304, UserAgent: "curl/8.0", Remote: addr("10.0.0.1")}},
		{"vhost", `www.example.com:443 66.249.66.1 - - [10/Oct/2025:13:55:36 -0700] "GET /robots.txt HTTP/1.1" 200 68 "-" "` + googlebot + `"`,
			Entry{Host: "www.example.com", Method: "GET", Target: "/robots.txt", Status: 200, UserAgent: googlebot, Remote: addr("66.249.66.1")}},
		{"vhost ipv6 client", `example.org:80 2001:db8::1 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "x"`,
			Entry{Host: "example.org", Method: "GET", Target: "/", Status: 200, UserAgent: "x", Remote: addr("2001:db8::1")}},
		{"vhost bracketed", `[::1]:8080 ::1 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "x"`,
			Entry{Host: "[::1]", Method: "GET", Target: "/", Status: 200, UserAgent: "x", Remote: addr("::1")}},
		{"ipv6 client", `2001:db8::1 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "x"`,
			Entry{Method: "GET", Target: "/", Status: 200, UserAgent: "x", Remote: addr("2001:db8::1")}},
		{"user with spaces", `1.2.3.4 - John Doe [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "x"`,
			Entry{Method: "GET", Target: "/", Status: 200, UserAgent: "x", Remote: addr("1.2.3.4")}},
		{"hostname client", `crawl.googlebot.com - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "x"`,
			Entry{Method: "GET", Target: "/", Status: 200, UserAgent: "x"}},
		{"absolute form", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET http://user@Example.COM:8080/a?b HTTP/1.1" 200 1 "-" "x"`,
			Entry{Host: "Example.COM:8080", Method: "GET", Target: "http://user@Example.COM:8080/a?b", Status: 200, UserAgent: "x", Remote: addr("1.2.3.4")}},
		{"absolute form https", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET https://h?q HTTP/1.1" 200 1 "-" "x"`,
			Entry{Host: "h", Method: "GET", Target: "https://h?q", Status: 200, UserAgent: "x", Remote: addr("1.2.3.4")}},
		{"vhost beats absolute form", `v:80 1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET http://h/a HTTP/1.1" 200 1 "-" "x"`,
			Entry{Host: "v", Method: "GET", Target: "http://h/a", Status: 200, UserAgent: "x", Remote: addr("1.2.3.4")}},
		{"escapes", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET /caf\xc3\xa9\x22q HTTP/1.1" 200 1 "a \"ref\"" "Bot \"quoted\" \\ back\tslash \x41 \q"`,
			Entry{Method: "GET", Target: "/café\"q", Status: 200, UserAgent: "Bot \"quoted\" \\ back\tslash A \\q", Remote: addr("1.2.3.4")}},
		{"escape at end", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "ab\x4"`,
			Entry{Method: "GET", Target: "/", Status: 200, UserAgent: `ab\x4`, Remote: addr("1.2.3.4")}},
		{"http/0.9", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET /" 200 1`,
			Entry{Method: "GET", Target: "/", Status: 200, Remote: addr("1.2.3.4")}},
		{"status dash", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" - -`,
			Entry{Method: "GET", Target: "/", Remote: addr("1.2.3.4")}},
		{"referer only", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "http://r/"`,
			Entry{Method: "GET", Target: "/", Status: 200, Remote: addr("1.2.3.4")}},
		{"extra fields", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "x" "5.6.7.8" 0.003`,
			Entry{Method: "GET", Target: "/", Status: 200, UserAgent: "x", Remote: addr("1.2.3.4")}},
		{"other method", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "MKCOL /d HTTP/1.1" 201 0 "-" "x"`,
			Entry{Method: "MKCOL", Target: "/d", Status: 201, UserAgent: "x", Remote: addr("1.2.3.4")}},
		{"leading space and CR", "  1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] \"GET / HTTP/1.1\" 200 1 \"-\" \"x\"  \r",
			Entry{Method: "GET", Target: "/", Status: 200, UserAgent: "x", Remote: addr("1.2.3.4")}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range []Format{Auto, Combined} {
				got, st, err := readAll(t, tt.line+"\n", f)
				if err != nil || len(got) != 1 {
					t.Fatalf("%v: got %v, %+v, %v", f, got, st, err)
				}
				want := tt.want
				want.Line = 1
				want.Time = clfTimeOf(t, t0)
				if !sameEntry(got[0], want) {
					t.Errorf("%v:\n got %+v\nwant %+v", f, got[0], want)
				}
				if st != (Stats{Lines: 1, Entries: 1, Bytes: int64(len(tt.line) + 1)}) {
					t.Errorf("%v: stats %+v", f, st)
				}
			}
		})
	}
}

func TestCLFTime(t *testing.T) {
	for _, s := range []string{
		"10/Oct/2025:13:55:36 -0700",
		"10/Oct/2025:13:55:36 +0000",
		"01/Jan/2000:00:00:00 +0530",
		"31/Dec/1999:23:59:59 -1200",
		"29/Feb/2024:12:00:00 +1400",
		"28/Feb/2025:12:00:00 +0545",
		"15/May/2025:08:09:10 +0100",
	} {
		want := clfTimeOf(t, s)
		var r Reader
		// Twice: the second read is the cached hour.
		for range 2 {
			got, ok := r.clfTime([]byte(s))
			if !ok || !got.Equal(want) {
				t.Errorf("%s: got %v %v, want %v", s, got, ok, want)
			}
			if _, off := got.Zone(); off != func() int { _, o := want.Zone(); return o }() {
				t.Errorf("%s: zone offset %d", s, off)
			}
		}
	}
	for _, s := range []string{
		"29/Feb/2025:12:00:00 +0000", // not a leap year
		"31/Apr/2025:12:00:00 +0000",
		"00/Jan/2025:12:00:00 +0000",
		"10/oct/2025:13:55:36 -0700",
		"10/Oct/2025:24:00:00 -0700",
		"10/Oct/2025:13:60:00 -0700",
		"10/Oct/2025:13:55:60 -0700",
		"10/Oct/2025:13:55:36 *0700",
		"10/Oct/2025:13:55:36 -0760",
		"10/Oct/2025 13:55:36 -0700",
		"1/Oct/2025:13:55:36 -0700",
		"10/Oct/2025:13:55:36",
		"",
	} {
		var r Reader
		if got, ok := r.clfTime([]byte(s)); ok {
			t.Errorf("%q: read as %v", s, got)
		}
	}
	// Sorted lines share the hour; a new zone is not the cached one.
	var r Reader
	a, _ := r.clfTime([]byte("10/Oct/2025:13:00:00 -0700"))
	b, _ := r.clfTime([]byte("10/Oct/2025:13:59:59 -0700"))
	c, _ := r.clfTime([]byte("10/Oct/2025:13:59:59 +0000"))
	if b.Sub(a) != 59*time.Minute+59*time.Second || c.Sub(b) != -7*time.Hour {
		t.Errorf("cache: %v %v %v", a, b, c)
	}
}

func TestBadLines(t *testing.T) {
	const good = `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "x"`
	for _, tt := range []struct {
		name, line, why string
	}{
		{"garbage", "hello world", "no [time]"},
		{"no request", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "-" 408 0 "-" "-"`, "no request"},
		{"empty request", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "" 400 0 "-" "-"`, "no request"},
		{"tls handshake", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03" 400 157 "-" "-"`, "malformed request"},
		{"raw binary", "1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] \"\x16\x03\x01 \x00\xa5 HTTP/1.1\" 400 157 \"-\" \"-\"", "malformed request"},
		{"nul in target", "1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] \"GET /a\x00b HTTP/1.1\" 200 1 \"-\" \"x\"", "malformed request"},
		{"space in target", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET /a b HTTP/1.1" 200 1 "-" "x"`, "malformed request"},
		{"bad protocol", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET /a FTP/1" 200 1 "-" "x"`, "malformed request"},
		{"bad method", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "G(T / HTTP/1.1" 200 1 "-" "x"`, "malformed request"},
		{"truncated request", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1`, "unterminated quoted request"},
		{"truncated escape", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1\"`, "unterminated quoted request"},
		{"truncated agent", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "Mozilla`, "unterminated quoted user agent"},
		{"truncated referer", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-`, "unterminated quoted referer"},
		{"no quoted request", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] GET / 200 1`, "no quoted request"},
		{"truncated after time", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700]`, "no quoted request"},
		{"no status", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1"`, "no status"},
		{"bad status", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 2000 1`, "bad status"},
		{"no size", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200`, "no size"},
		{"bad size", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1k`, "bad size"},
		{"unquoted agent", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" x`, "bad user agent"},
		{"bad time", `1.2.3.4 - - [10/Oct/2025:25:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "x"`, "bad time"},
		{"unclosed time", `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700 "GET / HTTP/1.1" 200 1`, "bad time"},
		{"few fields", `1.2.3.4 [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1`, "too few fields before [time]"},
		{"json", `{"time": 1, "path": }`, "JSON: invalid character '}' looking for beginning of value"},
		{"nul bytes", "\x00\x00\x00", "no [time]"},
		{"long line", good[:len(good)-1] + strings.Repeat("x", MaxLine) + `"`, "longer than 65536 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := "\n" + good + "\n" + tt.line + "\n" + good
			got, st, err := readAll(t, in, Auto)
			if err != nil || len(got) != 2 || got[0].Line != 2 || got[1].Line != 4 {
				t.Fatalf("got %+v, %v", got, err)
			}
			want := Stats{Lines: 4, Entries: 2, Bad: 1, FirstBad: "line 3: " + tt.why, Bytes: int64(len(in))}
			if st != want {
				t.Errorf("stats\n got %+v\nwant %+v", st, want)
			}
		})
	}
}

func TestLineEnds(t *testing.T) {
	const good = `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "x"`
	for _, tt := range []struct {
		name, in string
		lines    int64
		entries  int
	}{
		{"empty", "", 0, 0},
		{"blank lines", "\n\n  \n\t\r\n", 4, 0},
		{"LF", good + "\n" + good + "\n", 2, 2},
		{"CRLF", good + "\r\n" + good + "\r\n", 2, 2},
		{"no final newline", good + "\n" + good, 2, 2},
		{"CRLF no final newline", good + "\r\n" + good + "\r", 2, 2},
		{"empty lines between", good + "\n\n\n" + good + "\n\n", 5, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, st, err := readAll(t, tt.in, Auto)
			if err != nil || len(got) != tt.entries || st.Lines != tt.lines || st.Bad != 0 {
				t.Errorf("got %d entries, %+v, %v", len(got), st, err)
			}
			for _, e := range got {
				if e.UserAgent != "x" || e.Status != 200 {
					t.Errorf("entry %+v", e)
				}
			}
		})
	}
}

func TestLongLine(t *testing.T) {
	const good = `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "x"`
	var sb strings.Builder
	sb.WriteString(good + "\n")
	sb.WriteString(`1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET /`)
	sb.WriteString(strings.Repeat("a", 1<<20))
	sb.WriteString(" HTTP/1.1\" 200 1 \"-\" \"x\"\n")
	sb.WriteString(good + "\n")
	sb.WriteString(strings.Repeat("b", 1<<20)) // at the end, no newline
	in := sb.String()

	r, err := NewReader(strings.NewReader(in), Auto)
	if err != nil {
		t.Fatal(err)
	}
	var e Entry
	if err := r.Next(&e); err != nil || e.Line != 1 {
		t.Fatalf("first: %v %+v", err, e)
	}
	size := r.br.Size()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := r.Next(&e); err != nil || e.Line != 3 {
		t.Fatalf("after the long line: %v %+v", err, e)
	}
	if err := r.Next(&e); err != io.EOF {
		t.Fatalf("at the end: %v", err)
	}
	runtime.ReadMemStats(&after)
	if r.br.Size() != size || size != bufSize {
		t.Errorf("buffer grew: %d, then %d", size, r.br.Size())
	}
	if cap(r.scratch) > bufSize {
		t.Errorf("scratch grew to %d", cap(r.scratch))
	}
	// 2 MiB of long lines went by: far less than that was allocated.
	if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
		t.Errorf("allocated %d bytes reading 2 MiB of long lines", n)
	}
	want := Stats{Lines: 4, Entries: 2, Bad: 2, FirstBad: "line 2: longer than 65536 bytes", Bytes: int64(len(in))}
	if st := r.Stats(); st != want {
		t.Errorf("stats\n got %+v\nwant %+v", st, want)
	}

	// A line of exactly MaxLine bytes is read, with LF or CR LF.
	// One more byte is too long; the last line needs no line end.
	for _, eol := range []string{"\n", "\r\n"} {
		pad := MaxLine - len(good)
		line := good[:len(good)-1] + strings.Repeat("y", pad) + `"`
		got, st, err := readAll(t, line+eol+line+"y"+eol+line, Auto)
		if err != nil || len(got) != 2 || len(got[0].UserAgent) != pad+1 || got[1].Line != 3 || st.Bad != 1 || st.FirstBad != "line 2: longer than 65536 bytes" {
			t.Errorf("%q: got %d entries, %+v, %v", eol, len(got), st, err)
		}
	}
}

func TestJSON(t *testing.T) {
	t0 := time.Date(2025, 10, 10, 20, 55, 36, 0, time.UTC)
	for _, tt := range []struct {
		name, line string
		want       Entry
	}{
		{"documented", `{"time":"2025-10-10T20:55:36Z","host":"example.com","path":"/private/x?a=1","status":200,"user_agent":"` + googlebot + `"}`,
			Entry{Host: "example.com", Target: "/private/x?a=1", Status: 200, UserAgent: googlebot}},
		{"nginx escape=json", `{"time_local":"10/Oct/2025:13:55:36 -0700","remote_addr":"66.249.66.1","request":"GET /a?b HTTP/1.1","status":"404","http_user_agent":"Bot \"q\" \u00e9","http_host":"h.example"}`,
			Entry{Host: "h.example", Method: "GET", Target: "/a?b", Status: 404, UserAgent: "Bot \"q\" é", Remote: addr("66.249.66.1")}},
		{"nginx iso8601 request_uri", `{"time_iso8601":"2025-10-10T13:55:36-07:00","server_name":"s","request_uri":"/r?x","request_method":"HEAD","status":"301","ua":"u","client_ip":"2001:db8::2"}`,
			Entry{Host: "s", Method: "HEAD", Target: "/r?x", Status: 301, UserAgent: "u", Remote: addr("2001:db8::2")}},
		{"request_uri beats request", `{"time":"2025-10-10T20:55:36Z","request":"GET /a HTTP/1.1","request_uri":"/b"}`,
			Entry{Method: "GET", Target: "/b"}},
		{"request beats uri", `{"time":"2025-10-10T20:55:36Z","request":"GET /a?q HTTP/1.1","uri":"/a"}`,
			Entry{Method: "GET", Target: "/a?q"}},
		{"malformed request with a path", `{"time":"2025-10-10T20:55:36Z","request":"\u0016\u0003","uri":"/a"}`,
			Entry{Target: "/a"}},
		{"uri url", `{"timestamp":"2025-10-10T20:55:36.000Z","url":"http://u.example/p","method":"POST","userAgent":"c","ip":"10.1.2.3:5555"}`,
			Entry{Host: "u.example", Method: "POST", Target: "http://u.example/p", UserAgent: "c", Remote: addr("10.1.2.3")}},
		{"@timestamp fraction", `{"@timestamp":"2025-10-10T20:55:36.123456789Z","uri":"/","remote_ip":"::ffff:1.2.3.4"}`,
			Entry{Target: "/", Remote: addr("::ffff:1.2.3.4")}},
		{"unix seconds", `{"ts":1760129736,"path":"/"}`, Entry{Target: "/"}},
		{"unix fraction", `{"ts":1760129736.5,"path":"/"}`, Entry{Target: "/"}},
		{"unix string", `{"time":"1760129736.000","path":"/"}`, Entry{Target: "/"}},
		{"unix millis", `{"time":1760129736000,"path":"/"}`, Entry{Target: "/"}},
		{"unix micros", `{"time":1760129736000000,"path":"/"}`, Entry{Target: "/"}},
		{"unix nanos", `{"time":1760129736000000000,"path":"/"}`, Entry{Target: "/"}},
		{"null aliases skipped", `{"time":null,"ts":1760129736,"host":null,"http_host":"h","path":"/","status":null}`, Entry{Host: "h", Target: "/"}},
		{"caddy", `{"level":"info","ts":1760129736,"logger":"http.log.access","msg":"handled request","request":{"remote_ip":"127.0.0.1","remote_port":"41342","client_ip":"66.249.66.1","proto":"HTTP/2.0","method":"GET","host":"caddy.example","uri":"/x?y","headers":{"User-Agent":["` + googlebot + `"],"Accept":["*/*"]}},"bytes_read":0,"user_id":"","duration":0.0009,"size":10900,"status":200,"resp_headers":{"Server":["Caddy"]}}`,
			Entry{Host: "caddy.example", Method: "GET", Target: "/x?y", Status: 200, UserAgent: googlebot, Remote: addr("66.249.66.1")}},
		{"caddy remote_ip only", `{"ts":1760129736.0,"request":{"remote_ip":"127.0.0.1","method":"GET","host":"c","uri":"/","headers":{}},"status":204}`,
			Entry{Host: "c", Method: "GET", Target: "/", Status: 204, Remote: addr("127.0.0.1")}},
		{"spaces", "  { \"time\" : \"2025-10-10T20:55:36Z\" , \"path\" : \"/\" }  ", Entry{Target: "/"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range []Format{Auto, JSON} {
				got, st, err := readAll(t, tt.line+"\n", f)
				if err != nil || len(got) != 1 {
					t.Fatalf("%v: got %v, %+v, %v", f, got, st, err)
				}
				want := tt.want
				want.Line = 1
				want.Time = t0
				switch tt.name {
				case "@timestamp fraction":
					want.Time = t0.Add(123456789)
				case "unix fraction":
					want.Time = t0.Add(500 * time.Millisecond)
				}
				if !sameEntry(got[0], want) {
					t.Errorf("%v:\n got %+v\nwant %+v", f, got[0], want)
				}
			}
		})
	}
}

func TestJSONBad(t *testing.T) {
	for _, tt := range []struct{ name, line, why string }{
		{"no time", `{"path":"/"}`, "no time"},
		{"no path", `{"time":"2025-10-10T20:55:36Z"}`, "no path"},
		{"bad time", `{"time":"yesterday","path":"/"}`, `bad time "yesterday"`},
		{"bad unix", `{"time":1.5e9,"path":"/"}`, `bad time 1.5e9`},
		{"bool time", `{"time":true,"path":"/"}`, `bad time true`},
		{"bad status", `{"time":1760129736,"path":"/","status":"OK"}`, `bad status "OK"`},
		{"no request", `{"time":1760129736,"request":"-"}`, "no request"},
		{"malformed request", `{"time":1760129736,"request":"\u0016\u0003\u0001"}`, "malformed request"},
		{"caddy request not an object", `{"ts":1760129736,"request":{"uri":5}}`, "JSON request: json: cannot unmarshal number into Go struct field caddyRequest.uri of type string"},
		{"array", `[1,2]`, "JSON: json: cannot unmarshal array into Go value of type accesslog.jsonLine"},
		{"truncated", `{"time":1760129736,"path":"/`, "JSON: unexpected end of JSON input"},
		{"nginx default escaping", `{"time":1760129736,"path":"/\x16"}`, `JSON: invalid character 'x' in string escape code`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, st, err := readAll(t, tt.line+"\n", JSON)
			if err != nil || st.Entries != 0 || st.Bad != 1 {
				t.Fatalf("got %+v, %v", st, err)
			}
			if want := "line 1: " + tt.why; st.FirstBad != want && !(strings.HasPrefix(tt.why, "JSON") && strings.HasPrefix(st.FirstBad, "line 1: JSON")) {
				t.Errorf("FirstBad %q, want %q", st.FirstBad, want)
			}
		})
	}
	// A fixed format reads every line so.
	const clf = `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET / HTTP/1.1" 200 1 "-" "x"`
	if _, st, _ := readAll(t, clf+"\n", JSON); st.Bad != 1 || !strings.HasPrefix(st.FirstBad, "line 1: JSON: ") {
		t.Errorf("CLF as JSON: %+v", st)
	}
	if _, st, _ := readAll(t, `{"time":1760129736,"path":"/"}`+"\n", Combined); st.Bad != 1 || st.FirstBad != "line 1: no [time]" {
		t.Errorf("JSON as CLF: %+v", st)
	}
}

func TestMixed(t *testing.T) {
	in := `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET /a HTTP/1.1" 200 1 "-" "x"` + "\n" +
		`{"time":"2025-10-10T20:55:37Z","path":"/b","user_agent":"x"}` + "\n"
	got, st, err := readAll(t, in, Auto)
	if err != nil || len(got) != 2 || got[0].Target != "/a" || got[1].Target != "/b" || got[1].Time.Sub(got[0].Time) != time.Second || st.Bad != 0 {
		t.Errorf("got %+v %+v %v", got, st, err)
	}
}

func gz(t testing.TB, s string) []byte {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestGzip(t *testing.T) {
	const a = `1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "GET /a HTTP/1.1" 200 1 "-" "x"` + "\n"
	const b = `{"time":"2025-10-10T20:55:37Z","path":"/b","user_agent":"x"}` + "\n"
	single := gz(t, a+b)
	multi := append(gz(t, a), gz(t, b)...)
	for name, in := range map[string][]byte{"single": single, "multi": multi} {
		got, st, err := readAll(t, string(in), Auto)
		if err != nil || len(got) != 2 || got[0].Target != "/a" || got[1].Target != "/b" || got[1].Line != 2 {
			t.Errorf("%s: got %+v %v", name, got, err)
		}
		if st.Bytes != int64(len(in)) || st.Lines != 2 {
			t.Errorf("%s: stats %+v, %d bytes of input", name, st, len(in))
		}
	}

	// A broken header fails NewReader.
	if _, err := NewReader(bytes.NewReader([]byte{0x1f, 0x8b, 0x09, 0, 0}), Auto); err == nil {
		t.Error("NewReader took a broken gzip header")
	}

	// Corrupt data mid-way: the lines before, then an error.
	big := strings.Repeat(a, 2000)
	z := gz(t, big)
	for name, in := range map[string][]byte{
		"corrupt":   append(append([]byte(nil), z[:len(z)/2]...), bytes.Repeat([]byte{0xff}, 64)...),
		"truncated": z[:len(z)/2],
		"checksum":  append(append([]byte(nil), z[:len(z)-8]...), 0, 0, 0, 0, 0, 0, 0, 0),
		"trailing":  append(append([]byte(nil), z...), "garbage"...),
	} {
		got, _, err := readAll(t, string(in), Auto)
		if err == nil || err == io.EOF {
			t.Errorf("%s: no error after %d entries", name, len(got))
			continue
		}
		var r *Reader
		r, _ = NewReader(bytes.NewReader(in), Auto)
		var e Entry
		var err2 error
		for err2 == nil {
			err2 = r.Next(&e)
		}
		if r.Next(&e) != err2 {
			t.Errorf("%s: the error is not sticky", name)
		}
		if !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, gzip.ErrChecksum) && !errors.Is(err, gzip.ErrHeader) && !strings.Contains(err.Error(), "corrupt") {
			t.Errorf("%s: error %v does not wrap the cause", name, err)
		}
		t.Logf("%s: %d entries, then %v", name, len(got), err)
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func TestReadError(t *testing.T) {
	boom := errors.New("boom")
	r, err := NewReader(io.MultiReader(strings.NewReader("garbage\n"), errReader{boom}), Auto)
	if err != nil {
		t.Fatal(err)
	}
	var e Entry
	if err := r.Next(&e); !errors.Is(err, boom) {
		t.Errorf("got %v", err)
	}
	if st := r.Stats(); st.Bad != 1 || st.Lines != 1 {
		t.Errorf("stats %+v", st)
	}
}

func TestFormat(t *testing.T) {
	for _, f := range []Format{Auto, Combined, JSON} {
		g, err := ParseFormat(strings.ToUpper(f.String()))
		if err != nil || g != f {
			t.Errorf("%v: %v %v", f, g, err)
		}
	}
	if _, err := ParseFormat("clf"); err == nil {
		t.Error("clf read as a format")
	}
	if s := Format(9).String(); s != "Format(9)" {
		t.Error(s)
	}
	if _, err := NewReader(strings.NewReader(""), Format(9)); err == nil {
		t.Error("NewReader took Format(9)")
	}
}

// TestAllocs checks that a combined line costs about one allocation, its
// target, when its User-Agent, client and hour are those of the line
// before.
func TestAllocs(t *testing.T) {
	if testing.Short() {
		t.Skip("counts allocations: not in -short")
	}
	in := strings.Repeat(`66.249.66.1 - - [10/Oct/2025:13:55:36 -0700] "GET /private/x?a=1 HTTP/1.1" 200 2326 "-" "`+googlebot+`"`+"\n", 1000)
	r, _ := NewReader(strings.NewReader(in), Auto)
	var e Entry
	r.Next(&e)
	n := testing.AllocsPerRun(100, func() {
		if err := r.Next(&e); err != nil {
			t.Fatal(err)
		}
	})
	if n > 1 {
		t.Errorf("%v allocations a line", n)
	}
}
