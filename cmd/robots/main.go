// Command robots reads, tests and checks robots.txt files.
//
// Usage:
//
//	robots <command> [flags] [arguments]
//
// Commands:
//
//	test     say whether robots may fetch URLs
//	check    report every problem of a robots.txt
//	explain  print what a check finds, why it matters and how to fix it
//	fix      print a corrected robots.txt that keeps its meaning
//	fmt      print a robots.txt in the canonical layout
//	fetch    fetch a site's robots.txt as a robot does, and show every hop
//	page     show a page as a robot sees it: robots.txt, status, X-Robots-Tag, meta tags
//	compare  show how each robot reads a file, URL by URL
//	diff     say which verdicts change between two versions of a file
//	audit    say what every known robot may crawl, and what it misreads
//	usage    say what robots may do with what they fetch: search, ai-input, ai-train
//	assert   check that a robots.txt says what spec files expect of it
//	agents   list the known robots
//	scan     analyse robots.txt captures in bulk: WARC files, directories, JSON lines
//	serve    run the web checker and JSON API
//	lsp      run the robots.txt language server (LSP) for editors
//	mcp      run a Model Context Protocol server (stdio) for AI agents
//	version  print the version
//	help     show the help of robots or of a command
//
// Flags may come before, between or after the arguments; -- ends them.
//
// Exit codes:
//
//	0    ok: every URL allowed, no finding, nothing to change
//	1    a finding: a URL disallowed, a check's finding, a fix or layout
//	     that would change the file, robots that read a file differently
//	2    a usage or I/O error
//	130  interrupted (Ctrl-C)
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/robotskit/robots/internal/spell"
)

// quietLogger discards go-redis's log lines.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

func main() {
	// go-redis logs failed connections to standard error; a Redis outage
	// is reported by the cache's errors instead (see fetch/cachespec.Open).
	redis.SetLogger(quietLogger{})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	serving := len(os.Args) > 1 && os.Args[1] == serveCmd.name
	go func() {
		<-ctx.Done()
		// A second Ctrl-C ends the process at once.
		stop()
		if serving {
			return // serve shuts down gracefully on its own
		}
		// Work that does not watch the context (a long fix) is not waited
		// for: after a grace period the process ends as run would end it.
		time.Sleep(interruptGrace)
		fmt.Fprintln(os.Stderr, "robots: interrupted")
		os.Exit(exitInterrupted)
	}()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// testStdoutTTY makes the tests' standard output a terminal, for the
// colours of -color auto.
var testStdoutTTY bool

// interruptGrace is how long a command may take to stop after Ctrl-C.
const interruptGrace = time.Second

// env is what a command may touch.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// tty is set when standard error is a terminal: long work then shows
	// its progress there.
	tty bool
	// outTTY is set when standard output is a terminal: robots check
	// then colours its text (-color auto).
	outTTY bool
}

// command is one subcommand.
type command struct {
	name  string
	usage string // after "robots NAME "
	short string
	long  string // more help, printed after the short line
	// exitCodes, when not "", is the command's own table of exit codes,
	// printed instead of exitCodeHelp.
	exitCodes string
	run       func(e *env, args []string) error
}

var commands []*command

func init() {
	commands = []*command{testCmd, checkCmd, explainCmd, fixCmd, fmtCmd, fetchCmd, pageCmd, compareCmd, diffCmd, auditCmd, usageCmd, assertCmd, watchCmd, historyCmd, logsCmd, agentsCmd, scanCmd, serveCmd, lspCmd, mcpCmd, versionCmd, helpCmd}
}

// Exit codes.
const (
	exitOK          = 0
	exitFinding     = 1
	exitError       = 2
	exitInterrupted = 130
)

// exitCodeHelp is the table of exit codes, in every help text.
const exitCodeHelp = `Exit codes:
  0    ok: every URL allowed, no finding, nothing to change
  1    a finding: a URL disallowed, a check's finding, a file that a fix or
       the layout would change, robots that read a file differently
  2    a usage or I/O error
  130  interrupted
`

// errFinding makes a command exit 1 with no message.
var errFinding = errors.New("finding")

// usageError is a bad invocation: its message is followed by a hint.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		printUsage(stderr)
		return exitError
	}
	switch args[0] {
	case "-h", "-help", "--help":
		printUsage(stdout)
		return exitOK
	case "-version", "--version", "-v":
		args = []string{"version"}
	}
	cmd := lookupCommand(args[0])
	if cmd == nil {
		msg := fmt.Sprintf("robots: unknown command %q", args[0])
		if c := closestCommand(args[0]); c != "" {
			msg += fmt.Sprintf("; did you mean robots %s?", c)
		}
		fmt.Fprintf(stderr, "%s\nTry: robots help\n", msg)
		return exitError
	}
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr, tty: isTerminal(stderr), outTTY: isTerminal(stdout) || testStdoutTTY}
	err := cmd.run(e, args[1:])
	var ue *usageError
	switch {
	case ctx.Err() != nil && cmd != serveCmd && !errors.Is(err, flag.ErrHelp):
		// Whatever the command had decided, an interrupted run reports no
		// verdict. (For serve, an interrupt is the way to stop it: it
		// shuts down gracefully and exits 0.)
		fmt.Fprintf(stderr, "robots %s: interrupted\n", cmd.name)
		return exitInterrupted
	case err == nil:
		return exitOK
	case errors.Is(err, errFinding):
		return exitFinding
	case errors.Is(err, errReported):
		return exitError
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "robots %s: %s\nTry: robots %s -h\n", cmd.name, ue.msg, cmd.name)
		return exitError
	default:
		fmt.Fprintf(stderr, "robots %s: %s\n", cmd.name, errorText(err))
		return exitError
	}
}

func lookupCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// closestCommand is the command a mistyped name most likely meant.
func closestCommand(name string) string {
	best, bestD := "", 3
	for _, c := range commands {
		if d := spell.Distance(strings.ToLower(name), c.name, 0); d < bestD {
			best, bestD = c.name, d
		}
	}
	return best
}

// errorText is err's message without the package prefixes that the
// command's own prefix repeats ("page: ", "fetch: ", …).
func errorText(err error) string {
	msg := err.Error()
	for {
		trimmed := msg
		for _, p := range []string{"page: ", "fetch: ", "agents: ", "lint: ", "robots: ", "syntax: ", "meta: ", "scan: ", "warc: "} {
			trimmed = strings.TrimPrefix(trimmed, p)
		}
		if trimmed == msg {
			return msg
		}
		msg = trimmed
	}
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Robots reads, tests and checks robots.txt files, robots meta tags and")
	fmt.Fprintln(w, "X-Robots-Tag headers, the way each family of robots reads them.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: robots <command> [flags] [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.short)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'robots help <command>' or 'robots <command> -h' for a command's flags.")
	fmt.Fprintln(w, "Flags may come before, between or after the arguments; -- ends them.")
	fmt.Fprintln(w)
	fmt.Fprint(w, exitCodeHelp)
}

// newFlags returns a flag set for cmd that reports errors instead of exiting.
func newFlags(e *env, cmd *command) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by run, in one line
	fs.Usage = func() {}
	return fs
}

// isSet reports whether the flag name was given on the command line.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// checkFormat accepts the -format values of the commands that print
// reports.
func checkFormat(f string) error {
	if f != "text" && f != "json" {
		return &usageError{msg: fmt.Sprintf("-format must be text or json, got %q", f)}
	}
	return nil
}

// writeJSON writes v as indented JSON, without HTML escaping.
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// stringsFlag is a repeatable string flag.
type stringsFlag []string

func (s *stringsFlag) String() string     { return strings.Join(*s, ",") }
func (s *stringsFlag) Set(v string) error { *s = append(*s, v); return nil }

// version can be set by the build (-ldflags "-X main.version=…"); else
// it comes from the build information (see buildVersion).
var version = ""

// buildVersion is the version of this binary: the -ldflags version, else
// the module version that go install recorded (v1.2.3 or a pseudo-version),
// else the VCS revision that go build recorded from a checkout, marked
// "+dirty" when the tree had changes, else "devel".
func buildVersion() string {
	if version != "" {
		return version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	return versionOf(bi)
}

func versionOf(bi *debug.BuildInfo) string {
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, at string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	v := "devel-" + rev
	if dirty {
		v += "+dirty"
	}
	if at != "" {
		v += " (" + at + ")"
	}
	return v
}

var versionCmd = &command{
	name:  "version",
	short: "print the version",
}

var helpCmd = &command{
	name:  "help",
	usage: "[command]",
	short: "show the help of robots or of a command",
}

func init() {
	versionCmd.run = runVersion
	helpCmd.run = runHelp
}

func runVersion(e *env, args []string) error {
	fs := newFlags(e, versionCmd)
	if err := parseFlags(e, versionCmd, fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &usageError{msg: "version takes no arguments"}
	}
	fmt.Fprintf(e.stdout, "robots %s %s/%s %s\n", buildVersion(), runtime.GOOS, runtime.GOARCH, runtime.Version())
	return nil
}

func runHelp(e *env, args []string) error {
	switch len(args) {
	case 0:
		printUsage(e.stdout)
		return nil
	case 1:
		if args[0] == "-h" || args[0] == "-help" || args[0] == "--help" {
			args = []string{helpCmd.name}
		}
		cmd := lookupCommand(args[0])
		if cmd == nil {
			return &usageError{msg: fmt.Sprintf("unknown command %q", args[0])}
		}
		if cmd == helpCmd {
			printCommandHelp(e.stdout, helpCmd, newFlags(e, helpCmd))
			return flag.ErrHelp
		}
		return cmd.run(e, []string{"-h"})
	default:
		return &usageError{msg: "give one command"}
	}
}
