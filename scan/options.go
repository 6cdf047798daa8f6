package scan

import (
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
// agents.Select's words ("" for the search then the AI robots, "all",
// "search", "ai", a purpose) and product tokens of the registry, comma
// separated. An unknown token is an error that names it and suggests the
// closest tokens of the registry.
func SelectRobots(spec string) ([]agents.Robot, error) { return agents.Select(spec) }
