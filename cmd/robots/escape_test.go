package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestOneEscaping: text from a site reaches the terminal in one
// escaping style, whichever command prints it: an ESC byte of a
// robots.txt line (robots check's source line) and of a page's head
// (robots page's title and directives) is written \x1b, never as the
// raw byte nor as U+FFFD (issue 28, point N9 of the user trial). JSON keeps the raw text; encoding/json escapes it.
// (TestRemoteTextEscaped holds fetch, compare, audit and test to the
// same escaping.)
func TestOneEscaping(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\n# evil comment \x1b[31mRED\x1b[0m here\nDisallow: /x\x1b[31m\n")
	})
	mux.HandleFunc("/esc", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, "<html><head><title>evil \x1b[31mred\x1b[0m title</title>"+
			"<meta name=\"robots\" content=\"nofollow, \x1b[31mbad\"></head><body>x</body></html>")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"check", srv.URL + "/"}, []string{
			"    2 | # evil comment \\x1b[31mRED\\x1b[0m here\n" +
				"      |                ^\n",
		}},
		{[]string{"page", srv.URL + "/esc"}, []string{
			"  title      evil \\x1b[31mred\\x1b[0m title\n",
			"  meta line 1    \\x1b[31mbad                              ignored\n",
		}},
	} {
		out, errs, _ := runCLI(t, srv, tt.args...)
		all := out + errs
		if strings.Contains(all, "\x1b") || strings.ContainsRune(all, '\uFFFD') {
			t.Errorf("%s: a raw ESC or a U+FFFD reached the terminal:\n%s", tt.args[0], all)
		}
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: no %q in\n%s", tt.args[0], w, out)
			}
		}
	}
	// JSON keeps the text as it came: encoding/json writes ESC as \u001b.
	out, _, _ := runCLI(t, srv, "page", "-format", "json", srv.URL+"/esc")
	if !strings.Contains(out, `"title": "evil \u001b[31mred\u001b[0m title"`) {
		t.Errorf("page -format json does not keep the raw title:\n%s", out)
	}
}
