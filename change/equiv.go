// Package change says how two versions of a robots.txt differ for the
// robots that read them: Equivalent proves that robots of the google and
// rfc9309 profiles read two texts the same way (the checker's fixer keeps
// only fixes it proves), and Compare reports what changes, in the files'
// own rules: which rule lines were added, removed or are now read
// differently, for which robots, with the paths they cover, and the
// verdicts that change as evidence.
package change

import (
	"context"
	"slices"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/internal/probe"
	"github.com/robotskit/robots/syntax"
)

// A Difference is a URL that two versions of a file decide differently
// for one agent under one profile.
type Difference struct {
	Profile robots.Profile
	// Agent is the product token, or "*" for robots that no group names.
	Agent string
	URL   string
	// Before and After are the verdicts of the first and second file.
	Before, After bool
}

// otherBot is the probe agent that no file names: it reads the "*" groups.
const otherBot = "OtherBot-change-probe"

// maxProbes bounds the URLs Equivalent tries (probe.Max).
const maxProbes = probe.Max

// equivProfiles are the profiles whose reading the fixer must keep:
// Google's and RFC 9309's.
var equivProfiles = []robots.Profile{robots.Google, robots.RFC9309}

// Equivalent reports whether robots of the google and rfc9309 profiles
// read a and b the same way: the same verdict for every agent and URL.
// Each text is read as those robots read it: its first 500 KiB, cut as
// robots.Read cuts (Google reads no further, and RFC 9309 section 2.5 lets
// robots stop there), each line up to syntax.MaxLineLen bytes (Google's
// parser ignores the rest of a longer line).
//
// The agents are every product token named in either text and one that
// neither names (it reads the "*" groups). For each agent and profile,
// the compiled rules that decide for it in a and in b are compared first
// (robots.Rules.AgentRules): a verdict is a function of those rules, so
// the same set of rules on both sides proves the agent's verdicts equal
// for every URL, and no URL is tried. Only where the sets differ are URLs
// tried: first those derived from the rules only one side has, then those
// derived from every Allow and Disallow pattern of either text (package
// internal/probe: the pattern with each "*" read as nothing and as a
// letter, then the same followed by a letter or a segment) plus "/" and
// "/robots.txt". For prefix rules this is exact: a verdict can only change
// at a pattern's end. When the patterns give more than maxProbes URLs, an
// even sample of them is tried, after all those of the rules that differ.
// It returns the first difference found, nil when there is none.
func Equivalent(a, b []byte) *Difference {
	d, _ := EquivalentContext(context.Background(), a, b)
	return d
}

// equivPoll is how many probes Equivalent and Diff decide between two
// looks at their context.
const equivPoll = 256

// EquivalentContext is Equivalent that stops when ctx ends: it looks at
// ctx before each step and every equivPoll probes, and returns ctx's error
// (and no difference) when it ended.
func EquivalentContext(ctx context.Context, a, b []byte) (*Difference, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return NewProver(a, nil).Against(ctx, b)
}

// A Prover compares one text with others, as Equivalent does, reading the
// first text once: the checker's fixer proves each of its edits against
// the text it edits with one Prover.
type Prover struct {
	fa *syntax.File
	ra [2]*robots.Rules // of fa, under equivProfiles
	// keys holds, by profile and agent, the keys of the rules of ra that
	// decide for the agent (ruleKeys).
	keys [2]map[string][]ruleKey
	kb   []ruleKey // scratch for the other text's keys
	// agents are the probe agents of fa (probeAgents), named their set;
	// made when first needed.
	agents []string
	named  map[string]bool
}

// NewProver returns a Prover of the text a, whose parse, when the caller
// has one, is f (nil: NewProver parses a).
func NewProver(a []byte, f *syntax.File) *Prover {
	part := robots.Cut(a)
	if f == nil || len(part) != len(a) {
		f = syntax.Parse("", part)
	}
	pr := &Prover{fa: f}
	for i, prof := range equivProfiles {
		pr.ra[i] = robots.Compile(pr.fa, prof)
	}
	return pr
}

// Against is EquivalentContext(ctx, a, b) for the prover's text a.
//
// The text b is compiled straight from its bytes (robots.Parse makes the
// rules robots.Compile makes of its tree) and its agents come from its
// compiled groups: its tree is built only when the rules of some agent
// differ and probe URLs are needed. A fix's proof on a long file thus
// costs the rules of the edited text, not a second tree.
func (pr *Prover) Against(ctx context.Context, b []byte) (*Difference, error) {
	part := robots.Cut(b)
	var rb [2]*robots.Rules
	for i, prof := range equivProfiles {
		rb[i] = robots.Parse(part, prof)
	}
	if pr.agents == nil {
		// The prover's own agents, read once however many texts it meets.
		pr.agents = probeAgents(pr.fa)
		pr.named = make(map[string]bool, len(pr.agents))
		for _, ag := range pr.agents {
			pr.named[ag] = true
		}
	}
	agents := pr.agents[:len(pr.agents):len(pr.agents)] // b's are appended to a copy
	var seen map[string]bool                            // b's agents the prover's text lacks
	for _, r := range rb {
		for _, g := range r.Groups() {
			for _, v := range g.Agents {
				if k := agentKey(v); k != "" && k != "*" && !pr.named[k] && !seen[k] {
					if seen == nil {
						seen = map[string]bool{}
					}
					seen[k] = true
					agents = append(agents, k)
				}
			}
		}
	}
	var urls []string // every probe, made when first needed
	for i, prof := range equivProfiles {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ra, rb := pr.ra[i], rb[i]
		for _, ag := range agents {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			// An agent's verdicts are a function of the rules that decide
			// for it (robots.Rules.AgentRules): when both files give it the
			// same set of rules, no URL can tell them apart, and no probe
			// is needed. The rules themselves are compared, the way the
			// profile compiled them; duplicates do not count.
			ka, ok := pr.keys[i][ag]
			if !ok {
				if pr.keys[i] == nil {
					pr.keys[i] = map[string][]ruleKey{}
				}
				ka = ruleKeys(nil, ra.AgentRules(robots.Agent{Tokens: []string{ag}}))
				pr.keys[i][ag] = ka
			}
			pr.kb = ruleKeys(pr.kb[:0], rb.AgentRules(robots.Agent{Tokens: []string{ag}}))
			only := keyDifference(ka, pr.kb)
			if len(only) == 0 {
				continue
			}
			// The rules differ, which may or may not change a verdict.
			// The probes of the rules only one file has come first: a
			// verdict changes only where one of them decides. Then every
			// probe, as for a file with no structure to compare.
			if d, err := firstDifference(ctx, ra, rb, prof, ag, keyProbes(only)); d != nil || err != nil {
				return d, err
			}
			if urls == nil {
				fb := syntax.Parse("", part)
				var err error
				if urls, err = probe.Paths(ctx, pr.fa, fb); err != nil {
					return nil, err
				}
			}
			if d, err := firstDifference(ctx, ra, rb, prof, ag, urls); d != nil || err != nil {
				return d, err
			}
		}
	}
	return nil, nil
}

// firstDifference returns the first of urls that ra and rb decide
// differently for the agent ag, as a Difference, or nil.
func firstDifference(ctx context.Context, ra, rb *robots.Rules, prof robots.Profile, ag string, urls []string) (*Difference, error) {
	for n, u := range urls {
		if n%equivPoll == equivPoll-1 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		x, y := ra.Allowed(ag, u), rb.Allowed(ag, u)
		if x != y {
			if ag == otherBot {
				ag = "*" // the robots without a group of their own
			}
			return &Difference{Profile: prof, Agent: ag, URL: u, Before: x, After: y}, nil
		}
	}
	return nil, nil
}

// A ruleKey is what of a compiled rule decides verdicts: whether it
// allows, and its pattern.
type ruleKey struct {
	allow   bool
	pattern string
}

// ruleKeys appends to dst the keys of rs, sorted and without duplicates.
func ruleKeys(dst []ruleKey, rs []robots.Rule) []ruleKey {
	for _, ru := range rs {
		dst = append(dst, ruleKey{ru.Allows(), ru.Pattern})
	}
	slices.SortFunc(dst, compareKeys)
	return slices.Compact(dst)
}

func compareKeys(a, b ruleKey) int {
	if c := strings.Compare(a.pattern, b.pattern); c != 0 {
		return c
	}
	switch {
	case a.allow == b.allow:
		return 0
	case a.allow:
		return 1
	}
	return -1
}

// keyDifference returns the keys that only one of the sorted sets a and b
// holds.
func keyDifference(a, b []ruleKey) []ruleKey {
	var out []ruleKey
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		c := 0
		switch {
		case i == len(a):
			c = 1
		case j == len(b):
			c = -1
		default:
			c = compareKeys(a[i], b[j])
		}
		switch {
		case c < 0:
			out = append(out, a[i])
			i++
		case c > 0:
			out = append(out, b[j])
			j++
		default:
			i, j = i+1, j+1
		}
	}
	return out
}

// keyProbes returns the probes of the patterns of ks (see probe.Value).
func keyProbes(ks []ruleKey) []string {
	set := map[string]bool{"/": true}
	add := probe.Adder(set, nil)
	for _, k := range ks {
		probe.Value(add, nil, strings.TrimSuffix(k.pattern, "$"))
	}
	return probe.Sample(set)
}

// probeAgents returns the product tokens of the User-agent lines of both
// files, as Google extracts them, and otherBot.
func probeAgents(files ...*syntax.File) []string {
	seen := map[string]bool{}
	out := []string{otherBot}
	for _, f := range files {
		for i := range f.Lines {
			l := &f.Lines[i]
			if l.Kind != syntax.DirectiveLine || l.Field != syntax.UserAgent {
				continue
			}
			k := agentKey(f.Text(l.Value))
			if k == "" || k == "*" || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// agentKey returns what a User-agent value names: "*" for "*" and "* x",
// else its product token (robots.LineToken) in lower case, "" for none.
func agentKey(v string) string {
	if v == "*" || len(v) > 1 && v[0] == '*' && (v[1] == ' ' || v[1] == '\t') {
		return "*"
	}
	return strings.ToLower(robots.LineToken(v))
}
