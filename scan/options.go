package scan

import (
	"github.com/robotskit/robots/agents"
	"github.com/robotskit/robots/lint"
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
	// LintWork bounds the checker's work on one capture, in the units of
	// lint.Config.MaxWork (about 5 ns of work each); 0 (or less) means
	// DefaultLintWork. When the work runs past it, Row.LintTimeout is
	// set and Row.Lint is empty. The work is counted, not timed: which
	// captures run out of it depends only on their body and response,
	// never on the machine or its load, so that the same input gives the
	// same rows and summary on any machine.
	LintWork int64
}

// DefaultLintWork is the checker's work budget per capture when
// Options.LintWork is 0: lint.DefaultMaxWork, 25 million units, some
// 125 ms of work. Every file of a corpus of 3,691 real robots.txt files
// fits in it, the largest (833 KiB) and the costliest included; files
// built to be costly run out of it.
const DefaultLintWork = lint.DefaultMaxWork

// lintWork returns the checker's work budget.
func (o *Options) lintWork() int64 {
	if o.LintWork > 0 {
		return o.LintWork
	}
	return DefaultLintWork
}

// SelectRobots returns the robots a selection names, in order, each once:
// agents.Select's words ("" for the search then the AI robots, "all",
// "search", "ai", a purpose) and product tokens of the registry, comma
// separated. An unknown token is an error that names it and suggests the
// closest tokens of the registry.
func SelectRobots(spec string) ([]agents.Robot, error) { return agents.Select(spec) }
