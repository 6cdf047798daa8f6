package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robotskit/robots/internal/txtar"
)

// valueFlags returns the flags of cmd that take a value, read from its
// help as a user would (PrintDefaults writes "-name PLACEHOLDER" for them
// and "-name" alone for booleans).
func valueFlags(t *testing.T, cmd string) map[string]bool {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{cmd, "-h"}, strings.NewReader(""), &out, &errb); code != exitOK {
		t.Fatalf("robots %s -h: exit %d, %s", cmd, code, errb.String())
	}
	m := map[string]bool{}
	for _, l := range strings.Split(out.String(), "\n") {
		if !strings.HasPrefix(l, "  -") {
			continue
		}
		f := strings.Fields(l)
		// flag.PrintDefaults writes a one-letter flag without a value
		// ("-v") and its usage on one line, separated by a tab.
		bare := strings.HasPrefix(l[len("  ")+len(f[0]):], "\t")
		m[strings.TrimPrefix(f[0], "-")] = len(f) > 1 && !bare
	}
	return m
}

// reorder splits args (after the command) into flags, with their values,
// and positional arguments, and returns them positional first ("last")
// and with the flags after the first positional argument ("between").
func reorder(args []string, takesValue map[string]bool) (last, between []string, ok bool) {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil, nil, false
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		flags = append(flags, a)
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if takesValue[name] && !hasValue && i+1 < len(args) {
			i++
			flags = append(flags, args[i])
		}
	}
	if len(flags) == 0 || len(pos) == 0 {
		return nil, nil, false
	}
	last = append(slices.Clone(pos), flags...)
	between = append(append([]string{pos[0]}, flags...), pos[1:]...)
	return last, between, true
}

// TestFlagsAnywhere runs every golden case of testdata/ again with its
// flags after its positional arguments, and with them between the first
// and the rest, and wants the golden output and exit code each time: the
// same command line in another order never gives another answer.
func TestFlagsAnywhere(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	covered := map[string]bool{}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		a := txtar.Parse(data)
		argsText, _ := a.Get("args")
		args := strings.Split(strings.TrimSuffix(string(argsText), "\n"), "\n")
		if len(args) < 2 || lookupCommand(args[0]) == nil {
			continue
		}
		last, between, ok := reorder(args[1:], valueFlags(t, args[0]))
		if !ok {
			continue
		}
		covered[args[0]] = true
		for _, order := range []struct {
			name string
			args []string
		}{{"last", last}, {"between", between}} {
			t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar")+"/"+order.name, func(t *testing.T) {
				work := t.TempDir()
				for _, f := range a.Files {
					if specialSections[f.Name] {
						continue
					}
					p := filepath.Join(work, filepath.FromSlash(f.Name))
					if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, f.Data, 0o666); err != nil {
						t.Fatal(err)
					}
				}
				argv := []string{args[0]}
				for _, s := range order.args {
					argv = append(argv, strings.ReplaceAll(s, "$WORK", work))
				}
				stdin, _ := a.Get("stdin")
				var stdout, stderr bytes.Buffer
				code := run(context.Background(), argv, bytes.NewReader(stdin), &stdout, &stderr)
				for _, sec := range []struct{ name, got string }{
					{"stdout", scrubWork(stdout.String(), work)},
					{"stderr", scrubWork(stderr.String(), work)},
					{"exit", fmt.Sprintln(code)},
				} {
					want, _ := a.Get(sec.name)
					if sec.got != string(want) {
						t.Errorf("robots %s\n%s differs from the golden of the flags-first form:\n--- got ---\n%s--- want ---\n%s", strings.Join(argv, " "), sec.name, sec.got, want)
					}
				}
			})
		}
	}
	for _, c := range []string{"test", "check", "fix", "fmt", "compare", "diff", "audit"} {
		if !covered[c] {
			t.Errorf("no golden case of robots %s has both flags and arguments to reorder", c)
		}
	}
}

// TestFlagsAnywhereNetwork covers the commands that fetch, against a local
// site: each line of the table is run as written, which is the
// documented form, and with every flag moved before the arguments.
func TestFlagsAnywhereNetwork(t *testing.T) {
	srv := site(t)
	pages := pageSite(t)
	for _, args := range [][]string{
		{"fetch", srv.URL + "/old/robots.txt", "-format", "json"},
		{"fetch", srv.URL, "-robot", "YandexBot", "-max-redirects", "3"},
		{"test", "-url", srv.URL, "/private/x", "/public", "-robot", "GPTBot"},
		{"test", "-url", srv.URL, "/private/x", "-agent", "Googlebot", "-format", "json"},
		{"check", srv.URL, "-format", "json", "-timeout", "5s"},
		{"compare", srv.URL, "/private/x", "-robot", "GPTBot"},
		{"diff", srv.URL + "/old/robots.txt", srv.URL, "-robots", "all", "-timeout", "5s"},
		{"audit", srv.URL, "-format", "json"},
		// The contract's own form: robots page URL [-robot NAME] [-format json].
		{"page", pages.URL + "/private/report", "-robot", "Googlebot", "-format", "json"},
	} {
		name := strings.Join(args, " ")
		written, wErr, wCode := runCLI(t, srv, args...)
		flagsFirst := []string{args[0]}
		var pos []string
		takes := valueFlags(t, args[0])
		for i := 1; i < len(args); i++ {
			if a := args[i]; strings.HasPrefix(a, "-") {
				flagsFirst = append(flagsFirst, a)
				if takes[strings.TrimLeft(a, "-")] {
					i++
					flagsFirst = append(flagsFirst, args[i])
				}
			} else {
				pos = append(pos, a)
			}
		}
		flagsFirst = append(flagsFirst, pos...)
		first, fErr, fCode := runCLI(t, srv, flagsFirst...)
		written, first = jsonTimes.ReplaceAllString(written, "…"), jsonTimes.ReplaceAllString(first, "…")
		if wCode == exitError {
			t.Errorf("robots %s: exit 2: %s", name, wErr)
		}
		if written != first || wErr != fErr || wCode != fCode {
			t.Errorf("robots %s and robots %s differ:\nexit %d, %d\n--- as written ---\n%s%s--- flags first ---\n%s%s",
				name, strings.Join(flagsFirst, " "), wCode, fCode, written, wErr, first, fErr)
		}
	}
}

// jsonTimes are the timings and times of JSON reports, which differ from
// run to run.
var jsonTimes = regexp.MustCompile(`"(duration_ms|duration_ns|fetched|expires)": [^,\n]*`)

// TestArgumentMistakes: a flag the command does not have, a URL that is
// neither absolute nor a path, an empty argument, a robot the registry
// does not know, a duration without unit: each is a usage error with exit
// 2 that says what is wrong, and none of them gives a verdict.
func TestArgumentMistakes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(file, []byte("User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		msg  string
	}{
		{[]string{"test", "-file", file, "/x", "-agnet", "Googlebot"}, "-agnet is not a flag of robots test; did you mean -agent?"},
		{[]string{"test", "-file", file, "/x", "--nope"}, "--nope is not a flag of robots test"},
		{[]string{"test", "-file", file, "example.com/nogoogle/a"}, `"example.com/nogoogle/a" is neither a URL nor a path: did you mean https://example.com/nogoogle/a?`},
		{[]string{"test", "-file", file, "nogoogle/a"}, `"nogoogle/a" is neither a URL nor a path: did you mean /nogoogle/a?`},
		{[]string{"test", "-file", file, ""}, "empty URL argument"},
		{[]string{"test", "-file", file, "/x", "-agent"}, "flag -agent needs a value"},
		{[]string{"test", "-file", file, "-robot", "Gogglebot", "/x"}, `unknown robot "Gogglebot"; did you mean Googlebot`},
		{[]string{"test", "-file", file, "-agent", "360Spider", "/x"}, `-agent "360Spider" is not a product token`},
		{[]string{"test", "-url", "http://127.0.0.1:1/", "-timeout", "5", "/x"}, "use a duration such as 5s"},
		{[]string{"test", "-url", "http://127.0.0.1:1/", "-max-redirects", "x", "/x"}, "use a whole number"},
		{[]string{"compare", file, "-robot", "GPTBott"}, `unknown robot "GPTBott"; did you mean GPTBot`},
		{[]string{"compare", file, "nogoogle/a"}, "neither a URL nor a path"},
		{[]string{"fetch", "http://127.0.0.1:1/", "-formt", "json"}, "-formt is not a flag of robots fetch; did you mean -format?"},
		{[]string{"fetch", "127.0.0.1:1:2"}, "is not a URL"},
		{[]string{"page", "http://127.0.0.1:1/", "-robot", "NoSuchBot"}, `unknown robot "NoSuchBot"`},
		{[]string{"fix", "-w", "http://127.0.0.1:1/"}, "-w writes files, and http://127.0.0.1:1/ is a URL"},
		{[]string{"fix", file, file + "2"}, "give -w to write them, -diff to see the changes or -l"},
		{[]string{"fmt", "http://127.0.0.1:1/"}, "is a URL"},
		{[]string{"check", "-", "-"}, "standard input) is given twice"},
		{[]string{"agents", "-purpose", "aii"}, `-purpose "aii": use one of search, ads`},
		{[]string{"serve", "extra"}, "serve takes no arguments"},
		{[]string{"serve", "-rate-limit", "fast"}, "use a number"},
		{[]string{"help", "nosuch"}, `unknown command "nosuch"`},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), tt.args, strings.NewReader(""), &out, &errb)
		if code != exitError || !strings.Contains(errb.String(), tt.msg) || out.Len() != 0 {
			t.Errorf("robots %q: exit %d\nstdout %q\nstderr %q\nwant exit 2, nothing on stdout, stderr with %q", tt.args, code, out.String(), errb.String(), tt.msg)
		}
		if strings.Contains(errb.String(), "parse \"") || strings.Contains(errb.String(), "flag provided but not defined") {
			t.Errorf("robots %q: a Go-internal message reaches the user: %q", tt.args, errb.String())
		}
	}
}

// TestAgentNotToken: an -agent that is a product token with a version, or
// a whole User-Agent header, is read as the token it names (what a robot's
// own parser compares), with a note on standard error.
func TestAgentNotToken(t *testing.T) {
	file := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(file, []byte("User-agent: *\nAllow: /\n\nUser-agent: Googlebot\nDisallow: /nogoogle/\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ agent, token string }{
		{"Googlebot/2.1", "Googlebot"},
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), []string{"test", "-file", file, "/nogoogle/a", "-agent", tt.agent}, strings.NewReader(""), &out, &errb)
		wantErr := fmt.Sprintf("robots: using product token %q from %q\n", tt.token, tt.agent)
		if code != exitFinding || !strings.HasPrefix(out.String(), "disallowed /nogoogle/a  (line 5") || errb.String() != wantErr {
			t.Errorf("-agent %q: exit %d, stdout %q, stderr %q; want disallowed by line 5 and %q", tt.agent, code, out.String(), errb.String(), wantErr)
		}
	}
}

// TestURLsFromStdin: robots test without URL arguments reads them from
// standard input, one per line, skipping blank and comment lines; -format
// json gives the API's result shape.
func TestURLsFromStdin(t *testing.T) {
	file := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(file, []byte("User-agent: *\nDisallow: /private/\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"test", "-file", file, "-format", "json"},
		strings.NewReader("# paths\n/private/a\n\nhttps://example.com/public\n"), &out, &errb)
	want := `{
  "profile": "google",
  "tokens": [
    "*"
  ],
  "results": [
    {
      "robot": "*",
      "url": "/private/a",
      "allowed": false,
      "line": 2,
      "why": "line 2: Disallow: /private/"
    },
    {
      "robot": "*",
      "url": "https://example.com/public",
      "allowed": true,
      "line": 0,
      "why": "no rule matches in the group at line 1"
    }
  ]
}
`
	if code != exitFinding || out.String() != want || errb.Len() != 0 {
		t.Errorf("exit %d\nstdout:\n%s\nstderr: %s", code, out.String(), errb.String())
	}
	// -file - takes standard input for the file: URLs must be arguments.
	out.Reset()
	errb.Reset()
	code = run(context.Background(), []string{"test", "-file", "-"}, strings.NewReader("User-agent: *\n"), &out, &errb)
	if code != exitError || !strings.Contains(errb.String(), "give the URLs as arguments") {
		t.Errorf("-file - without URLs: exit %d, %q", code, errb.String())
	}
}

// TestHelpAndVersion: help goes to standard output with exit 0 and shows
// the exit codes; robots help CMD is CMD's help; -version, --version and
// version print the same line.
func TestHelpAndVersion(t *testing.T) {
	call := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
		return out.String(), errb.String(), code
	}
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}} {
		out, errs, code := call(args...)
		if code != exitOK || errs != "" || !strings.Contains(out, "Usage: robots <command>") || !strings.Contains(out, "130  interrupted") {
			t.Errorf("robots %v: exit %d, stderr %q, stdout:\n%s", args, code, errs, out)
		}
	}
	for _, c := range commands {
		viaHelp, errs, code := call("help", c.name)
		viaFlag, _, code2 := call(c.name, "-h")
		if code != exitOK || code2 != exitOK || errs != "" || viaHelp != viaFlag || !strings.HasPrefix(viaHelp, "Usage: robots "+c.name) {
			t.Errorf("robots help %s: exit %d/%d, stderr %q\n%s\n--- robots %s -h ---\n%s", c.name, code, code2, errs, viaHelp, c.name, viaFlag)
		}
		if n := strings.Count(viaHelp, "Exit codes:") + strings.Count(viaHelp, "Exit status"); n != 1 {
			t.Errorf("robots %s -h has %d exit code tables, want one", c.name, n)
		}
		for _, l := range strings.Split(viaHelp, "\n") {
			if strings.TrimRight(l, " ") != l {
				t.Errorf("robots %s -h: trailing blanks in %q", c.name, l)
			}
		}
	}
	v1, _, c1 := call("-version")
	v2, _, c2 := call("--version")
	v3, _, c3 := call("version")
	if c1 != 0 || c2 != 0 || c3 != 0 || v1 != v2 || v2 != v3 || !strings.HasPrefix(v1, "robots ") {
		t.Errorf("versions: %q %q %q", v1, v2, v3)
	}
	// Without -no-args the usage goes to standard error with exit 2.
	if out, errs, code := call(); code != exitError || out != "" || !strings.Contains(errs, "Usage:") {
		t.Errorf("robots: exit %d, %q %q", code, out, errs)
	}
}

// TestVersionOf: the version comes from the build: a module version
// recorded by go install, else the VCS revision recorded by go build.
func TestVersionOf(t *testing.T) {
	for _, tt := range []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "fd74e184430e59c7944d4502c863726a0ca9e88a"},
			{Key: "vcs.time", Value: "2026-11-24T05:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		}}, "devel-fd74e184430e+dirty (2026-11-24T05:00:00Z)"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
	} {
		if got := versionOf(&tt.bi); got != tt.want {
			t.Errorf("versionOf(%+v) = %q, want %q", tt.bi.Main, got, tt.want)
		}
	}
}

// TestInterrupted: a command whose context is cancelled (Ctrl-C) says
// "interrupted" and exits 130, never with a verdict.
func TestInterrupted(t *testing.T) {
	srv := hangingSite(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	for _, args := range [][]string{
		{"fetch", srv},
		{"test", "-url", srv, "/x"},
		{"check", srv},
		{"page", srv + "/p"},
	} {
		var out, errb bytes.Buffer
		code := run(ctx, args, strings.NewReader(""), &out, &errb)
		if code != exitInterrupted || out.Len() != 0 || !strings.HasSuffix(errb.String(), ": interrupted\n") {
			t.Errorf("robots %v cancelled: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
}

// TestProgress: long work shows progress on standard error when it is a
// terminal, and clears it; it shows nothing when it is not.
func TestProgress(t *testing.T) {
	old := progressDelay
	progressDelay = 0
	defer func() { progressDelay = old }()
	var buf bytes.Buffer
	stop := progress(&env{stderr: &buf, tty: true}, "fixing big.txt")
	time.Sleep(250 * time.Millisecond)
	stop()
	if s := buf.String(); !strings.Contains(s, "fixing big.txt (0s)") || !strings.HasSuffix(s, "\r\x1b[K") {
		t.Errorf("progress on a terminal: %q", s)
	}
	buf.Reset()
	stop = progress(&env{stderr: &buf}, "fixing big.txt")
	time.Sleep(250 * time.Millisecond)
	stop()
	if buf.Len() != 0 {
		t.Errorf("progress without a terminal: %q", buf.String())
	}
}

// TestClean: text from a remote site reaches the terminal without control
// characters, bidirectional overrides or invalid UTF-8.
func TestClean(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain title", "plain title"},
		{"évolution 日本", "évolution 日本"},
		{"red\x1b[31mtext", `red\x1b[31mtext`},
		{"a\rb\nc\td", `a\x0db\x0ac\td`},
		{"bell\x07", `bell\x07`},
		{"c1\u009bx", `c1\x9bx`},
		{"rtl\u202egnp.exe", `rtl\u202egnp.exe`},
		{"bad\xffutf8", `bad\xffutf8`},
	} {
		if got := clean(tt.in); got != tt.want {
			t.Errorf("clean(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestParseFlagsDoubleDash: "--" ends the flags, so an argument that
// starts with "-" can still be given.
func TestParseFlagsDoubleDash(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(new(bytes.Buffer))
	v := fs.Bool("v", false, "")
	n := fs.String("n", "", "")
	e := &env{stdout: new(bytes.Buffer), stderr: new(bytes.Buffer)}
	err := parseFlags(e, &command{name: "x"}, fs, []string{"a", "-v", "-n", "-", "b", "--", "-c", "-v"})
	if err != nil || !*v || *n != "-" || !slices.Equal(fs.Args(), []string{"a", "b", "-c", "-v"}) {
		t.Errorf("err %v, v %v, n %q, args %q", err, *v, *n, fs.Args())
	}
	var ue *usageError
	if err := parseFlags(e, &command{name: "x"}, fs, []string{"a", "-z"}); !errors.As(err, &ue) {
		t.Errorf("-z: %v, want a usage error", err)
	}
}

// hangingSite answers no request until the client gives up.
func hangingSite(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestRemoteTextEscaped: a site's own text (a sitemap line, a page title,
// a link, a header) reaches the terminal with its control characters
// escaped, in every text report.
func TestRemoteTextEscaped(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Cache-Control", "max-age=60\x1b[2J")
		w.Write([]byte("User-agent: *\nDisallow: /private\x1b[31m\n\nSitemap: https://example.com/s\x1b]0;owned\x07.xml\n"))
	})
	mux.HandleFunc("/p", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<title>Hi\x1b[2Jthere</title><a href=\"/private\x1b[31m\">x</a>"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	for _, args := range [][]string{
		{"fetch", srv.URL},
		{"page", "-links", srv.URL + "/p"},
		{"check", srv.URL},
		{"compare", srv.URL},
		{"audit", srv.URL},
		{"test", "-url", srv.URL, "/private\x1b[31m"},
	} {
		var out, errb bytes.Buffer
		run(context.Background(), args, strings.NewReader(""), &out, &errb)
		for _, s := range []string{out.String(), errb.String()} {
			if strings.ContainsAny(s, "\x1b\x07") {
				t.Errorf("robots %q prints a control character:\n%q", args, s)
			}
		}
		if !strings.Contains(out.String()+errb.String(), `\x1b`) {
			t.Errorf("robots %q: the escaped text is missing:\n%s", args, out.String())
		}
	}
}

// TestSeveralFilesOneMissing: with several files, one that cannot be read
// is reported in one line and the others are still checked, formatted or
// fixed; the exit code is 2, as gofmt's.
func TestSeveralFilesOneMissing(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.txt")
	body, err := os.ReadFile("../../testdata/example-check.txt") // has findings, and fix and fmt change it
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(good, body, 0o666); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.txt")
	for _, args := range [][]string{
		{"check", good, missing},
		{"fmt", "-l", missing, good},
		{"fix", "-l", good, missing},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
		lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
		n := 0
		for _, l := range lines {
			if strings.Contains(l, "missing.txt") {
				n++
			}
		}
		if code != exitError || n != 1 || !strings.Contains(out.String()+errb.String(), "good.txt") {
			t.Errorf("robots %v: exit %d\nstdout %q\nstderr %q", args, code, out.String(), errb.String())
		}
	}
}
