package check

import (
	"context"
	"errors"
)

// The work of a pass is counted in units, so that a bound on it decides
// the same way for one file on any machine under any load. Each step of
// the checker is charged a weight in units: a check's read of the whole
// file (a unit per line and per 16 bytes), a finding, a rule compared
// with another, a candidate URL matched against a rule or decided by a
// rule set, a text compiled or a look of the prover at its context in a
// fix's proof. The weights are set so that a unit costs about the same
// time whatever the step (some 5 ns on the machine they were measured
// on), which makes the count a stand-in for the time, and a bound on it
// a bound on the time. Charging is adding to a counter: the checks charge
// what a loop will cost before they run it (or, for a loop that may stop
// early, what it cost when it is over), in the loops whose cost grows
// faster than the file, and give up when the pass has stopped.
//
// Nothing the process has seen before changes the count: a cost that a
// cache of the process may spare (the nearest known robot of an agent
// name) is charged all the same.

// ErrBudget is the error of a pass whose work ran past its budget
// (SetBudget).
var ErrBudget = errors.New("lint: work budget exceeded")

// pollEvery is how many units a pass spends between two looks at its
// context.
const pollEvery = 1 << 12

// The units of the steps the pass itself charges; the checks and
// package eval charge theirs.
const (
	// bytesPerUnit is how many bytes of the file make one unit of a
	// check's read of the whole file (Run), on top of one unit per line.
	bytesPerUnit = 16
	// checkUnits is what a check costs on top of its read of the file.
	checkUnits = 100
	// reportUnits is a finding: its message formatted, and its share of
	// the sorting and copying of the findings at the end.
	reportUnits = 200
	// stepUnits is a step of a loop whose cost grows faster than the
	// file (Stopped).
	stepUnits = 4
	// proofByteUnits is a byte of a text a proof compiles under both
	// profiles, with the rules of each of its agents.
	proofByteUnits = 16
	// proverAgentUnits is a look of the prover at its context before it
	// compares the rules of one agent under one profile, and
	// proverStepsUnits one after some 256 steps of its probe loops
	// (lines or crossings read, probes tried).
	proverAgentUnits = 256
	proverStepsUnits = 1 << 14
)

// SetBudget bounds the work of the pass to units (0: no bound); once the
// checks have charged more, the pass stops (Stopped) and Run returns
// ErrBudget. The work of reading the model counts too.
func (p *Pass) SetBudget(units int64) { p.budget = units }

// Work returns the units charged so far.
func (p *Pass) Work() int64 { return p.work }

// Spend charges n units of work to the pass and reports whether the run
// has stopped: its work has run past its budget, or its context has
// ended, which Spend looks at once every few thousand units. Once the run
// has stopped every call reports it, and Run returns the error (ErrBudget
// or the context's). A check charges a loop's cost before it runs it and
// gives up when Spend reports the stop; the units are counted in any
// case.
func (p *Pass) Spend(n int) bool {
	p.work += int64(n)
	if p.err != nil {
		return true
	}
	if p.budget > 0 && p.work > p.budget {
		p.err = ErrBudget
		return true
	}
	if p.work >= p.nextPoll {
		p.nextPoll = p.work + pollEvery
		p.err = p.ctx.Err()
	}
	return p.err != nil
}

// Stopped is Spend for one step of a loop whose cost grows faster than
// the file (EachRule calls it for each rule).
func (p *Pass) Stopped() bool { return p.Spend(stepUnits) }

// fileCost is the units of one read of the whole file: one per line, and
// one per bytesPerUnit bytes.
func (p *Pass) fileCost() int { return len(p.Lines) + len(p.Src)/bytesPerUnit }

// meter is the context the prover of a pass polls during one proof:
// each look at Err charges the pass, and reports ErrBudget once its
// budget is spent, as Err reports the end of the pass's own context. Done
// is that context's: the prover only polls Err, so that a budget that
// runs out stops it at its next look, as an ended context does.
//
// The prover looks at its context before each agent it compares under
// each profile, and after every 256 steps of its probe loops, which cost
// far more; which kind of look a call is, the meter cannot tell. It
// charges the first looks of a proof as the agents' (as many as there
// are agents under both profiles) and the others as the probe loops':
// a deterministic count, though the loops of an agent compared early
// count as agents' looks.
type meter struct {
	context.Context
	p *Pass
	// polls counts the looks so far; the first agentPolls are charged
	// as the agents'.
	polls, agentPolls int
}

// Err charges a look of the prover and returns the pass's error, if any.
func (m *meter) Err() error {
	units := proverStepsUnits
	if m.polls < m.agentPolls {
		units = proverAgentUnits
	}
	m.polls++
	if m.p.Spend(units) {
		return m.p.err
	}
	if err := m.Context.Err(); err != nil {
		m.p.err = err
		return err
	}
	return nil
}

// agentPolls returns how many looks at its context the prover makes
// before the agents it compares under both profiles: one per profile,
// and one per agent and profile, for the distinct agents of the pass,
// the robots that read the "*" groups, and one that an edit may add.
func (p *Pass) agentPolls() int {
	if p.proverAgents == 0 {
		seen := map[string]bool{}
		for i := range p.Lines {
			if l := &p.Lines[i]; l.Dir == UserAgent && l.Agent != "" && l.Agent != "*" {
				seen[l.Agent] = true
			}
		}
		p.proverAgents = len(seen) + 2
	}
	return 2 * (1 + p.proverAgents)
}
