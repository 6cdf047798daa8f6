package probe

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/robotskit/robots/syntax"
)

// TestPaths: each rule's value is probed as written and one octet and one
// segment longer, wildcards read as nothing and as a letter; "//" paths
// get a host; a wildcard value crosses the others ("/docs" and "/*.pdf"
// meet at "/docs.pdf", where RFC 9309 §2.2.3's "*" lets one rule reach
// the other's path). No probe holds a marker or a "//" that no rule
// wrote.
func TestPaths(t *testing.T) {
	f := syntax.Parse("", []byte("User-agent: *\nDisallow: /docs\nAllow: /*.pdf$\nDisallow: //x\nDisallow: /admin/\nDisallow: /*/private\nDisallow: /a/**/b\n"))
	got, err := Paths(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"/", "/robots.txt", "/docs", "/docsx", "/docs/x", "/.pdf", "/x.pdf", "/docs.pdf", "/docs/x.pdf",
		Origin + "//x", "/admin/", "/admin/x", "/x/private", "/x/privatex", "/a/x/b"} {
		if !slices.Contains(got, want) {
			t.Errorf("Paths lacks %q: %q", want, got)
		}
	}
	for _, u := range got {
		p := Shown(u)
		if strings.Contains(p, "probe") || strings.Contains(p, "invalid") || strings.Contains(p, "//") && !strings.HasPrefix(p, "//x") {
			t.Errorf("probe %q (shown %q) is not a plain path", u, p)
		}
	}
	if !slices.IsSorted(got) {
		t.Errorf("Paths are not sorted: %q", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var big []byte
	big = append(big, "User-agent: *\n"...)
	for i := range 300 { // 300 × 300 crossings, under maxCross
		big = append(big, "Disallow: /*a"...)
		big = append(big, byte('a'+i%26), '\n')
	}
	if _, err := Paths(ctx, syntax.Parse("", big)); err == nil {
		t.Error("Paths went on after its context ended")
	}
}

// TestSample: more than Max paths are sampled evenly, in order.
func TestSample(t *testing.T) {
	set := map[string]bool{}
	add := Adder(set, nil)
	for i := range 3 * Max {
		add(string(rune('a'+i%26)) + string(rune(0x100+i)))
	}
	got := Sample(set)
	if len(got) != Max || !slices.IsSorted(got) || got[0][0] != '/' {
		t.Errorf("Sample: %d paths, sorted %v, first %q", len(got), slices.IsSorted(got), got[0])
	}
}
