package robots_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestVSCodeExtension reads editors/vscode/package.json as VS Code does:
// the extension activates on the robots-txt language, which files named
// robots.txt have, and its main script runs robots lsp for that language.
func TestVSCodeExtension(t *testing.T) {
	dir := filepath.Join("editors", "vscode")
	data, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Name             string
		Publisher        string
		Version          string
		Main             string
		Engines          struct{ VSCode string }
		ActivationEvents []string
		Contributes      struct {
			Languages []struct {
				ID            string
				Filenames     []string
				Configuration string
			}
		}
		Dependencies map[string]string
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatalf("package.json: %v", err)
	}
	if pkg.Name == "" || pkg.Publisher == "" || pkg.Version == "" || pkg.Engines.VSCode == "" {
		t.Errorf("package.json lacks a name, publisher, version or engines.vscode (vsce needs them): %+v", pkg)
	}
	if !slices.Contains(pkg.ActivationEvents, "onLanguage:robots-txt") {
		t.Errorf("activationEvents %v: want onLanguage:robots-txt", pkg.ActivationEvents)
	}
	found := false
	for _, l := range pkg.Contributes.Languages {
		if l.ID == "robots-txt" && slices.Contains(l.Filenames, "robots.txt") {
			found = true
			if _, err := os.Stat(filepath.Join(dir, l.Configuration)); err != nil {
				t.Errorf("the language's configuration: %v", err)
			}
		}
	}
	if !found {
		t.Errorf("no language robots-txt for files named robots.txt in %+v", pkg.Contributes.Languages)
	}
	if pkg.Dependencies["vscode-languageclient"] == "" {
		t.Errorf("dependencies %v: want vscode-languageclient", pkg.Dependencies)
	}
	js, err := os.ReadFile(filepath.Join(dir, pkg.Main))
	if err != nil {
		t.Fatalf("main: %v", err)
	}
	for _, s := range []string{"require('vscode-languageclient/node')", "args: ['lsp']", "language: 'robots-txt'"} {
		if !strings.Contains(string(js), s) {
			t.Errorf("%s lacks %s", pkg.Main, s)
		}
	}
}
