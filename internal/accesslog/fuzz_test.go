package accesslog

import (
	"bytes"
	"io"
	"net/netip"
	"testing"
)

func FuzzReader(f *testing.F) {
	for _, s := range []string{
		`66.249.66.1 - - [10/Oct/2025:13:55:36 -0700] "GET /private/x?a=1 HTTP/1.1" 200 2326 "-" "` + googlebot + `"`,
		`www.example.com:443 66.249.66.1 - - [10/Oct/2025:13:55:36 -0700] "GET http://h/ HTTP/1.1" 200 - "-" "a \"b\" \x41\\"` + "\r\n",
		`127.0.0.1 - frank [10/Oct/2025:13:55:36 +0000] "GET /apache_pb.gif HTTP/1.0" 200 2326`,
		`1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] "\x16\x03\x01" 400 0 "-" "-"`,
		`{"time":"2025-10-10T20:55:36Z","host":"example.com","path":"/x","status":200,"user_agent":"x"}`,
		`{"time_local":"10/Oct/2025:13:55:36 -0700","remote_addr":"::1","request":"GET /a HTTP/1.1","status":"404"}`,
		`{"ts":1760129736.5,"request":{"remote_ip":"127.0.0.1","method":"GET","host":"c","uri":"/","headers":{"User-Agent":["u"]}},"status":204}`,
		"\n\n\x00\xff[",
	} {
		f.Add([]byte(s + "\n" + s))
	}
	f.Add(gz(f, "1.2.3.4 - - [10/Oct/2025:13:55:36 -0700] \"GET / HTTP/1.1\" 200 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range []Format{Auto, Combined, JSON} {
			r, err := NewReader(bytes.NewReader(data), format)
			if err != nil {
				continue
			}
			var e Entry
			n := int64(0)
			for {
				err := r.Next(&e)
				if err != nil {
					if err != io.EOF && r.Next(&e) != err {
						t.Fatalf("error %v is not sticky", err)
					}
					break
				}
				n++
				if e.Line < 1 || e.Line > r.Stats().Lines {
					t.Fatalf("line %d of %d", e.Line, r.Stats().Lines)
				}
				if e.Target == "" {
					t.Fatalf("entry without a target: %+v", e)
				}
			}
			st := r.Stats()
			if st.Entries != n || st.Entries+st.Bad > st.Lines || st.Bad > 0 && st.FirstBad == "" {
				t.Fatalf("stats %+v after %d entries", st, n)
			}
			if st.Bytes > int64(len(data)) {
				t.Fatalf("read %d bytes of %d", st.Bytes, len(data))
			}
		}
	})
}

func FuzzParseRanges(f *testing.F) {
	f.Add([]byte(googleShape), []byte{66, 249, 66, 1})
	f.Add([]byte(`{"prefixes":[{"ipv4Prefix":"0.0.0.0/0"},{"ipv6Prefix":"::/0"}]}`), []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4})
	f.Add([]byte(`{"prefixes":[{"ipv6Prefix":"::ffff:1.2.3.0/120"}]}`), []byte{1, 2, 3, 4})
	f.Fuzz(func(t *testing.T, data, ip []byte) {
		r, err := ParseRanges(data)
		if err != nil {
			if r != nil {
				t.Fatal("ranges with an error")
			}
			return
		}
		a, ok := netip.AddrFromSlice(ip)
		if !ok {
			return
		}
		got := r.Contains(a)
		// The slow way: each prefix of the document.
		want := false
		for _, s := range r.v4 {
			x := a.Unmap()
			if x.Is4() {
				b := x.As4()
				v := uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
				want = want || s.lo <= v && v <= s.hi
			}
		}
		for _, s := range r.v6 {
			x := a.Unmap()
			want = want || x.Is6() && s.lo.Compare(x) <= 0 && x.Compare(s.hi) <= 0
		}
		if got != want {
			t.Fatalf("Contains(%v) = %v, spans say %v", a, got, want)
		}
		for i := 1; i < len(r.v4); i++ {
			if r.v4[i].lo <= r.v4[i-1].hi {
				t.Fatalf("v4 spans overlap: %v", r.v4)
			}
		}
		for i := 1; i < len(r.v6); i++ {
			if r.v6[i].lo.Compare(r.v6[i-1].hi) <= 0 {
				t.Fatalf("v6 spans overlap: %v", r.v6)
			}
		}
	})
}
