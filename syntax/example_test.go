package syntax_test

import (
	"fmt"

	"github.com/robotskit/robots/syntax"
)

func ExampleParse() {
	src := "# robots.txt for example.com\n" +
		"User-agent: Googlebot\n" +
		"Disallow: /private # not for crawlers\n" +
		"disalow /tmp\n" +
		"\n" +
		"Sitemap: https://example.com/sitemap.xml\n" +
		"this is not a directive\n"
	f := syntax.Parse("robots.txt", []byte(src))
	for _, l := range f.Lines {
		fmt.Printf("%s %v", l.Span.Start, l.Kind)
		if l.Kind == syntax.DirectiveLine {
			fmt.Printf(" %s=%q", l.Field, f.Text(l.Value))
		}
		if l.Flags&syntax.Lenient != 0 {
			fmt.Print(" (lenient)")
		}
		if l.Flags&syntax.MissingColon != 0 {
			fmt.Print(" (missing colon)")
		}
		fmt.Println()
	}
	// Output:
	// 1:1 comment
	// 2:1 directive User-agent="Googlebot"
	// 3:1 directive Disallow="/private"
	// 4:1 directive Disallow="/tmp" (lenient) (missing colon)
	// 5:1 blank
	// 6:1 directive Sitemap="https://example.com/sitemap.xml"
	// 7:1 invalid
}
