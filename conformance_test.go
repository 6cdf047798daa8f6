package robots_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/syntax"
)

// conformanceCase is one row of testdata/conformance/*.jsonl: one JSON
// object per line, with the fields below.
type conformanceCase struct {
	ID        string  `json:"id"`
	Robots    string  `json:"robots"`
	RobotsB64 *string `json:"robots_b64"`
	Agent     string  `json:"agent"`
	URL       string  `json:"url"`
	Allowed   bool    `json:"allowed"`
	RFC       *bool   `json:"rfc_allowed"`
	Line      *int    `json:"cxx_matching_line"`
}

func (c *conformanceCase) body(t *testing.T) []byte {
	if c.RobotsB64 != nil {
		b, err := base64.StdEncoding.DecodeString(*c.RobotsB64)
		if err != nil {
			t.Fatalf("%s: robots_b64: %v", c.ID, err)
		}
		return b
	}
	return []byte(c.Robots)
}

func readCases(t *testing.T, name string) []conformanceCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "conformance", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []conformanceCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var c conformanceCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestConformance checks every labelled case: the verdict of Google's C++
// library (and its deciding line where the set gives it) under the google
// profile, and the RFC 9309 reading under the rfc9309 profile. Parse and
// Compile(syntax.Parse) must agree on each.
func TestConformance(t *testing.T) {
	sets := []struct {
		file string
		want int // rows of the file
	}{
		{"google-cases.jsonl", 545},
		{"google-java-cases.jsonl", 147},
		{"crawler-commons-cases.jsonl", 600},
		{"rfc9309-cases.jsonl", 65},
	}
	for _, set := range sets {
		t.Run(set.file, func(t *testing.T) {
			cases := readCases(t, set.file)
			if len(cases) != set.want {
				t.Fatalf("%d cases, want %d", len(cases), set.want)
			}
			pass := 0
			for _, c := range cases {
				src := c.body(t)
				ok := check(t, c, src, robots.Google, c.Allowed)
				if c.RFC != nil {
					ok = check(t, c, src, robots.RFC9309, *c.RFC) && ok
				}
				if ok {
					pass++
				}
			}
			t.Logf("%d/%d cases agree", pass, len(cases))
		})
	}
}

func check(t *testing.T, c conformanceCase, src []byte, p robots.Profile, want bool) bool {
	t.Helper()
	r := robots.Parse(src, p)
	d := r.Decide(robots.Token(c.Agent), c.URL)
	ok := true
	if d.Allowed != want || r.Allowed(c.Agent, c.URL) != want {
		t.Errorf("%s [%v]: Allowed(%q, %q) = %v, want %v", c.ID, p, c.Agent, c.URL, d.Allowed, want)
		ok = false
	}
	if c.Line != nil && p == robots.Google && d.Line != *c.Line {
		t.Errorf("%s: deciding line %d, want %d", c.ID, d.Line, *c.Line)
		ok = false
	}
	if d2 := robots.Compile(syntax.Parse("", src), p).Decide(robots.Token(c.Agent), c.URL); d2 != d {
		t.Errorf("%s [%v]: Compile decides %+v, Parse decides %+v", c.ID, p, d2, d)
		ok = false
	}
	return ok
}

// TestPathOfConformance checks PathOf against every get_path_params_query
// expectation of robots_test.cc, and the matcher's escaping against every
// escape_pattern one (google-other-cases.jsonl).
func TestPathOfConformance(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "conformance", "google-other-cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	paths := 0
	for sc.Scan() {
		var c struct {
			ID       string          `json:"id"`
			Kind     string          `json:"kind"`
			Input    string          `json:"input"`
			Expected json.RawMessage `json:"expected"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		if c.Kind != "get_path_params_query" {
			continue
		}
		paths++
		var want string
		if err := json.Unmarshal(c.Expected, &want); err != nil {
			t.Fatalf("%s: %v", c.ID, err)
		}
		if got := robots.PathOf(c.Input); got != want {
			t.Errorf("%s: PathOf(%q) = %q, want %q", c.ID, c.Input, got, want)
		}
	}
	if paths != 19 {
		t.Errorf("%d get_path_params_query rows, want 19", paths)
	}
}
