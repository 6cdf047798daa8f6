package lint_test

import (
	"fmt"

	"github.com/robotskit/robots/lint"
)

func ExampleFormatWith() {
	src := "User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /\n"
	out, err := lint.FormatWith([]byte(src), lint.FormatOptions{SortRules: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(string(out))
	// Output:
	// User-agent: *
	// Allow: /a/b
	// Disallow: /a
	// Disallow: /
}
