package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/history"
	"github.com/robotskit/robots/internal/target"
	"github.com/robotskit/robots/internal/timeline"
)

var historyCmd = &command{
	name:  "history",
	usage: "-store PATH [-at TIME] [-format text|json] [SITE]",
	short: "list the stored versions of a site's robots.txt, or print the one in force at a time",
	long: `PATH is the store robots watch keeps. Without SITE, the sites it holds
are listed. With SITE (a URL of the site or a bare host), its versions
are listed, oldest first: when each was first fetched, the answer, and
what Googlebot read.

-at TIME prints the version in force at TIME: the body of the robots.txt
on standard output (nothing for an answer without rules), and on
standard error which version it is and how the families read it then (a
503 is complete disallow at first, then the last good copy). TIME is
RFC 3339 (2026-11-28T09:30:00Z), a date and time in UTC (2026-11-28,
2026-11-28T09:30), or a duration ago (36h). The command exits 1 when the
store has no version that early.`,
}

func init() { historyCmd.run = runHistory }

func runHistory(e *env, args []string) error {
	fl := newFlags(e, historyCmd)
	store := fl.String("store", "", "read the versions from the bbolt file `PATH` (robots watch -store)")
	at := fl.String("at", "", "print the version in force at `TIME`")
	format := fl.String("format", "text", "output `format`: text or json")
	if err := parseFlags(e, historyCmd, fl, args); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if *store == "" {
		return &usageError{msg: "-store PATH is required: the file robots watch keeps"}
	}
	if fl.NArg() > 1 {
		return &usageError{msg: "give one site"}
	}
	var when time.Time
	if *at != "" {
		t, err := parseWhen(*at, time.Now())
		if err != nil {
			return &usageError{msg: "-at " + err.Error()}
		}
		when = t
		if fl.NArg() == 0 {
			return &usageError{msg: "-at needs a SITE"}
		}
	}
	st, err := openStoreRead(e, *store)
	if err != nil {
		return err
	}
	defer st.Close()
	if fl.NArg() == 0 {
		sites, err := st.Sites()
		if err != nil {
			return err
		}
		if *format == "json" {
			if sites == nil {
				sites = []history.Site{}
			}
			return writeJSON(e.stdout, struct {
				Sites []history.Site `json:"sites"`
			}{sites})
		}
		tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SITE\tVERSIONS\tFIRST\tLAST CHANGE\tLAST FETCH")
		for _, s := range sites {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\n", clean(s.Site), s.Versions, stamp(s.First), stamp(s.Last), stamp(s.Checked))
		}
		return tw.Flush()
	}
	site, err := storeSite(fl.Arg(0))
	if err != nil {
		return err
	}
	if _, bare := target.BareHost(fl.Arg(0)); bare {
		// A bare host names the site whichever scheme robots watch
		// was given.
		site = siteInStore(st, site)
	}
	vs, err := st.Versions(site)
	if errors.Is(err, history.ErrNotFound) {
		return fmt.Errorf("%s has no version in %s (robots history -store %s lists the sites it holds)", site, *store, shellQuote(*store))
	}
	if err != nil {
		return err
	}
	tl := timeline.New(vs)
	if *at != "" {
		return historyAt(e, tl, site, when, *format == "json")
	}
	if *format == "json" {
		return writeJSON(e.stdout, struct {
			Site     string            `json:"site"`
			Versions []history.Version `json:"versions"`
		}{site, vs})
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s: %s\n", clean(site), plural(len(vs), "version"))
	fmt.Fprintln(tw, "#\tFROM (UTC)\tANSWER\tSIZE\tSHA-256\tGOOGLEBOT READ")
	for i, v := range vs {
		r := tl.Read(v.Time, fetch.Google, robots.Google)
		answer := v.Outcome
		if v.Status != 0 {
			answer = fmt.Sprintf("%d %s", v.Status, v.Outcome)
		}
		hash := "-"
		if v.Hash != "" {
			hash = v.Hash[:min(12, len(v.Hash))]
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%s\t%s\n", i+1, stamp(v.Time), answer, v.Size, hash, clean(timeline.Describe(r)))
	}
	return tw.Flush()
}

// historyAt prints the version in force at when.
func historyAt(e *env, tl *timeline.Timeline, site string, when time.Time, asJSON bool) error {
	vs := tl.Versions()
	i := tl.Index(when)
	if i < 0 {
		fmt.Fprintf(e.stderr, "robots: %s: the first version is from %s; nothing is known of %s\n", site, stamp(vs[0].Time), stamp(when))
		return errFinding
	}
	v := vs[i]
	fams := tl.Readings(when)
	until := ""
	if i+1 < len(vs) {
		until = stamp(vs[i+1].Time)
	}
	if asJSON {
		return writeJSON(e.stdout, struct {
			Site     string                   `json:"site"`
			At       time.Time                `json:"at"`
			Version  history.Version          `json:"version"`
			Until    string                   `json:"until,omitempty"`
			Body     string                   `json:"body"`
			Families []timeline.FamilyReading `json:"families"`
		}{site, when.UTC(), v, until, string(v.Body), fams})
	}
	msg := fmt.Sprintf("robots: %s at %s: version %d of %d, from %s", site, stamp(when), i+1, len(vs), stamp(v.Time))
	if until != "" {
		msg += " until " + until
	}
	fmt.Fprintln(e.stderr, clean(msg))
	for _, f := range fams {
		fmt.Fprintf(e.stderr, "  %s robots: %s\n", f.Family, clean(f.Reads))
	}
	_, err := e.stdout.Write(v.Body)
	return err
}

// openStoreRead opens a store for a command that only reads it: it
// makes no file and moves none aside (robots watch does both).
func openStoreRead(e *env, path string) (*history.Store, error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("-store %s: no such file (robots watch -store %s SITE makes it)", path, shellQuote(path))
	}
	st, err := history.Open(path, &history.Options{ReadOnly: true})
	if err != nil {
		return nil, fmt.Errorf("-store %s: %w", path, err)
	}
	return st, nil
}

// siteInStore returns the store's site for an https origin read from a
// bare host: the origin itself when the store has it, else its http one
// when the store has that.
func siteInStore(st *history.Store, origin string) string {
	sites, err := st.Sites()
	if err != nil {
		return origin
	}
	alt := "http://" + strings.TrimPrefix(origin, "https://")
	found := false
	for _, s := range sites {
		if s.Site == origin {
			return origin
		}
		found = found || s.Site == alt
	}
	if found {
		return alt
	}
	return origin
}

// storeSite reads a SITE argument as the store's key, its origin.
func storeSite(arg string) (string, error) {
	u, _, err := target.Read(arg)
	if err != nil {
		return "", &usageError{msg: fmt.Sprintf("%s: %v", arg, err)}
	}
	o, err := fetch.ParseOrigin(u)
	if err != nil {
		return "", &usageError{msg: fmt.Sprintf("%s: %v", arg, errorText(err))}
	}
	return o.String(), nil
}

// stamp writes a time as the text output does: RFC 3339 in UTC, with
// milliseconds when it has some (robots watch keeps them), "-" for none.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	if t.Nanosecond() != 0 {
		return t.UTC().Format("2006-01-02T15:04:05.000Z07:00")
	}
	return t.UTC().Format(time.RFC3339)
}

// parseWhen reads a TIME of -at: RFC 3339, a date or a date and time in
// UTC, or a duration before now.
func parseWhen(s string, now time.Time) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if strings.HasSuffix(s, "d") {
		var n int
		if _, err := fmt.Sscanf(s, "%dd", &n); err == nil && n >= 0 && fmt.Sprintf("%dd", n) == s {
			return now.AddDate(0, 0, -n), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q: give RFC 3339 (2026-11-28T09:30:00Z), a date (2026-11-28), a date and time in UTC (2026-11-28T09:30) or a duration ago (36h, 7d)", s)
}
