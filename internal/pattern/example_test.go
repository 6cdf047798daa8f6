package pattern_test

import (
	"fmt"

	"github.com/robotskit/robots/internal/pattern"
)

func ExampleMatch() {
	for _, c := range []struct{ path, pat string }{
		{"/fish/salmon.html", "/fish"},
		{"/catfish", "/fish"},
		{"/folder/filename.php?x=1", "/*.php"},
		{"/folder/filename.php?x=1", "/*.php$"},
		{"/filename.php", "/*.php$"},
		{"/a$b", "/a$b"},
		{"/anything", ""},
	} {
		fmt.Printf("%-26q %-10q %v\n", c.path, c.pat, pattern.Match(c.path, c.pat))
	}
	// Output:
	// "/fish/salmon.html"        "/fish"    true
	// "/catfish"                 "/fish"    false
	// "/folder/filename.php?x=1" "/*.php"   true
	// "/folder/filename.php?x=1" "/*.php$"  false
	// "/filename.php"            "/*.php$"  true
	// "/a$b"                     "/a$b"     true
	// "/anything"                ""         true
}

func ExampleAppendGoogle() {
	for _, v := range []string{"/a/b/c", "/ツ", "/%e3%83%84", "/100%", "/%zz*$"} {
		fmt.Printf("%s -> %s\n", v, pattern.AppendGoogle(nil, v))
	}
	// Output:
	// /a/b/c -> /a/b/c
	// /ツ -> /%E3%83%84
	// /%e3%83%84 -> /%E3%83%84
	// /100% -> /100%
	// /%zz*$ -> /%zz*$
}

func ExampleAppendRFC() {
	rule := pattern.AppendRFC(nil, "/path/file-with-a-%2A.html", pattern.Rule)
	path := pattern.AppendRFC(nil, "/path/file-with-a-*.html", pattern.Path)
	fmt.Printf("%s %s %v\n", rule, path, pattern.Match(string(path), string(rule)))
	fmt.Printf("%s\n", pattern.AppendRFC(nil, "/%7ejoe/%62az?q=%2f", pattern.Path))
	// Output:
	// /path/file-with-a-%2A.html /path/file-with-a-%2A.html true
	// /~joe/baz?q=/
}
