package change

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/internal/probe"
	"github.com/robotskit/robots/syntax"
)

// Options says what Diff compares. The zero value, like a nil
// *Options, compares the major families on the paths the files imply.
type Options struct {
	// All adds the families of the old standards, draft1996 and
	// strict1994, to the major ones.
	All bool
	// URLs are the URLs or paths to decide; none means the paths the
	// rules of both files imply: those Equivalent tries, whose
	// documentation says how they are derived.
	URLs []string
}

// A Report is how two versions of a robots.txt differ for robots:
// per robot family and robot, the URLs whose verdict changes.
type Report struct {
	// Probed is set when the URLs were derived from the files' rules.
	Probed bool `json:"probed"`
	// URLs are the URLs or paths decided, in order.
	URLs []string `json:"urls"`
	// Families holds one entry per family compared: google, bing,
	// yandex and rfc9309, then with Options.All draft1996 and
	// strict1994.
	Families []FamilyReport `json:"families"`
	// Changed reports that some verdict changes.
	Changed bool `json:"changed"`
}

// A FamilyReport is one robot family's reading of both files: the profile
// it reads them with and its robots.
type FamilyReport struct {
	Profile robots.Profile `json:"profile"`
	Robots  []Robot    `json:"robots"`
}

// A Robot is one robot of a family and the URLs whose verdict
// changes for it.
type Robot struct {
	// Name is the robot's token as the registry or the file spells it,
	// or "*" for the robots that no group names.
	Name string `json:"robot"`
	// Tokens are the product tokens the robot answers to, most specific
	// first; IgnoreGlobal and WholeName are its quirks (robots.Agent).
	Tokens       []string `json:"tokens"`
	IgnoreGlobal bool     `json:"ignore_global,omitempty"`
	WholeName    bool     `json:"whole_name,omitempty"`
	// Named is set for a robot that a User-agent line of either file
	// names; the family's own robot and "*" are compared whether named
	// or not.
	Named bool `json:"named"`
	// Changes are the URLs whose verdict changes, in URL order; empty
	// when the robot reads both files alike.
	Changes []URLChange `json:"changes"`
}

// A URLChange is a URL that the old and the new file decide differently
// for one robot.
type URLChange struct {
	URL string      `json:"url"`
	Old Verdict `json:"old"`
	New Verdict `json:"new"`
}

// A Verdict is one file's verdict on a URL, with what decided it.
type Verdict struct {
	Allowed bool `json:"allowed"`
	// Line is the deciding rule's line, 0 when no rule decided; Rule is
	// that line's directive as written ("Disallow: /private/").
	Line int    `json:"line"`
	Rule string `json:"rule,omitempty"`
	// Group is the line of the first User-agent line of the group that
	// applies, 0 when none does.
	Group int `json:"group"`
	// Reason is robots.Reason in a word: matched, no-match, no-group or
	// robots-txt; Why says it in a few words, as robots test does.
	Reason string `json:"reason"`
	Why    string `json:"why"`
}

// diffFamilies returns the families Diff compares: the major ones,
// google, bing, yandex and rfc9309, and with all also draft1996 and
// strict1994.
func diffFamilies(all bool) []robots.Profile {
	ps := []robots.Profile{robots.Google, robots.Bing, robots.Yandex, robots.RFC9309}
	if all {
		ps = append(ps, robots.Draft1996, robots.Strict1994)
	}
	return ps
}

// diffMain is the robot each family is read as, from the registry; the
// families without one are read as the robots that no group names ("*")
// and the robots the files name.
var diffMain = map[robots.Profile]string{
	robots.Google: "Googlebot",
	robots.Bing:   "bingbot",
	robots.Yandex: "YandexBot",
}

// Diff compares how robots read two versions of a robots.txt: for each
// robot family (Report.Families), its robot (Googlebot for google, bingbot
// for bing, YandexBot for yandex), every robot a User-agent line of either
// file names, read as that family reads it (the registry's token chain and
// quirks for a known robot, the product token otherwise), and "*", the
// robots that no group names; and for each, the URLs whose verdict
// differs, with the deciding line on each side. Without opt.URLs, the
// URLs are the probe paths of both files that Equivalent tries (a path
// that starts with "//" is given the host "lint.invalid"), and when those
// are a sample (large files), also every probe of the rules that differ
// between them; so a difference Equivalent finds shows in Diff too. Each
// file is read as robots read it: its first 500 KiB (robots.Read).
func Compare(oldSrc, newSrc []byte, opt *Options) *Report {
	rep, _ := CompareContext(context.Background(), oldSrc, newSrc, opt)
	return rep
}

// CompareContext is Diff that stops when ctx ends: it looks at ctx before
// each robot and every few hundred URLs, and returns no report and ctx's
// error when it ended.
func CompareContext(ctx context.Context, oldSrc, newSrc []byte, opt *Options) (*Report, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opt == nil {
		opt = &Options{}
	}
	fo, fn := diffParse(oldSrc), diffParse(newSrc)
	rep := &Report{Families: []FamilyReport{}}
	urls := opt.URLs
	if len(urls) == 0 {
		var err error
		if urls, err = probe.Paths(ctx, fo, fn); err != nil {
			return nil, err
		}
		// A sample of a large file's probes: add those of the rules that
		// differ, as Equivalent does.
		urls = append(urls, probe.Changed(fo, fn, urls)...)
		rep.Probed = true
	}
	rep.URLs = make([]string, len(urls))
	for i, u := range urls {
		rep.URLs[i] = diffShown(u)
	}
	named := diffNamed(fo, fn)
	for _, p := range diffFamilies(opt.All) {
		// Each profile's rules are compiled when their family's turn
		// comes, after a look at ctx: a long file takes a while.
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		fam := FamilyReport{Profile: p, Robots: []Robot{}}
		oldRules, newRules := robots.Compile(fo, p), robots.Compile(fn, p)
		// Robots that obey the same groups of both files get the same
		// verdicts: they are decided once.
		done := map[string][]URLChange{}
		for _, rb := range diffRobots(p, named) {
			a := robots.Agent{Tokens: rb.Tokens, IgnoreGlobal: rb.IgnoreGlobal, WholeName: rb.WholeName}
			k := diffGroups(oldRules, a) + "|" + diffGroups(newRules, a)
			cs, ok := done[k]
			if !ok {
				cs = []URLChange{}
				for i, u := range urls {
					if i%equivPoll == 0 {
						if err := ctx.Err(); err != nil {
							return nil, err
						}
					}
					x, y := oldRules.Decide(a, u), newRules.Decide(a, u)
					if x.Allowed == y.Allowed {
						continue
					}
					cs = append(cs, URLChange{URL: rep.URLs[i], Old: diffVerdict(fo, x), New: diffVerdict(fn, y)})
				}
				done[k] = cs
			}
			rb.Changes = cs
			rep.Changed = rep.Changed || len(cs) > 0
			fam.Robots = append(fam.Robots, rb)
		}
		rep.Families = append(rep.Families, fam)
	}
	return rep, nil
}

// diffParse reads src as robots read it: at most robots.MaxBytes, without
// the line the limit cuts.
func diffParse(src []byte) *syntax.File {
	if len(src) > robots.MaxBytes {
		src, _, _ = robots.Read(bytes.NewReader(src))
	}
	return syntax.Parse("", src)
}

// diffShown is how a probe URL is reported: a path that ProbeURLs gave a
// host so that it reads as a path is shown as the path.
func diffShown(u string) string {
	if p, ok := strings.CutPrefix(u, probe.Origin); ok && strings.HasPrefix(p, "/") {
		return p
	}
	return u
}

// diffNamed returns the robots the User-agent lines of the files name,
// in order of first appearance: a known robot as the registry has it, by
// the value up to its first '/' or white space, else the value's product
// token as a plain robot. "*" and values without a token are left out.
func diffNamed(files ...*syntax.File) []Robot {
	var out []Robot
	seen := map[string]bool{}
	for _, f := range files {
		for i := range f.Lines {
			l := &f.Lines[i]
			if l.Kind != syntax.DirectiveLine || l.Field != syntax.UserAgent {
				continue
			}
			v := strings.TrimSpace(f.Text(l.Value))
			if agentKey(v) == "*" {
				continue
			}
			name := v
			if j := strings.IndexAny(name, "/ \t"); j >= 0 {
				name = name[:j]
			}
			var rb Robot
			if r, ok := agents.Lookup(name); ok && name != "" {
				rb = Robot{Name: r.Token, Tokens: r.Tokens(), IgnoreGlobal: r.IgnoresGlobal, WholeName: r.WholeName()}
			} else {
				tok := v[:len(v)-len(strings.TrimLeft(v, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"))]
				if tok == "" {
					continue
				}
				rb = Robot{Name: tok, Tokens: []string{tok}}
			}
			if k := strings.ToLower(rb.Name); !seen[k] {
				seen[k] = true
				rb.Named = true
				out = append(out, rb)
			}
		}
	}
	return out
}

// diffRobots returns the robots of family p: its own robot, the robots
// the files name (once: the family's own robot is not repeated), and "*".
func diffRobots(p robots.Profile, named []Robot) []Robot {
	var out []Robot
	own := ""
	if tok, ok := diffMain[p]; ok {
		if r, ok := agents.Lookup(tok); ok {
			out = append(out, Robot{Name: r.Token, Tokens: r.Tokens(), IgnoreGlobal: r.IgnoresGlobal, WholeName: r.WholeName()})
			own = strings.ToLower(r.Token)
		}
	}
	for _, rb := range named {
		if strings.ToLower(rb.Name) == own {
			out[0].Named = true
			continue
		}
		rb.Tokens = append([]string(nil), rb.Tokens...)
		out = append(out, rb)
	}
	return append(out, Robot{Name: "*", Tokens: []string{"*"}})
}

// diffGroups identifies the groups of r that robot a obeys: the lines
// of their first User-agent lines.
func diffGroups(r *robots.Rules, a robots.Agent) string {
	g, ok := r.Group(a)
	if !ok {
		return "none"
	}
	return fmt.Sprint(g.Global, g.Lines)
}

// diffVerdict describes decision d of file f.
func diffVerdict(f *syntax.File, d robots.Decision) Verdict {
	v := Verdict{Allowed: d.Allowed, Line: d.Line, Group: d.Group, Reason: d.Reason.String()}
	switch d.Reason {
	case robots.Matched:
		key, value := d.Rule.String(), d.Pattern
		if d.Line >= 1 && d.Line <= len(f.Lines) {
			l := &f.Lines[d.Line-1]
			key, value = f.Text(l.Key), f.Text(l.Value)
		}
		v.Rule = key + ": " + value
		v.Why = fmt.Sprintf("line %d: %s", d.Line, v.Rule)
	case robots.NoMatch:
		v.Why = fmt.Sprintf("no rule matches in the group at line %d", d.Group)
	case robots.RobotsTxt:
		v.Why = "/robots.txt is always allowed"
	default:
		v.Why = "no group applies"
	}
	return v
}
