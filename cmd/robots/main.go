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
//	fix      print a corrected robots.txt that keeps its meaning
//	fmt      print a robots.txt in the canonical layout
//	fetch    fetch a site's robots.txt as a robot does, and show every hop
//	page     show a page as a robot sees it: robots.txt, status, X-Robots-Tag, meta tags
//	compare  show how each robot reads a file, URL by URL
//	audit    say what every known robot may crawl, and what it misreads
//	agents   list the known robots
//	serve    run the web checker and JSON API
//	version  print the version
//
// Exit codes: 0 ok or allowed, 1 a finding (a URL is disallowed, a check
// finds an error, a fix changes the file), 2 a usage or I/O error.
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
	"strings"

	"github.com/redis/go-redis/v9"
)

// quietLogger discards go-redis's log lines.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

func main() {
	// go-redis logs failed connections to standard error; a Redis outage
	// is reported by the cache's errors instead (see fetch.OpenCache).
	redis.SetLogger(quietLogger{})
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// env is what a command may touch.
type env struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
}

// command is one subcommand.
type command struct {
	name  string
	usage string // after "robots NAME "
	short string
	run   func(e *env, args []string) error
}

var commands []*command

func init() {
	commands = []*command{testCmd, checkCmd, fixCmd, fmtCmd, fetchCmd, pageCmd, compareCmd, auditCmd, agentsCmd, serveCmd, versionCmd}
}

// Exit codes.
const (
	exitOK      = 0
	exitFinding = 1
	exitError   = 2
)

// errFinding makes a command exit 1 with no message.
var errFinding = errors.New("finding")

// usageError is a bad invocation: its message is followed by a hint.
type usageError struct{ cmd, msg string }

func (e *usageError) Error() string { return e.msg }

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help" {
		printUsage(stderr)
		if len(args) == 0 {
			return exitError
		}
		return exitOK
	}
	var cmd *command
	for _, c := range commands {
		if c.name == args[0] {
			cmd = c
		}
	}
	if cmd == nil {
		fmt.Fprintf(stderr, "robots: unknown command %q\nTry: robots help\n", args[0])
		return exitError
	}
	e := &env{ctx: ctx, stdin: stdin, stdout: stdout, stderr: stderr}
	err := cmd.run(e, args[1:])
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, errFinding):
		return exitFinding
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "robots %s: %s\nTry: robots %s -h\n", cmd.name, ue.msg, cmd.name)
		return exitError
	default:
		fmt.Fprintf(stderr, "robots %s: %v\n", cmd.name, err)
		return exitError
	}
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "Usage: robots <command> [flags] [arguments]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.short)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'robots <command> -h' for a command's flags.")
}

// newFlags returns a flag set for cmd that reports errors instead of exiting.
func newFlags(e *env, cmd *command) *flag.FlagSet {
	fs := flag.NewFlagSet(cmd.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by run, in one line
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args: -h prints the command's usage, and a bad flag
// becomes a one-line usageError.
func parseFlags(e *env, cmd *command, fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprintf(e.stderr, "Usage: robots %s %s\n\n%s.\n\nFlags:\n", cmd.name, cmd.usage, cmd.short)
		fs.SetOutput(e.stderr)
		fs.PrintDefaults()
		return err
	default:
		return &usageError{msg: err.Error()}
	}
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

// version is set by the build (-ldflags "-X main.version=…").
var version = "devel"

var versionCmd = &command{
	name:  "version",
	short: "print the version",
	run: func(e *env, args []string) error {
		fmt.Fprintf(e.stdout, "robots %s\n", version)
		return nil
	},
}
