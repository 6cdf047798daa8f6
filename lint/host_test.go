package lint_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

// TestHostAgreesWithRules: the Host that the checker's messages say Yandex
// uses is the one robots.Rules.Host returns, and a file whose Host lines
// are all invalid is said to have none.
func TestHostAgreesWithRules(t *testing.T) {
	for _, body := range []string{
		"Host: www.myhost-.com\nHost: myhost.com\n",
		"Host: 213.180.194.129\nHost: www.my_host.com\nHost: https://www.myhost.com:8443\nHost: other.com\n",
		"Host: example.com\nHost: www.example.com\n",
		"Host: www.myhost.com:8080/\nHost: my..host.com\n",
	} {
		f := syntax.Parse("robots.txt", []byte(body))
		host, ok := robots.Compile(f, robots.Yandex).Host()
		named := 0
		for _, d := range lint.Run(f, &lint.Config{}) {
			switch d.Check.Code {
			case "RB621", "RB623":
			default:
				continue
			}
			if !ok {
				if !strings.Contains(d.Message, "no Host line of the file is valid") {
					t.Errorf("%q: %s names a Host, Rules.Host has none", body, d.Message)
				}
				continue
			}
			named++
			if !strings.Contains(d.Message, fmt.Sprintf("(%q)", host)) {
				t.Errorf("%q: %s does not name %q, the Host of Rules.Host", body, d.Message, host)
			}
		}
		if ok && named == 0 {
			t.Errorf("%q: no RB621 or RB623 finding names the Host used", body)
		}
	}
}
