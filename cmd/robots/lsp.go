package main

import (
	"errors"

	"github.com/robotskit/robots/internal/lsp"
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
	err := lsp.Serve(e.ctx, e.stdin, e.stdout, &lsp.Options{Version: buildVersion()})
	if errors.Is(err, lsp.ErrNoShutdown) {
		return errors.New("the editor ended the session without a shutdown request")
	}
	return err
}
