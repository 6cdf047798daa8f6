package main

import (
	"strings"

	"github.com/robotskit/robots/fetch"
)

// watchSpec is the assertions of robots watch -assert: the lines robots
// assert reads, checked on every fetch with robots assert's code.
type watchSpec struct{ spec *assertSpec }

// loadWatchSpec reads and parses the -assert files; every error of
// every file is printed, as robots assert prints them, before anything
// is fetched.
func loadWatchSpec(e *env, names []string) (*watchSpec, error) {
	if len(names) == 0 {
		return nil, nil
	}
	datas := make([][]byte, len(names))
	shown := make([]string, len(names))
	for i, n := range names {
		if n == "-" {
			return nil, &usageError{msg: "-assert -: robots watch reads its specs from files"}
		}
		data, err := readSpec(e, n)
		if err != nil {
			return nil, err
		}
		datas[i], shown[i] = data, specName(n)
	}
	spec, err := parseAssertSpecs(shown, datas, 0, false)
	if err != nil {
		return nil, reportSpecErrors(e, watchCmd, err)
	}
	return &watchSpec{spec}, nil
}

// watchAsserted is how a site's fetch fared against the assertions: the
// counts and the failing ones, as robots assert -format json gives them.
type watchAsserted struct {
	Hold    int          `json:"hold"`
	Fail    int          `json:"fail"`
	Failing []assertJSON `json:"failing"`
	Error   string       `json:"error,omitempty"`

	text    []string // the failing lines, as robots assert prints them
	summary string   // robots assert's count line
}

// eval checks the assertions on one fetch.
func (s *watchSpec) eval(e *env, res *fetch.Result) *watchAsserted {
	results, err := evalAssertions(e, s.spec, res)
	if err != nil {
		return &watchAsserted{Error: err.Error()}
	}
	out := &watchAsserted{Failing: []assertJSON{}, summary: assertSummary(results)}
	for _, r := range results {
		if r.Hold {
			out.Hold++
			continue
		}
		out.Fail++
		out.Failing = append(out.Failing, r.json())
		out.text = append(out.text, assertLine(r))
	}
	return out
}

// key identifies the failing set, so that a daemon posts it once.
func (a *watchAsserted) key() string { return strings.Join(a.text, "\n") + a.Error }

// writeText writes the failing assertions and the counts.
func (a *watchAsserted) writeText(b *strings.Builder) {
	if a.Error != "" {
		b.WriteString("  assertions: " + clean(a.Error) + "\n")
		return
	}
	for _, l := range a.text {
		b.WriteString("  " + l + "\n")
	}
	b.WriteString("  " + a.summary + "\n")
}
