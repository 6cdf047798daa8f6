package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	neturl "net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/robotskit/robots/internal/spell"
	"github.com/robotskit/robots/internal/target"
	"github.com/robotskit/robots/internal/termtext"
)

// parseFlags parses args as gofmt and go vet do, except that flags may
// also come between and after the positional arguments: every argument
// that starts with "-" (other than "-" alone, standard input) is a flag
// of cmd, and "--" ends the flags. A flag that takes a value takes the
// next argument even when it starts with "-" ("-file -").
//
// An argument that looks like a flag but is not one of cmd's is a usage
// error naming it, never a file, URL or robot name. -h and -help print
// cmd's help on standard output and return flag.ErrHelp.
func parseFlags(e *env, cmd *command, fs *flag.FlagSet, args []string) error {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			pos = append(pos, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			pos = append(pos, a)
			continue
		}
		name := strings.TrimPrefix(a[1:], "-")
		name, _, hasValue := strings.Cut(name, "=")
		if name == "h" || name == "help" {
			printCommandHelp(e.stdout, cmd, fs)
			return flag.ErrHelp
		}
		f := fs.Lookup(name)
		if f == nil || name == "" || name[0] == '-' {
			return &usageError{msg: unknownFlag(cmd, fs, a)}
		}
		flags = append(flags, a)
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); ok && b.IsBoolFlag() {
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return &usageError{msg: fmt.Sprintf("flag -%s needs a value: %s", name, placeholder(f))}
			}
			i++
			flags = append(flags, args[i])
		}
	}
	if err := fs.Parse(append(append(flags, "--"), pos...)); err != nil {
		return &usageError{msg: err.Error()}
	}
	return nil
}

// unknownFlag says that arg is not a flag of cmd, with the closest one.
func unknownFlag(cmd *command, fs *flag.FlagSet, arg string) string {
	msg := fmt.Sprintf("%s is not a flag of robots %s", arg, cmd.name)
	name := strings.TrimLeft(arg, "-")
	name, _, _ = strings.Cut(name, "=")
	best, bestD := "", 3
	fs.VisitAll(func(f *flag.Flag) {
		if d := spell.Distance(strings.ToLower(name), f.Name, 0); d < bestD {
			best, bestD = f.Name, d
		}
	})
	if best != "" {
		msg += fmt.Sprintf("; did you mean -%s?", best)
	} else if isURL(arg) || strings.HasPrefix(arg, "-/") {
		msg += "; put -- before arguments that start with -"
	}
	return msg
}

// placeholder says what a flag's value looks like, from its usage text.
func placeholder(f *flag.Flag) string {
	name, _ := flag.UnquoteUsage(f)
	if name == "" {
		name = "value"
	}
	return "-" + f.Name + " " + name
}

// printCommandHelp writes cmd's usage and flags.
func printCommandHelp(w io.Writer, cmd *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "%s\n\n%s.\n", strings.TrimSpace("Usage: robots "+cmd.name+" "+cmd.usage), upperFirst(cmd.short))
	if cmd.long != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimSpace(cmd.long))
	}
	fmt.Fprintln(w, "\nFlags may come before, between or after the arguments; -- ends them.")
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	fmt.Fprintln(w)
	if cmd.exitCodes != "" {
		fmt.Fprint(w, cmd.exitCodes)
		return
	}
	fmt.Fprint(w, exitCodeHelp)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// durationValue is a time.Duration flag whose error says what to write.
type durationValue time.Duration

func (d *durationValue) String() string { return time.Duration(*d).String() }
func (d *durationValue) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		if _, nerr := strconv.ParseFloat(s, 64); nerr == nil {
			return fmt.Errorf("give a unit: use a duration such as %ss or %sms", s, s)
		}
		return errors.New("use a duration such as 5s, 1m30s or 500ms")
	}
	*d = durationValue(v)
	return nil
}

// durationFlag defines a duration flag that reads "5s", "1m".
func durationFlag(fs *flag.FlagSet, name string, def time.Duration, usage string) *time.Duration {
	d := def
	fs.Var((*durationValue)(&d), name, usage)
	return &d
}

// intValue is an integer flag whose error says what to write.
type intValue int

func (v *intValue) String() string { return strconv.Itoa(int(*v)) }
func (v *intValue) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("use a whole number such as 10")
	}
	*v = intValue(n)
	return nil
}

// intFlag defines an int flag.
func intFlag(fs *flag.FlagSet, name string, def int, usage string) *int {
	p := new(int)
	*p = def
	fs.Var((*intValue)(p), name, usage)
	return p
}

// floatValue is a number flag whose error says what to write.
type floatValue float64

func (v *floatValue) String() string { return strconv.FormatFloat(float64(*v), 'g', -1, 64) }
func (v *floatValue) Set(s string) error {
	n, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return errors.New("use a number such as 10 or 0.5")
	}
	*v = floatValue(n)
	return nil
}

// noteBareHost is the one-line note for an argument read as https://
// (target.Note): for an argument that may have named a file, that there
// is no such file; for a local address, how to reach a server without
// TLS. The web checker's forms say the same.
func noteBareHost(e *env, arg, u string, mayBeFile bool) {
	note := target.Note(arg, u)
	if mayBeFile {
		note = fmt.Sprintf("no file %q here: fetching %s", arg, u) + target.Hint(u)
	}
	fmt.Fprintf(e.stderr, "robots: %s\n", note)
}

// fetchURL checks a URL argument of a command that fetches it, as the
// web checker's forms read theirs (target.Read): an absolute http or
// https URL, or a bare host ("example.com", "example.com/x",
// "127.0.0.1:8080"), which is read as https:// with a note on standard
// error.
func fetchURL(e *env, arg string) (string, error) {
	u, bare, err := target.Read(arg)
	if err != nil {
		return "", &usageError{msg: err.Error()}
	}
	if bare {
		noteBareHost(e, arg, u, false)
	}
	return u, nil
}

// urlProblem says what is wrong with a URL in words (target.Problem).
func urlProblem(err error) string { return target.Problem(err) }

// testURLArg checks a URL argument of robots test or compare: an absolute
// URL with a scheme and host, or a path that starts with "/". Anything
// else, such as "example.com/x" or "nogoogle/a", is a usage error: the
// matcher would read it as some path, and a wrong verdict is worse than
// none.
func testURLArg(arg string) error {
	switch {
	case arg == "":
		return &usageError{msg: "empty URL argument: give a URL such as https://example.com/path or a path such as /path"}
	case strings.HasPrefix(arg, "/"):
		return nil
	}
	if u, err := neturl.Parse(arg); err == nil && u.Scheme != "" && u.Host != "" {
		return nil
	}
	msg := fmt.Sprintf("%q is neither a URL nor a path", arg)
	if u, ok := target.BareHost(arg); ok {
		msg += fmt.Sprintf(": did you mean %s?", u)
	} else if !strings.Contains(arg, "://") {
		msg += fmt.Sprintf(": did you mean /%s?", arg)
	}
	return &usageError{msg: msg}
}

// clean makes text from a remote site or a file safe for a terminal:
// control characters (ESC as \x1b), the bidirectional formatting
// characters and invalid UTF-8 are written as escapes, so that a page
// title or a robots.txt line cannot move the cursor, change colours or
// reorder what the user reads. It is termtext.Escape, the one escaping
// of the command line and of lint.WriteText.
func clean(s string) string { return termtext.Escape(s) }

// trimWriter drops the blanks at the end of every line written through it
// (tabwriter pads the last filled cell of a short row).
type trimWriter struct {
	w       io.Writer
	pending []byte
}

func (t *trimWriter) Write(p []byte) (int, error) {
	out := make([]byte, 0, len(p)+len(t.pending))
	for _, c := range p {
		switch c {
		case ' ':
			t.pending = append(t.pending, c)
			continue
		case '\n':
			t.pending = t.pending[:0]
		default:
			out = append(out, t.pending...)
			t.pending = t.pending[:0]
		}
		out = append(out, c)
	}
	if _, err := t.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// isTerminal reports whether w is a terminal, for progress output.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// floatFlag defines a number flag.
func floatFlag(fs *flag.FlagSet, name string, def float64, usage string) *float64 {
	p := new(float64)
	*p = def
	fs.Var((*floatValue)(p), name, usage)
	return p
}

// progressDelay is how long work runs before progress shows: quick work
// shows none.
var progressDelay = 500 * time.Millisecond

// progress shows msg, a spinner and the seconds spent on standard error
// while long work runs, when standard error is a terminal; nothing
// otherwise. The returned function clears the line; call it before
// printing anything else.
func progress(e *env, msg string) (stop func()) {
	if !e.tty {
		return func() {}
	}
	done, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		start := time.Now()
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		shown := false
		for i := 0; ; i++ {
			select {
			case <-done:
				if shown {
					fmt.Fprint(e.stderr, "\r\x1b[K")
				}
				return
			case now := <-tick.C:
				if now.Sub(start) < progressDelay {
					continue
				}
				shown = true
				fmt.Fprintf(e.stderr, "\r\x1b[K%c %s (%ds)", `|/-\`[i%4], msg, int(now.Sub(start).Seconds()))
			}
		}
	}()
	return func() {
		close(done)
		<-finished
	}
}

// input is a robots.txt argument: a file, standard input or a URL.
type input struct {
	name string // for messages
	path string // the file, "-" for standard input; "" for a URL
	url  string // the URL to fetch
}

// resolveInput reads a FILE|URL|- argument. An existing file wins over a
// bare host of the same name (files of real sites are often named after
// their host); a bare host with no such file is read as https://, with a
// note on standard error.
func resolveInput(e *env, arg string) (input, error) {
	switch {
	case arg == "":
		return input{}, &usageError{msg: "empty argument: give a FILE, a URL, or - for standard input"}
	case arg == "-":
		return input{name: "<stdin>", path: "-"}, nil
	case isURL(arg):
		u, err := fetchURL(e, arg)
		return input{name: u, url: u}, err
	}
	if _, err := os.Stat(arg); err == nil {
		return input{name: arg, path: arg}, nil
	}
	if strings.Contains(arg, "://") {
		_, err := fetchURL(e, arg)
		return input{}, err
	}
	if u, ok := target.BareHost(arg); ok {
		noteBareHost(e, arg, u, true)
		return input{name: u, url: u}, nil
	}
	return input{name: arg, path: arg}, nil
}
