package accesslog

import (
	"fmt"
	"net/netip"
	"strings"
	"testing"
)

// googleShape is the start of Google's googlebot.json
// (https://developers.google.com/static/search/apis/ipranges/googlebot.json).
const googleShape = `{
  "creationTime": "2025-10-10T15:46:04.000000",
  "prefixes": [
    {
      "ipv6Prefix": "2001:4860:4801:10::/64"
    },
    {
      "ipv6Prefix": "2001:4860:4801:12::/64"
    },
    {
      "ipv4Prefix": "66.249.64.0/27"
    },
    {
      "ipv4Prefix": "66.249.64.32/27"
    },
    {
      "ipv4Prefix": "66.249.66.0/27"
    },
    {
      "ipv4Prefix": "192.178.4.0/27"
    }
  ]
}`

func TestRanges(t *testing.T) {
	r, err := ParseRanges([]byte(googleShape))
	if err != nil {
		t.Fatal(err)
	}
	if r.Len() != 6 {
		t.Errorf("Len %d", r.Len())
	}
	for _, tt := range []struct {
		addr string
		want bool
	}{
		{"66.249.66.1", true},
		{"66.249.66.0", true},
		{"66.249.66.31", true},
		{"66.249.66.32", false},
		{"66.249.65.255", false},
		{"66.249.64.63", true}, // the two joined /27s
		{"66.249.64.64", false},
		{"66.249.63.255", false},
		{"192.178.4.5", true},
		{"0.0.0.0", false},
		{"255.255.255.255", false},
		{"::ffff:66.249.66.1", true},
		{"::ffff:66.249.66.33", false},
		{"2001:4860:4801:10::1", true},
		{"2001:4860:4801:10:ffff:ffff:ffff:ffff", true},
		{"2001:4860:4801:11::", false},
		{"2001:4860:4801:12::abcd", true},
		{"2001:4860:4801:13::", false},
		{"2001:4860:4801:f::ffff", false},
		{"fe80::1%eth0", false},
		{"::", false},
	} {
		if got := r.Contains(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.addr, got, tt.want)
		}
	}
	if r.Contains(netip.Addr{}) {
		t.Error("contains the zero Addr")
	}
	var nilR *Ranges
	if nilR.Contains(netip.MustParseAddr("66.249.66.1")) || nilR.Len() != 0 {
		t.Error("nil Ranges")
	}
}

func TestRangesEdges(t *testing.T) {
	for _, tt := range []struct {
		json string
		in   []string
		out  []string
		n    int
	}{
		{`{"prefixes":[]}`, nil, []string{"1.2.3.4", "::1"}, 0},
		{`{"prefixes":[{"ipv4Prefix":"0.0.0.0/0"}]}`, []string{"0.0.0.0", "255.255.255.255", "::ffff:1.2.3.4"}, []string{"::1"}, 1},
		{`{"prefixes":[{"ipv6Prefix":"::/0"}]}`, []string{"::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "fe80::1%eth0"}, []string{"1.2.3.4"}, 1},
		{`{"prefixes":[{"ipv4Prefix":"10.0.0.5/32"},{"ipv4Prefix":"10.0.0.1/24"},{"ipv4Prefix":"10.0.0.0/8"}]}`, []string{"10.0.0.5", "10.255.255.255", "10.9.9.9"}, []string{"11.0.0.0", "9.255.255.255"}, 3},
		{`{"prefixes":[{"ipv4Prefix":"255.255.255.255/32"},{"ipv4Prefix":"255.255.255.0/24"}]}`, []string{"255.255.255.255", "255.255.255.0"}, []string{"255.255.254.255"}, 2},
		{`{"prefixes":[{"ipv6Prefix":"::ffff:1.2.3.0/120"}]}`, []string{"1.2.3.4", "::ffff:1.2.3.255"}, []string{"1.2.4.0"}, 1},
		{`{"prefixes":[{"ipv6Prefix":"2001:db8::/33"},{"ipv6Prefix":"2001:db8:8000::/33"},{"ipv6Prefix":"2001:db8:4000::/34"}]}`, []string{"2001:db8::", "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff"}, []string{"2001:db9::", "2001:db7:ffff::"}, 3},
		{`{"syncToken":"1","creationTime":"x","prefixes":[{"ipv4Prefix":"1.1.1.1/32","ipv6Prefix":"::1/128"}],"extra":[1,2]}`, []string{"1.1.1.1", "::1"}, []string{"1.1.1.2"}, 2},
	} {
		r, err := ParseRanges([]byte(tt.json))
		if err != nil {
			t.Errorf("%s: %v", tt.json, err)
			continue
		}
		if r.Len() != tt.n {
			t.Errorf("%s: Len %d", tt.json, r.Len())
		}
		for _, a := range tt.in {
			if !r.Contains(netip.MustParseAddr(a)) {
				t.Errorf("%s: does not contain %s", tt.json, a)
			}
		}
		for _, a := range tt.out {
			if r.Contains(netip.MustParseAddr(a)) {
				t.Errorf("%s: contains %s", tt.json, a)
			}
		}
	}
}

func TestRangesBad(t *testing.T) {
	many := `{"prefixes":[` + strings.Repeat(`{},`, 100_000) + `{}]}` // under 1 MiB
	for _, tt := range []struct{ json, err string }{
		{``, "unexpected end of JSON input"},
		{`[]`, "cannot unmarshal array"},
		{`{"prefixes":`, "unexpected end"},
		{`{}`, `no "prefixes" list`},
		{`{"prefixes":null}`, `no "prefixes" list`},
		{`{"prefixes":[{}]}`, "prefix 0 has neither ipv4Prefix nor ipv6Prefix"},
		{`{"prefixes":[{"ipv4Prefix":"1.2.3.0/24"},{"ipv4Prefix":"66.249.64.0/33"}]}`, `prefix 1: bad ipv4Prefix "66.249.64.0/33"`},
		{`{"prefixes":[{"ipv4Prefix":"2001:db8::/32"}]}`, `bad ipv4Prefix "2001:db8::/32"`},
		{`{"prefixes":[{"ipv6Prefix":"1.2.3.0/24"}]}`, `bad ipv6Prefix "1.2.3.0/24"`},
		{`{"prefixes":[{"ipv6Prefix":"fe80::%eth0/64"}]}`, `bad ipv6Prefix`},
		{`{"prefixes":[{"ipv4Prefix":"1.2.3.4"}]}`, `bad ipv4Prefix "1.2.3.4"`},
		{`{"prefixes":[{"ipv4Prefix":5}]}`, `cannot unmarshal number`},
		{many, "more than the 100000 allowed"},
		{`{"prefixes":[], "pad":"` + strings.Repeat("x", 1<<20) + `"}`, "more than the 1048576 allowed"},
	} {
		_, err := ParseRanges([]byte(tt.json))
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			name := tt.json
			if len(name) > 60 {
				name = fmt.Sprintf("%s… (%d bytes)", name[:60], len(name))
			}
			t.Errorf("%s: got %v, want %q", name, err, tt.err)
		}
	}
}
