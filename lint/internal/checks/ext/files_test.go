package ext_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

// TestUsageFiles checks two whole files as package lint does: one laid
// out as Cloudflare's managed robots.txt lays it out (its policy comment,
// its "User-agent: *" group with a Content-signal line and its groups
// disallowing AI crawlers, in front of the site's own file, which has a
// "*" group of its own with Content-Usage rules), and one with RSL 1.0
// License lines. The checks of usage preferences find what the files hold
// wrong, and no usage line is an unknown directive (RB303) or a field
// nobody uses (RB671).
func TestUsageFiles(t *testing.T) {
	for _, tc := range []struct {
		file string
		want []string // "line CODE", in order
	}{
		{"cloudflare-managed.txt", []string{
			"18 RB680", // Applebot-Extended while Applebot is blocked (line 51)
			"42 RB677", // a second Content-Signal for "*"
			"42 RB672", // ai-input=allow
			"43 RB674", // train-ai=no
			"44 RB673", // blog/
			"46 RB676", // /admin/ is disallowed
			"48 RB675", // /docs/ y then n
		}},
		{"rsl.txt", []string{
			"8 RB679",  // Crawl-delay for Applebot-Extended
			"12 RB676", // /private/ is disallowed
			"15 RB678", // a relative License
			"16 RB678", // ftp:
		}},
	} {
		src, err := os.ReadFile(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range lint.Run(syntax.Parse(tc.file, src), &lint.Config{AllRobots: true, URL: "https://example.com/robots.txt"}) {
			switch c := d.Check.Code; {
			case c == "RB303" || c == "RB671":
				t.Errorf("%s:%d: %s %s", tc.file, d.Line, c, d.Message)
			case c >= "RB672" && c <= "RB680":
				got = append(got, fmt.Sprintf("%d %s", d.Line, c))
			}
		}
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("%s:\n%s\nwant:\n%s", tc.file, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}
