package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/internal/wire"
	"github.com/robotskit/robots/syntax"
	"github.com/robotskit/robots/usage"
)

var auditCmd = &command{
	name:  "audit",
	usage: "[-format text|json] FILE|URL|-",
	short: "say what every known robot may crawl, and what it misreads",
}

func init() { auditCmd.run = runAudit }

// robotAudit is one known robot's reading of the file: its access
// (robots.Rules.Access, the object every command and the API report),
// with who it is and how it reads robots.txt, and what the file says it
// may do with what it fetches from "/" (usage.Decide).
type robotAudit struct {
	wire.Access
	Owner   string         `json:"owner"`
	Purpose string         `json:"purpose"`
	Profile string         `json:"profile"`
	Usage   usage.Verdicts `json:"usage"`
	// crawl is the crawl verdict of "/": a robot that may not crawl it has
	// no usage verdict.
	crawl usage.Crawl
}

// finding is something a robot reads differently from what the file
// seems to mean.
type finding struct {
	Line    int    `json:"line"`
	Kind    string `json:"kind"`
	Message string `json:"message"`
}

type auditJSON struct {
	File     string       `json:"file"`
	Robots   []robotAudit `json:"robots"`
	Findings []finding    `json:"findings"`
	AI       aiSummary    `json:"ai"`
}

// aiSummary sorts the AI crawlers (purposes ai-training, ai-search,
// ai-user) by what the file does to them.
// Blocked, Partly and Open hold those that a group names (by their token
// or a fallback); Unmentioned those that only "*" or nothing applies to,
// and Global says what the "*" groups do to them (their access state).
type aiSummary struct {
	Blocked     []string `json:"blocked"`
	Partly      []string `json:"partly"`
	Open        []string `json:"open"`
	Unmentioned []string `json:"unmentioned"`
	Global      string   `json:"unmentioned_state"`
}

func runAudit(e *env, args []string) error {
	fs := newFlags(e, auditCmd)
	format := fs.String("format", "text", "output `format`: text or json")
	nf := addNetFlags(fs, 10)
	if err := parseFlags(e, auditCmd, fs, args); err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return &usageError{msg: "give one robots.txt: a FILE, a URL, or - for standard input"}
	}
	name, src, size, err := loadFileSize(e, nf, fs.Arg(0))
	if src == nil {
		return err
	}
	f := syntax.Parse(name, src)
	a := audit(f, size)
	a.File = name
	if *format == "json" {
		err = writeJSON(e.stdout, a)
	} else {
		err = a.writeText(e.stdout)
	}
	if err != nil {
		return err
	}
	if len(a.Findings) > 0 {
		return errFinding
	}
	return nil
}

// audit reads f, the first 500 KiB of a file of size octets, as every
// robot of the registry does: its access (fetch.Policy.Served then
// robots.Rules.Access: Yandex's robots ignore a file over 500 KiB), and
// its usage of "/" (usage.Decide, with no rules for a robot that ignores
// the file).
func audit(f *syntax.File, size int64) *auditJSON {
	rs := robots.CompileAll(f)
	a := &auditJSON{Findings: []finding{}, AI: aiSummary{Blocked: []string{}, Partly: []string{},
		Open: []string{}, Unmentioned: []string{}, Global: robots.Open.String()}}
	for _, rb := range agents.All() {
		agent, profile := rb.Reader()
		served, _ := fetch.RobotPolicy(rb).Served(size)
		rules := rs.Rules(profile)
		acc := served.For(rules, agent)
		if served != fetch.AccessRules {
			rules = nil
		}
		root := usage.Decide(rules, usage.Robot{Name: rb.Token, Agent: agent}, "/", nil)
		a.Robots = append(a.Robots, robotAudit{Access: wire.Access{Robot: rb.Token, Access: acc},
			Owner: rb.Owner, Purpose: rb.Purpose.String(), Profile: profile.String(), Usage: root.Usage, crawl: root.Crawl})
		if rb.Purpose.AI() {
			switch {
			case acc.Via == robots.ViaStar || acc.Via == robots.ViaNone:
				a.AI.Unmentioned = append(a.AI.Unmentioned, rb.Token)
				if acc.Via == robots.ViaStar && !rb.IgnoresGlobal {
					a.AI.Global = acc.State.String()
				}
			case acc.State == robots.Blocked:
				a.AI.Blocked = append(a.AI.Blocked, rb.Token)
			case acc.State == robots.Partly:
				a.AI.Partly = append(a.AI.Partly, rb.Token)
			default:
				a.AI.Open = append(a.AI.Open, rb.Token)
			}
		}
	}
	a.Findings = append(a.Findings, agentFindings(f)...)
	return a
}

// agentFindings reports User-agent values that robots read as another
// token, retired tokens, and named groups that leave the "*" group's rules
// behind.
func agentFindings(f *syntax.File) []finding {
	var out []finding
	for _, l := range f.Lines {
		if l.Kind != syntax.DirectiveLine || l.Field != syntax.UserAgent {
			continue
		}
		v := f.Text(l.Value)
		if v == "" || v == "*" || strings.HasPrefix(v, "* ") {
			continue
		}
		line := int(l.Span.Start.Line)
		word := v
		if i := strings.IndexAny(v, " \t/;("); i >= 0 {
			word = v[:i]
		}
		tok := robots.LineToken(v)
		if !strings.EqualFold(word, tok) {
			msg := fmt.Sprintf("User-agent %q is read as %q by google, rfc9309, bing and yandex: a product token is letters, '-' and '_' only (RFC 9309 §2.2.1)", v, tok)
			if tok == "" {
				msg = fmt.Sprintf("User-agent %q has no product token (letters, '-' and '_'): google, rfc9309, bing and yandex apply its group to no robot", v)
			}
			if rb, ok := agents.Lookup(word); ok {
				if rb.WholeName() {
					msg += fmt.Sprintf("; %s itself documents this line and matches its whole name, but a robot that parses as RFC 9309 does would not", rb.Token)
				} else {
					msg += fmt.Sprintf("; the group does not apply to %s", rb.Token)
				}
			}
			out = append(out, finding{Line: line, Kind: "token", Message: msg})
		}
		if rb, ok := agents.Lookup(word); ok && rb.Retired {
			msg := fmt.Sprintf("%s is a retired token: %s no longer documents it", rb.Token, rb.Owner)
			if rb.Successor != "" {
				msg += "; name " + rb.Successor
			}
			out = append(out, finding{Line: line, Kind: "retired", Message: msg})
		}
	}
	return append(out, droppedGlobal(robots.Compile(f, robots.Google))...)
}

// droppedGlobal reports each token with a group of its own under which a
// path that a Disallow rule of the "*" groups blocks is allowed: the robot
// obeys only its own group (RFC 9309 §2.2.1; Google: only the most
// specific group applies, "all others are ignored"), which authors often
// forget. google reads the file (rules).
func droppedGlobal(rules *robots.Rules) []finding {
	// The "*" groups' rules are those of a robot no group names.
	var star []string
	for _, ru := range rules.AgentRules(robots.Agent{}) {
		if !ru.Allows() && ru.Pattern != "" && !slices.Contains(star, ru.Pattern) {
			star = append(star, ru.Pattern)
		}
	}
	if len(star) == 0 {
		return nil
	}
	groups := rules.Groups()
	starLine := 0
	for _, g := range groups {
		if g.Global {
			starLine = g.Lines[0]
			break
		}
	}
	var out []finding
	done := map[string]bool{}
	for _, g := range groups {
		for _, v := range g.Agents {
			name := robots.LineToken(v)
			t := strings.ToLower(name)
			if name == "" || g.Global && strings.HasPrefix(v, "*") || done[t] {
				continue
			}
			done[t] = true
			ag := robots.Agent{Tokens: []string{name}, IgnoreGlobal: true}
			var own []string
			for _, ru := range rules.AgentRules(ag) {
				if !ru.Allows() {
					own = append(own, ru.Pattern)
				}
			}
			var missing []string
			for _, p := range star {
				if slices.Contains(own, p) {
					continue
				}
				// The path the rule blocks most plainly: '*' as nothing.
				path := strings.ReplaceAll(strings.TrimSuffix(p, "$"), "*", "")
				if rules.Decide(ag, path).Allowed {
					missing = append(missing, p)
				}
			}
			if len(missing) == 0 {
				continue
			}
			shown := missing
			if len(shown) > 3 {
				shown = shown[:3]
			}
			msg := fmt.Sprintf("%s has a group of its own, so %d Disallow rules of the \"*\" group (line %d) do not apply to it and it may crawl what they block: %s",
				name, len(missing), starLine, strings.Join(shown, ", "))
			if len(missing) > len(shown) {
				msg += ", …"
			}
			out = append(out, finding{Line: g.Lines[0], Kind: "drops-global", Message: msg})
		}
	}
	return out
}

func (a *auditJSON) writeText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d known robots\n\n", a.File, len(a.Robots))
	state, via := map[robots.State]int{}, map[robots.Via]int{}
	for _, r := range a.Robots {
		state[r.State]++
		via[r.Via]++
	}
	fmt.Fprintf(&b, "Blocked: %d; partly blocked: %d; open: %d.\n", state[robots.Blocked], state[robots.Partly], state[robots.Open])
	fmt.Fprintf(&b, "%d follow the \"*\" group, %d have no group, %d are named:\n", via[robots.ViaStar], via[robots.ViaNone], len(a.Robots)-via[robots.ViaStar]-via[robots.ViaNone])
	for _, r := range a.Robots {
		if r.Via == robots.ViaStar || r.Via == robots.ViaNone {
			continue
		}
		by := fmt.Sprintf("its own group, line %d", r.Group)
		if r.Via == robots.ViaFallback {
			by = fmt.Sprintf("a fallback's group, line %d", r.Group)
		}
		fmt.Fprintf(&b, "  %-24s %-8s %-10s %s\n", r.Robot, r.State, r.Profile, by)
	}
	b.WriteString("\nAI crawlers:\n")
	list := func(name string, ts []string) {
		switch {
		case len(ts) == 0:
			ts = []string{"none"}
		case len(ts) > 12:
			ts = append(ts[:12:12], fmt.Sprintf("… and %d more (-format json lists all)", len(ts)-12))
		}
		b.WriteString(wrapList(fmt.Sprintf("%-12s ", name+":"), ts, 2, width))
	}
	list("blocked", a.AI.Blocked)
	list("partly", a.AI.Partly)
	list("open", a.AI.Open)
	list("unmentioned", a.AI.Unmentioned)
	if len(a.AI.Unmentioned) > 0 {
		status := map[string]string{"blocked": "blocked", "partly": "partly blocked", "open": "open"}[a.AI.Global]
		fmt.Fprintf(&b, "  %-12s (the rules for every robot leave them %s)\n", "", status)
	}
	a.writeUsage(&b)
	if len(a.Findings) > 0 {
		b.WriteString("\nFindings:\n")
		for _, fd := range a.Findings {
			fmt.Fprintf(&b, "  %s:%d: %s: %s\n", a.File, fd.Line, fd.Kind, fd.Message)
		}
	}
	_, err := io.WriteString(w, cleanLines(b.String()))
	return err
}

// writeUsage writes what the file lets each robot do with what it
// fetches from "/": the robots grouped by their verdicts, each group
// headed by the purposes stated and the statements that state them, then
// those to which nothing is stated and those that may not crawl "/" (no
// usage verdict). A file that states nothing to any robot gets one line.
func (a *auditJSON) writeUsage(b *strings.Builder) {
	type group struct {
		head   string
		robots []string
	}
	var stated []*group
	index := map[usage.Verdicts]*group{}
	none, blocked := &group{head: "nothing stated"}, &group{head: `may not crawl "/", so no verdict`}
	for _, r := range a.Robots {
		switch head := usageText(&r.Usage); {
		case !r.crawl.Allowed:
			blocked.robots = append(blocked.robots, r.Robot)
		case head == "":
			none.robots = append(none.robots, r.Robot)
		default:
			g := index[r.Usage]
			if g == nil {
				g = &group{head: head}
				index[r.Usage] = g
				stated = append(stated, g)
			}
			g.robots = append(g.robots, r.Robot)
		}
	}
	if len(stated) == 0 {
		b.WriteString("\nUsage of \"/\": the file states no usage preference to any robot.\n")
		return
	}
	b.WriteString("\nUsage of \"/\" (what robots may do with what they fetch):\n")
	for _, g := range append(stated, none, blocked) {
		if len(g.robots) == 0 {
			continue
		}
		b.WriteString(wrapWords(fmt.Sprintf("  %s: %s", g.head, plural(len(g.robots), "robot")), "      ", width))
		rbs := g.robots
		if len(rbs) > 12 {
			rbs = append(rbs[:12:12], fmt.Sprintf("… and %d more (-format json lists all)", len(rbs)-12))
		}
		b.WriteString(wrapList("", rbs, 4, width))
	}
}

// usageText is a robot's usage verdicts in a line, the purposes stated
// grouped by the statement that states them: "search yes, ai-train no
// (Content-Signal line 2); ai-input no (robots token Google-Extended,
// line 9)"; "" when nothing is stated.
func usageText(v *usage.Verdicts) string {
	var order []string
	by := map[string][]string{}
	for p := range robots.NumPurposes {
		u := v.For(p)
		if u.Source == "" {
			continue
		}
		src := usageSource(u)
		if by[src] == nil {
			order = append(order, src)
		}
		by[src] = append(by[src], p.String()+" "+u.Value)
	}
	parts := make([]string, len(order))
	for i, src := range order {
		parts[i] = strings.Join(by[src], ", ") + " (" + clean(src) + ")"
	}
	return strings.Join(parts, "; ")
}

// usageSource names the statement of a usage verdict with its line:
// "Content-Signal line 2", "robots token Google-Extended, line 9" (the
// Disallow line of the token's group).
func usageSource(v *usage.Verdict) string {
	if v.Line > 0 && !strings.HasSuffix(v.Source, fmt.Sprintf(" line %d", v.Line)) {
		return fmt.Sprintf("%s, line %d", v.Source, v.Line)
	}
	return v.Source
}
