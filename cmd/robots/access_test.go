package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/probe"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/server"
	"github.com/robotskit/robots/syntax"
)

// accessCorpus is a folder of real robots.txt files; .ci/run passes it:
//
//	go test ./cmd/robots -run TestAccessAgrees -corpus /path/to/corpus/robots
var accessCorpus = flag.String("corpus", "", "folder of robots.txt files for TestAccessAgrees")

// accessSamples are files whose access is easy to get wrong: the tie
// that Allow wins (RFC 9309 §2.2.2), a robot with its own group, a
// fallback, a robot that ignores "*", first-match and 1994 readers, a
// group cut by a blank line (Yandex).
var accessSamples = map[string]string{
	"tie.example":      "User-agent: *\nDisallow: /a\nAllow: /a\n",
	"partly.example":   "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n",
	"fallback.example": "User-agent: Googlebot\nDisallow: /\nAllow: /public/\n\nUser-agent: AdsBot-Google\nDisallow: /ads\n",
	"yandex.example":   "User-agent: Yandex\n\nDisallow: /\n\nUser-agent: *\nDisallow: /*.pdf$\nAllow: /$\n",
	"order.example":    "User-agent: *\nDisallow: /\nAllow: /public/\n",
	"empty.example":    "",
}

// TestAccessAgrees: for every file (the samples, and every file of
// -corpus) and every robot of the registry, robots audit -format json,
// robots compare -format json, robots scan rows and POST /api/v1/test
// give the same access object, and each state is what the verdicts say:
// Allowed on "/" and on the probe paths of the file's own patterns
// (internal/probe) is false everywhere for a blocked robot, true
// everywhere for an open one, and both for a partly blocked one
// (/robots.txt counts for none).
func TestAccessAgrees(t *testing.T) {
	dir := t.TempDir()
	for name, body := range accessSamples {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dirs := []string{dir}
	if *accessCorpus != "" {
		dirs = append(dirs, *accessCorpus)
	}
	var all []string
	for _, rb := range agents.All() {
		all = append(all, rb.Token)
	}
	srv := server.New(server.Config{Addr: "127.0.0.1:0", RateLimit: -1})
	files, mismatches := 0, 0
	for _, d := range dirs {
		rows := scanAccess(t, d)
		names, err := filepath.Glob(filepath.Join(d, "*"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range names {
			body, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			size := int64(len(body))
			body = robots.Cut(body)
			files++
			got := map[string]map[string]wire.Access{
				"audit":   auditAccess(t, path),
				"compare": compareAccess(t, path, all),
				"api":     apiAccess(t, srv, body, size, all),
				"scan":    rows[path],
			}
			want := map[string]wire.Access{}
			confirm := newConfirmer(body, size)
			for _, rb := range agents.All() {
				a := got["audit"][rb.Token]
				want[rb.Token] = a
				if msg := confirm.check(rb, a.Access); msg != "" && mismatches < 20 {
					mismatches++
					t.Errorf("%s: %s: %s", path, rb.Token, msg)
				}
			}
			for route, m := range got {
				for _, rb := range agents.All() {
					if m[rb.Token] != want[rb.Token] && mismatches < 20 {
						mismatches++
						t.Errorf("%s: %s: %s says %+v, audit %+v", path, rb.Token, route, m[rb.Token], want[rb.Token])
					}
				}
			}
		}
	}
	t.Logf("%d files × %d robots: audit, compare, scan and the API agree; every state confirmed by the verdicts", files, len(all))
}

// auditAccess runs robots audit -format json on path.
func auditAccess(t *testing.T, path string) map[string]wire.Access {
	var out struct {
		Robots []wire.Access `json:"robots"`
	}
	runJSON(t, &out, "audit", "-format", "json", path)
	return byRobot(out.Robots)
}

// compareAccess runs robots compare -format json on path for the robots,
// on "/" alone (the access does not depend on the rows).
func compareAccess(t *testing.T, path string, robots []string) map[string]wire.Access {
	args := []string{"compare", "-format", "json", path, "/"}
	for _, r := range robots {
		args = append(args, "-robot", r)
	}
	var out struct {
		Access []wire.Access `json:"access"`
	}
	runJSON(t, &out, args...)
	return byRobot(out.Access)
}

// scanAccess runs robots scan -robots all over dir and returns each
// file's verdicts.
func scanAccess(t *testing.T, dir string) map[string]map[string]wire.Access {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"scan", "-robots", "all", "-format", "jsonl", dir}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("robots scan: exit %d: %s", code, stderr.String())
	}
	out := map[string]map[string]wire.Access{}
	dec := json.NewDecoder(&stdout)
	for dec.More() {
		var row struct {
			Source string        `json:"source"`
			Robots []wire.Access `json:"robots"`
		}
		if err := dec.Decode(&row); err != nil {
			t.Fatal(err)
		}
		out[row.Source] = byRobot(row.Robots)
	}
	return out
}

// apiAccess asks POST /api/v1/test for the robots' access to body, 50
// robots a request (the API's limit). A file cut at 500 KiB is sent with
// a comment line past the cut, so that the server sees it over the
// limit, as the commands did.
func apiAccess(t *testing.T, srv http.Handler, body []byte, size int64, robots []string) map[string]wire.Access {
	var all []wire.Access
	for i := 0; i < len(robots); i += 50 {
		text := string(body)
		if size > int64(len(body)) {
			text += "#" + strings.Repeat("x", int(min(size, server.MaxBody/2)-int64(len(body))))
		}
		req, _ := json.Marshal(wire.TestRequest{Robots: &text, RobotsList: robots[i:min(i+50, len(robots))], URLs: []string{"/"}})
		r := httptest.NewRequest("POST", "/api/v1/test", bytes.NewReader(req))
		r.Header.Set("Content-Type", "application/json")
		r.Host = "localhost"
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		var resp wire.TestResponse
		if w.Code != 200 || json.Unmarshal(w.Body.Bytes(), &resp) != nil {
			t.Fatalf("POST /api/v1/test: %d %.300s", w.Code, w.Body.String())
		}
		all = append(all, resp.Access...)
	}
	return byRobot(all)
}

func runJSON(t *testing.T, v any, args ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 0 && code != 1 {
		t.Fatalf("robots %s: exit %d: %s", args[0], code, stderr.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), v); err != nil {
		t.Fatalf("robots %s: %v", args[0], err)
	}
}

func byRobot(as []wire.Access) map[string]wire.Access {
	m := make(map[string]wire.Access, len(as))
	for _, a := range as {
		m[a.Robot] = a
	}
	return m
}

// A confirmer holds a file's rules under each profile and its probe
// paths, and the verdicts of the robots that read the same groups.
type confirmer struct {
	body   []byte
	size   int64
	rules  map[robots.Profile]*robots.Rules
	probes []string
	seen   map[string]string
}

// newConfirmer reads body. Its probes are "/", the probe paths of the
// file's patterns (their wildcards read as nothing and as a letter, with
// endings) and each pattern as written, which the readers without
// wildcards (1996 draft, 1994 standard) match as octets.
func newConfirmer(body []byte, size int64) *confirmer {
	f := syntax.Parse("", body)
	probes, _ := probe.Paths(context.Background(), f)
	probes = append(probes, "/")
	for i := range f.Lines {
		if l := &f.Lines[i]; l.Kind == syntax.DirectiveLine && (l.Field == syntax.Allow || l.Field == syntax.Disallow) {
			if v := f.Text(l.Value); strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "//") {
				probes = append(probes, v, v+"x")
			}
		}
	}
	return &confirmer{body: body, size: size, rules: map[robots.Profile]*robots.Rules{}, probes: probes, seen: map[string]string{}}
}

// check returns what is wrong with the state of acc for robot rb, "" when
// the verdicts bear it out.
func (c *confirmer) check(rb agents.Robot, acc robots.Access) string {
	agent, p := rb.Reader()
	rules := c.rules[p]
	if rules == nil {
		rules = robots.Parse(c.body, p)
		c.rules[p] = rules
	}
	// A file over 500 KiB is no file to Yandex's robots (fetch.Policy.Served).
	served, _ := fetch.RobotPolicy(rb).Served(c.size)
	g, _ := rules.Group(agent)
	key := fmt.Sprint(p, served, agent.IgnoreGlobal, g.Global, g.Lines, acc.State)
	if msg, ok := c.seen[key]; ok {
		return msg
	}
	var allowed, disallowed string
	for _, u := range c.probes {
		if pth := robots.PathOf(u); pth == "/robots.txt" || strings.HasPrefix(pth, "/robots.txt?") {
			continue
		}
		if served == fetch.AccessAll || served == fetch.AccessRules && rules.Decide(agent, u).Allowed {
			allowed = u
		} else {
			disallowed = u
		}
	}
	msg := ""
	switch {
	case !slices.Contains([]robots.State{robots.Open, robots.Partly, robots.Blocked}, acc.State):
		msg = fmt.Sprintf("state %v", acc.State)
	case acc.State == robots.Open && disallowed != "":
		msg = fmt.Sprintf("open, but %s is disallowed", disallowed)
	case acc.State == robots.Blocked && allowed != "":
		msg = fmt.Sprintf("blocked, but %s is allowed", allowed)
	case acc.State == robots.Partly && (allowed == "" || disallowed == ""):
		msg = fmt.Sprintf("partly, but allowed %q and disallowed %q", allowed, disallowed)
	}
	c.seen[key] = msg
	return msg
}

// TestReportsInRules: robots diff on two versions of a file, the second
// with one Disallow line added to its first group, names the added rule
// and its line (with the robots it changes, when it changes a verdict),
// and robots diff, robots compare and robots fix -enable all -diff (its
// report of the verdicts the fixes change) print no path that is not "/"
// or a prefix of a pattern of either version (or, where a report says
// what a pattern covers, its part after a "*"): the users' own rules,
// never probe paths. The samples always; every file of -corpus with it.
func TestReportsInRules(t *testing.T) {
	tmp := t.TempDir()
	t.Chdir(tmp)
	var names []string
	for name, body := range accessSamples {
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	if *accessCorpus != "" {
		all, err := filepath.Glob(filepath.Join(*accessCorpus, "*"))
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, all...)
	}
	const added = "Disallow: /robots-test-added/"
	bad := 0
	for _, path := range names {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src = robots.Cut(src)
		f := syntax.Parse("", src)
		ua := -1
		for i := range f.Lines {
			if l := &f.Lines[i]; l.Kind == syntax.DirectiveLine && l.Field == syntax.UserAgent {
				ua = i
				break
			}
		}
		if ua < 0 || len(src) > robots.MaxBytes-100 {
			continue // no group to add a rule to, or no room under the cut
		}
		// The new version: the line inserted after the first User-agent
		// line, with that line's ending.
		lines := bytes.SplitAfter(src, []byte("\n"))
		if len(lines) != len(f.Lines) && len(lines) != len(f.Lines)+1 {
			continue // CR-only line ends: SplitAfter does not see them
		}
		var nb bytes.Buffer
		for i, l := range lines {
			nb.Write(l)
			if i == ua {
				if !bytes.HasSuffix(l, []byte("\n")) {
					nb.WriteString("\n")
				}
				nb.WriteString(added + "\n")
			}
		}
		if err := os.WriteFile("old.txt", src, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("new.txt", nb.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		patterns := filePatterns(src, nb.Bytes())
		check := func(what, out string) {
			for _, w := range pathWords(out) {
				// A long pattern is shown shortened in the middle.
				head, tail, cut := strings.Cut(w, "…")
				// "every path that contains /opinions/" quotes what follows
				// a pattern's "*"; a pattern with spaces prints as words.
				if !slices.ContainsFunc(patterns, func(p string) bool {
					return strings.HasPrefix(p, w) || strings.Contains(p, "*"+w) || slices.Contains(strings.Fields(p), w) ||
						cut && strings.HasPrefix(p, head) && strings.Contains(p[len(head):], tail)
				}) && bad < 20 {
					bad++
					t.Errorf("%s: %s prints %q, not a prefix of a pattern of the file:\n%s", path, what, w, out)
				}
			}
		}
		diff := runOut(t, "diff", "old.txt", "new.txt")
		head := fmt.Sprintf("line %d: %s (added)", ua+2, added)
		if !strings.Contains(diff, head) && bad < 20 {
			bad++
			t.Errorf("%s: robots diff does not name the added rule %q:\n%s", path, head, diff)
		}
		// A rule that changes verdicts is followed by what it covers and
		// the robots it changes them for; one that changes none (under a
		// "Disallow: /") is listed apart.
		switch {
		case strings.Contains(diff, head+"\n    /robots-test-added/ and everything under it: now disallowed\n    for "):
		case strings.Contains(diff, "but changes no verdict:\n  + "+head) || strings.Contains(diff, "but change no verdict:"):
		default:
			if bad < 20 {
				bad++
				t.Errorf("%s: robots diff does not say for which robots the added rule changes verdicts:\n%s", path, diff)
			}
		}
		check("robots diff", diff)
		check("robots compare", runOut(t, "compare", "old.txt"))
		// The two versions of fix are the file and the fixed file.
		var fixed, stdout, stderr bytes.Buffer
		run(context.Background(), []string{"fix", "-enable", "all", "old.txt"}, strings.NewReader(""), &fixed, io.Discard)
		patterns = filePatterns(src, fixed.Bytes())
		run(context.Background(), []string{"fix", "-enable", "all", "-diff", "old.txt"}, strings.NewReader(""), &stdout, &stderr)
		check("robots fix -enable all -diff", stderr.String())
	}
}

// runOut runs the command and returns its standard output.
func runOut(t *testing.T, args ...string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); code != 0 && code != 1 {
		t.Fatalf("robots %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
	return stdout.String()
}

// filePatterns returns "/" and the values of the Allow and Disallow lines
// of the texts.
func filePatterns(srcs ...[]byte) []string {
	out := []string{"/"}
	for _, src := range srcs {
		f := syntax.Parse("", src)
		for i := range f.Lines {
			if l := &f.Lines[i]; l.Kind == syntax.DirectiveLine && (l.Field == syntax.Allow || l.Field == syntax.Disallow) {
				// As the reports print it, control and invalid bytes
				// escaped.
				out = append(out, f.Text(l.Value), clean(f.Text(l.Value)))
			}
		}
	}
	return out
}

// pathWords returns the words of a report that are paths: those that
// start with '/', without the punctuation that follows them.
func pathWords(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		w = strings.TrimRight(w, ",:;)\"")
		if strings.HasPrefix(w, "/") {
			out = append(out, w)
		}
	}
	return out
}
