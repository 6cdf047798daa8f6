package meta_test

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/robotskit/robots/meta"
)

// The per-robot example of Google's robots meta tag documentation: the
// generic tag and Googlebot's own tag add up for Googlebot; another robot
// reads only the generic one.
func ExampleFor() {
	page := `<html><head>
<meta name="robots" content="nofollow">
<meta name="googlebot" content="noindex">
</head></html>`
	doc, _ := meta.ReadHTML(strings.NewReader(page), meta.DefaultMaxBytes)
	for _, robot := range []string{"Googlebot", "bingbot"} {
		v := meta.For(doc.Directives, robot)
		fmt.Printf("%s: noindex=%v nofollow=%v\n", robot, v.NoIndex, v.NoFollow)
	}
	// Output:
	// Googlebot: noindex=true nofollow=true
	// bingbot: noindex=false nofollow=true
}

func ExampleFromHeader() {
	h := http.Header{}
	h.Add("X-Robots-Tag", "googlebot: unavailable_after: 25 Jun 2010 15:00:00 PST")
	h.Add("X-Robots-Tag", "max-snippet:20, nosnippet")
	v := meta.For(meta.FromHeader(h), "Googlebot")
	fmt.Println(v.UnavailableAfter, v.Indexable(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), v.Snippet())
	// Output:
	// 2010-06-25 23:00:00 +0000 UTC false false
}
