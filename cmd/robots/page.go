package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/page"
)

var pageCmd = &command{
	name:  "page",
	usage: "[-robot NAME | -agent TOKEN] [-format text|json] [-links] [-max-bytes N] [-max-redirects N] [-timeout D] [-user-agent UA] [-profile P] URL",
	short: "show a page as a robot sees it: robots.txt, status, X-Robots-Tag, meta tags",
	long: `Exit 1 when the page is not crawlable or not indexable. A page of which
no response arrives (a redirect loop, more redirects than -max-redirects,
no connection) is an error: no report, the error alone, exit 2. A page
read but cut short (its body broke off, -timeout ran out) is reported
with what was read and the error in its fetch section, exit 2.`,
}

func init() { pageCmd.run = runPage }

func runPage(e *env, args []string) error {
	fs := newFlags(e, pageCmd)
	var profile robots.Profile
	var (
		robot     = fs.String("robot", page.DefaultRobot, "see the page as the known robot `NAME` (robots agents lists them)")
		agent     = fs.String("agent", "", "see the page as a robot with the plain product `TOKEN`, under Google's reading")
		format    = fs.String("format", "text", "output `format`: text or json")
		allLinks  = fs.Bool("links", false, "list every link, not only nofollow and disallowed ones")
		maxBytes  = intFlag(fs, "max-bytes", 0, "read at most `N` bytes of the page (default 2 MiB, Googlebot's limit)")
		redirects = intFlag(fs, "max-redirects", page.DefaultMaxRedirects, "follow at most `N` redirects")
		timeout   = durationFlag(fs, "timeout", page.DefaultTimeout, "give up after `D`, a duration such as 5s")
		userAgent = fs.String("user-agent", "", "send the User-Agent header `UA` (default: the robot's own)")
	)
	fs.Var(&profile, "profile", "read robots.txt as `P` instead of the robot's profile: "+profileNames())
	if err := parseFlags(e, pageCmd, fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	switch {
	case fs.NArg() != 1:
		return &usageError{msg: "give one page URL"}
	case isSet(fs, "robot") && isSet(fs, "agent"):
		return &usageError{msg: "-robot and -agent both name the robot: give one"}
	case *maxBytes < 0:
		return &usageError{msg: "-max-bytes must not be negative"}
	case *redirects < 0 || *redirects > 100:
		return &usageError{msg: "-max-redirects must be between 0 and 100"}
	case *timeout <= 0:
		return &usageError{msg: "-timeout must be positive"}
	}
	target, err := fetchURL(e, fs.Arg(0))
	if err != nil {
		return err
	}
	var rb page.Robot
	if isSet(fs, "agent") {
		toks, err := agentTokens(e, []string{*agent})
		if err != nil {
			return err
		}
		rb = page.PlainRobot(toks[0])
	} else {
		reg, err := findRobot(*robot)
		if err != nil {
			return err
		}
		rb = page.FromRegistry(reg)
	}
	if isSet(fs, "profile") {
		rb.Profile = profile
	}
	if *userAgent != "" {
		rb.UserAgent = *userAgent
	}
	in := &page.Inspector{MaxBytes: int64(*maxBytes), MaxRedirects: *redirects, Timeout: *timeout}
	if *redirects == 0 {
		in.MaxRedirects = -1 // the Inspector reads 0 as its default
	}
	stop := progress(e, "inspecting "+target)
	rep, err := in.Inspect(e.ctx, target, rb)
	stop()
	if e.ctx.Err() != nil {
		return e.ctx.Err()
	}
	if err != nil {
		return err
	}
	if rep.Error != "" && !rep.Answered() {
		// No response of the page arrived: a report would hold robots.txt's
		// verdict and guesses for the rest (no directives, no snippet
		// limit). The error alone says what happened, in either format.
		return pageError(rep)
	}
	if *format == "json" {
		err = writeJSON(e.stdout, rep)
	} else {
		err = writePage(e.stdout, rep, *allLinks)
	}
	switch {
	case err != nil:
		return err
	case rep.Error != "":
		// The page was read, but the inspection ended early (the body
		// broke off, the time ran out): the report is what was found, and
		// its error, said once in it, makes the exit status 2.
		return errReported
	case !rep.Crawlable || !rep.Indexable:
		return errFinding
	}
	return nil
}

// pageError is the error of a page that could not be read. After more
// than one request it lists them, each with its status and Location, so
// that a loop or a chain shows whole:
//
//	redirect loop: http://h/b leads back to http://h/a
//	  302 http://h/a → /b
//	  302 http://h/b → /a
func pageError(r *page.Report) error {
	var b strings.Builder
	b.WriteString(clean(r.Error))
	if len(r.Redirects) > 1 {
		for _, h := range r.Redirects {
			fmt.Fprintf(&b, "\n  %s %s", statusText(h.Status), clean(h.URL))
			if h.Location != "" {
				b.WriteString(" → " + clean(h.Location))
			}
		}
	}
	return errors.New(b.String())
}

// writePage prints a report for people.
func writePage(w io.Writer, r *page.Report, allLinks bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s as %s\n", r.URL, r.Robot)
	fmt.Fprintf(&b, "  User-Agent: %s\n\n", r.UserAgent)
	writePageRobotsTxt(&b, &r.RobotsTxt)
	writePageFetch(&b, r)
	writePageDirectives(&b, r)
	writePageVerdict(&b, r)
	if r.HTML {
		writePageContent(&b, r, allLinks)
	}
	// The error is said once, in the fetch section: not again as the
	// inspector's "fetch failed" warning.
	var warnings []string
	for _, w := range r.Warnings {
		if r.Error == "" || w != "fetch failed: "+r.Error {
			warnings = append(warnings, w)
		}
	}
	if len(warnings) > 0 {
		b.WriteString("warnings\n")
		for _, w := range warnings {
			fmt.Fprintf(&b, "  - %s\n", w)
		}
	}
	_, err := io.WriteString(w, cleanLines(b.String()))
	return err
}

// writePageRobotsTxt writes the robots.txt verdict for the page, with
// the rule or the fetch outcome that decided it, and the robot's access
// to the whole site.
func writePageRobotsTxt(b *strings.Builder, rt *page.RobotsTxt) {
	verdict := "allowed"
	if !rt.Allowed {
		verdict = "disallowed"
	}
	why := rt.Access
	switch {
	case rt.Line > 0:
		why = fmt.Sprintf("line %d: %s", rt.Line, rt.Rule)
	case rt.Reason != "":
		why = rt.Reason
	case rt.Access == "rules":
		why = "no rule matches"
	}
	fmt.Fprintf(b, "robots.txt  %s  (%s)\n", verdict, why)
	fmt.Fprintf(b, "  %s: HTTP %s\n", rt.URL, statusText(rt.Status))
	if rt.Site != nil {
		fmt.Fprintf(b, "  the site: %s\n", accessWords(*rt.Site))
	}
}

// writePageFetch writes the requests of the page fetch, each with its
// robots.txt verdict, and what was read.
func writePageFetch(b *strings.Builder, r *page.Report) {
	rt := &r.RobotsTxt
	b.WriteString("fetch\n")
	for _, h := range r.Redirects {
		mark := ""
		switch {
		case h.Allowed:
		case h.Line > 0:
			mark = fmt.Sprintf("  [disallowed, robots.txt line %d]", h.Line)
		case rt.Status != 0 && rt.Status != 200:
			mark = fmt.Sprintf("  [disallowed: robots.txt HTTP %d]", rt.Status)
		default:
			mark = "  [disallowed: " + orDash(rt.Reason) + "]"
		}
		fmt.Fprintf(b, "  %s %s%s\n", statusText(h.Status), h.URL, mark)
		if h.Location != "" {
			fmt.Fprintf(b, "      Location: %s\n", h.Location)
		}
	}
	if r.Error != "" {
		fmt.Fprintf(b, "  error: %s\n", r.Error)
	}
	if r.Status != 0 {
		size := fmt.Sprintf("%d bytes read", r.Bytes)
		if r.Truncated {
			size += " (cut: the page is longer)"
		}
		fmt.Fprintf(b, "  %s, %s\n", orDash(r.ContentType), size)
	}
}

// writePageDirectives writes every directive found, whether it applies
// to the robot, and their combination for it.
func writePageDirectives(b *strings.Builder, r *page.Report) {
	b.WriteString("directives\n")
	if len(r.Directives) == 0 {
		b.WriteString("  none\n")
	}
	for _, d := range r.Directives {
		where := d.Source.String()
		if d.Line > 0 {
			where = fmt.Sprintf("meta line %d", d.Line)
		}
		text := d.Text
		if d.Robot != "" && d.Source != 0 {
			text = d.Robot + ": " + text
		}
		state := "applies"
		switch {
		case !d.Applies:
			state = "not for " + r.Robot
		case !d.Known():
			state = "ignored"
		}
		// Escaped before it is padded, so that the column stays aligned.
		fmt.Fprintf(b, "  %-14s %-40s %s\n", where, clean(text), state)
	}
	if eff := effectiveList(&r.Effective); len(eff) > 0 {
		fmt.Fprintf(b, "  for %s: %s\n", r.Robot, strings.Join(eff, ", "))
	}
}

// effectiveList writes the combined directives as directive values.
func effectiveList(e *page.Effective) []string {
	var eff []string
	for _, f := range []struct {
		on   bool
		name string
	}{{e.NoIndex, "noindex"}, {e.NoFollow, "nofollow"}, {e.NoArchive, "noarchive"}, {e.NoSnippet, "nosnippet"},
		{e.NoTranslate, "notranslate"}, {e.NoImageIndex, "noimageindex"}, {e.IndexIfEmbedded, "indexifembedded"}} {
		if f.on {
			eff = append(eff, f.name)
		}
	}
	if e.MaxSnippet >= 0 {
		eff = append(eff, fmt.Sprintf("max-snippet:%d", e.MaxSnippet))
	}
	if e.MaxImagePreview != "" {
		eff = append(eff, "max-image-preview:"+e.MaxImagePreview)
	}
	if e.MaxVideoPreview >= 0 {
		eff = append(eff, fmt.Sprintf("max-video-preview:%d", e.MaxVideoPreview))
	}
	return eff
}

// writePageVerdict writes what the robot may do with the page.
func writePageVerdict(b *strings.Builder, r *page.Report) {
	b.WriteString("verdict\n")
	fmt.Fprintf(b, "  crawlable  %s\n", yesNo(r.Crawlable))
	fmt.Fprintf(b, "  indexable  %s\n", yesNo(r.Indexable))
	fmt.Fprintf(b, "  follow     %s\n", yesNo(r.Follow))
	fmt.Fprintf(b, "  snippet    %s\n", yesNo(r.Snippet))
	if r.Expires != nil {
		state := "future"
		if r.Expired {
			state = "past"
		}
		fmt.Fprintf(b, "  expires    %s (%s)\n", r.Expires.UTC().Format(time.RFC1123), state)
	}
	if r.Usage != nil && r.Crawlable {
		// What it may do with what it fetched (robots usage says the same).
		for p := range robots.NumPurposes {
			v := r.Usage.For(p)
			fmt.Fprintf(b, "  %-10s %s", p.String(), v.Value)
			if v.Source != "" {
				b.WriteString(" (" + clean(v.Source) + ")")
			}
			b.WriteString("\n")
		}
	}
}

// writePageContent writes an HTML page's title, canonical URL, text,
// nosnippet parts and links: all of them with allLinks, else those that
// are nofollow or disallowed.
func writePageContent(b *strings.Builder, r *page.Report, allLinks bool) {
	b.WriteString("page\n")
	if r.Title != "" {
		fmt.Fprintf(b, "  title      %s\n", r.Title)
	}
	if r.Canonical != "" {
		fmt.Fprintf(b, "  canonical  %s\n", r.Canonical)
	}
	if r.Text != "" {
		fmt.Fprintf(b, "  text       %s\n", excerpt(r.Text, 160))
	}
	for _, n := range r.NoSnippet {
		fmt.Fprintf(b, "  nosnippet  line %d <%s>: %s\n", n.Line, n.Tag, excerpt(n.Text, 80))
	}
	nofollow, disallowed := 0, 0
	for _, l := range r.Links {
		if l.NoFollow {
			nofollow++
		}
		if l.Allowed != nil && !*l.Allowed {
			disallowed++
		}
	}
	fmt.Fprintf(b, "  links      %d (%d nofollow, %d disallowed by robots.txt)\n", r.LinkCount, nofollow, disallowed)
	for _, l := range r.Links {
		blocked := l.Allowed != nil && !*l.Allowed
		if !allLinks && !l.NoFollow && !blocked {
			continue
		}
		var tags []string
		if l.NoFollow {
			tags = append(tags, "rel="+l.Rel)
		}
		switch {
		case l.Allowed == nil:
			tags = append(tags, "not checked")
		case blocked:
			tags = append(tags, fmt.Sprintf("disallowed (robots.txt line %d)", l.RobotsLine))
		default:
			tags = append(tags, "allowed")
		}
		target := l.URL
		if target == "" {
			target = l.Href
		}
		fmt.Fprintf(b, "    line %d: %s  %s\n", l.Line, target, strings.Join(tags, ", "))
	}
}

func statusText(s int) string {
	if s == 0 {
		return "(no response)"
	}
	return fmt.Sprint(s)
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// excerpt cuts s to about n bytes at a space, with "…".
func excerpt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := strings.LastIndexByte(s[:n], ' ')
	if cut < n/2 {
		cut = n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
	}
	return s[:cut] + " …"
}
