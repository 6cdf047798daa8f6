package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/robotskit/robots/internal/spell"
	"github.com/robotskit/robots/lint"
)

// configName is the file robots check reads its settings from, found in
// the checked file's directory or the nearest one above it.
const configName = ".robots.toml"

// checkSettings are the settings of robots check that a .robots.toml
// may hold. A nil pointer is a key the file does not set.
type checkSettings struct {
	Enable   []string `toml:"enable"`
	Disable  []string `toml:"disable"`
	FailOn   *string  `toml:"fail-on"`
	MaxSame  *int     `toml:"max-same"`
	Robots   *string  `toml:"robots"`
	Thorough *bool    `toml:"thorough"`
}

// lintConfig is the checker's configuration the file sets when no flag
// overrides it, as robots check's settings make it (the checks selected,
// thorough, -robots all), for robots lsp.
func (c *checkSettings) lintConfig() *lint.Config {
	cfg := &lint.Config{Enable: c.Enable, Disable: c.Disable}
	if c.Thorough != nil {
		cfg.Thorough = *c.Thorough
	}
	cfg.AllRobots = c.Robots != nil && *c.Robots == "all"
	return cfg
}

// configKeys are the keys of a .robots.toml, in the order of the docs.
var configKeys = []string{"enable", "disable", "fail-on", "max-same", "robots", "thorough"}

// findConfig returns the .robots.toml that applies to a file in dir:
// the one in dir or in the nearest directory above it, looking no
// further than the filesystem root or a directory that holds .git (the
// top of a repository). It returns "" when there is none.
func findConfig(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, configName)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return "", nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// loadConfig reads and checks a .robots.toml. Its errors name the file
// and, where they can, the line.
func loadConfig(path string) (*checkSettings, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	name := clean(path)
	var s checkSettings
	md, err := toml.NewDecoder(bytes.NewReader(data)).Decode(&s)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("%s:%d: %s", name, pe.Position.Line, pe.Message)
		}
		// A value of the wrong type: "toml: line 2 (last key "max-same"):
		// incompatible types: …".
		msg := err.Error()
		if rest, ok := strings.CutPrefix(msg, "toml: line "); ok {
			if num, rest, ok := strings.Cut(rest, " (last key "); ok {
				if key, what, ok := strings.Cut(rest, "): "); ok {
					return nil, fmt.Errorf("%s:%s: %s: %s", name, num, strings.Trim(key, `"`), what)
				}
			}
		}
		return nil, fmt.Errorf("%s: %s", name, strings.TrimPrefix(msg, "toml: "))
	}
	if un := md.Undecoded(); len(un) > 0 {
		k := un[0].String()
		msg := fmt.Sprintf("%s:%d: unknown key %q", name, keyLine(data, un[0][0]), k)
		best, bestD := "", 3
		for _, c := range configKeys {
			if d := spell.Distance(strings.ToLower(un[0][0]), c, 0); d < bestD {
				best, bestD = c, d
			}
		}
		if best != "" {
			msg += fmt.Sprintf("; did you mean %q?", best)
		}
		return nil, errors.New(msg + " (keys: " + strings.Join(configKeys, ", ") + ")")
	}
	at := func(key, msg string) error {
		return fmt.Errorf("%s:%d: %s: %s", name, keyLine(data, key), key, msg)
	}
	if s.FailOn != nil {
		if _, err := lint.ParseSeverity(*s.FailOn); err != nil {
			return nil, at("fail-on", errorText(err))
		}
	}
	if s.MaxSame != nil && *s.MaxSame < 0 {
		return nil, at("max-same", fmt.Sprintf("%d is below 0 (0 shows every finding)", *s.MaxSame))
	}
	if s.Robots != nil && *s.Robots != "major" && *s.Robots != "all" {
		return nil, at("robots", fmt.Sprintf("must be \"major\" or \"all\", got %q", *s.Robots))
	}
	sel := lint.Config{Enable: s.Enable, Disable: s.Disable}
	if err := sel.Validate(); err != nil {
		var se *lint.SelectionError
		if errors.As(err, &se) {
			return nil, at(se.List, selectionText(se))
		}
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return &s, nil
}

// selectionText is a selection error without the list's name.
func selectionText(se *lint.SelectionError) string {
	return strings.TrimPrefix(se.Error(), se.List+": ")
}

// keyLine returns the line of data where the top-level key is set, or 0
// when it cannot tell: TOML's decoder says which keys it did not use,
// not where they are.
func keyLine(data []byte, key string) int {
	for i, l := range strings.Split(string(data), "\n") {
		l = strings.TrimLeft(l, " \t")
		for _, k := range []string{key, `"` + key + `"`, "'" + key + "'"} {
			if rest, ok := strings.CutPrefix(l, k); ok {
				if rest = strings.TrimLeft(rest, " \t"); strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ".") {
					return i + 1
				}
			}
		}
		if strings.HasPrefix(l, "["+key+"]") || strings.HasPrefix(l, "["+key+".") || strings.HasPrefix(l, "[["+key+"]]") {
			return i + 1
		}
	}
	return 0
}

// mergeSelection returns the entries of the file's list that the flags
// do not override, then the flags' own: an entry of the file that names
// what a flag of the other list names (the same check, section,
// severity or all) gives way to it.
func mergeSelection(file, flagOther, flagSame []string) []string {
	var out []string
	for _, f := range file {
		if !containsSelector(flagOther, f) {
			out = append(out, f)
		}
	}
	return append(out, flagSame...)
}

// containsSelector reports whether list names what sel names.
func containsSelector(list []string, sel string) bool {
	key := func(s string) string {
		if c := lint.Lookup(s); c != nil {
			return c.Code
		}
		return strings.ToLower(s)
	}
	for _, s := range list {
		if key(s) == key(sel) {
			return true
		}
	}
	return false
}
