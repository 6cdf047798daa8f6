package scan

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/robotskit/robots/agents"
)

// Options says what Analyze works out beyond the facts of a capture. The
// zero Options gives no robot verdicts and runs no checker. An Options is
// only read: one value may serve any number of goroutines.
type Options struct {
	// Robots are the robots of the registry (package agents) that each
	// Row gives a verdict for, in this order (Row.Robots); nil gives
	// none. Each is read under its own Profile and Fetch policy, with its
	// Fallback tokens, IgnoresGlobal and whole-name reading, as the
	// command's other subcommands read it. SelectRobots makes the
	// selections the command's -robots flag names.
	Robots []agents.Robot
	// Lint runs the checker (package lint) on each capture and records
	// the codes it reports in Row.Lint. It costs far more than the rest
	// of Analyze.
	Lint bool
	// LintBudget bounds the checker's time on one capture; 0 means
	// DefaultLintBudget. When the budget runs out, Row.LintTimeout is set
	// and Row.Lint is empty. The budget is wall-clock time, so which
	// captures run out of it depends on the machine and its load.
	LintBudget time.Duration
}

// DefaultLintBudget is the checker's time budget per capture when
// Options.LintBudget is 0.
const DefaultLintBudget = 50 * time.Millisecond

// lintBudget returns the checker's budget.
func (o *Options) lintBudget() time.Duration {
	if o.LintBudget > 0 {
		return o.LintBudget
	}
	return DefaultLintBudget
}

// SelectRobots returns the robots a selection names, in order, each once:
//
//   - "" (the default): the registry's search robots, then its AI robots
//     (as "search" then "ai");
//   - "all": every robot of the registry (agents.All);
//   - "search": the robots whose purpose is search (agents.Search);
//   - "ai": those whose purpose is AI training, AI search or an AI
//     assistant's fetches (agents.AITraining, agents.AISearch,
//     agents.AIUser);
//   - a comma-separated list of product tokens of the registry, compared
//     ignoring case, in which the words above may stand too: "GPTBot,
//     ClaudeBot" or "search,CCBot".
//
// Each group is in the registry's order (by token); retired robots and
// control tokens such as Google-Extended are included, since files still
// name them. An unknown token is an error that names it and suggests the
// closest tokens of the registry.
func SelectRobots(spec string) ([]agents.Robot, error) {
	var out []agents.Robot
	seen := make(map[string]bool)
	add := func(rs []agents.Robot) {
		for _, r := range rs {
			if k := strings.ToLower(r.Token); !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
	}
	if strings.TrimSpace(spec) == "" {
		spec = "search,ai"
	}
	var bad []string
	for item := range strings.SplitSeq(spec, ",") {
		item = strings.TrimSpace(item)
		switch strings.ToLower(item) {
		case "":
		case "all":
			add(agents.All())
		case "search":
			add(agents.ByPurpose(agents.Search))
		case "ai":
			add(agents.ByPurpose(agents.AITraining))
			add(agents.ByPurpose(agents.AISearch))
			add(agents.ByPurpose(agents.AIUser))
		default:
			r, ok := agents.Lookup(item)
			if !ok {
				bad = append(bad, item)
				continue
			}
			add([]agents.Robot{r})
		}
	}
	if len(bad) > 0 {
		var b strings.Builder
		for i, name := range bad {
			if i > 0 {
				b.WriteString("; ")
			}
			b.WriteString("unknown robot " + strconv.Quote(name))
			if near := agents.Closest(name, 3); len(near) > 0 {
				b.WriteString("; did you mean " + orList(near) + "?")
			}
		}
		b.WriteString(` (want "all", "search", "ai" or tokens of the registry, see "robots agents")`)
		return nil, errors.New(b.String())
	}
	return out, nil
}

// orList joins names as "a", "a or b", "a, b or c".
func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
