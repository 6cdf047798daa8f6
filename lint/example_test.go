package lint_test

import (
	"fmt"
	"os"

	"github.com/robotskit/robots/lint"
	"github.com/robotskit/robots/syntax"
)

func ExampleRun() {
	src := "User-agent: *\nDisallow: admin/\nDisalow: /tmp/\n"
	f := syntax.Parse("robots.txt", []byte(src))
	for _, d := range lint.Run(f, nil) {
		fmt.Println(d.String())
		fmt.Println("  affects", d.Families(), "fix", d.Fix.ID, d.Fix.Class)
	}
	// Output:
	// 2:11: error RB501 Rule path "admin/" does not start with "/"; Google never matches it
	//   affects [GOOG YNDX RFC GOT] fix FX25 I
	// 3:1: warning RB305 "Disalow" is read as "Disallow" by Google but ignored by most other robots
	//   affects [RFC YNDX BING FM S94 GOT] fix FX08 I
}

func ExampleFold() {
	src := "User-agent: *\nDisallow: /a*\nDisallow: /b*\n"
	f := syntax.Parse("robots.txt", []byte(src))
	for _, d := range lint.Fold(lint.Run(f, &lint.Config{AllRobots: true})) {
		fmt.Println(d.String())
		fmt.Println("  lines", d.Lines, "edits", d.Fix.Edits)
	}
	// Output:
	// 2:11: warning RB509 Trailing "*" is implicit for wildcard robots and makes the rule match nothing for the others
	//   lines [2 3] edits [{26 27 } {40 41 }]
}

func ExampleWriteText() {
	src := "User-agent: *\nDisallow: admin/\n"
	f := syntax.Parse("robots.txt", []byte(src))
	if err := lint.WriteText(os.Stdout, f, lint.Fold(lint.Run(f, nil))); err != nil {
		fmt.Println(err)
	}
	// Output:
	// robots.txt:2:11: error RB501 Rule path "admin/" does not start with "/"; Google never matches it
	//     2 | Disallow: admin/
	//       |           ^
}

func ExampleFix() {
	src := "User-agent: *\nDisalow: /tmp/\n\nDisallow: /private/\nDisallow: admin/\n"
	res := lint.Fix([]byte(src), &lint.FixOptions{Enable: []string{"FX25"}})
	fmt.Print(string(res.Output))
	for _, d := range res.Applied {
		fmt.Println("applied:", d.Fix.ID, d.Fix.Class, d.Fix.Message)
	}
	for _, d := range res.Skipped {
		fmt.Println("skipped:", d.Fix.ID, d.Fix.Class, d.Fix.Message)
	}
	// Output:
	// User-agent: *
	// Disalow: /tmp/
	// Disallow: /private/
	// Disallow: /admin/
	// applied: FX12 PG remove the blank lines inside the group
	// applied: FX25 I write the path from the root
	// skipped: FX08 I write the canonical name
}

func ExampleFormat() {
	src := "# example\nuser-agent: *\nDisallow: /a\nallow: /a/b\nSitemap: https://example.com/sitemap.xml\nUser-agent: Googlebot\nDisallow: /g\n"
	out, err := lint.Format([]byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// # example
	//
	// User-agent: Googlebot
	// Disallow: /g
	//
	// User-agent: *
	// Disallow: /a
	// Allow: /a/b
	//
	// Sitemap: https://example.com/sitemap.xml
}

func ExampleLookup() {
	c := lint.Lookup("path-without-slash")
	fmt.Println(c.Code, c.Severity, c.Title, c.Affects, c.Fix)
	// Output:
	// RB501 error path does not start with "/" [GOOG YNDX RFC GOT] FX25
}
