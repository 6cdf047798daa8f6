package page

import (
	"fmt"
	"strings"
	"time"
)

// verdicts sets the four answers of the report and its warnings.
func (s *inspection) verdicts() {
	rep := s.rep
	ok2xx := rep.Status >= 200 && rep.Status < 300
	e := rep.Effective
	rep.Indexable = !rep.Crawlable || ok2xx && !e.NoIndex && !rep.Expired
	rep.Follow = rep.Crawlable && ok2xx && !e.NoFollow
	rep.Snippet = rep.Crawlable && rep.Indexable && !e.NoSnippet && e.MaxSnippet != 0

	w := func(format string, args ...any) { rep.Warnings = append(rep.Warnings, fmt.Sprintf(format, args...)) }
	if !rep.Crawlable {
		w("%s does not fetch this page: %s", rep.Robot, strings.Join(s.hidden, "; "))
		if seen := s.restrictive(); len(seen) > 0 {
			w("%s is invisible because robots.txt disallows this URL: %s never reads it, so the URL can still be indexed from links, without its content; allow crawling for %s to take effect (Google's robots meta tag documentation)",
				strings.Join(seen, ", "), rep.Robot, strings.Join(seen, ", "))
		} else {
			w("a page robots.txt disallows can still be indexed from links, without its content; to keep it out of results, allow crawling and add noindex")
		}
	}
	if rep.Error != "" {
		w("fetch failed: %s", rep.Error)
	} else if !ok2xx && rep.Status != 0 {
		w("status %d: %s does not index the content of a page that is not 2xx", rep.Status, rep.Robot)
	}
	if rep.Expires != nil {
		when := rep.Expires.UTC().Format(time.RFC1123)
		if rep.Expired {
			w("unavailable_after is in the past (%s): the page is no longer shown in results", when)
		} else {
			w("unavailable_after is in the future (%s): the page leaves the results then", when)
		}
	}
	if rep.Truncated {
		size := "more"
		if rep.Size > 0 {
			size = fmt.Sprintf("%d bytes", rep.Size)
		}
		w("the page has %s; %s reads only the first %d bytes, and anything after them (directives, text, links) is invisible to it", size, rep.Robot, rep.Bytes)
	}
	for _, n := range s.notes {
		w("%s", n)
	}
	for _, d := range rep.Directives {
		where := d.Source.String()
		if d.Line > 0 {
			where = fmt.Sprintf("meta, line %d", d.Line)
		}
		switch {
		case d.Problem != "" && d.Applies:
			w("%s: %q: %s", where, d.Text, d.Problem)
		case !d.Applies && d.Name != "":
			w("%s: %q is addressed to %s, not to %s", where, d.Text, d.Robot, rep.Robot)
		}
	}
	for _, n := range s.docNotes {
		w("%s", n)
	}
	for _, r := range rep.NoSnippet {
		if r.Ignored {
			w("line %d: data-nosnippet on <%s> is ignored: Google honours it on span, div and section only", r.Line, r.Tag)
		}
	}
	if rep.Canonical != "" && rep.Canonical != rep.FinalURL {
		w("the canonical link points to %s: %s may index that URL instead of this one", rep.Canonical, rep.Robot)
	}
	if rep.Refresh != "" {
		w("a meta refresh (%q): Google follows it as a redirect", rep.Refresh)
	}
	if rep.Status != 0 && ok2xx && !rep.HTML {
		w("not HTML (%s): only response headers can carry directives", orNone(rep.ContentType))
	}
}

// restrictive lists the noindex-class directives the page carries for the
// robot, as written, which a robot that may not crawl never sees.
func (s *inspection) restrictive() []string {
	var out []string
	seen := map[string]bool{}
	for _, d := range s.rep.Directives {
		if !d.Applies || seen[d.Name] {
			continue
		}
		switch d.Name {
		case "noindex", "none", "unavailable_after":
			seen[d.Name] = true
			out = append(out, d.Name)
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "no Content-Type"
	}
	return s
}
