package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDiffURLs: OLD and NEW may be sites, fetched as robots check fetches
// them; an answer that holds no file is an error (exit 2), since there is
// nothing to compare, and a file may be compared with a site.
func TestDiffURLs(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /private\n"))
	})
	mux.HandleFunc("/v2/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /private\nDisallow: /drafts\n"))
	})
	mux.HandleFunc("/down/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	out, errs, code := runCLI(t, srv, "diff", "-format", "json", srv.URL, srv.URL+"/v2/robots.txt", "/drafts/a", "/private/a")
	var rep struct {
		Old, New string
		Changed  bool
		Families []struct {
			Profile string
			Robots  []struct {
				Robot   string
				Changes []struct{ URL string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if code != exitFinding || !rep.Changed || rep.Old != "$SERVER" || rep.New != "$SERVER/v2/robots.txt" ||
		!strings.Contains(errs, "robots: fetched $SERVER/robots.txt: robots.txt HTTP 200, google") {
		t.Errorf("exit %d, stderr %q, report %+v", code, errs, rep)
	}
	for _, f := range rep.Families {
		for _, rb := range f.Robots {
			if len(rb.Changes) != 1 || rb.Changes[0].URL != "/drafts/a" {
				t.Errorf("%s (%s): %+v, want /drafts/a only", rb.Robot, f.Profile, rb.Changes)
			}
		}
	}

	_, errs, code = runCLI(t, srv, "diff", srv.URL, srv.URL+"/down/robots.txt")
	if code != exitError || !strings.Contains(errs, "no file to compare (robots.txt HTTP 503, google: robots.txt unreachable") {
		t.Errorf("a 503: exit %d, stderr %q", code, errs)
	}

	file := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(file, []byte("User-agent: *\nDisallow: /private\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	out, _, code = runCLI(t, srv, "diff", file, srv.URL)
	if code != exitOK || !strings.Contains(out, "No verdict changes") {
		t.Errorf("a file and the same site: exit %d\n%s", code, out)
	}
}

// TestDiffStdin: one of OLD and NEW may be standard input, not both.
func TestDiffStdin(t *testing.T) {
	file := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(file, []byte("User-agent: *\nDisallow: /a\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"diff", "-", file}, strings.NewReader("User-agent: *\nDisallow: /b\n"), &out, &errb)
	if code != exitFinding || !strings.Contains(out.String(), "old: <stdin>\n") || !strings.Contains(out.String(), "line 2: Disallow: /b") {
		t.Errorf("- FILE: exit %d, stderr %q\n%s", code, errb.String(), out.String())
	}
	out.Reset()
	errb.Reset()
	code = run(context.Background(), []string{"diff", "-", "-"}, strings.NewReader(""), &out, &errb)
	if code != exitError || !strings.Contains(errb.String(), "given twice") {
		t.Errorf("- -: exit %d, stderr %q", code, errb.String())
	}
	for _, args := range [][]string{
		{"diff", "-robots", "some", file, file},
		{"diff", file, file, "nopath"},
		{"diff", "-format", "xml", file, file},
	} {
		errb.Reset()
		if code := run(context.Background(), args, strings.NewReader(""), &out, &errb); code != exitError || !strings.Contains(errb.String(), "Try: robots diff -h") {
			t.Errorf("robots %s: exit %d, stderr %q", strings.Join(args, " "), code, errb.String())
		}
	}
}

// TestDiffWidth: the text report keeps to 80 columns and escapes what the
// files hold, however long their paths and rules.
func TestDiffWidth(t *testing.T) {
	long := "/" + strings.Repeat("very-long-segment/", 8)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	os.WriteFile(a, []byte("User-agent: *\nDisallow: "+long+"\x1b[31m\n"), 0o666)
	os.WriteFile(b, []byte("User-agent: *\nAllow: /\n"), 0o666)
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"diff", a, b}, strings.NewReader(""), &out, &errb)
	if code != exitFinding {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	for _, l := range strings.Split(strings.ReplaceAll(out.String(), dir, "$WORK"), "\n") {
		if n := utf8.RuneCountInString(l); n > width {
			t.Errorf("line of %d columns: %q", n, l)
		}
		if strings.Contains(l, "\x1b") {
			t.Errorf("unescaped control character: %q", l)
		}
	}
}
