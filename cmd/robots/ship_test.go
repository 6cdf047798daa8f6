package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestActionYAML: the repository's GitHub Action (action.yml) is valid
// YAML with what GitHub needs of a composite action ("Metadata syntax for
// GitHub Actions",
// https://docs.github.com/en/actions/sharing-automations/creating-actions/metadata-syntax-for-github-actions):
// a name and a description, runs.using "composite", and steps that each
// either run a script with a shell or use an action; and it runs robots
// assert.
func TestActionYAML(t *testing.T) {
	data, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Name        string
		Description string
		Inputs      map[string]struct {
			Description string
			Required    *bool
			Default     *string
		}
		Runs struct {
			Using string
			Steps []map[string]any
		}
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Name == "" || action.Description == "" {
		t.Errorf("action.yml: name %q, description %q: GitHub requires both", action.Name, action.Description)
	}
	if action.Runs.Using != "composite" {
		t.Errorf("action.yml: runs.using = %q, want composite", action.Runs.Using)
	}
	if len(action.Runs.Steps) == 0 {
		t.Error("action.yml: no steps")
	}
	runsAssert := false
	for i, s := range action.Runs.Steps {
		_, run := s["run"].(string)
		_, shell := s["shell"].(string)
		_, uses := s["uses"].(string)
		switch {
		case run && !shell:
			t.Errorf("action.yml: step %d runs a script without a shell (a composite step needs one)", i+1)
		case run == uses:
			t.Errorf("action.yml: step %d has %s: give run (with shell) or uses", i+1, map[bool]string{true: "both run and uses", false: "neither run nor uses"}[run])
		}
		if run && strings.Contains(s["run"].(string), `assert`) {
			runsAssert = true
		}
		if uses && !regexp.MustCompile(`^[\w.-]+/[\w.-]+(/[\w./-]+)?@[\w.-]+$`).MatchString(s["uses"].(string)) {
			t.Errorf("action.yml: step %d uses %q, not OWNER/REPO@REF", i+1, s["uses"])
		}
	}
	if !runsAssert {
		t.Error("action.yml: no step runs robots assert")
	}
	for name, in := range action.Inputs {
		if in.Description == "" {
			t.Errorf("action.yml: input %s has no description", name)
		}
	}
	for _, name := range []string{"robots-txt", "spec", "sarif", "version"} {
		if _, ok := action.Inputs[name]; !ok {
			t.Errorf("action.yml: no input %s (docs/assert.md documents it)", name)
		}
	}
	if d := action.Inputs["robots-txt"].Default; d == nil || *d != "robots.txt" {
		t.Errorf("action.yml: robots-txt defaults to %v, want robots.txt", d)
	}
	if d := action.Inputs["version"].Default; d == nil || *d != "latest" {
		t.Errorf("action.yml: version defaults to %v, want latest", d)
	}
}

// TestPreCommitHooks: .pre-commit-hooks.yaml is valid YAML with what
// pre-commit needs of each hook (https://pre-commit.com/#creating-new-hooks:
// id, name, entry and language), and each entry is a command of this
// CLI.
func TestPreCommitHooks(t *testing.T) {
	data, err := os.ReadFile("../../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID            string   `yaml:"id"`
		Name          string   `yaml:"name"`
		Entry         string   `yaml:"entry"`
		Language      string   `yaml:"language"`
		Files         string   `yaml:"files"`
		PassFilenames *bool    `yaml:"pass_filenames"`
		Args          []string `yaml:"args"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	ids := map[string]bool{}
	for _, h := range hooks {
		if h.ID == "" || h.Name == "" || h.Entry == "" || h.Language == "" {
			t.Errorf("hook %+v: pre-commit needs id, name, entry and language", h)
		}
		ids[h.ID] = true
		f := strings.Fields(h.Entry)
		if len(f) < 2 || f[0] != "robots" || lookupCommand(f[1]) == nil {
			t.Errorf("hook %s: entry %q is not a robots command", h.ID, h.Entry)
		}
		if h.Language != "golang" {
			t.Errorf("hook %s: language %q, want golang (pre-commit go installs this module)", h.ID, h.Language)
		}
		if _, err := regexp.Compile(h.Files); err != nil {
			t.Errorf("hook %s: files %q: %v", h.ID, h.Files, err)
		}
		if h.ID == "robots-assert" {
			if h.PassFilenames == nil || *h.PassFilenames {
				t.Errorf("hook robots-assert: pass_filenames must be false: its args name the files")
			}
			if strings.Join(h.Args, " ") != "-file robots.txt robots.assert" {
				t.Errorf("hook robots-assert: args %q, want the documented [-file, robots.txt, robots.assert]", h.Args)
			}
		}
	}
	for _, id := range []string{"robots-assert", "robots-check"} {
		if !ids[id] {
			t.Errorf("no hook %s", id)
		}
	}
}
