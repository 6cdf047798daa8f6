package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/change"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/history"
	"github.com/robotskit/robots/internal/sniff"
	"github.com/robotskit/robots/internal/target"
	"github.com/robotskit/robots/internal/timeline"
)

var watchCmd = &command{
	name:  "watch",
	usage: "-store PATH [-assert SPEC]... [-webhook URL] [-every D] [-format text|json] [-timeout D] [-user-agent UA] SITE[@D]...",
	short: "fetch sites' robots.txt on a schedule, keep every version, report what changes",
	long: `Each SITE is a URL of the site, or a bare host such as example.com (read
as https://). Its robots.txt is fetched as Googlebot fetches it (status
codes, redirects, size limit, timeout), and a version is stored in the
store at PATH (a bbolt file, made when missing; robots history reads it)
when the body or what the fetch means changes: a 503 period is a version
too. Nothing stored is ever overwritten.

For each new version, the report says what changed for robots, in the
file's own rules: the rule lines added, removed or obeyed by other
robots, per robot family and robot (the report of robots diff); when the
answer changed (a 503, a 404), what each family now reads and read before
(complete disallow, no restrictions, the rules of version N).

-assert SPEC checks the assertions of SPEC (the lines robots assert
reads) on every fetch, and reports those that fail.

-webhook URL POSTs each change, and each pass whose assertions fail, as
JSON (docs/watch.md gives the shape) with a few retries and growing
pauses for a receiver that fails; a pass waits at most 30 s for them.
With ROBOTS_WEBHOOK_SECRET set in the environment, each POST carries
X-Robots-Signature-256: sha256=HEX, the HMAC-SHA256 of its body under
that secret, for the receiver to check.

Without -every, one pass (for cron): the command exits 1 when a site's
robots.txt changed or an assertion failed. With -every D it runs until
interrupted, fetching each site every D with a jitter of a tenth of D, on
each site's own schedule; SITE@D gives one site an interval of its own,
such as example.com@6h.`,
	exitCodes: `Exit codes:
  0    nothing changed and every assertion holds (with -every: stopped)
  1    a robots.txt changed, or an assertion failed
  2    a usage error, or the store could not be used
  130  interrupted (one pass)
`,
}

func init() { watchCmd.run = runWatch }

// watchRules is how many changed rule lines the text report of a change
// shows; -format json and the webhook give them all.
const watchRules = 20

// watchWorkers bounds the sites fetched at once in one pass.
const watchWorkers = 8

// maxWatchSites bounds the sites of one command.
const maxWatchSites = 10000

// watchSite is one SITE argument.
type watchSite struct {
	arg   string
	url   string // what is fetched
	site  string // the origin, the store's key
	every time.Duration
}

func runWatch(e *env, args []string) error {
	fs := newFlags(e, watchCmd)
	var specs stringsFlag
	store := fs.String("store", "", "keep the versions in the bbolt file `PATH` (made when missing)")
	fs.Var(&specs, "assert", "check the assertions of `SPEC` on each fetch (repeatable)")
	hook := fs.String("webhook", "", "POST each change and each failing pass as JSON to `URL`")
	every := durationFlag(fs, "every", 0, "run until interrupted, fetching each site every `D` (default: one pass)")
	format := fs.String("format", "text", "output `format`: text or json")
	nf := addNetFlags(fs, 0)
	if err := parseFlags(e, watchCmd, fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if *store == "" {
		return &usageError{msg: "-store PATH is required: the file that keeps the versions"}
	}
	if *every < 0 || (*every > 0 && *every < time.Second) {
		return &usageError{msg: "-every must be at least 1s, such as 1h"}
	}
	if err := nf.check(); err != nil {
		return err
	}
	if *nf.cache != "" {
		return &usageError{msg: "-cache: robots watch fetches every time, so that each pass sees the file the site serves now"}
	}
	if fs.NArg() == 0 {
		return &usageError{msg: "no site to watch: give one or more sites, such as example.com"}
	}
	if fs.NArg() > maxWatchSites {
		return &usageError{msg: fmt.Sprintf("%d sites: at most %d in one command", fs.NArg(), maxWatchSites)}
	}
	sites, err := watchSites(e, fs.Args(), *every)
	if err != nil {
		return err
	}
	var hookURL string
	if *hook != "" {
		u, _, err := target.Read(*hook)
		if err != nil {
			return &usageError{msg: fmt.Sprintf("-webhook %s: %v", *hook, err)}
		}
		hookURL = u
	}
	spec, err := loadWatchSpec(e, specs)
	if err != nil {
		return err
	}
	st, err := history.Open(*store, nil)
	if err != nil {
		return fmt.Errorf("-store %s: %w", *store, err)
	}
	defer st.Close()
	if aside := st.MovedAside(); aside != "" {
		fmt.Fprintf(e.stderr, "robots: %s was damaged and is kept as %s; a new store was started\n", *store, aside)
	}
	f, done, err := nf.fetcher(fetch.Google, robots.Google, "")
	if err != nil {
		return err
	}
	defer done()
	w := &watcher{e: e, store: st, fetcher: f, spec: spec, json: *format == "json"}
	if hookURL != "" {
		w.hook = newWebhook(hookURL, e.stderr)
		w.hook.secret = []byte(os.Getenv(webhookSecretEnv))
		defer w.hook.close(webhookWait)
	}
	if *every == 0 {
		changed, err := w.pass(e.ctx, sites)
		if err != nil {
			return err
		}
		if changed {
			return errFinding
		}
		return nil
	}
	return w.daemon(e.ctx, sites)
}

// watchSites reads the SITE arguments: an optional @D interval, then a
// URL or a bare host. Two arguments of one origin are one site.
func watchSites(e *env, args []string, every time.Duration) ([]watchSite, error) {
	var out []watchSite
	seen := map[string]bool{}
	for _, a := range args {
		s := watchSite{arg: a, every: every}
		if i := strings.LastIndexByte(a, '@'); i > 0 {
			if d, err := time.ParseDuration(a[i+1:]); err == nil {
				if d < time.Second {
					return nil, &usageError{msg: fmt.Sprintf("%s: an interval must be at least 1s", a)}
				}
				s.every, a = d, a[:i]
			}
		}
		u, bare, err := target.Read(a)
		if err != nil {
			return nil, &usageError{msg: fmt.Sprintf("%s: %v", a, err)}
		}
		if bare {
			fmt.Fprintf(e.stderr, "robots: %s\n", target.Note(a, u))
		}
		o, err := fetch.ParseOrigin(u)
		if err != nil {
			return nil, &usageError{msg: fmt.Sprintf("%s: %v", a, errorText(err))}
		}
		s.url, s.site = u, o.String()
		if seen[s.site] {
			continue
		}
		seen[s.site] = true
		out = append(out, s)
	}
	return out, nil
}

// A watcher runs the passes of robots watch.
type watcher struct {
	e       *env
	store   *history.Store
	fetcher *fetch.Fetcher
	spec    *watchSpec
	hook    *webhook
	json    bool

	mu sync.Mutex // orders the output of concurrent sites
	// failing holds, per site, the failing assertions last reported,
	// so that a daemon posts a failing set once, not every pass.
	failing map[string]string
}

// A siteReport is what one fetch of a site found: the JSON of robots
// watch -format json and of the webhook.
type siteReport struct {
	Site     string           `json:"site"`
	Time     time.Time        `json:"time"`
	Changed  bool             `json:"changed"`
	New      bool             `json:"new,omitempty"` // the site's first version
	Version  *history.Version `json:"version,omitempty"`
	Previous *history.Version `json:"previous,omitempty"`
	// Families are the major families' readings before and after, for
	// those whose reading changed; Rules the diff of the rules, when
	// both versions have rules.
	Families []timeline.FamilyChange `json:"families,omitempty"`
	Report   *change.Report          `json:"report,omitempty"`
	// Omitted counts the rule lines a webhook's report leaves out (only
	// the first webhookRules are sent when the whole would pass 1 MiB,
	// without the per-robot evidence).
	Omitted int `json:"rules_omitted,omitempty"`
	// Note says why robots find no rules in a body they read: a wide
	// encoding, an HTML page (robots check: RB202, RB205).
	Note string `json:"note,omitempty"`
	// Assertions are the failing assertions of -assert.
	Assertions *watchAsserted `json:"assertions,omitempty"`
	Error      string         `json:"error,omitempty"`
}

// pass fetches every site once and reports; changed is set when a site
// changed or an assertion failed.
func (w *watcher) pass(ctx context.Context, sites []watchSite) (changed bool, err error) {
	reps := make([]*siteReport, len(sites))
	sem := make(chan struct{}, watchWorkers)
	var wg sync.WaitGroup
	stop := progress(w.e, fmt.Sprintf("fetching %s", plural(len(sites), "robots.txt")))
	for i := range sites {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			reps[i] = w.visit(ctx, sites[i])
		}()
	}
	wg.Wait()
	stop()
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	var firstErr error
	for _, r := range reps {
		if r.Error != "" && firstErr == nil {
			firstErr = errors.New(r.Error)
		}
		changed = changed || r.Changed || (r.Assertions != nil && r.Assertions.Fail > 0)
	}
	if w.json {
		if err := writeJSON(w.e.stdout, struct {
			Sites []*siteReport `json:"sites"`
		}{reps}); err != nil {
			return false, err
		}
	} else {
		for _, r := range reps {
			w.writeText(r)
		}
	}
	if firstErr != nil {
		return false, firstErr
	}
	return changed, nil
}

// visit fetches one site, stores its version and builds its report.
func (w *watcher) visit(ctx context.Context, s watchSite) *siteReport {
	res, err := w.fetcher.Fetch(ctx, s.url)
	rep := &siteReport{Site: s.site, Time: time.Now().UTC()}
	if err != nil {
		rep.Error = fmt.Sprintf("%s: %v", s.arg, errorText(err))
		return rep
	}
	if ctx.Err() != nil {
		// Stopped by the command, not by the site: no outage to store.
		rep.Error = fmt.Sprintf("%s: stopped", s.arg)
		return rep
	}
	// Versions keep milliseconds, which the text output shows, so that
	// a time copied from it names the version (robots history -at).
	rep.Time = res.Fetched.UTC().Truncate(time.Millisecond)
	v := history.Version{
		Site: s.site, Time: rep.Time, URL: res.URL, FinalURL: res.FinalURL,
		Status: res.Status, Outcome: res.Outcome.String(), Err: res.Err,
		Size: res.Size, Truncated: res.Truncated,
	}
	if res.Outcome == fetch.Success {
		v.Body = res.Body
	}
	stored, added, err := w.store.Record(v)
	if err != nil {
		rep.Error = fmt.Sprintf("%s: storing the version: %v", s.site, err)
		return rep
	}
	rep.Version = &stored
	rep.Note = bodyNote(v.Body, res.HTML)
	if added {
		vs, err := w.store.Versions(s.site)
		if err != nil {
			rep.Error = fmt.Sprintf("%s: reading the history: %v", s.site, err)
			return rep
		}
		if n := len(vs); n >= 2 {
			rep.Changed = true
			prev := vs[n-2]
			rep.Previous = &prev
			rep.Families, rep.Report = timeline.New(vs).Change(ctx, n-2, n-1)
		} else {
			rep.New = true
		}
	}
	if w.spec != nil {
		rep.Assertions = w.spec.eval(w.e, res)
	}
	if w.hook != nil {
		if ev := w.event(rep); ev != "" {
			w.hook.send(ev, rep)
		}
	}
	return rep
}

// event is the webhook event of a report: "change" for a new version
// after the first, "assertions" for failing assertions that differ from
// those last posted, "" for nothing to post.
func (w *watcher) event(rep *siteReport) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	key := ""
	if a := rep.Assertions; a != nil && a.Fail > 0 {
		key = a.key()
	}
	last, seen := w.failing[rep.Site]
	if w.failing == nil {
		w.failing = map[string]string{}
	}
	w.failing[rep.Site] = key
	switch {
	case rep.Changed:
		return "change"
	case key != "" && (!seen || key != last):
		return "assertions"
	}
	return ""
}

// writeText writes one site's report.
func (w *watcher) writeText(r *siteReport) {
	var b strings.Builder
	switch {
	case r.Error != "":
		fmt.Fprintf(&b, "%s: error: %s\n", clean(r.Site), clean(r.Error))
	case r.New:
		fmt.Fprintf(&b, "%s: version 1 stored: %s\n", clean(r.Site), versionSummary(r.Version))
		if r.Note != "" {
			fmt.Fprintf(&b, "  note: %s\n", r.Note)
		}
	case r.Changed:
		fmt.Fprintf(&b, "%s: version %d: %s\n  was version %d: %s\n", clean(r.Site), r.Version.Seq, versionSummary(r.Version), r.Previous.Seq, versionSummary(r.Previous))
		if r.Note != "" {
			fmt.Fprintf(&b, "  note: version %d is %s\n", r.Version.Seq, r.Note)
		}
		writeFamilies(&b, r.Families)
		if r.Report != nil {
			var d bytes.Buffer
			old := fmt.Sprintf("version %d", r.Previous.Seq)
			nw := fmt.Sprintf("version %d", r.Version.Seq)
			if err := writeDiffText(&d, old, nw, r.Report, false, false, watchRules); err == nil {
				for _, line := range strings.Split(strings.TrimRight(d.String(), "\n"), "\n") {
					if line != "" {
						b.WriteString("  " + line)
					}
					b.WriteString("\n")
				}
			}
		}
	default:
		fmt.Fprintf(&b, "%s: unchanged since version %d (%s)\n", clean(r.Site), r.Version.Seq, stamp(r.Version.Time))
	}
	if a := r.Assertions; a != nil {
		a.writeText(&b)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	io.WriteString(w.e.stdout, b.String())
}

// bodyNote says why robots find no rules in a body that came with a
// success: text in a wide encoding (RFC 9309 §2.3 and Google read UTF-8)
// or an HTML page, as robots test and robots fetch say it.
func bodyNote(body []byte, html bool) string {
	switch {
	case html:
		return "an HTML page, not a robots.txt: robots find no rules in it (robots check: RB205)"
	case sniff.Wide(body) != "" && sniff.Binary(body) == "":
		return sniff.Wide(body) + ": robots read UTF-8 and find no rules in it (robots check: RB202)"
	}
	return ""
}

// writeFamilies writes the families' readings, those that read alike
// on one line.
func writeFamilies(b *strings.Builder, fams []timeline.FamilyChange) {
	done := make([]bool, len(fams))
	for i, f := range fams {
		if done[i] {
			continue
		}
		names := []string{f.Family.String()}
		for k := i + 1; k < len(fams); k++ {
			if !done[k] && fams[k].Before == f.Before && fams[k].After == f.After {
				names = append(names, fams[k].Family.String())
				done[k] = true
			}
		}
		fmt.Fprintf(b, "  %s robots: %s\n    before: %s\n", andList(names), clean(f.After), clean(f.Before))
	}
}

// versionSummary says what a version's fetch found.
func versionSummary(v *history.Version) string {
	var b strings.Builder
	b.WriteString(stamp(v.Time) + ", ")
	if v.Status != 0 {
		fmt.Fprintf(&b, "HTTP %d", v.Status)
	} else {
		b.WriteString(v.Err)
	}
	b.WriteString(", " + v.Outcome)
	if v.Outcome == fetch.Success.String() {
		fmt.Fprintf(&b, ", %s, sha256 %.12s", plural(int(v.Size), "byte"), v.Hash)
	}
	return clean(b.String())
}

// daemon runs the passes of -every until ctx ends: each site on its own
// schedule, every its interval with a jitter of a tenth of it, the first
// fetches spread over the first tenth of the shortest interval.
func (w *watcher) daemon(ctx context.Context, sites []watchSite) error {
	next := make([]time.Time, len(sites))
	now := time.Now()
	for i, s := range sites {
		next[i] = now.Add(jitter(s.every / 10))
	}
	fmt.Fprintf(w.e.stderr, "robots: watching %s; interrupt to stop\n", plural(len(sites), "site"))
	for {
		due := 0
		for i := range next {
			if next[i].Before(next[due]) {
				due = i
			}
		}
		t := time.NewTimer(time.Until(next[due]))
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
		var batch []watchSite
		var idx []int
		now := time.Now()
		for i := range next {
			if !next[i].After(now) {
				batch = append(batch, sites[i])
				idx = append(idx, i)
			}
		}
		if _, err := w.pass(ctx, batch); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			fmt.Fprintf(w.e.stderr, "robots: %s: %v\n", time.Now().UTC().Format(time.RFC3339), err)
		}
		for k, i := range idx {
			next[i] = nextRun(time.Now(), batch[k].every)
		}
	}
}

// nextRun is when a site watched every d is fetched next after now:
// d give or take a tenth, so that sites started together drift apart
// and a fleet of watchers does not fetch a site in step.
func nextRun(now time.Time, d time.Duration) time.Time {
	return now.Add(d - d/10 + jitter(d/5))
}

// jitter returns a random duration in [0, d).
func jitter(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return rand.N(d)
}
