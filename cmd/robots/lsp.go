package main

import (
	"errors"
	"net/url"
	"path/filepath"

	"github.com/robotskit/robots/internal/lsp"
	"github.com/robotskit/robots/lint"
)

var lspCmd = &command{
	name:  "lsp",
	usage: "",
	short: "run the robots.txt language server (LSP) for editors",
	long: `An editor starts robots lsp and speaks the Language Server Protocol to it
over standard input and output: it shows robots check's findings as you
type, offers robots fix's edits as quick fixes (an intent fix says that
it changes what robots do), says on hover how each robot family reads an
Allow or Disallow line and which known robots a group applies to,
completes directive names and, after User-agent:, the known robots, and
formats the file as robots fmt does. editors/ in the repository has the
set-up for VS Code and Neovim.`,
}

func init() { lspCmd.run = runLSP }

func runLSP(e *env, args []string) error {
	fs := newFlags(e, lspCmd)
	if err := parseFlags(e, lspCmd, fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return &usageError{msg: "lsp takes no arguments: an editor starts it and speaks to it on standard input and output"}
	}
	err := lsp.Serve(e.ctx, e.stdin, e.stdout, &lsp.Options{Version: buildVersion(), Config: lspConfig})
	if errors.Is(err, lsp.ErrNoShutdown) {
		return errors.New("the editor ended the session without a shutdown request")
	}
	return err
}

// lspConfig returns the checker's settings for a document: for a file on
// disk, those of the .robots.toml robots check reads for it (found from
// the file's directory upward, as check finds it), so that the editor
// shows what robots check reports; nil (the defaults) for a document
// that is not a file.
func lspConfig(uri string) (*lint.Config, error) {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return nil, nil
	}
	path, err := findConfig(filepath.Dir(filepath.FromSlash(u.Path)))
	if err != nil || path == "" {
		return nil, err
	}
	file, err := loadConfig(path)
	if err != nil {
		return nil, err
	}
	return file.lintConfig(), nil
}
