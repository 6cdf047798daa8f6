package lint

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/robotskit/robots/syntax"
)

// selectFile has findings of several checks and sections: RB501 (rules,
// error), RB303 (lines, warning), RB310 (lines, info, thorough)
// (groups, warning), RB408 (groups, error), RB411 (groups, info,
// first-match robots only) and RB522 (rules, info, thorough).
const selectFile = `User-agent: *
Disallow: admin/
X-Robots-Tag: noindex
Disallow: /x # old

User-agent: a
Disallow: /y

User-agent: *
Disallow: /z
`

func codesOf(ds []Diagnostic) []string {
	var out []string
	for _, d := range ds {
		if !slices.Contains(out, d.Check.Code) {
			out = append(out, d.Check.Code)
		}
	}
	slices.Sort(out)
	return out
}

// TestSelection checks Config.Enable and Config.Disable: the most specific
// entry decides, Disable winning a tie, and a check named in Enable runs
// even when thorough or out of the default scope.
func TestSelection(t *testing.T) {
	f := syntax.Parse("", []byte(selectFile))
	for _, tt := range []struct {
		name            string
		enable, disable []string
		all, thorough   bool
		want            string
	}{
		{name: "default", want: "RB303 RB408 RB501"},
		{name: "disable a code", disable: []string{"RB501"}, want: "RB303 RB408"},
		{name: "disable a name, any case of code", disable: []string{"unknown-directive", "rb408"}, want: "RB501"},
		{name: "disable a section", disable: []string{"groups"}, want: "RB303 RB501"},
		{name: "disable a severity", disable: []string{"warning"}, want: "RB408 RB501"},
		{name: "disable all, enable one", disable: []string{"all"}, enable: []string{"RB303"}, want: "RB303"},
		{name: "a code beats a section", disable: []string{"lines"}, enable: []string{"RB303"}, want: "RB303 RB408 RB501"},
		{name: "a section beats a severity", disable: []string{"warning"}, enable: []string{"groups"}, want: "RB408 RB501"},
		{name: "a code beats all", enable: []string{"all"}, disable: []string{"RB310"}, all: true, want: "RB303 RB408 RB411 RB501 RB522"},
		{name: "enable a thorough check", enable: []string{"RB310"}, want: "RB303 RB310 RB408 RB501"},
		{name: "thorough, then disabled", thorough: true, disable: []string{"RB310", "RB522"}, want: "RB303 RB408 RB501"},
		{name: "enable out of scope by code", enable: []string{"RB411"}, want: "RB303 RB408 RB411 RB501"},
		{name: "enable by severity keeps the scope", enable: []string{"info"}, want: "RB303 RB408 RB501 RB522"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := &Config{Enable: tt.enable, Disable: tt.disable, AllRobots: tt.all, Thorough: tt.thorough}
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			got := strings.Join(codesOf(Run(f, cfg)), " ")
			if got != tt.want {
				t.Errorf("enable %v disable %v: %s, want %s", tt.enable, tt.disable, got, tt.want)
			}
		})
	}
}

func TestSelectionErrors(t *testing.T) {
	for _, tt := range []struct {
		enable, disable []string
		want            string
	}{
		{disable: []string{"RB9999"}, want: `disable: "RB9999" is no check's code or name`},
		{enable: []string{"path-without-slas"}, want: "did you mean RB501 (path-without-slash)?"},
		{disable: []string{"RB5"}, want: "did you mean rules (RB5xx)?"},
		{disable: []string{"RB316"}, want: "RB314 (malformed-ignore) or RB315 (unused-ignore)"},
		{enable: []string{"RB501"}, disable: []string{"path-without-slash"}, want: `"RB501" is both enabled and disabled`},
		{enable: []string{"info"}, disable: []string{"INFO"}, want: "both enabled and disabled"},
	} {
		cfg := &Config{Enable: tt.enable, Disable: tt.disable}
		err := cfg.Validate()
		var se *SelectionError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("enable %v disable %v: %v, want %q", tt.enable, tt.disable, err, tt.want)
		}
		if _, err := RunContext(t.Context(), syntax.Parse("", []byte(selectFile)), cfg); !errors.As(err, &se) {
			t.Errorf("RunContext: %v, want the selection error", err)
		}
		if res, err := FixContext(t.Context(), []byte(selectFile), &FixOptions{Config: *cfg}); res != nil || err == nil {
			t.Errorf("FixContext: %v, %v; want the selection error", res, err)
		}
		if Fix([]byte(selectFile), &FixOptions{Config: *cfg}) == nil {
			t.Errorf("Fix returned nil for a bad selection")
		}
	}
}

// TestIgnore checks robots:ignore comments: what they silence, and what
// RB314 and RB315 report.
func TestIgnore(t *testing.T) {
	for _, tt := range []struct {
		name, src string
		cfg       Config
		want      []string // "line code"
	}{
		{"silences the next line", "User-agent: *\n# robots:ignore RB501 the CMS maps it\nDisallow: admin/\n", Config{}, nil},
		{"skips blank and comment lines", "User-agent: *\n# robots:ignore RB501 ok\n\n# note\nDisallow: admin/\n", Config{Disable: []string{"RB402"}}, nil},
		{"only the next line", "User-agent: *\n# robots:ignore RB501 ok\nDisallow: admin/\nDisallow: shop/\n", Config{}, []string{"4 RB501"}},
		{"by name", "User-agent: *\n# robots:ignore path-without-slash ok\nDisallow: admin/\n", Config{}, nil},
		{"only the codes named", "User-agent: *\n# robots:ignore RB303 ok\nDisallow: admin/\n", Config{}, []string{"2 RB315", "3 RB501"}},
		{"several codes, one unused", "User-agent: *\n# robots:ignore RB501,RB303 ok\nDisallow: admin/\n", Config{}, []string{"2 RB315"}},
		{"stacked comments", "User-agent: *\n# robots:ignore RB501 a\n# robots:ignore RB502 b\nDisallow: *admin\n", Config{AllRobots: true}, []string{"2 RB315"}},
		{"no reason: not applied", "User-agent: *\n# robots:ignore RB501\nDisallow: admin/\n", Config{}, []string{"2 RB314", "3 RB501"}},
		{"unknown code", "User-agent: *\n# robots:ignore RB999 why\nDisallow: admin/\n", Config{}, []string{"2 RB314", "3 RB501"}},
		{"no code", "User-agent: *\n# robots:ignore\nDisallow: /\n", Config{}, []string{"2 RB314", "3 RB520"}},
		{"end of a line", "User-agent: *\nDisallow: admin/ # robots:ignore RB501 why\n", Config{}, []string{"2 RB501", "2 RB314"}},
		{"case-sensitive", "User-agent: *\n# Robots:Ignore RB501 why\nDisallow: admin/\n", Config{}, []string{"3 RB501"}},
		{"not a prefix of a word", "User-agent: *\n# robots:ignored RB501 why\nDisallow: admin/\n", Config{}, []string{"3 RB501"}},
		{"no line follows", "User-agent: *\nDisallow: /x\n# robots:ignore RB501 why\n", Config{}, []string{"3 RB315"}},
		{"a check that does not run is not judged", "User-agent: *\n# robots:ignore RB310 why\nDisallow: /x\n", Config{}, nil},
		{"a disabled check is not judged", "User-agent: *\n# robots:ignore RB501 why\nDisallow: /x\n", Config{Disable: []string{"RB501"}}, nil},
		{"RB315 disabled", "User-agent: *\n# robots:ignore RB501 why\nDisallow: /x\n", Config{Disable: []string{"unused-ignore"}}, nil},
		{"out of scope, yet silenced", "User-agent: *\n# robots:ignore RB502 why\nDisallow: *x\n", Config{}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Run(syntax.Parse("", []byte(tt.src)), &tt.cfg) {
				got = append(got, strings.Fields(d.String())[0][:strings.Index(d.String(), ":")]+" "+d.Check.Code)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("%q: got %v, want %v", tt.src, got, tt.want)
			}
		})
	}
}

// TestIgnoreKeepsFix checks that the fixer leaves a silenced finding
// alone, as the checker does.
func TestIgnoreKeepsFix(t *testing.T) {
	src := "User-agent: *\n# robots:ignore RB501 the CMS maps it\nDisallow: admin/\nDisallow: shop/\n"
	res := Fix([]byte(src), &FixOptions{Enable: []string{"all"}})
	want := "User-agent: *\n# robots:ignore RB501 the CMS maps it\nDisallow: admin/\nDisallow: /shop/\n"
	if string(res.Output) != want {
		t.Errorf("fixed:\n%s\nwant:\n%s", res.Output, want)
	}
}
