package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/robotskit/robots"
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/fetch"
	"github.com/robotskit/robots/syntax"
)

// maxNamed bounds the robots a hover names for one profile; the rest are
// counted.
const maxNamed = 12

// readers is the text as every profile reads it: the compiled rules of
// its first 500 KiB (robots.Cut), with the robots of the registry.
type readers struct {
	rs    *robots.Readings
	lines int   // the lines robots read
	size  int64 // the whole text's size, for fetch.Policy.Served
}

func (a *analysis) readers() *readers {
	a.readOnce.Do(func() {
		src := a.file.Bytes()
		cut := robots.Cut(src)
		f := syntax.Parse(a.file.Name, cut)
		a.rd = &readers{rs: robots.CompileAll(f), lines: len(f.Lines), size: int64(len(src))}
	})
	return a.rd
}

// hover says, on an Allow or Disallow line, how each profile reads it
// and which robots of the registry obey it; on a User-agent line, which
// robots end up in its group and how each finds it.
func hover(ctx context.Context, s *server, snap *snapshot, params json.RawMessage) (any, error) {
	var p textDocumentPositionParams
	if err := json.Unmarshal(params, &p); err != nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: err.Error()}
	}
	a, err := s.analyze(ctx, snap)
	if err != nil {
		return nil, err
	}
	i := p.Position.Line
	if i < 0 || i >= len(a.file.Lines) {
		return nil, nil
	}
	l := &a.file.Lines[i]
	if l.Kind != syntax.DirectiveLine {
		return nil, nil
	}
	var text string
	switch l.Field {
	case syntax.UserAgent:
		text = a.hoverAgent(i + 1)
	case syntax.Allow, syntax.Disallow:
		text = a.hoverRule(i + 1)
	default:
		return nil, nil
	}
	r := a.x.lineRange(i)
	return Hover{Contents: markupContent{Kind: "markdown", Value: text}, Range: &r}, nil
}

// lineText is line n of the file as written, for a heading.
func (a *analysis) lineText(n int) string {
	l := &a.file.Lines[n-1]
	return strings.TrimSpace(a.file.Text(syntax.Span{Start: l.Span.Start, End: l.Span.End}))
}

// groupAt returns the group of rules that line n is in under their
// profile: the last whose first User-agent line is at or above n.
func groupAt(rules *robots.Rules, n int) (robots.Group, bool) {
	var g robots.Group
	ok := false
	for _, x := range rules.Groups() {
		if len(x.Lines) == 0 || x.Lines[0] > n {
			break
		}
		g, ok = x, true
	}
	return g, ok
}

// agentOf returns a robot that the group g applies to: any robot no group
// names, for a "*" group, else its first User-agent value's product
// token.
func agentOf(g robots.Group) robots.Agent {
	if g.Global || len(g.Agents) == 0 {
		return robots.Agent{}
	}
	if tok := robots.LineToken(g.Agents[0]); tok != "" {
		return robots.Token(tok)
	}
	return robots.Agent{Tokens: []string{g.Agents[0]}, WholeName: true}
}

func (a *analysis) hoverRule(n int) string {
	rd := a.readers()
	l := &a.file.Lines[n-1]
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (line %d)\n\n", code(a.lineText(n)), n)
	if n > rd.lines {
		b.WriteString("Robots do not read this line: it is past the first 500 KiB of the file, all that Google reads (RFC 9309 lets every robot stop there).\n")
		return b.String()
	}
	b.WriteString("How each family reads it:\n\n")
	for _, p := range robots.Profiles() {
		fmt.Fprintf(&b, "- %s: %s\n", p, a.ruleReading(rd.rs.Rules(p), l, n))
	}
	b.WriteString("\n")
	a.writeRobots(&b, "Obeyed by", func(rb agents.Robot, rules *robots.Rules, agent robots.Agent) (string, bool) {
		for _, ru := range rules.AgentRules(agent) {
			if ru.Line == n {
				return rb.Token, true
			}
		}
		return "", false
	})
	return b.String()
}

// ruleReading says what rules, compiled for one profile, make of the
// rule line l at line n.
func (a *analysis) ruleReading(rules *robots.Rules, l *syntax.Line, n int) string {
	g, ok := groupAt(rules, n)
	if !ok {
		return "ignored: no User-agent line above it"
	}
	var read []string
	for _, ru := range rules.AgentRules(agentOf(g)) {
		if ru.Line != n {
			continue
		}
		switch {
		case ru.Pattern == "" && ru.Field == syntax.Disallow:
			read = append(read, "an empty Disallow: forbids nothing")
		case ru.Pattern == "":
			read = append(read, "an empty Allow: matches no path")
		default:
			read = append(read, fmt.Sprintf("%s of %s", ru.Field, code(ru.Pattern)))
		}
	}
	key := a.file.Text(l.Key)
	switch {
	case len(read) > 0 && l.Flags&syntax.Lenient != 0:
		return fmt.Sprintf("%s (the key %s read as %s)", strings.Join(read, ", and "), code(key), l.Field)
	case len(read) > 0 && l.Flags&syntax.MissingColon != 0:
		return fmt.Sprintf("%s (read without its ':')", strings.Join(read, ", and "))
	case len(read) > 0:
		return strings.Join(read, ", and ")
	case l.Flags&syntax.Lenient != 0:
		return fmt.Sprintf("ignored: the key %s is not %s", code(key), l.Field)
	case l.Flags&syntax.MissingColon != 0:
		return "ignored: no ':' after the key"
	}
	return "ignored"
}

func (a *analysis) hoverAgent(n int) string {
	rd := a.readers()
	l := &a.file.Lines[n-1]
	v := a.file.Text(l.Value)
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** (line %d)\n\n", code(a.lineText(n)), n)
	if n > rd.lines {
		b.WriteString("Robots do not read this line: it is past the first 500 KiB of the file, all that Google reads (RFC 9309 lets every robot stop there).\n")
		return b.String()
	}
	switch tok := robots.LineToken(v); {
	case v == "*" || strings.HasPrefix(v, "* "):
		b.WriteString("The group of every robot that no other group names.\n\n")
	case tok == "":
		fmt.Fprintf(&b, "%s has no product token (letters, '-' and '_'): google, rfc9309, bing and yandex apply its group to no robot by that name.\n\n", code(v))
	case tok != v:
		fmt.Fprintf(&b, "Read as the product token %s by google, rfc9309, bing and yandex (RFC 9309 §2.2.1).\n\n", code(tok))
	}
	a.writeRobots(&b, "Robots whose group this is", func(rb agents.Robot, rules *robots.Rules, agent robots.Agent) (string, bool) {
		g, ok := groupAt(rules, n)
		if !ok {
			return "", false
		}
		mine, ok := rules.Group(agent)
		if !ok || !slices.Contains(mine.Lines, g.Lines[0]) {
			return "", false
		}
		acc := rules.Access(agent)
		via := ""
		switch acc.Via {
		case robots.ViaFallback:
			via = "by fallback, "
		case robots.ViaStar:
			if !g.Global {
				via = "through *, " // under a profile that reads the group differently
			}
		}
		return fmt.Sprintf("%s (%s%s)", rb.Token, via, acc.State), true
	})
	return b.String()
}

// writeRobots lists the robots of the registry for which pick says yes,
// by profile, each as pick names it; a robot that ignores the file (its
// fetch policy, for a file over 500 KiB) is not listed.
func (a *analysis) writeRobots(b *strings.Builder, title string, pick func(agents.Robot, *robots.Rules, robots.Agent) (string, bool)) {
	rd := a.readers()
	byProfile := map[robots.Profile][]string{}
	total := 0
	for _, rb := range registry() {
		if served, _ := fetch.RobotPolicy(rb).Served(rd.size); served != fetch.AccessRules {
			continue
		}
		agent, p := rb.Reader()
		if name, ok := pick(rb, rd.rs.Rules(p), agent); ok {
			byProfile[p] = append(byProfile[p], name)
			total++
		}
	}
	if total == 0 {
		fmt.Fprintf(b, "%s: none of the %d known robots.\n", title, len(agents.All()))
		return
	}
	fmt.Fprintf(b, "%s (%d of the known robots, by how they read robots.txt):\n\n", title, total)
	for _, p := range robots.Profiles() {
		names := byProfile[p]
		if len(names) == 0 {
			continue
		}
		more := ""
		if len(names) > maxNamed {
			more = fmt.Sprintf(" and %d more", len(names)-maxNamed)
			names = names[:maxNamed]
		}
		fmt.Fprintf(b, "- %s: %s%s\n", p, strings.Join(names, ", "), more)
	}
}

// registry returns the robots of the registry, those a side-by-side
// comparison shows by default first (agents.Default: the main search and
// AI crawlers), so that a list cut at maxNamed names them.
func registry() []agents.Robot {
	out := agents.Default()
	seen := map[string]bool{}
	for _, rb := range out {
		seen[rb.Token] = true
	}
	for _, rb := range agents.All() {
		if !seen[rb.Token] {
			out = append(out, rb)
		}
	}
	return out
}

// code writes s as Markdown code.
func code(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
