package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/internal/txtar"
)

// update rewrites the stdout, stderr and exit sections of the golden files
// in testdata/ from what the command actually does:
//
//	go test ./cmd/robots -run TestCLI -update
var update = flag.Bool("update", false, "rewrite the stdout, stderr and exit sections of testdata/*.txtar")

// Sections with a meaning; every other section is an input file.
// "env" holds NAME=value lines, set in the environment for the run;
// "tty" names the streams that are terminals ("stdout").
var specialSections = map[string]bool{"args": true, "stdin": true, "stdout": true, "stderr": true, "exit": true, "env": true, "tty": true}

// TestCLI runs every testdata/*.txtar case in process through run and
// compares standard output, standard error and the exit code with the
// golden sections.
func TestCLI(t *testing.T) {
	names, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatal("no testdata/*.txtar cases")
	}
	for _, name := range names {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar"), func(t *testing.T) {
			runGolden(t, name)
		})
	}
}

func runGolden(t *testing.T, name string) {
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	a := txtar.Parse(data)
	if len(bytes.TrimSpace(a.Comment)) == 0 {
		t.Errorf("%s: no header comment saying which documented rule the case shows", name)
	}
	argsText, ok := a.Get("args")
	if !ok {
		t.Fatalf("%s: no args section", name)
	}
	work := t.TempDir()
	for _, f := range a.Files {
		if specialSections[f.Name] {
			continue
		}
		if filepath.IsAbs(f.Name) || !filepath.IsLocal(f.Name) {
			t.Fatalf("%s: input file %q must be a relative path inside $WORK", name, f.Name)
		}
		p := filepath.Join(work, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	var args []string
	if s := string(argsText); s != "" {
		for _, arg := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
			args = append(args, strings.ReplaceAll(arg, "$WORK", work))
		}
	}
	stdin, _ := a.Get("stdin")
	if env, ok := a.Get("env"); ok {
		for _, l := range strings.Split(strings.TrimSpace(string(env)), "\n") {
			k, v, ok := strings.Cut(l, "=")
			if !ok {
				t.Fatalf("%s: env line %q is not NAME=value", name, l)
			}
			t.Setenv(k, v)
		}
	} else {
		// The outcome must not depend on the environment of the test.
		t.Setenv("NO_COLOR", "")
	}
	if tty, ok := a.Get("tty"); ok {
		for _, s := range strings.Fields(string(tty)) {
			if s != "stdout" {
				t.Fatalf("%s: tty names %q; only stdout can be a terminal", name, s)
			}
			testStdoutTTY = true
			t.Cleanup(func() { testStdoutTTY = false })
		}
	}

	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, bytes.NewReader(stdin), &stdout, &stderr)
	gotOut := scrubWork(stdout.String(), work)
	gotErr := scrubWork(stderr.String(), work)
	gotExit := strconv.Itoa(code) + "\n"

	// Invariants of the contract, checked whatever the goldens say.
	checkOutputShape(t, "stdout", gotOut)
	checkOutputShape(t, "stderr", gotErr)
	if code == exitError && gotErr == "" && !isHelp(args) {
		t.Errorf("exit %d with nothing on stderr: an error must say what is wrong", code)
	}
	// check and fix report a tally and the fixes they did not apply on
	// stderr, and any command may note how it read an argument ("robots:
	// using product token …", "robots: reading … as https://…"); stderr
	// is otherwise kept for errors.
	notes := len(args) > 0 && (args[0] == "check" || args[0] == "fix") || strings.HasPrefix(gotErr, "robots: ")
	if code != exitError && gotErr != "" && !isHelp(args) && !notes {
		t.Errorf("exit %d but stderr is not empty:\n%s", code, gotErr)
	}

	if *update {
		a.Set("stdout", []byte(gotOut))
		a.Set("stderr", []byte(gotErr))
		a.Set("exit", []byte(gotExit))
		if err := os.WriteFile(name, a.Format(), 0o666); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, sec := range []struct{ name, got string }{
		{"stdout", gotOut},
		{"stderr", gotErr},
		{"exit", gotExit},
	} {
		want, ok := a.Get(sec.name)
		if !ok {
			t.Errorf("%s: no %s section (run with -update to write it)", name, sec.name)
			continue
		}
		if sec.got != string(want) {
			t.Errorf("robots %s\n%s differs:\n--- got ---\n%s--- want ---\n%s", strings.Join(args, " "), sec.name, sec.got, want)
		}
	}
}

// scrubWork writes the temporary directory back as $WORK.
func scrubWork(s, work string) string {
	if real, err := filepath.EvalSymlinks(work); err == nil && real != work {
		s = strings.ReplaceAll(s, real, "$WORK")
	}
	return strings.ReplaceAll(s, work, "$WORK")
}

// checkOutputShape checks what every stream of the command must look like:
// whole lines, and never a Go panic or stack trace.
func checkOutputShape(t testing.TB, stream, s string) {
	t.Helper()
	if s != "" && !strings.HasSuffix(s, "\n") {
		t.Errorf("%s does not end with a newline (a golden file cannot hold it): %q", stream, s)
	}
	for _, bad := range []string{"panic:", "goroutine ", "runtime error"} {
		if strings.Contains(s, bad) {
			t.Errorf("%s contains %q, which looks like a crash or a stack trace:\n%s", stream, bad, s)
		}
	}
	if m := stackFrame.FindString(s); m != "" {
		t.Errorf("%s contains %q, which looks like a stack trace:\n%s", stream, m, s)
	}
}

var stackFrame = regexp.MustCompile(`\.go:[0-9]+`)

func isHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--help", "help":
			return true
		}
	}
	return false
}

// TestReadLimited checks that robots test -file reads at most
// robots.MaxBytes (Google's 500 KiB, "How Google interprets the robots.txt
// specification", file size limit; RFC 9309
// §2.5 "the parsing limit MUST be at least 500 kibibytes"): a rule past
// the limit is not honoured, one before it is, and a 100 MB file costs
// neither 100 MB of memory nor a read to its end.
func TestReadLimited(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "huge.txt")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	lines := 0
	put := func(s string) { w.WriteString(s); lines++ }
	put("User-agent: *\n")
	put("Disallow: /head\n")
	pad := "# " + strings.Repeat("p", 77) + "\n" // 80-byte comment lines
	for written(w, f) < 400<<10 {
		put(pad)
	}
	put("Disallow: /before-limit\n")
	beforeLine := lines
	for written(w, f) < 600<<10 {
		put(pad)
	}
	late := written(w, f)
	put("Disallow: /after-limit\n")
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if late <= robots.MaxBytes {
		t.Fatalf("test bug: the late rule starts at %d, inside MaxBytes %d", late, robots.MaxBytes)
	}
	if err := f.Truncate(100 << 20); err != nil { // a hole: no real disk
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	var stdout, stderr bytes.Buffer
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	code := run(context.Background(),
		[]string{"test", "-file", name, "/head", "/before-limit", "/after-limit", "/other"},
		strings.NewReader(""), &stdout, &stderr)
	runtime.ReadMemStats(&after)

	want := "disallowed /head  (line 2: Disallow: /head)\n" +
		fmt.Sprintf("disallowed /before-limit  (line %d: Disallow: /before-limit)\n", beforeLine) +
		"allowed /after-limit  (no rule matches in the group at line 1)\n" +
		"allowed /other  (no rule matches in the group at line 1)\n"
	wantErr := "robots: " + name + " is larger than 500 KiB: like Google, the test reads only its first 500 KiB\n"
	if code != exitFinding || stdout.String() != want || stderr.String() != wantErr {
		t.Errorf("exit %d\nstdout:\n%s\nwant:\n%sstderr:\n%s", code, stdout.String(), want, stderr.String())
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc >= 20<<20 {
		t.Errorf("robots test -file on a 100 MB file allocated %d MB; it should read at most %d KiB", alloc>>20, robots.MaxBytes>>10)
	}
}

// TestReadLimitedCutLine: when the 500 KiB limit falls inside a line, the
// cut-off head of that line must not become a rule. Here "Allow:
// /abc-public" straddles robots.MaxBytes and is cut to "Allow: /ab".
// Read whole, the file disallows /abd-secret (line 2, "Disallow: /a"; the
// Allow does not match). Read up to the limit and ignoring what exceeds it
// (Google: content past the limit is ignored), it disallows
// /abd-secret too. Only the half line "Allow: /ab" (3 octets, longer than
// "/a") allows it: a verdict no reading of the file gives. Either dropping
// the partial last line or finishing it passes this test.
func TestReadLimitedCutLine(t *testing.T) {
	head := "User-agent: *\nDisallow: /a\n"
	cut := "Allow: /ab"
	var b strings.Builder
	b.WriteString(head)
	for b.Len() < robots.MaxBytes-len(cut)-80 {
		b.WriteString("# " + strings.Repeat("p", 77) + "\n")
	}
	if n := robots.MaxBytes - len(cut) - b.Len(); n > 1 {
		b.WriteString("#" + strings.Repeat("p", n-2) + "\n")
	}
	b.WriteString(cut + "c-public\n")
	body := b.String()
	if body[:robots.MaxBytes][robots.MaxBytes-len(cut):] != cut {
		t.Fatalf("test bug: the limit does not cut after %q", cut)
	}
	name := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(name, []byte(body), 0o666); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"test", "-file", name, "/abd-secret"}, strings.NewReader(""), &stdout, &stderr)
	want := "disallowed /abd-secret  (line 2: Disallow: /a)\n"
	if code != exitFinding || stdout.String() != want {
		t.Errorf("robots test -file FILE /abd-secret, FILE = %q + comment padding + %q at offset %d (across robots.MaxBytes = %d):\nexit %d, stdout %q, stderr %q\nwant exit 1, stdout %q",
			head, cut+"c-public\n", robots.MaxBytes-len(cut), robots.MaxBytes, code, stdout.String(), stderr.String(), want)
	}
}

// written is how many bytes w has taken so far (flushed to f or buffered).
func written(w *bufio.Writer, f *os.File) int64 {
	off, err := f.Seek(0, 1)
	if err != nil {
		panic(err)
	}
	return off + int64(w.Buffered())
}

// TestJSONLConformance pipes Google's conformance cases (every expectation
// of google/robotstxt's robots_test.cc and of google/robotstxt-spec-test,
// copied with their licence under the repository's testdata/conformance)
// through robots test -jsonl under the default profile and checks each
// verdict.
func TestJSONLConformance(t *testing.T) {
	const path = "../../testdata/conformance/google-cases.jsonl"
	in, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"test", "-jsonl"}, bytes.NewReader(in), &stdout, &stderr)
	if code != exitOK || stderr.Len() != 0 {
		t.Fatalf("robots test -jsonl < %s: exit %d, stderr:\n%s", path, code, stderr.String())
	}
	cases := bytes.Split(bytes.TrimSuffix(in, []byte("\n")), []byte("\n"))
	answers := bytes.Split(bytes.TrimSuffix(stdout.Bytes(), []byte("\n")), []byte("\n"))
	if len(answers) != len(cases) {
		t.Fatalf("%d cases in, %d answers out: want one answer per line", len(cases), len(answers))
	}
	failed := 0
	for i := range cases {
		var c struct {
			ID      json.RawMessage `json:"id"`
			Allowed bool            `json:"allowed"`
		}
		if err := json.Unmarshal(cases[i], &c); err != nil {
			t.Fatalf("case %d: %v", i+1, err)
		}
		var ans struct {
			ID      json.RawMessage `json:"id"`
			Allowed *bool           `json:"allowed"`
			Line    *int            `json:"line"`
			Error   string          `json:"error"`
		}
		if err := json.Unmarshal(answers[i], &ans); err != nil {
			t.Fatalf("answer %d is not JSON: %v: %s", i+1, err, answers[i])
		}
		switch {
		case !bytes.Equal(ans.ID, c.ID):
			t.Errorf("answer %d: id %s, want %s", i+1, ans.ID, c.ID)
		case ans.Error != "":
			t.Errorf("case %s: error %q", c.ID, ans.Error)
		case ans.Allowed == nil || ans.Line == nil:
			t.Errorf("case %s: answer without allowed or line: %s", c.ID, answers[i])
		case *ans.Allowed != c.Allowed:
			t.Errorf("case %s: allowed=%v, want %v", c.ID, *ans.Allowed, c.Allowed)
		default:
			continue
		}
		if failed++; failed >= 20 {
			t.Fatal("too many failures")
		}
	}
}
