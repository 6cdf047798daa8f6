// Package usage answers what a robot may do with what it fetched from a
// URL: for each purpose — search, ai-input (retrieval, grounding,
// answers) and ai-train — "yes", "no" or "none" (no preference stated),
// with the source that decided it.
//
// The sources, each read by the package that owns it:
//
//   - robots.txt: Content-Usage rules (draft-ietf-aipref-attach-05 §3,
//     the labels of draft-ietf-aipref-vocab-08) and Cloudflare's
//     Content-Signal lines (contentsignals.org), read by the root package
//     (robots.Rules.Usage);
//   - the control tokens of the registry: disallowing Google-Extended
//     withholds a page from Gemini's training and grounding, disallowing
//     Applebot-Extended from Apple's training, for the crawlers they govern
//     (package agents, Robot.Controls);
//   - the page's response: the Content-Usage and Content-Signal header
//     fields, TDMRep's tdm-reservation field, and the robots meta tags and
//     X-Robots-Tag values that speak of AI use (package meta);
//   - the site's /.well-known/tdmrep.json (package fetch).
//
// They combine as draft-ietf-aipref-vocab-08 §5.1 says: if any statement
// says no, the answer is no; else if any says yes, yes; else none. A URL
// the robot may not crawl has no usage verdict at all (attach-05 §3.1):
// every purpose is "none" and Crawl says why.
package usage

import (
	"fmt"
	"net/http"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/internal/aipref"
	"github.com/robotskit/robots/meta"
	"github.com/robotskit/robots/syntax"
)

// A Verdict is the preference that holds for one purpose, and where it
// was stated.
type Verdict struct {
	// Value is "yes", "no" or "none".
	Value string `json:"value"`
	// Source names the statement that decided: "Content-Usage line 4",
	// "Content-Signal line 2", "robots token Google-Extended",
	// "Content-Usage header", "tdm-reservation header", "X-Robots-Tag",
	// "robots meta tag", "tdmrep.json"; "" for none.
	Source string `json:"source,omitempty"`
	// Line is the robots.txt line of the statement, 0 for a statement
	// outside robots.txt.
	Line int `json:"line,omitempty"`
}

// Verdicts holds a Verdict for each purpose.
type Verdicts struct {
	Search  Verdict `json:"search"`
	AIInput Verdict `json:"ai-input"`
	AITrain Verdict `json:"ai-train"`
}

// For returns the verdict of purpose p.
func (v *Verdicts) For(p robots.Purpose) *Verdict {
	switch p {
	case robots.Search:
		return &v.Search
	case robots.AIInput:
		return &v.AIInput
	}
	return &v.AITrain
}

// Crawl is the robots.txt verdict on fetching the URL.
type Crawl struct {
	Allowed bool `json:"allowed"`
	// Line is the deciding rule's line, 0 when none matched.
	Line int `json:"line"`
}

// A Result is what one robot may do with one URL.
type Result struct {
	URL   string   `json:"url"`
	Robot string   `json:"robot"`
	Crawl Crawl    `json:"crawl"`
	Usage Verdicts `json:"usage"`
}

// Response is what a fetch of the page itself says, for the sources
// outside robots.txt; the zero value says nothing.
type Response struct {
	// Header is the page's response header.
	Header http.Header
	// Directives are the page's robots meta tags and X-Robots-Tag
	// values (meta.FromHeader, meta.ReadHTML).
	Directives []meta.Directive
	// TDMRep is the site's tdmrep.json entry for the URL, if any: its
	// tdm-reservation (1 or 0) as a statement (meta.TDMReservation).
	TDMRep *meta.UsageStatement
	// TDMTag is the page's TDMRep meta tags as a statement
	// (meta.Document.TDM), if it has them.
	TDMTag *meta.UsageStatement
}

// A Robot is who asks: its name as shown, and how it finds its groups.
type Robot struct {
	Name  string
	Agent robots.Agent
}

// statement is one source's preferences, in the order sources are
// weighed for naming the deciding one.
type statement struct {
	prefs  aipref.Prefs
	source string
	line   int
}

// Decide returns what rb may do with url under rules (nil: no robots.txt,
// everything allowed) and the response resp (nil: not fetched).
func Decide(rules *robots.Rules, rb Robot, url string, resp *Response) Result {
	res := Result{URL: url, Robot: rb.Name}
	u := rules.Usage(rb.Agent, url)
	res.Crawl = Crawl{Allowed: u.Crawl.Allowed, Line: u.Crawl.Line}
	for p := range robots.NumPurposes {
		*res.Usage.For(p) = Verdict{Value: robots.NoPreference.String()}
	}
	if !u.Crawl.Allowed {
		return res
	}
	var sts []statement
	// robots.txt's own lines: Rules.Usage has combined them.
	for p := range robots.NumPurposes {
		v := u.Purposes[p]
		if v.Value == robots.NoPreference {
			continue
		}
		var s statement
		s.prefs[p], s.line = v.Value, v.Line
		s.source = fmt.Sprintf("%s line %d", fieldName(v.Field), v.Line)
		sts = append(sts, s)
	}
	// The control tokens that govern the robot: disallowed, they say no
	// to their purposes.
	sts = append(sts, controls(rules, rb.Agent, url)...)
	if resp != nil {
		var ms []meta.UsageStatement
		ms = append(ms, meta.UsageFromHeader(resp.Header)...)
		ms = append(ms, meta.UsageFromDirectives(resp.Directives, robotToken(rb))...)
		ms = tdm(ms, resp)
		for _, m := range ms {
			if m.Images {
				continue // about the page's images, not the page
			}
			sts = append(sts, statement{prefs: m.Prefs, source: m.Source})
		}
	}
	for p := range robots.NumPurposes {
		v := res.Usage.For(p)
		best := aipref.None
		for _, s := range sts {
			if s.prefs[p] > best { // No > Yes > None (vocab-08 §5.1)
				best = s.prefs[p]
				v.Value, v.Source, v.Line = best.String(), s.source, s.line
			}
		}
	}
	return res
}

// tdm keeps one TDMRep statement among ms and resp's, as TDMRep ranks
// them: the page's meta tags over its header fields, the header fields
// over the site's tdmrep.json (TDMRep, #sec-tdm-html and #sec-tdm-file:
// a statement in the content or its response overrides the file).
func tdm(ms []meta.UsageStatement, resp *Response) []meta.UsageStatement {
	header := -1
	for i, m := range ms {
		if m.Source == "tdm-reservation header" {
			header = i
		}
	}
	switch {
	case resp.TDMTag != nil:
		if header >= 0 {
			ms = append(ms[:header], ms[header+1:]...)
		}
		return append(ms, *resp.TDMTag)
	case header < 0 && resp.TDMRep != nil:
		return append(ms, *resp.TDMRep)
	}
	return ms
}

// controls are the statements of the control tokens that govern a: for
// each registry robot whose Controls govern a token of a, a "no" to its
// purposes when the file disallows the URL to its token, read as that
// token's own groups or else the "*" groups (Google: "Google-Extended …
// follows the same rules as other user agents").
func controls(rules *robots.Rules, a robots.Agent, url string) []statement {
	if rules == nil || len(a.Tokens) == 0 {
		return nil
	}
	var out []statement
	for _, c := range agents.ControlsFor(a.Tokens[0]) {
		d := rules.Decide(robots.Token(c.Token), url)
		if d.Allowed {
			continue
		}
		s := statement{source: "robots token " + c.Token, line: d.Line}
		for _, name := range c.Controls.Purposes {
			if p, ok := aipref.ParsePurpose(name); ok {
				s.prefs[p] = aipref.No
			}
		}
		out = append(out, s)
	}
	return out
}

// robotToken is the token meta matches robot-specific directives with.
func robotToken(rb Robot) string {
	if len(rb.Agent.Tokens) > 0 {
		return rb.Agent.Tokens[0]
	}
	return rb.Name
}

func fieldName(f syntax.Field) string {
	if f == syntax.ContentSignal {
		return "Content-Signal"
	}
	return "Content-Usage"
}
