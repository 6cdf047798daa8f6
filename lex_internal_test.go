package robots

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/robotskit/robots/syntax"
)

// sameAsCompile fails t unless Parse(src, p) makes the very rules that
// Compile(syntax.Parse(src), p) makes, under every profile: Parse reads the
// frequent lines its own short way (read), and must agree with the
// reading of syntax.Parse on everything Rules keep, not only on verdicts.
func sameAsCompile(t *testing.T, src []byte) {
	t.Helper()
	f := syntax.Parse("", src)
	for _, p := range Profiles() {
		got, want := Parse(src, p), Compile(f, p)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("[%v] Parse and Compile(syntax.Parse) differ for %q:\nParse:   %+v\nCompile: %+v", p, src, got, want)
		}
		if got.sem.noWildcards {
			continue // '*' and '$' are data: bucketOf does not apply
		}
		for i := range got.rules {
			ru := &got.rules[i]
			if pat := got.text[ru.off : ru.off+uint32(ru.n)]; ru.bucket() != bucketOf(pat) {
				t.Fatalf("[%v] rule %q: bucket %d, bucketOf %d", p, pat, ru.bucket(), bucketOf(pat))
			}
		}
	}
}

// lexCases are lines at the edges of read's short way.
var lexCases = []string{
	"",
	"User-agent: *\nDisallow: /\nAllow: /a$\n",
	"\xEF\xBB\xBFUser-agent: *\r\nDisallow: /x\r\n\r\nAllow: /x/index.html\r\n",
	"\xEFUser-agent: *\rDisallow: /%e3%83%84\r",
	"USER-AGENT:a\nDISALLOW:/a\nALLOW:/b",
	"user-agent \t : a # c\ndisallow\t:\t/a #c\nallow :\v/b\v\n",
	"useragent: a\ndisallowed: /x\nallows: /y\nuser-agents: b\ndisallow /c\n",
	"User-agent: a\nDisallow: /a\x00b\nAllow: /c#d\x00\n",
	"User-agent: a\n\nDisallow: /a\n \nAllow: /b\n# c\nDisallow: /d\n",
	"User-agent: a\nDisallow: /a*b$\nDisallow: *x\nAllow: /é\nAllow: $\nDisallow: x\nDisallow:\n",
	"Disallow: /before\nUser-agent: a\nSitemap: https://x/s.xml\nCrawl-delay: 2\nDisallow: /a\n",
	"User-agent: a\nDisallow: /" + strings.Repeat("a", syntax.MaxLineLen) + "\nAllow: /b\n",
	"User-agent: a\nDisallow: /" + strings.Repeat("a", syntax.MaxLineLen-11) + "\nAllow: /b\n",
	"User-agent: a\nDisallow: /" + strings.Repeat("a", syntax.MaxLineLen-10) + "\n",
	"User-agent: a\nDisallow: /" + strings.Repeat("a", syntax.MaxLineLen-12) + "#" + strings.Repeat("c", 30) + "\n",
	"User-agent: a\nAllow: /x\nDisallow: /",
	"User-agent: a\nAllow: /x\nDisallow",
	"User-agent: a\nAllow:",
	"User-agent: a\nAllow: /abcdefg#",
	"User-agent: a\nAllow: /abcdefgh\x00",
	"User-agent: a\nAllow: /abcdefghijklmno\n\rDisallow: /abcdefghijklmnopqrstu   \t\n",
	"User-agent: a\nAllow: /d/index.html\nAllow: /e/index.htm$\nAllow: index.html\n",
	"User-agent\n: a\nuser-agent-x: b\nDisallow : /z\n",
	"Sitemap: https://x/s.xml#y\nUser-agent: a\nCRAWL-DELAY\t: 5 \nhost:x\nDisallow: /a\nRobot-version: 2.0\nComment: hi\n",
	"User-agent: a\nnoindex: /x\nsitemaps: /y\nsite-map: /z\nVisit-time:0100-0200\nClean-param: a /b\nRequest-rate: 1/5\n",
	"User-agent: a\nDisallow: /abcdefé\nAllow: /ab$\r\nDisallow: /a#bcdefghijklmnop\nDisallow: /ab%cdef\nDisallow: /abcdefgh",
	"User-agent: a\nDisallow: /a\x00bcdefghijklmnopq\r\nAllow: /abcdefghijklmn*\nAllow: /abcdefg\x80\n",
	"User-agent: a\nCrawl_delay: 1\nCrawl-delay 2\nRobot-versions: 1\nhost\vhost: y\nAllow-: /q\nsitemap:",
}

func TestParseSameAsCompile(t *testing.T) {
	for _, c := range lexCases {
		sameAsCompile(t, []byte(c))
	}
}

// TestParseSameAsCompileConformance runs sameAsCompile on every robots.txt
// body of the conformance sets in testdata.
func TestParseSameAsCompileConformance(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "conformance", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance sets: %v", err)
	}
	seen := map[string]bool{}
	for _, name := range files {
		fh, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var c struct {
				Robots    string  `json:"robots"`
				RobotsB64 *string `json:"robots_b64"`
			}
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			body := c.Robots
			if c.RobotsB64 != nil {
				b, err := base64.StdEncoding.DecodeString(*c.RobotsB64)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				body = string(b)
			}
			if !seen[body] {
				seen[body] = true
				sameAsCompile(t, []byte(body))
			}
		}
		fh.Close()
	}
	if len(seen) < 100 {
		t.Fatalf("only %d bodies read", len(seen))
	}
}

// FuzzParseCompile holds Parse and Compile(syntax.Parse) to the same rules.
func FuzzParseCompile(f *testing.F) {
	for _, c := range lexCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sameAsCompile(t, src)
	})
}
